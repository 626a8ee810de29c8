/* PUMMA_PSGEMR2D, PUMMA_PDGEMR2D, PUMMA_PCGEMR2D, PUMMA_PZGEMR2D: sub(B) :=
 * sub(A) between block-cyclic and heterogeneous descriptors (pumma.h). */
#include "pumma.h"
#include "pumma_fortran.h"

#define PUMMA_GEMR2D_ENTRY(lower, UPPER, T, type)                            \
    PUMMA_API void PUMMA_F77(lower, UPPER)(                                  \
        const int *m, const int *n, const T *a, const int *ia,               \
        const int *ja, const int *desca, T *b, const int *ib, const int *jb, \
        const int *descb, int *info)                                         \
    {                                                                        \
        PUMMA_FENV_CALL(pumma_gemr2d(&type, *m, *n, a, *ia, *ja, desca, b,  \
                                     *ib, *jb, descb, info));                \
    }
PUMMA_GEMR2D_ENTRY(pumma_psgemr2d, PUMMA_PSGEMR2D, float, pumma_type_s)
PUMMA_GEMR2D_ENTRY(pumma_pdgemr2d, PUMMA_PDGEMR2D, double, pumma_type_d)
PUMMA_GEMR2D_ENTRY(pumma_pcgemr2d, PUMMA_PCGEMR2D, float, pumma_type_c)
PUMMA_GEMR2D_ENTRY(pumma_pzgemr2d, PUMMA_PZGEMR2D, double, pumma_type_z)
