/*
 * pumma_tn.c -- C := alpha*A**T*B + beta*C (or A**H), PUMMA section 3.3
 * (Figs. 9-13).
 *
 * A (K x M) and B (K x N) share their row distribution, so every process
 * holds matching K-slices of both. Q stages: in stage s grid column q holds
 * the A slab that started in column c = (q + s) mod Q (A rolls left). Each
 * process multiplies op(its A slab) by its B: a partial product of the rows
 * of C in that slab. Summed over the grid column it is the C block row
 * piece, which lands on the grid row owning those rows of C. The slab is
 * presorted by that owner, so the product for one destination row is one
 * GEMM and one reduce; reduces stay in flight while the next products are
 * computed (asynchronous accumulation), and memory stays bounded by the
 * pipeline depth instead of a whole stage of partial products. Every
 * element of C is written once by its landing sum (C := beta*C + sum), or
 * first by my own product when it goes into C directly: BETA needs no pass
 * of its own.
 *
 * Needs: B's rows distributed exactly like A's rows, B's columns like C's
 * columns, and A's columns blocked like C's rows.
 *
 * nt (A*B**T, pumma_nt.c) is C**T = B**T*A**T: this computation on the
 * transposed grid with B**T for A and A**T for B (the operand swap,
 * pumma_problem_transpose), `nt` set. Only the orientation in which the
 * arrays are stored differs, and the engine keeps to it rather than copy
 * anything transposed: the rolled slab is B's rows as they are stored
 * (grouped rows, so the caller's B still serves in place), the local
 * multiply is the stored product A * op(B's slab rows)**T, a product's
 * pieces are C's stored columns, and sums land as columns.
 */
#include <stdlib.h>

#include "pumma_algo.h"

enum { DEPTH = 2 };

int pumma_tn_handles(char ta, char tb, int nt)
{
    const char tr = nt ? tb : ta, other = nt ? ta : tb;
    return tr != 'N' && other == 'N';
}

static void align(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
    want->c.row = pumma_dist_owned(&have->c.row);
    want->c.col = pumma_dist_owned(&have->c.col);
    want->b.col = want->c.col;
    pumma_dist_t am = pumma_dist_owned(&have->a.col);
    if (!pumma_dist_same_blocks(&am, &want->c.row)) {
        am.ib = want->c.row.ib;
        am.b = want->c.row.b;
    }
    want->a.col = am;
    int a_moves = !pumma_dist_same(&have->a.col, &am) || have->a.row.src < 0;
    int b_moves = !pumma_dist_same(&have->b.col, &want->b.col);
    pumma_dist_t k = pumma_dist_owned(&have->a.row);
    if (a_moves && !b_moves) k = pumma_dist_owned(&have->b.row);
    want->a.row = want->b.row = k;
}

void pumma_tn_align(const pumma_problem_t *have, pumma_problem_t *want,
                    int nt)
{
    if (nt)
        pumma_align_transposed(have, want, align);
    else
        align(have, want);
}

/* A sum lands in its group's rows of C (tn), or in its columns (nt: the
 * rows of C**T as stored). */
static void land_rows(pumma_rpipe_t *rp, pumma_rslot_t *s)
{
    const pumma_problem_t *p = rp->p;
    pumma_scatter_add_rows(p->t, rp->gc, s->grp, s->cols, s->sum, s->rows,
                           s->in_c ? p->t->one : p->beta,
                           pumma_at(p->t, p->c.data, 0, s->at, p->c.ld),
                           p->c.ld);
}

static void land_cols(pumma_rpipe_t *rp, pumma_rslot_t *s)
{
    const pumma_problem_t *p = rp->p;
    pumma_scatter_add_cols(p->t, rp->gc, s->grp, s->at, s->cols, s->rows,
                           s->sum, s->rows, s->in_c ? p->t->one : p->beta,
                           p->c.data, p->c.ld);
}

static int progress(void *ctx) { return pumma_rpipe_progress(ctx); }

/* The leading dimension of the slab that started in grid column c, as
 * stored: K's count (tn), or the slab's own (nt: its rows of B). */
static int slab_ld(const pumma_problem_t *p, int nt, int kloc, int c)
{
    const int n = nt ? pumma_dist_count(&p->a.col, c) : kloc;
    return n > 0 ? n : 1;
}

/* A slot's partial product: the slab's group at `off` (slab, ld), the
 * slot's piece of it (at, cols), into C at (row0, at) when in_c. tn:
 * op(group)**T * B's columns; nt: A * op(the group's rows)**T. */
