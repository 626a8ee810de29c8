/*
 * pumma_trsm.c -- P?TRSM and P?TRMM, one engine:
 *
 *   TRSM: sub(B) := alpha * op(sub(A))^-1 * sub(B)  (SIDE 'L')
 *                   alpha * sub(B) * op(sub(A))^-1  (SIDE 'R')
 *   TRMM: the same with op(sub(A)) itself,
 *
 * sub(A) triangular (UPLO's triangle read; with DIAG 'U' not its
 * diagonal, taken as ones), op(A) = A, A**T or A**H.
 *
 * Recursive, on pumma's P?GEMM: the triangle is cut in two, [F S] in the
 * order a solve must go (F first: the top half when op(A) is lower and
 * SIDE is 'L', ...),
 *
 *   TRSM:  solve F;  B_S -= op(A)_SF * B_F;  solve S
 *   TRMM:  multiply S;  B_S += op(A)_SF * B_F;  multiply F
 *
 * (SIDE 'R': B_S -= B_F * op(A)_FS, ...), so that all but the diagonal
 * blocks' work is products of half, quarter, ... the size, planned and
 * run by pumma_gemm_inner with every algorithm and variant P?GEMM has.
 * The halves are cut at sub(B)'s block boundaries along the triangle, so
 * that a diagonal block's rows (SIDE 'L'; columns for 'R') of sub(B) lie
 * in one process row (column). There, the base case: the diagonal block
 * of sub(A) is gathered onto that process row (pumma_redist into a block
 * replicated over the grid's columns; used in place when the one process
 * that needs it holds it, broadcast along the line when one grid line
 * holding it needs it), and each process solves (or multiplies) its
 * own columns of B with the BLAS ?trsm (?trmm), B not moved. A block
 * longer than BASE_MAX is cut further, inside itself.
 *
 * (P?TRMM on a narrow sub(B) as one product of the whole triangle, twice
 * the flops, was tried and measured slower on a quiet machine: 0.52-0.92x
 * ScaLAPACK against the recursion's 0.87-1.58x, PDTRTRI's shapes.)
 *
 * Why not ScaLAPACK's pipelined ring (PB_CptrsmAB): its critical path is
 * the same chain of diagonal solves one block apart, and the recursion
 * puts the rest of the work into large products that pumma's planner
 * prices, overlaps and keeps within the memory limit; its cost is no
 * overlap between a diagonal solve and the product after it.
 */
#include "pumma.h"
#include "pumma_driver.h"

/* The longest side of a diagonal block solved by one BLAS call: longer
 * ones (a large MB) are cut further, so the gathered block stays small. */
#define BASE_MAX 512

typedef struct tri {
    const pumma_type_t *t;
    const char *rout;
    const pumma_grid_t *g;
    int solve;                   /* TRSM 1, TRMM 0 */
    char side, uplo, ta, diag;   /* upper case; ta 'N', 'T', 'C' ('T' real) */
    int forward;                 /* F is the first half (see the top) */
    int m, n;                    /* sub(B) */
    const void *a;
    int ia, ja;                  /* 1-based */
    const int *dA;
    void *b;
    int ib, jb;
    const int *dB;
    pumma_dist_t along;          /* sub(B)'s distribution along the triangle */
    size_t piece;
} tri_t;

/* The block of op(sub(A)) at op coordinates (r, c) as a P?GEMM operand:
 * its place in A and the op to apply. */
static void opa_at(const tri_t *x, int r, int c, int *ia, int *ja, char *op)
{
    if (x->ta == 'N') {
        *ia = x->ia + r;
        *ja = x->ja + c;
    } else {
        *ia = x->ia + c;
        *ja = x->ja + r;
    }
    *op = x->ta;
}

