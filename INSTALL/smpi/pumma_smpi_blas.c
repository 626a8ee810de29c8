/*
 * pumma_smpi_blas.c -- SGEMM, DGEMM, CGEMM and ZGEMM for simulated runs
 * (INSTALL/smpi.mk links it into each program before the BLAS): every
 * caller's, pumma's and ScaLAPACK's alike.
 *
 * PUMMA_SMPI_COMPUTE unset: the BLAS's own, found past this program
 * (dlsym RTLD_NEXT), its time measured by SMPI as any computation.
 * Set to a compute model (TIMING/smpi/calibrate.c, `make -C TIMING
 * smpi-calibrate`): nothing is computed; the product's modelled time on
 * the calibrated machine, t = c0 + c1 m n k + c2 m n + c3 m k + c4 n k
 * for its type and transposes, is charged as t * ref flops (ref: that machine's
 * rate), so a simulated host of speed S takes t * ref / S. C is left as it
 * was: results are meaningless, times are the model's (Cornebize, Legrand
 * and Heinrich, IEEE Cluster 2019, do the same for HPL's dgemm).
 *
 * pumma's element-wise kernel (every copy, packing, sum and scaling of
 * the caller's numbers: geadd, SRC/base/pumma_type.c) is charged the same
 * way, t = c0 + c1 m n + c2 n (+ c3 m n when m n > big: beyond the
 * caches) for its type and kind (a copy or a sum, transposed or not),
 * through pumma_smpi_geadd below: under the model it
 * would otherwise run on folded memory that stays in cache, and cost less
 * than on a real node.
 *
 * A model that cannot be read, or lacks a type's line, stops the run with
 * one message naming the file and what is missing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void gemm_t(const char *, const char *, const int *, const int *,
                    const int *, const void *, const void *, const int *,
                    const void *, const int *, const void *, void *,
                    const int *);

static int mode = -1;               /* -1 unread, 0 real, 1 model */
static int have_model;              /* a model was read (mode may be off) */
static double coef[4][4][5];        /* [type sdcz][NN NT TN TT][c0..c4] */
static double gcoef[4][4][5];       /* [type][copy copyT add addT][c0..c3 big] */
static const char *const kinds[4] = {"copy", "copyT", "add", "addT"};
static double ref;                  /* the calibrated machine's flop/s */

static void stop(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "pumma (SMPI): PUMMA_SMPI_COMPUTE=");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static void load(void)
{
    const char *path = getenv("PUMMA_SMPI_COMPUTE");
    mode = have_model = path && *path;
    if (!mode) return;
    FILE *f = fopen(path, "r");
    if (!f) stop("%s: cannot be read%s", path, "");
    unsigned have = 0, ghave = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char ty, tr[3], kind[8];
        double c[5], r;
        if (sscanf(line, "machine %*s %*s ref=%lf", &r) == 1) ref = r;
        if (sscanf(line, "geadd type=%c kind=%7s c0=%lf c1=%lf c2=%lf c3=%lf "
                   "big=%lf", &ty, kind, &c[0], &c[1], &c[2], &c[3], &c[4]) == 7) {
            const char *t = strchr("sdcz", ty);
            int x = 0;
            while (x < 4 && strcmp(kind, kinds[x])) x++;
            if (!t || !*t || x == 4) continue;
            for (int i = 0; i < 5; i++) gcoef[t - "sdcz"][x][i] = c[i];
            ghave |= 1u << ((t - "sdcz") * 4 + x);
            continue;
        }
        if (sscanf(line, "gemm type=%c trans=%2s c0=%lf c1=%lf c2=%lf c3=%lf "
                   "c4=%lf", &ty, tr, &c[0], &c[1], &c[2], &c[3], &c[4]) != 7)
            continue;
        const char *t = strchr("sdcz", ty);
        const int x = (tr[0] != 'N') * 2 + (tr[1] != 'N');
        if (!t || !*t) continue;
        for (int i = 0; i < 5; i++) coef[t - "sdcz"][x][i] = c[i];
        have |= 1u << ((t - "sdcz") * 4 + x);
    }
    fclose(f);
    if (!(ref > 0)) stop("%s: no `machine ... ref=` line%s", path, "");
    if (have != 0xffffu)
        stop("%s: a `gemm type=.. trans=..` line is missing%s", path,
             " (16: s d c z by NN NT TN TT)");
    if (ghave != 0xffffu)
        stop("%s: a `geadd type=.. kind=..` line is missing%s", path,
             " (16: s d c z by copy copyT add addT, with c3= and big=; an"
             " older model: run make -C TIMING smpi-calibrate again)");
}

/*
 * Called by pumma's geadd (SRC/base/pumma_type.c, Y := alpha op(X) +
 * beta Y on m x n, type S D C or Z, trans N T C R, add: beta not 0) in
 * SMPI builds: under a compute model, charges its modelled time and
 * returns 1 (nothing is done); else 0 (the kernel runs).
 */
