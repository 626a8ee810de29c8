/*
 * pumma_local_gemm.c -- the local multiply of an algorithm, cut into
 * panels so pending communication is advanced while it runs (HPL's "keep
 * testing" without threads), and, when asked, each panel started as soon
 * as its columns of op(B) have arrived: each panel is one pumma_blas_gemm
 * (SRC/base/pumma_local.c), slowed as PUMMA_SPEEDS says and counted by
 * PUMMA_STATS.
 */
#include "pumma_algo.h"

/*
 * The masked multiply (p->uplo: one triangle of C), panel by panel. A
 * panel is whole runs of local columns (a run: consecutive global
 * columns, one block) over a global span of at most MASK_SPAN, and its
 * work is exact but for small leaves:
 *   - the rows every column of the panel keeps (L: from the panel's last
 *     column's diagonal down; U: up to its first's): one wide multiply;
 *   - for each run, the rows between that and the run's own diagonal
 *     square, all kept by the run's columns: one multiply;
 *   - the run's diagonal square, cut in halves recursively: the quadrant
 *     off the diagonal one multiply, the two diagonal ones again, down to
 *     MASK_LEAF columns, which go whole into a temporary and are added
 *     where kept.
 * With P grid rows a square's rows are those of its global range this
 * process holds (pumma_dist_before), so every grid takes the same path.
 */
#define MASK_SPAN 256
#define MASK_LEAF 32

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

/* What one masked multiply shares: the operands and the scalars. */
typedef struct mask {
    const pumma_problem_t *p;
    char ta, tb;
    int m, k, lda, ldb, ldc;
    const void *alpha, *beta;
    const char *a, *b;
    char *c;
} mask_t;

/* Local rows [r0, r1) x local columns [j0, j1) of C, all kept. */
static void mask_full(const mask_t *x, int r0, int r1, int j0, int j1)
{
    const pumma_type_t *t = x->p->t;
    if (r1 > x->m) r1 = x->m;
    if (r1 <= r0 || j1 <= j0) return;
    const char *ar = x->ta == 'N' ? pumma_at(t, x->a, r0, 0, x->lda)
                                  : pumma_at(t, x->a, 0, r0, x->lda);
    const char *bj = x->tb == 'N' ? pumma_at(t, x->b, 0, j0, x->ldb)
                                  : pumma_at(t, x->b, j0, 0, x->ldb);
    pumma_blas_gemm(t, x->ta, x->tb, r1 - r0, j1 - j0, x->k, x->alpha, ar,
                    x->lda, bj, x->ldb, x->beta,
                    pumma_at(t, x->c, r0, j0, x->ldc), x->ldc);
}

/* The diagonal square of global columns (and rows) [ga, gb), local
 * columns from ja: see the top. */
static int mask_square(const mask_t *x, int ga, int gb, int ja)
{
    const pumma_problem_t *p = x->p;
    const pumma_type_t *t = p->t;
    const pumma_dist_t *rows = &p->c.row;
    const int me = p->g->myrow, w = gb - ga;
    if (w <= 0) return PUMMA_OK;
    if (w > MASK_LEAF) {
        const int gm = ga + w / 2, jm = ja + (gm - ga);
        int rc = mask_square(x, ga, gm, ja);
        if (rc) return rc;
        if (p->uplo == 'L')          /* rows [gm, gb) of columns [ga, gm) */
            mask_full(x, pumma_dist_before(rows, gm, me),
                      pumma_dist_before(rows, gb, me), ja, jm);
        else                         /* rows [ga, gm) of columns [gm, gb) */
            mask_full(x, pumma_dist_before(rows, ga, me),
                      pumma_dist_before(rows, gm, me), jm, ja + w);
        return mask_square(x, gm, gb, jm);
    }
    int x0 = pumma_dist_before(rows, ga, me), x1 = pumma_dist_before(rows, gb, me);
    if (x1 > x->m) x1 = x->m;
    if (x1 <= x0) return PUMMA_OK;
    const int h = x1 - x0;
    char *tmp = pumma_malloc((size_t)h * (size_t)w * t->size);
    if (!tmp) return PUMMA_ENOMEM;
    const char *ar = x->ta == 'N' ? pumma_at(t, x->a, x0, 0, x->lda)
                                  : pumma_at(t, x->a, 0, x0, x->lda);
    const char *bj = x->tb == 'N' ? pumma_at(t, x->b, 0, ja, x->ldb)
                                  : pumma_at(t, x->b, ja, 0, x->ldb);
    pumma_blas_gemm(t, x->ta, x->tb, h, w, x->k, x->alpha, ar, x->lda, bj,
                    x->ldb, t->zero, tmp, h);
    for (int j = 0; j < w; j++) {
        int r0, r1;
        pumma_trap_rows(&p->c, me, ga + j, p->uplo, 0, &r0, &r1);
        if (r0 < x0) r0 = x0;
        if (r1 > x1) r1 = x1;
        if (r1 > r0)
            t->geadd('N', r1 - r0, 1, t->one,
                     tmp + ((size_t)j * h + (r0 - x0)) * t->size, h, x->beta,
                     pumma_at(t, x->c, r0, ja + j, x->ldc), x->ldc);
    }
    pumma_free(tmp);
    return PUMMA_OK;
}

/* One masked panel: local columns [j0, j1) of p's C. */
static int mask_panel(const mask_t *x, int j0, int j1)
{
    const pumma_problem_t *p = x->p;
    const pumma_dist_t *rows = &p->c.row, *cols = &p->c.col;
    const int mr = p->g->myrow, mc = p->g->mycol;
    const int gf = pumma_dist_global(cols, j0, mc);
    const int gl = pumma_dist_global(cols, j1 - 1, mc);
    if (p->uplo == 'L')
        mask_full(x, pumma_dist_before(rows, gl + 1, mr), x->m, j0, j1);
    else
        mask_full(x, 0, pumma_dist_before(rows, gf, mr), j0, j1);
    for (int j = j0; j < j1;) {          /* each run */
        const int ga = pumma_dist_global(cols, j, mc);
        const int blk = pumma_dist_block(cols, ga);
        int gb = pumma_dist_bstart(cols, blk) + pumma_dist_bsize(cols, blk);
        if (gb - ga > j1 - j) gb = ga + (j1 - j);
        if (p->uplo == 'L')    /* below its square, above the panel's rows */
            mask_full(x, pumma_dist_before(rows, gb, mr),
                      pumma_dist_before(rows, gl + 1, mr), j, j + (gb - ga));
        else                   /* below the panel's rows, above its square */
            mask_full(x, pumma_dist_before(rows, gf, mr),
                      pumma_dist_before(rows, ga, mr), j, j + (gb - ga));
        const int rc = mask_square(x, ga, gb, j);
        if (rc) return rc;
        j += gb - ga;
    }
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
            const mask_t x = {p, ta, tb, m, k, lda, ldb, ldc, alpha, beta,
                              a, b, c};
            if ((rc = mask_panel(&x, j, j1))) return rc;
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
