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

static pumma_dist_t everywhere(int n, int np)
{
    pumma_dist_t d = {n, n > 0 ? n : 1, n > 0 ? n : 1, -1, np};
    return d;
}

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
        o->bk.row = everywhere(p->n, g->nprow);
        o->bk.col = o->kd;
    } else {
        o->bk.row = o->kd;
        o->bk.col = everywhere(p->n, g->npcol);
    }
    memset(&o->r, 0, sizeof o->r);
    o->r.row = o->md;           /* kax 1: over the grid's columns */
    o->r.col = o->rd;
}

/* Columns of W (all N) grouped by their owner in rd: group q's count, and
 * W's column j's position in the packed groups. */
static int group_cols(const pumma_dist_t *rd, int npk, int n, int *cnt,
                      int *pos)
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
    (void)n;
    free(off);
    return PUMMA_OK;
}

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const pumma_coll_ops_t *rop = p->opts->reduce;
    geo_t o;
    geometry(p, &o);
    const int n = p->n;
    const int mloc = pumma_dist_count(&o.md, o.mem);
    const int kloc = pumma_dist_count(&o.kd, o.mek);
    const int ksplit = o.npk > 1 && o.kd.src >= 0;
    const size_t e = t->size;
    int rc = PUMMA_OK, nred = 0;
    char *w = NULL, *packed = NULL;
    int *cnt = malloc(sizeof(int) * (size_t)o.npk);
    int *pos = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    pumma_coll_t *red = calloc((size_t)o.npk, sizeof(pumma_coll_t));
    if (!cnt || !pos || !red) { rc = PUMMA_ENOMEM; goto out; }

    /* op(B)'s rows for my K indices, all N columns. */
    const int bm = pumma_view_mloc(&o.bk, g->myrow);
    const int bn = pumma_view_nloc(&o.bk, g->mycol);
    o.bk.ld = bm > 0 ? bm : 1;
    o.bk.data = pumma_malloc((size_t)bm * (size_t)bn * e);
    if (bm && bn && !o.bk.data) { rc = PUMMA_ENOMEM; goto out; }
    char op;                    /* bk := op(B) (kax 1) or op(B)**T (0) */
    if (o.kax) op = p->transb;
    else op = p->transb == 'N' ? 'T' : 'N';
    if ((rc = pumma_redist(t, g, o.kax ? p->k : n, o.kax ? n : p->k, op,
                           t->one, &p->b, t->zero, &o.bk,
                           (size_t)p->opts->piece)))
        goto out;
    if (!o.kax && p->transb == 'C')          /* op(B)**T = conj(B) */
        t->geadd('R', bm, bn, t->one, o.bk.data, o.bk.ld, t->zero,
                 o.bk.data, o.bk.ld);

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
        if ((rc = group_cols(&o.rd, o.npk, n, cnt, pos))) goto out;
        for (int j = 0; j < n; j++)
            memcpy(packed + (size_t)pos[j] * mloc * e,
                   w + (size_t)j * mloc * e, (size_t)mloc * e);
        /* The sums, one reduce per group, all in flight (tags by group:
         * pumma_comm.h, rule 2). When every process along K holds all of
         * K (A replicated along it), W is already the sum: my group is
         * R. */
        for (int q = 0, at = 0; q < o.npk; at += cnt[q], q++) {
            if (cnt[q] == 0) continue;
            if (!ksplit) {
                if (q == o.mek)
                    memcpy(o.r.data, packed + (size_t)at * mloc * e,
                           (size_t)mloc * cnt[q] * e);
                continue;
            }
            pumma_coll_t *c = &red[nred++];
            c->buf = packed + (size_t)at * mloc * e;
            c->rbuf = q == o.mek ? o.r.data : NULL;
            c->count = (int64_t)mloc * cnt[q];
            c->dt = t->mpi;
            c->t = t;
            c->root = q;
            c->comm = o.comm;
            c->tag = PUMMA_TAG_REDUCE + q;
            c->segment = p->opts->segment / (int)e;
            if ((rc = rop->start(c))) goto out;
        }
        double t0 = pumma_stats_clock();
        for (int i = 0; i < nred; i++)
            if ((rc = rop->wait(&red[i]))) goto out;
        nred = 0;
        pumma_stats_comm(t0);
    }
    pumma_free(w);
    w = NULL;
    pumma_free(packed);
    packed = NULL;

    /* C := R + beta*C. */
    if (!o.kax && pumma_view_same_layout(&o.r, &p->c)) {
        const int cm = pumma_view_mloc(&p->c, g->myrow);
        const int cn = pumma_view_nloc(&p->c, g->mycol);
        if (cm > 0 && cn > 0)
            t->geadd('N', cm, cn, t->one, o.r.data, o.r.ld, p->beta,
                     p->c.data, p->c.ld);
    } else if (!o.kax) {
        rc = pumma_redist(t, g, p->m, n, 'N', t->one, &o.r, p->beta,
                          (pumma_view_t *)&p->c, (size_t)p->opts->piece);
    } else {
        rc = pumma_redist_xgrid(t, g, p->m, n, t->one, &o.r, p->beta,
                                (pumma_view_t *)&p->c, (size_t)p->opts->piece);
    }
out:
    for (int i = 0; i < nred; i++) rop->wait(&red[i]);
    pumma_free(o.bk.data);
    pumma_free(o.r.data);
    pumma_free(w);
    pumma_free(packed);
    free(cnt);
    free(pos);
    free(red);
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
    T += pumma_model_copy(mo, mloc * n * e, 0);
    if (o.npk > 1 && o.kd.src >= 0) {
        const int nb = pumma_dist_nblocks(&o.rd);
        const int groups = nb < o.npk ? nb : o.npk;
        T += groups * p->opts->reduce->cost(mo, o.npk, mloc * n / groups * e,
                                            p->opts->segment);
    }
    const double rbytes = mloc * n / o.npk * e;
    if (!o.kax && pumma_dist_same(&o.md, &p->c.row))
        T += pumma_model_copy(mo, rbytes, 0);
    else
        T += pumma_model_redist(mo, np, rbytes, 0);
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
    const size_t piece = (size_t)p->opts->piece;
    geo_t o;
    geometry(p, &o);
    const size_t mloc = (size_t)pumma_dist_maxcount(&o.md);
    const size_t n = (size_t)p->n;
    const size_t bk = pumma_view_maxelems(&o.bk) * e;
    /* bk is replicated along the grid dimension other than K's: a
     * process sends its part of B once per replica */
    const size_t rep = (size_t)(o.kax ? p->g->npcol : p->g->nprow);
    const size_t ph1 = bk + pumma_redist_workspace(
                                piece, rep * pumma_view_maxelems(&p->b) * e, bk);
    const size_t wb = mloc * n * e;
    const size_t rb = mloc * (size_t)pumma_dist_maxcount(&o.rd) * e;
    size_t extra = 0;
    if (o.npk > 1 && p->opts->reduce->buffers)
        extra = (size_t)p->opts->reduce->buffers(o.npk) * wb;
    const size_t ph2 = bk + 2 * wb + rb + extra;
    const size_t ph3 =
        rb + pumma_redist_workspace(piece, rb, pumma_view_maxelems(&p->c) * e);
    size_t peak = ph1 > ph2 ? ph1 : ph2;
    return peak > ph3 ? peak : ph3;
}

const pumma_algo_t pumma_algo_stat_a = {
    "stat-a",
    "A stays; op(B)'s K-slices sent to it, partial products of C (N small) "
    "reduced along A's K dimension",
    handles, align, run, cost, uses, workspace};
