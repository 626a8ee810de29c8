/*
 * pumma_bcast_binary.c -- broadcast variant "binary": a binary tree in heap
 * order relative to the root (children of rel are 2rel+1 and 2rel+2). Each
 * process sends at most twice, so a large message costs each sender two
 * transfers, against log2 np for the root of a binomial tree.
 */
#include "pumma_comm.h"


static int shape(int np, int root, int me, int *parent, int *kids)
{
    const int rel = (me - root + np) % np;
    *parent = rel == 0 ? -1 : ((rel - 1) / 2 + root) % np;
    int nk = 0;
    for (int k = 2 * rel + 1; k <= 2 * rel + 2 && k < np; k++)
        kids[nk++] = (k + root) % np;
    return nk;
}

static int start(pumma_coll_t *c)
{
    return pumma_bcast_tree_start(c, shape, c->segment);
}

/* floor(log2 np) levels; a node sends to its two children in turn. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    if (np <= 1) return 0;
    int levels = 0;
    while ((2 << levels) <= np) levels++;
    return (np == 2 ? 1 : 2 * levels) * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_binary = {
    "binary", "binary tree in heap order relative to the root", start,
    pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, shape, 0, 0};
