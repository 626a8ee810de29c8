/*
 * pumma_settings.c -- every environment variable pumma reads: the table
 * (one row per variable), its parse into one struct (pumma_base.h),
 * the docs generated from it, and the check that the processes of a grid
 * share the ones they must.
 *
 * The table. Each row: the name; whether the processes of a grid must
 * share it; its kind (a name from a list, an integer, a number, bytes,
 * one number per rank, name=value items, a path) with its range or names;
 * what a bad value's message says it expects; what unset means; one line
 * of documentation. From it come the parse (pumma_settings: every row,
 * once, at the first P?GEMM), the unknown-name warnings, the agreement
 * check, pumma-info's list, the README's environment table and
 * doc/environment.md's list of every variable (pumma-info --settings;
 * `make docs` rewrites them, make run-info fails when they differ). To
 * add a variable: a row here, a field in pumma_settings_t and an id in
 * pumma_base.h (in the table's order), then `make docs` and its
 * section in doc/environment.md.
 *
 * Strictness. Unset or empty is the default; anything the row does not
 * accept stops the program with "pumma: VAR=value is not valid; expected
 * ..." (the row's expect) or, for the names of pumma_codes.h, "pumma:
 * VAR=value is not known; choose one of: ...", said once (pumma_stop_all:
 * every process reads the same environment, as a rule, at the same call).
 * A silent fallback would run something the user did not ask for and look
 * like a result. Names are matched without regard to case.
 *
 * Agreement. A variable that changes what is sent, received or planned
 * must have the same value on every process: PUMMA_SHIFT=oddeven on one
 * rank only makes it pair its sends differently from the others (a hang),
 * PUMMA_SEGMENT on one only cuts its messages differently
 * (MPI_ERR_TRUNCATE). Launchers that pass the environment to some ranks,
 * and MPMD jobs, make that easy to get wrong, and nothing would say which
 * variable. So at a grid's first call (pumma_grid.c, when its
 * communicators are made) the shared variables are compared across the
 * grid: one MPI_Allreduce of a hash per variable, once per grid. A
 * difference stops every process of the grid, its first process saying
 * (once, not once per process)
 *
 *   pumma: PUMMA_X differs between processes (rank r: "a", rank s: "b")
 *
 * naming the first such variable of the table below, its value on the
 * grid's first process (r) and on the first whose value is another (s):
 * ranks of MPI_COMM_WORLD, `unset` for a variable unset or empty. Values are
 * compared as written: "auto" and unset differ.
 *
 * The files (tune, decision) need no comparison: a grid's process 0 reads
 * them and broadcasts what it read (pumma_model.c, pumma_decide.c); their
 * variables are compared, so all processes name the same files.
 *
 * Unknown names. At the first call (pumma_settings_scan) every PUMMA_*
 * name of the environment that is not in the table is reported, with the
 * closest known name when one is close (PUMMA_STAT -> PUMMA_STATS): a
 * variable misspelt otherwise does nothing, silently. So every variable
 * pumma reads must be in the table -- make run-env checks that the
 * sources read no other (envtst.sh).
 */
#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_base.h"
#include "pumma_codes.h"

extern char **environ;

/* ------------------------------------------------------------ the table */

typedef enum kind {
    K_NAME,      /* one of names (NULL-terminated; "auto": NULL) */
    K_INT,       /* an integer in [imin, imax] */
    K_NUMBER,    /* a finite number in [lo, hi] */
    K_BYTES,     /* a number in [lo, hi] after K, M, G or T (1024's) */
    K_RANKS,     /* one number in [lo, hi] per MPI rank, commas; or the
                    one word names[0] */
    K_MODEL,     /* name=value,... (PUMMA_MODEL_NAMES), values in [lo, hi] */
    K_PATH       /* any text (a file's path) */
} kind_t;

/*
 * shared: must be equal on every process of a grid; the others act on
 * their own process only (how long it sleeps, how it cuts its local
 * multiply, how it keeps its memory). at: the field of pumma_settings_t.
 * expect: the message's "expected ..." (K_RANKS: %d, the number of
 * ranks); NULL for K_NAME: "is not known; choose one of" the names.
 * integer: K_RANKS's numbers must be integers. values, dflt, doc: the
 * docs' words for what it accepts, what unset means (pumma-info shows it
 * too) and what it does.
 */
typedef struct setting {
    const char *name;
    int shared;
    kind_t kind;
    size_t at;
    const char *const *names;
    long long imin, imax, idflt;
    double lo, hi, dflt;
    int integer;
    const char *expect, *values, *dflt_text, *doc;
} setting_t;

