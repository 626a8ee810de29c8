/*
 * localtst.c -- calls whose whole product is local, and the BLAS's
 * large-LDC defect (SRC/base/pumma_local.c).
 *
 *   mpiexec -n 2 ./xlocaltst
 *
 * local   On a 1x1 grid, every TRANSA/TRANSB (N, T, C) in S, D, C and Z,
 *         sizes 1 to 130, offsets, LLD above the need, ALPHA and BETA
 *         among 0, 1 and others (BETA = 0 with NaN in C), against
 *         ScaLAPACK's own P?GEMM (reached with dlopen/dlsym) on the same
 *         data, every entry of the local arrays compared; each call must
 *         hold no temporary at all (pumma_mem_peak 0) and say
 *         "algo=local". Then on 1x2 and 2x1 grids, calls whose
 *         submatrices lie in one block on each process that holds sub(C)
 *         (or are replicated) must do the same, and a call that is not
 *         local must not say "algo=local".
 * ldc     One process, 1x1 grid: PSGEMM and PDGEMM, NT and TT, with C's
 *         LLD at PUMMA_BLAS_LDC_MAX = 143165576 and just above it (and
 *         2^28, as reported), against a product computed here in double.
 *         OpenBLAS 0.3.21's SGEMM crashes on the call above it without
 *         pumma's workaround (16 columns: lane 15's 32-bit index 15*LDC
 *         passes 2^31). Each C array is LLD x N elements: up to 9.2 GB of
 *         *virtual* memory (mmap, MAP_NORESERVE), of which only the first
 *         rows of each column are ever touched -- a few pages; it takes a
 *         fraction of a second.
 * One PASSED/FAILED line per group, then `N passed, N failed`.
 */
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pumma.h"
#include "blacs.h"

typedef struct type {
    char letter;
    int cplx;
    size_t real;              /* bytes of one real part */
    double eps;
    const char *sl_name;
    gemm_fn *mine, *sl;
} type_t;

static type_t types[4] = {
    {'S', 0, 4, FLT_EPSILON, "psgemm_", (gemm_fn *)psgemm_F77, NULL},
    {'D', 0, 8, DBL_EPSILON, "pdgemm_", (gemm_fn *)pdgemm_F77, NULL},
    {'C', 1, 4, FLT_EPSILON, "pcgemm_", (gemm_fn *)pcgemm_F77, NULL},
    {'Z', 1, 8, DBL_EPSILON, "pzgemm_", (gemm_fn *)pzgemm_F77, NULL}};

static int me, npass, nfail, group_bad;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void fail(const char *fmt, ...)
{
    if (group_bad++ < 5) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "rank %d: ", me);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n");
        va_end(ap);
    }
}

