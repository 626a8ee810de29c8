/*
 * hiergemm.c -- PDGEMM across clusters (issue 15's second target): the
 * two-level layouts (PUMMA_LAYOUT_CLUSTERS: square-corner and rect3
 * between the clusters, bands inside; square-corner also on the shares
 * PUMMA_GRID_SHARES prices with the links) against flat block-cyclic PUMMA on
 * a near-square grid of the same processes. (Not ScaLAPACK's own: the
 * emulated speeds, PUMMA_SPEEDS, slow pumma's local multiplies only.)
 *
 *   mpiexec -n NP ./xhiergemm [-n N] [-r REPS] [-b NB] [-o FILE.csv]
 *
 * The clusters are the grid's (PUMMA_CLUSTERS), the speeds measured
 * (PUMMA_SPEEDS_MEASURE; PUMMA_SPEEDS slows ranks to emulate slower
 * processors). C := A*B, N x N (default 1500), A, B and C all on the same
 * distribution: block-cyclic NB x NB (default 64) on the P x Q grid, or the
 * two-level layout on a 1 x NP grid. Every entry of A and B is a small
 * multiple of 1/16, so every product is exact and every method must give
 * the same C to the last bit: 64 entries per process are checked against
 * the product's definition. A multiply's time runs from the first
 * process's start to the last one's end (one host: one clock). Medians of
 * REPS (default 3), the methods taking turns; FILE.csv: a row a method
 * (n,method,median_s,min_s).
 *
 * In an SMPI build (TIMING/smpi/models-clusters.sh) the speeds are the
 * simulated hosts' (the measurement's multiplies are charged at their
 * speed), the clock is the simulation's; under the compute model
 * (PUMMA_SMPI_COMPUTE) nothing is computed, so the operands are SMPI's
 * shared (folded) memory, left unfilled, and nothing is checked.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "timutil.h"


static double fa(int i, int j) { return (double)((i * 7 + j * 3) % 11 - 5) / 16; }
static double fb(int i, int j) { return (double)((i * 5 + j * 2) % 13 - 6) / 16; }
static double fc(int n, int i, int j)
{
    double s = 0;
    for (int k = 0; k < n; k++) s += fa(i, k) * fb(k, j);
    return s;
}


/* A distributed operand: local array and where its entries are. */
typedef struct opnd {
    int desc[11];
    double *a;
    int lld;
    /* block-cyclic (layout 0) or a layout's box */
    int layout, i0, j0, ml, nl, nb, P, Q, myr, myc;
} opnd_t;

/* Global (i, j) of local (li, lj). */
static void global_of(const opnd_t *o, int li, int lj, int *i, int *j)
{
    if (o->layout) {
        *i = o->i0 + li;
        *j = o->j0 + lj;
    } else {
        *i = (li / o->nb * o->P + o->myr) * o->nb + li % o->nb;
        *j = (lj / o->nb * o->Q + o->myc) * o->nb + lj % o->nb;
    }
}

/* simulated with the compute model: nothing computed, nothing checked */
#ifdef PUMMA_SMPI
static int modelled(void)
{
    const char *e = getenv("PUMMA_SMPI_COMPUTE");
    return e && *e;
}
#else
static int modelled(void) { return 0; }
#endif

static double *operand(size_t words)
{
#ifdef PUMMA_SMPI
    if (modelled()) {
        double *a = SMPI_SHARED_MALLOC(words * sizeof(double));
        return a;
    }
#endif
    return calloc(words, sizeof(double));
}

static void fill(opnd_t *o, double (*f)(int, int), int n)
{
    if (modelled()) return;
    for (int lj = 0; lj < o->nl; lj++)
        for (int li = 0; li < o->ml; li++) {
            int i, j;
            global_of(o, li, lj, &i, &j);
            o->a[li + (size_t)lj * o->lld] = i < n && j < n ? f(i, j) : 0;
        }
}

static void make_bc(opnd_t *o, int ctxt, int n, int nb)
{
    const int zero = 0;
    int info;
    memset(o, 0, sizeof *o);
    Cblacs_gridinfo(ctxt, &o->P, &o->Q, &o->myr, &o->myc);
    o->nb = nb;
    o->ml = numroc_(&n, &nb, &o->myr, &zero, &o->P);
    o->nl = numroc_(&n, &nb, &o->myc, &zero, &o->Q);
    o->lld = o->ml > 1 ? o->ml : 1;
    descinit_(o->desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &o->lld, &info);
    o->a = operand((size_t)o->lld * (size_t)(o->nl > 0 ? o->nl : 1));
}

