/*
 * pumma_reduce_tree.c -- the engine behind the tree-shaped reduces (ring,
 * mst, direct): a variant only says who a process's parent and children
 * are; this file sums the contributions up that tree to the root.
 *
 * An inner node receives its first child's partial sum straight into its
 * running sum (rbuf at the root), the other children's into buffers of
 * their own, adds its own contribution and the others' piece by piece (piece
 * k from every child, then piece k+1), and sends piece k on to its parent as
 * soon as every child's piece k is in: with pieces, a chain is pipelined.
 * The summation order is fixed (first child, own, the other children in
 * order), whatever order the messages arrive in: the same call gives the
 * same sum to the last bit, as ScaLAPACK's does. Every receive names its
 * child (pumma_comm.h, "Matching"). A leaf sends straight from buf, which
 * nobody ever writes.
 *
 * Why every receive is posted in start(), and every leaf's send: MDB2-like
 * callers wait for the collective they root last, and a sender's wait()
 * cannot finish (nor free what it sends) before its message is received
 * (large messages travel only once the receive is posted). So the root
 * must owe nobody anything after start(). An inner node owes its parent
 * only what its children sent, and delivers it in test() or wait(); as
 * every process of a communicator waits for the reduces it does not root in
 * one order, the one waiting for the oldest unfinished reduce is always
 * served, so none deadlocks. The price is memory: an inner node with c
 * children holds c-1 receive buffers of the whole message (plus, off the
 * root, its running sum).
 *
 * The entry points are declared in pumma_comm.h.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"

enum { ACTIVE = 0, COMPLETE = 1, FREED = 2 };

typedef struct rtree {
    int parent, nkids;
    int npieces, piece;         /* piece: elements per piece (last: less) */
    int nrecv, got;             /* receives: total and completed */
    int nsend, sdone;           /* sends to the parent: posted, complete */
    char *acc;                  /* running sum: rbuf at the root */
    char **from;                /* from[j]: where child j's sums land
                                   (from[0] == acc) */
    MPI_Request *rreq;          /* nrecv: receive i is piece i / nkids of
                                   child i % nkids */
    MPI_Request *sreq;          /* npieces */
    int kids[];                 /* in summation order */
} rtree_t;


static size_t off(const pumma_coll_t *c, const rtree_t *t, int k)
{
    return (size_t)k * (size_t)t->piece * c->t->size;
}

static int len(const pumma_coll_t *c, const rtree_t *t, int k)
{
    int64_t rest = c->count - (int64_t)k * t->piece;
    return rest < t->piece ? (int)rest : t->piece;
}

static int send_piece(pumma_coll_t *c, rtree_t *t, const char *base, int k)
{
    return pumma_isend(base + off(c, t, k), len(c, t, k), c->dt, t->parent,
                     c->tag, c->comm, &t->sreq[t->nsend++]) == MPI_SUCCESS
               ? PUMMA_OK : PUMMA_EMPI;
}

/* Receive t->got has landed: add it (the first child's piece is in the
 * running sum already: add my own contribution instead), pass on a piece
 * every child has now contributed to. */
static int absorb(pumma_coll_t *c, rtree_t *t)
{
    const int i = t->got++, k = i / t->nkids, j = i % t->nkids;
    const int n = len(c, t, k);
    const char *x = j == 0 ? (const char *)c->buf : t->from[j];
    if (x)       /* a root may bring no contribution (buf NULL) */
        c->t->geadd('N', n, 1, c->t->one, x + off(c, t, k), n, c->t->one,
                    t->acc + off(c, t, k), n);
    if (j == t->nkids - 1 && t->parent >= 0)
        return send_piece(c, t, t->acc, k);
    return PUMMA_OK;
}

static void release(pumma_coll_t *c)
{
    rtree_t *t = c->priv;
    if (t) {
        for (int j = t->parent >= 0 ? 0 : 1; t->from && j < t->nkids; j++)
            pumma_free(t->from[j]);
        free(t->from);
        free(t->rreq);
        free(t->sreq);
    }
    free(t);
    c->priv = NULL;
    c->state = FREED;
}

/* An inner node: buffers, and every receive posted. */
static int setup_inner(pumma_coll_t *c, rtree_t *t)
{
    const size_t bytes = (size_t)c->count * c->t->size;
    t->from = calloc((size_t)t->nkids, sizeof(char *));
    t->rreq = malloc(sizeof(MPI_Request) * (size_t)t->nrecv);
    if (!t->from || !t->rreq) return PUMMA_ENOMEM;
    for (int j = 0; j < t->nkids; j++) {
        t->from[j] = j == 0 && t->parent < 0 ? c->rbuf : pumma_malloc(bytes);
        if (!t->from[j]) return PUMMA_ENOMEM;
    }
    t->acc = t->from[0];
    for (int i = 0; i < t->nrecv; i++) {
        const int k = i / t->nkids, j = i % t->nkids;
        if (pumma_irecv(t->from[j] + off(c, t, k), len(c, t, k), c->dt,
                        t->kids[j], c->tag, c->comm, &t->rreq[i]) !=
            MPI_SUCCESS)
            return PUMMA_EMPI;
    }
    return PUMMA_OK;
}