/* Ends a group on every process of MPI_COMM_WORLD (collective). */
static void group_end(const char *name)
{
    int bad = 0;
    MPI_Allreduce(&group_bad, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf("%s %s\n", bad ? "FAILED" : "PASSED", name);
    if (bad) nfail++; else npass++;
    group_bad = 0;
}

static unsigned long long rng = 12345;
static int rnd(int lo, int hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((rng >> 33) % (unsigned long long)(hi - lo + 1));
}

/* Element e (real part, then imaginary) of a local array: values in
 * [-1, 1] from a hash of the array, its position and the part. */
static double val(int id, size_t e, int part)
{
    unsigned long long h = (unsigned long long)id * 1000003ULL ^
                           (unsigned long long)e * 19349663ULL ^
                           (unsigned long long)part * 2654435761ULL;
    h ^= h >> 29; h *= 0xbf58476d1ce4e5b9ULL; h ^= h >> 32;
    return (double)(h % 2000001ULL) / 1000000.0 - 1.0;
}

static void put(const type_t *t, void *x, size_t e, int part, double v)
{
    size_t at = e * (t->cplx ? 2 : 1) + (size_t)part;
    if (t->real == 4) ((float *)x)[at] = (float)v;
    else ((double *)x)[at] = v;
}

static double get(const type_t *t, const void *x, size_t e, int part)
{
    size_t at = e * (t->cplx ? 2 : 1) + (size_t)part;
    return t->real == 4 ? ((const float *)x)[at] : ((const double *)x)[at];
}

static size_t esize(const type_t *t) { return t->real * (t->cplx ? 2 : 1); }

/* A local array of cnt elements filled from hash id (NaN when nan). */
static void *fill(const type_t *t, int id, size_t cnt, int nan)
{
    void *x = malloc(cnt * esize(t));
    for (size_t e = 0; e < cnt; e++)
        for (int part = 0; part < 1 + t->cplx; part++)
            put(t, x, e, part, nan ? NAN : val(id, e, part));
    return x;
}

/* Local length of n indices in blocks of nb from process src (-1: all)
 * on process me of np. */
static int numroc(int n, int nb, int me_, int src, int np)
{
    if (src < 0) return n;
    int cnt = 0;
    for (int x = 0, blk = 0; x < n; x += nb, blk++)
        if ((src + blk) % np == me_) cnt += n - x < nb ? n - x : nb;
    return cnt;
}

/* ------------------------------------------------------- local calls */

typedef struct mat {
    int desc[9], mloc, nloc;
    size_t cnt;
} mat_t;

static void mat(mat_t *x, int ctxt, int M, int N, int mb, int nb, int rs,
                int cs, int P, int Q, int r, int c)
{
    x->mloc = numroc(M, mb, r, rs, P);
    x->nloc = numroc(N, nb, c, cs, Q);
    int lld = (x->mloc > 1 ? x->mloc : 1) + 3;
    int d[9] = {1, ctxt, M, N, mb, nb, rs, cs, lld};
    memcpy(x->desc, d, sizeof d);
    x->cnt = (size_t)lld * (size_t)(x->nloc > 0 ? x->nloc : 1);
}

/*
 * One call of pumma and of ScaLAPACK on the same data; sub(A) at (ia, ja)
 * etc. of matrices with blocks mb x nb from sources (rs, cs) (per operand:
 * src[0..5] = A's rs, cs, B's, C's). expect_local: the plan must be
 * "algo=local" with no temporary (1), must not be local (0), or is not
 * made (2: ALPHA = 0) but no temporary is held either.
 */
static void one_call(const type_t *t, int ctxt, int P, int Q, int r, int c,
                     char ta, char tb, int m, int n, int k, int ia, int ja,
                     int ib, int jb, int ic, int jc, int mb, int nb,
                     const int src[6], const double al[2], const double be[2],
                     int expect_local)
{
    const int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
    const int br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
    mat_t A, B, C;
    mat(&A, ctxt, ia - 1 + ar + 2, ja - 1 + ac + 1, mb, nb, src[0], src[1],
        P, Q, r, c);
    mat(&B, ctxt, ib - 1 + br + 1, jb - 1 + bc + 2, mb, nb, src[2], src[3],
        P, Q, r, c);
    mat(&C, ctxt, ic - 1 + m + 1, jc - 1 + n + 1, mb, nb, src[4], src[5], P,
        Q, r, c);
    const int nan = be[0] == 0 && be[1] == 0;
    void *a = fill(t, 1, A.cnt, 0), *b = fill(t, 2, B.cnt, 0);
    void *c1 = fill(t, 3, C.cnt, nan), *c2 = fill(t, 3, C.cnt, nan);
    float fal[2] = {(float)al[0], (float)al[1]}, fbe[2] = {(float)be[0], (float)be[1]};
    const void *alpha = t->real == 4 ? (const void *)fal : (const void *)al;
    const void *beta = t->real == 4 ? (const void *)fbe : (const void *)be;

    pumma_mem_peak(1);
    t->mine(&ta, &tb, &m, &n, &k, alpha, a, &ia, &ja, A.desc, b, &ib, &jb,
            B.desc, beta, c1, &ic, &jc, C.desc);
    size_t peak = pumma_mem_peak(1);
    t->sl(&ta, &tb, &m, &n, &k, alpha, a, &ia, &ja, A.desc, b, &ib, &jb,
          B.desc, beta, c2, &ic, &jc, C.desc);
    const char *plan = pumma_last_plan();
    const int local = strncmp(plan, "algo=local ", 11) == 0;
    char what[160];
    snprintf(what, sizeof what, "%c grid %dx%d %c%c m=%d n=%d k=%d ia=%d ja=%d "
             "ib=%d jb=%d ic=%d jc=%d", t->letter, P, Q, ta, tb, m, n, k, ia,
             ja, ib, jb, ic, jc);
    if (expect_local == 1 && !local)
        fail("%s: plan \"%s\", not local", what, plan);
    if (!expect_local && local) fail("%s: planned local", what);
    if (expect_local && peak != 0)
        fail("%s: %zu bytes of temporaries, want none", what, peak);
    /* |error| <= 8 (k+2) eps (|alpha| k + |beta|) |entries| <= 2 (complex). */
    const double tol = 16.0 * (k + 2) * t->eps *
                       ((fabs(al[0]) + fabs(al[1])) * k + fabs(be[0]) + fabs(be[1]) + 1);
    double worst = 0;
    for (size_t e = 0; e < C.cnt; e++)
        for (int part = 0; part < 1 + t->cplx; part++) {
            double x = get(t, c1, e, part), y = get(t, c2, e, part);
            double d = isnan(x) != isnan(y) ? INFINITY
                       : isnan(x) ? 0 : fabs(x - y);
            if (d > worst) worst = d;
        }
    if (!(worst <= tol)) fail("%s: differs from ScaLAPACK by %g", what, worst);
    free(a); free(b); free(c1); free(c2);
}

static void test_one_process(void)
{
    const char tr[] = "NTC";
    int ctxt, P, Q, r, c;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 1);
    Cblacs_gridinfo(ctxt, &P, &Q, &r, &c);
    static const double scal[][2] = {{1, 0}, {-1.5, 0.25}, {0.75, -1}, {0, 0}};
    /* rep 0-3: BETA 1, -1.5+.25i, .75-i (ALPHA the one before), 0 with NaN
     * in C; rep 3 also large sizes; rep 4: ALPHA = 0, BETA 0 or not. */
    const int src[6] = {0, 0, 0, 0, 0, 0};
    for (int ti = 0; ti < 4 && P > 0; ti++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                for (int rep = 0; rep < 5; rep++) {
                    const type_t *t = &types[ti];
                    int big = rep == 3;
                    int m = rnd(1, big ? 130 : 9), n = rnd(1, big ? 130 : 9),
                        k = rnd(1, big ? 130 : 9);
                    double al[2] = {scal[rep % 3][0], t->cplx ? scal[rep % 3][1] : 0};
                    double be[2] = {scal[(rep + 1) % 4][0],
                                    t->cplx ? scal[(rep + 1) % 4][1] : 0};
                    if (rep == 4) al[0] = al[1] = 0;
                    one_call(t, ctxt, 1, 1, r, c, tr[i], tr[j], m, n, k,
                             rnd(1, 4), rnd(1, 4), rnd(1, 4), rnd(1, 4),
                             rnd(1, 4), rnd(1, 4), rnd(1, 8), rnd(1, 8), src,
                             al, be, rep == 4 ? 2 : 1);
                }
    if (P > 0) Cblacs_gridexit(ctxt);
    group_end("1x1 grid: every TRANSA/TRANSB in S/D/C/Z as ScaLAPACK, "
              "one local multiply, no temporary");
}

static void test_two_processes(void)
{
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2) {
        if (me == 0) printf("(local calls on 1x2 and 2x1 need 2 processes)\n");
        return;
    }
    const int grids[2][2] = {{1, 2}, {2, 1}};
    for (int gi = 0; gi < 2; gi++) {
        int ctxt, P, Q, r, c;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", grids[gi][0], grids[gi][1]);
        Cblacs_gridinfo(ctxt, &P, &Q, &r, &c);
        for (int ti = 0; ti < 4 && P > 0; ti++) {
            const type_t *t = &types[ti];
            const double al[2] = {0.5, t->cplx ? -1 : 0}, be[2] = {1.25, 0};
            /* Everything inside the first block of 64: on process (0, 0). */
            const int own[6] = {0, 0, 0, 0, 0, 0};
            one_call(t, ctxt, P, Q, r, c, 'T', 'C', 9, 11, 7, 2, 3, 1, 4, 5,
                     2, 64, 64, own, al, be, 1);
            /* Inside the second block: on the other process. */
            one_call(t, ctxt, P, Q, r, c, 'N', 'T', 9, 11, 7, 67, 70, 66, 65,
                     68, 69, 64, 64, own, al, be, 1);
            /* Operands replicated (-1), C on one process; then C
             * replicated too: every process computes all of it. */
            const int rep[6] = {-1, -1, -1, -1, 0, 0};
            one_call(t, ctxt, P, Q, r, c, 'C', 'N', 30, 20, 40, 3, 1, 2, 2, 1,
                     1, 64, 64, rep, al, be, 1);
            const int all[6] = {-1, -1, -1, -1, -1, -1};
            one_call(t, ctxt, P, Q, r, c, 'T', 'T', 30, 20, 40, 3, 1, 2, 2, 1,
                     1, 4, 4, all, al, be, 1);
            /* Spread over both processes: not local. */
            one_call(t, ctxt, P, Q, r, c, 'N', 'N', 30, 20, 40, 1, 1, 1, 1, 1,
                     1, 4, 4, own, al, be, 0);
        }
        if (P > 0) Cblacs_gridexit(ctxt);
    }
    group_end("1x2 and 2x1 grids: products local to sub(C)'s holders run "
              "locally, others do not");
}

