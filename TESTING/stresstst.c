/*
 * stresstst.c -- P?GEMM under stress: random legal calls, each made twice
 * back to back and compared with itself (to the last bit) and with
 * ScaLAPACK's own P?GEMM, while processes drift apart.
 *
 *   mpiexec -n NP ./xstresstst NCALLS [SEED]
 *
 * Every grid of 2 to NP processes in both BLACS orders ("Row" and "Col":
 * the same shape, a different placement of the ranks), S, D, C and Z.
 * The calls come in batches of 1 to 4 different calls, each made twice,
 * all back to back with no synchronisation between them, so a process
 * that finishes a call runs ahead into the next (a user's loop); only then
 * are the results checked. Every algorithm, broadcast, reduce and shift
 * variant is forced in turn through pumma_p?gemm_opts (each dimension
 * cycles through its table, auto included), and TRANSA/TRANSB mostly suit
 * the forced algorithm so that it really runs; segments vary. Sizes 0 to
 * 60 (a few up to 150), offsets off block boundaries, first blocks unlike
 * the others, sources -1 (replicated) and others, 9- and 11-entry
 * descriptors, ALPHA and BETA among 0, 1, -1.5 and 0.75 (complex parts
 * too). One call in five is heterogeneous: A, B and C of N x N (N up to
 * 60) on a fresh layout of the grid's processes (columns, strips, rect3,
 * square-corner as the count allows, random speeds), with het and
 * het-overlap and both topologies in turn, mixed into the same batches.
 *
 * A call fails when
 *   - its two runs differ in any bit of C (local arrays compared whole);
 *   - an entry of sub(C) differs from ScaLAPACK's by more than
 *     8 (k + 2) eps (|alpha| sum_l |a_il| |b_lj| + |beta| |c_ij|), the
 *     forward error bound of a dot product with room for both sides'
 *     rounding (a lost or misrouted message is far beyond it); on a
 *     layout, the reference is the product computed from its definition
 *     in long double by each process for its own region;
 *   - anything outside sub(C) in C's local array changed, or A or B did;
 *   - it does not finish: a watchdog stops the run (status 3) naming the
 *     batch when no batch completes in WATCHDOG_S seconds.
 * What ran is read back from pumma_last_plan(): the closing table counts
 * the calls each algorithm and variant served, and with at least
 * COVER_MIN calls one that served none is a failure (forcing it did not
 * take, so it went untested).
 *
 * Processes drift apart through PUMMA_JITTER (random delays at pumma's
 * communication points, set by the Makefile) and through outside load
 * (make check-stress runs busy loops beside it). One PASSED/FAILED line
 * per grid, order and precision, then the coverage, then `N passed, N
 * failed`; exit status 1 on any failure.
 */
#define _POSIX_C_SOURCE 200809L /* alarm, nanosleep */
#include <complex.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pumma.h"
#include "testmat.h"

enum { MAXBATCH = 4, WATCHDOG_S = 300, COVER_MIN = 400, MAXNP = 64 };

typedef void gemm_fn(const char *, const char *, const int *, const int *,
                     const int *, const void *, const void *, const int *,
                     const int *, const int *, const void *, const int *,
                     const int *, const int *, const void *, void *,
                     const int *, const int *, const int *);
typedef void opts_fn(const char *, const char *, const int *, const int *,
                     const int *, const void *, const void *, const int *,
                     const int *, const int *, const void *, const int *,
                     const int *, const int *, const void *, void *,
                     const int *, const int *, const int *,
                     const pumma_options_t *, int *);

void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);

/* ------------------------------------------------------------ the types */

typedef struct type {
    char letter;
    int cplx;
    size_t size;             /* bytes per element */
    double eps;
    const char *sl_name;     /* ScaLAPACK's symbol */
    gemm_fn *sl;
    opts_fn *pumma;
} type_t;

static type_t types[4] = {
    {'S', 0, 4, FLT_EPSILON, "psgemm_", NULL, (opts_fn *)pumma_psgemm_opts},
    {'D', 0, 8, DBL_EPSILON, "pdgemm_", NULL, (opts_fn *)pumma_pdgemm_opts},
    {'C', 1, 8, FLT_EPSILON, "pcgemm_", NULL, (opts_fn *)pumma_pcgemm_opts},
    {'Z', 1, 16, DBL_EPSILON, "pzgemm_", NULL, (opts_fn *)pumma_pzgemm_opts}};

