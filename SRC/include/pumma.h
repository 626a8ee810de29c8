/*
 * pumma.h -- public C interface of pumma.
 *
 * pumma serves ScaLAPACK's Level-3 PBLAS -- P?GEMM, and the routines
 * declared further down (P?SYMM ... P?TRAN*) -- with the PUMMA algorithms
 * (Choi, Dongarra, Walker 1993). The P?GEMM entry points below have
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
 * The environment variables that steer pumma are listed in README and
 * described in doc/environment.md.
 */
#ifndef PUMMA_H
#define PUMMA_H

#include <stddef.h>

/* pumma's version (also in pumma.pc). */
#define PUMMA_VERSION "0.5.0"

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
 * The rest of ScaLAPACK's Level-3 PBLAS, with its calling sequences, every
 * argument by address (doc/routines.md): T is float for S and C, double
 * for D and Z, complex arrays and scalars interleaved (re, im) pairs;
 * P?HERK's ALPHA and BETA and P?HER2K's BETA are real (one T). Only the
 * first character of an option is read.
 */
#define PUMMA_DECL_SYMM(name, T)                                             \
    void name(const char *side, const char *uplo, const int *m, const int *n, \
              const T *alpha, const T *a, const int *ia, const int *ja,     \
              const int *desca, const T *b, const int *ib, const int *jb,   \
              const int *descb, const T *beta, T *c, const int *ic,         \
              const int *jc, const int *descc);
#define PUMMA_DECL_SYRK(name, T)                                             \
    void name(const char *uplo, const char *trans, const int *n,             \
              const int *k, const T *alpha, const T *a, const int *ia,       \
              const int *ja, const int *desca, const T *beta, T *c,          \
              const int *ic, const int *jc, const int *descc);
#define PUMMA_DECL_SYR2K(name, T)                                            \
    void name(const char *uplo, const char *trans, const int *n,             \
              const int *k, const T *alpha, const T *a, const int *ia,       \
              const int *ja, const int *desca, const T *b, const int *ib,    \
              const int *jb, const int *descb, const T *beta, T *c,          \
              const int *ic, const int *jc, const int *descc);
#define PUMMA_DECL_TRMM(name, T)                                             \
    void name(const char *side, const char *uplo, const char *transa,        \
              const char *diag, const int *m, const int *n, const T *alpha,  \
              const T *a, const int *ia, const int *ja, const int *desca,    \
              T *b, const int *ib, const int *jb, const int *descb);
#define PUMMA_DECL_GEADD(name, T)                                            \
    void name(const char *trans, const int *m, const int *n, const T *alpha, \
              const T *a, const int *ia, const int *ja, const int *desca,    \
              const T *beta, T *c, const int *ic, const int *jc,             \
              const int *descc);
#define PUMMA_DECL_TRADD(name, T)                                            \
    void name(const char *uplo, const char *trans, const int *m,             \
              const int *n, const T *alpha, const T *a, const int *ia,       \
              const int *ja, const int *desca, const T *beta, T *c,          \
              const int *ic, const int *jc, const int *descc);
#define PUMMA_DECL_TRAN(name, T)                                             \
    void name(const int *m, const int *n, const T *alpha, const T *a,        \
              const int *ia, const int *ja, const int *desca, const T *beta, \
              T *c, const int *ic, const int *jc, const int *descc);

/* sub(C) := alpha*sub(A)*sub(B) + beta*sub(C) (SIDE 'L') or alpha*sub(B)*sub(A)
 * + beta*sub(C) ('R'), sub(A) symmetric (Hermitian), its UPLO triangle
 * referenced. */
PUMMA_DECL_SYMM(pssymm_F77, float)
PUMMA_DECL_SYMM(pdsymm_F77, double)
PUMMA_DECL_SYMM(pcsymm_F77, float)
PUMMA_DECL_SYMM(pzsymm_F77, double)
PUMMA_DECL_SYMM(pchemm_F77, float)
PUMMA_DECL_SYMM(pzhemm_F77, double)
/* UPLO's triangle of sub(C) := alpha*op(sub(A))*op(sub(A))' + beta*sub(C),
 * ' the transpose (the conjugate transpose for P?HERK). */
