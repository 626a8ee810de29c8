/*
 * pgemmtim.c -- times pumma's P?GEMM against ScaLAPACK's P?GEMM in one run.
 *
 *   mpiexec -n 2 ./xpgemmtim [-i PUMMATIM.dat] [-o table.csv] [-q]
 *
 * Both implementations live in the same binary:
 *   - pumma:     the plain symbols psgemm_ pdgemm_ pcgemm_ pzgemm_, resolved at
 *                link time from libpumma.a, which the Makefile puts before
 *                ScaLAPACK on the link line (with PUMMALIB empty they resolve to
 *                ScaLAPACK's, and the run times ScaLAPACK against itself);
 *   - scalapack: dlopen(SCALAPACK_SO) + dlsym(handle, "pdgemm_"). dlsym on a
 *                handle searches that library (then its dependencies), never the
 *                executable, so it yields ScaLAPACK's own definition. The header
 *                of the output prints both addresses and the objects holding them
 *                (dladdr), so a mix-up shows.
 *
 * For every case (precision, grid, M N K, NB, TRANSA TRANSB) each round runs
 *   1. the aggregate local GEMM: every rank at once a serial ?gemm_ of the local
 *      share ceil(M/P) x ceil(N/Q) x K -- the rate the grid would reach if the
 *      distributed multiply cost nothing beyond its local multiplies;
 *   2. the implementations, alternately in the order of the input file,
 *      each on its own copy of C restored from the same C0.
 * Every call is preceded by MPI_Barrier and timed with MPI_Wtime; a call's time
 * is the maximum over the ranks, and the reported time the best over the rounds.
 * Each round, every implementation's C is compared with ScaLAPACK's (computed
 * untimed when ScaLAPACK is not timed): max|C - Cref| / max|Cref| above the
 * tolerance of the precision (1e-10 for D and Z, 1e-3 for S and C) marks the
 * row WRONG and makes the exit status 3.
 *
 * The input file is read by rank 0 and broadcast; see PUMMATIM.dat for its
 * format. Table on stdout (rank 0), the same rows as CSV, progress on stderr.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SCALAPACK_SO
#define SCALAPACK_SO "libscalapack-openmpi.so.2.2"
#endif
#ifndef PUMMALIB_NAME
#define PUMMALIB_NAME "?"
#endif

/* Fortran names, chosen as in pumma (CDEFS: -DAdd_, -DNoChange, -DUpCase). */
#if defined(UpCase)
#define F77(lower, UPPER) UPPER
#define F77STR(lower, UPPER) #UPPER
#elif defined(NoChange)
#define F77(lower, UPPER) lower
#define F77STR(lower, UPPER) #lower
#else
#define F77(lower, UPPER) lower##_
#define F77STR(lower, UPPER) #lower "_"
#endif

/* ScaLAPACK's calling sequence (all by address, no hidden string lengths:
 * PBLAS's entry points are C). Scalars and arrays as void* for all precisions. */
typedef void (*pgemm_fn)(const char *, const char *, const int *, const int *,
                         const int *, const void *, const void *, const int *,
                         const int *, const int *, const void *, const int *,
                         const int *, const int *, const void *, void *,
                         const int *, const int *, const int *);
/* Fortran BLAS ?gemm_ with gfortran's hidden lengths of the two CHARACTER*1. */
typedef void (*gemm_fn)(const char *, const char *, const int *, const int *,
                        const int *, const void *, const void *, const int *,
                        const void *, const int *, const void *, void *,
                        const int *, size_t, size_t);

#define PGEMM_ARGS                                                              \
    const char *, const char *, const int *, const int *, const int *,         \
        const void *, const void *, const int *, const int *, const int *,     \
        const void *, const int *, const int *, const int *, const void *,     \
        void *, const int *, const int *, const int *
#define GEMM_ARGS                                                               \
    const char *, const char *, const int *, const int *, const int *,         \
        const void *, const void *, const int *, const void *, const int *,    \
        const void *, void *, const int *, size_t, size_t

/* pumma's entry points (from libpumma.a when linked before ScaLAPACK). */
extern void F77(psgemm, PSGEMM)(PGEMM_ARGS);
extern void F77(pdgemm, PDGEMM)(PGEMM_ARGS);
extern void F77(pcgemm, PCGEMM)(PGEMM_ARGS);
extern void F77(pzgemm, PZGEMM)(PGEMM_ARGS);
/* The serial BLAS for the local GEMM limit. */
extern void F77(sgemm, SGEMM)(GEMM_ARGS);
extern void F77(dgemm, DGEMM)(GEMM_ARGS);
extern void F77(cgemm, CGEMM)(GEMM_ARGS);
extern void F77(zgemm, ZGEMM)(GEMM_ARGS);

/* Test hook: defined only by TIMING's fake pumma (make selfcheck). */
extern int pumma_fake_calls __attribute__((weak));

/* BLACS, C interface (from ScaLAPACK). */
void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
void Cblacs_exit(int);

enum { PS, PD, PC, PZ, NPREC };
static const char PCHAR[] = "SDCZ";
static const char *PNAME[NPREC] = {F77STR(psgemm, PSGEMM), F77STR(pdgemm, PDGEMM),
                                   F77STR(pcgemm, PCGEMM), F77STR(pzgemm, PZGEMM)};
