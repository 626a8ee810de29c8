/*
 * hetbench.c -- the seed's section 4 on 3 processes: PDGEMM on the
 * 3-process rectangular layout and on the square-corner layout (without
 * and with overlap), on a fully connected network and on a linear array
 * with the fastest process in the middle.
 *
 *   PUMMA_SPEEDS=S1,S2,S3 mpiexec -n 3 ./xhetbench N REPS
 *
 * The relative speeds come from PUMMA_SPEEDS (which also slows the ranks'
 * local multiplies to match: rank 0 is the fastest). For every layout,
 * schedule and topology it prints one line:
 *
 *   hetbench S1 S2 S3 N layout schedule topology comm exec elements
 *
 * comm: seconds until the slowest process had all its data; exec: seconds
 * of the whole multiply, slowest process; each the best of REPS runs (after
 * one warm-up); elements: sent by all processes (relays included). Each
 * result is checked: A = u v', B = w z' give C = (v'w) u z' exactly
 * enough to compare every entry.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_remap.h"

void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
void Cblacs_exit(int);

static double u(int i) { return 1 + (i % 13) * 0.125; }
static double v(int i) { return 1 - (i % 7) * 0.0625; }
static double w(int i) { return 0.5 + (i % 5) * 0.25; }
static double z(int i) { return 2 - (i % 11) * 0.125; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    Cblacs_pinfo(&me, &np);
    int n = argc > 1 ? atoi(argv[1]) : 2000, reps = argc > 2 ? atoi(argv[2]) : 3;
    double sp[3] = {0, 0, 0};
    const char *e = getenv("PUMMA_SPEEDS");
    if (np != 3 || !e || sscanf(e, "%lf,%lf,%lf", &sp[0], &sp[1], &sp[2]) != 3 ||
        n < 3 || reps < 1) {
        if (me == 0)
            fprintf(stderr, "usage: PUMMA_SPEEDS=S1,S2,S3 mpiexec -n 3 "
                            "./xhetbench N REPS\n");
        MPI_Finalize();
        return 2;
    }
    int ctxt, nprow, npcol, r, c;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 3);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);

    double vw = 0;                  /* v'w */
    for (int k = 0; k < n; k++) vw += v(k) * w(k);

    static const struct { int kind; const char *name, *sched; int algo; } runs[] = {
        {PUMMA_LAYOUT_RECT3, "rectangular", "het", PUMMA_ALGO_HET},
        {PUMMA_LAYOUT_SQUARE_CORNER, "square-corner", "het", PUMMA_ALGO_HET},
        {PUMMA_LAYOUT_SQUARE_CORNER, "square-corner", "het-overlap",
         PUMMA_ALGO_HET_OVERLAP}};
    int status = 0;
    for (int topo = PUMMA_TOPO_FULL; topo <= PUMMA_TOPO_LINEAR; topo++)
        for (size_t ri = 0; ri < sizeof runs / sizeof *runs; ri++) {
            int lay, info, i0, j0, ml, nl, one = 1;
            pumma_layout_new_(&runs[ri].kind, &n, &n, &np, sp, &lay, &info);
            if (info) {
                if (me == 0)
                    printf("hetbench %g %g %g %d %s %s %s - - - (layout INFO %d)\n",
                           sp[0], sp[1], sp[2], n, runs[ri].name, runs[ri].sched,
                           topo == PUMMA_TOPO_FULL ? "full" : "linear", info);
                continue;
            }
            pumma_layout_box_(&lay, &me, &i0, &j0, &ml, &nl, &info);
            int lld = ml > 1 ? ml : 1, desc[9];
            pumma_descinit_(desc, &n, &n, &lay, &ctxt, &lld, &info);
            size_t cnt = (size_t)lld * (size_t)(nl > 0 ? nl : 1);
            double *a = malloc(cnt * sizeof(double)), *b = malloc(cnt * sizeof(double)),
                   *cc = malloc(cnt * sizeof(double));
            if (!a || !b || !cc) {
                fprintf(stderr, "hetbench: out of memory\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            for (int j = 0; j < nl; j++)
                for (int i = 0; i < ml; i++) {
                    int gi = i0 - 1 + i, gj = j0 - 1 + j;
                    a[i + (size_t)j * lld] = u(gi) * v(gj);
                    b[i + (size_t)j * lld] = w(gi) * z(gj);
                }
            pumma_options_t o = {0};
            o.algo = runs[ri].algo;
            o.topo = topo;
            double alpha = 1, beta = 0, best = 1e30, best_comm = 0, elems = 0;
            for (int rep = 0; rep <= reps; rep++) {   /* rep 0: warm-up */
                MPI_Barrier(MPI_COMM_WORLD);
                double before = pumma_remap_sent(), tc, tt, mx[2], loc[2];
                pumma_pdgemm_opts("N", "N", &n, &n, &n, &alpha, a, &one, &one,
                                  desc, b, &one, &one, desc, &beta, cc, &one,
                                  &one, desc, &o, &info);
                pumma_het_times(&tc, &tt);

                loc[0] = tc;
                loc[1] = tt;
                MPI_Allreduce(loc, mx, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                double sent = pumma_remap_sent() - before;
                MPI_Allreduce(&sent, &elems, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                if (rep > 0 && mx[1] < best) best = mx[1];
                if (rep > 0 && (rep == 1 || mx[0] < best_comm)) best_comm = mx[0];
            }
            /* Check every entry this process owns. */
            long bad = 0;
            for (int j = 0; j < nl; j++)
                for (int i = 0; i < ml; i++) {
                    int gi = i0 - 1 + i, gj = j0 - 1 + j, own;
                    int ig = gi + 1, jg = gj + 1;
                    pumma_layout_owner_(&lay, &ig, &jg, &own, &info);
                    if (own != me) continue;
                    double want = vw * u(gi) * z(gj);
                    if (fabs(cc[i + (size_t)j * lld] - want) > 1e-9 * fabs(want) * n)
                        bad++;
                }
            long allbad = 0;
            MPI_Allreduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            if (me == 0)
                printf("hetbench %g %g %g %d %s %s %s %.4f %.4f %.0f%s\n", sp[0],
                       sp[1], sp[2], n, runs[ri].name, runs[ri].sched,
                       topo == PUMMA_TOPO_FULL ? "full" : "linear", best_comm,
                       best, elems, allbad ? " WRONG" : "");
            if (allbad || info) status = 1;
            free(a);
            free(b);
            free(cc);
            pumma_layout_free_(&lay, &info);
        }
    fflush(stdout);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return status;
}
