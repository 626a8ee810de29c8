/*
 * hetbench.c -- section 4 of Becker and Lastovetsky 2007 on 3 processes,
 * for square and rectangular products: PDGEMM with A, B and C each on a
 * heterogeneous layout of its own shape, on a fully connected network and
 * on a linear array with the fastest process in the middle.
 *
 *   PUMMA_SPEEDS=S1,S2,S3 mpiexec -n 3 ./xhetbench N REPS [SHAPES]
 *
 * SHAPES: M:N:K ratios, comma-separated (default 1:1:1,4:1:1,1:1:4); each
 * is scaled to N**3 multiply-adds (4:1:1 at N = 2000: M = 5040, N = K =
 * 1260). The relative speeds come from PUMMA_SPEEDS (which also slows the
 * ranks' local multiplies to match: rank 0 is the fastest). Runs, per
 * shape and topology:
 *
 *   inputs         where          schedule
 *   rectangular    given          het           the rectangular of Becker
 *                                               and Lastovetsky 2007
 *   rectangular    given          het-overlap   the same overlap as
 *                                               square-corner's (the fair
 *                                               baseline)
 *   square-corner  given          het, het-overlap   the square-corner
 *                                               of Becker and Lastovetsky
 *                                               2007
 *   rectangular    columns        het-overlap   sub(C) remapped to a
 *   rectangular    square-corner  het-overlap   layout of the measured
 *                                               speeds and back
 *   rectangular    auto           het-overlap   the planner's choice
 *
 * (inputs: the kind of layout A, B and C lie on, each built for its own
 * shape; where: PUMMA_HET_LAYOUT). One line each:
 *
 *   hetbench S1 S2 S3 M N K inputs where schedule topology comm exec
 *            elements chosen
 *
 * comm: seconds until the slowest process had all its data (the schedule
 * alone); exec: seconds of the whole call, slowest process, remaps
 * included; each the best of REPS runs (after one warm-up); elements: sent
 * by all processes (relays and remaps included); chosen: where sub(C) was
 * computed. Each result is checked: A = u v', B = w z' give C = (v'w) u z'
 * exactly enough to compare every entry.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_driver.h"

void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);

static double u(int i) { return 1 + (i % 13) * 0.125; }
static double v(int i) { return 1 - (i % 7) * 0.0625; }
static double w(int i) { return 0.5 + (i % 5) * 0.25; }
static double z(int i) { return 2 - (i % 11) * 0.125; }

/* An m x n matrix on a layout of `kind` (speeds sp), this process's box
 * filled with x(i) y(j); 0 when the layout does not exist. */
typedef struct mat {
    int lay, desc[9], i0, j0, ml, nl;
    double *a;
} mat_t;