static const char *SCAL_SYM[NPREC][3] = {{"psgemm_", "psgemm", "PSGEMM"},
                                         {"pdgemm_", "pdgemm", "PDGEMM"},
                                         {"pcgemm_", "pcgemm", "PCGEMM"},
                                         {"pzgemm_", "pzgemm", "PZGEMM"}};
static int is_cplx(int p) { return p == PC || p == PZ; }
static int is_dbl(int p) { return p == PD || p == PZ; }
static size_t esize(int p) { return (size_t)(is_dbl(p) ? 8 : 4) * (is_cplx(p) ? 2 : 1); }
static double tolerance(int p) { return is_dbl(p) ? 1e-10 : 1e-3; }

enum { IMPL_PUMMA, IMPL_SCALAPACK, NIMPL };
static const char *INAME[NIMPL] = {"pumma", "scalapack"};

/* ------------------------------------------------------------------------ */
/* Input file                                                                */
/* ------------------------------------------------------------------------ */

#define MAXL 64
typedef struct {
    int ok;
    char csv[512];
    int reps;
    int nprec, prec[NPREC];
    int ngrid, P[MAXL], Q[MAXL];
    int nsize, M[MAXL], N[MAXL], K[MAXL];
    int nnb, NB[MAXL];
    int ntr;
    char TA[MAXL], TB[MAXL];
    int nimpl, impl[NIMPL];
} config_t;

typedef struct {
    FILE *f;
    const char *name;
    int lineno;
    char raw[2048];
    char buf[2048];
    char *tok[MAXL + 8];
    int ntok;
} reader_t;

static int rd_error(reader_t *r, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "xpgemmtim: %s:%d: ", r->name, r->lineno);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n    the line: %s\n", r->raw);
    return -1;
}

/* Next line that is neither blank nor a '#' comment, split into tokens. */
static int rd_next(reader_t *r, const char *what)
{
    for (;;) {
        if (!fgets(r->raw, sizeof r->raw, r->f)) {
            fprintf(stderr, "xpgemmtim: %s: the file ends before the line "
                            "\"%s\" (line %d was the last)\n",
                    r->name, what, r->lineno);
            return -1;
        }
        r->lineno++;
        size_t len = strlen(r->raw);
        if (len == sizeof r->raw - 1 && r->raw[len - 1] != '\n')
            return rd_error(r, "line longer than %zu characters", sizeof r->raw - 2);
        while (len && (r->raw[len - 1] == '\n' || r->raw[len - 1] == '\r'))
            r->raw[--len] = 0;
        const char *s = r->raw;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == 0 || *s == '#')
            continue;
        strcpy(r->buf, r->raw);
        r->ntok = 0;
        for (char *t = strtok(r->buf, " \t"); t && r->ntok < MAXL + 8;
             t = strtok(NULL, " \t"))
            r->tok[r->ntok++] = t;
        return 0;
    }
}

static int parse_int(const char *s, int *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end || x < -2147483647L || x > 2147483647L)
        return -1;
    *v = (int)x;
    return 0;
}

/* A line whose first token is an integer in [lo, hi]. */
static int rd_int(reader_t *r, const char *what, int lo, int hi, int *v)
{
    if (rd_next(r, what))
        return -1;
    if (parse_int(r->tok[0], v) || *v < lo || *v > hi)
        return rd_error(r, "expected %s (an integer from %d to %d) first, found '%s'",
                        what, lo, hi, r->tok[0]);
    return 0;
}

/* A line of n values; the tokens after them are free text. */
static int rd_list(reader_t *r, const char *what, int n)
{
    if (rd_next(r, what))
        return -1;
    if (r->ntok < n)
        return rd_error(r, "expected %d value%s (%s), found %d", n, n > 1 ? "s" : "",
                        what, r->ntok);
    return 0;
}

