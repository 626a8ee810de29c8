/*
 * pumma_cube.c -- the engine of split and layers: C := alpha*op(A)*op(B)
 * + beta*C on a cube of pm x pn x pk processes carved from the grid,
 * whatever the grid's shape (processes beyond pm*pn*pk stay idle but for
 * their share of the caller's data).
 *
 * Process (i, j, l) computes the product of op(A)'s rows I_i (M cut in
 * pm contiguous ranges) and op(B)'s columns J_j (N in pn) over K's slice
 * l (K in pk): a partial sum of C's block (I_i, J_j), which the pk layers
 * hold one each. Its operands come straight from the caller's
 * block-cyclic arrays, one all-to-all per step (pumma_remap: each
 * process receives its own box, contiguous; replicas are sent to each
 * holder, never gathered and spread again); a layer goes through its
 * slice in `steps` steps, so that a step's operands arrive while the one
 * before is multiplied, and the memory they take is a step's. At the end
 * each layer's block goes by one all-to-all to the processes holding
 * those entries of sub(C), which add the pk partial sums into C (in layer
 * order, so results do not depend on arrival) with BETA.
 *
 * Each process receives (M/pm)(K/pk) + (K/pk)(N/pn) words of A and B and,
 * holding C, pk times its part of it: with pm = pn = pk = P^(1/3), 3
 * (MNK/P)^(2/3) in all -- the lower bound's leading term (Kwasniewski et
 * al., SC'19) against 2D's (MK + KN)/sqrt(P). The cube is chosen by the
 * rows: split prices every cube (pumma_split.c), layers replicates as
 * memory allows (pumma_layers.c).
 *
 * Needs nothing of the layouts: A, B and C are read and written where
 * the caller has them.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

/* Remap ids (pumma_remap_ids): step t's A and B use 2(t % 2) and
 * 2(t % 2) + 1; sub(C)'s way back, the layers' ids 0, 1, ... */
enum { STEP_IDS = 4 };

int pumma_cube_handles(char ta, char tb)
{
    (void)ta;
    (void)tb;
    return 1;
}

void pumma_cube_align(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
}

unsigned pumma_cube_uses(const pumma_problem_t *p)
{
    (void)p;
    return 0;
}

pumma_cube_t pumma_cube_of(const pumma_plan_t *pl)
{
    pumma_cube_t c = {pl->cube[0], pl->cube[1], pl->cube[2], pl->cube[3]};
    return c;
}

void pumma_cube_set(pumma_plan_t *pl, const pumma_cube_t *c)
{
    pl->cube[0] = c->pm;
    pl->cube[1] = c->pn;
    pl->cube[2] = c->pk;
    pl->cube[3] = c->steps;
}

/* The start of part i of n indices cut into `parts` contiguous ranges. */
static int cut(int n, int parts, int i)
{
    return (int)((int64_t)n * i / parts);
}

/* The most indices of one part. */
static int most(int n, int parts)
{
    return (int)(((int64_t)n + parts - 1) / parts);
}

/* Process r's place in the cube: i fastest, then j, then l; -1 in i when
 * it is idle. */
typedef struct place { int i, j, l; } place_t;
static place_t place_of(const pumma_cube_t *c, int r)
{
    place_t x = {-1, -1, -1};
    if (r >= c->pm * c->pn * c->pk) return x;
    x.i = r % c->pm;
    x.j = r / c->pm % c->pn;
    x.l = r / (c->pm * c->pn);
    return x;
}

/* ----------------------------------------------------------- the model */

/* How many processes of d hold a piece of a contiguous range of len
 * indices, at most. */
static double spread(const pumma_dist_t *d, double len)
{
    if (d->src < 0 || d->np == 1 || len <= 0) return 1;
    const double b = d->b > 0 ? d->b : 1;
    const double s = ceil(len / b) + 1;
    return s < d->np ? s : d->np;
}

