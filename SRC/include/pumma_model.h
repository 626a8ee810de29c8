/*
 * pumma_model.h -- the machine and its models, SRC/model (not installed):
 * the alpha-beta-gamma model measured per grid, the local rates, the
 * logical clusters, the communication models, the decider of auto's
 * messages, the tune file, and the execution-time models. Above comm.
 */
#ifndef PUMMA_MODEL_H
#define PUMMA_MODEL_H

#include "pumma_comm.h"

/* The local multiply's rate of every grid position (multiply-adds per
 * second, grid row-major), measured collectively on first use
 * (SRC/model/pumma_rates.c); NULL when the measurement failed. */
const double *pumma_grid_rates(const pumma_grid_t *g);
/* The rates of g's processes measured now, into all[] (pumma_rates.c). */
int pumma_rates_measure(const pumma_grid_t *g, int n, double rep,
                        double window, double *all);

/* The grid's model, measured (collectively over the grid) on first use. */
const pumma_model_t *pumma_grid_model(const pumma_grid_t *g);
void pumma_model_measure(const pumma_grid_t *g, pumma_model_t *mo);
/* The best one-way time (*best, seconds) of reps round trips of `bytes`
 * with peer on comm (blocking; lead sends first; a first trip warms up
 * and is not counted): the model's and the clusters' measurements.
 * PUMMA_OK or PUMMA_EMPI. */
int pumma_pingpong(MPI_Comm comm, int peer, int lead, char *buf, int bytes,
                   int reps, int tag, double *best);

/* --------------------------------------------------------- clusters */

/*
 * pumma_clusters_group: logical clusters of n processes from their
 * latency matrix, as Nasri, Steffenel and Trystram 2007 (section 3.3) group
 * the nodes of a grid after Lowekamp and Beguelin's ECO: processes go
 * together when every link among them has about the same latency.
 *   n      (input) number of processes, >= 1.
 *   lat    (input) n x n, lat[i*n+j] the latency (seconds) between i and
 *          j; read above the diagonal only (i < j).
 *   bound  (input) the spread allowed inside a cluster: its largest link
 *          at most (1 + bound) times its smallest (Nasri, Steffenel and
 *          Trystram 2007: 0.2).
 *   floor  (input) latencies below it count as `floor` (seconds; 0:
 *          none): links of a few microseconds differ by more than 20% in
 *          noise alone, and are one cluster's.
 *   cl     (output) cl[i] the cluster of process i, numbered from 0 in the
 *          order of their first members.
 * Links are taken from the fastest up; each joins the clusters at its two
 * ends when the union still keeps the bound and the link is within it of
 * each end's own fastest link. Returns the number of clusters, or -1
 * when out of memory.
 */
int pumma_clusters_group(int n, const double *lat, double bound, double floor,
                         int *cl);

/* The grid's clusters, found on first use (collective over g->all: every
 * process of the grid calls it at the same point); NULL when the grid is
 * one cluster or PUMMA_CLUSTERS is unset. Stops the program (pumma_fatal)
 * when MPI fails. */
const pumma_hier_grid_t *pumma_grid_hier(const pumma_grid_t *g);
/* Set from cluster numbers per grid position (collective like
 * pumma_grid_hier): measures the links between them. */
int pumma_hier_set(pumma_grid_t *g, const int *cluster);

/* --------------------------------------------- communication models */

/*
 * Point-to-point communication models of the running
 * MPI (Hockney, LogP, LogGP, pLogP), fitted from one set of measured
 * samples, and the simulator that predicts pumma's own broadcasts, reduces
 * and shifts with any of them (SRC/model; not installed).
 *
 * Every model answers one question, what a message of m bytes costs
 * (pumma_nm_msg): how long its sender is busy, how soon the sender (or a
 * receiver) can handle the next message, and when the message is complete
 * at its destination. The simulator (pumma_sim.c) runs a variant's own
 * message schedule -- the tree its shape function gives, cut into pieces
 * as its engine cuts them -- on a clock driven by those answers.
 */
/* PLOGPC: pLogP on processors the processes of a node share (the node's
 * contention for its processors; Table 1 of Nasri, Steffenel and Trystram
 * 2007 lists contention among what models differ on): see
 * pumma_plogp_t.cores below and pumma_sim.c. */
