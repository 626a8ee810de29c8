/*
 * pumma_speeds.c -- processors of unequal speed: emulated on one machine,
 * and measured.
 *
 * PUMMA_SPEEDS=s0,s1,... gives MPI_COMM_WORLD rank r the relative speed
 * s_r: after every local multiply, rank r sleeps until the multiply has
 * lasted f = base/s_r times the processor time it used (f at least 1 and at
 * most 1000, SPEED_CAP), so it computes f times slower, as the experiments
 * of Becker and Lastovetsky 2007 slowed their CPUs. The base is the largest
 * speed, or PUMMA_SPEED_BASE: the speed, in the same units, of this
 * machine's processor. With a base, speeds are absolute, so a run on
 * processors of speed 0.25 and 0.5 takes as long as on such processors (the
 * execution-time models' kinds and processes per processor, Ichikawa and
 * Kawai 2008). Processor time, not elapsed time, is the measure: when ranks
 * share a core, the elapsed time of a multiply includes waiting for the
 * core, which must not be multiplied by f. Sleeping (not spinning) leaves
 * the core to the others, so slowed ranks can share cores. (Assumes a
 * single-threaded BLAS per rank, as the timings here use.)
 *
 * PUMMA_SPEEDS_MEASURE( ICTXT, N, SPEEDS, INFO ) times an N x N x N local
 * DGEMM on every process of the grid (padded as above) and returns their
 * speeds, in grid row-major order, normalised to sum 1: the SPEEDS a
 * layout is built from. All processes measure in the same window, as
 * they will compute together in the multiply. A repetition runs the
 * multiply as many times as fill MEASURE_REP seconds (a single small
 * one takes well under a millisecond, where the operating system's
 * timer and scheduler, not the processor, would decide the time); each
 * process takes its best repetition of at least three within
 * MEASURE_WINDOW seconds, so a repetition disturbed by the operating
 * system does not decide its speed. Processes that have finished wait by
 * napping, not by MPI's busy polling: on a node with more processes than
 * cores, a polling process would take the core from one still measuring
 * and make it look slower.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pumma.h"
#include "pumma_fenv.h"
#include "pumma_internal.h"

#define MEASURE_REP 0.02     /* seconds of work in one repetition */
#define MEASURE_WINDOW 0.3   /* seconds of repetitions per process */
#define MEASURE_MAXREP 50

/*
 * The most PUMMA_SPEEDS slows a rank: speeds further apart are emulated as
 * this ratio (a note on standard error says so). Speeds are relative, so
 * any finite positive ones are legal, but sleeping 1e300 times a multiply
 * is a hang, not an emulation; three orders of magnitude cover the
 * heterogeneity the layouts are for (the experiments of Becker and
 * Lastovetsky 2007 go to 90:5, 18 times) while a slowed multiply still
 * ends: a 1 ms multiply takes at most 1 s.
 */
#define SPEED_CAP 1000.0

static double factor = -1;      /* how much slower this rank computes */

/* PUMMA_SPEEDS and PUMMA_SPEED_BASE: this rank's factor, base/s_r, at
 * least 1 and at most SPEED_CAP. Without PUMMA_SPEEDS every speed is 1;
 * without PUMMA_SPEED_BASE the base is the largest speed. Each speed is
 * divided by the base before anything else, so speeds near the ends of
 * the double range (1e308, 1e-300) give no overflow. */