/* The most indices of `ranges` contiguous ranges of len indices each one
 * process of d holds: two partial blocks and the whole cycles between
 * for each range. */
static double held(const pumma_dist_t *d, double len, double ranges)
{
    const double all = pumma_dist_maxcount(d);
    if (d->src < 0 || d->np == 1) return all < len * ranges ? all : len * ranges;
    const double b = d->b > d->ib ? d->b : d->ib;
    double h = ranges * (floor(len / (b * d->np)) + 2) * b;
    return h < all ? h : all;
}

/* op(A)'s distributions along M and K (or op(B)'s along K and N). */
static void op_dists(const pumma_view_t *v, char tr, int k_first,
                     const pumma_dist_t **mn, const pumma_dist_t **kd)
{
    const pumma_dist_t *r = &v->row, *c = &v->col;
    if (tr != 'N') {
        const pumma_dist_t *x = r;
        r = c;
        c = x;
    }
    /* op(A): rows M, columns K; op(B): rows K, columns N */
    *mn = k_first ? c : r;
    *kd = k_first ? r : c;
}

/* A step's all-to-all or sub(C)'s way back, as two parts: the network's
 * (a message per peer, the bytes through this host's link, which every
 * process on it uses at once: the model's shares of the grid's lines on
 * a host), which a multiply may hide; and the processor's, packing what
 * goes and unpacking what comes, which nothing hides. The copies are
 * scattered runs of a block's length or less (a box cut from a
 * block-cyclic array), priced at the model's scattered rate (delta_t,
 * the transposed copy's) rather than a plain copy's. */
typedef struct xcost { double net, cpu; } xcost_t;
static xcost_t exchange(const pumma_model_t *mo, double msgs, double bytes)
{
    double share = mo->share[0] * mo->share[1];
    if (share < 1) share = 1;
    xcost_t x = {mo->alpha * msgs + mo->beta * share * bytes,
                 pumma_model_copy(mo, 2 * bytes, 1)};
    return x;
}

/* What the cost and the workspace of p's cube start from: its shape, the
 * most rows, columns and K of one process's product and step, op(A)'s
 * and op(B)'s distributions, and the most elements a process sends of
 * them in a step (its piece of op(A) (op(B)) to each of its pn (pm)
 * holders). 0 when p's plan has no cube. */
typedef struct dims {
    pumma_cube_t c;
    double e, mi, nj, kc, sent;
    const pumma_dist_t *am, *ak, *bk, *bn;
} dims_t;

static int dims_of(const pumma_problem_t *p, dims_t *d)
{
    d->c = pumma_cube_of(p->plan);
    if (d->c.pm < 1) return 0;
    d->e = (double)p->t->size;
    d->mi = most(p->m, d->c.pm);
    d->nj = most(p->n, d->c.pn);
    d->kc = most(p->k, d->c.pk * d->c.steps);
    op_dists(&p->a, p->transa, 0, &d->am, &d->ak);
    op_dists(&p->b, p->transb, 1, &d->bn, &d->bk);
    d->sent = d->c.pn * pumma_dist_maxcount(d->am) *
                  held(d->ak, d->kc, d->c.pk) +
              d->c.pm * held(d->bk, d->kc, d->c.pk) *
                  pumma_dist_maxcount(d->bn);
    return 1;
}

/* The boxes of the cube along its `parts` ranges that the indices of
 * distribution d one process holds cross, at most. */
static double crossed(const pumma_dist_t *d, double parts)
{
    const double c = (double)pumma_dist_maxcount(d) / fmax(1, d->b) + 1;
    return fmin(parts, c);
}

