/*
 * pumma_check.c -- ScaLAPACK's argument checks for P?GEMM, code for code.
 *
 * The INFO values and their order are ScaLAPACK's (PBLAS), because programs
 * and ScaLAPACK's own testers compare them: -position for a scalar argument,
 * -(100*position + entry) for a descriptor entry in the 11-entry numbering.
 * Among several errors the one at the lowest position wins: errors are kept
 * as position*100 (+entry) and the minimum taken, as PBLAS does.
 * The checks are local (LLD depends on the process), never communicate, and
 * run on every process.
 */
#include "pumma_driver.h"

enum { DTYPE_ = 0, CTXT_, M_, N_, IMB_, INB_, MB_, NB_, RSRC_, CSRC_, LLD_ };
enum { MULT = 100, NONE = 1000000 };

/* ScaLAPACK descriptor types: 9-entry (1) and 11-entry with IMB/INB (2). */
#define PUMMA_DTYPE_BC 1
#define PUMMA_DTYPE_BC_INB 2

/* The 11-entry form of a descriptor; an unknown type keeps DTYPE and CTXT. */
static void to11(const int *d, int o[11])
{
    if (d[0] == PUMMA_DTYPE_BC) {
        o[DTYPE_] = PUMMA_DTYPE_BC_INB; o[CTXT_] = d[1];
        o[M_] = d[2]; o[N_] = d[3]; o[IMB_] = d[4]; o[INB_] = d[5];
        o[MB_] = d[4]; o[NB_] = d[5]; o[RSRC_] = d[6]; o[CSRC_] = d[7];
        o[LLD_] = d[8];
    } else if (d[0] == PUMMA_DTYPE_BC_INB) {
        for (int i = 0; i < 11; i++) o[i] = d[i];
    } else {
        o[DTYPE_] = d[0]; o[CTXT_] = d[1]; o[M_] = 0; o[N_] = 0;
        o[IMB_] = o[INB_] = o[MB_] = o[NB_] = 1; o[RSRC_] = o[CSRC_] = 0;
        o[LLD_] = 1;
    }
}

static int numroc11(int n, int ib, int b, int me, int src, int np)
{
    pumma_dist_t d = {n, ib, b, src, np};
    return pumma_dist_count(&d, me);
}

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/*
 * One matrix operand: rows x cols submatrix at 0-based (i, j) of descriptor d
 * (11-entry form). mpos/npos: argument positions of its row and column counts;
 * dpos: position of the descriptor (i and j are at dpos-2 and dpos-1).
 * err holds the running minimum in position*100(+entry) units.
 */
static void chkmat(int ctxt, int nprow, int npcol, int myrow, int mycol,
                   int rows, int mpos, int cols, int npos, int i, int j,
                   const int *d, int dpos, int *err)
{
    const int ipos = (dpos - 2) * MULT, jpos = (dpos - 1) * MULT;
    const int dp = dpos * MULT + 1;   /* + 0-based entry index */
    int e = NONE;

    if (rows < 0) e = MIN(e, mpos * MULT);
    if (cols < 0) e = MIN(e, npos * MULT);
    if (i < 0) e = MIN(e, ipos);
    if (j < 0) e = MIN(e, jpos);
    if (d[DTYPE_] != PUMMA_DTYPE_BC_INB) {
        *err = MIN(*err, MIN(e, dp + DTYPE_));
        return;
    }
    if (d[CTXT_] != ctxt) {
        *err = MIN(*err, MIN(e, dp + CTXT_));
        return;
    }
    if (d[IMB_] < 1) e = MIN(e, dp + IMB_);
    if (d[INB_] < 1) e = MIN(e, dp + INB_);
    if (d[MB_] < 1) e = MIN(e, dp + MB_);
    if (d[NB_] < 1) e = MIN(e, dp + NB_);
    if (d[RSRC_] < -1 || d[RSRC_] >= nprow) e = MIN(e, dp + RSRC_);
    if (d[CSRC_] < -1 || d[CSRC_] >= npcol) e = MIN(e, dp + CSRC_);
    if (rows == 0 || cols == 0) {
        if (d[M_] < 0) e = MIN(e, dp + M_);
        if (d[N_] < 0) e = MIN(e, dp + N_);
        if (d[LLD_] < 1) e = MIN(e, dp + LLD_);
    } else {
        if (d[M_] < 1) e = MIN(e, dp + M_);
        if (d[N_] < 1) e = MIN(e, dp + N_);
        if (d[M_] >= 1 && d[N_] >= 1) {
            if (i + rows > d[M_]) e = MIN(e, ipos);
            if (j + cols > d[N_]) e = MIN(e, jpos);
        }
        /* LLD is checked only when everything else about this operand (and
         * those before it) is right, as ScaLAPACK does. */
        if (e == NONE && *err == NONE) {
            int np = numroc11(d[M_], d[IMB_], d[MB_], myrow, d[RSRC_], nprow);
            if (d[LLD_] < MAX(1, np)) {
                int nq = numroc11(d[N_], d[INB_], d[NB_], mycol, d[CSRC_],
                                  npcol);
                if (d[LLD_] < 1 || nq > 0) e = MIN(e, dp + LLD_);
            }
        }
    }
    *err = MIN(*err, e);
}

