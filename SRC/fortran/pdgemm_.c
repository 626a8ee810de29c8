/* PDGEMM: ScaLAPACK's entry point, and pumma's extended forms of it,
 * pumma_pdgemm_opts (C), PUMMA_PDGEMM and PUMMA_PDGEMMX (Fortran);
 * see pumma.h. */
#include "pumma.h"
#include "pumma_internal.h"

PUMMA_API void pdgemm_F77(const char *transa, const char *transb,
                          const int *m, const int *n, const int *k,
                          const double *alpha, const double *a, const int *ia,
                          const int *ja, const int *desca, const double *b,
                          const int *ib, const int *jb, const int *descb,
                          const double *beta, double *c, const int *ic,
                          const int *jc, const int *descc)
{
    pumma_pgemm_fn *next = pumma_entry(&pumma_type_d);
    if (next) {                 /* pumma_use(0) */
        next(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb,
             descb, beta, c, ic, jc, descc);
        return;
    }
    pumma_gemm(&pumma_type_d, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, NULL, NULL);
}

PUMMA_API void pumma_pdgemm_opts(const char *transa, const char *transb,
                                 const int *m, const int *n, const int *k,
                                 const double *alpha, const double *a,
                                 const int *ia, const int *ja,
                                 const int *desca, const double *b,
                                 const int *ib, const int *jb,
                                 const int *descb, const double *beta, double *c,
                                 const int *ic, const int *jc,
                                 const int *descc,
                                 const pumma_options_t *opts, int *info)
{
    pumma_gemm(&pumma_type_d, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, opts, info);
}

PUMMA_API void PUMMA_F77(pumma_pdgemm, PUMMA_PDGEMM)(
    const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const double *alpha, const double *a, const int *ia,
    const int *ja, const int *desca, const double *b, const int *ib,
    const int *jb, const int *descb, const double *beta, double *c, const int *ic,
    const int *jc, const int *descc, const int *algo, const int *bcast,
    int *info)
{
    pumma_options_t o = {.algo = *algo, .bcast = *bcast};
    pumma_gemm(&pumma_type_d, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, &o, info);
}

PUMMA_API void PUMMA_F77(pumma_pdgemmx, PUMMA_PDGEMMX)(
    const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const double *alpha, const double *a, const int *ia,
    const int *ja, const int *desca, const double *b, const int *ib,
    const int *jb, const int *descb, const double *beta, double *c, const int *ic,
    const int *jc, const int *descc, const int *opts, int *info)
{
    pumma_options_t o = pumma_f77_options(opts);
    pumma_gemm(&pumma_type_d, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc, &o, info);
}
