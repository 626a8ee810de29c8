/*
 * exectst.c -- tester of the execution-time models (SRC/model/pumma_nnls.c
 * and what is built on it, pumma_model.h).
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
 * terms  NP-T's terms by hand on 2 x 3 (column form), 3 x 2 (row form) and
 *        1 x 5 (rolls only); on 1 x 1 no message terms.
 * fits   N-T and NP-T coefficients recovered from times they generate
 *        over sizes and grids (NP-T: square and panel shapes on 1 to 8
 *        processes), and a model of fewer terms fitted to them errs.
 * npt    NP-T fitted with a cast element priced as a rolled one: from
 *        1 x q runs only (no casts) a machine is recovered and 2 x 2
 *        priced exactly, where the fit term by term casts for free.
 * search every configuration of two processor kinds, against a search by
 *        hand over the same space: the optimum, the order of the kept
 *        few, the count; the estimation error of Ichikawa and Kawai
 *        2008.
 * simulator  pumma_plan_predict (the simulator of whole calls) against
 *        schedules worked out by hand from the model: the local multiply
 *        on one process; SDB on 1 x Q (Q stages, Q - 1 rolls of A's slab)
 *        and on P x 1 (a broadcast per block of K, linear and binomial),
 *        with no overlap and full overlap; the plans it names; refusals;
 *        a 128 x 128 grid priced at once and never below its flops.
 * One PASSED/FAILED line per group; `N passed, N failed` last.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_driver.h"

#include "tstgroup.h"

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

static void test_terms(void)
{
    const char *G = "NP-T terms";
    double t[PUMMA_NPT_TERMS];
    /* 2 x 3, m = 300, n = 200, k = 100: the column form rolls
     * mk (q-1)/P = 1e4 and casts kn lg p / q = 2e4/3 bytes; the row form
     * would roll kn (p-1)/P = 2e4/6 and cast mk lg q / p = 3e4 */
    pumma_npt_terms(300, 200, 100, 2, 3, t);
    const double want[PUMMA_NPT_TERMS] = {
        6e6 / 6, 11e4 / 6, 600.0 / 6, 1.0 / 6, 1e4, 2e4 / 3, 100, 2, 100, 1};
    for (int i = 0; i < PUMMA_NPT_TERMS; i++)
        check(rel_close(t[i], want[i], 1e-14), G, "2 x 3: t%d %g, want %g", i,
              t[i], want[i]);
    /* its mirror, 200 x 300 by 100 on 3 x 2: the row form's terms */
    pumma_npt_terms(200, 300, 100, 3, 2, t);
    const double mirror[PUMMA_NPT_TERMS] = {
        6e6 / 6, 11e4 / 6, 600.0 / 6, 1.0 / 6, 1e4, 2e4 / 3, 100, 2, 100, 1};
    for (int i = 0; i < PUMMA_NPT_TERMS; i++)
        check(rel_close(t[i], mirror[i], 1e-14), G, "3 x 2: t%d %g, want %g",
              i, t[i], mirror[i]);
    /* 1 x 5, square: only rolls (lg 1 = 0), 4 of them */
    pumma_npt_terms(100, 100, 100, 1, 5, t);
    check(rel_close(t[4], 1e4 * 4 / 5, 1e-14) && t[5] == 0 && t[6] == 0 &&
              t[7] == 4, G, "1 x 5: %g %g %g %g", t[4], t[5], t[6], t[7]);
    pumma_npt_terms(300, 200, 100, 1, 1, t);
    check(t[0] == 6e6 && t[1] == 3e4 + 2e4 + 6e4 && t[4] == 0 && t[5] == 0 &&
              t[6] == 0 && t[7] == 0,
          G, "1 x 1: %g %g %g %g %g %g", t[0], t[1], t[4], t[5], t[6], t[7]);
    pumma_nt_terms(10, t);
    check(t[0] == 1000 && t[1] == 100 && t[2] == 10 && t[3] == 1, G, "N-T");
    group_end(G);
}

