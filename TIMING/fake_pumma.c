/*
 * fake_pumma.c -- a stand-in for libpumma.a used only by `make selfcheck`.
 *
 * Defines pdgemm_ (only: psgemm_, pcgemm_, pzgemm_ stay ScaLAPACK's) that counts
 * its calls and forwards to the next pdgemm_ in the lookup order after the main
 * program, i.e. ScaLAPACK's. It proves that
 *   - with the library before ScaLAPACK on the link line, the driver's plain
 *     pdgemm_ is this one (the driver compares pumma_fake_calls with its count),
 *   - dlsym(dlopen(libscalapack...), "pdgemm_") does not return this one
 *     (otherwise the calls would be counted twice, or the addresses equal),
 *   - a wrong result is caught: with PUMMA_FAKE_PERTURB set, C(1,1) on process
 *     (0,0) is changed by 1e-6 after the multiply and the driver must say WRONG.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int pumma_fake_calls = 0;

typedef void (*pgemm_fn)(const char *, const char *, const int *, const int *,
                         const int *, const double *, const double *, const int *,
                         const int *, const int *, const double *, const int *,
                         const int *, const int *, const double *, double *,
                         const int *, const int *, const int *);
void Cblacs_gridinfo(int, int *, int *, int *, int *);

void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic,
             const int *jc, const int *descc)
{
    static pgemm_fn next;
    if (!next) {
        next = (pgemm_fn)dlsym(RTLD_NEXT, "pdgemm_");
        if (!next || next == pdgemm_) {
            fprintf(stderr, "fake_pumma: no next pdgemm_\n");
            abort();
        }
    }
    pumma_fake_calls++;
    next(ta, tb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc,
         descc);
    if (getenv("PUMMA_FAKE_PERTURB")) {
        int nprow, npcol, myrow, mycol;
        Cblacs_gridinfo(descc[1], &nprow, &npcol, &myrow, &mycol);
        if (myrow == 0 && mycol == 0 && *ic == 1 && *jc == 1)
            c[0] += 1e-6;
    }
}
