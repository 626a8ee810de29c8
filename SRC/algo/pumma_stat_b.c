/*
 * pumma_stat_b.c -- "stat-b": C := alpha*op(A)*op(B) + beta*C with B kept
 * where it is (stationary B), the mirror of stat-a (pumma_stat_a.c) for
 * panel products where M is a few blocks and B is the big operand.
 *
 * Each process multiplies the K columns of op(A) that match its own K
 * indices of op(B), all M rows, by its part of op(B): a partial product W
 * (M x its N indices). op(B)'s K indices lie along one grid dimension
 * (B's rows for 'N', its columns for 'T'/'C'), so W is summed along it:
 * W's rows are grouped by the process that is to hold them, and each
 * group is reduced to it with the reduce variant (all in flight at once).
 * The sums, R, then go into C with BETA: in place when R has C's layout
 * (op(B)'s columns distributed like C's columns, B 'N'), else by one
 * redistribution. op(A) reaches the processes by one redistribution into
 * the K-slices they need, all M rows (M is small), before the multiply.
 *
 * With B transposed (not conjugated), W**T = B * op(A)**T is made instead:
 * a GEMM whose long dimension is its first (M is small) runs well, where
 * op(A) * B**T with a short first dimension ran at two thirds of the
 * speed; its columns are C's rows, so groups are whole columns, and R**T
 * goes into C by a transposing redistribution.
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
 * kax: the grid dimension of op(B)'s K indices (0: B 'N', K over the
 * grid's rows; 1: B transposed, K over its columns); W is summed along
 * it, over npk processes, on comm.
 *   kd, nd  op(B)'s K and N distributions (B's rows and columns, or the
 *           reverse)
 *   rd      R's M rows: C's rows (kax 0), or C's row blocking over the
 *           grid's columns (kax 1: R lies on the transposed grid)
 *   ak      where op(A)'s K columns go: kax 0, op(A)**T (K x M: K as kd,
 *           M on every grid column); kax 1, op(A) (M x K: M on every grid
 *           row, K as kd)
 */
typedef struct geo {
    int kax, npk, mek, men;
    int wt;                     /* W**T is made (B 'T') */
    pumma_dist_t kd, nd, rd;
    pumma_view_t ak, r;
    MPI_Comm comm;
} geo_t;

static void geometry(const pumma_problem_t *p, geo_t *o)
{
    const pumma_grid_t *g = p->g;
    o->kax = p->transb != 'N';
    o->wt = p->transb == 'T';
    o->kd = o->kax ? p->b.col : p->b.row;
    o->nd = o->kax ? p->b.row : p->b.col;
    o->npk = o->kax ? g->npcol : g->nprow;
    o->mek = o->kax ? g->mycol : g->myrow;
    o->men = o->kax ? g->myrow : g->mycol;
    o->comm = o->kax ? g->row : g->col;
    o->rd = pumma_dist_owned(&p->c.row);
    if (o->kax) {
        o->rd.np = g->npcol;
        o->rd.src = 0;
    }
    memset(&o->ak, 0, sizeof o->ak);
    if (!o->kax) {
        o->ak.row = o->kd;
        o->ak.col = pumma_stat_everywhere(p->m, g->npcol);
    } else {
        o->ak.row = pumma_stat_everywhere(p->m, g->nprow);
        o->ak.col = o->kd;
    }
    memset(&o->r, 0, sizeof o->r);
    o->r.row = o->rd;           /* kax 1: over the grid's columns */
    o->r.col = o->nd;
}

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    geo_t o;
    geometry(p, &o);
    const int m = p->m;
    const int nloc = pumma_dist_count(&o.nd, o.men);
    const int kloc = pumma_dist_count(&o.kd, o.mek);
    const size_t e = t->size;
    int rc = PUMMA_OK;
    char *w = NULL, *packed = NULL;
    int *cnt = calloc((size_t)o.npk + 1, sizeof(int));
    int *off = calloc((size_t)o.npk + 1, sizeof(int));
    int *fill = calloc((size_t)o.npk + 1, sizeof(int));
    if (!cnt || !off || !fill) { rc = PUMMA_ENOMEM; goto out; }

    /* op(A)'s columns for my K indices, all M rows: ak := op(A) (kax 1)
     * or op(A)**T (kax 0; for 'C' that is conj(A)). */
    const char op = o.kax ? p->transa : p->transa == 'N' ? 'T' : 'N';
    if ((rc = pumma_stat_slice(p, &p->a, o.kax ? m : p->k, o.kax ? p->k : m,
                               op, !o.kax && p->transa == 'C', &o.ak)))
        goto out;

    /* W := alpha * those columns * my op(B): M x nloc (kloc 0: W := 0). */
    w = pumma_malloc((size_t)m * (size_t)nloc * e);
    packed = pumma_malloc((size_t)m * (size_t)nloc * e);
    if (m && nloc && (!w || !packed)) { rc = PUMMA_ENOMEM; goto out; }
    if (m > 0 && nloc > 0) {
        if (o.wt)                /* W**T: nloc x M */
            pumma_local_gemm(p, 'N', 'T', nloc, m, kloc, p->alpha, p->b.data,
                             p->b.ld, o.ak.data, o.ak.ld, t->zero, w, nloc,
                             NULL, NULL);
        else if (!o.kax)
            pumma_local_gemm(p, 'T', 'N', m, nloc, kloc, p->alpha, o.ak.data,
                             o.ak.ld, p->b.data, p->b.ld, t->zero, w, m,
                             NULL, NULL);
        else
            pumma_local_gemm(p, 'N', p->transb, m, nloc, kloc, p->alpha,
                             o.ak.data, o.ak.ld, p->b.data, p->b.ld, t->zero,
                             w, m, NULL, NULL);
    }
    pumma_free(o.ak.data);
    o.ak.data = NULL;

    /* R: my rows of the sums (rd), my N columns (R**T when wt). */
    const int rloc = pumma_dist_count(&o.rd, o.mek);
    o.r.ld = o.wt ? (nloc > 0 ? nloc : 1) : (rloc > 0 ? rloc : 1);
    o.r.data = pumma_malloc((size_t)rloc * (size_t)nloc * e);
    if (rloc && nloc && !o.r.data) { rc = PUMMA_ENOMEM; goto out; }
    if (nloc > 0) {
        /* W's rows packed by their owner in rd: group q is cnt[q] x nloc
         * at off[q] * nloc, its blocks in order (R's local order). */
        const int nb = pumma_dist_nblocks(&o.rd);
        for (int b = 0; b < nb; b++)
            cnt[pumma_dist_owner(&o.rd, b)] += pumma_dist_bsize(&o.rd, b);
        for (int q = 0; q < o.npk; q++) off[q + 1] = off[q] + cnt[q];
        for (int b = 0; b < nb; b++) {
            const int q = pumma_dist_owner(&o.rd, b);
            const int len = pumma_dist_bsize(&o.rd, b);
            const int i0 = pumma_dist_bstart(&o.rd, b);
            if (o.wt)            /* whole columns of W**T */
                memcpy(packed + ((size_t)off[q] + fill[q]) * nloc * e,
                       w + (size_t)i0 * nloc * e, (size_t)len * nloc * e);
            else
                t->geadd('N', len, nloc, t->one, pumma_at(t, w, i0, 0, m), m,
                         t->zero,
                         packed + ((size_t)off[q] * nloc + fill[q]) * e,
                         cnt[q]);
            fill[q] += len;
        }
        /* B replicated along K (every process holds all of it): not split */
        if ((rc = pumma_stat_sum(p, packed, cnt, nloc, o.npk, o.mek, o.comm,
                                 o.npk > 1 && o.kd.src >= 0, o.r.data)))
            goto out;
    }
    pumma_free(w);
    w = NULL;
    pumma_free(packed);
    packed = NULL;
    if (o.wt) {                  /* R**T: N (as B's rows) x M (rd) */
        pumma_view_t rt = o.r;
        rt.row = o.nd;
        rt.col = o.rd;
        rc = pumma_stat_into_c(p, &rt, PUMMA_STAT_R_TRANSPOSED);
    } else {
        rc = pumma_stat_into_c(p, &o.r,
                               o.kax ? PUMMA_STAT_R_XGRID : PUMMA_STAT_R_GRID);
    }
