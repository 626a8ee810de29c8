/*
 * pumma_bcast_linear.c -- broadcast variant "linear": the flat tree. The
 * root sends the message to every other process in turn (root+1, ...,
 * root-1), which only receive. One hop, np-1 sends from the root: the
 * cheapest for two or three processes, or for tiny messages where a
 * tree's extra hops cost more than the root's extra sends ("Linear (Flat
 * Tree)" of Nasri, Steffenel and Trystram 2007).
 */
#include "pumma_comm.h"


static int shape(int np, int root, int me, int *parent, int *kids)
{
    *parent = me == root ? -1 : root;
    if (me != root) return 0;
    for (int j = 1; j < np; j++) kids[j - 1] = (root + j) % np;
    return np - 1;
}

static int start(pumma_coll_t *c)
{
    return pumma_bcast_tree_start(c, shape, c->segment);
}

/* np-1 messages from the root, one after another. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return (np - 1) * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_linear = {
    "linear", "flat tree: the root sends to every other process in turn",
    start, pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, shape, 0, 0};
