/*
 * pumma_comm.h -- the communication layer's rules and what its users share
 * (not installed): the tags, and the tree engines behind the tree-shaped
 * broadcasts and reduces.
 *
 * Matching: how every message meets its own receive, whatever order the
 * processes arrive in. MPI matches a receive to the earliest message sent
 * to it, on its communicator, from the source and with the tag it names
 * (the standard's non-overtaking rule). pumma relies on that, and on three
 * rules that every variant, algorithm and remap keeps:
 *
 *  1. Every receive names its source and its tag: MPI's wildcards for
 *     either are used nowhere (`make test` checks the sources for them). A
 *     receive open to any source takes whichever matching message comes
 *     first, so a process that runs ahead could have its message taken by
 *     a receive meant for another process's.
 *  2. On one communicator a process never has two operations in flight
 *     with the same tag: an operation (a broadcast, a reduce, a roll, a
 *     remap) is in flight from its start() to its wait() on that process.
 *     So the operations that use a tag follow each other in the same order
 *     on every process (each algorithm starts them in one order
 *     everywhere), and by non-overtaking the k-th message that X sends to
 *     Y with that tag is the one Y's k-th receive from X with it takes.
 *     The tags below are chosen so: one roll at a time; the broadcasts of
 *     a stage each with its own tag (all of a stage are in flight at
 *     once); a reduce pipeline's reduces tagged by their slot, a slot
 *     reused only after its reduce is complete; remaps tagged by their id
 *     and the (origin, destination) pair. Where two kinds share tag
 *     values they run on different communicators (mdb: broadcasts down
 *     the columns, the roll along the rows).
 *  3. Every call completes all of its operations before it returns, and
 *     consecutive calls on a grid use different communicators
 *     (pumma_grid_enter alternates between two sets): no message of one
 *     call can meet a receive of the next, even if a future change broke
 *     rule 2 across calls.
 * MPI's own collectives (the `mpi` variants, the redistributions'
 * MPI_Alltoallv, the model's and statistics' collectives) are matched by
 * the order in which they start, which is the same on every process.
 */
#ifndef PUMMA_COMM_H
#define PUMMA_COMM_H

#include "pumma_internal.h"

/* The tags (rule 2). Every one is at most MPI_TAG_UB, which is at least
 * 32767 (the standard's least); PUMMA_TAG_BCAST and PUMMA_TAG_REMAP start
 * ranges whose users check them against the grid's tag_ub. */
enum {
    PUMMA_TAG_MODEL = 77,      /* the model's ping-pong, alone on `all` */
    PUMMA_TAG_CLUSTERS = 78,   /* the clusters' ping-pongs, alone on `all` */
    PUMMA_TAG_ROLL = 11,       /* the one roll in flight (a shift) */
    PUMMA_TAG_REDUCE = 100,    /* + slot: a reduce pipeline's reduces */
    PUMMA_TAG_BCAST = 1000,    /* + i: broadcast i of an mdb stage */
    PUMMA_TAG_REMAP = 2000     /* + (id * np + origin) * np + dest, on all */
};

/* A variant names its tree with a shape function: the parent of `me` (-1
 * at the root) and its children (returned count), on a communicator of np
 * ranks. */

typedef int (*pumma_tree_shape_fn)(int np, int root, int me, int *parent,
                                   int *kids);

/* The pieces the tree engines (and the simulator) cut a message of count
 * elements into at `segment` elements each (0: one piece): at most
 * PUMMA_MAX_PIECES, as all of them are posted at once, and none beyond
 * pumma_count_max. */
enum { PUMMA_MAX_PIECES = 256 };
void pumma_coll_cut(int64_t count, int segment, int *npieces, int *piece);

/* The chain root, root+1, ..., root-1 (ring-inc and pipeline). */
int pumma_chain_shape(int np, int root, int me, int *parent, int *kids);

int pumma_bcast_tree_start(pumma_coll_t *c, pumma_tree_shape_fn shape,
                           int segment);
int pumma_bcast_tree_test(pumma_coll_t *c, int *done);
int pumma_bcast_tree_wait(pumma_coll_t *c);
/* On a tree given as this process's parent and children (the
 * hierarchical broadcast's between clusters); received: 1 once the whole
 * message is here; wait_received: until then (forwards left in flight). */
int pumma_bcast_tree_start_at(pumma_coll_t *c, int parent, const int *kids,
                              int nkids, int segment);
int pumma_bcast_tree_received(const pumma_coll_t *c);
int pumma_bcast_tree_wait_received(pumma_coll_t *c);

/* Sums in tree order (children in the order shape gives them). */
int pumma_reduce_tree_start(pumma_coll_t *c, pumma_tree_shape_fn shape,
                            int segment);
int pumma_reduce_tree_test(pumma_coll_t *c, int *done);
int pumma_reduce_tree_wait(pumma_coll_t *c);
/* On a tree given as this process's parent and children (the
 * hierarchical reduce's between clusters). */
int pumma_reduce_tree_start_at(pumma_coll_t *c, int parent, const int *kids,
                               int nkids, int segment);
/* The most whole-message buffers the engine gives one process (over every
 * root and member) in one reduce over np: an inner node's receive buffers,
 * and off the root its running sum (rbuf, the root's sum, not counted). */
int pumma_reduce_tree_buffers(pumma_tree_shape_fn shape, int np);

/* The tree engines' sends, completed in posting order: test advances *done
 * past those complete and sets *all when every one of the n is; wait
 * completes the rest. Both return PUMMA_OK or PUMMA_EMPI. */
int pumma_sends_test(MPI_Request *req, int n, int *done, int *all);
int pumma_sends_wait(MPI_Request *req, int n, int *done);

/* The mst broadcast's tree (pumma_bcast_mst.c), also the mst reduce's. */
int pumma_bcast_mst_tree(int np, int root, int me, int *parent, int *kids);

/* ------------------------------------------------------------------ auto */

/* Who decided a message's variant (pumma_decide.h). */
enum { PUMMA_SRC_FILE, PUMMA_SRC_MODEL, PUMMA_SRC_DEFAULT };

typedef struct pumma_decision {
    const pumma_coll_ops_t *v;
    double seg;                   /* bytes per piece, 0: v's default */
    int source;                   /* PUMMA_SRC_* */
    int model;                    /* PUMMA_NM_* when source is the model */
    const char *model_name;       /* its name then ("hockney", ...), else NULL */
} pumma_decision_t;

/* What auto asks of whoever decides (SRC/model/pumma_decide.c): the first
 * member of a pumma_decider, set by pumma_decide_parse; the collectives
 * see the decider only through these, as it is the model's. */
typedef struct pumma_decider_ops {
    void (*decide)(struct pumma_decider *d, pumma_table_kind_t op, int np,
                   double bytes, int esize, pumma_decision_t *out);
    void (*release)(struct pumma_decider *d);  /* pumma_decide_free, free */
} pumma_decider_ops_t;
static inline const pumma_decider_ops_t *
pumma_decider_ops(const struct pumma_decider *d)
{
    return *(const pumma_decider_ops_t *const *)d;   /* its first member */
}

/* The auto pseudo-variants (pumma_coll_auto.c): start() decides, then
 * runs the chosen variant (c->via); cost() prices the choice. */
extern const pumma_coll_ops_t pumma_bcast_auto, pumma_reduce_auto;

#endif