/* B_S += sgn * op(A)_SF * B_F (SIDE 'L') or B_S += sgn * B_F * op(A)_FS. */
static void update(const tri_t *x, int s0, int ls, int f0, int lf, int sgn)
{
    const pumma_type_t *t = x->t;
    const double one[2] = {1, 0}, mone[2] = {-1, 0};
    const float onef[2] = {1, 0}, monef[2] = {-1, 0};
    const int dbl = t->letter == 'D' || t->letter == 'Z';
    const void *alpha = sgn > 0 ? (dbl ? (const void *)one : (const void *)onef)
                                : (dbl ? (const void *)mone : (const void *)monef);
    int ai, aj;
    char op;
    if (x->side == 'L') {
        opa_at(x, s0, f0, &ai, &aj, &op);
        pumma_gemm_inner(t, x->rout, op, 'N', ls, x->n, lf, alpha, x->a, ai,
                         aj, x->dA, x->b, x->ib + f0, x->jb, x->dB, t->one,
                         x->b, x->ib + s0, x->jb, x->dB, 0, 0);
    } else {
        opa_at(x, f0, s0, &ai, &aj, &op);
        pumma_gemm_inner(t, x->rout, 'N', op, x->m, ls, lf, alpha, x->b,
                         x->ib, x->jb + f0, x->dB, x->a, ai, aj, x->dA,
                         t->one, x->b, x->ib, x->jb + s0, x->dB, 0, 0);
    }
}

/* The one process along a grid dimension of np that who names (-1:
 * every one, which is one only when np is). */
static int one_of(int who, int np) { return np == 1 ? 0 : who; }

/* The len x len block va, held by one process of my grid column (line
 * 'C') or row ('R') at coordinate root along it, onto every process of
 * that line: the holder's d is va itself, the others' a temporary. */
static int line_cast(const pumma_type_t *t, const pumma_grid_t *g, int line,
                     int root, int holder, int len, const pumma_view_t *va,
                     pumma_view_t *d)
{
    const MPI_Comm comm = line == 'C' ? g->col : g->row;
    int rc;
    if (holder) {
        MPI_Datatype blk;
        MPI_Type_vector(len, len, va->ld, t->mpi, &blk);
        MPI_Type_commit(&blk);
        d->data = va->data;
        d->ld = va->ld;
        rc = MPI_Bcast(va->data, 1, blk, root, comm);
        MPI_Type_free(&blk);
    } else {
        if (!(d->data = pumma_malloc((size_t)len * len * t->size)))
            return PUMMA_ENOMEM;
        d->ld = len;
        rc = MPI_Bcast(d->data, len * len, t->mpi, root, comm);
    }
    return rc == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}

/* The diagonal block [r0, r0 + len) (inside one block of `along`):
 * gathered where sub(B)'s part of it is, then the BLAS on each process's
 * own columns (rows) of B. */
