/*
 * pumma_layout_sqcorner.c -- the square-corner layouts (Becker and
 * Lastovetsky: two processes, Cluster 2006; three processes, "Towards data
 * partitioning for parallel computing on three interconnected clusters").
 *
 * Two processes: the slower gets a q x q square in the bottom-right corner,
 * q = sqrt(S2/(S1+S2) M N); the faster the rest. A product moves 2qN
 * elements (N x N) instead of the N^2 of two strips: less when S1 > 3 S2.
 * Three processes: the two slower get squares in diagonally opposite
 * corners (top-left: the lower-numbered of them), the fastest the rest.
 * A product moves 2N(a + b) for sides a and b, and the two slower never
 * exchange data.
 *
 * Where they exist, for M x N (the partitioning argument -- areas in
 * proportion to speed, least sum of half-perimeters -- holds for
 * rectangles; r = min(M,N)/max(M,N), u = S2/S1 and v = S3/S1 the slower
 * speeds over the fastest's): a square must fit across the short side,
 * and the two must not share rows or columns, a + b <= min(M, N):
 *   two processes    q^2 = S2/(S1+S2) MN <= min(M,N)^2:  u <= r (1 + u)
 *   three processes  (sqrt(S2) + sqrt(S3))^2 MN <= min(M,N)^2:
 *                    (sqrt(u) + sqrt(v))^2 <= r (1 + u + v)
 * For a square matrix the first always holds and the second is the
 * (S2/S1)(S3/S1) <= 1/4 of Becker and Lastovetsky 2007 (2 sqrt(uv) <= 1).
 * Otherwise INFO = 1.
 * Sides are rounded to whole rows and columns; with the fastest owning
 * whole rows and columns outside the squares, it can compute that part of
 * C (C1 in the paper's Fig. 6) without communicating.
 */
#include <math.h>

#include "pumma_layout.h"

static int side(double share, int m, int n)
{
    int q = (int)lround(sqrt(share * (double)m * (double)n));
    return q < 1 ? 1 : q;
}

int pumma_layout_sqcorner(pumma_layout_t *L)
{
    const int m = L->m, n = L->n, mn = m < n ? m : n;
    int order[3];
    pumma_rect_t r[3][3];
    int cnt[3] = {0, 0, 0};
    double sum = 0;
    for (int p = 0; p < L->np; p++) sum += L->speed[p];
    pumma_layout_by_speed(L, order);           /* order[np-1]: fastest */
    if (pumma_layout_alloc(L, 5)) return 3;

    /* ratio: the short side over the long (shapes up to 2^31 - 1 are exact) */
    const double ratio = (double)mn / (double)(m > n ? m : n);
    if (L->np == 2) {
        int fast = order[1], slow = order[0];
        const double u = L->speed[slow] / L->speed[fast];
        if (m != n && u > ratio * (1 + u)) return 1;
        int q = side(L->speed[slow] / sum, m, n);
        if (q >= mn) return 2;
        r[slow][cnt[slow]++] = (pumma_rect_t){m - q, m, n - q, n};
        r[fast][cnt[fast]++] = (pumma_rect_t){0, m - q, 0, n};
        r[fast][cnt[fast]++] = (pumma_rect_t){m - q, m, 0, n - q};
    } else {
        int fast = order[2];
        double s1 = L->speed[fast] / sum, s2 = L->speed[order[0]] / sum,
               s3 = L->speed[order[1]] / sum;
        const double u = s2 / s1, v = s3 / s1, w = sqrt(u) + sqrt(v);
        if (m == n ? u * v > 0.25 : w * w > ratio * (1 + u + v)) return 1;
        int tl = order[0] < order[1] ? order[0] : order[1];
        int br = tl == order[0] ? order[1] : order[0];
        int a = side(L->speed[tl] / sum, m, n);
        int b = side(L->speed[br] / sum, m, n);
        /* Rounding up both may make them meet: give back a line. */
        while (a + b > mn) {
            if (a >= b) a--; else b--;
        }
        if (a < 1 || b < 1) return 2;
        r[tl][cnt[tl]++] = (pumma_rect_t){0, a, 0, a};
        r[br][cnt[br]++] = (pumma_rect_t){m - b, m, n - b, n};
        r[fast][cnt[fast]++] = (pumma_rect_t){0, a, a, n};
        r[fast][cnt[fast]++] = (pumma_rect_t){a, m - b, 0, n};
        r[fast][cnt[fast]++] = (pumma_rect_t){m - b, m, 0, n - b};
    }
    for (int p = 0; p < L->np; p++)
        for (int i = 0; i < cnt[p]; i++)
            pumma_layout_add(L, p, r[p][i].r0, r[p][i].r1, r[p][i].c0,
                             r[p][i].c1);
    return 0;
}
