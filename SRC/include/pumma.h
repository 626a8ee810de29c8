/*
 * pumma.h -- public C interface of pumma.
 *
 * pumma serves ScaLAPACK's PSGEMM, PDGEMM, PCGEMM and PZGEMM with the PUMMA
 * algorithms (Choi, Dongarra, Walker 1993). The entry points below have
 * ScaLAPACK's exact calling sequence: every argument is passed by address,
 * indices are 1-based and descriptors are ScaLAPACK array descriptors
 * (9 integers, DTYPE 1, or the 11-integer DTYPE 2 form with IMB/INB).
 *
 *   sub(C) := alpha * op(sub(A)) * op(sub(B)) + beta * sub(C)
 *
 *   op(X) = X, X**T ('T') or X**H ('C'; equals 'T' for real types);
 *   sub(A) = A(IA:IA+M-1, JA:JA+K-1) (or its K x M transpose), likewise B, C.
 *
 * Arguments (global unless noted; all input except C):
 *   TRANSA, TRANSB  'N', 'T' or 'C', either case.
 *   M, N, K         >= 0, sizes of op(sub(A)) (M x K), op(sub(B)) (K x N).
 *   ALPHA, BETA     scalars (complex: two reals, real part first).
 *   A, B            (local) local arrays of the distributed A and B; not modified.
 *   IA, JA, IB, JB  1-based global indices of the submatrices' first entries.
 *   DESCA, DESCB    descriptors of A and B.
 *   C               (local input/output) local array of C; only sub(C) changes.
 *   IC, JC, DESCC   as for A.
 *
 * Errors: an illegal argument is reported as ScaLAPACK does, by calling
 * PB_Cabort(ctxt, "PDGEMM", info) with info = -position for a scalar argument
 * and -(100*position + entry) for descriptor entry `entry` (1..11, the 11-entry
 * numbering); nothing is computed. Positions: TRANSA 1, TRANSB 2, M 3, N 4,
 * K 5, ALPHA 6, A 7, IA 8, JA 9, DESCA 10, B 11, IB 12, JB 13, DESCB 14,
 * BETA 15, C 16, IC 17, JC 18, DESCC 19. ScaLAPACK's PB_Cabort prints the error
 * and aborts the BLACS; a program that defines its own PB_Cabort (as ScaLAPACK's
 * testers do) receives the code instead.
 *
 * The environment variables that steer pumma are listed in README.
 */
#ifndef PUMMA_H
#define PUMMA_H

#include "pumma_mangle.h"

#ifdef __cplusplus
extern "C" {
#endif

void psgemm_F77(const char *transa, const char *transb, const int *m,
                const int *n, const int *k, const float *alpha, const float *a,
                const int *ia, const int *ja, const int *desca, const float *b,
                const int *ib, const int *jb, const int *descb,
                const float *beta, float *c, const int *ic, const int *jc,
                const int *descc);
void pdgemm_F77(const char *transa, const char *transb, const int *m,
                const int *n, const int *k, const double *alpha,
                const double *a, const int *ia, const int *ja,
                const int *desca, const double *b, const int *ib,
                const int *jb, const int *descb, const double *beta,
                double *c, const int *ic, const int *jc, const int *descc);
/* Complex arrays are passed as interleaved (re, im) pairs. */
void pcgemm_F77(const char *transa, const char *transb, const int *m,
                const int *n, const int *k, const float *alpha, const float *a,
                const int *ia, const int *ja, const int *desca, const float *b,
                const int *ib, const int *jb, const int *descb,
                const float *beta, float *c, const int *ic, const int *jc,
                const int *descc);
void pzgemm_F77(const char *transa, const char *transb, const int *m,
                const int *n, const int *k, const double *alpha,
                const double *a, const int *ia, const int *ja,
                const int *desca, const double *b, const int *ib,
                const int *jb, const int *descb, const double *beta,
                double *c, const int *ic, const int *jc, const int *descc);

#ifdef __cplusplus
}
#endif
#endif
