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
 *
 * The workspace limit: each combination also has an estimate of the most
 * temporaries it holds on any process (pumma_plan_workspace: the
 * algorithm's workspace member plus the driver's alignment temporaries and
 * their redistributions). When auto's (or the forced) choice exceeds the
 * limit (pumma_plan_limit), the choice is made again among the
 * combinations that fit, with PUMMA_PIECE lowered as far as
 * PUMMA_PIECE_MIN if that is what makes one fit -- those keeping the
 * forced choices first, then any -- by the same rule; when none fits, the
 * one with the least workspace (the least piece; the cheapest of those,
 * the forced choices if they tie) runs. o->limited records which.
 *
 * Plans are remembered: a search prices some hundred combinations (8 to
 * 16 us here, a third of a 64 x 64 x 64 call on 1x2), and programs repeat
 * their shapes. The plan depends only on what the key holds -- the type,
 * the sizes and transposes, the six distributions, the grid's shape and
 * model, the forced choices and the limit's inputs -- so a remembered
 * plan is the one the search would find, on every process alike.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_decide.h"
#include "pumma_internal.h"

#define MARGIN 0.03

/* ---------------------------------------------------- the workspace limit */

/*
 * pumma_plan_env_limit: PUMMA_MAX_WORKSPACE (pumma_settings.c): bytes, 0
 * for no limit; -1 when unset. Read at the first use: pumma_plan_predict
 * reaches it without a P?GEMM.
 */
double pumma_plan_env_limit(void)
{
    return pumma_setting(PUMMA_SET_MAX_WORKSPACE)->max_workspace;
}

/*
 * The default: twice the largest local parts of sub(A), sub(B) and sub(C),
 * at least 256 MiB. Twice, because that is what pumma's plans keep to on
 * the bench (TIMING's target mem <= 2.0): the default leaves them alone
 * and catches only the plans far above it, such as tt's three copies of C
 * when K is small. The floor, because temporaries under 256 MiB matter on
 * no machine that runs MPI, so small and middling calls keep every choice.
 */
double pumma_plan_operands(const pumma_problem_t *have)
{
    return ((double)pumma_view_maxelems(&have->a) +
            (double)pumma_view_maxelems(&have->b) +
            (double)pumma_view_maxelems(&have->c)) *
           (double)have->t->size;
}

static double limit_asked(const pumma_problem_t *have, const pumma_opts_t *o)
{
    if (o && o->workspace > 0) return o->workspace;
    const double env = pumma_plan_env_limit();
    if (env == 0) return INFINITY;
    if (env > 0) return env;
    const double lim = PUMMA_WORKSPACE_FACTOR * pumma_plan_operands(have);
    return lim > PUMMA_WORKSPACE_FLOOR ? lim : PUMMA_WORKSPACE_FLOOR;
}

double pumma_plan_limit(const pumma_problem_t *have, const pumma_opts_t *o)
{
    /* what the processes' memory limits leave (pumma_memlimit.c) bounds
     * every other limit */
    const double room = o && o->room > 0 ? o->room : INFINITY;
    const double lim = limit_asked(have, o);
    return lim < room ? lim : room;
}

/*
 * The driver's part follows pumma_gemm.c: operands the algorithm cannot
 * take are redistributed into temporaries, A first, then B; C's
 * temporary is made for the run and goes back once A's and B's are freed.
 */
