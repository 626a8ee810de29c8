/*
 * pumma_speeds.c -- processors of unequal speed, emulated on one machine
 * (measuring them is the model's: SRC/model/pumma_rates.c).
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
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pumma_base.h"

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
    if (!v) pumma_fatal(MPI_COMM_NULL, "PUMMA_SPEEDS", "speeds", PUMMA_ENOMEM);
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
