/*
 * l3cmp.c -- randomized comparison of pumma's Level-3 PBLAS other than
 * P?GEMM with ScaLAPACK's own, on the same local data, over many random
 * legal calls and a set of illegal ones; a sibling of pgemmcmp.c, written
 * from ScaLAPACK 2.2.1's specification of each routine (the doc comments
 * and argument checks of PBLAS/SRC/p?????_.c).
 *
 *   mpiexec -n NP ./xl3cmp NCASES SEED FAMILIES
 *
 * FAMILIES is a comma list of geadd, tradd, tran (PSTRAN, PDTRAN,
 * P?TRANU, P?TRANC), trmm, trsm, syrk, herk, syr2k, her2k, symm, hemm (or
 * all); each is run in every precision ScaLAPACK has it in. For each
 * routine the program first checks that the symbol it calls (pdsyrk_,
 * bound by the dynamic linker as any caller's would be) is pumma's: in
 * libpumma.so, or linked into the program from libpumma.a -- not
 * ScaLAPACK's, which it reaches itself with dlopen/dlsym as pgemmcmp.c
 * does. A routine that is not pumma's is a FAILED line, so ScaLAPACK
 * cannot pass against itself unnoticed.
 *
 * Each random call (drawn alike on every process from SEED, the routine's
 * name and the case number, so any case runs again on its own): a grid
 * of the NP processes, every option at random over its legal values
 * (lower case too), sizes 0..70 with 0 and 1 frequent, each descriptor
 * in the 9-entry (DTYPE 1) or 11-entry (DTYPE 2) form with its own
 * IMB/INB != MB/NB, blocks 1..12, RSRC/CSRC -1 (replicated) or 0..P-1,
 * IA/JA off block boundaries, LLD above what is needed; ALPHA and BETA 0,
 * 1 or general (complex) values, the real ones of P?HERK and P?HER2K
 * passed as lone reals. Both routines get identical copies of every
 * local array, with the traps the specification allows:
 *  - BETA = 0: the referenced part of sub(C) is NaN (not to be read);
 *  - ALPHA = 0: sub(A) and sub(B) are NaN (sub(B) of P?TRMM/P?TRSM);
 *  - the strict triangle of sub(A) that UPLO leaves out is NaN for
 *    SYMM/HEMM/TRMM/TRSM (and the part of op(sub(A)) facing TRADD's
 *    unreferenced part of sub(C)), the diagonal too when DIAG = 'U', and
 *    the imaginary parts of HEMM's diagonal;
 *  - the strict part of sub(C) that UPLO leaves out (TRADD, SYRK, HERK,
 *    SYR2K, HER2K) holds TRAP and must come back bit for bit;
 *  - HERK/HER2K: the imaginary parts of sub(C)'s diagonal "need not be
 *    set, they are assumed to be zero, and on exit they are set to zero"
 *    (pzherk_.c:218-224): NaN on input, exactly 0 on exit -- except on
 *    ScaLAPACK's quick return (ALPHA = 0 or K = 0, with BETA = 1;
 *    pzherk_.c:295-298), which leaves C as it is, diagonal included: then
 *    they hold data, and the result is compared with ScaLAPACK's;
 *  - everything outside sub(C) (sub(B) for TRMM/TRSM) in each local
 *    array, the rows between the local rows and LLD too, and the input
 *    arrays, scalars, dimensions and descriptors must be left bit for
 *    bit;
 *  - TRSM's sub(A) is well conditioned (see tolerance()).
 * The results are compared entry by entry within a bound scaled by the
 * machine epsilon and the inner dimension; a NaN is always an error.
 *
 * Error exits: per routine, rounds of illegal calls made from a legal one
 * -- each option illegal, each dimension -1, IA/JA 0, -1 and out of
 * bounds, every descriptor entry illegal, a descriptor on another
 * context, RSRC = NPROW, LLD too small, a context that is no grid's in
 * the first descriptor, and some of them together. The program's own
 * PB_Cabort (exported with -rdynamic, as ScaLAPACK's testers do) records
 * INFO and the routine name of each call: pumma's must be ScaLAPACK's on
 * every process, exactly once per call, nothing may be changed.
 *
 * Output: one PASSED/FAILED line per routine; on failure, the first bad
 * case (seed, case number, every parameter and what was wrong), the
 * worst entry and how to run that case alone; `N passed, N failed` last;
 * the exit status is nonzero on any failure.
 *
 * Environment:
 *   L3CMP_SELF=1     compare ScaLAPACK against itself (checks the harness
 *                    before pumma has the routines: everything must pass)
 *   L3CMP_CASE=n     run random case n only; L3CMP_CASE=En: error round n
 *   L3CMP_VERBOSE=1  rank 0 prints each case before making it (2: with a
 *                    map of its local arrays, traps and all: showmap())
 *   L3CMP_INJECT=x   a deliberate fault on the side under test, after each
 *                    call, to see the harness catch it (with L3CMP_SELF=1
 *                    every routine must then FAIL): entry (one result
 *                    entry moved by 4 tolerances), trap (an unreferenced
 *                    entry of sub(C), or else one outside it, written),
 *                    pad (a row between the local rows and LLD written),
 *                    beta0 (a NaN in the result where C was not to be
 *                    read: BETA = 0, or ALPHA = 0 for TRMM/TRSM), input (A
 *                    changed), info (an error exit's INFO off by one).
 */
#ifndef PUMMA_SMPI
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacs.h"
#include "testmat.h"

/* Fortran names as pumma's build mangles them (CDEFS). */
#if defined(UpCase)
#define F77(l, U) U
#elif defined(NoChange)
#define F77(l, U) l
#else
#define F77(l, U) l##_
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

/* ScaLAPACK's calling sequences (PBLAS/SRC/PBpblas.h), every argument by
 * address; the scalars' types are the routine's (P?HERK's ALPHA and BETA
 * and P?HER2K's BETA real). */
typedef void geadd_fn(const char *, const int *, const int *, const void *,
                      const void *, const int *, const int *, const int *,
                      const void *, void *, const int *, const int *,
                      const int *);
typedef void tradd_fn(const char *, const char *, const int *, const int *,
                      const void *, const void *, const int *, const int *,
                      const int *, const void *, void *, const int *,
                      const int *, const int *);
typedef void tran_fn(const int *, const int *, const void *, const void *,
                     const int *, const int *, const int *, const void *,
                     void *, const int *, const int *, const int *);
typedef void trmm_fn(const char *, const char *, const char *, const char *,
                     const int *, const int *, const void *, const void *,
                     const int *, const int *, const int *, void *,
                     const int *, const int *, const int *);
typedef void syrk_fn(const char *, const char *, const int *, const int *,
                     const void *, const void *, const int *, const int *,
                     const int *, const void *, void *, const int *,
                     const int *, const int *);
typedef void syr2k_fn(const char *, const char *, const int *, const int *,
                      const void *, const void *, const int *, const int *,
                      const int *, const void *, const int *, const int *,
                      const int *, const void *, void *, const int *,
                      const int *, const int *);
typedef void symm_fn(const char *, const char *, const int *, const int *,
                     const void *, const void *, const int *, const int *,
                     const int *, const void *, const int *, const int *,
                     const int *, const void *, void *, const int *,
                     const int *, const int *);

enum { GEADD, TRADD, TRAN, TRMM, TRSM, SYRK, HERK, SYR2K, HER2K, SYMM, HEMM,
       NFAM };

/* The names this program calls: pumma's once it serves them, else the
 * dynamic linker finds ScaLAPACK's (checked before each routine runs). */
#define FOUR(T, s, d, c, z, S, D, C, Z)                                     \
    T F77(s, S), F77(d, D), F77(c, C), F77(z, Z);
FOUR(geadd_fn, psgeadd, pdgeadd, pcgeadd, pzgeadd, PSGEADD, PDGEADD, PCGEADD,
     PZGEADD)
FOUR(tradd_fn, pstradd, pdtradd, pctradd, pztradd, PSTRADD, PDTRADD, PCTRADD,
     PZTRADD)
FOUR(tran_fn, pstran, pdtran, pctranu, pztranu, PSTRAN, PDTRAN, PCTRANU,
     PZTRANU)
tran_fn F77(pctranc, PCTRANC), F77(pztranc, PZTRANC);
FOUR(trmm_fn, pstrmm, pdtrmm, pctrmm, pztrmm, PSTRMM, PDTRMM, PCTRMM, PZTRMM)
FOUR(trmm_fn, pstrsm, pdtrsm, pctrsm, pztrsm, PSTRSM, PDTRSM, PCTRSM, PZTRSM)
FOUR(syrk_fn, pssyrk, pdsyrk, pcsyrk, pzsyrk, PSSYRK, PDSYRK, PCSYRK, PZSYRK)
syrk_fn F77(pcherk, PCHERK), F77(pzherk, PZHERK);
FOUR(syr2k_fn, pssyr2k, pdsyr2k, pcsyr2k, pzsyr2k, PSSYR2K, PDSYR2K, PCSYR2K,
     PZSYR2K)
