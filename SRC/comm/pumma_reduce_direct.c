/*
 * pumma_reduce_direct.c -- reduce variant "direct": every other process
 * sends its contribution straight to the root, which receives each into a
 * buffer of its own and adds them in rank order, each as soon as it and
 * those before it are in. One step and no inner sums: the best for
 * 2 or 3 processes, where a tree has nothing to save and only adds a hop.
 * The order is fixed, not the order of arrival, so that a call repeated
 * gives the same sum to the last bit.
 */
#include "pumma_comm.h"


static int shape(int np, int root, int me, int *parent, int *kids)
{
    *parent = me == root ? -1 : root;
    if (me != root) return 0;
    int nk = 0;
    for (int r = 0; r < np; r++)
        if (r != root) kids[nk++] = r;
    return nk;
}

static int start(pumma_coll_t *c)
{
    return pumma_reduce_tree_start(c, shape, c->segment);
}

/* The root receives and adds np-1 messages, one after another. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return (np - 1) *
           (pumma_model_msg(mo, bytes) + pumma_model_copy(mo, bytes, 0));
}

static int buffers(int np) { return pumma_reduce_tree_buffers(shape, np); }

const pumma_coll_ops_t pumma_reduce_direct = {
    "direct", "all send to the root, added in rank order", start,
    pumma_reduce_tree_test, pumma_reduce_tree_wait,
    cost, buffers, shape, 0, 0};
