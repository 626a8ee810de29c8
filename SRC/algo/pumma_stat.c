/*
 * pumma_stat.c -- what stat-a and stat-b (pumma_stat_a.c, pumma_stat_b.c)
 * share: the small operand's K-slices brought to the big one, the sums of
 * the packed partial products onto their holders, and the sums into C;
 * and the costs and temporaries of those steps.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

pumma_dist_t pumma_stat_everywhere(int n, int np)
{
    pumma_dist_t d = {n, n > 0 ? n : 1, n > 0 ? n : 1, -1, np};
    return d;
}

int pumma_stat_slice(const pumma_problem_t *p, const pumma_view_t *src,
                     int rows, int cols, char op, int conj,
                     pumma_view_t *dst)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    int rc = pumma_redist_alloc(t, g, rows, cols, op, src, dst,
                                (size_t)p->opts->piece);
    if (!rc && conj)
        t->geadd('R', pumma_view_mloc(dst, g->myrow),
                 pumma_view_nloc(dst, g->mycol), t->one, dst->data, dst->ld,
                 t->zero, dst->data, dst->ld);
    return rc;
}

int pumma_stat_sum(const pumma_problem_t *p, const char *packed,
                   const int *cnt, int per, int npk, int me, MPI_Comm comm,
                   int split, char *r)
{
    const pumma_type_t *t = p->t;
    const pumma_coll_ops_t *rop = p->opts->reduce;
    const size_t e = t->size;
    pumma_coll_t *red = calloc((size_t)npk, sizeof(pumma_coll_t));
    if (!red) return PUMMA_ENOMEM;
    int rc = PUMMA_OK, nred = 0;
    /* one reduce per group, all in flight (tags by group: pumma_comm.h,
     * rule 2); not split, each process's own group is its sum */
    for (int q = 0, at = 0; q < npk; at += cnt[q], q++) {
        if (cnt[q] == 0) continue;
        const char *grp = packed + (size_t)at * per * e;
        if (!split) {
            if (q == me) memcpy(r, grp, (size_t)cnt[q] * per * e);
            continue;
        }
        pumma_coll_t *c = &red[nred++];
        *c = pumma_coll_of(p, (void *)grp, q == me ? r : NULL,
                           (int64_t)cnt[q] * per, q, comm,
                           PUMMA_TAG_REDUCE + q);
        if ((rc = rop->start(c))) break;
    }
    const double t0 = pumma_stats_clock();
    for (int i = 0; i < nred; i++) {          /* all, even after an error */
        const int w = rop->wait(&red[i]);
        if (!rc) rc = w;
    }
    pumma_stats_comm(t0);
    free(red);
    return rc;
}

int pumma_stat_into_c(const pumma_problem_t *p, pumma_view_t *r,
                      pumma_stat_r_t how)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    pumma_view_t *c = (pumma_view_t *)&p->c;
    const size_t piece = (size_t)p->opts->piece;
    if (how == PUMMA_STAT_R_XGRID)
        return pumma_redist_xgrid(t, g, p->m, p->n, t->one, r, p->beta, c,
                                  piece);
    if (how == PUMMA_STAT_R_TRANSPOSED)
        return pumma_redist(t, g, p->m, p->n, 'T', t->one, r, p->beta, c,
                            piece);
    if (!pumma_view_same_layout(r, c))
        return pumma_redist(t, g, p->m, p->n, 'N', t->one, r, p->beta, c,
                            piece);
    const int cm = pumma_view_mloc(c, g->myrow), cn = pumma_view_nloc(c, g->mycol);
    if (cm > 0 && cn > 0)
        t->geadd('N', cm, cn, t->one, r->data, r->ld, p->beta, c->data, c->ld);
    return PUMMA_OK;
}

double pumma_stat_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                       int npk, int split, const pumma_dist_t *rd,
                       double elems, int in_place, int transposed)
{
    const double e = (double)p->t->size;
    const int np = p->g->nprow * p->g->npcol;
    double T = pumma_model_copy(mo, elems * e, 0);          /* packing */
    if (npk > 1 && split) {
        const int nb = pumma_dist_nblocks(rd);
        const int groups = nb < npk ? nb : npk;
        T += groups * p->opts->reduce->cost(mo, npk, elems / groups * e,
                                            p->opts->segment);
    }
    const double rbytes = elems / npk * e;
    return T + (in_place ? pumma_model_copy(mo, rbytes, 0)
                         : pumma_model_redist(mo, np, rbytes, transposed));
}

size_t pumma_stat_workspace(const pumma_problem_t *p, size_t slice,
                            size_t sent, size_t wb, size_t rb, int npk)
{
    const size_t piece = (size_t)p->opts->piece;
    const size_t ph1 = slice + pumma_redist_workspace(piece, sent, slice);
    size_t extra = 0;
    if (npk > 1 && p->opts->reduce->buffers)
        extra = (size_t)p->opts->reduce->buffers(npk) * wb;
    const size_t ph2 = slice + 2 * wb + rb + extra;
    const size_t ph3 = rb + pumma_redist_workspace(
                                piece, rb, pumma_view_maxelems(&p->c) * p->t->size);
    const size_t peak = ph1 > ph2 ? ph1 : ph2;
    return peak > ph3 ? peak : ph3;
}
