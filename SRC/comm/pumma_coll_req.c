/*
 * pumma_coll_req.c -- test() and wait() for the variants that are one MPI
 * request (MPI's own non-blocking collectives).
 */
#include "pumma_internal.h"

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
