/*
 * pumma_stat_a.c -- "stat-a": C := alpha*op(A)*op(B) + beta*C with A kept
 * where it is (stationary A), for panel products where N is a few blocks
 * and A is the big operand: moving A (as the PUMMA algorithms and rankk
 * do) would cost far more than summing the small partial results.
 *
 * Each process multiplies its own part of op(A) -- its M indices times its
 * K indices -- by the K rows of op(B) that match, all N columns: a partial
 * product W of its M indices of C. The K indices of op(A) lie along one
 * grid dimension (A's columns for 'N', its rows for 'T'/'C'), so W is
 * summed along that dimension: W's columns are grouped by the process
 * that is to hold them, and each group is reduced to it with the reduce
 * variant (all groups in flight at once). The sums, R, then go into C with
 * BETA: in place when R has C's layout (op(A)'s rows distributed like C's
 * rows, A 'N'), else by one redistribution.
 *
 * op(B) reaches the processes by one redistribution into the K-slices
 * they need, all N columns (N is small), before the multiply.
 *
 * Needs nothing of the layouts: A is read as it lies; B and the result
 * are redistributed as needed (run() does it, since the shapes involved --
 * op(B)'s K over A's K dimension -- are not views of the stored B).
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

static int handles(char ta, char tb) { (void)ta; (void)tb; return 1; }

static void align(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
}

/*
 * The geometry of the call. kax: the grid dimension along which A's K
 * indices lie (0: A 'N', K over the grid's columns; 1: A transposed, K
 * over its rows); W is summed along it, over npk processes, on comm.
 *   kd   op(A)'s K distribution (A's columns, or rows)
 *   md   op(A)'s M distribution (the other)
 *   rd   the distribution of R's N columns: C's columns (kax 0), or C's
 *        column blocking over the grid's rows (kax 1, R then lies on the
 *        transposed grid: its rows over the grid's columns)
 *   bk   the view op(B)'s K rows go into: kax 0, op(B)**T (N x K: N on
 *        every grid row, K as kd); kax 1, op(B) (K x N: K as kd, N on
 *        every grid column)
 */
typedef struct geo {
    int kax, npk, mek, mem;
    pumma_dist_t kd, md, rd;
    pumma_view_t bk, r;
    MPI_Comm comm;
} geo_t;

static void geometry(const pumma_problem_t *p, geo_t *o)
{
    const pumma_grid_t *g = p->g;
    o->kax = p->transa != 'N';
    o->kd = o->kax ? p->a.row : p->a.col;
    o->md = o->kax ? p->a.col : p->a.row;
    o->npk = o->kax ? g->nprow : g->npcol;
    o->mek = o->kax ? g->myrow : g->mycol;
    o->mem = o->kax ? g->mycol : g->myrow;
    o->comm = o->kax ? g->col : g->row;
    o->rd = pumma_dist_owned(&p->c.col);
    if (o->kax) {
        o->rd.np = g->nprow;
        o->rd.src = 0;
    }
    memset(&o->bk, 0, sizeof o->bk);
    if (!o->kax) {
        o->bk.row = pumma_stat_everywhere(p->n, g->nprow);
        o->bk.col = o->kd;
    } else {
        o->bk.row = o->kd;
        o->bk.col = pumma_stat_everywhere(p->n, g->npcol);
    }
    memset(&o->r, 0, sizeof o->r);
    o->r.row = o->md;           /* kax 1: over the grid's columns */
    o->r.col = o->rd;
}

/* Columns of W (all N) grouped by their owner in rd: group q's count, and
 * W's column j's position in the packed groups. */
