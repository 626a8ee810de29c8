/*
 * pumma_local.c -- the local work every algorithm shares: scaling a piece of
 * C, the local multiply cut into panels (so pending communication is
 * advanced while it runs, HPL's "keep testing" without threads), and the
 * fatal-error exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_internal.h"

void pumma_local_scale(const pumma_type_t *t, int m, int n, const void *beta,
                       void *c, int ldc)
{
    if (m <= 0 || n <= 0 || t->is_one(beta)) return;
    /* geadd with alpha = 0 would read C's NaNs; beta = 0 must not. */
    if (t->is_zero(beta)) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                memcpy(pumma_at(t, c, i, j, ldc), t->zero, t->size);
        return;
    }
    t->geadd('N', m, n, t->zero, c, ldc, beta, c, ldc);
}

void pumma_local_gemm(const pumma_problem_t *p, char ta, char tb, int m,
                      int n, int k, const void *alpha, const void *a, int lda,
                      const void *b, int ldb, const void *beta, void *c,
                      int ldc, pumma_progress_fn progress, void *ctx)
{
    const pumma_type_t *t = p->t;
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        pumma_local_scale(t, m, n, beta, c, ldc);
        return;
    }
    int panel = n;
    if (progress && p->opts && p->opts->panel > 0) panel = p->opts->panel;
    const int slow = pumma_speed_factor() > 1;
    for (int j = 0; j < n; j += panel) {
        int w = n - j < panel ? n - j : panel;
        const char *bj = tb == 'N' ? pumma_at(t, b, 0, j, ldb)
                                   : pumma_at(t, b, j, 0, ldb);
        double t0 = pumma_stats_clock();
        double ts = slow ? MPI_Wtime() : 0, cs = slow ? pumma_cpu_time() : 0;
        t->gemm(&ta, &tb, &m, &w, &k, alpha, a, &lda, bj, &ldb, beta,
                pumma_at(t, c, 0, j, ldc), &ldc, 1, 1);
        if (slow)                                     /* PUMMA_SPEEDS */
            pumma_speed_pad(MPI_Wtime() - ts, pumma_cpu_time() - cs,
                            progress, ctx);
        pumma_stats_gemm(t0);
        if (progress && j + w < n) progress(ctx);
    }
}

void pumma_fatal(const pumma_grid_t *g, const char *rout, const char *what,
                 int status)
{
    static const char *const why[] = {"ok", "out of memory",
                                      "MPI call failed",
                                      "cannot map the BLACS grid to MPI"};
    fprintf(stderr, "pumma: %s: %s (%s)\n", rout, what,
            status >= 0 && status <= 3 ? why[status] : "internal error");
    MPI_Abort(g ? g->all : MPI_COMM_WORLD, 1);
}