static void test_fits(void)
{
    const char *G = "N-T and NP-T fits";
    /* NP-T: a machine with known coefficients */
    const double truth[PUMMA_NPT_TERMS] = {2e-11, 4e-10, 3e-8,  2e-5, 5e-10,
                                           3e-10, 4e-6,  2e-6,  1e-7, 3e-4};
    const int grids[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 4},
                            {4, 1}, {2, 4}, {4, 2}, {1, 8}, {8, 1}};
    const double shapes[][3] = {{500, 500, 500},   {1000, 1000, 1000},
                                {2000, 2000, 2000}, {4000, 4000, 4000},
                                {4000, 4000, 64},   {4000, 64, 4000},
                                {64, 4000, 4000},   {300, 300, 300}};
    enum { NG = 10, NSH = 8, NS = NG * NSH };
    double rows[NS * PUMMA_NPT_TERMS], T[NS], k[PUMMA_NPT_TERMS];
    int s = 0;
    for (int g = 0; g < NG; g++)
        for (int h = 0; h < NSH; h++, s++) {
            pumma_npt_terms(shapes[h][0], shapes[h][1], shapes[h][2],
                            grids[g][0], grids[g][1],
                            rows + s * PUMMA_NPT_TERMS);
            T[s] = pumma_exec_eval(truth, rows + s * PUMMA_NPT_TERMS,
                                   PUMMA_NPT_TERMS);
        }
    int rc = pumma_exec_fit(NS, PUMMA_NPT_TERMS, rows, T, k);
    int ok = rc == 0;
    for (int i = 0; i < PUMMA_NPT_TERMS; i++) ok &= rel_close(k[i], truth[i], 1e-6);
    check(ok, G, "NP-T: rc %d, k0 %g k4 %g k9 %g", rc, k[0], k[4], k[9]);
    double worst = 0;
    for (int i = 0; i < NS; i++) {
        const double e = fabs(pumma_exec_eval(k, rows + i * PUMMA_NPT_TERMS,
                                              PUMMA_NPT_TERMS) - T[i]) / T[i];
        if (e > worst) worst = e;
    }
    check(worst < 1e-9, G, "NP-T predicts its samples: worst %g", worst);
    /* without the tree terms (t5, t6) the same times cannot be met */
    double r8[NS * 8], k8[8];
    for (int i = 0; i < NS; i++)
        for (int j = 0, c = 0; j < PUMMA_NPT_TERMS; j++)
            if (j != 5 && j != 6) r8[i * 8 + c++] = rows[i * PUMMA_NPT_TERMS + j];
    pumma_exec_fit(NS, 8, r8, T, k8);
    worst = 0;
    for (int i = 0; i < NS; i++) {
        const double e = fabs(pumma_exec_eval(k8, r8 + i * 8, 8) - T[i]) / T[i];
        if (e > worst) worst = e;
    }
    check(worst > 1e-3, G, "a model short of terms errs: worst %g", worst);
    /* N-T on one grid */
    const double nt[PUMMA_NT_TERMS] = {3e-11, 2e-9, 4e-7, 2e-3};
    double nr[6 * PUMMA_NT_TERMS], nT[6], nk[PUMMA_NT_TERMS];
    for (int i = 0; i < 6; i++) {
        pumma_nt_terms(400.0 * (1 << i), nr + i * PUMMA_NT_TERMS);
        nT[i] = pumma_exec_eval(nt, nr + i * PUMMA_NT_TERMS, PUMMA_NT_TERMS);
    }
    rc = pumma_exec_fit(6, PUMMA_NT_TERMS, nr, nT, nk);
    ok = rc == 0;
    for (int i = 0; i < PUMMA_NT_TERMS; i++) ok &= rel_close(nk[i], nt[i], 1e-7);
    check(ok, G, "N-T: %g %g %g %g", nk[0], nk[1], nk[2], nk[3]);
    group_end(G);
}

