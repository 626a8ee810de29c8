/* PSTRSM, PDTRSM, PCTRSM, PZTRSM: ScaLAPACK's entry points (pumma.h), one
 * definition made for each type; the work is pumma_trsm's
 * (SRC/driver/pumma_trsm.c, the engine of P?TRSM and P?TRMM). */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PTRSM_ENTRY(plain, T, type)                                    \
    PUMMA_API void plain(const char *side, const char *uplo,                 \
                         const char *transa, const char *diag, const int *m, \
                         const int *n, const T *alpha, const T *a,           \
                         const int *ia, const int *ja, const int *desca,     \
                         T *b, const int *ib, const int *jb,                 \
                         const int *descb)                                   \
    {                                                                        \
        pumma_any_fn *next = pumma_entry_of(PUMMA_R_TRSM, &type);            \
        if (next) {                 /* pumma_use(0) */                       \
            ((__typeof__(plain) *)next)(side, uplo, transa, diag, m, n,      \
                                        alpha, a, ia, ja, desca, b, ib, jb,  \
                                        descb);                              \
            return;                                                          \
        }                                                                    \
        pumma_trsm(&type, PUMMA_R_TRSM, side, uplo, transa, diag, m, n,      \
                   alpha, a, ia, ja, desca, b, ib, jb, descb);               \
    }

PUMMA_PTRSM_ENTRY(pstrsm_F77, float, pumma_type_s)
PUMMA_PTRSM_ENTRY(pdtrsm_F77, double, pumma_type_d)
PUMMA_PTRSM_ENTRY(pctrsm_F77, float, pumma_type_c)
PUMMA_PTRSM_ENTRY(pztrsm_F77, double, pumma_type_z)
