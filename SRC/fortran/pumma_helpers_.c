/* The Fortran forms of pumma's helpers (pumma.h): PUMMA_LASTPLAN,
 * PUMMA_MEMPEAK and PUMMA_MEMRELEASE, and the reading of the OPTS array of
 * PUMMA_P?GEMMX. Their names differ from the C ones (pumma_last_plan, ...)
 * so that no Fortran mangling (-DNoChange included) makes them collide. */
#include <stdint.h>
#include <string.h>

#include "pumma.h"
#include "pumma_fortran.h"

/* OPTS(1..6) = algo, bcast, reduce, shift, segment, topo: the order of
 * PUMMA_OPT_LIST and of pumma_options_t, which these asserts tie together. */
#define PUMMA_OPT_AT(N, v, s)                                                \
    _Static_assert(offsetof(pumma_options_t, N##_FIELD) / sizeof(int) ==     \
                       (v) - 1,                                              \
                   "pumma_options_t and PUMMA_OPT_LIST disagree on " s);
#define ALGO_FIELD algo
#define BCAST_FIELD bcast
#define REDUCE_FIELD reduce
#define SHIFT_FIELD shift
#define SEGMENT_FIELD segment
#define TOPO_FIELD topo
PUMMA_OPT_LIST(PUMMA_OPT_AT)
_Static_assert(sizeof(pumma_options_t) == PUMMA_NOPTS * sizeof(int),
               "pumma_options_t is not PUMMA_NOPTS integers");

pumma_options_t pumma_f77_options(const int *opts)
{
    pumma_options_t o;
    memcpy(&o, opts, sizeof o);
    return o;
}

/* SUBROUTINE PUMMA_LASTPLAN( PLAN ), CHARACTER*(*) PLAN: pumma_last_plan()
 * blank-padded (or cut) to LEN(PLAN). gfortran passes the hidden length
 * as a size_t after the arguments. */
PUMMA_API void PUMMA_F77(pumma_lastplan, PUMMA_LASTPLAN)(char *plan,
                                                        size_t len)
{
    const char *s = pumma_last_plan();
    size_t n = strlen(s);

    if (n > len)
        n = len;
    memcpy(plan, s, n);
    memset(plan + n, ' ', len - n);
}

/* INTEGER*8 FUNCTION PUMMA_MEMPEAK( RESET ): pumma_mem_peak(RESET). */
PUMMA_API int64_t PUMMA_F77(pumma_mempeak, PUMMA_MEMPEAK)(const int *reset)
{
    return (int64_t)pumma_mem_peak(*reset);
}

/* INTEGER*8 FUNCTION PUMMA_MEMRELEASE(): pumma_mem_release(). */
PUMMA_API int64_t PUMMA_F77(pumma_memrelease, PUMMA_MEMRELEASE)(void)
{
    return (int64_t)pumma_mem_release();
}
