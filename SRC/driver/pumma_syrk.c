/*
 * pumma_syrk.c -- P?SYRK, P?HERK, P?SYR2K and P?HER2K: one triangle of
 * sub(C), UPLO's, updated by a product and its transpose,
 *
 *   SYRK   C := alpha*A*A**T + beta*C          (TRANS 'N'; 'T': A**T*A)
 *   HERK   C := alpha*A*A**H + beta*C          (alpha, beta real)
 *   SYR2K  C := alpha*A*B**T + alpha*B*A**T + beta*C
 *   HER2K  C := alpha*A*B**H + conjg(alpha)*B*A**H + beta*C  (beta real)
 *
 * and the other triangle neither read nor written. Each product is one
 * P?GEMM of pumma's (pumma_gemm_inner) with the triangle as its mask: the
 * rankk row, C kept where it is, op(A)'s panels broadcast along the grid's
 * rows and op(B)'s (the same A, transposed) down its columns by the
 * variants the model prices, and the local multiply doing only the
 * triangle's columns' rows (pumma_local_gemm.c): about half a P?GEMM's
 * flops. When K is long beside N (LONG_K), the whole product goes into a
 * temporary laid out as sub(C), planned freely, and its triangle is
 * added. P?HERK and P?HER2K make C's diagonal real: its imaginary parts
 * are not read (zeroed before beta scales them) and are zero on exit.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "pumma.h"
#include "pumma_driver.h"

/* The complex scalar re + 0i of t from a real one (16 bytes at out). */
static void real_scalar(const pumma_type_t *t, const void *re, void *out)
{
    memset(out, 0, t->size);
    memcpy(out, re, t->size / 2);
}

/* The second product's scalar: conjg(alpha) for HER2K, else alpha. */
static void conj_scalar(const pumma_type_t *t, int herm, const void *alpha,
                        double out[2])
{
    memcpy(out, alpha, t->size);
    if (!herm) return;
    if (t->letter == 'C') ((float *)out)[1] = -((float *)out)[1];
    else out[1] = -out[1];
}

/* K at least this many times N: C is small beside the operands, and the
 * products that sum partial results over K (tn, stat-a, ...) move far
 * less than rankk's broadcasts of A's panels (PDLAUUM: N = NB, K the
 * rest of the matrix). Twice a triangle's flops, on a small C. */
#define LONG_K 2

/* Whether K of op(X) (X = sub(A) or sub(B), N x K for TRANS 'N', else
 * K x N) lies on more than one process, so that partial products over K
 * can be summed. When one process holds it all, the long-K path would
 * only double that process's flops (PDLAUUM's N = NB on 2x1: the whole
 * product alone, 0.66 of ScaLAPACK's speed): the masked product is
 * taken, local when C is there too. */
static int k_spread(const pumma_type_t *t, const pumma_grid_t *shape,
                    char tr, const void *x, const int *dX, int ix, int jx,
                    int n, int k)
{
    const pumma_view_t v = tr == 'N'
        ? pumma_view_of(t, shape, x, dX, ix - 1, jx - 1, n, k)
        : pumma_view_of(t, shape, x, dX, ix - 1, jx - 1, k, n);
    const pumma_dist_t *d = tr == 'N' ? &v.col : &v.row;
    return d->np > 1 && d->src >= 0 && pumma_dist_sole(d) < 0;
}

/* The line of processes holding op(A)'s N indices of sub(A) (a grid row
 * for TRANS 'N', a column for 'T' and 'C'), when it is one and sub(C)
 * lies on one process of it: that process's coordinate along the line
 * in *root; else -1. Global values only: every process finds the same. */
static int one_line(const pumma_view_t *va, const pumma_view_t *vc, char tr,
                    int *root)
{
    const int line = pumma_dist_sole(tr == 'N' ? &va->row : &va->col);
    const int rc = pumma_dist_sole(&vc->row), cc = pumma_dist_sole(&vc->col);
    if (line < 0 || rc < 0 || cc < 0 || line != (tr == 'N' ? rc : cc) ||
        (int64_t)vc->row.n * vc->row.n > INT_MAX)   /* (one MPI_Reduce) */
        return -1;
    *root = tr == 'N' ? cc : rc;
    return line;
}

/* Columns of the triangle per multiply in ksum_one: the triangle in
 * KSUM_PANELS column panels, each with the rows it needs (9/16 of the
 * square's flops), none narrower than KSUM_LEAST. */
enum { KSUM_PANELS = 8, KSUM_LEAST = 2 };

/*
 * P?SYRK, P?HERK with K long beside N and spread over the processes of
 * one grid line (row for TRANS 'N', column for 'T', 'C') that holds all
 * of op(A)'s N indices, sub(C) on one process of that line: PDLAUUM's
 * update, N = NB. Each process of the line multiplies its own K-slice
 * into an N x N temporary, only the triangle's panels (about half the
 * flops of the whole product, which the long-K path computes), the line
 * sums them onto sub(C)'s process (MPI_Reduce), which adds the triangle.
 * 0.69-0.72 of ScaLAPACK's speed on 1x2 at NB 256 by the whole product.
 */