static void base(const tri_t *x, int r0, int len)
{
    const pumma_type_t *t = x->t;
    const pumma_grid_t *g = x->g;
    const int left = x->side == 'L';
    pumma_view_t vb = left ? pumma_view_of(t, g, x->b, x->dB, x->ib - 1 + r0,
                                           x->jb - 1, len, x->n)
                           : pumma_view_of(t, g, x->b, x->dB, x->ib - 1,
                                           x->jb - 1 + r0, x->m, len);
    pumma_view_t va = pumma_view_of(t, g, x->a, x->dA, x->ia - 1 + r0,
                                    x->ja - 1 + r0, len, len);
    /* A's block where B's part is: on its process row (column) -- or on
     * every one when B is replicated -- and on every column (row) holding
     * some of B: only that one when B's columns (rows) are all on one (a
     * few right-hand sides: at 16x16 the block went to 16 columns for one) */
    const int own = pumma_dist_owner(left ? &vb.row : &vb.col, 0);
    const int across = pumma_dist_sole(left ? &vb.col : &vb.row);
    const pumma_dist_t on = {len, len, len, own, left ? g->nprow : g->npcol};
    const pumma_dist_t every = {len, len, len, across,
                                left ? g->npcol : g->nprow};
    pumma_view_t d = {.row = left ? on : every, .col = left ? every : on};
    pumma_stats_begin(x->rout, x->solve ? "algo=trsm-diagonal"
                                        : "algo=trmm-diagonal");
    /* The one process that needs the block holds it all (PDPOTRF's panel
     * solve on 1xQ: A's diagonal block and B's rows on one process): the
     * BLAS on A where it is, nothing copied. */
    const int need_r = one_of(left ? own : across, g->nprow);
    const int need_c = one_of(left ? across : own, g->npcol);
    const int ra = pumma_dist_sole(&va.row), ca = pumma_dist_sole(&va.col);
    const int in_place = need_r >= 0 && need_c >= 0 && ra == need_r &&
                         ca == need_c;
    /* Needed along one whole grid line that holds it (B's rows, SIDE 'R',
     * or columns, 'L', spread; PDTRTRI's and PDGETRS's solves on Px1 and
     * 1xQ): one broadcast along the line from where it is, the holder's
     * copy in place and not packed (a strided MPI type). */
    const int line = need_r < 0 && need_c >= 0 && ra >= 0 && ca == need_c
                         ? 'C'
                     : need_c < 0 && need_r >= 0 && ca >= 0 && ra == need_r
                         ? 'R'
                         : 0;
    int rc = PUMMA_OK, temp = 0;     /* temp: d.data is pumma_malloc's */
    if (in_place) {
        d.data = va.data;
        d.ld = va.ld;
    } else if (line) {
        const int mine = line == 'C' ? g->mycol == ca : g->myrow == ra;
        const int root = line == 'C' ? ra : ca;
        const int holder = g->myrow == ra && g->mycol == ca;
        if (mine) rc = line_cast(t, g, line, root, holder, len, &va, &d);
        temp = mine && !holder;
    } else {
        rc = pumma_view_alloc(t, g, &d);
        temp = !rc;
        if (!rc)
            rc = pumma_redist(t, g, len, len, 'N', t->one, &va, t->zero, &d,
                              x->piece);
    }
    if (rc) pumma_fatal(g->all, x->rout, "diagonal block", rc);
    const int ml = pumma_view_mloc(&vb, g->myrow);
    const int nl = pumma_view_nloc(&vb, g->mycol);
    if (ml > 0 && nl > 0)
        pumma_blas_trxm(t, x->solve, x->side, x->uplo, x->ta, x->diag, ml, nl,
                        t->one, d.data, d.ld, vb.data, vb.ld);
    if (temp) pumma_free(d.data);
    pumma_stats_end();
}

static void rec(const tri_t *x, int r0, int len)
{
    const int b0 = pumma_dist_block(&x->along, r0);
    const int b1 = pumma_dist_block(&x->along, r0 + len - 1);
    int n1;
    if (b0 != b1)             /* at the middle block boundary */
        n1 = pumma_dist_bstart(&x->along, b0 + (b1 - b0 + 1) / 2) - r0;
    else if (len > BASE_MAX)  /* inside one long block */
        n1 = len / 2;
    else {
        base(x, r0, len);
        return;
    }
    const int h0 = r0, l0 = n1, h1 = r0 + n1, l1 = len - n1;
    const int f0 = x->forward ? h0 : h1, lf = x->forward ? l0 : l1;
    const int s0 = x->forward ? h1 : h0, ls = x->forward ? l1 : l0;
    if (x->solve) {
        rec(x, f0, lf);
        update(x, s0, ls, f0, lf, -1);
        rec(x, s0, ls);
    } else {
        rec(x, s0, ls);
        update(x, s0, ls, f0, lf, +1);
        rec(x, f0, lf);
    }
}

