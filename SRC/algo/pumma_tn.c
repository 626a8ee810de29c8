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
 */
#include <stdlib.h>

#include "pumma_algo.h"

enum { DEPTH = 2 };

static int handles(char ta, char tb) { return ta != 'N' && tb == 'N'; }

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

static void land(pumma_rpipe_t *rp, pumma_rslot_t *s)
{
    const pumma_problem_t *p = rp->p;
    pumma_scatter_add_rows(p->t, rp->gc, s->grp, s->cols, s->sum, s->rows,
                           s->in_c ? p->t->one : p->beta,
                           pumma_at(p->t, p->c.data, 0, s->at, p->c.ld),
                           p->c.ld);
}

static int progress(void *ctx) { return pumma_rpipe_progress(ctx); }

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int P = g->nprow, Q = g->npcol, me_r = g->myrow, me_c = g->mycol;
    const pumma_dist_t *Am = &p->a.col, *Cm = &p->c.row;
    const int nloc = pumma_view_nloc(&p->c, me_c);
    const int kloc = pumma_view_mloc(&p->a, me_r);
    int lda = kloc > 0 ? kloc : 1;
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
    const int inplace = pumma_groups_in_order(&ga) &&
                        (Q == 1 || p->a.ld == kloc || kloc == 0);
    const int nabuf = Q == 1 ? !inplace : (inplace && Q == 2 ? 1 : 2);
    size_t slab = (size_t)lda * (size_t)mmax * t->size;
    for (int i = 0; i < nabuf; i++)
        if (slab && !(abuf[i] = pumma_malloc(slab))) { rc = PUMMA_ENOMEM; goto out; }
    char *acur = abuf[0];
    if (inplace) {
        acur = p->a.data;
        lda = p->a.ld;
    } else {
        pumma_presort_cols(t, 'N', 0, &ga, kloc, p->a.data, p->a.ld, acur,
                           lda);
    }
    int next_buf = inplace ? 0 : 1;
    pumma_groups_free(&ga);
    const int piece = pumma_rpipe_piece(p, nloc, chunk);
    if ((rc = pumma_rpipe_init(&rp, p, DEPTH, (size_t)chunk * piece))) goto out;
    if ((rc = pumma_groups_build(Cm, me_r, Am, &gc))) goto out;
    rp.land = land;
    rp.gc = &gc;
    rp.me = me_r;

    for (int s = 0; s < Q; s++) {
        const int c = (me_c + s) % Q;
        pumma_shift_t roll;
        const int rolling = (Q > 1 && s < Q - 1);
        char *anext = rolling ? abuf[next_buf] : NULL;
        if (rolling &&
            (rc = pumma_shift_start(p, &roll, acur,
                                    (int64_t)kloc * pumma_dist_count(Am, c),
                                    anext,
                                    (int64_t)kloc *
                                        pumma_dist_count(Am, (c + 1) % Q),
                                    (me_c - 1 + Q) % Q, (me_c + 1) % Q,
                                    g->row, PUMMA_TAG_ROLL)))
            goto out;
        rp.roll = rolling ? &roll : NULL;
        if ((rc = pumma_groups_build(Am, c, Cm, &ga))) goto out;
        for (int r = 0; r < P && nloc > 0; r++) {
            int mr = ga.cnt[r], row0;
            if (mr == 0) continue;
            /* My own rows of C, when they are one block of it, take my
             * product directly: no buffer, and only the others' sum to add. */
            const int in_c = r == me_r && pumma_groups_contiguous(&gc, c, &row0);
            for (int j0 = 0; j0 < nloc; j0 += piece) {
                const int jn = nloc - j0 < piece ? nloc - j0 : piece;
                pumma_rslot_t *sl;
                if ((rc = pumma_rpipe_slot(&rp, &sl))) goto out;
                sl->grp = c;
                sl->rows = mr;
                sl->cols = jn;
                sl->at = j0;
                sl->in_c = in_c;
                pumma_local_gemm(p, p->transa, 'N', mr, jn, kloc, p->alpha,
                                 pumma_at(t, acur, 0, ga.off[r], lda), lda,
                                 pumma_at(t, p->b.data, 0, j0, p->b.ld),
                                 p->b.ld, in_c ? p->beta : t->zero,
                                 in_c ? pumma_at(t, p->c.data, row0, j0,
                                                 p->c.ld)
                                      : sl->part,
                                 in_c ? p->c.ld : mr, progress, &rp);
                if ((rc = pumma_rpipe_post(&rp, sl, r, g->col, PUMMA_TAG_REDUCE)))
                    goto out;
            }
        }
        pumma_groups_free(&ga);
        if (rolling) {
            rp.roll = NULL;
            if ((rc = pumma_shift_wait(p, &roll))) goto out;
            acur = anext;
            lda = kloc > 0 ? kloc : 1;
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

/* Q stages; in each, P products of M/(QP) x N/Q with k = K/P. */
static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    const int P = p->g->nprow, Q = p->g->npcol;
    /* the busiest process's sizes: A's slab, C's columns, K */
    const double slab = (double)pumma_dist_maxcount(&p->a.col);
    const double nloc = (double)pumma_dist_maxcount(&p->c.col);
    const double kloc = (double)pumma_dist_maxcount(&p->a.row);
    return pumma_rpipe_cost(p, mo, Q, P, slab / P * nloc, kloc,
                            kloc * slab * p->t->size);
}

/* Sums down the grid columns, A rolled along the rows. */
static unsigned uses(const pumma_problem_t *p)
{
    return (p->g->nprow > 1 ? PUMMA_USES_REDUCE : 0u) |
           (p->g->npcol > 1 ? PUMMA_USES_SHIFT : 0u);
}

/* A's slabs (two while one rolls; on one grid column one, or none when A
 * needs no presorting), and the reduce pipeline's slots: a destination
 * row's product, or its piece. */
static size_t workspace(const pumma_problem_t *p)
{
    const int kloc = pumma_dist_maxcount(&p->a.row);
    const int mmax = pumma_dist_maxcount(&p->a.col);
    const int nloc = pumma_dist_maxcount(&p->c.col);
    const int crow = pumma_dist_maxcount(&p->c.row);
    const int chunk = mmax < crow ? mmax : crow;
    const size_t nabuf =
        p->g->npcol > 1 ? 2 : !pumma_groups_sorted_at(&p->a.col, 0, &p->c.row);
    const int piece = pumma_rpipe_piece(p, nloc, chunk);
    return nabuf * (size_t)kloc * (size_t)mmax * p->t->size +
           pumma_rpipe_workspace(p, DEPTH, p->g->nprow,
                                 (size_t)chunk * (size_t)piece);
}

const pumma_algo_t pumma_algo_tn = {
    "tn", "A**T*B: partial products summed down grid columns, A rolled",
    handles, align, run, cost, uses, workspace, PUMMA_CALL_BLOCK, NULL};
