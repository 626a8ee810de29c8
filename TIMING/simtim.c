/*
 * simtim.c -- the simulator of whole PDGEMM calls (pumma_plan_predict:
 * the algorithms' and variants' cost functions on a grid that need not
 * exist, under the machine model), checked against measured calls on the
 * grids this machine holds, then drawn for grids it does not
 * (make simulate, make simulate-netns, make curves).
 *
 *   mpiexec -n NP ./xsimtim validate [-n N,..] [-g PxQ,..] [-a ALGO,..]
 *                                    [-r R] [-b NB] [-o FILE.csv]
 *       every grid of NP processes (or -g's), square C = A B of the
 *       orders -n (500,1000,1500,2000), each algorithm of -a (auto and
 *       every algorithm that computes A B: sdb, mdb1, mdb2, their -row
 *       mirrors, rankk, stat-a, stat-b) forced: one untimed call, then the
 *       best of R (3) calls against the prediction under the grid's own
 *       model (pumma_grid_model: the tune file's, or measured, with the
 *       decision file's decider; for auto, of the algorithm it ran), its
 *       multiply and copy rates times
 *       cores/ppn when a node has more processes than processors
 *       (pumma_node_share). A prediction whose plan is not the plan
 *       that ran is marked. CSV: np,p,q,n,algo,plan,best,median,predicted.
 *
 *   mpiexec -n 2 ./xsimtim curves [-o FILE.csv] [-b NB]
 *       rank 0 alone, under the model of the 1 x 2 grid (PUMMA_MODEL's
 *       values where given) without its decider (the planner prices every
 *       variant): grids of 64 to 16384 processes. Efficiency is the
 *       model's time of the flops as one large local multiply per process
 *       over the predicted time. Three families, as the PUMMA paper draws
 *       them: (a) shape: P = 1024, p x q from 1 x 1024 to 1024 x 1, N =
 *       16384; (b) size: square grids, N from 1024 to 65536; (c)
 *       isogranularity: N = nloc sqrt(P) (fixed memory per process), nloc
 *       500, 1000 and 2000. Beside pumma (its planner's choice, and sdb,
 *       mdb1 and mdb2 forced): ScaLAPACK's algorithm as modelled here
 *       (PDGEMM's A B form: per block of K, A's panel broadcast along the
 *       grid rows and B's down the columns by binomial trees, then the
 *       local multiply, nothing overlapped), and the words a process
 *       receives: pumma's and ScaLAPACK's (both mk(q-1)/P + kn(p-1)/P),
 *       and the lower bound of Irony, Toledo and Tiskin that COSMA
 *       attains, 3 (mnk/P)^(2/3) - (mn + mk + nk)/P (no memory limit).
 */
#define _POSIX_C_SOURCE 200809L  /* getopt */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pumma.h"
#include "pumma_codes.h"
#include "pumma_driver.h"
#include "timutil.h"

enum { MAXN = 32, MAXG = 64, MAXA = 16 };
static int me, np, nb = 64;

typedef struct { const char *name; int code; } algo_name_t;
#define ALGO_NAME(N, v, s) {s, v},
static const algo_name_t names[] = {PUMMA_BC_ALGO_LIST(ALGO_NAME)};

