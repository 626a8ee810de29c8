/*
 * pumma_het.c -- C := alpha*op(A)*op(B) + beta*C on a heterogeneous
 * layout (A, B, C N x N, all three on the same layout): the schedules of
 * Becker and Lastovetsky.
 *
 * Process p computes its own region of C. For a rectangle of rows I and
 * columns J it needs op(A)(I, :) and op(B)(:, J); it gathers what it does
 * not hold (two remaps, A's and B's, in flight together), then multiplies.
 * The volume is what the layout makes it: N^2 + X + Y for the 3-process
 * rectangular, 2N(a + b) for square-corner, in which the two slower
 * processes need only data of the fastest (its eight messages: A's and
 * B's, both ways, between the fastest and each slower one).
 *
 *   het           gather everything, then multiply.
 *   het-overlap   first multiply the part of the region for which the
 *                 process holds whole rows of op(A) and whole columns of
 *                 op(B) (square-corner: the fastest's middle block, C1 of
 *                 the paper's Fig. 6) while the data moves; the remaps
 *                 are advanced between the multiply's panels; then the
 *                 rest.
 *
 * With PUMMA_TOPO_LINEAR the remaps relay messages between processes that
 * are not neighbours on the layout's line (fastest in the middle).
 */
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_remap.h"

typedef struct het_ctx {
    pumma_remap_t *ra, *rb;
    int done_a, done_b;
    double t0, t_comm;       /* when the gathers were complete */
} het_ctx_t;

static double last_comm = 0, last_total = 0;

int pumma_het_schedule(const char *name)
{
    return strcmp(name, "het") == 0 || strcmp(name, "het-overlap") == 0;
}

/* Times of this process's last heterogeneous multiply: seconds until its
 * gathers were complete (communication), and for the whole call. */
void pumma_het_times(double *comm, double *total)
{
    *comm = last_comm;
    *total = last_total;
}

static void progress(void *vctx)
{
    het_ctx_t *x = vctx;
    if (!x->done_a) pumma_remap_test(x->ra, &x->done_a);
    if (!x->done_b) pumma_remap_test(x->rb, &x->done_b);
    if (x->done_a && x->done_b && x->t_comm == 0)
        x->t_comm = MPI_Wtime() - x->t0;
}

/*
 * The indices whose whole line process p holds: rows (dim 0) of the layout
 * that p's region covers from column 0 to n, or columns (dim 1) covered
 * from row 0 to m.
 */
static int full_lines(const pumma_layout_t *L, int p, int dim,
                      pumma_ilist_t *out)
{
    const int lo0 = L->first[p], hi0 = L->first[p + 1];
    const int len = dim ? L->m : L->n;
    /* Breakpoints along dim, then test each piece between them. */
    int nb = 0;
    int *bp = malloc(sizeof(int) * (size_t)(2 * (hi0 - lo0) + 2));
    pumma_ivl_t *v = malloc(sizeof(pumma_ivl_t) * (size_t)(2 * (hi0 - lo0) + 1));
    out->n = 0;
    out->v = NULL;
    if (!bp || !v) {
        free(bp);
        free(v);
        return PUMMA_ENOMEM;
    }
    for (int r = lo0; r < hi0; r++) {
        bp[nb++] = dim ? L->rect[r].c0 : L->rect[r].r0;
        bp[nb++] = dim ? L->rect[r].c1 : L->rect[r].r1;
    }
    int nv = 0;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++) {
            if (bp[j] <= bp[i]) continue;
            /* piece [bp[i], next breakpoint above it) */
            int nxt = bp[j];
            for (int k = 0; k < nb; k++)
                if (bp[k] > bp[i] && bp[k] < nxt) nxt = bp[k];
            long cover = 0;
            for (int r = lo0; r < hi0; r++) {
                const pumma_rect_t *x = &L->rect[r];
                int a = dim ? x->c0 : x->r0, b = dim ? x->c1 : x->r1;
                if (a <= bp[i] && nxt <= b) cover += dim ? x->r1 - x->r0
                                                         : x->c1 - x->c0;
            }
            if (cover == len) v[nv++] = (pumma_ivl_t){bp[i], nxt};
            break;
        }
    int rc = pumma_ilist_union(v, nv, out);
    free(bp);
    free(v);
    return rc;
}

/* The rows (dim 0) or columns (dim 1) p's region spans. */
static int spans(const pumma_layout_t *L, int p, int dim, pumma_ilist_t *out)
{
    int cnt = L->first[p + 1] - L->first[p];
    pumma_ivl_t *v = malloc(sizeof(pumma_ivl_t) * (size_t)(cnt > 0 ? cnt : 1));
    if (!v) return PUMMA_ENOMEM;
    for (int k = 0; k < cnt; k++) {
        const pumma_rect_t *x = &L->rect[L->first[p] + k];
        v[k] = dim ? (pumma_ivl_t){x->c0, x->c1} : (pumma_ivl_t){x->r0, x->r1};
    }
    int rc = pumma_ilist_union(v, cnt, out);
    free(v);
    return rc;
}

