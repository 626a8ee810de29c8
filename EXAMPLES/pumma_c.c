/*
 * pumma_c.c -- pumma from C: the drop-in pdgemm_ and pumma_pdgemm_opts
 * with a per-call algorithm and broadcast (pumma.h).
 *
 * The grid comes from the BLACS (ScaLAPACK's C interface, Cblacs_*), the
 * descriptors from ScaLAPACK's descinit_. C := alpha*A*B + beta*C is
 * computed three ways -- plain pdgemm_, and pumma_pdgemm_opts with MDB2
 * and the increasing ring, and with SDB and the pipelined chain in 4 KiB
 * segments -- and each local entry is checked against the same sum formed
 * from the formulas that define A, B and C (small integers: exact). A bad
 * option must come back in INFO. Prints PASSED/FAILED lines and a closing
 * "N passed, N failed"; the exit status is 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"

/* ScaLAPACK's C BLACS and tools (no header of theirs declares them). */
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow,
                     int *mycol);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int notdone);
void Cigsum2d(int ctxt, const char *scope, const char *top, int m, int n,
              int *a, int lda, int rdest, int cdest);
int numroc_(const int *n, const int *nb, const int *iproc,
            const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb,
               const int *nb, const int *irsrc, const int *icsrc,
               const int *ictxt, const int *lld, int *info);

enum { M = 150, N = 130, K = 110, NB = 12 };

static double av(int i, int j) { return (i + 2 * j) % 7 - 3; }
static double bv(int i, int j) { return (3 * i + j) % 5 - 2; }
static double cv(int i, int j) { return (i * j) % 3; }

static int nprow, npcol, myrow, mycol, ctxt, iam;

/* Global index (0-based) of local index l (0-based), block-cyclic from 0. */
static int l2g(int l, int p, int np) { return (l / NB * np + p) * NB + l % NB; }

/* Allocates and fills the local part of an m x n matrix with f(i,j)
 * (1-based global indices), and its descriptor. */
static double *local(int m, int n, double (*f)(int, int), int desc[9])
{
    int zero = 0, nb = NB, info;
    int ml = numroc_(&m, &nb, &myrow, &zero, &nprow);
    int nl = numroc_(&n, &nb, &mycol, &zero, &npcol);
    int lld = ml > 1 ? ml : 1;
    double *x = malloc(sizeof(double) * (size_t)lld * (nl > 0 ? nl : 1));

    descinit_(desc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    for (int j = 0; j < nl; j++)
        for (int i = 0; i < ml; i++)
            x[i + (size_t)j * lld] =
                f(l2g(i, myrow, nprow) + 1, l2g(j, mycol, npcol) + 1);
    return x;
}

/* Number of local entries of C that differ from alpha*A*B + beta*C0. */
static int wrong(const double *c, const int *descc, double alpha, double beta)
{
    int zero = 0, nb = NB, m = M, n = N, bad = 0;
    int ml = numroc_(&m, &nb, &myrow, &zero, &nprow);
    int nl = numroc_(&n, &nb, &mycol, &zero, &npcol);

    for (int j = 0; j < nl; j++)
        for (int i = 0; i < ml; i++) {
            int gi = l2g(i, myrow, nprow) + 1, gj = l2g(j, mycol, npcol) + 1;
            double s = beta * cv(gi, gj);
            for (int l = 1; l <= K; l++)
                s += alpha * av(gi, l) * bv(l, gj);
            bad += c[i + (size_t)j * descc[8]] != s;
        }
    return bad;
}

static int npass, nfail;

/* Every process passes its own verdict; all agree on the global one. */
static void report(const char *what, int ok)
{
    int bad = !ok;
    Cigsum2d(ctxt, "All", " ", 1, 1, &bad, 1, -1, -1);
    if (bad) nfail++; else npass++;
    if (iam == 0) printf("%s %s\n", bad ? "FAILED" : "PASSED", what);
}

int main(void)
{
    int nprocs, desca[9], descb[9], descc[9], one = 1, m = M, n = N, k = K,
        info;
    double alpha = 2.0, beta = -1.0;

    Cblacs_pinfo(&iam, &nprocs);
    /* P x Q with Q the largest divisor not above sqrt(nprocs): on 2 or 3
     * processes a column of them, so the broadcast down columns runs. */
    for (npcol = 1; (npcol + 1) * (npcol + 1) <= nprocs; npcol++)
        ;
    while (nprocs % npcol) npcol--;
    nprow = nprocs / npcol;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row-major", nprow, npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

    double *a = local(M, K, av, desca), *b = local(K, N, bv, descb);
    double *c = local(M, N, cv, descc);

    /* The ScaLAPACK call itself. */
    pdgemm_("N", "N", &m, &n, &k, &alpha, a, &one, &one, desca, b, &one,
            &one, descb, &beta, c, &one, &one, descc);
    report("pdgemm_", wrong(c, descc, alpha, beta) == 0);

    /* Per-call choices. */
    const pumma_options_t choices[2] = {
        {.algo = PUMMA_ALGO_MDB2, .bcast = PUMMA_BCAST_RING_INC},
        {.algo = PUMMA_ALGO_SDB, .bcast = PUMMA_BCAST_PIPELINE,
         .segment = 4096}};
    const char *expect[2] = {"algo=mdb2 bcast=ring-inc ",
                             "algo=sdb bcast=pipeline "};
    for (int t = 0; t < 2; t++) {
        char what[160];
        free(c);
        c = local(M, N, cv, descc);
        pumma_pdgemm_opts("N", "N", &m, &n, &k, &alpha, a, &one, &one, desca,
                          b, &one, &one, descb, &beta, c, &one, &one, descc,
                          &choices[t], &info);
        snprintf(what, sizeof what, "pumma_pdgemm_opts: %s",
                 pumma_last_plan());
        /* (on one grid row nothing is broadcast: "bcast=-") */
        report(what, info == 0 && wrong(c, descc, alpha, beta) == 0 &&
                         (nprow == 1 ||
                          strncmp(pumma_last_plan(), expect[t],
                                  strlen(expect[t])) == 0));
    }

    /* A bad reduce code: INFO = -22 and C untouched. */
    pumma_options_t bad = {.reduce = 77};
    free(c);
    c = local(M, N, cv, descc);
    pumma_pdgemm_opts("N", "N", &m, &n, &k, &alpha, a, &one, &one, desca, b,
                      &one, &one, descb, &beta, c, &one, &one, descc, &bad,
                      &info);
    report("bad reduce gives INFO=-22",
           info == -22 && wrong(c, descc, 0.0, 1.0) == 0);

    if (iam == 0) printf("%d passed, %d failed\n", npass, nfail);
    free(a);
    free(b);
    free(c);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return nfail != 0;
}
