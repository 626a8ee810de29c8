/*
 * fake_pumma.c -- a stand-in for libpumma.a used only by `make selfcheck`.
 *
 * Defines pdgemm_ (only: psgemm_, pcgemm_, pzgemm_ stay ScaLAPACK's) that counts
 * its calls and forwards to the next pdgemm_ in the lookup order after the main
 * program, i.e. ScaLAPACK's; and pumma_p?gemm_opts (all four), which check the
 * option codes against pumma_codes.h's lists, count their calls and forward to
 * ScaLAPACK's p?gemm_ likewise. pumma_mem_peak is deliberately absent (the
 * driver must then print '-'). It proves that
 *   - with the library before ScaLAPACK on the link line, the driver's plain
 *     pdgemm_ is this one (the driver compares pumma_fake_calls with its count),
 *     and pumma:KEY=VALUE implementations call pumma_p?gemm_opts
 *     (pumma_fake_opts_calls),
 *   - dlsym(dlopen(libscalapack...), "pdgemm_") does not return this one
 *     (otherwise the calls would be counted twice, or the addresses equal),
 *   - a wrong result is caught: with PUMMA_FAKE_PERTURB set, C(1,1) on process
 *     (0,0) is changed by 1e-6 after the multiply (pdgemm_ and
 *     pumma_pdgemm_opts) and the driver must say WRONG,
 *   - INFO != 0 stops the run: with PUMMA_FAKE_INFO=n set, pumma_p?gemm_opts
 *     computes nothing and returns INFO = n.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "pumma_codes.h"

int pumma_fake_calls = 0, pumma_fake_opts_calls = 0;

/* pumma.h's pumma_options_t (the fake does not include pumma.h: its p?gemm_
 * prototypes are typed, the fake's are not). */
typedef struct pumma_options {
    int algo, bcast, reduce, shift;
    int segment;
} pumma_options_t;

typedef void (*pgemm_fn)(const char *, const char *, const int *, const int *,
                         const int *, const void *, const void *, const int *,
                         const int *, const int *, const void *, const int *,
                         const int *, const int *, const void *, void *,
                         const int *, const int *, const int *);
void Cblacs_gridinfo(int, int *, int *, int *, int *);

static pgemm_fn next_of(const char *name)
{
    pgemm_fn f = (pgemm_fn)dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "fake_pumma: no next %s\n", name);
        abort();
    }
    return f;
}

static void perturb(const int *ic, const int *jc, const int *descc, double *c)
{
    if (getenv("PUMMA_FAKE_PERTURB")) {
        int nprow, npcol, myrow, mycol;
        Cblacs_gridinfo(descc[1], &nprow, &npcol, &myrow, &mycol);
        if (myrow == 0 && mycol == 0 && *ic == 1 && *jc == 1)
            c[0] += 1e-6;
    }
}

void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic,
             const int *jc, const int *descc)
{
    static pgemm_fn next;
    if (!next) {
        next = next_of("pdgemm_");
        if (next == (pgemm_fn)pdgemm_) {
            fprintf(stderr, "fake_pumma: no next pdgemm_\n");
            abort();
        }
    }
    pumma_fake_calls++;
    next(ta, tb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc,
         descc);
    perturb(ic, jc, descc, c);
}

/* INFO for the options as pumma gives it: -20 algo, ... -24 segment < 0. */
#define IS_CODE(N, v, s) || x == v
static int check_opts(const pumma_options_t *o)
{
    int x;
    if (!o)
        return 0;
    x = o->algo;
    if (!(0 PUMMA_ALGO_LIST(IS_CODE)))
        return -20;
    x = o->bcast;
    if (!(0 PUMMA_BCAST_LIST(IS_CODE)))
        return -21;
    x = o->reduce;
    if (!(0 PUMMA_REDUCE_LIST(IS_CODE)))
        return -22;
    x = o->shift;
    if (!(0 PUMMA_SHIFT_LIST(IS_CODE)))
        return -23;
    return o->segment < 0 ? -24 : 0;
}

#define FAKE_OPTS(name, next_name, is_d)                                             \
    void name(const char *ta, const char *tb, const int *m, const int *n,            \
              const int *k, const void *alpha, const void *a, const int *ia,         \
              const int *ja, const int *desca, const void *b, const int *ib,         \
              const int *jb, const int *descb, const void *beta, void *c,            \
              const int *ic, const int *jc, const int *descc,                        \
              const pumma_options_t *opts, int *info)                                \
    {                                                                                \
        static pgemm_fn next;                                                        \
        const char *fi = getenv("PUMMA_FAKE_INFO");                                  \
        if (!next)                                                                   \
            next = next_of(next_name);                                               \
        pumma_fake_opts_calls++;                                                     \
        *info = fi ? atoi(fi) : check_opts(opts);                                    \
        if (*info)                                                                   \
            return;                                                                  \
        next(ta, tb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c,    \
             ic, jc, descc);                                                         \
        if (is_d)                                                                    \
            perturb(ic, jc, descc, (double *)c);                                     \
    }
FAKE_OPTS(pumma_psgemm_opts, "psgemm_", 0)
FAKE_OPTS(pumma_pdgemm_opts, "pdgemm_", 1)
FAKE_OPTS(pumma_pcgemm_opts, "pcgemm_", 0)
FAKE_OPTS(pumma_pzgemm_opts, "pzgemm_", 0)
