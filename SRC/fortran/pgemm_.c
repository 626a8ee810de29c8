/* PSGEMM, PDGEMM, PCGEMM, PZGEMM: ScaLAPACK's entry points, and pumma's
 * extended forms of them, pumma_p?gemm_opts (C), PUMMA_P?GEMM and
 * PUMMA_P?GEMMX (Fortran); see pumma.h. One definition, made for each
 * type below (the prototypes in pumma.h check every one of them); complex
 * arrays are interleaved (re, im) pairs of the real type. */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PGEMM_ENTRIES(plain, opts_c, f77, F77, f77x, F77X, T, type)      \
    PUMMA_API void plain(const char *transa, const char *transb,             \
                         const int *m, const int *n, const int *k,           \
                         const T *alpha, const T *a, const int *ia,          \
                         const int *ja, const int *desca, const T *b,        \
                         const int *ib, const int *jb, const int *descb,     \
                         const T *beta, T *c, const int *ic, const int *jc,  \
                         const int *descc)                                   \
    {                                                                        \
        pumma_pgemm_fn *next = pumma_entry(&type);                           \
        if (next) {                 /* pumma_use(0) */                       \
            next(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib,    \
                 jb, descb, beta, c, ic, jc, descc);                         \
            return;                                                          \
        }                                                                    \
        pumma_gemm(&type, transa, transb, m, n, k, alpha, a, ia, ja, desca,  \
                   b, ib, jb, descb, beta, c, ic, jc, descc, NULL, NULL);    \
    }                                                                        \
                                                                             \
    PUMMA_API void opts_c(const char *transa, const char *transb,            \
                          const int *m, const int *n, const int *k,          \
                          const T *alpha, const T *a, const int *ia,         \
                          const int *ja, const int *desca, const T *b,       \
                          const int *ib, const int *jb, const int *descb,    \
                          const T *beta, T *c, const int *ic, const int *jc, \
                          const int *descc, const pumma_options_t *opts,     \
                          int *info)                                         \
    {                                                                        \
        pumma_gemm(&type, transa, transb, m, n, k, alpha, a, ia, ja, desca,  \
                   b, ib, jb, descb, beta, c, ic, jc, descc, opts, info);    \
    }                                                                        \
                                                                             \
    PUMMA_API void PUMMA_F77(f77, F77)(                                      \
        const char *transa, const char *transb, const int *m, const int *n,  \
        const int *k, const T *alpha, const T *a, const int *ia,             \
        const int *ja, const int *desca, const T *b, const int *ib,          \
        const int *jb, const int *descb, const T *beta, T *c, const int *ic, \
        const int *jc, const int *descc, const int *algo, const int *bcast,  \
        int *info)                                                           \
    {                                                                        \
        pumma_options_t o = {.algo = *algo, .bcast = *bcast};                \
        pumma_gemm(&type, transa, transb, m, n, k, alpha, a, ia, ja, desca,  \
                   b, ib, jb, descb, beta, c, ic, jc, descc, &o, info);      \
    }                                                                        \
                                                                             \
    PUMMA_API void PUMMA_F77(f77x, F77X)(                                    \
        const char *transa, const char *transb, const int *m, const int *n,  \
        const int *k, const T *alpha, const T *a, const int *ia,             \
        const int *ja, const int *desca, const T *b, const int *ib,          \
        const int *jb, const int *descb, const T *beta, T *c, const int *ic, \
        const int *jc, const int *descc, const int *opts, int *info)         \
    {                                                                        \
        pumma_options_t o = pumma_f77_options(opts);                         \
        pumma_gemm(&type, transa, transb, m, n, k, alpha, a, ia, ja, desca,  \
                   b, ib, jb, descb, beta, c, ic, jc, descc, &o, info);      \
    }

PUMMA_PGEMM_ENTRIES(psgemm_F77, pumma_psgemm_opts, pumma_psgemm, PUMMA_PSGEMM,
                    pumma_psgemmx, PUMMA_PSGEMMX, float, pumma_type_s)
PUMMA_PGEMM_ENTRIES(pdgemm_F77, pumma_pdgemm_opts, pumma_pdgemm, PUMMA_PDGEMM,
                    pumma_pdgemmx, PUMMA_PDGEMMX, double, pumma_type_d)
PUMMA_PGEMM_ENTRIES(pcgemm_F77, pumma_pcgemm_opts, pumma_pcgemm, PUMMA_PCGEMM,
                    pumma_pcgemmx, PUMMA_PCGEMMX, float, pumma_type_c)
PUMMA_PGEMM_ENTRIES(pzgemm_F77, pumma_pzgemm_opts, pumma_pzgemm, PUMMA_PZGEMM,
                    pumma_pzgemmx, PUMMA_PZGEMMX, double, pumma_type_z)
