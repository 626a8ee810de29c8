/* PSGEMM: ScaLAPACK's entry point, and pumma's extended forms of it,
 * pumma_psgemm_opts (C), PUMMA_PSGEMM and PUMMA_PSGEMMX (Fortran);
 * see pumma.h. */
#include "pumma.h"
#include "pumma_internal.h"

PUMMA_API void psgemm_F77(const char *transa, const char *transb,
                          const int *m, const int *n, const int *k,
                          const float *alpha, const float *a, const int *ia,
                          const int *ja, const int *desca, const float *b,
                          const int *ib, const int *jb, const int *descb,
                          const float *beta, float *c, const int *ic,
                          const int *jc, const int *descc)
{
    pumma_pgemm_fn *next = pumma_entry(&pumma_type_s);
    if (next) {                 /* pumma_use(0) */
        next(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb,
             descb, beta, c, ic, jc, descc);
        return;
    }
    pumma_gemm(&pumma_type_s, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, NULL, NULL);
}

PUMMA_API void pumma_psgemm_opts(const char *transa, const char *transb,
                                 const int *m, const int *n, const int *k,
                                 const float *alpha, const float *a,
                                 const int *ia, const int *ja,
                                 const int *desca, const float *b,
                                 const int *ib, const int *jb,
                                 const int *descb, const float *beta, float *c,
                                 const int *ic, const int *jc,
                                 const int *descc,
                                 const pumma_options_t *opts, int *info)
{
    pumma_gemm(&pumma_type_s, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, opts, info);
}

PUMMA_API void PUMMA_F77(pumma_psgemm, PUMMA_PSGEMM)(
    const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const float *alpha, const float *a, const int *ia,
    const int *ja, const int *desca, const float *b, const int *ib,
    const int *jb, const int *descb, const float *beta, float *c, const int *ic,
    const int *jc, const int *descc, const int *algo, const int *bcast,
    int *info)
{
    pumma_options_t o = {.algo = *algo, .bcast = *bcast};
    pumma_gemm(&pumma_type_s, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, &o, info);
}

PUMMA_API void PUMMA_F77(pumma_psgemmx, PUMMA_PSGEMMX)(
    const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const float *alpha, const float *a, const int *ia,
    const int *ja, const int *desca, const float *b, const int *ib,
    const int *jb, const int *descb, const float *beta, float *c, const int *ic,
    const int *jc, const int *descc, const int *opts, int *info)
{
    pumma_options_t o = pumma_f77_options(opts);
    pumma_gemm(&pumma_type_s, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, &o, info);
}
