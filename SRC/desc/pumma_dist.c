/*
 * pumma_dist.c -- index arithmetic of 1D (generalized) block-cyclic layouts.
 *
 * A ScaLAPACK descriptor is two of these (rows over the grid's rows, columns
 * over its columns). Every contiguous range of indices of one is again one
 * (with a shorter first block and a shifted source), which is how pumma sees
 * a submatrix at any IA/JA without assuming alignment.
 */
#include <stdlib.h>

#include "pumma_desc.h"

static int ib_of(const pumma_dist_t *d)
{
    return d->ib < d->n ? d->ib : d->n;   /* first block never exceeds n */
}

int pumma_dist_nblocks(const pumma_dist_t *d)
{
    if (d->n <= 0) return 0;
    int ib = ib_of(d);
    return 1 + (d->n - ib + d->b - 1) / d->b;
}

int pumma_dist_bstart(const pumma_dist_t *d, int blk)
{
    return blk == 0 ? 0 : ib_of(d) + (blk - 1) * d->b;
}

int pumma_dist_bsize(const pumma_dist_t *d, int blk)
{
    int s = pumma_dist_bstart(d, blk);
    int e = blk == 0 ? ib_of(d) : s + d->b;
    return (e < d->n ? e : d->n) - s;
}

int pumma_dist_block(const pumma_dist_t *d, int x)
{
    const int ib = ib_of(d);
    return x < ib ? 0 : 1 + (x - ib) / d->b;
}

int pumma_dist_owner(const pumma_dist_t *d, int blk)
{
    return d->src < 0 ? -1 : (d->src + blk) % d->np;
}

/* Number of indices in [0, g) that live on `proc` (its local index of g when
 * it owns g). */
int pumma_dist_before(const pumma_dist_t *d, int g, int proc)
{
    if (g <= 0) return 0;
    if (d->src < 0) return g;
    int ib = ib_of(d);
    int dist = (proc - d->src + d->np) % d->np;   /* first block index it owns */
    int cnt = 0;
    if (g <= ib) return dist == 0 ? g : 0;
    if (dist == 0) cnt += ib;
    /* Full blocks 1.. within [ib, g): block L covers ib+(L-1)b .. */
    int rest = g - ib;                 /* indices after block 0 */
    int nfull = rest / d->b;           /* complete blocks 1..nfull */
    int part = rest % d->b;            /* indices of block nfull+1 */
    int first = dist == 0 ? d->np : dist;  /* first block >= 1 it owns */
    if (first <= nfull) cnt += ((nfull - first) / d->np + 1) * d->b;
    if (part > 0 && (nfull + 1 - first) >= 0 &&
        (nfull + 1 - first) % d->np == 0)
        cnt += part;
    return cnt;
}

int pumma_dist_count(const pumma_dist_t *d, int proc)
{
    return pumma_dist_before(d, d->n, proc);
}

pumma_dist_t pumma_dist_sub(const pumma_dist_t *d, int off, int len)
{
    pumma_dist_t s = *d;
    s.n = len;
    if (off == 0) return s;
    int ib = ib_of(d);
    int blk, in;
    if (off < ib) {
        blk = 0;
        in = off;
        s.ib = ib - off;
    } else {
        blk = 1 + (off - ib) / d->b;
        in = (off - ib) % d->b;
        s.ib = d->b - in;
    }
    s.src = d->src < 0 ? -1 : (d->src + blk) % d->np;
    return s;
}

int pumma_dist_same(const pumma_dist_t *a, const pumma_dist_t *b)
{
    if (a->n != b->n || a->np != b->np) return 0;
    if (a->n == 0) return 1;
    if (a->src < 0 || b->src < 0) return a->src == b->src;
    /* Blocks beyond n do not matter: compare the effective first block. */
    if (ib_of(a) != ib_of(b) || a->src != b->src) return 0;
    return a->n <= ib_of(a) || a->b == b->b;
}

