/*
 * pumma_geadd.c -- P?GEADD, P?TRADD and P?TRAN, P?TRANU, P?TRANC:
 *
 *   sub(C) := beta*sub(C) + alpha*op(sub(A))
 *
 * on the whole of sub(C) (GEADD, TRAN*) or on its UPLO trapezoid alone
 * (TRADD: the rest of sub(C) is neither read nor written). op is TRANS
 * ('N', 'T', 'C'; 'C' conjugates for complex types), 'T' for P?TRAN and
 * P?TRANU, 'C' for P?TRANC.
 *
 * One redistribution (pumma_redist) from sub(A)'s distribution to
 * sub(C)'s does it: the data each process needs comes in exchanges of at
 * most PUMMA_PIECE bytes, transposed on the way when op is, and is added
 * into C as it arrives (beta 0: C never read). TRADD gathers op(sub(A))
 * into a temporary laid out like sub(C) first, then adds it into the
 * trapezoid column by column. When sub(A) is laid out as sub(C) already
 * (op 'N', the same distributions), each process adds its own part, no
 * message.
 */
#include "pumma.h"
#include "pumma_driver.h"

static void geadd_call(const pumma_type_t *t, int rout, const char *uplo,
                       const char *trans, const int *m, const int *n,
                       const void *alpha, const void *a, const int *ia,
                       const int *ja, const int *desca, const void *beta,
                       void *c, const int *ic, const int *jc,
                       const int *descc)
{
    const char *name = pumma_rout_name(rout, t);
    int dA[11], dC[11], ctxt;
    int info = pumma_check_geadd(uplo, trans, *m, *n, *ia, *ja, desca, *ic,
                                 *jc, descc, dA, dC, &ctxt);
    if (info) {
        PB_Cabort(ctxt, name, info);
        return;
    }
    /* ScaLAPACK's quick returns */
    if (*m == 0 || *n == 0) return;
    if (t->is_zero(alpha) && t->is_one(beta)) return;

    char op = trans ? (char)(*trans & ~0x20)
                    : rout == PUMMA_R_TRANC ? 'C' : 'T';
    if (!t->is_complex && op == 'C') op = 'T';
    const int ar = op == 'N' ? *m : *n, ac = op == 'N' ? *n : *m;
    if (pumma_desc_is_layout(desca) || pumma_desc_is_layout(descc)) {
        /* layouts: on block-cyclic copies (pumma_het_operands.c) */
        const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
        pumma_bc_opnd_t A = {0}, C = {0};
        int rc = pumma_bc_in(t, g, ctxt, desca, dA, *ia, *ja, ar, ac, a,
                             !t->is_zero(alpha), &A);
        if (!rc)
            rc = pumma_bc_in(t, g, ctxt, descc, dC, *ic, *jc, *m, *n, c, 1,
                             &C);
        if (!rc) {
            geadd_call(t, rout, uplo, trans, m, n, alpha, A.data, &A.i, &A.j,
                       A.d, beta, C.data, &C.i, &C.j, C.d);
            rc = pumma_bc_out(t, g, descc, *ic, *jc, *m, *n, c, &C);
        }
        pumma_bc_free(&A);
        pumma_bc_free(&C);
        if (rc) pumma_fatal(g->all, name, "heterogeneous operands", rc);
        return;
    }
    const char u = uplo ? (char)(*uplo & ~0x20) : 0;
    pumma_grid_t shape = {0};
    Cblacs_gridinfo(ctxt, &shape.nprow, &shape.npcol, &shape.myrow,
                    &shape.mycol);
    const int me_r = shape.myrow, me_c = shape.mycol;
    pumma_view_t vc = pumma_view_of(t, &shape, c, dC, *ic - 1, *jc - 1, *m,
                                    *n);
    if (t->is_zero(alpha)) {       /* A not read */
        if (u)
            pumma_trap_scale(t, &vc, me_r, me_c, u, beta);
        else
            pumma_local_scale(t, pumma_view_mloc(&vc, me_r),
                              pumma_view_nloc(&vc, me_c), beta, vc.data,
                              vc.ld);
        return;
    }
    pumma_view_t va = pumma_view_of(t, &shape, a, dA, *ia - 1, *ja - 1, ar,
                                    ac);
    if (op == 'N' && pumma_view_same_layout(&va, &vc)) {
        /* each process's part of sub(A) is its part of sub(C): no
         * message (the distributions are global: every process agrees) */
        pumma_stats_begin(name, "algo=local");
        const int ml = pumma_view_mloc(&vc, me_r), nl = pumma_view_nloc(&vc, me_c);
        if (u)
            pumma_trap_add(t, &va, &vc, me_r, me_c, u, alpha, beta);
        else if (ml > 0 && nl > 0)
            t->geadd('N', ml, nl, alpha, va.data, va.ld, beta, vc.data,
                     vc.ld);
        pumma_stats_end();
        return;
    }
    const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
    const size_t piece = (size_t)pumma_settings()->piece;
    int rc;
    pumma_stats_begin(name, "algo=redist");
    if (!u) {
        rc = pumma_redist(t, g, *m, *n, op, alpha, &va, beta, &vc, piece);
    } else {
        pumma_view_t tmp = vc;
        rc = pumma_view_alloc(t, g, &tmp);
        if (!rc)
            rc = pumma_redist(t, g, *m, *n, op, alpha, &va, t->zero, &tmp,
                              piece);
        if (!rc) pumma_trap_add(t, &tmp, &vc, me_r, me_c, u, t->one, beta);
        pumma_free(tmp.data);
    }
    pumma_stats_end();
    if (rc) pumma_fatal(g->all, name, "redistribution", rc);
}

void pumma_geadd(const pumma_type_t *t, int rout, const char *uplo,
                 const char *trans, const int *m, const int *n,
                 const void *alpha, const void *a, const int *ia,
                 const int *ja, const int *desca, const void *beta, void *c,
                 const int *ic, const int *jc, const int *descc)
{
    PUMMA_FENV_CALL(geadd_call(t, rout, uplo, trans, m, n, alpha, a, ia, ja,
                               desca, beta, c, ic, jc, descc));
}