syr2k_fn F77(pcher2k, PCHER2K), F77(pzher2k, PZHER2K);
FOUR(symm_fn, pssymm, pdsymm, pcsymm, pzsymm, PSSYMM, PDSYMM, PCSYMM, PZSYMM)
symm_fn F77(pchemm, PCHEMM), F77(pzhemm, PZHEMM);

typedef void (*anyfn)(void);
typedef struct routine {
    const char *name;   /* ScaLAPACK's, as its PB_Cabort call gives it */
    int fam, ty;        /* ty 0..3: S D C Z */
    anyfn mine;         /* the definition this program is linked with */
    const char *sym;    /* its symbol, for dlsym on ScaLAPACK */
} routine_t;

#define R(fam, ty, l, U) {#U, fam, ty, (anyfn)F77(l, U), STR(F77(l, U))}
static const routine_t routines[] = {
    R(GEADD, 0, psgeadd, PSGEADD), R(GEADD, 1, pdgeadd, PDGEADD),
    R(GEADD, 2, pcgeadd, PCGEADD), R(GEADD, 3, pzgeadd, PZGEADD),
    R(TRADD, 0, pstradd, PSTRADD), R(TRADD, 1, pdtradd, PDTRADD),
    R(TRADD, 2, pctradd, PCTRADD), R(TRADD, 3, pztradd, PZTRADD),
    R(TRAN, 0, pstran, PSTRAN),    R(TRAN, 1, pdtran, PDTRAN),
    R(TRAN, 2, pctranu, PCTRANU),  R(TRAN, 3, pztranu, PZTRANU),
    R(TRAN, 2, pctranc, PCTRANC),  R(TRAN, 3, pztranc, PZTRANC),
    R(TRMM, 0, pstrmm, PSTRMM),    R(TRMM, 1, pdtrmm, PDTRMM),
    R(TRMM, 2, pctrmm, PCTRMM),    R(TRMM, 3, pztrmm, PZTRMM),
    R(TRSM, 0, pstrsm, PSTRSM),    R(TRSM, 1, pdtrsm, PDTRSM),
    R(TRSM, 2, pctrsm, PCTRSM),    R(TRSM, 3, pztrsm, PZTRSM),
    R(SYRK, 0, pssyrk, PSSYRK),    R(SYRK, 1, pdsyrk, PDSYRK),
    R(SYRK, 2, pcsyrk, PCSYRK),    R(SYRK, 3, pzsyrk, PZSYRK),
    R(HERK, 2, pcherk, PCHERK),    R(HERK, 3, pzherk, PZHERK),
    R(SYR2K, 0, pssyr2k, PSSYR2K), R(SYR2K, 1, pdsyr2k, PDSYR2K),
    R(SYR2K, 2, pcsyr2k, PCSYR2K), R(SYR2K, 3, pzsyr2k, PZSYR2K),
    R(HER2K, 2, pcher2k, PCHER2K), R(HER2K, 3, pzher2k, PZHER2K),
    R(SYMM, 0, pssymm, PSSYMM),    R(SYMM, 1, pdsymm, PDSYMM),
    R(SYMM, 2, pcsymm, PCSYMM),    R(SYMM, 3, pzsymm, PZSYMM),
    R(HEMM, 2, pchemm, PCHEMM),    R(HEMM, 3, pzhemm, PZHEMM),
};
#define NROUT ((int)(sizeof routines / sizeof *routines))

/* What each family takes: its option arguments in order (S = SIDE, U =
 * UPLO, T = TRANS/TRANSA, D = DIAG), whether B is an argument, which
 * operand is written (1 = B, 2 = C), whether there is a BETA, and whether
 * the dimensions are (M, N) or (N, K). */
static const struct famprop {
    const char *name, *opts;
    int hasb, out, beta, nk;
} fp[NFAM] = {
    [GEADD] = {"geadd", "T", 0, 2, 1, 0},  [TRADD] = {"tradd", "UT", 0, 2, 1, 0},
    [TRAN] = {"tran", "", 0, 2, 1, 0},     [TRMM] = {"trmm", "SUTD", 1, 1, 0, 0},
    [TRSM] = {"trsm", "SUTD", 1, 1, 0, 0}, [SYRK] = {"syrk", "UT", 0, 2, 1, 1},
    [HERK] = {"herk", "UT", 0, 2, 1, 1},   [SYR2K] = {"syr2k", "UT", 1, 2, 1, 1},
    [HER2K] = {"her2k", "UT", 1, 2, 1, 1}, [SYMM] = {"symm", "SU", 1, 2, 1, 0},
    [HEMM] = {"hemm", "SU", 1, 2, 1, 0},
};

/* The legal TRANS values (pzsyrk_.c:269, pzherk_.c:276, pdsyrk_.c:272). */
static const char *transset(int fam, int cplx)
{
    if (fam == SYRK || fam == SYR2K) return cplx ? "NT" : "NTC";
    if (fam == HERK || fam == HER2K) return "NC";
    return "NTC";
}

/* ------------------------------------------------------------- PB_Cabort */
/* ScaLAPACK's and pumma's argument checks report here (the program is
 * linked with -rdynamic): the call returns, INFO and the name are kept.
 * PB_Cwarn, which ScaLAPACK's checks call for every illegal value, says
 * nothing, as in ScaLAPACK's testers. */
static int ab_count, ab_info;
static char ab_rout[32];

void PB_Cabort(int ctxt, const char *rout, int info);
void PB_Cwarn(int ctxt, int line, const char *rout, const char *form, ...);

void PB_Cabort(int ctxt, const char *rout, int info)
{
    (void)ctxt;
    ab_count++;
    ab_info = info;
    snprintf(ab_rout, sizeof ab_rout, "%s", rout ? rout : "(null)");
}

void PB_Cwarn(int ctxt, int line, const char *rout, const char *form, ...)
{
    (void)ctxt; (void)line; (void)rout; (void)form;
}

/* ------------------------------------------------------------- the data */
#define TRAP (-9923.0) /* unreferenced part of sub(C): to come back as is */
#define PAD 7.0        /* rows between the local rows and LLD */

typedef struct mat {
    int on;                  /* an argument of the routine */
    int i, j;                /* IA, JA */
    int m, n;                /* sub()'s rows and columns */
    int M, N;                /* DESC's M_, N_ */
    int imb, inb, mb, nb, rs, cs;
    int xl;                  /* LLD's rows beyond max(1, local rows) */
    int nine;                /* the 9-entry (DTYPE 1) descriptor */
    int mloc, nloc, lld;     /* this process's */
    int desc[11];
    int *rmap, *cmap;        /* local row/column -> global */
    size_t cnt;              /* elements of the local array */
    void *orig, *mine, *ref; /* as made; pumma's copy; ScaLAPACK's copy */
} mat_t;

typedef struct call {
    const routine_t *r;
    int fam, ty, cplx;
    char side, uplo, trans, diag;
    int m, n, k;
    double al[2], be[2];
    int quick;               /* HERK/HER2K: ScaLAPACK's quick return */
    int P, Q, gi;
    mat_t X[3];              /* A, B, C */
} call_t;

static size_t partsz(int ty) { return ty % 2 ? 8 : 4; }
static size_t elsz(int ty) { return partsz(ty) * (ty >= 2 ? 2 : 1); }

static void put(void *d, size_t el, int ty, double re, double im)
{
    if (ty % 2) {
        double *p = (double *)d + el * (ty >= 2 ? 2 : 1);
        p[0] = re;
        if (ty >= 2) p[1] = im;
    } else {
        float *p = (float *)d + el * (ty >= 2 ? 2 : 1);
        p[0] = (float)re;
        if (ty >= 2) p[1] = (float)im;
    }
}

/* Part p (two per complex element) of a local array. */
static double part(const void *d, size_t p, int ty)
{
    return ty % 2 ? ((const double *)d)[p] : ((const float *)d)[p];
}

static int is0(const double *s) { return s[0] == 0 && s[1] == 0; }
static int upper(char c) { return toupper((unsigned char)c) == 'U'; }
static int left(char c) { return toupper((unsigned char)c) == 'L'; }
static int notran(char c) { return toupper((unsigned char)c) == 'N'; }

/* Entry (i, j) of sub() in UPLO's triangle (trapezoid). */
static int in_tri(char uplo, int i, int j) { return upper(uplo) ? i <= j : i >= j; }

/* Entry (i, j) of the written sub() is referenced (read and written). */
static int referenced(const call_t *c, int i, int j)
{
    switch (c->fam) {
    case TRADD: case SYRK: case HERK: case SYR2K: case HER2K:
        return in_tri(c->uplo, i, j);
    default:
        return 1;
    }
}

