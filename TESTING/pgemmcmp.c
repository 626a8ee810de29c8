/*
 * pgemmcmp.c -- randomized comparison of pumma's PSGEMM, PDGEMM, PCGEMM
 * and PZGEMM with ScaLAPACK's own, on the same local data, over many random legal calls:
 * sizes (including 0 and 1), offsets off block boundaries, IMB != MB,
 * different block sizes and sources per operand (replicated -1 too), all
 * TRANSA/TRANSB, alpha/beta edge values (BETA = 0 with NaN in C).
 *
 *   mpiexec -n NP ./xpgemmcmp NCASES SEED
 *
 * ScaLAPACK's PDGEMM is reached with dlopen/dlsym on its library, which
 * returns its own definition even though pumma's pdgemm_ is linked in
 * (under SMPI, PUMMA_SMPI: by the name `make smpi` gives it).
 * Every other call goes through pumma_p?gemm_opts with options drawn at
 * random from every algorithm and communication variant pumma lists
 * (pumma_codes.h), so each variant meets the same random calls; invalid
 * option codes must come back as INFO -20..-24. pumma_use(0) must pass a
 * call to ScaLAPACK's own PDGEMM, counted by pumma_calls.
 * One PASSED/FAILED line per grid and precision; `N passed, N failed` last.
 */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "blacs.h"
#include "testmat.h"

#define CODE(N, v, s) v,
static const int algo_codes[] = {PUMMA_ALGO_LIST(CODE)};
static const int bcast_codes[] = {PUMMA_BCAST_LIST(CODE)};
static const int reduce_codes[] = {PUMMA_REDUCE_LIST(CODE)};
static const int shift_codes[] = {PUMMA_SHIFT_LIST(CODE)};
#define NCODES(a) ((int)(sizeof a / sizeof *a))

typedef struct mat {
    int desc[11], mloc, nloc;
    void *data;
} mat_t;

/* Element `at` of a local array of type ty (0..3: S D C Z) := re + i im. */
static void put(void *data, size_t at, int ty, double re, double im)
{
    switch (ty) {
    case 0: ((float *)data)[at] = (float)re; break;
    case 1: ((double *)data)[at] = re; break;
    case 2: ((float complex *)data)[at] = (float)re + I * (float)im; break;
    default: ((double complex *)data)[at] = re + I * im; break;
    }
}

/* Real part e of a local array of type ty (two per complex element). */
static double part(const void *data, size_t e, int ty)
{
    return ty % 2 ? ((const double *)data)[e] : ((const float *)data)[e];
}

static void make(mat_t *x, int id, int ty, int M, int N, int ctxt, int P,
                 int Q, int me_r, int me_c, int nine)
{
    const int cplx = ty >= 2;
    int imb = rnd(1, 6), mb = rnd(1, 6), inb = rnd(1, 6), nb = rnd(1, 6);
    int rs = rnd(-1, P - 1), cs = rnd(-1, Q - 1);
    if (rnd(0, 3) == 0) rs = rnd(0, P - 1);
    if (nine) { imb = mb; inb = nb; }
    x->mloc = lcount(M, imb, mb, rs, me_r, P);
    x->nloc = lcount(N, inb, nb, cs, me_c, Q);
    int lld = (x->mloc > 1 ? x->mloc : 1) + rnd(0, 2);
    int d[11] = {2, ctxt, M, N, imb, inb, mb, nb, rs, cs, lld};
    if (nine) {
        int d9[9] = {1, ctxt, M, N, mb, nb, rs, cs, lld};
        memset(x->desc, 0, sizeof x->desc);
        memcpy(x->desc, d9, sizeof d9);
    } else {
        memcpy(x->desc, d, sizeof d);
    }
    size_t es = (ty % 2 ? 8 : 4) * (cplx ? 2 : 1),
           cnt = (size_t)lld * (x->nloc > 0 ? x->nloc : 1);
    x->data = malloc(cnt * es);
    for (size_t e = 0; e < cnt; e++) put(x->data, e, ty, 7.0, 0);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int ro, li, co, lj;
            locate(i, imb, mb, rs, P, me_r, &ro, &li);
            locate(j, inb, nb, cs, Q, me_c, &co, &lj);
            if (ro != me_r || co != me_c) continue;
            put(x->data, (size_t)li + (size_t)lj * lld, ty, val(id, i, j, 0),
                cplx ? val(id, i, j, 1) : 0);
        }
}

/* C := alpha op(A) op(B) + beta C of type ty (0..3: S D C Z): ScaLAPACK's
 * (sl), or pumma's P?GEMM, or pumma_p?gemm_opts when op (INFO in info).
 * al and be: real and imaginary parts. */
