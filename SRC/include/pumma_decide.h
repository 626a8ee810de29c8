/*
 * pumma_decide.h -- who decides the broadcast and reduce variant of each
 * message when the call leaves them to auto (SRC/model/pumma_decide.c;
 * not installed): the decision file, else the communication models, else
 * the defaults.
 *
 * The decision file (written by `make tune`; doc/choosing.md, "The
 * decision file")
 * holds rules in the spirit of Open MPI's coll_tuned dynamic rules: per
 * operation, communicator size and message size, a variant and its
 * segment size; and the keys of where it was measured
 * (pumma_decide_file_status). A message of `bytes` on np processes
 * takes, among the rules of its operation, those of the largest np listed
 * that is at most its own, and of those the one of the largest `bytes` at
 * most its own.
 *
 * The models: pLogP samples of the tune file (`plogp` lines, written by
 * `make tune`) and, per communicator size, the model the tuner found to
 * err least there (the decision file's `model` lines; pLogP where none is
 * given). The variant and segment are then those the simulator
 * (pumma_sim.c) predicts fastest.
 *
 * The defaults: the variant the grid's alpha-beta model prices cheapest
 * (the first within 3% in the table's order), whole messages.
 *
 * Every input of a decision -- operation, communicator size, message size,
 * the file's text and the samples (process 0's, broadcast) -- is the same
 * on every process of a collective, so all of them choose alike.
 */
#ifndef PUMMA_DECIDE_H
#define PUMMA_DECIDE_H

#include "pumma_netmodel.h"

const char *pumma_decide_source_name(int src);   /* "file", ... */

typedef struct pumma_rule {
    pumma_table_kind_t op;
    int np;                       /* communicator size, >= 1 */
    double bytes;                 /* the least message size it covers */
    const pumma_coll_ops_t *v;    /* NULL: `model`, the models decide */
    double seg;                   /* bytes per piece, 0: v's default */
} pumma_rule_t;

enum { PUMMA_DECIDE_MAXMODELS = 256, PUMMA_DECIDE_CACHE = 512,
       PUMMA_DECIDE_KEYS = 6144 };

typedef struct pumma_decider {
    /* First: what auto calls it through (pumma_comm.h), set by
     * pumma_decide_parse. */
    const pumma_decider_ops_t *ops;
    /* The file's `keys` line, past "keys": where it was measured, as the
     * tune file's keys say it ("host=.. blas=.. pair=.. mpi=..[ btl=..]");
     * "" when it has none. */
    char keys[PUMMA_DECIDE_KEYS];
    int nrules;
    pumma_rule_t *rules;          /* sorted: op, np, bytes */
    int nmodels;                  /* `model` lines: from np and bytes up */
    struct { int np, kind; double bytes; }
        models[PUMMA_DECIDE_MAXMODELS];  /* sorted: np, bytes */
    int have_nm;                  /* samples (from the tune file) */
    pumma_netmodel_t nm;          /* fitted to them */
    const pumma_model_t *mo;      /* the defaults' model */
    /* the model's decisions already made, by (op, np, size class) */
    struct { int key; pumma_decision_t d; } cache[PUMMA_DECIDE_CACHE];
} pumma_decider_t;

/* Parse a decision file's text into d's rules, models and keys (d zeroed
 * first, apart from what the caller set). A line that is not a rule, a
 * model line, the keys line or a comment is ignored, as is a second keys
 * line and a last line without an end of line (cut short); when `warn`
 * names the file, a warning says where. Returns the number of lines
 * ignored, -1 when out of memory. */
int pumma_decide_parse(pumma_decider_t *d, const char *text,
                       const char *warn);
/* Frees d's rules (not d itself, nor its ops). */
void pumma_decide_free(pumma_decider_t *d);

/* The grid's decider, made collectively over g->all at its first auto
 * plan (pumma_model_measure, with the tune file's keys k): process 0
 * reads the decision file and the tune file's samples and sends them to
 * the others. NULL when it has neither (the planner then chooses as it
 * always did). */