static void make_lay(opnd_t *o, int ctxt, int n, int layout, int me)
{
    int info, proc = me;
    memset(o, 0, sizeof *o);
    o->layout = layout;
    PUMMA_F77(pumma_layout_box, PUMMA_LAYOUT_BOX)(&layout, &proc, &o->i0,
                                                  &o->j0, &o->ml, &o->nl, &info);
    o->i0--;
    o->j0--;
    o->lld = o->ml > 1 ? o->ml : 1;
    PUMMA_F77(pumma_descinit, PUMMA_DESCINIT)(o->desc, &n, &n, &layout, &ctxt,
                                              &o->lld, &info);
    o->a = operand((size_t)o->lld * (size_t)(o->nl > 0 ? o->nl : 1));
}

/* 64 entries of my part of C (on a layout: of my region) against the
 * definition; 0 when all are exact. */
static int check_c(const opnd_t *c, int n, int layout, int me)
{
    int bad = 0;
    if (modelled()) return 0;
    unsigned s = 12345u + (unsigned)me;
    for (int t = 0; t < 64 && c->ml > 0 && c->nl > 0; t++) {
        s = s * 1103515245u + 12345u;
        int li = (int)((s >> 8) % (unsigned)c->ml);
        s = s * 1103515245u + 12345u;
        int lj = (int)((s >> 8) % (unsigned)c->nl), i, j;
        global_of(c, li, lj, &i, &j);
        if (i >= n || j >= n) continue;
        if (layout) {                     /* only my region's entries */
            int owner, info, gi = i + 1, gj = j + 1;
            PUMMA_F77(pumma_layout_owner, PUMMA_LAYOUT_OWNER)(&layout, &gi,
                                                              &gj, &owner, &info);
            if (owner != me) continue;
        }
        if (c->a[li + (size_t)lj * c->lld] != fc(n, i, j)) bad++;
    }
    return bad;
}