int pumma_dist_same_blocks(const pumma_dist_t *a, const pumma_dist_t *b)
{
    if (a->n != b->n) return 0;
    if (a->n == 0) return 1;
    return ib_of(a) == ib_of(b) && (a->n <= ib_of(a) || a->b == b->b);
}

int pumma_dist_sole(const pumma_dist_t *d)
{
    if (d->n <= 0 || d->src < 0) return -1;
    const int b0 = pumma_dist_block(d, 0);
    /* consecutive blocks have different owners on more than one process */
    if (d->np > 1 && pumma_dist_block(d, d->n - 1) != b0) return -1;
    return pumma_dist_owner(d, b0);
}

int pumma_view_mloc(const pumma_view_t *v, int myrow)
{
    return pumma_dist_count(&v->row, myrow);
}

int pumma_dist_maxcount(const pumma_dist_t *d)
{
    if (d->src < 0) return d->n;
    int most = 0;
    for (int p = 0; p < d->np; p++) {
        int c = pumma_dist_count(d, p);
        if (c > most) most = c;
    }
    return most;
}

int pumma_dist_maxblocks(const pumma_dist_t *d)
{
    const int nb = pumma_dist_nblocks(d);
    if (d->src < 0 || d->np <= 1) return nb;
    return (nb + d->np - 1) / d->np;       /* dealt round from src */
}

size_t pumma_view_maxelems(const pumma_view_t *v)
{
    return (size_t)pumma_dist_maxcount(&v->row) *
           (size_t)pumma_dist_maxcount(&v->col);
}

int pumma_view_nloc(const pumma_view_t *v, int mycol)
{
    return pumma_dist_count(&v->col, mycol);
}

int pumma_groups_build(const pumma_dist_t *d, int me, const pumma_dist_t *key,
                       pumma_groups_t *g)
{
    int nb = pumma_dist_nblocks(d), nk = key->np;
    g->ngroups = nk;
    g->cnt = calloc((size_t)nk, sizeof(int));
    g->off = calloc((size_t)nk + 1, sizeof(int));
    g->runs = malloc(sizeof(pumma_run_t) * (size_t)(nb > 0 ? nb : 1));
    g->run_group = malloc(sizeof(int) * (size_t)(nb > 0 ? nb : 1));
    int *fill = calloc((size_t)nk, sizeof(int));
    if (!g->cnt || !g->off || !g->runs || !g->run_group || !fill) {
        free(fill);
        pumma_groups_free(g);
        return PUMMA_ENOMEM;
    }
    /* Pass 1: group sizes; pass 2: runs in presorted order (stable). */
    for (int L = 0; L < nb; L++)
        if (pumma_dist_owner(d, L) == me || d->src < 0)
            g->cnt[pumma_dist_owner(key, L)] += pumma_dist_bsize(d, L);
    for (int r = 0; r < nk; r++) g->off[r + 1] = g->off[r] + g->cnt[r];
    g->total = g->off[nk];
    int nruns = 0, local = 0;
    int *first_run = malloc(sizeof(int) * (size_t)nk);
    int *count_runs = calloc((size_t)nk, sizeof(int));
    if (!first_run || !count_runs) {
        free(fill); free(first_run); free(count_runs);
        pumma_groups_free(g);
        return PUMMA_ENOMEM;
    }
    for (int L = 0; L < nb; L++)
        if (pumma_dist_owner(d, L) == me || d->src < 0)
            count_runs[pumma_dist_owner(key, L)]++;
    for (int r = 0, acc = 0; r < nk; r++) { first_run[r] = acc; acc += count_runs[r]; }
    for (int L = 0; L < nb; L++) {
        if (!(pumma_dist_owner(d, L) == me || d->src < 0)) continue;
        int r = pumma_dist_owner(key, L), len = pumma_dist_bsize(d, L);
        int at = first_run[r]++;
        g->runs[at].local = local;
        g->runs[at].sorted = g->off[r] + fill[r];
        g->runs[at].len = len;
        g->run_group[at] = r;
        fill[r] += len;
        local += len;
        nruns++;
    }
    g->nruns = nruns;
    free(fill); free(first_run); free(count_runs);
    return PUMMA_OK;
}

