/*
 * exectim.c -- the runs the execution-time models are built from and
 * judged by (Ichikawa and Kawai 2008; TIMING/exec.sh, make exec): square
 * PDGEMMs C = A B of order N on every grid of this run's processes, timed.
 *
 *   mpiexec -n NP ./xexectim -l LABEL [-n N,N,..] [-g PxQ,..] [-a ALGO,..]
 *                            [-r R] [-b NB] [-o FILE.csv]
 *
 * LABEL names the configuration the run emulates (exec.sh passes the
 * processors and processes per processor of each kind, "2x1+0x0"; the
 * processor speeds come from PUMMA_SPEEDS and PUMMA_SPEED_BASE). -g: the
 * grids (default: every p x q = NP). -a: pumma's algorithms by name
 * (pumma_codes.h; default auto) and "scalapack" for ScaLAPACK's own
 * PDGEMM (pumma_use(0)). Per grid one untimed small call (the grid's
 * first, which measures pumma's machine model); per N and algorithm one
 * untimed call, then R (3) timed ones, the slowest process's time each.
 * The first timed call's C is checked: C x against A (B x) for a vector
 * x (PDGEMV), relative to N^3 eps; a wrong C is reported WRONG and the run
 * fails. CSV: label,np,p,q,n,nb,algo,best,median,reps.
 *
 * Simulated (make smpi; TIMING/smpi/models-exec.sh) under the compute
 * model (PUMMA_SMPI_COMPUTE): every local multiply is charged at the
 * simulated host's speed and nothing is computed, so the operands are
 * folded (SMPI_SHARED_MALLOC: every rank's the same memory), left
 * unfilled, and C is not checked; a call takes the same simulated time
 * every time, so none is left untimed (but the grid's first).
 */
#define _POSIX_C_SOURCE 200809L  /* getopt */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pumma.h"
#include "pumma_codes.h"
#include "timutil.h"

void pdgemv_(const char *, const int *, const int *, const double *,
             const double *, const int *, const int *, const int *,
             const double *, const int *, const int *, const int *,
             const int *, const double *, double *, const int *, const int *,
             const int *, const int *);

enum { MAXN = 32, MAXG = 64, MAXA = 16, SCALAPACK = -1 };
static int me, np, modelled;

typedef struct { const char *name; int code; } algo_name_t;
#define ALGO_NAME(N, v, s) {s, v},
static const algo_name_t names[] = {PUMMA_BC_ALGO_LIST(ALGO_NAME)
                                    {"scalapack", SCALAPACK}};

static void stop(const char *what)
{
    if (me == 0) fprintf(stderr, "xexectim: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static int algo_code(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == len && !strncmp(names[i].name, s, len))
            return names[i].code;
    char why[160];
    snprintf(why, sizeof why, "unknown algorithm '%.*s' (pumma_codes.h's "
             "names, or scalapack)", (int)len, s);
    stop(why);
    return 0;
}

static const char *algo_label(int code)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == code) return names[i].name;
    return "?";
}

typedef tim_mat_t mat_t;

static void mat_make(mat_t *x, int id, int ctxt, int m, int n, int nb,
                     int myr, int myc, int P, int Q)
{
    tim_mat_make(x, modelled ? 0 : id, ctxt, m, n, nb, myr, myc, P, Q);
    if (!x->a) stop("out of memory");
#ifdef PUMMA_SMPI
    if (modelled) {
        free(x->a);
        x->a = SMPI_SHARED_MALLOC(sizeof(double) * (size_t)x->lld *
                                  (size_t)(x->nloc > 0 ? x->nloc : 1));
    }
#endif
}

static void mat_free(mat_t *x)
{
#ifdef PUMMA_SMPI
    if (modelled) {
        SMPI_SHARED_FREE(x->a);
        return;
    }
#endif
    free(x->a);
}

static void multiply(int algo, int n, mat_t *a, mat_t *b, mat_t *c)
{
    const double one = 1, zero = 0;
    const int i1 = 1;
    if (algo == SCALAPACK) {
        pumma_use(0);
        pdgemm_("N", "N", &n, &n, &n, &one, a->a, &i1, &i1, a->desc, b->a,
                &i1, &i1, b->desc, &zero, c->a, &i1, &i1, c->desc);
        pumma_use(1);
        return;
    }
    if (tim_square(algo, n, a, b, c))
        stop("pumma_pdgemm_opts returned a nonzero INFO");
}

/* max |C x - A (B x)| / (N^3 eps), x a column of matrix id 9, over the
 * grid (every process returns it). */
