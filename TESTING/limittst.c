/*
 * limittst.c -- one PDGEMM under the process's memory limit: pumma's or
 * ScaLAPACK's (reached with dlopen/dlsym), C := A*B + C on a 1xNP grid,
 * N x N, NB 64, small integers (exact: C w is checked against
 * op(A) (op(B) w) + C0 w for a vector w of small integers).
 *
 *   mpiexec -n NP ./xlimittst pumma|scalapack N [TRANSA TRANSB [BALLAST]]
 *
 * limittst.sh runs it under `ulimit -v` (RLIMIT_AS) and RLIMIT_DATA: a call
 * whose operands fit must either pass or stop with pumma's message naming
 * the limit; it must never spin (doc/memory.md, "Memory limits"). Prints
 * the processes' largest virtual and data sizes before and after the call
 * (kB), then "limittst: PASSED" (status 0) or "limittst: FAILED ..."
 * (status 1).
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "blacs.h"

/* This process's VmSize, VmPeak and VmData (kB) from /proc. */
static void vm_of(long *size, long *peak, long *data)
{
    *size = *peak = *data = -1;
    FILE *f = fopen("/proc/self/status", "r");
    char l[256];
    while (f && fgets(l, sizeof l, f)) {
        sscanf(l, "VmSize: %ld", size);
        sscanf(l, "VmPeak: %ld", peak);
        sscanf(l, "VmData: %ld", data);
    }
    if (f) fclose(f);
}

/* A(i,j), B(i,j), C(i,j): small integers, so sums are exact */
static double av(int i, int j) { return (double)((i + 2 * j) % 7 - 3); }
static double bv(int i, int j) { return (double)((3 * i + j) % 5 - 2); }
static double cv(int i, int j) { return (double)((i * j) % 3); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    Cblacs_pinfo(&me, &np);
    if (argc < 3) {
        if (me == 0) fprintf(stderr, "usage: xlimittst pumma|scalapack N "
                                     "[TRANSA TRANSB [BALLAST_MIB]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int mine = !strcmp(argv[1], "pumma"), n = atoi(argv[2]), nb = 64;
    const char *ta = argc > 3 ? argv[3] : "N", *tb = argc > 4 ? argv[4] : "N";
    gemm_fn *gemm = (gemm_fn *)pdgemm_;
    if (!mine) {
        void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
        gemm = h ? (gemm_fn *)dlsym(h, "pdgemm_") : NULL;
        if (!gemm) MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int ctxt, P, Q, r, c;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_gridinfo(ctxt, &P, &Q, &r, &c);
    /* columns of this process: blocks c, c+Q, ... */
    int nloc = 0;
    for (int j = 0; j < n; j++) nloc += (j / nb) % Q == c;
    const int lld = n > 1 ? n : 1, ld1 = nloc > 1 ? nloc : 1;
    double *a = malloc(sizeof(double) * (size_t)lld * (size_t)ld1);
    double *b = malloc(sizeof(double) * (size_t)lld * (size_t)ld1);
    double *cc = malloc(sizeof(double) * (size_t)lld * (size_t)ld1);
    if (!a || !b || !cc) {
        fprintf(stderr, "limittst: no memory for the operands\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    const int desc0[9] = {1, ctxt, n, n, nb, nb, 0, 0, lld}, one1 = 1;
    for (int j = 0, lj = 0; j < n; j++) {
        if ((j / nb) % Q != c) continue;
        for (int i = 0; i < n; i++) {
            size_t at = (size_t)i + (size_t)lj * lld;
            a[at] = av(i, j);
            b[at] = bv(i, j);
            cc[at] = cv(i, j);
        }
        lj++;
    }
    /* BALLAST: small calls first (the room is measured then), then that
     * many MiB more of the program's own, then the call: the room must be
     * measured again, not taken from the small calls' */
    const long ballast = argc > 5 ? atol(argv[5]) : 0;
    char *extra = NULL;
    if (ballast > 0) {
        const int s = 200;     /* on both processes: the grid measures */
        double zero = 0, unit = 1;
        for (int i = 0; i < 3; i++)
            gemm(ta, tb, &s, &s, &s, &unit, a, &one1, &one1, desc0, b, &one1,
                 &one1, desc0, &zero, cc, &one1, &one1, desc0);
        extra = malloc((size_t)ballast << 20);
        if (!extra) MPI_Abort(MPI_COMM_WORLD, 3);
        memset(extra, 1, (size_t)ballast << 20);
        for (int j = 0, lj = 0; j < n; j++) {     /* C as it was */
            if ((j / nb) % Q != c) continue;
            for (int i = 0; i < n; i++) cc[(size_t)i + (size_t)lj * lld] = cv(i, j);
            lj++;
        }
    }
    long vm[2][3];               /* before and after: size, peak, data */
    vm_of(&vm[0][0], &vm[0][1], &vm[0][2]);
    int desc[9] = {1, ctxt, n, n, nb, nb, 0, 0, lld}, one = 1;
    double alpha = 1, beta = 1;
    gemm(ta, tb, &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one,
         desc, &beta, cc, &one, &one, desc);
    vm_of(&vm[1][0], &vm[1][1], &vm[1][2]);
    /* C w over this process's columns, w small integers: exact, and
     * O(N^2) against op(A) (op(B) w) + C0 w */
    long bad = 0;
    const int at_ = ta[0] != 'N' && ta[0] != 'n';
    const int bt_ = tb[0] != 'N' && tb[0] != 'n';
    double *bw = calloc((size_t)n, sizeof(double));
    for (int l = 0; l < n && bw; l++)
        for (int j = 0; j < n; j++)
            if ((j / nb) % Q == c)
                bw[l] += (bt_ ? bv(j, l) : bv(l, j)) * (double)(j % 3 + 1);
    for (int i = 0; i < n && bw; i++) {
        double got = 0, want = 0;
        for (int j = 0, lj = 0; j < n; j++) {
            if ((j / nb) % Q != c) continue;
            got += cc[(size_t)i + (size_t)lj * lld] * (double)(j % 3 + 1);
            want += cv(i, j) * (double)(j % 3 + 1);
            lj++;
        }
        for (int l = 0; l < n; l++) want += (at_ ? av(l, i) : av(i, l)) * bw[l];
        bad += got != want;
    }
    if (!bw) bad = 1;
    free(bw);
    long all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    /* the most over the processes, for limittst.sh to set limits by */
    long most[2][3];
    MPI_Reduce(vm, most, 6, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0) {
        printf("limittst: kB before: size=%ld data=%ld; after: size=%ld "
               "peak=%ld data=%ld\n", most[0][0], most[0][2], most[1][0],
               most[1][1], most[1][2]);
        if (all) printf("limittst: FAILED %ld entries wrong\n", all);
        else printf("limittst: PASSED (%s, N=%d, %s%s)\n", argv[1], n, ta, tb);
    }
    free(a);
    free(b);
    free(cc);
    free(extra);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return all != 0;
}