static void multiply(pumma_rpipe_t *rp, int nt, const pumma_rslot_t *sl,
                     const char *slab, int ld, int off, int kloc, int row0)
{
    const pumma_problem_t *p = rp->p;
    const pumma_type_t *t = p->t;
    const void *beta = sl->in_c ? p->beta : t->zero;
    const int ldd = sl->in_c ? p->c.ld : sl->rows;
    if (nt)
        pumma_local_gemm(p, 'N', p->transa, sl->rows, sl->cols, kloc, p->alpha,
                         p->b.data, p->b.ld,
                         pumma_at(t, slab, off + sl->at, 0, ld), ld, beta,
                         sl->in_c ? pumma_at(t, p->c.data, 0, row0 + sl->at,
                                             p->c.ld)
                                  : sl->part,
                         ldd, progress, rp);
    else
        pumma_local_gemm(p, p->transa, 'N', sl->rows, sl->cols, kloc, p->alpha,
                         pumma_at(t, slab, 0, off, ld), ld,
                         pumma_at(t, p->b.data, 0, sl->at, p->b.ld), p->b.ld,
                         beta,
                         sl->in_c ? pumma_at(t, p->c.data, row0, sl->at,
                                             p->c.ld)
                                  : sl->part,
                         ldd, progress, rp);
}

/* One stage's products, the slab `acur` (ld) having started in grid
 * column c: per destination grid row r, in pieces, each summed onto r by
 * the pipeline. A piece is some of the product's columns as stored: C's
 * columns (tn), or the group's (nt). */
static int products(pumma_rpipe_t *rp, int nt, const pumma_groups_t *ga,
                    const pumma_groups_t *gc, int c, const char *acur,
                    int ld, int kloc, int nloc, int piece)
{
    const pumma_grid_t *g = rp->p->g;
    for (int r = 0; r < g->nprow && nloc > 0; r++) {
        int mr = ga->cnt[r], row0;
        if (mr == 0) continue;
        /* My own rows of C, when they are one block of it, take my
         * product directly: no buffer, and only the others' sum to add. */
        const int in_c = r == g->myrow && pumma_groups_contiguous(gc, c, &row0);
        const int width = nt ? mr : nloc;
        for (int j0 = 0; j0 < width; j0 += piece) {
            pumma_rslot_t *sl;
            int rc = pumma_rpipe_slot(rp, &sl);
            if (rc) return rc;
            sl->grp = c;
            sl->rows = nt ? nloc : mr;
            sl->cols = width - j0 < piece ? width - j0 : piece;
            sl->at = j0;
            sl->in_c = in_c;
            multiply(rp, nt, sl, acur, ld, ga->off[r], kloc, row0);
            if ((rc = pumma_rpipe_post(rp, sl, r, g->col, PUMMA_TAG_REDUCE)))
                return rc;
        }
    }
    return PUMMA_OK;
}

static int engine(const pumma_problem_t *p, int nt)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int P = g->nprow, Q = g->npcol, me_r = g->myrow, me_c = g->mycol;
    const pumma_dist_t *Am = &p->a.col, *Cm = &p->c.row;
    const int nloc = pumma_view_nloc(&p->c, me_c);
    const int kloc = pumma_view_mloc(&p->a, me_r);
    int rc = PUMMA_OK;
    pumma_groups_t ga = {0}, gc = {0};
    pumma_rpipe_t rp = {0};
    char *abuf[2] = {NULL, NULL};

    /* Largest slab, and largest partial product (one destination row). */
    int mmax = 0, chunk = 0;
    for (int c = 0; c < Q; c++) {
        int mc = pumma_dist_count(Am, c);
        if (mc > mmax) mmax = mc;
        if ((rc = pumma_groups_build(Am, c, Cm, &ga))) goto out;
        for (int r = 0; r < P; r++)
            if (ga.cnt[r] > chunk) chunk = ga.cnt[r];
        pumma_groups_free(&ga);
    }
    /* Presort my A slab by the grid row owning each C row (or use the
     * caller's A when that is its own order and it can be sent as it is);
     * group my C rows by the grid column whose slab computes them. */
    if ((rc = pumma_groups_build(Am, me_c, Cm, &ga))) goto out;
    const int srows = nt ? pumma_dist_count(Am, me_c) : kloc;
    const int inplace = pumma_groups_in_order(&ga) &&
                        (Q == 1 || p->a.ld == srows || srows == 0);
    const int nabuf = Q == 1 ? !inplace : (inplace && Q == 2 ? 1 : 2);
    size_t slab = (size_t)kloc * (size_t)mmax * t->size;
    for (int i = 0; i < nabuf; i++)
        if (slab && !(abuf[i] = pumma_malloc(slab))) { rc = PUMMA_ENOMEM; goto out; }
    char *acur = abuf[0];
    int ld = slab_ld(p, nt, kloc, me_c);
    if (inplace) {
        acur = p->a.data;
        ld = p->a.ld;
    } else if (nt) {
        pumma_presort_rows(t, 'N', &ga, kloc, p->a.data, p->a.ld, acur, ld);
    } else {
        pumma_presort_cols(t, 'N', 0, &ga, kloc, p->a.data, p->a.ld, acur, ld);
    }
    int next_buf = inplace ? 0 : 1;
    pumma_groups_free(&ga);
    const int piece = nt ? pumma_rpipe_piece(p, chunk, nloc)
                         : pumma_rpipe_piece(p, nloc, chunk);
    if ((rc = pumma_rpipe_init(&rp, p, DEPTH,
                               (size_t)(nt ? nloc : chunk) * piece)))
        goto out;
    if ((rc = pumma_groups_build(Cm, me_r, Am, &gc))) goto out;
    rp.land = nt ? land_cols : land_rows;
    rp.gc = &gc;
    rp.me = me_r;

    for (int s = 0; s < Q; s++) {
        const int c = (me_c + s) % Q;
        pumma_shift_t roll;
        const int rolling = (Q > 1 && s < Q - 1);
        char *anext = rolling ? abuf[next_buf] : NULL;
        if (rolling &&
            (rc = pumma_roll_start(p, &roll, acur,
                                   (int64_t)kloc * pumma_dist_count(Am, c),
                                   anext,
                                   (int64_t)kloc *
                                       pumma_dist_count(Am, (c + 1) % Q),
                                   (me_c - 1 + Q) % Q, (me_c + 1) % Q,
                                   g->row, PUMMA_TAG_ROLL)))
            goto out;
        rp.roll = rolling ? &roll : NULL;
        if ((rc = pumma_groups_build(Am, c, Cm, &ga))) goto out;
        if ((rc = products(&rp, nt, &ga, &gc, c, acur, ld, kloc, nloc, piece)))
            goto out;
        pumma_groups_free(&ga);
        if (rolling) {
            rp.roll = NULL;
            if ((rc = pumma_roll_wait(p, &roll))) goto out;
            acur = anext;
            ld = slab_ld(p, nt, kloc, (c + 1) % Q);
            next_buf = (next_buf + 1) % nabuf;
        }
    }
    rc = pumma_rpipe_drain(&rp);
