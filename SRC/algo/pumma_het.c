/*
 * pumma_het.c -- C := alpha*op(A)*op(B) + beta*C when any of A, B and C is
 * on a heterogeneous layout: the schedules of Becker and Lastovetsky 2007,
 * and a pipelined refinement of their overlap, for any M, N, K, any
 * TRANSA/TRANSB and any submatrices, each operand on its own layout or
 * block-cyclic (over the same processes).
 *
 * Process p computes its own part of sub(C): on a layout, its region's
 * rectangles inside the window; block-cyclic, its rows times its columns
 * of the window (one packed block of its local array). For those rows I
 * and columns J it needs op(A)(I, :) and op(B)(:, J): two panels, filled
 * by remaps from wherever A and B lie (the volume is what the layouts
 * make it: for A, B and C on one layout of N x N, N^2 + X + Y for the
 * 3-process rectangular, 2N(a + b) for square-corner, whose two slower
 * processes exchange nothing).
 *
 *   het           gather both panels, then multiply (the "rectangular" and
 *                 "square-corner without overlap" of Becker and Lastovetsky
 *                 2007).
 *   het-overlap   first every partial product whose data the process holds
 *                 itself (when A, B and C are all on layouts) -- for
 *                 square-corner's fastest process on one layout this
 *                 contains the whole of C1 (Fig. 6 of Becker and
 *                 Lastovetsky 2007), computed while data moves, as there --
 *                 and then the rest, in slices of K: the panels are
 *                 gathered slice by slice (two in flight) and each slice is
 *                 multiplied as soon as it is in, so the slower processes
 *                 compute while their data is still arriving. Becker and
 *                 Lastovetsky 2007 overlap only C1; this also hides the
 *                 slower processes' transfers, which are the critical path
 *                 when the fastest one has little left to do.
 *
 * C is scaled by beta first; every product then adds into it. With
 * PUMMA_TOPO_LINEAR the remaps relay messages between processes that are
 * not neighbours on the linear array of C's layout (else A's, else B's;
 * fastest in the middle).
 */
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_algo.h"

static double last_comm = 0, last_total = 0;

int pumma_het_schedule(const char *name)
{
    return pumma_name_eq(name, "het") || pumma_name_eq(name, "het-overlap");
}

void pumma_het_times(double *comm, double *total)
{
    *comm = last_comm;
    *total = last_total;
}

/* ------------------------------------------------------- C's parts */

/* The blocks of sub(C) that a process computes, with their place in its
 * panels. Rows [r0, r1) x columns [c0, c1) in sub(C)'s coordinates (C on
 * a layout) or in the packed coordinates of the process's local array (C
 * block-cyclic: one block, its rows x its columns of the window); pr0
 * and pc0: where r0 and c0 lie in the process's packed rows and columns
 * (the panels'); c: the block's first entry in the local array. */
typedef struct blk {
    int r0, r1, c0, c1, pr0, pc0;
    char *c;
} blk_t;

/* The part of layout L's rectangle x inside the m x n window at (i0, j0),
 * in window coordinates; 0 when empty. */
static int in_window(const pumma_rect_t *x, int i0, int j0, int m, int n,
                     pumma_rect_t *w)
{
    w->r0 = (x->r0 > i0 ? x->r0 : i0) - i0;
    w->r1 = (x->r1 < i0 + m ? x->r1 : i0 + m) - i0;
    w->c0 = (x->c0 > j0 ? x->c0 : j0) - j0;
    w->c1 = (x->c1 < j0 + n ? x->c1 : j0 + n) - j0;
    return w->r0 < w->r1 && w->c0 < w->c1;
}

int pumma_het_spans(const pumma_het_opnd_t *C, const pumma_grid_t *g, int m,
                    int n, int p, int dim, pumma_ilist_t *out)
{
    if (!C->lay) {
        const pumma_side_t *s = &C->side;
        return dim ? pumma_ilist_of_dist(&s->col, p % g->npcol, out)
                   : pumma_ilist_of_dist(&s->row, p / g->npcol, out);
    }
    const pumma_layout_t *L = C->lay;
    const int cnt = L->first[p + 1] - L->first[p];
    pumma_ivl_t *v = malloc(sizeof(pumma_ivl_t) * (size_t)(cnt + 1));
    if (!v) return PUMMA_ENOMEM;
    int k = 0;
    for (int r = L->first[p]; r < L->first[p + 1]; r++) {
        pumma_rect_t w;
        if (in_window(&L->rect[r], C->i0, C->j0, m, n, &w))
            v[k++] = dim ? (pumma_ivl_t){w.c0, w.c1}
                         : (pumma_ivl_t){w.r0, w.r1};
    }
    int rc = pumma_ilist_union(v, k, out);
    free(v);
    return rc;
}

