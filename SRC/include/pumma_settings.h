/*
 * pumma_settings.h -- every PUMMA_* environment variable, parsed once into
 * one struct (not installed). The table, one row per variable (its kind,
 * range or names, default, whether a grid's processes must share it, one
 * line of documentation), is in SRC/core/pumma_settings.c: a new variable
 * is a row there, a field here and an id below (doc/internals.md).
 *
 * The settings are the bottom layer: they know the names of
 * pumma_codes.h, never the algorithm or variant tables; the driver
 * resolves a name to its table row.
 */
#ifndef PUMMA_SETTINGS_H
#define PUMMA_SETTINGS_H

#include <stdio.h>

/* The variables, in the table's order: the order of the agreement check
 * across a grid, of pumma-info's list and of the generated docs. */
enum pumma_setting_id {
    PUMMA_SET_ALGO, PUMMA_SET_BCAST, PUMMA_SET_REDUCE, PUMMA_SET_SHIFT,
    PUMMA_SET_TOPOLOGY, PUMMA_SET_SEGMENT, PUMMA_SET_SLICE, PUMMA_SET_PIECE,
    PUMMA_SET_HET_LAYOUT, PUMMA_SET_CLUSTERS, PUMMA_SET_HIER_SCHEDULE,
    PUMMA_SET_MODEL, PUMMA_SET_MAX_WORKSPACE, PUMMA_SET_STATS,
    PUMMA_SET_TUNE, PUMMA_SET_TUNE_FILE, PUMMA_SET_DECISION_FILE,
    /* per process */
    PUMMA_SET_PANEL, PUMMA_SET_LATENCY, PUMMA_SET_SPEEDS,
    PUMMA_SET_SPEED_BASE, PUMMA_SET_JITTER, PUMMA_SET_CACHE,
    PUMMA_SET_HUGEPAGES,
    PUMMA_NSETTINGS
};

/* The names of the machine model's values, in the order of pumma_tune.h's
 * PUMMA_V_* (PUMMA_MODEL's item names; gamma alone means gamma_d). */
#define PUMMA_MODEL_NAMES                                                    \
    "alpha", "beta", "overlap", "gamma_s", "gamma_d", "gamma_c", "gamma_z",  \
        "gamma_k", "gamma_t", "delta", "delta_t"
#define PUMMA_MODEL_NNAMES 11

/* One number per MPI rank of MPI_COMM_WORLD (v[0..n-1], n its size), or
 * the row's one word (PUMMA_CLUSTERS=measure); both NULL when unset.
 * text: the value as written (NULL unset), for notes that quote it. */
typedef struct pumma_rank_list {
    const char *word;
    const double *v;
    int n;
    const char *text;
} pumma_rank_list_t;

/*
 * The values, as the table parses them. A name is in the table's
 * spelling (PUMMA_ALGO=SDB is "sdb"); NULL: unset, empty or auto. A
 * number unset is its default, but for those said below.
 */
typedef struct pumma_settings {
    /* bit id (1ul << PUMMA_SET_X): the variable was set, to other than
     * auto (what a plan reports as the environment's choice) */
    unsigned long given;
    const char *algo, *bcast, *reduce, *shift, *topology;
    long long segment;           /* bytes per pipelined piece, 0: own */
    long long slice;             /* het-overlap's K per slice, 0: auto */
    long long piece;             /* bytes per summed piece */
    const char *het_layout;      /* given, columns, strips, ... */
    pumma_rank_list_t clusters;  /* each rank's cluster, or "measure" */
    const char *hier_schedule;   /* ecef, ecef-la, ecef-lat */
    struct {
        unsigned set;            /* bit i: v[i] given */
        double v[PUMMA_MODEL_NNAMES];
    } model;
    double max_workspace;        /* bytes; -1 unset */
    long long stats;             /* 0, 1, 2 */
    const char *tune;            /* refresh, off */
    const char *tune_file;       /* as written; NULL unset */
    const char *decision_file;   /* as written ("off" too); NULL unset */
    long long panel;             /* columns; -1 unset (set per call kind) */
    double latency;              /* seconds */
    pumma_rank_list_t speeds;
    double speed_base;           /* 0 unset */
    double jitter;               /* microseconds */
    long long cache;             /* 0, 1 */
    long long hugepages;         /* 0, 1 */
} pumma_settings_t;

/* Every variable parsed, once per process (at the first P?GEMM; a bad
 * value stops the program there, said once: pumma_stop_all), after the
 * environment's unknown names are said (pumma_settings_scan). */
const pumma_settings_t *pumma_settings(void);
/* The same struct with variable `id` parsed at least: for the readers an
 * entry point other than P?GEMM reaches (PUMMA_P?GEMR2D's latency and
 * jitter, PUMMA_SPEEDS_MEASURE's speeds, ...), so that such a program is
 * not stopped for a variable it never uses, as before the table. */
const pumma_settings_t *pumma_setting(int id);

/* Stops the program for value v of variable id, a name: "pumma: VAR=v is
 * not known; choose one of: ..." (or the row's "not valid; expected");
 * the driver's, for a name of pumma_codes.h that no table has. */
void pumma_settings_refuse(int id, const char *v)
    __attribute__((noreturn));

/* The table (pumma-info lists it): variable i's name (0 .. count-1),
 * *shared whether the processes of a grid must agree on it; what unset
 * means, in words. */
int pumma_settings_count(void);
const char *pumma_settings_name(int i, int *shared);
const char *pumma_settings_default(int i);
/* The generated docs (pumma-info --settings FORMAT): "readme" the
 * README's environment table, "reference" doc/environment.md's list of
 * every variable; -1 for another format. */
int pumma_settings_doc(FILE *out, const char *format);

#endif
