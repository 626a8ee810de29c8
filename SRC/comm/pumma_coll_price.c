/*
 * pumma_coll_price.c -- what a broadcast, reduce or roll costs on the
 * lines of processes it runs on (pumma_comm.h), for the planner's prices
 * of the algorithms (SRC/algo).
 *
 * A variant's own cost knows the size of its line and one model. On a
 * grid that spans clusters (pumma_clusters.c) the lines differ: one lies
 * inside a cluster, another crosses slow links between clusters. There:
 *   - hier is priced by its own plan on the line (pumma_hier_plan: the
 *     ECEF schedule between the clusters and each cluster's fastest
 *     variant inside), the mean over the line's roots, since the roots
 *     of an algorithm's collectives go round the line; on a line inside
 *     one cluster, by what it runs there (pumma_hier_single);
 *   - the single-level variants are priced under the slowest link the
 *     line holds (inside its clusters and between them): a flat tree or
 *     ring does not know where the slow links are, and its critical path
 *     crosses them. That is an upper bound, and the one Nasri, Steffenel
 *     and Trystram 2007 compare against;
 *   - a call's time is its slowest line's: the busiest line sets the
 *     pace of every stage.
 * On a grid without clusters each price is the variant's cost under the
 * grid's model, unchanged.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"

/* The lines along `along` of g, the real grid's (a transposed view's
 * columns are the real rows). NULL when g has no clusters. */
static const pumma_hier_line_t *shapes(const pumma_grid_t *g, int along,
                                       int *n)
{
    const pumma_hier_grid_t *h = g->hier;
    *n = 0;
    if (!h) return NULL;
    const int d = g->transposed ? !along : along;
    *n = h->nshape[d];
    return h->shape[d];
}

/* The grid's lines along `along` (as g sees it: a transposed view's
 * columns are the real rows) holding processes of both clusters c and d:
 * a step's collectives run on every line at once, so that many messages
 * cross the one link between c and d together, each at that share of
 * its bandwidth (as mo->share counts a host's link). */
static int crossing(const pumma_grid_t *g, int along, int c, int d)
{
    const pumma_hier_grid_t *h = g->hier;
    const int P = g->transposed ? g->npcol : g->nprow;
    const int Q = g->transposed ? g->nprow : g->npcol;
    const int cols = (g->transposed ? !along : along) == PUMMA_ALONG_COL;
    const int nl = cols ? Q : P, len = cols ? P : Q;
    int n = 0;
    for (int l = 0; l < nl; l++) {
        int hc = 0, hd = 0;
        for (int i = 0; i < len; i++) {
            const int k = h->cluster[cols ? i * Q + l : l * Q + i];
            hc |= k == c;
            hd |= k == d;
        }
        n += hc && hd;
    }
    return n > 1 ? n : 1;
}

/* mo with the slowest latency and bandwidth of the links line L uses:
 * inside each cluster with two or more of its processes, and between
 * every two of its clusters -- a link between clusters at the share the
 * grid's parallel lines leave it (crossing; g NULL: all of it). */
static void line_model_on(const pumma_grid_t *g, int along,
                          const pumma_hier_line_t *L, const pumma_model_t *mo,
                          pumma_model_t *out);
static void line_model(const pumma_hier_line_t *L, const pumma_model_t *mo,
                       pumma_model_t *out)
{
    line_model_on(NULL, 0, L, mo, out);
}

static void line_model_on(const pumma_grid_t *g, int along,
                          const pumma_hier_line_t *L, const pumma_model_t *mo,
                          pumma_model_t *out)
{
    const pumma_hier_grid_t *h = L->h;
    double a = 0, b = 0;
    for (int c = 0; c < L->nc; c++) {
        const int gc = L->gcl[c];
        if (L->size[c] > 1) {
            a = fmax(a, h->inside[gc].alpha);
            b = fmax(b, h->inside[gc].beta);
        }
        for (int d = c + 1; d < L->nc; d++) {
            const int gd = L->gcl[d];
            a = fmax(a, fmax(h->lat[gc * h->nc + gd], h->lat[gd * h->nc + gc]));
            const int sh = g ? crossing(g, along, gc, gd) : 1;
            b = fmax(b, sh * fmax(h->beta[gc * h->nc + gd],
                                  h->beta[gd * h->nc + gc]));
        }
    }
    *out = *mo;
    out->alpha = a;
    out->beta = b;
}

