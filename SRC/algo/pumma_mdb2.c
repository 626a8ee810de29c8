/*
 * pumma_mdb2.c -- MDB2, "multiple diagonal broadcast 2" (PUMMA section 3.2,
 * Figs. 7 and 8(b)): C := alpha*A*B + beta*C.
 *
 * Q stages. In stage s, grid column q holds the A slab that started in
 * column c = (q + s) mod Q (A rolls left one column per stage). The K-blocks
 * of that slab are spread over the grid rows by B's row distribution; each
 * grid row r of column q broadcasts down the column the rows of its local B
 * that match them (a "wrapped diagonal" group of blocks, condensed into one
 * message), and every process multiplies its A slab's matching columns by
 * what it receives. A is presorted once (columns grouped by the grid row
 * owning the matching B rows), so each multiply is one GEMM on contiguous
 * operands. A rolls while the stage computes; a process multiplies its own
 * B group first while the others' are in flight.
 *
 * Needs: A's rows distributed like C's rows, B's columns like C's columns,
 * and A's columns blocked like B's rows (same block boundaries in K; the
 * source processes may differ).
 */
#include <stdlib.h>

#include "pumma_algo.h"

enum { TAG_ROLL = 11, TAG_BCAST = 1000 };

static int handles(char ta, char tb) { return ta == 'N' && tb == 'N'; }

/* Broadcasts in flight during a multiply. */
typedef struct pend {
    pumma_coll_t *coll;
    int n;
    const pumma_coll_ops_t *ops;
} pend_t;

static void progress(void *ctx)
{
    pend_t *pd = ctx;
    for (int i = 0; i < pd->n; i++) {
        int done;
        pd->ops->test(&pd->coll[i], &done);
    }
}

void pumma_mdb2_align(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
    want->c.row = pumma_dist_owned(&have->c.row);
    want->c.col = pumma_dist_owned(&have->c.col);
    want->a.row = want->c.row;
    want->b.col = want->c.col;
    /* The K blocking: keep that of an operand which needs no move anyway. */
    int a_moves = !pumma_dist_same(&have->a.row, &want->a.row) ||
                  have->a.col.src < 0;
    int b_moves = !pumma_dist_same(&have->b.col, &want->b.col) ||
                  have->b.row.src < 0;
    pumma_dist_t ka = pumma_dist_owned(&have->a.col);
    pumma_dist_t kb = pumma_dist_owned(&have->b.row);
    if (!pumma_dist_same_blocks(&ka, &kb)) {
        int64_t asz = (int64_t)have->m * have->k,
                bsz = (int64_t)have->k * have->n;
        int take_b = (a_moves && !b_moves) ||
                     (a_moves == b_moves && asz <= bsz);
        if (take_b) {              /* A moves: give it B's K blocking */
            ka.ib = kb.ib;
            ka.b = kb.b;
            ka.src = 0;
        } else {
            kb.ib = ka.ib;
            kb.b = ka.b;
            kb.src = 0;
        }
    }
    want->a.col = ka;
    want->b.row = kb;
}