PUMMA_DECL_SYRK(pssyrk_F77, float)
PUMMA_DECL_SYRK(pdsyrk_F77, double)
PUMMA_DECL_SYRK(pcsyrk_F77, float)
PUMMA_DECL_SYRK(pzsyrk_F77, double)
PUMMA_DECL_SYRK(pcherk_F77, float)
PUMMA_DECL_SYRK(pzherk_F77, double)
/* The same, alpha*op(A)*op(B)' + alpha*op(B)*op(A)' (P?HER2K: conj(alpha)
 * on the second). */
PUMMA_DECL_SYR2K(pssyr2k_F77, float)
PUMMA_DECL_SYR2K(pdsyr2k_F77, double)
PUMMA_DECL_SYR2K(pcsyr2k_F77, float)
PUMMA_DECL_SYR2K(pzsyr2k_F77, double)
PUMMA_DECL_SYR2K(pcher2k_F77, float)
PUMMA_DECL_SYR2K(pzher2k_F77, double)
/* sub(B) := alpha*op(sub(A))*sub(B) or alpha*sub(B)*op(sub(A)), sub(A)
 * triangular (P?TRMM); P?TRSM solves op(sub(A))*X = alpha*sub(B) or
 * X*op(sub(A)) = alpha*sub(B) for X, over sub(B). */
PUMMA_DECL_TRMM(pstrmm_F77, float)
PUMMA_DECL_TRMM(pdtrmm_F77, double)
PUMMA_DECL_TRMM(pctrmm_F77, float)
PUMMA_DECL_TRMM(pztrmm_F77, double)
PUMMA_DECL_TRMM(pstrsm_F77, float)
PUMMA_DECL_TRMM(pdtrsm_F77, double)
PUMMA_DECL_TRMM(pctrsm_F77, float)
PUMMA_DECL_TRMM(pztrsm_F77, double)
/* sub(C) := beta*sub(C) + alpha*op(sub(A)); P?TRADD on UPLO's trapezoid
 * of sub(C) only; P?TRAN (P?TRANU) op = transpose, P?TRANC conjugate
 * transpose. */
PUMMA_DECL_GEADD(psgeadd_F77, float)
PUMMA_DECL_GEADD(pdgeadd_F77, double)
PUMMA_DECL_GEADD(pcgeadd_F77, float)
PUMMA_DECL_GEADD(pzgeadd_F77, double)
PUMMA_DECL_TRADD(pstradd_F77, float)
PUMMA_DECL_TRADD(pdtradd_F77, double)
PUMMA_DECL_TRADD(pctradd_F77, float)
PUMMA_DECL_TRADD(pztradd_F77, double)
PUMMA_DECL_TRAN(pstran_F77, float)
PUMMA_DECL_TRAN(pdtran_F77, double)
PUMMA_DECL_TRAN(pctranu_F77, float)
PUMMA_DECL_TRAN(pztranu_F77, double)
PUMMA_DECL_TRAN(pctranc_F77, float)
PUMMA_DECL_TRAN(pztranc_F77, double)

/*
 * Per-call choices. Zero (PUMMA_*_AUTO) in a field means: the environment
 * variable's choice if set (PUMMA_ALGO, PUMMA_BCAST, ...), else pumma's own.
 *   algo     PUMMA_ALGO_*   (an algorithm that cannot compute the call's
 *                            TRANSA/TRANSB is replaced by one that can)
 *   bcast    PUMMA_BCAST_*  the broadcast (sdb, mdb1, mdb2 and -row, tt,
 *                            tt-local, rankk)
 *   reduce   PUMMA_REDUCE_* combination of partial products (tn, nt,
 *                            stat-a, stat-b)
 *   shift    PUMMA_SHIFT_*  the roll of A or B
 *   segment  bytes per pipelined piece (PUMMA_BCAST_PIPELINE and the
 *            segmented reduces); 0: the variant's default
 *   topo     PUMMA_TOPO_*   the network the heterogeneous schedules assume
 *            (het, het-overlap): FULL, or LINEAR (fastest process in the
 *            middle, the others' traffic relayed through it)
 */
typedef struct pumma_options {
    int algo, bcast, reduce, shift;
    int segment;
    int topo;
} pumma_options_t;