size_t pumma_plan_workspace(const pumma_problem_t *have,
                            const pumma_algo_t *a,
                            const pumma_problem_t *want)
{
    const size_t e = have->t->size;
    const size_t piece = (size_t)want->opts->piece;
    const pumma_view_t *h[3] = {&have->a, &have->b, &have->c};
    const pumma_view_t *w[3] = {&want->a, &want->b, &want->c};
    size_t tmp[3] = {0, 0, 0}, move[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if (pumma_view_same_layout(h[i], w[i])) continue;
        tmp[i] = pumma_view_maxelems(w[i]) * e;
        move[i] = pumma_redist_workspace(piece, pumma_view_maxelems(h[i]) * e,
                                         tmp[i]);
    }
    size_t peak = tmp[0] + tmp[1] + tmp[2] + a->workspace(want);
    const size_t phase[3] = {tmp[0] + move[0], tmp[0] + tmp[1] + move[1],
                             tmp[2] + move[2]};
    for (int i = 0; i < 3; i++)
        if (phase[i] > peak) peak = phase[i];
    return peak;
}

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
 * one (the forced or the first) when the algorithm does not use the kind;
 * auto alone when the grid has a decider (decision file or models): it
 * decides per message, as its decisions say (pumma_decide.h). */
static const pumma_coll_ops_t *coll_at(pumma_table_kind_t kind,
                                       const pumma_coll_ops_t *forced,
                                       int used, const pumma_model_t *mo,
                                       int i)
{
    if (forced || !used) return i ? NULL : forced ? forced : pumma_comm_at(kind, 0);
    if (mo->dec)
        return i ? NULL : kind == PUMMA_BCAST_TABLE ? &pumma_bcast_auto
                                                    : &pumma_reduce_auto;
    return pumma_comm_at(kind, i);
}

static const pumma_shift_ops_t *shift_at(const pumma_shift_ops_t *forced,
                                         int used, int i)
{
    if (forced || !used) return i ? NULL : forced ? forced : pumma_shift_at(0);
    return pumma_shift_at(i);
}

/* A combination and what it costs. */
typedef struct choice {
    const pumma_algo_t *a;
    const pumma_coll_ops_t *b, *r;
    const pumma_shift_ops_t *s;
    unsigned u;
    double cost;
    size_t ws;
    double piece;            /* PUMMA_PIECE it runs with */
} choice_t;

/*
 * The workspace of algorithm a on `have` (want: aligned, its opts o) at
 * the largest piece, from `piece` down to PUMMA_PIECE_MIN, that keeps it
 * within lim: smaller pieces shrink the redistributions' buffers (tt's
 * transpose of C above all) and tn's and nt's partial products, for some
 * more messages. The piece is left in o->piece; *ws is SIZE_MAX when even
 * the least piece does not fit.
 */
static void fit_piece(pumma_problem_t *have, const pumma_algo_t *a,
                      pumma_problem_t *want, pumma_opts_t *o, double piece,
                      double lim, size_t *ws)
{
    o->piece = piece;
    *ws = pumma_plan_workspace(have, a, want);
    if ((double)*ws <= lim || piece <= PUMMA_PIECE_MIN) {
        if ((double)*ws > lim) *ws = SIZE_MAX;
        return;
    }
    o->piece = PUMMA_PIECE_MIN;
    if ((double)pumma_plan_workspace(have, a, want) > lim) {
        o->piece = piece;
        *ws = SIZE_MAX;
        return;
    }
    double lo = PUMMA_PIECE_MIN, hi = piece;   /* lo fits, hi does not */
    while (hi > lo * 1.125) {
        o->piece = floor(sqrt(lo * hi));
        if ((double)pumma_plan_workspace(have, a, want) <= lim) lo = o->piece;
        else hi = o->piece;
    }
    o->piece = lo;
    *ws = pumma_plan_workspace(have, a, want);
}

/*
 * The combinations open to the call -- the forced algorithm and variants
 * of f, or every one that computes p's TRANSA/TRANSB -- searched in the
 * tables' order: the first priced within MARGIN of the cheapest among
 * those whose workspace is at most lim (at the configured piece, or a
 * smaller one: fit_piece); with least, the one of least workspace (at
 * the least piece; the first of the cheapest of those) whatever lim says.
 * Returns 0 when no combination qualifies. o's variants are overwritten.
 */