/* Element e of a local array as (re, im), and back. */
static void get(const type_t *t, const void *x, size_t e, double *re,
                double *im)
{
    *im = 0;
    switch (t->letter) {
    case 'S': *re = ((const float *)x)[e]; break;
    case 'D': *re = ((const double *)x)[e]; break;
    case 'C': *re = ((const float *)x)[2 * e];
              *im = ((const float *)x)[2 * e + 1]; break;
    default:  *re = ((const double *)x)[2 * e];
              *im = ((const double *)x)[2 * e + 1]; break;
    }
}

static void put(const type_t *t, void *x, size_t e, double re, double im)
{
    switch (t->letter) {
    case 'S': ((float *)x)[e] = (float)re; break;
    case 'D': ((double *)x)[e] = re; break;
    case 'C': ((float *)x)[2 * e] = (float)re;
              ((float *)x)[2 * e + 1] = (float)im; break;
    default:  ((double *)x)[2 * e] = re; ((double *)x)[2 * e + 1] = im; break;
    }
}

/* ------------------------------------------------- block-cyclic matrices */

typedef struct mat {
    int id, M, N, imb, inb, mb, nb, rs, cs, lld, mloc, nloc;
    int desc[11];
    size_t bytes;
    void *data;
} mat_t;

typedef struct grid { int ctxt, P, Q, me_r, me_c; } grid_t;

/* The parameters of a random M x N matrix (the same on every process). */
static void mat_draw(mat_t *x, int id, int M, int N, const grid_t *g)
{
    x->id = id; x->M = M; x->N = N;
    x->imb = rnd(1, 6); x->mb = rnd(1, 6);
    x->inb = rnd(1, 6); x->nb = rnd(1, 6);
    x->rs = rnd(-1, g->P - 1);
    x->cs = rnd(-1, g->Q - 1);
    if (rnd(0, 3) == 0) x->rs = rnd(0, g->P - 1);
    const int nine = rnd(0, 2) == 0;
    if (nine) { x->imb = x->mb; x->inb = x->nb; }
    x->mloc = lcount(M, x->imb, x->mb, x->rs, g->me_r, g->P);
    x->nloc = lcount(N, x->inb, x->nb, x->cs, g->me_c, g->Q);
    x->lld = (x->mloc > 1 ? x->mloc : 1) + rnd(0, 2);
    memset(x->desc, 0, sizeof x->desc);
    if (nine) {
        int d[9] = {1, g->ctxt, M, N, x->mb, x->nb, x->rs, x->cs, x->lld};
        memcpy(x->desc, d, sizeof d);
    } else {
        int d[11] = {2, g->ctxt, M, N, x->imb, x->inb, x->mb, x->nb,
                     x->rs, x->cs, x->lld};
        memcpy(x->desc, d, sizeof d);
    }
}

/* Its local array: the global entries, 7 + 7i in the padding rows. */
static void mat_fill(mat_t *x, const type_t *t, const grid_t *g)
{
    size_t cnt = (size_t)x->lld * (size_t)(x->nloc > 0 ? x->nloc : 1);
    x->bytes = cnt * t->size;
    x->data = malloc(x->bytes);
    for (size_t e = 0; e < cnt; e++) put(t, x->data, e, 7, t->cplx ? 7 : 0);
    for (int i = 0; i < x->M; i++)
        for (int j = 0; j < x->N; j++) {
            int ro, li, co, lj;
            locate(i, x->imb, x->mb, x->rs, g->P, g->me_r, &ro, &li);
            locate(j, x->inb, x->nb, x->cs, g->Q, g->me_c, &co, &lj);
            if (ro == g->me_r && co == g->me_c)
                put(t, x->data, (size_t)li + (size_t)lj * x->lld,
                    val(x->id, i, j, 0), t->cplx ? val(x->id, i, j, 1) : 0);
        }
}

static void *dup_bytes(const void *p, size_t n)
{
    void *q = malloc(n);
    memcpy(q, p, n);
    return q;
}

/* ------------------------------------------------------------- a case */

#define CODE(N, v, s) v,
#define NAME(N, v, s) s,
static const int algo_codes[] = {PUMMA_BC_ALGO_LIST(CODE)};
static const char *const algo_names[] = {PUMMA_ALGO_LIST(NAME)};
static const int bcast_codes[] = {PUMMA_BCAST_LIST(CODE)};
static const char *const bcast_names[] = {PUMMA_BCAST_LIST(NAME)};
static const int reduce_codes[] = {PUMMA_REDUCE_LIST(CODE)};
static const char *const reduce_names[] = {PUMMA_REDUCE_LIST(NAME)};
static const int shift_codes[] = {PUMMA_SHIFT_LIST(CODE)};
static const char *const shift_names[] = {PUMMA_SHIFT_LIST(NAME)};
#define COUNT(a) ((int)(sizeof a / sizeof *a))