double pumma_cube_cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    dims_t d;
    if (!dims_of(p, &d)) return INFINITY;
    const pumma_cube_t c = d.c;
    const double mi = d.mi, nj = d.nj, kc = d.kc, e = d.e;
    /* a step: my boxes of op(A) and op(B), from the processes holding
     * pieces of them, and what I send, one message per box my pieces
     * cross and holder (the side that binds when a small operand is held
     * by many: a panel); the next step's network part behind this
     * step's multiply, the copies not */
    const double rmsgs = spread(d.am, mi) * spread(d.ak, kc) +
                         spread(d.bk, kc) * spread(d.bn, nj);
    const double smsgs =
        c.pn * crossed(d.am, c.pm) *
            fmin(c.pk, held(d.ak, kc, c.pk) / fmax(1, kc) + 1) +
        c.pm * crossed(d.bn, c.pn) *
            fmin(c.pk, held(d.bk, kc, c.pk) / fmax(1, kc) + 1);
    const xcost_t step = exchange(mo, fmax(rmsgs, smsgs),
                                  e * fmax(kc * (mi + nj), d.sent));
    const double gemm = pumma_model_gemm(mo, p->t, mi, nj, kc,
                                         p->transa != 'N' && p->transb != 'N');
    double t = c.steps * step.cpu + step.net + gemm +
               (c.steps - 1) * pumma_model_hide(mo, gemm, step.net);
    /* sub(C)'s way back, exposed: the holder of a part receives it from
     * each layer, as many pieces as blocks of the cube cross it; a block
     * goes to the holders of its entries; then the layers' sums */
    const double own = (double)pumma_view_maxelems(&p->c);
    const double in = c.pk * fmin(c.pm, p->c.row.np) * fmin(c.pn, p->c.col.np);
    const double out = spread(&p->c.row, mi) * spread(&p->c.col, nj);
    const xcost_t back = exchange(mo, fmax(in, out), e * fmax(c.pk * own, mi * nj));
    return t + back.net + back.cpu + pumma_model_copy(mo, e * c.pk * own, 0);
}

/* The bytes of temporaries, at most, on any process. */
size_t pumma_cube_workspace(const pumma_problem_t *p)
{
    dims_t d;
    if (!dims_of(p, &d)) return 0;
    const double part = d.mi * d.nj;
    /* a step: my boxes, the messages bringing them, and what I pack of
     * my own op(A) (op(B)) for their holders; two steps at once */
    const double step = 2 * d.kc * (d.mi + d.nj) + d.sent;
    const double steps = part + (d.c.steps > 1 ? 2 : 1) * step;
    /* the way back: my block packed, each layer's sums and messages */
    const double back = 2 * part +
                        2.0 * d.c.pk * (double)pumma_view_maxelems(&p->c);
    const double w = d.e * (steps > back ? steps : back);
    return w >= (double)SIZE_MAX ? SIZE_MAX : (size_t)w;
}

/* ------------------------------------------------------- the search */

/* The steps tried: 1, 2, 4, ... while each step keeps some of K. */
enum { STEPS_MOST = 64 };

/* The best and the least cube of more than `half` processes. */
typedef struct found {
    pumma_cube_t best, least;
    double best_t;
    size_t least_ws;
} found_t;

static void scan(const pumma_problem_t *p, const pumma_model_t *mo,
                 pumma_plan_t *pl, int klo, int khi, int half, found_t *f)
{
    const int np = p->g->nprow * p->g->npcol;
    for (int pm = 1; pm <= np && pm <= p->m; pm++)
        for (int pn = 1; pm * pn <= np && pn <= p->n; pn++)
            for (int pk = klo; pk <= khi && pm * pn * pk <= np &&
                               pk <= p->k; pk++) {
                if (pm * pn * pk <= half) continue;
                for (int s = 1; s <= STEPS_MOST && (int64_t)pk * s <= p->k;
                     s *= 2) {
                    const pumma_cube_t c = {pm, pn, pk, s};
                    pumma_cube_set(pl, &c);
                    const size_t ws = pumma_cube_workspace(p);
                    if (ws < f->least_ws) {
                        f->least_ws = ws;
                        f->least = c;
                    }
                    if ((double)ws > pl->limit) continue;
                    const double t = pumma_cube_cost(p, mo);
                    if (t < f->best_t) {
                        f->best_t = t;
                        f->best = c;
                    }
                }
            }
}

