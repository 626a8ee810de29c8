/*
 * hettst.c -- heterogeneous layouts, descriptors and multiplies, checked
 * against the formulas of Becker and Lastovetsky 2007 and against
 * ScaLAPACK.
 *
 *   mpiexec -n 6 ./xhettst [brief]
 *
 * 1. Layouts (process 0): every kind on many speed vectors and sizes
 *    covers the matrix exactly once; areas follow the speeds to within the
 *    rounding to whole rows and columns; the column-based layout's sum of
 *    half-perimeters is the optimum over every grouping of the processes
 *    into columns (brute force over all set partitions, p <= 6); the
 *    square-corner sides, its feasibility rule (INFO = 1 when the
 *    slower processes' squares, of areas in proportion to speed, do not
 *    fit side by side along the short side of M x N: for N x N the
 *    (S2/S1)(S3/S1) > 1/4 of Becker and Lastovetsky 2007) and the rule for
 *    when it moves less data;
 *    the constructors' INFO codes.
 * 2. PUMMA_P?GEMR2D between block-cyclic windows equals ScaLAPACK's
 *    P?GEMR2D; block-cyclic -> heterogeneous puts every entry where the
 *    layout says, and back restores the matrix; between windows of any
 *    two descriptors (block-cyclic or layouts of random kinds, speeds and
 *    shapes) it equals ScaLAPACK's on the block-cyclic originals.
 * 3. P?GEMM on heterogeneous descriptors, S/D/C/Z, every TRANSA/TRANSB,
 *    every layout, 2 to 5 processes, het and het-overlap, fully connected
 *    and linear: C redistributed back equals ScaLAPACK's P?GEMM on the
 *    block-cyclic originals, and nothing of a process's box outside its
 *    region is written. The elements sent (all processes, relays
 *    included) equal the formulas of Becker and Lastovetsky 2007 from the
 *    integer partition: N^2 + X + Y and N^2 + 2(X + Y) for the 3-process
 *    rectangular (fully connected, linear), 2N(a + b) for square-corner
 *    (both), 2qN for the two-process square-corner, N^2 for two strips,
 *    and N*(sum of half-perimeters) - 2N^2 for any layout of one rectangle
 *    per process.
 *    Then any product (test_any): random M, N, K, transposes, windows,
 *    and A, B and C each on its own layout or block-cyclic, sub(C)
 *    computed where the planner chooses, on C's own distribution, or
 *    remapped to columns or square-corner, against ScaLAPACK's P?GEMM on
 *    the block-cyclic originals; the elements sent (all processes,
 *    relays included) equal the planner's count.
 * 4. The scalars on layouts: alpha = 0 reads neither A nor B (NaN there)
 *    and sends nothing, beta = 0 does not read C (NaN there), alpha = 0
 *    with beta = 1 changes nothing; against ScaLAPACK's P?GEMM.
 * 5. The INFO codes of P?GEMM with heterogeneous descriptors (legal
 *    windows and mixes, illegal descriptors and windows) and of
 *    PUMMA_DESCINIT.
 * 6. PUMMA_SPEEDS_MEASURE: speeds summing to 1; under PUMMA_SPEEDS (the
 *    argument `speeds` runs this group alone) their ratios.
 * One PASSED/FAILED line per group; `N passed, N failed` last.
 *
 * The argument `brief` (run-valgrind, where a process runs some 50 times
 * slower) multiplies in one type per layout in 3 and 4, S, D, C, Z in
 * turn, instead of all four, and in 3 on matrices of 24 to 69, not 37 to
 * 136.
 */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacs.h"
#include "pumma.h"
#include "pumma_driver.h"

typedef void gemr_fn(const int *, const int *, const void *, const int *,
                     const int *, const int *, void *, const int *,
                     const int *, const int *, const int *);
typedef void opts_fn(const char *, const char *, const int *, const int *,
                     const int *, const void *, const void *, const int *,
                     const int *, const int *, const void *, const int *,
                     const int *, const int *, const void *, void *,
                     const int *, const int *, const int *,
                     const pumma_options_t *, int *);
typedef void pgemr_fn(const int *, const int *, const void *, const int *,
                      const int *, const int *, void *, const int *,
                      const int *, const int *, int *);

static int npass, nfail, me_world;
static int brief;                   /* the argument `brief` */

/* Does case cs of a group multiply in type ti (of the four)? */
static int keep_type(int ti, int cs)
{
    return !brief || ti == cs % 4;
}

static void verdict(const char *what, int bad)
{
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all) nfail++; else npass++;
    if (me_world == 0) printf("%s %s\n", all ? "FAILED" : "PASSED", what);
}

/* ============================================================ layouts */

static double frand(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((*s >> 11) + 0.5) / 9007199254740992.0;
}

/* Real-valued optimum of column-based arrangements: every set partition
 * of the p processes into columns (restricted growth strings). */
static double brute_columns(int p, const double *s, int m, int n)
{
    int a[8] = {0}, mx[8] = {0};
    double best = -1;
    for (;;) {
        double w[8] = {0}, cost = 0;
        int k[8] = {0}, ncol = 0;
        for (int i = 0; i < p; i++) {
            w[a[i]] += s[i];
            k[a[i]]++;
            if (a[i] + 1 > ncol) ncol = a[i] + 1;
        }
        for (int c = 0; c < ncol; c++) cost += m + k[c] * w[c] * n;
        if (best < 0 || cost < best) best = cost;
        int i = p - 1;             /* next restricted growth string */
        while (i > 0 && a[i] == mx[i - 1] + 1) i--;
        if (i == 0) break;
        a[i]++;
        for (int j = i + 1; j < p; j++) a[j] = 0;
        for (int j = 1; j < p; j++) mx[j] = a[j] > mx[j - 1] ? a[j] : mx[j - 1];
        mx[0] = 0;
    }
    return best;
}

/* Speeds scaled by the largest and their sum: any finite positive speeds
 * give finite shares (sp[p] / top / sum). */
static double speed_sum(int np, const double *sp, double *top)
{
    double sum = 0;
    *top = 0;
    for (int p = 0; p < np; p++)
        if (sp[p] > *top) *top = sp[p];
    for (int p = 0; p < np; p++) sum += sp[p] / *top;
    return sum;
}

static int check_cover(const pumma_layout_t *L, const double *sp, char *why)
{
    double top, sum = speed_sum(L->np, sp, &top);
    long *area = calloc(L->np > 0 ? (size_t)L->np : 1, sizeof(long));
    int bad = 0;
    for (int i = 0; i < L->m && !bad; i++)
        for (int j = 0; j < L->n && !bad; j++) {
            int own = -1, cnt = 0;
            for (int p = 0; p < L->np; p++)
                for (int r = L->first[p]; r < L->first[p + 1]; r++) {
                    const pumma_rect_t *x = &L->rect[r];
                    if (i >= x->r0 && i < x->r1 && j >= x->c0 && j < x->c1) {
                        own = p;
                        cnt++;
                    }
                }
            if (cnt != 1) {
                sprintf(why, "(%d,%d) owned %d times", i, j, cnt);
                bad = 1;
            } else {
                area[own]++;
                const pumma_rect_t *b = &L->box[own];
                if (i < b->r0 || i >= b->r1 || j < b->c0 || j >= b->c1) {
                    sprintf(why, "(%d,%d) outside its box", i, j);
                    bad = 1;
                }
            }
        }
    /* Rounding moves at most one whole row and one whole column (and the
     * square-corner sides one line each). */
    for (int p = 0; p < L->np && !bad; p++) {
        double exact = sp[p] / top / sum * L->m * L->n;
        double slack = L->kind != PUMMA_LAYOUT_SQUARE_CORNER ? L->m + L->n
                       : L->np == 3 ? 2 * (L->m > L->n ? L->m : L->n) + 2
                                    : 2 * sqrt(exact) + 2;
        if (fabs(area[p] - exact) > slack) {
            sprintf(why, "process %d area %ld, share %.1f", p, area[p], exact);
            bad = 1;
        }
    }
    free(area);
    return bad;
}

