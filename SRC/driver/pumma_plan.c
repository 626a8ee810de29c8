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
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_driver.h"

#define MARGIN 0.03

/* The name of a PUMMA_TOPO_* code (pumma_codes.h). */
static const char *topo_name(int code)
{
#define PUMMA_TOPO_ROW(N, v, s) if (code == v) return s;
    PUMMA_TOPO_LIST(PUMMA_TOPO_ROW)
#undef PUMMA_TOPO_ROW
    return "?";
}

static void report_forced(const pumma_problem_t *have, const pumma_opts_t *o,
                          const pumma_plan_t *pl, int kind);

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
    const size_t piece = (size_t)want->plan->piece;
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

/* Candidate i of a kind: the forced variant, or the table's rows (hier
 * among them: on a grid that spans clusters its price is its own plan's,
 * pumma_coll_price.c); just one (the forced or the first) when the
 * algorithm does not use the kind; auto alone when the grid has a decider
 * (decision file or models): it decides per message, as its decisions say
 * (pumma_model.h) -- and hier after it when the grid spans clusters,
 * which auto's decisions, made for one level, do not know. */
static const pumma_coll_ops_t *coll_at(pumma_table_kind_t kind,
                                       const pumma_coll_ops_t *forced,
                                       int used, const pumma_grid_t *g,
                                       const pumma_model_t *mo, int i)
{
    if (forced || !used) return i ? NULL : forced ? forced : pumma_comm_at(kind, 0);
    if (mo->dec) {
        const int bc = kind == PUMMA_BCAST_TABLE;
        return i == 0 ? bc ? &pumma_bcast_auto : &pumma_reduce_auto
               : i == 1 && g->hier ? bc ? &pumma_bcast_hier
                                        : &pumma_reduce_hier
                                   : NULL;
    }
    return pumma_comm_auto_at(kind, i);
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
    int cube[4];             /* split, layers: their shape (a->shape) */
} choice_t;

/*
 * The workspace of algorithm a on `have` (want: aligned, its plan pl) at
 * the largest piece, from `piece` down to PUMMA_PIECE_MIN, that keeps it
 * within lim: smaller pieces shrink the redistributions' buffers (tt's
 * transpose of C above all) and tn's and nt's partial products, for some
 * more messages. The piece is left in pl->piece; *ws is SIZE_MAX when
 * even the least piece does not fit.
 */
static void fit_piece(pumma_problem_t *have, const pumma_algo_t *a,
                      pumma_problem_t *want, pumma_plan_t *pl, double piece,
                      double lim, size_t *ws)
{
    pl->piece = piece;
    *ws = pumma_plan_workspace(have, a, want);
    if ((double)*ws <= lim || piece <= PUMMA_PIECE_MIN) {
        if ((double)*ws > lim) *ws = SIZE_MAX;
        return;
    }
    pl->piece = PUMMA_PIECE_MIN;
    if ((double)pumma_plan_workspace(have, a, want) > lim) {
        pl->piece = piece;
        *ws = SIZE_MAX;
        return;
    }
    double lo = PUMMA_PIECE_MIN, hi = piece;   /* lo fits, hi does not */
    while (hi > lo * 1.125) {
        pl->piece = floor(sqrt(lo * hi));
        if ((double)pumma_plan_workspace(have, a, want) <= lim) lo = pl->piece;
        else hi = pl->piece;
    }
    pl->piece = lo;
    *ws = pumma_plan_workspace(have, a, want);
}

/*
 * The combinations open to the call -- the forced algorithm and variants
 * of f, or every block-cyclic row that computes have's TRANSA/TRANSB --
 * searched in the tables' order: the first priced within MARGIN of the
 * cheapest among those whose workspace is at most lim (at the configured
 * piece, or a smaller one: fit_piece); with least, the one of least
 * workspace (at the least piece; the first of the cheapest of those)
 * whatever lim says. Returns 0 when no combination qualifies. The plan
 * have->plan points at (pl) is the scratch the candidates are priced in.
 */
