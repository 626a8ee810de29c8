/*
 * pumma_settings.c -- every environment variable pumma reads, and the
 * check that the processes of a grid share the ones they must.
 *
 * A variable that changes what is sent, received or planned must have the
 * same value on every process: PUMMA_SHIFT=oddeven on one rank only makes
 * it pair its sends differently from the others (a hang), PUMMA_SEGMENT
 * on one only cuts its messages differently (MPI_ERR_TRUNCATE). Launchers
 * that pass the environment to some ranks, and MPMD jobs, make that easy
 * to get wrong, and nothing would say which variable. So at a grid's
 * first call (pumma_grid.c, when its communicators are made) the shared
 * variables are compared across the grid: one MPI_Allreduce of a hash
 * per variable, once per grid. A difference stops every process of the
 * grid, its first process saying (once, not once per process)
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
 * The table is also what an unknown name is checked against: at the first
 * call (pumma_settings_scan) every PUMMA_* name of the environment that is
 * not in it is reported, with the closest known name when one is close
 * (PUMMA_STAT -> PUMMA_STATS): a variable misspelt otherwise does nothing,
 * silently. So every variable pumma reads must be in the table -- make
 * run-env checks that the sources read no other (envtst.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pumma_internal.h"

extern char **environ;

/* shared: must be equal on every process of a grid. The others act on
 * their own process only (how long it sleeps, how it cuts its local
 * multiply, how it keeps its memory). dflt: what unset means, as
 * pumma-info shows it (doc/environment.md has the details). */
typedef struct setting {
    const char *name;
    int shared;
    const char *dflt;
} setting_t;
static const setting_t settings[] = {
    {"PUMMA_ALGO", 1, "auto"},
    {"PUMMA_BCAST", 1, "auto"},
    {"PUMMA_REDUCE", 1, "auto"},
    {"PUMMA_SHIFT", 1, "auto"},
    {"PUMMA_TOPOLOGY", 1, "auto (full)"},
    {"PUMMA_SEGMENT", 1, "0 (each variant's own)"},
    {"PUMMA_SLICE", 1, "0 (about K/8, at least 128)"},
    {"PUMMA_PIECE", 1, "67108864"},
    {"PUMMA_HET_LAYOUT", 1, "auto"},
    {"PUMMA_CLUSTERS", 1, "unset (one cluster)"},
    {"PUMMA_HIER_SCHEDULE", 1, "auto"},
    {"PUMMA_MODEL", 1, "unset (measured, or the tune file's)"},
    {"PUMMA_MAX_WORKSPACE", 1, "twice the local operands, >= 256M"},
    {"PUMMA_STATS", 1, "0"},
    {"PUMMA_TUNE", 1, "auto"},
    {"PUMMA_TUNE_FILE", 1, "$XDG_CACHE_HOME/pumma/tune"},
    {"PUMMA_DECISION_FILE", 1, "decision beside the tune file"},
    /* per process */
    {"PUMMA_PANEL", 0, "512 (128 on heterogeneous calls)"},
    {"PUMMA_LATENCY", 0, "0"},
    {"PUMMA_SPEEDS", 0, "unset (every rank speed 1)"},
    {"PUMMA_SPEED_BASE", 0, "the largest of PUMMA_SPEEDS"},
    {"PUMMA_JITTER", 0, "0"},
    {"PUMMA_CACHE", 0, "1"},
    {"PUMMA_HUGEPAGES", 0, "1"},
};
enum { NSET = (int)(sizeof settings / sizeof *settings) };

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
    return i < 0 || i >= NSET ? NULL : settings[i].dflt;
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
 * pumma_settings_scan: see pumma_internal.h. Once per process; only
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
