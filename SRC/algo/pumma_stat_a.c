/*
 * pumma_stat_a.c -- "stat-a": C := alpha*op(A)*op(B) + beta*C with A kept
 * where it is (stationary A), for panel products where N is a few blocks
 * and A is the big operand: moving A (as the PUMMA algorithms and rankk
 * do) would cost far more than summing the small partial results.
 *
 * Each process multiplies its own part of op(A) -- its M indices times its
 * K indices -- by the K rows of op(B) that match, all N columns: a partial
 * product W of its M indices of C. The K indices of op(A) lie along one
 * grid dimension (A's columns for 'N', its rows for 'T'/'C'), so W is
 * summed along that dimension: W's columns are grouped by the process
 * that is to hold them, and each group is reduced to it with the reduce
 * variant (all groups in flight at once). The sums, R, then go into C with
 * BETA: in place when R has C's layout (op(A)'s rows distributed like C's
 * rows, A 'N'), else by one redistribution.
 *
 * op(B) reaches the processes as the K-slices they need, all N columns (N
 * is small): one redistribution to one grid line, then broadcasts along
 * the other dimension in chunks, each behind the multiply of the one
 * before (pumma_stat.c, feed_t).
 *
 * Needs nothing of the layouts. The code, shared with stat-b, is in
 * pumma_stat.c.
 */
#include "pumma_algo.h"

PUMMA_ALGO_ROW(stat_a, "stat-a",
               "A stays; op(B)'s K-slices sent to it, partial products of C "
               "(N small) reduced along A's K dimension",
               pumma_stat, 0);