/* What entry (i, j) of sub(X[w]) holds on input. */
enum { V_DATA, V_NAN, V_TRAP, V_IMNAN, V_OFF, V_DIAG };
static int role(const call_t *c, int w, int i, int j)
{
    const int f = c->fam;
    if (w == fp[f].out) {
        if (!referenced(c, i, j)) return V_TRAP;
        if (!fp[f].beta) return is0(c->al) ? V_NAN : V_DATA;
        if (is0(c->be)) return V_NAN;
        if ((f == HERK || f == HER2K) && i == j && !c->quick) return V_IMNAN;
        return V_DATA;
    }
    if (f != TRMM && f != TRSM && is0(c->al)) return V_NAN;
    if (w != 0) return V_DATA;
    switch (f) {
    case SYMM: case HEMM:
        if (!in_tri(c->uplo, i, j)) return V_NAN;
        return f == HEMM && i == j ? V_IMNAN : V_DATA;
    case TRMM: case TRSM:
        if (!in_tri(c->uplo, i, j)) return V_NAN;
        if (i == j)
            return toupper((unsigned char)c->diag) == 'U' ? V_NAN
                   : f == TRSM                          ? V_DIAG
                                                        : V_DATA;
        return f == TRSM ? V_OFF : V_DATA;
    case TRADD: /* op(sub(A))(p, q) is added to sub(C)(p, q) */
        return notran(c->trans) ? (in_tri(c->uplo, i, j) ? V_DATA : V_NAN)
                                : (in_tri(c->uplo, j, i) ? V_DATA : V_NAN);
    }
    return V_DATA;
}

/* What the check does with entry (i, j) of the written sub(). */
enum { K_SAME, K_CMP, K_IMZERO };
static int outrole(const call_t *c, int i, int j)
{
    if (!referenced(c, i, j)) return K_SAME;
    if ((c->fam == HERK || c->fam == HER2K) && i == j && !c->quick)
        return K_IMZERO;
    return K_CMP;
}

/* Where local element (li, lj) is: padding, outside sub(), inside (i, j
 * relative to sub()). */
enum { W_PAD, W_OUT, W_IN };
static int where(const mat_t *x, int li, int lj, int *i, int *j)
{
    if (li >= x->mloc) return W_PAD;
    *i = x->rmap[li] - (x->i - 1);
    *j = x->cmap[lj] - (x->j - 1);
    return *i >= 0 && *i < x->m && *j >= 0 && *j < x->n ? W_IN : W_OUT;
}

/* ------------------------------------------------------------- drawing */
/* small: 1 for 0..6, 2 for 1..6 */
static int dimdraw(int small)
{
    if (small) return rnd(0, 5) || small == 2 ? rnd(1, 6) : 0;
    int r = rnd(0, 9);
    return r == 0 ? 0 : r == 1 ? 1 : r < 7 ? rnd(2, 12) : rnd(13, 70);
}

static int bsdraw(void) { return rnd(0, 3) ? rnd(1, 5) : rnd(6, 12); }

/* 0, 1 or a general value; re/im exact in float too (multiples of 1/1024). */
static void scalar(double *s, int cplx, int zero_ok)
{
    static const double choice[] = {0.0, 1.0, -1.5, 0.75, -0.5, 2.0};
    int kind = rnd(0, 5);
    double g[2];
    for (int q = 0; q < 2; q++)
        g[q] = rnd(0, 1) ? choice[rnd(0, 5)] : rnd(-2048, 2048) / 1024.0;
    if (kind == 0 && zero_ok) { s[0] = 0; s[1] = 0; }
    else if (kind <= 1) { s[0] = 1; s[1] = 0; }
    else { s[0] = g[0]; s[1] = cplx ? g[1] : 0; }
}

static void layout(mat_t *x, int m, int n, int P, int Q, int small)
{
    memset(x, 0, sizeof *x);
    x->on = 1;
    x->m = m;
    x->n = n;
    x->i = rnd(1, small ? 5 : 14);
    x->j = rnd(1, small ? 5 : 14);
    x->M = x->i - 1 + m + rnd(0, 3);
    x->N = x->j - 1 + n + rnd(0, 3);
    x->nine = rnd(0, 2) == 0;
    x->imb = bsdraw(); x->inb = bsdraw(); x->mb = bsdraw(); x->nb = bsdraw();
    if (x->nine) { x->imb = x->mb; x->inb = x->nb; }
    x->rs = rnd(-1, P - 1);
    x->cs = rnd(-1, Q - 1);
    x->xl = rnd(0, 3);
}

/* The P?TRSM calls of PDGETRS and PDPOTRS: a few right-hand sides (the
 * rows of sub(B) for SIDE 'R'), and sub(A) blocked alike along both of
 * its dimensions from (IA, JA), so that each diagonal block lies whole on
 * one process (IA = JA, square blocks, neither replicated); sub(B) blocked
 * as sub(A) along the triangle half the time. These are the calls the
 * fan-in solve (pumma_trsm_fanin.c) takes; random layouts seldom are. */
static void solver_shape(call_t *c, int P, int Q)
{
    const int l = left(c->side);
    int *nt = l ? &c->m : &c->n, *r = l ? &c->n : &c->m;
    *nt = rnd(2, 70);
    *r = rnd(1, 4);
    mat_t *a = &c->X[0], *b = &c->X[1];
    layout(a, *nt, *nt, P, Q, 0);
    layout(b, c->m, c->n, P, Q, 0);
    a->j = a->i;
    a->N = a->M;
    a->inb = a->imb;
    a->nb = a->mb;
    a->rs = rnd(0, P - 1);
    a->cs = rnd(0, Q - 1);
    if (rnd(0, 1)) {              /* sub(B) aligned with sub(A) */
        if (l) {
            b->i = a->i; b->imb = a->imb; b->mb = a->mb; b->rs = a->rs;
            b->M = b->i - 1 + c->m + rnd(0, 3);
        } else {
            b->j = a->j; b->inb = a->inb; b->nb = a->nb; b->cs = a->cs;
            b->N = b->j - 1 + c->n + rnd(0, 3);
        }
        if (b->nine) { b->imb = b->mb; b->inb = b->nb; }
    }
}

/* A legal call of routine r on a P x Q grid; small: the base of the
 * error exits (1: sizes 0..6, 2: 1..6). */
static void draw(call_t *c, const routine_t *r, int P, int Q, int small)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    c->fam = r->fam;
    c->ty = r->ty;
    c->cplx = r->ty >= 2;
    c->P = P;
    c->Q = Q;
    const int f = c->fam;
    c->side = rnd(0, 1) ? 'L' : 'R';
    c->uplo = rnd(0, 1) ? 'U' : 'L';
    const char *ts = transset(f, c->cplx);
    c->trans = ts[rnd(0, (int)strlen(ts) - 1)];
    c->diag = rnd(0, 1) ? 'N' : 'U';
    char *o[4] = {&c->side, &c->uplo, &c->trans, &c->diag};
    for (int q = 0; q < 4; q++)
        if (rnd(0, 3) == 0) *o[q] = (char)tolower((unsigned char)*o[q]);
    int d1 = dimdraw(small), d2 = dimdraw(small);
    if (fp[f].nk) { c->n = d1; c->k = d2; }
    else { c->m = d1; c->n = d2; }
    scalar(c->al, c->cplx && f != HERK, 1);
    scalar(c->be, c->cplx && f != HERK && f != HER2K, 1);
    if (!fp[f].beta) c->be[0] = c->be[1] = 0;
    if (f == HERK || f == HER2K)
        c->quick = c->n == 0 || ((is0(c->al) || c->k == 0) &&
                                 c->be[0] == 1);
    const int nt = notran(c->trans), dim = left(c->side) ? c->m : c->n;
    switch (f) {
    case GEADD: case TRADD:
        layout(&c->X[0], nt ? c->m : c->n, nt ? c->n : c->m, P, Q, small);
        layout(&c->X[2], c->m, c->n, P, Q, small);
        break;
    case TRAN:
        layout(&c->X[0], c->n, c->m, P, Q, small);
        layout(&c->X[2], c->m, c->n, P, Q, small);
        break;
    case TRMM: case TRSM:
        layout(&c->X[0], dim, dim, P, Q, small);
        layout(&c->X[1], c->m, c->n, P, Q, small);
        if (f == TRSM && !small && rnd(0, 1)) solver_shape(c, P, Q);
        break;
    case SYRK: case HERK: case SYR2K: case HER2K:
        layout(&c->X[0], nt ? c->n : c->k, nt ? c->k : c->n, P, Q, small);
        if (fp[f].hasb)
            layout(&c->X[1], nt ? c->n : c->k, nt ? c->k : c->n, P, Q, small);
        layout(&c->X[2], c->n, c->n, P, Q, small);
        break;
    default: /* SYMM, HEMM */
        layout(&c->X[0], dim, dim, P, Q, small);
        layout(&c->X[1], c->m, c->n, P, Q, small);
        layout(&c->X[2], c->m, c->n, P, Q, small);
        break;
    }
}

