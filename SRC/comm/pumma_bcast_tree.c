/*
 * pumma_bcast_tree.c -- the engine behind the tree-shaped broadcasts
 * (ring-dec, ring-split, mst, binomial, binary, pipeline, linear). A
 * variant only says who a process's parent and children are (its shape,
 * which the simulator in SRC/model/pumma_sim.c runs too, with the same
 * pumma_coll_cut); this file moves the message
 * down that tree, cut into pieces when asked, each piece forwarded as soon
 * as it is in, so a chain or tree is pipelined.
 *
 * Why the root posts every send in start(): MDB2 waits for the broadcast it
 * roots last (it multiplies its own block first), so a root must owe nobody
 * anything after start() returns. A non-root owes its children only what
 * it has received, and forwards it in test() or wait(); as every process of
 * a communicator waits for its broadcasts in one order, the process waiting
 * for the oldest unfinished broadcast is always served, so none deadlocks.
 *
 * The entry points are declared in pumma_comm.h.
 */
#include <stdlib.h>

#include "pumma_comm.h"

enum { ACTIVE = 0, COMPLETE = 1, FREED = 2 };

typedef struct tree {
    int parent, nkids;          /* ranks in comm; parent -1 at the root */
    int npieces, piece;         /* piece: elements per piece (last: less) */
    int next;                   /* first piece not yet received */
    int nsend, sdone;           /* sends posted, and known complete */
    size_t esize;               /* bytes per element */
    MPI_Request *rreq;          /* npieces receives from the parent */
    MPI_Request *sreq;          /* npieces * nkids sends, piece-major */
    int kids[];                 /* in sending order */
} tree_t;

/* At most PUMMA_MAX_PIECES: a tiny segment on a large message would mean
 * millions of requests (the root posts all of its sends at once). None
 * beyond pumma_count_max: an MPI count, and the reduce's int length. */
void pumma_coll_cut(int64_t count, int segment, int *npieces, int *piece)
{
    int64_t p = segment > 0 && segment < count ? segment : count;
    int64_t min = (count + PUMMA_MAX_PIECES - 1) / PUMMA_MAX_PIECES;
    if (p < min) p = min;
    if (p > pumma_count_max) p = pumma_count_max;
    *piece = (int)p;
    *npieces = (int)((count + p - 1) / p);
}

static char *at(const pumma_coll_t *c, const tree_t *t, int k)
{
    return (char *)c->buf + (size_t)k * (size_t)t->piece * t->esize;
}

static int len(const pumma_coll_t *c, const tree_t *t, int k)
{
    int64_t rest = c->count - (int64_t)k * t->piece;
    return rest < t->piece ? (int)rest : t->piece;
}

/* Send piece k to every child. */
static int forward(pumma_coll_t *c, tree_t *t, int k)
{
    for (int j = 0; j < t->nkids; j++)
        if (pumma_isend(at(c, t, k), len(c, t, k), c->dt, t->kids[j], c->tag,
                      c->comm, &t->sreq[t->nsend++]) != MPI_SUCCESS)
            return PUMMA_EMPI;
    return PUMMA_OK;
}

static void release(pumma_coll_t *c)
{
    tree_t *t = c->priv;
    if (t) free(t->rreq);
    free(t);
    c->priv = NULL;
    c->state = FREED;
}

/*
 * pumma_bcast_tree_start: post a broadcast of c->buf from c->root down the
 * tree `shape` gives.
 *   c       (local input/output) the collective, fields set as in
 *           pumma_comm.h; priv, req and state are set here.
 *   shape   (global input) shape(np, root, me, &parent, kids) sets the
 *           parent of `me` (-1 for the root), writes its children into kids
 *           (room for np) in sending order and returns how many.
 *   segment (global input) elements per piece, 0: the whole message.
 * Returns PUMMA_OK, PUMMA_ENOMEM or PUMMA_EMPI.
 */
int pumma_bcast_tree_start(pumma_coll_t *c,
                           int (*shape)(int, int, int, int *, int *),
                           int segment)
{
    int np, me;
    c->req[0] = c->req[1] = MPI_REQUEST_NULL;
    c->priv = NULL;
    c->state = FREED;                  /* nothing to do, nothing to free */
    if (MPI_Comm_size(c->comm, &np) != MPI_SUCCESS ||
        MPI_Comm_rank(c->comm, &me) != MPI_SUCCESS)
        return PUMMA_EMPI;
    if (np == 1 || c->count <= 0) return PUMMA_OK;
    int parent, *kids = malloc(sizeof(int) * (size_t)np);
    if (!kids) return PUMMA_ENOMEM;
    int nkids = shape(np, c->root, me, &parent, kids);
    int rc = pumma_bcast_tree_start_at(c, parent, kids, nkids, segment);
    free(kids);
    return rc;
}

/* The same on a tree the caller gives: this process's parent (-1: it
 * holds the message) and its nkids children in sending order (ranks in
 * c->comm). A process outside the tree passes parent -1 and no child. */
