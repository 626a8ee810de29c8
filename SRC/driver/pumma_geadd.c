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
 * into C as it arrives (beta 0: C never read). TRADD moves the trapezoid
 * only (trad below): its diagonal square halved recursively, each
 * off-diagonal rectangle one redistribution straight into C, and the
 * squares down to a few blocks gathered into a temporary laid out like
 * them and added where kept -- not all of op(sub(A)) gathered first, twice
 * the data (0.63-0.78x ScaLAPACK at 4000 x 4000 'T' on 2x1). When sub(A)
 * is laid out as sub(C) already
 * (op 'N', the same distributions), each process adds its own part, no
 * message.
 */
#include "pumma.h"
#include "pumma_driver.h"

/* What TRADD's pieces share: the operands as the call gave them. */
typedef struct trad {
    const pumma_type_t *t;
    const pumma_grid_t *g, *shape;
    char op, u;
    const void *alpha, *beta;
    const void *a;
    void *c;
    int ia, ja, ic, jc;          /* 0-based */
    const int *dA, *dC;
    size_t piece;
    int base;                    /* squares this long or less: gathered */
} trad_t;

/* Rows [r, r + h) x columns [j, j + w) of sub(C) and the op(sub(A))
 * they take, as views. */
static void trad_views(const trad_t *x, int r, int h, int j, int w,
                       pumma_view_t *va, pumma_view_t *vc)
{
    *vc = pumma_view_of(x->t, x->shape, x->c, x->dC, x->ic + r, x->jc + j, h,
                        w);
    *va = x->op == 'N'
              ? pumma_view_of(x->t, x->shape, x->a, x->dA, x->ia + r,
                              x->ja + j, h, w)
              : pumma_view_of(x->t, x->shape, x->a, x->dA, x->ia + j,
                              x->ja + r, w, h);
}

/* A rectangle wholly inside the trapezoid: straight into C. */
static int trad_rect(const trad_t *x, int r, int h, int j, int w)
{
    if (h <= 0 || w <= 0) return PUMMA_OK;
    pumma_view_t va, vc;
    trad_views(x, r, h, j, w, &va, &vc);
    return pumma_redist(x->t, x->g, h, w, x->op, x->alpha, &va, x->beta, &vc,
                        x->piece);
}

/* The triangle (x->u's) of the diagonal square [d, d + w). */
static int trad_square(const trad_t *x, int d, int w)
{
    if (w > x->base) {
        const int h = w / 2;
        int rc = trad_square(x, d, h);
        if (!rc)
            rc = x->u == 'L' ? trad_rect(x, d + h, w - h, d, h)
                             : trad_rect(x, d, h, d + h, w - h);
        return rc ? rc : trad_square(x, d + h, w - h);
    }
    pumma_view_t va, vc;
    trad_views(x, d, w, d, w, &va, &vc);
    pumma_view_t tmp = vc;
    int rc = pumma_view_alloc(x->t, x->g, &tmp);
    if (!rc)
        rc = pumma_redist(x->t, x->g, w, w, x->op, x->alpha, &va,
                          x->t->zero, &tmp, x->piece);
    if (!rc)
        pumma_trap_add(x->t, &tmp, &vc, x->shape->myrow, x->shape->mycol,
                       x->u, x->t->one, x->beta);
    pumma_free(tmp.data);
    return rc;
}

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
        /* the square's triangle, and the rectangle beyond it: below for
         * 'L' when M > N, right of it for 'U' when N > M. Squares of up
         * to 2 of C's blocks, or a sixteenth of the side, are gathered
         * whole: few redistributions (each a collective), little moved
         * twice (4 blocks gathered 1000 x 1000 whole at NB 256: 'L','T'
         * on 2x1 0.76 of ScaLAPACK's speed, 0.96-0.98 with 2). */
        const int s = *m < *n ? *m : *n;
        const int nb = vc.row.b > vc.col.b ? vc.row.b : vc.col.b;
        const trad_t x = {t, g, &shape, op, u, alpha, beta, a, c, *ia - 1,
                          *ja - 1, *ic - 1, *jc - 1, dA, dC, piece,
                          s / 16 > 2 * nb ? s / 16 : 2 * nb};
        rc = trad_square(&x, 0, s);
        if (!rc)
            rc = u == 'L' ? trad_rect(&x, s, *m - s, 0, s)
                          : trad_rect(&x, 0, s, s, *n - s);
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
