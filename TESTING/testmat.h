/*
 * testmat.h -- what the random test drivers (pgemmcmp.c, stresstst.c)
 * share: draws that every process makes alike, the global entries of
 * their matrices, and where a global index lives in a block-cyclic
 * distribution. Written from ScaLAPACK's definition of the distribution
 * (first block ib, then blocks of b, dealt round np processes from src;
 * src -1: every process holds everything), independently of pumma's own
 * index code, which it checks.
 */
#ifndef TESTMAT_H
#define TESTMAT_H

/* The drivers' draws: the same sequence on every process. */
static unsigned long long rng;
static int rnd(int lo, int hi) /* inclusive */
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((rng >> 33) % (unsigned long long)(hi - lo + 1));
}

/* Entry (i, j) of global matrix `id`, part 0 (real) or 1 (imaginary), in
 * [-1, 1]: the same on every process, so each fills its own part. */
static double val(int id, int i, int j, int part)
{
    unsigned long long h = (unsigned long long)id * 1000003ULL ^
                           (unsigned long long)i * 19349663ULL ^
                           (unsigned long long)j * 83492791ULL ^
                           (unsigned long long)part * 2654435761ULL;
    h ^= h >> 29; h *= 0xbf58476d1ce4e5b9ULL; h ^= h >> 32;
    return (double)(h % 2000001ULL) / 1000000.0 - 1.0;
}

/* Local count of n indices with first block ib, block b, source src. */
static int lcount(int n, int ib, int b, int src, int me, int np)
{
    if (src < 0) return n;
    int cnt = 0;
    for (int x = 0, blk = 0; x < n; blk++) {
        int sz = blk == 0 ? ib : b;
        if (sz > n - x) sz = n - x;
        if ((src + blk) % np == me) cnt += sz;
        x += sz;
    }
    return cnt;
}

/* Owner and local index of global index g. */
static void locate(int g, int ib, int b, int src, int np, int me, int *own,
                   int *loc)
{
    if (src < 0) { *own = me; *loc = g; return; }
    int blk = g < ib ? 0 : 1 + (g - ib) / b;
    *own = (src + blk) % np;
    int c = 0;
    for (int k = 0; k < blk; k++)
        if ((src + k) % np == *own) c += k == 0 ? ib : b;
    *loc = c + (g < ib ? g : (g - ib) % b);
}

#endif
