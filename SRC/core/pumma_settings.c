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
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pumma_internal.h"

/* shared: must be equal on every process of a grid. The others act on
 * their own process only (how long it sleeps, how it cuts its local
 * multiply, how it keeps its memory). */
typedef struct setting { const char *name; int shared; } setting_t;
static const setting_t settings[] = {
    {"PUMMA_ALGO", 1},          {"PUMMA_BCAST", 1},
    {"PUMMA_REDUCE", 1},        {"PUMMA_SHIFT", 1},
    {"PUMMA_TOPOLOGY", 1},      {"PUMMA_SEGMENT", 1},
    {"PUMMA_SLICE", 1},         {"PUMMA_PIECE", 1},
    {"PUMMA_HET_LAYOUT", 1},    {"PUMMA_CLUSTERS", 1},
    {"PUMMA_HIER_SCHEDULE", 1}, {"PUMMA_MODEL", 1},
    {"PUMMA_MAX_WORKSPACE", 1}, {"PUMMA_STATS", 1},
    {"PUMMA_TUNE", 1},          {"PUMMA_TUNE_FILE", 1},
    {"PUMMA_DECISION_FILE", 1},
    /* per process */
    {"PUMMA_PANEL", 0},         {"PUMMA_LATENCY", 0},
    {"PUMMA_SPEEDS", 0},        {"PUMMA_SPEED_BASE", 0},
    {"PUMMA_JITTER", 0},        {"PUMMA_CACHE", 0},
};
enum { NSET = (int)(sizeof settings / sizeof *settings) };

int pumma_settings_count(void) { return NSET; }

const char *pumma_settings_name(int i, int *shared)
{
    if (i < 0 || i >= NSET) return NULL;
    if (shared) *shared = settings[i].shared;
    return settings[i].name;
}

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
 * 2). An MPI failure here returns PUMMA_EMPI, else PUMMA_OK.
 */
int pumma_settings_agree(MPI_Comm comm)
{
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
