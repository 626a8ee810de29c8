/*
 * pgemmcmp.c -- randomized comparison of pumma's PDGEMM/PZGEMM with
 * ScaLAPACK's own, on the same local data, over many random legal calls:
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

static void make(mat_t *x, int id, int cplx, int M, int N, int ctxt, int P,
                 int Q, int me_r, int me_c, int nine)
{
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
    size_t es = cplx ? 16 : 8, cnt = (size_t)lld * (x->nloc > 0 ? x->nloc : 1);
    x->data = malloc(cnt * es);
    for (size_t e = 0; e < cnt; e++) {
        if (cplx) ((double complex *)x->data)[e] = 7.0;
        else ((double *)x->data)[e] = 7.0;
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int ro, li, co, lj;
            locate(i, imb, mb, rs, P, me_r, &ro, &li);
            locate(j, inb, nb, cs, Q, me_c, &co, &lj);
            if (ro != me_r || co != me_c) continue;
            size_t at = (size_t)li + (size_t)lj * lld;
            if (cplx)
                ((double complex *)x->data)[at] =
                    val(id, i, j, 0) + I * val(id, i, j, 1);
            else
                ((double *)x->data)[at] = val(id, i, j, 0);
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int ncases = argc > 1 ? atoi(argv[1]) : 200;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], 0, 10) : 1;
    int me, np;
    Cblacs_pinfo(&me, &np);
#ifdef PUMMA_SMPI
    extern gemm_fn pumma_scalapack_pdgemm_, pumma_scalapack_pzgemm_;
    gemm_fn *sl_d = pumma_scalapack_pdgemm_, *sl_z = pumma_scalapack_pzgemm_;
#else
    void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
    gemm_fn *sl_d = h ? (gemm_fn *)dlsym(h, "pdgemm_") : NULL;
    gemm_fn *sl_z = h ? (gemm_fn *)dlsym(h, "pzgemm_") : NULL;
#endif
    if (!sl_d || !sl_z || (void *)sl_d == (void *)pdgemm_) {
        if (me == 0) fprintf(stderr, "cannot reach ScaLAPACK's PDGEMM\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    static const int grids[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3},
                                   {3, 1}, {2, 3}, {3, 2}};
    int passed = 0, failed = 0;
    for (int gi = 0; gi < 8; gi++) {
        int P = grids[gi][0], Q = grids[gi][1];
        if (P * Q > np) continue;
        for (int cplx = 0; cplx < 2; cplx++) {
            int ctxt, nprow, npcol, me_r, me_c, bad = 0;
            double worst = 0;
            Cblacs_get(-1, 0, &ctxt);
            Cblacs_gridinit(&ctxt, "Row", P, Q);
            Cblacs_gridinfo(ctxt, &nprow, &npcol, &me_r, &me_c);
            rng = seed * 7919 + (unsigned long long)gi * 31 + cplx;
            for (int cs = 0; cs < ncases && nprow > 0; cs++) {
                const char *T = cplx ? "NTC" : "NTC";
                char ta = T[rnd(0, 2)], tb = T[rnd(0, 2)];
                int big = rnd(0, 9) == 0;
                int m = rnd(0, big ? 60 : 13), n = rnd(0, big ? 60 : 13),
                    k = rnd(0, big ? 60 : 13);
                if (rnd(0, 15) == 0) m = 0;
                int ia = rnd(1, 9), ja = rnd(1, 9), ib = rnd(1, 9),
                    jb = rnd(1, 9), ic = rnd(1, 9), jc = rnd(1, 9);
                int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
                int br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
                int nine = rnd(0, 2) == 0;
                mat_t A, B, C1, C2;
                make(&A, 1, cplx, ia - 1 + ar + rnd(0, 3) + 1,
                     ja - 1 + ac + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                make(&B, 2, cplx, ib - 1 + br + rnd(0, 3) + 1,
                     jb - 1 + bc + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                unsigned long long save = rng;
                make(&C1, 3, cplx, ic - 1 + m + rnd(0, 3) + 1,
                     jc - 1 + n + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                rng = save;
                make(&C2, 3, cplx, ic - 1 + m + rnd(0, 3) + 1,
                     jc - 1 + n + rnd(0, 3) + 1, ctxt, P, Q, me_r, me_c,
                     nine);
                static const double choice[] = {0.0, 1.0, -1.5, 0.75};
                double al[2] = {choice[rnd(0, 3)], cplx ? choice[rnd(0, 3)] : 0};
                double be[2] = {choice[rnd(0, 3)], cplx ? choice[rnd(0, 3)] : 0};
                /* BETA = 0: C need not be set on input (PBLAS), so NaN in
                 * it must not reach the result; half of such calls. */
                if (be[0] == 0 && be[1] == 0 && rnd(0, 1)) {
                    const int ld = nine ? C1.desc[8] : C1.desc[10];
                    const size_t len = (size_t)ld * (C1.nloc > 0 ? C1.nloc : 1) *
                                       (cplx ? 2 : 1);
                    for (size_t e = 0; e < len; e++)
                        ((double *)C1.data)[e] = ((double *)C2.data)[e] = NAN;
                }
                pumma_options_t op = {
                    algo_codes[rnd(0, NCODES(algo_codes) - 1)],
                    bcast_codes[rnd(0, NCODES(bcast_codes) - 1)],
                    reduce_codes[rnd(0, NCODES(reduce_codes) - 1)],
                    shift_codes[rnd(0, NCODES(shift_codes) - 1)],
                    rnd(0, 2) * 64,
                    PUMMA_TOPO_AUTO};   /* block-cyclic: topology unused */
                int use_opts = cs % 2, info = 0;
                if (use_opts && cplx)
                    pumma_pzgemm_opts(&ta, &tb, &m, &n, &k, al, A.data, &ia,
                                      &ja, A.desc, B.data, &ib, &jb, B.desc,
                                      be, C1.data, &ic, &jc, C1.desc, &op,
                                      &info);
                else if (use_opts)
                    pumma_pdgemm_opts(&ta, &tb, &m, &n, &k, al, A.data, &ia,
                                      &ja, A.desc, B.data, &ib, &jb, B.desc,
                                      be, C1.data, &ic, &jc, C1.desc, &op,
                                      &info);
                if (info != 0) {
                    fprintf(stderr, "rank %d: options %d %d %d %d %d: INFO %d\n",
                            me, op.algo, op.bcast, op.reduce, op.shift,
                            op.segment, info);
                    bad++;
                }
                if (!use_opts && cplx)
                    pzgemm_(&ta, &tb, &m, &n, &k, al, A.data, &ia, &ja, A.desc,
                            B.data, &ib, &jb, B.desc, be, C1.data, &ic, &jc,
                            C1.desc);
                else if (!use_opts)
                    pdgemm_(&ta, &tb, &m, &n, &k, al, A.data, &ia, &ja, A.desc,
                            B.data, &ib, &jb, B.desc, be, C1.data, &ic, &jc,
                            C1.desc);
                (cplx ? sl_z : sl_d)(&ta, &tb, &m, &n, &k, al, A.data, &ia,
                                     &ja, A.desc, B.data, &ib, &jb, B.desc, be,
                                     C2.data, &ic, &jc, C2.desc);
                int lld = nine ? C1.desc[8] : C1.desc[10];
                size_t cnt = (size_t)lld * (C1.nloc > 0 ? C1.nloc : 1);
                double err = 0;
                for (size_t e = 0; e < cnt * (cplx ? 2 : 1); e++) {
                    double x = ((double *)C1.data)[e], y = ((double *)C2.data)[e];
                    double d = fabs(x - y);
                    if (isnan(x) != isnan(y)) d = 1e300;
                    if (d > err) err = d;
                }
                if (err > 1e-12 * (k + 1)) {
                    if (!bad)
                        fprintf(stderr,
                                "rank %d grid %dx%d %c case %d: %c%c m=%d n=%d "
                                "k=%d ia=%d ja=%d ib=%d jb=%d ic=%d jc=%d "
                                "err=%g\n",
                                me, P, Q, cplx ? 'Z' : 'D', cs, ta, tb, m, n,
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
            if (gi == 1 && !cplx && nprow > 0) {
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
                       totbad ? "FAILED" : "PASSED", cplx ? 'Z' : 'D', P, Q,
                       ncases);
            if (totbad) failed++; else passed++;
        }
    }
    if (me == 0) printf("%d passed, %d failed\n", passed, failed);
    MPI_Finalize();
    return failed != 0;
}
