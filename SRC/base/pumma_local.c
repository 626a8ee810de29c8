/*
 * pumma_local.c -- the local work every algorithm shares: scaling a piece of
 * C, and the one place pumma calls the BLAS ?gemm on a caller's C
 * (pumma_blas_gemm, with the large-LDC workaround below). The multiply cut
 * into panels is the algorithms' (SRC/algo/pumma_local_gemm.c).
 *
 * Large LDC. OpenBLAS 0.3.21 (Debian 12, the libblas.so.3 alternative
 * here too) has "small matrix" kernels for SGEMM and DGEMM on SkylakeX and
 * Cooperlake cores (this machine), taken when M*N*K <= 10^6. Its SGEMM ones
 * address the columns of C through 32-bit vector indices j*LDC: 16 lanes
 * in NT and TT (kernel/x86_64/sgemm_small_kernel_{nt,tt}_skylakex.c), 4 in
 * NN and TN. Measured here (fork per case, M 1-100, N 2-33, K 1-40, every
 * transpose): SGEMM NT and TT crash or write the wrong place from LDC =
 * 143165577 = ceil(2^31 / 15) on (as soon as (min(N,16)-1)*LDC >= 2^31),
 * NN and TN from LDC = 715827883 (3*LDC >= 2^31); DGEMM's kernels use
 * 64-bit indices and never failed, nor did any large LDA or LDB. So: when
 * LDC > PUMMA_BLAS_LDC_MAX = (2^31-1)/15 and C has more than one column,
 * S and D (D as a precaution: it was reported, if not reproduced here) are
 * multiplied into a temporary with a small leading dimension, a block of
 * at most BLAS_TMP_BYTES at a time, which is then added into C with the
 * caller's beta (C is read only when beta != 0, as the BLAS would). Only
 * a one-column multiply never needs LDC, so if even that block cannot be
 * allocated the product is made one column of C at a time, in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_base.h"

/* Bytes of the temporary block of the large-LDC workaround. */
#define BLAS_TMP_BYTES ((size_t)4 << 20)

int pumma_blas_ldc_bad(const pumma_type_t *t, int n, int64_t ldc)
{
    return !t->is_complex && n > 1 && ldc > PUMMA_BLAS_LDC_MAX;
}

/* The workaround's block: h rows (at most the temporary's elements, far
 * below the bad LDC) by w columns (at least one). */
static void tmp_block(const pumma_type_t *t, int m, int n, int *h, int *w)
{
    const size_t cap = BLAS_TMP_BYTES / t->size;
    *h = (size_t)m > cap ? (int)cap : m;
    size_t cols = cap / (size_t)*h;
    *w = cols < 1 ? 1 : cols > (size_t)n ? n : (int)cols;
}

size_t pumma_blas_gemm_workspace(const pumma_type_t *t, int m, int n,
                                 int64_t ldc)
{
    if (!pumma_blas_ldc_bad(t, n, ldc) || m <= 0) return 0;
    int h, w;
    tmp_block(t, m, n, &h, &w);
    return (size_t)h * (size_t)w * t->size;
}

/*
 * pumma_blas_gemm: C := alpha*op(A)*op(B) + beta*C by the type's BLAS
 * ?gemm, all arguments as the BLAS takes them (local input; C local
 * input/output), m, n, k > 0; working around the BLAS's large-LDC defect
 * (see the top of this file). beta == 0 never reads C. The flags the
 * BLAS raises are the caller's (pumma_base.h).
 */
static void blas_gemm(const pumma_type_t *t, char ta, char tb, int m, int n,
                      int k, const void *alpha, const void *a, int lda,
                      const void *b, int ldb, const void *beta, void *c,
                      int ldc)
{
    if (!pumma_blas_ldc_bad(t, n, ldc)) {
        t->gemm(&ta, &tb, &m, &n, &k, alpha, a, &lda, b, &ldb, beta, c, &ldc,
                1, 1);
        return;
    }
    int h, w;
    tmp_block(t, m, n, &h, &w);
    char *tmp = pumma_malloc((size_t)h * (size_t)w * t->size);
    if (!tmp) {                /* one column at a time: LDC is not used */
        for (int j = 0; j < n; j++) {
            const char *bj = tb == 'N' ? pumma_at(t, b, 0, j, ldb)
                                       : pumma_at(t, b, j, 0, ldb);
            int one = 1;
            t->gemm(&ta, &tb, &m, &one, &k, alpha, a, &lda, bj, &ldb, beta,
                    pumma_at(t, c, 0, j, ldc), &ldc, 1, 1);
        }
        return;
    }
    for (int j = 0; j < n; j += w) {
        int wj = n - j < w ? n - j : w;
        const char *bj = tb == 'N' ? pumma_at(t, b, 0, j, ldb)
                                   : pumma_at(t, b, j, 0, ldb);
        for (int i = 0; i < m; i += h) {
            int hi = m - i < h ? m - i : h;
            const char *ai = ta == 'N' ? pumma_at(t, a, i, 0, lda)
                                       : pumma_at(t, a, 0, i, lda);
            t->gemm(&ta, &tb, &hi, &wj, &k, alpha, ai, &lda, bj, &ldb,
                    t->zero, tmp, &hi, 1, 1);
            t->geadd('N', hi, wj, t->one, tmp, hi, beta,
                     pumma_at(t, c, i, j, ldc), ldc);
        }
    }
    pumma_free(tmp);
}

/* Whether the BLAS has multiplied here: its buffer is then taken (read by
 * the memory limit's survey, SRC/driver/pumma_memlimit.c). */
static int blas_ran = 0;

void pumma_blas_gemm(const pumma_type_t *t, char ta, char tb, int m, int n,
                     int k, const void *alpha, const void *a, int lda,
                     const void *b, int ldb, const void *beta, void *c,
                     int ldc)
{
    pumma_fenv_data_begin();
    blas_gemm(t, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    pumma_fenv_data_end();
    blas_ran = 1;
}

int pumma_blas_ran(void) { return blas_ran; }

/* No LDC workaround here: OpenBLAS's small-matrix kernels are GEMM's
 * (see the top of this file); ?trsm and ?trmm go through its level-3
 * drivers, whose kernels index with 64-bit BLASLONG. */
void pumma_blas_trxm(const pumma_type_t *t, int solve, char side, char uplo,
                     char ta, char diag, int m, int n, const void *alpha,
                     const void *a, int lda, void *b, int ldb)
{
    pumma_fenv_data_begin();
    (solve ? t->trsm : t->trmm)(&side, &uplo, &ta, &diag, &m, &n, alpha, a,
                                &lda, b, &ldb, 1, 1, 1, 1);
    pumma_fenv_data_end();
    blas_ran = 1;
}

void pumma_local_scale(const pumma_type_t *t, int m, int n, const void *beta,
                       void *c, int ldc)
{
    if (m <= 0 || n <= 0 || t->is_one(beta)) return;
    /* geadd with alpha = 0 would read C's NaNs; beta = 0 must not. */
    if (t->is_zero(beta)) {     /* IEEE zeros are all bits zero */
        for (int j = 0; j < n; j++)
            memset(pumma_at(t, c, 0, j, ldc), 0, (size_t)m * t->size);
        return;
    }
    t->geadd('N', m, n, t->zero, c, ldc, beta, c, ldc);
}
