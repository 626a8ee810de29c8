/*
 * pumma_het_plan.c -- where a heterogeneous product computes sub(C): on
 * C's own distribution (its layout, or block-cyclic), or on a layout made
 * for the processes' measured speeds, sub(C) remapped into it first (when
 * BETA is not 0) and back after.
 *
 * Each candidate is priced from the element counts the schedule of
 * pumma_het.c moves and the multiplies each process does:
 *   - process q computes its part of sub(C), area_q entries, at its
 *     measured rate (pumma_grid_rates): area_q * K multiply-adds;
 *   - it receives op(A)(rows_q, :) and op(B)(:, cols_q) except what it
 *     holds: from process p, the entries p holds of those (counted exactly
 *     from the layouts' rectangles and the block-cyclic distributions, so
 *     the counts are the elements the remaps send); on a linear array a
 *     message also passes every process between the two;
 *   - its time is alpha per message (one per sending process and slice)
 *     plus beta per byte of the larger of what it sends and receives, and
 *     the multiply; het-overlap hides the smaller behind the larger as far
 *     as the machine overlaps (pumma_model_hide), het adds them;
 *   - a remap of sub(C) costs the same terms for its counts, in and out
 *     (relayed along the new layout's line on a linear array), with
 *     nothing to hide behind.
 * The candidate with the least slowest-process time wins; on ties C's own
 * distribution (no remap). Candidates: C's own; columns (any number of
 * processes); square-corner where it exists for M x N and the speeds.
 * PUMMA_HET_LAYOUT forces one (doc/heterogeneous.md, "Where sub(C) is
 * computed").
 */
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_algo.h"

/* |a ∩ b| for two sorted lists of disjoint intervals. */
static long meet_len(const pumma_ilist_t *a, const pumma_ilist_t *b)
{
    long n = 0;
    for (int i = 0, j = 0; i < a->n && j < b->n;) {
        const int lo = a->v[i].lo > b->v[j].lo ? a->v[i].lo : b->v[j].lo;
        const int hi = a->v[i].hi < b->v[j].hi ? a->v[i].hi : b->v[j].hi;
        if (lo < hi) n += hi - lo;
        if (a->v[i].hi < b->v[j].hi) i++; else j++;
    }
    return n;
}

/* What a process holds of op(A) (op(B)), or of C: boxes, each a list of
 * the product's row (column) indices times a list of K's indices (for C:
 * rows times columns). */
typedef struct hold {
    int n;
    pumma_ilist_t *idx, *kk;
} hold_t;

static void hold_free(hold_t *h)
{
    for (int i = 0; h->idx && i < h->n; i++) pumma_ilist_free(&h->idx[i]);
    for (int i = 0; h->kk && i < h->n; i++) pumma_ilist_free(&h->kk[i]);
    free(h->idx);
    free(h->kk);
    memset(h, 0, sizeof *h);
}

/*
 * Process p's holdings of operand x (a rows x cols window), as boxes of
 * (first, second) index lists: swap 0 gives (x's rows, x's columns),
 * swap 1 (x's columns, x's rows) -- op(A)'s rows are A's columns when A
 * is transposed, op(B)'s columns are B's columns unless B is.
 */
static int holdings(const pumma_grid_t *g, const pumma_het_opnd_t *x,
                    int rows, int cols, int swap, int p, hold_t *h)
{
    memset(h, 0, sizeof *h);
    if (!x->lay) {
        h->idx = calloc(1, sizeof(pumma_ilist_t));
        h->kk = calloc(1, sizeof(pumma_ilist_t));
        if (!h->idx || !h->kk) return PUMMA_ENOMEM;
        h->n = 1;
        int rc = pumma_ilist_of_dist(&x->side.row, p / g->npcol, swap ? h->kk : h->idx);
        if (!rc) rc = pumma_ilist_of_dist(&x->side.col, p % g->npcol, swap ? h->idx : h->kk);
        return rc;
    }
    const pumma_layout_t *L = x->lay;
    const int cnt = L->first[p + 1] - L->first[p];
    h->idx = calloc((size_t)cnt + 1, sizeof(pumma_ilist_t));
    h->kk = calloc((size_t)cnt + 1, sizeof(pumma_ilist_t));
    if (!h->idx || !h->kk) return PUMMA_ENOMEM;
    for (int r = L->first[p]; r < L->first[p + 1]; r++) {
        const pumma_rect_t *q = &L->rect[r];
        pumma_ivl_t ri = {(q->r0 > x->i0 ? q->r0 : x->i0) - x->i0,
                          (q->r1 < x->i0 + rows ? q->r1 : x->i0 + rows) - x->i0};
        pumma_ivl_t ci = {(q->c0 > x->j0 ? q->c0 : x->j0) - x->j0,
                          (q->c1 < x->j0 + cols ? q->c1 : x->j0 + cols) - x->j0};
        if (ri.lo >= ri.hi || ci.lo >= ci.hi) continue;
        int rc = pumma_ilist_union(swap ? &ci : &ri, 1, &h->idx[h->n]);
        if (!rc) rc = pumma_ilist_union(swap ? &ri : &ci, 1, &h->kk[h->n]);
        h->n++;
        if (rc) return rc;
    }
    return PUMMA_OK;
}