int pumma_cube_search(const pumma_problem_t *p, const pumma_model_t *mo,
                      pumma_plan_t *pl, int klo, int khi)
{
    found_t f = {{0, 0, 0, 0}, {0, 0, 0, 0}, INFINITY, SIZE_MAX};
    if (pumma_remap_ids(p->g) < STEP_IDS) {
        memset(pl->cube, 0, sizeof pl->cube);   /* cost(): INFINITY */
        return 0;
    }
    /* more than half the processes; a product too small for that: any */
    scan(p, mo, pl, klo, khi, p->g->nprow * p->g->npcol / 2, &f);
    if (!f.least.pm) scan(p, mo, pl, klo, khi, 0, &f);
    pumma_cube_set(pl, f.best.pm ? &f.best : &f.least);
    return f.best.pm > 0;
}

/* ------------------------------------------------------------- the run */

/* The boxes of the cube's processes, as a panel side's lists: every
 * process's (one interval a dimension, or none) for remap_start. */
typedef struct boxes {
    pumma_ilist_t *r, *c;
    pumma_ivl_t *v;
} boxes_t;

static int boxes_alloc(boxes_t *b, int np)
{
    b->r = calloc((size_t)np, sizeof *b->r);
    b->c = calloc((size_t)np, sizeof *b->c);
    b->v = calloc(2 * (size_t)np, sizeof *b->v);
    return b->r && b->c && b->v ? PUMMA_OK : PUMMA_ENOMEM;
}

static void boxes_free(boxes_t *b)
{
    free(b->r);
    free(b->c);
    free(b->v);
}

static void box_set(boxes_t *b, int p, int r0, int r1, int c0, int c1)
{
    b->v[2 * p] = (pumma_ivl_t){r0, r1};
    b->v[2 * p + 1] = (pumma_ivl_t){c0, c1};
    const int some = r1 > r0 && c1 > c0;
    b->r[p].n = b->c[p].n = some;
    b->r[p].v = &b->v[2 * p];
    b->c[p].v = &b->v[2 * p + 1];
}

enum { OP_A, OP_B, OP_C };

/* The boxes of operand `op` (as stored: op(A)'s transpose for 'T') of
 * step t; for C those of layer l. */
static void boxes_of(const pumma_problem_t *p, const pumma_cube_t *c, int op,
                     int t, int l, boxes_t *b)
{
    const int np = p->g->nprow * p->g->npcol, q = c->pk * c->steps;
    for (int r = 0; r < np; r++) {
        const place_t x = place_of(c, r);
        if (x.i < 0 || (op == OP_C && x.l != l)) {
            box_set(b, r, 0, 0, 0, 0);
            continue;
        }
        const int i0 = cut(p->m, c->pm, x.i), i1 = cut(p->m, c->pm, x.i + 1);
        const int j0 = cut(p->n, c->pn, x.j), j1 = cut(p->n, c->pn, x.j + 1);
        const int kq = x.l * c->steps + t;
        const int k0 = cut(p->k, q, kq), k1 = cut(p->k, q, kq + 1);
        if (op == OP_A && p->transa == 'N') box_set(b, r, i0, i1, k0, k1);
        else if (op == OP_A) box_set(b, r, k0, k1, i0, i1);
        else if (op == OP_B && p->transb == 'N') box_set(b, r, k0, k1, j0, j1);
        else if (op == OP_B) box_set(b, r, j0, j1, k0, k1);
        else box_set(b, r, i0, i1, j0, j1);
    }
}

/* A side over g's processes: the window's shape, the rest by kind. */
static pumma_side_t side_of(const pumma_grid_t *g, int kind, int rows,
                            int cols, void *data, int ld)
{
    pumma_side_t s = {0};
    s.kind = kind;
    s.m = rows;
    s.n = cols;
    s.nprow = g->nprow;
    s.npcol = g->npcol;
    s.data = data;
    s.ld = ld > 0 ? ld : 1;
    return s;
}