out:
    pumma_groups_free(&ga);
    pumma_groups_free(&gc);
    pumma_rpipe_free(&rp);
    pumma_free(abuf[0]);
    pumma_free(abuf[1]);
    return rc;
}

int pumma_tn_run(const pumma_problem_t *p, int nt)
{
    if (!nt) return engine(p, 0);
    pumma_problem_t q;
    pumma_grid_t g;
    pumma_problem_transpose(p, &q, &g);
    return engine(&q, 1);
}

/* Q stages; in each, P products of M/(QP) x N/Q with k = K/P (nt: the
 * same on the transposed problem). */
double pumma_tn_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                     int nt)
{
    pumma_problem_t q;
    pumma_grid_t g;
    if (nt) {
        pumma_problem_transpose(p, &q, &g);
        p = &q;
    }
    const int P = p->g->nprow, Q = p->g->npcol;
    /* the busiest process's sizes: A's slab, C's columns, K */
    const double slab = (double)pumma_dist_maxcount(&p->a.col);
    const double nloc = (double)pumma_dist_maxcount(&p->c.col);
    const double kloc = (double)pumma_dist_maxcount(&p->a.row);
    /* (each in the order of operations it always had: the planner
     * compares costs to the last bit) */
    const double area = nt ? nloc * slab / P : slab / P * nloc;
    return pumma_rpipe_cost(p, mo, Q, P, area, kloc,
                            kloc * slab * p->t->size);
}

/* Sums down the grid columns, A rolled along the rows (nt: sums along the
 * rows, B rolled up the columns). */
unsigned pumma_tn_uses(const pumma_problem_t *p, int nt)
{
    const int R = nt ? p->g->npcol : p->g->nprow;
    const int S = nt ? p->g->nprow : p->g->npcol;
    return (R > 1 ? PUMMA_USES_REDUCE : 0u) | (S > 1 ? PUMMA_USES_SHIFT : 0u);
}

/* A's slabs (two while one rolls; on one grid column one, or none when A
 * needs no presorting), and the reduce pipeline's slots: a destination
 * row's product, or its piece (nt: all as on the transposed problem). */
size_t pumma_tn_workspace(const pumma_problem_t *p, int nt)
{
    pumma_problem_t q;
    pumma_grid_t g;
    if (nt) {
        pumma_problem_transpose(p, &q, &g);
        p = &q;
    }
    const int kloc = pumma_dist_maxcount(&p->a.row);
    const int mmax = pumma_dist_maxcount(&p->a.col);
    const int nloc = pumma_dist_maxcount(&p->c.col);
    const int crow = pumma_dist_maxcount(&p->c.row);
    const int chunk = mmax < crow ? mmax : crow;
    const size_t nabuf =
        p->g->npcol > 1 ? 2 : !pumma_groups_sorted_at(&p->a.col, 0, &p->c.row);
    const int piece = nt ? pumma_rpipe_piece(p, chunk, nloc)
                         : pumma_rpipe_piece(p, nloc, chunk);
    return nabuf * (size_t)kloc * (size_t)mmax * p->t->size +
           pumma_rpipe_workspace(p, DEPTH, p->g->nprow,
                                 (size_t)(nt ? nloc : chunk) * (size_t)piece);
}

PUMMA_ALGO_ROW(tn, "tn",
               "A**T*B: partial products summed down grid columns, A rolled",
               pumma_tn, 0);