static void test_layouts(void)
{
    char why[200] = "";
    int bad = 0, ncase = 0;
    unsigned long long s = 12345;
    if (me_world == 0) {
        for (int it = 0; it < 300 && !bad; it++) {
            int p = 1 + it % 6;
            int m = 20 + (int)(frand(&s) * 80), n = it % 3 ? m : 20 + (int)(frand(&s) * 80);
            double sp[8];
            for (int i = 0; i < p; i++) sp[i] = 0.05 + frand(&s) * (it % 2 ? 1 : 20);
            const int kinds[] = {PUMMA_LAYOUT_COLUMNS, PUMMA_LAYOUT_STRIPS,
                                 PUMMA_LAYOUT_RECT3, PUMMA_LAYOUT_SQUARE_CORNER};
            for (int k = 0; k < 4 && !bad; k++) {
                int h, info;
                pumma_layout_create(kinds[k], m, n, p, sp, &h, &info);
                int want_np = kinds[k] == PUMMA_LAYOUT_RECT3 ? p == 3
                            : kinds[k] == PUMMA_LAYOUT_SQUARE_CORNER ? (p == 2 || p == 3)
                            : 1;
                if (!want_np) {
                    if (info != -4) {
                        sprintf(why, "kind %d on %d processes: INFO %d, not -4", kinds[k], p, info);
                        bad = 1;
                    }
                    continue;
                }
                if (kinds[k] == PUMMA_LAYOUT_SQUARE_CORNER) {
                    /* The slower processes' squares, of areas in
                     * proportion to their speeds, must fit side by side
                     * along the short side: sides a (+ b) <= min(m, n). */
                    double tot = 0, fastest = 0, sides = 0;
                    for (int i = 0; i < p; i++) {
                        tot += sp[i];
                        if (sp[i] > fastest) fastest = sp[i];
                    }
                    for (int i = 0, skip = 0; i < p; i++) {
                        if (sp[i] == fastest && !skip) { skip = 1; continue; }
                        sides += sqrt(sp[i] / tot * m * n);
                    }
                    int feasible = sides <= (m < n ? m : n);
                    if (!feasible) {
                        if (info != 1) {
                            sprintf(why, "infeasible square-corner: INFO %d", info);
                            bad = 1;
                        }
                        continue;
                    }
                }
                if (info == 2) continue;      /* a share too small for m x n */
                if (info) {
                    sprintf(why, "kind %d p %d m %d n %d: INFO %d", kinds[k], p, m, n, info);
                    bad = 1;
                    break;
                }
                const pumma_layout_t *L = pumma_layout_get(h);
                ncase++;
                if (check_cover(L, sp, why)) { bad = 1; break; }
                if (kinds[k] == PUMMA_LAYOUT_COLUMNS) {
                    /* normalise speeds for the brute force */
                    double top, sum = speed_sum(p, sp, &top), ns[8];
                    for (int i = 0; i < p; i++) ns[i] = sp[i] / top / sum;
                    double opt = brute_columns(p, ns, m, n);
                    long hp = pumma_layout_halfperim(L);
                    if (hp > opt + p + 1e-9) {
                        sprintf(why, "columns p=%d: half-perimeters %ld, optimum %.2f", p, hp, opt);
                        bad = 1;
                    }
                }
                if (kinds[k] == PUMMA_LAYOUT_STRIPS &&
                    pumma_layout_halfperim(L) != (long)p * m + n) {
                    sprintf(why, "strips: half-perimeters %ld", pumma_layout_halfperim(L));
                    bad = 1;
                }
                if (kinds[k] == PUMMA_LAYOUT_SQUARE_CORNER) {
                    /* slower ones: squares of the rounded side */
                    double top, sum = speed_sum(p, sp, &top);
                    for (int q = 0; q < p; q++) {
                        const pumma_rect_t *b = &L->box[q];
                        int side = b->r1 - b->r0;
                        int isslow = L->first[q + 1] - L->first[q] == 1;
                        if (!isslow) continue;
                        int want = (int)lround(sqrt(sp[q] / top / sum * m * n));
                        if (b->c1 - b->c0 != side || abs(side - want) > 1) {
                            sprintf(why, "square-corner side %d x %d, want %d", side, b->c1 - b->c0, want);
                            bad = 1;
                        }
                    }
                }
                /* The public queries against the layout itself. */
                for (int q = 0; q < p && !bad; q++) {
                    int nr, inf, i1, i2, j1, j2, own;
                    pumma_layout_nrect_(&h, &q, &nr, &inf);
                    if (inf || nr != L->first[q + 1] - L->first[q]) {
                        sprintf(why, "PUMMA_LAYOUT_NRECT %d %d", nr, inf);
                        bad = 1;
                    }
                    for (int rr = 1; rr <= nr && !bad; rr++) {
                        pumma_layout_rect_(&h, &q, &rr, &i1, &i2, &j1, &j2, &inf);
                        const pumma_rect_t *x = &L->rect[L->first[q] + rr - 1];
                        pumma_layout_owner_(&h, &i1, &j2, &own, &inf);
                        if (inf || i1 != x->r0 + 1 || i2 != x->r1 || j1 != x->c0 + 1 ||
                            j2 != x->c1 || own != q) {
                            sprintf(why, "PUMMA_LAYOUT_RECT/OWNER of process %d", q);
                            bad = 1;
                        }
                    }
                }
                int zero = 0, mm = m + 1, inf;
                int own;
                pumma_layout_owner_(&h, &mm, &n, &own, &inf);
                if (!bad && inf != -2) {
                    sprintf(why, "PUMMA_LAYOUT_OWNER outside: INFO %d", inf);
                    bad = 1;
                }
                pumma_layout_nrect_(&h, &p, &zero, &inf);
                if (!bad && inf != -2) {
                    sprintf(why, "PUMMA_LAYOUT_NRECT of process NP: INFO %d", inf);
                    bad = 1;
                }
                pumma_layout_destroy(h);
                pumma_layout_free_(&h, &inf);
                if (!bad && inf != -1) {
                    sprintf(why, "PUMMA_LAYOUT_FREE twice: INFO %d", inf);
                    bad = 1;
                }
            }
        }
        /* The rule (Becker and Lastovetsky 2007, sections 3.1, 3.2) at a few
         * points, and constructor errors. */
        double v1, v2;
        double a9[3] = {90, 5, 5}, a5[3] = {50, 25, 25}, a8[3] = {60, 20, 20};
        if (!bad && (pumma_sqcorner_rule(3, a9, PUMMA_TOPO_FULL, &v1, &v2) != 1 ||
                     fabs(v1 - 2 * (sqrt(.05) + sqrt(.05))) > 1e-12 ||
                     fabs(v2 - 1.1) > 1e-12)) {
            sprintf(why, "rule at 90:5:5 full: %g %g", v1, v2);
            bad = 1;
        }
        if (!bad && (pumma_sqcorner_rule(3, a5, PUMMA_TOPO_FULL, &v1, &v2) != 0 ||
                     pumma_sqcorner_rule(3, a8, PUMMA_TOPO_FULL, &v1, &v2) != 0 ||
                     pumma_sqcorner_rule(3, a8, PUMMA_TOPO_LINEAR, &v1, &v2) != 1)) {
            sprintf(why, "rule at 50:25:25 / 60:20:20");
            bad = 1;
        }
        double two[2] = {3.5, 1}, two3[2] = {2.5, 1};
        if (!bad && (pumma_sqcorner_rule(2, two, PUMMA_TOPO_FULL, &v1, &v2) != 1 ||
                     pumma_sqcorner_rule(2, two3, PUMMA_TOPO_FULL, &v1, &v2) != 0)) {
            sprintf(why, "two-process rule at 3.5:1 / 2.5:1");
            bad = 1;
        }
        int h, info;
        double ok3[3] = {1, 1, 1}, neg[3] = {1, -1, 1};
        struct { int kind, m, n, np; const double *s; int info; } e[] = {
            {99, 10, 10, 3, ok3, -1}, {PUMMA_LAYOUT_COLUMNS, 0, 10, 3, ok3, -2},
            {PUMMA_LAYOUT_COLUMNS, 10, 0, 3, ok3, -3},
            {PUMMA_LAYOUT_COLUMNS, 10, 10, 0, ok3, -4},
            {PUMMA_LAYOUT_RECT3, 10, 10, 2, ok3, -4},
            {PUMMA_LAYOUT_COLUMNS, 10, 10, 3, neg, -5},
            {PUMMA_LAYOUT_SQUARE_CORNER, 10, 10, 3, ok3, 1},
            {PUMMA_LAYOUT_STRIPS, 10, 2, 3, ok3, 2}};
        for (size_t i = 0; i < sizeof e / sizeof *e && !bad; i++) {
            pumma_layout_create(e[i].kind, e[i].m, e[i].n, e[i].np, e[i].s, &h, &info);
            if (info != e[i].info || (info && h != 0)) {
                sprintf(why, "constructor case %zu: INFO %d, not %d", i, info, e[i].info);
                bad = 1;
            }
        }
    }
    char what[300];
    snprintf(what, sizeof what, "layouts: %d built and checked %s", ncase, why);
    verdict(what, bad);
}

/* ======================================================= distributed */

typedef struct ty {
    char letter;
    size_t es;
    int cplx;
    double tol;
    gemm_fn *sl;             /* ScaLAPACK's own P?GEMM */
    gemr_fn *slr;            /* ScaLAPACK's P?GEMR2D */
    opts_fn *pumma;
    pgemr_fn *gemr;
} ty_t;

/* Global entry (i, j) (0-based) of matrix id: small integers, so sums are
 * exact in every precision. */
static void entry(const ty_t *t, int id, int i, int j, void *at)
{
    int re = (i * 7 + j * 3 + id * 5) % 9 - 4, im = (i * 2 + j * 5 + id) % 7 - 3;
    switch (t->letter) {
    case 'S': *(float *)at = (float)re; break;
    case 'D': *(double *)at = re; break;
    case 'C': ((float *)at)[0] = (float)re; ((float *)at)[1] = (float)im; break;
    default: ((double *)at)[0] = re; ((double *)at)[1] = im;
    }
}

static double value(const ty_t *t, const void *at, int part)
{
    if (t->letter == 'S' || t->letter == 'C') return ((const float *)at)[part];
    return ((const double *)at)[part];
}

typedef struct bc {
    int desc[9], ml, nl;
    char *a;
} bc_t;

/* Block-cyclic m x n, mb x nb blocks from process (rs, cs); entries of
 * matrix id (none when id < 0: zeros). */
static void bc_make_src(const ty_t *t, int ctxt, int m, int n, int mb, int nb,
                        int rs, int cs, int id, bc_t *x)
{
    int nprow, npcol, r, c, info;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    x->ml = numroc_(&m, &mb, &r, &rs, &nprow);
    x->nl = numroc_(&n, &nb, &c, &cs, &npcol);
    int lld = x->ml > 1 ? x->ml : 1;
    descinit_(x->desc, &m, &n, &mb, &nb, &rs, &cs, &ctxt, &lld, &info);
    x->a = calloc((size_t)lld * (size_t)(x->nl > 0 ? x->nl : 1), t->es);
    const int rr = (r - rs + nprow) % nprow, cc = (c - cs + npcol) % npcol;
    for (int j = 0; j < x->nl; j++)
        for (int i = 0; i < x->ml; i++) {
            int gi = (i / mb * nprow + rr) * mb + i % mb;
            int gj = (j / nb * npcol + cc) * nb + j % nb;
            if (id >= 0) entry(t, id, gi, gj, x->a + ((size_t)i + (size_t)j * lld) * t->es);
        }
}

static void bc_make(const ty_t *t, int ctxt, int m, int n, int mb, int nb,
                    int id, bc_t *x)
{
    bc_make_src(t, ctxt, m, n, mb, nb, 0, 0, id, x);
}

/* A heterogeneous matrix: its box, filled with a sentinel. */
typedef struct het {
    int desc[9], mloc, nloc, i0, j0;
    char *a;
} het_t;

static void het_make_mn(const ty_t *t, int ctxt, int layout, int m, int n,
                        het_t *x)
{
    int nprow, npcol, r, c, info, me, lld;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    me = r * npcol + c;
    pumma_layout_box_(&layout, &me, &x->i0, &x->j0, &x->mloc, &x->nloc, &info);
    lld = x->mloc > 1 ? x->mloc : 1;
    pumma_descinit_(x->desc, &m, &n, &layout, &ctxt, &lld, &info);
    size_t cnt = (size_t)lld * (size_t)(x->nloc > 0 ? x->nloc : 1);
    x->a = malloc(cnt * t->es);
    memset(x->a, 0x7f, cnt * t->es);     /* large finite sentinel */
}

static void het_make(const ty_t *t, int ctxt, int layout, int n, het_t *x)
{
    het_make_mn(t, ctxt, layout, n, n, x);
}

/* The n block-cyclic originals, their layout copies and layouts (0:
 * none) of the random-operand groups. */
static void operands_free(bc_t *O, het_t *H, const int *lay, int n)
{
    for (int x = 0; x < n; x++) {
        free(O[x].a);
        free(H[x].a);
        if (lay[x]) pumma_layout_destroy(lay[x]);
    }
}

/* Expected elements sent by every process together, from the integer
 * partition (fully connected unless linear). */
static double formula(const pumma_layout_t *L, int topo)
{
    double N = L->n;
    if (L->kind == PUMMA_LAYOUT_SQUARE_CORNER) {
        double s = 0;
        for (int p = 0; p < L->np; p++)
            if (L->first[p + 1] - L->first[p] == 1)
                s += L->box[p].r1 - L->box[p].r0;
        return 2 * N * s;                 /* 2qN, 2N(a + b) */
    }
    if (L->kind == PUMMA_LAYOUT_RECT3) {
        int order[3];
        pumma_layout_by_speed(L, order);
        double X = 0;
        for (int i = 0; i < 2; i++) {
            const pumma_rect_t *b = &L->box[order[i]];
            X += (double)(b->r1 - b->r0) * (b->c1 - b->c0);
        }
        return N * N + (topo == PUMMA_TOPO_LINEAR ? 2 : 1) * X;
    }
    if (topo == PUMMA_TOPO_LINEAR) return -1;   /* no closed form asked */
    return N * (double)pumma_layout_halfperim(L) - 2 * N * N;
}

