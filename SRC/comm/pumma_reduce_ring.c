/*
 * pumma_reduce_ring.c -- reduce variant "ring": a chain ending at the root.
 * root+1, the farthest along the chain, sends its contribution to root+2,
 * which adds its own and forwards, and so on round to the root. Each
 * process sends and receives once, and with segments (segment > 0) the
 * chain is pipelined: PUMMA (section 4.3, Table 4) found the ring the
 * better collect for A**T*B, whose stages overlap.
 */
#include "pumma_comm.h"


static int shape(int np, int root, int me, int *parent, int *kids)
{
    *parent = me == root ? -1 : (me + 1) % np;
    int down = (me - 1 + np) % np;     /* my child, unless I start it */
    if (me == (root + 1) % np) return 0;
    kids[0] = down;
    return 1;
}

static int start(pumma_coll_t *c)
{
    return pumma_reduce_tree_start(c, shape, c->segment);
}

/* A chain of np-1 hops, each adding, cut into s pieces when segmented. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    if (np <= 1) return 0;
    int s = pumma_model_pieces(mo, bytes, seg);
    return (np - 2 + s) * (pumma_model_msg(mo, bytes / s) +
                           pumma_model_copy(mo, bytes / s, 0));
}

static int buffers(int np) { return pumma_reduce_tree_buffers(shape, np); }

const pumma_coll_ops_t pumma_reduce_ring = {
    "ring", "chain ending at the root, pipelined by segments", start,
    pumma_reduce_tree_test, pumma_reduce_tree_wait,
    cost, buffers, shape, 0, 0};