/* pumma_npt_fit: NP-T with one coefficient for rolled and cast elements
 * (k5 = k4). A kind of three processors runs alone on 1 x 1, 1 x 2 and
 * 1 x 3 only, where nothing is cast (t5 = t6 = 0). On a machine that
 * follows NP-T with k5 = k4 (and no cast latency, k6 = 0, which no such
 * run can show), its model is recovered from those runs and prices 2 x 2,
 * casts included, exactly; fitted term by term (pumma_exec_fit, the fit
 * before issue 31) k5 stays 0 and 2 x 2 is underpriced. */
static void test_npt_fit(void)
{
    const char *G = "NP-T fit, cast priced as roll";
    enum { NPT = PUMMA_NPT_TERMS, NS = 3 * 4 };
    const double truth[NPT] = {1e-11, 1e-9, 1e-7, 1e-4, 3e-8,
                               3e-8,  0,    1e-3, 1e-6, 2e-4};
    const double sizes[] = {1000, 2000, 3000, 4000};
    double rows[NS * NPT], T[NS], k[NPT], alone[NPT];
    int s = 0;
    for (int q = 1; q <= 3; q++)
        for (int n = 0; n < 4; n++, s++) {
            pumma_npt_terms(sizes[n], sizes[n], sizes[n], 1, q,
                            rows + s * NPT);
            T[s] = pumma_exec_eval(truth, rows + s * NPT, NPT);
        }
    int rc = pumma_npt_fit(NS, rows, T, k);
    int ok = rc == 0 && k[5] == k[4];
    for (int j = 0; j < NPT; j++) ok &= rel_close(k[j], truth[j], 1e-6);
    check(ok, G, "1 x 1..3: rc %d, k4 %g k5 %g k7 %g", rc, k[4], k[5], k[7]);
    double t22[NPT];
    pumma_npt_terms(3000, 3000, 3000, 2, 2, t22);
    const double want = pumma_exec_eval(truth, t22, NPT),
                 got = pumma_exec_eval(k, t22, NPT);
    check(t22[5] > 0 && rel_close(got, want, 1e-6), G,
          "2 x 2, N 3000: %.6e, truth %.6e", got, want);
    pumma_exec_fit(NS, NPT, rows, T, alone);
    const double free_cast = pumma_exec_eval(alone, t22, NPT);
    check(alone[5] == 0 && free_cast < 0.95 * want, G,
          "term by term: k5 %g, 2 x 2 at %.6e (truth %.6e)", alone[5],
          free_cast, want);
    /* every grid seen: the same coefficients */
    const int grids[][2] = {{1, 1}, {1, 2}, {2, 2}, {1, 4}, {2, 3}, {1, 6}};
    double r6[6 * 4 * NPT], T6[6 * 4];
    s = 0;
    for (int g = 0; g < 6; g++)
        for (int n = 0; n < 4; n++, s++) {
            pumma_npt_terms(sizes[n], sizes[n], sizes[n], grids[g][0],
                            grids[g][1], r6 + s * NPT);
            T6[s] = pumma_exec_eval(truth, r6 + s * NPT, NPT);
        }
    rc = pumma_npt_fit(s, r6, T6, k);
    ok = rc == 0;
    for (int j = 0; j < NPT; j++) ok &= rel_close(k[j], truth[j], 1e-6);
    check(ok, G, "grids to 2 x 3: rc %d, k4 %g k5 %g", rc, k[4], k[5]);
    check(pumma_npt_fit(0, rows, T, k) == -1, G, "no samples refused");
    group_end(G);
}

/* Two kinds: kind 1 runs at 0.4 of kind 0; M processes on a processor
 * share it; messages cost per process and per grid dimension. */
static double toy(void *ctx, int kind, int per, double m, double n, double k,
                  int p, int q)
{
    (void)ctx;
    const double speed = (kind ? 0.4 : 1.0) / per, P = (double)p * q;
    return 2e-10 * m * n * k / P / speed +
           1e-9 * (m * k + k * n) * (p + q - 2) / P + 5e-4 * (p + q) + 1e-3;
}