/* [lo, hi) minus the list: the pieces, appended to out (room enough). */
static void minus(int lo, int hi, const pumma_ilist_t *l, pumma_ilist_t *out)
{
    int at = lo;
    for (int i = 0; i < l->n && at < hi; i++) {
        if (l->v[i].hi <= at) continue;
        if (l->v[i].lo >= hi) break;
        if (l->v[i].lo > at) out->v[out->n++] = (pumma_ivl_t){at, l->v[i].lo};
        at = l->v[i].hi;
    }
    if (at < hi) out->v[out->n++] = (pumma_ivl_t){at, hi};
}

/* [lo, hi) ∩ the list, appended to out. */
static void within(int lo, int hi, const pumma_ilist_t *l, pumma_ilist_t *out)
{
    for (int i = 0; i < l->n; i++) {
        int a = l->v[i].lo > lo ? l->v[i].lo : lo;
        int b = l->v[i].hi < hi ? l->v[i].hi : hi;
        if (a < b) out->v[out->n++] = (pumma_ivl_t){a, b};
    }
}

typedef struct operand {
    const char *data;        /* this process's storage (layout box or panel) */
    int ld;
    char trans;
    const pumma_ilist_t *idx;   /* panel: the packed op-rows (A) / op-cols (B);
                                   NULL: layout storage at box (r0, c0) */
    int r0, c0;
} operand_t;

/* Address of op(X)(i, 0) (A) or op(X)(0, j) (B) for op index g. */
static const char *op_line(const pumma_type_t *t, const operand_t *x, int g,
                           int is_b)
{
    int pos = x->idx ? pumma_ilist_pos(x->idx, g) : 0;
    /* A: op(A)(g, :) is row g of A ('N') or column g ('T'/'C');
     * B: op(B)(:, g) is column g of B ('N') or row g. */
    int along_rows = is_b ? (x->trans != 'N') : (x->trans == 'N');
    if (x->idx)
        return along_rows ? pumma_at(t, x->data, pos, 0, x->ld)
                          : pumma_at(t, x->data, 0, pos, x->ld);
    return along_rows ? pumma_at(t, x->data, g - x->r0, 0 - x->c0, x->ld)
                      : pumma_at(t, x->data, 0 - x->r0, g - x->c0, x->ld);
}

static void block(const pumma_problem_t *pb, const operand_t *a,
                  const operand_t *b, int i0, int i1, int j0, int j1, int k,
                  char *c, const pumma_rect_t *cbox, int ldc,
                  pumma_progress_fn prog, void *ctx)
{
    const pumma_type_t *t = pb->t;
    pumma_local_gemm(pb, a->trans, b->trans, i1 - i0, j1 - j0, k, pb->alpha,
                     op_line(t, a, i0, 0), a->ld, op_line(t, b, j0, 1), b->ld,
                     pb->beta, pumma_at(t, c, i0 - cbox->r0, j0 - cbox->c0, ldc),
                     ldc, prog, ctx);
}