/*
 * An operand whose descriptor may be heterogeneous (raw, as given; d its
 * 11-entry form when block-cyclic): such a descriptor must be on ctxt and
 * name a live layout of the grid's size with its M and N and a usable LLD
 * (pumma_desc_layout_check: the entry that is not), and the window must
 * lie inside the matrix -- ScaLAPACK's kind of code for each, in its
 * order: sizes and indices, then the descriptor's entries, then the
 * window's extent (as IA/JA).
 */
static void chk_opnd(int ctxt, int nprow, int npcol, int myrow, int mycol,
                     int rows, int mpos, int cols, int npos, int i, int j,
                     const int *raw, const int *d, int dpos, int *err)
{
    if (!pumma_desc_is_layout(raw)) {
        chkmat(ctxt, nprow, npcol, myrow, mycol, rows, mpos, cols, npos, i, j,
               d, dpos, err);
        return;
    }
    const int ipos = (dpos - 2) * MULT, jpos = (dpos - 1) * MULT;
    int e = NONE;
    if (rows < 0) e = MIN(e, mpos * MULT);
    if (cols < 0) e = MIN(e, npos * MULT);
    if (i < 0) e = MIN(e, ipos);
    if (j < 0) e = MIN(e, jpos);
    if (raw[CTXT_] != ctxt) {
        e = MIN(e, dpos * MULT + 1 + CTXT_);
    } else {
        int bad = pumma_desc_layout_check(raw, nprow, npcol, myrow, mycol);
        if (bad) e = MIN(e, dpos * MULT + bad);
        else if (rows > 0 && cols > 0) {
            if (i + rows > raw[M_]) e = MIN(e, ipos);
            if (j + cols > raw[N_]) e = MIN(e, jpos);
        }
    }
    *err = MIN(*err, e);
}

int pumma_check(const char *transa, const char *transb, int m, int n, int k,
                int ia, int ja, const int *desca, int ib, int jb,
                const int *descb, int ic, int jc, const int *descc,
                int dA[11], int dB[11], int dC[11], int *ctxt)
{
    int nprow, npcol, myrow, mycol;
    to11(desca, dA);
    to11(descb, dB);
    to11(descc, dC);
    *ctxt = dA[CTXT_];
    Cblacs_gridinfo(*ctxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow == -1) return -(1001 + CTXT_);

    const char ta = (char)(*transa & ~0x20), tb = (char)(*transb & ~0x20);
    const int nota = (ta == 'N'), notb = (tb == 'N');
    int err = NONE;
    if (!nota && ta != 'T' && ta != 'C')
        err = 1 * MULT;
    else if (!notb && tb != 'T' && tb != 'C')
        err = 2 * MULT;

    if (nota)
        chk_opnd(*ctxt, nprow, npcol, myrow, mycol, m, 3, k, 5, ia - 1,
                 ja - 1, desca, dA, 10, &err);
    else
        chk_opnd(*ctxt, nprow, npcol, myrow, mycol, k, 5, m, 3, ia - 1,
                 ja - 1, desca, dA, 10, &err);
    if (notb)
        chk_opnd(*ctxt, nprow, npcol, myrow, mycol, k, 5, n, 4, ib - 1,
                 jb - 1, descb, dB, 14, &err);
    else
        chk_opnd(*ctxt, nprow, npcol, myrow, mycol, n, 4, k, 5, ib - 1,
                 jb - 1, descb, dB, 14, &err);
    chk_opnd(*ctxt, nprow, npcol, myrow, mycol, m, 3, n, 4, ic - 1, jc - 1,
             descc, dC, 19, &err);

    if (err == NONE) return 0;
    return (err % MULT == 0) ? -(err / MULT) : -err;
}

/*
 * PUMMA_P?GEMR2D( M, N, A, IA, JA, DESCA, B, IB, JB, DESCB, INFO ): M 1,
 * N 2, IA 4, JA 5, DESCA 6, IB 8, JB 9, DESCB 10; both descriptors on
 * DESCA's context. dA, dB: block-cyclic descriptors in 11-entry form.
 */
