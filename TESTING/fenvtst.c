/*
 * fenvtst.c -- pumma leaves the caller's floating-point flags as it found
 * them (doc/floating-point.md): flags the caller raised before a
 * call are still raised after it, pumma's own bookkeeping (timing, the
 * model, planning, layouts) leaves none, and the flags the caller's
 * numbers raise in the multiply -- in the BLAS or in pumma's own sums of
 * partial products -- stay raised, as ScaLAPACK's would.
 *
 * Flags are read with fetestexcept, and on x86 with glibc the denormal
 * flag too (gfortran's IEEE_DENORMAL; FE_ALL_EXCEPT leaves it out) from
 * fegetenv's MXCSR and x87 status word. Data are small integers where a
 * call must raise nothing (every product and sum is exact), so any flag
 * after such a call is pumma's. On a 1 x NP grid (2 processes: 1 x 2):
 *
 *   mpiexec -n 2 ./xfenvtst     one PASSED/FAILED line per case, then
 *                               "N passed, N failed"; status 1 on failure
 *
 * Also times the internal pumma_fenv_enter/leave (libpumma.a), if the
 * library has them (weak: the driver also links an older pumma, to show
 * that its cases fail there).
 */
#include <fenv.h>
#include <float.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "blacs.h"
#include "pumma_base.h"

#pragma weak pumma_fenv_enter
#pragma weak pumma_fenv_leave
#pragma weak pumma_fenv_data_begin
#pragma weak pumma_fenv_data_end

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GLIBC__)
#define FLAG_DENORM 0x02     /* glibc's __FE_DENORM: MXCSR's and x87's DE */
static unsigned denorm_raised(void)
{
    fenv_t e;
    fegetenv(&e);
    return (e.__mxcsr | e.__status_word) & FLAG_DENORM;
}
/* Raise DE as an operation would (it is in MXCSR's flags, not FE_*). */
static void denorm_raise(void)
{
    fenv_t e;
    fegetenv(&e);
    e.__mxcsr |= FLAG_DENORM;
    fesetenv(&e);
}
static void denorm_clear(void)
{
    fenv_t e;
    fegetenv(&e);
    e.__mxcsr &= ~(unsigned)FLAG_DENORM;
    e.__status_word &= (unsigned short)~FLAG_DENORM;
    fesetenv(&e);
}
#else
#define FLAG_DENORM 0
static unsigned denorm_raised(void) { return 0; }
static void denorm_raise(void) {}
static void denorm_clear(void) {}
#endif

/* Every flag raised: FE_* bits, and FLAG_DENORM. */
static unsigned raised(void)
{
    return (unsigned)fetestexcept(FE_ALL_EXCEPT) | denorm_raised();
}

static void clear_all(void)
{
    feclearexcept(FE_ALL_EXCEPT);
    denorm_clear();
}

static const char *names(unsigned f, char *buf, size_t len)
{
    static const struct { unsigned bit; const char *name; } tab[] = {
        {FE_INVALID, "invalid"}, {FE_DIVBYZERO, "divbyzero"},
        {FE_OVERFLOW, "overflow"}, {FE_UNDERFLOW, "underflow"},
        {FE_INEXACT, "inexact"}, {FLAG_DENORM, "denormal"}};
    buf[0] = 0;
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (tab[i].bit && (f & tab[i].bit))
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
                     buf[0] ? "," : "", tab[i].name);
    if (!buf[0]) snprintf(buf, len, "none");
    return buf;
}

static int me, np, ctxt, myrow, mycol, npass, nfail;

/* One case: ok on every process, reported by process 0. */
static void report(const char *what, int ok, unsigned got, unsigned want)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char g[96], w[96];
    if (all) npass++;
    else nfail++;
    if (me == 0)
        printf("%s %s (flags after: %s; expected: %s)\n",
               all ? "PASSED" : "FAILED", what, names(got, g, sizeof g),
               names(want, w, sizeof w));
}

/* An n x n block-cyclic matrix (blocks nb) on the 1 x np grid, entries
 * f(i, j) (global, 0-based). */