#define AT(f) offsetof(pumma_settings_t, f)
#define NAME_OF(N, v, s) s,
static const char *const algo_names[] = {PUMMA_ALGO_LIST(NAME_OF) NULL};
static const char *const bcast_names[] = {PUMMA_BCAST_LIST(NAME_OF) NULL};
static const char *const reduce_names[] = {PUMMA_REDUCE_LIST(NAME_OF) NULL};
static const char *const shift_names[] = {PUMMA_SHIFT_LIST(NAME_OF) NULL};
static const char *const topo_names[] = {PUMMA_TOPO_LIST(NAME_OF) NULL};
/* given: C's own distribution; the others pumma_codes.h's layouts */
static const char *const layout_names[] = {
    "auto", "given", PUMMA_LAYOUT_LIST(NAME_OF) NULL};
/* pumma_ecef.c's heuristics (the comm layer's: named here, not asked) */
static const char *const hier_names[] = {"auto", "ecef", "ecef-la",
                                         "ecef-lat", NULL};
static const char *const tune_names[] = {"auto", "refresh", "off", NULL};
static const char *const measure_names[] = {"measure", NULL};
static const char *const model_names[] = {PUMMA_MODEL_NAMES, NULL};

/* MODEL_MAX is far above any real machine's figure (seconds per message,
 * byte or multiply-add, or ratios near 1 and 8) and keeps every cost
 * finite: sizes enter as at most (2^31)^3 ~ 1e28 multiply-adds. */
#define MODEL_MAX 1e10
/* Emulated latencies are micro- to milliseconds; the bound keeps a
 * mistyped value (1e9) from holding every message back for good. */
#define LATENCY_MAX 10.0
#define LEAST_POSITIVE 0x1p-1074     /* the least double > 0 */