static void test_search(void)
{
    const char *G = "configuration search";
    const pumma_exec_kind_t kinds[2] = {{2, 3}, {3, 2}};
    enum { NB = 5 };
    pumma_exec_config_t best[NB];
    const double N = 3000;
    const int seen = pumma_exec_search(2, kinds, toy, NULL, N, N, N, best, NB);
    /* by hand: P0 0..2 with M0 1..3, P1 0..3 with M1 1..2, every grid */
    double mins[NB];
    int count = 0;
    for (int i = 0; i < NB; i++) mins[i] = INFINITY;
    for (int a = 0; a <= 2; a++)
        for (int ma = a ? 1 : 0; ma <= (a ? 3 : 0); ma++)
            for (int b = 0; b <= 3; b++)
                for (int mb = b ? 1 : 0; mb <= (b ? 2 : 0); mb++) {
                    const int P = a * ma + b * mb;
                    for (int p = 1; p <= P; p++) {
                        if (P % p) continue;
                        double t = 0;
                        if (a) t = fmax(t, toy(NULL, 0, ma, N, N, N, p, P / p));
                        if (b) t = fmax(t, toy(NULL, 1, mb, N, N, N, p, P / p));
                        count++;
                        for (int i = 0; i < NB; i++)
                            if (t < mins[i]) {
                                for (int j = NB - 1; j > i; j--) mins[j] = mins[j - 1];
                                mins[i] = t;
                                break;
                            }
                    }
                }
    check(seen == count, G, "%d configurations estimated, %d by hand", seen,
          count);
    for (int i = 0; i < NB; i++)
        check(rel_close(best[i].t, mins[i], 1e-12), G,
              "kept %d: %g, by hand %g (p %d q %d, kinds %dx%d %dx%d)", i,
              best[i].t, mins[i], best[i].p, best[i].q, best[i].pe[0],
              best[i].per[0], best[i].pe[1], best[i].per[1]);
    check(rel_close(pumma_exec_error(1.1, 1.0), 0.1, 1e-12) &&
              pumma_exec_error(2, 2) == 0,
          G, "estimation error");
    group_end(G);
}

/* The model of the hand schedules: no copies, no inner-dimension or
 * transposition penalty, unless a test sets them. */
static pumma_model_t hand_model(double overlap)
{
    pumma_model_t mo;
    memset(&mo, 0, sizeof mo);
    mo.alpha = 2e-5;
    mo.beta = 1e-9;
    for (int i = 0; i < 4; i++) mo.gamma[i] = 1e-9 * (i + 1);
    mo.gamma_t = 1;
    mo.overlap = overlap;
    mo.valid = 1;
    return mo;
}

