/*
 * pgemmtim.c -- times pumma's P?GEMM against ScaLAPACK's P?GEMM in one run.
 *
 *   mpiexec -n 2 ./xpgemmtim [-i PUMMATIM.dat] [-o table.csv] [-r N] [-s BASE] [-q]
 *
 * The implementations (the last line of the input file) live in one binary:
 *   - pumma:     the plain symbols psgemm_ pdgemm_ pcgemm_ pzgemm_, resolved at
 *                link time from libpumma.a, which the Makefile puts before
 *                ScaLAPACK on the link line (with PUMMALIB empty they resolve to
 *                ScaLAPACK's, and the run times ScaLAPACK against itself);
 *                pumma's own choice of algorithm and variants (or PUMMA_ALGO &
 *                co. from the environment);
 *   - pumma:KEY=VALUE,...  pumma_p?gemm_opts with those fields of
 *                pumma_options_t set (KEY: algo bcast reduce shift segment;
 *                the names come from pumma_codes.h's lists, so a variant added
 *                there is known here after a rebuild). VALUE '*' stands for
 *                every listed code of that kind but auto, one implementation
 *                each (several '*': every combination). INFO != 0 stops the run;
 *   - scalapack: dlopen(SCALAPACK_SO) + dlsym(handle, "pdgemm_"). dlsym on a
 *                handle searches that library (then its dependencies), never the
 *                executable, so it yields ScaLAPACK's own definition. The header
 *                of the output prints the addresses and the objects holding them
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
 * Memory: before each pumma call pumma_mem_peak(1) is reset, after it the peak
 * of pumma's temporaries is read; the row shows the largest over the ranks of
 * peak / (that rank's local A + B + C bytes), the worst round.
 *
 * auto against forced choices: when the input times pumma's plain call (its
 * own choice, `pumma`) and forced variants (`pumma:...`), the rivals are the
 * forced rows that ran something else than auto (pumma_last_plan differs: a
 * row that forces what auto chose anyway, or a variant the algorithm does not
 * use, is auto again). When after the rounds the fastest rival is more than
 * CONTEST (5%) faster than auto, the two are timed CONFIRM (6) more rounds,
 * alternately -- more for short calls, as many as take auto 0.2 s, up to
 * 200 -- before they are reported; the final table then says per case
 * whether auto's choice is measurably worse than the fastest rival (WORSE:
 * more than 5% slower in the confirmation rounds, each one's best there --
 * the rival's best of the first rounds is the least of many noisy bests,
 * biased low, so it does not count) or not (ok). 5% is this 2-core machine's noise
 * floor: in one run four rows that ran auto's very plan ended 3.9 to 5.5%
 * behind it after the confirmation rounds; a smaller gap does not tell two
 * plans apart.
 *
 * With a targets line in the input (BENCH.dat), or with -s BASE, a final table
 * lists every pumma implementation per case with the targets' verdict (ok or
 * BELOW); -s also writes it to BASE.txt and BASE.csv. Missing a target does not
 * change the exit status.
 *
 * Exit status: 0; 3 if a result was WRONG; 2 if a pumma_p?gemm_opts call gave
 * INFO != 0; 1 for a bad input or setup.
 *
 * The input file is read by rank 0 and broadcast; see PUMMATIM.dat for its
 * format. Table on stdout (rank 0), the same rows as CSV, progress on stderr.
 *
 * CSV columns (other tools read them by name: a column is only ever added
 * at the end): prec P Q M N K NB transa transb impl; algo bcast reduce shift
 * segment -- for a pumma:KEY=VALUE row what was asked (auto where unset),
 * for the plain pumma row what pumma chose (pumma_last_plan: "-" where the
 * algorithm used no such variant; segment empty, the plan does not say it),
 * empty for localgemm and scalapack; seconds (best of the rounds) and
 * median_seconds, gflops (from seconds), frac_localgemm, ratio_scalapack,
 * mem_peak_bytes, mem_ratio, maxreldiff, check (ok, WRONG, ref, -; model: a
 * simulated run under PUMMA_SMPI_COMPUTE, which computes nothing); plan
 * (pumma_last_plan's whole text, pumma rows); load1 (1-minute load average
 * of rank 0's host after the case), ncpu (rank 0's host's online CPUs) and
 * cpu_share (the lowest over the grid's ranks of the rank's CPU time / wall
 * time during the case's rounds: about 1 on cores of its own, lower when
 * other work took turns on them, which makes that case's times noisy).
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
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* pumma's public interface: pumma_options_t, the codes (pumma_codes.h), the
 * entry points. The option entry points and pumma_mem_peak are weak: a build
 * without them (PUMMALIB empty, the fake pumma) runs, and says what it lacks
 * when an input needs them. (A weak reference alone does not pull a member out
 * of a static library: the Makefile links with -u for the symbols libpumma.a
 * defines.) */
#include "pumma.h"
#pragma weak pumma_psgemm_opts
#pragma weak pumma_pdgemm_opts
#pragma weak pumma_pcgemm_opts
#pragma weak pumma_pzgemm_opts
#pragma weak pumma_mem_peak
#pragma weak pumma_last_plan

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

#define NELEM(a) ((int)(sizeof(a) / sizeof *(a)))

/* ScaLAPACK's calling sequence (all by address, no hidden string lengths:
 * PBLAS's entry points are C). Scalars and arrays as void* for all precisions. */
typedef void (*pgemm_fn)(const char *, const char *, const int *, const int *,
                         const int *, const void *, const void *, const int *,
                         const int *, const int *, const void *, const int *,
                         const int *, const int *, const void *, void *,
                         const int *, const int *, const int *);
/* pumma_p?gemm_opts: the same, then the options and INFO. */
typedef void (*pgemm_opts_fn)(const char *, const char *, const int *, const int *,
                              const int *, const void *, const void *, const int *,
                              const int *, const int *, const void *, const int *,
                              const int *, const int *, const void *, void *,
                              const int *, const int *, const int *,
                              const pumma_options_t *, int *);
typedef size_t (*mem_peak_fn)(int);
typedef const char *(*last_plan_fn)(void);
/* Fortran BLAS ?gemm_ with gfortran's hidden lengths of the two CHARACTER*1. */
typedef void (*gemm_fn)(const char *, const char *, const int *, const int *,
                        const int *, const void *, const void *, const int *,
                        const void *, const int *, const void *, void *,
                        const int *, size_t, size_t);

#define GEMM_ARGS                                                               \
    const char *, const char *, const int *, const int *, const int *,         \
        const void *, const void *, const int *, const void *, const int *,    \
        const void *, void *, const int *, size_t, size_t

/* The serial BLAS for the local GEMM limit. */
extern void F77(sgemm, SGEMM)(GEMM_ARGS);
extern void F77(dgemm, DGEMM)(GEMM_ARGS);
extern void F77(cgemm, CGEMM)(GEMM_ARGS);
extern void F77(zgemm, ZGEMM)(GEMM_ARGS);

/* Test hooks: defined only by TIMING's fake pumma (make selfcheck). */
extern int pumma_fake_calls __attribute__((weak));
extern int pumma_fake_opts_calls __attribute__((weak));

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
static const char *ONAME[NPREC] = {"pumma_psgemm_opts", "pumma_pdgemm_opts",
                                   "pumma_pcgemm_opts", "pumma_pzgemm_opts"};
static const char *SCAL_SYM[NPREC][3] = {{"psgemm_", "psgemm", "PSGEMM"},
                                         {"pdgemm_", "pdgemm", "PDGEMM"},
                                         {"pcgemm_", "pcgemm", "PCGEMM"},
                                         {"pzgemm_", "pzgemm", "PZGEMM"}};