double pumma_het_area(const pumma_het_opnd_t *C, const pumma_grid_t *g, int m,
                      int n, int p)
{
    if (C->lay) {
        const pumma_layout_t *L = C->lay;
        double a = 0;
        for (int r = L->first[p]; r < L->first[p + 1]; r++) {
            pumma_rect_t w;
            if (in_window(&L->rect[r], C->i0, C->j0, m, n, &w))
                a += (double)(w.r1 - w.r0) * (w.c1 - w.c0);
        }
        return a;
    }
    const pumma_side_t *s = &C->side;
    return (double)pumma_dist_count(&s->row, p / g->npcol) *
           (double)pumma_dist_count(&s->col, p % g->npcol);
}

/* Slices of K: one for het; for het-overlap PUMMA_SLICE, or about eight
 * of at least 128; fewer when the tag space cannot hold two remaps (A
 * and B) per slice beside the planner's two (sub(C) in and out). */
int pumma_het_slice(const pumma_problem_t *pb, int overlap)
{
    const int k = pb->k;
    int kc = k;
    if (overlap && k > 0) {
        const long ids = pumma_remap_ids(pb->g) - 2;
        kc = pb->plan && pb->plan->slice > 0 ? pb->plan->slice : (k + 7) / 8;
        if (kc < 128 && !(pb->plan && pb->plan->slice > 0)) kc = 128;
        if (kc > k) kc = k;
        while (2L * ((k + kc - 1) / kc) > ids && kc < k)
            kc = kc > k / 2 ? k : 2 * kc;
    }
    return kc;
}

/* This process's blocks of sub(C) (rows, cols: its packed rows and
 * columns); *nb of them in *out (NULL when none). */
static int c_blocks(const pumma_type_t *t, const pumma_het_opnd_t *C, int me,
                    int m, int n, const pumma_ilist_t *rows,
                    const pumma_ilist_t *cols, blk_t **out, int *nb)
{
    *out = NULL;
    *nb = 0;
    if (!C->lay) {
        const int nr = (int)pumma_ilist_len(rows), nc = (int)pumma_ilist_len(cols);
        if (nr == 0 || nc == 0) return PUMMA_OK;
        blk_t *b = malloc(sizeof *b);
        if (!b) return PUMMA_ENOMEM;
        *b = (blk_t){0, nr, 0, nc, 0, 0, C->side.data};
        *out = b;
        *nb = 1;
        return PUMMA_OK;
    }
    const pumma_layout_t *L = C->lay;
    const pumma_rect_t *box = &L->box[me];
    blk_t *b = malloc(sizeof *b * (size_t)(L->first[me + 1] - L->first[me] + 1));
    if (!b) return PUMMA_ENOMEM;
    for (int r = L->first[me]; r < L->first[me + 1]; r++) {
        pumma_rect_t w;
        if (!in_window(&L->rect[r], C->i0, C->j0, m, n, &w)) continue;
        b[*nb] = (blk_t){w.r0, w.r1, w.c0, w.c1, pumma_ilist_pos(rows, w.r0),
                         pumma_ilist_pos(cols, w.c0),
                         pumma_at(t, C->side.data, w.r0 + C->i0 - box->r0,
                                  w.c0 + C->j0 - box->c0, C->side.ld)};
        (*nb)++;
    }
    *out = b;
    return PUMMA_OK;
}

/* ------------------------------------------- what I hold of op(A), op(B) */

/*
 * Pieces of my rows of sub(C) (dim 0; op(A)'s rows) or columns (dim 1;
 * op(B)'s columns), cut at every edge of my blocks and of my rectangles of
 * op(A) (op(B)), and for each the indices of K I hold of op(A) (op(B))
 * along the whole piece. x: A's or B's operand, on a layout; tr: it is
 * transposed ('T'/'C'), so op(A)'s rows (op(B)'s columns) are its
 * columns (rows).
 */
typedef struct piece {
    int lo, hi;
    pumma_ilist_t mine;
} piece_t;

/* Operand x's rectangle r as op(x)'s: (rows or columns of the product)
 * x K, for dim 0 (op(A): rows x K) or 1 (op(B): K x columns). */
