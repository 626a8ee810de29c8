/*
 * pumma_stat_b.c -- "stat-b": C := alpha*op(A)*op(B) + beta*C with B kept
 * where it is (stationary B), the mirror of stat-a (pumma_stat_a.c) for
 * panel products where M is a few blocks and B is the big operand.
 *
 * Each process multiplies the K columns of op(A) that match its own K
 * indices of op(B), all M rows, by its part of op(B): a partial product W
 * (M x its N indices). op(B)'s K indices lie along one grid dimension
 * (B's rows for 'N', its columns for 'T'/'C'), so W is summed along it:
 * W's rows are grouped by the process that is to hold them, and each
 * group is reduced to it with the reduce variant (all in flight at once).
 * The sums, R, then go into C with BETA: in place when R has C's layout
 * (op(B)'s columns distributed like C's columns, B 'N'), else by one
 * redistribution. op(A) reaches the processes by one redistribution into
 * the K-slices they need, all M rows (M is small), before the multiply.
 *
 * With B transposed (not conjugated), W**T = B * op(A)**T is made instead:
 * a GEMM whose long dimension is its first (M is small) runs well, where
 * op(A) * B**T with a short first dimension ran at two thirds of the
 * speed; its columns are C's rows, so groups are whole columns, and R**T
 * goes into C by a transposing redistribution.
 *
 * The code, stat-a's with `b_stays` set, is in pumma_stat.c.
 */
#include "pumma_algo.h"

PUMMA_ALGO_ROW(stat_b, "stat-b",
               "B stays; op(A)'s K-slices sent to it, partial products of C "
               "(M small) reduced along B's K dimension",
               pumma_stat, 1);
