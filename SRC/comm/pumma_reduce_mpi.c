/*
 * pumma_reduce_mpi.c -- reduce variant "mpi": MPI_Ireduce (sum) to the root,
 * used to combine the partial products of the transposed algorithms.
 */
#include <string.h>

#include "pumma_internal.h"

static int start(pumma_coll_t *c)
{
    pumma_jitter();
    c->req[1] = MPI_REQUEST_NULL;
    int me;
    MPI_Comm_rank(c->comm, &me);
    /* MPI picks the tree: count each contribution, once. */
    if (me != c->root) pumma_stats_sent((double)c->count * c->t->size);
    const void *sbuf = c->buf;
    if (me == c->root && !sbuf) {     /* the root brings no contribution */
        memset(c->rbuf, 0, (size_t)c->count * c->t->size);
        sbuf = MPI_IN_PLACE;
    }
    return MPI_Ireduce(sbuf, c->rbuf, c->count, c->dt, MPI_SUM, c->root,
                       c->comm, &c->req[0]) == MPI_SUCCESS ? PUMMA_OK
                                                             : PUMMA_EMPI;
}

/* A binomial tree, plus the zeroed contribution of a root that has none
 * and the library's own copy of the message. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    if (np <= 1) return 0;
    return pumma_model_log2(np) *
               (pumma_model_msg(mo, bytes) + pumma_model_copy(mo, bytes, 0)) +
           2 * pumma_model_copy(mo, bytes, 0);
}

const pumma_coll_ops_t pumma_reduce_mpi = {
    "mpi", "MPI_Ireduce with MPI_SUM", start, pumma_coll_req_test,
    pumma_coll_req_wait,
    cost, NULL};