static int is_cplx(int p) { return p == PC || p == PZ; }
static int is_dbl(int p) { return p == PD || p == PZ; }
static size_t esize(int p) { return (size_t)(is_dbl(p) ? 8 : 4) * (is_cplx(p) ? 2 : 1); }
static double tolerance(int p) { return is_dbl(p) ? 1e-10 : 1e-3; }

/* ------------------------------------------------------------------------ */
/* Implementations and pumma's option codes                                  */
/* ------------------------------------------------------------------------ */

/* Kinds: plain p?gemm_ of pumma, pumma_p?gemm_opts, ScaLAPACK's p?gemm_. */
enum { K_PUMMA, K_OPTS, K_SCALAPACK, NKIND };
static const char *KNAME[NKIND] = {"pumma", "pumma:", "scalapack"};

/* name <-> code, from the X-macro lists of pumma_codes.h (never by hand: rows
 * are added there). Code 0 is auto. */
typedef struct {
    int code;
    const char *name;
} code_t;
#define CODE_ROW(N, v, s) {v, s},
/* (block-cyclic algorithms only: the heterogeneous schedules need
 * heterogeneous descriptors, which these timings do not use) */
static const code_t ALGO_CODES[] = {PUMMA_BC_ALGO_LIST(CODE_ROW)};
static const code_t BCAST_CODES[] = {PUMMA_BCAST_LIST(CODE_ROW)};
static const code_t REDUCE_CODES[] = {PUMMA_REDUCE_LIST(CODE_ROW)};
static const code_t SHIFT_CODES[] = {PUMMA_SHIFT_LIST(CODE_ROW)};

/* The keys of pumma:KEY=VALUE, in the order of pumma_options_t; INFO is what
 * pumma_p?gemm_opts reports for a bad value of that field. */
enum { O_ALGO, O_BCAST, O_REDUCE, O_SHIFT, O_SEGMENT, NOPT };
static const struct {
    const char *key;
    const code_t *tab; /* NULL: an integer >= 0 (segment, bytes) */
    int n, info;
} OPT[NOPT] = {
    {"algo", ALGO_CODES, NELEM(ALGO_CODES), -20},
    {"bcast", BCAST_CODES, NELEM(BCAST_CODES), -21},
    {"reduce", REDUCE_CODES, NELEM(REDUCE_CODES), -22},
    {"shift", SHIFT_CODES, NELEM(SHIFT_CODES), -23},
    {"segment", NULL, 0, -24},
};

static const char *code_name(int o, int code)
{
    for (int i = 0; i < OPT[o].n; i++)
        if (OPT[o].tab[i].code == code)
            return OPT[o].tab[i].name;
    return "?";
}

#define MAXIMPL 256
#define LABEL 192
typedef struct {
    int kind;
    int set[NOPT]; /* K_OPTS: the keys given, in this order */
    int order[NOPT], nset;
    int val[NOPT];
    char label[LABEL];
} impl_t;

static pumma_options_t to_options(const impl_t *im)
{
    pumma_options_t o;
    memset(&o, 0, sizeof o);
    o.algo = im->val[O_ALGO];
    o.bcast = im->val[O_BCAST];
    o.reduce = im->val[O_REDUCE];
    o.shift = im->val[O_SHIFT];
    o.segment = im->val[O_SEGMENT];
    return o;
}

/* The value of field o as text: the code's name (auto if unset), or bytes. */
static void opt_text(const impl_t *im, int o, char *buf, size_t len)
{
    if (o == O_SEGMENT)
        snprintf(buf, len, "%d", im->val[o]);
    else
        snprintf(buf, len, "%s", code_name(o, im->val[o]));
}

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
    int nimpl;
    impl_t impl[MAXIMPL];
    int has_targets;
    double tfrac, tmem; /* frac >= tfrac, memory ratio <= tmem */
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

/* The list of names of option o, for error messages. */
static void choices(int o, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 0; i < OPT[o].n; i++) {
        strncat(buf, OPT[o].tab[i].name, len - strlen(buf) - 1);
        strncat(buf, " ", len - strlen(buf) - 1);
    }
    strncat(buf, "(or * for all but auto)", len - strlen(buf) - 1);
}

static int same_impl(const impl_t *a, const impl_t *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind != K_OPTS)
        return 1;
    for (int o = 0; o < NOPT; o++)
        if (a->val[o] != b->val[o] || a->set[o] != b->set[o])
            return 0;
    return 1;
}

/* Adds im (label made here) unless the list is full or has it already. */
static int add_impl(reader_t *r, config_t *c, impl_t *im, const char *tok)
{
    if (im->kind == K_OPTS) {
        int len = snprintf(im->label, LABEL, "pumma:");
        for (int i = 0; i < im->nset && len < LABEL; i++) {
            char v[64];
            int o = im->order[i];
            opt_text(im, o, v, sizeof v);
            len += snprintf(im->label + len, LABEL - len, "%s%s=%s", i ? "," : "",
                            OPT[o].key, v);
        }
        if (len >= LABEL)
            return rd_error(r, "'%s': name too long", tok);
    } else {
        snprintf(im->label, LABEL, "%s", KNAME[im->kind]);
    }
    for (int j = 0; j < c->nimpl; j++)
        if (same_impl(&c->impl[j], im))
            return rd_error(r, "implementation '%s' (from '%s') listed twice", im->label,
                            tok);
    if (c->nimpl >= MAXIMPL)
        return rd_error(r, "more than %d implementations (after expanding '*')", MAXIMPL);
    c->impl[c->nimpl++] = *im;
    return 0;
}

/* One token of the implementations line: pumma, scalapack or
 * pumma:KEY=VALUE[,KEY=VALUE...], VALUE '*' expanding to every code but auto. */
