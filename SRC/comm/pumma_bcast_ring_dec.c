/*
 * pumma_bcast_ring_dec.c -- broadcast variant "ring-dec": the decreasing
 * ring, the mirror of ring-inc. The root sends to rank-1, each process
 * forwards to rank-1 as soon as the message is in, and root+1 ends the
 * chain. On a physical ring or linear array the two directions load
 * different links, so the choice is left to tuning.
 */
#include "pumma_comm.h"


/* A chain root, root-1, ..., root+1. */
static int shape(int np, int root, int me, int *parent, int *kids)
{
    *parent = me == root ? -1 : (me + 1) % np;
    int down = (me - 1 + np) % np;
    if (down == root) return 0;
    kids[0] = down;
    return 1;
}

static int start(pumma_coll_t *c)
{
    return pumma_bcast_tree_start(c, shape, c->segment);
}

/* The last process receives after np-1 hops. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return (np - 1) * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_ring_dec = {
    "ring-dec", "decreasing ring, forwarded as soon as received", start,
    pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, shape, 0, 0};