int pumma_het_run(const pumma_problem_t *pb, const pumma_layout_t *L,
                  const char *a, int lda, const char *b, int ldb, char *c,
                  int ldc, int overlap, int topo)
{
    const pumma_type_t *t = pb->t;
    const pumma_grid_t *g = pb->g;
    const int np = L->np, me = g->myrow * g->npcol + g->mycol, n = L->n;
    const char ta = pb->transa, tb = pb->transb;
    const pumma_rect_t *box = L->box;
    int rc = PUMMA_OK;
    double t0 = MPI_Wtime();

    /* What every process needs: op(A) rows and op(B) columns it spans. */
    pumma_ilist_t *rows = calloc((size_t)np, sizeof(pumma_ilist_t));
    pumma_ilist_t *cols = calloc((size_t)np, sizeof(pumma_ilist_t));
    pumma_ilist_t all = {0};
    pumma_ilist_t fr = {0}, fc = {0};
    char *pa = NULL, *pbuf = NULL;
    het_ctx_t x = {0};
    pumma_ilist_t *allv = malloc(sizeof(pumma_ilist_t) * (size_t)np);
    if (!rows || !cols || !allv) { rc = PUMMA_ENOMEM; goto out; }
    for (int p = 0; p < np && !rc; p++)
        if (!(rc = spans(L, p, 0, &rows[p]))) rc = spans(L, p, 1, &cols[p]);
    pumma_ivl_t whole = {0, n};
    if (rc || (rc = pumma_ilist_union(&whole, 1, &all))) goto out;
    for (int p = 0; p < np; p++) allv[p] = all;

    /* Panels: A's rows (or columns, transposed) I need by all of K; B's
     * columns (or rows) by all of K. */
    pumma_side_t sa = {0}, sb = {0}, pa_side = {0}, pb_side = {0};
    sa.kind = sb.kind = PUMMA_SIDE_LAYOUT;
    sa.m = sa.n = sb.m = sb.n = n;
    sa.nprow = sb.nprow = g->nprow;
    sa.npcol = sb.npcol = g->npcol;
    sa.lay = sb.lay = L;
    sa.data = (char *)a;
    sa.ld = lda;
    sb.data = (char *)b;
    sb.ld = ldb;
    pa_side = sa;
    pb_side = sb;
    pa_side.kind = pb_side.kind = PUMMA_SIDE_PANEL;
    pa_side.prow = ta == 'N' ? rows : allv;
    pa_side.pcol = ta == 'N' ? allv : rows;
    pb_side.prow = tb == 'N' ? allv : cols;
    pb_side.pcol = tb == 'N' ? cols : allv;
    long ar = pumma_ilist_len(&pa_side.prow[me]), ac = pumma_ilist_len(&pa_side.pcol[me]);
    long br = pumma_ilist_len(&pb_side.prow[me]), bc = pumma_ilist_len(&pb_side.pcol[me]);
    pa = pumma_malloc((size_t)(ar * ac) * t->size);
    pbuf = pumma_malloc((size_t)(br * bc) * t->size);
    if ((ar * ac > 0 && !pa) || (br * bc > 0 && !pbuf)) { rc = PUMMA_ENOMEM; goto out; }
    pa_side.data = pa;
    pa_side.ld = ar > 0 ? (int)ar : 1;
    pb_side.data = pbuf;
    pb_side.ld = br > 0 ? (int)br : 1;

    x.t0 = t0;
    if ((rc = pumma_remap_start(t, g, &sa, &pa_side, topo, L, 0, &x.ra)) ||
        (rc = pumma_remap_start(t, g, &sb, &pb_side, topo, L, 1, &x.rb)))
        goto out;

    operand_t opa_loc = {a, lda, ta, NULL, box[me].r0, box[me].c0};
    operand_t opb_loc = {b, ldb, tb, NULL, box[me].r0, box[me].c0};
    operand_t opa = {pa, pa_side.ld, ta, &rows[me], 0, 0};
    operand_t opb = {pbuf, pb_side.ld, tb, &cols[me], 0, 0};

    /* The part I can do alone: rows of op(A) and columns of op(B) whole. */
    if (overlap) {
        if ((rc = full_lines(L, me, ta == 'N' ? 0 : 1, &fr)) ||
            (rc = full_lines(L, me, tb == 'N' ? 1 : 0, &fc)))
            goto out3;
    }
    for (int r = L->first[me]; r < L->first[me + 1]; r++) {
        const pumma_rect_t *q = &L->rect[r];
        pumma_ivl_t bufr[64], bufc[64];
        pumma_ilist_t R = {0, bufr}, C = {0, bufc};
        if (fr.n > 30 || fc.n > 30) { rc = PUMMA_ENOMEM; goto out3; }
        within(q->r0, q->r1, &fr, &R);
        within(q->c0, q->c1, &fc, &C);
        for (int i = 0; i < R.n; i++)
            for (int j = 0; j < C.n; j++)
                block(pb, &opa_loc, &opb_loc, R.v[i].lo, R.v[i].hi,
                      C.v[j].lo, C.v[j].hi, n, c, &box[me], ldc, progress, &x);
    }
    double tw = pumma_stats_clock();
    rc = pumma_remap_wait(x.ra);             /* completes and frees */
    int rc2 = pumma_remap_wait(x.rb);
    if (!rc) rc = rc2;
    x.ra = x.rb = NULL;
    pumma_stats_comm(tw);
    if (x.t_comm == 0) x.t_comm = MPI_Wtime() - t0;
    if (rc) goto out3;

    /* The rest of my region from the panels. */
    for (int r = L->first[me]; r < L->first[me + 1]; r++) {
        const pumma_rect_t *q = &L->rect[r];
        pumma_ivl_t b1[64], b2[64], b3[64];
        pumma_ilist_t notr = {0, b1}, isr = {0, b2}, notc = {0, b3};
        minus(q->r0, q->r1, &fr, &notr);       /* rows not (all) done */
        within(q->r0, q->r1, &fr, &isr);       /* rows done for some cols */
        minus(q->c0, q->c1, &fc, &notc);
        for (int i = 0; i < notr.n; i++)
            block(pb, &opa, &opb, notr.v[i].lo, notr.v[i].hi, q->c0, q->c1, n,
                  c, &box[me], ldc, NULL, NULL);
        for (int i = 0; i < isr.n; i++)
            for (int j = 0; j < notc.n; j++)
                block(pb, &opa, &opb, isr.v[i].lo, isr.v[i].hi, notc.v[j].lo,
                      notc.v[j].hi, n, c, &box[me], ldc, NULL, NULL);
    }
out3:
    if (x.ra) pumma_remap_wait(x.ra);
    if (x.rb) pumma_remap_wait(x.rb);
out:
    free(allv);
    pumma_free(pa);
    pumma_free(pbuf);
    if (rows)
        for (int p = 0; p < np; p++) pumma_ilist_free(&rows[p]);
    if (cols)
        for (int p = 0; p < np; p++) pumma_ilist_free(&cols[p]);
    free(rows);
    free(cols);
    pumma_ilist_free(&all);
    pumma_ilist_free(&fr);
    pumma_ilist_free(&fc);
    last_comm = x.t_comm;
    last_total = MPI_Wtime() - t0;
    return rc;
}