/* This process's part of X[w]: descriptor, maps, the three arrays. */
static void make(call_t *c, int w, int ctxt, int me_r, int me_c)
{
    mat_t *x = &c->X[w];
    const int ty = c->ty, P = c->P, Q = c->Q;
    x->mloc = lcount(x->M, x->imb, x->mb, x->rs, me_r, P);
    x->nloc = lcount(x->N, x->inb, x->nb, x->cs, me_c, Q);
    x->lld = (x->mloc > 1 ? x->mloc : 1) + x->xl;
    if (x->nine) {
        int d[9] = {1, ctxt, x->M, x->N, x->mb, x->nb, x->rs, x->cs, x->lld};
        memcpy(x->desc, d, sizeof d);
        x->desc[9] = x->desc[10] = 0;
    } else {
        int d[11] = {2, ctxt, x->M, x->N, x->imb, x->inb, x->mb, x->nb,
                     x->rs, x->cs, x->lld};
        memcpy(x->desc, d, sizeof d);
    }
    x->rmap = malloc(sizeof(int) * (size_t)(x->mloc + 1));
    x->cmap = malloc(sizeof(int) * (size_t)(x->nloc + 1));
    for (int g = 0; g < x->M; g++) {
        int own, loc;
        locate(g, x->imb, x->mb, x->rs, P, me_r, &own, &loc);
        if (own == me_r) x->rmap[loc] = g;
    }
    for (int g = 0; g < x->N; g++) {
        int own, loc;
        locate(g, x->inb, x->nb, x->cs, Q, me_c, &own, &loc);
        if (own == me_c) x->cmap[loc] = g;
    }
    /* exactly the local array (at least one element), so that an access
     * past it is AddressSanitizer's to see */
    x->cnt = (size_t)x->lld * (size_t)x->nloc;
    size_t bytes = (x->cnt ? x->cnt : 1) * elsz(ty);
    x->orig = malloc(bytes);
    x->mine = malloc(bytes);
    x->ref = malloc(bytes);
    const int id = 100 * w + 1, dim = x->m > 0 ? x->m : 1;
    for (int lj = 0; lj < x->nloc; lj++)
        for (int li = 0; li < x->lld; li++) {
            size_t e = (size_t)li + (size_t)lj * (size_t)x->lld;
            int i, j, wh = where(x, li, lj, &i, &j);
            if (wh == W_PAD) { put(x->orig, e, ty, PAD, PAD); continue; }
            int gi = x->rmap[li], gj = x->cmap[lj];
            double re = val(id, gi, gj, 0), im = c->cplx ? val(id, gi, gj, 1) : 0;
            switch (wh == W_OUT ? V_DATA : role(c, w, i, j)) {
            case V_NAN: re = im = NAN; break;
            case V_TRAP: re = im = TRAP; break;
            case V_IMNAN: im = NAN; break;
            case V_OFF: re /= 4.0 * dim; im /= 4.0 * dim; break;
            case V_DIAG: /* |re| in [1, 2] */
                re = (val(id, gi, gj, 2) < 0 ? -1 : 1) * (1.5 + 0.5 * re);
                break;
            }
            put(x->orig, e, ty, re, im);
        }
    if (x->cnt == 0) put(x->orig, 0, ty, PAD, PAD);
    memcpy(x->mine, x->orig, bytes);
    memcpy(x->ref, x->orig, bytes);
}

static void unmake(call_t *c)
{
    for (int w = 0; w < 3; w++) {
        mat_t *x = &c->X[w];
        if (!x->on) continue;
        free(x->rmap); free(x->cmap);
        free(x->orig); free(x->mine); free(x->ref);
        x->rmap = x->cmap = NULL;
        x->orig = x->mine = x->ref = NULL;
    }
}

/* L3CMP_VERBOSE=2: the local arrays as made, one character an element:
 * '#' data in sub(), '.' data outside, 'N' NaN, 'i' NaN imaginary part,
 * 'T' TRAP, ':' padding row -- read from the values, so the traps can be
 * seen where they are. */
static void showmap(const call_t *c, int rank)
{
    const int ty = c->ty, np = c->cplx ? 2 : 1;
    for (int w = 0; w < 3; w++) {
        const mat_t *x = &c->X[w];
        if (!x->on) continue;
        printf("    rank %d %c local %dx%d (LLD %d), sub %dx%d:\n", rank,
               "ABC"[w], x->mloc, x->nloc, x->lld, x->m, x->n);
        if (x->lld > 72 || x->nloc > 72) continue;
        for (int li = 0; li < x->lld; li++) {
            char line[80];
            int l = 0;
            for (int lj = 0; lj < x->nloc; lj++) {
                size_t e = (size_t)li + (size_t)lj * (size_t)x->lld;
                double re = part(x->orig, e * np, ty),
                       im = np > 1 ? part(x->orig, e * np + 1, ty) : 0;
                int i, j, wh = where(x, li, lj, &i, &j);
                line[l++] = isnan(re) ? 'N' : isnan(im) ? 'i'
                          : re == TRAP ? 'T' : wh == W_PAD ? ':'
                          : wh == W_IN ? '#' : '.';
            }
            line[l] = 0;
            printf("      %s\n", line);
        }
    }
}

/* ------------------------------------------------------------- calling */
/* A scalar in its own allocation, of the routine's type (real: one part). */
static void *scal_new(int ty, const double *v, int real)
{
    int np = ty >= 2 && !real ? 2 : 1;
    void *p = malloc(partsz(ty) * (size_t)np);
    for (int q = 0; q < np; q++) {
        if (ty % 2) ((double *)p)[q] = v[q];
        else ((float *)p)[q] = (float)v[q];
    }
    return p;
}

/* A descriptor in its own allocation of its own length (9 or 11). */
static int *desc_new(const mat_t *x)
{
    size_t n = x->desc[0] == 1 ? 9 : 11;
    int *d = malloc(n * sizeof *d);
    memcpy(d, x->desc, n * sizeof *d);
    return d;
}

/* Call fn with c's arguments on one side's arrays (side 0: the routine
 * under test, 1: ScaLAPACK's). Every argument lives in storage of its
 * own; returns the name of one the routine changed, or NULL. */
static const char *invoke(const call_t *c, anyfn fn, int side)
{
    const mat_t *A = &c->X[0], *B = &c->X[1], *C = &c->X[2];
    void *a = side ? A->ref : A->mine;
    void *b = B->on ? (side ? B->ref : B->mine) : NULL;
    void *cc = C->on ? (side ? C->ref : C->mine) : NULL;
    const int f = c->fam, ty = c->ty;
    const int ral = f == HERK, rbe = f == HERK || f == HER2K;
    void *al = scal_new(ty, c->al, ral), *be = scal_new(ty, c->be, rbe);
    int *da = desc_new(A), *db = B->on ? desc_new(B) : NULL,
        *dc = C->on ? desc_new(C) : NULL;
    char s = c->side, u = c->uplo, t = c->trans, d = c->diag;
    int m = c->m, n = c->n, k = c->k, ia = A->i, ja = A->j, ib = B->i,
        jb = B->j, ic = C->i, jc = C->j;
    switch (f) {
    case GEADD:
        ((geadd_fn *)fn)(&t, &m, &n, al, a, &ia, &ja, da, be, cc, &ic, &jc, dc);
        break;
    case TRADD:
        ((tradd_fn *)fn)(&u, &t, &m, &n, al, a, &ia, &ja, da, be, cc, &ic,
                         &jc, dc);
        break;
    case TRAN:
        ((tran_fn *)fn)(&m, &n, al, a, &ia, &ja, da, be, cc, &ic, &jc, dc);
        break;
    case TRMM: case TRSM:
        ((trmm_fn *)fn)(&s, &u, &t, &d, &m, &n, al, a, &ia, &ja, da, b, &ib,
                        &jb, db);
        break;
    case SYRK: case HERK:
        ((syrk_fn *)fn)(&u, &t, &n, &k, al, a, &ia, &ja, da, be, cc, &ic, &jc,
                        dc);
        break;
    case SYR2K: case HER2K:
        ((syr2k_fn *)fn)(&u, &t, &n, &k, al, a, &ia, &ja, da, b, &ib, &jb, db,
                         be, cc, &ic, &jc, dc);
        break;
    default:
        ((symm_fn *)fn)(&s, &u, &m, &n, al, a, &ia, &ja, da, b, &ib, &jb, db,
                        be, cc, &ic, &jc, dc);
        break;
    }
    const char *changed = NULL;
    void *al0 = scal_new(ty, c->al, ral), *be0 = scal_new(ty, c->be, rbe);
    size_t sa = partsz(ty) * (ty >= 2 && !ral ? 2 : 1),
           sb = partsz(ty) * (ty >= 2 && !rbe ? 2 : 1);
    if (s != c->side || u != c->uplo || t != c->trans || d != c->diag)
        changed = "an option";
    else if (m != c->m || n != c->n || k != c->k)
        changed = "a dimension";
    else if (ia != A->i || ja != A->j || ib != B->i || jb != B->j ||
             ic != C->i || jc != C->j)
        changed = "IA/JA/IB/JB/IC/JC";
    else if (memcmp(da, A->desc, (da[0] == 1 ? 9 : 11) * sizeof(int)) ||
             (db && memcmp(db, B->desc, (db[0] == 1 ? 9 : 11) * sizeof(int))) ||
             (dc && memcmp(dc, C->desc, (dc[0] == 1 ? 9 : 11) * sizeof(int))))
        changed = "a descriptor";
    else if (memcmp(al, al0, sa) || memcmp(be, be0, sb))
        changed = "ALPHA or BETA";
    free(al); free(be); free(al0); free(be0);
    free(da); free(db); free(dc);
    return changed;
}

