/*
 * shapetim.c -- the PDGEMM calls ScaLAPACK codes make, timed with pumma
 * and with ScaLAPACK's own PDGEMM alternately in one run: rank-k updates
 * at block offsets, panel products in every TRANSA/TRANSB, small calls,
 * unaligned offsets (the cases of SHAPES.dat).
 *
 *   mpiexec -n NP ./xshapetim [-i SHAPES.dat] [-r R] [-g PxQ,..] [-b NB]
 *                             [-o FILE.csv]
 *
 * One program, one pdgemm_: pumma's, which pumma_use(0) passes on to
 * ScaLAPACK's (pumma.h), so both are called through the same symbol as a
 * ScaLAPACK program calls them. Per case and grid: one untimed call each
 * way (reported as "first": the first call of that shape; a grid's first
 * case includes pumma's measuring of its machine model), then R calls
 * each way alternating (which goes first alternates), C restored before
 * every call; the median of the slowest process's times. "limit" is the
 * time of the same flops as one local DGEMM per process (M x N/NP x K, all
 * processes at once): frac = limit / pumma's time. pumma's C is compared
 * with ScaLAPACK's (relative to the largest entry): above 1e-10 the row
 * says WRONG, and the program ends with exit status 3 after the last case.
 *
 * SHAPES.dat: lines "name TA TB M N K OFF BETA" ('#' starts a comment):
 * sub(A), sub(B), sub(C) all start at row and column OFF+1 of matrices
 * with OFF extra rows and columns, NB = 64 (or -b), sources 0, ALPHA -1; BETA 0
 * or 1 (with BETA 0, C is filled with NaN, which must not reach the
 * result).
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "timutil.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *,
            const double *, const double *, const int *, const double *,
            const int *, const double *, double *, const int *);

enum { MAXC = 200 };
static int NB = 64;
static int me, np;

typedef struct kase {
    char name[32], ta, tb;
    int m, n, k, off;
    double beta;
} kase_t;

typedef struct mat { int desc[9], mloc, nloc, lld; double *a; size_t len; } mat_t;

static void mat_make(mat_t *x, int id, int ctxt, int m, int n, int myr,
                     int myc, int P, int Q)
{
    int zero = 0, nb = NB, info;
    x->mloc = numroc_(&m, &nb, &myr, &zero, &P);
    x->nloc = numroc_(&n, &nb, &myc, &zero, &Q);
    x->lld = x->mloc > 1 ? x->mloc : 1;
    descinit_(x->desc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &x->lld, &info);
    x->len = (size_t)x->lld * (x->nloc > 0 ? x->nloc : 1);
    x->a = malloc(sizeof(double) * x->len);
    tim_fill(x->a, x->lld, x->mloc, x->nloc, NB, myr, myc, P, Q, id, 0);
}

static int read_cases(const char *file, kase_t *c)
{
    FILE *f = fopen(file, "r");
    if (!f) return -1;
    char line[512];
    int n = 0, lno = 0;
    while (fgets(line, sizeof line, f) && n < MAXC) {
        lno++;
        char *h = strchr(line, '#');
        if (h) *h = 0;
        char ta[8], tb[8];
        kase_t *k = &c[n];
        int got = sscanf(line, "%31s %7s %7s %d %d %d %d %lf", k->name, ta, tb,
                         &k->m, &k->n, &k->k, &k->off, &k->beta);
        if (got <= 0) continue;
        if (got != 8 || !strchr("NTC", ta[0]) || !strchr("NTC", tb[0]) ||
            k->m < 1 || k->n < 1 || k->k < 1 || k->off < 0 ||
            (k->beta != 0 && k->beta != 1)) {
            fprintf(stderr, "%s:%d: want: name TA TB M N K OFF BETA(0|1)\n",
                    file, lno);
            fclose(f);
            return -1;
        }
        k->ta = ta[0];
        k->tb = tb[0];
        n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *dat = "SHAPES.dat", *grids = "1x2,2x1", *csv = NULL;
    int reps = 10;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !v;
        if (!bad && !strcmp(argv[i], "-i")) dat = v;
        else if (!bad && !strcmp(argv[i], "-r")) bad = (reps = atoi(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-g")) grids = v;
        else if (!bad && !strcmp(argv[i], "-o")) csv = v;
        else if (!bad && !strcmp(argv[i], "-b")) bad = (NB = atoi(v)) < 1;
        else bad = 1;
        if (bad) {
            if (me == 0)
                fprintf(stderr, "usage: mpiexec -n NP %s [-i FILE.dat] [-r R] "
                                "[-g PxQ,..] [-b NB] [-o FILE.csv]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        i++;
    }
    static kase_t cs[MAXC];
    int nc = read_cases(dat, cs);
    if (nc <= 0) {
        if (me == 0) fprintf(stderr, "%s: no cases\n", dat);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    FILE *out = NULL;
    if (me == 0) {
        printf("PDGEMM shapes, pumma and ScaLAPACK alternately through one "
               "pdgemm_; %d ranks, NB %d, median of %d after one each\n",
               np, NB, reps);
        printf("%-14s %4s %2s %5s %5s %5s %4s %2s %9s %9s %6s %5s %8s %8s "
               "%8s  %s\n", "case", "grid", "op", "M", "N", "K", "off", "b",
               "scalapack", "pumma", "ratio", "frac", "1st-sl", "1st-pu",
               "diff", "plan");
        if (csv && !(out = fopen(csv, "w"))) perror(csv);
        if (out)
            fprintf(out, "case,grid,ta,tb,m,n,k,off,beta,scalapack_s,pumma_s,"
                         "ratio,frac,first_scalapack_s,first_pumma_s,"
                         "reldiff,plan\n");
    }
    double worst_ratio = 1e30;
    int nwrong = 0;
    int gp[16], gq[16];
    const int ng = tim_grids(grids, np, gp, gq, 16);
    for (int gi = 0; gi < ng; gi++) {
        const int P = gp[gi], Q = gq[gi];
        int myr, myc;
        const int ctxt = tim_gridinit(P, Q, &myr, &myc);
        for (int c = 0; c < nc; c++) {
            const kase_t *k = &cs[c];
            const int o = k->off;
            const int ar = k->ta == 'N' ? k->m : k->k, ac = k->ta == 'N' ? k->k : k->m;
            const int br = k->tb == 'N' ? k->k : k->n, bc = k->tb == 'N' ? k->n : k->k;
            mat_t A, B, C;
            mat_make(&A, 1, ctxt, o + ar, o + ac, myr, myc, P, Q);
            mat_make(&B, 2, ctxt, o + br, o + bc, myr, myc, P, Q);
            mat_make(&C, 3, ctxt, o + k->m, o + k->n, myr, myc, P, Q);
            if (k->beta == 0)
                for (size_t e = 0; e < C.len; e++) C.a[e] = NAN;
            double *c0 = malloc(sizeof(double) * C.len);
            double *res[2] = {malloc(sizeof(double) * C.len),
                              malloc(sizeof(double) * C.len)};
            memcpy(c0, C.a, sizeof(double) * C.len);
            double *t[2] = {malloc(sizeof(double) * reps),
                            malloc(sizeof(double) * reps)};
            double first[2];
            const double alpha = -1.0, beta = k->beta;
            const int i1 = o + 1;
            char plan[128] = "";
            for (int r = -1; r < reps; r++)
                for (int w2 = 0; w2 < 2; w2++) {
                    const int w = r < 0 ? w2 : (r + w2) % 2;   /* 1: pumma */
                    memcpy(C.a, c0, sizeof(double) * C.len);
                    pumma_use(w);
                    MPI_Barrier(MPI_COMM_WORLD);
                    double t0 = MPI_Wtime();
                    pdgemm_(&k->ta, &k->tb, &k->m, &k->n, &k->k, &alpha, A.a,
                            &i1, &i1, A.desc, B.a, &i1, &i1, B.desc, &beta,
                            C.a, &i1, &i1, C.desc);
                    double dt = tim_slowest(t0);
                    pumma_use(1);
                    if (r < 0) first[w] = dt;
                    else t[w][r] = dt;
                    if (w) snprintf(plan, sizeof plan, "%s", pumma_last_plan());
                    memcpy(res[w], C.a, sizeof(double) * C.len);
                }
            /* The limit: M x N x K flops as one DGEMM per process at once. */
            double lim;
            {
                int lm = k->m, ln = (k->n + np - 1) / np, lk = k->k;
                double *la = malloc(sizeof(double) * (size_t)lm * lk);
                double *lb = malloc(sizeof(double) * (size_t)lk * ln);
                double *lc = malloc(sizeof(double) * (size_t)lm * ln);
                for (size_t e = 0; e < (size_t)lm * lk; e++) la[e] = tim_entry(4, (int)e, 0);
                for (size_t e = 0; e < (size_t)lk * ln; e++) lb[e] = tim_entry(5, (int)e, 0);
                double best = 1e30, one = 1, zero = 0;
                for (int r = 0; r < 3; r++) {
                    MPI_Barrier(MPI_COMM_WORLD);
                    double t0 = MPI_Wtime();
                    dgemm_("N", "N", &lm, &ln, &lk, &one, la, &lm, lb, &lk,
                           &zero, lc, &lm);
                    double dt = tim_slowest(t0);
                    if (dt < best) best = dt;
                }
                lim = best;
                free(la); free(lb); free(lc);
            }
            double d[2] = {0, 0}, g[2];
            for (size_t e = 0; e < C.len; e++) {
                double x = res[1][e], y = res[0][e];
                double df = (isnan(x) || isnan(y)) ? (isnan(x) && isnan(y) ? 0 : INFINITY)
                                                   : fabs(x - y);
                if (df > d[0]) d[0] = df;
                if (!isnan(y) && fabs(y) > d[1]) d[1] = fabs(y);
            }
            MPI_Allreduce(d, g, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            const double diff = g[1] > 0 ? g[0] / g[1] : g[0];
            const double ts = tim_median(t[0], reps), tp = tim_median(t[1], reps);
            if (ts / tp < worst_ratio) worst_ratio = ts / tp;
            if (!(diff <= 1e-10)) nwrong++;
            if (me == 0) {
                char gr[16];
                snprintf(gr, sizeof gr, "%dx%d", P, Q);
                printf("%-14s %4s %c%c %5d %5d %5d %4d %2.0f %9.5f %9.5f %6.3f "
                       "%5.2f %8.5f %8.5f %8.1e  %s%s\n", k->name, gr, k->ta,
                       k->tb, k->m, k->n, k->k, o, k->beta, ts, tp, ts / tp,
                       lim / tp, first[0], first[1], diff, plan,
                       diff > 1e-10 ? "  WRONG" : "");
                if (out)
                    fprintf(out, "%s,%s,%c,%c,%d,%d,%d,%d,%g,%.6f,%.6f,%.4f,"
                                 "%.4f,%.6f,%.6f,%.3e,%s\n",
                            k->name, gr, k->ta, k->tb, k->m, k->n, k->k, o,
                            k->beta, ts, tp, ts / tp, lim / tp, first[0],
                            first[1], diff, plan);
                fflush(stdout);
            }
            free(A.a); free(B.a); free(C.a); free(c0);
            free(res[0]); free(res[1]); free(t[0]); free(t[1]);
        }
        Cblacs_gridexit(ctxt);
    }
    if (out) fclose(out);
    if (me == 0)
        printf("ratio: ScaLAPACK's median over pumma's (above 1: pumma "
               "faster); frac: the local-DGEMM limit over pumma's time; "
               "1st-: the untimed first call of the case; worst ratio %.3f\n",
               worst_ratio);
    MPI_Finalize();
    return nwrong ? 3 : 0;     /* a WRONG result fails the run (make bench) */
}