static int search(pumma_problem_t *have, pumma_opts_t *o,
                  const pumma_opts_t *f, const pumma_algo_t *fa,
                  const pumma_model_t *mo, double lim, int least,
                  choice_t *out)
{
    const char ta = have->transa, tb = have->transb;
    const int check = least || lim < INFINITY;
    const double piece = o->piece;
    const pumma_algo_t *a;
    const pumma_coll_ops_t *b, *r;
    const pumma_shift_ops_t *s;
    choice_t best = {0};
    int found = 0;
    /* The combinations are priced once, in the tables' order, into all[];
     * then the cheapest (least: the least workspace, then the cheapest),
     * and the first within MARGIN of it. */
    static choice_t *all = NULL;
    static size_t cap = 0;
    size_t n = 0;
    for (int i = 0; (a = pumma_algo_at(i)) != NULL; i++) {
        if (fa ? a != fa : !a->handles(ta, tb)) continue;
        pumma_problem_t want;
        a->align(have, &want);
        const double moves = align_cost(have, &want, mo);
        const unsigned u = a->uses(&want);
        for (int ib = 0; (b = coll_at(PUMMA_BCAST_TABLE, f->bcast,
                                      u & PUMMA_USES_BCAST, mo, ib));
             ib++)
            for (int ir = 0; (r = coll_at(PUMMA_REDUCE_TABLE, f->reduce,
                                          u & PUMMA_USES_REDUCE, mo, ir));
                 ir++)
                for (int is = 0;
                     (s = shift_at(f->shift, u & PUMMA_USES_SHIFT, is));
                     is++) {
                    o->bcast = b;
                    o->reduce = r;
                    o->shift = s;
                    size_t ws = 0;
                    if (least) {
                        o->piece = piece < PUMMA_PIECE_MIN ? piece
                                                           : PUMMA_PIECE_MIN;
                        ws = pumma_plan_workspace(have, a, &want);
                    } else if (check) {
                        fit_piece(have, a, &want, o, piece, lim, &ws);
                        if (ws == SIZE_MAX) continue;
                    }
                    const double c = moves + a->cost(&want, mo);
                    const choice_t x = {a, b, r, s, u, c, ws, o->piece};
                    o->piece = piece;
                    if (!found || (least && ws < best.ws) ||
                        ((!least || ws == best.ws) && c < best.cost)) {
                        best = x;
                        found = 1;
                    }
                    if (n == cap) {
                        size_t nc = cap ? 2 * cap : 256;
                        choice_t *g = realloc(all, nc * sizeof *g);
                        if (!g) continue;   /* best is still right */
                        all = g;
                        cap = nc;
                    }
                    all[n++] = x;
                }
    }
    if (!found) return 0;
    for (size_t i = 0; i < n; i++)
        if ((!least || all[i].ws == best.ws) &&
            all[i].cost <= best.cost * (1 + MARGIN)) {
            *out = all[i];
            return 1;
        }
    *out = best;
    return 1;
}

/* ----------------------------------------------------- remembered plans */

enum { PLAN_SLOTS = 64 };
typedef struct plan_key {
    const pumma_type_t *t;
    int ta, tb, m, n, k, nprow, npcol, segment;
    pumma_dist_t d[6];
    pumma_model_t model;
    const pumma_algo_t *algo;
    const pumma_coll_ops_t *bcast, *reduce;
    const pumma_shift_ops_t *shift;
    double piece, workspace, room;
} plan_key_t;
typedef struct plan_slot {
    plan_key_t key;
    int used;
    const pumma_algo_t *a;
    pumma_opts_t out;             /* the variants, uses, piece, limited */
} plan_slot_t;
static plan_slot_t plans[PLAN_SLOTS];

