/*
 * l3tim.c -- the Level-3 PBLAS other than P?GEMM (P?SYRK, P?HERK,
 * P?SYR2K, P?HER2K, P?SYMM, P?HEMM, P?TRSM, P?TRMM, P?GEADD, P?TRADD) on
 * the calls ScaLAPACK's solvers make, timed with pumma and with
 * ScaLAPACK's own alternately in one run (the cases of L3SHAPES.dat).
 *
 *   mpiexec -n NP ./xl3tim [-i L3SHAPES.dat] [-r R] [-g PxQ,..] [-b NB,..]
 *                          [-c NAME,..] [-o FILE.csv] [-n N]
 *
 * One program, one entry point per routine: pumma's (pdsyrk_, ...), which
 * pumma_use(0) passes on to ScaLAPACK's definition of the same name
 * (pumma.h), so both are called as a ScaLAPACK program calls them. Per
 * case, grid and NB: one untimed call each way (reported as "first"; a
 * grid's first case includes pumma's measuring of its machine model),
 * then R calls each way alternating (which goes first alternates), the
 * written array restored before every call; the median of the slowest
 * process's times. ratio = ScaLAPACK's median / pumma's (above 1: pumma
 * faster). GFLOP/s from the routine's flops (below). The two results are
 * compared: inside the written operand (sub(C), or sub(B) for P?TRSM and
 * P?TRMM) the largest difference relative to its largest entry must be
 * at rounding level (<= 1e-10); outside it (the rest of that array: the
 * other operands when they share it, as the solvers' do) both must be
 * bit for bit what it was. Anything else is WRONG, and the program ends
 * with exit status 3 after the last case.
 *
 * Flops (real; four times as many for complex types): P?SYRK, P?HERK
 * N*N*K (one triangle: half a P?GEMM's 2*N*N*K); P?SYR2K, P?HER2K
 * 2*N*N*K; P?SYMM, P?HEMM 2*M*M*N (SIDE 'L') or 2*M*N*N ('R'); P?TRSM,
 * P?TRMM M*M*N ('L') or M*N*N ('R'); P?GEADD, P?TRADD none (no GFLOP/s).
 *
 * L3SHAPES.dat, one case a line ('#' starts a comment):
 *
 *   name ROUTINE OPTS M N K ALPHA BETA F A B C
 *
 *   ROUTINE  PD or PZ + SYRK SYR2K SYMM TRSM TRMM GEADD TRADD, or PZHERK,
 *            PZHER2K, PZHEMM
 *   OPTS     the option letters in ScaLAPACK's order, one each: P?SYRK,
 *            P?HERK, P?SYR2K, P?HER2K UPLO TRANS; P?SYMM, P?HEMM SIDE UPLO;
 *            P?TRSM, P?TRMM SIDE UPLO TRANSA DIAG; P?GEADD TRANS; P?TRADD
 *            UPLO TRANS
 *   M N K    the routine's dimensions: P?SYRK-like N and K (M is '-');
 *            the others M and N (K is '-')
 *   ALPHA BETA  real numbers (complex types: imaginary part 0); BETA '-'
 *            for P?TRSM and P?TRMM
 *   F        the order of the frame matrices ('-' when no operand is in one)
 *   A B C    where each operand starts: "i,j" in the main frame matrix
 *            (F x F), "@i,j" in a second one (F x F), "-" in an array of
 *            its own, exactly its size, at 1,1. P?TRSM and P?TRMM write B;
 *            the others C; P?SYRK, P?HERK, P?GEADD and P?TRADD have no B
 *            ('-').
 *
 * Every dimension and index is an integer expression of integers, "nb"
 * (the run's block size) and "n" (-n N: the problem's order, for lists
 * that scale, L3SCALE.dat) with + - * and / (integer division), e.g.
 * 4000-nb, 1+2*nb or n/2+1, so that a line describes a solver's call for
 * every NB (a line whose operands do not fit for an NB is skipped for it,
 * said on stdout). All
 * matrices are block-cyclic with square NB x NB blocks from process (0,0);
 * their entries are deterministic, 1 + [-0.5, 0.5) on the diagonal and
 * [-0.5, 0.5) / order off it, so that every triangle solved is well
 * conditioned.
 *
 * Output: a table on stdout, one row per case, grid and NB (a line that
 * does not fit an NB says "skipped" instead), and at the end the
 * geometric mean of the ratios per routine and overall, how many cases
 * had pumma slower (ratio < 1) and the least ratio of each routine.
 * WRONG rows are left out of the means. The CSV (-o), one row per case
 * run, has the columns
 *
 *   case, routine, opts     the .dat's name, ROUTINE and OPTS
 *   grid, nb                PxQ and the block size
 *   m, n, k                 the routine's dimensions (empty where it has
 *                           none: m for P?SYRK-like, k for the others)
 *   alpha, beta             the scalars (beta empty for P?TRSM, P?TRMM)
 *   scalapack_s, pumma_s    median seconds of the R calls each way
 *   ratio                   scalapack_s / pumma_s (> 1: pumma faster)
 *   gflops_scalapack, gflops_pumma   flops (above) / median / 1e9; empty
 *                           for P?GEADD and P?TRADD
 *   first_scalapack_s, first_pumma_s the untimed first call each way
 *   reldiff                 the largest |pumma - ScaLAPACK| in the written
 *                           operand over its largest |entry| (ScaLAPACK's)
 *   outside                 the largest difference in the rest of the
 *                           written array (must be 0)
 *   status                  ok, WRONG (reldiff > 1e-10 or NaN),
 *                           WRONG-outside (outside != 0) or
 *                           WRONG-unchanged (ALPHA not 0 and ScaLAPACK's
 *                           call left sub(out) as it was: nothing was
 *                           computed, so the check says nothing)
 *   load1                   the 1-minute load average after the case
 *                           (2 ranks on 2 cores: above 2 the machine was
 *                           busy with something else as well)
 *
 * Simulated (make smpi: build-smpi/bin/xl3tim, TIMING/smpi/l3smpi.sh, `make
 * l3-smpi`; doc/smpi.md): ScaLAPACK's definitions are reached by
 * pumma_use(0) under their renamed names (pumma_scalapack_p?xxx_). Under
 * a compute model (PUMMA_SMPI_COMPUTE) the timed calls compute nothing,
 * so the untimed first call each way runs for real instead
 * (pumma_smpi_compute(0): the BLAS run, nothing folded) and the check
 * compares those two results; first_scalapack_s and first_pumma_s are
 * then those real calls' simulated times. Each grid starts with one
 * charged PDGEMM of NB^3 each way, where pumma measures its model (as
 * smpi/scaletim.c does), so that the model is the charged machine's.
 */
