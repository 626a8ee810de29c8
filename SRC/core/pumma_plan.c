/*
 * pumma_plan.c -- `auto`: what runs when neither the call nor the
 * environment chooses.
 *
 * The candidates are the algorithms that compute the call's TRANSA/TRANSB
 * (or the one forced) and every broadcast, reduce and shift variant (or the
 * one forced) of the kinds the algorithm uses on this grid; a kind it does
 * not use keeps the forced variant or the table's first, and is reported as
 * unused (o->uses). Each combination is priced by the algorithm's cost function
 * under the grid's alpha-beta-gamma model (SRC/model/pumma_model.c), plus
 * the redistributions its alignment needs. The choice is the first
 * combination, in the tables' order, priced within MARGIN of the cheapest:
 * the model's inputs are measured to a few percent, so a smaller difference
 * says nothing, and the earlier rows are the plainer methods (mdb2 before
 * its variants, tt before tt-local, direct reduce first). Every process
 * prices the same combinations with the same broadcast model, so all
 * choose alike.
 */
#include "pumma_internal.h"

#define MARGIN 0.03

/* The redistributions into and out of the temporaries align() implies. */
static double align_cost(const pumma_problem_t *have,
                         const pumma_problem_t *want, const pumma_model_t *mo)
{
    const pumma_grid_t *g = have->g;
    const int np = g->nprow * g->npcol;
    const double e = (double)have->t->size;
    const pumma_view_t *h[3] = {&have->a, &have->b, &have->c};
    const pumma_view_t *w[3] = {&want->a, &want->b, &want->c};
    double c = 0;
    for (int i = 0; i < 3; i++) {
        if (pumma_view_same_layout(h[i], w[i])) continue;
        double elems = (double)w[i]->row.n / g->nprow * w[i]->col.n / g->npcol;
        c += pumma_model_redist(mo, np, elems * e, 0);
    }
    return c;
}

/* Candidate i of a kind: the forced variant, or the table's rows; just
 * one (the forced or the first) when the algorithm does not use the kind. */
static const pumma_coll_ops_t *coll_at(pumma_table_kind_t kind,
                                       const pumma_coll_ops_t *forced,
                                       int used, int i)
{
    if (forced || !used) return i ? NULL : forced ? forced : pumma_comm_at(kind, 0);
    return pumma_comm_at(kind, i);
}

static const pumma_shift_ops_t *shift_at(const pumma_shift_ops_t *forced,
                                         int used, int i)
{
    if (forced || !used) return i ? NULL : forced ? forced : pumma_shift_at(0);
    return pumma_shift_at(i);
}

const pumma_algo_t *pumma_plan(pumma_problem_t *have, pumma_opts_t *o)
{
    const char ta = have->transa, tb = have->transb;
    const pumma_algo_t *forced = o->algo ? pumma_algo_find(o->algo) : NULL;
    if (forced && !forced->handles(ta, tb)) forced = NULL;
    have->opts = o;
    if (forced && o->bcast && o->reduce && o->shift) {
        o->uses = forced->uses(have);
        return forced;
    }

    const pumma_model_t *mo = pumma_grid_model(have->g);
    const pumma_coll_ops_t *fb = o->bcast, *fr = o->reduce;
    const pumma_shift_ops_t *fs = o->shift;
    const pumma_algo_t *best = NULL, *a;
    const pumma_coll_ops_t *bb = NULL, *br = NULL, *b, *r;
    const pumma_shift_ops_t *bs = NULL, *s;
    double least = 0;
    unsigned bu = 0;
    /* Pass 0 finds the cheapest price, pass 1 the first within MARGIN. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; (a = pumma_algo_at(i)) != NULL; i++) {
            if (forced ? a != forced : !a->handles(ta, tb)) continue;
            pumma_problem_t want;
            a->align(have, &want);
            const double moves = align_cost(have, &want, mo);
            const unsigned u = a->uses(&want);
            for (int ib = 0; (b = coll_at(PUMMA_BCAST_TABLE, fb,
                                          u & PUMMA_USES_BCAST, ib));
                 ib++)
                for (int ir = 0; (r = coll_at(PUMMA_REDUCE_TABLE, fr,
                                              u & PUMMA_USES_REDUCE, ir));
                     ir++)
                    for (int is = 0;
                         (s = shift_at(fs, u & PUMMA_USES_SHIFT, is)); is++) {
                        o->bcast = b;
                        o->reduce = r;
                        o->shift = s;
                        double c = moves + a->cost(&want, mo);
                        if (pass == 0 && (!best || c < least)) {
                            least = c;
                            best = a;
                        }
                        if (pass == 1 && c <= least * (1 + MARGIN)) {
                            best = a; bb = b; br = r; bs = s; bu = u;
                            goto chosen;
                        }
                    }
        }
    }
chosen:
    o->bcast = bb;
    o->reduce = br;
    o->shift = bs;
    o->uses = bu;
    return best;
}