/* --------------------------------------------------------- large LDC */

/* C (M x N, leading dimension ldc, in a mapping of virtual memory) :=
 * alpha*op(A)*op(B) + beta*C by pumma on a 1x1 grid, against a product
 * computed here; rows M..M+1 of every column must stay untouched. */
static void ldc_case(const type_t *t, int ctxt, char ta, char tb, int ldc,
                     int M, int N, int K)
{
    const size_t es = esize(t);
    const size_t bytes = (size_t)ldc * (size_t)N * es;
    char *c = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (c == MAP_FAILED) {
        fail("%c ldc=%d: cannot map %zu bytes of virtual memory", t->letter,
             ldc, bytes);
        return;
    }
    const int ar = ta == 'N' ? M : K, ac = ta == 'N' ? K : M;
    const int br = tb == 'N' ? K : N, bc = tb == 'N' ? N : K;
    void *a = fill(t, 4, (size_t)ar * ac, 0), *b = fill(t, 5, (size_t)br * bc, 0);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M + 2; i++)
            put(t, c, (size_t)i + (size_t)j * ldc, 0, i < M ? val(6, i + 100 * j, 0) : 7);
    const double al = 1.5, be = -0.5;
    const float fal = 1.5f, fbe = -0.5f;
    const void *alpha = t->real == 4 ? (const void *)&fal : (const void *)&al;
    const void *beta = t->real == 4 ? (const void *)&fbe : (const void *)&be;
    int one = 1, lda = ar, ldb = br;
    int da[9] = {1, ctxt, ar, ac, 8, 8, 0, 0, lda};
    int db[9] = {1, ctxt, br, bc, 8, 8, 0, 0, ldb};
    int dc[9] = {1, ctxt, M + 2, N, 8, 8, 0, 0, ldc};
    t->mine(&ta, &tb, &M, &N, &K, alpha, a, &one, &one, da, b, &one, &one, db,
            beta, c, &one, &one, dc);
    double worst = 0;
    int strays = 0;
    for (int j = 0; j < N; j++) {
        for (int i = 0; i < M; i++) {
            double s = be * val(6, i + 100 * j, 0);
            for (int l = 0; l < K; l++) {
                double x = ta == 'N' ? get(t, a, (size_t)i + (size_t)l * lda, 0)
                                     : get(t, a, (size_t)l + (size_t)i * lda, 0);
                double y = tb == 'N' ? get(t, b, (size_t)l + (size_t)j * ldb, 0)
                                     : get(t, b, (size_t)j + (size_t)l * ldb, 0);
                s += al * x * y;
            }
            double d = fabs(get(t, c, (size_t)i + (size_t)j * ldc, 0) - s);
            if (!(d <= worst)) worst = d;
        }
        for (int i = M; i < M + 2; i++)
            if (get(t, c, (size_t)i + (size_t)j * ldc, 0) != 7) strays++;
    }
    if (!(worst <= 16.0 * (K + 2) * t->eps * (1.5 * K + 1)) || strays)
        fail("%c%c %c ldc=%d M=%d N=%d K=%d: error %g, %d entries below "
             "sub(C) changed", ta, tb, t->letter, ldc, M, N, K, worst, strays);
    munmap(c, bytes);
    free(a);
    free(b);
}