static const setting_t settings[PUMMA_NSETTINGS] = {
    [PUMMA_SET_ALGO] = {"PUMMA_ALGO", 1, K_NAME, AT(algo), algo_names,
        .dflt_text = "auto",
        .doc = "the algorithm of the plain P?GEMM calls"},
    [PUMMA_SET_BCAST] = {"PUMMA_BCAST", 1, K_NAME, AT(bcast), bcast_names,
        .dflt_text = "auto", .doc = "the broadcast variant"},
    [PUMMA_SET_REDUCE] = {"PUMMA_REDUCE", 1, K_NAME, AT(reduce), reduce_names,
        .dflt_text = "auto",
        .doc = "the reduce variant (tn, nt, stat-a, stat-b)"},
    [PUMMA_SET_SHIFT] = {"PUMMA_SHIFT", 1, K_NAME, AT(shift), shift_names,
        .dflt_text = "auto", .doc = "how A or B rolls"},
    [PUMMA_SET_TOPOLOGY] = {"PUMMA_TOPOLOGY", 1, K_NAME, AT(topology),
        topo_names, .dflt_text = "auto (full)",
        .doc = "the network the heterogeneous schedules assume"},
    [PUMMA_SET_SEGMENT] = {"PUMMA_SEGMENT", 1, K_INT, AT(segment),
        .imin = 0, .imax = INT_MAX, .idflt = 0,
        .expect = "an integer >= 0 (bytes per pipelined piece; 0: the "
                  "default)",
        .values = "bytes, 0 to 2147483647",
        .dflt_text = "0: the variant's own",
        .doc = "pieces of the broadcasts and reduces"},
    [PUMMA_SET_SLICE] = {"PUMMA_SLICE", 1, K_INT, AT(slice),
        .imin = 0, .imax = INT_MAX, .idflt = 0,
        .expect = "an integer >= 0 (columns of K per slice; 0: automatic)",
        .values = "columns, 0 to 2147483647",
        .dflt_text = "0: about K/8, at least 128",
        .doc = "K per slice in het-overlap"},
    [PUMMA_SET_PIECE] = {"PUMMA_PIECE", 1, K_INT, AT(piece),
        .imin = 1, .imax = LLONG_MAX, .idflt = (long long)PUMMA_PIECE_DEFAULT,
        .expect = "an integer >= 1 (bytes per summed piece)",
        .values = "bytes >= 1", .dflt_text = "64 MiB",
        .doc = "largest piece of tn/nt sums and of a redistribution's "
               "exchange"},
    [PUMMA_SET_HET_LAYOUT] = {"PUMMA_HET_LAYOUT", 1, K_NAME, AT(het_layout),
        layout_names,
        .expect = "auto, given, columns, strips, rect3 or square-corner",
        .dflt_text = "auto",
        .doc = "where a heterogeneous call computes sub(C)"},
    [PUMMA_SET_CLUSTERS] = {"PUMMA_CLUSTERS", 1, K_RANKS, AT(clusters),
        measure_names, .lo = 0, .hi = 4095, .integer = 1,
        .expect = "measure, or %d integers 0 to 4095 separated by commas, "
                  "the cluster of each MPI rank",
        .values = "measure, or one cluster 0 to 4095 per rank",
        .dflt_text = "one cluster",
        .doc = "the grids span clusters: two-level broadcasts and reduces"},
    [PUMMA_SET_HIER_SCHEDULE] = {"PUMMA_HIER_SCHEDULE", 1, K_NAME,
        AT(hier_schedule), hier_names,
        .expect = "ecef, ecef-la, ecef-lat or auto", .dflt_text = "auto",
        .doc = "the schedule between clusters"},
    [PUMMA_SET_MODEL] = {"PUMMA_MODEL", 1, K_MODEL, AT(model), model_names,
        .lo = 0, .hi = MODEL_MAX,
        .values = "name=value,... (0 to 1e10)", .dflt_text = "measured",
        .doc = "machine model values instead of measured ones"},
    [PUMMA_SET_MAX_WORKSPACE] = {"PUMMA_MAX_WORKSPACE", 1, K_BYTES,
        AT(max_workspace), .lo = 0, .hi = 9.0e18, .dflt = -1,
        .expect = "bytes of temporaries per process, 0 (no limit) to 9e18, "
                  "optionally followed by K, M, G or T",
        .values = "bytes, K/M/G/T suffix; 0: no limit",
        .dflt_text = "twice the local A, B, C; at least 256 MiB",
        .doc = "bound on pumma's temporaries per process"},
    [PUMMA_SET_STATS] = {"PUMMA_STATS", 1, K_INT, AT(stats),
        .imin = 0, .imax = 2, .idflt = 0,
        .expect = "0, 1 or 2 (1: print statistics at exit; 2: and each "
                  "call's plan)",
        .values = "0, 1, 2", .dflt_text = "0",
        .doc = "1: print `pumma-stats:` lines at exit; 2: and each call's "
               "plan"},
    [PUMMA_SET_TUNE] = {"PUMMA_TUNE", 1, K_NAME, AT(tune), tune_names,
        .expect = "auto, refresh or off", .dflt_text = "auto",
        .doc = "read, remeasure or ignore the tune file"},
    [PUMMA_SET_TUNE_FILE] = {"PUMMA_TUNE_FILE", 1, K_PATH, AT(tune_file),
        .values = "a path",
        .dflt_text = "`$XDG_CACHE_HOME/pumma/tune`, else "
                     "`~/.cache/pumma/tune`",
        .doc = "the tune file (machine model)"},
    [PUMMA_SET_DECISION_FILE] = {"PUMMA_DECISION_FILE", 1, K_PATH,
        AT(decision_file), .values = "a path, or off",
        .dflt_text = "`decision` beside the tune file",
        .doc = "the decision file (per-message variants)"},
    [PUMMA_SET_SMPI_COMPUTE] = {"PUMMA_SMPI_COMPUTE", 1, K_PATH,
        AT(smpi_compute), .values = "a compute model's path",
        .dflt_text = "unset: run the multiplies",
        .doc = "simulated runs (make smpi): charge ?GEMM from this model"},
    [PUMMA_SET_PANEL] = {"PUMMA_PANEL", 0, K_INT, AT(panel),
        .imin = 0, .imax = INT_MAX, .idflt = -1,
        .expect = "an integer >= 0 (columns per local multiply panel; 0: "
                  "no panels)",
        .values = "columns, 0 to 2147483647",
        .dflt_text = "512; 128 heterogeneous",
        .doc = "local multiply panel width; 0: no panels"},
    [PUMMA_SET_LATENCY] = {"PUMMA_LATENCY", 0, K_NUMBER, AT(latency),
        .lo = 0, .hi = LATENCY_MAX, .dflt = 0,
        .expect = "a number of seconds from 0 to 10",
        .values = "seconds, 0 to 10", .dflt_text = "0",
        .doc = "hold heterogeneous messages back (emulated latency)"},
    [PUMMA_SET_SPEEDS] = {"PUMMA_SPEEDS", 0, K_RANKS, AT(speeds),
        .lo = LEAST_POSITIVE, .hi = DBL_MAX,
        .expect = "%d finite numbers > 0 separated by commas, one relative "
                  "speed per MPI rank",
        .values = "one speed > 0 per rank", .dflt_text = "unset",
        .doc = "slow ranks down to emulate unequal processors"},
    [PUMMA_SET_SPEED_BASE] = {"PUMMA_SPEED_BASE", 0, K_NUMBER,
        AT(speed_base), .lo = LEAST_POSITIVE, .hi = DBL_MAX, .dflt = 0,
        .expect = "a finite number > 0, the speed of a processor that is "
                  "not slowed",
        .values = "number > 0", .dflt_text = "the largest of PUMMA_SPEEDS",
        .doc = "this machine's speed in PUMMA_SPEEDS's units"},
    [PUMMA_SET_JITTER] = {"PUMMA_JITTER", 0, K_NUMBER, AT(jitter),
        .lo = 0, .hi = 1e6, .dflt = 0,
        .expect = "microseconds, 0 to 1000000",
        .values = "microseconds, 0 to 1000000", .dflt_text = "0",
        .doc = "random sleeps at communication points (testing)"},
    [PUMMA_SET_CACHE] = {"PUMMA_CACHE", 0, K_INT, AT(cache),
        .imin = 0, .imax = 1, .idflt = 1,
        .expect = "0 or 1 (0: return temporaries to the system at once)",
        .values = "0, 1", .dflt_text = "1",
        .doc = "keep freed temporaries for the next call"},
    [PUMMA_SET_HUGEPAGES] = {"PUMMA_HUGEPAGES", 0, K_INT, AT(hugepages),
        .imin = 0, .imax = 1, .idflt = 1,
        .expect = "0 or 1 (0: no huge pages asked for temporaries)",
        .values = "0, 1", .dflt_text = "1",
        .doc = "ask for huge pages for temporaries (the arena)"},
};
enum { NSET = PUMMA_NSETTINGS };

