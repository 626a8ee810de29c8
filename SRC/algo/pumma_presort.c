/*
 * pumma_presort.c -- moving the block rows / columns of one group (see
 * pumma_groups_build) between a local array and a contiguous slab. This is
 * PUMMA's presorting (Fig. 8(b)): after it, the blocks a step multiplies, or
 * sends, are one matrix instead of a scatter of blocks.
 */
#include "pumma_algo.h"

/* op 'N' or 'R' (conjugate) on a source stored transposed (st): the same
 * copy reads the transpose, 'T' or 'C'. */
static char stored_op(char op, int st)
{
    return !st ? op : (op == 'R' ? 'C' : 'T');
}

/* 1 when presorting would not move anything: the groups' runs are already
 * in local order (one grid row, or one group). */
int pumma_groups_in_order(const pumma_groups_t *g)
{
    for (int r = 0; r < g->nruns; r++)
        if (g->runs[r].local != g->runs[r].sorted) return 0;
    return 1;
}

/* 1 when presorting d's indices held at grid coordinate `me` by their
 * owner in `key` would move nothing (a bound needs it from global values:
 * the workspace estimates). */
int pumma_groups_sorted_at(const pumma_dist_t *d, int me,
                           const pumma_dist_t *key)
{
    pumma_groups_t g = {0};
    if (pumma_groups_build(d, me, key, &g)) return 0;
    int in = pumma_groups_in_order(&g);
    pumma_groups_free(&g);
    return in;
}

/* 1 when group grp's indices are one contiguous local range (from *first). */
int pumma_groups_contiguous(const pumma_groups_t *g, int grp, int *first)
{
    int next = -1;
    for (int r = 0; r < g->nruns; r++) {
        if (g->run_group[r] != grp) continue;
        if (next >= 0 && g->runs[r].local != next) return 0;
        if (next < 0) *first = g->runs[r].local;
        next = g->runs[r].local + g->runs[r].len;
    }
    return next >= 0;
}

/* Copy every group's columns of src (m rows) into dst, in presorted order.
 * st: src holds the matrix transposed (its columns are src's rows). */
void pumma_presort_cols(const pumma_type_t *t, char op, int st,
                        const pumma_groups_t *g, int m, const void *src,
                        int lds, void *dst, int ldd)
{
    if (m <= 0) return;
    for (int r = 0; r < g->nruns; r++) {
        const pumma_run_t *u = &g->runs[r];
        const char *x = st ? pumma_at(t, src, u->local, 0, lds)
                           : pumma_at(t, src, 0, u->local, lds);
        t->geadd(stored_op(op, st), m, u->len, t->one, x, lds, t->zero,
                 pumma_at(t, dst, 0, u->sorted, ldd), ldd);
    }
}

/* Copy every group's rows of src (n columns) into dst, in presorted order. */
void pumma_presort_rows(const pumma_type_t *t, char op,
                        const pumma_groups_t *g, int n, const void *src,
                        int lds, void *dst, int ldd)
{
    if (n <= 0) return;
    for (int r = 0; r < g->nruns; r++) {
        const pumma_run_t *u = &g->runs[r];
        t->geadd(op, u->len, n, t->one, pumma_at(t, src, u->local, 0, lds),
                 lds, t->zero, pumma_at(t, dst, u->sorted, 0, ldd), ldd);
    }
}

/* Rows of run r of src (n columns; st: src stored transposed) into dst. */
void pumma_copy_run_rows(const pumma_type_t *t, char op, int st,
                         const pumma_run_t *u, int n, const void *src,
                         int lds, void *dst, int ldd)
{
    const char *x = st ? pumma_at(t, src, 0, u->local, lds)
                       : pumma_at(t, src, u->local, 0, lds);
    t->geadd(stored_op(op, st), u->len, n, t->one, x, lds, t->zero, dst, ldd);
}

/* Rows of group `grp` of src into a slab with its first row at row 0. */
void pumma_gather_rows(const pumma_type_t *t, char op, int st,
                       const pumma_groups_t *g, int grp, int n,
                       const void *src, int lds, void *dst, int ldd)
{
    if (n <= 0) return;
    for (int r = 0; r < g->nruns; r++) {
        const pumma_run_t *u = &g->runs[r];
        if (g->run_group[r] != grp) continue;
        pumma_copy_run_rows(t, op, st, u, n, src, lds,
                            pumma_at(t, dst, u->sorted - g->off[grp], 0, ldd),
                            ldd);
    }
}

/* dst rows of group `grp` := beta*dst + slab (slab row 0 = the group's
 * first row). */
void pumma_scatter_add_rows(const pumma_type_t *t, const pumma_groups_t *g,
                            int grp, int n, const void *slab, int lds,
                            const void *beta, void *dst, int ldd)
{
    if (n <= 0) return;
    for (int r = 0; r < g->nruns; r++) {
        const pumma_run_t *u = &g->runs[r];
        if (g->run_group[r] != grp) continue;
        t->geadd('N', u->len, n, t->one,
                 pumma_at(t, slab, u->sorted - g->off[grp], 0, lds), lds,
                 beta, pumma_at(t, dst, u->local, 0, ldd), ldd);
    }
}

/* dst columns of group `grp` from the group's column lo (in presorted
 * order), cnt of them, := beta*dst + slab (slab column 0 = that column). */
void pumma_scatter_add_cols(const pumma_type_t *t, const pumma_groups_t *g,
                            int grp, int lo, int cnt, int m, const void *slab,
                            int lds, const void *beta, void *dst, int ldd)
{
    if (m <= 0) return;
    const int hi = lo + cnt;
    for (int r = 0; r < g->nruns; r++) {
        const pumma_run_t *u = &g->runs[r];
        if (g->run_group[r] != grp) continue;
        /* The run's columns within the group, clipped to [lo, hi). */
        int a = u->sorted - g->off[grp], b = a + u->len;
        int x = a > lo ? a : lo, y = b < hi ? b : hi;
        if (x >= y) continue;
        t->geadd('N', m, y - x, t->one, pumma_at(t, slab, 0, x - lo, lds),
                 lds, beta, pumma_at(t, dst, 0, u->local + (x - a), ldd),
                 ldd);
    }
}
