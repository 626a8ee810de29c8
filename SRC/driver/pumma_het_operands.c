/*
 * pumma_het_operands.c -- the Level-3 routines other than P?GEMM on
 * heterogeneous descriptors (doc/heterogeneous.md): each operand given as
 * a layout's window is copied (pumma_remap) into a block-cyclic temporary
 * of the same grid, the routine runs on the temporaries as on any
 * ScaLAPACK matrices, and the output's temporary is copied back into its
 * window. A block-cyclic operand is taken as it is. P?GEMM has schedules
 * of its own for layouts (pumma_het.c); these routines are served on them
 * at the price of the copies.
 */
#include "pumma_driver.h"

/* The temporaries' blocks: as P?GEMM's default panel of work, and never
 * so large that a small matrix leaves processes without a block. */
enum { TMP_NB = 64 };

static int tmp_nb(int n, int np)
{
    const int fair = (n + np - 1) / np;
    return fair < 1 ? 1 : fair < TMP_NB ? fair : TMP_NB;
}

int pumma_bc_in(const pumma_type_t *t, const pumma_grid_t *g, int ctxt,
                const int *raw, const int *d11, int i, int j, int rows,
                int cols, const void *data, int copy, pumma_bc_opnd_t *o)
{
    o->tmp = 0;
    if (!pumma_desc_is_layout(raw)) {
        o->data = (void *)data;
        o->i = i;
        o->j = j;
        for (int e = 0; e < 11; e++) o->d[e] = d11[e];
        return PUMMA_OK;
    }
    pumma_view_t v = {NULL, 1,
                      {rows, tmp_nb(rows, g->nprow), tmp_nb(rows, g->nprow),
                       0, g->nprow},
                      {cols, tmp_nb(cols, g->npcol), tmp_nb(cols, g->npcol),
                       0, g->npcol}};
    int rc = pumma_view_alloc(t, g, &v);
    if (rc) return rc;
    o->tmp = 1;
    o->data = v.data;
    o->i = o->j = 1;
    pumma_view_desc(&v, ctxt, o->d);
    if (!copy || rows == 0 || cols == 0) return PUMMA_OK;
    pumma_side_t src = pumma_side_of(t, g, raw, 1, i - 1, j - 1, rows, cols,
                                     (void *)data);
    pumma_side_t dst = pumma_side_view(g, &v, rows, cols);
    pumma_remap_t *r;
    rc = pumma_remap_start(t, g, &src, &dst, PUMMA_TOPO_FULL, NULL, 0, &r);
    if (!rc) rc = pumma_remap_wait(r);
    return rc;
}

int pumma_bc_out(const pumma_type_t *t, const pumma_grid_t *g,
                 const int *raw, int i, int j, int rows, int cols, void *data,
                 pumma_bc_opnd_t *o)
{
    int rc = PUMMA_OK;
    if (!o->tmp) return rc;
    if (rows > 0 && cols > 0) {
        pumma_view_t v = pumma_view_of(t, g, o->data, o->d, 0, 0, rows, cols);
        pumma_side_t src = pumma_side_view(g, &v, rows, cols);
        pumma_side_t dst = pumma_side_of(t, g, raw, 1, i - 1, j - 1, rows,
                                         cols, data);
        pumma_remap_t *r;
        rc = pumma_remap_start(t, g, &src, &dst, PUMMA_TOPO_FULL, NULL, 0,
                               &r);
        if (!rc) rc = pumma_remap_wait(r);
    }
    pumma_bc_free(o);
    return rc;
}

void pumma_bc_free(pumma_bc_opnd_t *o)
{
    if (o->tmp) pumma_free(o->data);
    o->tmp = 0;
    o->data = NULL;
}
