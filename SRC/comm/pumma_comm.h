/*
 * pumma_comm.h -- what the communication variants share (not installed):
 * the tree engines behind the tree-shaped broadcasts and reduces. A variant
 * names its tree with a shape function: the parent of `me` (-1 at the root)
 * and its children (returned count), on a communicator of np ranks.
 */
#ifndef PUMMA_COMM_H
#define PUMMA_COMM_H

#include "pumma_internal.h"

typedef int (*pumma_tree_shape_fn)(int np, int root, int me, int *parent,
                                   int *kids);

int pumma_bcast_tree_start(pumma_coll_t *c, pumma_tree_shape_fn shape,
                           int segment);
int pumma_bcast_tree_test(pumma_coll_t *c, int *done);
int pumma_bcast_tree_wait(pumma_coll_t *c);

/* any: add children's sums in arrival order (else in tree order). */
int pumma_reduce_tree_start(pumma_coll_t *c, pumma_tree_shape_fn shape,
                            int segment, int any);
int pumma_reduce_tree_test(pumma_coll_t *c, int *done);
int pumma_reduce_tree_wait(pumma_coll_t *c);

/* The tree engines' sends, completed in posting order: test advances *done
 * past those complete and sets *all when every one of the n is; wait
 * completes the rest. Both return PUMMA_OK or PUMMA_EMPI. */
int pumma_sends_test(MPI_Request *req, int n, int *done, int *all);
int pumma_sends_wait(MPI_Request *req, int n, int *done);

/* The mst broadcast's tree (pumma_bcast_mst.c), also the mst reduce's. */
int pumma_bcast_mst_tree(int np, int root, int me, int *parent, int *kids);

#endif