typedef struct kase {
    int het;                 /* on a heterogeneous layout (see draw_het) */
    int layout, kind, speed_seed;
    char ta, tb;
    int m, n, k, ia, ja, ib, jb, ic, jc;
    double al[2], be[2];
    pumma_options_t op;
    mat_t A, B, C;
    void *a0, *b0;           /* A and B as they were */
    void *c1, *c2, *cs;      /* C: pumma's two runs, ScaLAPACK's */
    char plan[128];          /* what the first run ran */
} kase_t;

/* Which transposes the forced algorithm computes ('T' stands for T or C). */
static void trans_for(int algo, int cplx, char *ta, char *tb)
{
    static const char any[] = "NTC";
    *ta = any[rnd(0, 2)];
    *tb = any[rnd(0, 2)];
    if (rnd(0, 3) == 0) return;                 /* a quarter at random */
    char T = cplx && rnd(0, 1) ? 'C' : 'T';
    switch (algo) {
    case PUMMA_ALGO_TN: *ta = T; *tb = 'N'; break;
    case PUMMA_ALGO_NT: *ta = 'N'; *tb = T; break;
    case PUMMA_ALGO_TT: case PUMMA_ALGO_TT_LOCAL:
        *ta = T; *tb = cplx && rnd(0, 1) ? 'C' : 'T'; break;
    case PUMMA_ALGO_AUTO: case PUMMA_ALGO_RANKK: case PUMMA_ALGO_STAT_A:
    case PUMMA_ALGO_STAT_B: break;                /* any */
    default: *ta = 'N'; *tb = 'N'; break;         /* the A*B family */
    }
}

static unsigned long turn;   /* advances every case: the forced choices */

static void draw(kase_t *c, const type_t *t, const grid_t *g)
{
    memset(c, 0, sizeof *c);
    c->op.algo = algo_codes[turn % COUNT(algo_codes)];
    c->op.bcast = bcast_codes[turn % COUNT(bcast_codes)];
    c->op.reduce = reduce_codes[turn % COUNT(reduce_codes)];
    c->op.shift = shift_codes[turn % COUNT(shift_codes)];
    turn++;
    static const int segs[] = {0, 0, 8, 64, 1000, 4096};
    c->op.segment = segs[rnd(0, COUNT(segs) - 1)];
    c->op.topo = PUMMA_TOPO_AUTO;
    trans_for(c->op.algo, t->cplx, &c->ta, &c->tb);
    int big = rnd(0, 9) == 0, huge = rnd(0, 39) == 0;
    int hi = huge ? 150 : big ? 60 : 13;
    c->m = rnd(0, hi); c->n = rnd(0, hi); c->k = rnd(0, hi);
    if (rnd(0, 15) == 0) c->m = 0;
    if (rnd(0, 15) == 0) c->k = 0;
    c->ia = rnd(1, 9); c->ja = rnd(1, 9); c->ib = rnd(1, 9);
    c->jb = rnd(1, 9); c->ic = rnd(1, 9); c->jc = rnd(1, 9);
    static const double choice[] = {0.0, 1.0, -1.5, 0.75};
    c->al[0] = choice[rnd(0, 3)]; c->al[1] = t->cplx ? choice[rnd(0, 3)] : 0;
    c->be[0] = choice[rnd(0, 3)]; c->be[1] = t->cplx ? choice[rnd(0, 3)] : 0;
    int ar = c->ta == 'N' ? c->m : c->k, ac = c->ta == 'N' ? c->k : c->m;
    int br = c->tb == 'N' ? c->k : c->n, bc = c->tb == 'N' ? c->n : c->k;
    mat_draw(&c->A, 1, c->ia - 1 + ar + rnd(0, 3) + 1,
             c->ja - 1 + ac + rnd(0, 3) + 1, g);
    mat_draw(&c->B, 2, c->ib - 1 + br + rnd(0, 3) + 1,
             c->jb - 1 + bc + rnd(0, 3) + 1, g);
    mat_draw(&c->C, 3, c->ic - 1 + c->m + rnd(0, 3) + 1,
             c->jc - 1 + c->n + rnd(0, 3) + 1, g);
    mat_fill(&c->A, t, g);
    mat_fill(&c->B, t, g);
    mat_fill(&c->C, t, g);
    c->a0 = dup_bytes(c->A.data, c->A.bytes);
    c->b0 = dup_bytes(c->B.data, c->B.bytes);
    c->c1 = dup_bytes(c->C.data, c->C.bytes);
    c->c2 = dup_bytes(c->C.data, c->C.bytes);
    c->cs = dup_bytes(c->C.data, c->C.bytes);
}