static int read_config(const char *fname, config_t *c)
{
    reader_t r = {0};
    r.name = fname;
    r.f = fopen(fname, "r");
    if (!r.f) {
        fprintf(stderr, "xpgemmtim: cannot open the input file %s: %s\n", fname,
                strerror(errno));
        return -1;
    }
    int rc = -1, n;

    /* CSV file */
    if (rd_list(&r, "CSV output file", 1))
        goto out;
    if (strlen(r.tok[0]) >= sizeof c->csv) {
        rd_error(&r, "file name too long");
        goto out;
    }
    strcpy(c->csv, r.tok[0]);

    /* repeats */
    if (rd_int(&r, "number of repeats", 1, 1000000, &c->reps))
        goto out;

    /* precisions: one token of letters S D C Z */
    if (rd_list(&r, "precisions (letters S D C Z, e.g. D or SDCZ)", 1))
        goto out;
    c->nprec = 0;
    for (const char *s = r.tok[0]; *s; s++) {
        const char *q = strchr(PCHAR, toupper((unsigned char)*s));
        if (!q || !*s) {
            rd_error(&r, "precision '%c' in '%s' is not one of S D C Z", *s, r.tok[0]);
            goto out;
        }
        for (int i = 0; i < c->nprec; i++)
            if (c->prec[i] == q - PCHAR) {
                rd_error(&r, "precision '%c' listed twice", *s);
                goto out;
            }
        c->prec[c->nprec++] = (int)(q - PCHAR);
    }

    /* grids */
    if (rd_int(&r, "number of process grids", 1, MAXL, &c->ngrid) ||
        rd_list(&r, "process grids PxQ", c->ngrid))
        goto out;
    for (int i = 0; i < c->ngrid; i++) {
        int p, q, used = 0;
        if (sscanf(r.tok[i], "%d%*[xX]%d%n", &p, &q, &used) != 2 ||
            used != (int)strlen(r.tok[i]) || p < 1 || q < 1) {
            rd_error(&r, "grid %d: expected PxQ (e.g. 2x1), found '%s'", i + 1, r.tok[i]);
            goto out;
        }
        c->P[i] = p;
        c->Q[i] = q;
    }

    /* problem sizes: M (M=N=K) or MxNxK */
    if (rd_int(&r, "number of problem sizes", 1, MAXL, &c->nsize) ||
        rd_list(&r, "problem sizes M (M=N=K) or MxNxK", c->nsize))
        goto out;
    for (int i = 0; i < c->nsize; i++) {
        int m, nn, k, used = 0;
        const char *t = r.tok[i];
        if (sscanf(t, "%d%*[xX]%d%*[xX]%d%n", &m, &nn, &k, &used) == 3 &&
            used == (int)strlen(t)) {
        } else if (parse_int(t, &m) == 0) {
            nn = k = m;
        } else {
            rd_error(&r, "size %d: expected M or MxNxK, found '%s'", i + 1, t);
            goto out;
        }
        if (m < 1 || nn < 1 || k < 1) {
            rd_error(&r, "size %d: M, N and K must be >= 1 ('%s')", i + 1, t);
            goto out;
        }
        c->M[i] = m;
        c->N[i] = nn;
        c->K[i] = k;
    }

    /* block sizes */
    if (rd_int(&r, "number of block sizes", 1, MAXL, &c->nnb) ||
        rd_list(&r, "block sizes NB", c->nnb))
        goto out;
    for (int i = 0; i < c->nnb; i++)
        if (parse_int(r.tok[i], &c->NB[i]) || c->NB[i] < 1) {
            rd_error(&r, "block size %d: expected an integer >= 1, found '%s'", i + 1,
                     r.tok[i]);
            goto out;
        }

    /* TRANSA TRANSB pairs */
    if (rd_int(&r, "number of TRANSA/TRANSB pairs", 1, MAXL, &c->ntr) ||
        rd_list(&r, "TRANSA/TRANSB pairs (NN NT TN TT ...)", c->ntr))
        goto out;
    for (int i = 0; i < c->ntr; i++) {
        const char *t = r.tok[i];
        char a = (char)toupper((unsigned char)t[0]);
        char b = a ? (char)toupper((unsigned char)t[1]) : 0;
        if (strlen(t) != 2 || !strchr("NTC", a) || !strchr("NTC", b)) {
            rd_error(&r, "pair %d: expected two letters of N T C (e.g. NT), found '%s'",
                     i + 1, t);
            goto out;
        }
        c->TA[i] = a;
        c->TB[i] = b;
    }

    /* implementations */
    if (rd_int(&r, "number of implementations", 1, NIMPL, &c->nimpl) ||
        rd_list(&r, "implementations (pumma scalapack)", c->nimpl))
        goto out;
    for (int i = 0; i < c->nimpl; i++) {
        int found = -1;
        for (int j = 0; j < NIMPL; j++)
            if (strcasecmp(r.tok[i], INAME[j]) == 0)
                found = j;
        if (found < 0) {
            rd_error(&r, "implementation %d: expected pumma or scalapack, found '%s'",
                     i + 1, r.tok[i]);
            goto out;
        }
        for (int j = 0; j < i; j++)
            if (c->impl[j] == found) {
                rd_error(&r, "implementation '%s' listed twice", r.tok[i]);
                goto out;
            }
        c->impl[i] = found;
    }

    /* nothing may follow */
    n = r.lineno;
    {
        char line[2048];
        while (fgets(line, sizeof line, r.f)) {
            n++;
            const char *s = line;
            while (isspace((unsigned char)*s))
                s++;
            if (*s && *s != '#') {
                r.lineno = n;
                line[strcspn(line, "\r\n")] = 0;
                strcpy(r.raw, line);
                rd_error(&r, "unexpected line after the implementations line (the "
                             "last line the file may have)");
                goto out;
            }
        }
    }
    rc = 0;
out:
    fclose(r.f);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Matrices                                                                   */
/* ------------------------------------------------------------------------ */

static int numroc(int n, int nb, int iproc, int nprocs)
{
    int nblocks = n / nb, r = (nblocks / nprocs) * nb, extra = nblocks % nprocs;
    if (iproc < extra)
        r += nb;
    else if (iproc == extra)
        r += n % nb;
    return r;
}

static void descinit(int *d, int m, int n, int nb, int ctxt, int lld)
{
    d[0] = 1;  d[1] = ctxt; d[2] = m;  d[3] = n;   d[4] = nb;
    d[5] = nb; d[6] = 0;    d[7] = 0;  d[8] = lld;
}

/* Uniform in [-0.5, 0.5) from (seed, i, j): the matrices do not depend on the
 * grid or block size, so every case multiplies the same global matrices. */
static inline double hrand(uint64_t seed, uint64_t i, uint64_t j)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + i * 0xD1B54A32D192ED03ull +
                 j * 0xABC98388FB8FAC03ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

/* Fills the local part (mloc x nloc, leading dimension ld) of a block-cyclic
 * matrix; nb = 0 means a plain local matrix (global index = local index). */
static void fill(int p, void *x, int mloc, int nloc, int ld, int nb, int myrow,
                 int nprow, int mycol, int npcol, uint64_t seed)
{
    int cp = is_cplx(p) ? 2 : 1;
    for (int jl = 0; jl < nloc; jl++) {
        uint64_t jg = nb ? (uint64_t)((jl / nb) * npcol + mycol) * nb + jl % nb : (uint64_t)jl;
        for (int il = 0; il < mloc; il++) {
            uint64_t ig = nb ? (uint64_t)((il / nb) * nprow + myrow) * nb + il % nb : (uint64_t)il;
            size_t at = ((size_t)jl * ld + il) * cp;
            for (int c = 0; c < cp; c++) {
                double v = hrand(seed, 2 * ig + c, jg);
                if (is_dbl(p))
                    ((double *)x)[at + c] = v;
                else
                    ((float *)x)[at + c] = (float)v;
            }
        }
    }
}

/* max |x - y| and max |y| (componentwise) over the local mloc x nloc part. */
static void maxdiff(int p, const void *x, const void *y, int mloc, int nloc, int ld,
                    double *dmax, double *ymax)
{
    int cp = is_cplx(p) ? 2 : 1;
    double d = 0, m = 0;
    for (int j = 0; j < nloc; j++)
        for (size_t i = (size_t)j * ld * cp; i < ((size_t)j * ld + mloc) * cp; i++) {
            double a = is_dbl(p) ? ((const double *)x)[i] : ((const float *)x)[i];
            double b = is_dbl(p) ? ((const double *)y)[i] : ((const float *)y)[i];
            double e = fabs(a - b);
            if (e > d || e != e)
                d = e != e ? INFINITY : e;
            if (fabs(b) > m || b != b)
                m = b != b ? INFINITY : fabs(b);
        }
    *dmax = d;
    *ymax = m;
}

static void *xalloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64))
        return NULL;
    return p;
}