enum {
    PUMMA_NM_HOCKNEY, PUMMA_NM_LOGP, PUMMA_NM_LOGGP, PUMMA_NM_PLOGP,
    PUMMA_NM_PLOGPC, PUMMA_NM_COUNT
};
const char *pumma_nm_name(int kind);       /* "hockney", ... */
int pumma_nm_find(const char *name);       /* -1: no such model */

enum { PUMMA_PLOGP_MAXS = 40 };

/*
 * pLogP samples (Kielmann et al.), at message sizes m[0] = 0 < m[1] < ...
 * in bytes: the sender's overhead os (the send call), the receiver's
 * overhead or (the receive call once the message is there), the gap g
 * (seconds per message in a long stream: the inverse of the throughput)
 * and the round trip rtt (m bytes there, 0 back). L = rtt(0)/2 - g(0).
 * Between samples the values are interpolated linearly in m, beyond the
 * last extrapolated along the last two.
 *
 * The node they were measured on, for PLOGPC: `cores` processors shared
 * by the `ppn` processes of a node (0: unknown, no sharing); `theta`, the
 * share of a processor a process takes while it waits (MPI polls), and
 * `wake`, the processor time a receive costs beyond or(m) on a node with
 * more processes than processors (the receiver must be switched back in);
 * both fitted to measured collectives by pumma_poly_fit.
 */
typedef struct pumma_plogp {
    int n;
    double m[PUMMA_PLOGP_MAXS], os[PUMMA_PLOGP_MAXS], orv[PUMMA_PLOGP_MAXS],
        g[PUMMA_PLOGP_MAXS], rtt[PUMMA_PLOGP_MAXS];
    double L;
    double cores, ppn, theta, wake;
    /* How the messages one process has in flight at once leave it: 0, one
     * after another (each its gap: pLogP's stream, a connection's byte
     * order); 1, side by side, sharing its link (a fluid network, as
     * SimGrid's: the first of n pieces posted together arrives with the
     * last). Measured by pumma_plogp_measure (share_probe). */
    double fair;
} pumma_plogp_t;

typedef struct pumma_netmodel {
    pumma_plogp_t s;             /* the samples the others are fitted to */
    double alpha, beta;          /* Hockney: alpha + beta*m, sender blocked */
    double L, o, g, w;           /* LogP: m bytes as ceil(m/w) packets */
    double gL, gO, gG, gg;       /* LogGP: L, o, G per byte, g per message */
    double add;                  /* seconds per byte of a local add (reduce) */
    /* Messages between two processes of one node, where they have their
     * own model: local (fitted to samples between two processes of a node;
     * NULL: every message priced as between nodes), for a communicator
     * whose processes fill nodes `per` at a time in rank order (rank / per:
     * the node). */
    const struct pumma_netmodel *local;
    int per;
} pumma_netmodel_t;

/* One message of m bytes under model `kind`. */
typedef struct pumma_nm_cost {
    double busy;     /* the sender's processor, from the send's start */
    double gap;      /* least time between two sends' starts (or two
                        receives' completions) of one process */
    double arrive;   /* from the send's start to the message complete at an
                        idle receiver */
} pumma_nm_cost_t;
/* The model of messages within a node, where process 0 shares its node
 * with others: peer is the first process on another node (pumma_tune_keys;
 * processes 0 .. peer-1 share process 0's node), and when peer > 1,
 * pLogP is measured between 0 and 1 into *in, fitted, given nm's add and
 * node, and set as nm->local with nm->per = peer. Collective over comm;
 * PUMMA_OK, or PUMMA_ENOMEM on every process. */
int pumma_nm_measure_local(MPI_Comm comm, int peer, double max_bytes,
                           double budget, pumma_netmodel_t *nm,
                           pumma_netmodel_t *in);
void pumma_nm_msg(const pumma_netmodel_t *nm, int kind, double m,
                  pumma_nm_cost_t *c);
/* A sampled value at m bytes (x: one of s->os, orv, g, rtt). */
double pumma_plogp_at(const pumma_plogp_t *s, const double *x, double m);

/* Whether the messages a posts at once to b share the link (1) or leave
 * one after another (0): pumma_plogp_t.fair's probe alone, NP pieces of
 * bytes/NP (at least 1 KiB each, else 0). Called by a and b (others
 * return 0 at once); both return it. */
double pumma_plogp_fair(MPI_Comm comm, int a, int b, double bytes);
/* Measure the pLogP samples between processes a and b of comm (pumma_plogp.c:
 * Kielmann's method), sizes 0 and powers of two up to max_bytes, within
 * about `budget` seconds. Collective over comm (only a and b talk until
 * the end); every process gets the samples. PUMMA_OK or PUMMA_ENOMEM. */