/* Speeds for a layout of np processes (the same everywhere). */
static void speeds_draw(int np, double *sp)
{
    int wide = rnd(0, 2) == 0;
    for (int p = 0; p < np; p++)
        sp[p] = wide ? (double)rnd(1, 90) : (double)rnd(1, 4);
}

/* A heterogeneous call: op(A) * op(B) of N x N matrices, all three on one
 * new layout over the grid's processes, local arrays its bounding boxes. */
static void draw_het(kase_t *c, const type_t *t, const grid_t *g)
{
    static const int algos[] = {PUMMA_ALGO_HET, PUMMA_ALGO_HET_OVERLAP};
    static const int topos[] = {PUMMA_TOPO_FULL, PUMMA_TOPO_LINEAR,
                                PUMMA_TOPO_AUTO};
    const int np = g->P * g->Q, me = g->me_r * g->Q + g->me_c;
    memset(c, 0, sizeof *c);
    c->het = 1;
    c->op.algo = algos[turn % 2];
    c->op.topo = topos[(turn / 2) % 3];
    turn++;
    static const char any[] = "NTC";
    c->ta = any[rnd(0, 2)];
    c->tb = any[rnd(0, 2)];
    static const double choice[] = {0.0, 1.0, -1.5, 0.75};
    c->al[0] = choice[rnd(0, 3)]; c->al[1] = t->cplx ? choice[rnd(0, 3)] : 0;
    c->be[0] = choice[rnd(0, 3)]; c->be[1] = t->cplx ? choice[rnd(0, 3)] : 0;
    /* A kind the count allows; when the speeds or N do not admit it
     * (INFO 1 or 2), the next kind, then a larger N. */
    int kinds[4], nk = 0;
    if (np == 2 || np == 3) kinds[nk++] = PUMMA_LAYOUT_SQUARE_CORNER;
    if (np == 3) kinds[nk++] = PUMMA_LAYOUT_RECT3;
    kinds[nk++] = PUMMA_LAYOUT_COLUMNS;
    kinds[nk++] = PUMMA_LAYOUT_STRIPS;
    double sp[MAXNP];
    speeds_draw(np, sp);
    int n = rnd(1, rnd(0, 3) ? 24 : 60), first = rnd(0, nk - 1), info = 1;
    for (int tries = 0; info && tries < 64; tries++) {
        c->kind = kinds[(first + tries) % nk];
        if (tries % nk == nk - 1) n = n < 200 ? 2 * n + 1 : n;
        PUMMA_F77(pumma_layout_new, PUMMA_LAYOUT_NEW)(&c->kind, &n, &n, &np,
                                                       sp, &c->layout, &info);
    }
    if (info) {                      /* none fits: a block-cyclic call */
        draw(c, t, g);
        return;
    }
    c->m = c->n = c->k = n;
    c->ia = c->ja = c->ib = c->jb = c->ic = c->jc = 1;
    mat_t *x[3] = {&c->A, &c->B, &c->C};
    for (int w = 0; w < 3; w++) {
        mat_t *y = x[w];
        int i0, j0, proc = me;
        PUMMA_F77(pumma_layout_box, PUMMA_LAYOUT_BOX)(&c->layout, &proc, &i0,
                                                       &j0, &y->mloc,
                                                       &y->nloc, &info);
        y->id = w + 1;
        y->M = y->N = n;
        y->imb = i0 - 1;             /* the box's origin, 0-based */
        y->inb = j0 - 1;
        y->lld = (y->mloc > 1 ? y->mloc : 1) + rnd(0, 2);
        PUMMA_F77(pumma_descinit, PUMMA_DESCINIT)(y->desc, &n, &n, &c->layout,
                                                   &g->ctxt, &y->lld, &info);
        size_t cnt = (size_t)y->lld * (size_t)(y->nloc > 0 ? y->nloc : 1);
        y->bytes = cnt * t->size;
        y->data = malloc(y->bytes);
        for (size_t e = 0; e < cnt; e++)
            put(t, y->data, e, 7, t->cplx ? 7 : 0);
        for (int lj = 0; lj < y->nloc; lj++)
            for (int li = 0; li < y->mloc; li++) {
                int gi = i0 + li, gj = j0 + lj, own;
                PUMMA_F77(pumma_layout_owner, PUMMA_LAYOUT_OWNER)(
                    &c->layout, &gi, &gj, &own, &info);
                if (own == me)
                    put(t, y->data, (size_t)li + (size_t)lj * y->lld,
                        val(y->id, gi - 1, gj - 1, 0),
                        t->cplx ? val(y->id, gi - 1, gj - 1, 1) : 0);
            }
    }
    c->a0 = dup_bytes(c->A.data, c->A.bytes);
    c->b0 = dup_bytes(c->B.data, c->B.bytes);
    c->c1 = dup_bytes(c->C.data, c->C.bytes);
    c->c2 = dup_bytes(c->C.data, c->C.bytes);
    c->cs = NULL;
}