/* ------------------------------------------------------------- reporting */
static const char *const d9name[9] = {"DTYPE", "CTXT", "M", "N", "MB",
                                      "NB", "RSRC", "CSRC", "LLD"};
static const char *const d11name[11] = {"DTYPE", "CTXT", "M", "N", "IMB",
                                        "INB", "MB", "NB", "RSRC", "CSRC",
                                        "LLD"};

static int cat(char *s, size_t sz, const char *fmt, ...)
{
    size_t l = strlen(s);
    if (l + 1 >= sz) return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s + l, sz - l, fmt, ap);
    va_end(ap);
    return 1;
}

static void fmt_scalar(char *s, size_t sz, const char *name, const double *v,
                       int cplx, int real)
{
    if (cplx && !real) cat(s, sz, " %s=(%g,%g)", name, v[0], v[1]);
    else cat(s, sz, " %s=%g", name, v[0]);
}

/* Every parameter of a call, as passed (descriptor and IA/JA: c's, so a
 * mutated copy shows its mutation; LLD: this process's). */
static void describe(char *s, size_t sz, const call_t *c)
{
    const int f = c->fam;
    const char *o = fp[f].opts;
    s[0] = 0;
    cat(s, sz, "grid %dx%d:", c->P, c->Q);
    for (; *o; o++) {
        switch (*o) {
        case 'S': cat(s, sz, " SIDE='%c'", c->side); break;
        case 'U': cat(s, sz, " UPLO='%c'", c->uplo); break;
        case 'T': cat(s, sz, " %s='%c'", f == TRMM || f == TRSM ? "TRANSA" : "TRANS", c->trans); break;
        case 'D': cat(s, sz, " DIAG='%c'", c->diag); break;
        }
    }
    if (fp[f].nk) cat(s, sz, " N=%d K=%d", c->n, c->k);
    else cat(s, sz, " M=%d N=%d", c->m, c->n);
    fmt_scalar(s, sz, "ALPHA", c->al, c->cplx, f == HERK);
    if (fp[f].beta) fmt_scalar(s, sz, "BETA", c->be, c->cplx, f == HERK || f == HER2K);
    for (int w = 0; w < 3; w++) {
        const mat_t *x = &c->X[w];
        if (!x->on) continue;
        const int nd = x->desc[0] == 1 ? 9 : 11;
        cat(s, sz, "; %c: I%c=%d J%c=%d sub %dx%d DESC%c={", "ABC"[w],
            "ABC"[w], x->i, "ABC"[w], x->j, x->m, x->n, "ABC"[w]);
        for (int e = 0; e < nd; e++)
            cat(s, sz, "%s%d", e ? "," : "", x->desc[e]);
        cat(s, sz, "} (rank's LLD; local %dx%d)", x->mloc, x->nloc);
    }
}

/* ------------------------------------------------------------- checking */
typedef struct acc {
    int bad;                 /* bad cases on this process */
    long first;              /* the first bad case's number (error rounds:
                                after the random cases) */
    char firstmsg[4096];
    long entries;            /* result parts compared */
    double worst;            /* the largest |difference| / tolerance */
    char worstmsg[640];
} acc_t;

static void fail(acc_t *ac, long id, const char *casedesc, const char *what)
{
    if (ac->bad++ == 0 || id < ac->first) {
        ac->first = id;
        snprintf(ac->firstmsg, sizeof ac->firstmsg, "%s -- %s", casedesc, what);
    }
}

/* The bound on |pumma's - ScaLAPACK's| for one real or imaginary part.
 * Every result entry is alpha times a sum of kk products of entries of
 * modulus at most m1 (|re|, |im| <= 1), plus beta times an entry: each
 * implementation's rounding error is within gamma_{kk+2} times the sum of
 * the moduli of the terms (the standard dot product bound, a few units
 * more for complex arithmetic), in whatever order it sums; the two differ
 * by at most twice that, and 4 eps (kk + 2) = 8 u (kk + 2) covers it. */
static double tolerance(const call_t *c)
{
    const double eps = c->ty % 2 ? DBL_EPSILON : FLT_EPSILON;
    const double m1 = c->cplx ? sqrt(2.0) : 1.0, m2 = m1 * m1;
    const double a = hypot(c->al[0], c->al[1]),
                 b = fp[c->fam].beta ? hypot(c->be[0], c->be[1]) : 0;
    const int dim = left(c->side) ? c->m : c->n;
    int kk = 1;
    switch (c->fam) {
    case TRMM: case SYMM: case HEMM: kk = dim; break;
    case SYRK: case HERK: kk = c->k; break;
    case SYR2K: case HER2K: kk = 2 * c->k; break;
    case TRSM:
        /* A solve, not a sum: sub(A) = D + N has |d_ii| >= 1 and
         * off-diagonal moduli <= sqrt(2)/(4 dim) (make(): V_DIAG, V_OFF;
         * unit diagonal for DIAG = 'U'), so ||D^-1 N|| < 0.36 in the 1- and
         * inf-norms: ||op(A)^-1|| < 1/(1 - 0.36) < 1.6, ||op(A)|| <
         * sqrt(5) + 0.36 < 2.6, condition number kappa < 4.2, and each
         * column of the solution has ||x|| < 1.6 |alpha| sqrt(2). Each
         * implementation's computed x satisfies ||dx|| <= kappa c dim u
         * ||x|| / (1 - ...) (substitution and its blocked forms with GEMM
         * updates are normwise backward stable: Higham, Accuracy and
         * Stability of Numerical Algorithms, 2nd ed., thm 8.5 and
         * sec. 13.1, c a small constant); the two differ by at most twice
         * that: 2 * 4.2 * c * dim * (eps/2) * 1.6 * 1.42 |alpha| < 10 c
         * dim eps |alpha|; 64 eps (dim + 2) |alpha| allows c up to 6. */
        return 64 * eps * (dim + 2) * (a * m1) + 4 * eps;
    }
    return 4 * eps * (kk + 2) * (a * (kk > 0 ? kk : 1) * m2 + b * m1 + m1);
}

/* Compare after a legal call; a message for the first thing wrong, or
 * NULL; *ratio: the largest |difference| / tolerance over the entries
 * compared, *wmsg the entry. */
static const char *check(const call_t *c, double *ratio, char *wmsg,
                         size_t wsz, long *entries)
{
    static char msg[1024];
    const int ty = c->ty, np = c->cplx ? 2 : 1;
    const size_t es = elsz(ty);
    const double tol = tolerance(c);
    const char *const side[2] = {"pumma", "ScaLAPACK"};
    *ratio = 0;
    for (int w = 0; w < 3; w++) {
        const mat_t *x = &c->X[w];
        if (!x->on) continue;
        const int out = w == fp[c->fam].out;
        for (size_t e = 0; e < x->cnt; e++) {
            const int li = (int)(e % (size_t)x->lld),
                      lj = (int)(e / (size_t)x->lld);
            int i = 0, j = 0, wh = where(x, li, lj, &i, &j);
            int kind = !out || wh != W_IN ? K_SAME : outrole(c, i, j);
            const char *at = wh == W_PAD ? "padding row" :
                             wh == W_OUT ? "outside sub()" :
                             !out ? "input" : "unreferenced";
            int gi = wh == W_PAD ? -1 : x->rmap[li],
                gj = x->cmap[lj];
            for (int sd = 0; sd < 2; sd++) {
                const char *p = sd ? x->ref : x->mine;
                if (kind == K_SAME) {
                    if (memcmp(p + e * es, (const char *)x->orig + e * es, es)) {
                        snprintf(msg, sizeof msg,
                                 "%s changed %c's local (%d,%d) (global "
                                 "(%d,%d), %s): %g%+gi was %g%+gi",
                                 side[sd], "ABC"[w], li + 1, lj + 1, gi + 1,
                                 gj + 1, at, part(p, e * np, ty),
                                 np > 1 ? part(p, e * np + 1, ty) : 0,
                                 part(x->orig, e * np, ty),
                                 np > 1 ? part(x->orig, e * np + 1, ty) : 0);
                        return msg;
                    }
                    continue;
                }
                if (kind == K_IMZERO && part(p, e * np + 1, ty) != 0) {
                    snprintf(msg, sizeof msg,
                             "%s left %g as the imaginary part of sub(C)'s "
                             "diagonal entry %d (global (%d,%d)): it must "
                             "be 0",
                             side[sd], part(p, e * np + 1, ty), i + 1,
                             gi + 1, gj + 1);
                    return msg;
                }
            }
            if (kind == K_SAME) continue;
            for (int q = 0; q < (kind == K_IMZERO ? 1 : np); q++) {
                ++*entries;
                double xm = part(x->mine, e * np + q, ty),
                       xr = part(x->ref, e * np + q, ty);
                double d = fabs(xm - xr);
                if (isnan(xm) || isnan(xr)) d = INFINITY;
                if (d / tol > *ratio) {
                    *ratio = d / tol;
                    snprintf(wmsg, wsz,
                             "%c(%d,%d) = sub (%d,%d) %s: pumma %.17g, "
                             "ScaLAPACK %.17g, |diff| %.3g, tolerance %.3g",
                             "ABC"[w], gi + 1, gj + 1, i + 1, j + 1,
                             q ? "imag" : "real", xm, xr, fabs(xm - xr), tol);
                }
                if (d > tol) {
                    snprintf(msg, sizeof msg, "%s%s",
                             isnan(xr) && isnan(xm) ? "NaN from both: "
                             : isnan(xr)            ? "NaN from ScaLAPACK: "
                             : isnan(xm)            ? "NaN from pumma: "
                                                    : "",
                             wmsg);
                    return msg;
                }
            }
        }
    }
    return NULL;
}