/* PUMMA_* names that are no setting of pumma's and are not reported as
 * unknown (compared without regard to case): names other tools set in
 * the environment of programs that link pumma. */
static const char *const not_settings[] = {
    /* TIMING/fake_pumma.c, the stand-in library of the bench's self-check
     * (make -C TIMING selfcheck), reads these; pumma never does */
    "PUMMA_FAKE_PERTURB", "PUMMA_FAKE_INFO",
    /* building against pumma: pkg-config's overrides, which autoconf's
     * PKG_CHECK_MODULES([PUMMA], [pumma]) reads from the environment, the
     * install directory EXAMPLES/Makefile names, and CMake's
     * find_package(pumma) hints */
    "PUMMA_CFLAGS", "PUMMA_LIBS", "PUMMA_LIBDIR", "PUMMA_ROOT", "PUMMA_DIR",
};
enum { NNOT = (int)(sizeof not_settings / sizeof *not_settings) };

int pumma_settings_count(void) { return NSET; }

const char *pumma_settings_name(int i, int *shared)
{
    if (i < 0 || i >= NSET) return NULL;
    if (shared) *shared = settings[i].shared;
    return settings[i].name;
}

const char *pumma_settings_default(int i)
{
    return i < 0 || i >= NSET ? NULL : settings[i].dflt_text;
}

/* ------------------------------------------------------------ the parse */

static pumma_settings_t values;
static unsigned char parsed[NSET];
/* a bit of `given` per row: unsigned long has 32 at least */
typedef char given_fits[NSET <= 32 ? 1 : -1];

static void *field(const setting_t *s) { return (char *)&values + s->at; }

/* A name not in the row's list: the row's expect, or every name of the
 * list (pumma_codes.h's). */
void pumma_settings_refuse(int id, const char *v)
{
    const setting_t *s = &settings[id];
    if (s->expect) pumma_env_bad(s->name, v, s->expect);
    char names[512];
    size_t at = 0;
    names[0] = '\0';
    for (int i = 0; s->names[i] && at < sizeof names; i++)
        at += (size_t)snprintf(names + at, sizeof names - at, " %s",
                               s->names[i]);
    pumma_stop_all("pumma: %s=%s is not known; choose one of:%s\n", s->name,
                   v, names);
}

static void parse_name(const setting_t *s, const char *v)
{
    const char **f = field(s);
    for (int i = 0; s->names[i]; i++)
        if (pumma_name_eq(v, s->names[i])) {
            *f = strcmp(s->names[i], "auto") ? s->names[i] : NULL;
            return;
        }
    pumma_settings_refuse((int)(s - settings), v);
}

/* A number, then optionally K, M, G or T (powers of 1024), as a whole
 * number of bytes. */