static void release(kase_t *c)
{
    if (c->layout) {
        int info;
        PUMMA_F77(pumma_layout_free, PUMMA_LAYOUT_FREE)(&c->layout, &info);
    }
    free(c->A.data); free(c->B.data); free(c->C.data);
    free(c->a0); free(c->b0); free(c->c1); free(c->c2); free(c->cs);
}

/* ALPHA and BETA of c in t's precision (f holds the single ones). */
static void scalars(const type_t *t, const kase_t *c, float f[4],
                    const void **al, const void **be)
{
    const int single = t->letter == 'S' || t->letter == 'C';
    f[0] = (float)c->al[0]; f[1] = (float)c->al[1];
    f[2] = (float)c->be[0]; f[3] = (float)c->be[1];
    *al = single ? (const void *)f : (const void *)c->al;
    *be = single ? (const void *)(f + 2) : (const void *)c->be;
}

/* pumma's call on c's data into C array cc; INFO back. */
static int run_pumma(const type_t *t, kase_t *c, void *cc)
{
    int info = 0;
    float f[4];
    const void *al, *be;
    scalars(t, c, f, &al, &be);
    t->pumma(&c->ta, &c->tb, &c->m, &c->n, &c->k, al, c->A.data, &c->ia,
             &c->ja, c->A.desc, c->B.data, &c->ib, &c->jb, c->B.desc, be, cc,
             &c->ic, &c->jc, c->C.desc, &c->op, &info);
    return info;
}

static void run_scalapack(const type_t *t, kase_t *c)
{
    float f[4];
    const void *al, *be;
    scalars(t, c, f, &al, &be);
    t->sl(&c->ta, &c->tb, &c->m, &c->n, &c->k, al, c->A.data, &c->ia, &c->ja,
          c->A.desc, c->B.data, &c->ib, &c->jb, c->B.desc, be, c->cs, &c->ic,
          &c->jc, c->C.desc);
}

/* |op(X)(i, l)| as |re| + |im| of the global entry. */
static double opabs(const mat_t *x, char tr, int i0, int j0, int i, int l,
                    int cplx)
{
    int r = tr == 'N' ? i0 + i : i0 + l, q = tr == 'N' ? j0 + l : j0 + i;
    return fabs(val(x->id, r, q, 0)) + (cplx ? fabs(val(x->id, r, q, 1)) : 0);
}

/* The entry (i, j), 0-based, of alpha*op(A)*op(B) + beta*C from the
 * definition, in long double; *mag: the matching sum of magnitudes. */
static void reference(const kase_t *c, int cplx, int i, int j, double *re,
                      double *im, double *mag)
{
    long double sr = 0, si = 0, sm = 0;
    for (int l = 0; l < c->k; l++) {
        int ar = c->ta == 'N' ? i : l, ac = c->ta == 'N' ? l : i;
        int br = c->tb == 'N' ? l : j, bc = c->tb == 'N' ? j : l;
        long double xr = val(1, ar, ac, 0), xi = cplx ? val(1, ar, ac, 1) : 0;
        long double yr = val(2, br, bc, 0), yi = cplx ? val(2, br, bc, 1) : 0;
        if (c->ta == 'C') xi = -xi;
        if (c->tb == 'C') yi = -yi;
        sr += xr * yr - xi * yi;
        si += xr * yi + xi * yr;
        sm += (fabsl(xr) + fabsl(xi)) * (fabsl(yr) + fabsl(yi));
    }
    long double cr = val(3, i, j, 0), ci = cplx ? val(3, i, j, 1) : 0;
    long double ar = c->al[0], ai = c->al[1], br = c->be[0], bi = c->be[1];
    long double tr = ar * sr - ai * si + br * cr - bi * ci;
    long double ti = ar * si + ai * sr + br * ci + bi * cr;
    if (br == 0 && bi == 0) { tr = ar * sr - ai * si; ti = ar * si + ai * sr; }
    *re = (double)tr;
    *im = (double)ti;
    *mag = (double)((fabsl(ar) + fabsl(ai)) * sm +
                    (fabsl(br) + fabsl(bi)) * (fabsl(cr) + fabsl(ci)));
}