static void trsm_call(const pumma_type_t *t, int rout, const char *side,
                      const char *uplo, const char *transa, const char *diag,
                      const int *m, const int *n, const void *alpha,
                      const void *a, const int *ia, const int *ja,
                      const int *desca, void *b, const int *ib,
                      const int *jb, const int *descb)
{
    const char *name = pumma_rout_name(rout, t);
    int dA[11], dB[11], ctxt;
    int info = pumma_check_trmm(rout, side, uplo, transa, diag, *m, *n, *ia,
                                *ja, desca, *ib, *jb, descb, dA, dB, &ctxt);
    if (info) {
        PB_Cabort(ctxt, name, info);
        return;
    }
    if (*m == 0 || *n == 0) return;          /* ScaLAPACK's quick return */
    if (pumma_desc_is_layout(desca) || pumma_desc_is_layout(descb)) {
        /* layouts: on block-cyclic copies (pumma_het_operands.c) */
        const pumma_grid_t *g = pumma_driver_enter(name, ctxt);
        const int na = (*side & ~0x20) == 'L' ? *m : *n;
        pumma_bc_opnd_t A = {0}, B = {0};
        int rc = pumma_bc_in(t, g, ctxt, desca, dA, *ia, *ja, na, na, a,
                             !t->is_zero(alpha), &A);
        if (!rc)
            rc = pumma_bc_in(t, g, ctxt, descb, dB, *ib, *jb, *m, *n, b,
                             !t->is_zero(alpha), &B);
        if (!rc) {
            trsm_call(t, rout, side, uplo, transa, diag, m, n, alpha, A.data,
                      &A.i, &A.j, A.d, B.data, &B.i, &B.j, B.d);
            rc = pumma_bc_out(t, g, descb, *ib, *jb, *m, *n, b, &B);
        }
        pumma_bc_free(&A);
        pumma_bc_free(&B);
        if (rc) pumma_fatal(g->all, name, "heterogeneous operands", rc);
        return;
    }

    tri_t x = {t, name, NULL, rout == PUMMA_R_TRSM,
               (char)(*side & ~0x20), (char)(*uplo & ~0x20),
               (char)(*transa & ~0x20), (char)(*diag & ~0x20), 0,
               *m, *n, a, *ia, *ja, dA, b, *ib, *jb, dB, {0}, 0};
    if (!t->is_complex && x.ta == 'C') x.ta = 'T';
    pumma_grid_t shape = {0};
    Cblacs_gridinfo(ctxt, &shape.nprow, &shape.npcol, &shape.myrow,
                    &shape.mycol);
    pumma_view_t vb = pumma_view_of(t, &shape, b, dB, *ib - 1, *jb - 1, *m,
                                    *n);
    /* sub(B) := alpha*sub(B) first (alpha 0: zero, A and B not read) */
    pumma_local_scale(t, pumma_view_mloc(&vb, shape.myrow),
                      pumma_view_nloc(&vb, shape.mycol), alpha, vb.data,
                      vb.ld);
    if (t->is_zero(alpha)) return;

    const int lower = (x.uplo == 'L') != (x.ta != 'N');   /* op(A)'s */
    x.forward = x.side == 'L' ? lower : !lower;
    x.along = x.side == 'L' ? vb.row : vb.col;
    x.g = pumma_driver_enter(name, ctxt);
    x.piece = (size_t)pumma_settings()->piece;
    if (x.solve && pumma_trsm_fanin_applies(t, x.g, x.side, x.ta, *m, *n, dA,
                                            *ia, *ja)) {
        pumma_trsm_fanin(t, name, x.g, x.side, x.uplo, x.ta, x.diag, *m, *n,
                         a, *ia, *ja, dA, b, *ib, *jb, dB, x.piece);
        return;
    }
    rec(&x, 0, x.side == 'L' ? *m : *n);
}

void pumma_trsm(const pumma_type_t *t, int rout, const char *side,
                const char *uplo, const char *transa, const char *diag,
                const int *m, const int *n, const void *alpha, const void *a,
                const int *ia, const int *ja, const int *desca, void *b,
                const int *ib, const int *jb, const int *descb)
{
    PUMMA_FENV_CALL(trsm_call(t, rout, side, uplo, transa, diag, m, n, alpha,
                              a, ia, ja, desca, b, ib, jb, descb));
}