typedef double (*entry_fn)(int i, int j);
static double *matrix(int n, int nb, int *desc, entry_fn f)
{
    int zero = 0, info;
    int ml = numroc_(&n, &nb, &myrow, &zero, &(int){1});
    int nl = numroc_(&n, &nb, &mycol, &zero, &np);
    int lld = ml > 1 ? ml : 1;
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    double *x = calloc((size_t)lld * (size_t)(nl > 0 ? nl : 1), sizeof *x);
    for (int j = 0; j < nl; j++)
        for (int i = 0; i < ml; i++) {
            int gj = (j / nb * np + mycol) * nb + j % nb;
            x[i + (size_t)j * lld] = f ? f(i, gj) : 0;
        }
    return x;
}

static double small_a(int i, int j) { return (i * 3 + j) % 7 - 3; }
static double small_b(int i, int j) { return (i + j * 5) % 5 - 2; }

enum { N = 24, NB = 4 };

/* C := alpha*op(A)*op(B) + beta*C on small integers (alpha 1.5, beta 0.5:
 * still exact) with each transpose, through every public P?GEMM form. */
static int exact_calls(void)
{
    int da[9], db[9], dc[9], one = 1, n = N, info, ok = 1;
    double *a = matrix(N, NB, da, small_a), *b = matrix(N, NB, db, small_b);
    double *c = matrix(N, NB, dc, small_a);
    const double alpha = 1.5, beta = 0.5;
    static const char *const tr[] = {"NN", "TN", "NT", "TT"};
    for (int t = 0; t < 4; t++) {
        pdgemm_(&tr[t][0], &tr[t][1], &n, &n, &n, &alpha, a, &one, &one, da,
                b, &one, &one, db, &beta, c, &one, &one, dc);
        pumma_pdgemm_opts(&tr[t][0], &tr[t][1], &n, &n, &n, &alpha, a, &one,
                          &one, da, b, &one, &one, db, &beta, c, &one, &one,
                          dc, NULL, &info);
        ok = ok && info == 0;
    }
    free(a);
    free(b);
    free(c);
    return ok;
}

/* An n x n x k product whose entries are x*y*k: k = 4 split in two halves
 * over the grid's columns by NT (the partial products summed across
 * processes by the reduce `reduce`). */
static double big_x(int i, int j) { (void)i; (void)j; return 0x1p511; }
static double big_y(int i, int j) { (void)i; (void)j; return 1e154; }