/* The same count element by element, for any transposes: every entry of
 * A (B) that a process needs for its rows (columns) of op(A) (op(B)) and
 * does not hold travels once, plus once per relay on a linear array. */
static double brute_volume(const pumma_layout_t *L, char ta, char tb, int topo)
{
    int n = L->n;
    double v = 0;
    char *rows = calloc((size_t)n * L->np, 1), *cols = calloc((size_t)n * L->np, 1);
    for (int p = 0; p < L->np; p++)
        for (int r = L->first[p]; r < L->first[p + 1]; r++) {
            for (int i = L->rect[r].r0; i < L->rect[r].r1; i++) rows[p * n + i] = 1;
            for (int j = L->rect[r].c0; j < L->rect[r].c1; j++) cols[p * n + j] = 1;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int s = pumma_layout_owner_of(L, i, j);
            for (int d = 0; d < L->np; d++) {
                if (d == s) continue;
                int hops = topo == PUMMA_TOPO_LINEAR ? abs(L->pos[s] - L->pos[d]) : 1;
                int needa = ta == 'N' ? rows[d * n + i] : rows[d * n + j];
                int needb = tb == 'N' ? cols[d * n + j] : cols[d * n + i];
                v += hops * (needa + needb);
            }
        }
    free(rows);
    free(cols);
    return v;
}

/* pumma's P?GEMM of whole N x N matrices on heterogeneous descriptors with
 * schedule algo and topology topo; returns the elements the grid (gc)
 * sent in it, relays included. */
static double het_gemm(const ty_t *t, char ta, char tb, int n, const void *alpha,
                       het_t *A, het_t *B, const void *beta, het_t *C, int algo,
                       int topo, MPI_Comm gc, int *info)
{
    int one = 1;
    pumma_options_t o = {0};
    o.algo = algo;
    o.topo = topo;
    double before = pumma_remap_sent(), sent, total;
    t->pumma(&ta, &tb, &n, &n, &n, alpha, A->a, &one, &one, A->desc, B->a, &one,
             &one, B->desc, beta, C->a, &one, &one, C->desc, &o, info);
    sent = pumma_remap_sent() - before;
    MPI_Allreduce(&sent, &total, 1, MPI_DOUBLE, MPI_SUM, gc);
    return total;
}

/* Largest difference between this process's parts of two block-cyclic
 * matrices of one shape; infinite when either holds a NaN. */
static double bc_diff(const ty_t *t, const bc_t *x, const bc_t *y)
{
    double worst = 0;
    for (int j = 0; j < x->nl; j++)
        for (int i = 0; i < x->ml; i++)
            for (int part = 0; part <= t->cplx; part++) {
                size_t at = ((size_t)i + (size_t)j * x->desc[8]) * t->es;
                double d = fabs(value(t, x->a + at, part) - value(t, y->a + at, part));
                if (!(d <= worst)) worst = d == d ? d : INFINITY;
            }
    return worst;
}

static const char *const kind_name[] = {"", "columns", "strips", "rect3",
                                        "square-corner"};

/* One layout (kind, speeds sp, N x N, on a P x Q grid; cs varies the
 * block sizes): P?GEMM in every precision, transpose, schedule and
 * topology against ScaLAPACK's on the block-cyclic originals, elements
 * sent against the formulas and element counts, entries outside each
 * region untouched; one verdict (label: name the speeds in it). */
static void gemm_case(ty_t *types, int ntypes, int P, int Q, int kind,
                      const double *sp, int N, int cs, int label)
{
    const char *tr = "NTC";
    int ctxt, nprow, npcol, r, c;
    int np_world;
    MPI_Comm_size(MPI_COMM_WORLD, &np_world);
    if (P * Q > np_world) return;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", P, Q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    MPI_Comm gc;                   /* the grid's processes, for sums */
    MPI_Comm_split(MPI_COMM_WORLD, nprow > 0, me_world, &gc);
    int bad = 0, ncalls = 0;
    char why[200] = "";
    int layout = 0, info;
    /* the schedules on the given layout: the volumes are theirs */
    const int was = pumma_het_layout_env();
    pumma_het_layout_set(0);
    pumma_layout_create(kind, N, N, P * Q, sp, &layout, &info);
    if (info) {
        bad = 1;
        sprintf(why, "layout INFO %d", info);
    }
    const pumma_layout_t *L = pumma_layout_get(layout);
    for (int ti = 0; ti < ntypes && nprow > 0 && !bad; ti++) {
        if (!keep_type(ti, cs)) continue;
        ty_t *t = &types[ti];
        for (int a = 0; a < 3 && !bad; a++)
            for (int b = 0; b < 3 && !bad; b++) {
                char ta = tr[a], tb = tr[b];
                if (!t->cplx && (ta == 'C' || tb == 'C')) continue;
                for (int sched = 0; sched < 2 && !bad; sched++)
                    for (int topo = 1; topo <= 2 && !bad; topo++) {
                        /* Block-cyclic originals and the reference. */
                        bc_t A, B, C, R, C2;
                        int mb = 4 + cs % 5, nb = 3 + cs % 4;
                        bc_make(t, ctxt, N, N, mb, nb, 1, &A);
                        bc_make(t, ctxt, N, N, nb, mb, 2, &B);
                        bc_make(t, ctxt, N, N, mb, mb, 3, &C);
                        bc_make(t, ctxt, N, N, mb, mb, 3, &R);
                        bc_make(t, ctxt, N, N, mb, mb, -1, &C2);
                        double al[2] = {2, -1}, be[2] = {-1, 0.5};
                        float alf[2] = {2, -1}, bef[2] = {-1, 0.5};
                        const void *alpha = t->es == 4 || t->letter == 'C' ? (void *)alf : (void *)al;
                        const void *beta = t->es == 4 || t->letter == 'C' ? (void *)bef : (void *)be;
                        int one = 1;
                        t->sl(&ta, &tb, &N, &N, &N, alpha, A.a, &one, &one, A.desc,
                              B.a, &one, &one, B.desc, beta, R.a, &one, &one, R.desc);
                        /* Into the layout, multiply there, back out. */
                        het_t HA, HB, HC;
                        het_make(t, ctxt, layout, N, &HA);
                        het_make(t, ctxt, layout, N, &HB);
                        het_make(t, ctxt, layout, N, &HC);
                        char *sentinel = malloc(t->es);
                        memset(sentinel, 0x7f, t->es);
                        t->gemr(&N, &N, A.a, &one, &one, A.desc, HA.a, &one, &one, HA.desc, &info);
                        if (!info) t->gemr(&N, &N, B.a, &one, &one, B.desc, HB.a, &one, &one, HB.desc, &info);
                        if (!info) t->gemr(&N, &N, C.a, &one, &one, C.desc, HC.a, &one, &one, HC.desc, &info);
                        if (info) { bad = 1; sprintf(why, "gemr2d INFO %d", info); }
                        /* Every entry of the box: the layout's own ones
                         * hold A's values, the others the sentinel. */
                        int me = r * npcol + c;
                        for (int j = 0; j < HA.nloc && !bad; j++)
                            for (int i = 0; i < HA.mloc && !bad; i++) {
                                int gi = HA.i0 - 1 + i, gj = HA.j0 - 1 + j;
                                char want[16];
                                if (pumma_layout_owner_of(L, gi, gj) == me)
                                    entry(t, 1, gi, gj, want);
                                else
                                    memcpy(want, sentinel, t->es);
                                if (memcmp(want, HA.a + ((size_t)i + (size_t)j * HA.desc[8]) * t->es, t->es)) {
                                    bad = 1;
                                    sprintf(why, "gemr2d into the layout: entry (%d,%d)", gi, gj);
                                }
                            }
                        double total = het_gemm(
                            t, ta, tb, N, alpha, &HA, &HB, beta, &HC,
                            sched ? PUMMA_ALGO_HET_OVERLAP : PUMMA_ALGO_HET, topo, gc,
                            &info);
                        ncalls++;
                        if (info) { bad = 1; sprintf(why, "P%cGEMM INFO %d", t->letter, info); }
                        /* The formulas of Becker and Lastovetsky 2007 are
                         * for C = A*B. */
                        double want = ta == 'N' && tb == 'N' ? formula(L, topo) : -1;
                        double each = brute_volume(L, ta, tb, topo);
                        if (!bad && ((want >= 0 && total != want) || total != each)) {
                            bad = 1;
                            sprintf(why, "%c%c %s: sent %.0f elements, formula %.0f, "
                                    "element count %.0f", ta, tb,
                                    topo == 2 ? "linear" : "full", total, want, each);
                        }
                        /* Outside the region: still the sentinel. */
                        for (int j = 0; j < HC.nloc && !bad; j++)
                            for (int i = 0; i < HC.mloc && !bad; i++) {
                                int gi = HC.i0 - 1 + i, gj = HC.j0 - 1 + j;
                                if (pumma_layout_owner_of(L, gi, gj) != me &&
                                    memcmp(sentinel, HC.a + ((size_t)i + (size_t)j * HC.desc[8]) * t->es, t->es)) {
                                    bad = 1;
                                    sprintf(why, "entry (%d,%d) outside the region written", gi, gj);
                                }
                            }
                        if (!bad) t->gemr(&N, &N, HC.a, &one, &one, HC.desc, C2.a, &one, &one, C2.desc, &info);
                        double d = bad ? 0 : bc_diff(t, &C2, &R);
                        if (!(d <= t->tol * N)) {
                            bad = 1;
                            sprintf(why, "P%cGEMM %c%c sched %d topo %d: error %g",
                                    t->letter, ta, tb, sched, topo, d);
                        }
                        free(sentinel);
                        free(A.a); free(B.a); free(C.a); free(R.a); free(C2.a);
                        free(HA.a); free(HB.a); free(HC.a);
                        /* one verdict per call, or the others would wait
                         * in the next collective for a process that left */
                        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, gc);
                    }
            }
    }
    if (layout) pumma_layout_destroy(layout);
    pumma_het_layout_set(was);
    MPI_Comm_free(&gc);
    char what[500], spd[100] = "";
    for (int p = 0; p < P * Q && label; p++)
        snprintf(spd + strlen(spd), sizeof spd - strlen(spd), "%s%g", p ? "," : " speeds ", sp[p]);
    char tn[8] = "S/D/C/Z";
    if (brief) tn[0] = types[cs % 4].letter, tn[1] = 0;
    snprintf(what, sizeof what,
             "P?GEMM on %s %dx%d, N=%d%s: %d calls (%s, all transposes, het and "
             "het-overlap, full and linear) against ScaLAPACK, volumes as the "
             "formulas (NN) and element counts %s",
             kind_name[kind], P, Q, N, spd, ncalls, tn, why);
    verdict(what, bad);
    if (nprow > 0) Cblacs_gridexit(ctxt);
}