int pumma_plogp_measure(MPI_Comm comm, int a, int b, double max_bytes,
                        double budget, pumma_plogp_t *s);
/* The processors the processes of comm's nodes share and the processes
 * per node (the fewest processors and the most processes over the nodes;
 * processors: the union of the node's processes' affinity masks).
 * Collective over comm. */
void pumma_node_share(MPI_Comm comm, double *cores, double *ppn);
/* A barrier that sleeps while it waits on a crowded node
 * (pumma_wait_idle): the processes outside the pair being measured leave
 * its processors to it (a polling wait would take a share of them, and on
 * a node with fewer processors than processes change what is measured). */
void pumma_quiet_barrier(MPI_Comm comm);
/* Fit Hockney, LogP and LogGP to nm->s (which must hold >= 2 sizes). */
void pumma_nm_fit(pumma_netmodel_t *nm);
/* Samples a machine of the given model and parameters would give: for
 * tests (the fits must recover them) and for reports. Sizes 0, 1, 2, 4,
 * ... up to max_bytes. */
void pumma_nm_synthesize(pumma_netmodel_t *nm, int kind, double max_bytes);

/* ------------------------------------------------------------ simulator */

/* Predicted time of one broadcast (reduce) of `bytes` in elements of
 * esize bytes from (to) `root` over np processes with variant v, cutting
 * at seg_bytes (0: v's default), under model `kind`: from the start until
 * the last process is done. Under PLOGPC consecutive ranks share a node,
 * min(np, ppn) to a node, as in a block placement. The MPI variants (no shape of pumma's own)
 * are simulated as a binomial tree. Returns < 0 if the schedule cannot
 * complete (a bug: tests check). */
double pumma_sim_bcast(const pumma_coll_ops_t *v, const pumma_netmodel_t *nm,
                       int kind, int np, int root, double bytes,
                       double seg_bytes, int esize);
double pumma_sim_reduce(const pumma_coll_ops_t *v,
                        const pumma_netmodel_t *nm, int kind, int np,
                        int root, double bytes, double seg_bytes, int esize);
/* Whether the simulator knows v's schedule: pumma's variants with a
 * shape (not scatter's or hier's), and in an SMPI build MPI's own too
 * ("mpi": SMPI's MPI_Ibcast and MPI_Ireduce are flat trees, whatever its
 * collective selector); Open MPI's are its tuned choices, simulated as a
 * binomial tree for a price but not for a choice. */
int pumma_sim_knows(const pumma_coll_ops_t *v);
/* For tests: run PLOGPC on the shared-processor engine even where no node
 * has more processes than processors (it must agree with the fast one). */
extern int pumma_sim_always_shared;
/* The sends process `me` makes in a broadcast (reduce != 0: a reduce) of
 * count elements of esize bytes cut at seg_elems, in the order the
 * simulator has it make them: destinations and bytes (the first max of
 * them), and how many (-1: out of memory). Tests compare it with what the
 * variant's engine sends. */
int pumma_sim_sends(const pumma_coll_ops_t *v, int reduce, int np, int root,
                    int me, int64_t count, int esize, int seg_elems,
                    int *dest, double *bytes, int max);
/* One roll of `bytes` per process around a ring of np. */
double pumma_sim_shift(const pumma_shift_ops_t *v, const pumma_netmodel_t *nm,
                       int kind, int np, double bytes);

/*
 * The closed forms of Table 3 of Nasri, Steffenel and Trystram 2007 (pLogP)
 * for the broadcasts they cover, and their Hockney counterparts: linear
 * (flat tree), segmented chain (k pieces of s bytes), binary (an upper
 * bound) and binomial. For tests and reports.
 */
double pumma_closed_linear(const pumma_netmodel_t *nm, int kind, int np,
                           double m);
double pumma_closed_chain(const pumma_netmodel_t *nm, int kind, int np,
                          double s, int k);
double pumma_closed_binary(const pumma_netmodel_t *nm, int kind, int np,
                           double m);
double pumma_closed_binomial(const pumma_netmodel_t *nm, int kind, int np,
                             double m);

/* --------------------------------------------------------------- search */

/* A candidate: variant v (row `variant` of its table) cutting at seg bytes
 * (0: its default). */
