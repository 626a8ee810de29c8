/* PSGEADD, PDGEADD, PCGEADD, PZGEADD: ScaLAPACK's entry points (pumma.h),
 * one definition made for each type; the work is pumma_geadd's
 * (SRC/driver/pumma_geadd.c). */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PGEADD_ENTRY(plain, T, type)                                   \
    PUMMA_API void plain(const char *trans, const int *m, const int *n,      \
                         const T *alpha, const T *a, const int *ia,          \
                         const int *ja, const int *desca, const T *beta,     \
                         T *c, const int *ic, const int *jc,                 \
                         const int *descc)                                   \
    {                                                                        \
        pumma_any_fn *next = pumma_entry_of(PUMMA_R_GEADD, &type);           \
        if (next) {                 /* pumma_use(0) */                       \
            ((__typeof__(plain) *)next)(trans, m, n, alpha, a, ia, ja,       \
                                        desca, beta, c, ic, jc, descc);      \
            return;                                                          \
        }                                                                    \
        pumma_geadd(&type, PUMMA_R_GEADD, NULL, trans, m, n, alpha, a, ia,   \
                    ja, desca, beta, c, ic, jc, descc);                      \
    }

PUMMA_PGEADD_ENTRY(psgeadd_F77, float, pumma_type_s)
PUMMA_PGEADD_ENTRY(pdgeadd_F77, double, pumma_type_d)
PUMMA_PGEADD_ENTRY(pcgeadd_F77, float, pumma_type_c)
PUMMA_PGEADD_ENTRY(pzgeadd_F77, double, pumma_type_z)
