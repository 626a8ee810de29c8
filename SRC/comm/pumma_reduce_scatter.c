/*
 * pumma_reduce_scatter.c -- reduce variant "scatter": a reduce-scatter,
 * then a gather at the root (Rabenseifner's reduce, with the scatter done
 * in one step). The message is cut into np pieces, piece x summed by the
 * process at distance x from the root: every process sends each other
 * process that one's piece of its contribution, sums the np contributions
 * to its own piece, and sends the sum to the root, whose own piece lands
 * in place. A process sends and receives about twice the message (one
 * piece from and to each other process) where the binomial trees (mst)
 * pass the whole message log2(np) times through the root: on 16 simulated
 * processes of 4-rank nodes a 256 KB reduce took 0.19 ms by mst, mostly
 * the root's four receives one after another.
 *
 * Each process adds its piece's np contributions in rank order from the
 * root (the root's own first), whatever order they arrive in, so a call
 * repeated gives the same sum to the last bit. As the tree engine's
 * (pumma_reduce_tree.c), every receive and every piece of the
 * contribution goes out in start(): the root owes nobody anything after
 * it, and the others owe the root only the sum of what was sent to them.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"

enum { ACTIVE = 0, COMPLETE = 1, FREED = 2 };

typedef struct rscat {
    int np, me, x;              /* x: my distance from the root */
    int got;                    /* contributions to my piece absorbed */
    int fresh;                  /* nothing added into acc yet */
    int ngath;                  /* the root: the sums it gathers */
    int nsend, sdone;
    int64_t lo, hi;             /* my piece */
    char *acc;                  /* my piece's sum (the root: in rbuf) */
    char **from;                /* from[k]: the contribution of distance k */
    MPI_Request *rreq;          /* contributions, in distance order */
    MPI_Request *greq;          /* the root's gathers */
    MPI_Request *sreq;          /* my pieces out, then my sum */
} rscat_t;

/* The first element of the piece at distance x. */
static int64_t piece_lo(const pumma_coll_t *c, int np, int x)
{
    return c->count / np * x + (x < c->count % np ? x : c->count % np);
}

static char *at(const pumma_coll_t *c, const void *base, int64_t i)
{
    return (char *)base + (size_t)i * c->t->size;
}

static int rank_of(int np, int root, int x) { return (root + x) % np; }

/* acc (+)= x over n elements: geadd's lengths are ints. */
static void add(const pumma_coll_t *c, const char *x, char *acc, int64_t n,
                int first)
{
    const pumma_type_t *t = c->t;
    for (int64_t i = 0; i < n; i += INT_MAX) {
        const int len = n - i < INT_MAX ? (int)(n - i) : INT_MAX;
        t->geadd('N', len, 1, t->one, at(c, x, i), len,
                 first ? t->zero : t->one, at(c, acc, i), len);
    }
}

static void release(pumma_coll_t *c)
{
    rscat_t *s = c->priv;
    if (s) {
        for (int k = 0; s->from && k < s->np; k++) pumma_free(s->from[k]);
        free(s->from);
        if (s->x != 0) pumma_free(s->acc);
        free(s->rreq);
        free(s->greq);
        free(s->sreq);
    }
    free(s);
    c->priv = NULL;
    c->state = FREED;
}

/* The contribution of distance k to my piece (mine: from buf). */
static const char *contribution(const pumma_coll_t *c, const rscat_t *s, int k)
{
    if (k == s->x) return c->buf ? at(c, c->buf, s->lo) : NULL;
    return s->from[k];
}

/* The contribution of distance k to my piece added (the first copied). */
static void absorb(pumma_coll_t *c, rscat_t *s, int k)
{
    const char *x = contribution(c, s, k);
    if (!x || s->hi <= s->lo) return;
    add(c, x, s->acc, s->hi - s->lo, s->fresh);
    s->fresh = 0;
}

/* Every contribution absorbed in distance order up to what has arrived
 * (block: all of them), then my sum sent to the root. */
static int progress(pumma_coll_t *c, rscat_t *s, int block)
{
    while (s->got < s->np) {
        const int k = s->got;
        if (k != s->x) {
            const int i = k < s->x ? k : k - 1;
            int flag = 1;
            if (block ? MPI_Wait(&s->rreq[i], MPI_STATUS_IGNORE) != MPI_SUCCESS
                      : MPI_Test(&s->rreq[i], &flag, MPI_STATUS_IGNORE) !=
                            MPI_SUCCESS)
                return PUMMA_EMPI;
            if (!flag) return PUMMA_OK;
        }
        absorb(c, s, k);
        s->got++;
        if (s->got == s->np && s->x != 0 && s->hi > s->lo &&
            pumma_isend(s->acc, s->hi - s->lo, c->dt, rank_of(s->np, c->root, 0),
                        c->tag, c->comm, &s->sreq[s->nsend++]) != MPI_SUCCESS)
            return PUMMA_EMPI;
    }
    return PUMMA_OK;
}

