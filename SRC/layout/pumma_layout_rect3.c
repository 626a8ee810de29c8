/*
 * pumma_layout_rect3.c -- the 2D rectangular layout of three processes
 * (Becker and Lastovetsky 2007, Fig. 2): the fastest gets the left part,
 * full height; the other two share the right column of width q, one above
 * the other, each in proportion to its speed. Moving N^2 + N q =
 * N^2 + X + Y elements on a fully connected network (X, Y the two small
 * areas), and N^2 + 2(X + Y) on a linear array with the fastest in the
 * middle.
 */
#include <stdlib.h>

#include "pumma_layout.h"

int pumma_layout_rect3(pumma_layout_t *L)
{
    int order[3], w[2], h[2];
    if (pumma_layout_alloc(L, 3)) return 3;
    pumma_layout_by_speed(L, order);           /* order[2]: the fastest */
    double cw[2] = {L->speed[order[2]],
                    L->speed[order[0]] + L->speed[order[1]]};
    pumma_layout_round(L->n, 2, cw, w, 1);
    /* The upper of the two is the lower-numbered process. */
    int up = order[0] < order[1] ? order[0] : order[1];
    int lo = up == order[0] ? order[1] : order[0];
    double ch[2] = {L->speed[up], L->speed[lo]};
    pumma_layout_round(L->m, 2, ch, h, 1);
    pumma_rect_t r[3];
    r[order[2]] = (pumma_rect_t){0, L->m, 0, w[0]};
    r[up] = (pumma_rect_t){0, h[0], w[0], L->n};
    r[lo] = (pumma_rect_t){h[0], L->m, w[0], L->n};
    for (int p = 0; p < 3; p++)
        pumma_layout_add(L, p, r[p].r0, r[p].r1, r[p].c0, r[p].c1);
    return 0;
}