static void test_ldc(void)
{
    int ctxt, P, Q, r, c;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 1);
    Cblacs_gridinfo(ctxt, &P, &Q, &r, &c);
    const int at = 143165576;            /* PUMMA_BLAS_LDC_MAX: (2^31-1)/15 */
    for (int ti = 0; ti < 2 && P > 0; ti++) {
        const type_t *t = &types[ti];
        for (int tr = 0; tr < 2; tr++) {
            const char ta = tr ? 'T' : 'N', tb = 'T';
            if (t->letter == 'S') {
                /* 16 columns: 15 * LDC passes 2^31 just above the limit. */
                ldc_case(t, ctxt, ta, tb, at, 33, 16, 17);
                ldc_case(t, ctxt, ta, tb, at + 1, 33, 16, 17);
                ldc_case(t, ctxt, ta, tb, 1 << 28, 13, 9, 8);
            } else {
                /* DGEMM is not affected here, but takes the same path:
                 * 2 columns (2.3 GB of virtual memory) show it is right. */
                ldc_case(t, ctxt, ta, tb, at + 1, 33, 2, 17);
            }
        }
    }
    if (P > 0) Cblacs_gridexit(ctxt);
    group_end("LDC at and above (2^31-1)/15: S and D, NT and TT, right "
              "(OpenBLAS 0.3.21's SGEMM crashes there)");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np;
    Cblacs_pinfo(&me, &np);
    void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
    for (int i = 0; i < 4; i++) {
        types[i].sl = h ? (gemm_fn *)dlsym(h, types[i].sl_name) : NULL;
        if (!types[i].sl || types[i].sl == types[i].mine) {
            if (me == 0) fprintf(stderr, "cannot reach ScaLAPACK's %s\n",
                                 types[i].sl_name);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    test_one_process();
    test_two_processes();
    test_ldc();
    if (me == 0) printf("%d passed, %d failed\n", npass, nfail);
    MPI_Finalize();
    return nfail != 0;
}