/* The checks of a heterogeneous case: my region against the definition,
 * the rest of my box untouched. */
static int check_het(const type_t *t, const grid_t *g, kase_t *c, char *why,
                     size_t nwhy)
{
    const int me = g->me_r * g->Q + g->me_c;
    const mat_t *x = &c->C;
    const double fac = 8.0 * (c->k + 2) * t->eps;
    for (int lj = 0; lj < x->nloc; lj++)
        for (int li = 0; li < x->mloc; li++) {
            int gi = x->imb + 1 + li, gj = x->inb + 1 + lj, own, info;
            size_t e = (size_t)li + (size_t)lj * x->lld;
            PUMMA_F77(pumma_layout_owner, PUMMA_LAYOUT_OWNER)(
                &c->layout, &gi, &gj, &own, &info);
            if (own != me) {
                if (memcmp((char *)c->c1 + e * t->size,
                           (char *)x->data + e * t->size, t->size)) {
                    snprintf(why, nwhy, "C(%d,%d), not mine, changed", gi, gj);
                    return 1;
                }
                continue;
            }
            double yr, yi, mag, xr, xi;
            reference(c, t->cplx, gi - 1, gj - 1, &yr, &yi, &mag);
            get(t, c->c1, e, &xr, &xi);
            double d = fabs(xr - yr) + fabs(xi - yi), bound = fac * mag;
            if (!(d <= bound)) {
                snprintf(why, nwhy, "C(%d,%d) = (%.9g, %.9g), by definition "
                         "(%.9g, %.9g): difference %.3g over the bound %.3g",
                         gi, gj, xr, xi, yr, yi, d, bound);
                return 1;
            }
        }
    return 0;
}

/* The checks of one case; a description of the first failure in why. */
static int check(const type_t *t, const grid_t *g, kase_t *c, char *why,
                 size_t nwhy)
{
    if (memcmp(c->A.data, c->a0, c->A.bytes) ||
        memcmp(c->B.data, c->b0, c->B.bytes)) {
        snprintf(why, nwhy, "A or B was modified");
        return 1;
    }
    if (memcmp(c->c1, c->c2, c->C.bytes)) {
        snprintf(why, nwhy, "the second run's C differs from the first's");
        return 1;
    }
    if (c->het) return check_het(t, g, c, why, nwhy);
    const size_t cnt = c->C.bytes / t->size;
    const double al = fabs(c->al[0]) + fabs(c->al[1]);
    const double be = fabs(c->be[0]) + fabs(c->be[1]);
    const double fac = 8.0 * (c->k + 2) * t->eps;
    /* Inside sub(C): within the bound. Mark what was checked. */
    char *in = calloc(cnt ? cnt : 1, 1);
    int bad = 0;
    for (int i = 0; i < c->m && !bad; i++)
        for (int j = 0; j < c->n && !bad; j++) {
            int ro, li, co, lj;
            locate(c->ic - 1 + i, c->C.imb, c->C.mb, c->C.rs, g->P, g->me_r,
                   &ro, &li);
            locate(c->jc - 1 + j, c->C.inb, c->C.nb, c->C.cs, g->Q, g->me_c,
                   &co, &lj);
            if (ro != g->me_r || co != g->me_c) continue;
            size_t e = (size_t)li + (size_t)lj * c->C.lld;
            in[e] = 1;
            double s = 0;
            for (int l = 0; l < c->k && al != 0; l++)
                s += opabs(&c->A, c->ta, c->ia - 1, c->ja - 1, i, l, t->cplx) *
                     opabs(&c->B, c->tb, c->ib - 1, c->jb - 1, l, j, t->cplx);
            double cr, ci, xr, xi, yr, yi;
            get(t, c->C.data, e, &cr, &ci);
            get(t, c->c1, e, &xr, &xi);
            get(t, c->cs, e, &yr, &yi);
            double bound = fac * (al * s + be * (fabs(cr) + fabs(ci)));
            double d = fabs(xr - yr) + fabs(xi - yi);
            if (!(d <= bound) || isnan(xr) || isnan(xi)) {
                snprintf(why, nwhy, "C(%d,%d) = (%.9g, %.9g), ScaLAPACK's "
                         "(%.9g, %.9g): difference %.3g over the bound %.3g",
                         c->ic + i, c->jc + j, xr, xi, yr, yi, d, bound);
                bad = 1;
            }
        }
    /* Outside sub(C): every byte as it was. */
    for (size_t e = 0; e < cnt && !bad; e++)
        if (!in[e] && memcmp((char *)c->c1 + e * t->size,
                             (char *)c->C.data + e * t->size, t->size)) {
            snprintf(why, nwhy, "local entry %zu, outside sub(C), changed", e);
            bad = 1;
        }
    free(in);
    return bad;
}