static void parse_bytes(const setting_t *s, const char *v)
{
    char num[64];
    size_t len = strlen(v);
    double unit = 1, x;
    if (len >= sizeof num) pumma_env_bad(s->name, v, s->expect);
    memcpy(num, v, len + 1);
    const char *units = "KMGT";
    const char *u = strchr(units, toupper((unsigned char)num[len - 1]));
    if (u && *u) {
        unit = ldexp(1.0, 10 * (int)(u - units + 1));
        num[len - 1] = '\0';
    }
    if (pumma_env_parse_double(num, s->lo, s->hi, &x) || !(x * unit <= s->hi))
        pumma_env_bad(s->name, v, s->expect);
    *(double *)field(s) = floor(x * unit);
}

/* A copy of v, kept for the program's life: the program may setenv the
 * variable later. */
static const char *copy(const setting_t *s, const char *v)
{
    char *c = malloc(strlen(v) + 1);
    if (!c) pumma_fatal(MPI_COMM_NULL, s->name, "value", PUMMA_ENOMEM);
    return strcpy(c, v);
}

/* One number per rank of MPI_COMM_WORLD (the rank count in the message),
 * or the row's word. The list is kept for the program's life. */
static void parse_ranks(const setting_t *s, const char *v)
{
    pumma_rank_list_t *f = field(s);
    f->text = copy(s, v);
    if (s->names && pumma_name_eq(v, s->names[0])) {
        f->word = s->names[0];
        return;
    }
    int n = 1, up = 0;
    MPI_Initialized(&up);
    if (up) MPI_Comm_size(MPI_COMM_WORLD, &n);
    char expect[200];
    snprintf(expect, sizeof expect, s->expect, n);
    double *x = malloc(sizeof(double) * (size_t)n);
    if (!x) pumma_fatal(MPI_COMM_NULL, s->name, "list", PUMMA_ENOMEM);
    int k = pumma_env_list(s->name, x, n, s->lo, s->hi, expect);
    for (int i = 0; s->integer && i < k && i < n; i++)
        if (x[i] != (int)x[i]) k = -1;
    if (k != n) pumma_env_bad(s->name, v, expect);
    f->v = x;
    f->n = n;
}

/* PUMMA_MODEL's items: each must name a value and give it a number in
 * range -- a typo must not leave a value measured while the user believes
 * it set. */
static int model_item(const char *tok, void *ctx)
{
    const setting_t *s = ctx;
    const char *eq = strchr(tok, '=');
    size_t len = eq ? (size_t)(eq - tok) : 0;
    char name[16];                  /* the longest name is 7 letters */
    int i;
    if (!eq || len >= sizeof name) return -1;
    memcpy(name, tok, len);
    name[len] = '\0';
    for (i = 0; s->names[i]; i++)
        if (pumma_name_eq(s->names[i], name)) break;
    if (!s->names[i] && pumma_name_eq(name, "gamma"))         /* gamma_d */
        for (i = 0; strcmp(s->names[i], "gamma_d"); i++) {}
    if (!s->names[i] ||
        pumma_env_parse_double(eq + 1, s->lo, s->hi, &values.model.v[i]))
        return -1;
    values.model.set |= 1u << i;
    return 0;
}

static void parse_model(const setting_t *s, const char *v)
{
    if (!pumma_env_items(v, model_item, (void *)s)) return;
    char expect[256];
    int at = snprintf(expect, sizeof expect,
                      "name=value,... with each value a number from 0 to "
                      "1e10 and names");
    for (int j = 0; s->names[j] && at < (int)sizeof expect; j++)
        at += snprintf(expect + at, sizeof expect - (size_t)at, " %s",
                       s->names[j]);
    if (at < (int)sizeof expect)
        snprintf(expect + at, sizeof expect - (size_t)at, " (gamma = gamma_d)");
    pumma_env_bad(s->name, v, expect);
}

/* Row id into values: its default when unset or empty, else its value, or
 * the program stops. */
static void parse(int id)
{
    const setting_t *s = &settings[id];
    const char *v = pumma_env_get(s->name);
    switch (s->kind) {
    case K_INT: {
        long long x = s->idflt;
        if (v && pumma_env_parse_int(v, s->imin, s->imax, &x))
            pumma_env_bad(s->name, v, s->expect);
        *(long long *)field(s) = x;
        break;
    }
    case K_NUMBER: {
        double x = s->dflt;
        if (v && pumma_env_parse_double(v, s->lo, s->hi, &x))
            pumma_env_bad(s->name, v, s->expect);
        *(double *)field(s) = x;
        break;
    }
    case K_BYTES:
        *(double *)field(s) = s->dflt;
        if (v) parse_bytes(s, v);
        break;
    case K_NAME:
        if (v) parse_name(s, v);
        break;
    case K_RANKS:
        if (v) parse_ranks(s, v);
        break;
    case K_MODEL:
        if (v) parse_model(s, v);
        break;
    case K_PATH:
        if (v) *(const char **)field(s) = copy(s, v);
        break;
    }
    if (v && !(s->kind == K_NAME && !*(const char **)field(s)))
        values.given |= 1ul << id;
    parsed[id] = 1;
}