/* Entries of the boxes whose first index is in need (all of the second). */
static double held(const hold_t *h, const pumma_ilist_t *need)
{
    double n = 0;
    for (int i = 0; i < h->n; i++)
        n += (double)meet_len(&h->idx[i], need) * (double)pumma_ilist_len(&h->kk[i]);
    return n;
}

/* Entries two holdings share. */
static double shared(const hold_t *a, const hold_t *b)
{
    double n = 0;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            n += (double)meet_len(&a->idx[i], &b->idx[j]) *
                 (double)meet_len(&a->kk[i], &b->kk[j]);
    return n;
}

/* A partition of sub(C): every process's rows, columns and area. */
typedef struct part {
    pumma_ilist_t *rows, *cols;
    double *area;
} part_t;

static void part_free(part_t *P, int np)
{
    for (int p = 0; P->rows && p < np; p++) pumma_ilist_free(&P->rows[p]);
    for (int p = 0; P->cols && p < np; p++) pumma_ilist_free(&P->cols[p]);
    free(P->rows);
    free(P->cols);
    free(P->area);
}

static int part_of(const pumma_grid_t *g, const pumma_het_opnd_t *C, int m,
                   int n, part_t *P)
{
    const int np = g->nprow * g->npcol;
    P->rows = calloc((size_t)np, sizeof(pumma_ilist_t));
    P->cols = calloc((size_t)np, sizeof(pumma_ilist_t));
    P->area = calloc((size_t)np, sizeof(double));
    if (!P->rows || !P->cols || !P->area) return PUMMA_ENOMEM;
    for (int p = 0; p < np; p++) {
        int rc = pumma_het_spans(C, g, m, n, p, 0, &P->rows[p]);
        if (!rc) rc = pumma_het_spans(C, g, m, n, p, 1, &P->cols[p]);
        if (rc) return rc;
        P->area[p] = pumma_het_area(C, g, m, n, p);
    }
    return PUMMA_OK;
}

/* Per-process bytes in and out and messages of a transfer whose counts
 * (elements) from p to q are x[p*np+q]; relayed along L's line when
 * linear. */
static void traffic(const double *x, int np, int linear,
                    const pumma_layout_t *L, double e, double *in,
                    double *out, double *msgs, double per_pair)
{
    for (int p = 0; p < np; p++)
        for (int q = 0; q < np; q++) {
            const double v = x[p * np + q] * e;
            if (p == q || v <= 0) continue;
            out[p] += v;
            in[q] += v;
            msgs[p] += per_pair;
            msgs[q] += per_pair;
            if (!linear || !L) continue;
            const int a = L->pos[p], b = L->pos[q];
            const int lo = a < b ? a : b, hi = a < b ? b : a;
            for (int s = lo + 1; s < hi; s++) {       /* relays */
                const int r = L->line[s];
                in[r] += v;
                out[r] += v;
                msgs[r] += 2 * per_pair;
            }
        }
}

/* Elements sent in all, relays included, for counts x (p to q). */
static double sent(const double *x, int np, int linear, const pumma_layout_t *L)
{
    double s = 0;
    for (int p = 0; p < np; p++)
        for (int q = 0; q < np; q++) {
            if (p == q) continue;
            const int hops = linear && L ? abs(L->pos[p] - L->pos[q]) : 1;
            s += x[p * np + q] * hops;
        }
    return s;
}