#define _GNU_SOURCE /* RTLD_NEXT, dladdr */
#include <ctype.h>
#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "timutil.h"

#define STR_(x) #x
#define STR(x) STR_(x)

enum { MAXC = 300 };
enum { K_SYRK, K_SYR2K, K_SYMM, K_TRSM, K_TRMM, K_GEADD, K_TRADD };
static const int nopts[] = {2, 2, 2, 4, 4, 1, 2};

typedef void syrk_fn(const char *, const char *, const int *, const int *,
                     const double *, const double *, const int *,
                     const int *, const int *, const double *, double *,
                     const int *, const int *, const int *);
typedef void syr2k_fn(const char *, const char *, const int *, const int *,
                      const double *, const double *, const int *,
                      const int *, const int *, const double *, const int *,
                      const int *, const int *, const double *, double *,
                      const int *, const int *, const int *);
typedef void trmm_fn(const char *, const char *, const char *, const char *,
                     const int *, const int *, const double *,
                     const double *, const int *, const int *, const int *,
                     double *, const int *, const int *, const int *);
typedef void geadd_fn(const char *, const int *, const int *, const double *,
                      const double *, const int *, const int *, const int *,
                      const double *, double *, const int *, const int *,
                      const int *);
/* P?TRADD: the arguments of P?SYRK (UPLO TRANS M N ALPHA A .. BETA C ..) */

typedef struct rdef {
    const char *name;
    int kind, cplx;
    void (*fn)(void);
    const char *sym;
} rdef_t;

#define RD(NAME, kind, cplx, f) {NAME, kind, cplx, (void (*)(void))f, STR(f)}
static const rdef_t rdefs[] = {
    RD("PDSYRK", K_SYRK, 0, pdsyrk_F77),   RD("PZSYRK", K_SYRK, 1, pzsyrk_F77),
    RD("PZHERK", K_SYRK, 1, pzherk_F77),   RD("PDSYR2K", K_SYR2K, 0, pdsyr2k_F77),
    RD("PZSYR2K", K_SYR2K, 1, pzsyr2k_F77), RD("PZHER2K", K_SYR2K, 1, pzher2k_F77),
    RD("PDSYMM", K_SYMM, 0, pdsymm_F77),   RD("PZSYMM", K_SYMM, 1, pzsymm_F77),
    RD("PZHEMM", K_SYMM, 1, pzhemm_F77),   RD("PDTRSM", K_TRSM, 0, pdtrsm_F77),
    RD("PZTRSM", K_TRSM, 1, pztrsm_F77),   RD("PDTRMM", K_TRMM, 0, pdtrmm_F77),
    RD("PZTRMM", K_TRMM, 1, pztrmm_F77),   RD("PDGEADD", K_GEADD, 0, pdgeadd_F77),
    RD("PZGEADD", K_GEADD, 1, pzgeadd_F77), RD("PDTRADD", K_TRADD, 0, pdtradd_F77),
    RD("PZTRADD", K_TRADD, 1, pztradd_F77),
};
enum { NRD = sizeof rdefs / sizeof rdefs[0] };

