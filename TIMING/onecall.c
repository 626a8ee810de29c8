/*
 * onecall.c -- one P?GEMM call on a 1x1 grid, timed, by pumma or by
 * ScaLAPACK (reached with dlopen/dlsym), for measuring a single large case
 * in a process of its own, so that /usr/bin/time -v gives that
 * implementation's peak memory (maximum resident set size).
 *
 *   ./xonecall IMPL PREC TRANSA TRANSB M N K
 *     IMPL pumma | scalapack;  PREC S | D
 *
 * A is K x M (TRANSA T) or M x K, B likewise, C is M x N, all filled with
 * small integers (C := A*B + C is exact, so both give the same C); prints
 * the seconds of the call, the checksum of C and pumma_mem_peak. `make -C
 * TIMING onecall` runs the cases of doc/results.md, "One large call
 * (onecall)" with both.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"

typedef void gemm_fn(const char *, const char *, const int *, const int *,
                     const int *, const void *, const void *, const int *,
                     const int *, const int *, const void *, const int *,
                     const int *, const int *, const void *, void *,
                     const int *, const int *, const int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridexit(int);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 8) {
        fprintf(stderr, "usage: %s pumma|scalapack S|D TRANSA TRANSB M N K\n",
                argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int mine = strcmp(argv[1], "pumma") == 0, dbl = argv[2][0] == 'D';
    const char ta = argv[3][0], tb = argv[4][0];
    int m = atoi(argv[5]), n = atoi(argv[6]), k = atoi(argv[7]), one = 1;
    const size_t es = dbl ? 8 : 4;
    gemm_fn *f = (gemm_fn *)(dbl ? (void *)pdgemm_F77 : (void *)psgemm_F77);
    if (!mine) {
        void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
        f = h ? (gemm_fn *)dlsym(h, dbl ? "pdgemm_" : "psgemm_") : NULL;
        if (!f) {
            fprintf(stderr, "cannot reach ScaLAPACK\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    int ctxt;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, 1);
    const int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
    const int br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
    int da[9] = {1, ctxt, ar, ac, 64, 64, 0, 0, ar};
    int db[9] = {1, ctxt, br, bc, 64, 64, 0, 0, br};
    int dc[9] = {1, ctxt, m, n, 64, 64, 0, 0, m};
    char *a = malloc((size_t)ar * ac * es), *b = malloc((size_t)br * bc * es);
    char *c = malloc((size_t)m * n * es);
    if (!a || !b || !c) {
        fprintf(stderr, "out of memory for the operands\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (size_t i = 0; i < (size_t)ar * ac; i++)
        if (dbl) ((double *)a)[i] = (double)(i % 3); else ((float *)a)[i] = (float)(i % 3);
    for (size_t i = 0; i < (size_t)br * bc; i++)
        if (dbl) ((double *)b)[i] = (double)(i % 5); else ((float *)b)[i] = (float)(i % 5);
    for (size_t i = 0; i < (size_t)m * n; i++)
        if (dbl) ((double *)c)[i] = 1; else ((float *)c)[i] = 1;
    const double al = 1, be = 1;
    const float fal = 1, fbe = 1;
    const void *alpha = dbl ? (const void *)&al : (const void *)&fal;
    const void *beta = dbl ? (const void *)&be : (const void *)&fbe;
    pumma_mem_peak(1);
    double t0 = MPI_Wtime();
    f(&ta, &tb, &m, &n, &k, alpha, a, &one, &one, da, b, &one, &one, db, beta,
      c, &one, &one, dc);
    double t = MPI_Wtime() - t0;
    double sum = 0;
    for (size_t i = 0; i < (size_t)m * n; i += 4099)
        sum += dbl ? ((double *)c)[i] : ((float *)c)[i];
    printf("%s %c%c%c m=%d n=%d k=%d: %.3f s, checksum %.17g, pumma_mem_peak %zu\n",
           argv[1], argv[2][0], ta, tb, m, n, k, t, sum,
           mine ? pumma_mem_peak(0) : (size_t)0);
    free(a); free(b); free(c);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return 0;
}
