/*
 * pumma_rates.c -- the local multiply's rate of every process of a grid,
 * measured: what PUMMA_SPEEDS_MEASURE returns (SRC/fortran/pumma_grid_.c)
 * and the heterogeneous planner prices with (pumma_grid_rates).
 *
 * All processes measure in the same window, as they will compute together
 * in the multiply. A repetition runs the multiply as many times as fill
 * its `rep` seconds (a single small one takes well under a millisecond,
 * where the operating system's timer and scheduler, not the processor,
 * would decide the time); each process takes its best repetition of at
 * least three within `window` seconds, so a repetition disturbed by the
 * operating system does not decide its speed. Processes that have
 * finished wait by napping, not by MPI's busy polling: on a node with
 * more processes than cores, a polling process would take the core from
 * one still measuring and make it look slower.
 */
#include <stdlib.h>

#include "pumma_model.h"

#define MEASURE_MAXREP 50

/*
 * Every process of g times n x n x n local DGEMMs (slowed as PUMMA_SPEEDS
 * says) in one window: repetitions of `rep` seconds, the best of at least
 * three within `window` seconds. all[q] (grid position q): multiply-adds
 * per second. 0, or a PUMMA_E* code.
 */
int pumma_rates_measure(const pumma_grid_t *g, int nn, double rep_s,
                        double window, double *all)
{
    const int np = g->nprow * g->npcol;
    double *a = pumma_malloc(sizeof(double) * 3 * (size_t)nn * (size_t)nn);
    if (!a) return PUMMA_ENOMEM;
    for (size_t i = 0; i < 3 * (size_t)nn * (size_t)nn; i++)
        a[i] = (double)(i % 7) / 7.0;
    const pumma_type_t *t = &pumma_type_d;
    double *b = a + (size_t)nn * nn, *c = b + (size_t)nn * nn;
    MPI_Request req;
    int rc = MPI_Ibarrier(g->all, &req) == MPI_SUCCESS   /* one window */
                 ? pumma_wait_idle(&req, 1e-4) : PUMMA_EMPI;
    if (rc) { pumma_free(a); return rc; }
    /* rep -1 sizes the repetitions and is not counted */
    double best = 0, start = MPI_Wtime();
    long inner = 1;                  /* multiplies in a repetition */
    for (int r = -1; r < MEASURE_MAXREP; r++) {
        double t0 = MPI_Wtime(), c0 = pumma_cpu_time();
        if (r >= 3 && t0 - start > window) break;
        for (long i = 0; i < inner; i++)
            t->gemm("N", "N", &nn, &nn, &nn, t->one, a, &nn, b, &nn, t->zero,
                    c, &nn, 1, 1);
        pumma_speed_pad(MPI_Wtime() - t0, pumma_cpu_time() - c0, NULL, NULL);
        double el = MPI_Wtime() - t0;
        if (el < 1e-9) el = 1e-9;
        if (r < 0) {
            if (el < rep_s) inner = (long)(rep_s / el) + 1;
        } else if (inner / el > best) {
            best = inner / el;
        }
    }
    pumma_free(a);
    double mine = best * (double)nn * nn * nn;
    double *by_rank = malloc(sizeof(double) * (size_t)np);
    if (!by_rank) return PUMMA_ENOMEM;
    rc = MPI_Iallgather(&mine, 1, MPI_DOUBLE, by_rank, 1, MPI_DOUBLE, g->all,
                        &req) == MPI_SUCCESS
             ? pumma_wait_idle(&req, 1e-4) : PUMMA_EMPI;
    /* gathered by rank in g->all; returned by grid position */
    for (int q = 0; q < np && !rc; q++) all[q] = by_rank[g->rank[q]];
    free(by_rank);
    return rc;
}

/*
 * The rates the heterogeneous planner prices with (pumma_het_plan.c),
 * measured on the grid's first heterogeneous call and kept with the grid:
 * 128 x 128 x 128 multiplies, repetitions of 5 ms, best within 40 ms --
 * coarser than PUMMA_SPEEDS_MEASURE's, as a plan needs speeds to some
 * tens of percent, not its 0.3 s.
 */
const double *pumma_grid_rates(const pumma_grid_t *g)
{
    pumma_grid_t *w = (pumma_grid_t *)g;  /* pumma's own object, filled once */
    if (w->rates) return w->rates;
    const int np = g->nprow * g->npcol;
    double *r = malloc(sizeof(double) * (size_t)np);
    if (!r) return NULL;
    if (pumma_rates_measure(g, 128, 0.005, 0.04, r)) {
        free(r);
        return NULL;
    }
    w->rates = r;
    return r;
}
