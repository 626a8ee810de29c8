/*
 * pumma_het.c -- C := alpha*op(A)*op(B) + beta*C on a heterogeneous
 * layout (A, B, C N x N, all three on the same layout): the schedules of
 * Becker and Lastovetsky, and a pipelined refinement of their overlap.
 *
 * Process p computes its own region of C. For its rows I and columns J it
 * needs op(A)(I, :) and op(B)(:, J): two panels, filled from its own
 * storage and by remaps of what others hold (the volume is what the
 * layout makes it: N^2 + X + Y for the 3-process rectangular, 2N(a + b)
 * for square-corner, whose two slower processes exchange nothing).
 *
 *   het           gather both panels, then multiply (the seed's
 *                 "rectangular" and "square-corner without overlap").
 *   het-overlap   first every partial product whose data the process
 *                 holds itself -- for square-corner's fastest process this
 *                 contains the whole of C1 (the paper's Fig. 6), computed
 *                 while data moves, as in the seed -- and then the rest, in
 *                 slices of K: the panels are gathered slice by slice (two
 *                 in flight) and each slice is multiplied as soon as it is
 *                 in, so the slower processes compute while their data is
 *                 still arriving. The seed overlaps only C1; this also
 *                 hides the slower processes' transfers, which are the
 *                 critical path when the fastest one has little left to do.
 *
 * C is scaled by beta first; every product then adds into it. With
 * PUMMA_TOPO_LINEAR the remaps relay messages between processes that are
 * not neighbours on the layout's line (fastest in the middle).
 */
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_remap.h"

static double last_comm = 0, last_total = 0;

int pumma_het_schedule(const char *name)
{
    return strcmp(name, "het") == 0 || strcmp(name, "het-overlap") == 0;
}

void pumma_het_times(double *comm, double *total)
{
    *comm = last_comm;
    *total = last_total;
}

/* ----------------------------------------------------------- the region */

/*
 * Pieces of the index range of my region's rows and columns (cut at every
 * edge of my rectangles, in both dimensions, so they split my rows of C and
 * my columns of C alike) and, for each, the indices I hold along it: dim 0,
 * the columns of those rows that are mine; dim 1, the rows of those
 * columns. A piece along which I hold nothing has an empty list.
 */
typedef struct piece {
    int lo, hi;
    pumma_ilist_t mine;
} piece_t;