static void ksum_one(const pumma_type_t *t, const char *name, int ctxt,
                     char u, char tr, char tt, int n, const void *alpha,
                     const pumma_view_t *va, const void *beta,
                     const pumma_view_t *vc, int line, int root)
{
    const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
    const int nt = tr == 'N';
    if ((nt ? g->myrow : g->mycol) != line) return;
    pumma_stats_begin(name, "algo=ksum-one");
    const int me = nt ? g->mycol : g->myrow;
    const int kloc = nt ? pumma_view_nloc(va, g->mycol)
                        : pumma_view_mloc(va, g->myrow);
    const size_t e = t->size, nn = (size_t)n * (size_t)n;
    char *w = pumma_malloc(nn * e);
    if (!w) pumma_fatal(g->all, name, "temporary", PUMMA_ENOMEM);
    memset(w, 0, nn * e);     /* (what the panels leave is summed too) */
    int width = (n + KSUM_PANELS - 1) / KSUM_PANELS;
    if (width < KSUM_LEAST) width = KSUM_LEAST;
    const double t0 = pumma_stats_clock();
    for (int j0 = 0; kloc > 0 && j0 < n; j0 += width) {
        const int wd = n - j0 < width ? n - j0 : width;
        /* U: rows [0, j0 + wd) of the panel; L: rows [j0, n) */
        const int r0 = u == 'U' ? 0 : j0;
        const int rows = u == 'U' ? j0 + wd : n - j0;
        char *wp = w + ((size_t)j0 * n + (size_t)r0) * e;
        if (nt)
            pumma_blas_gemm(t, 'N', tt, rows, wd, kloc, alpha,
                            va->data + (size_t)r0 * e, va->ld,
                            va->data + (size_t)j0 * e, va->ld, t->zero, wp,
                            n);
        else
            pumma_blas_gemm(t, tt, 'N', rows, wd, kloc, alpha,
                            va->data + (size_t)r0 * va->ld * e, va->ld,
                            va->data + (size_t)j0 * va->ld * e, va->ld,
                            t->zero, wp, n);
    }
    pumma_stats_gemm(t0);
    const double t1 = pumma_stats_clock();
    int rc = MPI_Reduce(me == root ? MPI_IN_PLACE : w, w, (int)nn, t->mpi,
                        MPI_SUM, root, nt ? g->row : g->col);
    pumma_stats_comm(t1);
    if (rc != MPI_SUCCESS) pumma_fatal(g->all, name, "reduce", PUMMA_EMPI);
    if (me == root) {
        pumma_view_t sum = *vc;
        sum.data = w;
        sum.ld = n;
        pumma_trap_add(t, &sum, vc, g->myrow, g->mycol, u, t->one, beta);
    }
    pumma_free(w);
    pumma_stats_end();
}