/* Seconds of the schedule on partition P. */
static int price(const pumma_problem_t *pb, const pumma_model_t *mo,
                 const double *rate, const pumma_het_opnd_t *A,
                 const pumma_het_opnd_t *B, const part_t *P,
                 const pumma_layout_t *line, int overlap, int topo,
                 int nslice, double *secs, double *elems)
{
    const pumma_grid_t *g = pb->g;
    const int np = g->nprow * g->npcol, m = pb->m, n = pb->n, k = pb->k;
    const int ta = pb->transa != 'N', tb = pb->transb != 'N';
    double *x = calloc((size_t)np * np, sizeof(double));
    double *in = calloc((size_t)np, sizeof(double));
    double *out = calloc((size_t)np, sizeof(double));
    double *msgs = calloc((size_t)np, sizeof(double));
    int rc = (!x || !in || !out || !msgs) ? PUMMA_ENOMEM : PUMMA_OK;
    for (int p = 0; p < np && !rc; p++) {
        hold_t ha = {0}, hb = {0};
        rc = holdings(g, A, ta ? k : m, ta ? m : k, ta, p, &ha);
        if (!rc) rc = holdings(g, B, tb ? n : k, tb ? k : n, !tb, p, &hb);
        for (int q = 0; q < np && !rc; q++)
            x[p * np + q] = held(&ha, &P->rows[q]) + held(&hb, &P->cols[q]);
        hold_free(&ha);
        hold_free(&hb);
    }
    if (!rc) {
        *elems = sent(x, np, topo == PUMMA_TOPO_LINEAR, line);
        traffic(x, np, topo == PUMMA_TOPO_LINEAR, line, (double)pb->t->size,
                in, out, msgs, 2.0 * nslice);
        /* the fastest unslowed process's multiply, scaled by each rate */
        const double unit = pumma_model_gemm(mo, pb->t, 1, 1, k, 0);
        const double ref = mo->gamma[1] > 0 ? 1 / mo->gamma[1] : 0;
        double worst = 0;
        for (int q = 0; q < np; q++) {
            const double slow = rate && rate[q] > 0 && ref > 0 ? ref / rate[q] : 1;
            const double work = unit * P->area[q] * slow;
            const double comm = mo->alpha * msgs[q] / 2 +
                                mo->beta * (in[q] > out[q] ? in[q] : out[q]);
            const double tq = overlap ? pumma_model_hide(mo, work, comm)
                                      : work + comm;
            if (tq > worst) worst = tq;
        }
        *secs = worst;
    }
    free(x);
    free(in);
    free(out);
    free(msgs);
    return rc;
}

/* Seconds to move sub(C) from its own distribution (C) to another (D),
 * or back (the same counts). */
static int price_move(const pumma_problem_t *pb, const pumma_model_t *mo,
                      const pumma_het_opnd_t *C, const pumma_het_opnd_t *D,
                      int topo, double *secs, double *elems)
{
    const pumma_grid_t *g = pb->g;
    const int np = g->nprow * g->npcol, m = pb->m, n = pb->n;
    double *x = calloc((size_t)np * np, sizeof(double));
    double *in = calloc((size_t)np, sizeof(double));
    double *out = calloc((size_t)np, sizeof(double));
    double *msgs = calloc((size_t)np, sizeof(double));
    hold_t *hd = calloc((size_t)np, sizeof(hold_t));
    int rc = (!x || !in || !out || !msgs || !hd) ? PUMMA_ENOMEM : PUMMA_OK;
    for (int q = 0; q < np && !rc; q++) rc = holdings(g, D, m, n, 0, q, &hd[q]);
    for (int p = 0; p < np && !rc; p++) {
        hold_t hc;
        rc = holdings(g, C, m, n, 0, p, &hc);
        for (int q = 0; q < np && !rc; q++) x[p * np + q] = shared(&hc, &hd[q]);
        hold_free(&hc);
    }
    double worst = 0;
    if (!rc) {
        const double e = (double)pb->t->size;
        const int linear = topo == PUMMA_TOPO_LINEAR;
        *elems = sent(x, np, linear, D->lay);
        traffic(x, np, linear, D->lay, e, in, out, msgs, 1);
        for (int q = 0; q < np; q++) {
            /* the local part is copied too */
            const double tq = mo->alpha * msgs[q] / 2 +
                              mo->beta * (in[q] > out[q] ? in[q] : out[q]) +
                              pumma_model_copy(mo, x[q * np + q] * e, 0);
            if (tq > worst) worst = tq;
        }
    }
    for (int q = 0; hd && q < np; q++) hold_free(&hd[q]);
    free(hd);
    free(x);
    free(in);
    free(out);
    free(msgs);
    *secs = worst;
    return rc;
}

/* ---------------------------------------------------------- the choice */

static const char *const kind_names[] = {"given", "columns", "strips",
                                         "rect3", "square-corner"};

const char *pumma_het_kind_name(int kind)
{
    return kind >= 0 && kind <= 4 ? kind_names[kind] : "?";
}

/* PUMMA_HET_LAYOUT: -1 auto (the default), 0 given, else a layout kind;
 * a bad value stops the program. */
static int f = -2;           /* not read yet */

void pumma_het_layout_set(int kind)
{
    pumma_het_layout_env();         /* a bad PUMMA_HET_LAYOUT still stops */
    f = kind;
}

int pumma_het_layout_env(void)
{
    if (f != -2) return f;
    const char *e = pumma_setting(PUMMA_SET_HET_LAYOUT)->het_layout;
    f = -1;
    for (int i = 0; e && i <= 4; i++)
        if (!strcmp(e, kind_names[i])) f = i;
    return f;
}

