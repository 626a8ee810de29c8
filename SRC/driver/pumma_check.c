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
