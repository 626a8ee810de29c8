/*
 * pumma_p2p.c -- the two calls through which every point-to-point message
 * of pumma is sent and received (pumma_isend, pumma_irecv): sends are
 * counted for PUMMA_STATS, and both are communication points for the
 * jitter hook (pumma_jitter) that the stress tests use to make processes
 * drift apart.
 */
#include <time.h>
#include <unistd.h>

#include "pumma_internal.h"

/* PUMMA_JITTER's maximum delay in seconds; 0 when off, -1 not read yet. */
static double jitter_max = -1;
static unsigned long long jitter_rng;

static double jitter_read(void)
{
    double us = pumma_env_double("PUMMA_JITTER", 0, 0, 1e6,
                                 "microseconds, 0 to 1000000");
    if (us == 0) return 0;
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    jitter_rng = (unsigned long long)time(NULL) * 2654435761ULL ^
                 (unsigned long long)getpid() * 40503ULL ^
                 (unsigned long long)r * 0x9E3779B97F4A7C15ULL;
    return us * 1e-6;
}

void pumma_jitter(void)
{
    if (jitter_max < 0) jitter_max = jitter_read();     /* read once */
    if (jitter_max == 0) return;
    jitter_rng = jitter_rng * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned x = (unsigned)(jitter_rng >> 33);
    /* Mostly nothing or a short delay; one point in 64 a long one (20
     * times the maximum), so that a process falls well behind now and then
     * and the others run ahead into later operations and calls. */
    double d;
    if (x % 64 == 0) d = 20 * jitter_max;
    else if (x % 4 == 0) d = jitter_max * (double)(x % 1024) / 1024;
    else return;
    struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
    nanosleep(&ts, NULL);
}

int pumma_isend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req)
{
    pumma_jitter();
    int sz = 0;
    MPI_Type_size(dt, &sz);
    pumma_stats_sent((double)count * sz);
    return MPI_Isend(buf, count, dt, dest, tag, comm, req);
}

int pumma_irecv(void *buf, int count, MPI_Datatype dt, int source, int tag,
                MPI_Comm comm, MPI_Request *req)
{
    pumma_jitter();
    return MPI_Irecv(buf, count, dt, source, tag, comm, req);
}