void pumma_grid_price_model(const pumma_grid_t *g, const pumma_model_t *mo,
                            pumma_model_t *out)
{
    const pumma_hier_grid_t *h = g->hier;
    *out = *mo;
    if (!h) return;
    double a = 0, b = 0, near = INFINITY;
    for (int c = 0; c < h->nc; c++) {
        /* inside c: a link only when c has two processes or more */
        int n = 0;
        for (int q = 0; q < g->nprow * g->npcol && n < 2; q++)
            n += h->cluster[q] == c;
        for (int d = 0; d < h->nc; d++) {
            if (c == d && n < 2) continue;
            a = fmax(a, c == d ? h->inside[c].alpha : h->lat[c * h->nc + d]);
            near = fmin(near,
                        c == d ? h->inside[c].alpha : h->lat[c * h->nc + d]);
            b = fmax(b, c == d ? h->inside[c].beta : h->beta[c * h->nc + d]);
        }
    }
    out->alpha = a;
    out->beta = b;
    if (near < a) out->alpha_post = near;
}

/* hier's time on L: its plan's, the mean over the line's roots (a root's
 * plan depends on its cluster only). INFINITY when out of memory. */
static double hier_on(const pumma_grid_t *g, int along,
                      pumma_table_kind_t op, const pumma_hier_line_t *L0,
                      const pumma_model_t *mo, double bytes, double seg)
{
    if (L0->nc == 1) {
        pumma_model_t lm;
        line_model(L0, mo, &lm);
        return pumma_hier_single(op, mo->dec != NULL)->cost(&lm, L0->n, bytes,
                                                           seg);
    }
    /* its plan on the links between clusters at the share the grid's
     * parallel lines leave each (crossing), as the flat variants' */
    const pumma_hier_grid_t *h0 = L0->h;
    const int hn = h0->nc;
    double *beta = malloc(sizeof(double) * (size_t)hn * (size_t)hn);
    if (!beta) return INFINITY;
    for (int c = 0; c < hn; c++)
        for (int d = 0; d < hn; d++)
            beta[c * hn + d] = h0->beta[c * hn + d] *
                               (c == d ? 1 : crossing(g, along, c, d));
    pumma_hier_grid_t hs = *h0;
    hs.beta = beta;
    pumma_hier_line_t Ls = *L0;
    Ls.h = &hs;
    const pumma_hier_line_t *L = &Ls;
    const int nc = L->nc;
    int *w = malloc(sizeof(int) * 3 * (size_t)nc);
    const pumma_coll_ops_t **local = malloc(sizeof(*local) * (size_t)nc);
    double sum = w && local ? 0 : INFINITY;
    for (int c = 0; c < nc && sum < INFINITY; c++) {
        int chosen = 0;
        const double t = pumma_hier_plan(op, L, L->coord[c], bytes,
                                         pumma_hier_schedule(), w, w + nc,
                                         w + 2 * nc, local, &chosen);
        sum = t < 0 ? INFINITY : sum + t * L->size[c];
    }
    free(w);
    free(local);
    free(beta);
    return sum / L->n;
}

/* mo with its bandwidth shared by the lines along `along` that cross one
 * host's link at once (pumma_model_t's share). */
static void shared_model(const pumma_model_t *mo, int along,
                         pumma_model_t *out)
{
    *out = *mo;
    const double s = mo->share[along != PUMMA_ALONG_COL];
    if (s > 1) out->beta *= s;
}

double pumma_coll_price(const pumma_grid_t *g, const pumma_coll_ops_t *v,
                        const pumma_model_t *mo_in, int along, int np,
                        double bytes, double seg)
{
    int n;
    pumma_model_t shared;
    shared_model(mo_in, along, &shared);
    const pumma_model_t *mo = &shared;
    const pumma_hier_line_t *L = shapes(g, along, &n);
    if (!L || np < 2 || L->n != np) return v->cost(mo, np, bytes, seg);
    const int hb = v == &pumma_bcast_hier, hr = v == &pumma_reduce_hier;
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double t;
        if (hb || hr) {
            t = hier_on(g, along, hb ? PUMMA_BCAST_TABLE : PUMMA_REDUCE_TABLE,
                        &L[i], mo, bytes, seg);
        } else {
            pumma_model_t lm;
            line_model_on(g, along, &L[i], mo, &lm);
            t = v->cost(&lm, np, bytes, seg);
        }
        worst = fmax(worst, t);
    }
    return worst;
}

double pumma_shift_price(const pumma_grid_t *g, const pumma_shift_ops_t *s,
                         const pumma_model_t *mo_in, int along, int np,
                         double bytes)
{
    int n;
    pumma_model_t shared;
    shared_model(mo_in, along, &shared);
    const pumma_model_t *mo = &shared;
    const pumma_hier_line_t *L = shapes(g, along, &n);
    if (!L || np < 2 || L->n != np) return s->cost(mo, np, bytes);
    double worst = 0;
    for (int i = 0; i < n; i++) {
        pumma_model_t lm;
        line_model_on(g, along, &L[i], mo, &lm);
        worst = fmax(worst, s->cost(&lm, np, bytes));
    }
    return worst;
}