static void gemm_of(int ty, gemm_fn *sl, const pumma_options_t *op,
                    int *info, char ta, char tb, int m, int n, int k,
                    const double *al, const mat_t *A, int ia, int ja,
                    const mat_t *B, int ib, int jb, const double *be,
                    mat_t *C, int ic, int jc)
{
    const float alf[2] = {(float)al[0], (float)al[1]},
                bef[2] = {(float)be[0], (float)be[1]};
    const void *a = ty % 2 ? (const void *)al : alf,
               *b = ty % 2 ? (const void *)be : bef;
#define GEMM_ARGS(T)                                                        \
    &ta, &tb, &m, &n, &k, (const T *)a, (const T *)A->data, &ia, &ja,       \
        A->desc, (const T *)B->data, &ib, &jb, B->desc, (const T *)b,       \
        (T *)C->data, &ic, &jc, C->desc
    if (sl) {
        sl(GEMM_ARGS(void));
    } else if (op) {
        switch (ty) {
        case 0: pumma_psgemm_opts(GEMM_ARGS(float), op, info); break;
        case 1: pumma_pdgemm_opts(GEMM_ARGS(double), op, info); break;
        case 2: pumma_pcgemm_opts(GEMM_ARGS(float), op, info); break;
        default: pumma_pzgemm_opts(GEMM_ARGS(double), op, info); break;
        }
    } else {
        switch (ty) {
        case 0: psgemm_(GEMM_ARGS(float)); break;
        case 1: pdgemm_(GEMM_ARGS(double)); break;
        case 2: pcgemm_(GEMM_ARGS(float)); break;
        default: pzgemm_(GEMM_ARGS(double)); break;
        }
    }
#undef GEMM_ARGS
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int ncases = argc > 1 ? atoi(argv[1]) : 200;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], 0, 10) : 1;
    int me, np;
    Cblacs_pinfo(&me, &np);
    /* ScaLAPACK's P?GEMM, S D C Z */
    gemm_fn *sl[4];
#ifdef PUMMA_SMPI
    extern gemm_fn pumma_scalapack_psgemm_, pumma_scalapack_pdgemm_,
        pumma_scalapack_pcgemm_, pumma_scalapack_pzgemm_;
    sl[0] = pumma_scalapack_psgemm_;
    sl[1] = pumma_scalapack_pdgemm_;
    sl[2] = pumma_scalapack_pcgemm_;
    sl[3] = pumma_scalapack_pzgemm_;
#else
    void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
    static const char *const slname[4] = {"psgemm_", "pdgemm_", "pcgemm_",
                                          "pzgemm_"};
    for (int t = 0; t < 4; t++)
        sl[t] = h ? (gemm_fn *)dlsym(h, slname[t]) : NULL;