static void test_gemm(ty_t *types, int ntypes)
{
    static const struct { int P, Q, kind; double sp[5]; } cases[] = {
        {1, 2, PUMMA_LAYOUT_SQUARE_CORNER, {5, 1}},
        {2, 1, PUMMA_LAYOUT_STRIPS, {1, 3}},
        {1, 2, PUMMA_LAYOUT_COLUMNS, {2, 1}},
        {1, 3, PUMMA_LAYOUT_SQUARE_CORNER, {90, 5, 5}},
        {3, 1, PUMMA_LAYOUT_SQUARE_CORNER, {10, 60, 10}},
        {1, 3, PUMMA_LAYOUT_RECT3, {60, 20, 20}},
        {1, 3, PUMMA_LAYOUT_RECT3, {10, 30, 60}},
        {1, 3, PUMMA_LAYOUT_STRIPS, {1, 2, 3}},
        {2, 2, PUMMA_LAYOUT_COLUMNS, {1, 2, 3, 4}},
        {1, 5, PUMMA_LAYOUT_COLUMNS, {9, 1, 1, 2, 5}},
    };
    for (int cs = 0; cs < (int)(sizeof cases / sizeof *cases); cs++)
        gemm_case(types, ntypes, cases[cs].P, cases[cs].Q, cases[cs].kind,
                  cases[cs].sp, brief ? 24 + 5 * cs : 37 + 11 * cs, cs, 0);
}

/*
 * Any product: random M, N, K (K = 0 now and then), TRANSA/TRANSB,
 * windows (IA, JA, ... inside larger matrices), and each of A, B and C on
 * its own layout (any kind that exists for its shape and random speeds)
 * or block-cyclic (random blocks and source process), at least one on a
 * layout; het or het-overlap, full or linear, all four precisions in
 * turn, grids of 2 to 6 processes. sub(C) must equal ScaLAPACK's P?GEMM
 * on the block-cyclic originals -- every entry of C, so nothing outside
 * the window changes -- and no entry of a layout box outside its region
 * may be written.
 */