static pumma_side_t side_bc(const pumma_grid_t *g, const pumma_view_t *v,
                            int rows, int cols)
{
    pumma_side_t s = side_of(g, PUMMA_SIDE_BC, rows, cols, v->data, v->ld);
    s.row = v->row;
    s.col = v->col;
    return s;
}

static pumma_side_t side_panel(const pumma_grid_t *g, const boxes_t *b,
                               int rows, int cols, void *data, int ld)
{
    pumma_side_t s = side_of(g, PUMMA_SIDE_PANEL, rows, cols, data, ld);
    s.prow = b->r;
    s.pcol = b->c;
    return s;
}

/* A step in flight: its two remaps and where its boxes land. */
typedef struct step {
    pumma_remap_t *ra, *rb;
    char *a, *b;
    int lda, ldb, k;
} step_t;

static int step_start(const pumma_problem_t *p, const pumma_cube_t *c,
                      int t, boxes_t *bx, step_t *s)
{
    const pumma_grid_t *g = p->g;
    const int me = g->myrow * g->npcol + g->mycol;
    const int ar = p->transa == 'N' ? p->m : p->k;
    const int ac = p->transa == 'N' ? p->k : p->m;
    const int br = p->transb == 'N' ? p->k : p->n;
    const int bc = p->transb == 'N' ? p->n : p->k;
    int rc;
    boxes_of(p, c, OP_A, t, 0, bx);
    s->lda = bx->r[me].n ? bx->v[2 * me].hi - bx->v[2 * me].lo : 1;
    s->k = p->transa == 'N' ? bx->v[2 * me + 1].hi - bx->v[2 * me + 1].lo
                            : bx->v[2 * me].hi - bx->v[2 * me].lo;
    pumma_side_t src = side_bc(g, &p->a, ar, ac);
    pumma_side_t dst = side_panel(g, bx, ar, ac, s->a, s->lda);
    if ((rc = pumma_remap_start(p->t, g, &src, &dst, 0, NULL,
                                2 * (t % 2), &s->ra)))
        return rc;
    boxes_of(p, c, OP_B, t, 0, bx);
    s->ldb = bx->r[me].n ? bx->v[2 * me].hi - bx->v[2 * me].lo : 1;
    src = side_bc(g, &p->b, br, bc);
    dst = side_panel(g, bx, br, bc, s->b, s->ldb);
    return pumma_remap_start(p->t, g, &src, &dst, 0, NULL, 2 * (t % 2) + 1,
                             &s->rb);
}

static int step_wait(step_t *s)
{
    int rc = s->ra ? pumma_remap_wait(s->ra) : PUMMA_OK;
    int rc2 = s->rb ? pumma_remap_wait(s->rb) : PUMMA_OK;
    s->ra = s->rb = NULL;
    return rc ? rc : rc2;
}

/* pumma_local_gemm's progress: the next step's remaps. */
static int progress(void *ctx)
{
    step_t *s = ctx;
    int a = 1, b = 1;
    if (s->ra && pumma_remap_test(s->ra, &a)) return 0;
    if (s->rb && pumma_remap_test(s->rb, &b)) return 0;
    return !(a && b);
}

/* sub(C) := beta*sub(C) + the layers' sums, from layer l0 on (the first
 * batch brings beta, the rest add). */