typedef struct kase {
    char name[32];
    int r;                  /* rdefs[] */
    char opt[5];            /* upper case */
    char ex[4][40];         /* M N K F expressions ("-": none) */
    double alpha, beta;
    char pos[3][64];        /* A B C */
} kase_t;

/* An array: a frame matrix or an operand's own. */
typedef struct arr {
    int desc[9], mloc, nloc, lld, rows, cols;
    double *a;
    size_t len;             /* doubles */
} arr_t;

static int me, np;
static long norder;         /* "n" in the expressions (-n) */

#ifdef PUMMA_SMPI
int pumma_smpi_compute(int on);    /* INSTALL/smpi/pumma_smpi_blas.c */
#endif

/* Integer expression: terms of integers, "nb" and "n" joined by '*' and
 * '/' (integer division, left to right), summed with + and -. 0 and the
 * value in *v, or -1 ("n" without -n too). */
static int eval(const char *s, int nb, long *v)
{
    long sum = 0;
    int sign = 1;
    const char *p = s;
    if (!*p) return -1;
    for (;;) {
        long term = 1;
        for (char op = '*';;) {
            long f;
            if (!strncmp(p, "nb", 2)) {
                f = nb;
                p += 2;
            } else if (*p == 'n' && norder > 0) {
                f = norder;
                p++;
            } else if (isdigit((unsigned char)*p)) {
                char *end;
                f = strtol(p, &end, 10);
                p = end;
            } else
                return -1;
            if (op == '*') term *= f;
            else if (f) term /= f;
            else return -1;
            if (*p != '*' && *p != '/') break;
            op = *p++;
        }
        sum += sign * term;
        if (*p == '+') sign = 1;
        else if (*p == '-') sign = -1;
        else if (!*p) break;
        else return -1;
        p++;
    }
    *v = sum;
    return 0;
}

/* An operand's place: where 0 (own array), 1 (main frame), 2 (second);
 * i, j 1-based. -1 when malformed. */
