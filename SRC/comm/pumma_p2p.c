/*
 * pumma_p2p.c -- the two calls through which every point-to-point message
 * of pumma is sent and received (pumma_isend, pumma_irecv): sends are
 * counted for PUMMA_STATS, and both are communication points for the
 * jitter hook (pumma_jitter) that the stress tests use to make processes
 * drift apart. Their counts are 64-bit: a message beyond MPI's int count
 * (a roll of a whole local operand past 2^31 elements) goes as one
 * element of a derived type (pumma_count_type), so it is still one
 * message with one request, matched as any other.
 */
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include "pumma_comm.h"

/* PUMMA_JITTER's maximum delay in seconds; 0 when off, -1 not read yet. */
static double jitter_max = -1;
static unsigned long long jitter_rng;

static double jitter_read(void)
{
    /* read at the first use: PUMMA_P?GEMR2D reaches it without P?GEMM */
    const double us = pumma_setting(PUMMA_SET_JITTER)->jitter;
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

int64_t pumma_count_max = INT_MAX;

/*
 * pumma_count_type: count elements of dt as what MPI can take in an int.
 * Beyond pumma_count_max, one element of a type made of q blocks of
 * pumma_count_max elements followed by the r left over: its type
 * signature is count elements of dt, so it meets a receive (or a
 * broadcast's other side) built the same way, and a message of any size
 * stays one message with one request. Point to point and MPI_Ibcast use
 * it; MPI_SUM takes predefined types only, so reduces go in pieces.
 *   count (local input) > 0; dt (local input) a predefined type.
 *   type, n, made (local output): what to pass MPI, and whether type
 *   must be freed (MPI_Type_free) once the operation has been posted.
 */
int pumma_count_type(int64_t count, MPI_Datatype dt, MPI_Datatype *type,
                     int *n, int *made)
{
    *made = 0;
    if (count <= pumma_count_max) {
        *type = dt;
        *n = (int)count;
        return PUMMA_OK;
    }
    const int64_t q = count / pumma_count_max, r = count % pumma_count_max;
    if (q > INT_MAX) return PUMMA_EMPI;
    MPI_Datatype blk;
    MPI_Aint lb, ext;
    if (MPI_Type_contiguous((int)pumma_count_max, dt, &blk) != MPI_SUCCESS ||
        MPI_Type_get_extent(dt, &lb, &ext) != MPI_SUCCESS)
        return PUMMA_EMPI;
    int lens[2] = {(int)q, (int)r};
    MPI_Aint disp[2] = {0, (MPI_Aint)(q * pumma_count_max) * ext};
    MPI_Datatype types[2] = {blk, dt};
    int rc = MPI_Type_create_struct(r ? 2 : 1, lens, disp, types, type);
    MPI_Type_free(&blk);
    if (rc != MPI_SUCCESS || MPI_Type_commit(type) != MPI_SUCCESS)
        return PUMMA_EMPI;
    *n = 1;
    *made = 1;
    return PUMMA_OK;
}

int pumma_isend(const void *buf, int64_t count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req)
{
    pumma_jitter();
    int sz = 0, n, made;
    MPI_Datatype type;
    MPI_Type_size(dt, &sz);
    pumma_stats_sent((double)count * sz);
    if (pumma_count_type(count, dt, &type, &n, &made)) return MPI_ERR_TYPE;
    int rc = MPI_Isend(buf, n, type, dest, tag, comm, req);
    if (made) MPI_Type_free(&type);
    return rc;
}

int pumma_irecv(void *buf, int64_t count, MPI_Datatype dt, int source,
                int tag, MPI_Comm comm, MPI_Request *req)
{
    pumma_jitter();
    int n, made;
    MPI_Datatype type;
    int sz = 0;
    MPI_Type_size(dt, &sz);
    pumma_stats_recv((double)count * sz);
    if (pumma_count_type(count, dt, &type, &n, &made)) return MPI_ERR_TYPE;
    int rc = MPI_Irecv(buf, n, type, source, tag, comm, req);
    if (made) MPI_Type_free(&type);
    return rc;
}
