/*
 * pumma_nt.c -- C := alpha*A*B**T + beta*C (or B**H), the mirror of
 * A**T*B (PUMMA section 3.3, last paragraph): partial products are summed
 * along grid rows and B rolls up the grid columns.
 *
 * A (M x K) and B (N x K) share their column distribution. P stages: in
 * stage s grid row p holds the B slab that started in row c = (p + s) mod P.
 * Each process multiplies its A by op(its B slab)**T: a partial product of
 * the columns of C in that slab, summed along the grid row onto the grid
 * column owning them. The slab is presorted by that owner (one GEMM and one
 * reduce per destination column), and reduces stay in flight while the next
 * products are computed. As in A**T*B, BETA goes with the first write of
 * each element of C.
 *
 * Needs: B's columns distributed exactly like A's columns, A's rows like C's
 * rows, and B's rows blocked like C's columns.
 */
#include <stdlib.h>

#include "pumma_algo.h"

enum { DEPTH = 2 };

static int handles(char ta, char tb) { return ta == 'N' && tb != 'N'; }

static void align(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
    want->c.row = pumma_dist_owned(&have->c.row);
    want->c.col = pumma_dist_owned(&have->c.col);
    want->a.row = want->c.row;
    pumma_dist_t bn = pumma_dist_owned(&have->b.row);
    if (!pumma_dist_same_blocks(&bn, &want->c.col)) {
        bn.ib = want->c.col.ib;
        bn.b = want->c.col.b;
    }
    want->b.row = bn;
    int b_moves = !pumma_dist_same(&have->b.row, &bn) || have->b.col.src < 0;
    int a_moves = !pumma_dist_same(&have->a.row, &want->a.row);
    pumma_dist_t k = pumma_dist_owned(&have->b.col);
    if (b_moves && !a_moves) k = pumma_dist_owned(&have->a.col);
    want->a.col = want->b.col = k;
}

static void land(pumma_rpipe_t *rp, pumma_rslot_t *s)
{
    const pumma_problem_t *p = rp->p;
    pumma_scatter_add_cols(p->t, rp->gc, s->grp, s->at, s->cols, s->rows,
                           s->sum, s->rows, s->in_c ? p->t->one : p->beta,
                           p->c.data, p->c.ld);
}

static int progress(void *ctx) { return pumma_rpipe_progress(ctx); }

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int P = g->nprow, Q = g->npcol, me_r = g->myrow, me_c = g->mycol;
    const pumma_dist_t *Bn = &p->b.row, *Cn = &p->c.col;
    const int mloc = pumma_view_mloc(&p->c, me_r);
    const int kloc = pumma_view_nloc(&p->a, me_c);
    int rc = PUMMA_OK;
    pumma_groups_t gb = {0}, gc = {0};
    pumma_rpipe_t rp = {0};
    char *bbuf[2] = {NULL, NULL};

    int nmax = 0, chunk = 0;
    for (int c = 0; c < P; c++) {
        int nc = pumma_dist_count(Bn, c);
        if (nc > nmax) nmax = nc;
        if ((rc = pumma_groups_build(Bn, c, Cn, &gb))) goto out;
        for (int r = 0; r < Q; r++)
            if (gb.cnt[r] > chunk) chunk = gb.cnt[r];
        pumma_groups_free(&gb);
    }
    /* Presort my B rows by the grid column owning each C column (or use the
     * caller's B when that is its own order and it can be sent as it is);
     * group my C columns by the grid row whose slab computes them. */
    int nb_me = pumma_dist_count(Bn, me_r);
    if ((rc = pumma_groups_build(Bn, me_r, Cn, &gb))) goto out;
    const int inplace = pumma_groups_in_order(&gb) &&
                        (P == 1 || p->b.ld == nb_me || nb_me == 0);
    const int nbbuf = P == 1 ? !inplace : (inplace && P == 2 ? 1 : 2);
    size_t slab = (size_t)nmax * (size_t)kloc * t->size;
    for (int i = 0; i < nbbuf; i++)
        if (slab && !(bbuf[i] = pumma_malloc(slab))) { rc = PUMMA_ENOMEM; goto out; }
    char *bcur = bbuf[0];
    int ldcur = nb_me > 0 ? nb_me : 1;
    if (inplace) {
        bcur = p->b.data;
        ldcur = p->b.ld;
    } else {
        pumma_presort_rows(t, 'N', &gb, kloc, p->b.data, p->b.ld, bcur,
                           ldcur);
    }
    int next_buf = inplace ? 0 : 1;
    pumma_groups_free(&gb);
    const int piece = pumma_rpipe_piece(p, chunk, mloc);
    if ((rc = pumma_rpipe_init(&rp, p, DEPTH, (size_t)mloc * piece))) goto out;
    if ((rc = pumma_groups_build(Cn, me_c, Bn, &gc))) goto out;
    rp.land = land;
    rp.gc = &gc;
    rp.me = me_c;

    for (int s = 0; s < P; s++) {
        const int c = (me_r + s) % P;
        const int nbc = pumma_dist_count(Bn, c), ldb = ldcur;
        pumma_shift_t roll;
        const int rolling = (P > 1 && s < P - 1);
        char *bnext = rolling ? bbuf[next_buf] : NULL;
        if (rolling &&
            (rc = pumma_shift_start(p, &roll, bcur, (int64_t)nbc * kloc,
                                    bnext,
                                    (int64_t)pumma_dist_count(Bn, (c + 1) % P) *
                                        kloc,
                                    (me_r - 1 + P) % P, (me_r + 1) % P,
                                    g->col, PUMMA_TAG_ROLL)))
            goto out;
        rp.roll = rolling ? &roll : NULL;
        if ((rc = pumma_groups_build(Bn, c, Cn, &gb))) goto out;
        for (int r = 0; r < Q && mloc > 0; r++) {
            int nr = gb.cnt[r], col0;
            if (nr == 0) continue;
            /* My own columns of C, when they are one block of it, take my
             * product directly: no buffer, and only the others' sum to add. */
            const int in_c = r == me_c && pumma_groups_contiguous(&gc, c, &col0);
            for (int j0 = 0; j0 < nr; j0 += piece) {
                const int jn = nr - j0 < piece ? nr - j0 : piece;
                pumma_rslot_t *sl;
                if ((rc = pumma_rpipe_slot(&rp, &sl))) goto out;
                sl->grp = c;
                sl->rows = mloc;
                sl->cols = jn;
                sl->at = j0;
                sl->in_c = in_c;
                pumma_local_gemm(p, 'N', p->transb, mloc, jn, kloc, p->alpha,
                                 p->a.data, p->a.ld,
                                 pumma_at(t, bcur, gb.off[r] + j0, 0, ldb),
                                 ldb, in_c ? p->beta : t->zero,
                                 in_c ? pumma_at(t, p->c.data, 0, col0 + j0,
                                                 p->c.ld)
                                      : sl->part,
                                 in_c ? p->c.ld : mloc, progress, &rp);
                if ((rc = pumma_rpipe_post(&rp, sl, r, g->row, PUMMA_TAG_REDUCE)))
                    goto out;
            }
        }
        pumma_groups_free(&gb);
        if (rolling) {
            rp.roll = NULL;
            if ((rc = pumma_shift_wait(p, &roll))) goto out;
            bcur = bnext;
            int nbn = pumma_dist_count(Bn, (c + 1) % P);
            ldcur = nbn > 0 ? nbn : 1;
            next_buf = (next_buf + 1) % nbbuf;
        }
    }
    rc = pumma_rpipe_drain(&rp);