int pumma_bcast_tree_start_at(pumma_coll_t *c, int parent, const int *kids,
                              int nkids, int segment)
{
    c->req[0] = c->req[1] = MPI_REQUEST_NULL;
    c->priv = NULL;
    c->state = FREED;
    if (c->count <= 0 || (parent < 0 && nkids == 0)) return PUMMA_OK;
    tree_t *t = malloc(sizeof(tree_t) + sizeof(int) * (size_t)nkids);
    if (!t) return PUMMA_ENOMEM;
    t->parent = parent;
    t->nkids = nkids;
    for (int j = 0; j < nkids; j++) t->kids[j] = kids[j];
    pumma_coll_cut(c->count, segment, &t->npieces, &t->piece);
    t->next = t->nsend = t->sdone = 0;
    int esize = 0;
    MPI_Type_size(c->dt, &esize);
    t->esize = c->t ? c->t->size : (size_t)esize;
    size_t nreq = (size_t)t->npieces * (size_t)(1 + t->nkids);
    t->rreq = malloc(sizeof(MPI_Request) * nreq);
    c->priv = t;
    c->state = ACTIVE;
    if (!t->rreq) {
        release(c);
        return PUMMA_ENOMEM;
    }
    t->sreq = t->rreq + t->npieces;

    if (t->parent < 0) {               /* root: everything goes out now */
        for (int k = 0; k < t->npieces; k++)
            if (forward(c, t, k)) return PUMMA_EMPI;
        t->next = t->npieces;
        return PUMMA_OK;
    }
    for (int k = 0; k < t->npieces; k++)
        if (pumma_irecv(at(c, t, k), len(c, t, k), c->dt, t->parent, c->tag,
                        c->comm, &t->rreq[k]) != MPI_SUCCESS)
            return PUMMA_EMPI;
    return PUMMA_OK;
}

/* 1 when this process holds the whole message (its forwards may still be
 * in flight). */
int pumma_bcast_tree_received(const pumma_coll_t *c)
{
    const tree_t *t = c->priv;
    return c->state != ACTIVE || t->next == t->npieces;
}

/* The receive of the next piece this process awaits, NULL once it holds
 * the whole message (pumma_bcast_await.c waits on it among others). */
MPI_Request *pumma_bcast_tree_pending(pumma_coll_t *c)
{
    tree_t *t = c->priv;
    return c->state == ACTIVE && t->next < t->npieces ? &t->rreq[t->next]
                                                      : NULL;
}

/* The elements from the start of the message this process holds: all at
 * the root and once complete, else the pieces received so far. */
int64_t pumma_bcast_tree_have(const pumma_coll_t *c)
{
    const tree_t *t = c->priv;
    if (c->state != ACTIVE || t->next == t->npieces) return c->count;
    return (int64_t)t->next * t->piece;
}

/* That receive is complete (its handle now MPI_REQUEST_NULL): forward the
 * piece to the children. */
int pumma_bcast_tree_arrived(pumma_coll_t *c)
{
    tree_t *t = c->priv;
    return forward(c, t, t->next++);
}

/* Receive (and forward) the rest of the message, leaving the forwards in
 * flight for test() or wait(). */
int pumma_bcast_tree_wait_received(pumma_coll_t *c)
{
    tree_t *t = c->priv;
    if (c->state != ACTIVE) return PUMMA_OK;
    while (t->next < t->npieces) {
        if (MPI_Wait(&t->rreq[t->next], MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (forward(c, t, t->next++)) return PUMMA_EMPI;
    }
    return PUMMA_OK;
}

/*
 * pumma_bcast_tree_test: forward what has arrived, never blocking. *done
 * (local output) is 1 once this process's part is complete (and after
 * wait()).
 */
int pumma_bcast_tree_test(pumma_coll_t *c, int *done)
{
    tree_t *t = c->priv;
    int flag = 1;
    *done = c->state != ACTIVE;
    if (*done) return PUMMA_OK;
    while (t->next < t->npieces) {
        if (MPI_Test(&t->rreq[t->next], &flag, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return PUMMA_EMPI;
        if (!flag) return PUMMA_OK;
        if (forward(c, t, t->next++)) return PUMMA_EMPI;
    }
    int all;
    if (pumma_sends_test(t->sreq, t->nsend, &t->sdone, &all))
        return PUMMA_EMPI;
    if (!all) return PUMMA_OK;
    c->state = COMPLETE;
    *done = 1;
    return PUMMA_OK;
}

/* pumma_bcast_tree_wait: receive and forward the rest, complete the sends,
 * free the engine's state. Calling it again does nothing. */
int pumma_bcast_tree_wait(pumma_coll_t *c)
{
    tree_t *t = c->priv;
    if (c->state == FREED) return PUMMA_OK;
    int rc = PUMMA_OK;
    while (rc == PUMMA_OK && t->next < t->npieces) {
        if (MPI_Wait(&t->rreq[t->next], MPI_STATUS_IGNORE) != MPI_SUCCESS)
            rc = PUMMA_EMPI;
        else
            rc = forward(c, t, t->next++);
    }
    if (rc == PUMMA_OK) rc = pumma_sends_wait(t->sreq, t->nsend, &t->sdone);
    release(c);
    return rc;
}
