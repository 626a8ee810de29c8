/*
 * pumma_coll_req.c -- test() and wait() for the variants that are one MPI
 * request (MPI's own non-blocking collectives), and for the sends of the
 * tree engines (pumma_bcast_tree.c, pumma_reduce_tree.c); and the wait
 * of the measurements (pumma_wait_idle).
 *
 * No wait of a call naps: they block in MPI_Wait, Waitall or Waitsome, or
 * test a bounded number of times (the progress points of the local
 * multiply). A nap is latency on every wait of a small call, and under
 * SimGrid's SMPI (make smpi) simulated time and a scheduling step of every
 * rank. Only the measurements nap, and only on crowded nodes.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "pumma_comm.h"

/* 1 when this node runs more of the program's processes than it has
 * processors, or it cannot tell: the launcher's count of the node's
 * processes (Open MPI, MPICH and Hydra, Slurm) against the processors
 * online, read once. Never under SMPI: its ranks take turns. */
static int crowded(void)
{
#ifdef PUMMA_SMPI
    return 0;
#else
    static int c = -1;
    if (c >= 0) return c;
    /* (literal names: TESTING/envtst.sh checks what pumma reads) */
    const char *e = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (!e) e = getenv("MPI_LOCALNRANKS");
    if (!e) e = getenv("SLURM_NTASKS_PER_NODE");
    const long ranks = e ? atol(e) : 0;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c = ranks <= 0 || cpus <= 0 || ranks > cpus;
    return c;
#endif
}

int pumma_wait_idle(MPI_Request *req, double nap)
{
    if (!crowded())
        return MPI_Wait(req, MPI_STATUS_IGNORE) == MPI_SUCCESS ? PUMMA_OK
                                                               : PUMMA_EMPI;
    const struct timespec ts = {(time_t)nap,
                                (long)((nap - (double)(time_t)nap) * 1e9)};
    for (;;) {
        int done = 0;
        if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (done) return PUMMA_OK;
        nanosleep(&ts, NULL);
    }
}

int pumma_coll_req_test(pumma_coll_t *c, int *done)
{
    return MPI_Test(&c->req[0], done, MPI_STATUS_IGNORE) == MPI_SUCCESS
               ? PUMMA_OK : PUMMA_EMPI;
}

int pumma_coll_req_wait(pumma_coll_t *c)
{
    return MPI_Wait(&c->req[0], MPI_STATUS_IGNORE) == MPI_SUCCESS
               ? PUMMA_OK : PUMMA_EMPI;
}

int pumma_sends_test(MPI_Request *req, int n, int *done, int *all)
{
    int flag = 1;
    *all = 0;
    while (*done < n) {
        if (MPI_Test(&req[*done], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (!flag) return PUMMA_OK;
        (*done)++;
    }
    *all = 1;
    return PUMMA_OK;
}

int pumma_sends_wait(MPI_Request *req, int n, int *done)
{
    if (*done >= n) return PUMMA_OK;
    int rc = MPI_Waitall(n - *done, req + *done, MPI_STATUSES_IGNORE);
    *done = n;
    return rc == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}