/* ------------------------------------------------------------------------ */
/* Implementations and BLAS: where they come from                            */
/* ------------------------------------------------------------------------ */

static pgemm_fn pumma_fn[NPREC], scal_fn[NPREC];
static gemm_fn gemm_blas[NPREC];

static const char *where(const void *f, char *buf, size_t len)
{
    Dl_info info;
    if (f && dladdr(f, &info) && info.dli_fname)
        snprintf(buf, len, "%p in %s", f, info.dli_fname[0] ? info.dli_fname : "(main program)");
    else
        snprintf(buf, len, "%p in (unknown object)", f);
    return buf;
}

/* Describes the object holding dgemm_ and, if it is OpenBLAS (or depends on
 * it), its configuration and thread count. Returns that thread count or -1. */
static int blas_info(char *buf, size_t len)
{
    Dl_info info;
    void *f = (void *)F77(dgemm, DGEMM);
    if (!dladdr(f, &info) || !info.dli_fname) {
        snprintf(buf, len, "(unknown object)");
        return -1;
    }
    char real[1024];
    const char *rp = realpath(info.dli_fname, real) ? real : info.dli_fname;
    int threads = -1;
    void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    const char *(*cfg)(void) = NULL;
    int (*nth)(void) = NULL;
    if (h) {
        cfg = (const char *(*)(void))dlsym(h, "openblas_get_config");
        nth = (int (*)(void))dlsym(h, "openblas_get_num_threads");
    }
    if (cfg && nth) {
        threads = nth();
        snprintf(buf, len, "%s [-> %s] is OpenBLAS (%s), %d thread%s", info.dli_fname,
                 rp, cfg(), threads, threads == 1 ? "" : "s");
    } else {
        snprintf(buf, len, "%s [-> %s], not OpenBLAS", info.dli_fname, rp);
    }
    if (h)
        dlclose(h);
    return threads;
}

/* The 1-minute load average and the number of online CPUs: a loaded machine
 * makes every timing noisy, so the run says so at its start and end. */
static void print_load(const char *when)
{
    double l1 = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l1) != 1)
            l1 = -1;
        fclose(f);
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (l1 < 0)
        return;
    printf("load average %s: %.2f on %ld CPUs%s\n", when, l1, ncpu,
           l1 > ncpu + 0.5 ? "  WARNING: loaded machine, timings are noisy" : "");
}

/* ------------------------------------------------------------------------ */
/* Output                                                                     */
/* ------------------------------------------------------------------------ */

static FILE *csv;
static int quiet;

typedef struct {
    int prec, P, Q, M, N, K, NB;
    char ta, tb;
} case_t;

