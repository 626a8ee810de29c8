/* PSTRAN, PDTRAN, PCTRANU, PZTRANU, PCTRANC, PZTRANC: ScaLAPACK's entry
 * points (pumma.h), one definition made for each; sub(C) := beta*sub(C)
 * + alpha*sub(A)**T (TRANC: **H), the work pumma_geadd's
 * (SRC/driver/pumma_geadd.c). */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PTRAN_ENTRY(plain, rout, T, type)                              \
    PUMMA_API void plain(const int *m, const int *n, const T *alpha,         \
                         const T *a, const int *ia, const int *ja,           \
                         const int *desca, const T *beta, T *c,              \
                         const int *ic, const int *jc, const int *descc)     \
    {                                                                        \
        pumma_any_fn *next = pumma_entry_of(rout, &type);                    \
        if (next) {                 /* pumma_use(0) */                       \
            ((__typeof__(plain) *)next)(m, n, alpha, a, ia, ja, desca, beta, \
                                        c, ic, jc, descc);                   \
            return;                                                          \
        }                                                                    \
        pumma_geadd(&type, rout, NULL, NULL, m, n, alpha, a, ia, ja, desca,  \
                    beta, c, ic, jc, descc);                                 \
    }

PUMMA_PTRAN_ENTRY(pstran_F77, PUMMA_R_TRAN, float, pumma_type_s)
PUMMA_PTRAN_ENTRY(pdtran_F77, PUMMA_R_TRAN, double, pumma_type_d)
PUMMA_PTRAN_ENTRY(pctranu_F77, PUMMA_R_TRANU, float, pumma_type_c)
PUMMA_PTRAN_ENTRY(pztranu_F77, PUMMA_R_TRANU, double, pumma_type_z)
PUMMA_PTRAN_ENTRY(pctranc_F77, PUMMA_R_TRANC, float, pumma_type_c)
PUMMA_PTRAN_ENTRY(pztranc_F77, PUMMA_R_TRANC, double, pumma_type_z)
