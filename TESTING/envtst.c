/*
 * envtst.c -- the smallest pumma program: one PDGEMM of 24 x 24 matrices
 * (blocks of 5, all processes in one grid row), checked entry by entry.
 * envtst.sh runs it under good and bad environment values: a bad one must
 * stop it at that call with pumma's message, a good one must let it pass.
 *
 *   mpiexec -n 2 ./xenvtst [CALLS]  prints "envtst: PASSED", status 0
 *
 * CALLS (default 1): the same PDGEMM that many times, each checked (what
 * PUMMA_STATS says once must be said once however many calls).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pumma.h"
#include "blacs.h"

/* Small integers: every sum is exact. */
static double a_of(int i, int j) { return (i * 3 + j) % 7 - 3; }
static double b_of(int i, int j) { return (i + j * 5) % 5 - 2; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np, ctxt, nprow, npcol, myrow, mycol, info, zero = 0, one = 1;
    const int n = 24, nb = 5;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int ml = numroc_(&n, &nb, &myrow, &zero, &nprow);
    int nl = numroc_(&n, &nb, &mycol, &zero, &npcol);
    int lld = ml > 1 ? ml : 1, desc[9];
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    size_t cnt = (size_t)lld * (size_t)(nl > 0 ? nl : 1);
    double *a = malloc(cnt * sizeof *a), *b = malloc(cnt * sizeof *b),
           *c = calloc(cnt, sizeof *c);
    for (int j = 0; j < nl; j++)
        for (int i = 0; i < ml; i++) {
            int gj = (j / nb * npcol + mycol) * nb + j % nb;
            a[i + (size_t)j * lld] = a_of(i, gj);
            b[i + (size_t)j * lld] = b_of(i, gj);
        }
    double alpha = 1, beta = 0;
    const int calls = argc > 1 ? atoi(argv[1]) : 1;
    int bad = calls < 1;
    for (int call = 0; call < calls; call++) {
        pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one,
                &one, desc, &beta, c, &one, &one, desc);
        for (int j = 0; j < nl; j++)
            for (int i = 0; i < ml; i++) {
                int gj = (j / nb * npcol + mycol) * nb + j % nb;
                double want = 0;
                for (int k = 0; k < n; k++) want += a_of(i, k) * b_of(k, gj);
                if (c[i + (size_t)j * lld] != want) bad = 1;
            }
    }
    int all;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) printf("envtst: %s\n", all ? "FAILED" : "PASSED");
    free(a);
    free(b);
    free(c);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return all;
}