out:
    pumma_groups_free(&gb);
    pumma_groups_free(&gc);
    pumma_rpipe_free(&rp);
    pumma_free(bbuf[0]);
    pumma_free(bbuf[1]);
    return rc;
}

/* P stages; in each, Q products of M/P x N/(PQ) with k = K/Q. */
static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    const int P = p->g->nprow, Q = p->g->npcol;
    /* the busiest process's sizes: C's rows, B's slab, K */
    const double mloc = (double)pumma_dist_maxcount(&p->c.row);
    const double slab = (double)pumma_dist_maxcount(&p->b.row);
    const double kloc = (double)pumma_dist_maxcount(&p->a.col);
    return pumma_rpipe_cost(p, mo, P, Q, mloc * slab / Q, kloc,
                            slab * kloc * p->t->size);
}

/* Sums along the grid rows, B rolled up the columns. */
static unsigned uses(const pumma_problem_t *p)
{
    return (p->g->npcol > 1 ? PUMMA_USES_REDUCE : 0u) |
           (p->g->nprow > 1 ? PUMMA_USES_SHIFT : 0u);
}

/* B's slabs (two while one rolls; on one grid row one, or none when B
 * needs no presorting), and the reduce pipeline's slots: a destination
 * column's product, or its piece. */
static size_t workspace(const pumma_problem_t *p)
{
    const int nmax = pumma_dist_maxcount(&p->b.row);
    const int kloc = pumma_dist_maxcount(&p->a.col);
    const int mloc = pumma_dist_maxcount(&p->c.row);
    const int ccol = pumma_dist_maxcount(&p->c.col);
    const int chunk = nmax < ccol ? nmax : ccol;
    const size_t nbbuf =
        p->g->nprow > 1 ? 2 : !pumma_groups_sorted_at(&p->b.row, 0, &p->c.col);
    const int piece = pumma_rpipe_piece(p, chunk, mloc);
    return nbbuf * (size_t)nmax * (size_t)kloc * p->t->size +
           pumma_rpipe_workspace(p, DEPTH, p->g->npcol,
                                 (size_t)mloc * (size_t)piece);
}

const pumma_algo_t pumma_algo_nt = {
    "nt", "A*B**T: partial products summed along grid rows, B rolled up",
    handles, align, run, cost, uses, workspace, PUMMA_CALL_BLOCK, NULL};
