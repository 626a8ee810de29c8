/*
 * pumma_layout_clusters.c -- two-level layouts (issue 15; the next step
 * Becker and Lastovetsky 2007 state): the matrix is first partitioned among
 * clusters by one of the heterogeneous kinds (square-corner, rect3,
 * columns, strips), each cluster weighing the sum of its members' speeds,
 * and each cluster's region is then shared among its members.
 *
 * Inside a cluster the members take vertical bands of its region, of
 * areas proportional to their speeds: a block distribution, one block per
 * member, so each member's part is one rectangle of every rectangle of
 * the region and its bounding box (its local array) holds little else. A
 * cyclic distribution of small blocks inside would give each member a
 * bounding box of nearly the whole region: the local arrays of a layout
 * are bounding boxes (pumma_layout.h).
 */
#include <stdlib.h>

#include "pumma_layout.h"

int pumma_layout_clusters(pumma_layout_t *L)
{
    const int np = L->np;
    int rc = 3, nc = 0;
    int *cl = malloc(sizeof(int) * (size_t)np * 3), *member = cl + np,
        *cut = member + np;
    double *cs = calloc((size_t)np, sizeof(double));
    pumma_layout_t T = {0};
    long *h = NULL;
    int *npiece = calloc((size_t)np, sizeof(int));
    pumma_rect_t *piece = NULL;
    if (!cl || !cs || !npiece) goto out;
    /* clusters numbered by first member; their speeds the members' sums */
    for (int p = 0; p < np; p++) {
        int q = 0;
        while (q < p && L->cluster[q] != L->cluster[p]) q++;
        cl[p] = q < p ? cl[q] : nc++;
        cs[cl[p]] += L->speed[p];
    }
    double top = 0;
    for (int c = 0; c < nc; c++) top = cs[c] > top ? cs[c] : top;
    for (int c = 0; c < nc; c++) cs[c] /= top;
    T.kind = L->kind;
    T.m = L->m;
    T.n = L->n;
    T.np = nc;
    T.speed = cs;
    if ((rc = L->top(&T))) goto out;
    rc = 3;
    /* at most (rectangles of its cluster's region) pieces per member */
    piece = malloc(sizeof(pumma_rect_t) * (size_t)np *
                   (size_t)(T.first[nc] > 0 ? T.first[nc] : 1));
    h = calloc((size_t)L->n + 1, sizeof(long));
    if (!piece || !h) goto out;
    for (int c = 0; c < nc; c++) {
        const int r0 = T.first[c], r1 = T.first[c + 1];
        int nm = 0;
        double w = 0;
        for (int p = 0; p < np; p++)
            if (cl[p] == c) { member[nm++] = p; w += L->speed[p]; }
        if (r0 == r1) continue;            /* no region: create() says 2 */
        int b0 = L->n, b1 = 0;
        for (int r = r0; r < r1; r++) {
            if (T.rect[r].c0 < b0) b0 = T.rect[r].c0;
            if (T.rect[r].c1 > b1) b1 = T.rect[r].c1;
        }
        /* the region's height in each column, and its area */
        long area = 0;
        if (b0 < 0 || b1 > L->n) goto out;
        for (int j = b0; j < b1; j++) h[j] = 0;
        for (int r = r0; r < r1; r++)
            for (int j = T.rect[r].c0; j < T.rect[r].c1; j++)
                h[j] += T.rect[r].r1 - T.rect[r].r0;
        for (int j = b0; j < b1; j++) area += h[j];
        /* band k ends where the area so far is nearest its members'
         * share; each keeps a column, and leaves one for each after it */
        cut[0] = b0;
        double acc = 0, want = 0;
        int j = b0;
        for (int k = 0; k < nm - 1; k++) {
            want += (double)area * L->speed[member[k]] / w;
            if (j < b1) acc += (double)h[j++];
            while (j < b1 - (nm - 1 - k) && acc + 0.5 * (double)h[j] <= want)
                acc += (double)h[j++];
            cut[k + 1] = j;
        }
        cut[nm] = b1;
        for (int k = 0; k < nm; k++) {
            const int p = member[k];
            for (int r = r0; r < r1; r++) {
                const pumma_rect_t *x = &T.rect[r];
                int c0 = x->c0 > cut[k] ? x->c0 : cut[k];
                int c1 = x->c1 < cut[k + 1] ? x->c1 : cut[k + 1];
                if (c0 < c1)
                    piece[(size_t)p * (size_t)T.first[nc] + npiece[p]++] =
                        (pumma_rect_t){x->r0, x->r1, c0, c1};
            }
        }
    }
    int total = 0;
    for (int p = 0; p < np; p++) total += npiece[p];
    if (pumma_layout_alloc(L, total > 0 ? total : 1)) goto out;
    for (int p = 0; p < np; p++)
        for (int i = 0; i < npiece[p]; i++) {
            const pumma_rect_t *x = &piece[(size_t)p * (size_t)T.first[nc] + i];
            pumma_layout_add(L, p, x->r0, x->r1, x->c0, x->c1);
        }
    rc = 0;
out:
    free(T.first);
    free(T.rect);
    free(cl);
    free(cs);
    free(h);
    free(npiece);
    free(piece);
    return rc;
}

/* ------------------------------------------------ shares priced by links */