static int rs_start(pumma_coll_t *c)
{
    int np, me;
    c->req[0] = c->req[1] = MPI_REQUEST_NULL;
    c->priv = NULL;
    c->state = FREED;
    if (MPI_Comm_size(c->comm, &np) != MPI_SUCCESS ||
        MPI_Comm_rank(c->comm, &me) != MPI_SUCCESS)
        return PUMMA_EMPI;
    if (c->count <= 0) return PUMMA_OK;
    if (np == 1) {
        if (c->buf) memcpy(c->rbuf, c->buf, (size_t)c->count * c->t->size);
        else memset(c->rbuf, 0, (size_t)c->count * c->t->size);
        return PUMMA_OK;
    }
    rscat_t *s = calloc(1, sizeof *s);
    if (!s) return PUMMA_ENOMEM;
    c->priv = s;
    c->state = ACTIVE;
    s->np = np;
    s->me = me;
    s->x = (me - c->root + np) % np;
    s->fresh = 1;
    s->lo = piece_lo(c, np, s->x);
    s->hi = piece_lo(c, np, s->x + 1);
    const int64_t mine = s->hi - s->lo;
    const size_t e = c->t->size;
    s->from = calloc((size_t)np, sizeof(char *));
    s->rreq = malloc(sizeof(MPI_Request) * (size_t)np);
    s->greq = malloc(sizeof(MPI_Request) * (size_t)np);
    s->sreq = malloc(sizeof(MPI_Request) * (size_t)(np + 1));
    s->acc = s->x == 0 ? at(c, c->rbuf, s->lo)
                       : mine > 0 ? pumma_malloc((size_t)mine * e) : NULL;
    if (!s->from || !s->rreq || !s->greq || !s->sreq || (mine > 0 && !s->acc)) {
        release(c);
        return PUMMA_ENOMEM;
    }
    /* the root's gathers first: from each process, its sum comes after
     * its piece of the root's own (one tag, sent in that order) */
    int rc = PUMMA_OK;
    for (int k = 0; k < np; k++) {
        s->rreq[k] = s->greq[k] = MPI_REQUEST_NULL;
        if (k == s->x || mine == 0) continue;
        if (!(s->from[k] = pumma_malloc((size_t)mine * e))) rc = PUMMA_ENOMEM;
        else if (pumma_irecv(s->from[k], mine, c->dt, rank_of(np, c->root, k),
                             c->tag, c->comm, &s->rreq[k < s->x ? k : k - 1]) !=
                 MPI_SUCCESS)
            rc = PUMMA_EMPI;
        if (rc) break;
    }
    for (int k = 1; !rc && s->x == 0 && k < np; k++) {
        const int64_t lo = piece_lo(c, np, k), n = piece_lo(c, np, k + 1) - lo;
        if (n > 0 && pumma_irecv(at(c, c->rbuf, lo), n, c->dt,
                                 rank_of(np, c->root, k), c->tag, c->comm,
                                 &s->greq[s->ngath++]) != MPI_SUCCESS)
            rc = PUMMA_EMPI;
    }
    /* my contribution's pieces, each to the process summing it (zeros
     * from a root that brings none: every process expects all np) */
    const char *src = c->buf;
    char *zeros = NULL;
    for (int k = 0; !rc && k < np; k++) {
        const int64_t lo = piece_lo(c, np, k), n = piece_lo(c, np, k + 1) - lo;
        if (k == s->x || n == 0) continue;
        if (!src && !zeros) {
            if (!(zeros = pumma_malloc((size_t)(c->count / np + 1) * e))) {
                rc = PUMMA_ENOMEM;
                break;
            }
            memset(zeros, 0, (size_t)(c->count / np + 1) * e);
        }
        if (pumma_isend(src ? at(c, src, lo) : zeros, n, c->dt,
                        rank_of(np, c->root, k), c->tag, c->comm,
                        &s->sreq[s->nsend++]) != MPI_SUCCESS)
            rc = PUMMA_EMPI;
    }
    if (zeros) s->from[s->x] = zeros;   /* freed with the rest */
    if (rc == PUMMA_ENOMEM) release(c);
    return rc;
}

static int rs_test(pumma_coll_t *c, int *done)
{
    rscat_t *s = c->priv;
    *done = c->state != ACTIVE;
    if (*done) return PUMMA_OK;
    if (progress(c, s, 0)) return PUMMA_EMPI;
    if (s->got < s->np) return PUMMA_OK;
    int all = 1, flag = 1;
    if (s->ngath &&
        MPI_Testall(s->ngath, s->greq, &flag, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        return PUMMA_EMPI;
    if (pumma_sends_test(s->sreq, s->nsend, &s->sdone, &all)) return PUMMA_EMPI;
    if (!flag || !all) return PUMMA_OK;
    c->state = COMPLETE;
    *done = 1;
    return PUMMA_OK;
}

static int rs_wait(pumma_coll_t *c)
{
    rscat_t *s = c->priv;
    if (c->state == FREED) return PUMMA_OK;
    int rc = progress(c, s, 1);
    if (!rc && s->ngath &&
        MPI_Waitall(s->ngath, s->greq, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        rc = PUMMA_EMPI;
    if (!rc) rc = pumma_sends_wait(s->sreq, s->nsend, &s->sdone);
    release(c);
    return rc;
}

/* A piece to and from every other process, its adds, then the root
 * receives the np - 1 sums. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    if (np <= 1) return 0;
    return 2 * (np - 1) * pumma_model_msg(mo, bytes / np) +
           pumma_model_copy(mo, bytes, 0);
}

/* The np - 1 contributions to my piece and its sum: one message's size. */
static int buffers(int np) { return np > 1; }

const pumma_coll_ops_t pumma_reduce_scatter = {
    "scatter", "reduce-scatter then gather: each process sums an np-th",
    rs_start, rs_test, rs_wait, cost, buffers, NULL, -1, 1};
