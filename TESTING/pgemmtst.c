/*
 * pgemmtst.c -- tester of the Fortran-callable PSGEMM, PDGEMM, PCGEMM and
 * PZGEMM (ScaLAPACK's calling sequence, every argument by address):
 *
 *   sub(C) := alpha * op(sub(A)) * op(sub(B)) + beta * sub(C)
 *
 * Usage: mpiexec -n 6 ./xpgemmtst [PGEMMTST.dat]
 *
 * The input file (see PGEMMTST.dat for its format) lists precisions, process
 * grids, (TRANSA,TRANSB) pairs, ALPHA and BETA values and test problems; every
 * problem runs for every combination of those. For each case every process
 * builds the same global A, B and C (a fixed pseudo-random stream), keeps its
 * own block-cyclic pieces, calls the routine and then checks, locally:
 *   (a) each local entry of sub(C) against a naive reference computed from the
 *       global matrices, with the test ratio
 *         |c - cref| / (eps * (|alpha| sum_l |op(a)_il||op(b)_lj| + |beta||c|))
 *       (a zero denominator demands exact equality);
 *   (b) every other local entry of C, LLD padding included, bitwise unchanged;
 *   (c) the local arrays of A and B bitwise unchanged;
 *   (d) guard zones around every local array unchanged;
 *   (e) PB_Cabort not called.
 * The verdicts are combined with an MPI reduction over MPI_COMM_WORLD, so all
 * processes agree; process 0 prints one line per case and the final
 * "N passed, N failed". The exit status is 1 when a case failed, 2 on an input
 * error, 0 otherwise.
 *
 * The error-exit tests call the routines with illegal arguments. This file
 * defines PB_Cabort (exported with -rdynamic), so the routine under test reports
 * INFO to us instead of aborting, exactly as ScaLAPACK's own testers arrange.
 * The expected codes follow ScaLAPACK's PBLAS argument checking.
 */
#define _GNU_SOURCE /* dladdr: name the library the routines come from */
#include <mpi.h>

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ interfaces */

/* Fortran names, chosen by ScaLAPACK's CDEFS convention (Add_ by default). */
#if defined(UpCase)
#define F77NAME(lower, UPPER) UPPER
#elif defined(NoChange)
#define F77NAME(lower, UPPER) lower
#else
#define F77NAME(lower, UPPER) lower##_
#endif

#define PSGEMM F77NAME(psgemm, PSGEMM)
#define PDGEMM F77NAME(pdgemm, PDGEMM)
#define PCGEMM F77NAME(pcgemm, PCGEMM)
#define PZGEMM F77NAME(pzgemm, PZGEMM)

void PSGEMM(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const float *alpha, const float *a, const int *ia,
            const int *ja, const int *desca, const float *b, const int *ib,
            const int *jb, const int *descb, const float *beta, float *c,
            const int *ic, const int *jc, const int *descc);
void PDGEMM(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a, const int *ia,
            const int *ja, const int *desca, const double *b, const int *ib,
            const int *jb, const int *descb, const double *beta, double *c,
            const int *ic, const int *jc, const int *descc);
void PCGEMM(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const float *alpha, const float *a, const int *ia,
            const int *ja, const int *desca, const float *b, const int *ib,
            const int *jb, const int *descb, const float *beta, float *c,
            const int *ic, const int *jc, const int *descc);
void PZGEMM(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a, const int *ia,
            const int *ja, const int *desca, const double *b, const int *ib,
            const int *jb, const int *descb, const double *beta, double *c,
            const int *ic, const int *jc, const int *descc);

/* The C BLACS, from libscalapack. */
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow,
                     int *mycol);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int notdone);

/* ------------------------------------------------------------ PB_Cabort */

/*
 * The only mutable global: what the routine under test reported through
 * PB_Cabort. PB_Cabort has a fixed signature and no user pointer, so the
 * record cannot be passed in any other way.
 */
static struct {
    int calls;     /* PB_Cabort calls since the last abort_reset() */
    int info;      /* INFO of the last call */
    char rout[32]; /* ROUT of the last call */
} abort_log;

void PB_Cabort(int ictxt, char *rout, int info);

/* Replaces ScaLAPACK's PB_Cabort: record instead of aborting the BLACS. */
void PB_Cabort(int ictxt, char *rout, int info)
{
    (void)ictxt;
    abort_log.calls++;
    abort_log.info = info;
    snprintf(abort_log.rout, sizeof abort_log.rout, "%s", rout ? rout : "");
}

/* strcasecmp is POSIX, not C99. */
static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
            return 0;
    return *a == *b;
}

static void abort_reset(void)
{
    memset(&abort_log, 0, sizeof abort_log);
}

/* ------------------------------------------------------------ precisions */

typedef void (*gemm_fn)(const char *ta, const char *tb, const int *m,
                        const int *n, const int *k, const void *alpha,
                        const void *a, const int *ia, const int *ja,
                        const int *desca, const void *b, const int *ib,
                        const int *jb, const int *descb, const void *beta,
                        void *c, const int *ic, const int *jc,
                        const int *descc);

/* Type-correct adapters, so the four routines can sit in one table. */
#define GEMM_ADAPTER(name, ROUT, T)                                          \
    static void name(const char *ta, const char *tb, const int *m,          \
                     const int *n, const int *k, const void *alpha,         \
                     const void *a, const int *ia, const int *ja,           \
                     const int *desca, const void *b, const int *ib,        \
                     const int *jb, const int *descb, const void *beta,     \
                     void *c, const int *ic, const int *jc,                 \
                     const int *descc)                                      \
    {                                                                       \
        ROUT(ta, tb, m, n, k, (const T *)alpha, (const T *)a, ia, ja,       \
             desca, (const T *)b, ib, jb, descb, (const T *)beta, (T *)c,   \
             ic, jc, descc);                                                \
    }
GEMM_ADAPTER(call_psgemm, PSGEMM, float)
GEMM_ADAPTER(call_pdgemm, PDGEMM, double)
GEMM_ADAPTER(call_pcgemm, PCGEMM, float)
GEMM_ADAPTER(call_pzgemm, PZGEMM, double)

typedef struct {
    char letter;      /* S, D, C or Z */
    const char *rout; /* name ScaLAPACK reports to PB_Cabort */
    int cplx;         /* 1: entries are (re, im) pairs */
    size_t rsize;     /* bytes of one real */
    double eps;       /* unit roundoff, as LAPACK's ?LAMCH('E') */
    gemm_fn gemm;
} prec_t;

static const prec_t precisions[] = {
    {'S', "PSGEMM", 0, sizeof(float), FLT_EPSILON / 2, call_psgemm},
    {'D', "PDGEMM", 0, sizeof(double), DBL_EPSILON / 2, call_pdgemm},
    {'C', "PCGEMM", 1, sizeof(float), FLT_EPSILON / 2, call_pcgemm},
    {'Z', "PZGEMM", 1, sizeof(double), DBL_EPSILON / 2, call_pzgemm},
};

static const prec_t *prec_find(char letter)
{
    for (size_t i = 0; i < sizeof precisions / sizeof precisions[0]; i++)
        if (precisions[i].letter == letter)
            return &precisions[i];
    return NULL;
}

static size_t esize(const prec_t *p)
{
    return p->rsize * (p->cplx ? 2 : 1);
}

/* Rounds x to the precision, so global values equal the local ones exactly. */
static double prec_round(const prec_t *p, double x)
{
    return p->rsize == sizeof(float) ? (double)(float)x : x;
}

/* Entry i of a local array, widened to (re, im) doubles (exact). */
static void elem_get(const prec_t *p, const void *buf, size_t i, double v[2])
{
    size_t w = p->cplx ? 2 : 1;
    if (p->rsize == sizeof(float)) {
        const float *f = (const float *)buf + i * w;
        v[0] = f[0];
        v[1] = p->cplx ? f[1] : 0.0;
    } else {
        const double *d = (const double *)buf + i * w;
        v[0] = d[0];
        v[1] = p->cplx ? d[1] : 0.0;
    }
}

static void elem_set(const prec_t *p, void *buf, size_t i, const double v[2])
{
    size_t w = p->cplx ? 2 : 1;
    if (p->rsize == sizeof(float)) {
        float *f = (float *)buf + i * w;
        f[0] = (float)v[0];
        if (p->cplx)
            f[1] = (float)v[1];
    } else {
        double *d = (double *)buf + i * w;
        d[0] = v[0];
        if (p->cplx)
            d[1] = v[1];
    }
}