void pumma_groups_free(pumma_groups_t *g)
{
    free(g->cnt); free(g->off); free(g->runs); free(g->run_group);
    g->cnt = g->off = NULL;
    g->runs = NULL;
    g->run_group = NULL;
}

pumma_dist_t pumma_dist_owned(const pumma_dist_t *d)
{
    pumma_dist_t o = *d;
    if (o.src < 0) o.src = 0;
    return o;
}

void pumma_view_desc(const pumma_view_t *v, int ctxt, int d[11])
{
    /* DTYPE CTXT M N IMB INB MB NB RSRC CSRC LLD; a first block longer
     * than the matrix is the matrix */
    const int ibr = v->row.ib < v->row.n ? v->row.ib : v->row.n;
    const int ibc = v->col.ib < v->col.n ? v->col.ib : v->col.n;
    d[0] = 2; d[1] = ctxt; d[2] = v->row.n; d[3] = v->col.n;
    d[4] = ibr > 0 ? ibr : 1; d[5] = ibc > 0 ? ibc : 1;
    d[6] = v->row.b; d[7] = v->col.b;
    d[8] = v->row.src; d[9] = v->col.src; d[10] = v->ld;
}

int pumma_view_alloc(const pumma_type_t *t, const pumma_grid_t *g,
                     pumma_view_t *v)
{
    const int ml = pumma_view_mloc(v, g->myrow), nl = pumma_view_nloc(v, g->mycol);
    v->ld = ml > 0 ? ml : 1;
    v->data = pumma_malloc((size_t)ml * (size_t)nl * t->size);
    return (ml && nl && !v->data) ? PUMMA_ENOMEM : PUMMA_OK;
}

int pumma_view_same_layout(const pumma_view_t *a, const pumma_view_t *b)
{
    return pumma_dist_same(&a->row, &b->row) &&
           pumma_dist_same(&a->col, &b->col);
}

pumma_view_t pumma_view_of(const pumma_type_t *t, const pumma_grid_t *g,
                           const void *base, const int d[11], int i0, int j0,
                           int rows, int cols)
{
    /* d: DTYPE CTXT M N IMB INB MB NB RSRC CSRC LLD */
    pumma_dist_t r = {d[2], d[4], d[6], d[8], g->nprow};
    pumma_dist_t c = {d[3], d[5], d[7], d[9], g->npcol};
    pumma_view_t v;
    int li = pumma_dist_before(&r, i0, g->myrow);
    int lj = pumma_dist_before(&c, j0, g->mycol);
    v.data = pumma_at(t, base, li, lj, d[10]);
    v.ld = d[10];
    v.row = pumma_dist_sub(&r, i0, rows);
    v.col = pumma_dist_sub(&c, j0, cols);
    return v;
}

/* The indices of d that grid coordinate who holds, as an interval list
 * (SRC/layout/pumma_ilist.c). */
int pumma_ilist_of_dist(const pumma_dist_t *d, int who, pumma_ilist_t *out)
{
    const int nb = pumma_dist_nblocks(d);
    pumma_ivl_t *v = malloc(sizeof(pumma_ivl_t) * (size_t)(nb + 1));
    if (!v) return PUMMA_ENOMEM;
    int k = 0;
    for (int b = 0; b < nb; b++) {
        const int o = pumma_dist_owner(d, b);
        if (o != who && o != -1) continue;
        const int lo = pumma_dist_bstart(d, b);
        v[k++] = (pumma_ivl_t){lo, lo + pumma_dist_bsize(d, b)};
    }
    int rc = pumma_ilist_union(v, k, out);
    free(v);
    return rc;
}
