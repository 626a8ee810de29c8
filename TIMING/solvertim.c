/*
 * solvertim.c -- ScaLAPACK's own solvers timed with pumma's Level-3 PBLAS
 * and with ScaLAPACK's, alternately in one run: PDGETRF (LU), PDGETRI
 * (the inverse from the LU factors), PDGELS (least squares, QR), PDPOTRF
 * (Cholesky, UPLO L and U), PDPOTRS and PDGETRS (solves from the
 * factors), PDSYGST (the generalized symmetric eigenproblem reduced to
 * standard form, ITYPE 1, UPLO L and U) and PDSYTRD (tridiagonal
 * reduction, UPLO L).
 *
 *   mpiexec -n NP ./xsolvertim [-r R] [-n N] [-b NB,NB..] [-g PxQ,PxQ..]
 *                              [-R ROUTINE,..] [-t N] [-o FILE.csv]
 *
 * The program links pumma (static) and ScaLAPACK: ScaLAPACK's pdgetrf_
 * and the others call pdgemm_, pdtrsm_, pdsyrk_, ... (every Level-3 PBLAS
 * routine pumma serves), which are pumma's; pumma_use(0) passes those
 * calls on to ScaLAPACK's own definitions (pumma.h), pumma_use(1) back.
 * Each routine runs R times each way, the two ways alternating (which
 * goes first alternates too), on the same matrix, after one untimed call
 * each way (a program's first calls: pumma measures its machine model
 * then); the time of a call is the slowest process's, and the median of
 * the R is reported, with the number of Level-3 PBLAS calls the routine
 * made (pumma_calls: every plain entry point pumma serves, P?GEMM and the
 * rest; the column keeps its old name, pdgemm) and the largest difference
 * between the two results relative to the largest entry (both are
 * ScaLAPACK's algorithm with different Level-3 PBLAS summation orders: it
 * must be at rounding level).
 *
 * PDGETRI is timed alone, from the factors of an untimed PDGETRF (run the
 * same way). PDGELS solves an N x N/2 least-squares problem (no
 * transpose) for NB right-hand sides. PDPOTRF factors a symmetric matrix
 * made positive definite by N on its diagonal. PDPOTRS ('L') and PDGETRS
 * ('N') solve for 64 right-hand sides from factors computed once, untimed,
 * by ScaLAPACK's own PDPOTRF and PDGETRF (the same factors both ways).
 * PDSYGST (ITYPE 1) reduces a symmetric A with the Cholesky factor of a
 * symmetric positive definite B, factored once, untimed, by ScaLAPACK's
 * PDPOTRF with the same UPLO. PDSYTRD ('L') reduces a symmetric matrix of
 * order -t (default N/2); its calls of PDSYR2K are pumma's, its PDSYMV and
 * PDGEMV (Level 2) ScaLAPACK's both ways; half its time is those
 * memory-bound Level-2 calls, and at N = 4000 one call takes 15-45 s here,
 * hence the smaller default order.
 *
 * Defaults: R 5, N 4000, -t N/2, NB 64,256, grids 1x2,2x1 (those with P*Q = NP),
 * every routine (-R: a list of the names in the first column, e.g.
 * PDPOTRF-L,PDSYGST-U).
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "timutil.h"

void pdgetrf_(const int *, const int *, double *, const int *, const int *,
              const int *, int *, int *);
void pdgetri_(const int *, double *, const int *, const int *, const int *,
              const int *, double *, const int *, int *, const int *, int *);
void pdgels_(const char *, const int *, const int *, const int *, double *,
             const int *, const int *, const int *, double *, const int *,
             const int *, const int *, double *, const int *, int *);

void pdpotrf_(const char *, const int *, double *, const int *, const int *,
              const int *, int *);
void pdpotrs_(const char *, const int *, const int *, const double *,
              const int *, const int *, const int *, double *, const int *,
              const int *, const int *, int *);
void pdgetrs_(const char *, const int *, const int *, const double *,
              const int *, const int *, const int *, const int *, double *,
              const int *, const int *, const int *, int *);
void pdsygst_(const int *, const char *, const int *, double *, const int *,
              const int *, const int *, const double *, const int *,
              const int *, const int *, double *, int *);
void pdsytrd_(const char *, const int *, double *, const int *, const int *,
              const int *, double *, double *, double *, double *,
              const int *, int *);

enum { GETRF, GETRI, GELS, POTRF_L, POTRF_U, POTRS, GETRS, SYGST_L, SYGST_U,
       SYTRD, NROUT };
static const char *const rname[NROUT] = {
    "PDGETRF", "PDGETRI", "PDGELS", "PDPOTRF-L", "PDPOTRF-U", "PDPOTRS",
    "PDGETRS", "PDSYGST-L", "PDSYGST-U", "PDSYTRD-L"};
enum { NRHS = 64 };    /* PDPOTRS's and PDGETRS's right-hand sides */