static int mat_make(int kind, int m, int n, const double *sp, int ctxt, int me,
                    double (*x)(int), double (*y)(int), mat_t *A)
{
    int np = 3, info;
    memset(A, 0, sizeof *A);
    pumma_layout_new_(&kind, &m, &n, &np, sp, &A->lay, &info);
    if (info) return 0;
    pumma_layout_box_(&A->lay, &me, &A->i0, &A->j0, &A->ml, &A->nl, &info);
    int lld = A->ml > 1 ? A->ml : 1;
    pumma_descinit_(A->desc, &m, &n, &A->lay, &ctxt, &lld, &info);
    A->a = malloc((size_t)lld * (size_t)(A->nl > 0 ? A->nl : 1) * sizeof(double));
    if (!A->a) {
        fprintf(stderr, "hetbench: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int j = 0; j < A->nl; j++)
        for (int i = 0; i < A->ml; i++)
            A->a[i + (size_t)j * lld] = x ? x(A->i0 - 1 + i) * y(A->j0 - 1 + j) : 0;
    return 1;
}

static void mat_free(mat_t *A)
{
    int info;
    free(A->a);
    if (A->lay) pumma_layout_free_(&A->lay, &info);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    Cblacs_pinfo(&me, &np);
    int n = argc > 1 ? atoi(argv[1]) : 2000, reps = argc > 2 ? atoi(argv[2]) : 3;
    const char *shapes = argc > 3 ? argv[3] : "1:1:1,4:1:1,1:1:4";
    double sp[3] = {0, 0, 0};
    const char *e = getenv("PUMMA_SPEEDS");
    if (np != 3 || !e || sscanf(e, "%lf,%lf,%lf", &sp[0], &sp[1], &sp[2]) != 3 ||
        n < 3 || reps < 1) {
        if (me == 0)
            fprintf(stderr, "usage: PUMMA_SPEEDS=S1,S2,S3 mpiexec -n 3 "
                            "./xhetbench N REPS [M:N:K,...]\n");
        MPI_Finalize();
        return 2;
    }
    int ctxt, nprow, npcol, r, c;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 3);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);

    static const struct {
        int inputs;              /* PUMMA_LAYOUT_* of A, B and C */
        int where;               /* PUMMA_HET_LAYOUT: -1 auto, 0 given */
        int algo;
    } runs[] = {
        {PUMMA_LAYOUT_RECT3, 0, PUMMA_ALGO_HET},
        {PUMMA_LAYOUT_RECT3, 0, PUMMA_ALGO_HET_OVERLAP},
        {PUMMA_LAYOUT_SQUARE_CORNER, 0, PUMMA_ALGO_HET},
        {PUMMA_LAYOUT_SQUARE_CORNER, 0, PUMMA_ALGO_HET_OVERLAP},
        {PUMMA_LAYOUT_RECT3, PUMMA_LAYOUT_COLUMNS, PUMMA_ALGO_HET_OVERLAP},
        {PUMMA_LAYOUT_RECT3, PUMMA_LAYOUT_SQUARE_CORNER, PUMMA_ALGO_HET_OVERLAP},
        {PUMMA_LAYOUT_RECT3, -1, PUMMA_ALGO_HET_OVERLAP}};
    int status = 0;
    const char *sh = shapes;
    while (*sh) {
        int rm, rn, rk, used = 0;
        if (sscanf(sh, "%d:%d:%d%n", &rm, &rn, &rk, &used) != 3 || rm < 1 || rn < 1 ||
            rk < 1) {
            if (me == 0) fprintf(stderr, "hetbench: bad shape list '%s'\n", shapes);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        sh += used;
        if (*sh == ',') sh++;
        /* N**3 multiply-adds in the ratio M:N:K */
        const double s = n / cbrt((double)rm * rn * rk);
        int M = (int)lround(rm * s), N = (int)lround(rn * s), K = (int)lround(rk * s);
        double vw = 0;                  /* v'w */
        for (int k = 0; k < K; k++) vw += v(k) * w(k);
        for (int topo = PUMMA_TOPO_FULL; topo <= PUMMA_TOPO_LINEAR; topo++)
            for (size_t ri = 0; ri < sizeof runs / sizeof *runs; ri++) {
                const char *inputs = runs[ri].inputs == PUMMA_LAYOUT_RECT3
                                         ? "rectangular" : "square-corner";
                const char *where = runs[ri].where < 0 ? "auto"
                                    : pumma_het_kind_name(runs[ri].where);
                const char *sched = runs[ri].algo == PUMMA_ALGO_HET ? "het"
                                                                    : "het-overlap";
                const char *tname = topo == PUMMA_TOPO_FULL ? "full" : "linear";
                mat_t A = {0}, B = {0}, C = {0};   /* freed whether made or not */
                int ok = mat_make(runs[ri].inputs, M, K, sp, ctxt, me, u, v, &A);
                ok = ok && mat_make(runs[ri].inputs, K, N, sp, ctxt, me, w, z, &B);
                ok = ok && mat_make(runs[ri].inputs, M, N, sp, ctxt, me, NULL, NULL, &C);
                if (!ok) {
                    if (me == 0)
                        printf("hetbench %g %g %g %d %d %d %s %s %s %s - - - - "
                               "(no such layout)\n", sp[0], sp[1], sp[2], M, N, K,
                               inputs, where, sched, tname);
                    mat_free(&A);
                    mat_free(&B);
                    mat_free(&C);
                    continue;
                }
                pumma_het_layout_set(runs[ri].where);
                pumma_options_t o = {0};
                o.algo = runs[ri].algo;
                o.topo = topo;
                double alpha = 1, beta = 0, best = 1e30, best_comm = 0, elems = 0;
                int one = 1, info = 0;
                char chosen[32] = "?";
                for (int rep = 0; rep <= reps; rep++) {   /* rep 0: warm-up */
                    MPI_Barrier(MPI_COMM_WORLD);
                    double before = pumma_remap_sent(), tc, tt, mx[2], loc[2];
                    double t0 = MPI_Wtime();
                    pumma_pdgemm_opts("N", "N", &M, &N, &K, &alpha, A.a, &one, &one,
                                      A.desc, B.a, &one, &one, B.desc, &beta, C.a,
                                      &one, &one, C.desc, &o, &info);
                    loc[1] = MPI_Wtime() - t0;
                    pumma_het_times(&tc, &tt);
                    loc[0] = tc;
                    MPI_Allreduce(loc, mx, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                    double sent = pumma_remap_sent() - before;
                    MPI_Allreduce(&sent, &elems, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                    if (rep > 0 && mx[1] < best) best = mx[1];
                    if (rep > 0 && (rep == 1 || mx[0] < best_comm)) best_comm = mx[0];
                }
                const char *pl = strstr(pumma_last_plan(), "layout=");
                if (pl) sscanf(pl + 7, "%31s", chosen);
                /* Check every entry this process owns. */
                long bad = 0;
                for (int j = 0; j < C.nl; j++)
                    for (int i = 0; i < C.ml; i++) {
                        int gi = C.i0 - 1 + i, gj = C.j0 - 1 + j, own;
                        int ig = gi + 1, jg = gj + 1;
                        pumma_layout_owner_(&C.lay, &ig, &jg, &own, &info);
                        if (own != me) continue;
                        double want = vw * u(gi) * z(gj);
                        if (fabs(C.a[i + (size_t)j * C.desc[8]] - want) >
                            1e-9 * fabs(want) * K)
                            bad++;
                    }
                long allbad = 0;
                MPI_Allreduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                if (me == 0)
                    printf("hetbench %g %g %g %d %d %d %s %s %s %s %.4f %.4f %.0f %s%s\n",
                           sp[0], sp[1], sp[2], M, N, K, inputs, where, sched, tname,
                           best_comm, best, elems, chosen, allbad ? " WRONG" : "");
                fflush(stdout);
                if (allbad || info) status = 1;
                mat_free(&A);
                mat_free(&B);
                mat_free(&C);
            }
    }
    pumma_het_layout_set(-1);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return status;
}
