/* PSSYRK, PDSYRK, PCSYRK, PZSYRK, PCHERK, PZHERK: ScaLAPACK's entry
 * points (pumma.h), one definition made for each; P?HERK's ALPHA and BETA
 * are real. The work is pumma_syrk's (SRC/driver/pumma_syrk.c). */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PSYRK_ENTRY(plain, rout, T, type)                              \
    PUMMA_API void plain(const char *uplo, const char *trans, const int *n,  \
                         const int *k, const T *alpha, const T *a,           \
                         const int *ia, const int *ja, const int *desca,     \
                         const T *beta, T *c, const int *ic, const int *jc,  \
                         const int *descc)                                   \
    {                                                                        \
        pumma_any_fn *next = pumma_entry_of(rout, &type);                    \
        if (next) {                 /* pumma_use(0) */                       \
            ((__typeof__(plain) *)next)(uplo, trans, n, k, alpha, a, ia, ja, \
                                        desca, beta, c, ic, jc, descc);      \
            return;                                                          \
        }                                                                    \
        pumma_syrk(&type, rout, uplo, trans, n, k, alpha, a, ia, ja, desca,  \
                   NULL, NULL, NULL, NULL, beta, c, ic, jc, descc);          \
    }

PUMMA_PSYRK_ENTRY(pssyrk_F77, PUMMA_R_SYRK, float, pumma_type_s)
PUMMA_PSYRK_ENTRY(pdsyrk_F77, PUMMA_R_SYRK, double, pumma_type_d)
PUMMA_PSYRK_ENTRY(pcsyrk_F77, PUMMA_R_SYRK, float, pumma_type_c)
PUMMA_PSYRK_ENTRY(pzsyrk_F77, PUMMA_R_SYRK, double, pumma_type_z)
PUMMA_PSYRK_ENTRY(pcherk_F77, PUMMA_R_HERK, float, pumma_type_c)
PUMMA_PSYRK_ENTRY(pzherk_F77, PUMMA_R_HERK, double, pumma_type_z)