static void test_any(ty_t *types, int ntypes)
{
    static const int grids[][2] = {{1, 2}, {2, 1}, {1, 3}, {3, 1}, {2, 2}, {2, 3}};
    const char *tr = "NTC";
    int np_world, ncalls = 0, nlay = 0, nbcop = 0, bad = 0;
    int remapped = 0;
    const int was = pumma_het_layout_env();
    MPI_Comm_size(MPI_COMM_WORLD, &np_world);
    char why[600] = "";
    unsigned long long seed = 2027;
#define RND(n) ((int)(frand(&seed) * (n)))
    for (size_t gi = 0; gi < sizeof grids / sizeof *grids && !bad; gi++) {
        const int P = grids[gi][0], Q = grids[gi][1], np = P * Q;
        if (np > np_world) continue;
        seed = 2027 + 7919 * (unsigned long long)gi;   /* alike on the grid */
        int ctxt, nprow, npcol, r, c;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", P, Q);
        Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
        MPI_Comm gc;
        MPI_Comm_split(MPI_COMM_WORLD, nprow > 0, me_world, &gc);
        const int ncase = brief ? 4 : 16;
        for (int cs = 0; cs < ncase && nprow > 0 && !bad; cs++) {
            ty_t *t = &types[(cs + (int)gi) % ntypes];
            char ta = tr[RND(t->cplx ? 3 : 2)], tb = tr[RND(t->cplx ? 3 : 2)];
            int M = 1 + RND(40), N = 1 + RND(40), K = RND(8) ? 1 + RND(40) : 0;
            /* the three operands: rows x cols windows at (i0, j0) of
             * gm x gn matrices */
            int rows[3] = {ta == 'N' ? M : K, tb == 'N' ? K : N, M};
            int cols[3] = {ta == 'N' ? K : M, tb == 'N' ? N : K, N};
            int i0[3], j0[3], gm[3], gn[3], kind[3], lay[3] = {0, 0, 0};
            int mb[3], nb[3], rs[3], csrc[3];
            int any = 0;
            for (int x = 0; x < 3; x++) {
                i0[x] = RND(5);
                j0[x] = RND(5);
                gm[x] = i0[x] + rows[x] + RND(4);
                gn[x] = j0[x] + cols[x] + RND(4);
                if (gm[x] < 1) gm[x] = 1;
                if (gn[x] < 1) gn[x] = 1;
                kind[x] = RND(5);       /* 0: block-cyclic, else a layout kind */
                mb[x] = 1 + RND(6);
                nb[x] = 1 + RND(6);
                rs[x] = RND(P);
                csrc[x] = RND(Q);
                double sp[6];
                for (int p = 0; p < np; p++) sp[p] = 0.1 + 10 * frand(&seed);
                if (kind[x] == 0) continue;
                int info;
                pumma_layout_create(kind[x], gm[x], gn[x], np, sp, &lay[x], &info);
                if (info) pumma_layout_create(PUMMA_LAYOUT_COLUMNS, gm[x], gn[x], np, sp,
                                              &lay[x], &info);
                if (info) { lay[x] = 0; kind[x] = 0; }
                any |= lay[x] != 0;
            }
            if (!any) {                   /* C on columns of equal speeds */
                double eq[6] = {1, 1, 1, 1, 1, 1};
                int info;
                pumma_layout_create(PUMMA_LAYOUT_COLUMNS, gm[2], gn[2], np, eq, &lay[2],
                                    &info);
                if (info) lay[2] = 0;
                else kind[2] = PUMMA_LAYOUT_COLUMNS;
            }
            if (!lay[0] && !lay[1] && !lay[2]) continue;   /* too small for one */
            double scal[4][2] = {{2, -1}, {-1, 0.5}, {0, 0}, {1, 0}};
            int as = RND(3), bs = RND(4);
            float alf[2] = {(float)scal[as][0], (float)scal[as][1]};
            float bef[2] = {(float)scal[bs][0], (float)scal[bs][1]};
            const int single = t->letter == 'S' || t->letter == 'C';
            const void *alpha = single ? (void *)alf : (void *)scal[as];
            const void *beta = single ? (void *)bef : (void *)scal[bs];
            const int algo = RND(2) ? PUMMA_ALGO_HET_OVERLAP : PUMMA_ALGO_HET;
            const int topo = 1 + RND(2);
            /* where sub(C) is computed: the planner's choice, C's own
             * distribution, or remapped to columns or square-corner */
            static const int where[4] = {-1, 0, PUMMA_LAYOUT_COLUMNS,
                                         PUMMA_LAYOUT_SQUARE_CORNER};
            const int wh = where[RND(4)];
            pumma_het_layout_set(wh);

            /* Block-cyclic originals, the reference, and pumma's operands. */
            bc_t O[3], R;
            het_t H[3];
            char *arr[3];
            int *desc[3], info = 0, one = 1;
            for (int x = 0; x < 3; x++) {
                bc_make_src(t, ctxt, gm[x], gn[x], mb[x], nb[x], rs[x], csrc[x], x + 1,
                            &O[x]);
                if (lay[x]) {
                    het_make_mn(t, ctxt, lay[x], gm[x], gn[x], &H[x]);
                    if (!info) t->gemr(&gm[x], &gn[x], O[x].a, &one, &one, O[x].desc,
                                       H[x].a, &one, &one, H[x].desc, &info);
                    arr[x] = H[x].a;
                    desc[x] = H[x].desc;
                    nlay++;
                } else {
                    H[x].a = NULL;
                    arr[x] = O[x].a;
                    desc[x] = O[x].desc;
                    nbcop++;
                }
            }
            bc_make_src(t, ctxt, gm[2], gn[2], mb[2], nb[2], rs[2], csrc[2], 3, &R);
            int ia = i0[0] + 1, ja = j0[0] + 1, ib = i0[1] + 1, jb = j0[1] + 1,
                ic = i0[2] + 1, jc = j0[2] + 1;
            t->sl(&ta, &tb, &M, &N, &K, alpha, O[0].a, &ia, &ja, O[0].desc, O[1].a, &ib,
                  &jb, O[1].desc, beta, R.a, &ic, &jc, R.desc);
            pumma_options_t o = {0};
            o.algo = algo;
            o.topo = topo;
            double before = pumma_remap_sent(), sent_all = 0;
            if (!info)
                t->pumma(&ta, &tb, &M, &N, &K, alpha, arr[0], &ia, &ja, desc[0], arr[1],
                         &ib, &jb, desc[1], beta, arr[2], &ic, &jc, desc[2], &o, &info);
            double mine_sent = pumma_remap_sent() - before;
            MPI_Allreduce(&mine_sent, &sent_all, 1, MPI_DOUBLE, MPI_SUM, gc);
            /* the planner's count is what the remaps sent (relays included);
             * nothing is sent when ALPHA = 0 or K = 0 */
            const int scaled_only = K == 0 || scal[as][0] == 0;
            const double want_sent = scaled_only ? 0 : pumma_het_last()->elems;
            ncalls++;
            char plan[200];
            snprintf(plan, sizeof plan, "%s", pumma_last_plan());
            if (!strstr(plan, "layout=given")) remapped++;
            char what_case[200];
            snprintf(what_case, sizeof what_case,
                     "P%cGEMM %c%c M=%d N=%d K=%d on %dx%d, A %s %dx%d at (%d,%d), "
                     "B %s %dx%d at (%d,%d), C %s %dx%d at (%d,%d)", t->letter, ta, tb,
                     M, N, K, P, Q, kind[0] ? kind_name[kind[0]] : "bc", gm[0], gn[0], ia,
                     ja, kind[1] ? kind_name[kind[1]] : "bc", gm[1], gn[1], ib, jb,
                     kind[2] ? kind_name[kind[2]] : "bc", gm[2], gn[2], ic, jc);
            if (info) {
                bad = 1;
                snprintf(why, sizeof why, "%s: INFO %d", what_case, info);
            } else if (sent_all != want_sent) {
                bad = 1;
                snprintf(why, sizeof why, "%s, %s: sent %.0f elements, the planner "
                         "counted %.0f", what_case, plan, sent_all, want_sent);
            }
            if (!bad && lay[2]) {
                /* outside C's region in its box: the sentinel still */
                const pumma_layout_t *L = pumma_layout_get(lay[2]);
                char sentinel[16];
                memset(sentinel, 0x7f, sizeof sentinel);
                int me = r * npcol + c;
                for (int j = 0; j < H[2].nloc && !bad; j++)
                    for (int i = 0; i < H[2].mloc && !bad; i++) {
                        int gi2 = H[2].i0 - 1 + i, gj2 = H[2].j0 - 1 + j;
                        if (pumma_layout_owner_of(L, gi2, gj2) != me &&
                            memcmp(sentinel, H[2].a + ((size_t)i + (size_t)j * H[2].desc[8]) * t->es, t->es)) {
                            bad = 1;
                            snprintf(why, sizeof why, "%s: entry (%d,%d) outside the region written",
                                     what_case, gi2, gj2);
                        }
                    }
                /* back into the original's distribution, all of it */
                if (!bad) t->gemr(&gm[2], &gn[2], H[2].a, &one, &one, H[2].desc, O[2].a,
                                  &one, &one, O[2].desc, &info);
            }
            double d = bad ? 0 : bc_diff(t, &O[2], &R);
            if (!bad && !(d <= t->tol * (K + 1))) {
                bad = 1;
                snprintf(why, sizeof why, "%s, %s %s, %s: error %g", what_case,
                         algo == PUMMA_ALGO_HET ? "het" : "het-overlap",
                         topo == PUMMA_TOPO_LINEAR ? "linear" : "full", plan, d);
            }
            operands_free(O, H, lay, 3);
            free(R.a);
            if (bad && me_world != 0) printf("(process %d) %s\n", me_world, why);
            MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, gc);
        }
        MPI_Comm_free(&gc);
        if (nprow > 0) Cblacs_gridexit(ctxt);
        /* the grid's processes report their why; all agree on bad */
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
#undef RND
    pumma_het_layout_set(was);
    MPI_Allreduce(MPI_IN_PLACE, &ncalls, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &remapped, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &nlay, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &nbcop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    char what[900];
    snprintf(what, sizeof what,
             "P?GEMM on any operands: %d calls (random M, N, K, transposes, windows; %d "
             "operands on layouts, %d block-cyclic; sub(C) computed where the planner "
             "chose, on C's own distribution, or remapped: %d remapped) against "
             "ScaLAPACK %s", ncalls, nlay, nbcop, remapped, why);
    verdict(what, bad);
}

/*
 * Speeds are relative: any finite positive ones are legal. At the ends of
 * the double range -- sums that overflow (1e308 three times), ratios that
 * underflow (1e-300 beside 1e300) -- every kind must still build: INFO 0
 * where the kind applies (-4 where it does not take NP processes, 1 for
 * an infeasible square-corner, 2 only where some process cannot get a
 * line: N = 1, strips on N < NP), each element owned exactly once, areas
 * following the speeds, and P?GEMM on the layouts equal to ScaLAPACK's.
 */
static const struct { int np; double sp[3]; } extreme[] = {
    {3, {1e308, 1e308, 1e308}}, {3, {1.7e308, 1.7e308, 1}},
    {2, {1e-300, 1}}, {3, {1e300, 1e-300, 1}},
};
enum { NEXTREME = sizeof extreme / sizeof *extreme };
static const int extreme_n[] = {1, 2, 50, 500};

/* The INFO PUMMA_LAYOUT_NEW must give for kind on N x N with speeds sp. */
static int extreme_info(int kind, int np, const double *sp, int n)
{
    if (kind == PUMMA_LAYOUT_RECT3 && np != 3) return -4;
    if (kind == PUMMA_LAYOUT_SQUARE_CORNER && np == 3) {
        double o[3];                      /* o[0] the fastest, by the max */
        int f = 0;
        for (int i = 1; i < 3; i++) if (sp[i] > sp[f]) f = i;
        for (int i = 0, j = 1; i < 3; i++) o[i == f ? 0 : j++] = sp[i] / sp[f];
        if (o[1] * o[2] > 0.25) return 1;
    }
    if (n < 2 || (kind == PUMMA_LAYOUT_STRIPS && n < np)) return 2;
    return 0;
}

static void test_extreme_layouts(void)
{
    char why[300] = "";
    int bad = 0, built = 0;
    if (me_world == 0) {
        for (int e = 0; e < NEXTREME && !bad; e++) {
            const int np = extreme[e].np;
            const double *sp = extreme[e].sp;
            for (int kind = 1; kind <= 4 && !bad; kind++)
                for (size_t k = 0; k < sizeof extreme_n / sizeof *extreme_n && !bad; k++) {
                    int n = extreme_n[k], h, info;
                    int want = extreme_info(kind, np, sp, n);
                    pumma_layout_create(kind, n, n, np, sp, &h, &info);
                    if (info != want) {
                        sprintf(why, "%s N=%d speeds %g,%g,%g: INFO %d, not %d", kind_name[kind],
                                n, sp[0], sp[1], np > 2 ? sp[2] : 0, info, want);
                        bad = 1;
                    } else if (!info) {
                        built++;
                        if (check_cover(pumma_layout_get(h), sp, why)) {
                            snprintf(why + strlen(why), sizeof why - strlen(why),
                                     " (%s N=%d speeds %g,%g,%g)", kind_name[kind], n,
                                     sp[0], sp[1], np > 2 ? sp[2] : 0);
                            bad = 1;
                        }
                        pumma_layout_destroy(h);
                    }
                }
            /* The square-corner rule: the volumes of the speeds' ratios. */
            double top, sum = speed_sum(np, sp, &top), s[3], vs, vr;
            int f = 0;
            for (int i = 1; i < np; i++) if (sp[i] > sp[f]) f = i;
            for (int i = 0, j = 1; i < np; i++) s[i == f ? 0 : j++] = sp[i] / top / sum;
            int feas = np == 2 || s[1] * s[2] / (s[0] * s[0]) <= 0.25;
            double wsq = !feas ? -1 : np == 2 ? 2 * sqrt(s[1]) : 2 * (sqrt(s[1]) + sqrt(s[2]));
            double wrect = np == 2 ? 1 : 1 + s[1] + s[2];
            int better = pumma_sqcorner_rule(np, sp, PUMMA_TOPO_FULL, &vs, &vr);
            if (!bad && (better != (feas && wsq < wrect) || fabs(vs - wsq) > 1e-12 ||
                         fabs(vr - wrect) > 1e-12)) {
                sprintf(why, "square-corner rule at %g,%g,%g: %d %g %g, not %d %g %g", sp[0],
                        sp[1], np > 2 ? sp[2] : 0, better, vs, vr, feas && wsq < wrect, wsq,
                        wrect);
                bad = 1;
            }
        }
    }
    char what[800];
    snprintf(what, sizeof what, "layouts at the ends of the double range (speeds 1e308 x3, "
             "1.7e308,1.7e308,1, 1e-300,1, 1e300,1e-300,1; N = 1, 2, 50, 500): %d built, "
             "exact cover, areas, INFO, the square-corner rule %s", built, why);
    verdict(what, bad);
}

/* P?GEMM on every extreme layout of N = 2 and 50 that exists. */
static void test_extreme_gemm(ty_t *types, int ntypes)
{
    int cs = 0;
    for (int e = 0; e < NEXTREME; e++)
        for (int kind = 1; kind <= 4; kind++)
            for (int n = 2; n <= 50; n += 48)
                if (extreme_info(kind, extreme[e].np, extreme[e].sp, n) == 0)
                    gemm_case(types, ntypes, 1, extreme[e].np, kind, extreme[e].sp, n,
                              cs++, 1);
}

/* Every element of a heterogeneous matrix's box set to NaN. */
static void poison(const ty_t *t, het_t *x)
{
    size_t cnt = (size_t)x->desc[8] * (size_t)(x->nloc > 0 ? x->nloc : 1) *
                 (size_t)(t->cplx + 1);
    for (size_t i = 0; i < cnt; i++) {
        if (t->letter == 'S' || t->letter == 'C') ((float *)x->a)[i] = NAN;
        else ((double *)x->a)[i] = NAN;
    }
}

/* The BLAS rules for the scalars, on layouts: alpha = 0 leaves A and B
 * unread (NaN there must not reach C) and sends nothing; beta = 0 leaves
 * C unread (NaN in C is overwritten); alpha = 0 with beta = 1 changes
 * nothing. Results equal ScaLAPACK's P?GEMM with the same scalars on the
 * block-cyclic originals (which hold no NaN). */
static void test_scalars(ty_t *types, int ntypes)
{
    static const struct { int P, Q, kind; double sp[4]; } cases[] = {
        {1, 3, PUMMA_LAYOUT_SQUARE_CORNER, {90, 5, 5}},
        {2, 2, PUMMA_LAYOUT_COLUMNS, {1, 2, 3, 4}},
        {1, 2, PUMMA_LAYOUT_STRIPS, {1, 3}},
    };
    /* alpha, beta (real, imaginary); NaN in A and B (1) or in C (2) */
    static const struct { double al[2], be[2]; int nan; } sc[] = {
        {{0, 0}, {-1, 0.5}, 1}, {{0, 0}, {0, 0}, 1},
        {{2, -1}, {0, 0}, 2}, {{0, 0}, {1, 0}, 1},
    };
    int np_world, bad = 0, ncalls = 0, one = 1, info;   /* bad: any case */
    char why[200] = "";
    MPI_Comm_size(MPI_COMM_WORLD, &np_world);
    for (size_t cs = 0; cs < sizeof cases / sizeof *cases; cs++) {
        int P = cases[cs].P, Q = cases[cs].Q, ctxt, nprow, npcol, r, c, layout = 0;
        if (P * Q > np_world) continue;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", P, Q);
        Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
        MPI_Comm gc;
        MPI_Comm_split(MPI_COMM_WORLD, nprow > 0, me_world, &gc);
        const int N = 41 + 9 * (int)cs;
        int cbad = 0;                /* this case: the same on all its processes */
        pumma_layout_create(cases[cs].kind, N, N, P * Q, cases[cs].sp, &layout, &info);
        if (info) { cbad = 1; sprintf(why, "layout INFO %d", info); }
        for (int ti = 0; ti < ntypes && nprow > 0 && !cbad; ti++) {
            if (!keep_type(ti, (int)cs)) continue;
            ty_t *t = &types[ti];
            for (size_t k = 0; k < sizeof sc / sizeof *sc && !cbad; k++)
                for (int sched = 0; sched < 2 && !cbad; sched++) {
                    float alf[2] = {(float)sc[k].al[0], (float)sc[k].al[1]};
                    float bef[2] = {(float)sc[k].be[0], (float)sc[k].be[1]};
                    int sgl = t->letter == 'S' || t->letter == 'C';
                    const void *alpha = sgl ? (const void *)alf : (const void *)sc[k].al;
                    const void *beta = sgl ? (const void *)bef : (const void *)sc[k].be;
                    bc_t A, B, C, R, C2;
                    bc_make(t, ctxt, N, N, 5, 4, 1, &A);
                    bc_make(t, ctxt, N, N, 4, 5, 2, &B);
                    bc_make(t, ctxt, N, N, 5, 5, 3, &C);
                    bc_make(t, ctxt, N, N, 5, 5, 3, &R);
                    bc_make(t, ctxt, N, N, 5, 5, -1, &C2);
                    char ta = 'N', tb = t->cplx ? 'C' : 'T';
                    t->sl(&ta, &tb, &N, &N, &N, alpha, A.a, &one, &one, A.desc, B.a, &one,
                          &one, B.desc, beta, R.a, &one, &one, R.desc);
                    het_t HA, HB, HC;
                    het_make(t, ctxt, layout, N, &HA);
                    het_make(t, ctxt, layout, N, &HB);
                    het_make(t, ctxt, layout, N, &HC);
                    if (sc[k].nan == 1) {
                        poison(t, &HA);
                        poison(t, &HB);
                        t->gemr(&N, &N, C.a, &one, &one, C.desc, HC.a, &one, &one, HC.desc, &info);
                    } else {
                        t->gemr(&N, &N, A.a, &one, &one, A.desc, HA.a, &one, &one, HA.desc, &info);
                        if (!info) t->gemr(&N, &N, B.a, &one, &one, B.desc, HB.a, &one, &one, HB.desc, &info);
                        poison(t, &HC);
                    }
                    double total = 0;
                    if (!info)
                        total = het_gemm(t, ta, tb, N, alpha, &HA, &HB, beta, &HC,
                                         sched ? PUMMA_ALGO_HET_OVERLAP : PUMMA_ALGO_HET,
                                         PUMMA_TOPO_FULL, gc, &info);
                    ncalls++;
                    if (info) { cbad = 1; sprintf(why, "P%cGEMM INFO %d", t->letter, info); }
                    if (!cbad && sc[k].al[0] == 0 && total != 0) {
                        cbad = 1;
                        sprintf(why, "P%cGEMM alpha = 0 sent %.0f elements", t->letter, total);
                    }
                    if (!cbad)
                        t->gemr(&N, &N, HC.a, &one, &one, HC.desc, C2.a, &one, &one, C2.desc, &info);
                    double d = cbad ? 0 : bc_diff(t, &C2, &R);
                    if (!(d <= t->tol * N)) {
                        cbad = 1;
                        sprintf(why, "P%cGEMM alpha %g%+gi beta %g%+gi sched %d: error %g",
                                t->letter, sc[k].al[0], sc[k].al[1], sc[k].be[0],
                                sc[k].be[1], sched, d);
                    }
                    free(A.a); free(B.a); free(C.a); free(R.a); free(C2.a);
                    free(HA.a); free(HB.a); free(HC.a);
                    MPI_Allreduce(MPI_IN_PLACE, &cbad, 1, MPI_INT, MPI_MAX, gc);
                }
        }
        bad |= cbad;
        if (layout) pumma_layout_destroy(layout);
        MPI_Comm_free(&gc);
        if (nprow > 0) Cblacs_gridexit(ctxt);
    }
    char what[400];
    snprintf(what, sizeof what,
             "alpha = 0 and beta = 0 on layouts: %d calls (%s, het and het-overlap, "
             "NaN in the operands not read) against ScaLAPACK, nothing sent for alpha = 0 %s",
             ncalls, brief ? "one type per layout" : "S/D/C/Z", why);
    verdict(what, bad);
}

/* PUMMA_P?GEMR2D between block-cyclic windows against ScaLAPACK's. */
static void test_gemr2d(ty_t *t)
{
    int ctxt, nprow, npcol, r, c, bad = 0;
    char why[200] = "";
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 2, 3);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    if (nprow > 0) {
        for (int cs = 0; cs < 12 && !bad; cs++) {
            int m = 20 + cs * 3, n = 31 - cs, ia = 1 + cs % 4, ja = 2 + cs % 3,
                ib = 3 - cs % 3, jb = 1 + cs % 2, info;
            bc_t A, B1, B2;
            bc_make(t, ctxt, m + ia, n + ja, 3 + cs % 4, 5 - cs % 3, 4, &A);
            bc_make(t, ctxt, m + ib, n + jb, 2 + cs % 5, 4, 5, &B1);
            bc_make(t, ctxt, m + ib, n + jb, 2 + cs % 5, 4, 5, &B2);
            t->slr(&m, &n, A.a, &ia, &ja, A.desc, B1.a, &ib, &jb, B1.desc, &ctxt);
            t->gemr(&m, &n, A.a, &ia, &ja, A.desc, B2.a, &ib, &jb, B2.desc, &info);
            if (info || memcmp(B1.a, B2.a, (size_t)(B1.ml > 1 ? B1.ml : 1) * (size_t)B1.nl * t->es)) {
                bad = 1;
                sprintf(why, "case %d: INFO %d or data differ", cs, info);
            }
            free(A.a); free(B1.a); free(B2.a);
        }
        Cblacs_gridexit(ctxt);
    }
    char what[300];
    snprintf(what, sizeof what, "PUMMA_P%cGEMR2D equals ScaLAPACK's P%cGEMR2D on 12 "
             "block-cyclic windows (2x3 grid) %s", t->letter, t->letter, why);
    verdict(what, bad);
}