/* ------------------------------------------------------------- driver */

static char current[400];    /* for the watchdog */

/* Names the batch, and where this process is stuck: the stack, as
 * offsets into the program (addr2line -f -e xstresstst OFFSET names the
 * functions pumma keeps static). */
static void watchdog(int sig)
{
    static const char msg[] = "xstresstst: watchdog: no progress in ";
    void *bt[48];
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0 ||
        write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0)
        _exit(3);
    backtrace_symbols_fd(bt, backtrace(bt, 48), 2);
    _exit(3);
}

/* MPI_Wait that naps: processes outside a grid leave the cores to it. */
static void wait_napping(MPI_Request *req)
{
    const struct timespec nap = {0, 200000};
    for (int done = 0;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        nanosleep(&nap, NULL);
    }
}

/* Calls served per name (counted by rank 0, which is in every grid). */
typedef struct tally { const char *const *names; int n; long cnt[32]; } tally_t;
static tally_t served[4] = {
    {algo_names, COUNT(algo_names), {0}},
    {bcast_names, COUNT(bcast_names), {0}},
    {reduce_names, COUNT(reduce_names), {0}},
    {shift_names, COUNT(shift_names), {0}}};
static const char *const what[4] = {"algo", "bcast", "reduce", "shift"};

static void count_plan(const char *plan)
{
    for (int d = 0; d < 4; d++) {
        char key[16];
        snprintf(key, sizeof key, "%s=", what[d]);
        const char *at = strstr(plan, key);
        if (!at) continue;
        at += strlen(key);
        size_t len = strcspn(at, " ");
        for (int i = 0; i < served[d].n; i++)
            if (strlen(served[d].names[i]) == len &&
                strncmp(served[d].names[i], at, len) == 0)
                served[d].cnt[i]++;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long ncalls = argc > 1 ? atol(argv[1]) : 1000;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], 0, 10) : 1;
    int me, np;
    Cblacs_pinfo(&me, &np);
    void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
    for (int i = 0; i < 4; i++) {
        types[i].sl = h ? (gemm_fn *)dlsym(h, types[i].sl_name) : NULL;
        if (!types[i].sl) {
            if (me == 0) fprintf(stderr, "cannot reach ScaLAPACK's %s\n",
                                 types[i].sl_name);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    signal(SIGALRM, watchdog);
    {   /* backtrace() loads its unwinder on first use: not in the handler */
        void *bt[2];
        (void)backtrace(bt, 2);
    }

    /* Every grid of 2..np processes, both orders. */
    int shapes[4 * MAXNP][2], nshapes = 0;
    for (int pq = 2; pq <= np && pq <= MAXNP; pq++)
        for (int P = 1; P <= pq; P++)
            if (pq % P == 0) {
                shapes[nshapes][0] = P;
                shapes[nshapes++][1] = pq / P;
            }
    const long blocks = (long)nshapes * 2 * 4;
    const long per = (ncalls + blocks - 1) / blocks;
    int passed = 0, failed = 0;
    long total = 0;
    double t0 = MPI_Wtime();
    for (int s = 0; s < nshapes; s++)
        for (int order = 0; order < 2; order++)
            for (int ti = 0; ti < 4; ti++) {
                const type_t *t = &types[ti];
                /* Processes outside the grid draw nothing: restart the
                 * draws identically everywhere. */
                const unsigned long blk = (unsigned long)((s * 2 + order) * 4 + ti);
                rng = seed * 7919 + blk * 104729;
                turn = (unsigned long)seed + blk * per;
                grid_t g = {0, shapes[s][0], shapes[s][1], -1, -1};
                int nprow, npcol;
                Cblacs_get(-1, 0, &g.ctxt);
                Cblacs_gridinit(&g.ctxt, order ? "Col" : "Row", g.P, g.Q);
                Cblacs_gridinfo(g.ctxt, &nprow, &npcol, &g.me_r, &g.me_c);
                int bad = 0, in = nprow > 0;
                char why[700] = "";
                for (long done = 0; in && done < per;) {
                    kase_t batch[MAXBATCH];
                    int nb = rnd(1, MAXBATCH);
                    if (nb > per - done) nb = (int)(per - done);
                    for (int b = 0; b < nb; b++) {
                        if (rnd(0, 4) == 0) draw_het(&batch[b], t, &g);
                        else draw(&batch[b], t, &g);
                    }
                    snprintf(current, sizeof current,
                             "%c grid %dx%d %s, calls %ld..%ld (seed %llu)",
                             t->letter, g.P, g.Q, order ? "Col" : "Row",
                             done, done + nb - 1, seed);
                    alarm(WATCHDOG_S);
                    /* Back to back: both runs of every call. */
                    for (int b = 0; b < nb; b++) {
                        kase_t *c = &batch[b];
                        int i1 = run_pumma(t, c, c->c1);
                        snprintf(c->plan, sizeof c->plan, "%s",
                                 pumma_last_plan());
                        int i2 = run_pumma(t, c, c->c2);
                        if ((i1 || i2) && !bad++)
                            snprintf(why, sizeof why, "INFO %d, %d", i1, i2);
                    }
                    for (int b = 0; b < nb; b++) {
                        kase_t *c = &batch[b];
                        if (!c->het) run_scalapack(t, c);
                        char w[240];
                        if (check(t, &g, c, w, sizeof w) && !bad++)
                            snprintf(why, sizeof why,
                                     "call %ld%s: %c%c m=%d n=%d k=%d ia=%d "
                                     "ja=%d ib=%d jb=%d ic=%d jc=%d "
                                     "options %d/%d/%d/%d/%d (%s): %s",
                                     done + b,
                                     c->het ? " (on a layout)" : "",
                                     c->ta, c->tb, c->m, c->n, c->k,
                                     c->ia, c->ja, c->ib, c->jb, c->ic, c->jc,
                                     c->op.algo, c->op.bcast, c->op.reduce,
                                     c->op.shift, c->op.segment, c->plan, w);
                        /* (a quick return plans nothing) */
                        if (me == 0 && c->m > 0 && c->n > 0 && c->k > 0 &&
                            (c->al[0] != 0 || c->al[1] != 0))
                            count_plan(c->plan);
                        release(c);
                    }
                    alarm(0);
                    done += nb;
                }
                if (in) Cblacs_gridexit(g.ctxt);
                if (bad)
                    fprintf(stderr, "rank %d: %c grid %dx%d %s: %s\n", me,
                            t->letter, g.P, g.Q, order ? "Col" : "Row", why);
                int totbad = 0;
                MPI_Request req;
                MPI_Iallreduce(&bad, &totbad, 1, MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD, &req);
                wait_napping(&req);
                if (me == 0)
                    printf("%s %c grid %dx%d %s: %ld calls, each twice\n",
                           totbad ? "FAILED" : "PASSED", t->letter, g.P, g.Q,
                           order ? "Col" : "Row", per);
                fflush(stdout);
                total += per;
                if (totbad) failed++; else passed++;
            }
    /* Coverage: what each forced choice really ran. */
    if (me == 0) {
        printf("calls served (of %ld; quick returns not counted):\n", total);
        for (int d = 0; d < 4; d++) {
            printf("  %-6s", what[d]);
            int gap = 0;
            for (int i = 0; i < served[d].n; i++) {
                if (strcmp(served[d].names[i], "auto") == 0) continue;
                printf(" %s %ld", served[d].names[i], served[d].cnt[i]);
                if (served[d].cnt[i] == 0) gap = 1;
            }
            printf("\n");
            if (gap && total >= COVER_MIN) {
                printf("FAILED coverage: a %s variant served no call\n",
                       what[d]);
                failed++;
            }
        }
        printf("%ld calls in %.0f s\n", total, MPI_Wtime() - t0);
        printf("%d passed, %d failed\n", passed, failed);
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed != 0;
}
