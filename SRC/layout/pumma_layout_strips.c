/*
 * pumma_layout_strips.c -- the 1D layout: each process gets a strip of
 * whole columns, as wide as its share of the speeds (rounded to whole
 * columns). The simplest heterogeneous layout, and the one the 2D
 * layouts improve on: its sum of half-perimeters is (p + 1) N for N x N.
 */
#include <stdlib.h>

#include "pumma_layout.h"

int pumma_layout_strips(pumma_layout_t *L)
{
    int *w = malloc(sizeof(int) * (size_t)L->np);
    if (!w || pumma_layout_alloc(L, L->np)) {
        free(w);
        return 3;
    }
    pumma_layout_round(L->n, L->np, L->speed, w, 1);
    for (int p = 0, c0 = 0; p < L->np; c0 += w[p], p++)
        pumma_layout_add(L, p, 0, L->m, c0, c0 + w[p]);
    free(w);
    return 0;
}
