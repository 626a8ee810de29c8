/*
 * pumma_clusters.c -- logical clusters: which processes of a grid share a
 * fast network (pumma_hier.h).
 *
 * Grouping (seed 004, section 3.3, after Lowekamp and Beguelin's ECO):
 * links are taken in increasing latency; a link between two clusters
 * merges them when every link inside the union stays within the bound of
 * its fastest one. A union only grows its spread as it grows (its slowest
 * link can only get slower, its fastest only faster), so a pair of
 * clusters refused once stays refused: each pair is judged once.
 */
#include <stdlib.h>

#include "pumma_hier.h"

typedef struct edge { double l; int i, j; } edge_t;

static int by_latency(const void *a, const void *b)
{
    const edge_t *x = a, *y = b;
    if (x->l != y->l) return x->l < y->l ? -1 : 1;
    if (x->i != y->i) return x->i - y->i;
    return x->j - y->j;
}

/* The latency of link (a, b), read above the diagonal, at least floor. */
static double eff(const double *lat, int n, double floor, int a, int b)
{
    const double v = a < b ? lat[(size_t)a * n + b] : lat[(size_t)b * n + a];
    return v > floor ? v : floor;
}

int pumma_clusters_group(int n, const double *lat, double bound, double floor,
                         int *cl)
{
    if (n <= 0) return 0;
    const size_t ne = (size_t)n * (size_t)(n - 1) / 2;
    edge_t *e = malloc(sizeof(edge_t) * (ne ? ne : 1));
    int *rep = malloc(sizeof(int) * (size_t)n);      /* cluster of i */
    int *next = malloc(sizeof(int) * (size_t)n);     /* members, a list */
    double *lo = malloc(sizeof(double) * 2 * (size_t)n), *hi = lo + n;
    char *refused = calloc((size_t)n * (size_t)n, 1); /* by representatives */
    if (!e || !rep || !next || !lo || !refused) {
        free(e); free(rep); free(next); free(lo); free(refused);
        return -1;
    }
    size_t k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) e[k++] = (edge_t){eff(lat, n, floor, i, j), i, j};
    qsort(e, ne, sizeof(edge_t), by_latency);
    for (int i = 0; i < n; i++) {
        rep[i] = i;
        next[i] = -1;
        lo[i] = hi[i] = -1;             /* a cluster of one has no link */
    }
    for (k = 0; k < ne; k++) {
        const int a = rep[e[k].i], b = rep[e[k].j];
        if (a == b || refused[(size_t)a * n + b]) continue;
        /* the union's fastest and slowest links */
        double l = lo[a], h = hi[a];
        if (lo[b] >= 0 && (l < 0 || lo[b] < l)) l = lo[b];
        if (hi[b] > h) h = hi[b];
        for (int x = a; x >= 0; x = next[x])
            for (int y = b; y >= 0; y = next[y]) {
                const double v = eff(lat, n, floor, x, y);
                if (l < 0 || v < l) l = v;
                if (v > h) h = v;
            }
        if (h > (1 + bound) * l) {
            refused[(size_t)a * n + b] = refused[(size_t)b * n + a] = 1;
            continue;
        }
        /* b joins a: its members, and the pairs refused with it */
        int last = a;
        while (next[last] >= 0) last = next[last];
        next[last] = b;
        for (int y = b; y >= 0; y = next[y]) rep[y] = a;
        for (int x = 0; x < n; x++)
            if (refused[(size_t)b * n + x])
                refused[(size_t)a * n + x] = refused[(size_t)x * n + a] = 1;
        lo[a] = l;
        hi[a] = h;
    }
    /* numbered in the order of their first members */
    int nc = 0;
    for (int i = 0; i < n; i++) next[i] = -1;
    for (int i = 0; i < n; i++) {
        if (next[rep[i]] < 0) next[rep[i]] = nc++;
        cl[i] = next[rep[i]];
    }
    free(e); free(rep); free(next); free(lo); free(refused);
    return nc;
}
