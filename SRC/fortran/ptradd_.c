/* PSTRADD, PDTRADD, PCTRADD, PZTRADD: ScaLAPACK's entry points (pumma.h),
 * one definition made for each type; the work is pumma_geadd's
 * (SRC/driver/pumma_geadd.c), on sub(C)'s UPLO trapezoid. */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PTRADD_ENTRY(plain, T, type)                                   \
    PUMMA_API void plain(const char *uplo, const char *trans, const int *m,  \
                         const int *n, const T *alpha, const T *a,           \
                         const int *ia, const int *ja, const int *desca,     \
                         const T *beta, T *c, const int *ic, const int *jc,  \
                         const int *descc)                                   \
    {                                                                        \
        pumma_any_fn *next = pumma_entry_of(PUMMA_R_TRADD, &type);           \
        if (next) {                 /* pumma_use(0) */                       \
            ((__typeof__(plain) *)next)(uplo, trans, m, n, alpha, a, ia, ja, \
                                        desca, beta, c, ic, jc, descc);      \
            return;                                                          \
        }                                                                    \
        pumma_geadd(&type, PUMMA_R_TRADD, uplo, trans, m, n, alpha, a, ia,   \
                    ja, desca, beta, c, ic, jc, descc);                      \
    }

PUMMA_PTRADD_ENTRY(pstradd_F77, float, pumma_type_s)
PUMMA_PTRADD_ENTRY(pdtradd_F77, double, pumma_type_d)
PUMMA_PTRADD_ENTRY(pctradd_F77, float, pumma_type_c)
PUMMA_PTRADD_ENTRY(pztradd_F77, double, pumma_type_z)