const pumma_settings_t *pumma_setting(int id)
{
    if (!parsed[id]) parse(id);
    return &values;
}

/* Every row, in the table's order, once: so a bad value stops the program
 * at its first P?GEMM, not at the first call that happens to use it (or
 * never, leaving the user to believe it took effect). */
const pumma_settings_t *pumma_settings(void)
{
    static int done = 0;
    if (done) return &values;
    /* names in the environment that pumma does not know: said first */
    pumma_settings_scan();
    for (int i = 0; i < NSET; i++)
        if (!parsed[i]) parse(i);
    done = 1;
    return &values;
}

/* ---------------------------------------------------- the generated docs */

/* A bound as the docs write it: whole numbers below 1e7 in full, others
 * as 1e10 (not 1e+10). */
static void number(char *out, size_t len, double x)
{
    if (x == floor(x) && fabs(x) < 1e7) {
        snprintf(out, len, "%.0f", x);
        return;
    }
    char t[32], *e;
    snprintf(t, sizeof t, "%g", x);
    if ((e = strstr(t, "e+")) != NULL) {
        char *d = e + 2;
        while (*d == '0' && d[1]) d++;
        memmove(e + 1, d, strlen(d) + 1);
    }
    snprintf(out, len, "%s", t);
}

/* The names of a row, separated by sep. */
static void names_of(FILE *out, const setting_t *s, const char *sep)
{
    for (int i = 0; s->names[i]; i++)
        fprintf(out, "%s%s", i ? sep : "", s->names[i]);
}

/* What row s accepts, from its range or names (the reference list). */
static void accepts(FILE *out, const setting_t *s)
{
    char lo[32], hi[32];
    number(lo, sizeof lo, s->lo);
    number(hi, sizeof hi, s->hi);
    const char *range = s->lo == LEAST_POSITIVE ? "> 0" : NULL;
    switch (s->kind) {
    case K_NAME:
        names_of(out, s, ", ");
        break;
    case K_INT:
        if (s->imax == LLONG_MAX) fprintf(out, ">= %lld", s->imin);
        else fprintf(out, "%lld to %lld", s->imin, s->imax);
        break;
    case K_NUMBER:
        if (range) fprintf(out, "%s, finite", range);
        else fprintf(out, "%s to %s", lo, hi);
        break;
    case K_BYTES:
        fprintf(out, "%s to %s, optionally followed by K, M, G or T", lo, hi);
        break;
    case K_RANKS:
        if (s->names) fprintf(out, "%s, or ", s->names[0]);
        fprintf(out, "one %s ", s->integer ? "integer" : "number");
        if (range) fprintf(out, "%s", range);
        else fprintf(out, "%s to %s", lo, hi);
        fprintf(out, " per MPI rank, commas");
        break;
    case K_MODEL:
        fprintf(out, "name=value,... of ");
        names_of(out, s, ", ");
        fprintf(out, " (gamma: gamma_d), each %s to %s", lo, hi);
        break;
    case K_PATH:
        fprintf(out, "%s", s->values);
        break;
    }
}

static const char *const kind_words[] = {
    [K_NAME] = "name", [K_INT] = "integer", [K_NUMBER] = "number",
    [K_BYTES] = "bytes", [K_RANKS] = "per rank", [K_MODEL] = "items",
    [K_PATH] = "path"};

/* The names of the shared (shared 1) or the per-process (0) rows, as a
 * sentence's list: "A, B and C (3)." */
static void scope_list(FILE *out, int shared)
{
    int n = 0, k = 0;
    for (int i = 0; i < NSET; i++) n += settings[i].shared == shared;
    for (int i = 0; i < NSET; i++) {
        if (settings[i].shared != shared) continue;
        fprintf(out, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ",
                settings[i].name);
        k++;
    }
    fprintf(out, " (%d).\n", n);
}

/*
 * pumma_settings_doc: see pumma_base.h. The formats: readme (the
 * README's table: its values column in the README's words), reference
 * (doc/environment.md's list: what each accepts, from the ranges and
 * names the parse uses), shared and process (the names of each scope).
 */
