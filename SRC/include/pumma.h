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

#include <stddef.h>

/* pumma's version (also in pumma.pc). */
#define PUMMA_VERSION "0.4.0"

#include "pumma_codes.h"
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

/*
 * Per-call choices. Zero (PUMMA_*_AUTO) in a field means: the environment
 * variable's choice if set (PUMMA_ALGO, PUMMA_BCAST, ...), else pumma's own.
 *   algo     PUMMA_ALGO_*   (an algorithm that cannot compute the call's
 *                            TRANSA/TRANSB is replaced by one that can)
 *   bcast    PUMMA_BCAST_*  the broadcast (sdb, mdb1, mdb2 and -row, tt, tt-local)
 *   reduce   PUMMA_REDUCE_* combination of partial products (A**T*B, A*B**T)
 *   shift    PUMMA_SHIFT_*  the roll of A or B
 *   segment  bytes per pipelined piece (PUMMA_BCAST_PIPELINE and the
 *            segmented reduces); 0: the variant's default
 */
typedef struct pumma_options {
    int algo, bcast, reduce, shift;
    int segment;
} pumma_options_t;

/*
 * pumma_p?gemm_opts: P?GEMM with per-call choices. Arguments 1-19 as for
 * P?GEMM; OPTS may be NULL (as all fields zero). INFO (local output) is 0,
 * or the code P?GEMM would report (see above) and nothing is computed; a
 * bad option gives -20 (algo), -21 (bcast), -22 (reduce), -23 (shift) or
 * -24 (segment < 0). Unlike P?GEMM it never calls PB_Cabort.
 */
#define PUMMA_DECL_OPTS(name, T)                                             \
    void name(const char *transa, const char *transb, const int *m,          \
              const int *n, const int *k, const T *alpha, const T *a,        \
              const int *ia, const int *ja, const int *desca, const T *b,    \
              const int *ib, const int *jb, const int *descb,                \
              const T *beta, T *c, const int *ic, const int *jc,             \
              const int *descc, const pumma_options_t *opts, int *info);
PUMMA_DECL_OPTS(pumma_psgemm_opts, float)
PUMMA_DECL_OPTS(pumma_pdgemm_opts, double)
PUMMA_DECL_OPTS(pumma_pcgemm_opts, float)
PUMMA_DECL_OPTS(pumma_pzgemm_opts, double)

/*
 * Fortran entry points (the Fortran 90 module `pumma` and the F77 include
 * file pumma.fh declare them; see the README, "Fortran: the module pumma"):
 *
 *   PUMMA_P?GEMM( TRANSA, ..., DESCC, ALGO, BCAST, INFO )
 *     INTEGER ALGO (PUMMA_ALGO_*), BCAST (PUMMA_BCAST_*): input;
 *     INFO: output, as for pumma_p?gemm_opts (-20: bad ALGO, -21: bad BCAST).
 *   PUMMA_P?GEMMX( TRANSA, ..., DESCC, OPTS, INFO )
 *     INTEGER OPTS(PUMMA_NOPTS): input, the fields of pumma_options_t in
 *     their order (OPTS(PUMMA_OPT_ALGO), ..., OPTS(PUMMA_OPT_SEGMENT));
 *     INFO as for pumma_p?gemm_opts.
 *   PUMMA_LASTPLAN( PLAN ), PUMMA_MEMPEAK( RESET ), PUMMA_MEMRELEASE():
 *     pumma_last_plan, pumma_mem_peak and pumma_mem_release below
 *     (CHARACTER*(*) PLAN; INTEGER RESET; the functions are INTEGER*8).
 */
#define PUMMA_DECL_F77X(name, T, last)                                       \
    void name(const char *transa, const char *transb, const int *m,          \
              const int *n, const int *k, const T *alpha, const T *a,        \
              const int *ia, const int *ja, const int *desca, const T *b,    \
              const int *ib, const int *jb, const int *descb,                \
              const T *beta, T *c, const int *ic, const int *jc,             \
              const int *descc, last, int *info);
#define PUMMA_ALGO_BCAST const int *algo, const int *bcast
PUMMA_DECL_F77X(PUMMA_F77(pumma_psgemm, PUMMA_PSGEMM), float, PUMMA_ALGO_BCAST)
PUMMA_DECL_F77X(PUMMA_F77(pumma_pdgemm, PUMMA_PDGEMM), double, PUMMA_ALGO_BCAST)
PUMMA_DECL_F77X(PUMMA_F77(pumma_pcgemm, PUMMA_PCGEMM), float, PUMMA_ALGO_BCAST)
PUMMA_DECL_F77X(PUMMA_F77(pumma_pzgemm, PUMMA_PZGEMM), double, PUMMA_ALGO_BCAST)
PUMMA_DECL_F77X(PUMMA_F77(pumma_psgemmx, PUMMA_PSGEMMX), float, const int *opts)
PUMMA_DECL_F77X(PUMMA_F77(pumma_pdgemmx, PUMMA_PDGEMMX), double, const int *opts)
PUMMA_DECL_F77X(PUMMA_F77(pumma_pcgemmx, PUMMA_PCGEMMX), float, const int *opts)
PUMMA_DECL_F77X(PUMMA_F77(pumma_pzgemmx, PUMMA_PZGEMMX), double, const int *opts)

/* What the last P?GEMM call of this process that multiplied ran, as
 * "algo=mdb2 bcast=ring-inc reduce=- shift=simultaneous" (the names of
 * pumma_codes.h; "-": the algorithm used no such variant on that grid);
 * "" before any. Quick returns (M or N = 0, nothing to multiply) leave it. */
const char *pumma_last_plan(void);

/* Peak bytes of temporaries pumma had in use at once in this process since
 * the start or the last reset; reset != 0 then starts a new count from what
 * is in use now (nothing, between calls; the temporaries kept for the next
 * call, see pumma_mem_release, are not counted). */
size_t pumma_mem_peak(int reset);
/* pumma keeps up to six large freed temporaries for the next call (see
 * PUMMA_CACHE); this returns them to the system and says how many bytes. */
size_t pumma_mem_release(void);

#ifdef __cplusplus
}
#endif
#endif