/* L3CMP_INJECT: a fault on the side under test, after its call. */
static int inject_kind;
enum { INJ_NONE, INJ_ENTRY, INJ_TRAP, INJ_PAD, INJ_BETA0, INJ_INPUT, INJ_INFO };

static void inject(call_t *c)
{
    const int ty = c->ty, np = c->cplx ? 2 : 1;
    mat_t *x = &c->X[fp[c->fam].out];
    if (inject_kind == INJ_INPUT) {
        if (c->X[0].cnt) put(c->X[0].mine, 0, ty, 0.125, 0.125);
        return;
    }
    const int nanin = fp[c->fam].beta ? is0(c->be) : is0(c->al);
    int want = inject_kind;
    for (int pass = 0; pass < 2; pass++)
        for (size_t e = 0; e < x->cnt; e++) {
            int li = (int)(e % (size_t)x->lld), lj = (int)(e / (size_t)x->lld);
            int i, j, wh = where(x, li, lj, &i, &j);
            int kind = wh == W_IN ? outrole(c, i, j) : K_SAME;
            if (want == INJ_PAD && wh == W_PAD) {
                put(x->mine, e, ty, 0, 0);
                return;
            }
            if (want == INJ_TRAP && pass == 0 && wh == W_IN && kind == K_SAME) {
                put(x->mine, e, ty, 0, 0);
                return;
            }
            if (want == INJ_TRAP && pass == 1 && wh == W_OUT) {
                put(x->mine, e, ty, 0, 0);
                return;
            }
            if (want == INJ_ENTRY && wh == W_IN && kind == K_CMP) {
                double v = part(x->mine, e * np, ty) + 4 * tolerance(c);
                put(x->mine, e, ty, v, np > 1 ? part(x->mine, e * np + 1, ty) : 0);
                return;
            }
            if (want == INJ_BETA0 && nanin && wh == W_IN && kind != K_SAME) {
                put(x->mine, e, ty, NAN, NAN);
                return;
            }
        }
}

/* ------------------------------------------------------------- grids */
typedef struct grid {
    int P, Q, ctxt, twin; /* twin: the same shape, another context */
} grid_t;
static grid_t grids[16];
static int ngrids;

/* ------------------------------------------------------------- errors */
enum { MU_OPT, MU_DIM, MU_IA, MU_JA, MU_DESC, MU_LLDSMALL, MU_CTXT };
typedef struct mut {
    int kind, w, idx, v;
} mut_t;

static char *optp(call_t *c, char o)
{
    return o == 'S' ? &c->side : o == 'U' ? &c->uplo : o == 'T' ? &c->trans
                                                                : &c->diag;
}

static int *dimp(call_t *c, int idx)
{
    if (fp[c->fam].nk) return idx ? &c->k : &c->n;
    return idx ? &c->n : &c->m;
}

static void apply(call_t *c, const mut_t *u)
{
    mat_t *x = &c->X[u->w];
    switch (u->kind) {
    case MU_OPT: *optp(c, fp[c->fam].opts[u->idx]) = (char)u->v; break;
    case MU_DIM: *dimp(c, u->idx) = u->v; break;
    case MU_IA: x->i = u->v; break;
    case MU_JA: x->j = u->v; break;
    case MU_DESC: x->desc[u->idx] = u->v; break;
    case MU_LLDSMALL:
        /* below max(1, local rows) where the process holds columns, and
         * below 1 elsewhere: illegal on every process (PB_Cchkmat) */
        x->desc[x->nine ? 8 : 10] =
            x->nloc > 0 && x->mloc >= 2 ? x->mloc - 1 : 0;
        break;
    case MU_CTXT:
        x->desc[1] = u->idx == 0 ? grids[c->gi].twin
                                 : grids[(c->gi + 1) % ngrids].ctxt;
        break;
    }
}

static void mutname(char *s, size_t sz, const call_t *c, const mut_t *u)
{
    const mat_t *x = &c->X[u->w];
    const char L = "ABC"[u->w];
    char o;
    switch (u->kind) {
    case MU_OPT:
        o = fp[c->fam].opts[u->idx];
        cat(s, sz, " %s='%c'",
            o == 'S' ? "SIDE" : o == 'U' ? "UPLO" : o == 'D' ? "DIAG"
            : c->fam == TRMM || c->fam == TRSM ? "TRANSA" : "TRANS",
            u->v);
        break;
    case MU_DIM:
        cat(s, sz, " %s=%d", fp[c->fam].nk ? (u->idx ? "K" : "N")
                             : (u->idx ? "N" : "M"), u->v);
        break;
    case MU_IA: cat(s, sz, " I%c=%d", L, u->v); break;
    case MU_JA: cat(s, sz, " J%c=%d", L, u->v); break;
    case MU_DESC:
        cat(s, sz, " DESC%c(%s)=%d", L,
            x->nine ? d9name[u->idx] : d11name[u->idx], u->v);
        break;
    case MU_LLDSMALL: cat(s, sz, " DESC%c(LLD) too small", L); break;
    case MU_CTXT:
        cat(s, sz, " DESC%c(CTXT) of %s", L,
            u->idx ? "another grid" : "another context of the same grid");
        break;
    }
}

/* Every single illegal change of c: each one an error on every process,
 * whatever else is changed with it. */
static int mutations(const call_t *c, mut_t *L)
{
    int n = 0;
    const char *o = fp[c->fam].opts;
    for (int q = 0; o[q]; q++) {
        /* '/' as ScaLAPACK's testers; a blank; 'q' (upper-cased 'Q');
         * a value legal for another option, or in another precision */
        char other = o[q] == 'S' ? 'U' : o[q] == 'U' ? 'R' : o[q] == 'D' ? 'L'
                     : c->fam == SYRK || c->fam == SYR2K ? (c->cplx ? 'C' : 'U')
                     : c->fam == HERK || c->fam == HER2K ? 't' : 'U';
        const char bad[4] = {'/', ' ', 'q', other};
        for (int v = 0; v < 4; v++) L[n++] = (mut_t){MU_OPT, 0, q, bad[v]};
    }
    L[n++] = (mut_t){MU_DIM, 0, 0, -1};
    L[n++] = (mut_t){MU_DIM, 0, 1, -1};
    for (int w = 0; w < 3; w++) {
        const mat_t *x = &c->X[w];
        if (!x->on) continue;
        const int full = x->m > 0 && x->n > 0;
        L[n++] = (mut_t){MU_IA, w, 0, -1};
        L[n++] = (mut_t){MU_IA, w, 0, 0};
        L[n++] = (mut_t){MU_JA, w, 0, -1};
        L[n++] = (mut_t){MU_JA, w, 0, 0};
        if (full) { /* out of bounds */
            L[n++] = (mut_t){MU_IA, w, 0, x->M - x->m + 2};
            L[n++] = (mut_t){MU_JA, w, 0, x->N - x->n + 2};
        }
        const int nd = x->nine ? 9 : 11, rsrc = nd - 3, csrc = nd - 2;
        L[n++] = (mut_t){MU_DESC, w, 0, -2};
        L[n++] = (mut_t){MU_DESC, w, 0, 3};
        L[n++] = (mut_t){MU_DESC, w, 1, -1};      /* no grid's */
        L[n++] = (mut_t){MU_DESC, w, 1, 123457};
        for (int e = 2; e <= 3; e++) {
            L[n++] = (mut_t){MU_DESC, w, e, -2};
            if (full) {
                L[n++] = (mut_t){MU_DESC, w, e, 0};
                L[n++] = (mut_t){MU_DESC, w, e, e == 2 ? x->i + x->m - 2
                                                      : x->j + x->n - 2};
            }
        }
        for (int e = 4; e < rsrc; e++) {
            L[n++] = (mut_t){MU_DESC, w, e, 0};
            L[n++] = (mut_t){MU_DESC, w, e, -2};
        }
        L[n++] = (mut_t){MU_DESC, w, rsrc, -2};
        L[n++] = (mut_t){MU_DESC, w, rsrc, c->P};
        L[n++] = (mut_t){MU_DESC, w, csrc, -2};
        L[n++] = (mut_t){MU_DESC, w, csrc, c->Q};
        L[n++] = (mut_t){MU_DESC, w, nd - 1, 0};
        if (full) L[n++] = (mut_t){MU_LLDSMALL, w, 0, 0};
        L[n++] = (mut_t){MU_CTXT, w, 0, 0};
        if (ngrids > 1) L[n++] = (mut_t){MU_CTXT, w, 1, 0};
    }
    return n;
}

