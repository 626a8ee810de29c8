/*
 * calibrate.c -- the compute model of simulated runs (doc/smpi.md): the
 * time of this machine's ?GEMM, fitted by type and TRANSA/TRANSB, for
 * SMPI builds to charge instead of running it (INSTALL/smpi/
 * pumma_smpi_blas.c), as Cornebize, Legrand and Heinrich (IEEE Cluster
 * 2019) do for HPL's dgemm.
 *
 *   ./xcalibrate [-o FILE] [-n SIZES] [-m MAX]
 *
 * For each of S D C Z and NN NT TN TT: SIZES (40) products m x n x k with
 * m, n and k drawn log-uniformly in [8, MAX] (MAX 1536; every fifth one
 * with k or n below 128: the rank-k and panel shapes), each timed best of
 * 3 after a warm-up call, one BLAS thread. Fitted, in relative error
 * (weighted least squares, each row over its time):
 *
 *     t = c0 + c1 * m*n*k + c2 * m*n + c3 * m*k + c4 * n*k
 *
 * the call's cost, its multiply-adds and the traffic of C, A and B (apart:
 * a panel's thin operand and a rank-k update's costs differ, and one term
 * for all three missed the panels by 10-25%). FILE (default
 * out/smpi-compute) holds one line per type and transposes,
 *
 *     gemm type=d trans=NN c0=... c1=... c2=... c3=... c4=... err=...
 *
 * (err: the mean relative error of the fit over its samples), after a
 * header line naming the machine, the BLAS and `ref`, this machine's
 * rate in flop/s (2 m n k / t of a 1024^3 DGEMM): a simulated host of
 * speed S runs in t * ref / S what took t here.
 *
 * Then pumma's element-wise kernel (geadd, SRC/base/pumma_type.c: every
 * copy, packing, sum and scaling pumma does), for each type and kind --
 * copy (Y := X), copyT (Y := X^T), add (Y := X + Y), addT -- on 3 SIZES
 * m x n drawn log-uniformly in [1, 2 MAX] (every fourth with m or n
 * below 64: a block's column or row), fitted as
 *
 *     t = c0 + c1 * m*n + c2 * n + c3 * m*n [m*n > big]
 *
 * (the call, an element, a column, and an element's extra cost once X
 * and Y outgrow the caches: one rate for all missed in-cache copies by
 * 2-5x; big, in elements, is the threshold among powers of 2 from 16 KiB
 * to 32 MiB of X and Y that fits best) into lines `geadd type=d
 * kind=copy c0=... c1=... c2=... c3=... big=... err=...`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pumma_base.h"

typedef void gemm_t(const char *, const char *, const int *, const int *,
                    const int *, const void *, const void *, const int *,
                    const void *, const int *, const void *, void *,
                    const int *);
gemm_t sgemm_, dgemm_, cgemm_, zgemm_;   /* the BLAS's */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned long long rng = 12345;
static double uniform(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static int logsize(int lo, int hi)
{
    return (int)floor(exp(log(lo) + uniform() * (log(hi) - log(lo))));
}

/* Best of 3 of one product (after one untimed call); single: S or C. */
static double time_gemm(gemm_t *f, int single, char ta, char tb, int m,
                        int n, int k, void *a, void *b, void *c)
{
    static const double one[2] = {1, 0}, half[2] = {0.5, 0};
    static const float onef[2] = {1, 0}, halff[2] = {0.5f, 0};
    const void *alpha = single ? (const void *)onef : (const void *)one;
    const void *beta = single ? (const void *)halff : (const void *)half;
    const int lda = ta == 'N' ? m : k, ldb = tb == 'N' ? k : n, ldc = m;
    double best = 1e300;
    for (int r = 0; r < 4; r++) {
        double t0 = now();
        f(&ta, &tb, &m, &n, &k, alpha, a, &lda, b, &ldb, beta, c, &ldc);
        double t = now() - t0;
        if (r > 0 && t < best) best = t;
    }
    return best;
}

/* Best of 3 of one geadd (after one untimed call): kind 0 copy, 1 copyT,
 * 2 add, 3 addT; X and Y m x n (X n x m when transposed). */
static double time_geadd(const pumma_type_t *t, int kind, int m, int n,
                         const void *x, void *y)
{
    const char tr = kind % 2 ? 'T' : 'N';
    const void *beta = kind >= 2 ? t->one : t->zero;
    double best = 1e300;
    for (int r = 0; r < 4; r++) {
        double t0 = now();
        t->geadd(tr, m, n, t->one, x, tr == 'N' ? m : n, beta, y, m);
        double s = now() - t0;
        if (r > 0 && s < best) best = s;
    }
    return best;
}

enum { NT = 5 };                 /* the most terms a model has */

/* Solves the nt x nt system A x = y (Gaussian elimination, pivoting). */
static int solve(int nt, double A[NT][NT], double y[NT], double x[NT])
{
    for (int i = 0; i < nt; i++) {
        int p = i;
        for (int r = i + 1; r < nt; r++)
            if (fabs(A[r][i]) > fabs(A[p][i])) p = r;
        if (fabs(A[p][i]) < 1e-300) return -1;
        for (int c = 0; c < nt; c++) {
            double t = A[i][c]; A[i][c] = A[p][c]; A[p][c] = t;
        }
        double t = y[i]; y[i] = y[p]; y[p] = t;
        for (int r = i + 1; r < nt; r++) {
            double f = A[r][i] / A[i][i];
            for (int c = i; c < nt; c++) A[r][c] -= f * A[i][c];
            y[r] -= f * y[i];
        }
    }
    for (int i = nt - 1; i >= 0; i--) {
        double s = y[i];
        for (int c = i + 1; c < nt; c++) s -= A[i][c] * x[c];
        x[i] = s / A[i][i];
    }
    return 0;
}

/* Fits ns samples (row i: its time, then nt terms) in relative error
 * (weighted least squares, each row over its time) into coef; returns the
 * mean relative error of the fit (coef zero when singular). */
static double fit(int nt, int ns, const double *s, double coef[NT])
{
    double A[NT][NT] = {{0}}, y[NT] = {0};
    for (int i = 0; i < ns; i++) {
        const double *si = s + (size_t)(NT + 1) * i, t = si[0];
        for (int p = 0; p < nt; p++) {
            for (int q = 0; q < nt; q++)
                A[p][q] += si[1 + p] * si[1 + q] / (t * t);
            y[p] += si[1 + p] / t;           /* (row/t) . (t/t) */
        }
    }
    if (solve(nt, A, y, coef))
        for (int p = 0; p < nt; p++) coef[p] = 0;
    double err = 0;
    for (int i = 0; i < ns; i++) {
        const double *si = s + (size_t)(NT + 1) * i;
        double f = 0;
        for (int p = 0; p < nt; p++) f += coef[p] * si[1 + p];
        err += fabs(f - si[0]) / si[0];
    }
    return err / ns;
}

int main(int argc, char **argv)
{
    const char *out = "out/smpi-compute";
    int nsizes = 40, maxdim = 1536;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-o")) out = argv[i + 1];
        else if (!strcmp(argv[i], "-n")) nsizes = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-m")) maxdim = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: %s [-o FILE] [-n SIZES] [-m MAX]\n", argv[0]);
            return 2;
        }
    }
    if (nsizes < 2 * NT || maxdim < 64) {    /* twice the model's terms */
        fprintf(stderr, "xcalibrate: -n %d or more, -m 64 or more\n", 2 * NT);
        return 2;
    }
    gemm_t *fn[4] = {sgemm_, dgemm_, cgemm_, zgemm_};
    const char *tname = "sdcz";
    const size_t most = (size_t)maxdim * maxdim * 16;
    char *a = malloc(most), *b = malloc(most), *c = malloc(most);
    if (!a || !b || !c) { fprintf(stderr, "xcalibrate: out of memory\n"); return 1; }
    for (size_t i = 0; i < most / 8; i++) {
        ((double *)a)[i] = (double)(i % 13) / 13;
        ((double *)b)[i] = (double)(i % 7) / 7;
        ((double *)c)[i] = 0;
    }
    for (size_t i = 0; i < most / 4; i += 2)  /* small floats where read so */
        ((float *)a)[i] = ((float *)b)[i] = 0.25f;
    /* this machine's rate: a 1024^3 DGEMM */
    const int r = maxdim < 1024 ? maxdim : 1024;
    const double tref = time_gemm(dgemm_, 0, 'N', 'N', r, r, r, a, b, c);
    const double ref = 2.0 * r * r * (double)r / tref;
    Dl_info info;
    const char *blas = dladdr((void *)dgemm_, &info) && info.dli_fname
                           ? info.dli_fname : "?";
    char host[256] = "?";
    gethostname(host, sizeof host);
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 1; }
    fprintf(f, "# xcalibrate: t = c0 + c1*m*n*k + c2*m*n + c3*m*k + c4*n*k "
               "seconds, fitted in relative error\n");
    fprintf(f, "machine host=%s blas=%s ref=%.6g\n", host, blas, ref);
    static const char *const tr[4] = {"NN", "NT", "TN", "TT"};
    double worst = 0;
    for (int ty = 0; ty < 4; ty++)
        for (int x = 0; x < 4; x++) {
            double coef[NT];
            double *s = malloc(sizeof(double) * (NT + 1) * (size_t)nsizes);
            for (int i = 0; i < nsizes; i++) {
                int m = logsize(8, maxdim), n = logsize(8, maxdim),
                    k = logsize(8, maxdim);
                if (i % 5 == 0) k = logsize(8, 128);
                if (i % 5 == 1) n = logsize(8, 128);
                const double t = time_gemm(fn[ty], ty % 2 == 0, tr[x][0],
                                           tr[x][1], m, n, k, a, b, c);
                double *si = s + (size_t)(NT + 1) * i;
                si[0] = t;
                si[1] = 1;
                si[2] = (double)m * n * k;
                si[3] = (double)m * n;
                si[4] = (double)m * k;
                si[5] = (double)n * k;
            }
            const double err = fit(NT, nsizes, s, coef);
            if (err > worst) worst = err;
            free(s);
            fprintf(f, "gemm type=%c trans=%s c0=%.6g c1=%.6g c2=%.6g c3=%.6g "
                       "c4=%.6g err=%.3f\n", tname[ty], tr[x], coef[0], coef[1],
                    coef[2], coef[3], coef[4], err);
            printf("%cGEMM %s: c0 %.3g s, %.3g s per multiply-add, per element "
                   "of C %.3g, A %.3g, B %.3g; mean error %.1f%%\n",
                   "SDCZ"[ty], tr[x], coef[0], coef[1], coef[2], coef[3],
                   coef[4], 100 * err);
        }
    const pumma_type_t *types[4] = {&pumma_type_s, &pumma_type_d,
                                    &pumma_type_c, &pumma_type_z};
    static const char *const kinds[4] = {"copy", "copyT", "add", "addT"};
    double gworst = 0;
    const int gsizes = 3 * nsizes;      /* cheap: more samples, as noisy */
    for (int ty = 0; ty < 4; ty++)
        for (int kind = 0; kind < 4; kind++) {
            double coef[NT], best[NT] = {0}, err = 1e300, big = 0;
            double *s = malloc(sizeof(double) * (NT + 1) * (size_t)gsizes);
            for (int i = 0; i < gsizes; i++) {
                int m = logsize(1, 2 * maxdim), n = logsize(1, 2 * maxdim);
                if (i % 4 == 0) m = logsize(1, 64);
                if (i % 4 == 1) n = logsize(1, 64);
                while ((size_t)m * n * 16 > most) m /= 2;
                double *si = s + (size_t)(NT + 1) * i;
                si[0] = time_geadd(types[ty], kind, m, n, a, c);
                si[1] = 1;
                si[2] = (double)m * n;
                si[3] = n;
            }
            /* X and Y together, 2 m n elements, against the threshold */
            for (double bytes = 16384; bytes <= 33554432; bytes *= 2) {
                const double e = bytes / (2.0 * types[ty]->size);
                for (int i = 0; i < gsizes; i++) {
                    double *si = s + (size_t)(NT + 1) * i;
                    si[4] = si[2] > e ? si[2] : 0;
                }
                const double ei = fit(4, gsizes, s, coef);
                if (ei < err) {
                    err = ei;
                    big = e;
                    memcpy(best, coef, sizeof best);
                }
            }
            if (err > gworst) gworst = err;
            free(s);
            fprintf(f, "geadd type=%c kind=%s c0=%.6g c1=%.6g c2=%.6g c3=%.6g "
                       "big=%.0f err=%.3f\n", tname[ty], kinds[kind], best[0],
                    best[1], best[2], best[3], big, err);
            printf("%c geadd %-5s: c0 %.3g s, per element %.3g s (%.3g beyond "
                   "%.0f), per column %.3g s; mean error %.1f%%\n", "SDCZ"[ty],
                   kinds[kind], best[0], best[1], best[1] + best[3], big,
                   best[2], 100 * err);
        }
    fclose(f);
    printf("%s: ref %.3g flop/s (a %d^3 DGEMM in %.3f s); worst mean error "
           "%.1f%% (geadd %.1f%%)\n", out, ref, r, tref, 100 * worst,
           100 * gworst);
    free(a); free(b); free(c);
    return 0;
}
