/*
 * timutil.h -- what the solver and shape timers (solvertim.c, shapetim.c)
 * share: deterministic matrix entries, block-cyclic filling, the slowest
 * process's time, medians. Header-only (static functions): each driver is
 * one file and one program.
 */
#ifndef TIMUTIL_H
#define TIMUTIL_H

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

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

/* The slowest process's seconds since t0 (collective over the world). */
static double tim_slowest(double t0)
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
static double tim_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof(double), tim_cmp);
    return t[n / 2];
}

#endif