static int parse_impl(reader_t *r, config_t *c, int idx, const char *tok)
{
    impl_t im;
    memset(&im, 0, sizeof im);
    if (strcasecmp(tok, "pumma") == 0 || strcasecmp(tok, "scalapack") == 0) {
        im.kind = strcasecmp(tok, "pumma") == 0 ? K_PUMMA : K_SCALAPACK;
        return add_impl(r, c, &im, tok);
    }
    if (strncasecmp(tok, "pumma:", 6) != 0)
        return rd_error(r, "implementation %d: expected pumma, scalapack or "
                           "pumma:KEY=VALUE,... (KEY: algo bcast reduce shift "
                           "segment), found '%s'",
                        idx, tok);
    im.kind = K_OPTS;
    int star[NOPT] = {0};
    char buf[512];
    if (strlen(tok + 6) >= sizeof buf)
        return rd_error(r, "'%s': too long", tok);
    strcpy(buf, tok + 6);
    if (!buf[0])
        return rd_error(r, "implementation %d: '%s' names no option (KEY=VALUE; plain "
                           "'pumma' is pumma's own choice)",
                        idx, tok);
    char *save = NULL;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv || !eq[1])
            return rd_error(r, "implementation %d ('%s'): expected KEY=VALUE, found '%s'",
                            idx, tok, kv);
        *eq = 0;
        const char *val = eq + 1;
        int o = -1;
        for (int i = 0; i < NOPT; i++)
            if (strcasecmp(kv, OPT[i].key) == 0)
                o = i;
        if (o < 0)
            return rd_error(r, "implementation %d ('%s'): unknown option '%s'; the options "
                               "are algo bcast reduce shift segment",
                            idx, tok, kv);
        if (im.set[o])
            return rd_error(r, "implementation %d ('%s'): '%s' given twice", idx, tok,
                            OPT[o].key);
        im.set[o] = 1;
        im.order[im.nset++] = o;
        if (!OPT[o].tab) { /* segment: bytes */
            if (parse_int(val, &im.val[o]) || im.val[o] < 0)
                return rd_error(r, "implementation %d ('%s'): segment must be a number "
                                   "of bytes >= 0 (0: the variant's default), found '%s'",
                                idx, tok, val);
        } else if (strcmp(val, "*") == 0) {
            star[o] = 1;
        } else {
            int found = 0;
            for (int i = 0; i < OPT[o].n && !found; i++)
                if (strcasecmp(val, OPT[o].tab[i].name) == 0) {
                    im.val[o] = OPT[o].tab[i].code;
                    found = 1;
                }
            if (!found) {
                char list[512];
                choices(o, list, sizeof list);
                return rd_error(r, "implementation %d ('%s'): %s '%s' is not known to "
                                   "pumma_codes.h; choose one of: %s",
                                idx, tok, OPT[o].key, val, list);
            }
        }
    }
    /* Every combination of the starred keys (an odometer over their codes,
     * auto -- code 0 -- skipped). */
    int pos[NOPT] = {0};
    for (int o = 0; o < NOPT; o++)
        if (star[o]) {
            while (pos[o] < OPT[o].n && OPT[o].tab[pos[o]].code == 0)
                pos[o]++;
            if (pos[o] == OPT[o].n)
                return rd_error(r, "'%s': pumma_codes.h lists no %s but auto", tok,
                                OPT[o].key);
        }
    for (;;) {
        for (int o = 0; o < NOPT; o++)
            if (star[o])
                im.val[o] = OPT[o].tab[pos[o]].code;
        if (add_impl(r, c, &im, tok))
            return -1;
        int o = NOPT - 1;
        for (; o >= 0; o--) {
            if (!star[o])
                continue;
            do
                pos[o]++;
            while (pos[o] < OPT[o].n && OPT[o].tab[pos[o]].code == 0);
            if (pos[o] < OPT[o].n)
                break;
            pos[o] = 0;
            while (OPT[o].tab[pos[o]].code == 0)
                pos[o]++;
        }
        if (o < 0)
            break;
    }
    return 0;
}

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return errno || end == s || *end || !isfinite(*v) ? -1 : 0;
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

    /* implementations: tokens, each one or (with '*') several */
    if (rd_int(&r, "number of implementations", 1, MAXL, &n) ||
        rd_list(&r, "implementations (pumma, scalapack, pumma:KEY=VALUE,...)", n))
        goto out;
    c->nimpl = 0;
    for (int i = 0; i < n; i++)
        if (parse_impl(&r, c, i + 1, r.tok[i]))
            goto out;

    /* an optional targets line, then nothing */
    c->has_targets = 0;
    {
        int lineno = r.lineno;
        char line[2048];
        while (fgets(line, sizeof line, r.f)) {
            lineno++;
            const char *s = line;
            while (isspace((unsigned char)*s))
                s++;
            if (!*s || *s == '#')
                continue;
            r.lineno = lineno;
            line[strcspn(line, "\r\n")] = 0;
            strcpy(r.raw, line);
            if (c->has_targets) {
                rd_error(&r, "unexpected line after the targets line (the last line the "
                             "file may have)");
                goto out;
            }
            char a[64] = "", b[64] = "";
            if (sscanf(s, "%63s %63s", a, b) != 2 || parse_double(a, &c->tfrac) ||
                parse_double(b, &c->tmem) || c->tfrac < 0 || c->tmem <= 0) {
                rd_error(&r, "after the implementations only an optional targets line may "
                             "follow: FRAC MEM (minimum fraction of localgemm >= 0, "
                             "maximum memory ratio > 0, e.g. 0.90 2.0)");
                goto out;
            }
            c->has_targets = 1;
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
#ifdef PUMMA_SMPI
    /* malloc, which SMPI can fold (its shared-malloc options; doc/smpi.md) */
    return malloc(bytes ? bytes : 64);
#endif
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64))
        return NULL;
    return p;
}

/* ------------------------------------------------------------------------ */
/* Implementations and BLAS: where they come from                            */

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

/* The 1-minute load average (-1 if unknown): a loaded machine makes every
 * timing noisy, so the run says so at its start and end (and the bench table
 * per case). */
static double load1(void)
{
    double l1 = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l1) != 1)
            l1 = -1;
        fclose(f);
    }
    return l1;
}

static void print_load(FILE *out, const char *when, double l1)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (l1 < 0)
        return;
    fprintf(out, "load average %s: %.2f on %ld CPUs%s\n", when, l1, ncpu,
            l1 > ncpu + 0.5 ? "  WARNING: loaded machine, timings are noisy" : "");
}
/* ------------------------------------------------------------------------ */
/* Output                                                                     */
/* ------------------------------------------------------------------------ */

static FILE *csv;
static int quiet;
static int iw = 9; /* width of the implementation column */

typedef struct {
    int prec, P, Q, M, N, K, NB;
    char ta, tb;
} case_t;

/* What a row shows; a negative value: not measured ("-"). */
typedef struct {
    double t, tmed, gf, frac, ratio, memratio, membytes, diff;
    double confirmed; /* auto's row: the rival's time / auto's over the
                         confirmation rounds alone; 0: none were run */
} meas_t;

static void fmtv(char *buf, size_t len, const char *fmt, double v)
{
    if (v >= 0)
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
}

/* The value of KEY in a pumma_last_plan text ("algo=mdb2 bcast=ring-inc
 * reduce=- shift=simultaneous"), copied to buf; "" if the text lacks it. */
static void plan_value(const char *plan, const char *key, char *buf, size_t len)
{
    size_t kl = strlen(key);
    buf[0] = 0;
    for (const char *s = plan; s && *s;) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        if (n > kl && strncmp(s, key, kl) == 0 && s[kl] == '=') {
            snprintf(buf, len, "%.*s", (int)(n - kl - 1), s + kl + 1);
            return;
        }
        s += n;
    }
}

/* The case being timed, for its rows' last CSV columns (rank 0): the
 * 1-minute load average of rank 0's host after the case and the grid's
 * lowest CPU share during its rounds (see run_case); -1: unknown. */
static double case_load = -1, case_share = -1;
static long ncpu_online = -1;

/* im NULL: the localgemm row. plan: what pumma ran (pumma_last_plan, rank
 * 0), "" for the other rows. */
static void row(const case_t *c, const impl_t *im, const meas_t *m, const char *status,
                const char *plan)
{
    const char *label = im ? im->label : "localgemm";
    char sratio[32], smem[32], sdiff[32];
    fmtv(sratio, sizeof sratio, "%.3f", m->ratio);
    fmtv(smem, sizeof smem, "%.3f", m->memratio);
    fmtv(sdiff, sizeof sdiff, "%.2e", m->diff);
    printf("%c  %3dx%-3d %6d %6d %6d %4d  %c%c  %-*s %10.4f %9.2f %7.3f %7s %7s %10s  %s\n",
           PCHAR[c->prec], c->P, c->Q, c->M, c->N, c->K, c->NB, c->ta, c->tb, iw, label,
           m->t, m->gf, m->frac, sratio, smem, sdiff, status);
    if (csv) {
        char opt[NOPT][64];
        for (int o = 0; o < NOPT; o++) {
            opt[o][0] = 0;
            if (im && im->kind == K_OPTS)
                opt_text(im, o, opt[o], sizeof opt[o]);
            /* pumma's own choice: what it chose (the plan does not say
             * the segment: that column stays empty) */
            else if (im && im->kind == K_PUMMA && o != O_SEGMENT)
                plan_value(plan, OPT[o].key, opt[o], sizeof opt[o]);
        }
        char sbytes[32] = "", st[32], sm[32];
        if (m->membytes >= 0)
            snprintf(sbytes, sizeof sbytes, "%.0f", m->membytes);
        fmtv(st, sizeof st, "%.6e", m->tmed);
        fmtv(sm, sizeof sm, "%.4f", m->memratio);
        char sload[32] = "", sshare[32] = "", sncpu[32] = "";
        if (case_load >= 0)
            snprintf(sload, sizeof sload, "%.2f", case_load);
        if (case_share >= 0)
            snprintf(sshare, sizeof sshare, "%.3f", case_share);
        if (ncpu_online > 0)
            snprintf(sncpu, sizeof sncpu, "%ld", ncpu_online);
        fprintf(csv, "%c,%d,%d,%d,%d,%d,%d,%c,%c,\"%s\",%s,%s,%s,%s,%s,%.6e,%s,%.4f,%.4f,"
                     "%s,%s,%s,%s,%s,\"%s\",%s,%s,%s\n",
                PCHAR[c->prec], c->P, c->Q, c->M, c->N, c->K, c->NB, c->ta, c->tb, label,
                opt[O_ALGO], opt[O_BCAST], opt[O_REDUCE], opt[O_SHIFT], opt[O_SEGMENT],
                m->t, m->tmed >= 0 ? st : "", m->gf, m->frac, m->ratio >= 0 ? sratio : "",
                sbytes, m->memratio >= 0 ? sm : "", m->diff >= 0 ? sdiff : "", status,
                plan ? plan : "", sload, sncpu, sshare);
        fflush(csv);
    }
}

