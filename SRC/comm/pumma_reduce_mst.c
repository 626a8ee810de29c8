/*
 * pumma_reduce_mst.c -- reduce variant "mst": the collect of PUMMA Fig.
 * 23(b), the mirror of the mst broadcast. Partial sums travel the
 * broadcast's tree backwards and are added in the nodes nearer the root;
 * a node adds its smallest subtree first, which is the first to finish.
 * Contention-free on a linear array, in ceil(log2 np) steps.
 */
#include "pumma_comm.h"


static int shape(int np, int root, int me, int *parent, int *kids)
{
    int nk = pumma_bcast_mst_tree(np, root, me, parent, kids);
    for (int i = 0, j = nk - 1; i < j; i++, j--) {   /* mirror the order */
        int x = kids[i];
        kids[i] = kids[j];
        kids[j] = x;
    }
    return nk;
}

static int start(pumma_coll_t *c)
{
    return pumma_reduce_tree_start(c, shape, c->segment);
}

/* ceil(log2 np) rounds, each a message and an add. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return pumma_model_log2(np) *
           (pumma_model_msg(mo, bytes) + pumma_model_copy(mo, bytes, 0));
}

static int buffers(int np) { return pumma_reduce_tree_buffers(shape, np); }

const pumma_coll_ops_t pumma_reduce_mst = {
    "mst", "minimum spanning tree collect (PUMMA Fig. 23(b))", start,
    pumma_reduce_tree_test, pumma_reduce_tree_wait,
    cost, buffers, shape, 0, 0};