enum { M_FLAT, M_SQ, M_SQP, M_RECT, NM };
static const char *const mname[NM] = {"flat block-cyclic",
                                      "two-level square-corner",
                                      "two-level sq-corner priced",
                                      "two-level rect3"};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np, n = 1500, reps = 3, nb = 64;
    const char *csv = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r")) reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-b")) nb = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-o")) csv = argv[i + 1];
    }
    /* the line of all processes: clusters and speeds */
    int line, info, nc;
    Cblacs_get(-1, 0, &line);
    Cblacs_gridinit(&line, "Row", 1, np);
    int *cl = malloc(sizeof(int) * (size_t)np);
    double *sp = malloc(sizeof(double) * (size_t)np);
    PUMMA_F77(pumma_grid_clusters_get, PUMMA_GRID_CLUSTERS_GET)(&line, cl, &nc,
                                                                &info);
    const int probe = 256;
    PUMMA_F77(pumma_speeds_measure, PUMMA_SPEEDS_MEASURE)(&line, &probe, sp,
                                                          &info);
    double csp[64] = {0};
    for (int p = 0; p < np; p++) csp[cl[p]] += sp[p];
    if (me == 0) {
        printf("%d processes in %d clusters (", np, nc);
        for (int p = 0; p < np; p++) printf("%s%d", p ? " " : "", cl[p]);
        printf("), measured speeds");
        for (int p = 0; p < np; p++) printf(" %.3f", sp[p]);
        printf("; by cluster");
        for (int c = 0; c < nc; c++) printf(" %.1f", 100 * csp[c]);
        printf(" (%%)\nC := A*B, N = %d, block-cyclic NB = %d\n", n, nb);
    }
    /* the flat grid: near-square */
    int P = 1;
    for (int d = 1; d * d <= np; d++)
        if (np % d == 0) P = d;
    int grid;
    Cblacs_get(-1, 0, &grid);
    Cblacs_gridinit(&grid, "Row", P, np / P);
    opnd_t A[NM], B[NM], C[NM];
    int lay[NM] = {0}, have[NM] = {1, 0, 0, 0};
    /* the priced shares: PUMMA_GRID_SHARES on the line */
    double *priced = malloc(sizeof(double) * (size_t)np);
    {
        const int sqk = PUMMA_LAYOUT_SQUARE_CORNER, es = 8;
        PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(&line, &sqk, &n, &n,
                                                        &n, &es, priced, &info);
        if (me == 0) {
            double tot = 0;
            for (int p = 0; p < np; p++) tot += priced[p];
            printf("shares priced with the links (INFO %d):", info);
            for (int p = 0; p < np; p++) printf(" %.2f", 100 * priced[p] / tot);
            printf(" (%%)\n");
        }
        if (info) priced[0] = -1;
    }
    for (int m = 0; m < NM; m++) {
        if (m < M_SQ) {
            make_bc(&A[m], grid, n, nb);
            make_bc(&B[m], grid, n, nb);
            make_bc(&C[m], grid, n, nb);
        } else {
            const int kind = m == M_RECT ? PUMMA_LAYOUT_RECT3
                                         : PUMMA_LAYOUT_SQUARE_CORNER;
            if (m == M_SQP && priced[0] < 0) continue;
            PUMMA_F77(pumma_layout_clusters, PUMMA_LAYOUT_CLUSTERS)(
                &kind, &n, &n, &np, m == M_SQP ? priced : sp, cl, &lay[m],
                &info);
            if (info) {
                if (me == 0)
                    printf("%s: no such layout here (INFO %d)\n", mname[m],
                           info);
                continue;
            }
            have[m] = 1;
            make_lay(&A[m], line, n, lay[m], me);
            make_lay(&B[m], line, n, lay[m], me);
            make_lay(&C[m], line, n, lay[m], me);
        }
        fill(&A[m], fa, n);
        fill(&B[m], fb, n);
    }
    double *t = calloc((size_t)NM * (size_t)reps, sizeof(double));
    int wrong = 0;
    const double one = 1, zero = 0;
    const int i1 = 1;
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < NM; k++) {
            int m = (k + r) % NM;
            if (!have[m]) continue;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            pdgemm_("N", "N", &n, &n, &n, &one, A[m].a, &i1, &i1, A[m].desc,
                    B[m].a, &i1, &i1, B[m].desc, &zero, C[m].a, &i1, &i1,
                    C[m].desc);
            double t1 = MPI_Wtime();
            MPI_Allreduce(MPI_IN_PLACE, &t0, 1, MPI_DOUBLE, MPI_MIN,
                          MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, &t1, 1, MPI_DOUBLE, MPI_MAX,
                          MPI_COMM_WORLD);
            t[m * reps + r] = t1 - t0;
            if (r == 0) wrong += check_c(&C[m], n, lay[m], me);
        }
    MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) {
        double med[NM];
        FILE *out = csv ? fopen(csv, "w") : NULL;
        if (out) fprintf(out, "n,method,median_s,min_s\n");
        for (int m = 0; m < NM; m++) {
            if (!have[m]) continue;
            qsort(t + m * reps, (size_t)reps, sizeof(double), tim_cmp);
            med[m] = t[m * reps + reps / 2];
            printf("  %-24s %8.3f s  (min %8.3f)\n", mname[m], med[m],
                   t[m * reps]);
            if (out)
                fprintf(out, "%d,%s,%.6g,%.6g\n", n, mname[m], med[m],
                        t[m * reps]);
        }
        if (out) fclose(out);
        for (int m = M_SQ; m < NM; m++)
            if (have[m])
                printf("  %s: %.0f%% faster than flat block-cyclic\n",
                       mname[m], 100 * (1 - med[m] / med[M_FLAT]));
        printf("\nentries checked: %s\n", modelled() ? "none (simulated, "
               "nothing computed)" : wrong ? "WRONG" : "all exact");
        for (int m = M_SQ; m <= M_SQP; m++)
            if (have[m])
                printf("target: %s at least 30%% faster than flat "
                       "block-cyclic PUMMA: %s (%.0f%%)\n", mname[m],
                       med[m] <= 0.7 * med[M_FLAT] ? "met" : "NOT met",
                       100 * (1 - med[m] / med[M_FLAT]));
    }
    free(priced);
    free(t);
    Cblacs_gridexit(grid);
    Cblacs_gridexit(line);
    MPI_Finalize();
    return wrong ? 1 : 0;
}
