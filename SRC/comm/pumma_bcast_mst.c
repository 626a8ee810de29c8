/*
 * pumma_bcast_mst.c -- broadcast variant "mst": the contention-free minimum
 * spanning tree of PUMMA Fig. 22(b), made for the Delta's mesh. On a linear
 * array of the ranks, the holder of the message sends it to the first node
 * of the other half (the one next to the boundary, the first the message
 * meets), and both halves recurse: ceil(log2 np) steps, and the messages of
 * one step run in disjoint intervals, so no two share a link. The hypercube
 * tree (binomial) instead crosses ever longer distances as it proceeds.
 *
 * pumma_bcast_mst_tree is also the tree of the mst reduce (Fig. 23(b)).
 */
#include "pumma_comm.h"


/*
 * pumma_bcast_mst_tree: the parent of `me` (-1 for the root) and its
 * children in sending order (largest subtree first). The lower half takes
 * the odd one out. All arguments local input, except parent and kids
 * (local output, kids with room for ceil(log2 np) entries).
 */
int pumma_bcast_mst_tree(int np, int root, int me, int *parent, int *kids)
{
    int lo = 0, hi = np, holder = root, nk = 0;
    *parent = -1;
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo + 1) / 2;
        const int holder_low = holder < mid, me_low = me < mid;
        const int other = holder_low ? mid : mid - 1;
        if (me == holder) kids[nk++] = other;
        if (me == other) *parent = holder;
        if (me_low != holder_low) holder = other;
        if (me_low) hi = mid; else lo = mid;
    }
    return nk;
}

static int start(pumma_coll_t *c)
{
    return pumma_bcast_tree_start(c, pumma_bcast_mst_tree, c->segment);
}

/* ceil(log2 np) rounds, one message each. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return pumma_model_log2(np) * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_mst = {
    "mst", "contention-free minimum spanning tree (PUMMA Fig. 22(b))", start,
    pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, pumma_bcast_mst_tree, 0, 0};