/* Rows of the final (bench) table, kept by rank 0: every implementation but
 * ScaLAPACK, per case. */
typedef struct {
    case_t c;
    int impl, wrong;
    meas_t m;
    double gloc, gscal, load;
    char plan[96];            /* what pumma ran (pumma_last_plan), rank 0 */
} result_t;
static result_t *results;
static int nresults, capresults;

static void keep(const case_t *c, int impl, const meas_t *m, double gloc, double gscal,
                 int wrong, const char *plan)
{
    if (nresults == capresults) {
        int cap = capresults ? 2 * capresults : 64;
        result_t *r = realloc(results, (size_t)cap * sizeof *r);
        if (!r)
            return;
        results = r;
        capresults = cap;
    }
    result_t *r = &results[nresults++];
    r->c = *c;
    r->impl = impl;
    r->m = *m;
    r->gloc = gloc;
    r->gscal = gscal;
    r->load = load1();
    r->wrong = wrong;
    snprintf(r->plan, sizeof r->plan, "%.95s", plan);
}

/* ------------------------------------------------------------------------ */
/* One case                                                                   */
/* ------------------------------------------------------------------------ */

static pgemm_opts_fn opts_fn[NPREC];
static mem_peak_fn mem_peak;
static last_plan_fn last_plan;

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

static long long ncalls[NPREC][NKIND]; /* timed calls made by this rank */

/* CPU seconds of this process (all its threads); -1 if unknown. */
static double cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Cases whose lowest CPU share (the cpu_share column) fell below LOW_SHARE:
 * other work shared the cores. Rank 0's count, for the run's last lines. */
#define LOW_SHARE 0.9
static double lowest_share = -1;
static int nshares, nlowshare;

/* What INFO means, for the message that stops the run. */
static void info_meaning(int info, const pumma_options_t *po, char *buf, size_t len)
{
    const int val[NOPT] = {po->algo, po->bcast, po->reduce, po->shift, po->segment};
    for (int o = 0; o < NOPT; o++)
        if (info == OPT[o].info) {
            if (o == O_SEGMENT)
                snprintf(buf, len, "segment < 0");
            else
                snprintf(buf, len,
                         "%s: the library rejects code %d '%s', which pumma_codes.h "
                         "lists -- a libpumma older than the header, or a variant listed "
                         "but not implemented",
                         OPT[o].key, val[o], code_name(o, val[o]));
            return;
        }
    snprintf(buf, len, "an argument P?GEMM rejects, see pumma.h");
}

/* Returns 1 if some implementation was WRONG, 0 otherwise, -1 if skipped,
 * -2 if a pumma_p?gemm_opts call gave INFO != 0 (the run stops). */
