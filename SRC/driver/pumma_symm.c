/*
 * pumma_symm.c -- P?SYMM and P?HEMM:
 *
 *   C := alpha*A*B + beta*C  (SIDE 'L')   or   alpha*B*A + beta*C  ('R'),
 *
 * sub(A) symmetric (P?HEMM: Hermitian, its diagonal's imaginary parts not
 * read, taken as 0), only its UPLO triangle read.
 *
 * sub(A) is made whole in a temporary laid out as sub(A) is: its triangle
 * copied (the other one not read), then the strict triangle's transpose
 * (conjugate transpose) added by one redistribution (pumma_redist); then
 * one P?GEMM of pumma's (pumma_gemm_inner) with the temporary as an
 * operand, planned as any. The copy costs a transpose of sub(A), against
 * a multiply of M*M*N (SIDE 'L'): small where the solvers call it
 * (PDSYGST: sub(A) one block).
 */
#include "pumma.h"
#include "pumma_driver.h"

static void symm_call(const pumma_type_t *t, int rout, const char *side,
                      const char *uplo, const int *m, const int *n,
                      const void *alpha, const void *a, const int *ia,
                      const int *ja, const int *desca, const void *b,
                      const int *ib, const int *jb, const int *descb,
                      const void *beta, void *c, const int *ic,
                      const int *jc, const int *descc)
{
    const char *name = pumma_rout_name(rout, t);
    int dA[11], dB[11], dC[11], ctxt;
    int info = pumma_check_symm(side, uplo, *m, *n, *ia, *ja, desca, *ib,
                                *jb, descb, *ic, *jc, descc, dA, dB, dC,
                                &ctxt);
    if (info) {
        PB_Cabort(ctxt, name, info);
        return;
    }
    /* ScaLAPACK's quick return */
    if (*m == 0 || *n == 0 || (t->is_zero(alpha) && t->is_one(beta)))
        return;
    if (pumma_desc_is_layout(desca) || pumma_desc_is_layout(descb) ||
        pumma_desc_is_layout(descc)) {
        /* layouts: on block-cyclic copies (pumma_het_operands.c) */
        const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
        const int na = (*side & ~0x20) == 'L' ? *m : *n;
        const int work = !t->is_zero(alpha);
        pumma_bc_opnd_t A = {0}, B = {0}, C = {0};
        int rc = pumma_bc_in(t, g, ctxt, desca, dA, *ia, *ja, na, na, a, work,
                             &A);
        if (!rc)
            rc = pumma_bc_in(t, g, ctxt, descb, dB, *ib, *jb, *m, *n, b, work,
                             &B);
        if (!rc)
            rc = pumma_bc_in(t, g, ctxt, descc, dC, *ic, *jc, *m, *n, c, 1,
                             &C);
        if (!rc) {
            symm_call(t, rout, side, uplo, m, n, alpha, A.data, &A.i, &A.j,
                      A.d, B.data, &B.i, &B.j, B.d, beta, C.data, &C.i, &C.j,
                      C.d);
            rc = pumma_bc_out(t, g, descc, *ic, *jc, *m, *n, c, &C);
        }
        pumma_bc_free(&A);
        pumma_bc_free(&B);
        pumma_bc_free(&C);
        if (rc) pumma_fatal(g->all, name, "heterogeneous operands", rc);
        return;
    }
    pumma_grid_t shape = {0};
    Cblacs_gridinfo(ctxt, &shape.nprow, &shape.npcol, &shape.myrow,
                    &shape.mycol);
    if (t->is_zero(alpha)) {            /* sub(C) := beta*sub(C) */
        pumma_view_t vc = pumma_view_of(t, &shape, c, dC, *ic - 1, *jc - 1,
                                        *m, *n);
        pumma_local_scale(t, pumma_view_mloc(&vc, shape.myrow),
                          pumma_view_nloc(&vc, shape.mycol), beta, vc.data,
                          vc.ld);
        return;
    }
    const char sd = (char)(*side & ~0x20), u = (char)(*uplo & ~0x20);
    const int na = sd == 'L' ? *m : *n;
    const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
    const pumma_view_t va = pumma_view_of(t, g, a, dA, *ia - 1, *ja - 1, na,
                                          na);
    /* whole: the triangle with its diagonal; strict: the triangle without */
    pumma_view_t whole = va, strict = va;
    int rc = pumma_view_alloc(t, g, &whole);
    if (!rc) rc = pumma_view_alloc(t, g, &strict);
    if (!rc) {
        pumma_trap_extract(t, &va, &whole, g->myrow, g->mycol, u, 0);
        pumma_trap_extract(t, &va, &strict, g->myrow, g->mycol, u,
                           u == 'U' ? -1 : 1);
        if (rout == PUMMA_R_HEMM)
            pumma_trap_real_diag(t, &whole, g->myrow, g->mycol);
        pumma_stats_begin(name, "algo=symmetrize");
        rc = pumma_redist(t, g, na, na,
                          rout == PUMMA_R_HEMM && t->is_complex ? 'C' : 'T',
                          t->one, &strict, t->one, &whole,
                          (size_t)pumma_settings()->piece);
        pumma_stats_end();
    }
    pumma_free(strict.data);
    if (rc) {
        pumma_free(whole.data);
        pumma_fatal(g->all, name, "symmetrize", rc);
    }
    int dW[11];
    pumma_view_desc(&whole, ctxt, dW);
    if (sd == 'L')
        pumma_gemm_inner(t, name, 'N', 'N', *m, *n, *m, alpha, whole.data, 1,
                         1, dW, b, *ib, *jb, dB, beta, c, *ic, *jc, dC, 0, 0);
    else
        pumma_gemm_inner(t, name, 'N', 'N', *m, *n, *n, alpha, b, *ib, *jb,
                         dB, whole.data, 1, 1, dW, beta, c, *ic, *jc, dC, 0, 0);
    pumma_free(whole.data);
}

void pumma_symm(const pumma_type_t *t, int rout, const char *side,
                const char *uplo, const int *m, const int *n,
                const void *alpha, const void *a, const int *ia,
                const int *ja, const int *desca, const void *b,
                const int *ib, const int *jb, const int *descb,
                const void *beta, void *c, const int *ic, const int *jc,
                const int *descc)
{
    PUMMA_FENV_CALL(symm_call(t, rout, side, uplo, m, n, alpha, a, ia, ja,
                              desca, b, ib, jb, descb, beta, c, ic, jc,
                              descc));
}
