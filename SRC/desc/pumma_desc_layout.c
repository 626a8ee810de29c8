/*
 * pumma_desc_layout.c -- heterogeneous descriptors: their entries, their
 * check, and any descriptor (block-cyclic or heterogeneous) seen as a side
 * of a remap.
 *
 * A heterogeneous descriptor has 9 integers, like ScaLAPACK's:
 *   1 DTYPE = PUMMA_DTYPE_LAYOUT (801)   2 CTXT   3 M   4 N
 *   5 LAYOUT (a handle from PUMMA_LAYOUT_NEW)   6-8 unused (0)   9 LLD
 * Process p of the context's grid (row-major position) stores the bounding
 * box of its region in the layout, column-major with leading dimension LLD.
 */
#include "pumma_desc.h"

enum { DTYPE_ = 0, CTXT_, M_, N_, LAY_, LLD_ = 8 };

int pumma_desc_is_layout(const int *d) { return d[DTYPE_] == PUMMA_DTYPE_LAYOUT; }

int pumma_desc_layout_check(const int *d, int nprow, int npcol, int myrow,
                            int mycol)
{
    const pumma_layout_t *L = pumma_layout_get(d[LAY_]);
    if (d[M_] < 1) return M_ + 1;
    if (d[N_] < 1) return N_ + 1;
    if (!L || L->np != nprow * npcol) return LAY_ + 1;
    if (d[M_] != L->m) return M_ + 1;
    if (d[N_] != L->n) return N_ + 1;
    const pumma_rect_t *b = &L->box[myrow * npcol + mycol];
    int rows = b->r1 - b->r0;
    if (d[LLD_] < (rows > 1 ? rows : 1)) return LLD_ + 1;
    return 0;
}

const pumma_layout_t *pumma_desc_layout(const int *d)
{
    return pumma_layout_get(d[LAY_]);
}

/* PUMMA_DESCINIT( DESC, M, N, LAYOUT, ICTXT, LLD, INFO ): see pumma.h. */
PUMMA_API void PUMMA_F77(pumma_descinit, PUMMA_DESCINIT)(
    int *desc, const int *m, const int *n, const int *layout,
    const int *ictxt, const int *lld, int *info)
{
    int nprow, npcol, myrow, mycol;
    const pumma_layout_t *L = pumma_layout_get(*layout);
    desc[DTYPE_] = PUMMA_DTYPE_LAYOUT;
    desc[CTXT_] = *ictxt;
    desc[M_] = *m;
    desc[N_] = *n;
    desc[LAY_] = *layout;
    desc[5] = desc[6] = desc[7] = 0;
    desc[LLD_] = *lld;
    Cblacs_gridinfo(*ictxt, &nprow, &npcol, &myrow, &mycol);
    if (!L || (L && *m != L->m)) {
        *info = L ? -2 : -4;
        return;
    }
    if (*n != L->n) { *info = -3; return; }
    if (nprow < 0 || L->np != nprow * npcol) { *info = nprow < 0 ? -5 : -4; return; }
    int e = pumma_desc_layout_check(desc, nprow, npcol, myrow, mycol);
    *info = e == LLD_ + 1 ? -6 : 0;
}

/* The m x n window at 0-based (i0, j0) of the matrix of descriptor d
 * (11-entry block-cyclic form, or heterogeneous), local array `data`. */
pumma_side_t pumma_side_of(const pumma_type_t *t, const pumma_grid_t *g,
                           const int *d, int is_layout, int i0, int j0, int m,
                           int n, void *data)
{
    pumma_side_t s = {0};
    s.m = m;
    s.n = n;
    s.nprow = g->nprow;
    s.npcol = g->npcol;
    s.data = data;
    if (is_layout) {
        s.kind = PUMMA_SIDE_LAYOUT;
        s.lay = pumma_layout_get(d[LAY_]);
        s.i0 = i0;
        s.j0 = j0;
        s.ld = d[LLD_];
    } else {
        /* the window as P?GEMM views a submatrix */
        pumma_view_t v = pumma_view_of(t, g, data, d, i0, j0, m, n);
        s.kind = PUMMA_SIDE_BC;
        s.row = v.row;
        s.col = v.col;
        s.ld = v.ld;
        s.data = v.data;
    }
    return s;
}
