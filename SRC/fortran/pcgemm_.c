/* PCGEMM: ScaLAPACK's entry point, served by pumma (see pumma.h). */
#include "pumma.h"
#include "pumma_internal.h"

PUMMA_API void pcgemm_F77(const char *transa, const char *transb, const int *m,
                const int *n, const int *k, const float *alpha, const float *a,
                const int *ia, const int *ja, const int *desca, const float *b,
                const int *ib, const int *jb, const int *descb,
                const float *beta, float *c, const int *ic, const int *jc,
                const int *descc)
{
    pumma_gemm(&pumma_type_c, transa, transb, m, n, k, alpha, a, ia, ja,
               desca, b, ib, jb, descb, beta, c, ic, jc, descc);
}
