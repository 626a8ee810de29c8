/*
 * pumma_coll_req.c -- test() and wait() for the variants that are one MPI
 * request (MPI's own non-blocking collectives), and for the sends of the
 * tree engines (pumma_bcast_tree.c, pumma_reduce_tree.c); and a wait that
 * naps instead of polling (pumma_wait_napping).
 */
#include <time.h>

#include "pumma_comm.h"

int pumma_wait_napping(MPI_Request *req)
{
    const struct timespec nap = {0, 100000};
    for (;;) {
        int done = 0;
        if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (done) return PUMMA_OK;
        nanosleep(&nap, NULL);
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