/*
 * PUMMA_P?GEMR2D between windows of any two descriptors: A and B each
 * block-cyclic or on a layout of random kind and speeds (of its own
 * shape), random windows; sub(B) must equal ScaLAPACK's P?GEMR2D of the
 * block-cyclic originals, and every entry of B outside the window keep
 * its value.
 */
static void test_gemr2d_any(ty_t *t)
{
    int ctxt, nprow, npcol, r, c, bad = 0, ncase = 0, nlay = 0;
    char why[300] = "";
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 2, 3);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    MPI_Comm gc;                   /* the grid's processes */
    MPI_Comm_split(MPI_COMM_WORLD, nprow > 0, me_world, &gc);
    unsigned long long seed = 4242 + (unsigned long long)t->letter;
#define RND(n) ((int)(frand(&seed) * (n)))
    for (int cs = 0; cs < (brief ? 4 : 16) && nprow > 0 && !bad; cs++) {
        int m = 1 + RND(30), n = 1 + RND(30), one = 1, info = 0;
        int ia = 1 + RND(5), ja = 1 + RND(5), ib = 1 + RND(5), jb = 1 + RND(5);
        int gm[2] = {ia - 1 + m + RND(4), ib - 1 + m + RND(4)};
        int gn[2] = {ja - 1 + n + RND(4), jb - 1 + n + RND(4)};
        bc_t O[2], R;
        het_t H[2];
        int lay[2] = {0, 0};
        for (int x = 0; x < 2; x++) {
            bc_make_src(t, ctxt, gm[x], gn[x], 1 + RND(5), 1 + RND(5), RND(2), RND(3),
                        x + 4, &O[x]);
            /* 0: block-cyclic; columns or strips (the kinds of 6 processes) */
            const int kind = RND(3);
            double sp[6];
            for (int p = 0; p < 6; p++) sp[p] = 0.1 + 10 * frand(&seed);
            if (kind) pumma_layout_create(kind, gm[x], gn[x], 6, sp, &lay[x], &info);
            if (!kind || info) lay[x] = 0;    /* block-cyclic instead */
            info = 0;
            H[x].a = NULL;
            if (lay[x]) {
                het_make_mn(t, ctxt, lay[x], gm[x], gn[x], &H[x]);
                t->gemr(&gm[x], &gn[x], O[x].a, &one, &one, O[x].desc, H[x].a, &one,
                        &one, H[x].desc, &info);
                nlay++;
            }
        }
        bc_make_src(t, ctxt, gm[1], gn[1], O[1].desc[4], O[1].desc[5], O[1].desc[6],
                    O[1].desc[7], 5, &R);
        t->slr(&m, &n, O[0].a, &ia, &ja, O[0].desc, R.a, &ib, &jb, R.desc, &ctxt);
        if (!info)
            t->gemr(&m, &n, lay[0] ? H[0].a : O[0].a, &ia, &ja,
                    lay[0] ? H[0].desc : O[0].desc, lay[1] ? H[1].a : O[1].a, &ib, &jb,
                    lay[1] ? H[1].desc : O[1].desc, &info);
        if (!info && lay[1])
            t->gemr(&gm[1], &gn[1], H[1].a, &one, &one, H[1].desc, O[1].a, &one, &one,
                    O[1].desc, &info);
        ncase++;
        double d = info ? 0 : bc_diff(t, &O[1], &R);
        if (info || d != 0) {
            bad = 1;
            snprintf(why, sizeof why, "%d x %d from %s %dx%d at (%d,%d) to %s %dx%d at "
                     "(%d,%d): INFO %d, difference %g", m, n, lay[0] ? "layout" : "bc",
                     gm[0], gn[0], ia, ja, lay[1] ? "layout" : "bc", gm[1], gn[1], ib, jb,
                     info, d);
        }
        operands_free(O, H, lay, 2);
        free(R.a);
        if (bad && me_world != 0) printf("(process %d) %s\n", me_world, why);
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, gc);
    }
#undef RND
    MPI_Comm_free(&gc);
    if (nprow > 0) Cblacs_gridexit(ctxt);
    char what[500];
    snprintf(what, sizeof what, "PUMMA_P%cGEMR2D between windows of any two descriptors "
             "(%d cases, %d operands on layouts, 2x3 grid) equals ScaLAPACK's P%cGEMR2D "
             "on the block-cyclic originals %s", t->letter, ncase, nlay, t->letter, why);
    verdict(what, bad);
}

/* ScaLAPACK's error report, replaced as its own testers do (exported
 * with -rdynamic): pumma's P?GEMM and ScaLAPACK's, reached with dlsym,
 * report INFO here instead of aborting, so the two can be compared. */
static struct { int calls, info; char rout[16]; } aborted;

void PB_Cabort(int ctxt, const char *rout, int info)
{
    (void)ctxt;
    aborted.calls++;
    aborted.info = info;
    snprintf(aborted.rout, sizeof aborted.rout, "%s", rout ? rout : "");
}

/*
 * INFO codes of calls with heterogeneous descriptors. Legal: any windows
 * inside the matrices, operands on different layouts or block-cyclic.
 * Illegal, in ScaLAPACK's manner: -position for a scalar and for an index
 * whose window passes the matrix's end, -(100*position + entry) for a
 * descriptor entry (a freed or unknown layout or one of another grid's
 * size: LAYOUT, 5; M or N not its layout's: 3 or 4; another context: 2;
 * LLD too small: 9), the lowest position first. Each code is checked as
 * written here, through pumma_pdgemm_opts and through PDGEMM
 * (PB_Cabort), and, where ScaLAPACK reports the same (a scalar wrong
 * before any descriptor), against ScaLAPACK's own PDGEMM (sl_d).
 */
