/*
 * pumma_reduce_hier.c -- reduce variant "hier": two levels on a line that
 * spans clusters, the hier broadcast (pumma_bcast_hier.c) run backwards.
 * Inside each cluster the members' contributions are summed onto its
 * coordinator with the reduce variant the cluster's own model prices
 * fastest; then the coordinators' sums go up the ECEF schedule's tree to
 * the root, each crossing between clusters once. On a line inside one
 * cluster it is auto's decision (the table's first row when the grid
 * has no decider).
 *
 * The root coordinates its cluster: its receives between clusters are
 * posted in start(), so it owes nobody anything after start()
 * (pumma_reduce_tree.c, "Why"); the sum inside its cluster is added
 * after them, then its own contribution if it brings one (buf not NULL). A coordinator that is not the
 * root starts its part between clusters once its cluster's sum is in (in
 * test() or wait()), as an inner node of the tree engines passes on what
 * its children sent. The summation order is fixed by the plan, so a call
 * gives the same sum to the last bit every time.
 *
 * Matching: inside on the cluster's communicator, between on the line's,
 * both with the reduce's tag.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"


typedef struct rstate {
    pumma_coll_t intra, inter;
    const pumma_coll_ops_t *local;  /* the variant inside my cluster */
    pumma_hier_role_t role;  /* my place in the plan (pumma_hier_plan.c) */
    int coordinator, root, alone;   /* alone: my cluster is just me */
    int intra_done, inter_on, inter_done, finished;
    char *part;              /* coordinator: the others' sum in my cluster */
    char *sum;               /* coordinator off the root: mine + part */
} rstate_t;

static void state_free(pumma_coll_t *c)
{
    rstate_t *s = c->priv;
    if (!s) return;
    pumma_free(s->part);
    pumma_free(s->sum);
    pumma_hier_role_free(&s->role);
    free(s);
    c->priv = NULL;
}

static int start(pumma_coll_t *c)
{
    const pumma_hier_line_t *L = c->hier;
    c->priv = NULL;
    if (!L) {                        /* one cluster: one level */
        c->via = pumma_hier_single(PUMMA_REDUCE_TABLE, c->dec != NULL);
        return c->via->start(c);
    }
    c->via = NULL;
    int me, rc;
    if (MPI_Comm_rank(c->comm, &me) != MPI_SUCCESS) return PUMMA_EMPI;
    rstate_t *s = calloc(1, sizeof *s);
    if (!s) return PUMMA_ENOMEM;
    const size_t bytes = (size_t)c->count * c->t->size;
    /* between clusters the schedule's tree, children in the order they
     * were reached (their sums added in that order) */
    if ((rc = pumma_hier_role(PUMMA_REDUCE_TABLE, L, c->root, me,
                              (double)bytes, &s->role))) {
        free(s);
        return rc;
    }
    c->priv = s;
    s->local = s->role.local;
    s->coordinator = s->role.coordinator;
    s->root = me == c->root;
    s->alone = s->role.alone;
    const int sub_root = s->role.sub_root;

    /* inside: onto the coordinator, which brings nothing there */
    s->intra = *c;
    s->intra.comm = L->sub;
    s->intra.root = sub_root;
    s->intra.hier = NULL;
    s->intra.dec = NULL;
    s->intra.rbuf = NULL;
    if (s->coordinator && !s->alone) {
        s->part = pumma_malloc(bytes);
        if (!s->part) return PUMMA_ENOMEM;
        s->intra.buf = NULL;
        s->intra.rbuf = s->part;
    }
    if (s->alone) s->intra_done = 1;
    else if ((rc = s->local->start(&s->intra))) return rc;
    s->inter = *c;
    s->inter.hier = NULL;
    /* the root: its receives between clusters now, no contribution */
    if (s->root) {
        s->inter.buf = NULL;
        s->inter_on = 1;
        rc = pumma_reduce_tree_start_at(&s->inter, -1, s->role.kids, s->role.nk,
                                        c->segment);
    }
    return rc;
}