static int me, np;

typedef struct mat {
    int desc[9], mloc, nloc, lld;
    double *a;
} mat_t;

static void mat_make(mat_t *x, int ctxt, int m, int n, int nb, int myr,
                     int myc, int P, int Q)
{
    int zero = 0, info;
    x->mloc = numroc_(&m, &nb, &myr, &zero, &P);
    x->nloc = numroc_(&n, &nb, &myc, &zero, &Q);
    x->lld = x->mloc > 1 ? x->mloc : 1;
    descinit_(x->desc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &x->lld, &info);
    x->a = malloc(sizeof(double) * (size_t)x->lld * (x->nloc > 0 ? x->nloc : 1));
}

static double now(void) { return MPI_Wtime(); }

/* This process's part of the symmetric matrix id: entry (i, j) that of
 * (min, max) in tim_entry, plus diag on the diagonal. */
static void fill_sym(mat_t *x, int nb, int myr, int myc, int P, int Q,
                     int id, double diag)
{
    for (int lj = 0; lj < x->nloc; lj++) {
        const int j = (lj / nb * Q + myc) * nb + lj % nb;
        for (int li = 0; li < x->mloc; li++) {
            const int i = (li / nb * P + myr) * nb + li % nb;
            x->a[li + (size_t)lj * x->lld] =
                (i < j ? tim_entry(id, i, j) : tim_entry(id, j, i)) +
                (i == j ? diag : 0);
        }
    }
}

static size_t mat_len(const mat_t *x)
{
    return (size_t)x->lld * (size_t)(x->nloc > 0 ? x->nloc : 1);
}

/* What the routines after PDGELS need besides A and B: the right-hand
 * sides (N x NRHS), a second N x N matrix (PDSYGST's B), the factors
 * computed once (fac: PDPOTRF L's or PDGETRF's with its pivots piv;
 * bfac[0|1]: B's Cholesky factor, L or U), PDSYTRD's outputs. */
typedef struct extra {
    mat_t R, S;
    double *fac, *bfac[2], *d, *e, *tau;
    int *piv, facof;    /* facof: the routine fac was made for (-1: none) */
} extra_t;