static int pieces(const pumma_layout_t *L, int p, int dim, piece_t **out,
                  int *nout)
{
    const int lo0 = L->first[p], hi0 = L->first[p + 1], cnt = hi0 - lo0;
    int *bp = malloc(sizeof(int) * (size_t)(4 * cnt + 1));
    pumma_ivl_t *v = malloc(sizeof(pumma_ivl_t) * (size_t)(cnt + 1));
    piece_t *pc = calloc((size_t)(4 * cnt + 1), sizeof(piece_t));
    int nb = 0, np = 0, rc = PUMMA_OK;
    if (!bp || !v || !pc) { rc = PUMMA_ENOMEM; goto out; }
    for (int r = lo0; r < hi0; r++) {
        bp[nb++] = L->rect[r].r0;
        bp[nb++] = L->rect[r].r1;
        bp[nb++] = L->rect[r].c0;
        bp[nb++] = L->rect[r].c1;
    }
    for (int i = 1; i < nb; i++)            /* sort breakpoints */
        for (int j = i; j > 0 && bp[j] < bp[j - 1]; j--) {
            int x = bp[j]; bp[j] = bp[j - 1]; bp[j - 1] = x;
        }
    for (int i = 0; i + 1 < nb; i++) {
        if (bp[i] == bp[i + 1]) continue;
        int nv = 0;
        for (int r = lo0; r < hi0; r++) {
            const pumma_rect_t *x = &L->rect[r];
            int a = dim ? x->c0 : x->r0, b = dim ? x->c1 : x->r1;
            if (a <= bp[i] && bp[i + 1] <= b)
                v[nv++] = dim ? (pumma_ivl_t){x->r0, x->r1}
                              : (pumma_ivl_t){x->c0, x->c1};
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
    const pumma_layout_t *L;
    const pumma_grid_t *g;
    int n, np, me, topo, nslice, next, inflight;
    slice_t *sl;
    pumma_ilist_t *rows, *cols;       /* every process's op rows / op cols */
    pumma_ilist_t *kl;                /* [0, k1 - k0) for every process */
    pumma_ivl_t kv;
    const char *a, *b;
    int lda, ldb;
    char *pa, *pbp;                   /* the panels */
    int lpa, lpb;
    int rc;
    double t0, t_comm;
} het_t;

/* The sides of the remaps of K's slice [k0, k1): op(A)'s columns and
 * op(B)'s rows k0..k1-1, from the layout into the panels. */
static void sides(het_t *h, int k0, int k1, pumma_side_t *sa,
                  pumma_side_t *da, pumma_side_t *sb, pumma_side_t *db)
{
    const pumma_problem_t *pb = h->pb;
    const pumma_type_t *t = pb->t;
    const int kc = k1 - k0;
    h->kv = (pumma_ivl_t){0, kc};
    for (int p = 0; p < h->np; p++) {
        h->kl[p].n = 1;
        h->kl[p].v = &h->kv;
    }
    memset(sa, 0, sizeof *sa);
    memset(da, 0, sizeof *da);
    memset(sb, 0, sizeof *sb);
    memset(db, 0, sizeof *db);
    sa->kind = sb->kind = PUMMA_SIDE_LAYOUT;
    da->kind = db->kind = PUMMA_SIDE_PANEL;
    sa->nprow = sb->nprow = da->nprow = db->nprow = h->g->nprow;
    sa->npcol = sb->npcol = da->npcol = db->npcol = h->g->npcol;
    sa->lay = sb->lay = h->L;
    sa->data = (char *)h->a;
    sa->ld = h->lda;
    sb->data = (char *)h->b;
    sb->ld = h->ldb;
    da->ld = h->lpa;
    db->ld = h->lpb;
    if (pb->transa == 'N') {        /* A(:, k0:k1) -> panel columns k0.. */
        sa->m = h->n; sa->n = kc; sa->j0 = k0;
        da->prow = h->rows; da->pcol = h->kl;
        da->data = pumma_at(t, h->pa, 0, k0, h->lpa);
    } else {                        /* A(k0:k1, :) -> panel rows k0.. */
        sa->m = kc; sa->n = h->n; sa->i0 = k0;
        da->prow = h->kl; da->pcol = h->rows;
        da->data = pumma_at(t, h->pa, k0, 0, h->lpa);
    }
    if (pb->transb == 'N') {        /* B(k0:k1, :) -> panel rows k0.. */
        sb->m = kc; sb->n = h->n; sb->i0 = k0;
        db->prow = h->kl; db->pcol = h->cols;
        db->data = pumma_at(t, h->pbp, k0, 0, h->lpb);
    } else {                        /* B(:, k0:k1) -> panel columns k0.. */
        sb->m = h->n; sb->n = kc; sb->j0 = k0;
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
    int rc = pumma_remap_start(t, h->g, &sa, &da, h->topo, h->L, 2 * s, &x->ra);
    if (!rc) rc = pumma_remap_start(t, h->g, &sb, &db, h->topo, h->L, 2 * s + 1,
                                    &x->rb);
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

/* C(rows r, cols c) += alpha * op(A)(r, k) * op(B)(k, c) over the
 * intervals of ks: from the panels, or (local) straight from my own
 * storage of A and B, when the caller knows I hold those entries (A, B and
 * C share the layout, so one box locates all three). */
static void product(het_t *h, const pumma_ivl_t *r, const pumma_ivl_t *c,
                    const pumma_ilist_t *ks, int local, char *cdat, int ldc,
                    const pumma_rect_t *box, int with_progress)
{
    const pumma_problem_t *pb = h->pb;
    const pumma_type_t *t = pb->t;
    const char ta = pb->transa, tb = pb->transb;
    int pi = pumma_ilist_pos(&h->rows[h->me], r->lo);
    int pj = pumma_ilist_pos(&h->cols[h->me], c->lo);
    const int la = local ? h->lda : h->lpa, lb = local ? h->ldb : h->lpb;
    for (int q = 0; q < ks->n; q++) {
        int k0 = ks->v[q].lo, kk = ks->v[q].hi - k0;
        const char *ap, *bp;
        if (local) {
            int ai = r->lo - box->r0, ak = k0 - box->c0;   /* 'N' */
            if (ta != 'N') { ai = k0 - box->r0; ak = r->lo - box->c0; }
            int bk = k0 - box->r0, bj = c->lo - box->c0;   /* 'N' */
            if (tb != 'N') { bk = c->lo - box->r0; bj = k0 - box->c0; }
            ap = pumma_at(t, h->a, ai, ak, la);
            bp = pumma_at(t, h->b, bk, bj, lb);
        } else {
            ap = ta == 'N' ? pumma_at(t, h->pa, pi, k0, la)
                           : pumma_at(t, h->pa, k0, pi, la);
            bp = tb == 'N' ? pumma_at(t, h->pbp, k0, pj, lb)
                           : pumma_at(t, h->pbp, pj, k0, lb);
        }
        pumma_local_gemm(pb, ta, tb, r->hi - r->lo, c->hi - c->lo, kk,
                         pb->alpha, ap, la, bp, lb, t->one,
                         pumma_at(t, cdat, r->lo - box->r0, c->lo - box->c0,
                                  ldc),
                         ldc, with_progress ? progress : NULL, h);
    }
}

/* The block of my rectangle q in row piece ri and column piece cj; 0 when
 * they do not meet. */
static int clip(const pumma_rect_t *q, const piece_t *ri, const piece_t *cj,
                pumma_ivl_t *r, pumma_ivl_t *c)
{
    r->lo = ri->lo > q->r0 ? ri->lo : q->r0;
    r->hi = ri->hi < q->r1 ? ri->hi : q->r1;
    c->lo = cj->lo > q->c0 ? cj->lo : q->c0;
    c->hi = cj->hi < q->c1 ? cj->hi : q->c1;
    return r->lo < r->hi && c->lo < c->hi;
}

void pumma_het_scale(const pumma_type_t *t, const pumma_layout_t *L, int me,
                     const void *beta, char *c, int ldc)
{
    const pumma_rect_t *box = &L->box[me];
    for (int r = L->first[me]; r < L->first[me + 1]; r++) {
        const pumma_rect_t *x = &L->rect[r];
        pumma_local_scale(t, x->r1 - x->r0, x->c1 - x->c0, beta,
                          pumma_at(t, c, x->r0 - box->r0, x->c0 - box->c0, ldc),
                          ldc);
    }
}

int pumma_het_run(const pumma_problem_t *pb, const pumma_layout_t *L,
                  const char *a, int lda, const char *b, int ldb, char *c,
                  int ldc, int overlap, int topo)
{
    const pumma_type_t *t = pb->t;
    const pumma_grid_t *g = pb->g;
    het_t h = {0};
    piece_t *pr = NULL, *pcl = NULL;
    int npr = 0, npc = 0;
    h.pb = pb;
    h.L = L;
    h.g = g;
    h.n = L->n;
    h.np = L->np;
    h.me = g->myrow * g->npcol + g->mycol;
    h.topo = topo;
    h.a = a; h.b = b; h.lda = lda; h.ldb = ldb;
    h.t0 = MPI_Wtime();
    const int n = h.n, me = h.me;
    const pumma_rect_t *box = &L->box[me];

    h.rows = calloc((size_t)h.np, sizeof(pumma_ilist_t));
    h.cols = calloc((size_t)h.np, sizeof(pumma_ilist_t));
    h.kl = calloc((size_t)h.np, sizeof(pumma_ilist_t));
    if (!h.rows || !h.cols || !h.kl) { h.rc = PUMMA_ENOMEM; goto out; }
    for (int p = 0; p < h.np && !h.rc; p++)
        if (!(h.rc = pumma_layout_spans(L, p, 0, &h.rows[p])))
            h.rc = pumma_layout_spans(L, p, 1, &h.cols[p]);
    if (h.rc) goto out;

    /* Panels: op(A)(my rows, :) and op(B)(:, my columns), stored as A and
     * B are (transposed operands keep their orientation). */
    long nr = pumma_ilist_len(&h.rows[me]), nc = pumma_ilist_len(&h.cols[me]);
    h.lpa = pb->transa == 'N' ? (int)nr : n;
    h.lpb = pb->transb == 'N' ? n : (int)nc;
    h.pa = pumma_malloc((size_t)nr * (size_t)n * t->size);
    h.pbp = pumma_malloc((size_t)nc * (size_t)n * t->size);
    if (!h.pa || !h.pbp) { h.rc = PUMMA_ENOMEM; goto out; }

    /* Slices of K: one for het; for het-overlap PUMMA_SLICE, or about
     * eight of at least 128; fewer when the tag space cannot hold two
     * remaps (A and B) per slice. */
    int kc = n;
    if (overlap) {
        const long ids = pumma_remap_ids(g);
        kc = pb->opts && pb->opts->slice > 0 ? pb->opts->slice : (n + 7) / 8;
        if (kc < 128 && !(pb->opts && pb->opts->slice > 0)) kc = 128;
        if (kc > n) kc = n;
        while (2L * ((n + kc - 1) / kc) > ids && kc < n)
            kc = kc > n / 2 ? n : 2 * kc;
    }
    h.nslice = (n + kc - 1) / kc;
    h.inflight = 2;
    h.sl = calloc((size_t)h.nslice, sizeof(slice_t));
    if (!h.sl) { h.rc = PUMMA_ENOMEM; goto out; }
    for (int s = 0; s < h.nslice; s++) {
        h.sl[s].k0 = s * kc;
        h.sl[s].k1 = (s + 1) * kc < n ? (s + 1) * kc : n;
    }

    /* C := beta*C on my region: every product below adds into it. */
    pumma_het_scale(t, L, me, pb->beta, c, ldc);

    /* What I hold along my op(A) rows and op(B) columns. */
    if ((h.rc = pieces(L, me, pb->transa == 'N' ? 0 : 1, &pr, &npr)) ||
        (h.rc = pieces(L, me, pb->transb == 'N' ? 1 : 0, &pcl, &npc)))
        goto out;

    progress(&h);                     /* the first slices start moving */
    if (h.rc) goto out;

    pumma_ilist_t kloc = {0}, krest = {0};
    kloc.v = malloc(sizeof(pumma_ivl_t) * (size_t)(2 * n + 2));
    krest.v = malloc(sizeof(pumma_ivl_t) * (size_t)(2 * n + 2));
    if (!kloc.v || !krest.v) {
        h.rc = PUMMA_ENOMEM;
        goto out2;
    }

    /* Phase 1 (het-overlap): the products of data I hold myself, read
     * where I hold it (the slices' remaps fill the panels later). */
    for (int r = L->first[me]; r < L->first[me + 1] && overlap && !h.rc; r++) {
        const pumma_rect_t *q = &L->rect[r];
        for (int i = 0; i < npr; i++)
            for (int j = 0; j < npc; j++) {
                pumma_ivl_t ri, cj;
                if (!clip(q, &pr[i], &pcl[j], &ri, &cj)) continue;
                pumma_ilist_meet(&pr[i].mine, &pcl[j].mine, &kloc);
                if (kloc.n == 0) continue;
                product(&h, &ri, &cj, &kloc, 1, c, ldc, box, 1);
            }
    }

    /* Phase 2: slice by slice, the rest. */
    for (int s = 0; s < h.nslice && !h.rc; s++) {
        if (slice_wait(&h, s)) break;
        pumma_ilist_t sk = {1, &(pumma_ivl_t){h.sl[s].k0, h.sl[s].k1}};
        for (int r = L->first[me]; r < L->first[me + 1]; r++) {
            const pumma_rect_t *q = &L->rect[r];
            for (int i = 0; i < npr; i++)
                for (int j = 0; j < npc; j++) {
                    pumma_ivl_t ri, cj;
                    if (!clip(q, &pr[i], &pcl[j], &ri, &cj)) continue;
                    if (overlap) {
                        pumma_ilist_meet(&pr[i].mine, &pcl[j].mine, &kloc);
                        pumma_ilist_minus(&sk, &kloc, &krest);
                    } else {
                        krest.n = 1;
                        krest.v[0] = sk.v[0];
                    }
                    if (krest.n)
                        product(&h, &ri, &cj, &krest, 0, c, ldc, box,
                                s + 1 < h.nslice);
                }
        }
    }
    if (h.t_comm == 0) h.t_comm = MPI_Wtime() - h.t0;
out2:
    free(kloc.v);
    free(krest.v);
out:
    /* Slices still in flight after an error: complete them. */
    for (int s = 0; h.sl && s < h.nslice; s++) {
        if (h.sl[s].ra) pumma_remap_wait(h.sl[s].ra);
        if (h.sl[s].rb) pumma_remap_wait(h.sl[s].rb);
    }
    pieces_free(pr, npr);
    pieces_free(pcl, npc);
    pumma_free(h.pa);
    pumma_free(h.pbp);
    for (int p = 0; h.rows && p < h.np; p++) pumma_ilist_free(&h.rows[p]);
    for (int p = 0; h.cols && p < h.np; p++) pumma_ilist_free(&h.cols[p]);
    free(h.rows);
    free(h.cols);
    free(h.kl);
    free(h.sl);
    last_comm = h.t_comm;
    last_total = MPI_Wtime() - h.t0;
    return h.rc;
}