static int way_back(const pumma_problem_t *p, const pumma_cube_t *c,
                    boxes_t *bx, const char *part, int ldp)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int batch_most = pumma_remap_ids(g);
    const int mloc = pumma_view_mloc(&p->c, g->myrow);
    const int nloc = pumma_view_nloc(&p->c, g->mycol);
    const pumma_side_t cs = side_bc(g, &p->c, p->m, p->n);
    int rc = PUMMA_OK;
    for (int l0 = 0; l0 < c->pk && !rc; l0 += batch_most) {
        const int nb = c->pk - l0 < batch_most ? c->pk - l0 : batch_most;
        pumma_remap_t **r = calloc((size_t)nb, sizeof *r);
        pumma_view_t *sum = calloc((size_t)nb, sizeof *sum);
        if (!r || !sum) rc = PUMMA_ENOMEM;
        for (int b = 0; b < nb && !rc; b++) {
            sum[b] = p->c;
            if ((rc = pumma_view_alloc(t, g, &sum[b]))) break;
            boxes_of(p, c, OP_C, 0, l0 + b, bx);
            const pumma_side_t src =
                side_panel(g, bx, p->m, p->n, (void *)part, ldp);
            pumma_side_t dst = cs;
            dst.data = sum[b].data;
            dst.ld = sum[b].ld;
            rc = pumma_remap_start(t, g, &src, &dst, 0, NULL, b, &r[b]);
        }
        for (int b = 0; b < nb && !rc; b++) {
            rc = pumma_remap_wait(r[b]);
            r[b] = NULL;
            if (!rc && mloc > 0 && nloc > 0)
                t->geadd('N', mloc, nloc, t->one, sum[b].data, sum[b].ld,
                         l0 + b == 0 ? p->beta : t->one, p->c.data, p->c.ld);
        }
        for (int b = 0; sum && b < nb; b++) pumma_free(sum[b].data);
        free(r);
        free(sum);
    }
    return rc;
}

int pumma_cube_run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const pumma_cube_t c = pumma_cube_of(p->plan);
    const int np = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    if (c.pm < 1 || c.pm * c.pn * c.pk > np || c.steps < 1)
        return PUMMA_EGRID;
    if (pumma_remap_ids(g) < STEP_IDS) return PUMMA_EGRID;
    const place_t x = place_of(&c, me);
    const int mi = x.i < 0 ? 0 : cut(p->m, c.pm, x.i + 1) - cut(p->m, c.pm, x.i);
    const int nj = x.i < 0 ? 0 : cut(p->n, c.pn, x.j + 1) - cut(p->n, c.pn, x.j);
    const int kc = most(p->k, c.pk * c.steps);
    const size_t e = t->size;
    boxes_t bx;
    step_t st[2] = {{0}};
    char *part = NULL;
    int rc = boxes_alloc(&bx, np);
    if (!rc && mi > 0 && nj > 0) {
        part = pumma_malloc((size_t)mi * (size_t)nj * e);
        for (int i = 0; i < (c.steps > 1 ? 2 : 1); i++) {
            st[i].a = pumma_malloc((size_t)mi * (size_t)kc * e);
            st[i].b = pumma_malloc((size_t)kc * (size_t)nj * e);
            if (kc > 0 && (!st[i].a || !st[i].b)) rc = PUMMA_ENOMEM;
        }
        if (!part) rc = PUMMA_ENOMEM;
    }
    if (!rc) rc = step_start(p, &c, 0, &bx, &st[0]);
    for (int s = 0; s < c.steps && !rc; s++) {
        step_t *now = &st[s % 2], *next = &st[(s + 1) % 2];
        if (s + 1 < c.steps && (rc = step_start(p, &c, s + 1, &bx, next)))
            break;
        if ((rc = step_wait(now))) break;
        if (mi > 0 && nj > 0)
            pumma_local_gemm(p, p->transa, p->transb, mi, nj, now->k,
                             p->alpha, now->a, now->lda, now->b, now->ldb,
                             s ? t->one : t->zero, part, mi,
                             s + 1 < c.steps ? progress : NULL, next);
    }
    /* the steps' buffers go before sub(C)'s way back needs its own */
    for (int i = 0; i < 2; i++) {
        if (!rc) rc = step_wait(&st[i]);
        pumma_free(st[i].a);
        pumma_free(st[i].b);
    }
    if (!rc) rc = way_back(p, &c, &bx, part, mi);
    pumma_free(part);
    boxes_free(&bx);
    return rc;
}
