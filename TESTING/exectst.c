/*
 * exectst.c -- tester of the execution-time models (SRC/model/pumma_nnls.c
 * and what is built on it, pumma_exec.h).
 *
 *   ./xexectst
 *
 * nnls   Lawson and Hanson's non-negative least squares against problems
 *        whose answers are known: MATLAB's lsqnonneg example, the identity
 *        with a negative right-hand side, coefficients of N^3 ... 1
 *        recovered exactly from their own data (scaled columns, weighted
 *        rows; and all columns a million million times smaller),
 *        rank-deficient and zero columns, and 600 random problems
 *        against the best of every subset of free columns solved by hand
 *        (with the Karush-Kuhn-Tucker conditions checked on each).
 * One PASSED/FAILED line per group; `N passed, N failed` last.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_exec.h"

static int npass, nfail, group_fail;

static void check(int ok, const char *group, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void check(int ok, const char *group, const char *fmt, ...)
{
    if (ok) return;
    if (group_fail++ < 5) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAILED %s: ", group);
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
}

static void group_end(const char *group)
{
    if (group_fail) nfail++;
    else {
        npass++;
        printf("PASSED %s\n", group);
    }
    group_fail = 0;
}

static int rel_close(double x, double y, double tol)
{
    return fabs(x - y) <= tol * (fabs(x) + fabs(y)) + 1e-300;
}

/* A deterministic generator (the tests must not vary from run to run). */
static unsigned long long rng = 88172645463325252ULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Least squares on the columns of mask by the normal equations (k <= 6,
 * well conditioned here): 0, or -1 if singular. */
static int ls_hand(int m, int n, const double *A, const double *b,
                   unsigned mask, double *x)
{
    int idx[8], k = 0;
    for (int j = 0; j < n; j++) {
        x[j] = 0;
        if (mask >> j & 1) idx[k++] = j;
    }
    double G[8][9];
    for (int r = 0; r < k; r++) {
        for (int c = 0; c < k; c++) {
            double s = 0;
            for (int i = 0; i < m; i++)
                s += A[idx[r] * m + i] * A[idx[c] * m + i];
            G[r][c] = s;
        }
        double s = 0;
        for (int i = 0; i < m; i++) s += A[idx[r] * m + i] * b[i];
        G[r][k] = s;
    }
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(G[r][c]) > fabs(G[p][c])) p = r;
        if (fabs(G[p][c]) < 1e-12) return -1;
        for (int l = 0; l <= k; l++) {
            double t = G[c][l];
            G[c][l] = G[p][l];
            G[p][l] = t;
        }
        for (int r = 0; r < k; r++) {
            if (r == c) continue;
            const double f = G[r][c] / G[c][c];
            for (int l = c; l <= k; l++) G[r][l] -= f * G[c][l];
        }
    }
    for (int r = 0; r < k; r++) x[idx[r]] = G[r][k] / G[r][r];
    return 0;
}

static double residual(int m, int n, const double *A, const double *b,
                       const double *x)
{
    double s = 0;
    for (int i = 0; i < m; i++) {
        double r = b[i];
        for (int j = 0; j < n; j++) r -= A[j * m + i] * x[j];
        s += r * r;
    }
    return sqrt(s);
}