static pumma_rect_t op_rect(const pumma_het_opnd_t *x, const pumma_rect_t *r,
                            int tr, int dim)
{
    /* in the window's coordinates: rows i, columns j of the stored x */
    pumma_rect_t s = {r->r0 - x->i0, r->r1 - x->i0, r->c0 - x->j0,
                      r->c1 - x->j0};
    /* op(A)(i, k) = A(i, k) or A(k, i); op(B)(k, j) = B(k, j) or B(j, k):
     * returned as (the product's index, k) */
    const int swap = dim == 0 ? tr : !tr;
    return swap ? (pumma_rect_t){s.c0, s.c1, s.r0, s.r1} : s;
}

static int pieces(const pumma_het_opnd_t *x, int tr, int dim, int me,
                  const pumma_ilist_t *span, int len, int kdim,
                  const blk_t *bl, int nbl, piece_t **out, int *nout)
{
    const pumma_layout_t *L = x->lay;
    const int nr = L->first[me + 1] - L->first[me];
    const int cap = 2 * (nr + nbl + span->n) + 1;
    int *bp = malloc(sizeof(int) * (size_t)cap);
    pumma_ivl_t *v = malloc(sizeof(pumma_ivl_t) * (size_t)(nr + 1));
    piece_t *pc = calloc((size_t)cap, sizeof(piece_t));
    int nb = 0, np = 0, rc = PUMMA_OK;
    if (!bp || !v || !pc) { rc = PUMMA_ENOMEM; goto out; }
    for (int i = 0; i < span->n; i++) {
        bp[nb++] = span->v[i].lo;
        bp[nb++] = span->v[i].hi;
    }
    for (int i = 0; i < nbl; i++) {
        bp[nb++] = dim ? bl[i].c0 : bl[i].r0;
        bp[nb++] = dim ? bl[i].c1 : bl[i].r1;
    }
    for (int r = 0; r < nr; r++) {
        pumma_rect_t o = op_rect(x, &L->rect[L->first[me] + r], tr, dim);
        if (o.r0 < 0) o.r0 = 0;
        if (o.r1 > len) o.r1 = len;
        if (o.r0 < o.r1) {
            bp[nb++] = o.r0;
            bp[nb++] = o.r1;
        }
    }
    for (int i = 1; i < nb; i++)            /* sort breakpoints */
        for (int j = i; j > 0 && bp[j] < bp[j - 1]; j--) {
            int y = bp[j]; bp[j] = bp[j - 1]; bp[j - 1] = y;
        }
    for (int i = 0; i + 1 < nb; i++) {
        if (bp[i] == bp[i + 1]) continue;
        /* only pieces of my own rows (columns) */
        int inside = 0;
        for (int q = 0; q < span->n && !inside; q++)
            inside = span->v[q].lo <= bp[i] && bp[i + 1] <= span->v[q].hi;
        if (!inside) continue;
        int nv = 0;
        for (int r = 0; r < nr; r++) {
            pumma_rect_t o = op_rect(x, &L->rect[L->first[me] + r], tr, dim);
            if (o.r0 <= bp[i] && bp[i + 1] <= o.r1) {
                int k0 = o.c0 < 0 ? 0 : o.c0, k1 = o.c1 > kdim ? kdim : o.c1;
                if (k0 < k1) v[nv++] = (pumma_ivl_t){k0, k1};
            }
        }
        pc[np].lo = bp[i];
        pc[np].hi = bp[i + 1];
        if ((rc = pumma_ilist_union(v, nv, &pc[np].mine))) goto out;
        np++;
    }
out:
    free(bp);
    free(v);
    *out = pc;
    *nout = np;
    return rc;
}

static void pieces_free(piece_t *pc, int n)
{
    if (!pc) return;
    for (int i = 0; i < n; i++) pumma_ilist_free(&pc[i].mine);
    free(pc);
}

/* ------------------------------------------------------------- slices */

/* One slice [k0, k1) of K in flight: A's and B's remaps. */
typedef struct slice {
    int k0, k1, started, done_a, done_b;
    pumma_remap_t *ra, *rb;
} slice_t;

typedef struct het {
    const pumma_problem_t *pb;
    const pumma_het_opnd_t *A, *B, *C;
    const pumma_layout_t *line;       /* relays follow its linear array */
    const pumma_grid_t *g;
    int np, me, topo, nslice, next, inflight;
    slice_t *sl;
    pumma_ilist_t *rows, *cols;       /* every process's rows / cols of C */
    pumma_ilist_t *kl;                /* [0, k1 - k0) for every process */
    pumma_ivl_t kv;
    char *pa, *pbp;                   /* the panels */
    int lpa, lpb;
    int rc;
    double t0, t_comm;
} het_t;