static void test_errors(gemm_fn *sl_d)
{
    int ctxt, ctxt2, nprow, npcol, r, c, bad = 0, info, one = 1, ncase = 0;
    char why[300] = "";
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 3);
    Cblacs_get(-1, 0, &ctxt2);
    Cblacs_gridinit(&ctxt2, "Row", 1, 3);       /* another context */
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    if (nprow > 0) {
        double sp[3] = {8, 1, 1}, sp2[3] = {1, 1, 1}, sp4[4] = {1, 1, 1, 1};
        int N = 30, lay, lay2, lay4, old;
        pumma_layout_create(PUMMA_LAYOUT_SQUARE_CORNER, N, N, 3, sp, &lay, &info);
        pumma_layout_create(PUMMA_LAYOUT_COLUMNS, N, N, 3, sp2, &lay2, &info);
        pumma_layout_create(PUMMA_LAYOUT_COLUMNS, N, N, 4, sp4, &lay4, &info);
        pumma_layout_create(PUMMA_LAYOUT_SQUARE_CORNER, N, N, 3, sp, &old, &info);
        ty_t t = {'D', 8, 0, 0, 0, 0, 0, 0};
        het_t A, B, C, D;
        het_make(&t, ctxt, lay, N, &A);
        het_make(&t, ctxt, lay, N, &B);
        het_make(&t, ctxt, lay, N, &C);
        het_make(&t, ctxt, lay2, N, &D);
        bc_t E;
        bc_make(&t, ctxt, N, N, 4, 4, 1, &E);
        /* heterogeneous descriptors that are not usable here */
        int fr[9], ld[9], cx[9], mm[9], g4[9];
        memcpy(fr, A.desc, sizeof fr);
        fr[4] = old;                                /* freed below */
        memcpy(ld, B.desc, sizeof ld);
        ld[8] = 0;                                  /* LLD too small */
        memcpy(cx, B.desc, sizeof cx);
        cx[1] = ctxt2;                              /* another context */
        memcpy(mm, C.desc, sizeof mm);
        mm[2] = N - 1;                              /* M not the layout's */
        memcpy(g4, C.desc, sizeof g4);
        g4[4] = lay4;                               /* a 4-process layout */
        pumma_layout_free_(&old, &info);
        double al = 1, be = 0;
        const int M1 = N - 1;
        struct {
            const char *ta, *tb;
            int m, n, k, ia, jb;
            const int *da, *db, *dc;
            int want, sl;       /* sl: ScaLAPACK's PDGEMM must agree */
        } e[] = {
            /* legal: any windows, operands on different layouts or
             * block-cyclic */
            {"N", "N", N, N, N, 1, 1, A.desc, B.desc, C.desc, 0, 0},
            {"N", "N", M1, N, N, 1, 1, A.desc, B.desc, C.desc, 0, 0},
            {"N", "N", N, M1, N, 1, 1, A.desc, B.desc, C.desc, 0, 0},
            {"N", "N", N, N, M1, 1, 1, A.desc, B.desc, C.desc, 0, 0},
            {"N", "N", M1, N, N, 2, 1, A.desc, B.desc, C.desc, 0, 0},
            {"N", "N", N, N, N, 1, 1, E.desc, B.desc, C.desc, 0, 0},
            {"N", "N", N, N, N, 1, 1, A.desc, E.desc, C.desc, 0, 0},
            {"N", "N", N, N, N, 1, 1, A.desc, B.desc, E.desc, 0, 0},
            {"N", "N", N, N, N, 1, 1, E.desc, E.desc, C.desc, 0, 0},
            {"N", "N", N, N, N, 1, 1, A.desc, B.desc, D.desc, 0, 0},
            /* scalars, as ScaLAPACK reports them before any descriptor */
            {"X", "N", N, N, N, 1, 1, A.desc, B.desc, C.desc, -1, 1},
            {"N", "X", N, N, N, 1, 1, A.desc, B.desc, C.desc, -2, 1},
            {"N", "N", -1, N, N, 1, 1, A.desc, B.desc, C.desc, -3, 1},
            {"N", "N", N, N, N, 0, 1, fr, fr, fr, -8, 1},
            {"X", "N", N, N, N, 1, 1, E.desc, E.desc, fr, -1, 1},
            {"N", "X", N, N, N, 1, 1, E.desc, fr, E.desc, -2, 1},
            {"N", "N", -1, N, N, 1, 1, E.desc, E.desc, fr, -3, 1},
            {"N", "N", N, N, -1, 1, 1, E.desc, fr, E.desc, -5, 1},
            /* a window past the matrix's end: IA (8) or JB (13) */
            {"N", "N", N, N, N, 2, 1, A.desc, B.desc, C.desc, -8, 0},
            {"N", "N", N, N, N, 1, 2, A.desc, B.desc, C.desc, -13, 0},
            {"N", "N", N, N, N, 1, 2, E.desc, B.desc, C.desc, -13, 0},
            /* heterogeneous descriptors not usable here: -(100*position
             * + entry), the entry 1-based (2 CTXT, 3 M, 5 LAYOUT, 9 LLD) */
            {"N", "N", N, N, N, 1, 1, A.desc, ld, C.desc, -1409, 0},
            {"N", "N", N, N, N, 1, 1, fr, fr, fr, -1005, 0},
            {"N", "N", N, N, N, 2, 1, fr, fr, fr, -1005, 0},
            {"N", "N", N, N, N, 1, 1, E.desc, fr, E.desc, -1405, 0},
            {"N", "N", N, N, N, 1, 2, E.desc, fr, E.desc, -1405, 0},
            {"N", "N", N, N, N, 1, 1, E.desc, E.desc, fr, -1905, 0},
            {"N", "N", N, N, N, 1, 1, E.desc, cx, E.desc, -1402, 0},
            {"N", "N", N, N, N, 1, 1, E.desc, E.desc, mm, -1903, 0},
            {"N", "N", N, N, N, 1, 1, E.desc, E.desc, g4, -1905, 0},
            {"N", "N", N, N, N, 1, 1, fr, B.desc, C.desc, -1005, 0},
            {"T", "N", N, N, N, 1, 1, A.desc, B.desc, mm, -1903, 0},
        };
        for (size_t i = 0; i < sizeof e / sizeof *e && !bad; i++, ncase++) {
            pumma_options_t o = {0};
            /* each descriptor's own local array (legal calls run) */
#define ARR(d, x) ((d) == E.desc ? (double *)E.a : (d) == D.desc ? (double *)D.a \
                                                      : (double *)(x).a)
            pumma_pdgemm_opts(e[i].ta, e[i].tb, &e[i].m, &e[i].n, &e[i].k, &al,
                              ARR(e[i].da, A), &e[i].ia, &one, e[i].da, ARR(e[i].db, B),
                              &one, &e[i].jb, e[i].db, &be, ARR(e[i].dc, C), &one, &one,
                              e[i].dc, &o, &info);
#undef ARR
            if (info != e[i].want) {
                bad = 1;
                sprintf(why, "case %zu: INFO %d, not %d", i, info, e[i].want);
            }
            if (!bad && e[i].want) {             /* the drop-in: PB_Cabort */
                memset(&aborted, 0, sizeof aborted);
                pdgemm_(e[i].ta, e[i].tb, &e[i].m, &e[i].n, &e[i].k, &al, (double *)A.a,
                        &e[i].ia, &one, e[i].da, (double *)B.a, &one, &e[i].jb, e[i].db,
                        &be, (double *)C.a, &one, &one, e[i].dc);
                if (aborted.calls != 1 || aborted.info != e[i].want ||
                    strcmp(aborted.rout, "PDGEMM")) {
                    bad = 1;
                    sprintf(why, "case %zu: PDGEMM reported %d time(s), INFO %d (%s), not %d",
                            i, aborted.calls, aborted.info, aborted.rout, e[i].want);
                }
            }
            if (!bad && e[i].sl) {               /* ScaLAPACK's own */
                memset(&aborted, 0, sizeof aborted);
                sl_d(e[i].ta, e[i].tb, &e[i].m, &e[i].n, &e[i].k, &al, A.a, &e[i].ia, &one,
                     e[i].da, B.a, &one, &e[i].jb, e[i].db, &be, C.a, &one, &one, e[i].dc);
                if (aborted.calls != 1 || aborted.info != e[i].want) {
                    bad = 1;
                    sprintf(why, "case %zu: ScaLAPACK's PDGEMM reported %d time(s), INFO %d, "
                            "pumma %d", i, aborted.calls, aborted.info, e[i].want);
                }
            }
        }
        /* PUMMA_DESCINIT */
        int d[9], bogus = 999;
        struct { int m, n, lay, lld, want; } di[] = {
            {N, N, lay, A.desc[8], 0}, {N + 1, N, lay, 40, -2}, {N, N - 1, lay, 40, -3},
            {N, N, bogus, 40, -4}, {N, N, lay4, 40, -4}, {N, N, lay, 0, -6}};
        for (size_t i = 0; i < sizeof di / sizeof *di && !bad; i++) {
            pumma_descinit_(d, &di[i].m, &di[i].n, &di[i].lay, &ctxt, &di[i].lld, &info);
            if (info != di[i].want && !(di[i].want == -6 && A.mloc <= 1 && info == 0)) {
                bad = 1;
                sprintf(why, "PUMMA_DESCINIT case %zu: INFO %d, not %d", i, info, di[i].want);
            }
        }
        /* A freed handle names no layout, even when a new layout of the
         * same shape takes the freed one's place (fr above was refused
         * with this new layout alive). */
        int fresh;
        pumma_layout_create(PUMMA_LAYOUT_SQUARE_CORNER, N, N, 3, sp, &fresh, &info);
        if (!bad && (info || fresh == old)) {
            bad = 1;
            sprintf(why, "a new layout got the freed handle %d (INFO %d)", old, info);
        }
        if (!bad) {
            pumma_options_t o = {0};
            pumma_pdgemm_opts("N", "N", &N, &N, &N, &al, (double *)A.a, &one, &one, fr,
                              (double *)A.a, &one, &one, fr, &be, (double *)A.a, &one,
                              &one, fr, &o, &info);
            if (info != -1005) {
                bad = 1;
                sprintf(why, "P?GEMM on a freed layout's descriptors: INFO %d, not -1005", info);
            }
        }
        pumma_layout_free_(&old, &info);
        if (!bad && info == 0) {
            bad = 1;
            sprintf(why, "PUMMA_LAYOUT_FREE of a freed handle: INFO 0");
        }
        pumma_layout_destroy(fresh);
        free(A.a); free(B.a); free(C.a); free(D.a); free(E.a);
        pumma_layout_destroy(lay);
        pumma_layout_destroy(lay2);
        pumma_layout_destroy(lay4);
        Cblacs_gridexit(ctxt);
        Cblacs_gridexit(ctxt2);
    }
    char what[800];
    snprintf(what, sizeof what, "INFO codes of heterogeneous P?GEMM (%d calls, through "
             "pumma_pdgemm_opts and PDGEMM, ScaLAPACK's own where it reports the same) and "
             "PUMMA_DESCINIT %s", ncase, why);
    verdict(what, bad);
}

/* PUMMA_SPEEDS_MEASURE on a 1x3 grid: positive speeds summing to 1; under
 * PUMMA_SPEEDS (run-het's third run gives 4,2,1,...) in the given order,
 * each within a factor 1.5 of the given ratio to the fastest. The other
 * processes wait napping, so that on an oversubscribed machine they do
 * not take the cores from the three being measured. A measurement is
 * wall-clock time: a burst of load from outside can still skew one, so
 * the ratio check gets three attempts (a measurement that ignored
 * PUMMA_SPEEDS would fail all three). */
