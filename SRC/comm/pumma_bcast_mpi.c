/*
 * pumma_bcast_mpi.c -- broadcast variant "mpi": MPI's own MPI_Ibcast, so the
 * MPI library picks its topology. A count beyond MPI's int goes as one
 * element of a derived type (pumma_count_type), alike on every process.
 */
#include "pumma_comm.h"

static int start(pumma_coll_t *c)
{
    pumma_jitter();
    c->req[1] = MPI_REQUEST_NULL;
    int me;
    MPI_Comm_rank(c->comm, &me);
    /* MPI picks the tree: count the root's message, once. */
    if (me == c->root) pumma_stats_sent((double)c->count * c->t->size);
    else pumma_stats_recv((double)c->count * c->t->size);
    MPI_Datatype type;
    int n, made;
    if (pumma_count_type(c->count, c->dt, &type, &n, &made)) return PUMMA_EMPI;
    int rc = MPI_Ibcast(c->buf, n, type, c->root, c->comm, &c->req[0]);
    if (made) MPI_Type_free(&type);
    return rc == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}

/* Modelled as the library's tree: Open MPI's, a binomial tree for
 * mid-sized messages; SimGrid's SMPI (an SMPI build), a flat one: its
 * MPI_Ibcast (3.32, colls::ibcast) posts a send from the root to every
 * other process at once, whatever the collective selector. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
#ifdef PUMMA_SMPI
    return (np - 1) * pumma_model_msg(mo, bytes);
#else
    return pumma_model_log2(np) * pumma_model_msg(mo, bytes);
#endif
}

const pumma_coll_ops_t pumma_bcast_mpi = {
    "mpi", "MPI_Ibcast: the MPI library's own algorithm", start, pumma_coll_req_test,
    pumma_coll_req_wait,
    cost, NULL, NULL, -1, 0};
