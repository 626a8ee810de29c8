/*
 * pumma_type.c -- the four type descriptors (S, D, C, Z).
 *
 * Everything typed in pumma is here: the BLAS ?gemm it calls, the scalar tests
 * and one element-wise kernel (geadd). The kernel is written once as a macro
 * and stamped out per type, because C has no generics and these few lines are
 * the only arithmetic pumma does itself; all the rest works in bytes.
 * geadd is arithmetic on the caller's numbers: the flags it raises are
 * the caller's (a data section, pumma_base.h).
 */
#include <limits.h>
#include <complex.h>
#include <string.h>

#include "pumma_base.h"

/* Fortran BLAS, hidden string lengths last (gfortran convention). */
#define PUMMA_DECL_GEMM(fn, T)                                               \
    void fn(const char *, const char *, const int *, const int *,            \
            const int *, const T *, const T *, const int *, const T *,       \
            const int *, const T *, T *, const int *, size_t, size_t);
PUMMA_DECL_GEMM(sgemm_F77, float)
PUMMA_DECL_GEMM(dgemm_F77, double)
PUMMA_DECL_GEMM(cgemm_F77, float complex)
PUMMA_DECL_GEMM(zgemm_F77, double complex)
#define PUMMA_DECL_TRXM(fn, T)                                               \
    void fn(const char *, const char *, const char *, const char *,          \
            const int *, const int *, const T *, const T *, const int *, T *, \
            const int *, size_t, size_t, size_t, size_t);
PUMMA_DECL_TRXM(strsm_F77, float)
PUMMA_DECL_TRXM(dtrsm_F77, double)
PUMMA_DECL_TRXM(ctrsm_F77, float complex)
PUMMA_DECL_TRXM(ztrsm_F77, double complex)
PUMMA_DECL_TRXM(strmm_F77, float)
PUMMA_DECL_TRXM(dtrmm_F77, double)
PUMMA_DECL_TRXM(ctrmm_F77, float complex)
PUMMA_DECL_TRXM(ztrmm_F77, double complex)

/*
 * Y := alpha*op(X) + beta*Y. The common cases (plain copy, plain add) get
 * their own loops: they move most of pumma's bytes.
 *
 * Transposed, Y is written in strips of PUMMA_STRIP(T) columns: one cache
 * line of each row of X at a time, spread over the strip's columns. Going
 * down one column of Y at a time instead reads X a whole line per element
 * and, when X's leading dimension is a multiple of 4 KiB (N = 512, 1024,
 * ...), every line of a column falls in one cache set: a 512 x 512 copy
 * ran at 3.5e-10 s/B here, against 7.5e-11 in strips (300 x 600: 5.9e-11
 * and 4.7e-11; 1000 x 2000, beyond the caches, 1.6e-10 and 1.9e-10).
 */
#define PUMMA_STRIP(T) (64 / sizeof(T) > 1 ? (int)(64 / sizeof(T)) : 1)
#define PUMMA_DEF_GEADD(name, T, CONJ, L)                                    \
    static void name##_kernel(char trans, int m, int n, const void *alpha_,  \
                              const void *x_, int ldx, const void *beta_,    \
                              void *y_, int ldy)                             \
    {                                                                        \
        const T alpha = *(const T *)alpha_, beta = *(const T *)beta_;        \
        const T *x = x_;                                                     \
        T *y = y_;                                                           \
        const int tr = (trans == 'T' || trans == 'C');                       \
        const int cj = (trans == 'C' || trans == 'R');                       \
        if (tr) {                                                            \
            for (int j0 = 0; j0 < n; j0 += PUMMA_STRIP(T)) {                 \
                const int w = n - j0 < PUMMA_STRIP(T) ? n - j0               \
                                                      : PUMMA_STRIP(T);      \
                T *ys = y + (size_t)j0 * ldy;                                \
                for (int i = 0; i < m; i++) {                                \
                    const T *xi = x + j0 + (size_t)i * ldx;                  \
                    for (int j = 0; j < w; j++) {                            \
                        T v = cj ? CONJ(xi[j]) : xi[j];                      \
                        T *yij = ys + i + (size_t)j * ldy;                   \
                        if (beta == (T)0)                                    \
                            *yij = alpha * v;                                \
                        else if (beta == (T)1)                               \
                            *yij += alpha * v;                               \
                        else                                                 \
                            *yij = alpha * v + beta * *yij;                  \
                    }                                                        \
                }                                                            \
            }                                                                \
            return;                                                          \
        }                                                                    \
        for (int j = 0; j < n; j++) {                                        \
            T *yj = y + (size_t)j * ldy;                                     \
            const T *xj = x + (size_t)j * ldx;                               \
            if (!cj && alpha == (T)1 && beta == (T)0) {                      \
                memcpy(yj, xj, (size_t)m * sizeof(T));                       \
                continue;                                                    \
            }                                                                \
            for (int i = 0; i < m; i++) {                                    \
                T v = cj ? CONJ(xj[i]) : xj[i];                              \
                if (beta == (T)0)                                            \
                    yj[i] = alpha * v;                                       \
                else if (beta == (T)1)                                       \
                    yj[i] += alpha * v;                                      \
                else                                                         \
                    yj[i] = alpha * v + beta * yj[i];                        \
            }                                                                \
        }                                                                    \
    }                                                                        \
    static void name(char trans, int m, int n, const void *alpha,            \
                     const void *x, int ldx, const void *beta, void *y,      \
                     int ldy)                                                \
    {                                                                        \
        if (SMPI_CHARGED(L, trans, m, n, *(const T *)beta != (T)0)) return;  \
        pumma_fenv_data_begin();                                             \
        name##_kernel(trans, m, n, alpha, x, ldx, beta, y, ldy);             \
        pumma_fenv_data_end();                                               \
    }