static void read_speeds(void)
{
    /* read at the first use: PUMMA_SPEEDS_MEASURE reaches them without
     * a P?GEMM */
    const double base = pumma_setting(PUMMA_SET_SPEED_BASE)->speed_base;
    const pumma_rank_list_t *s = &pumma_setting(PUMMA_SET_SPEEDS)->speeds;
    const char *e = s->text;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    factor = 1;
    double *v = malloc(sizeof(double) * (size_t)size);
    if (!v) pumma_fatal(NULL, "PUMMA_SPEEDS", "speeds", PUMMA_ENOMEM);
    for (int r = 0; r < size; r++) v[r] = s->v ? s->v[r] : 1;
    double top = 0, slowest = 1, fastest = 0;
    for (int r = 0; r < size; r++)
        if (v[r] > top) top = v[r];
    const double ref = base > 0 ? base : top;
    for (int r = 0; r < size; r++) {
        if (v[r] / ref < slowest) slowest = v[r] / ref;
        if (v[r] / ref > fastest) fastest = v[r] / ref;
    }
    const double mine = v[rank] / ref;     /* 0 by underflow, or inf */
    factor = mine >= 1 ? 1 : mine * SPEED_CAP > 1 ? 1 / mine : SPEED_CAP;
    if (rank == 0 && slowest * SPEED_CAP < 1)
        fprintf(stderr, "pumma: PUMMA_SPEEDS=%s: speeds more than %.0f times "
                        "apart; the slower ranks are slowed %.0f times\n",
                e ? e : "(unset)", SPEED_CAP, SPEED_CAP);
    if (rank == 0 && fastest > 1)
        fprintf(stderr, "pumma: PUMMA_SPEED_BASE=%g: ranks faster than the "
                        "base run unslowed\n", base);
    free(v);
}

double pumma_speed_factor(void)
{
    if (factor < 0) read_speeds();
    return factor;
}

double pumma_cpu_time(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pumma_speed_pad(double wall, double cpu, int (*progress)(void *),
                     void *ctx)
{
    double f = pumma_speed_factor();
    if (f <= 1) return;
    double s = f * cpu - wall;
    if (!(s > 0)) return;
    /* A slowed process still takes part in communication while it
     * "computes": sleep in steps of at most 1 ms, advancing it between.
     * Without that, steps of at most 1 s, so the conversion to timespec
     * stays in range. Each step's remaining time comes from the clock: a
     * sleep cut short (a signal) is made up by the next step, never by
     * retrying one that cannot succeed, and the loop ends with the time. */
    double end = MPI_Wtime() + s;
    for (;;) {
        double left = end - MPI_Wtime();
        if (!(left > 0)) break;
        if (left > 1) left = 1;
        if (progress && left > 1e-3) left = 1e-3;
        struct timespec ts;
        ts.tv_sec = (time_t)left;
        ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
        if (ts.tv_nsec > 999999999L) ts.tv_nsec = 999999999L;
        nanosleep(&ts, NULL);
        if (progress) progress(ctx);
    }
}

/*
 * Every process of g times n x n x n local DGEMMs (slowed as PUMMA_SPEEDS
 * says) in one window: repetitions of `rep` seconds, the best of at least
 * three within `window` seconds. all[q] (grid position q): multiply-adds
 * per second. 0, or a PUMMA_E* code.
 */
static int measure_rates(const pumma_grid_t *g, int nn, double rep_s,
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
                 ? pumma_wait_napping(&req) : PUMMA_EMPI;
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
             ? pumma_wait_napping(&req) : PUMMA_EMPI;
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
    if (measure_rates(g, 128, 0.005, 0.04, r)) {
        free(r);
        return NULL;
    }
    w->rates = r;
    return r;
}

static void speeds_measure(const int *ictxt, const int *n, double *speeds,
                           int *info)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(*ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 0) { *info = -1; return; }
    if (*n < 1) { *info = -2; return; }
    const pumma_grid_t *g = pumma_grid_enter(*ictxt);
    if (!g) pumma_fatal(NULL, "PUMMA_SPEEDS_MEASURE", "no grid", PUMMA_EGRID);
    const int np = nprow * npcol;
    double *all = malloc(sizeof(double) * (size_t)np);
    if (!all) pumma_fatal(g, "PUMMA_SPEEDS_MEASURE", "speeds", PUMMA_ENOMEM);
    int rc = measure_rates(g, *n, MEASURE_REP, MEASURE_WINDOW, all);
    if (rc) pumma_fatal(g, "PUMMA_SPEEDS_MEASURE", "measurement", rc);
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
 * caller's (pumma_fenv.h). */
PUMMA_API void PUMMA_F77(pumma_speeds_measure, PUMMA_SPEEDS_MEASURE)(
    const int *ictxt, const int *n, double *speeds, int *info)
{
    PUMMA_FENV_CALL(speeds_measure(ictxt, n, speeds, info));
}