enum { CONFIRM = 6, CONFIRM_MAX = 200 };
#define CONFIRM_SECONDS 0.2
#define CONTEST 0.05

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
    /* this rank's A + B + C, the yardstick of pumma's temporaries */
    double local_abc =
        ((double)aml * anl + (double)bml * bnl + (double)cml * cnl) * (double)es;

    /* The local GEMM limit: ceil(M/P) x ceil(N/Q) x K on every rank. */
    int lm = (M + P - 1) / P, ln = (N + Q - 1) / Q;
    int lam = c->ta == 'N' ? lm : K, lan = c->ta == 'N' ? K : lm;
    int lbm = c->tb == 'N' ? K : ln, lbn = c->tb == 'N' ? ln : K;
    int llda = lam > 1 ? lam : 1, lldb = lbm > 1 ? lbm : 1, lldc = lm > 1 ? lm : 1;

    const int nimpl = cfg->nimpl;
    int need_ref = 1, iscal = -1;
    for (int i = 0; i < nimpl; i++)
        if (cfg->impl[i].kind == K_SCALAPACK)
            need_ref = 0, iscal = i;

    size_t sza = (size_t)lda * (anl > 0 ? anl : 1) * es;
    size_t szb = (size_t)ldb * (bnl > 0 ? bnl : 1) * es;
    size_t szc = (size_t)ldc * (cnl > 0 ? cnl : 1) * es;
    void *A = xalloc(sza), *B = xalloc(szb), *C0 = xalloc(szc);
    void *Ci[MAXIMPL] = {0}, *Cref = NULL;
    void *LA = xalloc((size_t)llda * lan * es), *LB = xalloc((size_t)lldb * lbn * es);
    void *LC = xalloc((size_t)lldc * ln * es);
    /* all times, for the median: [0] localgemm, [1 + i] implementation i */
    double *times = malloc(sizeof(double) * (size_t)(nimpl + 1) * cfg->reps);
    int ok = A && B && C0 && LA && LB && LC && times;
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

    if (need_ref) { /* untimed reference */
        memcpy(Cref, C0, szc);
        scal_fn[p](ta, tb, &M, &N, &K, alpha, A, &one, &one, desca, B, &one, &one, descb,
                   beta, Cref, &one, &one, descc);
    }

    double best_loc = INFINITY, best[MAXIMPL], worst_diff[MAXIMPL], peak[MAXIMPL];
    static char plan[MAXIMPL][96];   /* what each pumma row ran (rank 0) */
    for (int i = 0; i < nimpl; i++)
        best[i] = INFINITY, worst_diff[i] = 0, peak[i] = 0;

    /* auto (the plain call) and, if one beats it, the fastest forced one */
    int iauto = -1, contest = -1, rounds = cfg->reps;
    /* the confirmation rounds' own best of auto and of the rival: the
     * rival was picked as the least of many noisy bests, so its best so
     * far is biased low (the winner's curse) and does not count */
    double cbest_auto = INFINITY, cbest_rival = INFINITY;
    for (int i = 0; i < nimpl; i++)
        if (cfg->impl[i].kind == K_PUMMA)
            iauto = i;
    /* The share of a CPU each rank got during the rounds: its process CPU
     * time over the wall time. A rank never sleeps here (the BLAS computes,
     * MPI polls while it waits), so a share well below 1 means other work
     * took turns on its core and the case's times are noisy. */
    double cpu_start = cpu_seconds(), wall_start = MPI_Wtime();
    for (int r = 0; r < rounds; r++) {
        double t;
        const int extra = r >= cfg->reps; /* a confirmation round */
        /* aggregate local GEMM */
        if (!extra) {
            MPI_Barrier(comm);
            t = MPI_Wtime();
            gemm_blas[p](ta, tb, &lm, &ln, &K, alpha, LA, &llda, LB, &lldb, beta, LC,
                         &lldc, 1, 1);
            t = MPI_Wtime() - t;
            MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
            if (t < best_loc)
                best_loc = t;
            times[r] = t;
        }

        /* implementations, alternately */
        for (int i = 0; i < nimpl; i++) {
            if (extra && i != iauto && i != contest)
                continue;
            const impl_t *im = &cfg->impl[i];
            const int measure = im->kind != K_SCALAPACK && mem_peak;
            pumma_options_t o = to_options(im);
            int info = 0;
            memcpy(Ci[i], C0, szc);
            if (measure)
                mem_peak(1);
            MPI_Barrier(comm);
            t = MPI_Wtime();
            if (im->kind == K_OPTS)
                opts_fn[p](ta, tb, &M, &N, &K, alpha, A, &one, &one, desca, B, &one, &one,
                           descb, beta, Ci[i], &one, &one, descc, &o, &info);
            else
                (im->kind == K_PUMMA ? pumma_fn : scal_fn)[p](
                    ta, tb, &M, &N, &K, alpha, A, &one, &one, desca, B, &one, &one, descb,
                    beta, Ci[i], &one, &one, descc);
            t = MPI_Wtime() - t;
            if (im->kind != K_SCALAPACK)
                snprintf(plan[i], sizeof plan[i], "%.95s", last_plan ? last_plan() : "");
            if (measure) {
                double pk = (double)mem_peak(0);
                if (pk > peak[i])
                    peak[i] = pk;
            }
            MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
            if (t < best[i])
                best[i] = t;
            if (extra && i == iauto && t < cbest_auto)
                cbest_auto = t;
            if (extra && i == contest && t < cbest_rival)
                cbest_rival = t;
            if (!extra)
                times[(size_t)(1 + i) * cfg->reps + r] = t;
            ncalls[p][im->kind]++;
            if (im->kind == K_OPTS) { /* INFO of every rank */
                int lohi[2] = {info, -info};
                MPI_Allreduce(MPI_IN_PLACE, lohi, 2, MPI_INT, MPI_MIN, comm);
                int bad = lohi[0] ? lohi[0] : -lohi[1];
                if (bad) {
                    if (rank == 0) {
                        char msg[1024], why[400];
                        info_meaning(bad, &o, why, sizeof why);
                        snprintf(msg, sizeof msg,
                                 "%s for '%s' {algo=%d bcast=%d reduce=%d shift=%d "
                                 "segment=%d} returned INFO = %d (%s) in the case %c %dx%d "
                                 "M=%d N=%d K=%d NB=%d %c%c",
                                 ONAME[p], im->label, o.algo, o.bcast, o.reduce, o.shift,
                                 o.segment, bad, why, PCHAR[p], P, Q, M, N,
                                 K, nb, c->ta, c->tb);
                        fprintf(stderr, "xpgemmtim: ERROR: %s\n", msg);
                        printf("# ERROR: %s\n", msg);
                        fflush(stdout);
                    }
                    result = -2;
                    goto done;
                }
            }
        }

        /* every implementation against ScaLAPACK's result of this round */
        const void *ref = iscal >= 0 ? Ci[iscal] : Cref;
        for (int i = 0; i < nimpl; i++) {
            if (i == iscal)
                continue;
            double dm[2];
            maxdiff(p, Ci[i], ref, cml, cnl, ldc, &dm[0], &dm[1]);
            MPI_Allreduce(MPI_IN_PLACE, dm, 2, MPI_DOUBLE, MPI_MAX, comm);
            double rel = dm[1] > 0 ? dm[0] / dm[1] : dm[0];
            if (rel != rel)
                rel = INFINITY;
            if (rel > worst_diff[i])
                worst_diff[i] = rel;
        }

        /* best[] is the maximum over ranks: every rank decides alike */
        if (r == cfg->reps - 1 && iauto >= 0) {
            for (int i = 0; i < nimpl; i++)
                if (cfg->impl[i].kind == K_OPTS &&
                    (!plan[iauto][0] || strcmp(plan[i], plan[iauto])) &&
                    (contest < 0 || best[i] < best[contest]))
                    contest = i;
            if (contest >= 0 && best[contest] < best[iauto] * (1 - CONTEST)) {
                /* short calls are cheap to repeat and noisy: at least
                 * CONFIRM_SECONDS of auto's calls, at most CONFIRM_MAX */
                const int more = (int)fmin(CONFIRM_MAX, fmax(CONFIRM,
                                           ceil(CONFIRM_SECONDS / best[iauto])));
                rounds += more;
                if (rank == 0)
                    fprintf(stderr, "  %s faster than auto by %.1f%%: %d more rounds of "
                            "the two\n", cfg->impl[contest].label,
                            100 * (best[iauto] / best[contest] - 1), more);
            }
        }
    }

    double share = -1, wall = MPI_Wtime() - wall_start;
    if (cpu_start >= 0 && wall > 0)
        share = (cpu_seconds() - cpu_start) / wall;
    MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_DOUBLE, MPI_MIN, comm);

    /* pumma's temporaries: the worst rank's peak / its local A+B+C */
    double mem[MAXIMPL][2];
    for (int i = 0; i < nimpl; i++) {
        mem[i][0] = local_abc > 0 ? peak[i] / local_abc : (peak[i] > 0 ? INFINITY : 0);
        mem[i][1] = peak[i];
    }
    if (nimpl)
        MPI_Allreduce(MPI_IN_PLACE, mem, 2 * nimpl, MPI_DOUBLE, MPI_MAX, comm);

    if (rank == 0) {
        case_load = load1();
        case_share = share;
        if (share >= 0 && (lowest_share < 0 || share < lowest_share))
            lowest_share = share;
        nshares++;
        nlowshare += share >= 0 && share < LOW_SHARE;
        double flops = (is_cplx(p) ? 8.0 : 2.0) * M * N * K;
        double gloc = flops / best_loc / 1e9;
        meas_t ml = {best_loc, median(times, cfg->reps), gloc, 1.0, -1, -1, -1, -1, 0};
        row(c, NULL, &ml, "-", "");
        double gscal = iscal >= 0 ? flops / best[iscal] / 1e9 : -1;
        for (int i = 0; i < nimpl; i++) {
            const impl_t *im = &cfg->impl[i];
            double gf = flops / best[i] / 1e9;
            meas_t m = {best[i], median(times + (size_t)(1 + i) * cfg->reps, cfg->reps), gf,
                        gf / gloc, -1, -1, -1, -1, 0};
            if (i == iauto && rounds > cfg->reps)
                m.confirmed = cbest_rival / cbest_auto;
            if (im->kind == K_SCALAPACK) {
                m.ratio = 1.0;
                row(c, im, &m, "ref", "");
            } else {
                /* simulated with the compute model (doc/smpi.md): nothing
                 * is computed, so no result is checked ("model") */
#ifdef PUMMA_SMPI
                const int modelled = getenv("PUMMA_SMPI_COMPUTE") &&
                                     *getenv("PUMMA_SMPI_COMPUTE");
#else
                const int modelled = 0;
#endif
                int wrong = !modelled && !(worst_diff[i] <= tolerance(p));
                result |= wrong;
                m.ratio = gscal > 0 ? gf / gscal : -1;
                m.diff = worst_diff[i];
                if (mem_peak)
                    m.memratio = mem[i][0], m.membytes = mem[i][1];
                row(c, im, &m, modelled ? "model" : wrong ? "WRONG" : "ok",
                    plan[i]);
                keep(c, i, &m, gloc, gscal, wrong, plan[i]);
            }
        }
        fflush(stdout);
    }
    MPI_Bcast(&result, 1, MPI_INT, 0, comm);

done:
    free(times);
    free(A), free(B), free(C0), free(LA), free(LB), free(LC), free(Cref);
    for (int i = 0; i < MAXIMPL; i++)
        free(Ci[i]);
    return result;
}

/* ------------------------------------------------------------------------ */
/* The final table: every pumma implementation per case, against the targets */
/* ------------------------------------------------------------------------ */

