/*
 * pumma_layout_columns.c -- the column-based rectangular layout of Beaumont,
 * Boudet, Rastello and Robert ("Matrix multiplication on heterogeneous
 * platforms", 2001), for any number of processes.
 *
 * Each process gets one rectangle of area proportional to its speed; the
 * rectangles are arranged in columns, and the arrangement minimises the sum
 * of half-perimeters (the volume a matrix product moves). With the areas
 * sorted ascending, s_1 <= ... <= s_p (sum 1), an optimal arrangement puts
 * consecutive runs of them in columns, found by dynamic programming over
 * the prefix sums S:
 *
 *   f(0) = 0,  f(q) = min over r < q of  f(r) + M + (q - r)(S_q - S_r) N
 *
 * (a column holding processes r+1..q is (S_q - S_r) N wide and the heights
 * of its q - r rectangles add up to M; on the unit square this is the
 * paper's f(q) = min f(r) + 1 + (q - r)(S_q - S_r)). Column widths and then
 * the heights inside each column are rounded to whole columns and rows.
 */
#include <stdlib.h>

#include "pumma_layout.h"

int pumma_layout_columns(pumma_layout_t *L)
{
    const int np = L->np;
    int *order = malloc(sizeof(int) * (size_t)np);
    double *S = malloc(sizeof(double) * (size_t)(np + 1));
    double *f = malloc(sizeof(double) * (size_t)(np + 1));
    int *from = malloc(sizeof(int) * (size_t)(np + 1));
    int *cut = malloc(sizeof(int) * (size_t)(np + 1));
    double *w = malloc(sizeof(double) * (size_t)np);
    int *iw = malloc(sizeof(int) * (size_t)np);
    int *ih = malloc(sizeof(int) * (size_t)np);
    int rc = 3;
    if (!order || !S || !f || !from || !cut || !w || !iw || !ih ||
        pumma_layout_alloc(L, np))
        goto out;

    pumma_layout_by_speed(L, order);             /* ascending areas */
    double sum = 0;
    for (int i = 0; i < np; i++) sum += L->speed[i];
    S[0] = 0;
    for (int i = 0; i < np; i++) S[i + 1] = S[i] + L->speed[order[i]] / sum;

    f[0] = 0;
    for (int q = 1; q <= np; q++) {
        f[q] = -1;
        for (int r = 0; r < q; r++) {
            double v = f[r] + L->m + (q - r) * (S[q] - S[r]) * L->n;
            if (f[q] < 0 || v < f[q] - 1e-12 * (L->m + L->n)) {
                f[q] = v;
                from[q] = r;
            }
        }
    }
    /* The columns, left to right: cut[0] = 0 < cut[1] < ... = np. */
    int ncol = 0;
    for (int q = np; q > 0; q = from[q]) ncol++;
    cut[ncol] = np;
    for (int q = np, c = ncol; q > 0; q = from[q]) cut[--c] = from[q];

    for (int c = 0; c < ncol; c++) w[c] = S[cut[c + 1]] - S[cut[c]];
    pumma_layout_round(L->n, ncol, w, iw, 1);

    /* Rectangles are stored per process: fill (row, col) ranges by
     * process first, then add them in process order. */
    pumma_rect_t *mine = malloc(sizeof(pumma_rect_t) * (size_t)np);
    if (!mine) goto out;
    for (int c = 0, c0 = 0; c < ncol; c0 += iw[c], c++) {
        int k = cut[c + 1] - cut[c];
        for (int i = 0; i < k; i++) w[i] = L->speed[order[cut[c] + i]];
        pumma_layout_round(L->m, k, w, ih, 1);
        for (int i = 0, r0 = 0; i < k; r0 += ih[i], i++)
            mine[order[cut[c] + i]] =
                (pumma_rect_t){r0, r0 + ih[i], c0, c0 + iw[c]};
    }
    for (int p = 0; p < np; p++)
        pumma_layout_add(L, p, mine[p].r0, mine[p].r1, mine[p].c0,
                         mine[p].c1);
    free(mine);
    rc = 0;
out:
    free(order); free(S); free(f); free(from); free(cut);
    free(w); free(iw); free(ih);
    return rc;
}