static void die_info(const char *what, int info)
{
    if (info != 0) {
        fprintf(stderr, "%s returned INFO = %d on process %d\n", what, info,
                me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* One run of routine r with PDGEMM from pumma (use 1) or ScaLAPACK: its
 * time; the result left in res (A's factors, the inverse, or the
 * solution) and the PDGEMM calls it made in *calls. */
static double run(int r, int use, int n, int nb, int ctxt, int myr, int myc,
                  int P, int Q, mat_t *A, mat_t *B, int *ipiv, extra_t *x,
                  double *res, long *calls)
{
    int one = 1, info = 0, nrhs = NRHS;
    const double diag = r == GETRI ? n / 4.0 : 0; /* a well-conditioned inverse */
    const char *ul = r == POTRF_U || r == SYGST_U ? "U" : "L";
    const int ityp = 1;
    if (r == POTRF_L || r == POTRF_U)           /* positive definite */
        fill_sym(A, nb, myr, myc, P, Q, 1, n);
    else if (r == SYGST_L || r == SYGST_U || r == SYTRD)
        fill_sym(A, nb, myr, myc, P, Q, 1, 0);
    else if (r == POTRS || r == GETRS)          /* the factors */
        memcpy(A->a, x->fac, sizeof(double) * mat_len(A));
    else
        tim_fill(A->a, A->lld, A->mloc, A->nloc, nb, myr, myc, P, Q, 1, diag);
    if (r == GELS)
        tim_fill(B->a, B->lld, B->mloc, B->nloc, nb, myr, myc, P, Q, 2, 0);
    if (r == POTRS || r == GETRS)
        tim_fill(x->R.a, x->R.lld, x->R.mloc, x->R.nloc, nb, myr, myc, P, Q,
                 2, 0);
    if (r == GETRS)
        memcpy(ipiv, x->piv, sizeof(int) * (size_t)(A->mloc + nb));
    if (r == SYGST_L || r == SYGST_U)
        memcpy(x->S.a, x->bfac[r == SYGST_U], sizeof(double) * mat_len(&x->S));
    pumma_use(use);
    double t = 0;
    if (r == POTRF_L || r == POTRF_U) {
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdpotrf_(ul, &n, A->a, &one, &one, A->desc, &info);
        t = tim_slowest(t0);
    } else if (r == POTRS) {
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdpotrs_("L", &n, &nrhs, A->a, &one, &one, A->desc, x->R.a, &one,
                 &one, x->R.desc, &info);
        t = tim_slowest(t0);
    } else if (r == GETRS) {
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdgetrs_("N", &n, &nrhs, A->a, &one, &one, A->desc, ipiv, x->R.a,
                 &one, &one, x->R.desc, &info);
        t = tim_slowest(t0);
    } else if (r == SYGST_L || r == SYGST_U) {
        double scale;
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdsygst_(&ityp, ul, &n, A->a, &one, &one, A->desc, x->S.a, &one,
                 &one, x->S.desc, &scale, &info);
        t = tim_slowest(t0);
    } else if (r == SYTRD) {
        double wq;
        int mone = -1;
        pdsytrd_("L", &n, A->a, &one, &one, A->desc, x->d, x->e, x->tau, &wq,
                 &mone, &info);
        int lwork = (int)wq + 1;
        double *work = malloc(sizeof(double) * (size_t)lwork);
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdsytrd_("L", &n, A->a, &one, &one, A->desc, x->d, x->e, x->tau, work,
                 &lwork, &info);
        t = tim_slowest(t0);
        free(work);
    } else if (r == GETRF) {
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdgetrf_(&n, &n, A->a, &one, &one, A->desc, ipiv, &info);
        t = tim_slowest(t0);
    } else if (r == GETRI) {
        pdgetrf_(&n, &n, A->a, &one, &one, A->desc, ipiv, &info);
        double wq;
        int iwq, mone = -1;
        pdgetri_(&n, A->a, &one, &one, A->desc, ipiv, &wq, &mone, &iwq, &mone,
                 &info);
        int lwork = (int)wq + 1, liwork = iwq + 1;
        double *work = malloc(sizeof(double) * (size_t)lwork);
        int *iwork = malloc(sizeof(int) * (size_t)liwork);
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdgetri_(&n, A->a, &one, &one, A->desc, ipiv, work, &lwork, iwork,
                 &liwork, &info);
        t = tim_slowest(t0);
        free(work);
        free(iwork);
    } else {
        const int nc = n / 2, nrhs = B->desc[3];
        double wq;
        int mone = -1;
        pdgels_("N", &n, &nc, &nrhs, A->a, &one, &one, A->desc, B->a, &one,
                &one, B->desc, &wq, &mone, &info);
        int lwork = (int)wq + 1;
        double *work = malloc(sizeof(double) * (size_t)lwork);
        MPI_Barrier(MPI_COMM_WORLD);
        pumma_calls(1);
        double t0 = now();
        pdgels_("N", &n, &nc, &nrhs, A->a, &one, &one, A->desc, B->a, &one,
                &one, B->desc, work, &lwork, &info);
        t = tim_slowest(t0);
        free(work);
    }
    *calls = pumma_calls(0);
    pumma_use(1);
    die_info(rname[r], info);
    const mat_t *out = r == GELS ? B : r == POTRS || r == GETRS ? &x->R : A;
    memcpy(res, out->a, sizeof(double) * mat_len(out));
    return t;
}

/* max |x - y| / max |y| over the local parts (collective). */
static double reldiff(const double *x, const double *y, size_t len)
{
    double d[2] = {0, 0}, g[2];
    for (size_t i = 0; i < len; i++) {
        double e = fabs(x[i] - y[i]), m = fabs(y[i]);
        if (e > d[0] || isnan(e)) d[0] = isnan(e) ? INFINITY : e;
        if (m > d[1]) d[1] = m;
    }
    MPI_Allreduce(d, g, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return g[1] > 0 ? g[0] / g[1] : g[0];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int reps = 5, n = 4000, nt = 0, nbs[8] = {64, 256}, nnb = 2, gp[8], gq[8],
        ng = 0, want[NROUT];
    const char *grids = "1x2,2x1", *csv = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !v;
        if (!bad && !strcmp(argv[i], "-r")) bad = (reps = atoi(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-n")) bad = (n = atoi(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-t")) bad = (nt = atoi(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-b")) bad = (nnb = tim_ints(v, nbs, 8)) < 1;
        else if (!bad && !strcmp(argv[i], "-g")) grids = v;
        else if (!bad && !strcmp(argv[i], "-R")) only = v;
        else if (!bad && !strcmp(argv[i], "-o")) csv = v;
        else bad = 1;
        if (bad) {
            if (me == 0)
                fprintf(stderr, "usage: mpiexec -n NP %s [-r R] [-n N] "
                                "[-b NB,..] [-g PxQ,..] [-R ROUTINE,..] [-t N] "
                                "[-o FILE.csv]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        i++;
    }
    if (!nt) nt = n / 2;                /* PDSYTRD's order: N/2, at most N */
    if (nt > n) nt = n;
    for (int r = 0; r < NROUT; r++) want[r] = !only;
    for (const char *s = only; s && *s;) {
        size_t l = strcspn(s, ",");
        int found = 0;
        for (int r = 0; r < NROUT; r++)
            if (strlen(rname[r]) == l && !strncmp(rname[r], s, l))
                want[r] = found = 1;
        if (!found) {
            if (me == 0)
                fprintf(stderr, "-R: %.*s is none of PDGETRF PDGETRI PDGELS "
                                "PDPOTRF-L PDPOTRF-U PDPOTRS PDGETRS PDSYGST-L "
                                "PDSYGST-U PDSYTRD-L\n", (int)l, s);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        s += l;
        if (*s == ',') s++;
    }
    ng = tim_grids(grids, np, gp, gq, 8);
    FILE *out = NULL;
    if (me == 0) {
        printf("ScaLAPACK's solvers with the Level-3 PBLAS (PDGEMM, PDTRSM, "
               "PDSYRK, ...) from ScaLAPACK and from pumma, alternately; %d "
               "ranks, median of %d after one untimed call each way\n", np,
               reps);
        printf("%-9s %5s %4s %6s %7s %10s %10s %7s %9s\n", "routine", "grid",
               "NB", "N", "calls", "scalapack", "pumma", "ratio", "diff");
        if (csv && !(out = fopen(csv, "w"))) perror(csv);
        if (out)
            fprintf(out, "routine,grid,nb,n,pdgemm_calls,scalapack_s,pumma_s,"
                         "ratio,reldiff\n");
    }
    for (int gi = 0; gi < ng; gi++)
        for (int bi = 0; bi < nnb; bi++) {
            const int P = gp[gi], Q = gq[gi], nb = nbs[bi];
            int ctxt, pr, pc, myr, myc;
            Cblacs_get(-1, 0, &ctxt);
            Cblacs_gridinit(&ctxt, "Row", P, Q);
            Cblacs_gridinfo(ctxt, &pr, &pc, &myr, &myc);
            mat_t A, B, At;
            mat_make(&A, ctxt, n, n, nb, myr, myc, P, Q);
            mat_make(&B, ctxt, n, nb, nb, myr, myc, P, Q);
            At = A;                      /* PDSYTRD's: A, or smaller */
            if (nt != n) mat_make(&At, ctxt, nt, nt, nb, myr, myc, P, Q);
            int *ipiv = malloc(sizeof(int) * (size_t)(A.mloc + nb));
            size_t la = mat_len(&A);
            double *res[2] = {malloc(sizeof(double) * la),
                              malloc(sizeof(double) * la)};
            extra_t x = {.facof = -1};
            mat_make(&x.R, ctxt, n, NRHS, nb, myr, myc, P, Q);
            for (int r = 0; r < NROUT; r++) {
                if (!want[r]) continue;
                int one = 1, info = 0;
                const int rn = r == SYTRD ? nt : n;
                mat_t *a = r == SYTRD ? &At : &A;
                /* the factors, once, untimed, by ScaLAPACK's own routines */
                if ((r == POTRS || r == GETRS) && x.facof != r) {
                    if (!x.fac) x.fac = malloc(sizeof(double) * la);
                    if (!x.piv) x.piv = malloc(sizeof(int) * (size_t)(A.mloc + nb));
                    pumma_use(0);
                    if (r == POTRS) {
                        fill_sym(&A, nb, myr, myc, P, Q, 1, n);
                        pdpotrf_("L", &n, A.a, &one, &one, A.desc, &info);
                        die_info("PDPOTRF (PDPOTRS's factor)", info);
                    } else {
                        tim_fill(A.a, A.lld, A.mloc, A.nloc, nb, myr, myc, P,
                                 Q, 1, n / 4.0);
                        pdgetrf_(&n, &n, A.a, &one, &one, A.desc, x.piv, &info);
                        die_info("PDGETRF (PDGETRS's factors)", info);
                    }
                    pumma_use(1);
                    memcpy(x.fac, A.a, sizeof(double) * la);
                    x.facof = r;
                }
                if (r == SYGST_L || r == SYGST_U) {
                    const int u = r == SYGST_U;
                    if (!x.S.a) mat_make(&x.S, ctxt, n, n, nb, myr, myc, P, Q);
                    if (!x.bfac[u]) {
                        x.bfac[u] = malloc(sizeof(double) * mat_len(&x.S));
                        fill_sym(&x.S, nb, myr, myc, P, Q, 3, n);
                        pumma_use(0);
                        pdpotrf_(u ? "U" : "L", &n, x.S.a, &one, &one,
                                 x.S.desc, &info);
                        pumma_use(1);
                        die_info("PDPOTRF (PDSYGST's B)", info);
                        memcpy(x.bfac[u], x.S.a, sizeof(double) * mat_len(&x.S));
                    }
                }
                if (r == SYTRD && !x.d) {
                    const size_t lc = (size_t)(At.nloc > 0 ? At.nloc : 1);
                    x.d = malloc(sizeof(double) * lc);
                    x.e = malloc(sizeof(double) * lc);
                    x.tau = malloc(sizeof(double) * lc);
                }
                double *t[2] = {malloc(sizeof(double) * reps),
                                malloc(sizeof(double) * reps)};
                long calls[2] = {0, 0};
                for (int w = 0; w < 2; w++)      /* untimed: first calls */
                    run(r, w, rn, nb, ctxt, myr, myc, P, Q, a, &B, ipiv, &x,
                        res[w], &calls[w]);
                for (int i = 0; i < reps; i++)
                    for (int k = 0; k < 2; k++) {
                        const int w = (i + k) % 2;
                        t[w][i] = run(r, w, rn, nb, ctxt, myr, myc, P, Q, a,
                                      &B, ipiv, &x, res[w], &calls[w]);
                    }
                const mat_t *o = r == GELS ? &B : r == POTRS || r == GETRS ? &x.R : a;
                double d = reldiff(res[1], res[0], mat_len(o));
                const double ts = tim_median(t[0], reps),
                             tp = tim_median(t[1], reps);
                if (me == 0) {
                    char g[16];
                    snprintf(g, sizeof g, "%dx%d", P, Q);
                    printf("%-9s %5s %4d %6d %7ld %10.4f %10.4f %7.3f %9.2e",
                           rname[r], g, nb, rn, calls[1], ts, tp, ts / tp, d);
                    if (calls[0] != calls[1])
                        printf("  (%ld calls with ScaLAPACK's)", calls[0]);
                    printf("\n");
                    if (out)
                        fprintf(out, "%s,%s,%d,%d,%ld,%.6f,%.6f,%.4f,%.3e\n",
                                rname[r], g, nb, rn, calls[1], ts, tp, ts / tp,
                                d);
                    fflush(stdout);
                }
                free(t[0]);
                free(t[1]);
            }
            free(A.a);
            free(B.a);
            if (nt != n) free(At.a);
            free(x.R.a);
            free(x.S.a);
            free(x.fac);
            free(x.piv);
            free(x.bfac[0]);
            free(x.bfac[1]);
            free(x.d);
            free(x.e);
            free(x.tau);
            free(ipiv);
            free(res[0]);
            free(res[1]);
            Cblacs_gridexit(ctxt);
        }
    if (out) fclose(out);
    if (me == 0)
        printf("ratio: ScaLAPACK's time over pumma's (above 1: faster with "
               "pumma); calls: the Level-3 PBLAS calls (pumma_calls: PDGEMM, "
               "PDTRSM, PDSYRK, ...) per run, the CSV's pdgemm_calls\n");
    MPI_Finalize();
    return 0;
}