static char hdr_ranks[4096], hdr_blas[1536];
static double load_start = -1, load_end = -1;

static int same_case(const case_t *a, const case_t *b)
{
    return a->prec == b->prec && a->P == b->P && a->Q == b->Q && a->M == b->M &&
           a->N == b->N && a->K == b->K && a->NB == b->NB && a->ta == b->ta &&
           a->tb == b->tb;
}

/* Per case: auto's rate against the fastest forced choice (see the top). */
static void auto_verdicts(FILE *out, const config_t *cfg)
{
    int header = 0, nworse = 0, ncases = 0;
    for (int k = 0; k < nresults;) {
        int e = k;
        while (e < nresults && same_case(&results[e].c, &results[k].c))
            e++;
        const result_t *au = NULL, *bf = NULL;
        for (int j = k; j < e; j++)
            if (cfg->impl[results[j].impl].kind == K_PUMMA)
                au = &results[j];
        /* Rows that ran what auto ran (a forced variant auto also chose, or
         * of a kind the algorithm does not use) are auto again: not rivals. */
        for (int j = k; j < e && au; j++) {
            const result_t *x = &results[j];
            if (cfg->impl[x->impl].kind == K_OPTS &&
                (!au->plan[0] || strcmp(x->plan, au->plan)) &&
                (!bf || x->m.gf > bf->m.gf))
                bf = x;
        }
        int any_forced = 0;
        for (int j = k; j < e; j++)
            any_forced |= cfg->impl[results[j].impl].kind == K_OPTS;
        if (au && any_forced) {
            if (!header++)
                fprintf(out, "\n== auto (pumma's own choice) against the fastest forced "
                             "choice that ran something else, per case\nauto/it: the "
                             "ratio of the two rates; when auto trailed by more than "
                             "%.0f%%, over %d or more rounds of the two alone (their "
                             "best there)\nWORSE: auto more than that much slower "
                             "still\n\n"
                             "%-1s  %-7s %6s %6s %6s %4s  %-2s  %8s  %-*s %8s %6s  %-7s  %s\n",
                        100 * CONTEST, CONFIRM, "p", " grid", "M", "N", "K", "NB", "op",
                        "auto", iw, "fastest forced", "GFLOP/s", "auto/it", "verdict",
                        "auto ran");
            const case_t *c = &au->c;
            double ratio = au->m.confirmed > 0 ? au->m.confirmed
                           : bf                  ? au->m.gf / bf->m.gf
                                                 : 1;
            int worse = ratio < 1 - CONTEST;
            nworse += worse;
            ncases++;
            fprintf(out, "%c  %3dx%-3d %6d %6d %6d %4d  %c%c  %8.2f  %-*s %8.2f %6.3f  %-7s  "
                         "%s\n",
                    PCHAR[c->prec], c->P, c->Q, c->M, c->N, c->K, c->NB, c->ta, c->tb,
                    au->m.gf, iw, bf ? cfg->impl[bf->impl].label : "(none: all ran auto's)",
                    bf ? bf->m.gf : au->m.gf, ratio, worse ? "WORSE" : "ok", au->plan);
        }
        k = e;
    }
    if (ncases)
        fprintf(out, "\nauto measurably worse than a forced choice: %d of %d cases\n",
                nworse, ncases);
}

static void summary(FILE *out, const config_t *cfg, const char *dat, double elapsed,
                    int full_header)
{
    const int T = cfg->has_targets;
    char when[64] = "?";
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
    if (full_header) {
        fprintf(out, "xpgemmtim: %s, %s\n", dat, when);
        fprintf(out, "%s", hdr_ranks);
        fprintf(out, "BLAS: %s\n", hdr_blas);
        fprintf(out, "best of %d repeat%s (implementations alternating), %.1f s\n",
                cfg->reps, cfg->reps > 1 ? "s" : "", elapsed);
        print_load(out, "at start", load_start);
        print_load(out, "at end", load_end);
    }
    fprintf(out, "\n== %s\n",
            T ? "pumma against the targets" : "pumma implementations per case");
    fprintf(out, "GFLOP/s: best time; local: the localgemm row (every rank at once a "
                 "serial ?gemm_ of its local share: the limit of the grid's cores);\n"
                 "frac = GFLOP/s / local; ratio = GFLOP/s / ScaLAPACK's; mem = peak of "
                 "pumma's temporaries / local A+B+C bytes, worst rank;\n"
                 "load = 1-minute load average after the case.\n");
    if (T)
        fprintf(out, "Targets: frac >= %.2f, mem <= %.2f. BELOW does not fail the run; a "
                     "WRONG result does.\n",
                cfg->tfrac, cfg->tmem);
    fprintf(out, "\n%-1s  %-7s %6s %6s %6s %4s  %-2s  %-*s %8s %8s %9s %6s %6s %6s %5s  %s\n",
            "p", " grid", "M", "N", "K", "NB", "op", iw, "impl", "GFLOP/s", "local",
            "scalapack", "frac", "ratio", "mem", "load", T ? "result" : "check");
    int nok = 0, nbelow = 0, nfrac = 0, nmem = 0, nwrong = 0, nomem = 0, nloaded = 0;
    const double busy = (double)sysconf(_SC_NPROCESSORS_ONLN) + 0.5;
    for (int k = 0; k < nresults; k++) {
        const result_t *r = &results[k];
        const case_t *c = &r->c;
        char sg[32], sr[32], sm[32], sl[32], res[64];
        fmtv(sg, sizeof sg, "%.2f", r->gscal);
        fmtv(sr, sizeof sr, "%.3f", r->m.ratio);
        fmtv(sm, sizeof sm, "%.3f", r->m.memratio);
        fmtv(sl, sizeof sl, "%.1f", r->load);
        int bf = T && !(r->m.frac >= cfg->tfrac);
        int bm = T && r->m.memratio >= 0 && !(r->m.memratio <= cfg->tmem);
        nomem += r->m.memratio < 0;
        if (r->wrong) {
            snprintf(res, sizeof res, "WRONG");
            nwrong++;
        } else if (!T) {
            snprintf(res, sizeof res, "ok");
        } else if (bf || bm) {
            snprintf(res, sizeof res, "BELOW (%s%s%s)", bf ? "frac" : "",
                     bf && bm ? ", " : "", bm ? "mem" : "");
            nbelow++;
            nfrac += bf;
            nmem += bm;
        } else {
            snprintf(res, sizeof res, "ok");
            nok++;
        }
        int loaded = r->load > busy;
        nloaded += loaded;
        fprintf(out, "%c  %3dx%-3d %6d %6d %6d %4d  %c%c  %-*s %8.2f %8.2f %9s %6.3f %6s "
                     "%6s %5s  %s%s\n",
                PCHAR[c->prec], c->P, c->Q, c->M, c->N, c->K, c->NB, c->ta, c->tb, iw,
                cfg->impl[r->impl].label, r->m.gf, r->gloc, sg, r->m.frac, sr, sm, sl, res,
                loaded ? "  *" : "");
    }
    if (T)
        fprintf(out, "\ntargets met: %d of %d; BELOW: %d (frac %d, mem %d)%s%s\n", nok,
                nresults, nbelow, nfrac, nmem, nwrong ? "; WRONG: " : "",
                nwrong ? "see the rows" : "");
    if (nloaded)
        fprintf(out, "* %d row%s measured with the load average above the CPU count: other "
                     "work shared the cores, so GFLOP/s, frac and ratio there are noisy "
                     "(mem is not); rerun on a quiet machine to judge them\n",
                nloaded, nloaded == 1 ? "" : "s");
    if (nomem)
        fprintf(out, "(mem '-': this build has no pumma_mem_peak, or the implementation is "
                     "not pumma's)\n");
    auto_verdicts(out, cfg);
    fflush(out);
}