static double residual(int ctxt, int n, int nb, int myr, int myc, int P,
                       int Q, mat_t *a, mat_t *b, mat_t *c)
{
    mat_t x, y, z, w;
    const int i1 = 1;
    const double one = 1, zero = 0;
    mat_make(&x, 9, ctxt, n, 1, nb, myr, myc, P, Q);
    mat_make(&y, 0, ctxt, n, 1, nb, myr, myc, P, Q);
    mat_make(&z, 0, ctxt, n, 1, nb, myr, myc, P, Q);
    mat_make(&w, 0, ctxt, n, 1, nb, myr, myc, P, Q);
    pdgemv_("N", &n, &n, &one, c->a, &i1, &i1, c->desc, x.a, &i1, &i1,
            x.desc, &i1, &zero, y.a, &i1, &i1, y.desc, &i1);
    pdgemv_("N", &n, &n, &one, b->a, &i1, &i1, b->desc, x.a, &i1, &i1,
            x.desc, &i1, &zero, z.a, &i1, &i1, z.desc, &i1);
    pdgemv_("N", &n, &n, &one, a->a, &i1, &i1, a->desc, z.a, &i1, &i1,
            z.desc, &i1, &zero, w.a, &i1, &i1, w.desc, &i1);
    double d = 0, all;
    if (myc == 0)                /* the vectors live in grid column 0 */
        for (int i = 0; i < y.mloc; i++) {
            const double e = fabs(y.a[i] - w.a[i]);
            if (!(e <= d)) d = e;              /* NaN wins */
        }
    MPI_Allreduce(&d, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    mat_free(&x); mat_free(&y); mat_free(&z); mat_free(&w);
    return all / ((double)n * n * n * DBL_EPSILON);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
#ifdef PUMMA_SMPI
    modelled = getenv("PUMMA_SMPI_COMPUTE") && *getenv("PUMMA_SMPI_COMPUTE");
#endif
    const char *label = NULL, *out = NULL, *glist = NULL;
    const char *nlist = "400,800,1200", *alist = "auto";
    int reps = 3, nb = 64, opt;
    while ((opt = getopt(argc, argv, "l:n:g:a:r:b:o:")) != -1) {
        switch (opt) {
        case 'l': label = optarg; break;
        case 'n': nlist = optarg; break;
        case 'g': glist = optarg; break;
        case 'a': alist = optarg; break;
        case 'r': reps = atoi(optarg); break;
        case 'b': nb = atoi(optarg); break;
        case 'o': out = optarg; break;
        default: stop("usage: xexectim -l LABEL [-n N,..] [-g PxQ,..] "
                      "[-a ALGO,..] [-r R] [-b NB] [-o FILE.csv]");
        }
    }
    if (!label || strchr(label, ',')) stop("-l LABEL (no commas) is needed");
    if (reps < 1 || reps > 1000 || nb < 1) stop("bad -r or -b");
    int nv[MAXN];
    const int ns = tim_ints(nlist, nv, MAXN);
    if (ns < 1) stop("bad -n list");
    int na = 0, av[MAXA];
    for (const char *s = alist; *s && na < MAXA;) {
        size_t len = strcspn(s, ",");
        av[na++] = algo_code(s, len);
        s += len + (s[len] == ',');
    }
    int gp[MAXG], gq[MAXG];
    const int ng = tim_grids(glist, np, gp, gq, MAXG);
    if (ng == 0) stop("no grid of -g has NP processes");

    FILE *csv = NULL;
    if (me == 0 && out) {
        csv = fopen(out, "a");
        if (!csv) stop("cannot open the -o file");
    }
    int wrong = 0;
    double *t = malloc(sizeof(double) * (size_t)reps);
    for (int g = 0; g < ng; g++) {
        int ctxt, P, Q, myr, myc;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", gp[g], gq[g]);
        Cblacs_gridinfo(ctxt, &P, &Q, &myr, &myc);
        {   /* the grid's first call: pumma measures its machine model */
            int n0 = 2 * nb * (P > Q ? P : Q);
            mat_t a, b, c;
            mat_make(&a, 1, ctxt, n0, n0, nb, myr, myc, P, Q);
            mat_make(&b, 2, ctxt, n0, n0, nb, myr, myc, P, Q);
            mat_make(&c, 0, ctxt, n0, n0, nb, myr, myc, P, Q);
            multiply(PUMMA_ALGO_AUTO, n0, &a, &b, &c);
            mat_free(&a); mat_free(&b); mat_free(&c);
        }
        for (int i = 0; i < ns; i++) {
            const int n = nv[i];
            mat_t a, b, c;
            mat_make(&a, 1, ctxt, n, n, nb, myr, myc, P, Q);
            mat_make(&b, 2, ctxt, n, n, nb, myr, myc, P, Q);
            mat_make(&c, 0, ctxt, n, n, nb, myr, myc, P, Q);
            for (int j = 0; j < na; j++) {
                if (!modelled)        /* simulated: every call the same */
                    multiply(av[j], n, &a, &b, &c);        /* untimed */
                for (int r = 0; r < reps; r++) {
                    MPI_Barrier(MPI_COMM_WORLD);
                    const double t0 = MPI_Wtime();
                    multiply(av[j], n, &a, &b, &c);
                    t[r] = tim_slowest(t0);
                    if (r == 0 && !modelled) {
                        const double e = residual(ctxt, n, nb, myr, myc, P, Q,
                                                  &a, &b, &c);
                        if (!(e < 16)) {
                            wrong = 1;
                            if (me == 0)
                                printf("WRONG %s %dx%d N=%d %s: residual "
                                       "%.3g N^3 eps\n", label, P, Q, n,
                                       algo_label(av[j]), e);
                        }
                    }
                }
                double best = t[0];
                for (int r = 1; r < reps; r++)
                    if (t[r] < best) best = t[r];
                const double med = tim_median(t, reps);
                if (me == 0) {
                    printf("%-12s %2dx%-2d N=%-6d %-10s best %.4e s  median "
                           "%.4e s\n", label, P, Q, n, algo_label(av[j]),
                           best, med);
                    fflush(stdout);
                    if (csv)
                        fprintf(csv, "%s,%d,%d,%d,%d,%d,%s,%.6e,%.6e,%d\n",
                                label, np, P, Q, n, nb, algo_label(av[j]),
                                best, med, reps);
                }
            }
            mat_free(&a); mat_free(&b); mat_free(&c);
        }
        Cblacs_gridexit(ctxt);
    }
    free(t);
    if (csv) fclose(csv);
    MPI_Finalize();
    return wrong;
}