static void test_nnls(void)
{
    const char *G = "non-negative least squares";
    double x[8], res;
    /* MATLAB's lsqnonneg example: the first column is dropped, the second
     * fitted alone */
    const double C[8] = {0.0372, 0.6861, 0.6233, 0.6344,
                         0.2869, 0.7071, 0.6245, 0.6170};
    const double d[4] = {0.8587, 0.1781, 0.0747, 0.8405};
    double cd = 0, cc = 0;
    for (int i = 0; i < 4; i++) cd += C[4 + i] * d[i], cc += C[4 + i] * C[4 + i];
    int rc = pumma_nnls(4, 2, C, d, NULL, x, &res);
    check(rc == 0 && x[0] == 0 && rel_close(x[1], cd / cc, 1e-12) &&
              fabs(x[1] - 0.6929) < 5e-5, G,
          "lsqnonneg's example: rc %d x %g %g", rc, x[0], x[1]);

    /* the identity: negative entries go to zero */
    const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, bi[3] = {1, -2, 3};
    rc = pumma_nnls(3, 3, I, bi, NULL, x, &res);
    check(rc == 0 && x[0] == 1 && x[1] == 0 && x[2] == 3 &&
              rel_close(res, 2, 1e-12), G,
          "identity: %g %g %g resid %g", x[0], x[1], x[2], res);

    /* N^3, N^2, N, 1 over N = 500 .. 4000: coefficients five decades apart
     * come back from their own data, unweighted and weighted by 1/T */
    enum { NR = 8 };
    double A[4 * NR], b[NR], w[NR];
    const double truth[4] = {2e-11, 3e-9, 1e-6, 1e-3};
    for (int i = 0; i < NR; i++) {
        const double N = 500.0 * (i + 1);
        A[i] = N * N * N, A[NR + i] = N * N, A[2 * NR + i] = N, A[3 * NR + i] = 1;
        b[i] = 0;
        for (int j = 0; j < 4; j++) b[i] += A[j * NR + i] * truth[j];
        w[i] = 1 / b[i];
    }
    for (int wt = 0; wt < 2; wt++) {
        rc = pumma_nnls(NR, 4, A, b, wt ? w : NULL, x, &res);
        int ok = rc == 0;
        for (int j = 0; j < 4; j++) ok &= rel_close(x[j], truth[j], 1e-7);
        check(ok, G, "cubic%s: %g %g %g %g", wt ? " weighted" : "", x[0], x[1],
              x[2], x[3]);
    }

    /* the same columns 1e15 times smaller: the answer 1e15 times larger
     * (columns are compared after scaling, not by absolute size) */
    double T[4 * NR];
    for (int i = 0; i < 4 * NR; i++) T[i] = A[i] * 1e-15;
    rc = pumma_nnls(NR, 4, T, b, w, x, &res);
    int ok = rc == 0;
    for (int j = 0; j < 4; j++) ok &= rel_close(x[j] * 1e-15, truth[j], 1e-7);
    check(ok, G, "tiny columns: %g %g %g %g", x[0], x[1], x[2], x[3]);

    /* a column twice, and a zero column: the fit is the one without them */
    double D[4 * NR];
    memcpy(D, A, sizeof(double) * 3 * NR);
    memcpy(D + 3 * NR, A + 2 * NR, sizeof(double) * NR);     /* N again */
    double e[4];
    rc = pumma_nnls(NR, 4, D, b, w, x, &res);
    const int rc2 = pumma_nnls(NR, 3, A, b, w, e, NULL);
    check(rc == 0 && rc2 == 0 && x[0] >= 0 && x[1] >= 0 && x[2] >= 0 &&
              x[3] >= 0 && rel_close(x[0], e[0], 1e-6) &&
              rel_close(x[2] + x[3], e[2], 1e-6),
          G, "a repeated column: %g %g %g+%g against %g %g %g", x[0], x[1],
          x[2], x[3], e[0], e[1], e[2]);
    memset(D + 3 * NR, 0, sizeof(double) * NR);
    rc = pumma_nnls(NR, 4, D, b, NULL, x, &res);
    check(rc == 0 && x[3] == 0, G, "a zero column: x %g", x[3]);
    check(pumma_nnls(0, 2, C, d, NULL, x, NULL) == -1 &&
              pumma_nnls(4, 0, C, d, NULL, x, NULL) == -1,
          G, "m or n below 1");

    /* random problems: the least residual over all subsets of free
     * columns whose own least squares is positive, and the KKT
     * conditions */
    for (int trial = 0; trial < 600; trial++) {
        const int m = 3 + trial % 10, n = 1 + trial % 7;
        double R[12 * 8], rb[12], best = INFINITY, y[8];
        for (int i = 0; i < m * n; i++) R[i] = 2 * uniform() - 1;
        for (int i = 0; i < m; i++) rb[i] = 2 * uniform() - 1;
        for (unsigned mask = 0; mask < 1u << n; mask++) {
            if (ls_hand(m, n, R, rb, mask, y)) continue;
            int pos = 1;
            for (int j = 0; j < n; j++)
                if (mask >> j & 1) pos &= y[j] > 0;
            if (pos) {
                const double r = residual(m, n, R, rb, y);
                if (r < best) best = r;
            }
        }
        rc = pumma_nnls(m, n, R, rb, NULL, x, &res);
        const double mine = residual(m, n, R, rb, x);
        int kkt = 1;
        for (int j = 0; j < n; j++) {
            double g = 0;
            for (int i = 0; i < m; i++) {
                double r = rb[i];
                for (int l = 0; l < n; l++) r -= R[l * m + i] * x[l];
                g += R[j * m + i] * r;
            }
            kkt &= x[j] >= 0 && (x[j] > 0 ? fabs(g) < 1e-9 : g < 1e-9);
        }
        check(rc == 0 && kkt && fabs(mine - best) <= 1e-9 * (1 + best) &&
                  fabs(mine - res) <= 1e-9 * (1 + mine),
              G, "random %d (%d x %d): residual %.12g, best subset %.12g, "
                 "KKT %d, rc %d", trial, m, n, mine, best, kkt, rc);
    }
    group_end(G);
}

int main(void)
{
    test_nnls();
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