static int overflow_call(int reduce, double *cval)
{
    int da[9], db[9], dc[9], one = 1, n = 4, k = 4, nb = 2, info, zero = 0;
    int ml = numroc_(&n, &nb, &myrow, &zero, &(int){1});
    int kl = numroc_(&k, &nb, &mycol, &zero, &np);
    int lld = ml > 1 ? ml : 1;
    descinit_(da, &n, &k, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    descinit_(db, &n, &k, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    descinit_(dc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    size_t cnt = (size_t)lld * (size_t)(kl > 0 ? kl : 1);
    double *a = malloc(cnt * sizeof *a), *b = malloc(cnt * sizeof *b);
    double *c = calloc(cnt, sizeof *c);
    for (size_t i = 0; i < cnt; i++) a[i] = big_x(0, 0), b[i] = big_y(0, 0);
    const double alpha = 1, beta = 0;
    pumma_options_t o = {.algo = PUMMA_ALGO_NT, .reduce = reduce};
    pumma_pdgemm_opts("N", "T", &n, &n, &k, &alpha, a, &one, &one, da, b,
                      &one, &one, db, &beta, c, &one, &one, dc, &o, &info);
    *cval = c[0];
    free(a);
    free(b);
    free(c);
    return info;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int nprow, npcol;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    unsigned f;
    char what[160];

    /* 1. Exact data, first calls (environment read, model, planning):
     * nothing raised before, nothing after. */
    clear_all();
    int ok = exact_calls();
    f = raised();
    report("exact data, P?GEMM and pumma_pdgemm_opts, first calls: no flag",
           ok && f == 0, f, 0);

    /* 2. The caller's flags, raised before, stay; pumma adds none. */
    clear_all();
    feraiseexcept(FE_DIVBYZERO | FE_UNDERFLOW | FE_INVALID);
    denorm_raise();
    const unsigned mine = raised();
    ok = exact_calls();
    f = raised();
    report("the caller's flags (divbyzero, underflow, invalid, denormal) "
           "kept", ok && f == mine, f, mine);

    /* 3. Flags in the x87 status word (long double arithmetic) too. */
    clear_all();
    volatile long double third = 1.0L;
    third /= 3;                                  /* x87 inexact */
    const unsigned x87 = raised();
    ok = exact_calls();
    f = raised();
    report("the caller's x87 flag (inexact from long double) kept",
           ok && f == x87 && x87 == FE_INEXACT, f, x87);

    /* 4. The speeds measured, layouts and costs, a heterogeneous PDGEMM
     * on exact data (pumma measures the grid's rates there): no flag. */
    clear_all();
    double *speeds = malloc(sizeof(double) * (size_t)np), hp = 0, low = 0;
    double vsq = 0, vrect = 0;
    int info, better, n = N, nm = 64, layout, kind = PUMMA_LAYOUT_COLUMNS;
    int topo = PUMMA_TOPO_FULL, one = 1;
    PUMMA_F77(pumma_speeds_measure, PUMMA_SPEEDS_MEASURE)(&ctxt, &nm, speeds,
                                                          &info);
    ok = info == 0;
    if (np == 2 || np == 3)
        PUMMA_F77(pumma_sqcorner_rule, PUMMA_SQCORNER_RULE)(
            &np, speeds, &topo, &vsq, &vrect, &better, &info);
    PUMMA_F77(pumma_layout_new, PUMMA_LAYOUT_NEW)(&kind, &n, &n, &np, speeds,
                                                  &layout, &info);
    ok = ok && info == 0;
    PUMMA_F77(pumma_layout_cost, PUMMA_LAYOUT_COST)(&layout, &hp, &low, &info);
    f = raised();
    report("PUMMA_SPEEDS_MEASURE, _SQCORNER_RULE, _LAYOUT_NEW, _LAYOUT_COST: "
           "no flag", ok && f == 0, f, 0);
    int i0, j0, mloc, nloc, hd[9], da[9], db[9];
    PUMMA_F77(pumma_layout_box, PUMMA_LAYOUT_BOX)(&layout, &me, &i0, &j0,
                                                  &mloc, &nloc, &info);
    int lld = mloc > 1 ? mloc : 1;
    PUMMA_F77(pumma_descinit, PUMMA_DESCINIT)(hd, &n, &n, &layout, &ctxt,
                                              &lld, &info);
    size_t cnt = (size_t)lld * (size_t)(nloc > 0 ? nloc : 1);
    double *ha = calloc(cnt, sizeof *ha), *hb = calloc(cnt, sizeof *hb);
    double *hc = calloc(cnt, sizeof *hc);
    double *a = matrix(N, NB, da, small_a), *b = matrix(N, NB, db, small_b);
    clear_all();
    PUMMA_F77(pumma_pdgemr2d, PUMMA_PDGEMR2D)(&n, &n, a, &one, &one, da, ha,
                                              &one, &one, hd, &info);
    PUMMA_F77(pumma_pdgemr2d, PUMMA_PDGEMR2D)(&n, &n, b, &one, &one, db, hb,
                                              &one, &one, hd, &info);
    const double alpha = 1, beta = 0;
    pdgemm_("N", "N", &n, &n, &n, &alpha, ha, &one, &one, hd, hb, &one, &one,
            hd, &beta, hc, &one, &one, hd);
    f = raised();
    report("PUMMA_PDGEMR2D and PDGEMM on a layout, exact data: no flag",
           f == 0, f, 0);
    PUMMA_F77(pumma_layout_free, PUMMA_LAYOUT_FREE)(&layout, &info);
    free(ha); free(hb); free(hc); free(a); free(b); free(speeds);

    /* 5. The caller's numbers overflow in the local multiply: kept. */
    clear_all();
    {
        int d1[9], d2[9], d3[9], m = 4;
        double *x = matrix(4, 2, d1, big_x), *y = matrix(4, 2, d2, big_x);
        double *z = matrix(4, 2, d3, NULL);
        pdgemm_("N", "N", &m, &m, &m, &alpha, x, &one, &one, d1, y, &one,
                &one, d2, &beta, z, &one, &one, d3);
        free(x); free(y); free(z);
    }
    f = raised();
    report("the caller's data overflow in the BLAS: overflow kept",
           (f & FE_OVERFLOW) != 0, f, FE_OVERFLOW | FE_INEXACT);

    /* 6. The sum of partial products overflows (each is finite): in MPI's
     * MPI_SUM, and in pumma's own geadd (ring, direct, scatter): kept. */
    static const struct { int code; const char *name; } red[] = {
        {PUMMA_REDUCE_MPI, "mpi"}, {PUMMA_REDUCE_RING, "ring"},
        {PUMMA_REDUCE_DIRECT, "direct"}, {PUMMA_REDUCE_SCATTER, "scatter"}};
    for (int r = 0; r < 4 && np > 1; r++) {
        clear_all();
        double c00;
        info = overflow_call(red[r].code, &c00);
        f = raised();
        const char *plan = pumma_last_plan();
        char want[32];
        snprintf(want, sizeof want, "reduce=%s ", red[r].name);
        snprintf(what, sizeof what, "the caller's partial products overflow "
                 "in their sum (%s): overflow kept", plan);
        /* c(1,1) is on process 0: +inf there */
        report(what, info == 0 && (f & FE_OVERFLOW) && strstr(plan, want) &&
                     (me != 0 || c00 > DBL_MAX),
               f, FE_OVERFLOW | FE_INEXACT);
    }

    /* 7. Quick returns and an illegal argument: the caller's flags, as
     * they were. */
    clear_all();
    feraiseexcept(FE_OVERFLOW);
    {
        int d[9], zero = 0, bad = -1;
        double *x = matrix(N, NB, d, small_a);
        pdgemm_("N", "N", &zero, &n, &n, &alpha, x, &one, &one, d, x, &one,
                &one, d, &beta, x, &one, &one, d);
        pumma_pdgemm_opts("N", "N", &n, &n, &n, &alpha, x, &bad, &one, d, x,
                          &one, &one, d, &beta, x, &one, &one, d, NULL, &info);
        ok = info != 0;
        free(x);
    }
    f = raised();
    report("a quick return and an illegal argument: the caller's flag only",
           ok && f == FE_OVERFLOW, f, FE_OVERFLOW);

    /* 8. What it costs: an entry and leave (the caller's flags clear, and
     * one raised), a data section; beside a small PDGEMM's time. */
    if (!pumma_fenv_enter) {
        report("cost: the library has no pumma_fenv_enter", 0, 0, 0);
    } else {
        enum { REPS = 1000000, CALLS = 200 };
        pumma_fenv_t s;
        double ns[3];
        for (int v = 0; v < 3; v++) {
            clear_all();
            if (v == 1) feraiseexcept(FE_INEXACT);
            double t0 = MPI_Wtime();
            if (v < 2) {
                for (int i = 0; i < REPS; i++) {
                    pumma_fenv_enter(&s);
                    pumma_fenv_leave(&s);
                }
            } else {
                pumma_fenv_enter(&s);
                for (int i = 0; i < REPS; i++) {
                    pumma_fenv_data_begin();
                    pumma_fenv_data_end();
                }
                pumma_fenv_leave(&s);
            }
            ns[v] = (MPI_Wtime() - t0) / REPS * 1e9;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < CALLS / 8; i++) exact_calls();
        const double call_us = (MPI_Wtime() - t0) / CALLS * 1e6;
        snprintf(what, sizeof what, "cost: enter+leave %.0f ns (%.0f ns with "
                 "a flag raised), data section %.0f ns; a %d x %d PDGEMM "
                 "%.0f us", ns[0], ns[1], ns[2], N, N, call_us);
        clear_all();
        report(what, ns[0] < 1000 && ns[1] < 1000 && ns[2] < 1000, 0, 0);
    }

    if (me == 0) printf("%d passed, %d failed\n", npass, nfail);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return nfail ? 1 : 0;
}
