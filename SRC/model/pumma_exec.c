/*
 * pumma_exec.c -- execution-time models (pumma_model.h; Ichikawa and Kawai
 * 2008): the N-T and NP-T terms, their fits by non-negative least squares
 * (pumma_nnls.c), and the search over configurations of processor kinds,
 * processes per processor and grid shapes.
 */
#include <math.h>
#include <stdlib.h>

#include "pumma_model.h"

void pumma_nt_terms(double n, double *t)
{
    t[0] = n * n * n;
    t[1] = n * n;
    t[2] = n;
    t[3] = 1;
}

/* pumma_model_log2's ceil(lg x), restated: this file needs neither MPI
 * nor the BLAS, so the analysis tool (TIMING/xexectool) links it alone. */
static double ceil_lg(int x)
{
    int d = 0;
    while ((1 << d) < x) d++;
    return d;
}

void pumma_npt_terms(double m, double n, double k, int p, int q, double *t)
{
    const double P = (double)p * q, lp = ceil_lg(p), lq = ceil_lg(q);
    /* the column form (A rolled along the grid rows, B cast down the
     * columns) or its mirror, whichever moves fewer bytes */
    const double roll_c = m * k * (q - 1) / P, cast_c = k * n * lp / q;
    const double roll_r = k * n * (p - 1) / P, cast_r = m * k * lq / p;
    const int col = roll_c + cast_c <= roll_r + cast_r;
    t[0] = m * n * k / P;
    t[1] = (m * k + k * n + m * n) / P;
    t[2] = (m + n + k) / P;
    t[3] = 1 / P;
    t[4] = col ? roll_c : roll_r;
    t[5] = col ? cast_c : cast_r;
    t[6] = k * (col ? lp : lq);
    t[7] = col ? q - 1 : p - 1;
    t[8] = k;
    t[9] = 1;
}

double pumma_exec_eval(const double *k, const double *t, int nt)
{
    double s = 0;
    for (int i = 0; i < nt; i++) s += k[i] * t[i];
    return s;
}

int pumma_exec_fit(int ns, int nt, const double *rows, const double *T,
                   double *k)
{
    if (ns < 1 || nt < 1) return -1;
    double *A = malloc(sizeof(double) * (size_t)ns * (nt + 1));
    if (!A) return -1;
    double *w = A + (size_t)ns * nt;
    for (int i = 0; i < ns; i++) {
        for (int j = 0; j < nt; j++)
            A[(size_t)j * ns + i] = rows[(size_t)i * nt + j];
        w[i] = T[i] > 0 ? 1 / T[i] : 0;
    }
    const int rc = pumma_nnls(ns, nt, A, T, w, k, NULL);
    free(A);
    return rc;
}

int pumma_npt_fit(int ns, const double *rows, const double *T, double *k)
{
    enum { NPT = PUMMA_NPT_TERMS, NC = NPT - 1 };
    if (ns < 1) return -1;
    double *x = malloc(sizeof(double) * ((size_t)ns * NC + NC));
    if (!x) return -1;
    double *c = x + (size_t)ns * NC;
    /* column 4 the elements moved into a process, rolled or cast (t4 +
     * t5); t5's own column dropped */
    for (int i = 0; i < ns; i++) {
        const double *t = rows + (size_t)i * NPT;
        double *r = x + (size_t)i * NC;
        for (int j = 0, at = 0; j < NPT; j++)
            if (j != 5) r[at++] = j == 4 ? t[4] + t[5] : t[j];
    }
    const int rc = pumma_exec_fit(ns, NC, x, T, c);
    for (int j = 0, at = 0; j < NPT; j++)
        k[j] = j == 5 ? c[4] : c[at++];
    free(x);
    return rc;
}

double pumma_exec_error(double tau, double T)
{
    return T > 0 ? (tau - T) / T : 0;
}

/* a before b: faster (beyond rounding), then fewer processes, then the
 * squarer grid (p <= q first) */
static int better(const pumma_exec_config_t *a, const pumma_exec_config_t *b)
{
    if (a->t < b->t * (1 - 1e-12)) return 1;
    if (b->t < a->t * (1 - 1e-12)) return 0;
    const int pa = a->p * a->q, pb = b->p * b->q;
    if (pa != pb) return pa < pb;
    const int da = abs(a->q - a->p) * 2 + (a->p > a->q),
              db = abs(b->q - b->p) * 2 + (b->p > b->q);
    return da < db;
}

typedef struct walk {
    int nkind;
    const pumma_exec_kind_t *kinds;
    pumma_exec_model_fn model;
    void *ctx;
    double m, n, k;
    pumma_exec_config_t *best, cur;
    int nbest, kept, seen;
} walk_t;

/* The configuration in w->cur on every grid of its processes. */
static void estimate(walk_t *w)
{
    int P = 0;
    for (int i = 0; i < w->nkind; i++) P += w->cur.pe[i] * w->cur.per[i];
    if (P < 1) return;
    for (int p = 1; p <= P; p++) {
        if (P % p) continue;
        pumma_exec_config_t c = w->cur;
        c.p = p;
        c.q = P / p;
        c.t = 0;
        int ok = 1;
        for (int i = 0; i < w->nkind && ok; i++) {
            if (!c.pe[i]) continue;
            const double t = w->model(w->ctx, i, c.per[i], w->m, w->n, w->k,
                                      c.p, c.q);
            if (t < 0) ok = 0;
            else if (t > c.t) c.t = t;
        }
        if (!ok) continue;
        w->seen++;
        /* insertion into the kept few, in order */
        int at = w->kept;
        while (at > 0 && better(&c, &w->best[at - 1])) at--;
        if (at >= w->nbest) continue;
        const int last = w->kept < w->nbest ? w->kept : w->nbest - 1;
        for (int j = last; j > at; j--) w->best[j] = w->best[j - 1];
        w->best[at] = c;
        if (w->kept < w->nbest) w->kept++;
    }
}

static void walk(walk_t *w, int i)
{
    if (i >= w->nkind || i >= PUMMA_EXEC_MAXKINDS) {
        estimate(w);
        return;
    }
    for (int pe = 0; pe <= w->kinds[i].count; pe++)
        for (int per = pe ? 1 : 0; per <= (pe ? w->kinds[i].maxper : 0);
             per++) {
            w->cur.pe[i] = pe;
            w->cur.per[i] = per;
            walk(w, i + 1);
        }
}

int pumma_exec_search(int nkind, const pumma_exec_kind_t *kinds,
                      pumma_exec_model_fn model, void *ctx, double m,
                      double n, double k, pumma_exec_config_t *best,
                      int nbest)
{
    if (nkind < 1 || nkind > PUMMA_EXEC_MAXKINDS || nbest < 1) return 0;
    walk_t w = {nkind, kinds, model, ctx, m, n, k, best, {0}, nbest, 0, 0};
    w.cur.nkind = nkind;
    walk(&w, 0);
    return w.seen;
}
