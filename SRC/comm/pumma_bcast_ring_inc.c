/*
 * pumma_bcast_ring_inc.c -- broadcast variant "ring-inc": the increasing ring
 * of the original MDB2 (PUMMA section 4.3). The root sends to rank+1, each
 * process receives from rank-1 and forwards to rank+1, the last one (root-1)
 * only receives; the message goes whole (it is never cut). It runs on the
 * tree engine (pumma_bcast_tree.c) as the chain pumma_chain_shape gives, so
 * test() forwards as soon as the message is in (a process that polls
 * between panels of its multiply keeps the ring moving) and a process
 * awaiting another broadcast relays it (pumma_bcast_await.c).
 */
#include "pumma_comm.h"

static int start(pumma_coll_t *c)
{
    return pumma_bcast_tree_start(c, pumma_chain_shape, 0);
}

/* The last process receives after np-1 hops. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return (np - 1) * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_ring_inc = {
    "ring-inc", "increasing ring, forwarded as soon as received", start,
    pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, pumma_chain_shape, -1, 0};
