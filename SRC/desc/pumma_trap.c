/*
 * pumma_trap.c -- the trapezoids of a view: which local entries of each
 * local column lie in the upper or lower trapezoid of a distributed
 * submatrix, and the local work on them alone (scaling, adding) that
 * P?TRADD, P?SYRK, P?HERK, P?SYR2K and P?HER2K do, which must leave the
 * other triangle as it is -- not read, not written.
 *
 * A view's local rows are in increasing global order, so in each local
 * column the rows of an upper trapezoid are a prefix and those of a lower
 * one a suffix: one range per column, found with pumma_dist_before.
 */
#include <string.h>

#include "pumma_desc.h"

int pumma_dist_global(const pumma_dist_t *d, int l, int proc)
{
    if (d->src < 0) return l;
    const int ib = d->ib < d->n ? d->ib : d->n;
    const int dist = (proc - d->src + d->np) % d->np;
    int blk, in;
    if (dist == 0) {
        if (l < ib) return l;
        blk = d->np * (1 + (l - ib) / d->b);
        in = (l - ib) % d->b;
    } else {
        blk = dist + d->np * (l / d->b);
        in = l % d->b;
    }
    return ib + (blk - 1) * d->b + in;
}

void pumma_trap_rows(const pumma_view_t *v, int myrow, int gj, char uplo,
                     int off, int *r0, int *r1)
{
    const int m = v->row.n;
    int lim = gj + off;                /* the diagonal's row in column gj */
    if (uplo == 'U') {                 /* rows 0 .. lim */
        lim = lim + 1 < 0 ? 0 : lim + 1 > m ? m : lim + 1;
        *r0 = 0;
        *r1 = pumma_dist_before(&v->row, lim, myrow);
    } else {                           /* rows lim .. m-1 */
        lim = lim < 0 ? 0 : lim > m ? m : lim;
        *r0 = pumma_dist_before(&v->row, lim, myrow);
        *r1 = pumma_view_mloc(v, myrow);
    }
}

void pumma_trap_scale(const pumma_type_t *t, const pumma_view_t *v, int myrow,
                      int mycol, char uplo, const void *beta)
{
    if (t->is_one(beta)) return;
    const int nl = pumma_view_nloc(v, mycol);
    for (int j = 0; j < nl; j++) {
        int r0, r1;
        pumma_trap_rows(v, myrow, pumma_dist_global(&v->col, j, mycol), uplo,
                        0, &r0, &r1);
        if (r1 > r0)
            pumma_local_scale(t, r1 - r0, 1, beta,
                              pumma_at(t, v->data, r0, j, v->ld), v->ld);
    }
}

void pumma_trap_add(const pumma_type_t *t, const pumma_view_t *src,
                    const pumma_view_t *dst, int myrow, int mycol, char uplo,
                    const void *alpha, const void *beta)
{
    const int nl = pumma_view_nloc(dst, mycol);
    for (int j = 0; j < nl; j++) {
        int r0, r1;
        pumma_trap_rows(dst, myrow, pumma_dist_global(&dst->col, j, mycol),
                        uplo, 0, &r0, &r1);
        if (r1 > r0)
            t->geadd('N', r1 - r0, 1, alpha,
                     pumma_at(t, src->data, r0, j, src->ld), src->ld, beta,
                     pumma_at(t, dst->data, r0, j, dst->ld), dst->ld);
    }
}

void pumma_trap_real_diag(const pumma_type_t *t, const pumma_view_t *v,
                          int myrow, int mycol)
{
    if (!t->is_complex) return;
    const int nl = pumma_view_nloc(v, mycol);
    const size_t half = t->size / 2;
    for (int j = 0; j < nl; j++) {
        const int gj = pumma_dist_global(&v->col, j, mycol);
        int own, r;
        if (gj >= v->row.n) continue;
        own = pumma_dist_owner(&v->row, pumma_dist_block(&v->row, gj));
        if (own >= 0 && own != myrow) continue;
        r = pumma_dist_before(&v->row, gj, myrow);
        memset(pumma_at(t, v->data, r, j, v->ld) + half, 0, half);
    }
}

void pumma_trap_extract(const pumma_type_t *t, const pumma_view_t *src,
                        const pumma_view_t *dst, int myrow, int mycol,
                        char uplo, int off)
{
    const int ml = pumma_view_mloc(dst, myrow), nl = pumma_view_nloc(dst, mycol);
    if (ml <= 0) return;                 /* columns but no rows: no data */
    for (int j = 0; j < nl; j++) {
        int r0, r1;
        pumma_trap_rows(dst, myrow, pumma_dist_global(&dst->col, j, mycol),
                        uplo, off, &r0, &r1);
        char *dj = pumma_at(t, dst->data, 0, j, dst->ld);
        memset(dj, 0, (size_t)ml * t->size);
        if (r1 > r0)
            memcpy(dj + (size_t)r0 * t->size,
                   pumma_at(t, src->data, r0, j, src->ld),
                   (size_t)(r1 - r0) * t->size);
    }
}
