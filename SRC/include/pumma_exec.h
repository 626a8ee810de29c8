/*
 * pumma_exec.h -- execution-time models of whole PDGEMM runs (Ichikawa and
 * Kawai 2008): coefficients fitted by non-negative least squares to
 * measured times (SRC/model; not installed).
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

/*
 * The models' terms.
 *
 * N-T (Ichikawa and Kawai 2008, eq. 2), one configuration, a square
 * problem of order N:
 *   T = k0 N^3 + k1 N^2 + k2 N + k3.
 *
 * NP-T for pumma, the terms of its algorithms' own costs (pumma_mdb.c's
 * engine_cost and its kin) on a p x q grid of P = pq processes, for
 * C(m x n) += A(m x k) B(k x n). The PUMMA algorithms roll one operand
 * around its grid dimension and cast the other along the other one: in
 * the column form A is rolled along the grid rows and B's blocks are
 * broadcast down the columns, in the row form (the -row algorithms) the
 * mirror. The planner takes the cheaper, so the terms are those of the
 * form that moves fewer bytes (the column form on a tie):
 *   t0 = mnk/P                        the local multiplies;
 *   t1 = (mk + kn + mn)/P             copies and packing of the shares;
 *   t2 = (m + n + k)/P, t3 = 1/P      per-row and fixed local costs;
 *   t4 = mk(q-1)/P  (row: kn(p-1)/P)  bytes rolled into a process;
 *   t5 = kn ceil(lg p)/q  (row: mk ceil(lg q)/p)
 *                                     bytes cast by trees (each level
 *                                     forwards the whole panel);
 *   t6 = k ceil(lg p)  (row: k ceil(lg q))
 *                                     tree latencies, a cast per block;
 *   t7 = q - 1  (row: p - 1)          the rolls, one per stage;
 *   t8 = k, t9 = 1                    per block of K and per call.
 * Ten coefficients, as the NP-T of Ichikawa and Kawai 2008 for HPL; on a
 * 1 x 1 grid t4..t7 vanish (no messages). N-T is NP-T's first and last
 * terms on one grid.
 */
enum { PUMMA_NT_TERMS = 4, PUMMA_NPT_TERMS = 10 };
void pumma_nt_terms(double n, double *t);
void pumma_npt_terms(double m, double n, double k, int p, int q, double *t);
/* sum k[i] t[i] */
double pumma_exec_eval(const double *k, const double *t, int nt);
/* Coefficients k (nt of them) fitted to ns measured times T from their
 * terms (rows: ns x nt, one sample per row) by pumma_nnls, each row
 * weighted 1/T (relative errors: the sizes span decades). pumma_nnls's
 * return code. */
int pumma_exec_fit(int ns, int nt, const double *rows, const double *T,
                   double *k);

/*
 * Configurations (Ichikawa and Kawai 2008): per processor kind i, P_i of
 * its processors used and M_i processes on each (M_i = 0 when P_i = 0),
 * P = sum P_i M_i processes on a p x q grid. The time of a configuration
 * is the slowest kind's, T = max_i T_i, each T_i from the model of kind i
 * with M_i processes per processor.
 */
enum { PUMMA_EXEC_MAXKINDS = 4 };
typedef struct pumma_exec_kind {
    int count;                    /* processors of this kind */
    int maxper;                   /* most processes on one of them */
} pumma_exec_kind_t;
typedef struct pumma_exec_config {
    int nkind, pe[PUMMA_EXEC_MAXKINDS], per[PUMMA_EXEC_MAXKINDS];
    int p, q;
    double t;                     /* estimated seconds */
} pumma_exec_config_t;
/* T_i: the model of kind `kind` with `per` processes per processor, at
 * (m, n, k) on p x q; < 0: no model (the configuration is skipped). */
typedef double (*pumma_exec_model_fn)(void *ctx, int kind, int per, double m,
                                      double n, double k, int p, int q);
/* Every configuration (each P_i from 0 to count_i, M_i from 1 to maxper_i
 * where used, at least one process, every p x q = P), estimated; the
 * `nbest` fastest into best, fastest first (ties: fewer processes, then
 * p <= q nearer square, then the order of enumeration). Returns how many
 * configurations were estimated. */
int pumma_exec_search(int nkind, const pumma_exec_kind_t *kinds,
                      pumma_exec_model_fn model, void *ctx, double m,
                      double n, double k, pumma_exec_config_t *best,
                      int nbest);
/* The estimation error of Ichikawa and Kawai 2008: (tau - T)/T, tau the
 * measured time of the estimated optimum, T the measured time of the
 * measured optimum. */
double pumma_exec_error(double tau, double T);

#endif