out:
    pumma_free(o.ak.data);
    pumma_free(o.r.data);
    pumma_free(w);
    pumma_free(packed);
    free(cnt);
    free(off);
    free(fill);
    return rc;
}

/* Modelled time: as stat-a's, mirrored. */
static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    const pumma_type_t *t = p->t;
    const double e = (double)t->size;
    const pumma_grid_t *g = p->g;
    const int np = g->nprow * g->npcol;
    geo_t o;
    geometry(p, &o);
    const double nloc = (double)pumma_dist_maxcount(&o.nd);
    const double kloc = (double)pumma_dist_maxcount(&o.kd);
    const double m = p->m;
    double T = pumma_model_redist(mo, np, kloc * m * e, !o.kax);
    T += o.wt ? pumma_model_gemm(mo, t, nloc, m, kloc, 0)
              : pumma_model_gemm(mo, t, m, nloc, kloc, !o.kax);
    T += pumma_stat_cost(p, mo, o.npk, o.kd.src >= 0, &o.rd, m * nloc,
                         !o.kax && pumma_dist_same(&o.nd, &p->c.col), o.wt);
    return T;
}

static unsigned uses(const pumma_problem_t *p)
{
    geo_t o;
    geometry(p, &o);
    return o.npk > 1 && o.kd.src >= 0 ? PUMMA_USES_REDUCE : 0u;
}

/* As stat-a's: op(A)'s slice and its redistribution; W, packed W, R and
 * the reduce's buffers; R and the final redistribution. */
static size_t workspace(const pumma_problem_t *p)
{
    const size_t e = p->t->size;
    geo_t o;
    geometry(p, &o);
    const size_t nloc = (size_t)pumma_dist_maxcount(&o.nd);
    const size_t ak = pumma_view_maxelems(&o.ak) * e;
    /* ak is replicated along the grid dimension other than K's: a
     * process sends its part of A once per replica */
    const size_t rep = (size_t)(o.kax ? p->g->nprow : p->g->npcol);
    return pumma_stat_workspace(p, ak, rep * pumma_view_maxelems(&p->a) * e,
                                (size_t)p->m * nloc * e,
                                (size_t)pumma_dist_maxcount(&o.rd) * nloc * e,
                                o.npk);
}

const pumma_algo_t pumma_algo_stat_b = {
    "stat-b",
    "B stays; op(A)'s K-slices sent to it, partial products of C (M small) "
    "reduced along B's K dimension",
    handles, align, run, cost, uses, workspace, PUMMA_CALL_BLOCK, NULL};