static int search(pumma_problem_t *have, pumma_plan_t *pl,
                  const pumma_opts_t *f, const pumma_algo_t *fa,
                  const pumma_model_t *mo, double lim, int least,
                  choice_t *out)
{
    const char ta = have->transa, tb = have->transb;
    const int check = least || lim < INFINITY;
    const double piece = pl->piece;
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
        if (a->kind != PUMMA_CALL_BLOCK) continue;
        if (fa ? a != fa : !a->handles(ta, tb) || a->asked_only) continue;
        pumma_problem_t want;
        a->align(have, &want);
        memset(pl->cube, 0, sizeof pl->cube);
        if (a->shape) a->shape(&want, mo, pl);
        const double moves = align_cost(have, &want, mo);
        const unsigned u = a->uses(&want);
        for (int ib = 0; (b = coll_at(PUMMA_BCAST_TABLE, f->bcast,
                                      u & PUMMA_USES_BCAST, have->g, mo, ib));
             ib++)
            for (int ir = 0; (r = coll_at(PUMMA_REDUCE_TABLE, f->reduce,
                                          u & PUMMA_USES_REDUCE, have->g, mo,
                                          ir));
                 ir++)
                for (int is = 0;
                     (s = shift_at(f->shift, u & PUMMA_USES_SHIFT, is));
                     is++) {
                    pl->bcast = b;
                    pl->reduce = r;
                    pl->shift = s;
                    size_t ws = 0;
                    if (least) {
                        pl->piece = piece < PUMMA_PIECE_MIN ? piece
                                                            : PUMMA_PIECE_MIN;
                        ws = pumma_plan_workspace(have, a, &want);
                    } else if (check) {
                        fit_piece(have, a, &want, pl, piece, lim, &ws);
                        if (ws == SIZE_MAX) continue;
                    }
                    const double c = moves + a->cost(&want, mo);
                    choice_t x = {a, b, r, s, u, c, ws, pl->piece, {0}};
                    memcpy(x.cube, pl->cube, sizeof x.cube);
                    pl->piece = piece;
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

/* The plan takes choice c. */
static void take(pumma_plan_t *pl, const choice_t *c)
{
    pl->algo = c->a;
    pl->bcast = c->b;
    pl->reduce = c->r;
    pl->shift = c->s;
    pl->uses = c->u;
    pl->piece = c->piece;
    pl->cost = c->cost;
    memcpy(pl->cube, c->cube, sizeof pl->cube);
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
    unsigned hier;           /* the grid's clusters (their id; 0: none) */
} plan_key_t;
typedef struct plan_slot {
    plan_key_t key;
    int used;
    pumma_plan_t out;
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
    k->model.share[0] = mo->share[0];
    k->model.share[1] = mo->share[1];
    k->model.slow = mo->slow;
    k->model.fair = mo->fair;
    k->model.alpha_post = mo->alpha_post;
    k->model.dec = mo->dec;
    k->algo = forced;
    k->bcast = o->bcast; k->reduce = o->reduce; k->shift = o->shift;
    k->piece = o->piece;
    k->workspace = o->workspace;
    k->room = o->room;
    k->hier = h->g->hier ? h->g->hier->id : 0;
}

static plan_slot_t *plan_slot(const plan_key_t *k)
{
    uint64_t h = 1469598103934665603ull;            /* FNV-1a */
    const unsigned char *b = (const unsigned char *)k;
    for (size_t i = 0; i < sizeof *k; i++) h = (h ^ b[i]) * 1099511628211ull;
    return &plans[h % PLAN_SLOTS];
}

/* ------------------------------------------------------------ the search */

/* Under the workspace limit lim: what fits (keeping the forced choices if
 * possible), else the least workspace there is, into *c; which of the two
 * (PUMMA_LIMIT_FIT or _LEAST). */
static int within_limit(pumma_problem_t *have, pumma_plan_t *pl,
                        const pumma_opts_t *f, const pumma_algo_t *forced,
                        const pumma_model_t *mo, double lim, choice_t *c)
{
    const pumma_opts_t any = {0};
    if (search(have, pl, f, forced, mo, lim, 0, c) ||
        search(have, pl, &any, NULL, mo, lim, 0, c))
        return PUMMA_LIMIT_FIT;
    /* the forced choices still win a tie */
    choice_t k;
    search(have, pl, &any, NULL, mo, lim, 1, c);
    if (search(have, pl, f, forced, mo, lim, 1, &k) && k.ws <= c->ws) *c = k;
    return PUMMA_LIMIT_LEAST;
}

/* The block-cyclic plan: the search under the model, then, when the
 * workspace limit excludes its choice, the choice within it. */
static void plan_search(pumma_problem_t *have, const pumma_opts_t *f,
                        const pumma_algo_t *forced, pumma_plan_t *pl)
{
    pl->limited = PUMMA_LIMIT_NONE;
    const double lim = pumma_plan_limit(have, f);
    /* the free choice is made without the limit, also by the algorithms
     * that fit their buffers to it (rankk's groups): a plan the limit
     * changes says so (limit=fit) */
    pl->limit = INFINITY;
    pumma_problem_t want;
    choice_t c = {0};
    /* a grid that spans clusters: its exchanges under its slowest link;
     * hosts of unequal speed: local work at the slowest one's pace */
    pumma_model_t linked, priced;
    pumma_grid_price_model(have->g, pumma_grid_model(have->g), &linked);
    pumma_model_paced(&linked, &priced);
    const pumma_model_t *mo = &priced;
    if (forced && f->bcast && f->reduce && f->shift) {
        /* Everything forced: no model needed, unless it does not fit. */
        pl->algo = forced;
        pl->bcast = f->bcast;
        pl->reduce = f->reduce;
        pl->shift = f->shift;
        pl->limit = lim;
        forced->align(have, &want);
        if (forced->shape) forced->shape(&want, mo, pl);
        if ((double)pumma_plan_workspace(have, forced, &want) <= lim) {
            pl->uses = forced->uses(have);
            return;
        }
    } else {
        search(have, pl, f, forced, mo, INFINITY, 0, &c);
        take(pl, &c);
        if (lim == INFINITY) return;
        c.a->align(have, &want);
        const double free_ws = (double)pumma_plan_workspace(have, c.a, &want);
        pl->limit = lim;
        if (free_ws <= lim) return;
    }
    pl->limited = within_limit(have, pl, f, forced, mo, lim, &c);
    take(pl, &c);
}

/* The block-cyclic plan of `have` (remembered: see the top of the file). */
static void plan_block(pumma_problem_t *have, const pumma_opts_t *o,
                       pumma_plan_t *pl)
{
    const char ta = have->transa, tb = have->transb;
    const pumma_algo_t *forced = o->algo ? pumma_algo_find(o->algo) : NULL;
    if (forced && (forced->kind != PUMMA_CALL_BLOCK ||
                   !forced->handles(ta, tb)))
        forced = NULL;
    plan_key_t key;
    plan_key(have, o, forced, &key);
    plan_slot_t *s = plan_slot(&key);
    if (s->used && !memcmp(&s->key, &key, sizeof key)) {
        pumma_decided_t *d = pl->decided;
        *pl = s->out;
        pl->decided = d;
        return;
    }
    plan_search(have, o, forced, pl);
    pumma_problem_t want;
    pl->algo->align(have, &want);
    pl->workspace = pumma_plan_workspace(have, pl->algo, &want);
    s->key = key;
    s->used = 1;
    s->out = *pl;
    s->out.decided = NULL;
}

/* ------------------------------------------------------ the kind of call */

/* Along one grid dimension, who holds all of a distribution's indices:
 * every coordinate (-1: replicated, or one process along it), one (its
 * coordinate), or nobody (-2: they are spread). */
static int holder(const pumma_dist_t *d)
{
    if (d->src < 0 || d->np == 1) return -1;
    return pumma_dist_nblocks(d) <= 1 ? d->src : -2;
}

/* 1 when every process holding a piece of sub(C) holds all of it, and all
 * of sub(A) and sub(B) too: the product is then local to each of them (a
 * 1x1 grid always; else submatrices inside one block, or replicated). From
 * the descriptors only, so every process decides alike. */
static int product_is_local(const pumma_problem_t *p)
{
    const int cr = holder(&p->c.row), cc = holder(&p->c.col);
    if (cr == -2 || cc == -2) return 0;
    const pumma_dist_t *op[4] = {&p->a.row, &p->b.row, &p->a.col, &p->b.col};
    for (int i = 0; i < 4; i++) {
        const int need = i < 2 ? cr : cc, have = holder(op[i]);
        if (!(have == -1 || (need >= 0 && need == have))) return 0;
    }
    return 1;
}

int pumma_plan_kind(const pumma_problem_t *have)
{
    if (have->hc) return PUMMA_CALL_HET;
    return product_is_local(have) ? PUMMA_CALL_LOCAL : PUMMA_CALL_BLOCK;
}

/* The one row of a kind of call that is not searched: the forced one if
 * it is of that kind, else the kind's first row (local; het-overlap). */
static const pumma_algo_t *row_of(int kind, const char *name)
{
    const pumma_algo_t *a = name ? pumma_algo_find(name) : NULL;
    if (a && a->kind == kind) return a;
    const char *dflt = kind == PUMMA_CALL_HET ? "het-overlap" : "local";
    return pumma_algo_find(dflt);
}

/* ------------------------------------------------------------ the plan */

/* Where each choice of the plan came from, once it is made: a forced
 * choice taken is the environment's or the call's; the rest are the
 * model's (the search), the decider's (auto), the clusters' (hier), the
 * limit's or pumma's defaults. */
static void sources(const pumma_opts_t *o, int kind, pumma_plan_t *pl)
{
    const int lim = pl->limited != PUMMA_LIMIT_NONE;
    unsigned char *fr = pl->from;
    const int block = kind == PUMMA_CALL_BLOCK;
    const pumma_algo_t *fa = o->algo ? pumma_algo_find(o->algo) : NULL;
    fr[PUMMA_CH_ALGO] = fa == pl->algo ? o->from[PUMMA_CH_ALGO]
                        : !block       ? PUMMA_FROM_DEFAULT
                        : lim          ? PUMMA_FROM_LIMIT
                                       : PUMMA_FROM_MODEL;
    const void *asked[3] = {o->bcast, o->reduce, o->shift};
    const void *ran[3] = {pl->bcast, pl->reduce, pl->shift};
    for (int i = 0; i < 3; i++) {
        const int ch = PUMMA_CH_BCAST + i;
        const char *name = i == 0 ? pl->bcast ? pl->bcast->name : NULL
                           : i == 1 ? pl->reduce ? pl->reduce->name : NULL
                                    : NULL;
        fr[ch] = asked[i] && asked[i] == ran[i] ? o->from[ch]
                 : !block || !ran[i]            ? PUMMA_FROM_DEFAULT
                 : name && !strcmp(name, "auto") ? PUMMA_FROM_DECIDER
                 : lim                           ? PUMMA_FROM_LIMIT
                                                 : PUMMA_FROM_MODEL;
    }
    fr[PUMMA_CH_SEGMENT] = o->from[PUMMA_CH_SEGMENT];
    fr[PUMMA_CH_PANEL] = o->from[PUMMA_CH_PANEL];
    fr[PUMMA_CH_PIECE] = pl->piece != o->piece ? PUMMA_FROM_LIMIT
                                               : o->from[PUMMA_CH_PIECE];
    fr[PUMMA_CH_TOPO] = o->from[PUMMA_CH_TOPO];
}

int pumma_plan_make(pumma_problem_t *have, const pumma_opts_t *o,
                    pumma_plan_t *pl)
{
    pumma_decided_t *decided = pl->decided;
    memset(pl, 0, sizeof *pl);
    pl->decided = decided;
    pl->segment = o->segment;
    pl->panel = o->panel;
    pl->piece = o->piece;
    pl->slice = o->slice;
    pl->limit = INFINITY;
    have->plan = pl;
    const int kind = pumma_plan_kind(have);
    int rc = PUMMA_OK;
    if (kind == PUMMA_CALL_BLOCK) {
        plan_block(have, o, pl);
    } else {
        pl->algo = row_of(kind, o->algo);
        pl->bcast = o->bcast ? o->bcast : pumma_comm_at(PUMMA_BCAST_TABLE, 0);
        pl->reduce =
            o->reduce ? o->reduce : pumma_comm_at(PUMMA_REDUCE_TABLE, 0);
        pl->shift = o->shift ? o->shift : pumma_shift_at(0);
        pl->topo = kind == PUMMA_CALL_HET
                       ? (o->topo ? o->topo : PUMMA_TOPO_FULL) : 0;
        if (pl->algo->workspace) pl->workspace = pl->algo->workspace(have);
        if (pl->algo->prepare) rc = pl->algo->prepare(have, pl);
    }
    sources(o, kind, pl);
    if (pumma_stats_on()) report_forced(have, o, pl, kind);
    return rc;
}

/* --------------------------------------------------------- its text */

static const char *const from_names[] = {
    "default", "model", "decider", "limit", "env", "call"};

/* Appends to buf at *at (bounded by len). */
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    if (*at >= len) return;
    va_list ap;
    va_start(ap, fmt);
    const int w = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (w > 0) *at += (size_t)w;
}

const char *pumma_plan_format(const pumma_plan_t *pl, int full, char *buf,
                              size_t len)
{
    size_t at = 0;
    if (len) buf[0] = '\0';
    if (!pl->algo) return buf;
    const char *names[4] = {
        pl->algo->name,
        pl->uses & PUMMA_USES_BCAST ? pl->bcast->name : "-",
        pl->uses & PUMMA_USES_REDUCE ? pl->reduce->name : "-",
        pl->uses & PUMMA_USES_SHIFT ? pl->shift->name : "-"};
    static const char *const keys[4] = {"algo", "bcast", "reduce", "shift"};
    for (int i = 0; i < 4; i++) {
        put(buf, len, &at, "%s%s=%s", i ? " " : "", keys[i], names[i]);
        if (full && strcmp(names[i], "-"))
            put(buf, len, &at, "(%s)", from_names[pl->from[i]]);
    }
    if (pl->cube[0] > 0)
        put(buf, len, &at, " cube=%dx%dx%d steps=%d", pl->cube[0],
            pl->cube[1], pl->cube[2], pl->cube[3]);
    static const char *const limited[] = {"", " limit=fit", " limit=least"};
    put(buf, len, &at, "%s", limited[pl->limited]);
    if (pl->algo->kind == PUMMA_CALL_HET)
        put(buf, len, &at, " topo=%s layout=%s", topo_name(pl->topo),
            pumma_het_kind_name(pl->layout));
    if (!full) return buf;
    put(buf, len, &at, " segment=%d(%s) panel=%d(%s) piece=%.0f(%s)",
        pl->segment, from_names[pl->from[PUMMA_CH_SEGMENT]], pl->panel,
        from_names[pl->from[PUMMA_CH_PANEL]], pl->piece,
        from_names[pl->from[PUMMA_CH_PIECE]]);
    put(buf, len, &at, " workspace=%zu", pl->workspace);
    if (pl->limit < INFINITY) put(buf, len, &at, " limit=%.0f", pl->limit);

    if (pl->cost > 0) put(buf, len, &at, " cost=%.3g", pl->cost);
    for (int i = 0; pl->decided && i < pl->decided->n; i++)
        put(buf, len, &at, " %s:%s=%ld", pl->decided->v[i].op,
            pl->decided->v[i].variant, pl->decided->v[i].messages);
    return buf;
}

/* ---------------------------------------------- forced choices not taken */

static void forced(const char *kind, const char *asked, const char *ran,
                   const char *why)
{
    pumma_stats_forced(kind, asked, ran, why);
}

/* Whether variant v may cut its messages by the segment asked: the
 * pseudo-variants decide per message (auto) or per cluster (hier). */
static int may_cut(const pumma_coll_ops_t *v)
{
    return v->seg_default >= 0 || !strcmp(v->name, "auto") ||
           !strcmp(v->name, "hier");
}

/* The variants and segment asked for a call that runs none of them (a
 * local product, a heterogeneous schedule), with why; the topology too
 * unless `topo_used`. */
static void none_taken(const pumma_opts_t *a, int topo_used, const char *why)
{
    char seg[24];
    if (a->bcast) forced("bcast", a->bcast->name, "-", why);
    if (a->reduce) forced("reduce", a->reduce->name, "-", why);
    if (a->shift) forced("shift", a->shift->name, "-", why);
    if (a->segment > 0) {
        snprintf(seg, sizeof seg, "%d", a->segment);
        forced("segment", seg, "-", why);
    }
    if (a->topo && !topo_used)
        forced("topo", topo_name(a->topo), "-", why);
}

/* What the plan of a block-cyclic call did with the forced choices. */
static void block_taken(const pumma_problem_t *p, const pumma_opts_t *asked,
                        const pumma_plan_t *pl)
{
    char why[96], seg[24];
    const pumma_algo_t *a = pl->algo;
    const int ub = pl->uses & PUMMA_USES_BCAST;
    const int ur = pl->uses & PUMMA_USES_REDUCE;
    const int us = pl->uses & PUMMA_USES_SHIFT;
    /* a kind the algorithm does not use on this grid */
    snprintf(why, sizeof why, "%s on a %dx%d grid", a->name, p->g->nprow,
             p->g->npcol);
    static const char *const limit = "workspace limit";
    if (asked->algo && strcmp(asked->algo, a->name)) {
        const pumma_algo_t *f = pumma_algo_find(asked->algo);
        char call[16];
        snprintf(call, sizeof call, "%c%c call", p->transa, p->transb);
        forced("algo", asked->algo, a->name,
               !f || f->kind != PUMMA_CALL_BLOCK ? "block-cyclic call"
               : !f->handles(p->transa, p->transb) ? call : limit);
    }
    if (asked->bcast && (!ub || pl->bcast != asked->bcast))
        forced("bcast", asked->bcast->name, ub ? pl->bcast->name : "-",
               ub ? limit : why);
    if (asked->reduce && (!ur || pl->reduce != asked->reduce))
        forced("reduce", asked->reduce->name, ur ? pl->reduce->name : "-",
               ur ? limit : why);
    if (asked->shift && (!us || pl->shift != asked->shift))
        forced("shift", asked->shift->name, us ? pl->shift->name : "-",
               us ? limit : why);
    if (asked->segment > 0 && !(ub && may_cut(pl->bcast)) &&
        !(ur && may_cut(pl->reduce))) {
        snprintf(seg, sizeof seg, "%d", asked->segment);
        if (ub || ur) {
            snprintf(why, sizeof why, "%s%s%s%s sends whole messages",
                     ub ? "bcast=" : "", ub ? pl->bcast->name : "",
                     ub && ur ? " and reduce=" : ur ? "reduce=" : "",
                     ur ? pl->reduce->name : "");
        }
        forced("segment", seg, "-", why);
    }
    if (asked->topo)
        forced("topo", topo_name(asked->topo), "-", "block-cyclic call");
}

/* PUMMA_STATS's report of the forced choices (the environment's and the
 * call's) that the plan could not take, with why (doc/statistics.md). */
static void report_forced(const pumma_problem_t *have, const pumma_opts_t *o,
                          const pumma_plan_t *pl, int kind)
{
    if (kind == PUMMA_CALL_BLOCK) {
        block_taken(have, o, pl);
        return;
    }
    const char *why = kind == PUMMA_CALL_LOCAL ? "local product"
                                               : "heterogeneous call";
    if (o->algo && strcmp(o->algo, pl->algo->name))
        forced("algo", o->algo, pl->algo->name, why);
    none_taken(o, kind == PUMMA_CALL_HET, why);
}

/* ---------------------------------------------------------- prediction */

static double predict(const pumma_grid_t *real, const pumma_type_t *t,
                      char ta, char tb, int m, int n, int k, int nb,
                      int nprow, int npcol, const pumma_model_t *mo_in,
                      const pumma_opts_t *force, char *plan, size_t len);

double pumma_plan_predict(const pumma_type_t *t, char ta, char tb, int m,
                          int n, int k, int nb, int nprow, int npcol,
                          const pumma_model_t *mo, const pumma_opts_t *force,
                          char *plan, size_t len)
{
    return predict(NULL, t, ta, tb, m, n, k, nb, nprow, npcol, mo, force,
                   plan, len);
}

double pumma_plan_predict_on(const pumma_grid_t *g, const pumma_type_t *t,
                             char ta, char tb, int m, int n, int k, int nb,
                             const pumma_opts_t *force, char *plan,
                             size_t len)
{
    return predict(g, t, ta, tb, m, n, k, nb, g->nprow, g->npcol,
                   pumma_grid_model(g), force, plan, len);
}

static double predict(const pumma_grid_t *real, const pumma_type_t *t,
                      char ta, char tb, int m, int n, int k, int nb,
                      int nprow, int npcol, const pumma_model_t *mo_in,
                      const pumma_opts_t *force, char *plan, size_t len)
{
    if (plan && len) plan[0] = 0;
    /* as the planner prices (plan_search): a grid's clusters' exchanges
     * under their slowest link, local work at the slowest process's
     * pace */
    const pumma_hier_grid_t *hier = real ? pumma_grid_hier(real) : NULL;
    pumma_model_t linked = *mo_in, paced;
    if (hier) pumma_grid_price_model(real, mo_in, &linked);
    pumma_model_paced(&linked, &paced);
    const pumma_model_t *mo = &paced;
    if (m < 1 || n < 1 || k < 1 || nb < 1 || nprow < 1 || npcol < 1)
        return -1;
    ta = (char)(ta & ~0x20);
    tb = (char)(tb & ~0x20);
    if (!t->is_complex) {
        if (ta == 'C') ta = 'T';
        if (tb == 'C') tb = 'T';
    }
    pumma_plan_t pl = {0};
    if (nprow == 1 && npcol == 1) {   /* the driver's local product */
        pl.algo = pumma_algo_find("local");
        if (plan) pumma_plan_format(&pl, 0, plan, len);
        return pumma_model_gemm(mo, t, m, n, k, ta != 'N' && tb != 'N');
    }
    /* A grid of the shape only: the views need nprow, npcol and a
     * process's place; the costs are functions of global values (every
     * process prices the same plan), so no communicator is made. */
    pumma_grid_t g = {0};
    g.nprow = nprow;
    g.npcol = npcol;
    g.model = *mo;
    g.tag_ub = INT32_MAX;        /* as Open MPI's (remaps' ids) */
    /* the real grid's clusters: its lines' collectives priced on them
     * (pumma_coll_price), hier among the candidates */
    g.hier = (pumma_hier_grid_t *)hier;
    pumma_opts_t o = {0};
    if (force) {
        o.algo = force->algo;
        o.bcast = force->bcast;
        o.reduce = force->reduce;
        o.shift = force->shift;
        o.segment = force->segment;
    }
    o.piece = PUMMA_PIECE_DEFAULT;
    pl.segment = o.segment;
    pl.piece = o.piece;
    pumma_problem_t have = {0};
    have.t = t;
    have.g = &g;
    have.transa = ta;
    have.transb = tb;
    have.m = m;
    have.n = n;
    have.k = k;
    have.alpha = have.beta = t->one;
    have.plan = &pl;
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
    const pumma_algo_t *fa = algo ? pumma_algo_find(algo) : NULL;
    if (algo && (!fa || fa->kind != PUMMA_CALL_BLOCK || !fa->handles(ta, tb)))
        return -1;
    /* the workspace limit a call without options has (PUMMA_MAX_WORKSPACE,
     * else the default), as the call's planner applies it */
    const double lim = pumma_plan_limit(&have, &o);
    choice_t c;
    pl.limit = INFINITY;                  /* the free choice, as plan_search */
    if (!search(&have, &pl, &o, fa, mo, INFINITY, 0, &c)) return -1;
    pumma_problem_t want;
    c.a->align(&have, &want);
    const double free_ws = (double)pumma_plan_workspace(&have, c.a, &want);
    pl.limit = lim;
    if (free_ws > lim)
        pl.limited = within_limit(&have, &pl, &o, fa, mo, lim, &c);
    take(&pl, &c);
    if (plan) pumma_plan_format(&pl, 0, plan, len);
    return c.cost;
}