int pumma_mdb2_run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int P = g->nprow, Q = g->npcol, me_r = g->myrow, me_c = g->mycol;
    const pumma_dist_t *Ak = &p->a.col, *Bk = &p->b.row;
    const int mloc = pumma_view_mloc(&p->c, me_r);
    const int nloc = pumma_view_nloc(&p->c, me_c);
    const pumma_coll_ops_t *bc = p->opts->bcast;
    int rc = PUMMA_OK;

    pumma_local_scale(t, mloc, nloc, p->beta, p->c.data, p->c.ld);

    int kmax = 0;
    for (int c = 0; c < Q; c++) {
        int kc = pumma_dist_count(Ak, c);
        if (kc > kmax) kmax = kc;
    }
    size_t slab = (size_t)mloc * (size_t)kmax * t->size;
    char *acur = pumma_malloc(slab), *anext = Q > 1 ? pumma_malloc(slab) : NULL;
    char *bbuf = pumma_malloc((size_t)kmax * (size_t)nloc * t->size);
    pumma_coll_t *coll = calloc((size_t)P, sizeof(pumma_coll_t));
    int *order = malloc(sizeof(int) * (size_t)P);
    pumma_groups_t ga = {0}, gb = {0};
    if ((slab && (!acur || (Q > 1 && !anext))) ||
        (kmax && nloc && !bbuf) || !coll || !order) {
        rc = PUMMA_ENOMEM;
        goto out;
    }

    /* Presort my A slab by the grid row owning the matching B rows. */
    if ((rc = pumma_groups_build(Ak, me_c, Bk, &ga))) goto out;
    pumma_presort_cols(t, p->transa, &ga, mloc, p->a.data, p->a.ld, acur,
                       mloc > 0 ? mloc : 1);
    pumma_groups_free(&ga);
    /* My B rows, grouped by the grid column whose A slab they match. */
    if ((rc = pumma_groups_build(Bk, me_r, Ak, &gb))) goto out;

    for (int s = 0; s < Q; s++) {
        const int c = (me_c + s) % Q;             /* origin of my A slab */
        const int lda = mloc > 0 ? mloc : 1;
        pumma_shift_t roll;
        const int rolling = (Q > 1 && s < Q - 1);
        if (rolling) {
            int cn = (c + 1) % Q;
            rc = pumma_shift_start(p, &roll, acur,
                                   mloc * pumma_dist_count(Ak, c), anext,
                                   mloc * pumma_dist_count(Ak, cn),
                                   (me_c - 1 + Q) % Q, (me_c + 1) % Q, g->row,
                                   TAG_ROLL);
            if (rc) goto out;
        }
        if ((rc = pumma_groups_build(Ak, c, Bk, &ga))) goto out;

        /* Post every grid row's broadcast of this stage, in one order on
         * all processes of the column. */
        int npost = 0;
        for (int r = 0; r < P && nloc > 0; r++) {
            int kr = ga.cnt[r];
            if (kr == 0) continue;
            char *buf = bbuf + (size_t)ga.off[r] * nloc * t->size;
            if (r == me_r)
                pumma_gather_rows(t, p->transb, &gb, c, nloc, p->b.data,
                                  p->b.ld, buf, kr);
            pumma_coll_t *cl = &coll[npost];
            cl->buf = buf;
            cl->count = kr * nloc;
            cl->dt = t->mpi;
            cl->t = t;
            cl->segment = p->opts->segment / (int)t->size;
            cl->root = r;
            cl->comm = g->col;
            cl->tag = TAG_BCAST + (s * P + r) % 20000;
            order[npost++] = r;
            if ((rc = bc->start(cl))) goto out;
        }

        pend_t pr = {coll, npost, bc};
        /* Own group first: it is here already (as the root we only have to
         * complete our send later); then the others as they arrive. */
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < npost; i++) {
                int r = order[i];
                if ((pass == 0) != (r == me_r)) continue;
                if (pass == 1) {
                    double t0 = pumma_stats_clock();
                    if ((rc = bc->wait(&coll[i]))) goto out;
                    pumma_stats_comm(t0);
                }
                int kr = ga.cnt[r];
                const char *ar = pumma_at(t, acur, 0, ga.off[r], lda);
                const char *br = bbuf + (size_t)ga.off[r] * nloc * t->size;
                pumma_local_gemm(p, 'N', 'N', mloc, nloc, kr, p->alpha, ar,
                                 lda, br, kr, t->one, p->c.data, p->c.ld,
                                 progress, &pr);
            }
        }
        for (int i = 0; i < npost; i++)
            if (order[i] == me_r && (rc = bc->wait(&coll[i]))) goto out;
        pumma_groups_free(&ga);
        if (rolling) {
            if ((rc = pumma_shift_wait(p, &roll))) goto out;
            char *tmp = acur; acur = anext; anext = tmp;
        }
    }
out:
    pumma_groups_free(&ga);
    pumma_groups_free(&gb);
    pumma_free(acur);
    pumma_free(anext);
    pumma_free(bbuf);
    free(coll);
    free(order);
    return rc;
}

const pumma_algo_t pumma_algo_mdb2 = {
    "mdb2", "MDB2: B column-cast in Q stages, presorted A rolled (A*B)",
    handles, pumma_mdb2_align, pumma_mdb2_run};
