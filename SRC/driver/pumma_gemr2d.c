/*
 * pumma_gemr2d.c -- sub(B) := sub(A) between any two descriptors of one
 * context, block-cyclic or heterogeneous (PUMMA_P?GEMR2D, pumma.h): how
 * ScaLAPACK matrices move into a heterogeneous layout and back. Checked,
 * then one remap.
 */
#include "pumma_driver.h"

void pumma_gemr2d(const pumma_type_t *t, int m, int n, const void *a, int ia,
                  int ja, const int *desca, void *b, int ib, int jb,
                  const int *descb, int *info)
{
    int dA[11], dB[11], ctxt;
    *info = pumma_check_gemr2d(m, n, ia, ja, desca, ib, jb, descb, dA, dB,
                               &ctxt);
    if (*info || m == 0 || n == 0) return;
    const pumma_grid_t *g = pumma_grid_enter(ctxt);
    if (!g) pumma_fatal(MPI_COMM_NULL, "PUMMA_GEMR2D", "no MPI communicator for the grid",
                        PUMMA_EGRID);
    const int la = pumma_desc_is_layout(desca), lb = pumma_desc_is_layout(descb);
    pumma_side_t sa = pumma_side_of(t, g, la ? desca : dA, la, ia - 1, ja - 1,
                                    m, n, (void *)a);
    pumma_side_t sb = pumma_side_of(t, g, lb ? descb : dB, lb, ib - 1, jb - 1,
                                    m, n, b);
    pumma_remap_t *r;
    int rc = pumma_remap_start(t, g, &sa, &sb, PUMMA_TOPO_FULL, NULL, 0, &r);
    if (!rc) rc = pumma_remap_wait(r);
    if (rc) pumma_fatal(g->all, "PUMMA_GEMR2D", "redistribution", rc);
}