/*
 * pumma_p?gemm_opts: P?GEMM with per-call choices. Arguments 1-19 as for
 * P?GEMM; OPTS may be NULL (as all fields zero). INFO (local output) is 0,
 * or the code P?GEMM would report (see above) and nothing is computed; a
 * bad option gives -20 (algo), -21 (bcast), -22 (reduce), -23 (shift),
 * -24 (segment < 0) or -25 (topo). Unlike P?GEMM it never calls PB_Cabort.
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
 * file pumma.fh declare them; see doc/routines.md, "Fortran: the module
 * `pumma` and pumma.fh"):
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

/*
 * Heterogeneous layouts (doc/heterogeneous.md, "Heterogeneous layouts").
 * Like P?GEMM, these take every argument by address and have Fortran
 * names, for Fortran and C alike. Processes are numbered 0..NP-1 in
 * row-major order of the grid; indices are 1-based.
 *
 * PUMMA_LAYOUT_NEW( KIND, M, N, NP, SPEEDS, LAYOUT, INFO )
 *   KIND (PUMMA_LAYOUT_*), M, N, NP, SPEEDS(NP) > 0: global input, the
 *   same on every process; LAYOUT: the handle (global output, > 0).
 *   INFO = -i: argument i is illegal (NP: not a number of processes the
 *   kind handles: RECT3 3, SQUARE_CORNER 2 or 3); 1: no square-corner
 *   layout exists for these speeds and this shape: the slower processes'
 *   squares (areas in proportion to speed) do not fit along the short
 *   side, sum of sqrt(S_i/sum(S) M N) over them > min(M, N) (for N x N:
 *   (S2/S1)(S3/S1) > 1/4); 2: a share is too small for
 *   whole rows and columns of M x N; 3: out of memory (or 65536 layouts
 *   alive). A freed handle is not given out again (for 32767 reuses of
 *   its slot): descriptors naming it are refused.
 * PUMMA_LAYOUT_CLUSTERS( KIND, M, N, NP, SPEEDS, CLUSTERS, LAYOUT, INFO ):
 *   a two-level layout for processes in clusters (CLUSTERS(NP): each one's
 *   cluster, integers >= 0, equal for one cluster; see
 *   PUMMA_GRID_CLUSTERS): the clusters' regions by KIND for each cluster's
 *   speed, the sum of its members' SPEEDS (KIND's limits on the number of
 *   processes apply to the clusters: 2 or 3 for square-corner, 3 for
 *   rect3), then each region cut into vertical bands, one per member, of
 *   areas proportional to their speeds. INFO as PUMMA_LAYOUT_NEW, and -6:
 *   a cluster number < 0.
 * PUMMA_LAYOUT_FREE( LAYOUT, INFO )           INFO -1: no such layout
 * PUMMA_LAYOUT_BOX( LAYOUT, PROC, I0, J0, MLOC, NLOC, INFO ): process
 *   PROC stores rows I0..I0+MLOC-1, columns J0..J0+NLOC-1 (the bounding
 *   box of its region), column-major. INFO -1: layout, -2: PROC.
 * PUMMA_LAYOUT_NRECT( LAYOUT, PROC, NRECT, INFO ),
 * PUMMA_LAYOUT_RECT( LAYOUT, PROC, R, I1, I2, J1, J2, INFO ): PROC's
 *   region is NRECT rectangles, rectangle R is rows I1..I2, cols J1..J2.
 * PUMMA_LAYOUT_OWNER( LAYOUT, I, J, PROC, INFO ): the owner of (I, J).
 * PUMMA_LAYOUT_COST( LAYOUT, HALFPERIM, LOWER, INFO ): the sum over
 *   processes of the rows plus columns their region spans, and its lower
 *   bound 2*sum(sqrt(area)) (DOUBLE PRECISION).
 * PUMMA_SQCORNER_RULE( NP, SPEEDS, TOPO, VOLSQ, VOLRECT, BETTER, INFO ):
 *   for NP = 2 or 3, the elements a product of N x N matrices moves, per
 *   N**2, with square-corner (VOLSQ; -1 when none exists) and with the
 *   rectangular layout (VOLRECT), on topology TOPO; BETTER = 1 when
 *   square-corner moves less.
 * PUMMA_DESCINIT( DESC, M, N, LAYOUT, ICTXT, LLD, INFO ): a heterogeneous
 *   descriptor (9 integers: PUMMA_DTYPE_LAYOUT, ICTXT, M, N, LAYOUT, 0, 0,
 *   0, LLD), for any of P?GEMM's A, B and C (each on its own layout or
 *   block-cyclic, any M, N, K, windows IA, JA, ... as ScaLAPACK's). INFO -2/-3: M/N not the layout's, -4: no such layout or not
 *   one of the grid's size, -5: ICTXT, -6: LLD < MLOC.
 * PUMMA_SPEEDS_MEASURE( ICTXT, N, SPEEDS, INFO ): every process of the
 *   grid times an N x N x N local DGEMM (best of three, slowed as
 *   PUMMA_SPEEDS says); SPEEDS(NP) (global output) are the speeds in grid
 *   row-major order, normalised to sum 1. INFO -1: ICTXT, -2: N < 1.
 * PUMMA_GRID_CLUSTERS( ICTXT, CLUSTERS, INFO ): the grid's processes are
 *   in logical clusters (sites, machine rooms): CLUSTERS(NP) (global
 *   input, grid row-major order) gives each process's cluster, any
 *   integers >= 0, equal for the same cluster. Collective over the grid:
 *   measures the links between the clusters' coordinators and inside
 *   each, after which the grid's broadcasts go in two levels on rows and
 *   columns that span clusters (variant hier). Overrides PUMMA_CLUSTERS
 *   for this grid. INFO -1: ICTXT, -2: a number < 0.
 * PUMMA_GRID_SHARES( ICTXT, KIND, M, N, K, ELSIZE, SHARES, INFO ): the
 *   speeds to build the grid's two-level layouts with
 *   (PUMMA_LAYOUT_CLUSTERS of KIND) for C := A*B of M x N x K, elements of
 *   ELSIZE bytes, A, B and C each on such a layout: the processes'
 *   measured speeds, the slower clusters' scaled down as far as pays
 *   against the measured links between clusters (what the fast cluster's
 *   uplink must carry to them, priced beside the slowest process's
 *   multiply). SHARES(NP) in grid row-major order. Collective. One
 *   cluster: the speeds. INFO -1: ICTXT, -2: KIND (or its limits on the
 *   clusters), -3/-4/-5: M/N/K < 1, -6: ELSIZE < 1, 2: no layout exists,
 *   3: out of memory.
 * PUMMA_GRID_CLUSTERS_GET( ICTXT, CLUSTERS, NC, INFO ): the clusters the
 *   grid's calls use (set as above, or found as PUMMA_CLUSTERS says, which
 *   this call does if no P?GEMM has yet: collective), numbered from 0 in
 *   grid row-major order of first members, into CLUSTERS(NP); NC of them
 *   (1: one cluster, one level). INFO -1: ICTXT.
 * PUMMA_P?GEMR2D( M, N, A, IA, JA, DESCA, B, IB, JB, DESCB, INFO ):
 *   sub(B) := sub(A) (M x N), each descriptor block-cyclic or
 *   heterogeneous, both on DESCA's context. INFO as P?GEMM's codes for
 *   positions M 1, N 2, IA 4, JA 5, DESCA 6, IB 8, JB 9, DESCB 10.
 */
