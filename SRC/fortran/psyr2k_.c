/* PSSYR2K, PDSYR2K, PCSYR2K, PZSYR2K, PCHER2K, PZHER2K: ScaLAPACK's entry
 * points (pumma.h), one definition made for each; P?HER2K's BETA is real.
 * The work is pumma_syrk's (SRC/driver/pumma_syrk.c). */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PSYR2K_ENTRY(plain, rout, T, type)                             \
    PUMMA_API void plain(const char *uplo, const char *trans, const int *n,  \
                         const int *k, const T *alpha, const T *a,           \
                         const int *ia, const int *ja, const int *desca,     \
                         const T *b, const int *ib, const int *jb,           \
                         const int *descb, const T *beta, T *c,              \
                         const int *ic, const int *jc, const int *descc)     \
    {                                                                        \
        pumma_any_fn *next = pumma_entry_of(rout, &type);                    \
        if (next) {                 /* pumma_use(0) */                       \
            ((__typeof__(plain) *)next)(uplo, trans, n, k, alpha, a, ia, ja, \
                                        desca, b, ib, jb, descb, beta, c,    \
                                        ic, jc, descc);                      \
            return;                                                          \
        }                                                                    \
        pumma_syrk(&type, rout, uplo, trans, n, k, alpha, a, ia, ja, desca,  \
                   b, ib, jb, descb, beta, c, ic, jc, descc);                \
    }

PUMMA_PSYR2K_ENTRY(pssyr2k_F77, PUMMA_R_SYR2K, float, pumma_type_s)
PUMMA_PSYR2K_ENTRY(pdsyr2k_F77, PUMMA_R_SYR2K, double, pumma_type_d)
PUMMA_PSYR2K_ENTRY(pcsyr2k_F77, PUMMA_R_SYR2K, float, pumma_type_c)
PUMMA_PSYR2K_ENTRY(pzsyr2k_F77, PUMMA_R_SYR2K, double, pumma_type_z)
PUMMA_PSYR2K_ENTRY(pcher2k_F77, PUMMA_R_HER2K, float, pumma_type_c)
PUMMA_PSYR2K_ENTRY(pzher2k_F77, PUMMA_R_HER2K, double, pumma_type_z)