/*
 * Layouts the planner made, kept for the next calls of the same shape
 * (a layout is a handle like the user's: see pumma_layout_create). Every
 * process makes the same ones in the same order: the choice depends on
 * global values only.
 */
enum { KEPT = 8 };
static struct kept {
    int np, m, n, kind, handle;
    double sp[64];
} kept[KEPT];
static int kept_next = 0;

static int layout_for(int kind, int m, int n, int np, const double *sp)
{
    if (np > 64) return 0;
    for (int i = 0; i < KEPT; i++)
        if (kept[i].handle && kept[i].np == np && kept[i].m == m &&
            kept[i].n == n && kept[i].kind == kind &&
            !memcmp(kept[i].sp, sp, sizeof(double) * (size_t)np))
            return kept[i].handle;
    int h = 0, info;
    pumma_layout_create(kind, m, n, np, sp, &h, &info);
    if (info) return 0;
    struct kept *k = &kept[kept_next];
    kept_next = (kept_next + 1) % KEPT;
    if (k->handle) pumma_layout_destroy(k->handle);
    k->np = np; k->m = m; k->n = n; k->kind = kind; k->handle = h;
    memcpy(k->sp, sp, sizeof(double) * (size_t)np);
    return h;
}

int pumma_het_plan(const pumma_problem_t *pb, const pumma_het_opnd_t *A,
                   const pumma_het_opnd_t *B, const pumma_het_opnd_t *C,
                   int overlap, int topo, pumma_het_plan_t *out)
{
    const pumma_grid_t *g = pb->g;
    const int np = g->nprow * g->npcol, m = pb->m, n = pb->n;
    const int me = g->myrow * g->npcol + g->mycol;
    memset(out, 0, sizeof *out);
    out->elems = out->elems_own = -1;         /* not counted */
    const int force = pumma_het_layout_env();
    const pumma_model_t *mo = pumma_grid_model(g);
    /* the rates only when a remap may be chosen (measured collectively) */
    const double *rate = force == 0 || np > 64 ? NULL : pumma_grid_rates(g);
    double sp[64], top = 0;
    for (int q = 0; rate && q < np; q++) top = rate[q] > top ? rate[q] : top;
    for (int q = 0; rate && q < np; q++)
        sp[q] = top > 0 && rate[q] > 0 ? rate[q] / top : 1;
    const int nslice = pb->k > 0 ? (pb->k + pumma_het_slice(pb, overlap) - 1) /
                                       pumma_het_slice(pb, overlap)
                                 : 0;
    const pumma_layout_t *line0 = C->lay ? C->lay : A->lay ? A->lay : B->lay;

    part_t own = {0};
    int rc = part_of(g, C, m, n, &own);
    if (!rc) rc = price(pb, mo, rate, A, B, &own, line0, overlap, topo,
                        nslice, &out->t_own, &out->elems_own);
    part_free(&own, np);
    if (rc) return rc;
    out->t = out->t_own;
    out->elems = out->elems_own;
    /* no remap: asked for, no rates, or no tags left for sub(C)'s moves */
    if (force == 0 || !rate || PUMMA_HET_ID_IN(g) < 2) return PUMMA_OK;
    const int kinds[2] = {PUMMA_LAYOUT_COLUMNS, PUMMA_LAYOUT_SQUARE_CORNER};
    const int nk = force > 0 ? 1 : 2;
    for (int i = 0; i < nk && !rc; i++) {
        const int kind = force > 0 ? force : kinds[i];
        const int h = layout_for(kind, m, n, np, sp);
        if (!h) continue;
        const pumma_layout_t *L = pumma_layout_get(h);
        const int lld = L->box[me].r1 - L->box[me].r0;
        int d[9] = {PUMMA_DTYPE_LAYOUT, C->desc[1], m, n, h, 0, 0, 0,
                    lld > 1 ? lld : 1};
        pumma_het_opnd_t D;
        pumma_het_opnd(pb->t, g, d, 0, 0, m, n, NULL, &D);
        part_t P = {0};
        double t = 0, tin = 0, tout = 0, e = 0, emove = 0;
        rc = part_of(g, &D, m, n, &P);
        if (!rc) rc = price(pb, mo, rate, A, B, &P, L, overlap, topo, nslice,
                            &t, &e);
        part_free(&P, np);
        if (!rc) rc = price_move(pb, mo, C, &D, topo, &tout, &emove);
        if (rc) break;
        const int in = !pb->t->is_zero(pb->beta);
        tin = in ? tout : 0;
        t += tin + tout;
        if (force > 0 || t < out->t) {
            out->t = t;
            out->elems = e + (in + 1) * emove;
            out->kind = kind;
            out->layout = h;
        }
    }
    return rc;
}
