/*
 * firstcall.c -- what a program's first PDGEMM call, and the first call of
 * each new shape, costs beside the later calls of the same shape (issue
 * 28: the first call within 10% + 5 ms of the later ones once the tune
 * file exists).
 *
 *   mpiexec -n NP ./xfirstcall [-g PxQ,..] [-s MxNxK,..] [-t NN,NT,..]
 *                              [-r R] [-b NB] [-w] [-o FILE.csv]
 *
 * In one program, for each grid (1x2,2x1), each shape (2000x2000x2000,
 * 3000x3000x64, 200x200x200) and each TRANSA TRANSB (NN,NT,TN,TT), in that
 * order: one call timed as "first" (the first of that grid, shape and
 * operation in the program; the program's very first call also pays for
 * whatever is done once: the grid's communicators, the machine model, the
 * BLAS's and MPI's first use), then R (5) calls, their median "later".
 * extra = first - later; target "ok" when first <= 1.1 later + 5 ms.
 * C := A op(B) + C (BETA 1: C as a solver's update reads it), A, B and C
 * allocated and filled by the driver before the call, so their pages are
 * the program's, not the call's. Times: the slowest process's, from a
 * barrier. peak: pumma_mem_peak over the case (pumma's temporaries in
 * use at once), MiB, rank 0; rss: rank 0's maximum resident set size so
 * far, MiB; faults: rank 0's minor page faults in the first call and the
 * most in a later one (a fresh page costs a fault and a clear: what a
 * first call pays for temporaries no earlier call left behind, and a
 * count that the machine's load does not blur); sys: rank 0's seconds in
 * the kernel (faults, mappings) in the first call and the most in a
 * later one, ms (CPU time: on a busy machine the wall clock also counts
 * the waits for a process another program holds the core from).
 *
 * -w warms the BLAS first: one local DGEMM of order 256 per process (the
 * BLAS's own first call: OpenBLAS allocates its buffer and sets up its
 * threads), so that the first PDGEMM's extra is pumma's and MPI's.
 * `make -C TIMING firstcall` runs this in one program, then each case in a
 * process of its own: out/firstcall.txt.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pumma.h"
#include "timutil.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *,
            const double *, const double *, const int *, const double *,
            const int *, const double *, double *, const int *);

enum { MAXS = 16, MAXOP = 4 };
static int me, np;

/* "MxNxK,.." into s[][3]: how many, or -1 when malformed. */
static int parse_shapes(const char *list, int s[][3], int max)
{
    int n = 0;
    for (const char *p = list; *p && n < max;) {
        int used;
        if (sscanf(p, "%dx%dx%d%n", &s[n][0], &s[n][1], &s[n][2], &used) != 3 ||
            s[n][0] < 1 || s[n][1] < 1 || s[n][2] < 1)
            return -1;
        n++;
        p += used;
        if (*p == ',') p++;
        else if (*p) return -1;
    }
    return n;
}

/* "NN,NT,.." into op[][2]: how many, or -1 when malformed. */
static int parse_ops(const char *list, char op[][2], int max)
{
    int n = 0;
    for (const char *p = list; *p && n < max; n++) {
        if (!strchr("NT", p[0]) || !p[0] || !strchr("NT", p[1]) || !p[1] ||
            (p[2] && p[2] != ','))
            return -1;
        op[n][0] = p[0];
        op[n][1] = p[1];
        p += p[2] ? 3 : 2;
    }
    return n;
}

static void usage(const char *prog)
{
    if (me == 0)
        fprintf(stderr, "usage: mpiexec -n NP %s [-g PxQ,..] [-s MxNxK,..] "
                        "[-t NN,NT,TN,TT] [-r R] [-b NB] [-w] [-o FILE.csv]\n",
                prog);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* One local DGEMM of order 256 per process: the BLAS's first call. */
static double warm_blas(void)
{
    const int n = 256;
    const double one = 1, zero = 0;
    double *a = calloc((size_t)3 * n * n, sizeof(double));
    if (!a) return 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    dgemm_("N", "N", &n, &n, &n, &one, a, &n, a + n * n, &n, &zero,
           a + 2 * n * n, &n);
    double dt = tim_slowest(t0);
    free(a);
    return dt;
}

static double rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;            /* (KiB on Linux) */
}

static long faults(double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *sys = ru.ru_stime.tv_sec + 1e-6 * ru.ru_stime.tv_usec;
    return ru.ru_minflt;
}

/* One timed call C := A op(B) + C: the slowest process's seconds, and
 * this process's page faults in *nf and kernel seconds in *sys. */