int pumma_check_gemr2d(int m, int n, int ia, int ja, const int *desca,
                       int ib, int jb, const int *descb, int dA[11],
                       int dB[11], int *ctxt)
{
    int nprow, npcol, myrow, mycol, err = NONE;
    *ctxt = desca[1];
    Cblacs_gridinfo(*ctxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow == -1) return -(601 + CTXT_);
    if (m < 0) err = MIN(err, 1 * MULT);
    if (n < 0) err = MIN(err, 2 * MULT);
    to11(desca, dA);
    to11(descb, dB);
    chk_opnd(*ctxt, nprow, npcol, myrow, mycol, m, 1, n, 2, ia - 1, ja - 1,
             desca, dA, 6, &err);
    chk_opnd(*ctxt, nprow, npcol, myrow, mycol, m, 1, n, 2, ib - 1, jb - 1,
             descb, dB, 10, &err);
    if (err == NONE) return 0;
    return (err % MULT == 0) ? -(err / MULT) : -err;
}

/* ------------------------------------------- the rest of the Level 3 */

/*
 * The other Level-3 routines, as ScaLAPACK 2.2.1's p?xxx_.c check them:
 * the grid of DESCA's context (-(100*position of DESCA + 2) when it is
 * none, nothing else checked), the options in order (the first bad one
 * wins; P?TRMM's DIAG is the exception: a bad DIAG replaces an earlier
 * option's code), then each matrix operand in argument order.
 * Heterogeneous descriptors are checked as P?GEMM checks them (chk_opnd).
 */
static char up(const char *c) { return (char)(*c & ~0x20); }

static int finish(int err)
{
    if (err == NONE) return 0;
    return (err % MULT == 0) ? -(err / MULT) : -err;
}

/* The grid of d's context, or 0 when it has none. */
static int grid_of(const int *d11, int *nprow, int *npcol, int *myrow,
                   int *mycol)
{
    Cblacs_gridinfo(d11[CTXT_], nprow, npcol, myrow, mycol);
    return *nprow != -1;
}

#define GRID int nprow, npcol, myrow, mycol
#define GRID_ARGS int nprow, int npcol, int myrow, int mycol
#define G nprow, npcol, myrow, mycol

/* A's operand: rows x cols at argument positions rp, cp when op is 'N',
 * else cols x rows (an illegal op takes the second form, as ScaLAPACK). */
static void chk_op(int ctxt, GRID_ARGS, char op, int rows, int rp, int cols,
                   int cp, int i, int j, const int *raw, const int *d,
                   int dpos, int *err)
{
    if (op == 'N')
        chk_opnd(ctxt, G, rows, rp, cols, cp, i, j, raw, d, dpos, err);
    else
        chk_opnd(ctxt, G, cols, cp, rows, rp, i, j, raw, d, dpos, err);
}

/* P?GEADD (uplo NULL), P?TRADD, and P?TRAN* (uplo and trans NULL): s
 * options first, then M N ALPHA A IA JA DESCA BETA C IC JC DESCC. */
int pumma_check_geadd(const char *uplo, const char *trans, int m, int n,
                      int ia, int ja, const int *desca, int ic, int jc,
                      const int *descc, int dA[11], int dC[11], int *ctxt)
{
    GRID;
    const int s = (uplo != NULL) + (trans != NULL);
    to11(desca, dA);
    to11(descc, dC);
    *ctxt = dA[CTXT_];
    if (!grid_of(dA, &nprow, &npcol, &myrow, &mycol))
        return -((s + 7) * MULT + 1 + CTXT_);
    int err = NONE;
    const char tr = trans ? up(trans) : 'T';
    if (uplo && up(uplo) != 'U' && up(uplo) != 'L')
        err = 1 * MULT;
    else if (tr != 'N' && tr != 'T' && tr != 'C')
        err = s * MULT;
    chk_op(*ctxt, G, tr, m, s + 1, n, s + 2, ia - 1, ja - 1, desca, dA, s + 7,
           &err);
    chk_opnd(*ctxt, G, m, s + 1, n, s + 2, ic - 1, jc - 1, descc, dC, s + 12,
             &err);
    return finish(err);
}

/* P?SYRK, P?HERK (descb NULL), P?SYR2K, P?HER2K: UPLO TRANS N K ALPHA A IA
 * JA DESCA [B IB JB DESCB] BETA C IC JC DESCC. TRANS: N, T or C for the
 * real types (C is T); N or T for complex SYRK and SYR2K; N or C for HERK
 * and HER2K. */