static void test_speeds(void)
{
    int ctxt, nprow, npcol, r, c, bad = 0, info, n = 160, attempt;
    char why[200] = "";
    const char *e = getenv("PUMMA_SPEEDS");
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 3);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    for (attempt = 1; attempt <= 3; attempt++) {
        int off = 0;                 /* ratios off on this attempt */
        if (nprow > 0) {
            double sp[3], sum = 0, given[3];
            pumma_speeds_measure_(&ctxt, &n, sp, &info);
            for (int i = 0; i < 3; i++) sum += sp[i];
            sprintf(why, "(INFO %d, measured %.3f %.3f %.3f, attempt %d)", info,
                    sp[0], sp[1], sp[2], attempt);
            if (info || fabs(sum - 1) > 1e-12 || sp[0] <= 0 || sp[1] <= 0 || sp[2] <= 0)
                bad = 1;
            if (!bad && e && sscanf(e, "%lf,%lf,%lf", &given[0], &given[1], &given[2]) == 3)
                for (int i = 1; i < 3; i++) {
                    double want = given[i] / given[0], got = sp[i] / sp[0];
                    if (got > want * 1.5 || got < want / 1.5) off = 1;
                }
        }
        int again = 0;               /* everyone learns whether to retry */
        MPI_Request req;
        if (MPI_Iallreduce(&off, &again, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req) !=
                MPI_SUCCESS || pumma_wait_idle(&req, 1e-4))
            bad = again = 1;
        if (!again || bad) break;
        if (attempt == 3) bad = 1;
    }
    if (nprow > 0) Cblacs_gridexit(ctxt);
    char what[300];
    snprintf(what, sizeof what, "PUMMA_SPEEDS_MEASURE%s%s %s",
             e ? " follows PUMMA_SPEEDS=" : "", e ? e : "", why);
    verdict(what, bad);
}


/* ====================================== the rest of the Level 3 on layouts */

/* The Level-3 routines other than P?GEMM take heterogeneous descriptors
 * too (SRC/driver/pumma_het_operands.c): each call on windows of matrices
 * held in a layout must leave every entry of them as the same call on
 * block-cyclic copies leaves those (the untouched triangle and everything
 * outside the window included). Double precision, a 2x3 grid, strips. */
typedef struct l3m { int desc[9], ld, nl; double *d; } l3m_t;

static void l3_bc(int ctxt, int n, int nb, int seed, l3m_t *x)
{
    int P, Q, r, c, z = 0;
    Cblacs_gridinfo(ctxt, &P, &Q, &r, &c);
    const int ml = numroc_(&n, &nb, &r, &z, &P);
    x->nl = numroc_(&n, &nb, &c, &z, &Q);
    x->ld = ml > 1 ? ml : 1;
    const int d[9] = {1, ctxt, n, n, nb, nb, 0, 0, x->ld};
    memcpy(x->desc, d, sizeof d);
    x->d = malloc(sizeof(double) * (size_t)x->ld * (size_t)(x->nl + 1));
    for (int j = 0; j < x->nl; j++) {
        const int gj = (j / nb) * nb * Q + c * nb + j % nb;
        for (int i = 0; i < ml; i++) {
            const int gi = (i / nb) * nb * P + r * nb + i % nb;
            /* diagonally dominant: the solves are well conditioned */
            x->d[i + (size_t)j * x->ld] =
                (gi == gj ? n : 0) + sin(seed * 1.7 + gi * 0.37 + gj * 1.13);
        }
    }
}

static void l3_het(int ctxt, int lay, int n, const l3m_t *src, l3m_t *y)
{
    int i0, j0, ml, nl, info, me, one = 1;
    Cblacs_pinfo(&me, &info);
    pumma_layout_box_(&lay, &me, &i0, &j0, &ml, &nl, &info);
    y->ld = ml > 1 ? ml : 1;
    y->nl = nl;
    y->d = malloc(sizeof(double) * (size_t)y->ld * (size_t)(nl + 1));
    pumma_descinit_(y->desc, &n, &n, &lay, &ctxt, &y->ld, &info);
    pumma_pdgemr2d_(&n, &n, src->d, &one, &one, src->desc, y->d, &one, &one,
                    y->desc, &info);
}

/* The largest difference between the layout's matrix and the reference. */
static double l3_diff(int ctxt, int n, int nb, const l3m_t *y,
                      const l3m_t *ref)
{
    l3m_t t;
    int one = 1, info;
    l3_bc(ctxt, n, nb, 0, &t);
    pumma_pdgemr2d_(&n, &n, y->d, &one, &one, y->desc, t.d, &one, &one,
                    t.desc, &info);
    double mx = 0;
    for (int j = 0; j < ref->nl; j++)
        for (int i = 0; i < ref->ld; i++) {
            const double e = fabs(t.d[i + (size_t)j * t.ld] -
                                  ref->d[i + (size_t)j * ref->ld]);
            if (!(e <= mx)) mx = e;   /* NaN too */
        }
    free(t.d);
    double all;
    MPI_Allreduce(&mx, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static void test_l3_routines(void)
{
    int np, me, ctxt, info;
    Cblacs_pinfo(&me, &np);
    if (np < 6) return;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 2, 3);
    int P, Q, r, c;
    Cblacs_gridinfo(ctxt, &P, &Q, &r, &c);
    if (r < 0) return;                       /* not in the grid */
    const int n = 37, nb = 5, kind = PUMMA_LAYOUT_STRIPS, six = 6;
    const double sp[6] = {1, 2, 3, 1.5, 2.5, 1};
    int lay;
    pumma_layout_new_(&kind, &n, &n, &six, sp, &lay, &info);
    int m = n - 4, k = n - 6, one = 1, i2 = 3;
    const double al = 1.5, be = -0.5;
    static const char *const what[] = {
        "PDGEADD T", "PDTRADD U N", "PDTRSM L L N U", "PDTRSM R U T N",
        "PDTRMM L U C N", "PDSYRK L N", "PDSYR2K U T", "PDSYMM L U",
        "PDSYMM R L"};
    for (int cs = 0; cs < 9; cs++) {
        l3m_t A, B, C, a, b, cc;
        l3_bc(ctxt, n, nb, 1, &A);
        l3_bc(ctxt, n, nb, 2, &B);
        l3_bc(ctxt, n, nb, 3, &C);
        l3_het(ctxt, lay, n, &A, &a);
        l3_het(ctxt, lay, n, &B, &b);
        l3_het(ctxt, lay, n, &C, &cc);
        /* the same call on the block-cyclic matrices, then on the layouts */
        for (int h = 0; h < 2; h++) {
            double *xa = h ? a.d : A.d, *xb = h ? b.d : B.d, *xc = h ? cc.d : C.d;
            const int *da = h ? a.desc : A.desc, *db = h ? b.desc : B.desc,
                      *dc = h ? cc.desc : C.desc;
            switch (cs) {
            case 0: pdgeadd_("T", &m, &k, &al, xa, &i2, &one, da, &be, xc, &one, &i2, dc); break;
            case 1: pdtradd_("U", "N", &m, &k, &al, xa, &i2, &one, da, &be, xc, &one, &i2, dc); break;
            case 2: pdtrsm_("L", "L", "N", "U", &m, &k, &al, xa, &i2, &i2, da, xc, &one, &i2, dc); break;
            case 3: pdtrsm_("R", "U", "T", "N", &m, &k, &al, xa, &i2, &i2, da, xc, &one, &i2, dc); break;
            case 4: pdtrmm_("L", "U", "C", "N", &m, &k, &al, xa, &i2, &i2, da, xc, &one, &i2, dc); break;
            case 5: pdsyrk_("L", "N", &m, &k, &al, xa, &i2, &one, da, &be, xc, &one, &i2, dc); break;
            case 6: pdsyr2k_("U", "T", &m, &k, &al, xa, &i2, &one, da, xb, &one, &one, db, &be, xc, &one, &i2, dc); break;
            case 7: pdsymm_("L", "U", &m, &k, &al, xa, &i2, &i2, da, xb, &one, &one, db, &be, xc, &one, &i2, dc); break;
            default: pdsymm_("R", "L", &m, &k, &al, xa, &i2, &i2, da, xb, &one, &one, db, &be, xc, &one, &i2, dc); break;
            }
        }
        /* the same algorithm on the same values: rounding apart, equal
         * (entries are O(n) on the diagonal, O(1) elsewhere) */
        const double e = fmax(l3_diff(ctxt, n, nb, &cc, &C),
                              fmax(l3_diff(ctxt, n, nb, &a, &A),
                                   l3_diff(ctxt, n, nb, &b, &B)));
        char line[128];
        snprintf(line, sizeof line, "%s on a strips layout, windows at 3: "
                 "as on block-cyclic copies (max diff %.2g)", what[cs], e);
        verdict(line, !(e <= 1e-9));
        free(A.d); free(B.d); free(C.d); free(a.d); free(b.d); free(cc.d);
    }
    pumma_layout_free_(&lay, &info);
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np;
    Cblacs_pinfo(&me_world, &np);
    void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
    ty_t types[4] = {
        {'S', 4, 0, 1e-5, 0, 0, (opts_fn *)pumma_psgemm_opts, (pgemr_fn *)pumma_psgemr2d_},
        {'D', 8, 0, 1e-13, 0, 0, (opts_fn *)pumma_pdgemm_opts, (pgemr_fn *)pumma_pdgemr2d_},
        {'C', 8, 1, 1e-5, 0, 0, (opts_fn *)pumma_pcgemm_opts, (pgemr_fn *)pumma_pcgemr2d_},
        {'Z', 16, 1, 1e-13, 0, 0, (opts_fn *)pumma_pzgemm_opts, (pgemr_fn *)pumma_pzgemr2d_}};
    const char *names[4][2] = {{"psgemm_", "psgemr2d_"}, {"pdgemm_", "pdgemr2d_"},
                               {"pcgemm_", "pcgemr2d_"}, {"pzgemm_", "pzgemr2d_"}};
    for (int i = 0; i < 4; i++) {
        types[i].sl = h ? (gemm_fn *)dlsym(h, names[i][0]) : NULL;
        types[i].slr = h ? (gemr_fn *)dlsym(h, names[i][1]) : NULL;
        if (!types[i].sl || !types[i].slr) {
            if (me_world == 0) fprintf(stderr, "cannot reach ScaLAPACK's %s\n", names[i][0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    brief = argc > 1 && !strcmp(argv[1], "brief");
    test_speeds();
    if (argc > 1 && !strcmp(argv[1], "speeds")) {     /* run-het's third run */
        if (me_world == 0) printf("%d passed, %d failed\n", npass, nfail);
        MPI_Finalize();
        return nfail != 0;
    }
    test_layouts();
    test_extreme_layouts();
    for (int i = 0; i < 4; i++) test_gemr2d(&types[i]);
    for (int i = 0; i < 4; i++) test_gemr2d_any(&types[i]);
    test_errors(types[1].sl);
    test_gemm(types, 4);
    test_any(types, 4);
    test_extreme_gemm(types, 4);
    test_scalars(types, 4);
    test_l3_routines();
    if (me_world == 0) printf("%d passed, %d failed\n", npass, nfail);
    MPI_Finalize();
    return nfail != 0;
}