/*
 * pumma_reduce_tree_start: post a sum of every process's c->buf into the
 * root's c->rbuf up the tree `shape` gives.
 *   c       (local input/output) the collective, fields set as in
 *           pumma_comm.h; priv, req and state are set here. buf is
 *           only read (at the root it may be NULL: no contribution);
 *           rbuf is written at the root only, and must not overlap buf
 *           (the first child's sums land in it at once).
 *   shape   (global input) shape(np, root, me, &parent, kids) sets the
 *           parent of `me` (-1 for the root), writes its children into kids
 *           (room for np) in summation order and returns how many.
 *   segment (global input) elements per piece, 0: the whole message.
 * Returns PUMMA_OK, PUMMA_ENOMEM or PUMMA_EMPI.
 */
int pumma_reduce_tree_start(pumma_coll_t *c,
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
    if (c->count <= 0) return PUMMA_OK;
    int parent, *kids = malloc(sizeof(int) * (size_t)np);
    if (!kids) return PUMMA_ENOMEM;
    int nkids = shape(np, c->root, me, &parent, kids);
    int rc = pumma_reduce_tree_start_at(c, parent, kids, nkids, segment);
    free(kids);
    return rc;
}

/* The same on a tree the caller gives: this process's parent (-1: it
 * holds the sum) and its nkids children in summation order (ranks in
 * c->comm). */
int pumma_reduce_tree_start_at(pumma_coll_t *c, int parent, const int *kids,
                               int nkids, int segment)
{
    c->req[0] = c->req[1] = MPI_REQUEST_NULL;
    c->priv = NULL;
    c->state = FREED;
    if (c->count <= 0) return PUMMA_OK;
    if (parent < 0 && nkids == 0) {    /* the root alone */
        if (c->buf)
            memcpy(c->rbuf, c->buf, (size_t)c->count * c->t->size);
        else             /* all-zero bits are 0 in every type pumma has */
            memset(c->rbuf, 0, (size_t)c->count * c->t->size);
        return PUMMA_OK;
    }
    rtree_t *t = calloc(1, sizeof(rtree_t) + sizeof(int) * (size_t)nkids);
    if (!t) return PUMMA_ENOMEM;
    t->parent = parent;
    t->nkids = nkids;
    for (int j = 0; j < nkids; j++) t->kids[j] = kids[j];
    /* as the broadcasts cut (all receives and leaves' sends are posted at
     * once): pieces fit geadd's int length too */
    pumma_coll_cut(c->count, segment, &t->npieces, &t->piece);
    t->nrecv = t->npieces * t->nkids;
    c->priv = t;
    c->state = ACTIVE;
    if (t->parent >= 0 &&
        !(t->sreq = malloc(sizeof(MPI_Request) * (size_t)t->npieces))) {
        release(c);
        return PUMMA_ENOMEM;
    }
    if (t->nkids == 0) {               /* a leaf: all of it goes out now */
        for (int k = 0; k < t->npieces; k++)
            if (send_piece(c, t, c->buf, k)) return PUMMA_EMPI;
        return PUMMA_OK;
    }
    int rc = setup_inner(c, t);
    if (rc == PUMMA_ENOMEM) release(c);
    return rc;
}

/*
 * pumma_reduce_tree_test: add what has arrived and pass it on, never
 * blocking. *done (local output) is 1 once this process's part is complete
 * (at the root: the sum is in rbuf), and after wait().
 */
int pumma_reduce_tree_test(pumma_coll_t *c, int *done)
{
    rtree_t *t = c->priv;
    int flag = 1;
    *done = c->state != ACTIVE;
    if (*done) return PUMMA_OK;
    while (t->got < t->nrecv) {
        if (MPI_Test(&t->rreq[t->got], &flag, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return PUMMA_EMPI;
        if (!flag) return PUMMA_OK;
        if (absorb(c, t)) return PUMMA_EMPI;
    }
    int all;
    if (pumma_sends_test(t->sreq, t->nsend, &t->sdone, &all))
        return PUMMA_EMPI;
    if (!all) return PUMMA_OK;
    c->state = COMPLETE;
    *done = 1;
    return PUMMA_OK;
}

/* pumma_reduce_tree_wait: receive, add and pass on the rest, complete the
 * sends, free the engine's state. Calling it again does nothing. */
int pumma_reduce_tree_wait(pumma_coll_t *c)
{
    rtree_t *t = c->priv;
    if (c->state == FREED) return PUMMA_OK;
    int rc = PUMMA_OK;
    while (rc == PUMMA_OK && t->got < t->nrecv) {
        if (MPI_Wait(&t->rreq[t->got], MPI_STATUS_IGNORE) != MPI_SUCCESS)
            rc = PUMMA_EMPI;
        else
            rc = absorb(c, t);
    }
    if (rc == PUMMA_OK) rc = pumma_sends_wait(t->sreq, t->nsend, &t->sdone);
    release(c);
    return rc;
}

int pumma_reduce_tree_buffers(pumma_tree_shape_fn shape, int np)
{
    int *kids = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
    int most = 0;
    if (!kids) return np;         /* a bound all the same: one per child */
    for (int root = 0; root < np && np > 1; root++)
        for (int me = 0; me < np; me++) {
            int parent, nk = shape(np, root, me, &parent, kids);
            int held = nk == 0 ? 0 : parent < 0 ? nk - 1 : nk;
            if (held > most) most = held;
        }
    free(kids);
    return most;
}