static void summary_csv(FILE *out, const config_t *cfg)
{
    const int T = cfg->has_targets;
    fprintf(out, "prec,P,Q,M,N,K,NB,transa,transb,impl,gflops,localgemm_gflops,"
                 "scalapack_gflops,frac_localgemm,ratio_scalapack,mem_ratio,mem_peak_bytes,"
                 "load1,target_frac,target_mem,result\n");
    for (int k = 0; k < nresults; k++) {
        const result_t *r = &results[k];
        const case_t *c = &r->c;
        char sg[32] = "", sr[32] = "", sm[32] = "", sb[32] = "", st[2][32] = {"", ""};
        if (r->gscal >= 0)
            snprintf(sg, sizeof sg, "%.4f", r->gscal);
        if (r->m.ratio >= 0)
            snprintf(sr, sizeof sr, "%.4f", r->m.ratio);
        if (r->m.memratio >= 0)
            snprintf(sm, sizeof sm, "%.4f", r->m.memratio);
        if (r->m.membytes >= 0)
            snprintf(sb, sizeof sb, "%.0f", r->m.membytes);
        if (T) {
            snprintf(st[0], sizeof st[0], "%.2f", cfg->tfrac);
            snprintf(st[1], sizeof st[1], "%.2f", cfg->tmem);
        }
        int bf = T && !(r->m.frac >= cfg->tfrac);
        int bm = T && r->m.memratio >= 0 && !(r->m.memratio <= cfg->tmem);
        const char *res = r->wrong ? "WRONG" : (bf || bm) ? "BELOW" : "ok";
        fprintf(out, "%c,%d,%d,%d,%d,%d,%d,%c,%c,\"%s\",%.4f,%.4f,%s,%.4f,%s,%s,%s,%.2f,%s,%s,"
                     "%s\n",
                PCHAR[c->prec], c->P, c->Q, c->M, c->N, c->K, c->NB, c->ta, c->tb,
                cfg->impl[r->impl].label, r->m.gf, r->gloc, sg, r->m.frac, sr, sm, sb,
                r->load, st[0], st[1], res);
    }
}

/* ------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
            "usage: mpiexec -n NP xpgemmtim [-i FILE.dat] [-o FILE.csv] [-r N] [-s BASE] [-q]\n"
            "  -i FILE   input file (default PUMMATIM.dat)\n"
            "  -o FILE   CSV output, overrides the file named in the input ('-': none)\n"
            "  -r N      N repeats, overrides the number in the input\n"
            "  -s BASE   the final table (per case, every pumma implementation, the\n"
            "            targets' verdict) also to BASE.txt and BASE.csv\n"
            "  -q        no progress lines on stderr\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    const char *dat = "PUMMATIM.dat", *csvname = NULL, *sbase = NULL;
    int opt, badopt = 0;
    int reps_opt = 0;
    while ((opt = getopt(argc, argv, "i:o:r:s:qh")) != -1) {
        switch (opt) {
        case 'r':
            if (parse_int(optarg, &reps_opt) || reps_opt < 1)
                badopt = 1;
            break;
        case 'i': dat = optarg; break;
        case 'o': csvname = optarg; break;
        case 's': sbase = optarg; break;
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

    static config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    FILE *stxt = NULL, *scsv = NULL;
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
        if (cfg.ok && sbase) {
            char fn[1024];
            snprintf(fn, sizeof fn, "%s.txt", sbase);
            stxt = fopen(fn, "w");
            snprintf(fn, sizeof fn, "%s.csv", sbase);
            scsv = stxt ? fopen(fn, "w") : NULL;
            if (!stxt || !scsv) {
                fprintf(stderr, "xpgemmtim: cannot write %s: %s\n", fn, strerror(errno));
                cfg.ok = 0;
            }
        }
    }
    MPI_Bcast(&cfg, sizeof cfg, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (!cfg.ok) {
        MPI_Finalize();
        return 1;
    }
    for (int i = 0; i < cfg.nimpl; i++)
        if ((int)strlen(cfg.impl[i].label) > iw)
            iw = (int)strlen(cfg.impl[i].label);

    /* The implementations. */
    int bad = 0, nopts = 0;
#ifdef PUMMA_SMPI
    /* simulated (make smpi): one static link, ScaLAPACK's P?GEMM renamed */
    extern void pumma_scalapack_psgemm_(void), pumma_scalapack_pdgemm_(void),
        pumma_scalapack_pcgemm_(void), pumma_scalapack_pzgemm_(void);
    void *hs = NULL;
    scal_fn[PS] = (pgemm_fn)pumma_scalapack_psgemm_;
    scal_fn[PD] = (pgemm_fn)pumma_scalapack_pdgemm_;
    scal_fn[PC] = (pgemm_fn)pumma_scalapack_pcgemm_;
    scal_fn[PZ] = (pgemm_fn)pumma_scalapack_pzgemm_;
#else
    void *hs = dlopen(SCALAPACK_SO, RTLD_NOW | RTLD_LOCAL);
