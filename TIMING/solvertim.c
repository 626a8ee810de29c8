/*
 * solvertim.c -- ScaLAPACK's own solvers timed with pumma's PDGEMM and
 * with ScaLAPACK's, alternately in one run: PDGETRF (LU), PDGETRI (the
 * inverse from the LU factors) and PDGELS (least squares, QR).
 *
 *   mpiexec -n NP ./xsolvertim [-r R] [-n N] [-b NB,NB..] [-g PxQ,PxQ..]
 *                              [-o FILE.csv]
 *
 * The program links pumma (static) and ScaLAPACK: ScaLAPACK's pdgetrf_
 * and the others call pdgemm_, which is pumma's; pumma_use(0) passes those
 * calls on to ScaLAPACK's own PDGEMM (pumma.h), pumma_use(1) back. Each
 * routine runs R times each way, the two ways alternating (which goes
 * first alternates too), on the same matrix, after one untimed call each
 * way (a program's first calls: pumma measures its machine model then);
 * the time of a call is the slowest process's, and the median of the R is
 * reported, with the number of PDGEMM calls the routine made (pumma's
 * count, pumma_calls) and the largest difference between the two results
 * relative to the largest entry (both are ScaLAPACK's algorithm with
 * different PDGEMM summation orders: it must be at rounding level).
 * PDGETRI is timed alone, from the factors of an untimed PDGETRF.
 * PDGELS solves an N x N/2 least-squares problem (no transpose) for NB
 * right-hand sides.
 *
 * Defaults: R 5, N 4000, NB 64,256, grids 1x2,2x1 (those with P*Q = NP).
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

enum { GETRF, GETRI, GELS, NROUT };
static const char *const rname[NROUT] = {"PDGETRF", "PDGETRI", "PDGELS"};

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

/* One run of routine r with PDGEMM from pumma (use 1) or ScaLAPACK: its
 * time; the result left in res (A's factors, the inverse, or the
 * solution) and the PDGEMM calls it made in *calls. */
static double run(int r, int use, int n, int nb, int ctxt, int myr, int myc,
                  int P, int Q, mat_t *A, mat_t *B, int *ipiv, double *res,
                  long *calls)
{
    int one = 1, info = 0;
    const double diag = r == GETRI ? n / 4.0 : 0; /* a well-conditioned inverse */
    tim_fill(A->a, A->lld, A->mloc, A->nloc, nb, myr, myc, P, Q, 1, diag);
    if (r == GELS)
        tim_fill(B->a, B->lld, B->mloc, B->nloc, nb, myr, myc, P, Q, 2, 0);
    pumma_use(use);
    double t = 0;
    if (r == GETRF) {
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
    if (info != 0) {
        fprintf(stderr, "%s returned INFO = %d on process %d\n", rname[r],
                info, me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const mat_t *out = r == GELS ? B : A;
    memcpy(res, out->a, sizeof(double) * (size_t)out->lld *
                            (out->nloc > 0 ? out->nloc : 1));
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
    int reps = 5, n = 4000, nbs[8] = {64, 256}, nnb = 2, gp[8], gq[8], ng = 0;
    const char *grids = "1x2,2x1", *csv = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !v;
        if (!bad && !strcmp(argv[i], "-r")) bad = (reps = atoi(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-n")) bad = (n = atoi(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-b")) bad = (nnb = tim_ints(v, nbs, 8)) < 1;
        else if (!bad && !strcmp(argv[i], "-g")) grids = v;
        else if (!bad && !strcmp(argv[i], "-o")) csv = v;
        else bad = 1;
        if (bad) {
            if (me == 0)
                fprintf(stderr, "usage: mpiexec -n NP %s [-r R] [-n N] "
                                "[-b NB,..] [-g PxQ,..] [-o FILE.csv]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        i++;
    }
    ng = tim_grids(grids, np, gp, gq, 8);
    FILE *out = NULL;
    if (me == 0) {
        printf("ScaLAPACK's solvers with PDGEMM from ScaLAPACK and from pumma, "
               "alternately; %d ranks, median of %d after one untimed call "
               "each way\n", np, reps);
        printf("%-8s %5s %4s %6s %7s %10s %10s %7s %9s\n", "routine", "grid",
               "NB", "N", "pdgemm", "scalapack", "pumma", "ratio", "diff");
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
            mat_t A, B;
            mat_make(&A, ctxt, n, n, nb, myr, myc, P, Q);
            mat_make(&B, ctxt, n, nb, nb, myr, myc, P, Q);
            int *ipiv = malloc(sizeof(int) * (size_t)(A.mloc + nb));
            size_t la = (size_t)A.lld * (A.nloc > 0 ? A.nloc : 1);
            double *res[2] = {malloc(sizeof(double) * la),
                              malloc(sizeof(double) * la)};
            for (int r = 0; r < NROUT; r++) {
                double *t[2] = {malloc(sizeof(double) * reps),
                                malloc(sizeof(double) * reps)};
                long calls[2] = {0, 0};
                for (int w = 0; w < 2; w++)      /* untimed: first calls */
                    run(r, w, n, nb, ctxt, myr, myc, P, Q, &A, &B, ipiv,
                        res[w], &calls[w]);
                for (int i = 0; i < reps; i++)
                    for (int k = 0; k < 2; k++) {
                        const int w = (i + k) % 2;
                        t[w][i] = run(r, w, n, nb, ctxt, myr, myc, P, Q, &A,
                                      &B, ipiv, res[w], &calls[w]);
                    }
                const mat_t *o = r == GELS ? &B : &A;
                double d = reldiff(res[1], res[0],
                                   (size_t)o->lld * (o->nloc > 0 ? o->nloc : 1));
                const double ts = tim_median(t[0], reps),
                             tp = tim_median(t[1], reps);
                if (me == 0) {
                    char g[16];
                    snprintf(g, sizeof g, "%dx%d", P, Q);
                    printf("%-8s %5s %4d %6d %7ld %10.4f %10.4f %7.3f %9.2e\n",
                           rname[r], g, nb, n, calls[1], ts, tp, ts / tp, d);
                    if (out)
                        fprintf(out, "%s,%s,%d,%d,%ld,%.6f,%.6f,%.4f,%.3e\n",
                                rname[r], g, nb, n, calls[1], ts, tp, ts / tp,
                                d);
                    fflush(stdout);
                }
                free(t[0]);
                free(t[1]);
            }
            free(A.a);
            free(B.a);
            free(ipiv);
            free(res[0]);
            free(res[1]);
            Cblacs_gridexit(ctxt);
        }
    if (out) fclose(out);
    if (me == 0)
        printf("ratio: ScaLAPACK's time over pumma's (above 1: faster with "
               "pumma); pdgemm: PDGEMM calls per run\n");
    MPI_Finalize();
    return 0;
}
