/*
 * pumma_switch.c -- pumma_use() and pumma_calls() (pumma.h): the plain
 * entry points PSGEMM ... PZGEMM run pumma (the default) or pass each call
 * on to the next definition of the same symbol in the process --
 * ScaLAPACK's own, found with dlsym(RTLD_NEXT) -- so that one program can
 * time its solvers both ways in one run (TIMING/solvertim.c); and they
 * count their calls either way.
 *
 * RTLD_NEXT looks past the object that asks: past libpumma.so when pumma
 * is a shared library (linked or preloaded), past the program when
 * libpumma.a is linked into it. Either way the next pdgemm_ is ScaLAPACK's
 * when the program links it.
 *
 * Under SimGrid's SMPI (built by `make smpi`, PUMMA_SMPI defined) programs
 * are linked statically with a ScaLAPACK whose own P?GEMM definitions are
 * renamed pumma_scalapack_p?gemm_ (INSTALL/smpi.mk): dlsym sees neither,
 * so the next definition is named outright.
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

#ifdef PUMMA_SMPI
extern pumma_pgemm_fn pumma_scalapack_psgemm_, pumma_scalapack_pdgemm_,
    pumma_scalapack_pcgemm_, pumma_scalapack_pzgemm_;
#endif

pumma_pgemm_fn *pumma_entry(const pumma_type_t *t)
{
    ncalls++;
    if (in_use) return NULL;
#ifdef PUMMA_SMPI
    return t->letter == 'S' ? pumma_scalapack_psgemm_
           : t->letter == 'D' ? pumma_scalapack_pdgemm_
           : t->letter == 'C' ? pumma_scalapack_pcgemm_
                              : pumma_scalapack_pzgemm_;
#endif
    static pumma_pgemm_fn *next[4];
    static const char *const name[4] = {STR(psgemm_F77), STR(pdgemm_F77),
                                        STR(pcgemm_F77), STR(pzgemm_F77)};
    const int i = t->letter == 'S' ? 0 : t->letter == 'D' ? 1
                : t->letter == 'C' ? 2 : 3;
    if (!next[i]) {
        void *f = dlsym(RTLD_NEXT, name[i]);
        if (!f)           /* every process's program: said once */
            pumma_stop_all("pumma: pumma_use(0): no other %s in this "
                           "program to pass calls to (link ScaLAPACK)\n",
                           name[i]);
        *(void **)&next[i] = f;
    }
    return next[i];
}