#endif
    if (!hs && !scal_fn[PD]) {
        if (wrank == 0)
            fprintf(stderr, "xpgemmtim: dlopen(%s): %s\n", SCALAPACK_SO, dlerror());
        bad = 1;
    }
    pumma_fn[PS] = (pgemm_fn)psgemm_F77;
    pumma_fn[PD] = (pgemm_fn)pdgemm_F77;
    pumma_fn[PC] = (pgemm_fn)pcgemm_F77;
    pumma_fn[PZ] = (pgemm_fn)pzgemm_F77;
    opts_fn[PS] = (pgemm_opts_fn)pumma_psgemm_opts;
    opts_fn[PD] = (pgemm_opts_fn)pumma_pdgemm_opts;
    opts_fn[PC] = (pgemm_opts_fn)pumma_pcgemm_opts;
    opts_fn[PZ] = (pgemm_opts_fn)pumma_pzgemm_opts;
    mem_peak = (mem_peak_fn)pumma_mem_peak;
    last_plan = (last_plan_fn)pumma_last_plan;
    ncpu_online = sysconf(_SC_NPROCESSORS_ONLN);
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
    for (int i = 0; i < cfg.nimpl; i++)
        nopts += cfg.impl[i].kind == K_OPTS;
    for (int i = 0; i < cfg.nprec && nopts; i++)
        if (!opts_fn[cfg.prec[i]]) {
            if (wrank == 0)
                fprintf(stderr, "xpgemmtim: the pumma:KEY=VALUE implementations need %s, "
                                "which this build lacks (PUMMALIB=%s)\n",
                        ONAME[cfg.prec[i]], PUMMALIB_NAME);
            bad = 1;
        }
    if (bad) {
        MPI_Finalize();
        return 1;
    }

    /* Header: where everything comes from. */
    char w1[1024], w2[1024];
    int nth = blas_info(hdr_blas, sizeof hdr_blas), nthmin = nth, nthmax = nth;
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
        int len = snprintf(hdr_ranks, sizeof hdr_ranks, "%d MPI rank%s\n", wsize,
                           wsize > 1 ? "s" : "");
        for (int r = 0; r < wsize && len < (int)sizeof hdr_ranks; r++)
            len += snprintf(hdr_ranks + len, sizeof hdr_ranks - len, "rank %d: %s\n", r,
                            all + (size_t)r * sizeof me);
        load_start = load1();
        printf("xpgemmtim: pumma P?GEMM against ScaLAPACK P?GEMM\n");
        printf("input %s, CSV %s, %d MPI rank%s, best of %d repeat%s, alpha = 1, beta = 1\n",
               dat, strcmp(cfg.csv, "-") ? cfg.csv : "(none)", wsize, wsize > 1 ? "s" : "",
               cfg.reps, cfg.reps > 1 ? "s" : "");
        for (int r = 0; r < wsize; r++)
            printf("rank %d: %s\n", r, all + (size_t)r * sizeof me);
        printf("BLAS (%s): %s\n", F77STR(dgemm, DGEMM), hdr_blas);
        if (nthmin != nthmax)
            printf("WARNING: BLAS threads differ between ranks (%d to %d)\n", nthmin, nthmax);
        print_load(stdout, "at start (rank 0's host)", load_start);
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "PUMMA_", 6) == 0 || strncmp(*e, "OPENBLAS_", 9) == 0 ||
                strncmp(*e, "OMP_NUM_THREADS", 15) == 0)
                printf("env %s\n", *e);
        printf("pumma     = linked symbols (PUMMALIB=%s): pumma's own choice\n",
               PUMMALIB_NAME);
        if (nopts)
            printf("pumma:KEY=VALUE,... = pumma_p?gemm_opts with those fields of "
                   "pumma_options_t (the others 0: auto)\n");
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
            if (nopts)
                printf("%s: %s\n", ONAME[p], where((void *)opts_fn[p], w1, sizeof w1));
        }
        printf("pumma_mem_peak: %s\n",
               mem_peak ? where((void *)mem_peak, w1, sizeof w1)
                        : "not in this build: no memory figures (mem '-')");
        printf("implementations:");
        for (int i = 0; i < cfg.nimpl; i++)
            printf(" %s", cfg.impl[i].label);
        printf("\n");
        for (int i = 0; i < cfg.nimpl; i++)
            if (cfg.impl[i].kind == K_OPTS && cfg.impl[i].set[O_ALGO]) {
                printf("NOTE: pumma replaces an algo that cannot compute a case's "
                       "TRANSA/TRANSB by one that can (pumma.h); PUMMA_STATS=1 lists what "
                       "ran\n");
                break;
            }
        printf("localgemm = every rank at once a serial ?gemm_ of ceil(M/P) x ceil(N/Q) x K; "
               "frac = GFLOP/s / localgemm GFLOP/s\n");
        printf("ratio = GFLOP/s / ScaLAPACK's GFLOP/s; mem = peak of pumma's temporaries "
               "during the call / local A+B+C bytes, worst rank and round\n");
        printf("diff = max|C - C_scalapack| / max|C_scalapack| over all repeats; "
               "WRONG above %.0e (S,C) / %.0e (D,Z)\n\n",
               tolerance(PS), tolerance(PD));
        printf("%-1s  %-7s %6s %6s %6s %4s  %-2s  %-*s %10s %9s %7s %7s %7s %10s  %s\n", "p",
               " grid", "M", "N", "K", "NB", "op", iw, "impl", "time(s)", "GFLOP/s", "frac",
               "ratio", "mem", "diff", "check");
        fflush(stdout);
        if (csv) {
            fprintf(csv, "prec,P,Q,M,N,K,NB,transa,transb,impl,algo,bcast,reduce,shift,"
                         "segment,seconds,median_seconds,gflops,frac_localgemm,"
                         "ratio_scalapack,mem_peak_bytes,mem_ratio,maxreldiff,check,"
                         "plan,load1,ncpu,cpu_share\n");
            fflush(csv);
        }
        free(all);
    }

    int ncases = cfg.nprec * cfg.ngrid * cfg.nsize * cfg.nnb * cfg.ntr, icase = 0;
    int nwrong = 0, fatal = 0;
    double t0 = MPI_Wtime();
    for (int ip = 0; ip < cfg.nprec && !fatal; ip++)
        for (int ig = 0; ig < cfg.ngrid && !fatal; ig++) {
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
            for (int is = 0; is < cfg.nsize && !fatal; is++)
                for (int ib = 0; ib < cfg.nnb && !fatal; ib++)
                    for (int it = 0; it < cfg.ntr && !fatal; it++) {
                        case_t c = {cfg.prec[ip], P, Q, cfg.M[is], cfg.N[is], cfg.K[is],
                                    cfg.NB[ib], cfg.TA[it], cfg.TB[it]};
                        icase++;
                        if (wrank == 0 && !quiet) {
                            fprintf(stderr, "[%d/%d %6.1fs] %c %dx%d M=%d N=%d K=%d NB=%d %c%c\n",
                                    icase, ncases, MPI_Wtime() - t0, PCHAR[c.prec], P, Q,
                                    c.M, c.N, c.K, c.NB, c.ta, c.tb);
                        }
                        if (!in)
                            continue;
                        int rc = run_case(&cfg, &c, comm, ctxt, myrow, mycol);
                        if (rc > 0)
                            nwrong++;
                        else if (rc == -2)
                            fatal = 1; /* the same on every rank of the grid */
                    }
            if (in) {
                MPI_Comm_free(&comm);
                Cblacs_gridexit(ctxt);
            }
            /* ranks outside the grid learn of a stop here */
            MPI_Allreduce(MPI_IN_PLACE, &fatal, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        }

    long long calls[NKIND] = {0};
    for (int p = 0; p < NPREC; p++)
        for (int k = 0; k < NKIND; k++)
            calls[k] += ncalls[p][k];
    MPI_Allreduce(MPI_IN_PLACE, &nwrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    double el = MPI_Wtime() - t0;
    if (wrank == 0) {
        load_end = load1();
        printf("\n%d case%s in %.1f s; timed calls on rank 0: pumma %lld, pumma_p?gemm_opts "
               "%lld, scalapack %lld\n",
               ncases, ncases == 1 ? "" : "s", el, calls[K_PUMMA], calls[K_OPTS],
               calls[K_SCALAPACK]);
        print_load(stdout, "at end", load_end);
        if (lowest_share >= 0)
            printf("CPU share (a rank's CPU time / wall time over a case's rounds, lowest "
                   "rank): lowest %.2f; below %.2f in %d of %d cases%s\n",
                   lowest_share, LOW_SHARE, nlowshare, nshares,
                   nlowshare ? "  WARNING: other work shared the cores, those timings "
                               "are noisy" : "");
        if (!quiet)
            fprintf(stderr, "[done %.1fs]\n", el);
    }
    if (&pumma_fake_calls) { /* make selfcheck */
        int mine = pumma_fake_calls, ok = mine == ncalls[PD][K_PUMMA], allok;
        int mine_o = &pumma_fake_opts_calls ? pumma_fake_opts_calls : -1;
        ok = ok && mine_o == calls[K_OPTS];
        MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (wrank == 0)
            printf("fake-check: fake pdgemm_ called %d times, driver timed %lld pumma pdgemm_ "
                   "calls; fake pumma_p?gemm_opts called %d times, driver timed %lld (rank "
                   "0; all ranks compared): %s\n",
                   mine, ncalls[PD][K_PUMMA], mine_o, calls[K_OPTS],
                   allok ? "OK" : "MISMATCH");
        if (!allok)
            nwrong++;
    }
    if (wrank == 0) {
        if (!fatal && (cfg.has_targets || sbase) && nresults) {
            summary(stdout, &cfg, dat, el, 0);
            if (stxt) {
                summary(stxt, &cfg, dat, el, 1);
                summary_csv(scsv, &cfg);
                printf("(this table also in %s.txt and %s.csv)\n", sbase, sbase);
            }
        }
        if (stxt)
            fclose(stxt);
        if (scsv)
            fclose(scsv);
        if (nwrong)
            printf("%d case%s WRONG\n", nwrong, nwrong == 1 ? "" : "s");
        if (fatal)
            printf("STOPPED: a pumma_p?gemm_opts call returned INFO != 0 (see the ERROR "
                   "line)\n");
        if (csv)
            fclose(csv);
        fflush(stdout);
    }
    free(results);
    Cblacs_exit(1);
    MPI_Finalize();
    return fatal ? 2 : nwrong ? 3 : 0;
}
