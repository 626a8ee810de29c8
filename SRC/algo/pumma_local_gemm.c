/*
 * pumma_local_gemm.c -- the local multiply of an algorithm, cut into
 * panels so pending communication is advanced while it runs (HPL's "keep
 * testing" without threads), and, when asked, each panel started as soon
 * as its columns of op(B) have arrived: each panel is one pumma_blas_gemm
 * (SRC/base/pumma_local.c), slowed as PUMMA_SPEEDS says and counted by
 * PUMMA_STATS.
 */
#include "pumma_algo.h"

/* The global span (in sub(C)) a panel of a masked multiply may cover: the
 * rows across the diagonal, multiplied whole into a temporary, are at
 * most this many over the grid's rows (a share of span / N of the
 * multiply's work is done and dropped). */
#define MASK_SPAN 256

/* The end of the masked panel of local columns starting at j0: whole
 * runs of global columns (a block each) while the panel's global span
 * stays within MASK_SPAN, at least one run cut to MASK_SPAN. */
static int mask_panel_end(const pumma_problem_t *p, int j0, int n)
{
    const pumma_dist_t *d = &p->c.col;
    const int me = p->g->mycol;
    const int g0 = pumma_dist_global(d, j0, me);
    int j = j0;
    while (j < n) {
        /* the run of consecutive global columns from local j */
        const int gj = pumma_dist_global(d, j, me);
        const int blk = pumma_dist_block(d, gj);
        const int gend = pumma_dist_bstart(d, blk) + pumma_dist_bsize(d, blk);
        const int end = j + (gend - gj);
        if (j > j0 && gend - g0 > MASK_SPAN) break;
        j = end < n ? end : n;
        if (gend - g0 >= MASK_SPAN) {
            if (j - j0 > MASK_SPAN) j = j0 + MASK_SPAN;
            break;
        }
    }
    return j;
}

/* One masked panel: local columns [j0, j1) of p's C. */
static int mask_panel(const pumma_problem_t *p, char ta, char tb, int m,
                      int k, const void *alpha, const void *a, int lda,
                      const void *b, int ldb, const void *beta, void *c,
                      int ldc, int j0, int j1)
{
    const pumma_type_t *t = p->t;
    const pumma_view_t *v = &p->c;
    const int mr = p->g->myrow, mc = p->g->mycol;
    const int gf = pumma_dist_global(&v->col, j0, mc);
    const int gl = pumma_dist_global(&v->col, j1 - 1, mc);
    const int w = j1 - j0;
    /* kept by every column: [f0, f1); across the diagonal: [x0, x1) */
    int f0, f1, x0, x1;
    if (p->uplo == 'L') {
        x0 = pumma_dist_before(&v->row, gf, mr);
        x1 = f0 = pumma_dist_before(&v->row, gl, mr);
        f1 = m;
    } else {
        f0 = 0;
        x0 = f1 = pumma_dist_before(&v->row, gf + 1, mr);
        x1 = pumma_dist_before(&v->row, gl + 1, mr);
    }
    if (f1 > m) f1 = m;
    if (x1 > m) x1 = m;
    const char *bj = tb == 'N' ? pumma_at(t, b, 0, j0, ldb)
                               : pumma_at(t, b, j0, 0, ldb);
#define AROWS(r) (ta == 'N' ? pumma_at(t, a, r, 0, lda) : pumma_at(t, a, 0, r, lda))
    if (f1 > f0)
        pumma_blas_gemm(t, ta, tb, f1 - f0, w, k, alpha, AROWS(f0), lda, bj,
                        ldb, beta, pumma_at(t, c, f0, j0, ldc), ldc);
    if (x1 > x0) {
        const int h = x1 - x0;
        char *tmp = pumma_malloc((size_t)h * (size_t)w * t->size);
        if (!tmp) return PUMMA_ENOMEM;
        pumma_blas_gemm(t, ta, tb, h, w, k, alpha, AROWS(x0), lda, bj, ldb,
                        t->zero, tmp, h);
        for (int j = j0; j < j1; j++) {
            int r0, r1;
            pumma_trap_rows(v, mr, pumma_dist_global(&v->col, j, mc), p->uplo,
                            0, &r0, &r1);
            if (r0 < x0) r0 = x0;
            if (r1 > x1) r1 = x1;
            if (r1 > r0)
                t->geadd('N', r1 - r0, 1, t->one,
                         tmp + ((size_t)(j - j0) * h + (r0 - x0)) * t->size, h,
                         beta, pumma_at(t, c, r0, j, ldc), ldc);
        }
        pumma_free(tmp);
    }
#undef AROWS
    return PUMMA_OK;
}

int pumma_local_gemm_ready(const pumma_problem_t *p, char ta, char tb, int m,
                           int n, int k, const void *alpha, const void *a,
                           int lda, const void *b, int ldb, const void *beta,
                           void *c, int ldc, int panel, pumma_ready_fn ready,
                           pumma_progress_fn progress, void *ctx)
{
    const pumma_type_t *t = p->t;
    if (m <= 0 || n <= 0) return PUMMA_OK;
    if (p->uplo && k <= 0) {
        pumma_trap_scale(t, &p->c, p->g->myrow, p->g->mycol, p->uplo, beta);
        return PUMMA_OK;
    }
    if (p->uplo) {             /* one triangle of C: its own panels */
        int pending = progress && progress(ctx);
        for (int j = 0, j1; j < n; j = j1) {
            j1 = mask_panel_end(p, j, n);
            int rc;
            if (ready && (rc = ready(ctx, j1)) != PUMMA_OK) return rc;
            double t0 = pumma_stats_clock();
            if ((rc = mask_panel(p, ta, tb, m, k, alpha, a, lda, b, ldb,
                                 beta, c, ldc, j, j1)))
                return rc;
            pumma_stats_gemm(t0);
            if (pending && j1 < n) pending = progress(ctx);
        }
        return PUMMA_OK;
    }
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
