/*
 * timutil.h -- what the timers (solvertim.c, shapetim.c, firstcall.c, exectim.c,
 * simtim.c) share: deterministic matrix entries, block-cyclic matrices
 * and their filling, the slowest process's time, medians. Header-only (static functions): each driver is
 * one file and one program. Also the BLACS and ScaLAPACK tools they call.
 */
#ifndef TIMUTIL_H
#define TIMUTIL_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pumma.h"

void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
int numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *,
               const int *, const int *, const int *, const int *, int *);

/* Positive integers "N,N,.." into v (at most max of them): how many, or
 * -1 when the list is malformed. */
static inline int tim_ints(const char *s, int *v, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x <= 0 || x > 2147483647L) return -1;
        v[n++] = (int)x;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

/* The grids of a list "PxQ,PxQ,.." with P*Q = np, at most max of them,
 * into p[], q[] (list NULL: every p x q = np, p ascending); a malformed
 * list stops the program. */
static inline int tim_grids(const char *list, int np, int *p, int *q, int max)
{
    int n = 0;
    if (!list) {
        for (int P = 1; P <= np && n < max; P++)
            if (np % P == 0) { p[n] = P; q[n] = np / P; n++; }
        return n;
    }
    for (const char *s = list; *s && n < max;) {
        int P, Q, used;
        if (sscanf(s, "%dx%d%n", &P, &Q, &used) != 2 || P < 1 || Q < 1) {
            int me;
            MPI_Comm_rank(MPI_COMM_WORLD, &me);
            if (me == 0) fprintf(stderr, "bad grid list %s\n", list);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (P * Q == np) { p[n] = P; q[n] = Q; n++; }
        s += used;
        if (*s == ',') s++;
    }
    return n;
}

/* A BLACS grid of P x Q processes in row-major order: its context, and
 * this process's row and column in *myr, *myc. */
static inline int tim_gridinit(int P, int Q, int *myr, int *myc)
{
    int ctxt, pr, pc;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", P, Q);
    Cblacs_gridinfo(ctxt, &pr, &pc, myr, myc);
    return ctxt;
}

/* Entry (i, j) of matrix `id`: a hash of the indices, in [-0.5, 0.5). */
static double tim_entry(int id, int i, int j)
{
    uint64_t x = (uint64_t)id * 0x9E3779B97F4A7C15ULL ^
                 ((uint64_t)i << 32 | (uint32_t)j);
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return (double)(x >> 11) / 9007199254740992.0 - 0.5;
}

/* This process's mloc x nloc part (leading dimension lld) of matrix id,
 * block-cyclic with square blocks nb from process (0, 0) over P x Q,
 * plus diag on the diagonal. */
static void tim_fill(double *a, int lld, int mloc, int nloc, int nb, int myr,
                     int myc, int P, int Q, int id, double diag)
{
    for (int lj = 0; lj < nloc; lj++) {
        const int j = (lj / nb * Q + myc) * nb + lj % nb;
        for (int li = 0; li < mloc; li++) {
            const int i = (li / nb * P + myr) * nb + li % nb;
            a[li + (size_t)lj * lld] = tim_entry(id, i, j) + (i == j ? diag : 0);
        }
    }
}

/* A block-cyclic m x n matrix in nb x nb blocks from process (0, 0) on
 * a P x Q grid: its descriptor and this process's part, filled as matrix
 * id (tim_fill; id 0: left unfilled). a is NULL when out of memory. */
typedef struct tim_mat { int desc[9], mloc, nloc, lld; double *a; } tim_mat_t;
static inline void tim_mat_make(tim_mat_t *x, int id, int ctxt, int m,
                                int n, int nb, int myr, int myc, int P,
                                int Q)
{
    int zero = 0, info;
    x->mloc = numroc_(&m, &nb, &myr, &zero, &P);
    x->nloc = numroc_(&n, &nb, &myc, &zero, &Q);
    x->lld = x->mloc > 1 ? x->mloc : 1;
    descinit_(x->desc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &x->lld, &info);
    x->a = malloc(sizeof(double) * (size_t)x->lld *
                  (size_t)(x->nloc > 0 ? x->nloc : 1));
    if (x->a && id)
        tim_fill(x->a, x->lld, x->mloc, x->nloc, nb, myr, myc, P, Q, id, 0);
}

/* C := A B (square, order n, whole matrices) by pumma with algorithm
 * `algo` forced (a PUMMA_ALGO_* code, 0: pumma's choice); INFO. */
static inline int tim_square(int algo, int n, tim_mat_t *a, tim_mat_t *b,
                             tim_mat_t *c)
{
    const double one = 1, zero = 0;
    const int i1 = 1;
    pumma_options_t o = {0};
    o.algo = algo;
    int info;
    pumma_pdgemm_opts("N", "N", &n, &n, &n, &one, a->a, &i1, &i1, a->desc,
                      b->a, &i1, &i1, b->desc, &zero, c->a, &i1, &i1, c->desc,
                      &o, &info);
    return info;
}

/* The slowest process's seconds since t0 (collective over the world). */
static inline double tim_slowest(double t0)
{
    double t = MPI_Wtime() - t0, mx;
    MPI_Allreduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return mx;
}

static int tim_cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of t[0..n-1] (sorts t). */
static inline double tim_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof(double), tim_cmp);
    return t[n / 2];
}

#endif
