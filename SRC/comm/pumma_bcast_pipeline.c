/*
 * pumma_bcast_pipeline.c -- broadcast variant "pipeline": the increasing
 * chain root, root+1, ..., root-1 with the message cut into segments, each
 * forwarded as soon as it is in. A long message then costs about one
 * transfer plus np-2 segment times, instead of np-1 transfers.
 */
#include "pumma_comm.h"


/* Segment when none is asked for: large enough to amortise a message's
 * latency, small enough that the chain fills quickly. */
enum { DEFAULT_SEGMENT_BYTES = 64 * 1024 };

int pumma_chain_shape(int np, int root, int me, int *parent, int *kids)
{
    *parent = me == root ? -1 : (me - 1 + np) % np;
    int up = (me + 1) % np;
    if (up == root) return 0;
    kids[0] = up;
    return 1;
}

static int start(pumma_coll_t *c)
{
    int seg = c->segment;
    if (seg <= 0) {
        int size = 0;
        MPI_Type_size(c->dt, &size);
        seg = DEFAULT_SEGMENT_BYTES / (size > 0 ? size : 1);
    }
    return pumma_bcast_tree_start(c, pumma_chain_shape, seg);
}

/* A chain of np-1 hops cut into s pieces: np-2+s piece times. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    if (np <= 1) return 0;
    int s = pumma_model_pieces(mo, bytes, seg > 0 ? seg : DEFAULT_SEGMENT_BYTES);
    return (np - 2 + s) * pumma_model_msg(mo, bytes / s);
}

const pumma_coll_ops_t pumma_bcast_pipeline = {
    "pipeline", "increasing chain, message cut into forwarded segments",
    start, pumma_bcast_tree_test, pumma_bcast_tree_wait,
    cost, NULL, pumma_chain_shape, DEFAULT_SEGMENT_BYTES, 0};
