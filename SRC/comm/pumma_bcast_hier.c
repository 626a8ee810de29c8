/*
 * pumma_bcast_hier.c -- broadcast variant "hier": two levels on a line that
 * spans clusters (Nasri, Steffenel and Trystram 2007, section 4.3). The
 * message goes once to one process of each cluster (its coordinator; the
 * root's own cluster's is the root) on an ECEF schedule built for the slow
 * links between clusters (pumma_ecef.c), and each coordinator, as soon as
 * it holds the message, broadcasts it inside its cluster with the variant
 * the cluster's own model prices fastest there (the poly-algorithm of Table
 * 4 of Nasri, Steffenel and Trystram 2007), while it still forwards it to
 * other clusters.
 *
 * On a line inside one cluster (or a grid without clusters: PUMMA_CLUSTERS
 * unset) it is that single-level choice on the whole line: auto's
 * decision when the grid has one, else binomial.
 *
 * PUMMA_HIER_SCHEDULE picks the heuristic (ecef, ecef-la, ecef-lat); auto,
 * the default, builds all three and keeps the earliest predicted.
 *
 * Matching (pumma_comm.h): the level between clusters runs on the line's
 * communicator and the level inside on the cluster's own (made for this
 * only), both with the broadcast's tag; one process never has two of
 * either in flight with one tag.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"

typedef struct hstate {
    pumma_coll_t inter, intra;
    int coordinator;         /* 1: I take part between clusters */
    int intra_started;
    const pumma_coll_ops_t *local;  /* the variant inside my cluster */
    int sub_root;            /* my cluster's coordinator, in its sub */
} hstate_t;

static int start(pumma_coll_t *c)
{
    const pumma_hier_line_t *L = c->hier;
    c->priv = NULL;
    if (!L) {                        /* one cluster: one level */
        c->via = pumma_hier_single(PUMMA_BCAST_TABLE, c->dec != NULL);
        return c->via->start(c);
    }
    c->via = NULL;
    int me;
    if (MPI_Comm_rank(c->comm, &me) != MPI_SUCCESS) return PUMMA_EMPI;
    pumma_hier_role_t r;
    int rc = pumma_hier_role(PUMMA_BCAST_TABLE, L, c->root, me,
                             (double)c->count * (double)c->t->size, &r);
    if (rc) return rc;
    hstate_t *s = calloc(1, sizeof *s);
    if (!s) {
        pumma_hier_role_free(&r);
        return PUMMA_ENOMEM;
    }
    s->local = r.local;
    s->sub_root = r.sub_root;
    s->coordinator = r.coordinator;
    c->priv = s;
    if (s->coordinator) {
        s->inter = *c;
        s->inter.hier = NULL;
        rc = pumma_bcast_tree_start_at(&s->inter, r.parent, r.kids, r.nk, 0);
    }
    pumma_hier_role_free(&r);
    /* inside: at once where the message is (the root), else once in */
    s->intra = *c;
    s->intra.comm = L->sub;
    s->intra.root = s->sub_root;
    s->intra.hier = NULL;
    s->intra.dec = NULL;
    if (!rc && (!s->coordinator || me == c->root)) {
        s->intra_started = 1;
        rc = s->local->start(&s->intra);
    }
    return rc;
}

static int test(pumma_coll_t *c, int *done)
{
    if (c->via) return c->via->test(c, done);
    hstate_t *s = c->priv;
    int rc = PUMMA_OK, d_inter = 1, d_intra = 0;
    *done = 0;
    if (!s) { *done = 1; return PUMMA_OK; }
    if (s->coordinator) {
        rc = pumma_bcast_tree_test(&s->inter, &d_inter);
        if (!rc && !s->intra_started &&
            pumma_bcast_tree_received(&s->inter)) {
            s->intra_started = 1;
            rc = s->local->start(&s->intra);
        }
    }
    if (!rc && s->intra_started) rc = s->local->test(&s->intra, &d_intra);
    *done = !rc && d_inter && d_intra;
    return rc;
}

static int wait(pumma_coll_t *c)
{
    if (c->via) return c->via->wait(c);
    hstate_t *s = c->priv;
    if (!s) return PUMMA_OK;
    int rc = PUMMA_OK;
    /* a coordinator starts inside as soon as the message is in, before
     * its sends to other clusters complete */
    if (s->coordinator && !s->intra_started) {
        rc = pumma_bcast_tree_wait_received(&s->inter);
        s->intra_started = 1;
        if (!rc) rc = s->local->start(&s->intra);
    }
    int r2 = s->intra_started ? s->local->wait(&s->intra) : PUMMA_OK;
    int r3 = s->coordinator ? pumma_bcast_tree_wait(&s->inter) : PUMMA_OK;
    free(s);
    c->priv = NULL;
    return rc ? rc : r2 ? r2 : r3;
}

/* One cluster: the single-level choice. (Across clusters the price is
 * pumma_coll_price's: a line's own costs are pumma_hier_plan's.) */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    return pumma_hier_single(PUMMA_BCAST_TABLE, mo->dec != NULL)
        ->cost(mo, np, bytes, seg);
}

const pumma_coll_ops_t pumma_bcast_hier = {
    "hier",
    "two levels on lines that span clusters: ECEF between, the fastest "
    "variant inside (PUMMA_CLUSTERS)",
    start, test, wait, cost, NULL, NULL, -1, 0};