/* Elements of operand X (layout LX) that process p of LC's needs and
 * members of cluster c hold (-1: out of memory): for A (dim 0) the rows p's region of C spans
 * times all of A's columns, for B (dim 1) p's columns times all of B's
 * rows; each of X's rectangles met in that span counts whole along the
 * other dimension. */
static double held_by(const pumma_layout_t *LC, const pumma_layout_t *LX,
                      int p, int dim, const int *cl, int c)
{
    pumma_ilist_t span = {0, NULL};
    if (pumma_layout_spans(LC, p, dim, &span)) return -1;
    double cnt = 0;
    for (int q = 0; q < LX->np; q++) {
        if (cl[q] != c) continue;
        for (int r = LX->first[q]; r < LX->first[q + 1]; r++) {
            const pumma_rect_t *x = &LX->rect[r];
            const int lo = dim ? x->c0 : x->r0, hi = dim ? x->c1 : x->r1;
            long in = 0;
            for (int i = 0; i < span.n; i++) {
                int a = span.v[i].lo > lo ? span.v[i].lo : lo;
                int b = span.v[i].hi < hi ? span.v[i].hi : hi;
                if (a < b) in += b - a;
            }
            cnt += (double)in * (dim ? x->r1 - x->r0 : x->c1 - x->c0);
        }
    }
    pumma_ilist_free(&span);
    return cnt;
}

int pumma_layout_clusters_shares(int kind, int m, int n, int k, int np,
                                 const double *rate, const int *cluster,
                                 const double *beta, double esize,
                                 double *shares, double *t_out)
{
    /* the slower clusters' speeds scaled by f: from 1 (the speeds
     * themselves) down */
    static const double fs[] = {1, 0.7, 0.5, 0.35, 0.25, 0.18, 0.12, 0.09,
                                0.06, 0.045, 0.03, 0.02, 0.015, 0.01};
    int *cl = malloc(sizeof(int) * (size_t)np), nc = 0, fast = 0, rc = 3;
    double *eff = malloc(sizeof(double) * (size_t)np),
           *cs = calloc((size_t)np, sizeof(double)), best = -1;
    if (!cl || !eff || !cs) goto out;
    for (int p = 0; p < np; p++) {
        int q = 0;
        while (q < p && cluster[q] != cluster[p]) q++;
        cl[p] = q < p ? cl[q] : nc++;
        cs[cl[p]] += rate[p];
    }
    for (int c = 0; c < nc; c++)
        if (cs[c] > cs[fast]) fast = c;
    rc = 2;                      /* no layout at all: shares too small */
    for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) {
        for (int p = 0; p < np; p++)
            eff[p] = rate[p] * (cl[p] == fast ? 1 : fs[i]);
        int hc, ha, hb, ic, ia, ib;
        pumma_layout_create_clusters(kind, m, n, np, eff, cluster, &hc, &ic);
        pumma_layout_create_clusters(kind, m, k, np, eff, cluster, &ha, &ia);
        pumma_layout_create_clusters(kind, k, n, np, eff, cluster, &hb, &ib);
        if (ic < 0 || ia < 0 || ib < 0) {          /* bad arguments */
            rc = ic < 0 ? ic : ia < 0 ? ia : ib;
            break;
        }
        double t = -1;
        if (!ic && !ia && !ib) {
            const pumma_layout_t *LC = pumma_layout_get(hc),
                                 *LA = pumma_layout_get(ha),
                                 *LB = pumma_layout_get(hb);
            /* computing: each process's area times K at its rate; moving:
             * each cluster's uplink carries what other clusters' members
             * need of the A and B it holds */
            double comp = 0, *up = calloc((size_t)nc, sizeof(double));
            int nomem = !up;
            for (int p = 0; p < np && !nomem; p++) {
                double area = 0;
                for (int r = LC->first[p]; r < LC->first[p + 1]; r++)
                    area += (double)(LC->rect[r].r1 - LC->rect[r].r0) *
                            (LC->rect[r].c1 - LC->rect[r].c0);
                if (area * k / rate[p] > comp) comp = area * k / rate[p];
                for (int c = 0; c < nc; c++) {
                    if (c == cl[p]) continue;
                    const double ea = held_by(LC, LA, p, 0, cl, c),
                                 eb = held_by(LC, LB, p, 1, cl, c);
                    if (ea < 0 || eb < 0) { nomem = 1; break; }
                    up[c] += (ea + eb) * esize * beta[c * nc + cl[p]];
                }
            }
            t = comp;
            for (int c = 0; !nomem && c < nc; c++) t = up[c] > t ? up[c] : t;
            free(up);
            if (nomem) {                 /* a price not counted: no choice */
                pumma_layout_destroy(hc);
                pumma_layout_destroy(ha);
                pumma_layout_destroy(hb);
                rc = 3;
                goto out;
            }
        }
        pumma_layout_destroy(hc);
        pumma_layout_destroy(ha);
        pumma_layout_destroy(hb);
        if (t < 0) break;            /* shares too small from here on */
        if (best < 0 || t < best) {
            best = t;
            for (int p = 0; p < np; p++) shares[p] = eff[p];
            rc = 0;
        }
    }
    if (t_out) *t_out = best;
out:
    free(cl);
    free(eff);
    free(cs);
    return rc;
}
