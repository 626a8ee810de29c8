/*
 * pumma_nt.c -- C := alpha*A*B**T + beta*C (or B**H), the mirror of
 * A**T*B (PUMMA section 3.3, last paragraph): partial products are summed
 * along grid rows and B rolls up the grid columns.
 *
 * A (M x K) and B (N x K) share their column distribution. P stages: in
 * stage s grid row p holds the B slab that started in row c = (p + s) mod P.
 * Each process multiplies its A by op(its B slab)**T: a partial product of
 * the columns of C in that slab, summed along the grid row onto the grid
 * column owning them. The slab is presorted by that owner (one GEMM and one
 * reduce per destination column), and reduces stay in flight while the next
 * products are computed. As in A**T*B, BETA goes with the first write of
 * each element of C.
 *
 * Needs: B's columns distributed exactly like A's columns, A's rows like C's
 * rows, and B's rows blocked like C's columns.
 *
 * All of it is tn's code (pumma_tn.c) on the transposed problem C**T =
 * B**T*A**T, kept in the arrays' stored orientation: its costs, layouts
 * and temporaries are tn's, mirrored.
 */
#include "pumma_algo.h"

PUMMA_ALGO_ROW(nt, "nt",
               "A*B**T: partial products summed along grid rows, B rolled up",
               pumma_tn, 1);
