/*
 * pumma_exec.h -- execution-time models of whole PDGEMM runs (seed 002,
 * Ichikawa and Yamashita): coefficients fitted by non-negative least
 * squares to measured times (SRC/model; not installed).
 */
#ifndef PUMMA_EXEC_H
#define PUMMA_EXEC_H

/*
 * Non-negative least squares (Lawson and Hanson's active-set method):
 * x >= 0 minimising || W (A x - b) ||_2, A m x n in column order (leading
 * dimension m), W = diag(w) (w NULL: all ones). The columns are scaled
 * to unit norm inside, so coefficients of N^3 and of 1 fit alike; a zero
 * column gets x = 0. *resid (if not NULL): the weighted residual norm.
 * Returns 0; 1 if the iteration limit (3n outer steps) was reached (x is
 * then feasible but perhaps not optimal); -1 out of memory or m, n < 1.
 */
int pumma_nnls(int m, int n, const double *A, const double *b,
               const double *w, double *x, double *resid);

#endif