/*
 * Simulated runs (make smpi) under a compute model charge the kernel's
 * modelled time instead of running it (INSTALL/smpi/pumma_smpi_blas.c):
 * run, it would work on folded memory that stays in cache. Weak, so that
 * an SMPI program without that file runs the kernel.
 */
#ifdef PUMMA_SMPI
int pumma_smpi_geadd(char type, char trans, int m, int n, int add)
    __attribute__((weak));
#define SMPI_CHARGED(L, tr, m, n, add)                                       \
    (pumma_smpi_geadd && pumma_smpi_geadd(L, tr, m, n, add))
#else
#define SMPI_CHARGED(L, tr, m, n, add) 0
#endif

int pumma_charge_copy(const pumma_type_t *t, long n)
{
    (void)t;
    (void)n;
    return n > 0 && n <= INT_MAX && SMPI_CHARGED(t->letter, 'N', (int)n, 1, 0);
}

#define PUMMA_NOCONJ(v) (v)
PUMMA_DEF_GEADD(geadd_s, float, PUMMA_NOCONJ, 'S')
PUMMA_DEF_GEADD(geadd_d, double, PUMMA_NOCONJ, 'D')
PUMMA_DEF_GEADD(geadd_c, float complex, conjf, 'C')
PUMMA_DEF_GEADD(geadd_z, double complex, conj, 'Z')

#define PUMMA_DEF_TESTS(sfx, T)                                              \
    static int is_zero_##sfx(const void *s) { return *(const T *)s == (T)0; }\
    static int is_one_##sfx(const void *s) { return *(const T *)s == (T)1; }
PUMMA_DEF_TESTS(s, float)
PUMMA_DEF_TESTS(d, double)
PUMMA_DEF_TESTS(c, float complex)
PUMMA_DEF_TESTS(z, double complex)

static const float s_zero = 0.0f, s_one = 1.0f;
static const double d_zero = 0.0, d_one = 1.0;
static const float complex c_zero = 0.0f, c_one = 1.0f;
static const double complex z_zero = 0.0, z_one = 1.0;

const pumma_type_t pumma_type_s = {'S', "PSGEMM", sizeof(float), 0, MPI_FLOAT,
    &s_zero, &s_one, (pumma_gemm_fn)sgemm_F77, geadd_s, is_zero_s, is_one_s,
    (pumma_trxm_fn)strsm_F77, (pumma_trxm_fn)strmm_F77};
const pumma_type_t pumma_type_d = {'D', "PDGEMM", sizeof(double), 0,
    MPI_DOUBLE, &d_zero, &d_one, (pumma_gemm_fn)dgemm_F77, geadd_d,
    is_zero_d, is_one_d,
    (pumma_trxm_fn)dtrsm_F77, (pumma_trxm_fn)dtrmm_F77};
const pumma_type_t pumma_type_c = {'C', "PCGEMM", sizeof(float complex), 1,
    MPI_C_FLOAT_COMPLEX, &c_zero, &c_one, (pumma_gemm_fn)cgemm_F77, geadd_c,
    is_zero_c, is_one_c,
    (pumma_trxm_fn)ctrsm_F77, (pumma_trxm_fn)ctrmm_F77};
const pumma_type_t pumma_type_z = {'Z', "PZGEMM", sizeof(double complex), 1,
    MPI_C_DOUBLE_COMPLEX, &z_zero, &z_one, (pumma_gemm_fn)zgemm_F77, geadd_z,
    is_zero_z, is_one_z,
    (pumma_trxm_fn)ztrsm_F77, (pumma_trxm_fn)ztrmm_F77};

/* Indexed [rout][S D C Z]; a name ScaLAPACK lacks (PCTRAN, PSTRANU) is
 * never asked for. */
#define PUMMA_R4(x) {"PS" x, "PD" x, "PC" x, "PZ" x}
static const char *const rout_names[PUMMA_NROUT][4] = {
    [PUMMA_R_GEMM] = PUMMA_R4("GEMM"),   [PUMMA_R_SYMM] = PUMMA_R4("SYMM"),
    [PUMMA_R_HEMM] = PUMMA_R4("HEMM"),   [PUMMA_R_SYRK] = PUMMA_R4("SYRK"),
    [PUMMA_R_HERK] = PUMMA_R4("HERK"),   [PUMMA_R_SYR2K] = PUMMA_R4("SYR2K"),
    [PUMMA_R_HER2K] = PUMMA_R4("HER2K"), [PUMMA_R_TRMM] = PUMMA_R4("TRMM"),
    [PUMMA_R_TRSM] = PUMMA_R4("TRSM"),   [PUMMA_R_GEADD] = PUMMA_R4("GEADD"),
    [PUMMA_R_TRADD] = PUMMA_R4("TRADD"), [PUMMA_R_TRAN] = PUMMA_R4("TRAN"),
    [PUMMA_R_TRANU] = PUMMA_R4("TRANU"), [PUMMA_R_TRANC] = PUMMA_R4("TRANC"),
};

const char *pumma_rout_name(int rout, const pumma_type_t *t)
{
    const int i = t->letter == 'S' ? 0 : t->letter == 'D' ? 1
                : t->letter == 'C' ? 2 : 3;
    return rout >= 0 && rout < PUMMA_NROUT ? rout_names[rout][i] : "P?";
}
