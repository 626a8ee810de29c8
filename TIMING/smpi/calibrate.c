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
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

enum { NT = 5 };                 /* the model's terms */

/* Solves the NT x NT system A x = y (Gaussian elimination, pivoting). */
static int solve(double A[NT][NT], double y[NT], double x[NT])
{
    for (int i = 0; i < NT; i++) {
        int p = i;
        for (int r = i + 1; r < NT; r++)
            if (fabs(A[r][i]) > fabs(A[p][i])) p = r;
        if (fabs(A[p][i]) < 1e-300) return -1;
        for (int c = 0; c < NT; c++) {
            double t = A[i][c]; A[i][c] = A[p][c]; A[p][c] = t;
        }
        double t = y[i]; y[i] = y[p]; y[p] = t;
        for (int r = i + 1; r < NT; r++) {
            double f = A[r][i] / A[i][i];
            for (int c = i; c < NT; c++) A[r][c] -= f * A[i][c];
            y[r] -= f * y[i];
        }
    }
    for (int i = NT - 1; i >= 0; i--) {
        double s = y[i];
        for (int c = i + 1; c < NT; c++) s -= A[i][c] * x[c];
        x[i] = s / A[i][i];
    }
    return 0;
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
            double A[NT][NT] = {{0}}, y[NT] = {0}, coef[NT];
            double *s = malloc(sizeof(double) * (NT + 1) * (size_t)nsizes);
            for (int i = 0; i < nsizes; i++) {
                int m = logsize(8, maxdim), n = logsize(8, maxdim),
                    k = logsize(8, maxdim);
                if (i % 5 == 0) k = logsize(8, 128);
                if (i % 5 == 1) n = logsize(8, 128);
                const double t = time_gemm(fn[ty], ty % 2 == 0, tr[x][0],
                                           tr[x][1], m, n, k, a, b, c);
                const double row[NT] = {1, (double)m * n * k, (double)m * n,
                                        (double)m * k, (double)n * k};
                for (int p = 0; p < NT; p++) {
                    for (int q = 0; q < NT; q++)
                        A[p][q] += row[p] * row[q] / (t * t);
                    y[p] += row[p] / t;          /* (row/t) . (t/t) */
                }
                double *si = s + (size_t)(NT + 1) * i;
                si[0] = t;
                for (int p = 0; p < NT; p++) si[1 + p] = row[p];
            }
            if (solve(A, y, coef))
                for (int p = 0; p < NT; p++) coef[p] = 0;
            double err = 0;
            for (int i = 0; i < nsizes; i++) {
                const double *si = s + (size_t)(NT + 1) * i;
                double fit = 0;
                for (int p = 0; p < NT; p++) fit += coef[p] * si[1 + p];
                err += fabs(fit - si[0]) / si[0];
            }
            err /= nsizes;
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
    fclose(f);
    printf("%s: ref %.3g flop/s (a %d^3 DGEMM in %.3f s); worst mean error "
           "%.1f%%\n", out, ref, r, tref, 100 * worst);
    free(a); free(b); free(c);
    return 0;
}