/* The key of a call (every byte set: keys are compared whole). */
static void plan_key(const pumma_problem_t *h, const pumma_opts_t *o,
                     const pumma_algo_t *forced, plan_key_t *k)
{
    memset(k, 0, sizeof *k);
    k->t = h->t;
    k->ta = h->transa;
    k->tb = h->transb;
    k->m = h->m; k->n = h->n; k->k = h->k;
    k->nprow = h->g->nprow;
    k->npcol = h->g->npcol;
    k->segment = o->segment;
    const pumma_dist_t *d[6] = {&h->a.row, &h->a.col, &h->b.row,
                                &h->b.col, &h->c.row, &h->c.col};
    for (int i = 0; i < 6; i++) {
        k->d[i].n = d[i]->n; k->d[i].ib = d[i]->ib; k->d[i].b = d[i]->b;
        k->d[i].src = d[i]->src; k->d[i].np = d[i]->np;
    }
    const pumma_model_t *mo = pumma_grid_model(h->g);
    k->model.alpha = mo->alpha; k->model.beta = mo->beta;
    for (int i = 0; i < 4; i++) k->model.gamma[i] = mo->gamma[i];
    k->model.gamma_k = mo->gamma_k; k->model.gamma_t = mo->gamma_t;
    k->model.delta = mo->delta; k->model.delta_t = mo->delta_t;
    k->model.overlap = mo->overlap;
    k->model.dec = mo->dec;
    k->algo = forced;
    k->bcast = o->bcast; k->reduce = o->reduce; k->shift = o->shift;
    k->piece = o->piece;
    k->workspace = o->workspace;
    k->room = o->room;
}

static plan_slot_t *plan_slot(const plan_key_t *k)
{
    uint64_t h = 1469598103934665603ull;            /* FNV-1a */
    const unsigned char *b = (const unsigned char *)k;
    for (size_t i = 0; i < sizeof *k; i++) h = (h ^ b[i]) * 1099511628211ull;
    return &plans[h % PLAN_SLOTS];
}

static const pumma_algo_t *plan_search(pumma_problem_t *have, pumma_opts_t *o,
                                       const pumma_algo_t *forced);

const pumma_algo_t *pumma_plan(pumma_problem_t *have, pumma_opts_t *o)
{
    const char ta = have->transa, tb = have->transb;
    const pumma_algo_t *forced = o->algo ? pumma_algo_find(o->algo) : NULL;
    if (forced && !forced->handles(ta, tb)) forced = NULL;
    have->opts = o;
    plan_key_t key;
    plan_key(have, o, forced, &key);
    plan_slot_t *s = plan_slot(&key);
    if (s->used && !memcmp(&s->key, &key, sizeof key)) {
        o->bcast = s->out.bcast;
        o->reduce = s->out.reduce;
        o->shift = s->out.shift;
        o->uses = s->out.uses;
        o->piece = s->out.piece;
        o->limited = s->out.limited;
        return s->a;
    }
    const pumma_algo_t *a = plan_search(have, o, forced);
    s->key = key;
    s->used = 1;
    s->a = a;
    s->out = *o;
    return a;
}

/* ------------------------------------------------------------ the search */

static const pumma_algo_t *plan_search(pumma_problem_t *have, pumma_opts_t *o,
                                       const pumma_algo_t *forced)
{
    o->limited = PUMMA_LIMIT_NONE;
    const pumma_opts_t f = *o;           /* the forced choices */
    const double lim = pumma_plan_limit(have, o);
    pumma_problem_t want;
    choice_t c = {0};
    if (forced && o->bcast && o->reduce && o->shift) {
        /* Everything forced: no model needed, unless it does not fit. */
        forced->align(have, &want);
        if ((double)pumma_plan_workspace(have, forced, &want) <= lim) {
            o->uses = forced->uses(have);
            return forced;
        }
    } else {
        search(have, o, &f, forced, pumma_grid_model(have->g), INFINITY, 0,
               &c);
        o->bcast = c.b;
        o->reduce = c.r;
        o->shift = c.s;
        o->uses = c.u;
        if (lim == INFINITY) return c.a;
        c.a->align(have, &want);
        if ((double)pumma_plan_workspace(have, c.a, &want) <= lim) return c.a;
    }
    /* The limit changes the choice: what fits, keeping the forced choices
     * if possible; else the least workspace there is. */
    const pumma_model_t *mo = pumma_grid_model(have->g);
    const pumma_opts_t any = {0};
    if (search(have, o, &f, forced, mo, lim, 0, &c) ||
        search(have, o, &any, NULL, mo, lim, 0, &c)) {
        o->limited = PUMMA_LIMIT_FIT;
    } else {
        /* the forced choices still win a tie */
        choice_t k;
        search(have, o, &any, NULL, mo, lim, 1, &c);
        if (search(have, o, &f, forced, mo, lim, 1, &k) && k.ws <= c.ws) c = k;
        o->limited = PUMMA_LIMIT_LEAST;
    }
    o->bcast = c.b;
    o->reduce = c.r;
    o->shift = c.s;
    o->uses = c.u;
    o->piece = c.piece;
    return c.a;
}