/* ------------------------------------------------------------- main */
static unsigned long long seed_of(unsigned long long seed, const char *name,
                                  long cs, int kind)
{
    unsigned long long h = seed * 0x9E3779B97F4A7C15ULL + (unsigned)kind;
    for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 0x100000001B3ULL;
    h ^= (unsigned long long)cs * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 29;
    return h;
}

/* Is fn pumma's definition? (in libpumma.so, or linked into the program
 * from libpumma.a; never ScaLAPACK's own sl) */
static int owner(anyfn fn, anyfn sl, const char *sym, char *where_, size_t sz)
{
    Dl_info di;
    if (!dladdr((void *)fn, &di) || !di.dli_fname) {
        snprintf(where_, sz, "nowhere dladdr knows");
        return 0;
    }
    snprintf(where_, sz, "%s", di.dli_fname);
    if (fn == sl) return 0;
    if (strstr(di.dli_fname, "libpumma")) return 1;
    /* the program itself: a definition of its own (libpumma.a), not a
     * PLT stub for ScaLAPACK's */
    Dl_info me;
    if (dladdr((void *)owner, &me) && me.dli_fname &&
        !strcmp(me.dli_fname, di.dli_fname) && di.dli_sname &&
        !strcmp(di.dli_sname, sym) && di.dli_saddr == (void *)fn) {
        snprintf(where_, sz, "%s (linked from libpumma.a)", di.dli_fname);
        return 1;
    }
    return 0;
}