/* ------------------------------------------------------------ utilities */

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "xpgemmtst: out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return p;
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

/* splitmix64: a small, well-mixed generator; same seed, same stream. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1]. */
static double rng_uniform(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* ------------------------------------------------------------ input file */

enum { MAXPREC = 4, MAXGRID = 16, MAXTRANS = 16, MAXSCAL = 16, MAXPROB = 64 };
enum { LINEMAX = 1024, TOKMAX = 64 };
enum { MAT_A, MAT_B, MAT_C };
static const char matname[3] = {'A', 'B', 'C'};

/* One matrix of a problem, as written in the input file. */
typedef struct {
    int dt;           /* 1: 9-entry descriptor, 2: 11-entry (IMB, INB) */
    int i, j;         /* IA, JA of the submatrix (1-based) */
    int xr, xc;       /* global rows/cols beyond the submatrix */
    int imb, inb, mb, nb;
    int rsrc, csrc;   /* taken mod NPROW / NPCOL; -1 = replicated */
    int gap;          /* LLD = max(1, local rows) + gap */
} matspec_t;

typedef struct {
    int m, n, k;
    matspec_t mat[3];
    int line; /* where it starts in the input file */
} problem_t;

/* Everything read from the input file; plain data, broadcast as bytes. */
typedef struct {
    double thresh;
    int nprec;
    char prec[MAXPREC];
    int ngrid;
    int nprow[MAXGRID], npcol[MAXGRID];
    int ntrans;
    char trans[MAXTRANS][2];
    int nalpha, nbeta;
    double alpha[MAXSCAL][2], beta[MAXSCAL][2];
    int errtests;
    int nprob;
    problem_t prob[MAXPROB];
} config_t;

typedef struct {
    FILE *f;
    const char *path;
    int line;
    char buf[LINEMAX];
    char *tok[TOKMAX];
    int ntok;
} reader_t;

static int input_error(const reader_t *rd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: error: ", rd->path, rd->line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

/* Reads the next line carrying data (skips blank and '#' lines); tokenizes it.
 * Returns 1, 0 at end of file, -1 on error. */
static int next_data_line(reader_t *rd)
{
    while (fgets(rd->buf, sizeof rd->buf, rd->f)) {
        rd->line++;
        if (!strchr(rd->buf, '\n') && !feof(rd->f))
            return input_error(rd, "line longer than %d characters", LINEMAX - 2);
        char *s = rd->buf;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        rd->ntok = 0;
        for (char *t = strtok(s, " \t\r\n"); t && rd->ntok < TOKMAX;
             t = strtok(NULL, " \t\r\n"))
            rd->tok[rd->ntok++] = t;
        return 1;
    }
    return 0;
}

typedef enum { V_INT, V_REAL, V_SCALAR, V_PREC, V_TRANS } vkind_t;

static size_t vsize(vkind_t kind)
{
    switch (kind) {
    case V_INT: return sizeof(int);
    case V_REAL: return sizeof(double);
    case V_SCALAR: return 2 * sizeof(double);
    case V_PREC: return 1;
    case V_TRANS: return 2;
    }
    return 0;
}

static int parse_int(const char *t, int *v)
{
    char *end;
    errno = 0;
    long x = strtol(t, &end, 10);
    if (end == t || *end || errno || x < INT_MIN || x > INT_MAX)
        return -1;
    *v = (int)x;
    return 0;
}

static int parse_real(const char *t, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(t, &end);
    return (end == t || *end || errno || !isfinite(*v)) ? -1 : 0;
}

/* A real "x" or a complex "(x,y)" written without blanks. */
static int parse_scalar(const char *t, double v[2])
{
    char re[64], im[64];
    size_t len = strlen(t);
    if (t[0] != '(') {
        v[1] = 0.0;
        return parse_real(t, &v[0]);
    }
    const char *comma = strchr(t, ',');
    if (len < 5 || t[len - 1] != ')' || !comma || len >= sizeof re)
        return -1;
    snprintf(re, sizeof re, "%.*s", (int)(comma - t - 1), t + 1);
    snprintf(im, sizeof im, "%.*s", (int)(t + len - 1 - comma - 1), comma + 1);
    return (parse_real(re, &v[0]) || parse_real(im, &v[1])) ? -1 : 0;
}

static int is_trans_char(char c)
{
    c = (char)toupper((unsigned char)c);
    return c == 'N' || c == 'T' || c == 'C';
}

static int parse_value(vkind_t kind, const char *t, void *out)
{
    switch (kind) {
    case V_INT: return parse_int(t, out);
    case V_REAL: return parse_real(t, out);
    case V_SCALAR: return parse_scalar(t, out);
    case V_PREC:
        if (strlen(t) != 1 || !prec_find((char)toupper((unsigned char)t[0])))
            return -1;
        *(char *)out = (char)toupper((unsigned char)t[0]);
        return 0;
    case V_TRANS:
        /* Kept as written: lower case must be accepted by the routine too. */
        if (strlen(t) != 2 || !is_trans_char(t[0]) || !is_trans_char(t[1]))
            return -1;
        memcpy(out, t, 2);
        return 0;
    }
    return -1;
}

/*
 * Reads the next data line and parses exactly n values of one kind from its
 * start; the rest of the line is free text. A further token that also parses
 * as a value is an error: the count and the list disagree.
 */
static int read_values(reader_t *rd, vkind_t kind, int n, void *out,
                       const char *what)
{
    int r = next_data_line(rd);
    if (r < 0)
        return -1;
    if (r == 0)
        return input_error(rd, "end of file, expected %s", what);
    char scratch[2 * sizeof(double)];
    for (int i = 0; i < n; i++) {
        if (i >= rd->ntok)
            return input_error(rd, "expected %d value(s) for %s, found %d",
                               n, what, i);
        if (parse_value(kind, rd->tok[i], (char *)out + i * vsize(kind)))
            return input_error(rd, "bad value '%s' (value %d of %s; or is "
                               "the count too large?)", rd->tok[i], i + 1,
                               what);
    }
    if (n < rd->ntok && parse_value(kind, rd->tok[n], scratch) == 0)
        return input_error(rd, "more than %d value(s) for %s ('%s'): "
                           "fix the count", n, what, rd->tok[n]);
    return 0;
}

/* A count line: one integer in [lo, hi]. */
static int read_count(reader_t *rd, int lo, int hi, int *n, const char *what)
{
    if (read_values(rd, V_INT, 1, n, what))
        return -1;
    if (*n < lo || *n > hi)
        return input_error(rd, "%s = %d, must be in [%d, %d]", what, *n, lo,
                           hi);
    return 0;
}

static int check_grids(reader_t *rd, const config_t *cf, int nprocs)
{
    for (int g = 0; g < cf->ngrid; g++) {
        if (cf->nprow[g] < 1 || cf->npcol[g] < 1)
            return input_error(rd, "grid %d is %dx%d: sizes must be >= 1",
                               g + 1, cf->nprow[g], cf->npcol[g]);
        if (cf->nprow[g] * cf->npcol[g] > nprocs)
            return input_error(rd, "grid %dx%d needs %d processes, only %d "
                               "running", cf->nprow[g], cf->npcol[g],
                               cf->nprow[g] * cf->npcol[g], nprocs);
    }
    return 0;
}

static int check_matspec(reader_t *rd, const matspec_t *s, char name)
{
    if (s->dt != 1 && s->dt != 2)
        return input_error(rd, "%c: DT = %d, must be 1 (9-entry) or 2 "
                           "(11-entry)", name, s->dt);
    if (s->i < 1 || s->j < 1)
        return input_error(rd, "%c: I and J must be >= 1", name);
    if (s->xr < 0 || s->xc < 0 || s->gap < 0)
        return input_error(rd, "%c: XR, XC and GAP must be >= 0", name);
    if (s->imb < 1 || s->inb < 1 || s->mb < 1 || s->nb < 1)
        return input_error(rd, "%c: IMB, INB, MB and NB must be >= 1", name);
    if (s->rsrc < -1 || s->csrc < -1)
        return input_error(rd, "%c: RSRC and CSRC must be >= -1", name);
    if (s->dt == 1 && (s->imb != s->mb || s->inb != s->nb))
        return input_error(rd, "%c: a 9-entry descriptor (DT 1) has no "
                           "IMB/INB: write IMB = MB and INB = NB", name);
    return 0;
}

static int read_problem(reader_t *rd, problem_t *pb, int num)
{
    char what[96];
    int v[12];
    snprintf(what, sizeof what, "M N K of problem %d", num);
    if (read_values(rd, V_INT, 3, v, what))
        return -1;
    pb->line = rd->line;
    pb->m = v[0], pb->n = v[1], pb->k = v[2];
    if (pb->m < 0 || pb->n < 0 || pb->k < 0)
        return input_error(rd, "M, N and K must be >= 0");
    for (int x = 0; x < 3; x++) {
        snprintf(what, sizeof what, "the %c line of problem %d (DT I J XR XC "
                 "IMB INB MB NB RSRC CSRC GAP)", matname[x], num);
        if (read_values(rd, V_INT, 12, v, what))
            return -1;
        matspec_t *s = &pb->mat[x];
        *s = (matspec_t){v[0], v[1], v[2], v[3], v[4], v[5],
                         v[6], v[7], v[8], v[9], v[10], v[11]};
        if (check_matspec(rd, s, matname[x]))
            return -1;
    }
    return 0;
}

static int read_config(reader_t *rd, config_t *cf, int nprocs)
{
    if (read_values(rd, V_REAL, 1, &cf->thresh, "the threshold"))
        return -1;
    if (cf->thresh <= 0)
        return input_error(rd, "the threshold must be > 0");
    if (read_count(rd, 1, MAXPREC, &cf->nprec, "the number of precisions") ||
        read_values(rd, V_PREC, cf->nprec, cf->prec, "the precisions") ||
        read_count(rd, 1, MAXGRID, &cf->ngrid, "the number of grids") ||
        read_values(rd, V_INT, cf->ngrid, cf->nprow, "NPROW of each grid") ||
        read_values(rd, V_INT, cf->ngrid, cf->npcol, "NPCOL of each grid") ||
        check_grids(rd, cf, nprocs) ||
        read_count(rd, 1, MAXTRANS, &cf->ntrans, "the number of transpose "
                   "pairs") ||
        read_values(rd, V_TRANS, cf->ntrans, cf->trans, "the transpose pairs") ||
        read_count(rd, 1, MAXSCAL, &cf->nalpha, "the number of ALPHAs") ||
        read_values(rd, V_SCALAR, cf->nalpha, cf->alpha, "the ALPHAs") ||
        read_count(rd, 1, MAXSCAL, &cf->nbeta, "the number of BETAs") ||
        read_values(rd, V_SCALAR, cf->nbeta, cf->beta, "the BETAs") ||
        read_count(rd, 0, 1, &cf->errtests, "the error-exit switch") ||
        read_count(rd, 0, MAXPROB, &cf->nprob, "the number of problems"))
        return -1;
    for (int p = 0; p < cf->nprob; p++)
        if (read_problem(rd, &cf->prob[p], p + 1))
            return -1;
    int r = next_data_line(rd);
    if (r > 0)
        return input_error(rd, "data after the last problem ('%s'): is the "
                           "number of problems right?", rd->tok[0]);
    return r;
}

/* Process 0 reads the file, everybody gets the result. Returns 0 or -1. */
static int load_config(const char *path, config_t *cf, int rank, int nprocs)
{
    int ok = 1;
    memset(cf, 0, sizeof *cf);
    if (rank == 0) {
        reader_t rd = {.path = path};
        rd.f = fopen(path, "r");
        if (!rd.f) {
            fprintf(stderr, "xpgemmtst: cannot open %s: %s\n", path,
                    strerror(errno));
            ok = 0;
        } else {
            ok = read_config(&rd, cf, nprocs) == 0;
            fclose(rd.f);
        }
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok)
        MPI_Bcast(cf, (int)sizeof *cf, MPI_BYTE, 0, MPI_COMM_WORLD);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------ grids */

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
    int in; /* this process belongs to the grid */
} grid_t;

/* Collective over all processes: those beyond nprow*npcol get no grid. */
static grid_t grid_make(int nprow, int npcol)
{
    grid_t g = {.nprow = nprow, .npcol = npcol};
    int pr, pc;
    Cblacs_get(-1, 0, &g.ctxt);
    Cblacs_gridinit(&g.ctxt, "Row", nprow, npcol);
    Cblacs_gridinfo(g.ctxt, &pr, &pc, &g.myrow, &g.mycol);
    g.in = g.ctxt >= 0 && pr == nprow && pc == npcol && g.myrow >= 0 &&
           g.myrow < nprow && g.mycol >= 0 && g.mycol < npcol;
    return g;
}

static void grid_free(grid_t *g)
{
    if (g->in)
        Cblacs_gridexit(g->ctxt);
    g->in = 0;
}

/* ------------------------------------------------------------ distribution */

/*
 * One dimension of a block-cyclic distribution: the first block has ib
 * entries, the others b; block k lives on process (src + k) mod np, and
 * src = -1 means every process holds every entry. Built by walking the global
 * indices in order (so local order is global order), which is obviously right
 * rather than clever.
 */
typedef struct {
    int nloc;  /* entries held by this process (ScaLAPACK's NUMROC) */
    int *glob; /* glob[l]: global index of local entry l, l < nloc */
} axis_t;

static void axis_build(axis_t *ax, int n, int ib, int b, int src, int np,
                       int me)
{
    ax->nloc = 0;
    ax->glob = xmalloc((size_t)n * sizeof(int));
    for (int g = 0; g < n; g++) {
        int blk = g < ib ? 0 : 1 + (g - ib) / b;
        if (src < 0 || (src + blk) % np == me)
            ax->glob[ax->nloc++] = g;
    }
}

static void axis_free(axis_t *ax)
{
    free(ax->glob);
}

/* ------------------------------------------------------------ matrices */

enum { GUARD = 8 }; /* elements of guard zone before and after each array */

/* How a global matrix is laid out over the grid. */
typedef struct {
    int dt, rows, cols, imb, inb, mb, nb, rsrc, csrc, gap;
} layout_t;

typedef struct {
    layout_t lay;
    int desc[11];       /* the descriptor passed (9 or 11 entries used) */
    axis_t r, c;
    int lld;
    size_t nelem;       /* lld * local columns */
    size_t bytes;       /* of mem: guards included */
    unsigned char *mem; /* guard | local array | guard */
    unsigned char *a;   /* the local array */
    unsigned char *saved; /* mem before the call */
    double *g;          /* global values, (re, im) pairs, column-major */
} mat_t;

static void desc_init(mat_t *x, int ctxt)
{
    const layout_t *l = &x->lay;
    if (l->dt == 1) {
        int d[9] = {1, ctxt, l->rows, l->cols, l->mb, l->nb,
                    l->rsrc, l->csrc, x->lld};
        memcpy(x->desc, d, sizeof d);
        x->desc[9] = x->desc[10] = INT_MIN; /* never read for DTYPE 1 */
    } else {
        int d[11] = {2, ctxt, l->rows, l->cols, l->imb, l->inb, l->mb,
                     l->nb, l->rsrc, l->csrc, x->lld};
        memcpy(x->desc, d, sizeof d);
    }
}

static void global_fill(mat_t *x, const prec_t *p, uint64_t seed)
{
    size_t n = (size_t)x->lay.rows * (size_t)x->lay.cols;
    x->g = xmalloc(2 * n * sizeof(double));
    for (size_t e = 0; e < n; e++) {
        x->g[2 * e] = prec_round(p, rng_uniform(&seed));
        x->g[2 * e + 1] = p->cplx ? prec_round(p, rng_uniform(&seed)) : 0.0;
    }
}

/* Local entries from the global matrix; NaN in the LLD padding rows, so a
 * routine that computes with padding shows it; a fixed byte in the guards. */
static void local_fill(mat_t *x, const prec_t *p)
{
    const double pad[2] = {NAN, NAN};
    memset(x->mem, 0x5A, x->bytes);
    for (int lj = 0; lj < x->c.nloc; lj++) {
        int gj = x->c.glob[lj];
        for (int li = 0; li < x->lld; li++) {
            size_t e = (size_t)li + (size_t)lj * (size_t)x->lld;
            if (li < x->r.nloc) {
                size_t ge = (size_t)x->r.glob[li] + (size_t)gj * x->lay.rows;
                elem_set(p, x->a, e, &x->g[2 * ge]);
            } else {
                elem_set(p, x->a, e, pad);
            }
        }
    }
}

static void mat_build(mat_t *x, const prec_t *p, const grid_t *gr,
                      const layout_t *lay, uint64_t seed)
{
    memset(x, 0, sizeof *x);
    x->lay = *lay;
    axis_build(&x->r, lay->rows, lay->imb, lay->mb, lay->rsrc, gr->nprow,
               gr->myrow);
    axis_build(&x->c, lay->cols, lay->inb, lay->nb, lay->csrc, gr->npcol,
               gr->mycol);
    x->lld = imax(1, x->r.nloc) + lay->gap;
    x->nelem = (size_t)x->lld * (size_t)x->c.nloc;
    x->bytes = (x->nelem + 2 * GUARD) * esize(p);
    x->mem = xmalloc(x->bytes);
    x->a = x->mem + GUARD * esize(p);
    x->saved = xmalloc(x->bytes);
    desc_init(x, gr->ctxt);
    global_fill(x, p, seed);
    local_fill(x, p);
}

static void mat_save(mat_t *x)
{
    memcpy(x->saved, x->mem, x->bytes);
}

static void mat_free(mat_t *x)
{
    axis_free(&x->r);
    axis_free(&x->c);
    free(x->mem);
    free(x->saved);
    free(x->g);
}

/* Does local entry (li, lj) lie in the submatrix rows i0.., cols j0.. ? */
static int in_sub(const mat_t *x, int li, int lj, int i0, int j0, int m, int n)
{
    if (li >= x->r.nloc)
        return 0;
    int gi = x->r.glob[li], gj = x->c.glob[lj];
    return gi >= i0 && gi < i0 + m && gj >= j0 && gj < j0 + n;
}

/* NaN into every local entry of sub(C): BETA = 0 must not read them. */
static void poison_sub(mat_t *x, const prec_t *p, int i0, int j0, int m,
                       int n)
{
    const double nan2[2] = {NAN, NAN};
    for (int lj = 0; lj < x->c.nloc; lj++)
        for (int li = 0; li < x->r.nloc; li++)
            if (in_sub(x, li, lj, i0, j0, m, n))
                elem_set(p, x->a, (size_t)li + (size_t)lj * x->lld, nan2);
}

static int guards_intact(const mat_t *x, const prec_t *p)
{
    size_t gb = GUARD * esize(p);
    return memcmp(x->mem, x->saved, gb) == 0 &&
           memcmp(x->mem + x->bytes - gb, x->saved + x->bytes - gb, gb) == 0;
}

/* ------------------------------------------------------------ data cases */

typedef struct {
    const prec_t *p;
    const grid_t *gr;
    const problem_t *pb;
    char ta, tb;
    double alpha[2], beta[2]; /* rounded to the precision */
} case_t;

/* Results, reduced with MPI_MAX: flags are 0/1. */
enum { R_RATIO, R_BADVAL, R_OUTSIDE, R_ACHG, R_BCHG, R_GUARD, R_ABORT, NRES };

static int notrans(char t)
{
    return toupper((unsigned char)t) == 'N';
}

static int conjugated(const prec_t *p, char t)
{
    return p->cplx && toupper((unsigned char)t) == 'C';
}

/* Shape of sub(X) for the case: op() decides whether it is M x K or K x M. */
static void sub_shape(const case_t *cs, int x, int *rows, int *cols)
{
    const problem_t *pb = cs->pb;
    switch (x) {
    case MAT_A:
        *rows = notrans(cs->ta) ? pb->m : pb->k;
        *cols = notrans(cs->ta) ? pb->k : pb->m;
        break;
    case MAT_B:
        *rows = notrans(cs->tb) ? pb->k : pb->n;
        *cols = notrans(cs->tb) ? pb->n : pb->k;
        break;
    default:
        *rows = pb->m;
        *cols = pb->n;
    }
}

static layout_t case_layout(const case_t *cs, int x)
{
    const matspec_t *s = &cs->pb->mat[x];
    int rows, cols;
    sub_shape(cs, x, &rows, &cols);
    layout_t l = {s->dt, s->i - 1 + rows + s->xr, s->j - 1 + cols + s->xc,
                  s->imb, s->inb, s->mb, s->nb,
                  s->rsrc < 0 ? -1 : s->rsrc % cs->gr->nprow,
                  s->csrc < 0 ? -1 : s->csrc % cs->gr->npcol, s->gap};
    return l;
}

/* Walks op(sub(X)) of a global matrix: entry (r, c) is at base + r*sr + c*sc
 * (in elements), conjugated when conj is set. */
typedef struct {
    const double *base;
    size_t sr, sc;
    int conj;
} opview_t;

static opview_t op_view(const mat_t *x, const matspec_t *s, char t,
                        const prec_t *p)
{
    opview_t v;
    size_t ld = (size_t)x->lay.rows;
    v.base = x->g + 2 * ((size_t)(s->i - 1) + (size_t)(s->j - 1) * ld);
    v.sr = notrans(t) ? 1 : ld;
    v.sc = notrans(t) ? ld : 1;
    v.conj = conjugated(p, t);
    return v;
}

static long double abs1(long double re, long double im)
{
    return fabsl(re) + fabsl(im);
}

/*
 * Reference for entry (i, j) of sub(C) and its gauge, the alpha part
 * sum_l |op(a)_il| |op(b)_lj|. Complex magnitudes are |re| + |im| (LAPACK's
 * CABS1), an upper bound of the modulus. The accumulator type T is long double
 * for D/Z and double for S/C: either is far more accurate than the routine
 * under test, and double keeps the single precision runs fast.
 */
#define DEFINE_REF_DOT(name, T, ABS)                                         \
    static void name(const opview_t *a, const opview_t *b, int i, int j,     \
                     int k, long double s[2], long double *gsum)             \
    {                                                                        \
        T sr = 0, si = 0, g = 0;                                             \
        const double *pa = a->base + 2 * (size_t)i * a->sr;                  \
        const double *pb = b->base + 2 * (size_t)j * b->sc;                  \
        for (int l = 0; l < k; l++) {                                        \
            T ar = pa[0], ai = a->conj ? -pa[1] : pa[1];                     \
            T br = pb[0], bi = b->conj ? -pb[1] : pb[1];                     \
            sr += ar * br - ai * bi;                                         \
            si += ar * bi + ai * br;                                         \
            g += (ABS(ar) + ABS(ai)) * (ABS(br) + ABS(bi));                  \
            pa += 2 * a->sc;                                                 \
            pb += 2 * b->sr;                                                 \
        }                                                                    \
        s[0] = sr, s[1] = si;                                                \
        *gsum = g;                                                           \
    }
DEFINE_REF_DOT(ref_dot_ld, long double, fabsl)
DEFINE_REF_DOT(ref_dot_d, double, fabs)

static void ref_dot(const prec_t *p, const opview_t *a, const opview_t *b,
                    int i, int j, int k, long double s[2], long double *gsum)
{
    if (p->rsize == sizeof(float))
        ref_dot_d(a, b, i, j, k, s, gsum);
    else
        ref_dot_ld(a, b, i, j, k, s, gsum);
}

/* Test ratio of one computed entry c against alpha*dot + beta*c0. */
static double entry_ratio(const case_t *cs, const long double dot[2],
                          long double gsum, const double c0[2],
                          const double c[2])
{
    const double *al = cs->alpha, *be = cs->beta;
    int alpha0 = al[0] == 0 && al[1] == 0, beta0 = be[0] == 0 && be[1] == 0;
    long double rr = 0, ri = 0, gauge = 0;
    if (!alpha0) {
        rr += al[0] * dot[0] - al[1] * dot[1];
        ri += al[0] * dot[1] + al[1] * dot[0];
        gauge += abs1(al[0], al[1]) * gsum;
    }
    if (!beta0) { /* beta = 0: c0 is NaN on purpose, never part of it */
        rr += (long double)be[0] * c0[0] - (long double)be[1] * c0[1];
        ri += (long double)be[0] * c0[1] + (long double)be[1] * c0[0];
        gauge += abs1(be[0], be[1]) * abs1(c0[0], c0[1]);
    }
    long double diff = abs1(c[0] - rr, c[1] - ri);
    if (isnan(c[0]) || isnan(c[1]) || isnan((double)diff))
        return INFINITY;
    if (gauge == 0)
        return diff == 0 ? 0.0 : INFINITY;
    return (double)(diff / (cs->p->eps * gauge));
}

/* Checks (a) and (b) on the local C. */
static void check_c(const case_t *cs, mat_t *abc, double res[NRES])
{
    const prec_t *p = cs->p;
    const problem_t *pb = cs->pb;
    mat_t *C = &abc[MAT_C];
    const matspec_t *sc = &pb->mat[MAT_C];
    int i0 = sc->i - 1, j0 = sc->j - 1;
    int alpha0 = cs->alpha[0] == 0 && cs->alpha[1] == 0;
    opview_t va = op_view(&abc[MAT_A], &pb->mat[MAT_A], cs->ta, p);
    opview_t vb = op_view(&abc[MAT_B], &pb->mat[MAT_B], cs->tb, p);
    size_t es = esize(p);
    for (int lj = 0; lj < C->c.nloc; lj++) {
        for (int li = 0; li < C->lld; li++) {
            size_t e = (size_t)li + (size_t)lj * C->lld;
            if (!in_sub(C, li, lj, i0, j0, pb->m, pb->n)) {
                if (memcmp(C->a + e * es, C->saved + (GUARD + e) * es, es))
                    res[R_OUTSIDE] = 1;
                continue;
            }
            int gi = C->r.glob[li], gj = C->c.glob[lj];
            long double dot[2] = {0, 0}, gsum = 0;
            if (!alpha0)
                ref_dot(p, &va, &vb, gi - i0, gj - j0, pb->k, dot, &gsum);
            double c[2];
            elem_get(p, C->a, e, c);
            const double *c0 = &C->g[2 * ((size_t)gi + (size_t)gj * C->lay.rows)];
            double r = entry_ratio(cs, dot, gsum, c0, c);
            if (!(r <= res[R_RATIO]))
                res[R_RATIO] = r;
        }
    }
    if (!guards_intact(C, p))
        res[R_GUARD] = 1;
}

static void run_local(const case_t *cs, uint64_t seed, double res[NRES])
{
    mat_t abc[3];
    const problem_t *pb = cs->pb;
    for (int x = 0; x < 3; x++) {
        layout_t l = case_layout(cs, x);
        mat_build(&abc[x], cs->p, cs->gr, &l, seed + 0x1000 * (uint64_t)(x + 1));
    }
    int beta0 = cs->beta[0] == 0 && cs->beta[1] == 0;
    if (beta0)
        poison_sub(&abc[MAT_C], cs->p, pb->mat[MAT_C].i - 1,
                   pb->mat[MAT_C].j - 1, pb->m, pb->n);
    for (int x = 0; x < 3; x++)
        mat_save(&abc[x]);

    unsigned char alpha[16], beta[16];
    elem_set(cs->p, alpha, 0, cs->alpha);
    elem_set(cs->p, beta, 0, cs->beta);
    const matspec_t *s = pb->mat;
    abort_reset();
    cs->p->gemm(&cs->ta, &cs->tb, &pb->m, &pb->n, &pb->k, alpha, abc[0].a,
                &s[0].i, &s[0].j, abc[0].desc, abc[1].a, &s[1].i, &s[1].j,
                abc[1].desc, beta, abc[2].a, &s[2].i, &s[2].j, abc[2].desc);

    res[R_ABORT] = abort_log.calls != 0;
    res[R_ACHG] = memcmp(abc[0].mem, abc[0].saved, abc[0].bytes) != 0;
    res[R_BCHG] = memcmp(abc[1].mem, abc[1].saved, abc[1].bytes) != 0;
    check_c(cs, abc, res);
    for (int x = 0; x < 3; x++)
        mat_free(&abc[x]);
}

static void fmt_scalar(char *buf, size_t len, const prec_t *p, const double v[2])
{
    if (p->cplx && v[1] != 0)
        snprintf(buf, len, "(%g,%g)", v[0], v[1]);
    else
        snprintf(buf, len, "%g", v[0]);
}

static void fmt_mat(char *buf, size_t len, const case_t *cs, int x)
{
    const matspec_t *s = &cs->pb->mat[x];
    layout_t l = case_layout(cs, x);
    snprintf(buf, len, "%c(%d,%d) %dx%d d%d %dx%d/%dx%d @%d,%d +%d",
             matname[x], s->i, s->j, l.rows, l.cols, s->dt, s->imb, s->inb,
             s->mb, s->nb, l.rsrc, l.csrc, s->gap);
}

static void report_case(const case_t *cs, const double res[NRES])
{
    char al[48], be[48], m[3][96], why[128] = "";
    static const char *const reason[NRES] = {
        NULL, "bad-value", "C-outside-changed", "A-changed", "B-changed",
        "guard-zone", "PB_Cabort-called"};
    fmt_scalar(al, sizeof al, cs->p, cs->alpha);
    fmt_scalar(be, sizeof be, cs->p, cs->beta);
    for (int x = 0; x < 3; x++)
        fmt_mat(m[x], sizeof m[x], cs, x);
    for (int r = 1; r < NRES; r++)
        if (res[r] != 0) {
            strncat(why, " ", sizeof why - strlen(why) - 1);
            strncat(why, reason[r], sizeof why - strlen(why) - 1);
        }
    printf("%s %c %dx%d %c%c M=%d N=%d K=%d  %s  %s  %s  alpha=%s beta=%s "
           "ratio=%.3g%s\n",
           why[0] ? "FAILED" : "PASSED", cs->p->letter, cs->gr->nprow,
           cs->gr->npcol, cs->ta, cs->tb, cs->pb->m, cs->pb->n, cs->pb->k,
           m[0], m[1], m[2], al, be, res[R_RATIO], why);
}

/* Runs one case on the grid's processes, agrees on the verdict everywhere.
 * Returns 1 when it passed. */
static int run_case(const case_t *cs, uint64_t seed, double thresh)
{
    double res[NRES] = {0}, all[NRES];
    if (cs->gr->in)
        run_local(cs, seed, res);
    MPI_Allreduce(res, all, NRES, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    all[R_BADVAL] = !(all[R_RATIO] <= thresh);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        report_case(cs, all);
    for (int r = 1; r < NRES; r++)
        if (all[r] != 0)
            return 0;
    return 1;
}

/* Every problem x transpose pair x alpha x beta on one grid in one precision. */
static void run_grid(const config_t *cf, const prec_t *p, const grid_t *gr,
                     uint64_t *seed, int counts[2])
{
    for (int pr = 0; pr < cf->nprob; pr++)
        for (int t = 0; t < cf->ntrans; t++)
            for (int a = 0; a < cf->nalpha; a++)
                for (int b = 0; b < cf->nbeta; b++) {
                    case_t cs = {p, gr, &cf->prob[pr], cf->trans[t][0],
                                 cf->trans[t][1], {0, 0}, {0, 0}};
                    /* real precisions use the real parts only */
                    cs.alpha[0] = prec_round(p, cf->alpha[a][0]);
                    cs.beta[0] = prec_round(p, cf->beta[b][0]);
                    if (p->cplx) {
                        cs.alpha[1] = prec_round(p, cf->alpha[a][1]);
                        cs.beta[1] = prec_round(p, cf->beta[b][1]);
                    }
                    *seed = rng_next(seed);
                    counts[run_case(&cs, *seed, cf->thresh) ? 0 : 1]++;
                }
}

/* ------------------------------------------------------------ error exits */

/* What an error case changes in one operand, relative to a valid call
 * (TRANSA, TRANSB, M, N and K are given by the case itself): its row or column
 * index, or a descriptor entry (F_MG, F_NG: global sizes M_, N_). */
enum { F_I = 1, F_J, F_DTYPE, F_CTXT, F_MG, F_NG, F_IMB, F_INB, F_MB, F_NB,
       F_RSRC, F_CSRC, F_LLD };
enum { SET, ADD, NPROW_PLUS, NPCOL_PLUS };

typedef struct {
    char mat;  /* 'A', 'B' or 'C' */
    int field; /* F_*; 0: no change */
    int how;   /* SET v, ADD v to the valid value, NPROW + v, NPCOL + v */
    int val;
} mut_t;

typedef struct {
    const char *what;
    char ta, tb;
    int m, n, k;
    int dt[3];   /* descriptor kinds of A, B, C (0 means 2) */
    mut_t mut[3];
    int expect;  /* INFO ScaLAPACK reports; 0: no error */
} errcase_t;

#define NOMUT {0, 0, SET, 0}
#define D_(x, f, v) {x, f, SET, v}
#define ADD_(x, f, v) {x, f, ADD, v}
#define PR_(x, v) {x, F_RSRC, NPROW_PLUS, v}
#define PC_(x, v) {x, F_CSRC, NPCOL_PLUS, v}
#define E_(what, ta, tb, m, n, k, exp, ...) \
    {what, ta, tb, m, n, k, {0, 0, 0}, {__VA_ARGS__}, exp}
#define E9_(what, dta, dtb, dtc, exp, ...) \
    {what, 'N', 'N', 8, 8, 8, {dta, dtb, dtc}, {__VA_ARGS__}, exp}

/*
 * Every matrix is 24 x 24 (blocks 3x2 then 2x2, or 2x2 for 9-entry
 * descriptors), sub-matrices start at (2,3), M = N = K = 8 unless stated.
 * Positions: TRANSA 1, TRANSB 2, M 3, N 4, K 5, IA 8, JA 9, DESCA 10, IB 12,
 * JB 13, DESCB 14, IC 17, JC 18, DESCC 19; descriptor entry e of position p is
 * -(100p + e) in the 11-entry numbering, the smallest code found wins.
 */
static const errcase_t errcases[] = {
    /* scalar arguments */
    E_("TRANSA=X", 'X', 'N', 8, 8, 8, -1, NOMUT),
    E_("TRANSB=Y", 'N', 'Y', 8, 8, 8, -2, NOMUT),
    E_("TRANSA=X TRANSB=Y", 'X', 'Y', 8, 8, 8, -1, NOMUT),
    E_("TRANSA=X M=-1", 'X', 'N', -1, 8, 8, -1, NOMUT),
    E_("TRANSB=Y DESCA.MB=0", 'N', 'Y', 8, 8, 8, -2, D_('A', F_MB, 0)),
    E_("M=-1", 'N', 'N', -1, 8, 8, -3, NOMUT),
    E_("N=-1", 'N', 'N', 8, -1, 8, -4, NOMUT),
    E_("K=-1", 'N', 'N', 8, 8, -1, -5, NOMUT),
    E_("M=-1 K=-1", 'N', 'N', -1, 8, -1, -3, NOMUT),
    E_("N=-1 K=-1", 'N', 'T', 8, -1, -1, -4, NOMUT),
    E_("TRANSA=T M=-1", 'T', 'N', -1, 8, 8, -3, NOMUT),
    E_("K=-1 DESCA.IMB=0", 'N', 'N', 8, 8, -1, -5, D_('A', F_IMB, 0)),
    E_("M=-2 DESCB.RSRC=NPROW", 'N', 'N', -2, 8, 8, -3, PR_('B', 0)),
    E_("N=-1 DESCA.DTYPE=3", 'N', 'N', 8, -1, 8, -4, D_('A', F_DTYPE, 3)),
    /* A */
    E_("IA=0", 'N', 'N', 8, 8, 8, -8, D_('A', F_I, 0)),
    E_("JA=-3", 'N', 'N', 8, 8, 8, -9, D_('A', F_J, -3)),
    E_("IA=20 (out of A)", 'N', 'N', 8, 8, 8, -8, D_('A', F_I, 20)),
    E_("TRANSA=C M=23 (cols out of A)", 'C', 'N', 23, 8, 8, -9, NOMUT),
    E_("TRANSA=T IA=18 (rows out of A)", 'T', 'N', 8, 8, 8, -8,
       D_('A', F_I, 18)),
    E_("DESCA.DTYPE=3", 'N', 'N', 8, 8, 8, -1001, D_('A', F_DTYPE, 3)),
    E_("DESCA.DTYPE=3 IA=0", 'N', 'N', 8, 8, 8, -8, D_('A', F_DTYPE, 3),
       D_('A', F_I, 0)),
    E_("DESCA.CTXT=-1", 'N', 'N', 8, 8, 8, -1002, D_('A', F_CTXT, -1)),
    E_("DESCA.CTXT=-1 TRANSA=X", 'X', 'N', 8, 8, 8, -1002,
       D_('A', F_CTXT, -1)),
    E_("DESCA.CTXT=12345", 'N', 'N', 8, 8, 8, -1002, D_('A', F_CTXT, 12345)),
    E_("DESCA.M=0", 'N', 'N', 8, 8, 8, -1003, D_('A', F_MG, 0)),
    E_("DESCA.M=8 (IA+M-1 > M_)", 'N', 'N', 8, 8, 8, -8, D_('A', F_MG, 8)),
    E_("DESCA.N=-1", 'N', 'N', 8, 8, 8, -1004, D_('A', F_NG, -1)),
    E_("DESCA.N=9 (JA+K-1 > N_)", 'N', 'N', 8, 8, 8, -9, D_('A', F_NG, 9)),
    E_("DESCA.IMB=0", 'N', 'N', 8, 8, 8, -1005, D_('A', F_IMB, 0)),
    E_("DESCA.INB=-1", 'N', 'N', 8, 8, 8, -1006, D_('A', F_INB, -1)),
    E_("DESCA.MB=0", 'N', 'N', 8, 8, 8, -1007, D_('A', F_MB, 0)),
    E_("DESCA.NB=0", 'N', 'N', 8, 8, 8, -1008, D_('A', F_NB, 0)),
    E_("DESCA.MB=0 DESCA.NB=0", 'N', 'N', 8, 8, 8, -1007, D_('A', F_MB, 0),
       D_('A', F_NB, 0)),
    E_("DESCA.RSRC=NPROW", 'N', 'N', 8, 8, 8, -1009, PR_('A', 0)),
    E_("DESCA.RSRC=-2", 'N', 'N', 8, 8, 8, -1009, D_('A', F_RSRC, -2)),
    E_("DESCA.CSRC=NPCOL", 'N', 'N', 8, 8, 8, -1010, PC_('A', 0)),
    E_("DESCA.CSRC=-7", 'N', 'N', 8, 8, 8, -1010, D_('A', F_CSRC, -7)),
    E_("DESCA.LLD=0", 'N', 'N', 8, 8, 8, -1011, D_('A', F_LLD, 0)),
    E_("DESCA.LLD=1 (< local rows)", 'N', 'N', 8, 8, 8, -1011,
       D_('A', F_LLD, 1)),
    E_("DESCA.RSRC=NPROW DESCA.IMB=0", 'N', 'N', 8, 8, 8, -1005, PR_('A', 0),
       D_('A', F_IMB, 0)),
    E_("DESCA.M=0 DESCA.LLD=0", 'N', 'N', 8, 8, 8, -1003, D_('A', F_MG, 0),
       D_('A', F_LLD, 0)),
    E9_("DESCA(9).MB=0", 1, 2, 2, -1005, D_('A', F_MB, 0)),
    E9_("DESCA(9).NB=0", 1, 2, 2, -1006, D_('A', F_NB, 0)),
    E9_("DESCA(9).RSRC=NPROW", 1, 2, 2, -1009, PR_('A', 0)),
    E9_("DESCA(9).CSRC=NPCOL", 1, 2, 2, -1010, PC_('A', 0)),
    E9_("DESCA(9).LLD=1", 1, 2, 2, -1011, D_('A', F_LLD, 1)),
    E9_("DESCA(9).M=0", 1, 2, 2, -1003, D_('A', F_MG, 0)),
    E9_("DESCA(9).DTYPE=0", 1, 2, 2, -1001, D_('A', F_DTYPE, 0)),
    /* A, empty sub(A): only M_ >= 0, N_ >= 0 and LLD >= 1 are demanded */
    E_("M=0 DESCA.M=-1", 'N', 'N', 0, 8, 8, -1003, D_('A', F_MG, -1)),
    E_("M=0 DESCA.LLD=0", 'N', 'N', 0, 8, 8, -1011, D_('A', F_LLD, 0)),
    E_("M=0 DESCA.M=0 (legal)", 'N', 'N', 0, 8, 8, 0, D_('A', F_MG, 0)),
    E_("M=0 IA=30 IC=30 (legal)", 'N', 'N', 0, 8, 8, 0, D_('A', F_I, 30),
       D_('C', F_I, 30)),
    E_("M=0 IA=0", 'N', 'N', 0, 8, 8, -8, D_('A', F_I, 0)),
    E_("K=0 DESCA.N=-1", 'N', 'N', 8, 8, 0, -1004, D_('A', F_NG, -1)),
    /* B */
    E_("IB=0", 'N', 'N', 8, 8, 8, -12, D_('B', F_I, 0)),
    E_("JB=0", 'N', 'N', 8, 8, 8, -13, D_('B', F_J, 0)),
    E_("IB=20 (out of B)", 'N', 'N', 8, 8, 8, -12, D_('B', F_I, 20)),
    E_("TRANSB=T IB=20 (rows out of B)", 'N', 'T', 8, 8, 8, -12,
       D_('B', F_I, 20)),
    E_("TRANSB=C K=23 (out of A and B)", 'N', 'C', 8, 8, 23, -9, NOMUT),
    E_("TRANSA=T TRANSB=C K=23 (out of B)", 'T', 'C', 8, 8, 23, -13, NOMUT),
    E_("DESCB.DTYPE=0", 'N', 'N', 8, 8, 8, -1401, D_('B', F_DTYPE, 0)),
    E_("DESCB.CTXT other", 'N', 'N', 8, 8, 8, -1402, ADD_('B', F_CTXT, 1)),
    E_("DESCB.M=0", 'N', 'N', 8, 8, 8, -1403, D_('B', F_MG, 0)),
    E_("DESCB.N=0", 'N', 'N', 8, 8, 8, -1404, D_('B', F_NG, 0)),
    E_("DESCB.IMB=0", 'N', 'N', 8, 8, 8, -1405, D_('B', F_IMB, 0)),
    E_("DESCB.INB=0", 'N', 'N', 8, 8, 8, -1406, D_('B', F_INB, 0)),
    E_("DESCB.MB=-1", 'N', 'N', 8, 8, 8, -1407, D_('B', F_MB, -1)),
    E_("DESCB.NB=0", 'N', 'N', 8, 8, 8, -1408, D_('B', F_NB, 0)),
    E_("DESCB.RSRC=NPROW+2", 'N', 'N', 8, 8, 8, -1409, PR_('B', 2)),
    E_("DESCB.CSRC=-2", 'N', 'N', 8, 8, 8, -1410, D_('B', F_CSRC, -2)),
    E_("DESCB.LLD=0", 'N', 'N', 8, 8, 8, -1411, D_('B', F_LLD, 0)),
    E_("DESCB.LLD=1 (< local rows)", 'N', 'T', 8, 8, 8, -1411,
       D_('B', F_LLD, 1)),
    E9_("DESCB(9).MB=0", 2, 1, 2, -1405, D_('B', F_MB, 0)),
    E9_("DESCB(9).NB=0", 2, 1, 2, -1406, D_('B', F_NB, 0)),
    E9_("DESCB(9).RSRC=-2", 2, 1, 2, -1409, D_('B', F_RSRC, -2)),
    E9_("DESCB(9).CSRC=NPCOL", 2, 1, 2, -1410, PC_('B', 0)),
    E9_("DESCB(9).LLD=0", 2, 1, 2, -1411, D_('B', F_LLD, 0)),
    E9_("DESCB(9).N=0", 2, 1, 2, -1404, D_('B', F_NG, 0)),
    E_("N=0 DESCB.N=-1", 'N', 'N', 8, 0, 8, -1404, D_('B', F_NG, -1)),
    E_("N=0 DESCB.LLD=0", 'N', 'N', 8, 0, 8, -1411, D_('B', F_LLD, 0)),
    E_("K=0 DESCB.M=-1", 'N', 'N', 8, 8, 0, -1403, D_('B', F_MG, -1)),
    E_("N=0 DESCB.N=0 JB=30 (legal)", 'N', 'N', 8, 0, 8, 0,
       D_('B', F_NG, 0), D_('B', F_J, 30)),
    /* errors in two operands: the smaller code wins */
    E_("IB=0 DESCA.NB=0", 'N', 'N', 8, 8, 8, -1008, D_('B', F_I, 0),
       D_('A', F_NB, 0)),
    E_("DESCA.CSRC=NPCOL DESCB.IMB=0", 'N', 'N', 8, 8, 8, -1010, PC_('A', 0),
       D_('B', F_IMB, 0)),
    E_("DESCB.IMB=0 IC=0", 'N', 'N', 8, 8, 8, -1405, D_('B', F_IMB, 0),
       D_('C', F_I, 0)),
    E_("DESCB.CTXT other DESCC.CTXT other", 'N', 'N', 8, 8, 8, -1402,
       ADD_('B', F_CTXT, 1), ADD_('C', F_CTXT, 1)),
    E_("TRANSA=T N=-1 DESCC.MB=0", 'T', 'N', 8, -1, 8, -4, D_('C', F_MB, 0)),
    E_("DESCC.IMB=0 JB=0", 'N', 'N', 8, 8, 8, -13, D_('C', F_IMB, 0),
       D_('B', F_J, 0)),
    E_("DESCC.CTXT other IC=0", 'N', 'N', 8, 8, 8, -17,
       ADD_('C', F_CTXT, 1), D_('C', F_I, 0)),
    /* C */
    E_("IC=0", 'N', 'N', 8, 8, 8, -17, D_('C', F_I, 0)),
    E_("JC=0", 'N', 'N', 8, 8, 8, -18, D_('C', F_J, 0)),
    E_("IC=18 (out of C)", 'N', 'N', 8, 8, 8, -17, D_('C', F_I, 18)),
    E_("DESCC.N=9 (JC+N-1 > N_)", 'T', 'T', 8, 8, 8, -18, D_('C', F_NG, 9)),
    E_("DESCC.DTYPE=5", 'N', 'N', 8, 8, 8, -1901, D_('C', F_DTYPE, 5)),
    E_("DESCC.CTXT other", 'N', 'N', 8, 8, 8, -1902, ADD_('C', F_CTXT, 1)),
    E_("DESCC.M=0", 'N', 'N', 8, 8, 8, -1903, D_('C', F_MG, 0)),
    E_("DESCC.N=-1", 'N', 'N', 8, 8, 8, -1904, D_('C', F_NG, -1)),
    E_("DESCC.IMB=0", 'N', 'N', 8, 8, 8, -1905, D_('C', F_IMB, 0)),
    E_("DESCC.INB=0", 'N', 'N', 8, 8, 8, -1906, D_('C', F_INB, 0)),
    E_("DESCC.MB=0", 'N', 'N', 8, 8, 8, -1907, D_('C', F_MB, 0)),
    E_("DESCC.NB=-2", 'N', 'N', 8, 8, 8, -1908, D_('C', F_NB, -2)),
    E_("DESCC.RSRC=-2", 'N', 'N', 8, 8, 8, -1909, D_('C', F_RSRC, -2)),
    E_("DESCC.CSRC=NPCOL", 'N', 'N', 8, 8, 8, -1910, PC_('C', 0)),
    E_("DESCC.LLD=0", 'N', 'N', 8, 8, 8, -1911, D_('C', F_LLD, 0)),
    E_("DESCC.LLD=1 (< local rows)", 'C', 'C', 8, 8, 8, -1911,
       D_('C', F_LLD, 1)),
    E9_("DESCC(9).MB=0", 2, 2, 1, -1905, D_('C', F_MB, 0)),
    E9_("DESCC(9).NB=0", 2, 2, 1, -1906, D_('C', F_NB, 0)),
    E9_("DESCC(9).RSRC=NPROW", 2, 2, 1, -1909, PR_('C', 0)),
    E9_("DESCC(9).CSRC=-2", 2, 2, 1, -1910, D_('C', F_CSRC, -2)),
    E9_("DESCC(9).LLD=1", 2, 2, 1, -1911, D_('C', F_LLD, 1)),
    E9_("DESCC(9).M=0", 2, 2, 1, -1903, D_('C', F_MG, 0)),
    E9_("DESCC(9).DTYPE=4", 2, 2, 1, -1901, D_('C', F_DTYPE, 4)),
    E_("M=0 DESCC.M=-1", 'N', 'N', 0, 8, 8, -1903, D_('C', F_MG, -1)),
    E_("N=0 DESCC.LLD=0", 'N', 'N', 8, 0, 8, -1911, D_('C', F_LLD, 0)),
    E_("TRANSA=t TRANSB=c M=0 (legal, lower case)", 't', 'c', 0, 8, 8, 0, NOMUT),
};

/* The scalar arguments of an error-exit call. */
typedef struct {
    char ta, tb;
    int m, n, k;
    int i[3], j[3];
} errargs_t;

/* Index of a descriptor field in the 9- or 11-entry form; -1: none. */
static int desc_index(int dt, int field)
{
    static const int d11[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    static const int d9[] = {0, 1, 2, 3, -1, -1, 4, 5, 6, 7, 8};
    int f = field - F_DTYPE;
    if (f < 0 || f > 10)
        return -1;
    return dt == 1 ? d9[f] : d11[f];
}

static int mut_value(const mut_t *mu, int valid, const grid_t *gr)
{
    switch (mu->how) {
    case ADD: return valid + mu->val;
    case NPROW_PLUS: return gr->nprow + mu->val;
    case NPCOL_PLUS: return gr->npcol + mu->val;
    default: return mu->val;
    }
}

static void apply_mut(const mut_t *mu, errargs_t *ar, mat_t *abc,
                      const grid_t *gr)
{
    if (mu->field == 0)
        return;
    int x = mu->mat - 'A';
    if (mu->field == F_I) {
        ar->i[x] = mut_value(mu, ar->i[x], gr);
    } else if (mu->field == F_J) {
        ar->j[x] = mut_value(mu, ar->j[x], gr);
    } else {
        int d = desc_index(abc[x].lay.dt, mu->field);
        if (d < 0) { /* a table mistake, not a routine failure */
            fprintf(stderr, "xpgemmtst: bad error-case table entry\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        abc[x].desc[d] = mut_value(mu, abc[x].desc[d], gr);
    }
}

/* The valid layout every error case starts from: 24 x 24, 2x2 blocks. */
static layout_t err_layout(int dt, const grid_t *gr)
{
    layout_t l = {dt == 1 ? 1 : 2, 24, 24, dt == 1 ? 2 : 3, 2, 2, 2,
                  1 % gr->nprow, 0, 1};
    return l;
}

/* Results of one error case, reduced with MPI_MIN / MPI_MAX. */
enum { X_BAD, X_INFO_LO, X_INFO_HI, NX };

static void err_local(const errcase_t *ec, const prec_t *p, const grid_t *gr,
                      int out[NX])
{
    mat_t abc[3];
    errargs_t ar = {ec->ta, ec->tb, ec->m, ec->n, ec->k, {2, 2, 2}, {3, 3, 3}};
    for (int x = 0; x < 3; x++) {
        layout_t l = err_layout(ec->dt[x], gr);
        mat_build(&abc[x], p, gr, &l, 0xE77 + 0x100 * (uint64_t)x);
        mat_save(&abc[x]);
    }
    for (int u = 0; u < 3; u++)
        apply_mut(&ec->mut[u], &ar, abc, gr);

    unsigned char one[16];
    const double v1[2] = {1.0, 0.0};
    elem_set(p, one, 0, v1);
    abort_reset();
    p->gemm(&ar.ta, &ar.tb, &ar.m, &ar.n, &ar.k, one, abc[0].a, &ar.i[0],
            &ar.j[0], abc[0].desc, abc[1].a, &ar.i[1], &ar.j[1], abc[1].desc,
            one, abc[2].a, &ar.i[2], &ar.j[2], abc[2].desc);

    int info = abort_log.calls ? abort_log.info : 0;
    int bad = info != ec->expect;
    if (abort_log.calls && !same_name(abort_log.rout, p->rout))
        bad = 1; /* the routine must name itself as ScaLAPACK does */
    for (int x = 0; x < 3; x++)
        if (memcmp(abc[x].mem, abc[x].saved, abc[x].bytes))
            bad = 1;
    out[X_BAD] = bad;
    out[X_INFO_LO] = info;
    out[X_INFO_HI] = info;
    for (int x = 0; x < 3; x++)
        mat_free(&abc[x]);
}

static int run_errcase(const errcase_t *ec, const prec_t *p, const grid_t *gr)
{
    int mine[NX] = {0, INT_MAX, INT_MIN}, bad, lo, hi, rank;
    if (gr->in)
        err_local(ec, p, gr, mine);
    MPI_Allreduce(&mine[X_BAD], &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&mine[X_INFO_LO], &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine[X_INFO_HI], &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        /* process 0's view of ROUT: shown when it is the wrong name */
        int wrong = abort_log.calls && !same_name(abort_log.rout, p->rout);
        char got[48];
        if (lo == hi)
            snprintf(got, sizeof got, "%d", lo);
        else
            snprintf(got, sizeof got, "%d..%d (processes disagree)", lo, hi);
        printf("%s %c %dx%d error-exit  %-40s INFO expected %d got %s%s%s\n",
               bad ? "FAILED" : "PASSED", p->letter, gr->nprow, gr->npcol,
               ec->what, ec->expect, got, wrong ? "  ROUT=" : "",
               wrong ? abort_log.rout : "");
    }
    return !bad;
}

static void run_errtests(const config_t *cf, int nprocs, int counts[2])
{
    /* A 1 x NPROCS grid (every process in one row) and a 2 x 3 grid. */
    int shapes[2][2] = {{1, nprocs}, {2, 3}};
    int nshape = nprocs >= 6 ? 2 : 1;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (nshape == 1 && rank == 0)
        printf("NOTE: fewer than 6 processes, error exits skip the 2x3 grid\n");
    for (int s = 0; s < nshape; s++) {
        grid_t gr = grid_make(shapes[s][0], shapes[s][1]);
        for (int q = 0; q < cf->nprec; q++)
            for (size_t e = 0; e < sizeof errcases / sizeof errcases[0]; e++)
                counts[run_errcase(&errcases[e], prec_find(cf->prec[q]), &gr)
                           ? 0 : 1]++;
        grid_free(&gr);
    }
}

/* ------------------------------------------------------------ main */

/* Which object PDGEMM resolves to: this program (pumma linked statically)
 * or a shared library (ScaLAPACK), so a log shows what was tested. */
static const char *pdgemm_origin(void)
{
    Dl_info info;
    if (dladdr((void *)call_pdgemm, &info) == 0) /* our adapter's object */
        return "?";
    const char *self = info.dli_fname;
    if (dladdr((void *)PDGEMM, &info) == 0 || !info.dli_fname)
        return "?";
    return strcmp(info.dli_fname, self) == 0 ? "this executable (linked in)"
                                             : info.dli_fname;
}

static void run_data_cases(const config_t *cf, int counts[2])
{
    grid_t grids[MAXGRID];
    uint64_t seed = 20240611;
    for (int g = 0; g < cf->ngrid; g++)
        grids[g] = grid_make(cf->nprow[g], cf->npcol[g]);
    for (int q = 0; q < cf->nprec; q++)
        for (int g = 0; g < cf->ngrid; g++)
            run_grid(cf, prec_find(cf->prec[q]), &grids[g], &seed, counts);
    for (int g = 0; g < cf->ngrid; g++)
        grid_free(&grids[g]);
}

int main(int argc, char **argv)
{
    int rank, nprocs, counts[2] = {0, 0};
    config_t cf;
    MPI_Init(&argc, &argv);
    Cblacs_pinfo(&rank, &nprocs);
    const char *path = argc > 1 ? argv[1] : "PGEMMTST.dat";
    if (load_config(path, &cf, rank, nprocs)) {
        Cblacs_exit(1);
        MPI_Finalize();
        return 2;
    }
    double t0 = MPI_Wtime();
    if (rank == 0) {
        printf("xpgemmtst: %s, %d processes, threshold %g, PDGEMM from "
               "%s\n", path, nprocs, cf.thresh, pdgemm_origin());
        printf("case lines: verdict, precision, grid, TRANSA TRANSB, sizes, "
               "then per matrix X(I,J) M_xN_ dDTYPE IMBxINB/MBxNB "
               "@RSRC,CSRC +GAP, alpha, beta, max test ratio, failed "
               "checks\n");
    }
    run_data_cases(&cf, counts);
    if (cf.errtests)
        run_errtests(&cf, nprocs, counts);
    if (rank == 0) {
        printf("time %.1f s\n", MPI_Wtime() - t0);
        printf("%d passed, %d failed\n", counts[0], counts[1]);
        fflush(stdout);
    }
    Cblacs_exit(1); /* 1: leave MPI running, we finalize it ourselves */
    MPI_Finalize();
    return counts[1] ? 1 : 0;
}