int pumma_check_syrk(const pumma_type_t *t, int herm, const char *uplo,
                     const char *trans, int n, int k, int ia, int ja,
                     const int *desca, int ib, int jb, const int *descb,
                     int ic, int jc, const int *descc, int dA[11],
                     int dB[11], int dC[11], int *ctxt)
{
    GRID;
    to11(desca, dA);
    if (descb) to11(descb, dB);
    to11(descc, dC);
    *ctxt = dA[CTXT_];
    if (!grid_of(dA, &nprow, &npcol, &myrow, &mycol))
        return -(9 * MULT + 1 + CTXT_);
    int err = NONE;
    const char u = up(uplo), tr = up(trans);
    const int legal = tr == 'N' ||
                      (tr == 'T' && (!t->is_complex || !herm)) ||
                      (tr == 'C' && (!t->is_complex || herm));
    if (u != 'U' && u != 'L')
        err = 1 * MULT;
    else if (!legal)
        err = 2 * MULT;
    const char op = tr == 'N' ? 'N' : 'T';
    chk_op(*ctxt, G, op, n, 3, k, 4, ia - 1, ja - 1, desca, dA, 9, &err);
    if (descb)
        chk_op(*ctxt, G, op, n, 3, k, 4, ib - 1, jb - 1, descb, dB, 13, &err);
    chk_opnd(*ctxt, G, n, 3, n, 3, ic - 1, jc - 1, descc, dC, descb ? 18 : 14,
             &err);
    return finish(err);
}

/* P?SYMM, P?HEMM: SIDE UPLO M N ALPHA A IA JA DESCA B IB JB DESCB BETA C IC
 * JC DESCC; sub(A) M x M (SIDE L) or N x N. */
int pumma_check_symm(const char *side, const char *uplo, int m, int n,
                     int ia, int ja, const int *desca, int ib, int jb,
                     const int *descb, int ic, int jc, const int *descc,
                     int dA[11], int dB[11], int dC[11], int *ctxt)
{
    GRID;
    to11(desca, dA);
    to11(descb, dB);
    to11(descc, dC);
    *ctxt = dA[CTXT_];
    if (!grid_of(dA, &nprow, &npcol, &myrow, &mycol))
        return -(9 * MULT + 1 + CTXT_);
    int err = NONE;
    const char sd = up(side), u = up(uplo);
    if (sd != 'L' && sd != 'R')
        err = 1 * MULT;
    else if (u != 'U' && u != 'L')
        err = 2 * MULT;
    if (sd == 'L')
        chk_opnd(*ctxt, G, m, 3, m, 3, ia - 1, ja - 1, desca, dA, 9, &err);
    else
        chk_opnd(*ctxt, G, n, 4, n, 4, ia - 1, ja - 1, desca, dA, 9, &err);
    chk_opnd(*ctxt, G, m, 3, n, 4, ib - 1, jb - 1, descb, dB, 13, &err);
    chk_opnd(*ctxt, G, m, 3, n, 4, ic - 1, jc - 1, descc, dC, 18, &err);
    return finish(err);
}

/* P?TRMM, P?TRSM: SIDE UPLO TRANSA DIAG M N ALPHA A IA JA DESCA B IB JB
 * DESCB; sub(A) M x M (SIDE L) or N x N. P?TRMM checks DIAG apart, so a
 * bad DIAG replaces an earlier option's code (pdtrmm_.c); P?TRSM does
 * not. */
int pumma_check_trmm(int rout, const char *side, const char *uplo,
                     const char *transa, const char *diag, int m, int n,
                     int ia, int ja, const int *desca, int ib, int jb,
                     const int *descb, int dA[11], int dB[11], int *ctxt)
{
    GRID;
    to11(desca, dA);
    to11(descb, dB);
    *ctxt = dA[CTXT_];
    if (!grid_of(dA, &nprow, &npcol, &myrow, &mycol))
        return -(11 * MULT + 1 + CTXT_);
    int err = NONE;
    const char sd = up(side), u = up(uplo), tr = up(transa), dg = up(diag);
    const int bad_diag = dg != 'N' && dg != 'U';
    if (sd != 'L' && sd != 'R')
        err = 1 * MULT;
    else if (u != 'U' && u != 'L')
        err = 2 * MULT;
    else if (tr != 'N' && tr != 'T' && tr != 'C')
        err = 3 * MULT;
    else if (bad_diag && rout == PUMMA_R_TRSM)
        err = 4 * MULT;
    if (bad_diag && rout == PUMMA_R_TRMM) err = 4 * MULT;
    if (sd == 'L')
        chk_opnd(*ctxt, G, m, 5, m, 5, ia - 1, ja - 1, desca, dA, 11, &err);
    else
        chk_opnd(*ctxt, G, n, 6, n, 6, ia - 1, ja - 1, desca, dA, 11, &err);
    chk_opnd(*ctxt, G, m, 5, n, 6, ib - 1, jb - 1, descb, dB, 15, &err);
    return finish(err);
}
