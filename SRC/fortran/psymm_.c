/* PSSYMM, PDSYMM, PCSYMM, PZSYMM, PCHEMM, PZHEMM: ScaLAPACK's entry points
 * (pumma.h), one definition made for each; the work is pumma_symm's
 * (SRC/driver/pumma_symm.c). */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_PSYMM_ENTRY(plain, rout, T, type)                              \
    PUMMA_API void plain(const char *side, const char *uplo, const int *m,   \
                         const int *n, const T *alpha, const T *a,           \
                         const int *ia, const int *ja, const int *desca,     \
                         const T *b, const int *ib, const int *jb,           \
                         const int *descb, const T *beta, T *c,              \
                         const int *ic, const int *jc, const int *descc)     \
    {                                                                        \
        pumma_any_fn *next = pumma_entry_of(rout, &type);                    \
        if (next) {                 /* pumma_use(0) */                       \
            ((__typeof__(plain) *)next)(side, uplo, m, n, alpha, a, ia, ja,  \
                                        desca, b, ib, jb, descb, beta, c,    \
                                        ic, jc, descc);                      \
            return;                                                          \
        }                                                                    \
        pumma_symm(&type, rout, side, uplo, m, n, alpha, a, ia, ja, desca,   \
                   b, ib, jb, descb, beta, c, ic, jc, descc);                \
    }

PUMMA_PSYMM_ENTRY(pssymm_F77, PUMMA_R_SYMM, float, pumma_type_s)
PUMMA_PSYMM_ENTRY(pdsymm_F77, PUMMA_R_SYMM, double, pumma_type_d)
PUMMA_PSYMM_ENTRY(pcsymm_F77, PUMMA_R_SYMM, float, pumma_type_c)
PUMMA_PSYMM_ENTRY(pzsymm_F77, PUMMA_R_SYMM, double, pumma_type_z)
PUMMA_PSYMM_ENTRY(pchemm_F77, PUMMA_R_HEMM, float, pumma_type_c)
PUMMA_PSYMM_ENTRY(pzhemm_F77, PUMMA_R_HEMM, double, pumma_type_z)
