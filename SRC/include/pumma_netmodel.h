/*
 * pumma_netmodel.h -- point-to-point communication models of the running
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
#ifndef PUMMA_NETMODEL_H
#define PUMMA_NETMODEL_H

#include "pumma_comm.h"

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
} pumma_plogp_t;

typedef struct pumma_netmodel {
    pumma_plogp_t s;             /* the samples the others are fitted to */
    double alpha, beta;          /* Hockney: alpha + beta*m, sender blocked */
    double L, o, g, w;           /* LogP: m bytes as ceil(m/w) packets */
    double gL, gO, gG, gg;       /* LogGP: L, o, G per byte, g per message */
    double add;                  /* seconds per byte of a local add (reduce) */
} pumma_netmodel_t;

/* One message of m bytes under model `kind`. */
typedef struct pumma_nm_cost {
    double busy;     /* the sender's processor, from the send's start */
    double gap;      /* least time between two sends' starts (or two
                        receives' completions) of one process */
    double arrive;   /* from the send's start to the message complete at an
                        idle receiver */
} pumma_nm_cost_t;
void pumma_nm_msg(const pumma_netmodel_t *nm, int kind, double m,
                  pumma_nm_cost_t *c);
/* A sampled value at m bytes (x: one of s->os, orv, g, rtt). */
double pumma_plogp_at(const pumma_plogp_t *s, const double *x, double m);

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
/* A barrier that sleeps while it waits: the processes outside the
 * communicator being measured leave its processors to it (a polling wait
 * would take a share of them, and on a node with fewer processors than
 * processes change what is measured). */
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

#endif