/* Send this process's string to rank 0 if it is `from`. */
static void bring(char *s, int len, int from, int me)
{
    if (from == 0) return;
    if (me == from) MPI_Send(s, len, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
    if (me == 0) MPI_Recv(s, len, MPI_CHAR, from, 7, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
}

#define ERR_ROUNDS 3
#define ERR_COMBOS 20

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    Cblacs_pinfo(&me, &np);
    if (argc < 4) {
        if (me == 0)
            fprintf(stderr, "usage: mpiexec -n NP %s NCASES SEED FAMILIES\n"
                    "  FAMILIES: comma list of geadd tradd tran trmm trsm "
                    "syrk herk syr2k her2k symm hemm, or all\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    const long ncases = atol(argv[1]);
    const unsigned long long seed = strtoull(argv[2], 0, 10);
    int want[NFAM] = {0};
    {
        char *list = strdup(argv[3]), *save = NULL;
        for (char *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            int f;
            for (f = 0; f < NFAM && strcmp(t, fp[f].name); f++) {}
            if (!strcmp(t, "all")) for (f = 0; f < NFAM; f++) want[f] = 1;
            else if (f < NFAM) want[f] = 1;
            else {
                if (me == 0) fprintf(stderr, "xl3cmp: unknown family '%s'\n", t);
                MPI_Finalize();
                return 2;
            }
        }
        free(list);
    }
    const char *e;
    const int self = (e = getenv("L3CMP_SELF")) && !strcmp(e, "1");
    const int verbose = (e = getenv("L3CMP_VERBOSE")) ? atoi(e) : 0;
    long only = -1;
    int only_err = 0;
    if ((e = getenv("L3CMP_CASE")) && *e) {
        only_err = *e == 'E' || *e == 'e';
        only = atol(e + only_err);
    }
    if ((e = getenv("L3CMP_INJECT")) && *e) {
        static const char *const kinds[] = {"", "entry", "trap", "pad",
                                            "beta0", "input", "info"};
        for (inject_kind = 1; inject_kind < 7 && strcmp(e, kinds[inject_kind]);
             inject_kind++) {}
        if (inject_kind == 7) {
            if (me == 0) fprintf(stderr, "xl3cmp: unknown L3CMP_INJECT '%s'\n", e);
            MPI_Finalize();
            return 2;
        }
    }

    void *h = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        if (me == 0) fprintf(stderr, "xl3cmp: cannot open ScaLAPACK: %s\n", dlerror());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* every grid shape that fits, each with a twin context */
    static const int shapes[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3},
                                    {3, 1}, {1, 4}, {4, 1}, {2, 3}, {3, 2},
                                    {3, 3}, {2, 4}, {4, 2}};
    for (int s = 0; s < (int)(sizeof shapes / sizeof *shapes); s++) {
        int P = shapes[s][0], Q = shapes[s][1];
        if (P * Q > np) continue;
        grid_t *g = &grids[ngrids++];
        g->P = P;
        g->Q = Q;
        Cblacs_get(-1, 0, &g->ctxt);
        Cblacs_gridinit(&g->ctxt, "Row", P, Q);
        Cblacs_get(-1, 0, &g->twin);
        Cblacs_gridinit(&g->twin, "Col", P, Q);
    }

    if (me == 0 && self)
        printf("L3CMP_SELF=1: ScaLAPACK against itself (checks the harness)\n");
    int passed = 0, failed = 0;
    for (int ri = 0; ri < NROUT; ri++) {
        const routine_t *r = &routines[ri];
        if (!want[r->fam]) continue;
        anyfn sl = (anyfn)dlsym(h, r->sym);
        if (!sl) {
            if (me == 0) printf("FAILED %s: %s is not in ScaLAPACK's library\n",
                                r->name, r->sym);
            failed++;
            continue;
        }
        char wh[512];
        if (!self && !owner(r->mine, sl, r->sym, wh, sizeof wh)) {
            if (me == 0)
                printf("FAILED %s: not pumma's: %s resolves to %s\n", r->name,
                       r->sym, wh);
            failed++;
            continue;
        }
        anyfn mine = self ? sl : r->mine;
        acc_t ac;
        memset(&ac, 0, sizeof ac);
        ac.first = LONG_MAX;
        double t0 = MPI_Wtime();
        long nrand = 0, nerr = 0;
        /* random legal calls */
        for (long cs = 0; cs < ncases; cs++) {
            if (only >= 0 && (only_err || cs != only)) continue;
            rng = seed_of(seed, r->name, cs, 0);
            call_t c;
            c.gi = rnd(0, ngrids - 1);
            const grid_t *g = &grids[c.gi];
            int gi = c.gi;
            draw(&c, r, g->P, g->Q, 0);
            c.gi = gi;
            nrand++;
            int nprow, npcol, me_r, me_c;
            Cblacs_gridinfo(g->ctxt, &nprow, &npcol, &me_r, &me_c);
            if (nprow < 0) continue;
            for (int w = 0; w < 3; w++)
                if (c.X[w].on) make(&c, w, g->ctxt, me_r, me_c);
            char cd[1600], id[96];
            snprintf(id, sizeof id, "%s case %ld (seed %llu", r->name, cs, seed);
            describe(cd, sizeof cd, &c);
            char full[1800];
            snprintf(full, sizeof full, "%s) %s", id, cd);
            if (verbose && me == 0) {
                printf("  %s\n", full);
                if (verbose > 1) showmap(&c, me);
                fflush(stdout);
            }
            ab_count = 0;
            const char *ch1 = invoke(&c, mine, 0);
            const int n1 = ab_count, i1 = ab_info;
            if (inject_kind && inject_kind != INJ_INFO) inject(&c);
            ab_count = 0;
            const char *ch2 = invoke(&c, sl, 1);
            const int n2 = ab_count, i2 = ab_info;
            char what[700];
            double ratio = 0;
            char wmsg[512] = "";
            const char *bad = NULL;
            if (n1 || n2) {
                snprintf(what, sizeof what, "a legal call reported INFO: "
                         "pumma %d (%d calls of PB_Cabort), ScaLAPACK %d (%d)",
                         n1 ? i1 : 0, n1, n2 ? i2 : 0, n2);
                bad = what;
            } else if (ch1 || ch2) {
                snprintf(what, sizeof what, "%s changed %s",
                         ch1 ? "pumma" : "ScaLAPACK", ch1 ? ch1 : ch2);
                bad = what;
            } else {
                bad = check(&c, &ratio, wmsg, sizeof wmsg, &ac.entries);
            }
            if (ratio > ac.worst) {
                ac.worst = ratio;
                snprintf(ac.worstmsg, sizeof ac.worstmsg, "case %ld: %s", cs,
                         wmsg);
            }
            if (bad) {
                char withme[1100];
                snprintf(withme, sizeof withme, "rank %d: %s", me, bad);
                fail(&ac, cs, full, withme);
            }
            unmake(&c);
        }
        /* error exits */
        for (int round = 0; round < ERR_ROUNDS; round++) {
            if (only >= 0 && (!only_err || round != only)) continue;
            rng = seed_of(seed, r->name, round, 1);
            call_t base;
            base.gi = rnd(0, ngrids - 1);
            const grid_t *g = &grids[base.gi];
            int gi = base.gi;
            /* round 0: every dimension at least 1, so that every
             * mutation (out of bounds, LLD too small) has its turn */
            draw(&base, r, g->P, g->Q, round == 0 ? 2 : 1);
            base.gi = gi;
            mut_t L[400];
            int nl = mutations(&base, L);
            /* the list, then together: all options, pairs of options, and
             * random pairs and triples */
            int nopt = (int)strlen(fp[base.fam].opts);
            mut_t combo[ERR_COMBOS + 32][4];
            int ncombo[ERR_COMBOS + 32];
            int nc = 0;
            if (nopt > 1) {
                for (int q = 0; q < nopt; q++) combo[nc][q] = (mut_t){MU_OPT, 0, q, '/'};
                ncombo[nc++] = nopt;
                for (int q1 = 0; q1 < nopt; q1++)
                    for (int q2 = q1 + 1; q2 < nopt; q2++) {
                        combo[nc][0] = (mut_t){MU_OPT, 0, q1, 'q'};
                        combo[nc][1] = (mut_t){MU_OPT, 0, q2, '/'};
                        ncombo[nc++] = 2;
                    }
            }
            /* where PB_Cchkmat's order decides: an illegal DTYPE or a
             * context not the call's returns before the bounds are
             * checked; bounds only when DESC M_ and N_ are >= 1; RSRC
             * and bounds both checked, the lower position wins
             * (PB_Cchkmat.c:178-211, 312-355); a context that is no
             * grid's in DESCA hides everything else (pdsyrk_.c:264) */
            for (int w = 0; w < 3; w++) {
                const mat_t *x = &base.X[w];
                if (!x->on || !x->m || !x->n) continue;
                const int nd = x->nine ? 9 : 11;
                const mut_t ia = {MU_IA, w, 0, x->M - x->m + 2},
                            ja = {MU_JA, w, 0, x->N - x->n + 2};
                const mut_t pairs[5][2] = {
                    {{MU_DESC, w, 0, -2}, ia},
                    {{MU_CTXT, w, 0, 0}, ja},
                    {{MU_DESC, w, 3, 0}, ia},
                    {{MU_DESC, w, 2, 0}, ja},
                    {{MU_DESC, w, nd - 3, base.P}, ia}};
                for (int q = 0; q < 5; q++) {
                    combo[nc][0] = pairs[q][0];
                    combo[nc][1] = pairs[q][1];
                    ncombo[nc++] = 2;
                }
            }
            if (nopt) {
                combo[nc][0] = (mut_t){MU_DESC, 0, 1, -1};
                combo[nc][1] = (mut_t){MU_OPT, 0, nopt - 1, '/'};
                ncombo[nc++] = 2;
            }
            combo[nc][0] = (mut_t){MU_DESC, 0, 1, -1};
            combo[nc][1] = (mut_t){MU_DIM, 0, 1, -1};
            ncombo[nc++] = 2;
            for (int q = 0; q < ERR_COMBOS; q++) {
                int len = rnd(0, 3) ? 2 : 3;
                /* one context change at most: two operands moved to the
                 * same other context would be a legal call */
                for (int t = 0, ctx = 0; t < len; t++) {
                    do combo[nc][t] = L[rnd(0, nl - 1)];
                    while (ctx && combo[nc][t].kind == MU_CTXT);
                    ctx |= combo[nc][t].kind == MU_CTXT;
                }
                ncombo[nc++] = len;
            }
            int nprow, npcol, me_r, me_c;
            Cblacs_gridinfo(g->ctxt, &nprow, &npcol, &me_r, &me_c);
            nerr += nl + nc;
            if (nprow < 0) continue;
            for (int w = 0; w < 3; w++)
                if (base.X[w].on) make(&base, w, g->ctxt, me_r, me_c);
            for (int k = 0; k < nl + nc; k++) {
                call_t c = base;
                char mdesc[300] = "";
                if (k < nl) {
                    apply(&c, &L[k]);
                    mutname(mdesc, sizeof mdesc, &base, &L[k]);
                } else {
                    for (int t = 0; t < ncombo[k - nl]; t++) {
                        apply(&c, &combo[k - nl][t]);
                        mutname(mdesc, sizeof mdesc, &base, &combo[k - nl][t]);
                    }
                }
                char cd[1600], full[2100];
                describe(cd, sizeof cd, &c);
                snprintf(full, sizeof full,
                         "%s error round %d call %d (seed %llu; reproduce with "
                         "L3CMP_CASE=E%d) illegal:%s; %s",
                         r->name, round, k, seed, round, mdesc, cd);
                if (verbose && me == 0) { printf("  %s\n", full); fflush(stdout); }
                ab_count = 0;
                ab_rout[0] = 0;
                (void)invoke(&c, sl, 1);
                const int n2 = ab_count, i2 = ab_info;
                char rout2[32];
                snprintf(rout2, sizeof rout2, "%s", ab_rout);
                ab_count = 0;
                ab_rout[0] = 0;
                (void)invoke(&c, mine, 0);
                int n1 = ab_count, i1 = ab_info;
                if (inject_kind == INJ_INFO) i1 += 1;
                char what[400] = "";
                if (n2 != 1 || i2 == 0)
                    snprintf(what, sizeof what, "harness: ScaLAPACK's INFO %d "
                             "(%d calls of PB_Cabort): not an error", i2, n2);
                else if (n1 != 1 || i1 != i2 || strcmp(ab_rout, rout2) ||
                         strcmp(rout2, r->name))
                    snprintf(what, sizeof what, "INFO: pumma %d (%d calls of "
                             "PB_Cabort, \"%s\"), ScaLAPACK %d (%d, \"%s\")",
                             n1 ? i1 : 0, n1, ab_rout, i2, n2, rout2);
                else
                    for (int w = 0; w < 3 && !what[0]; w++) {
                        const mat_t *x = &base.X[w];
                        if (!x->on) continue;
                        size_t bytes = (x->cnt ? x->cnt : 1) * elsz(base.ty);
                        if (memcmp(x->mine, x->orig, bytes) ||
                            memcmp(x->ref, x->orig, bytes))
                            snprintf(what, sizeof what, "%s changed %c in an "
                                     "illegal call",
                                     memcmp(x->mine, x->orig, bytes) ? "pumma"
                                     : "ScaLAPACK", "ABC"[w]);
                    }
                if (what[0]) {
                    char withme[500];
                    snprintf(withme, sizeof withme, "rank %d: %s", me, what);
                    fail(&ac, ncases + round * 1000L + k, full, withme);
                }
                for (int w = 0; w < 3; w++) {
                    mat_t *x = &base.X[w];
                    if (!x->on) continue;
                    size_t bytes = (x->cnt ? x->cnt : 1) * elsz(base.ty);
                    memcpy(x->mine, x->orig, bytes);
                    memcpy(x->ref, x->orig, bytes);
                }
            }
            unmake(&base);
        }
        /* the verdict, the first bad case, the worst entry */
        int totbad = 0;
        MPI_Allreduce(&ac.bad, &totbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        struct { double v; int rank; } wl = {ac.worst, me}, wg;
        MPI_Allreduce(&wl, &wg, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
        bring(ac.worstmsg, (int)sizeof ac.worstmsg, wg.rank, me);
        struct { long v; int rank; } fl = {ac.first, me}, fg;
        MPI_Allreduce(&fl, &fg, 1, MPI_LONG_INT, MPI_MINLOC, MPI_COMM_WORLD);
        if (totbad) bring(ac.firstmsg, (int)sizeof ac.firstmsg, fg.rank, me);
        long entries = 0;
        MPI_Reduce(&ac.entries, &entries, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        double dt = MPI_Wtime() - t0;
        if (me == 0) {
            printf("%s %s: %ld random calls (%ld result entries), %ld error "
                   "exits against ScaLAPACK%s; max |diff|/tolerance %.3g "
                   "(%.1f s)\n",
                   totbad ? "FAILED" : "PASSED", r->name, nrand, entries, nerr,
                   self ? " (itself)" : "", wg.v, dt);
            if (totbad) {
                printf("  %d bad on all processes; first: %s\n", totbad,
                       ac.firstmsg);
                printf("  worst entry: %s\n", ac.worstmsg[0] ? ac.worstmsg : "-");
                if (fg.v < ncases)
                    printf("  reproduce: L3CMP_CASE=%ld%s mpiexec -n %d %s %ld "
                           "%llu %s\n", fg.v, self ? " L3CMP_SELF=1" : "", np,
                           argv[0], ncases, seed, fp[r->fam].name);
                else
                    printf("  reproduce: L3CMP_CASE=E%ld%s mpiexec -n %d %s "
                           "%ld %llu %s\n", (fg.v - ncases) / 1000,
                           self ? " L3CMP_SELF=1" : "", np, argv[0], ncases,
                           seed, fp[r->fam].name);
            }
            fflush(stdout);
        }
        if (totbad) failed++; else passed++;
    }
    for (int gi = 0; gi < ngrids; gi++) {
        int nprow, npcol, r_, c_;
        Cblacs_gridinfo(grids[gi].ctxt, &nprow, &npcol, &r_, &c_);
        if (nprow > 0) Cblacs_gridexit(grids[gi].ctxt);
        Cblacs_gridinfo(grids[gi].twin, &nprow, &npcol, &r_, &c_);
        if (nprow > 0) Cblacs_gridexit(grids[gi].twin);
    }
    if (me == 0) printf("%d passed, %d failed\n", passed, failed);
    MPI_Finalize();
    return failed != 0;
}

#else /* PUMMA_SMPI */
#include <stdio.h>
int main(void)
{
    printf("xl3cmp: not built for SMPI (it reaches ScaLAPACK's routines "
           "through dlopen)\n");
    return 0;
}
#endif