/* The sides of the remaps of K's slice [k0, k1): op(A)'s columns and
 * op(B)'s rows k0..k1-1, from where A and B lie into the panels. */
static void sides(het_t *h, int k0, int k1, pumma_side_t *sa,
                  pumma_side_t *da, pumma_side_t *sb, pumma_side_t *db)
{
    const pumma_problem_t *pb = h->pb;
    const pumma_type_t *t = pb->t;
    const int kc = k1 - k0, m = pb->m, n = pb->n;
    h->kv = (pumma_ivl_t){0, kc};
    for (int p = 0; p < h->np; p++) {
        h->kl[p].n = 1;
        h->kl[p].v = &h->kv;
    }
    memset(da, 0, sizeof *da);
    memset(db, 0, sizeof *db);
    da->kind = db->kind = PUMMA_SIDE_PANEL;
    da->nprow = db->nprow = h->g->nprow;
    da->npcol = db->npcol = h->g->npcol;
    da->ld = h->lpa;
    db->ld = h->lpb;
    if (pb->transa == 'N') {        /* A(:, k0:k1) -> panel columns k0.. */
        *sa = pumma_het_window(t, h->g, h->A, 0, k0, m, kc);
        da->prow = h->rows; da->pcol = h->kl;
        da->data = pumma_at(t, h->pa, 0, k0, h->lpa);
    } else {                        /* A(k0:k1, :) -> panel rows k0.. */
        *sa = pumma_het_window(t, h->g, h->A, k0, 0, kc, m);
        da->prow = h->kl; da->pcol = h->rows;
        da->data = pumma_at(t, h->pa, k0, 0, h->lpa);
    }
    if (pb->transb == 'N') {        /* B(k0:k1, :) -> panel rows k0.. */
        *sb = pumma_het_window(t, h->g, h->B, k0, 0, kc, n);
        db->prow = h->kl; db->pcol = h->cols;
        db->data = pumma_at(t, h->pbp, k0, 0, h->lpb);
    } else {                        /* B(:, k0:k1) -> panel columns k0.. */
        *sb = pumma_het_window(t, h->g, h->B, 0, k0, n, kc);
        db->prow = h->cols; db->pcol = h->kl;
        db->data = pumma_at(t, h->pbp, 0, k0, h->lpb);
    }
    da->m = sa->m; da->n = sa->n;
    db->m = sb->m; db->n = sb->n;
}

/* Start the remaps of slice s. */
static int slice_start(het_t *h, int s)
{
    slice_t *x = &h->sl[s];
    const pumma_type_t *t = h->pb->t;
    pumma_side_t sa, da, sb, db;
    sides(h, x->k0, x->k1, &sa, &da, &sb, &db);
    int rc = pumma_remap_start(t, h->g, &sa, &da, h->topo, h->line, 2 * s,
                               &x->ra);
    if (!rc) rc = pumma_remap_start(t, h->g, &sb, &db, h->topo, h->line,
                                    2 * s + 1, &x->rb);
    x->started = 1;
    return rc;
}

/* Keep `inflight` slices moving: test those started, start the next ones
 * as earlier ones complete. Called between the multiply's panels; 1 while
 * slices are moving or to start. */
static int progress(void *vh)
{
    het_t *h = vh;
    int active = 0;
    for (int s = 0; s < h->next && !h->rc; s++) {
        slice_t *x = &h->sl[s];
        if (!x->done_a) h->rc = pumma_remap_test(x->ra, &x->done_a);
        if (!h->rc && !x->done_b) h->rc = pumma_remap_test(x->rb, &x->done_b);
        if (!(x->done_a && x->done_b)) active++;
    }
    while (!h->rc && active < h->inflight && h->next < h->nslice) {
        h->rc = slice_start(h, h->next++);
        active++;
    }
    if (h->next == h->nslice && active == 0 && h->t_comm == 0)
        h->t_comm = MPI_Wtime() - h->t0;
    return !h->rc && (active > 0 || h->next < h->nslice);
}

/* Wait for slice s (keeping the others moving). After an error the slice
 * may not have started, or started only A's remap: complete what exists
 * (the caller's cleanup finds nothing left). */
static int slice_wait(het_t *h, int s)
{
    slice_t *x = &h->sl[s];
    while (!h->rc && h->next <= s) progress(h);
    double tw = pumma_stats_clock();
    int ra = x->ra ? pumma_remap_wait(x->ra) : PUMMA_OK;
    int rb = x->rb ? pumma_remap_wait(x->rb) : PUMMA_OK;
    if (!h->rc) h->rc = ra ? ra : rb;
    x->ra = x->rb = NULL;
    x->done_a = x->done_b = 2;       /* waited: freed */
    pumma_stats_comm(tw);
    progress(h);
    return h->rc;
}