static void row(const case_t *c, const char *impl, double t, double tmed, double gf,
                double frac, double ratio, double diff, const char *status)
{
    char sratio[32] = "-", sdiff[32] = "-";
    if (ratio >= 0)
        snprintf(sratio, sizeof sratio, "%.3f", ratio);
    if (diff >= 0)
        snprintf(sdiff, sizeof sdiff, "%.2e", diff);
    printf("%c  %3dx%-3d %6d %6d %6d %4d  %c%c  %-9s %10.4f %9.2f %7.3f %8s %10s  %s\n",
           PCHAR[c->prec], c->P, c->Q, c->M, c->N, c->K, c->NB, c->ta, c->tb, impl, t,
           gf, frac, sratio, sdiff, status);
    if (csv) {
        fprintf(csv, "%c,%d,%d,%d,%d,%d,%d,%c,%c,%s,%.6e,%.6e,%.4f,%.4f,%s,%s,%s\n",
                PCHAR[c->prec], c->P, c->Q, c->M, c->N, c->K, c->NB, c->ta, c->tb, impl,
                t, tmed, gf, frac, ratio >= 0 ? sratio : "", diff >= 0 ? sdiff : "",
                status);
        fflush(csv);
    }
}

/* ------------------------------------------------------------------------ */
/* One case                                                                   */
/* ------------------------------------------------------------------------ */

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorted in place); -1 without values. */
static double median(double *v, int n)
{
    if (!v || n < 1)
        return -1;
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static long long ncalls[NPREC][NIMPL]; /* timed calls made by this rank */

/* Returns 1 if some implementation was WRONG, 0 otherwise, -1 if skipped. */
static int run_case(const config_t *cfg, const case_t *c, MPI_Comm comm, int ctxt,
                    int myrow, int mycol)
{
    const int p = c->prec, P = c->P, Q = c->Q, M = c->M, N = c->N, K = c->K, nb = c->NB;
    const size_t es = esize(p);
    const int one = 1;
    int rank;
    MPI_Comm_rank(comm, &rank);

    /* Distributed operands: op(A) is M x K, op(B) is K x N. */
    int am = c->ta == 'N' ? M : K, an = c->ta == 'N' ? K : M;
    int bm = c->tb == 'N' ? K : N, bn = c->tb == 'N' ? N : K;
    int aml = numroc(am, nb, myrow, P), anl = numroc(an, nb, mycol, Q);
    int bml = numroc(bm, nb, myrow, P), bnl = numroc(bn, nb, mycol, Q);
    int cml = numroc(M, nb, myrow, P), cnl = numroc(N, nb, mycol, Q);
    int lda = aml > 1 ? aml : 1, ldb = bml > 1 ? bml : 1, ldc = cml > 1 ? cml : 1;
    int desca[9], descb[9], descc[9];
    descinit(desca, am, an, nb, ctxt, lda);
    descinit(descb, bm, bn, nb, ctxt, ldb);
    descinit(descc, M, N, nb, ctxt, ldc);

    /* The local GEMM limit: ceil(M/P) x ceil(N/Q) x K on every rank. */
    int lm = (M + P - 1) / P, ln = (N + Q - 1) / Q;
    int lam = c->ta == 'N' ? lm : K, lan = c->ta == 'N' ? K : lm;
    int lbm = c->tb == 'N' ? K : ln, lbn = c->tb == 'N' ? ln : K;
    int llda = lam > 1 ? lam : 1, lldb = lbm > 1 ? lbm : 1, lldc = lm > 1 ? lm : 1;

    int nimpl = cfg->nimpl, need_ref = 1;
    for (int i = 0; i < nimpl; i++)
        if (cfg->impl[i] == IMPL_SCALAPACK)
            need_ref = 0;

    size_t sza = (size_t)lda * (anl > 0 ? anl : 1) * es;
    size_t szb = (size_t)ldb * (bnl > 0 ? bnl : 1) * es;
    size_t szc = (size_t)ldc * (cnl > 0 ? cnl : 1) * es;
    void *A = xalloc(sza), *B = xalloc(szb), *C0 = xalloc(szc);
    void *Ci[NIMPL] = {0}, *Cref = NULL;
    void *LA = xalloc((size_t)llda * lan * es), *LB = xalloc((size_t)lldb * lbn * es);
    void *LC = xalloc((size_t)lldc * ln * es);
    int ok = A && B && C0 && LA && LB && LC;
    for (int i = 0; i < nimpl; i++)
        ok = ok && (Ci[i] = xalloc(szc)) != NULL;
    if (need_ref)
        ok = ok && (Cref = xalloc(szc)) != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
    int result = 0;
    if (!ok) {
        if (rank == 0) {
            fprintf(stderr, "xpgemmtim: out of memory: case skipped\n");
            printf("# %c %dx%d %d %d %d NB=%d %c%c: skipped, out of memory\n", PCHAR[p],
                   P, Q, M, N, K, nb, c->ta, c->tb);
        }
        result = -1;
        goto done;
    }

    fill(p, A, aml, anl, lda, nb, myrow, P, mycol, Q, 11);
    fill(p, B, bml, bnl, ldb, nb, myrow, P, mycol, Q, 22);
    fill(p, C0, cml, cnl, ldc, nb, myrow, P, mycol, Q, 33);
    fill(p, LA, lam, lan, llda, 0, 0, 1, 0, 1, 44 + rank);
    fill(p, LB, lbm, lbn, lldb, 0, 0, 1, 0, 1, 55 + rank);
    fill(p, LC, lm, ln, lldc, 0, 0, 1, 0, 1, 66 + rank);

    double dalpha[2] = {1.0, 0.0}, dbeta[2] = {1.0, 0.0};
    float salpha[2] = {1.0f, 0.0f}, sbeta[2] = {1.0f, 0.0f};
    const void *alpha = is_dbl(p) ? (const void *)dalpha : (const void *)salpha;
    const void *beta = is_dbl(p) ? (const void *)dbeta : (const void *)sbeta;
    char ta[2] = {c->ta, 0}, tb[2] = {c->tb, 0};
    pgemm_fn fn[NIMPL];
    fn[IMPL_PUMMA] = pumma_fn[p];
    fn[IMPL_SCALAPACK] = scal_fn[p];

    if (need_ref) { /* untimed reference */
        memcpy(Cref, C0, szc);
        scal_fn[p](ta, tb, &M, &N, &K, alpha, A, &one, &one, desca, B, &one, &one, descb,
                   beta, Cref, &one, &one, descc);
    }

    double best_loc = INFINITY, best[NIMPL], worst_diff[NIMPL];
    for (int i = 0; i < NIMPL; i++)
        best[i] = INFINITY, worst_diff[i] = 0;
    /* all times, for the median: [0] localgemm, [1 + im] implementation im */
    double *times = malloc(sizeof(double) * (NIMPL + 1) * cfg->reps);

    for (int r = 0; r < cfg->reps; r++) {
        double t;
        /* aggregate local GEMM */
        MPI_Barrier(comm);
        t = MPI_Wtime();
        gemm_blas[p](ta, tb, &lm, &ln, &K, alpha, LA, &llda, LB, &lldb, beta, LC, &lldc,
                     1, 1);
        t = MPI_Wtime() - t;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
        if (t < best_loc)
            best_loc = t;
        if (times)
            times[r] = t;

        /* implementations, alternately */
        for (int i = 0; i < nimpl; i++) {
            int im = cfg->impl[i];
            memcpy(Ci[i], C0, szc);
            MPI_Barrier(comm);
            t = MPI_Wtime();
            fn[im](ta, tb, &M, &N, &K, alpha, A, &one, &one, desca, B, &one, &one, descb,
                   beta, Ci[i], &one, &one, descc);
            t = MPI_Wtime() - t;
            MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
            if (t < best[im])
                best[im] = t;
            if (times)
                times[(size_t)(1 + im) * cfg->reps + r] = t;
            ncalls[p][im]++;
        }

        /* every implementation against ScaLAPACK's result of this round */
        const void *ref = Cref;
        for (int i = 0; i < nimpl; i++)
            if (cfg->impl[i] == IMPL_SCALAPACK)
                ref = Ci[i];
        for (int i = 0; i < nimpl; i++) {
            int im = cfg->impl[i];
            if (im == IMPL_SCALAPACK)
                continue;
            double dm[2];
            maxdiff(p, Ci[i], ref, cml, cnl, ldc, &dm[0], &dm[1]);
            MPI_Allreduce(MPI_IN_PLACE, dm, 2, MPI_DOUBLE, MPI_MAX, comm);
            double rel = dm[1] > 0 ? dm[0] / dm[1] : dm[0];
            if (rel != rel)
                rel = INFINITY;
            if (rel > worst_diff[im])
                worst_diff[im] = rel;
        }
    }

    if (rank == 0) {
        double flops = (is_cplx(p) ? 8.0 : 2.0) * M * N * K;
        double gloc = flops / best_loc / 1e9;
        row(c, "localgemm", best_loc, median(times, cfg->reps), gloc, 1.0, -1, -1, "-");
        double gscal = best[IMPL_SCALAPACK] < INFINITY ? flops / best[IMPL_SCALAPACK] / 1e9
                                                       : -1;
        for (int i = 0; i < nimpl; i++) {
            int im = cfg->impl[i];
            double gf = flops / best[im] / 1e9;
            double tmed = times ? median(times + (size_t)(1 + im) * cfg->reps, cfg->reps) : -1;
            if (im == IMPL_SCALAPACK) {
                row(c, INAME[im], best[im], tmed, gf, gf / gloc, 1.0, -1, "ref");
            } else {
                int wrong = !(worst_diff[im] <= tolerance(p));
                result |= wrong;
                row(c, INAME[im], best[im], tmed, gf, gf / gloc, gscal > 0 ? gf / gscal : -1,
                    worst_diff[im], wrong ? "WRONG" : "ok");
            }
        }
        fflush(stdout);
    }
    MPI_Bcast(&result, 1, MPI_INT, 0, comm);

    free(times);
done:
    free(A), free(B), free(C0), free(LA), free(LB), free(LC), free(Cref);
    for (int i = 0; i < NIMPL; i++)
        free(Ci[i]);
    return result;
}

/* ------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
            "usage: mpiexec -n NP xpgemmtim [-i FILE.dat] [-o FILE.csv] [-r N] [-q]\n"
            "  -i FILE   input file (default PUMMATIM.dat)\n"
            "  -o FILE   CSV output, overrides the file named in the input ('-': none)\n"
            "  -r N      N repeats, overrides the number in the input\n"
            "  -q        no progress lines on stderr\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    const char *dat = "PUMMATIM.dat", *csvname = NULL;
    int opt, badopt = 0;
    int reps_opt = 0;
    while ((opt = getopt(argc, argv, "i:o:r:qh")) != -1) {
        switch (opt) {
        case 'r':
            if (parse_int(optarg, &reps_opt) || reps_opt < 1)
                badopt = 1;
            break;
        case 'i': dat = optarg; break;
        case 'o': csvname = optarg; break;
        case 'q': quiet = 1; break;
        default: badopt = 1;
        }
    }
    if (badopt || optind != argc) {
        if (wrank == 0)
            usage();
        MPI_Finalize();
        return 1;
    }

    config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    if (wrank == 0) {
        cfg.ok = read_config(dat, &cfg) == 0;
        if (cfg.ok && reps_opt)
            cfg.reps = reps_opt;
        if (cfg.ok && csvname) {
            if (strlen(csvname) >= sizeof cfg.csv) {
                fprintf(stderr, "xpgemmtim: -o file name too long\n");
                cfg.ok = 0;
            } else
                strcpy(cfg.csv, csvname);
        }
        if (cfg.ok && strcmp(cfg.csv, "-") != 0) {
            csv = fopen(cfg.csv, "w");
            if (!csv) {
                fprintf(stderr, "xpgemmtim: cannot write the CSV file %s: %s\n", cfg.csv,
                        strerror(errno));
                cfg.ok = 0;
            }
        }
    }
    MPI_Bcast(&cfg, sizeof cfg, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (!cfg.ok) {
        MPI_Finalize();
        return 1;
    }

    /* The two implementations. */
    int bad = 0;
    void *hs = dlopen(SCALAPACK_SO, RTLD_NOW | RTLD_LOCAL);
    if (!hs) {
        if (wrank == 0)
            fprintf(stderr, "xpgemmtim: dlopen(%s): %s\n", SCALAPACK_SO, dlerror());
        bad = 1;
    }
    pumma_fn[PS] = F77(psgemm, PSGEMM);
    pumma_fn[PD] = F77(pdgemm, PDGEMM);
    pumma_fn[PC] = F77(pcgemm, PCGEMM);
    pumma_fn[PZ] = F77(pzgemm, PZGEMM);
    gemm_blas[PS] = F77(sgemm, SGEMM);
    gemm_blas[PD] = F77(dgemm, DGEMM);
    gemm_blas[PC] = F77(cgemm, CGEMM);
    gemm_blas[PZ] = F77(zgemm, ZGEMM);
    for (int p = 0; p < NPREC && hs; p++) {
        for (int k = 0; k < 3 && !scal_fn[p]; k++)
            scal_fn[p] = (pgemm_fn)dlsym(hs, SCAL_SYM[p][k]);
        if (!scal_fn[p]) {
            if (wrank == 0)
                fprintf(stderr, "xpgemmtim: %s has no %s\n", SCALAPACK_SO, SCAL_SYM[p][0]);
            bad = 1;
        }
    }
    if (bad) {
        MPI_Finalize();
        return 1;
    }

    /* Header: where everything comes from. */
    char blas[1536], w1[1024], w2[1024];
    int nth = blas_info(blas, sizeof blas), nthmin = nth, nthmax = nth;
    MPI_Allreduce(MPI_IN_PLACE, &nthmin, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &nthmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    /* Each rank's host and CPUs, to see the binding. */
    char me[128], *all = NULL;
    {
        char host[64] = "?", cpus[48] = "";
        gethostname(host, sizeof host);
        host[sizeof host - 1] = 0;
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) == 0) {
            int n = 0, len = 0;
            for (int i = 0; i < CPU_SETSIZE && len < (int)sizeof cpus - 8; i++)
                if (CPU_ISSET(i, &set))
                    len += snprintf(cpus + len, sizeof cpus - len, "%s%d", n++ ? "," : "", i);
        }
        snprintf(me, sizeof me, "%s cpus %s", host, cpus);
        if (wrank == 0)
            all = malloc((size_t)wsize * sizeof me);
        MPI_Gather(me, sizeof me, MPI_CHAR, all, sizeof me, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    if (wrank == 0) {
        printf("xpgemmtim: pumma P?GEMM against ScaLAPACK P?GEMM\n");
        printf("input %s, CSV %s, %d MPI rank%s, best of %d repeat%s, alpha = 1, beta = 1\n",
               dat, strcmp(cfg.csv, "-") ? cfg.csv : "(none)", wsize, wsize > 1 ? "s" : "",
               cfg.reps, cfg.reps > 1 ? "s" : "");
        for (int r = 0; r < wsize; r++)
            printf("rank %d: %s\n", r, all + (size_t)r * sizeof me);
        printf("BLAS (%s): %s\n", F77STR(dgemm, DGEMM), blas);
        if (nthmin != nthmax)
            printf("WARNING: BLAS threads differ between ranks (%d to %d)\n", nthmin, nthmax);
        print_load("at start (rank 0's host)");
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "PUMMA_", 6) == 0 || strncmp(*e, "OPENBLAS_", 9) == 0 ||
                strncmp(*e, "OMP_NUM_THREADS", 15) == 0)
                printf("env %s\n", *e);
        printf("pumma     = linked symbols (PUMMALIB=%s)\n", PUMMALIB_NAME);
        printf("scalapack = dlsym(dlopen(\"%s\"))\n", SCALAPACK_SO);
        for (int i = 0; i < cfg.nprec; i++) {
            int p = cfg.prec[i];
            printf("%s: pumma %s\n", PNAME[p], where((void *)pumma_fn[p], w1, sizeof w1));
            printf("%*s  scalapack %s\n", (int)strlen(PNAME[p]), "",
                   where((void *)scal_fn[p], w2, sizeof w2));
            if (pumma_fn[p] == scal_fn[p])
                printf("NOTE: %s: pumma's symbol IS ScaLAPACK's (PUMMALIB empty, or libpumma "
                       "lacks it): ScaLAPACK is timed against itself\n",
                       PNAME[p]);
        }
        printf("localgemm = every rank at once a serial ?gemm_ of ceil(M/P) x ceil(N/Q) x K; "
               "frac = GFLOP/s / localgemm GFLOP/s\n");
        printf("diff = max|C - C_scalapack| / max|C_scalapack| over all repeats; "
               "WRONG above %.0e (S,C) / %.0e (D,Z)\n\n",
               tolerance(PS), tolerance(PD));
        printf("%-1s  %-7s %6s %6s %6s %4s  %-2s  %-9s %10s %9s %7s %8s %10s  %s\n", "p",
               " grid", "M", "N", "K", "NB", "op", "impl", "time(s)", "GFLOP/s", "frac",
               "ratio", "diff", "check");
        fflush(stdout);
        if (csv) {
            fprintf(csv, "prec,P,Q,M,N,K,NB,transa,transb,impl,seconds,median_seconds,gflops,"
                         "frac_localgemm,ratio_pumma_scalapack,maxreldiff,check\n");
            fflush(csv);
        }
        free(all);
    }

    int ncases = cfg.nprec * cfg.ngrid * cfg.nsize * cfg.nnb * cfg.ntr, icase = 0;
    int nwrong = 0;
    double t0 = MPI_Wtime();
    for (int ip = 0; ip < cfg.nprec; ip++)
        for (int ig = 0; ig < cfg.ngrid; ig++) {
            int P = cfg.P[ig], Q = cfg.Q[ig];
            if (P * Q > wsize) {
                if (wrank == 0) {
                    fprintf(stderr, "xpgemmtim: grid %dx%d needs %d ranks, have %d: skipped\n",
                            P, Q, P * Q, wsize);
                    printf("# grid %dx%d skipped: needs %d ranks, have %d\n", P, Q, P * Q,
                           wsize);
                }
                icase += cfg.nsize * cfg.nnb * cfg.ntr;
                continue;
            }
            int ctxt, nprow, npcol, myrow, mycol;
            Cblacs_get(-1, 0, &ctxt);
            Cblacs_gridinit(&ctxt, "Row", P, Q);
            Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
            int in = myrow >= 0 && myrow < P && mycol >= 0 && mycol < Q;
            MPI_Comm comm;
            MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, wrank, &comm);
            for (int is = 0; is < cfg.nsize; is++)
                for (int ib = 0; ib < cfg.nnb; ib++)
                    for (int it = 0; it < cfg.ntr; it++) {
                        case_t c = {cfg.prec[ip], P, Q, cfg.M[is], cfg.N[is], cfg.K[is],
                                    cfg.NB[ib], cfg.TA[it], cfg.TB[it]};
                        icase++;
                        if (wrank == 0 && !quiet) {
                            fprintf(stderr, "[%d/%d %6.1fs] %c %dx%d M=%d N=%d K=%d NB=%d %c%c\n",
                                    icase, ncases, MPI_Wtime() - t0, PCHAR[c.prec], P, Q,
                                    c.M, c.N, c.K, c.NB, c.ta, c.tb);
                        }
                        if (in && run_case(&cfg, &c, comm, ctxt, myrow, mycol) > 0)
                            nwrong++;
                    }
            if (in) {
                MPI_Comm_free(&comm);
                Cblacs_gridexit(ctxt);
            }
        }

    long long calls[NIMPL] = {0};
    for (int p = 0; p < NPREC; p++)
        for (int i = 0; i < NIMPL; i++)
            calls[i] += ncalls[p][i];
    MPI_Allreduce(MPI_IN_PLACE, &nwrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (wrank == 0) {
        double el = MPI_Wtime() - t0;
        printf("\n%d case%s in %.1f s; timed calls on rank 0: pumma %lld, scalapack %lld\n",
               ncases, ncases == 1 ? "" : "s", el, calls[IMPL_PUMMA], calls[IMPL_SCALAPACK]);
        print_load("at end");
        if (!quiet)
            fprintf(stderr, "[done %.1fs]\n", el);
    }
    if (&pumma_fake_calls) { /* make selfcheck */
        int mine = pumma_fake_calls, ok = mine == ncalls[PD][IMPL_PUMMA], allok;
        MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (wrank == 0)
            printf("fake-check: fake pdgemm_ called %d times, driver timed %lld pumma pdgemm_ "
                   "calls (rank 0; all ranks compared): %s\n",
                   mine, ncalls[PD][IMPL_PUMMA], allok ? "OK" : "MISMATCH");
        if (!allok)
            nwrong++;
    }
    if (wrank == 0) {
        if (nwrong)
            printf("%d case%s WRONG\n", nwrong, nwrong == 1 ? "" : "s");
        if (csv)
            fclose(csv);
        fflush(stdout);
    }
    Cblacs_exit(1);
    MPI_Finalize();
    return nwrong ? 3 : 0;
}
