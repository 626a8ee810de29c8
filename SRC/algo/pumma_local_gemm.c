/*
 * pumma_local_gemm.c -- the local multiply of an algorithm, cut into
 * panels so pending communication is advanced while it runs (HPL's "keep
 * testing" without threads), and, when asked, each panel started as soon
 * as its columns of op(B) have arrived: each panel is one pumma_blas_gemm
 * (SRC/base/pumma_local.c), slowed as PUMMA_SPEEDS says and counted by
 * PUMMA_STATS.
 */
#include "pumma_algo.h"

int pumma_local_gemm_ready(const pumma_problem_t *p, char ta, char tb, int m,
                           int n, int k, const void *alpha, const void *a,
                           int lda, const void *b, int ldb, const void *beta,
                           void *c, int ldc, int panel, pumma_ready_fn ready,
                           pumma_progress_fn progress, void *ctx)
{
    const pumma_type_t *t = p->t;
    if (m <= 0 || n <= 0) return PUMMA_OK;
    if (k <= 0) {
        pumma_local_scale(t, m, n, beta, c, ldc);
        return PUMMA_OK;
    }
    if (panel <= 0 || panel > n) panel = n;
    int pending = panel < n && progress && progress(ctx);
    const int slow = pumma_speed_factor() > 1;
    /* Panels of a fixed width, even once nothing is pending: which
     * columns a ?gemm call gets must not depend on when messages arrive,
     * because the BLAS may round a column differently by where it falls
     * in the call (OpenBLAS's edge kernels on AMD EPYC do), and the same
     * call must give the same C to the last bit every time. */
    for (int j = 0, w; j < n; j += w) {
        w = n - j > panel ? panel : n - j;
        int rc;
        if (ready && (rc = ready(ctx, j + w)) != PUMMA_OK) return rc;
        const char *bj = tb == 'N' ? pumma_at(t, b, 0, j, ldb)
                                   : pumma_at(t, b, j, 0, ldb);
        double t0 = pumma_stats_clock();
        double ts = slow ? MPI_Wtime() : 0, cs = slow ? pumma_cpu_time() : 0;
        pumma_blas_gemm(t, ta, tb, m, w, k, alpha, a, lda, bj, ldb, beta,
                        pumma_at(t, c, 0, j, ldc), ldc);
        if (slow)                                     /* PUMMA_SPEEDS */
            pumma_speed_pad(MPI_Wtime() - ts, pumma_cpu_time() - cs,
                            progress, ctx);
        pumma_stats_gemm(t0);
        if (pending && j + w < n) pending = progress(ctx);
    }
    return PUMMA_OK;
}

void pumma_local_gemm(const pumma_problem_t *p, char ta, char tb, int m,
                      int n, int k, const void *alpha, const void *a, int lda,
                      const void *b, int ldb, const void *beta, void *c,
                      int ldc, pumma_progress_fn progress, void *ctx)
{
    const int panel = progress && p->plan && p->plan->panel > 0
                          ? p->plan->panel : n;
    pumma_local_gemm_ready(p, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta,
                           c, ldc, panel, NULL, progress, ctx);
}