/* ------------------------------------------------------------ multiply */

/* Where op(x)'s entry (i, k) (op(A)) or (k, i) (op(B)) lies in x's own
 * storage (x on a layout; this process holds it). */
static const char *held(const pumma_type_t *t, const pumma_het_opnd_t *x,
                        int me, int tr, int dim, int i, int k)
{
    const pumma_rect_t *box = &x->lay->box[me];
    /* stored row and column of x, window coordinates */
    int sr = i, sc = k;                           /* op(A) 'N' */
    if ((dim == 0) == (tr != 0)) { sr = k; sc = i; }
    return pumma_at(t, x->side.data, sr + x->i0 - box->r0,
                    sc + x->j0 - box->c0, x->side.ld);
}

/* C(rows r, cols c of block b) += alpha * op(A)(r, k) * op(B)(k, c) over
 * the intervals of ks: from the panels, or (local) straight from my own
 * storage of A and B, which the caller knows I hold. */
static void product(het_t *h, const blk_t *b, const pumma_ivl_t *r,
                    const pumma_ivl_t *c, const pumma_ilist_t *ks, int local,
                    int with_progress)
{
    const pumma_problem_t *pb = h->pb;
    const pumma_type_t *t = pb->t;
    const char ta = pb->transa, tb = pb->transb;
    const int pi = b->pr0 + (r->lo - b->r0), pj = b->pc0 + (c->lo - b->c0);
    const int la = local ? h->A->side.ld : h->lpa;
    const int lb = local ? h->B->side.ld : h->lpb;
    const int ldc = h->C->side.ld;
    for (int q = 0; q < ks->n; q++) {
        int k0 = ks->v[q].lo, kk = ks->v[q].hi - k0;
        const char *ap, *bp;
        if (local) {
            ap = held(t, h->A, h->me, ta != 'N', 0, r->lo, k0);
            bp = held(t, h->B, h->me, tb != 'N', 1, c->lo, k0);
        } else {
            ap = ta == 'N' ? pumma_at(t, h->pa, pi, k0, la)
                           : pumma_at(t, h->pa, k0, pi, la);
            bp = tb == 'N' ? pumma_at(t, h->pbp, k0, pj, lb)
                           : pumma_at(t, h->pbp, pj, k0, lb);
        }
        pumma_local_gemm(pb, ta, tb, r->hi - r->lo, c->hi - c->lo, kk,
                         pb->alpha, ap, la, bp, lb, t->one,
                         pumma_at(t, b->c, r->lo - b->r0, c->lo - b->c0, ldc),
                         ldc, with_progress ? progress : NULL, h);
    }
}

/* The part of block b in row piece ri and column piece cj; 0 when they
 * do not meet. */
static int clip(const blk_t *b, const piece_t *ri, const piece_t *cj,
                pumma_ivl_t *r, pumma_ivl_t *c)
{
    r->lo = ri->lo > b->r0 ? ri->lo : b->r0;
    r->hi = ri->hi < b->r1 ? ri->hi : b->r1;
    c->lo = cj->lo > b->c0 ? cj->lo : b->c0;
    c->hi = cj->hi < b->c1 ? cj->hi : b->c1;
    return r->lo < r->hi && c->lo < c->hi;
}

pumma_side_t pumma_het_window(const pumma_type_t *t, const pumma_grid_t *g,
                              const pumma_het_opnd_t *x, int i, int j, int m,
                              int n)
{
    return pumma_side_of(t, g, x->desc, x->lay != NULL, x->i0 + i, x->j0 + j,
                         m, n, (void *)x->data);
}

int pumma_het_opnd(const pumma_type_t *t, const pumma_grid_t *g,
                   const int *desc, int i0, int j0, int m, int n,
                   const void *data, pumma_het_opnd_t *x)
{
    memset(x, 0, sizeof *x);
    x->desc = desc;
    x->lay = pumma_desc_is_layout(desc) ? pumma_desc_layout(desc) : NULL;
    x->i0 = i0;
    x->j0 = j0;
    x->data = data;
    x->side = pumma_side_of(t, g, desc, x->lay != NULL, i0, j0, m, n,
                            (void *)data);
    return PUMMA_OK;
}