static void stop(const char *what)
{
    if (me == 0) fprintf(stderr, "xsimtim: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static int algo_code(const char *s)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i].name, s)) return names[i].code;
    stop("unknown algorithm (pumma_codes.h's names)");
    return 0;
}

typedef tim_mat_t mat_t;

static void mat_make(mat_t *x, int id, int ctxt, int n, int myr, int myc,
                     int P, int Q)
{
    tim_mat_make(x, id, ctxt, n, n, nb, myr, myc, P, Q);
    if (!x->a) stop("out of memory");
}

static void multiply(int code, int n, mat_t *a, mat_t *b, mat_t *c)
{
    if (tim_square(code, n, a, b, c))
        stop("pumma_pdgemm_opts returned a nonzero INFO");
}

/* ----------------------------------------------------------- validate */

static int validate(const char *nlist, const char *glist, const char *alist,
                    int reps, const char *out)
{
    int nv[MAXN];
    const int ns = tim_ints(nlist, nv, MAXN);
    if (ns < 1) stop("bad -n list");
    const char *an[MAXA];
    int na = 0;
    char *al = strdup(alist);
    for (char *s = strtok(al, ","); s && na < MAXA; s = strtok(NULL, ","))
        an[na++] = s;
    int gp[MAXG], gq[MAXG];
    const int ng = tim_grids(glist, np, gp, gq, MAXG);
    if (ng == 0) stop("no grid of -g has NP processes");
    FILE *csv = me == 0 && out ? fopen(out, "a") : NULL;
    if (me == 0 && out && !csv) stop("cannot open the -o file");
    double *t = malloc(sizeof(double) * (size_t)reps);
    /* more processes than processors on a node: each multiplies and
     * copies at cores/ppn of a processor's rate */
    double cores, ppn;
    pumma_node_share(MPI_COMM_WORLD, &cores, &ppn);
    const double share = ppn > cores ? ppn / cores : 1;
    if (me == 0)
        printf("node: %g processors, %g processes: rates x %.3g\n", cores,
               ppn, 1 / share);
    int within = 0, judged = 0;
    double worst = 0;
    if (me == 0)
        printf("%-5s %-6s %-9s %-52s %11s %11s %7s\n", "grid", "N", "algo",
               "plan (measured run)", "measured", "predicted", "error");
    for (int g = 0; g < ng; g++) {
        int ctxt, P, Q, myr, myc;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", gp[g], gq[g]);
        Cblacs_gridinfo(ctxt, &P, &Q, &myr, &myc);
        for (int i = 0; i < ns; i++) {
            const int n = nv[i];
            mat_t a, b, c;
            mat_make(&a, 1, ctxt, n, myr, myc, P, Q);
            mat_make(&b, 2, ctxt, n, myr, myc, P, Q);
            mat_make(&c, 3, ctxt, n, myr, myc, P, Q);
            for (int j = 0; j < na; j++) {
                const int code = algo_code(an[j]);
                multiply(code, n, &a, &b, &c);         /* untimed */
                char ran[128];
                snprintf(ran, sizeof ran, "%s", pumma_last_plan());
                for (int r = 0; r < reps; r++) {
                    MPI_Barrier(MPI_COMM_WORLD);
                    const double t0 = MPI_Wtime();
                    multiply(code, n, &a, &b, &c);
                    t[r] = tim_slowest(t0);
                }
                double best = t[0];
                for (int r = 1; r < reps; r++)
                    if (t[r] < best) best = t[r];
                const double med = tim_median(t, reps);
                /* the model the call planned with, the grid's; its
                 * multiply and copy rates shared by a node's processes */
                pumma_model_t shared = *pumma_grid_model(pumma_grid_enter(ctxt));
                for (int s = 0; s < 4; s++) shared.gamma[s] *= share;
                shared.delta *= share;
                shared.delta_t *= share;
                const pumma_model_t *mo = &shared;
                /* auto: the price of the plan that ran (the prediction
                 * runs under the shared rates, which may rank the
                 * algorithms otherwise than the call's planner did) */
                char plan[128], ran_algo[32] = "";
                pumma_opts_t f = {0};
                f.algo = an[j];
                if (!code && sscanf(ran, "algo=%31s", ran_algo) == 1)
                    f.algo = ran_algo;
                const double pred = pumma_plan_predict(
                    &pumma_type_d, 'N', 'N', n, n, n, nb, P, Q, mo, &f, plan,
                    sizeof plan);
                const double err = pred / best - 1;
                const int same = !strcmp(plan, ran) || P * Q == 1;
                judged++;
                within += fabs(err) <= 0.15;
                if (fabs(err) > worst) worst = fabs(err);
                if (me == 0) {
                    printf("%dx%-3d %-6d %-9s %-52s %11.4e %11.4e %+6.1f%%%s\n",
                           P, Q, n, an[j], P * Q == 1 ? "algo=local" : ran,
                           best, pred, 100 * err,
                           same ? "" : "  (predicted another plan)");
                    if (!same) printf("      predicted plan: %s\n", plan);
                    fflush(stdout);
                    if (csv)
                        fprintf(csv, "%d,%d,%d,%d,%s,%s,%.6e,%.6e,%.6e\n",
                                np, P, Q, n, an[j],
                                P * Q == 1 ? "algo=local" : ran, best, med,
                                pred);
                }
            }
            free(a.a); free(b.a); free(c.a);
        }
        Cblacs_gridexit(ctxt);
    }
    if (me == 0)
        printf("\nwithin 15%%: %d of %d (worst %.1f%%)\n", within, judged,
               100 * worst);
    if (csv) fclose(csv);
    free(t);
    free(al);
    return 0;
}

/* ------------------------------------------------------------- curves */

/* ScaLAPACK's PDGEMM, A B form, as modelled here: per block of K, binomial
 * tree broadcasts of A's panel along the rows and B's down the columns,
 * then the local multiply; nothing overlapped. */
static double scalapack_time(const pumma_model_t *mo, double n, int p, int q)
{
    const double ml = ceil(n / nb / p) * nb, nl = ceil(n / nb / q) * nb;
    const int steps = (int)ceil(n / nb);
    const int lp = pumma_model_log2(p), lq = pumma_model_log2(q);
    double t = 0;
    for (int s = 0; s < steps; s++) {
        const double kb = s + 1 < steps ? nb : n - (double)nb * (steps - 1);
        t += lq * pumma_model_msg(mo, 8 * ml * kb) +
             lp * pumma_model_msg(mo, 8 * kb * nl) +
             pumma_model_gemm(mo, &pumma_type_d, ml, nl, kb, 0);
    }
    return t;
}

/* Words a process receives when A's panels cross the grid rows and B's
 * the columns (pumma's broadcast and roll algorithms, and ScaLAPACK's). */
static double words_cast(double n, int p, int q)
{
    return (n * n * (q - 1) + n * n * (p - 1)) / ((double)p * q);
}

/* Irony, Toledo and Tiskin's lower bound (memory-independent), which
 * COSMA attains: 3 (mnk/P)^(2/3) - (mn + mk + nk)/P words. */
static double words_bound(double n, int P)
{
    const double w = 3 * pow(n * n * n / P, 2.0 / 3) - 3 * n * n / P;
    return w > 0 ? w : 0;
}

static void curve_row(FILE *csv, const char *family, const pumma_model_t *mo,
                      double n, int p, int q)
{
    const int P = p * q;
    const double ideal = pumma_model_gemm(mo, &pumma_type_d, n, n, n, 0) / P;
    static const char *const forced[] = {NULL, "sdb", "mdb1", "mdb2"};
    double eff[4];
    char plan[128] = "";
    for (int i = 0; i < 4; i++) {
        char pl[128];
        pumma_opts_t f = {0};
        f.algo = forced[i];
        const double t = pumma_plan_predict(&pumma_type_d, 'N', 'N', (int)n,
                                            (int)n, (int)n, nb, p, q, mo, &f,
                                            pl, sizeof pl);
        eff[i] = t > 0 ? ideal / t : 0;
        if (!i) snprintf(plan, sizeof plan, "%s", pl);
    }
    const double esl = ideal / scalapack_time(mo, n, p, q);
    const double wc = words_cast(n, p, q), wb = words_bound(n, P);
    printf("%-5s %6d %5dx%-5d %7.0f  %6.3f %6.3f %6.3f %6.3f %6.3f  %10.4g "
           "%10.4g %5.2f  %s\n", family, P, p, q, n, eff[0], eff[1], eff[2],
           eff[3], esl, wc, wb, wb > 0 ? wc / wb : 0, plan);
    if (csv)
        fprintf(csv, "%s,%d,%d,%d,%.0f,%.5f,%.5f,%.5f,%.5f,%.5f,%.6g,%.6g,%s\n",
                family, P, p, q, n, eff[0], eff[1], eff[2], eff[3], esl, wc,
                wb, plan);
}

static int curves(const char *out)
{
    int ctxt, P, Q, myr, myc;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_gridinfo(ctxt, &P, &Q, &myr, &myc);
    {   /* a first call: the grid's model is measured or read */
        mat_t a, b, c;
        const int n = 4 * nb;
        mat_make(&a, 1, ctxt, n, myr, myc, P, Q);
        mat_make(&b, 2, ctxt, n, myr, myc, P, Q);
        mat_make(&c, 3, ctxt, n, myr, myc, P, Q);
        multiply(0, n, &a, &b, &c);
        free(a.a); free(b.a); free(c.a);
    }
    pumma_model_t mo = *pumma_grid_model(pumma_grid_enter(ctxt));
    mo.dec = NULL;
    if (me == 0) {
        FILE *csv = out ? fopen(out, "w") : NULL;
        if (out && !csv) stop("cannot open the -o file");
        if (csv)
            fprintf(csv, "family,P,p,q,n,pumma,sdb,mdb1,mdb2,scalapack,"
                         "words,bound,plan\n");
        printf("model: alpha %.3g s, beta %.3g s/B, gamma %.3g s, gamma_k "
               "%.3g, delta %.3g s/B, overlap %.2f; NB %d\n\n", mo.alpha,
               mo.beta, mo.gamma[1], mo.gamma_k, mo.delta, mo.overlap, nb);
        printf("%-5s %6s %-11s %7s  %6s %6s %6s %6s %6s  %10s %10s %5s  %s\n",
               "curve", "P", "grid", "N", "pumma", "sdb", "mdb1", "mdb2",
               "scalap", "words", "bound", "ratio", "pumma's plan");
        for (int p = 1; p <= 1024; p *= 2)             /* (a) shape */
            curve_row(csv, "shape", &mo, 16384, p, 1024 / p);
        for (int P2 = 64; P2 <= 16384; P2 *= 4) {      /* (b) size */
            const int s = (int)lround(sqrt(P2));
            for (int n = 1024; n <= 65536; n *= 2)
                curve_row(csv, "size", &mo, n, s, s);
        }
        for (int nloc = 500; nloc <= 2000; nloc *= 2)  /* (c) isogranularity */
            for (int P2 = 64; P2 <= 16384; P2 *= 4) {
                const int s = (int)lround(sqrt(P2));
                char fam[16];
                snprintf(fam, sizeof fam, "iso%d", nloc);
                curve_row(csv, fam, &mo, (double)nloc * s, s, s);
            }
        if (csv) fclose(csv);
    }
    Cblacs_gridexit(ctxt);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2) stop("usage: xsimtim validate|curves [options]");
    const char *mode = argv[1], *out = NULL, *glist = NULL;
    const char *nlist = "500,1000,1500,2000";
    const char *alist = "auto,sdb,mdb1,mdb2,sdb-row,mdb1-row,mdb2-row,rankk,"
                        "stat-a,stat-b";
    int reps = 3, opt;
    optind = 2;
    while ((opt = getopt(argc, argv, "n:g:a:r:b:o:")) != -1) {
        switch (opt) {
        case 'n': nlist = optarg; break;
        case 'g': glist = optarg; break;
        case 'a': alist = optarg; break;
        case 'r': reps = atoi(optarg); break;
        case 'b': nb = atoi(optarg); break;
        case 'o': out = optarg; break;
        default: stop("bad option");
        }
    }
    if (reps < 1 || nb < 1) stop("bad -r or -b");
    int rc;
    if (!strcmp(mode, "validate")) rc = validate(nlist, glist, alist, reps, out);
    else if (!strcmp(mode, "curves")) rc = curves(out);
    else { stop("usage: xsimtim validate|curves [options]"); rc = 2; }
    MPI_Finalize();
    return rc;
}
