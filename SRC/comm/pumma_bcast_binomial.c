/*
 * pumma_bcast_binomial.c -- broadcast variant "binomial": the hypercube
 * tree of PUMMA Fig. 22(a), relative to the root. The root sends to the
 * rank differing in the least significant bit, then every holder toggles
 * the next bit, LSB to MSB: ceil(log2 np) steps. Ranks past np are simply
 * absent, so any np works.
 */
#include "pumma_comm.h"


static int shape(int np, int root, int me, int *parent, int *kids)
{
    const int rel = (me - root + np) % np;
    int high = 0;                      /* highest set bit of rel */
    for (int b = 1; b <= rel; b <<= 1)
        if (rel & b) high = b;
    *parent = rel == 0 ? -1 : (rel - high + root) % np;
    int nk = 0;
    for (int b = rel == 0 ? 1 : high << 1; b > 0 && rel + b < np; b <<= 1)
        kids[nk++] = (rel + b + root) % np;
    return nk;
}

static int start(pumma_coll_t *c)
{
    return pumma_bcast_tree_start(c, shape, c->segment);
}

/* ceil(log2 np) rounds, one message each. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return pumma_model_log2(np) * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_binomial = {
    "binomial", "hypercube (binomial) tree relative to the root, LSB first",
    start, pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, shape, 0, 0};