int pumma_het_scale(const pumma_type_t *t, const pumma_grid_t *g,
                    const pumma_het_opnd_t *C, int m, int n, const void *beta)
{
    const int me = g->myrow * g->npcol + g->mycol;
    pumma_ilist_t rows = {0}, cols = {0};
    blk_t *bl = NULL;
    int nbl = 0;
    int rc = pumma_het_spans(C, g, m, n, me, 0, &rows);
    if (!rc) rc = pumma_het_spans(C, g, m, n, me, 1, &cols);
    if (!rc) rc = c_blocks(t, C, me, m, n, &rows, &cols, &bl, &nbl);
    for (int i = 0; i < nbl; i++)
        pumma_local_scale(t, bl[i].r1 - bl[i].r0, bl[i].c1 - bl[i].c0, beta,
                          bl[i].c, C->side.ld);
    free(bl);
    pumma_ilist_free(&rows);
    pumma_ilist_free(&cols);
    return rc;
}

/* What one process multiplies: its blocks of sub(C) (bl), and, when
 * A, B and C all lie on layouts (inplace), the pieces of op(A) along its
 * rows (pr) and of op(B) along its columns (pc) with what it holds of
 * them; kloc, krest: scratch lists of K's indices. */
typedef struct work {
    blk_t *bl;
    piece_t *pr, *pc;
    int nbl, npr, npc, inplace;
    pumma_ilist_t kloc, krest;
} work_t;

/* Phase 1 (het-overlap on layouts): the products of data the process
 * holds itself, read where it holds it (the slices' remaps fill the
 * panels later). */
static void products_held(het_t *h, work_t *w)
{
    for (int q = 0; q < w->nbl && w->inplace && !h->rc; q++)
        for (int i = 0; i < w->npr; i++)
            for (int j = 0; j < w->npc; j++) {
                pumma_ivl_t ri, cj;
                if (!clip(&w->bl[q], &w->pr[i], &w->pc[j], &ri, &cj)) continue;
                pumma_ilist_meet(&w->pr[i].mine, &w->pc[j].mine, &w->kloc);
                if (w->kloc.n == 0) continue;
                product(h, &w->bl[q], &ri, &cj, &w->kloc, 1, 1);
            }
}

/* Phase 2: slice by slice, the rest (on layouts, less what phase 1
 * did). */
static void products_sliced(het_t *h, work_t *w)
{
    for (int s = 0; s < h->nslice && !h->rc; s++) {
        if (slice_wait(h, s)) break;
        pumma_ilist_t sk = {1, &(pumma_ivl_t){h->sl[s].k0, h->sl[s].k1}};
        const int more = s + 1 < h->nslice;
        for (int q = 0; q < w->nbl; q++) {
            const blk_t *b = &w->bl[q];
            if (!w->inplace) {        /* the whole block */
                product(h, b, &(pumma_ivl_t){b->r0, b->r1},
                        &(pumma_ivl_t){b->c0, b->c1}, &sk, 0, more);
                continue;
            }
            for (int i = 0; i < w->npr; i++)
                for (int j = 0; j < w->npc; j++) {
                    pumma_ivl_t ri, cj;
                    if (!clip(b, &w->pr[i], &w->pc[j], &ri, &cj)) continue;
                    pumma_ilist_meet(&w->pr[i].mine, &w->pc[j].mine,
                                     &w->kloc);
                    pumma_ilist_minus(&sk, &w->kloc, &w->krest);
                    if (w->krest.n)
                        product(h, b, &ri, &cj, &w->krest, 0, more);
                }
        }
    }
}

/* The end of a run, also after an error: slices still in flight
 * completed, everything freed, the times kept (pumma_het_times). */
static int finish(het_t *h, work_t *w)
{
    for (int s = 0; h->sl && s < h->nslice; s++) {
        if (h->sl[s].ra) pumma_remap_wait(h->sl[s].ra);
        if (h->sl[s].rb) pumma_remap_wait(h->sl[s].rb);
    }
    free(w->kloc.v);
    free(w->krest.v);
    pieces_free(w->pr, w->npr);
    pieces_free(w->pc, w->npc);
    free(w->bl);
    pumma_free(h->pa);
    pumma_free(h->pbp);
    for (int p = 0; h->rows && p < h->np; p++) pumma_ilist_free(&h->rows[p]);
    for (int p = 0; h->cols && p < h->np; p++) pumma_ilist_free(&h->cols[p]);
    free(h->rows);
    free(h->cols);
    free(h->kl);
    free(h->sl);
    last_comm = h->t_comm;
    last_total = MPI_Wtime() - h->t0;
    return h->rc;
}