int pumma_smpi_geadd(char type, char trans, int m, int n, int add)
{
    if (mode < 0) load();
    if (!mode) return 0;
    const char *t = strchr("SDCZ", type);
    if (!t || !*t || m <= 0 || n <= 0) return 1;
    const int x = (add != 0) * 2 + (trans == 'T' || trans == 'C');
    const double *c = gcoef[t - "SDCZ"][x];
    const double mn = (double)m * n;
    const double s = c[0] + c[1] * mn + c[2] * n + (mn > c[4] ? c[3] * mn : 0);
    if (s > 0) smpi_execute_flops_benched(s * ref);
    return 1;
}

static void charge(int ty, const char *ta, const char *tb, double m,
                   double n, double k)
{
    const int x = ((*ta | 0x20) != 'n') * 2 + ((*tb | 0x20) != 'n');
    const double *c = coef[ty][x];
    double t = c[0] + c[1] * m * n * k + c[2] * m * n + c[3] * m * k +
               c[4] * n * k;
    if (t > 0) smpi_execute_flops_benched(t * ref);
}

#define WRAP(NAME, TY)                                                       \
    void NAME(const char *ta, const char *tb, const int *m, const int *n,    \
              const int *k, const void *alpha, const void *a,                \
              const int *lda, const void *b, const int *ldb,                 \
              const void *beta, void *c, const int *ldc)                     \
    {                                                                        \
        static gemm_t *real;                                                 \
        if (mode < 0) load();                                                \
        if (mode) {                                                          \
            if (*m > 0 && *n > 0 && *k > 0) charge(TY, ta, tb, *m, *n, *k);  \
            return;                                                          \
        }                                                                    \
        if (!real) *(void **)&real = dlsym(RTLD_NEXT, #NAME);                \
        if (!real) stop("%s%s", "(unset): no " #NAME " in the BLAS", "");   \
        real(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);          \
    }
WRAP(sgemm_, 0)
WRAP(dgemm_, 1)
WRAP(cgemm_, 2)
WRAP(zgemm_, 3)

/* The CBLAS forms (COSMA's local multiplies call cblas_?gemm, TIMING/
 * smpi/cosma.sh), charged alike: a row-major product is its transpose in
 * column-major, C**T = B**T A**T. The CBLAS enums: 101 row-major,
 * 111 no transpose. */
static void charge_cblas(int ty, int layout, int ta, int tb, int m, int n,
                         int k)
{
    const char *a = ta == 111 ? "N" : "T", *b = tb == 111 ? "N" : "T";
    if (m <= 0 || n <= 0 || k <= 0) return;
    if (layout == 101) charge(ty, b, a, n, m, k);
    else charge(ty, a, b, m, n, k);
}

#define CWRAP(NAME, TY, S)                                                   \
    void NAME(int layout, int ta, int tb, int m, int n, int k, S alpha,     \
              const void *a, int lda, const void *b, int ldb, S beta,        \
              void *c, int ldc)                                              \
    {                                                                        \
        static void (*real)(int, int, int, int, int, int, S, const void *,  \
                            int, const void *, int, S, void *, int);         \
        if (mode < 0) load();                                                \
        if (mode) {                                                          \
            charge_cblas(TY, layout, ta, tb, m, n, k);                       \
            return;                                                          \
        }                                                                    \
        if (!real) *(void **)&real = dlsym(RTLD_NEXT, #NAME);                \
        if (!real) stop("%s%s", "(unset): no " #NAME " in the BLAS", "");   \
        real(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);  \
    }
CWRAP(cblas_sgemm, 0, float)
CWRAP(cblas_dgemm, 1, double)
CWRAP(cblas_cgemm, 2, const void *)
CWRAP(cblas_zgemm, 3, const void *)

/*
 * The rest of the Level-3 BLAS (?TRSM, ?TRMM, ?SYRK, ?HERK, ?SYR2K,
 * ?HER2K, ?SYMM, ?HEMM), which ScaLAPACK's PBLAS and pumma call on
 * diagonal blocks and LAPACK's local factorizations call too: under the
 * model each is charged as the ?GEMM of its flops and operands (nothing
 * computed), so that neither library's local triangles are timed on this
 * machine's core while the other's products are charged:
 *   TRSM, TRMM  SIDE L: an m x n x m/2 product, SIDE R: m x n x n/2
 *   SYRK, HERK  an n x n/2 x k product (one triangle of C); SYR2K and
 *               HER2K two of them
 *   SYMM, HEMM  SIDE L: m x n x m, SIDE R: m x n x n
 * (the model's cost of a product of that size and transposes: this
 * machine's triangular kernels run a little below its DGEMM's rate).
 * Unset, the BLAS's own.
 */
typedef void trxm_t(const char *, const char *, const char *, const char *,
                    const int *, const int *, const void *, const void *,
                    const int *, void *, const int *);
typedef void syrk_t(const char *, const char *, const int *, const int *,
                    const void *, const void *, const int *, const void *,
                    void *, const int *);
typedef void syr2k_t(const char *, const char *, const int *, const int *,
                     const void *, const void *, const int *, const void *,
                     const int *, const void *, void *, const int *);

#define REAL(NAME, T)                                                        \
    static T *real;                                                          \
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, #NAME);                    \
    if (!real) stop("%s%s", "(unset): no " #NAME " in the BLAS", "")

#define TRXM(NAME, TY)                                                       \
    void NAME(const char *side, const char *uplo, const char *ta,            \
              const char *diag, const int *m, const int *n,                  \
              const void *alpha, const void *a, const int *lda, void *b,     \
              const int *ldb)                                                \
    {                                                                        \
        if (mode < 0) load();                                                \
        if (mode) {                                                          \
            const int left = (*side | 0x20) == 'l';                          \
            if (*m > 0 && *n > 0)                                            \
                charge(TY, left ? ta : "N", left ? "N" : ta, *m, *n,         \
                       (left ? *m : *n) / 2.0);                              \
            return;                                                          \
        }                                                                    \
        REAL(NAME, trxm_t);                                                  \
        real(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);             \
    }
#define SYRK(NAME, TY)                                                       \
    void NAME(const char *uplo, const char *tr, const int *n, const int *k,  \
              const void *alpha, const void *a, const int *lda,              \
              const void *beta, void *c, const int *ldc)                     \
    {                                                                        \
        if (mode < 0) load();                                                \
        if (mode) {                                                          \
            const int nt = (*tr | 0x20) == 'n';                              \
            if (*n > 0 && *k > 0)                                            \
                charge(TY, nt ? "N" : "T", nt ? "T" : "N", *n, *n / 2.0, *k); \
            return;                                                          \
        }                                                                    \
        REAL(NAME, syrk_t);                                                  \
        real(uplo, tr, n, k, alpha, a, lda, beta, c, ldc);                   \
    }
/* SYR2K (UPLO TRANS N K) and SYMM (SIDE UPLO M N): one signature */
#define SYR2K(NAME, TY, SYMM)                                                \
    void NAME(const char *o1, const char *o2, const int *m, const int *n,    \
              const void *alpha, const void *a, const int *lda,              \
              const void *b, const int *ldb, const void *beta, void *c,      \
              const int *ldc)                                                \
    {                                                                        \
        if (mode < 0) load();                                                \
        if (mode) {                                                          \
            if (*m <= 0 || *n <= 0) return;                                  \
            if (SYMM)                                                        \
                charge(TY, "N", "N", *m, *n, (*o1 | 0x20) == 'l' ? *m : *n); \
            else {                                                           \
                const int nt = (*o2 | 0x20) == 'n';                          \
                for (int twice = 0; twice < 2; twice++)                      \
                    charge(TY, nt ? "N" : "T", nt ? "T" : "N", *m, *m / 2.0, \
                           *n);                                              \
            }                                                                \
            return;                                                          \
        }                                                                    \
        REAL(NAME, syr2k_t);                                                 \
        real(o1, o2, m, n, alpha, a, lda, b, ldb, beta, c, ldc);             \
    }
TRXM(strsm_, 0) TRXM(dtrsm_, 1) TRXM(ctrsm_, 2) TRXM(ztrsm_, 3)
TRXM(strmm_, 0) TRXM(dtrmm_, 1) TRXM(ctrmm_, 2) TRXM(ztrmm_, 3)
SYRK(ssyrk_, 0) SYRK(dsyrk_, 1) SYRK(csyrk_, 2) SYRK(zsyrk_, 3)
SYRK(cherk_, 2) SYRK(zherk_, 3)
SYR2K(ssyr2k_, 0, 0) SYR2K(dsyr2k_, 1, 0) SYR2K(csyr2k_, 2, 0)
SYR2K(zsyr2k_, 3, 0) SYR2K(cher2k_, 2, 0) SYR2K(zher2k_, 3, 0)
SYR2K(ssymm_, 0, 1) SYR2K(dsymm_, 1, 1) SYR2K(csymm_, 2, 1)
SYR2K(zsymm_, 3, 1) SYR2K(chemm_, 2, 1) SYR2K(zhemm_, 3, 1)

/*
 * pumma_smpi_compute(on): under a compute model, charge (1) or run the
 * BLAS and pumma's kernel for real (0) from now on; returns the previous
 * state. Without a model (PUMMA_SMPI_COMPUTE unset) everything runs and
 * it returns 0. For drivers that check results between charged calls
 * (TIMING/l3tim.c under SMPI): every rank switches at the same point of
 * the program, between collective calls (the simulated ranks may share
 * this variable). pumma_smpi_charging() says which holds now; pumma's
 * temporaries are folded only while charging (SRC/base/pumma_mem.c),
 * since folded memory is every rank's at once.
 */
int pumma_smpi_compute(int on)
{
    if (mode < 0) load();
    const int was = mode;
    mode = have_model && on;
    return was;
}

int pumma_smpi_charging(void)
{
    if (mode < 0) load();
    return mode;
}