typedef struct pumma_cand {
    const pumma_coll_ops_t *v;
    double seg;
    int variant;
} pumma_cand_t;

/* A message's candidates (pumma_search.c), at most max: per variant in the
 * table's order, its segments from the whole message down to 1 KiB by
 * halves (no more pieces than the engines post); model_only: only the
 * variants the simulator runs as pumma does (not MPI's own). */
int pumma_search_cands(pumma_table_kind_t op, double bytes, int model_only,
                       pumma_cand_t *c, int max);
/* Predictions closer than this (relative) say nothing: among them the
 * models choose the first in the table's order (pumma_decide.c). */
#define PUMMA_MODEL_MARGIN 0.01
/* The simulator's time for candidate c, from root 0. */
double pumma_search_predict(const pumma_netmodel_t *nm, int kind,
                            pumma_table_kind_t op, int np, double bytes,
                            int esize, const pumma_cand_t *c);
/* One collective of `bytes` (doubles, from/to rank 0) with variant v at
 * seg bytes per piece on comm, timed: the slowest process's median over
 * reps (at most 64) after two warm-ups, each run after a barrier.
 * Collective over comm; buf and sum hold bytes each. */
double pumma_time_coll(const pumma_coll_ops_t *v, MPI_Comm comm,
                       double bytes, double seg, int reps, void *buf,
                       void *sum);
/* One of those runs: a barrier, then the collective; this process's
 * seconds. And the slowest process's median of n such times (t is
 * sorted). Both collective over comm. */
double pumma_time_coll_once(const pumma_coll_ops_t *v, MPI_Comm comm,
                            double bytes, double seg, void *buf, void *sum);
double pumma_slowest_median(double *t, int n, MPI_Comm comm);

/* A search among n candidates c for the message (op, np, bytes, esize),
 * measure(ctx, cand) the experiment: t[i] is each candidate's time (-1:
 * not measured), best the fastest measured, experiments their number. */
typedef struct pumma_search {
    pumma_table_kind_t op;
    int np, esize;
    double bytes;
    const pumma_cand_t *c;
    int n;
    double (*measure)(void *ctx, const pumma_cand_t *c);
    void *ctx;
    double *t;
    int best, experiments;
} pumma_search_t;
void pumma_search_exhaustive(pumma_search_t *s);
void pumma_search_mgd(pumma_search_t *s);
void pumma_search_smgd(pumma_search_t *s);
/* Measures the predicted best candidate of each of the k variants the
 * simulator (model `kind`) predicts fastest, the neighbouring segments of
 * the fastest of them measured, and MPI's own variants. */
void pumma_search_model(pumma_search_t *s, const pumma_netmodel_t *nm,
                        int kind, int k);

/*
 * The poly-model (the first level of adaptation of Nasri, Steffenel and
 * Trystram 2007): per communicator and per size class of message, the model
 * whose predictions err least on a few collectives of that class measured
 * on the communicator -- their choice "in terms of the size of data to
 * communicate, the number of nodes". Classes: below 8 KiB, below 256 KiB,
 * the rest.
 */
enum { PUMMA_POLY_NCLASS = 3, PUMMA_POLY_NTRAIN = 9 };
extern const double pumma_poly_class_lo[PUMMA_POLY_NCLASS];
int pumma_poly_class(double bytes);
/* Measures the training collectives on comm (collective; buf and sum
 * hold maxb bytes), then pumma_poly_fit. */
void pumma_poly_choose(MPI_Comm comm, pumma_netmodel_t *nm, double maxb,
                       int reps, void *buf, void *sum,
                       double err[PUMMA_POLY_NCLASS][PUMMA_NM_COUNT],
                       int best[PUMMA_POLY_NCLASS]);
/* Model kind's prediction of each training collective on np processes
 * (messages of at most maxb bytes) into t. */
void pumma_poly_predict(const pumma_netmodel_t *nm, int kind, int np,
                        double maxb, double *t);
/* The choice given the training collectives' times t on np processes:
 * fits nm->s.theta and nm->s.wake (theta in 0, 0.1, .., 1, wake 0 or 0.5
 * us doubled up to 64 us: the pair of least PLOGPC error over them all;
 * wake only where a node has more processes than processors), then per
 * class each model's mean relative error and the model of least error
 * (pLogP on ties). */