int pumma_het_run(const pumma_problem_t *pb, const pumma_het_opnd_t *A,
                  const pumma_het_opnd_t *B, const pumma_het_opnd_t *C,
                  int overlap, int topo)
{
    const pumma_type_t *t = pb->t;
    const pumma_grid_t *g = pb->g;
    const int m = pb->m, n = pb->n, k = pb->k;
    het_t h = {0};
    work_t w = {0};
    h.pb = pb;
    h.A = A; h.B = B; h.C = C;
    h.line = C->lay ? C->lay : A->lay ? A->lay : B->lay;
    h.g = g;
    h.np = g->nprow * g->npcol;
    h.me = g->myrow * g->npcol + g->mycol;
    h.topo = topo;
    h.t0 = MPI_Wtime();
    const int me = h.me;

    h.rows = calloc((size_t)h.np, sizeof(pumma_ilist_t));
    h.cols = calloc((size_t)h.np, sizeof(pumma_ilist_t));
    h.kl = calloc((size_t)h.np, sizeof(pumma_ilist_t));
    if (!h.rows || !h.cols || !h.kl) { h.rc = PUMMA_ENOMEM; goto out; }
    for (int p = 0; p < h.np && !h.rc; p++)
        if (!(h.rc = pumma_het_spans(C, g, m, n, p, 0, &h.rows[p])))
            h.rc = pumma_het_spans(C, g, m, n, p, 1, &h.cols[p]);
    if (h.rc) goto out;
    if ((h.rc = c_blocks(t, C, me, m, n, &h.rows[me], &h.cols[me], &w.bl, &w.nbl)))
        goto out;

    /* C := beta*C on my part: every product below adds into it. */
    for (int i = 0; i < w.nbl; i++)
        pumma_local_scale(t, w.bl[i].r1 - w.bl[i].r0, w.bl[i].c1 - w.bl[i].c0,
                          pb->beta, w.bl[i].c, C->side.ld);
    if (k == 0) goto out;

    /* Panels: op(A)(my rows, :) and op(B)(:, my columns), stored as A and
     * B are (transposed operands keep their orientation). */
    long nr = pumma_ilist_len(&h.rows[me]), nc = pumma_ilist_len(&h.cols[me]);
    h.lpa = pb->transa == 'N' ? (int)(nr > 0 ? nr : 1) : k;
    h.lpb = pb->transb == 'N' ? k : (int)(nc > 0 ? nc : 1);
    h.pa = pumma_malloc((size_t)nr * (size_t)k * t->size);
    h.pbp = pumma_malloc((size_t)nc * (size_t)k * t->size);
    if ((nr && !h.pa) || (nc && !h.pbp)) { h.rc = PUMMA_ENOMEM; goto out; }

    const int kc = pumma_het_slice(pb, overlap);
    h.nslice = (k + kc - 1) / kc;
    h.inflight = 2;
    h.sl = calloc((size_t)h.nslice, sizeof(slice_t));
    if (!h.sl) { h.rc = PUMMA_ENOMEM; goto out; }
    for (int s = 0; s < h.nslice; s++) {
        h.sl[s].k0 = s * kc;
        h.sl[s].k1 = (s + 1) * kc < k ? (s + 1) * kc : k;
    }

    /* What I hold of op(A) along my rows and of op(B) along my columns, to
     * multiply in place: only when all three lie on layouts (C's blocks
     * are then stretches of sub(C)'s rows and columns). */
    w.inplace = overlap && A->lay && B->lay && C->lay;
    if (w.inplace &&
        ((h.rc = pieces(A, pb->transa != 'N', 0, me, &h.rows[me], m, k, w.bl,
                        w.nbl, &w.pr, &w.npr)) ||
         (h.rc = pieces(B, pb->transb != 'N', 1, me, &h.cols[me], n, k, w.bl,
                        w.nbl, &w.pc, &w.npc))))
        goto out;

    progress(&h);                     /* the first slices start moving */
    if (h.rc) goto out;

    w.kloc.v = malloc(sizeof(pumma_ivl_t) * (size_t)(2 * k + 2));
    w.krest.v = malloc(sizeof(pumma_ivl_t) * (size_t)(2 * k + 2));
    if (!w.kloc.v || !w.krest.v) { h.rc = PUMMA_ENOMEM; goto out; }
    products_held(&h, &w);
    products_sliced(&h, &w);
    if (h.t_comm == 0) h.t_comm = MPI_Wtime() - h.t0;
out:
    return finish(&h, &w);
}