/* ---------------------------------------------------------- prediction */

double pumma_plan_predict(const pumma_type_t *t, char ta, char tb, int m,
                          int n, int k, int nb, int nprow, int npcol,
                          const pumma_model_t *mo, const pumma_opts_t *force,
                          char *plan, size_t len)
{
    if (plan && len) plan[0] = 0;
    if (m < 1 || n < 1 || k < 1 || nb < 1 || nprow < 1 || npcol < 1)
        return -1;
    ta = (char)(ta & ~0x20);
    tb = (char)(tb & ~0x20);
    if (!t->is_complex) {
        if (ta == 'C') ta = 'T';
        if (tb == 'C') tb = 'T';
    }
    const int one_process = nprow == 1 && npcol == 1;
    if (one_process) {           /* pumma_gemm.c's local call */
        if (plan) snprintf(plan, len, "algo=local");
        return pumma_model_gemm(mo, t, m, n, k, ta != 'N' && tb != 'N');
    }
    /* A grid of the shape only: the views need nprow, npcol and a
     * process's place; the costs are functions of global values (every
     * process prices the same plan), so no communicator is made. */
    pumma_grid_t g = {0};
    g.nprow = nprow;
    g.npcol = npcol;
    g.model = *mo;
    pumma_opts_t o = {0};
    if (force) {
        o.algo = force->algo;
        o.bcast = force->bcast;
        o.reduce = force->reduce;
        o.shift = force->shift;
        o.segment = force->segment;
    }
    o.piece = PUMMA_PIECE_DEFAULT;
    pumma_problem_t have = {0};
    have.t = t;
    have.g = &g;
    have.transa = ta;
    have.transb = tb;
    have.m = m;
    have.n = n;
    have.k = k;
    have.alpha = have.beta = t->one;
    have.opts = &o;
    const int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
    const int br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
    const int da[11] = {1, 0, ar, ac, nb, nb, nb, nb, 0, 0, 1},
              db[11] = {1, 0, br, bc, nb, nb, nb, nb, 0, 0, 1},
              dc[11] = {1, 0, m, n, nb, nb, nb, nb, 0, 0, 1};
    have.a = pumma_view_of(t, &g, NULL, da, 0, 0, ar, ac);
    have.b = pumma_view_of(t, &g, NULL, db, 0, 0, br, bc);
    have.c = pumma_view_of(t, &g, NULL, dc, 0, 0, m, n);
    const char *algo =
        o.algo && !pumma_name_eq(o.algo, "auto") ? o.algo : NULL;
    const pumma_algo_t *forced = algo ? pumma_algo_find(algo) : NULL;
    if (algo && (!forced || !forced->handles(ta, tb))) return -1;
    const pumma_opts_t f = o;
    choice_t c;
    if (!search(&have, &o, &f, forced, mo, INFINITY, 0, &c)) return -1;
    if (plan)
        snprintf(plan, len, "algo=%s bcast=%s reduce=%s shift=%s",
                 c.a->name, c.u & PUMMA_USES_BCAST ? c.b->name : "-",
                 c.u & PUMMA_USES_REDUCE ? c.r->name : "-",
                 c.u & PUMMA_USES_SHIFT ? c.s->name : "-");
    return c.cost;
}