static double timed_call(const char *op, int m, int n, int k, tim_mat_t *A,
                         tim_mat_t *B, tim_mat_t *C, long *nf, double *sys)
{
    const double one = 1;
    const int i1 = 1;
    double s0, s1;
    MPI_Barrier(MPI_COMM_WORLD);
    const long f0 = faults(&s0);
    double t0 = MPI_Wtime();
    pdgemm_(&op[0], &op[1], &m, &n, &k, &one, A->a, &i1, &i1, A->desc, B->a,
            &i1, &i1, B->desc, &one, C->a, &i1, &i1, C->desc);
    *nf = faults(&s1) - f0;
    *sys = s1 - s0;
    return tim_slowest(t0);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *grids = "1x2,2x1", *shapes = "2000x2000x2000,3000x3000x64,200x200x200";
    const char *ops = "NN,NT,TN,TT", *csv = NULL;
    int reps = 5, nb = 64, warm = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "-w")) { warm = 1; continue; }
        if (!v) usage(argv[0]);
        if (!strcmp(argv[i], "-g")) grids = v;
        else if (!strcmp(argv[i], "-s")) shapes = v;
        else if (!strcmp(argv[i], "-t")) ops = v;
        else if (!strcmp(argv[i], "-o")) csv = v;
        else if (!strcmp(argv[i], "-r")) { if ((reps = atoi(v)) < 1) usage(argv[0]); }
        else if (!strcmp(argv[i], "-b")) { if ((nb = atoi(v)) < 1) usage(argv[0]); }
        else usage(argv[0]);
        i++;
    }
    int sh[MAXS][3], gp[16], gq[16];
    char op[MAXOP][2];
    const int ns = parse_shapes(shapes, sh, MAXS), nop = parse_ops(ops, op, MAXOP);
    const int ng = tim_grids(grids, np, gp, gq, 16);
    if (ns < 1 || nop < 1 || ng < 1) usage(argv[0]);

    FILE *out = NULL;
    const double warmed = warm ? warm_blas() : 0;
    if (me == 0) {
        printf("PDGEMM first calls: %d ranks, NB %d, later = median of %d, "
               "BETA 1%s\n", np, nb, reps, warm ? "" : ", BLAS not warmed");
        if (warm) printf("BLAS warm-up (DGEMM 256^3, first call): %.4f s\n", warmed);
        printf("%-4s %2s %5s %5s %5s %8s %8s %8s %6s %6s %7s %7s %13s %11s  %s\n",
               "grid", "op", "M", "N", "K", "first", "later", "extra", "ratio",
               "target", "peakMiB", "rssMiB", "faults", "sys ms", "plan");
        if (csv && !(out = fopen(csv, "w"))) perror(csv);
        if (out)
            fprintf(out, "grid,ta,tb,m,n,k,first_s,later_s,extra_s,ratio,ok,"
                         "peak_mib,rss_mib,faults_first,faults_later,sys_first_s,"
                         "sys_later_s,plan\n");
    }
    int missed = 0;
    double *t = malloc(sizeof(double) * reps);
    for (int gi = 0; gi < ng; gi++) {
        const int P = gp[gi], Q = gq[gi];
        int myr, myc;
        const int ctxt = tim_gridinit(P, Q, &myr, &myc);
        for (int s = 0; s < ns; s++)
            for (int o = 0; o < nop; o++) {
                const int m = sh[s][0], n = sh[s][1], k = sh[s][2];
                const int ta = op[o][0] == 'T', tb = op[o][1] == 'T';
                tim_mat_t A, B, C;
                tim_mat_make(&A, 1, ctxt, ta ? k : m, ta ? m : k, nb, myr, myc, P, Q);
                tim_mat_make(&B, 2, ctxt, tb ? n : k, tb ? k : n, nb, myr, myc, P, Q);
                tim_mat_make(&C, 3, ctxt, m, n, nb, myr, myc, P, Q);
                if (!A.a || !B.a || !C.a) {
                    fprintf(stderr, "rank %d: out of memory for %dx%dx%d\n", me, m, n, k);
                    MPI_Abort(MPI_COMM_WORLD, 2);
                }
                pumma_mem_peak(1);
                long f1, fl = 0, f;
                double s1, sl = 0, sy;
                const double first = timed_call(op[o], m, n, k, &A, &B, &C,
                                                &f1, &s1);
                char plan[128];
                snprintf(plan, sizeof plan, "%s", pumma_last_plan());
                for (int r = 0; r < reps; r++) {
                    t[r] = timed_call(op[o], m, n, k, &A, &B, &C, &f, &sy);
                    if (f > fl) fl = f;
                    if (sy > sl) sl = sy;
                }
                const double later = tim_median(t, reps);
                const int ok = first <= 1.1 * later + 0.005;
                missed += !ok;
                const double peak = pumma_mem_peak(1) / 1048576.0;
                if (me == 0) {
                    char gr[16];
                    snprintf(gr, sizeof gr, "%dx%d", P, Q);
                    char fs[32], ss[32];
                    snprintf(fs, sizeof fs, "%ld/%ld", f1, fl);
                    snprintf(ss, sizeof ss, "%.1f/%.1f", 1e3 * s1, 1e3 * sl);
                    printf("%-4s %c%c %5d %5d %5d %8.4f %8.4f %8.4f %6.2f %6s "
                           "%7.1f %7.1f %13s %11s  %s\n", gr, op[o][0],
                           op[o][1], m, n, k, first, later, first - later,
                           first / later, ok ? "ok" : "MISSED", peak,
                           rss_mib(), fs, ss, plan);
                    if (out)
                        fprintf(out, "%s,%c,%c,%d,%d,%d,%.6f,%.6f,%.6f,%.4f,%d,"
                                     "%.2f,%.2f,%ld,%ld,%.6f,%.6f,%s\n", gr,
                                op[o][0], op[o][1], m, n, k, first, later,
                                first - later, first / later, ok, peak,
                                rss_mib(), f1, fl, s1, sl, plan);
                    fflush(stdout);
                }
                free(A.a); free(B.a); free(C.a);
            }
        Cblacs_gridexit(ctxt);
    }
    free(t);
    if (out) fclose(out);
    if (me == 0)
        printf("target (first <= 1.1 later + 5 ms): %d case(s) missed\n", missed);
    MPI_Finalize();
    return 0;
}