int pumma_settings_doc(FILE *out, const char *format)
{
    const int readme = !strcmp(format, "readme");
    if (!strcmp(format, "shared") || !strcmp(format, "process")) {
        scope_list(out, format[0] == 's');
        return 0;
    }
    if (!readme && strcmp(format, "reference")) return -1;
    if (readme)
        fprintf(out, "| variable | values | default | scope | what it does |\n"
                     "| -------- | ------ | ------- | ----- | ------------ |\n");
    else
        fprintf(out, "| variable | kind | accepts | default | scope |\n"
                     "| -------- | ---- | ------- | ------- | ----- |\n");
    for (int i = 0; i < NSET; i++) {
        const setting_t *s = &settings[i];
        char anchor[64];
        size_t n = 0;
        for (; s->name[n] && n + 1 < sizeof anchor; n++)
            anchor[n] = (char)tolower((unsigned char)s->name[n]);
        anchor[n] = '\0';
        if (readme) fprintf(out, "| [%s](doc/environment.md#%s) | ", s->name,
                            anchor);
        else fprintf(out, "| [%s](#%s) | %s | ", s->name, anchor,
                     kind_words[s->kind]);
        if (readme && s->kind == K_NAME) names_of(out, s, ", ");
        else if (readme) fprintf(out, "%s", s->values);
        else accepts(out, s);
        fprintf(out, " | %s | %s |", s->dflt_text,
                s->shared ? "shared" : readme ? "process" : "per process");
        if (readme) fprintf(out, " %s |", s->doc);
        fprintf(out, "\n");
    }
    return 0;
}

/* ------------------------------------------------------ unknown names */

static int upper(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }

/* Edit distance (insertions, deletions, substitutions) between a and b,
 * letters compared without regard to case; names are short, so 64
 * characters of each are enough (the rest is not compared). */
static int distance(const char *a, const char *b)
{
    enum { MAXN = 64 };
    int la = 0, lb = 0;
    while (la < MAXN && a[la]) la++;
    while (lb < MAXN && b[lb]) lb++;
    int row[MAXN + 1];
    for (int j = 0; j <= lb; j++) row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            const int up = row[j];
            const int sub = diag + (upper(a[i - 1]) != upper(b[j - 1]));
            int d = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < d ? sub : d;
            diag = up;
        }
    }
    return row[lb];
}

/* Whether the n characters of s from `at` are t's first n, without regard
 * to case. */
static int same_at(const char *s, size_t at, const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (upper(s[at + i]) != upper(t[i])) return 0;
    return 1;
}

/*
 * The known name closest to the unknown `name` (both past "PUMMA_"), NULL
 * when none is close: within 3 edits and fewer than half the longer
 * name's letters (PUMMA_STAT, PUMMA_BCST, PUMMA_TUNEFILE), or one a
 * prefix of the other, or the known one inside the unknown, at least 4
 * letters of it (PUMMA_ALGORITHM, PUMMA_DECISION, PUMMA_FORCE_ALGO). Of
 * several, the fewest edits away, the table's first of those.
 */
static const char *closest(const char *name)
{
    const char *best = NULL;
    int bestd = 0;
    const size_t ln = strlen(name);
    for (int i = 0; i < NSET; i++) {
        const char *k = settings[i].name + 6;
        const size_t lk = strlen(k), lmax = ln > lk ? ln : lk;
        const int d = distance(name, k);
        int close = d <= 3 && 2 * (size_t)d < lmax;
        const size_t lmin = ln < lk ? ln : lk;
        if (lmin >= 3 && same_at(name, 0, k, lmin)) close = 1;
        for (size_t at = 0; !close && lk >= 4 && at + lk <= ln; at++)
            close = same_at(name, at, k, lk);
        if (close && (!best || d < bestd)) {
            best = settings[i].name;
            bestd = d;
        }
    }
    return best;
}

/*
 * pumma_settings_scan: see pumma_base.h. Once per process; only
 * MPI_COMM_WORLD's rank 0 speaks, so the program hears each name once
 * whatever its grids: the environment is, as a rule, every process's,
 * rank 0 is the process whose output PUMMA_STATS uses too, and no message
 * is needed (a grid's first process would speak once per disjoint grid).
 * Names are recognised without regard to case (pumma_algo is reported:
 * pumma reads PUMMA_ALGO only).
 */
void pumma_settings_scan(void)
{
    static int done = 0;
    if (done) return;
    done = 1;
    int me = 0, up = 0;
    MPI_Initialized(&up);
    if (up) MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) pumma_settings_unknown(stderr, "pumma: ");
}

/* Each PUMMA_* name of the environment that is not a setting, one line
 * each on out after lead (pumma-info lists them too). */