void pumma_poly_fit(pumma_netmodel_t *nm, int np, double maxb, const double *t,
                    double err[PUMMA_POLY_NCLASS][PUMMA_NM_COUNT],
                    int best[PUMMA_POLY_NCLASS]);
/* Seconds per byte of a local add of doubles (the reduces' sums). */
double pumma_measure_add(void);

/* --------------------------------------------------------- tune file */

/*
 * The tune file (SRC/model/pumma_tune.c; not installed):
 * the machine model's measured values kept per user and machine.
 */
const char *pumma_model_name(int i);

/* What a grid's values are kept under: `local` (the host of its process 0
 * and the BLAS library) and, when it has two processes or more, `netkey`
 * (the hosts of its process 0 and of `peer`, and the MPI library, and
 * Open MPI's btl list when OMPI_MCA_btl restricts it). The network is
 * measured between process 0 and peer: the first process on another host
 * than process 0's, else process 1 -- on a cluster whose nodes run
 * several processes, processes 0 and 1 share a node, and their shared
 * memory is not the network the grid's lines cross. */
typedef struct pumma_tune_keys {
    char local[4608];
    char netkey[1024];
    int net;
    int peer;                /* known to every process of the grid */
    int same_host;           /* processes 0 and peer on one host, and the
                                shared-memory transport not excluded */
} pumma_tune_keys_t;

/* Collective over g->all (every process learns peer; processes 0 and peer
 * talk); the keys are made on process 0 only, which alone reads and
 * writes the file. */
void pumma_tune_keys(const pumma_grid_t *g, pumma_tune_keys_t *k);
/* The keys of a grid whose processes 0 and 1 both run on this process's
 * host (what `make tune` on this host measures), made without a message:
 * for a tool that runs on one process (pumma-info). Needs MPI_Init. */
void pumma_tune_keys_here(pumma_tune_keys_t *k);
/* The keys pumma_tune_keys last made on this process (its grid's process
 * 0), NULL when it made none: what the tuner's decision file is written
 * under (pumma_decide_write). */
const pumma_tune_keys_t *pumma_tune_keys_last(void);
/* The file's values for k into v; bit i set for each value found. */
unsigned pumma_tune_read(const pumma_tune_keys_t *k, double *v);
/* Puts v's values into the file under k: the local ones when every one of
 * them is in `which`, the network's likewise. */
void pumma_tune_write(const pumma_tune_keys_t *k, const double *v,
                      unsigned which);
/* PUMMA_TUNE, read once (a bad value stops the program). */
enum { PUMMA_TUNE_OFF, PUMMA_TUNE_AUTO, PUMMA_TUNE_REFRESH };
int pumma_tune_mode(void);
/* The file's path (PUMMA_TUNE_FILE, else the per-user default) into buf;
 * 0 when there is none (PUMMA_TUNE=off, no HOME). */
int pumma_tune_path(char *buf, size_t len);

/* ----------------------------------------------------------- decider */

/*
 * Who decides the broadcast and reduce variant of each
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
 * the hosts of its processes 0 and peer, the MPI library, Open MPI's btl
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

/* ------------------------------------------- execution-time models */

/*
 * Execution-time models of whole PDGEMM runs (Ichikawa and
 * Kawai 2008): coefficients fitted by non-negative least squares to
 * measured times (SRC/model; not installed).
 */
/*
 * Non-negative least squares (Lawson and Hanson's active-set method):
 * x >= 0 minimising || W (A x - b) ||_2, A m x n in column order (leading
 * dimension m), W = diag(w) (w NULL: all ones). The columns are scaled
 * to unit norm inside, so coefficients of N^3 and of 1 fit alike; a zero
 * column gets x = 0. *resid (if not NULL): the weighted residual norm.
 * Returns 0; 1 if the iteration limit (3n outer steps) was reached (x is
 * then feasible but perhaps not optimal); -1 out of memory or m, n < 1.
 */
int pumma_nnls(int m, int n, const double *A, const double *b,
               const double *w, double *x, double *resid);