struct pumma_tune_keys;
pumma_decider_t *pumma_decider_load(const pumma_grid_t *g,
                                    const struct pumma_tune_keys *k,
                                    const pumma_model_t *mo);

/* The decision for one message (esize: bytes per element). */
void pumma_decide(pumma_decider_t *d, pumma_table_kind_t op, int np,
                  double bytes, int esize, pumma_decision_t *out);

/* What the models alone would decide (source MODEL), under `kind`. */
void pumma_decide_by_model(const pumma_netmodel_t *nm, int kind,
                           pumma_table_kind_t op, int np, double bytes,
                           int esize, pumma_decision_t *out);

/* The decision file's path (PUMMA_DECISION_FILE, else `decision` beside
 * the tune file) into buf; 0 when there is none. */
int pumma_decide_path(char *buf, size_t len);
/* Writes rules and models as a decision file (the tuner), through a
 * temporary renamed over it, under its lock (pumma_file_begin); 0 on
 * success, -1 after a message saying why. Its keys line: d->keys, else
 * the keys this process made last (pumma_tune_keys_last: the tuner's
 * run), else none. */
int pumma_decide_write(const char *path, const pumma_decider_t *d,
                       const char *comment);
/* d->keys := the keys of k (a grid's tune-file keys: local and net). */
void pumma_decide_set_keys(pumma_decider_t *d,
                           const struct pumma_tune_keys *k);

/*
 * Whether the decision file applies where it is read. A file the tuner
 * wrote has a keys line -- the host and BLAS of the tuner's process 0,
 * the hosts of its processes 0 and 1, the MPI library, Open MPI's btl
 * list when set: the tune file's keys -- and is applied only where these
 * are the grid's own (k: its tune-file keys, pumma_tune_keys); elsewhere
 * it is ignored (the models or the defaults decide), with a note in
 * PUMMA_STATS's report:
 *
 *   pumma-stats: decision file PATH ignored: measured on host=a mpi=x,
 *     this is host=b mpi=y                                   (one line)
 *
 * naming the keys that differ. A file without a keys line (written by
 * hand, or by pumma 0.4.0 and before) is applied as it always was, with
 * the note "decision file PATH has no keys: applied as written".
 *
 * pumma_decide_file_status: that verdict for the file at path (NULL: the
 * decision file's, pumma_decide_path) under keys k, the file read on this
 * process (pumma_file_read says why when it refuses one): for a tool
 * such as pumma-info, which makes k with pumma_tune_keys_here. Returns one of the codes below and puts the
 * note's text (without "pumma-stats: ") into why (n bytes, may be 0):
 * for a match "decision file PATH measured here", for none why not.
 */
enum { PUMMA_DECIDE_FILE_NONE,     /* no file: off, not there, refused */
       PUMMA_DECIDE_FILE_MATCH,    /* its keys are k's: applied */
       PUMMA_DECIDE_FILE_NOKEYS,   /* no keys line: applied */
       PUMMA_DECIDE_FILE_OTHER };  /* measured elsewhere, or a keys line
                                      not valid: ignored */
int pumma_decide_file_status(const struct pumma_tune_keys *k,
                             const char *path, char *why, size_t n);
/* The model kind for a message of `bytes` on a communicator of np
 * processes: the `model` line of the largest NP at most np, and of those
 * the largest BYTES at most bytes (pLogP when the file names none). */
int pumma_decide_model_of(const pumma_decider_t *d, int np, double bytes);

/* The tune file's pLogP samples for the pair of g->all's processes 0 and
 * 1 (pumma_tune.c): 1 if found (process 0 only reads). */
int pumma_tune_read_plogp(const char *netkey, pumma_plogp_t *s, double *add);
void pumma_tune_write_plogp(const char *netkey, const pumma_plogp_t *s,
                            double add);

#endif