static void test_simulator(void)
{
    const char *G = "simulator";
    char plan[128];
    pumma_opts_t f;
    /* one process: the local multiply, gamma (1 + gamma_k/k) mnk, times
     * gamma_t when both operands are transposed */
    pumma_model_t mo = hand_model(0);
    mo.gamma_k = 16;
    mo.gamma_t = 1.25;
    double t = pumma_plan_predict(&pumma_type_d, 'N', 'N', 300, 200, 100, 32,
                                  1, 1, &mo, NULL, plan, sizeof plan);
    check(rel_close(t, 2e-9 * (1 + 16.0 / 100) * 300 * 200 * 100, 1e-12), G,
          "1x1 NN: %.6e", t);
    check(!strcmp(plan, "algo=local bcast=- reduce=- shift=-"), G,
          "1x1 plan %s", plan);
    t = pumma_plan_predict(&pumma_type_z, 't', 'C', 300, 200, 100, 32, 1, 1,
                           &mo, NULL, NULL, 0);
    check(rel_close(t, 4e-9 * (1 + 16.0 / 100) * 300 * 200 * 100 * 1.25,
                    1e-12), G, "1x1 TC complex: %.6e", t);

    /* SDB on 1 x Q, n = Q nb s: every process holds n x n/Q of C and A's
     * n x n/Q slab; Q stages, each multiplying it by n/Q rows of B
     * (w = gamma n (n/Q) (n/Q)), A rolled between stages (alpha + beta
     * 8 n n/Q, simultaneous); no broadcast on one grid row. Without
     * overlap T = Q w + (Q-1) roll; with it max(w, roll) + w. */
    for (int ov = 0; ov <= 1; ov++)
        for (int Q = 2; Q <= 5; Q++) {
            mo = hand_model(ov);
            const int nb = 8, n = Q * nb * 3;
            const double w = 2e-9 * n * ((double)n / Q) * ((double)n / Q);
            const double roll = 2e-5 + 1e-9 * 8.0 * n * n / Q;
            const double want = ov ? (Q - 1) * fmax(w, roll) + w
                                   : Q * w + (Q - 1) * roll;
            memset(&f, 0, sizeof f);
            f.algo = "sdb";
            f.shift = pumma_shift_find("simultaneous");
            t = pumma_plan_predict(&pumma_type_d, 'N', 'N', n, n, n, nb, 1, Q,
                                   &mo, &f, plan, sizeof plan);
            check(rel_close(t, want, 1e-12), G,
                  "sdb 1x%d n %d overlap %d: %.6e, by hand %.6e", Q, n, ov, t,
                  want);
            check(!strcmp(plan, "algo=sdb bcast=- reduce=- shift=simultaneous"),
                  G, "sdb 1x%d plan %s", Q, plan);
        }

    /* The same SDB on hosts of unequal speed (mo.slow = s: the slowest
     * process multiplies s times slower than the first, whose gamma the
     * model holds): every process has an equal part, so each stage waits
     * for the slowest, w = s gamma n (n/Q) (n/Q); the rolls are the
     * network's, unchanged. */
    for (int ov = 0; ov <= 1; ov++)
        for (int Q = 2; Q <= 4; Q++) {
            mo = hand_model(ov);
            mo.slow = 5;
            const int nb = 8, n = Q * nb * 3;
            const double w = 5 * 2e-9 * n * ((double)n / Q) * ((double)n / Q);
            const double roll = 2e-5 + 1e-9 * 8.0 * n * n / Q;
            const double want = ov ? (Q - 1) * fmax(w, roll) + w
                                   : Q * w + (Q - 1) * roll;
            memset(&f, 0, sizeof f);
            f.algo = "sdb";
            f.shift = pumma_shift_find("simultaneous");
            t = pumma_plan_predict(&pumma_type_d, 'N', 'N', n, n, n, nb, 1, Q,
                                   &mo, &f, NULL, 0);
            check(rel_close(t, want, 1e-12), G,
                  "sdb 1x%d slow 5 overlap %d: %.6e, by hand %.6e", Q, ov, t,
                  want);
        }

    /* SDB on P x 1, n = P nb s: every process holds n/P x n of C and its
     * n/P rows of A; B's n/nb blocks of nb rows are broadcast down the
     * column (linear: P - 1 messages from the root; binomial: ceil(lg P)
     * rounds) of 8 nb n bytes, w = gamma (n/P) n n (n small: the casts
 * dominate; large: the multiplies). Without overlap
     * T = w + (n/nb) c; with it the casts hide behind all but the last
     * group's multiply: max(w - w/P, (n/nb) c) + w/P. */
    for (int ov = 0; ov <= 1; ov++)
        for (int P = 2; P <= 6; P++)
            for (int lin = 0; lin <= 1; lin++)
                for (int s = 2; s <= 32; s += 30) {  /* casts, multiplies dominate */
                mo = hand_model(ov);
                const int nb = 8, n = P * nb * s;
                const double w = 2e-9 * ((double)n / P) * n * n;
                const int lg = P <= 2 ? 1 : P <= 4 ? 2 : 3;
                const double msg = 2e-5 + 1e-9 * 8.0 * nb * n;
                const double cb = (double)n / nb * (lin ? P - 1 : lg) * msg;
                const double want = ov ? fmax(w - w / P, cb) + w / P : w + cb;
                memset(&f, 0, sizeof f);
                f.algo = "sdb";
                f.bcast = pumma_comm_find(PUMMA_BCAST_TABLE,
                                          lin ? "linear" : "binomial");
                t = pumma_plan_predict(&pumma_type_d, 'N', 'N', n, n, n, nb, P,
                                       1, &mo, &f, plan, sizeof plan);
                check(rel_close(t, want, 1e-12), G,
                      "sdb %dx1 %s n %d overlap %d: %.6e, by hand %.6e", P,
                      lin ? "linear" : "binomial", n, ov, t, want);
                char expect[96];
                snprintf(expect, sizeof expect,
                         "algo=sdb bcast=%s reduce=- shift=-",
                         lin ? "linear" : "binomial");
                check(!strcmp(plan, expect), G, "sdb %dx1 plan %s", P, plan);
                }

    /* the planner's own choice is never dearer than a forced one */
    mo = hand_model(0.5);
    mo.delta = 1e-10;
    mo.delta_t = 2e-10;
    const double best = pumma_plan_predict(&pumma_type_d, 'N', 'N', 700, 500,
                                           300, 32, 2, 3, &mo, NULL, plan,
                                           sizeof plan);
    static const char *const algos[] = {"sdb", "mdb1", "mdb2", "sdb-row",
                                        "mdb1-row", "mdb2-row", "rankk",
                                        "stat-a", "stat-b"};
    for (size_t i = 0; i < sizeof algos / sizeof *algos; i++) {
        memset(&f, 0, sizeof f);
        f.algo = algos[i];
        t = pumma_plan_predict(&pumma_type_d, 'N', 'N', 700, 500, 300, 32, 2,
                               3, &mo, &f, NULL, 0);
        check(t > 0 && best <= t * (1 + 1e-12), G,
              "auto %.6e (%s) dearer than forced %s %.6e", best, plan,
              algos[i], t);
    }
    /* the workspace limit a call has (none given: twice the operands, at
     * least 256 MiB) binds the prediction as it binds the call: stat-a's
     * copies of 16384^3 on 16 x 16 (every process a K slice of A and B,
     * about 2 GiB) are over it, so the plan is the limit's choice */
    memset(&f, 0, sizeof f);
    f.algo = "stat-a";
    t = pumma_plan_predict(&pumma_type_d, 'N', 'N', 16384, 16384, 16384, 64,
                           16, 16, &mo, &f, plan, sizeof plan);
    check(t > 0 && (strstr(plan, "limit=fit") || strstr(plan, "limit=least")),
          G, "stat-a over the workspace limit predicted as %s", plan);
    /* refusals: an algorithm that does not compute N N, unknown names,
     * sizes out of range */
    memset(&f, 0, sizeof f);
    f.algo = "tt";
    check(pumma_plan_predict(&pumma_type_d, 'N', 'N', 64, 64, 64, 8, 2, 2, &mo,
                             &f, NULL, 0) == -1, G, "tt on N N priced");
    f.algo = "no-such";
    check(pumma_plan_predict(&pumma_type_d, 'N', 'N', 64, 64, 64, 8, 2, 2, &mo,
                             &f, NULL, 0) == -1, G, "an unknown name priced");
    check(pumma_plan_predict(&pumma_type_d, 'N', 'N', 0, 64, 64, 8, 2, 2, &mo,
                             NULL, NULL, 0) == -1 &&
          pumma_plan_predict(&pumma_type_d, 'N', 'N', 64, 64, 64, 8, 0, 2, &mo,
                             NULL, NULL, 0) == -1, G, "bad sizes priced");
    /* a grid this machine cannot hold: 128 x 128, priced, never below
     * the flops shared perfectly */
    mo = hand_model(1);
    const int n = 65536;
    t = pumma_plan_predict(&pumma_type_d, 'N', 'N', n, n, n, 64, 128, 128, &mo,
                           NULL, plan, sizeof plan);
    const double flops = 2e-9 * (double)n * n * n / (128.0 * 128);
    check(isfinite(t) && t >= flops * (1 - 1e-12) && t < 2 * flops, G,
          "128x128 n %d: %.6e (flops alone %.6e) %s", n, t, flops, plan);
    group_end(G);
}

int main(void)
{
    test_nnls();
    test_terms();
    test_fits();
    test_npt_fit();
    test_search();
    test_simulator();
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