/* ------------------------------------------------ the table's rows */

static pumma_het_plan_t het_last;

const pumma_het_plan_t *pumma_het_last(void) { return &het_last; }

extern const pumma_algo_t pumma_algo_het_overlap;

static int overlaps(const pumma_plan_t *pl)
{
    return pl->algo == &pumma_algo_het_overlap;
}

/* Where sub(C) is computed: its own distribution, or a layout of the
 * measured speeds (pumma_het_plan.c). */
static int prepare(const pumma_problem_t *p, pumma_plan_t *pl)
{
    int rc = pumma_het_plan(p, p->ha, p->hb, p->hc, overlaps(pl), pl->topo,
                            &het_last);
    pl->layout = het_last.kind;
    pl->layout_id = het_last.layout;
    pl->cost = het_last.t;
    pl->from[PUMMA_CH_LAYOUT] =
        pumma_het_layout_env() >= 0 ? PUMMA_FROM_ENV : PUMMA_FROM_MODEL;
    return rc;
}

/* The schedule on sub(C) where it is, or: sub(C) into the plan's layout
 * (unless BETA = 0), the schedule there, and back -- on a linear array
 * relayed along the new layout's line, as the schedule's own messages
 * then are. */
static int run_on(const pumma_problem_t *p, int overlap)
{
    const pumma_plan_t *pl = p->plan;
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int m = p->m, n = p->n, topo = pl->topo;
    if (!pl->layout) return pumma_het_run(p, p->ha, p->hb, p->hc, overlap,
                                          topo);
    const pumma_layout_t *L = pumma_layout_get(pl->layout_id);
    const int me = g->myrow * g->npcol + g->mycol;
    const pumma_rect_t *box = &L->box[me];
    const int ml = box->r1 - box->r0, nl = box->c1 - box->c0;
    int d[9] = {PUMMA_DTYPE_LAYOUT, p->hc->desc[1], m, n, pl->layout_id,
                0, 0, 0, ml > 1 ? ml : 1};
    char *w = pumma_malloc((size_t)d[8] * (size_t)(nl > 0 ? nl : 0) *
                           t->size);
    pumma_het_opnd_t D;
    pumma_het_opnd(t, g, d, 0, 0, m, n, w, &D);
    int rc = ml > 0 && nl > 0 && !w ? PUMMA_ENOMEM : PUMMA_OK;
    pumma_side_t sc = pumma_het_window(t, g, p->hc, 0, 0, m, n);
    pumma_side_t sd = pumma_het_window(t, g, &D, 0, 0, m, n);
    pumma_remap_t *r = NULL;
    if (!rc && !t->is_zero(p->beta) &&
        !(rc = pumma_remap_start(t, g, &sc, &sd, topo, L, PUMMA_HET_ID_IN(g),
                                 &r)))
        rc = pumma_remap_wait(r);
    if (!rc) rc = pumma_het_run(p, p->ha, p->hb, &D, overlap, topo);
    if (!rc && !(rc = pumma_remap_start(t, g, &sd, &sc, topo, L,
                                        PUMMA_HET_ID_OUT(g), &r)))
        rc = pumma_remap_wait(r);
    pumma_free(w);
    return rc;
}

/* The run, and the elements it sent gathered for PUMMA_STATS (collective
 * over the grid, on every process alike). */
static int run_counted(const pumma_problem_t *p, int overlap)
{
    const double before = pumma_remap_sent();
    const int rc = run_on(p, overlap);
    const pumma_grid_t *g = p->g;
    pumma_stats_het(g->all, g->nprow * g->npcol, g->rank,
                    pumma_remap_sent() - before);
    return rc;
}

static int run_het(const pumma_problem_t *p) { return run_counted(p, 0); }
static int run_overlap(const pumma_problem_t *p) { return run_counted(p, 1); }

static int handles(char ta, char tb)
{
    (void)ta;
    (void)tb;
    return 1;
}

const pumma_algo_t pumma_algo_het = {
    "het",
    "heterogeneous descriptors: each process gathers its panels of op(A) "
    "and op(B), then multiplies",
    handles, NULL, run_het, NULL, NULL, NULL, PUMMA_CALL_HET, prepare,
    NULL, 0};
const pumma_algo_t pumma_algo_het_overlap = {
    "het-overlap",
    "heterogeneous descriptors: K in slices, the next gathered while the "
    "last is multiplied",
    handles, NULL, run_overlap, NULL, NULL, NULL, PUMMA_CALL_HET, prepare,
    NULL, 0};