#define PUMMA_DECL_GEMR2D(name, T)                                           \
    void name(const int *m, const int *n, const T *a, const int *ia,         \
              const int *ja, const int *desca, T *b, const int *ib,          \
              const int *jb, const int *descb, int *info);
PUMMA_DECL_GEMR2D(PUMMA_F77(pumma_psgemr2d, PUMMA_PSGEMR2D), float)
PUMMA_DECL_GEMR2D(PUMMA_F77(pumma_pdgemr2d, PUMMA_PDGEMR2D), double)
PUMMA_DECL_GEMR2D(PUMMA_F77(pumma_pcgemr2d, PUMMA_PCGEMR2D), float)
PUMMA_DECL_GEMR2D(PUMMA_F77(pumma_pzgemr2d, PUMMA_PZGEMR2D), double)
void PUMMA_F77(pumma_layout_new, PUMMA_LAYOUT_NEW)(
    const int *kind, const int *m, const int *n, const int *np,
    const double *speeds, int *layout, int *info);
void PUMMA_F77(pumma_layout_clusters, PUMMA_LAYOUT_CLUSTERS)(
    const int *kind, const int *m, const int *n, const int *np,
    const double *speeds, const int *clusters, int *layout, int *info);
void PUMMA_F77(pumma_layout_free, PUMMA_LAYOUT_FREE)(const int *layout,
                                                     int *info);