/* y += x over count elements, in pieces geadd's int length takes. */
static void add_all(const pumma_type_t *t, int64_t count, const char *x,
                    char *y)
{
    for (int64_t at = 0; at < count; at += pumma_count_max) {
        const int n = (int)(count - at < pumma_count_max ? count - at
                                                         : pumma_count_max);
        t->geadd('N', n, 1, t->one, x + (size_t)at * t->size, n, t->one,
                 y + (size_t)at * t->size, n);
    }
}

/* A coordinator off the root, its cluster's sum in: mine + the others'
 * (or mine alone) goes up the tree between clusters. */
static int start_inter(pumma_coll_t *c, rstate_t *s)
{
    s->inter_on = 1;
    if (!s->alone) {
        const size_t bytes = (size_t)c->count * c->t->size;
        if (!(s->sum = pumma_malloc(bytes))) return PUMMA_ENOMEM;
        memcpy(s->sum, c->buf, bytes);
        add_all(c->t, c->count, s->part, s->sum);
        s->inter.buf = s->sum;
    }
    return pumma_reduce_tree_start_at(&s->inter, s->role.parent,
                                      s->role.kids, s->role.nk,
                                      c->segment);
}

/* The root, both levels done: the sum inside its cluster added last,
 * then its own contribution if it brings one. */
static void finish_root(pumma_coll_t *c, rstate_t *s)
{
    if (s->finished) return;
    s->finished = 1;
    if (!s->alone) add_all(c->t, c->count, s->part, c->rbuf);
    if (c->buf) add_all(c->t, c->count, c->buf, c->rbuf);
}

static int test(pumma_coll_t *c, int *done)
{
    if (c->via) return c->via->test(c, done);
    rstate_t *s = c->priv;
    int rc = PUMMA_OK;
    *done = 0;
    if (!s) { *done = 1; return PUMMA_OK; }
    if (!s->intra_done) rc = s->local->test(&s->intra, &s->intra_done);
    if (!rc && s->coordinator && !s->root && s->intra_done && !s->inter_on)
        rc = start_inter(c, s);
    if (!rc && s->inter_on && !s->inter_done)
        rc = pumma_reduce_tree_test(&s->inter, &s->inter_done);
    const int all = s->intra_done && (!s->coordinator || s->inter_done);
    if (!rc && all && s->root) finish_root(c, s);
    *done = !rc && all;
    return rc;
}

static int wait(pumma_coll_t *c)
{
    if (c->via) return c->via->wait(c);
    rstate_t *s = c->priv;
    if (!s) return PUMMA_OK;
    int rc = PUMMA_OK;
    if (!s->alone) rc = s->local->wait(&s->intra);
    s->intra_done = 1;
    if (!rc && s->coordinator && !s->root && !s->inter_on)
        rc = start_inter(c, s);
    int r2 = s->inter_on ? pumma_reduce_tree_wait(&s->inter) : PUMMA_OK;
    if (!rc && !r2 && s->root) finish_root(c, s);
    state_free(c);
    return rc ? rc : r2;
}

/* One cluster: the single-level choice (as hier's broadcast). */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    return pumma_hier_single(PUMMA_REDUCE_TABLE, mo->dec != NULL)
        ->cost(mo, np, bytes, seg);
}

/* Any variant may run inside, and a coordinator holds two sums more. */
static int buffers(int np)
{
    int most = 0;
    const pumma_coll_ops_t *v;
    for (int i = 0; (v = pumma_comm_at(PUMMA_REDUCE_TABLE, i)) != NULL; i++)
        if (v != &pumma_reduce_hier && v->buffers && v->buffers(np) > most)
            most = v->buffers(np);
    return most + 2;
}

const pumma_coll_ops_t pumma_reduce_hier = {
    "hier",
    "two levels on lines that span clusters: inside each, then up the "
    "ECEF tree (PUMMA_CLUSTERS)",
    start, test, wait, cost, buffers, NULL, -1, 0};