static int place(const char *s, int nb, int *where, long *i, long *j)
{
    if (!strcmp(s, "-")) {
        *where = 0;
        *i = *j = 1;
        return 0;
    }
    *where = 1;
    if (*s == '@') {
        *where = 2;
        s++;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    char *comma = strchr(buf, ',');
    if (!comma) return -1;
    *comma = 0;
    return eval(buf, nb, i) || eval(comma + 1, nb, j) ? -1 : 0;
}

static int legal_opts(int kind, const char *o)
{
    const char *sets[7][4] = {
        {"UL", "NTC"}, {"UL", "NTC"}, {"LR", "UL"}, {"LR", "UL", "NTC", "NU"},
        {"LR", "UL", "NTC", "NU"}, {"NTC"}, {"UL", "NTC"}};
    if ((int)strlen(o) != nopts[kind]) return 0;
    for (int i = 0; i < nopts[kind]; i++)
        if (!strchr(sets[kind][i], o[i])) return 0;
    return 1;
}

static int read_cases(const char *file, kase_t *c)
{
    FILE *f = fopen(file, "r");
    if (!f) return -1;
    char line[512];
    int n = 0, lno = 0;
    while (fgets(line, sizeof line, f)) {
        lno++;
        char *h = strchr(line, '#');
        if (h) *h = 0;
        char rout[16], opt[16], al[32], be[32];
        kase_t *k = &c[n];
        int got = sscanf(line, "%31s %15s %15s %39s %39s %39s %31s %31s %39s "
                               "%63s %63s %63s", k->name, rout, opt, k->ex[0],
                         k->ex[1], k->ex[2], al, be, k->ex[3], k->pos[0],
                         k->pos[1], k->pos[2]);
        if (got <= 0) continue;
        if (n >= MAXC) {
            fprintf(stderr, "%s:%d: more than %d cases\n", file, lno, MAXC);
            fclose(f);
            return -1;
        }
        k->r = -1;
        for (int i = 0; i < NRD; i++)
            if (!strcmp(rout, rdefs[i].name)) k->r = i;
        for (char *p = opt; *p; p++) *p = (char)toupper((unsigned char)*p);
        char *end = NULL;
        int bad = got != 12 || k->r < 0;
        if (!bad) {
            snprintf(k->opt, sizeof k->opt, "%.4s", opt);
            bad = strlen(opt) > 4 || !legal_opts(rdefs[k->r].kind, k->opt);
        }
        if (!bad) {
            k->alpha = strtod(al, &end);
            bad = *end != 0;
        }
        if (!bad) {
            const int kd = rdefs[k->r].kind;
            k->beta = 0;
            if (kd == K_TRSM || kd == K_TRMM) bad = strcmp(be, "-") != 0;
            else {
                k->beta = strtod(be, &end);
                bad = *end != 0;
            }
        }
        if (bad) {
            fprintf(stderr, "%s:%d: want: name ROUTINE OPTS M N K ALPHA BETA "
                            "F A B C (l3tim.c says what each means)\n",
                    file, lno);
            fclose(f);
            return -1;
        }
        n++;
    }
    fclose(f);
    return n;
}

static void arr_make(arr_t *x, int ctxt, int rows, int cols, int nb, int es,
                     int myr, int myc, int P, int Q)
{
    int zero = 0, info;
    x->rows = rows;
    x->cols = cols;
    x->mloc = numroc_(&rows, &nb, &myr, &zero, &P);
    x->nloc = numroc_(&cols, &nb, &myc, &zero, &Q);
    x->lld = x->mloc > 1 ? x->mloc : 1;
    descinit_(x->desc, &rows, &cols, &nb, &nb, &zero, &zero, &ctxt, &x->lld,
              &info);
    x->len = (size_t)x->lld * (size_t)(x->nloc > 0 ? x->nloc : 1) * es;
    x->a = malloc(sizeof(double) * x->len);
    if (!x->a) {
        fprintf(stderr, "l3tim: out of memory (%zu doubles)\n", x->len);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Entries: 1 + [-0.5, 0.5) on the diagonal, [-0.5, 0.5) / order off it;
 * complex: the imaginary part likewise (matrix id + 50). */
static void arr_fill(arr_t *x, int id, int nb, int es, int myr, int myc,
                     int P, int Q)
{
    const double s = 1.0 / (x->rows > x->cols ? x->rows : x->cols);
    for (int lj = 0; lj < x->nloc; lj++) {
        const int j = (lj / nb * Q + myc) * nb + lj % nb;
        for (int li = 0; li < x->mloc; li++) {
            const int i = (li / nb * P + myr) * nb + li % nb;
            double *e = x->a + ((size_t)li + (size_t)lj * x->lld) * es;
            e[0] = i == j ? 1 + tim_entry(id, i, j) : tim_entry(id, i, j) * s;
            if (es == 2)
                e[1] = i == j ? tim_entry(id + 50, i, j)
                              : tim_entry(id + 50, i, j) * s;
        }
    }
}

/* A case for one NB: the operands' sizes and places; 0, or -1 when it
 * does not fit (why in *why). */
typedef struct inst {
    int m, n, k, f;
    int rows[3], cols[3], has[3], where[3], i[3], j[3];
    int out;                /* the written operand: 1 (B) or 2 (C) */
    double flops;
} inst_t;

static int instantiate(const kase_t *c, int nb, inst_t *x, char *why,
                       size_t nwhy)
{
    const rdef_t *R = &rdefs[c->r];
    long v[4] = {0, 0, 0, 0};
    const int kd = R->kind;
    /* which of M N K the routine has */
    const int need[3] = {kd != K_SYRK && kd != K_SYR2K, 1,
                         kd == K_SYRK || kd == K_SYR2K};
    for (int d = 0; d < 4; d++) {
        if (!strcmp(c->ex[d], "-")) {
            if (d < 3 && need[d]) {
                snprintf(why, nwhy, "%c is '-'", "MNK"[d]);
                return -1;
            }
            continue;
        }
        if (eval(c->ex[d], nb, &v[d])) {
            snprintf(why, nwhy, "bad expression %s", c->ex[d]);
            return -1;
        }
        if (v[d] < 1 || v[d] > 1000000) {
            snprintf(why, nwhy, "%s = %ld", c->ex[d], v[d]);
            return -1;
        }
    }
    x->m = (int)v[0];
    x->n = (int)v[1];
    x->k = (int)v[2];
    x->f = (int)v[3];
    const char *o = c->opt;
    const int m = x->m, n = x->n, k = x->k;
    const double cf = R->cplx ? 4 : 1;
    memset(x->has, 0, sizeof x->has);
    x->out = 2;
    switch (kd) {
    case K_SYRK:
    case K_SYR2K:
        for (int q = 0; q < 2; q++) {       /* A, B */
            x->rows[q] = o[1] == 'N' ? n : k;
            x->cols[q] = o[1] == 'N' ? k : n;
        }
        x->rows[2] = x->cols[2] = n;
        x->has[0] = x->has[2] = 1;
        x->has[1] = kd == K_SYR2K;
        x->flops = cf * (kd == K_SYRK ? 1 : 2) * (double)n * n * k;
        break;
    case K_SYMM:
        x->rows[0] = x->cols[0] = o[0] == 'L' ? m : n;
        x->rows[1] = x->rows[2] = m;
        x->cols[1] = x->cols[2] = n;
        x->has[0] = x->has[1] = x->has[2] = 1;
        x->flops = cf * 2 * (double)m * n * (o[0] == 'L' ? m : n);
        break;
    case K_TRSM:
    case K_TRMM:
        x->rows[0] = x->cols[0] = o[0] == 'L' ? m : n;
        x->rows[1] = m;
        x->cols[1] = n;
        x->has[0] = x->has[1] = 1;
        x->out = 1;
        x->flops = cf * (double)m * n * (o[0] == 'L' ? m : n);
        break;
    default:                                /* GEADD, TRADD */
        x->rows[0] = o[nopts[kd] - 1] == 'N' ? m : n;
        x->cols[0] = o[nopts[kd] - 1] == 'N' ? n : m;
        x->rows[2] = m;
        x->cols[2] = n;
        x->has[0] = x->has[2] = 1;
        x->flops = 0;
        break;
    }
    for (int q = 0; q < 3; q++) {
        long i = 1, j = 1;
        if (!x->has[q]) {
            x->where[q] = 0;
            if (strcmp(c->pos[q], "-")) {
                snprintf(why, nwhy, "%s has no %c: want '-'", R->name, "ABC"[q]);
                return -1;
            }
            continue;
        }
        if (place(c->pos[q], nb, &x->where[q], &i, &j)) {
            snprintf(why, nwhy, "bad place %s", c->pos[q]);
            return -1;
        }
        x->i[q] = (int)i;
        x->j[q] = (int)j;
        if (x->where[q] &&
            (!x->f || i < 1 || j < 1 || i + x->rows[q] - 1 > x->f ||
             j + x->cols[q] - 1 > x->f)) {
            snprintf(why, nwhy, "%c (%d x %d at %ld,%ld) not in F = %d",
                     "ABC"[q], x->rows[q], x->cols[q], i, j, x->f);
            return -1;
        }
    }
    return 0;
}

/* One call of the case's routine through pumma's entry point. */
static void call(const kase_t *c, const inst_t *x, arr_t *op[3])
{
    const rdef_t *R = &rdefs[c->r];
    const double al[2] = {c->alpha, 0}, be[2] = {c->beta, 0};
    const char *o = c->opt;
    const int *ia = &x->i[0], *ja = &x->j[0], *ib = &x->i[1], *jb = &x->j[1],
              *ic = &x->i[2], *jc = &x->j[2];
    switch (R->kind) {
    case K_SYRK:
        ((syrk_fn *)R->fn)(&o[0], &o[1], &x->n, &x->k, al, op[0]->a, ia, ja,
                           op[0]->desc, be, op[2]->a, ic, jc, op[2]->desc);
        break;
    case K_SYR2K:
        ((syr2k_fn *)R->fn)(&o[0], &o[1], &x->n, &x->k, al, op[0]->a, ia, ja,
                            op[0]->desc, op[1]->a, ib, jb, op[1]->desc, be,
                            op[2]->a, ic, jc, op[2]->desc);
        break;
    case K_SYMM:
        ((syr2k_fn *)R->fn)(&o[0], &o[1], &x->m, &x->n, al, op[0]->a, ia, ja,
                            op[0]->desc, op[1]->a, ib, jb, op[1]->desc, be,
                            op[2]->a, ic, jc, op[2]->desc);
        break;
    case K_TRSM:
    case K_TRMM:
        ((trmm_fn *)R->fn)(&o[0], &o[1], &o[2], &o[3], &x->m, &x->n, al,
                           op[0]->a, ia, ja, op[0]->desc, op[1]->a, ib, jb,
                           op[1]->desc);
        break;
    case K_GEADD:
        ((geadd_fn *)R->fn)(&o[0], &x->m, &x->n, al, op[0]->a, ia, ja,
                            op[0]->desc, be, op[2]->a, ic, jc, op[2]->desc);
        break;
    case K_TRADD:
        ((syrk_fn *)R->fn)(&o[0], &o[1], &x->m, &x->n, al, op[0]->a, ia, ja,
                           op[0]->desc, be, op[2]->a, ic, jc, op[2]->desc);
        break;
    }
}

static double load1(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1;
        fclose(f);
    }
    return l;
}

/* Where each routine's two definitions come from (rank 0). */
static void say_bindings(const kase_t *cs, int nc)
{
    int said[NRD] = {0};
    for (int c = 0; c < nc; c++) {
        const rdef_t *R = &rdefs[cs[c].r];
        if (said[cs[c].r]++) continue;
#ifdef PUMMA_SMPI   /* one static link: ScaLAPACK's renamed (INSTALL/smpi.mk) */
        printf("# %s: pumma's, scalapack's as pumma_scalapack_%s\n", R->sym,
               R->sym);
        continue;
#endif
        Dl_info pi, si;
        void *next = dlsym(RTLD_NEXT, R->sym);
        const char *pf = dladdr((void *)R->fn, &pi) && pi.dli_fname
                             ? pi.dli_fname : "?";
        const char *sf = next && dladdr(next, &si) && si.dli_fname
                             ? si.dli_fname : "(none: pumma_use(0) will stop)";
        printf("# %s: pumma in %s, scalapack in %s\n", R->sym, pf, sf);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *dat = "L3SHAPES.dat", *grids = "1x2,2x1", *csv = NULL,
               *only = NULL;
    int reps = 10, nbs[8] = {64, 256}, nnb = 2;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !v;
        if (!bad && !strcmp(argv[i], "-i")) dat = v;
        else if (!bad && !strcmp(argv[i], "-r")) bad = (reps = atoi(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-g")) grids = v;
        else if (!bad && !strcmp(argv[i], "-o")) csv = v;
        else if (!bad && !strcmp(argv[i], "-c")) only = v;
        else if (!bad && !strcmp(argv[i], "-n")) bad = (norder = atol(v)) < 1;
        else if (!bad && !strcmp(argv[i], "-b")) bad = (nnb = tim_ints(v, nbs, 8)) < 1;
        else bad = 1;
        if (bad) {
            if (me == 0)
                fprintf(stderr, "usage: mpiexec -n NP %s [-i FILE.dat] [-r R] "
                                "[-g PxQ,..] [-b NB,..] [-c NAME,..] "
                                "[-o FILE.csv] [-n N]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        i++;
    }
    static kase_t cs[MAXC];
    int nc = read_cases(dat, cs);
    if (nc > 0 && only) {   /* -c: the cases whose name begins with one */
        int kept = 0;
        for (int c = 0; c < nc; c++) {
            int keep = 0;
            for (const char *s = only; *s;) {
                size_t l = strcspn(s, ",");
                if (l && !strncmp(cs[c].name, s, l)) keep = 1;
                s += l;
                if (*s == ',') s++;
            }
            if (keep) cs[kept++] = cs[c];
        }
        nc = kept;
    }
    if (nc <= 0) {
        if (me == 0) fprintf(stderr, "%s: no cases%s\n", dat, only ? " (-c)" : "");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    FILE *out = NULL;
    const double tstart = MPI_Wtime();
    if (me == 0) {
        printf("Level-3 PBLAS on the solvers' calls: pumma and ScaLAPACK "
               "alternately through one entry point (pumma_use); %d ranks, "
               "median of %d after one each; load average %.2f\n", np, reps,
               load1());
        say_bindings(cs, nc);
        printf("%-16s %-7s %-4s %4s %3s %5s %5s %5s %9s %9s %6s %6s %6s "
               "%8s %8s %8s  %s\n", "case", "routine", "opts", "grid", "NB",
               "M", "N", "K", "scalapack", "pumma", "ratio", "gf-sl", "gf-pu",
               "1st-sl", "1st-pu", "diff", "status");
        if (csv && !(out = fopen(csv, "w"))) perror(csv);
        if (out)
            fprintf(out, "case,routine,opts,grid,nb,m,n,k,alpha,beta,"
                         "scalapack_s,pumma_s,ratio,gflops_scalapack,"
                         "gflops_pumma,first_scalapack_s,first_pumma_s,"
                         "reldiff,outside,status,load1\n");
        fflush(stdout);
    }
    /* per routine: log-sum of ratios, count, below 1 */
    double lsum[NRD] = {0}, minr[NRD];
    int cnt[NRD] = {0}, below[NRD] = {0}, nwrong = 0;
    char minc[NRD][48];
    for (int i = 0; i < NRD; i++) minr[i] = INFINITY;
    int gp[16], gq[16];
    const int ng = tim_grids(grids, np, gp, gq, 16);
    for (int gi = 0; gi < ng; gi++) {
        const int P = gp[gi], Q = gq[gi];
        int myr, myc;
        const int ctxt = tim_gridinit(P, Q, &myr, &myc);
        char gr[16];
        snprintf(gr, sizeof gr, "%dx%d", P, Q);
#ifdef PUMMA_SMPI
        /* pumma measures the grid's model at its first call: one charged
         * PDGEMM of NB^3 each way first, as smpi/scaletim.c */
        {
            const int one = 1, w = nbs[0];
            const double al = 1, be = 0;
            arr_t g;
            arr_make(&g, ctxt, w, w, w, 1, myr, myc, P, Q);
            memset(g.a, 0, sizeof(double) * g.len);
            for (int u = 1; u >= 0; u--) {
                pumma_use(u);
                pdgemm_F77("N", "N", &w, &w, &w, &al, g.a, &one, &one, g.desc,
                           g.a, &one, &one, g.desc, &be, g.a, &one, &one,
                           g.desc);
            }
            pumma_use(1);
            free(g.a);
        }
#endif
        for (int bi = 0; bi < nnb; bi++) {
            const int nb = nbs[bi];
            for (int c = 0; c < nc; c++) {
                const kase_t *k = &cs[c];
                const rdef_t *R = &rdefs[k->r];
                const int es = R->cplx ? 2 : 1;
                inst_t x;
                char why[128];
                if (instantiate(k, nb, &x, why, sizeof why)) {
                    if (me == 0)
                        printf("%-16s %-7s %-4s %4s %3d  skipped: %s\n",
                               k->name, R->name, k->opt, gr, nb, why);
                    continue;
                }
                /* the arrays: frames 1 and 2, each operand's own */
                arr_t fr[3], own[3], *op[3] = {NULL, NULL, NULL};
                int used[3] = {0, 0, 0};
                for (int q = 0; q < 3; q++)
                    if (x.has[q] && x.where[q]) used[x.where[q]] = 1;
                for (int w = 1; w <= 2; w++)
                    if (used[w]) {
                        arr_make(&fr[w], ctxt, x.f, x.f, nb, es, myr, myc, P, Q);
                        arr_fill(&fr[w], w, nb, es, myr, myc, P, Q);
                    }
                for (int q = 0; q < 3; q++) {
                    if (!x.has[q]) continue;
                    if (x.where[q]) {
                        op[q] = &fr[x.where[q]];
                        continue;
                    }
                    arr_make(&own[q], ctxt, x.rows[q], x.cols[q], nb, es, myr,
                             myc, P, Q);
                    arr_fill(&own[q], 3 + q, nb, es, myr, myc, P, Q);
                    op[q] = &own[q];
                }
                arr_t *wa = op[x.out];          /* the written array */
                const size_t bytes = sizeof(double) * wa->len;
                double *c0 = malloc(bytes), *res[2] = {malloc(bytes), malloc(bytes)};
                double *t[2] = {malloc(sizeof(double) * reps),
                                malloc(sizeof(double) * reps)};
                if (!c0 || !res[0] || !res[1] || !t[0] || !t[1]) {
                    fprintf(stderr, "l3tim: out of memory\n");
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
                memcpy(c0, wa->a, bytes);
                double first[2] = {0, 0};
                for (int r = -1; r < reps; r++)
                    for (int w2 = 0; w2 < 2; w2++) {
                        const int w = r < 0 ? w2 : (r + w2) % 2; /* 1: pumma */
                        memcpy(wa->a, c0, bytes);
                        pumma_use(w);
#ifdef PUMMA_SMPI   /* the first calls run for real: the ones checked */
                        const int charged = pumma_smpi_compute(r >= 0);
#endif
                        MPI_Barrier(MPI_COMM_WORLD);
                        const double t0 = MPI_Wtime();
                        call(k, &x, op);
                        const double dt = tim_slowest(t0);
#ifdef PUMMA_SMPI
                        pumma_smpi_compute(charged);
                        const int kept = r < 0;
#else
                        const int kept = r == reps - 1;
#endif
                        pumma_use(1);
                        if (r < 0) first[w] = dt;
                        else t[w][r] = dt;
                        if (kept) memcpy(res[w], wa->a, bytes);
                    }
                /* compare: inside sub(out) relative, outside exactly; and
                 * whether ScaLAPACK's call changed sub(out) at all (d[3]: a
                 * check of two calls that did nothing, as a simulated one
                 * under the compute model does, would pass) */
                double d[4] = {0, 0, 0, 0}, g[4];
                const int oq = x.out;
                for (int lj = 0; lj < wa->nloc; lj++) {
                    const int j = (lj / nb * Q + myc) * nb + lj % nb;
                    const int jin = j >= x.j[oq] - 1 && j < x.j[oq] - 1 + x.cols[oq];
                    for (int li = 0; li < wa->mloc; li++) {
                        const int i = (li / nb * P + myr) * nb + li % nb;
                        const int in = jin && i >= x.i[oq] - 1 &&
                                       i < x.i[oq] - 1 + x.rows[oq];
                        const size_t e0 = ((size_t)li + (size_t)lj * wa->lld) * es;
                        for (int e = 0; e < es; e++) {
                            const double p = res[1][e0 + e], s = res[0][e0 + e];
                            double df = fabs(p - s);
                            if (isnan(p) || isnan(s)) df = INFINITY;
                            if (in) {
                                if (df > d[0]) d[0] = df;
                                if (fabs(s) > d[1]) d[1] = fabs(s);
                                if (memcmp(&s, &c0[e0 + e], sizeof s)) d[3] = 1;
                            } else if (memcmp(&p, &s, sizeof p) && df > d[2])
                                d[2] = df > 0 ? df : 1e-300;
                        }
                    }
                }
                MPI_Allreduce(d, g, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                const double diff = g[1] > 0 ? g[0] / g[1] : g[0];
                const int still = !g[3] && k->alpha != 0;
                const int wrong = !(diff <= 1e-10) || g[2] > 0 || still;
                const double ts = tim_median(t[0], reps), tp = tim_median(t[1], reps);
                const double ratio = ts / tp;
                if (wrong) nwrong++;
                else {
                    lsum[k->r] += log(ratio);
                    cnt[k->r]++;
                    if (ratio < 1) below[k->r]++;
                    if (ratio < minr[k->r]) {
                        minr[k->r] = ratio;
                        snprintf(minc[k->r], sizeof minc[k->r], "%s %s NB %d",
                                 k->name, gr, nb);
                    }
                }
                if (me == 0) {
                    char dm[3][16];
                    const int dv[3] = {x.m, x.n, x.k};
                    const int kd = R->kind;
                    const int hasd[3] = {kd != K_SYRK && kd != K_SYR2K, 1,
                                         kd == K_SYRK || kd == K_SYR2K};
                    for (int q = 0; q < 3; q++) {
                        if (hasd[q]) snprintf(dm[q], sizeof dm[q], "%d", dv[q]);
                        else snprintf(dm[q], sizeof dm[q], "-");
                    }
                    char gs[16] = "-", gpu[16] = "-", gsc[16] = "", gpc[16] = "";
                    if (x.flops > 0) {
                        snprintf(gs, sizeof gs, "%.1f", x.flops / ts / 1e9);
                        snprintf(gpu, sizeof gpu, "%.1f", x.flops / tp / 1e9);
                        snprintf(gsc, sizeof gsc, "%.3f", x.flops / ts / 1e9);
                        snprintf(gpc, sizeof gpc, "%.3f", x.flops / tp / 1e9);
                    }
                    char bs[32] = "";
                    if (kd != K_TRSM && kd != K_TRMM)
                        snprintf(bs, sizeof bs, "%g", k->beta);
                    const char *st = !wrong ? "ok" : g[2] > 0 ? "WRONG-outside"
                                     : still ? "WRONG-unchanged" : "WRONG";
                    printf("%-16s %-7s %-4s %4s %3d %5s %5s %5s %9.5f %9.5f "
                           "%6.3f %6s %6s %8.5f %8.5f %8.1e  %s%s\n", k->name,
                           R->name, k->opt, gr, nb, dm[0], dm[1], dm[2], ts, tp,
                           ratio, gs, gpu, first[0], first[1], diff, st,
                           !wrong && ratio < 1 ? "  <1" : "");
                    if (out)
                        fprintf(out, "%s,%s,%s,%s,%d,%s,%s,%s,%g,%s,%.6f,%.6f,"
                                     "%.4f,%s,%s,%.6f,%.6f,%.3e,%.3e,%s,%.2f\n",
                                k->name, R->name, k->opt, gr, nb,
                                hasd[0] ? dm[0] : "", dm[1], hasd[2] ? dm[2] : "",
                                k->alpha, bs, ts, tp, ratio, gsc, gpc,
                                first[0], first[1], diff, g[2], st, load1());
                    fflush(stdout);
                    if (out) fflush(out);
                }
                free(c0); free(res[0]); free(res[1]); free(t[0]); free(t[1]);
                for (int w = 1; w <= 2; w++)
                    if (used[w]) free(fr[w].a);
                for (int q = 0; q < 3; q++)
                    if (x.has[q] && !x.where[q]) free(own[q].a);
            }
        }
        Cblacs_gridexit(ctxt);
    }
    if (out) fclose(out);
    if (me == 0) {
        printf("\ngeometric mean of ratio (ScaLAPACK's median / pumma's; "
               "above 1: pumma faster), per routine:\n");
        printf("%-8s %5s %8s %6s  %s\n", "routine", "cases", "geomean", "<1",
               "slowest (least ratio)");
        double ls = 0;
        int n = 0, nb1 = 0;
        for (int i = 0; i < NRD; i++) {
            if (!cnt[i]) continue;
            printf("%-8s %5d %8.3f %6d  %.3f %s\n", rdefs[i].name, cnt[i],
                   exp(lsum[i] / cnt[i]), below[i], minr[i], minc[i]);
            ls += lsum[i];
            n += cnt[i];
            nb1 += below[i];
        }
        if (n)
            printf("%-8s %5d %8.3f %6d\n", "overall", n, exp(ls / n), nb1);
        printf("ratio: ScaLAPACK's median over pumma's (above 1: pumma faster; "
               "<1 marks pumma slower); gf-: GFLOP/s (SYRK counts N*N*K); "
               "1st-: the untimed first call; diff: largest difference "
               "in the written operand relative to its largest entry; "
               "%d WRONG; %.0f s, load average %.2f\n", nwrong,
               MPI_Wtime() - tstart, load1());
        fflush(stdout);
    }
    MPI_Finalize();
    return nwrong ? 3 : 0;
}
