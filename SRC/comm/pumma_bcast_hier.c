/*
 * pumma_bcast_hier.c -- broadcast variant "hier": two levels on a line
 * that spans clusters (seed 004, section 4.3). The message goes once to
 * one process of each cluster (its coordinator; the root's own cluster's
 * is the root) on an ECEF schedule built for the slow links between
 * clusters (pumma_ecef.c), and each coordinator, as soon as it holds the
 * message, broadcasts it inside its cluster with the variant the
 * cluster's own model prices fastest there (the poly-algorithm of seed
 * 004's Table 4), while it still forwards it to other clusters.
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
#include "pumma_hier.h"

extern const pumma_coll_ops_t pumma_bcast_auto;

typedef struct hstate {
    pumma_coll_t inter, intra;
    int coordinator;         /* 1: I take part between clusters */
    int intra_started;
    const pumma_coll_ops_t *local;  /* the variant inside my cluster */
    int sub_root;            /* my cluster's coordinator, in its sub */
} hstate_t;

/* The variant of table op that the model mo prices fastest for np
 * processes and `bytes` (not auto, not hier); *t its time. */
const pumma_coll_ops_t *pumma_hier_fastest(pumma_table_kind_t op,
                                           const pumma_model_t *mo, int np,
                                           double bytes, double *t)
{
    const pumma_coll_ops_t *v, *best = pumma_comm_at(op, 0);
    *t = np > 1 ? best->cost(mo, np, bytes, 0) : 0;
    for (int i = 0; np > 1 && (v = pumma_comm_at(op, i)); i++) {
        if (!v->cost || strcmp(v->name, "hier") == 0) continue;
        double c = v->cost(mo, np, bytes, 0);
        if (c < *t) {
            *t = c;
            best = v;
        }
    }
    return best;
}

static int forced = -1;       /* pumma_hier_schedule_set's */
void pumma_hier_schedule_set(int kind) { forced = kind; }

/* The heuristic to use: pumma_hier_schedule_set's, else
 * PUMMA_HIER_SCHEDULE (read once): 0 (auto) or a pumma_ecef kind. */
int pumma_hier_schedule(void)
{
    static int kind = -1;
    if (forced >= 0) return forced;
    if (kind < 0) {
        const char *e = pumma_env_get("PUMMA_HIER_SCHEDULE");
        kind = !e || strcmp(e, "auto") == 0 ? 0 : pumma_ecef_kind(e);
        if (e && kind == 0 && strcmp(e, "auto") != 0)
            pumma_env_bad("PUMMA_HIER_SCHEDULE", e,
                          "ecef, ecef-la, ecef-lat or auto");
    }
    return kind;
}

void pumma_hier_schedule_env_check(void) { (void)pumma_hier_schedule(); }

/* pumma_hier_plan: see pumma_hier.h. */
double pumma_hier_plan(pumma_table_kind_t op, const pumma_hier_line_t *L,
                       int root, double bytes, int kind, int *parent,
                       int *order, int *coord,
                       const pumma_coll_ops_t **local, int *chosen)
{
    const int nc = L->nc;
    const pumma_hier_grid_t *h = L->h;
    double *Lt = malloc(sizeof(double) * (size_t)(2 * nc * nc + 2 * nc));
    if (!Lt) return -1;
    double *g = Lt + nc * nc, *T = g + nc * nc, *arrive = T + nc;
    for (int a = 0; a < nc; a++) {
        for (int b = 0; b < nc; b++) {
            const int ga = L->gcl[a], gb = L->gcl[b];
            Lt[a * nc + b] = a == b ? 0 : h->lat[ga * h->nc + gb];
            g[a * nc + b] = a == b ? 0 : bytes * h->beta[ga * h->nc + gb];
        }
        local[a] = pumma_hier_fastest(op, &h->inside[L->gcl[a]], L->size[a],
                                      bytes, &T[a]);
        coord[a] = L->coord[a];
    }
    coord[L->cl[root]] = root;
    double best = -1;
    int *p = malloc(sizeof(int) * 2 * (size_t)nc), *o = p ? p + nc : NULL;
    for (int k = PUMMA_ECEF; p && k <= PUMMA_ECEF_LAT; k++) {
        if (kind && k != kind) continue;
        double t = pumma_ecef(k, nc, L->cl[root], Lt, g, T, p, o, arrive);
        if (best < 0 || t < best) {
            best = t;
            *chosen = k;
            memcpy(parent, p, sizeof(int) * (size_t)nc);
            memcpy(order, o, sizeof(int) * (size_t)nc);
        }
    }
    free(p);
    free(Lt);
    return best;
}

static int start(pumma_coll_t *c)
{
    const pumma_hier_line_t *L = c->hier;
    c->priv = NULL;
    if (!L) {                        /* one cluster: one level */
        c->via = c->dec ? &pumma_bcast_auto
                        : pumma_comm_find(PUMMA_BCAST_TABLE, "binomial");
        return c->via->start(c);
    }
    c->via = NULL;
    const int nc = L->nc;
    int me;
    if (MPI_Comm_rank(c->comm, &me) != MPI_SUCCESS) return PUMMA_EMPI;
    hstate_t *s = calloc(1, sizeof *s);
    int *w = malloc(sizeof(int) * (size_t)(4 * nc));
    const pumma_coll_ops_t **local = malloc(sizeof(*local) * (size_t)nc);
    if (!s || !w || !local) {
        free(s); free(w); free(local);
        return PUMMA_ENOMEM;
    }
    int *parent = w, *order = w + nc, *coord = w + 2 * nc, *kids = w + 3 * nc;
    int chosen = 0;
    const double bytes = (double)c->count * (double)c->t->size;
    if (pumma_hier_plan(PUMMA_BCAST_TABLE, L, c->root, bytes,
                        pumma_hier_schedule(), parent, order,
                        coord, local, &chosen) < 0) {
        free(s); free(w); free(local);
        return PUMMA_ENOMEM;
    }
    const int mine = L->cl[me];
    s->local = local[mine];
    s->sub_root = L->sub_rank[coord[mine]];
    s->coordinator = coord[mine] == me;
    c->priv = s;
    int rc = PUMMA_OK;
    /* between clusters: my parent's and my children's coordinators, the
     * children in the schedule's order */
    if (s->coordinator) {
        int nk = 0;
        for (int i = 1; i < nc; i++)
            if (parent[order[i]] == mine) kids[nk++] = coord[order[i]];
        s->inter = *c;
        s->inter.hier = NULL;
        rc = pumma_bcast_tree_start_at(
            &s->inter, parent[mine] < 0 ? -1 : coord[parent[mine]], kids, nk,
            0);
    }
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
    free(w);
    free(local);
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

/* One cluster: the single-level choice. (Across clusters the planner
 * does not price yet; a line's own costs are pumma_hier_plan's.) */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    double t;
    (void)seg;
    (void)pumma_hier_fastest(PUMMA_BCAST_TABLE, mo, np, bytes, &t);
    return t;
}

const pumma_coll_ops_t pumma_bcast_hier = {
    "hier",
    "two levels on lines that span clusters: ECEF between, the fastest "
    "variant inside (PUMMA_CLUSTERS)",
    start, test, wait, cost, NULL, NULL, -1};