/*
 * The models' terms.
 *
 * N-T (Ichikawa and Kawai 2008, eq. 2), one configuration, a square
 * problem of order N:
 *   T = k0 N^3 + k1 N^2 + k2 N + k3.
 *
 * NP-T for pumma, the terms of its algorithms' own costs (pumma_mdb.c's
 * engine_cost and its kin) on a p x q grid of P = pq processes, for
 * C(m x n) += A(m x k) B(k x n). The PUMMA algorithms roll one operand
 * around its grid dimension and cast the other along the other one: in
 * the column form A is rolled along the grid rows and B's blocks are
 * broadcast down the columns, in the row form (the -row algorithms) the
 * mirror. The planner takes the cheaper, so the terms are those of the
 * form that moves fewer bytes (the column form on a tie):
 *   t0 = mnk/P                        the local multiplies;
 *   t1 = (mk + kn + mn)/P             copies and packing of the shares;
 *   t2 = (m + n + k)/P, t3 = 1/P      per-row and fixed local costs;
 *   t4 = mk(q-1)/P  (row: kn(p-1)/P)  bytes rolled into a process;
 *   t5 = kn ceil(lg p)/q  (row: mk ceil(lg q)/p)
 *                                     bytes cast by trees (each level
 *                                     forwards the whole panel);
 *   t6 = k ceil(lg p)  (row: k ceil(lg q))
 *                                     tree latencies, a cast per block;
 *   t7 = q - 1  (row: p - 1)          the rolls, one per stage;
 *   t8 = k, t9 = 1                    per block of K and per call.
 * Ten coefficients, as the NP-T of Ichikawa and Kawai 2008 for HPL; on a
 * 1 x 1 grid t4..t7 vanish (no messages). N-T is NP-T's first and last
 * terms on one grid.
 */
enum { PUMMA_NT_TERMS = 4, PUMMA_NPT_TERMS = 10 };
void pumma_nt_terms(double n, double *t);
void pumma_npt_terms(double m, double n, double k, int p, int q, double *t);
/* sum k[i] t[i] */
double pumma_exec_eval(const double *k, const double *t, int nt);
/* Coefficients k (nt of them) fitted to ns measured times T from their
 * terms (rows: ns x nt, one sample per row) by pumma_nnls, each row
 * weighted 1/T (relative errors: the sizes span decades). pumma_nnls's
 * return code. */
int pumma_exec_fit(int ns, int nt, const double *rows, const double *T,
                   double *k);
/* NP-T's coefficients k (PUMMA_NPT_TERMS) fitted as pumma_exec_fit does,
 * with one coefficient for rolled and cast elements: k5 = k4. An element
 * cast one tree level crosses the same links, and is packed and copied the
 * same way, as an element rolled. Fitted apart, k5 is left at 0 by the
 * runs of a kind with few processors (on 1 x q grids nothing is cast,
 * t5 = 0), which then prices every cast on p > 1 as free (issue 31). */
int pumma_npt_fit(int ns, const double *rows, const double *T, double *k);

/*
 * Configurations (Ichikawa and Kawai 2008): per processor kind i, P_i of
 * its processors used and M_i processes on each (M_i = 0 when P_i = 0),
 * P = sum P_i M_i processes on a p x q grid. The time of a configuration
 * is the slowest kind's, T = max_i T_i, each T_i from the model of kind i
 * with M_i processes per processor.
 */
enum { PUMMA_EXEC_MAXKINDS = 4 };
typedef struct pumma_exec_kind {
    int count;                    /* processors of this kind */
    int maxper;                   /* most processes on one of them */
} pumma_exec_kind_t;
typedef struct pumma_exec_config {
    int nkind, pe[PUMMA_EXEC_MAXKINDS], per[PUMMA_EXEC_MAXKINDS];
    int p, q;
    double t;                     /* estimated seconds */
} pumma_exec_config_t;
/* T_i: the model of kind `kind` with `per` processes per processor, at
 * (m, n, k) on p x q; < 0: no model (the configuration is skipped). */
typedef double (*pumma_exec_model_fn)(void *ctx, int kind, int per, double m,
                                      double n, double k, int p, int q);
/* Every configuration (each P_i from 0 to count_i, M_i from 1 to maxper_i
 * where used, at least one process, every p x q = P), estimated; the
 * `nbest` fastest into best, fastest first (ties: fewer processes, then
 * p <= q nearer square, then the order of enumeration). Returns how many
 * configurations were estimated. */
int pumma_exec_search(int nkind, const pumma_exec_kind_t *kinds,
                      pumma_exec_model_fn model, void *ctx, double m,
                      double n, double k, pumma_exec_config_t *best,
                      int nbest);
/* The estimation error of Ichikawa and Kawai 2008: (tau - T)/T, tau the
 * measured time of the estimated optimum, T the measured time of the
 * measured optimum. */
double pumma_exec_error(double tau, double T);

#endif