static int group_cols(const pumma_dist_t *rd, int npk, int *cnt, int *pos)
{
    int *off = calloc((size_t)npk + 1, sizeof(int));
    if (!off) return PUMMA_ENOMEM;
    memset(cnt, 0, sizeof(int) * (size_t)npk);
    for (int b = 0; b < pumma_dist_nblocks(rd); b++)
        cnt[pumma_dist_owner(rd, b)] += pumma_dist_bsize(rd, b);
    for (int q = 0; q < npk; q++) off[q + 1] = off[q] + cnt[q];
    for (int b = 0, j = 0; b < pumma_dist_nblocks(rd); b++) {
        const int q = pumma_dist_owner(rd, b);
        for (int i = 0; i < pumma_dist_bsize(rd, b); i++, j++)
            pos[j] = off[q]++;
    }
    free(off);
    return PUMMA_OK;
}

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    geo_t o;
    geometry(p, &o);
    const int n = p->n;
    const int mloc = pumma_dist_count(&o.md, o.mem);
    const int kloc = pumma_dist_count(&o.kd, o.mek);
    const size_t e = t->size;
    int rc = PUMMA_OK;
    char *w = NULL, *packed = NULL;
    int *cnt = malloc(sizeof(int) * (size_t)o.npk);
    int *pos = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!cnt || !pos) { rc = PUMMA_ENOMEM; goto out; }

    /* op(B)'s rows for my K indices, all N columns: bk := op(B) (kax 1)
     * or op(B)**T (kax 0; for 'C' that is conj(B)). */
    const char op = o.kax ? p->transb : p->transb == 'N' ? 'T' : 'N';
    if ((rc = pumma_stat_slice(p, &p->b, o.kax ? p->k : n, o.kax ? n : p->k,
                               op, !o.kax && p->transb == 'C', &o.bk)))
        goto out;

    /* W := alpha * my op(A) * those rows: mloc x N. */
    w = pumma_malloc((size_t)mloc * (size_t)n * e);
    packed = pumma_malloc((size_t)mloc * (size_t)n * e);
    if (mloc && n && (!w || !packed)) { rc = PUMMA_ENOMEM; goto out; }
    if (mloc > 0 && n > 0) {          /* (kloc 0: W := 0) */
        if (!o.kax)
            pumma_local_gemm(p, 'N', 'T', mloc, n, kloc, p->alpha, p->a.data,
                             p->a.ld, o.bk.data, o.bk.ld, t->zero, w, mloc,
                             NULL, NULL);
        else
            pumma_local_gemm(p, p->transa, 'N', mloc, n, kloc, p->alpha,
                             p->a.data, p->a.ld, o.bk.data, o.bk.ld, t->zero,
                             w, mloc, NULL, NULL);
    }
    pumma_free(o.bk.data);
    o.bk.data = NULL;

    /* R: my rows of the sums, my columns of them (rd). */
    const int rloc = pumma_dist_count(&o.rd, o.mek);
    o.r.ld = mloc > 0 ? mloc : 1;
    o.r.data = pumma_malloc((size_t)mloc * (size_t)rloc * e);
    if (mloc && rloc && !o.r.data) { rc = PUMMA_ENOMEM; goto out; }
    if (mloc > 0) {
        if ((rc = group_cols(&o.rd, o.npk, cnt, pos))) goto out;
        for (int j = 0; j < n; j++)
            memcpy(packed + (size_t)pos[j] * mloc * e,
                   w + (size_t)j * mloc * e, (size_t)mloc * e);
        /* A replicated along K (every process holds all of it): not split */
        if ((rc = pumma_stat_sum(p, packed, cnt, mloc, o.npk, o.mek, o.comm,
                                 o.npk > 1 && o.kd.src >= 0, o.r.data)))
            goto out;
    }
    pumma_free(w);
    w = NULL;
    pumma_free(packed);
    packed = NULL;
    rc = pumma_stat_into_c(p, &o.r,
                           o.kax ? PUMMA_STAT_R_XGRID : PUMMA_STAT_R_GRID);
out:
    pumma_free(o.bk.data);
    pumma_free(o.r.data);
    pumma_free(w);
    pumma_free(packed);
    free(cnt);
    free(pos);
    return rc;
}

/*
 * Modelled time: op(B) redistributed (each process receives its K-slice,
 * N wide), the local multiply, the packing copy, the reduces of W (mloc x
 * N in all, in npk groups, over npk processes), and R into C (a copy in
 * place, or a redistribution of R).
 */
static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    const pumma_type_t *t = p->t;
    const double e = (double)t->size;
    const pumma_grid_t *g = p->g;
    const int np = g->nprow * g->npcol;
    geo_t o;
    geometry(p, &o);
    const double mloc = (double)pumma_dist_maxcount(&o.md);
    const double kloc = (double)pumma_dist_maxcount(&o.kd);
    const double n = p->n;
    double T = pumma_model_redist(mo, np, kloc * n * e, !o.kax);
    T += pumma_model_gemm(mo, t, mloc, n, kloc, o.kax);
    T += pumma_stat_cost(p, mo, o.npk, o.kd.src >= 0, &o.rd, mloc * n,
                         !o.kax && pumma_dist_same(&o.md, &p->c.row), 0);
    return T;
}

static unsigned uses(const pumma_problem_t *p)
{
    geo_t o;
    geometry(p, &o);
    return o.npk > 1 && o.kd.src >= 0 ? PUMMA_USES_REDUCE : 0u;
}

/* op(B)'s slice with its redistribution's buffers; then W, its packed
 * copy and R, with the reduce variant's buffers; then R and the final
 * redistribution's buffers. */
static size_t workspace(const pumma_problem_t *p)
{
    const size_t e = p->t->size;
    geo_t o;
    geometry(p, &o);
    const size_t mloc = (size_t)pumma_dist_maxcount(&o.md);
    const size_t bk = pumma_view_maxelems(&o.bk) * e;
    /* bk is replicated along the grid dimension other than K's: a
     * process sends its part of B once per replica */
    const size_t rep = (size_t)(o.kax ? p->g->npcol : p->g->nprow);
    return pumma_stat_workspace(p, bk, rep * pumma_view_maxelems(&p->b) * e,
                                mloc * (size_t)p->n * e,
                                mloc * (size_t)pumma_dist_maxcount(&o.rd) * e,
                                o.npk);
}

const pumma_algo_t pumma_algo_stat_a = {
    "stat-a",
    "A stays; op(B)'s K-slices sent to it, partial products of C (N small) "
    "reduced along A's K dimension",
    handles, align, run, cost, uses, workspace, PUMMA_CALL_BLOCK, NULL};
