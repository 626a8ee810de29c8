/*
 * pumma_bcast_ring_split.c -- broadcast variant "ring-split": the root sends
 * both ways around the ring and each half forwards away from it, so the
 * last process is about np/2 hops away instead of np-1, with still only one
 * message per link.
 */
#include "pumma_comm.h"


/*
 * Relative to the root (rel = me - root mod np), ranks 1..h form the chain
 * going up and np-1 down to h+1 the chain going down, h = np/2 (the upward
 * half takes the odd one out). np == 2 has no downward half, so the root
 * never sends its one neighbour the message twice.
 */
static int shape(int np, int root, int me, int *parent, int *kids)
{
    const int h = np / 2, rel = (me - root + np) % np;
    int nk = 0, up = -1;
    if (rel == 0) {
        if (h >= 1) kids[nk++] = 1;
        if (np - 1 > h) kids[nk++] = np - 1;
    } else if (rel <= h) {
        up = rel - 1;
        if (rel + 1 <= h) kids[nk++] = rel + 1;
    } else {
        up = (rel + 1) % np;
        if (rel - 1 > h) kids[nk++] = rel - 1;
    }
    *parent = up < 0 ? -1 : (up + root) % np;
    for (int j = 0; j < nk; j++) kids[j] = (kids[j] + root) % np;
    return nk;
}

static int start(pumma_coll_t *c)
{
    return pumma_bcast_tree_start(c, shape, c->segment);
}

/* Two half rings; the root's second send waits for its first. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    int a = np / 2, b = (np - 1) / 2;     /* the two halves of np-1 */
    int hops = b > 0 && b + 1 > a ? b + 1 : a;
    return hops * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_ring_split = {
    "ring-split", "root sends both ways round the ring, halves forwarded",
    start, pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, shape, 0, 0};
