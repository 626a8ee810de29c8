/*
 * pumma_switch.c -- pumma_use() and pumma_calls() (pumma.h): the plain
 * entry points (P?GEMM and the rest of the Level-3 PBLAS) run pumma (the
 * default) or pass each call on to the next definition of the same symbol
 * in the process -- ScaLAPACK's own, found with dlsym(RTLD_NEXT) -- so
 * that one program can time its solvers both ways in one run
 * (TIMING/solvertim.c); and they count their calls either way.
 *
 * RTLD_NEXT looks past the object that asks: past libpumma.so when pumma
 * is a shared library (linked or preloaded), past the program when
 * libpumma.a is linked into it. Either way the next pdgemm_ is ScaLAPACK's
 * when the program links it.
 *
 * Under SimGrid's SMPI (built by `make smpi`, PUMMA_SMPI defined) programs
 * are linked statically with a ScaLAPACK whose own definitions of the
 * routines pumma serves are renamed pumma_scalapack_p?xxx_
 * (INSTALL/smpi.mk): dlsym sees neither, so the next definition is named
 * outright.
 */
#define _GNU_SOURCE            /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>

#include "pumma.h"
#include "pumma_driver.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static int in_use = 1;
static long ncalls = 0;

PUMMA_API int pumma_use(int on)
{
    const int was = in_use;
    in_use = on != 0;
    return was;
}

PUMMA_API long pumma_calls(int reset)
{
    const long n = ncalls;
    if (reset) ncalls = 0;
    return n;
}

/* Each routine's Fortran names, [rout][S D C Z]; one ScaLAPACK lacks
 * (PCTRAN, PSTRANU) is never asked for. */
#define FNAME(lo, UP) STR(PUMMA_F77(lo, UP))
#define NAMES(r, R)                                                          \
    {FNAME(ps##r, PS##R), FNAME(pd##r, PD##R), FNAME(pc##r, PC##R),          \
     FNAME(pz##r, PZ##R)}
static const char *const fname[PUMMA_NROUT][4] = {
    [PUMMA_R_GEMM] = NAMES(gemm, GEMM),    [PUMMA_R_SYMM] = NAMES(symm, SYMM),
    [PUMMA_R_HEMM] = NAMES(hemm, HEMM),    [PUMMA_R_SYRK] = NAMES(syrk, SYRK),
    [PUMMA_R_HERK] = NAMES(herk, HERK),    [PUMMA_R_SYR2K] = NAMES(syr2k, SYR2K),
    [PUMMA_R_HER2K] = NAMES(her2k, HER2K), [PUMMA_R_TRMM] = NAMES(trmm, TRMM),
    [PUMMA_R_TRSM] = NAMES(trsm, TRSM),    [PUMMA_R_GEADD] = NAMES(geadd, GEADD),
    [PUMMA_R_TRADD] = NAMES(tradd, TRADD), [PUMMA_R_TRAN] = NAMES(tran, TRAN),
    [PUMMA_R_TRANU] = NAMES(tranu, TRANU), [PUMMA_R_TRANC] = NAMES(tranc, TRANC),
};

#ifdef PUMMA_SMPI
/* ScaLAPACK's definitions as `make smpi` renames them (-DAdd_ there);
 * weak, so that a program without one links and is told at its call. */
#define SL(r)                                                                \
    extern void pumma_scalapack_ps##r##_(void) __attribute__((weak));        \
    extern void pumma_scalapack_pd##r##_(void) __attribute__((weak));        \
    extern void pumma_scalapack_pc##r##_(void) __attribute__((weak));        \
    extern void pumma_scalapack_pz##r##_(void) __attribute__((weak));
SL(gemm) SL(symm) SL(syrk) SL(syr2k) SL(trmm) SL(trsm) SL(geadd) SL(tradd)
extern void pumma_scalapack_pchemm_(void) __attribute__((weak));
extern void pumma_scalapack_pzhemm_(void) __attribute__((weak));
extern void pumma_scalapack_pcherk_(void) __attribute__((weak));
extern void pumma_scalapack_pzherk_(void) __attribute__((weak));
extern void pumma_scalapack_pcher2k_(void) __attribute__((weak));
extern void pumma_scalapack_pzher2k_(void) __attribute__((weak));
extern void pumma_scalapack_pstran_(void) __attribute__((weak));
extern void pumma_scalapack_pdtran_(void) __attribute__((weak));
extern void pumma_scalapack_pctranu_(void) __attribute__((weak));
extern void pumma_scalapack_pztranu_(void) __attribute__((weak));
extern void pumma_scalapack_pctranc_(void) __attribute__((weak));
extern void pumma_scalapack_pztranc_(void) __attribute__((weak));
#define SL4(r)                                                               \
    {pumma_scalapack_ps##r##_, pumma_scalapack_pd##r##_,                     \
     pumma_scalapack_pc##r##_, pumma_scalapack_pz##r##_}
static void (*const renamed[PUMMA_NROUT][4])(void) = {
    [PUMMA_R_GEMM] = SL4(gemm),   [PUMMA_R_SYMM] = SL4(symm),
    [PUMMA_R_HEMM] = {NULL, NULL, pumma_scalapack_pchemm_, pumma_scalapack_pzhemm_},
    [PUMMA_R_SYRK] = SL4(syrk),
    [PUMMA_R_HERK] = {NULL, NULL, pumma_scalapack_pcherk_, pumma_scalapack_pzherk_},
    [PUMMA_R_SYR2K] = SL4(syr2k),
    [PUMMA_R_HER2K] = {NULL, NULL, pumma_scalapack_pcher2k_, pumma_scalapack_pzher2k_},
    [PUMMA_R_TRMM] = SL4(trmm),   [PUMMA_R_TRSM] = SL4(trsm),
    [PUMMA_R_GEADD] = SL4(geadd), [PUMMA_R_TRADD] = SL4(tradd),
    [PUMMA_R_TRAN] = {pumma_scalapack_pstran_, pumma_scalapack_pdtran_, NULL, NULL},
    [PUMMA_R_TRANU] = {NULL, NULL, pumma_scalapack_pctranu_, pumma_scalapack_pztranu_},
    [PUMMA_R_TRANC] = {NULL, NULL, pumma_scalapack_pctranc_, pumma_scalapack_pztranc_},
};
#endif

pumma_any_fn *pumma_entry_of(int rout, const pumma_type_t *t)
{
    ncalls++;
    if (in_use) return NULL;
    const int i = t->letter == 'S' ? 0 : t->letter == 'D' ? 1
                : t->letter == 'C' ? 2 : 3;
    static pumma_any_fn *next[PUMMA_NROUT][4];
    if (!next[rout][i]) {
#ifdef PUMMA_SMPI
        pumma_any_fn *f = renamed[rout][i];
#else
        pumma_any_fn *f;
        *(void **)&f = dlsym(RTLD_NEXT, fname[rout][i]);
#endif
        if (!f)           /* every process's program: said once */
            pumma_stop_all("pumma: pumma_use(0): no other %s in this "
                           "program to pass calls to (link ScaLAPACK)\n",
                           fname[rout][i]);
        next[rout][i] = f;
    }
    return next[rout][i];
}

pumma_pgemm_fn *pumma_entry(const pumma_type_t *t)
{
    return (pumma_pgemm_fn *)pumma_entry_of(PUMMA_R_GEMM, t);
}