#endif
    if (!sl[0] || !sl[1] || !sl[2] || !sl[3] ||
        (void *)sl[1] == (void *)pdgemm_) {
        if (me == 0) fprintf(stderr, "cannot reach ScaLAPACK's P?GEMM\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* the grids as many processes allow (4x4 and up under SMPI); 1x5,
     * 5x1, 3x3 and 3x5 do not divide into layers evenly (split and
     * layers leave processes idle on them) */
    static const int grids[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3},
                                   {3, 1}, {2, 3}, {3, 2}, {1, 5}, {5, 1},
                                   {3, 3}, {4, 4}, {2, 8}, {8, 2}, {3, 5},
                                   {8, 8}, {16, 16}};
    int passed = 0, failed = 0;
    for (int gi = 0; gi < (int)(sizeof grids / sizeof *grids); gi++) {
        int P = grids[gi][0], Q = grids[gi][1];
        if (P * Q > np) continue;
        for (int ty = 0; ty < 4; ty++) {
            const int cplx = ty >= 2;
            int ctxt, nprow, npcol, me_r, me_c, bad = 0;
            double worst = 0;
            Cblacs_get(-1, 0, &ctxt);
            Cblacs_gridinit(&ctxt, "Row", P, Q);
            Cblacs_gridinfo(ctxt, &nprow, &npcol, &me_r, &me_c);
            rng = seed * 7919 + (unsigned long long)gi * 31 + (unsigned)ty;
            for (int cs = 0; cs < ncases && nprow > 0; cs++) {
                const char *T = "NTC";
                char ta = T[rnd(0, 2)], tb = T[rnd(0, 2)];
                int big = rnd(0, 9) == 0;
                int m = rnd(0, big ? 60 : 13), n = rnd(0, big ? 60 : 13),
                    k = rnd(0, big ? 60 : 13);
                if (rnd(0, 15) == 0) m = 0;
                /* now and then a deep inner dimension (no draw of its own,
                 * so the other calls stay as they were): the pipelines that
                 * cut K into chunks (stat-a/stat-b: 128 local indices a
                 * chunk at least) take more than one */
                if (big && m < 20) k = 20 * k + m;
                int ia = rnd(1, 9), ja = rnd(1, 9), ib = rnd(1, 9),
                    jb = rnd(1, 9), ic = rnd(1, 9), jc = rnd(1, 9);
                int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
                int br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
                int nine = rnd(0, 2) == 0;
                mat_t A, B, C1, C2;
                make(&A, 1, ty, ia - 1 + ar + rnd(0, 3) + 1,
                     ja - 1 + ac + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                make(&B, 2, ty, ib - 1 + br + rnd(0, 3) + 1,
                     jb - 1 + bc + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                unsigned long long save = rng;
                make(&C1, 3, ty, ic - 1 + m + rnd(0, 3) + 1,
                     jc - 1 + n + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                rng = save;
                make(&C2, 3, ty, ic - 1 + m + rnd(0, 3) + 1,
                     jc - 1 + n + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                static const double choice[] = {0.0, 1.0, -1.5, 0.75};
                double al[2] = {choice[rnd(0, 3)], cplx ? choice[rnd(0, 3)] : 0};
                double be[2] = {choice[rnd(0, 3)], cplx ? choice[rnd(0, 3)] : 0};
                /* BETA = 0: C need not be set on input (PBLAS), so NaN in
                 * it must not reach the result; half of such calls. */
                if (be[0] == 0 && be[1] == 0 && rnd(0, 1)) {
                    const int ld = nine ? C1.desc[8] : C1.desc[10];
                    const size_t len = (size_t)ld * (C1.nloc > 0 ? C1.nloc : 1);
                    for (size_t e = 0; e < len; e++) {
                        put(C1.data, e, ty, NAN, NAN);
                        put(C2.data, e, ty, NAN, NAN);
                    }
                }
                pumma_options_t op = {
                    algo_codes[rnd(0, NCODES(algo_codes) - 1)],
                    bcast_codes[rnd(0, NCODES(bcast_codes) - 1)],
                    reduce_codes[rnd(0, NCODES(reduce_codes) - 1)],
                    shift_codes[rnd(0, NCODES(shift_codes) - 1)],
                    rnd(0, 2) * 64,
                    PUMMA_TOPO_AUTO};   /* block-cyclic: topology unused */
                int use_opts = cs % 2, info = 0;
                gemm_of(ty, NULL, use_opts ? &op : NULL, &info, ta, tb, m, n,
                        k, al, &A, ia, ja, &B, ib, jb, be, &C1, ic, jc);
                if (info != 0) {
                    fprintf(stderr, "rank %d: options %d %d %d %d %d: INFO %d\n",
                            me, op.algo, op.bcast, op.reduce, op.shift,
                            op.segment, info);
                    bad++;
                }
                gemm_of(ty, sl[ty], NULL, NULL, ta, tb, m, n, k, al, &A, ia, ja,
                        &B, ib, jb, be, &C2, ic, jc);
                int lld = nine ? C1.desc[8] : C1.desc[10];
                size_t cnt = (size_t)lld * (C1.nloc > 0 ? C1.nloc : 1);
                double err = 0;
                for (size_t e = 0; e < cnt * (cplx ? 2 : 1); e++) {
                    double x = part(C1.data, e, ty), y = part(C2.data, e, ty);
                    double d = fabs(x - y);
                    if (isnan(x) != isnan(y)) d = 1e300;
                    if (d > err) err = d;
                }
                /* the two sum in other orders: a few units of the last
                 * place per term (entries and products within 1) */
                if (err > (ty % 2 ? 1e-12 : 2e-5) * (k + 1)) {
                    if (!bad)
                        fprintf(stderr,
                                "rank %d grid %dx%d %c case %d: %c%c m=%d n=%d "
                                "k=%d ia=%d ja=%d ib=%d jb=%d ic=%d jc=%d "
                                "err=%g\n",
                                me, P, Q, "SDCZ"[ty], cs, ta, tb, m, n,
                                k, ia, ja, ib, jb, ic, jc, err);
                    bad++;
                }
                if (err > worst) worst = err;
                free(A.data); free(B.data); free(C1.data); free(C2.data);
            }
            /* Invalid option codes: INFO, nothing computed, no abort. */
            for (int e = 0; e < 6 && nprow > 0; e++) {
                pumma_options_t op = {0};
                int *f = e == 0 ? &op.algo : e == 1 ? &op.bcast
                         : e == 2 ? &op.reduce : e == 3 ? &op.shift
                         : e == 4 ? &op.segment : &op.topo;
                *f = e == 4 ? -1 : 9999;
                int one = 1, desc[9] = {1, ctxt, 1, 1, 1, 1, 0, 0, 1}, info;
                double x = 1, y = 2, z = 3, al = 1, be = 1;
                pumma_pdgemm_opts("N", "N", &one, &one, &one, &al, &x, &one,
                                  &one, desc, &y, &one, &one, desc, &be, &z,
                                  &one, &one, desc, &op, &info);
                if (info != -20 - e || z != 3) {
                    fprintf(stderr, "rank %d: bad option %d gave INFO %d\n",
                            me, e, info);
                    bad++;
                }
            }
            /* The Fortran form, PUMMA_PDGEMM(..., ALGO, BCAST, INFO), as a
             * Fortran caller reaches it: every argument by address. */
            for (int e = 0; e < 3 && nprow > 0; e++) {
                int one = 1, desc[9] = {1, ctxt, 1, 1, 1, 1, 0, 0, 1}, info;
                int algo = e == 1 ? 9999 : PUMMA_ALGO_MDB2_ROW;
                int bcast = e == 2 ? -5 : PUMMA_BCAST_MST;
                double x = 2, y = 3, z = 5, al = 1, be = 1;
                PUMMA_F77(pumma_pdgemm, PUMMA_PDGEMM)(
                    "N", "N", &one, &one, &one, &al, &x, &one, &one, desc, &y,
                    &one, &one, desc, &be, &z, &one, &one, desc, &algo,
                    &bcast, &info);
                int want_info = e == 0 ? 0 : e == 1 ? -20 : -21;
                /* the 1 x 1 matrices live on process (0, 0) only */
                double want_z = e == 0 && me_r == 0 && me_c == 0 ? 11 : 5;
                if (info != want_info || z != want_z) {
                    fprintf(stderr, "rank %d: PUMMA_PDGEMM case %d: INFO %d "
                            "C %g\n", me, e, info, z);
                    bad++;
                }
            }
            /* pumma_use(0): the plain entry point passes the call to
             * ScaLAPACK's own -- C is right, pumma holds no temporary
             * (pumma_mem_peak) and pumma_last_plan keeps the plan of the
             * call before -- and pumma_calls still counts it; pumma_use
             * returns the previous setting. On 1x2, a 2 x 2 x 2 product
             * with one column per process (not local: pumma would move
             * data), C exact. */
            if (gi == 1 && ty == 1 && nprow > 0) {
                int two = 2, one = 1, info;
                int desc[9] = {1, ctxt, 2, 2, 2, 1, 0, 0, 2};
                /* global A = [1 3; 2 4], B = [5 7; 6 8]: column me_c */
                double x[2] = {1 + 2 * me_c, 2 + 2 * me_c},
                       y[2] = {5 + 2 * me_c, 6 + 2 * me_c}, z[2] = {0, 0};
                double al = 1, be = 0;
                pumma_options_t op = {PUMMA_ALGO_SDB_ROW, 0, 0, 0, 0, 0};
                pumma_pdgemm_opts("N", "N", &two, &two, &two, &al, x, &one,
                                  &one, desc, y, &one, &one, desc, &be, z,
                                  &one, &one, desc, &op, &info);
                char before[128];
                snprintf(before, sizeof before, "%s", pumma_last_plan());
                z[0] = z[1] = 0;
                pumma_calls(1);
                pumma_mem_peak(1);
                int was = pumma_use(0), now = pumma_use(0);
                pdgemm_("N", "N", &two, &two, &two, &al, x, &one, &one, desc,
                        y, &one, &one, desc, &be, z, &one, &one, desc);
                int back = pumma_use(1);
                long n = pumma_calls(0);
                size_t peak = pumma_mem_peak(0);
                /* A*B = [23 31; 34 46]: column me_c */
                const double want0 = me_c ? 31 : 23, want1 = me_c ? 46 : 34;
                if (info || was != 1 || now != 0 || back != 0 || n != 1 ||
                    peak != 0 || z[0] != want0 || z[1] != want1 ||
                    strncmp(before, "algo=sdb-row", 12) ||
                    strcmp(before, pumma_last_plan())) {
                    fprintf(stderr, "rank %d: pumma_use(0): was %d now %d back "
                            "%d calls %ld peak %zu C %g %g plan \"%s\" (before "
                            "\"%s\")\n", me, was, now, back, n, peak, z[0],
                            z[1], pumma_last_plan(), before);
                    bad++;
                }
            }
            if (nprow > 0) Cblacs_gridexit(ctxt);
            int totbad = 0;
            MPI_Allreduce(&bad, &totbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (me == 0)
                printf("%s %c grid %dx%d: %d random calls against ScaLAPACK\n",
                       totbad ? "FAILED" : "PASSED", "SDCZ"[ty], P, Q,
                       ncases);
            if (totbad) failed++; else passed++;
        }
    }
    if (me == 0) printf("%d passed, %d failed\n", passed, failed);
    MPI_Finalize();
    return failed != 0;
}
