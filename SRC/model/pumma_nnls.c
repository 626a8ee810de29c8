/*
 * pumma_nnls.c -- non-negative least squares (pumma_model.h): Lawson and
 * Hanson's active-set method (Solving Least Squares Problems, 1974,
 * chapter 23), with each least-squares step solved by Householder QR on
 * the passive columns.
 *
 * The execution-time models' columns span many decades (N^3 against 1
 * for N up to 10^4), so the columns are scaled to unit norm first and the
 * solution unscaled at the end; the tolerances below are then relative.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_model.h"

/* Least squares on the columns idx[0..k) of S (m x n): z[0..k). 0, or -1
 * when column idx[*bad] depends on the ones before it. q (m*k), v and r
 * (m each) are workspace. */
static int ls_subset(int m, const double *S, const int *idx, int k,
                     const double *y, double *z, double *q, double *v,
                     double *r, int *bad)
{
    for (int j = 0; j < k; j++)
        memcpy(q + (size_t)j * m, S + (size_t)idx[j] * m, sizeof(double) * m);
    memcpy(r, y, sizeof(double) * m);
    for (int j = 0; j < k; j++) {
        double *c = q + (size_t)j * m;
        double norm = 0;
        for (int i = j; i < m; i++) norm += c[i] * c[i];
        norm = sqrt(norm);
        /* unit columns: what is left of this one after the earlier ones */
        if (norm <= 1e-10) {
            *bad = j;
            return -1;
        }
        const double alpha = c[j] > 0 ? -norm : norm;
        double vv = 0;
        for (int i = j; i < m; i++) v[i] = c[i];
        v[j] -= alpha;
        for (int i = j; i < m; i++) vv += v[i] * v[i];
        c[j] = alpha;                       /* R(j,j); below it unused */
        for (int l = j + 1; l < k; l++) {
            double *d = q + (size_t)l * m, s = 0;
            for (int i = j; i < m; i++) s += v[i] * d[i];
            s *= 2 / vv;
            for (int i = j; i < m; i++) d[i] -= s * v[i];
        }
        double s = 0;
        for (int i = j; i < m; i++) s += v[i] * r[i];
        s *= 2 / vv;
        for (int i = j; i < m; i++) r[i] -= s * v[i];
    }
    for (int i = k - 1; i >= 0; i--) {
        double s = r[i];
        for (int l = i + 1; l < k; l++) s -= q[(size_t)l * m + i] * z[l];
        z[i] = s / q[(size_t)i * m + i];
    }
    return 0;
}

/* w = S^T (y - S x), over all n columns. */
static void gradient(int m, int n, const double *S, const double *y,
                     const double *x, double *res, double *w)
{
    memcpy(res, y, sizeof(double) * m);
    for (int j = 0; j < n; j++)
        if (x[j] != 0)
            for (int i = 0; i < m; i++) res[i] -= S[(size_t)j * m + i] * x[j];
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < m; i++) s += S[(size_t)j * m + i] * res[i];
        w[j] = s;
    }
}

int pumma_nnls(int m, int n, const double *A, const double *b,
               const double *w, double *x, double *resid)
{
    if (m < 1 || n < 1) return -1;
    double *S = malloc(sizeof(double) * ((size_t)m * n * 2 + 4 * (size_t)m +
                                         4 * (size_t)n));
    int *pass = malloc(sizeof(int) * 2 * (size_t)n);
    if (!S || !pass) {
        free(S);
        free(pass);
        return -1;
    }
    double *q = S + (size_t)m * n, *y = q + (size_t)m * n, *v = y + m,
           *r = v + m, *res = r + m, *scale = res + m, *xs = scale + n,
           *g = xs + n, *z = g + n;
    int *in = pass + n;               /* in[j]: j is passive (free) */
    /* weighted rows, unit columns */
    for (int i = 0; i < m; i++) y[i] = (w ? w[i] : 1) * b[i];
    for (int j = 0; j < n; j++) {
        double norm = 0;
        for (int i = 0; i < m; i++) {
            const double a = (w ? w[i] : 1) * A[(size_t)j * m + i];
            S[(size_t)j * m + i] = a;
            norm += a * a;
        }
        norm = sqrt(norm);
        scale[j] = norm > 0 ? 1 / norm : 0;
        for (int i = 0; i < m; i++) S[(size_t)j * m + i] *= scale[j];
        xs[j] = 0;
        in[j] = 0;
    }
    double ynorm = 0;
    for (int i = 0; i < m; i++) ynorm += y[i] * y[i];
    const double tol = 1e-12 * (sqrt(ynorm) > 0 ? sqrt(ynorm) : 1);
    int np = 0, rc = 1;
    for (int outer = 0; outer < 3 * n; outer++) {
        gradient(m, n, S, y, xs, res, g);
        /* the active column whose gradient is largest (zero columns and
         * ones found dependent are never freed) */
        int t = -1;
        for (int j = 0; j < n; j++)
            if (!in[j] && scale[j] > 0 && g[j] > tol && (t < 0 || g[j] > g[t]))
                t = j;
        if (t < 0) {
            rc = 0;
            break;
        }
        pass[np++] = t;
        in[t] = 1;
        for (;;) {
            int bad;
            if (ls_subset(m, S, pass, np, y, z, q, v, r, &bad)) {
                /* a dependent column adds nothing: leave it active */
                const int d = pass[bad];
                in[d] = 0;
                xs[d] = 0;
                scale[d] = -scale[d];      /* marked: not tried again */
                memmove(pass + bad, pass + bad + 1,
                        sizeof(int) * (size_t)(np - bad - 1));
                np--;
                if (np == 0) break;
                continue;
            }
            int feasible = 1;
            for (int l = 0; l < np; l++) feasible &= z[l] > 0;
            if (feasible) {
                for (int l = 0; l < np; l++) xs[pass[l]] = z[l];
                break;
            }
            /* step towards z as far as x stays non-negative, then drop
             * the columns that reached zero */
            double alpha = 1;
            int hit = -1;                 /* the one that reaches zero */
            for (int l = 0; l < np; l++) {
                const double xj = xs[pass[l]];
                if (z[l] <= 0 && xj - z[l] > 0 && xj / (xj - z[l]) < alpha) {
                    alpha = xj / (xj - z[l]);
                    hit = l;
                }
            }
            for (int l = 0; l < np; l++)
                xs[pass[l]] = l == hit ? 0
                                       : xs[pass[l]] + alpha * (z[l] - xs[pass[l]]);
            int keep = 0;
            for (int l = 0; l < np; l++) {
                const int j = pass[l];
                if (xs[j] <= tol * 1e-3) {
                    xs[j] = 0;
                    in[j] = 0;
                } else {
                    pass[keep++] = j;
                }
            }
            np = keep;
            if (np == 0) break;
        }
    }
    for (int j = 0; j < n; j++) x[j] = xs[j] * fabs(scale[j]);
    if (resid) {
        gradient(m, n, S, y, xs, res, g);
        double s = 0;
        for (int i = 0; i < m; i++) s += res[i] * res[i];
        *resid = sqrt(s);
    }
    free(S);
    free(pass);
    return rc;
}