static void syrk_call(const pumma_type_t *t, int rout, const char *uplo,
                      const char *trans, const int *n, const int *k,
                      const void *alpha, const void *a, const int *ia,
                      const int *ja, const int *desca, const void *b,
                      const int *ib, const int *jb, const int *descb,
                      const void *beta, void *c, const int *ic,
                      const int *jc, const int *descc)
{
    const char *name = pumma_rout_name(rout, t);
    const int herm = rout == PUMMA_R_HERK || rout == PUMMA_R_HER2K;
    const int two = rout == PUMMA_R_SYR2K || rout == PUMMA_R_HER2K;
    int dA[11], dB[11], dC[11], ctxt;
    int info = pumma_check_syrk(t, herm, uplo, trans, *n, *k, *ia, *ja,
                                desca, two ? *ib : 0, two ? *jb : 0,
                                two ? descb : NULL, *ic, *jc, descc, dA, dB,
                                dC, &ctxt);
    if (info) {
        PB_Cabort(ctxt, name, info);
        return;
    }
    const void *alpha0 = alpha, *beta0 = beta;
    /* HERK's alpha and beta and HER2K's beta are real: as complex here */
    double al[2], be[2], al2[2];
    if (rout == PUMMA_R_HERK) {
        real_scalar(t, alpha, al);
        alpha = al;
    }
    if (herm) {
        real_scalar(t, beta, be);
        beta = be;
    }
    /* ScaLAPACK's quick return */
    const int nowork = t->is_zero(alpha) || *k == 0;
    if (*n == 0 || (nowork && t->is_one(beta))) return;

    const char u = (char)(*uplo & ~0x20), tr = (char)(*trans & ~0x20);
    if (pumma_desc_is_layout(desca) || (two && pumma_desc_is_layout(descb)) ||
        pumma_desc_is_layout(descc)) {
        /* layouts: on block-cyclic copies (pumma_het_operands.c); the
         * scalars as the call gave them */
        const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
        const int ar = tr == 'N' ? *n : *k, ac = tr == 'N' ? *k : *n;
        pumma_bc_opnd_t A = {0}, B = {0}, C = {0};
        int rc = pumma_bc_in(t, g, ctxt, desca, dA, *ia, *ja, ar, ac, a,
                             !nowork, &A);
        if (!rc && two)
            rc = pumma_bc_in(t, g, ctxt, descb, dB, *ib, *jb, ar, ac, b,
                             !nowork, &B);
        if (!rc)
            rc = pumma_bc_in(t, g, ctxt, descc, dC, *ic, *jc, *n, *n, c, 1,
                             &C);
        if (!rc) {
            syrk_call(t, rout, uplo, trans, n, k, alpha0, A.data, &A.i, &A.j,
                      A.d, B.data, &B.i, &B.j, two ? B.d : NULL, beta0,
                      C.data, &C.i, &C.j, C.d);
            rc = pumma_bc_out(t, g, descc, *ic, *jc, *n, *n, c, &C);
        }
        pumma_bc_free(&A);
        pumma_bc_free(&B);
        pumma_bc_free(&C);
        if (rc) pumma_fatal(g->all, name, "heterogeneous operands", rc);
        return;
    }
    const char tt = herm ? 'C' : 'T';    /* the transpose of the products */
    const char ta = tr == 'N' ? 'N' : tt, tb = tr == 'N' ? tt : 'N';
    pumma_grid_t shape = {0};
    Cblacs_gridinfo(ctxt, &shape.nprow, &shape.npcol, &shape.myrow,
                    &shape.mycol);
    pumma_view_t vc = pumma_view_of(t, &shape, c, dC, *ic - 1, *jc - 1, *n,
                                    *n);
    if (herm && !t->is_zero(beta))      /* not referenced: not read */
        pumma_trap_real_diag(t, &vc, shape.myrow, shape.mycol);
    int root = -1, line = -1;
    pumma_view_t va = {0};
    if (!nowork && !two && *k >= LONG_K * *n) {
        va = tr == 'N' ? pumma_view_of(t, &shape, a, dA, *ia - 1, *ja - 1, *n,
                                       *k)
                       : pumma_view_of(t, &shape, a, dA, *ia - 1, *ja - 1, *k,
                                       *n);
        line = one_line(&va, &vc, tr, &root);
    }
    if (nowork) {                       /* A and B not read */
        pumma_trap_scale(t, &vc, shape.myrow, shape.mycol, u, beta);
    } else if (line >= 0 &&
               k_spread(t, &shape, tr, a, dA, *ia, *ja, *n, *k)) {
        ksum_one(t, name, ctxt, u, tr, tt, *n, alpha, &va, beta, &vc, line,
                 root);
    } else if (*k >= LONG_K * *n &&
               k_spread(t, &shape, tr, a, dA, *ia, *ja, *n, *k) &&
               (!two || k_spread(t, &shape, tr, b, dB, *ib, *jb, *n, *k))) {
        /* C small beside K: the whole product into a temporary laid out
         * as sub(C), by whichever algorithm the planner prices best (the
         * ones that sum partial products over K), then its triangle added */
        const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
        pumma_view_t w = vc;
        int dW[11];
        if (pumma_view_alloc(t, g, &w))
            pumma_fatal(g->all, name, "temporary", PUMMA_ENOMEM);
        pumma_view_desc(&w, ctxt, dW);
        pumma_gemm_inner(t, name, ta, tb, *n, *n, *k, alpha, a, *ia, *ja, dA,
                         two ? b : a, two ? *ib : *ia, two ? *jb : *ja,
                         two ? dB : dA, t->zero, w.data, 1, 1, dW, 0, 0);
        if (two) {
            conj_scalar(t, herm, alpha, al2);
            pumma_gemm_inner(t, name, ta, tb, *n, *n, *k, al2, b, *ib, *jb,
                             dB, a, *ia, *ja, dA, t->one, w.data, 1, 1, dW,
                             0, 0);
        }
        pumma_trap_add(t, &w, &vc, g->myrow, g->mycol, u, t->one, beta);
        pumma_free(w.data);
    } else if (!two) {
        pumma_gemm_inner(t, name, ta, tb, *n, *n, *k, alpha, a, *ia, *ja, dA,
                         a, *ia, *ja, dA, beta, c, *ic, *jc, dC, u, 1);
    } else {
        conj_scalar(t, herm, alpha, al2);
        pumma_gemm_inner(t, name, ta, tb, *n, *n, *k, alpha, a, *ia, *ja, dA,
                         b, *ib, *jb, dB, beta, c, *ic, *jc, dC, u, 0);
        pumma_gemm_inner(t, name, ta, tb, *n, *n, *k, al2, b, *ib, *jb, dB,
                         a, *ia, *ja, dA, t->one, c, *ic, *jc, dC, u, 0);
    }
    if (herm) pumma_trap_real_diag(t, &vc, shape.myrow, shape.mycol);
}

void pumma_syrk(const pumma_type_t *t, int rout, const char *uplo,
                const char *trans, const int *n, const int *k,
                const void *alpha, const void *a, const int *ia,
                const int *ja, const int *desca, const void *b,
                const int *ib, const int *jb, const int *descb,
                const void *beta, void *c, const int *ic, const int *jc,
                const int *descc)
{
    PUMMA_FENV_CALL(syrk_call(t, rout, uplo, trans, n, k, alpha, a, ia, ja,
                              desca, b, ib, jb, descb, beta, c, ic, jc,
                              descc));
}