void PUMMA_F77(pumma_layout_box, PUMMA_LAYOUT_BOX)(
    const int *layout, const int *proc, int *i0, int *j0, int *mloc,
    int *nloc, int *info);
void PUMMA_F77(pumma_layout_nrect, PUMMA_LAYOUT_NRECT)(
    const int *layout, const int *proc, int *nrect, int *info);
void PUMMA_F77(pumma_layout_rect, PUMMA_LAYOUT_RECT)(
    const int *layout, const int *proc, const int *r, int *i1, int *i2,
    int *j1, int *j2, int *info);
void PUMMA_F77(pumma_layout_owner, PUMMA_LAYOUT_OWNER)(
    const int *layout, const int *i, const int *j, int *proc, int *info);
void PUMMA_F77(pumma_layout_cost, PUMMA_LAYOUT_COST)(
    const int *layout, double *halfperim, double *lower, int *info);
void PUMMA_F77(pumma_sqcorner_rule, PUMMA_SQCORNER_RULE)(
    const int *np, const double *speeds, const int *topo, double *volsq,
    double *volrect, int *better, int *info);
void PUMMA_F77(pumma_speeds_measure, PUMMA_SPEEDS_MEASURE)(
    const int *ictxt, const int *n, double *speeds, int *info);
void PUMMA_F77(pumma_grid_clusters, PUMMA_GRID_CLUSTERS)(
    const int *ictxt, const int *clusters, int *info);
void PUMMA_F77(pumma_grid_clusters_get, PUMMA_GRID_CLUSTERS_GET)(
    const int *ictxt, int *clusters, int *nc, int *info);
void PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(
    const int *ictxt, const int *kind, const int *m, const int *n,
    const int *k, const int *elsize, double *shares, int *info);
void PUMMA_F77(pumma_descinit, PUMMA_DESCINIT)(
    int *desc, const int *m, const int *n, const int *layout,
    const int *ictxt, const int *lld, int *info);

/* What the last P?GEMM call of this process that multiplied ran, as
 * "algo=mdb2 bcast=ring-inc reduce=- shift=simultaneous" (the names of
 * pumma_codes.h; "-": the algorithm used no such variant on that grid);
 * "" before any. Quick returns (M or N = 0, nothing to multiply) leave it. */
const char *pumma_last_plan(void);

/* pumma_use(0) passes the calls of the plain entry points (P?GEMM and the
 * rest of the Level 3 above) on to the next definition of the symbol in
 * the program (ScaLAPACK's own, which it must link), pumma_use(1) (the
 * default) brings them back to pumma; returns the previous setting. For
 * timing a program both ways in one run. Every process of a grid must be
 * in the same setting when it calls. The extended entry points
 * (pumma_p?gemm_opts, PUMMA_P?GEMM[X]) always run pumma. */
int pumma_use(int on);
/* Calls of the plain entry points in this process, every routine's
 * (pumma's or passed on), since the start or the last reset; reset != 0
 * starts a new count. */
long pumma_calls(int reset);

/* Peak bytes of temporaries pumma had in use at once in this process since
 * the start or the last reset; reset != 0 then starts a new count from what
 * is in use now (nothing, between calls; the temporaries kept for the next
 * call, see pumma_mem_release, are not counted). */
size_t pumma_mem_peak(int reset);
/* pumma keeps freed temporaries for the next call (about the most it had
 * in use at once; see PUMMA_CACHE); this returns their pages to the
 * system and says how many bytes. */
size_t pumma_mem_release(void);

/* The version of the library the program runs with, "MAJOR.MINOR.PATCH"
 * (PUMMA_VERSION is the version of the header it was compiled with). */
const char *pumma_version(void);

#ifdef __cplusplus
}
#endif
#endif