void pumma_settings_unknown(FILE *out, const char *lead)
{
    if (!environ) return;
    for (char **e = environ; *e; e++) {
        const char *v = *e, *eq = strchr(v, '=');
        const size_t n = eq ? (size_t)(eq - v) : strlen(v);
        if (n <= 6 || !same_at(v, 0, "PUMMA_", 6)) continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)n, v);
        int known = 0;
        for (int i = 0; i < NSET && !known; i++)
            known = strcmp(name, settings[i].name) == 0;
        for (int i = 0; i < NNOT && !known; i++)
            known = pumma_name_eq(name, not_settings[i]);
        if (known) continue;
        const char *near = closest(name + 6);
        if (near)
            fprintf(out, "%s%s is not a pumma variable; did you mean %s?\n",
                    lead, name, near);
        else
            fprintf(out, "%s%s is not a pumma variable (doc/environment.md)\n",
                    lead, name);
    }
    fflush(out);
}

/* ------------------------------------------------- agreement of a grid */

/* FNV-1a of the value; unset and empty alike (a value cannot hash to 0:
 * its length is mixed in after it). */
static uint64_t hash_of(const char *v)
{
    if (!v) return 0;
    uint64_t h = 1469598103934665603ull;
    size_t n = 0;
    for (; v[n]; n++) h = (h ^ (unsigned char)v[n]) * 1099511628211ull;
    h = (h ^ n) * 1099511628211ull;
    return h ? h : 1;
}

/* What a value looks like in the message: quoted, cut to fit a line. */
enum { SHOWN = 200 };
static void shown(char *out, const char *v)
{
    if (!v) {
        snprintf(out, SHOWN + 8, "unset");
        return;
    }
    size_t n = strlen(v);
    snprintf(out, SHOWN + 8, "\"%.*s%s\"", (int)(n > SHOWN ? SHOWN - 3 : n), v,
             n > SHOWN ? "..." : "");
}

/*
 * pumma_settings_agree: compares the shared variables across comm (global
 * input: a grid's communicator; collective). Returns when they agree;
 * otherwise the grid's first process prints the one line above on
 * standard error -- once: every process knows the same, and one line per
 * process says nothing more -- and the processes stop (MPI_Abort, status
 * 2). An MPI failure here returns PUMMA_EMPI, else PUMMA_OK. Also where
 * the environment's unknown names are looked for, at the first grid of
 * the program that has none of P?GEMM (PUMMA_P?GEMR2D, ...).
 */
int pumma_settings_agree(MPI_Comm comm)
{
    pumma_settings_scan();
    /* max of h and of ~h: the largest and (complemented) least hash of
     * each variable in one reduction */
    uint64_t h[2 * NSET], m[2 * NSET];
    int k = 0;
    for (int i = 0; i < NSET; i++) {
        if (!settings[i].shared) continue;
        uint64_t x = hash_of(pumma_env_get(settings[i].name));
        h[2 * k] = x;
        h[2 * k + 1] = ~x;
        k++;
    }
    if (MPI_Allreduce(h, m, 2 * k, MPI_UINT64_T, MPI_MAX, comm) != MPI_SUCCESS)
        return PUMMA_EMPI;
    int j = 0;
    while (j < k && m[2 * j] == ~m[2 * j + 1]) j++;
    if (j == k) return PUMMA_OK;
    /* The j-th shared variable differs: its value on the grid's first
     * process and on the lowest process whose value is another. */
    const char *name = NULL;
    for (int i = 0, n = 0; i < NSET && !name; i++)
        if (settings[i].shared && n++ == j) name = settings[i].name;
    const char *v = pumma_env_get(name);
    uint64_t first = h[2 * j];
    int me, who, other;
    MPI_Comm_rank(comm, &me);
    MPI_Bcast(&first, 1, MPI_UINT64_T, 0, comm);
    who = h[2 * j] != first ? me : INT32_MAX;
    MPI_Allreduce(&who, &other, 1, MPI_INT, MPI_MIN, comm);
    char text[2][SHOWN + 8];
    int world[2];
    for (int s = 0; s < 2; s++) {
        const int root = s ? other : 0;
        if (me == root) {
            shown(text[s], v);
            MPI_Comm_rank(MPI_COMM_WORLD, &world[s]);
        }
        MPI_Bcast(text[s], (int)sizeof text[s], MPI_CHAR, root, comm);
        MPI_Bcast(&world[s], 1, MPI_INT, root, comm);
    }
    if (me == 0) {
        fprintf(stderr, "pumma: %s differs between processes (rank %d: %s, "
                        "rank %d: %s)\n", name, world[0], text[0], world[1],
                text[1]);
        fflush(stderr);
    }
    /* it has been said before any process is stopped */
    MPI_Barrier(comm);
    MPI_Abort(comm, 2);
    return PUMMA_EMPI;
}
