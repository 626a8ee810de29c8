/*
 * pumma_grid_.c -- the public routines about a grid's processes (pumma.h):
 * PUMMA_SPEEDS_MEASURE, PUMMA_GRID_CLUSTERS, PUMMA_GRID_CLUSTERS_GET and
 * PUMMA_GRID_SHARES. Each enters the grid (a collective call on it) and
 * asks the model, which measures (SRC/model/pumma_rates.c,
 * pumma_clusters.c).
 *
 * PUMMA_SPEEDS_MEASURE( ICTXT, N, SPEEDS, INFO ) times an N x N x N local
 * DGEMM on every process of the grid (slowed as PUMMA_SPEEDS says) and
 * returns their speeds, in grid row-major order, normalised to sum 1: the
 * SPEEDS a layout is built from. A repetition lasts MEASURE_REP seconds;
 * each process takes its best within MEASURE_WINDOW seconds.
 */
#include <stdlib.h>

#include "pumma.h"
#include "pumma_fortran.h"

#define MEASURE_REP 0.02     /* seconds of work in one repetition */
#define MEASURE_WINDOW 0.3   /* seconds of repetitions per process */

static void speeds_measure(const int *ictxt, const int *n, double *speeds,
                           int *info)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(*ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 0) { *info = -1; return; }
    if (*n < 1) { *info = -2; return; }
    const pumma_grid_t *g = pumma_grid_enter(*ictxt);
    if (!g) pumma_fatal(MPI_COMM_NULL, "PUMMA_SPEEDS_MEASURE", "no grid", PUMMA_EGRID);
    const int np = nprow * npcol;
    double *all = malloc(sizeof(double) * (size_t)np);
    if (!all) pumma_fatal(g->all, "PUMMA_SPEEDS_MEASURE", "speeds", PUMMA_ENOMEM);
    int rc = pumma_rates_measure(g, *n, MEASURE_REP, MEASURE_WINDOW, all);
    if (rc) pumma_fatal(g->all, "PUMMA_SPEEDS_MEASURE", "measurement", rc);
    /* scaled by the largest before summing, as every use of speeds is */
    double top = 0, sum = 0;
    for (int q = 0; q < np; q++)
        if (all[q] > top) top = all[q];
    for (int q = 0; q < np; q++) sum += all[q] / top;
    for (int q = 0; q < np; q++) speeds[q] = all[q] / top / sum;
    free(all);
    *info = 0;
}

/* PUMMA_SPEEDS_MEASURE (pumma.h): the timing's flags are not the
 * caller's (pumma_base.h). */
PUMMA_API void PUMMA_F77(pumma_speeds_measure, PUMMA_SPEEDS_MEASURE)(
    const int *ictxt, const int *n, double *speeds, int *info)
{
    PUMMA_FENV_CALL(speeds_measure(ictxt, n, speeds, info));
}

static void grid_clusters(const int *ictxt, const int *clusters, int *info)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(*ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1) { *info = -1; return; }
    for (int q = 0; q < nprow * npcol; q++)
        if (clusters[q] < 0) { *info = -2; return; }
    /* a collective call on the grid: its own epoch's communicators */
    pumma_grid_t *g = (pumma_grid_t *)pumma_grid_enter(*ictxt);
    if (!g) pumma_fatal(MPI_COMM_NULL, "PUMMA_GRID_CLUSTERS", "no grid", PUMMA_EGRID);
    int rc = pumma_hier_set(g, clusters);
    if (rc) pumma_fatal(g->all, "PUMMA_GRID_CLUSTERS", "measuring the links", rc);
    *info = 0;
}

static void grid_clusters_get(const int *ictxt, int *clusters, int *nc,
                              int *info)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(*ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1) { *info = -1; return; }
    const pumma_grid_t *g = pumma_grid_enter(*ictxt);
    if (!g) pumma_fatal(MPI_COMM_NULL, "PUMMA_GRID_CLUSTERS_GET", "no grid",
                        PUMMA_EGRID);
    const pumma_hier_grid_t *h = pumma_grid_hier(g);
    for (int q = 0; q < nprow * npcol; q++) clusters[q] = h ? h->cluster[q] : 0;
    *nc = h ? h->nc : 1;
    *info = 0;
}

static void grid_shares(const int *ictxt, const int *kind, const int *m,
                        const int *n, const int *k, const int *elsize,
                        double *shares, int *info)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(*ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1) { *info = -1; return; }
    if (*m < 1) { *info = -3; return; }
    if (*n < 1) { *info = -4; return; }
    if (*k < 1) { *info = -5; return; }
    if (*elsize < 1) { *info = -6; return; }
    const pumma_grid_t *g = pumma_grid_enter(*ictxt);
    if (!g) pumma_fatal(MPI_COMM_NULL, "PUMMA_GRID_SHARES", "no grid", PUMMA_EGRID);
    const pumma_hier_grid_t *h = pumma_grid_hier(g);
    const double *rate = pumma_grid_rates(g);
    if (!rate) pumma_fatal(g->all, "PUMMA_GRID_SHARES", "speeds", PUMMA_ENOMEM);
    const int np = nprow * npcol;
    if (!h) {                        /* one cluster: the speeds */
        for (int q = 0; q < np; q++) shares[q] = rate[q];
        *info = 0;
        return;
    }
    double t;
    int rc = pumma_layout_clusters_shares(*kind, *m, *n, *k, np, rate,
                                          h->cluster, h->beta,
                                          (double)*elsize, shares, &t);
    *info = rc == -1 ? -2 : rc == -4 ? -2 : rc;
}

/* The public forms: measuring and pricing links is bookkeeping, whose
 * floating-point flags are not the caller's (pumma_base.h). */
PUMMA_API void PUMMA_F77(pumma_grid_clusters, PUMMA_GRID_CLUSTERS)(
    const int *ictxt, const int *clusters, int *info)
{
    PUMMA_FENV_CALL(grid_clusters(ictxt, clusters, info));
}

PUMMA_API void PUMMA_F77(pumma_grid_clusters_get, PUMMA_GRID_CLUSTERS_GET)(
    const int *ictxt, int *clusters, int *nc, int *info)
{
    PUMMA_FENV_CALL(grid_clusters_get(ictxt, clusters, nc, info));
}

PUMMA_API void PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(
    const int *ictxt, const int *kind, const int *m, const int *n,
    const int *k, const int *elsize, double *shares, int *info)
{
    PUMMA_FENV_CALL(grid_shares(ictxt, kind, m, n, k, elsize, shares, info));
}
