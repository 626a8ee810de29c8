/*
 * pumma_internal.h -- the types every layer of pumma shares.
 *
 * Layers (see doc/internals.md, "The source tree"):
 *   core/    type descriptors, argument checks, the P?GEMM driver, local kernels
 *   desc/    1D distributions, descriptor views, redistribution
 *   comm/    BLACS context -> MPI communicators; broadcast/reduce/shift tables
 *   algo/    one file per PUMMA algorithm, behind the algorithm table
 *   model/   the alpha-beta-gamma machine model `auto` plans with
 *   fortran/ the typed entry points, a few lines each
 */
#ifndef PUMMA_INTERNAL_H
#define PUMMA_INTERNAL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <mpi.h>

#include "pumma_mangle.h"
#include "pumma_settings.h"

/* ------------------------------------------------------------------ types */

/*
 * One type descriptor serves S, D, C and Z: internals do their address
 * arithmetic in bytes with `size` and reach typed arithmetic only through
 * these members (as PBLAS's PBTYP_T does).
 */
typedef void (*pumma_gemm_fn)(const char *ta, const char *tb, const int *m,
                              const int *n, const int *k, const void *alpha,
                              const void *a, const int *lda, const void *b,
                              const int *ldb, const void *beta, void *c,
                              const int *ldc, size_t la, size_t lb);

typedef struct pumma_type {
    char letter;              /* 'S', 'D', 'C' or 'Z' */
    const char *rout;         /* "PDGEMM", ... for error reports */
    size_t size;              /* bytes per element */
    int is_complex;
    MPI_Datatype mpi;         /* element type for messages and MPI_SUM */
    const void *zero, *one;
    pumma_gemm_fn gemm;       /* Fortran BLAS ?gemm */
    /* Y := alpha*op(X) + beta*Y on an m x n Y; op by `trans` ('N', 'T', 'C',
     * or 'R' = conjugate without transpose). beta == 0 (exactly) never reads Y. */
    void (*geadd)(char trans, int m, int n, const void *alpha, const void *x,
                  int ldx, const void *beta, void *y, int ldy);
    /* 1 when the scalar equals zero / one (complex: both parts). */
    int (*is_zero)(const void *s);
    int (*is_one)(const void *s);
} pumma_type_t;

extern const pumma_type_t pumma_type_s, pumma_type_d, pumma_type_c,
    pumma_type_z;

/* Byte offset of element (i, j) in a column-major array with leading dim ld. */
static inline char *pumma_at(const pumma_type_t *t, const void *base,
                             int64_t i, int64_t j, int64_t ld)
{
    return (char *)base + (size_t)(i + j * ld) * t->size;
}

/* ------------------------------------------------------ 1D distributions */

/*
 * A generalized 1D block-cyclic distribution of n indices over np processes:
 * block 0 has ib indices, the others b; block L lives on (src + L) mod np.
 * src = -1 means replicated: every process holds all n indices.
 * ScaLAPACK's M/IMB/MB/RSRC/NPROW (and N/INB/NB/CSRC/NPCOL) are one of these,
 * and so is every contiguous sub-range of one (see pumma_dist_sub).
 */
typedef struct pumma_dist {
    int n, ib, b, src, np;
} pumma_dist_t;

int pumma_dist_nblocks(const pumma_dist_t *d);
int pumma_dist_bstart(const pumma_dist_t *d, int blk);   /* first index */
int pumma_dist_bsize(const pumma_dist_t *d, int blk);
int pumma_dist_block(const pumma_dist_t *d, int x);      /* block of index x */
int pumma_dist_owner(const pumma_dist_t *d, int blk);    /* -1: replicated */
int pumma_dist_count(const pumma_dist_t *d, int proc);   /* local length */
int pumma_dist_before(const pumma_dist_t *d, int g, int proc); /* local idx */
pumma_dist_t pumma_dist_sub(const pumma_dist_t *d, int off, int len);
int pumma_dist_same(const pumma_dist_t *a, const pumma_dist_t *b);
int pumma_dist_same_blocks(const pumma_dist_t *a, const pumma_dist_t *b);
/* The same blocking, owned rather than replicated (src -1 -> 0). */
pumma_dist_t pumma_dist_owned(const pumma_dist_t *d);

/*
 * Local blocks of `d` owned by `me`, grouped by their owner in `key` (a
 * distribution with the same block boundaries over nkey processes). Used to
 * presort operands as PUMMA does, so that each group is one contiguous slab.
 * Group g holds cnt[g] indices at presorted offset off[g]; runs map local
 * offsets to presorted offsets.
 */
typedef struct pumma_run { int local, sorted, len; } pumma_run_t;
typedef struct pumma_groups {
    int ngroups, total, nruns;
    int *cnt, *off;
    pumma_run_t *runs;       /* in presorted order */
    int *run_group;          /* group of each run */
} pumma_groups_t;
int pumma_groups_build(const pumma_dist_t *d, int me, const pumma_dist_t *key,
                       pumma_groups_t *g);
void pumma_groups_free(pumma_groups_t *g);

/* --------------------------------------------------------------- views */

/*
 * A view of the local part of a distributed submatrix: element (0,0) of this
 * process's piece is at `data`; rows and columns are distributed by `row`
 * (over the grid's rows) and `col` (over its columns).
 */
typedef struct pumma_view {
    char *data;
    int ld;
    pumma_dist_t row, col;
} pumma_view_t;

int pumma_view_mloc(const pumma_view_t *v, int myrow);
/* The most indices of d any one process holds (all n when replicated). */
int pumma_dist_maxcount(const pumma_dist_t *d);
/* The most elements of a view any one process holds, at most. */
size_t pumma_view_maxelems(const pumma_view_t *v);
struct pumma_grid;
/* The rows x cols submatrix at 0-based (i0, j0) of the matrix with
 * block-cyclic descriptor d (11-entry form) and local array base. */
pumma_view_t pumma_view_of(const struct pumma_type *t,
                           const struct pumma_grid *g, const void *base,
                           const int d[11], int i0, int j0, int rows,
                           int cols);
/* Make v a temporary of its distributions on this process: ld = its local
 * rows (at least 1), data from pumma_malloc (NULL when empty). Returns
 * PUMMA_OK or PUMMA_ENOMEM. */
int pumma_view_alloc(const struct pumma_type *t, const struct pumma_grid *g,
                     pumma_view_t *v);
/* 1 when both views have the same row and column distributions. */
int pumma_view_same_layout(const pumma_view_t *a, const pumma_view_t *b);
int pumma_view_nloc(const pumma_view_t *v, int mycol);

/* ----------------------------------------------------------------- grid */

/*
 * The BLACS grid of a context as MPI communicators, made once per context and
 * cached on the BLACS communicator (freed with it).
 */
/*
 * The alpha-beta-gamma machine model `auto` plans with (SRC/model): see
 * pumma_model.c for what each value means and how it is measured.
 */
typedef struct pumma_model {
    double alpha, beta;      /* s per message, s per byte sent */
    double gamma[4];         /* s per multiply-add of a large GEMM: S D C Z */
    double gamma_k;          /* inner dimension k costs (1 + gamma_k/k) */
    double gamma_t;          /* 'T','T' GEMM over 'N','N' */
    double delta, delta_t;   /* s per byte copied, copied transposed */
    double overlap;          /* share of communication a multiply hides */
    /* (a value added above must join the plan key, pumma_plan.c) */
    /* Who decides auto's broadcasts and reduces (pumma_decide.h); NULL:
     * no decision file and no models, the planner chooses per call. */
    struct pumma_decider *dec;
    unsigned from_env;       /* bit i: value i (pumma_tune.h's order) was */
    unsigned from_file;      /*   PUMMA_MODEL's, the tune file's */
    double seconds;          /* the time it took to get them */
    int valid;
} pumma_model_t;

/* Calls on a grid alternate between this many sets of communicators. */
enum { PUMMA_GRID_EPOCHS = 2 };
typedef struct pumma_grid_comms { MPI_Comm all, row, col; } pumma_grid_comms_t;

typedef struct pumma_grid {
    int nprow, npcol, myrow, mycol;
    /* The current call's communicators (one of epoch[]): */
    MPI_Comm all;            /* whole grid, private to pumma */
    MPI_Comm row;            /* my grid row, rank = column coordinate */
    MPI_Comm col;            /* my grid column, rank = row coordinate */
    int *rank;               /* rank in `all` of (prow, pcol): rank[prow*npcol+pcol] */
    pumma_model_t model;     /* measured at the grid's first `auto` plan */
    pumma_grid_comms_t epoch[PUMMA_GRID_EPOCHS];
    unsigned long calls;     /* collective calls entered on this grid */
    int tag_ub;              /* MPI_TAG_UB: the largest tag (pumma_comm.h) */
    double *rates;           /* multiply-adds per second of each grid
                                position, measured at the grid's first
                                heterogeneous plan (NULL before) */
    struct pumma_hier_grid *hier;  /* its logical clusters (pumma_hier.h):
                                NULL until known, or when one */
    int hier_known;          /* 1 once looked for (PUMMA_CLUSTERS) */
    int mem_known;           /* 1 once the two below are (pumma_memlimit.c) */
    int mem_limited;         /* 1: some process of the grid has a memory limit */
    int node_procs;          /* the grid's processes on this node */
    double mem_room;         /* the room last measured (mem_limited) ... */
    unsigned long mem_room_calls; /* ... at this call (0: never) */
    struct pumma_memlimit { int rank, kind; double limit; } mem_why;
} pumma_grid_t;

/* The grid of ctxt for a new collective call (the next epoch's
 * communicators); NULL when MPI or the BLACS cannot give it. */
const pumma_grid_t *pumma_grid_enter(int ctxt);

/* The local multiply's rate of every grid position (multiply-adds per
 * second, grid row-major), measured collectively on first use
 * (pumma_speeds.c); NULL when the measurement failed. */
const double *pumma_grid_rates(const pumma_grid_t *g);

/* The grid's model, measured (collectively over the grid) on first use. */
const pumma_model_t *pumma_grid_model(const pumma_grid_t *g);
void pumma_model_measure(const pumma_grid_t *g, pumma_model_t *mo);
/* The best one-way time (*best, seconds) of reps round trips of `bytes`
 * with peer on comm (blocking; lead sends first; a first trip warms up
 * and is not counted): the model's and the clusters' measurements.
 * PUMMA_OK or PUMMA_EMPI. */
int pumma_pingpong(MPI_Comm comm, int peer, int lead, char *buf, int bytes,
                   int reps, int tag, double *best);

/* Cost pieces (seconds) the variants' and algorithms' cost functions use. */
double pumma_model_msg(const pumma_model_t *mo, double bytes);
int pumma_model_log2(int np);        /* ceil(log2(np)) */
double pumma_model_gemm(const pumma_model_t *mo, const struct pumma_type *t,
                        double m, double n, double k, int transposed);
double pumma_model_copy(const pumma_model_t *mo, double bytes, int transposed);
/* A multiply of `work` seconds with `comm` seconds of messages in flight
 * meanwhile: max(work, comm) when the machine overlaps them (overlap 1),
 * their sum when it cannot (0). */
double pumma_model_hide(const pumma_model_t *mo, double work, double comm);
int pumma_model_pieces(double bytes, double seg_bytes);
/* A redistribution of `bytes` per process over np processes (Alltoallv,
 * packing copy transposed or not, unpacking copy). */
double pumma_model_redist(const pumma_model_t *mo, int np, double bytes,
                          int transposed);

/* ------------------------------------------------ communication tables */

/*
 * A collective in flight. Variants of one kind (broadcast, reduce) share one
 * signature: start() posts it, test() advances it without blocking (returns
 * 1 when done), wait() completes it. Algorithms call only these.
 */
typedef struct pumma_coll {
    void *buf;               /* bcast: data (root sends, others receive);
                                reduce: contribution (read-only; NULL at
                                the root: it contributes nothing) */
    void *rbuf;              /* reduce: result at the root */
    int64_t count;           /* elements (> 0; beyond INT_MAX too) */
    MPI_Datatype dt;         /* t->mpi */
    const struct pumma_type *t;   /* element size, and geadd for sums */
    int root;                /* rank in comm */
    MPI_Comm comm;
    int tag;                 /* unique among collectives in flight on comm */
    int segment;             /* elements per pipelined piece, 0: whole */
    MPI_Request req[2];
    int state;
    void *priv;              /* variant's own state; wait() frees it */
    /* auto (pumma_coll_auto.c): who decides, and the variant it chose */
    struct pumma_decider *dec;
    const struct pumma_coll_ops *via;
    struct pumma_decided *decided;   /* the plan's count of them, or NULL */
    /* hier (pumma_bcast_hier.c): comm's clusters, NULL when one */
    const struct pumma_hier_line *hier;
} pumma_coll_t;

typedef struct pumma_coll_ops {
    const char *name;
    const char *help;
    int (*start)(pumma_coll_t *c);
    int (*test)(pumma_coll_t *c, int *done);
    int (*wait)(pumma_coll_t *c);
    /* Modelled time of one, alone, over np processes: `bytes` per process
     * (seg: the segment size in bytes, 0 for the default). */
    double (*cost)(const pumma_model_t *mo, int np, double bytes, double seg);
    /* Temporaries of the whole message's size one process holds while one
     * is in flight over np processes, at most (NULL: none). */
    int (*buffers)(int np);
    /* The tree its engine moves the message along (pumma_comm.h's
     * pumma_tree_shape_fn), which the simulator runs too
     * (SRC/model/pumma_sim.c); NULL for MPI's own. */
    int (*shape)(int np, int root, int me, int *parent, int *kids);
    /* Bytes per piece when no segment is asked for (0: the whole message);
     * -1: the variant never cuts the message. */
    int seg_default;
} pumma_coll_ops_t;

/* test/wait of a variant that is a single MPI request in req[0]. */
int pumma_coll_req_test(pumma_coll_t *c, int *done);
int pumma_coll_req_wait(pumma_coll_t *c);

typedef enum { PUMMA_BCAST_TABLE, PUMMA_REDUCE_TABLE } pumma_table_kind_t;
const pumma_coll_ops_t *pumma_comm_find(pumma_table_kind_t kind,
                                        const char *name);
/* Row i of a table, NULL past its end. */
const pumma_coll_ops_t *pumma_comm_at(pumma_table_kind_t kind, int i);

/*
 * The shift (roll) of a slab to one neighbour while receiving the next from
 * the other neighbour, on a ring (a grid row or column). Variants share one
 * signature: start() posts it (dest/source are ranks in comm), wait()
 * completes it.
 */
typedef struct pumma_shift {
    const void *sbuf;
    void *rbuf;
    int64_t scount, rcount;  /* elements (beyond INT_MAX too) */
    MPI_Datatype dt;
    int dest, source, tag;
    MPI_Comm comm;
    MPI_Request req[2];
    int state;
} pumma_shift_t;

typedef struct pumma_shift_ops {
    const char *name;
    const char *help;
    int (*start)(pumma_shift_t *s);
    int (*wait)(pumma_shift_t *s);
    /* Modelled time of one roll of `bytes` around a ring of np. */
    double (*cost)(const pumma_model_t *mo, int np, double bytes);
    /* Its schedule, for the simulator: 0 every process sends and receives
     * at once, 1 odd processes send first (pumma_sim.c). */
    int two_steps;
} pumma_shift_ops_t;

const pumma_shift_ops_t *pumma_shift_at(int i);    /* NULL past the end */
const pumma_shift_ops_t *pumma_shift_find(const char *name);

/* Fill s and start it with the variant of p's options. */
struct pumma_problem;
int pumma_shift_start(const struct pumma_problem *p, pumma_shift_t *s,
                      const void *sbuf, int64_t scount, void *rbuf,
                      int64_t rcount, int dest, int source, MPI_Comm comm,
                      int tag);
int pumma_shift_wait(const struct pumma_problem *p, pumma_shift_t *s);
/* Let MPI advance the roll (from a multiply's progress points): a large
 * message is matched, and copied, only inside an MPI call, so without this
 * its sender would wait for the receiver's wait(). NULL: nothing.
 * Returns 1 while the roll is not complete. */
int pumma_shift_progress(pumma_shift_t *s);

/* Redistribute: dst := alpha*op(src) + beta*dst over one grid (m x n = op(src)
 * dims). op is 'N', 'T' or 'C'. beta == 0 never reads dst. Collective over
 * grid->all. It moves the data in exchanges of at most `piece` bytes per
 * process each way (0: no bound but Alltoallv's INT_MAX elements), so
 * its buffers stay within pumma_redist_workspace(). */
int pumma_redist(const pumma_type_t *t, const pumma_grid_t *g, int m, int n,
                 char op, const void *alpha, const pumma_view_t *src,
                 const void *beta, pumma_view_t *dst, size_t piece);
/* The same, op 'N', from a source on the transposed grid: src->row is
 * distributed over the grid's columns and src->col over its rows. */
int pumma_redist_xgrid(const pumma_type_t *t, const pumma_grid_t *g, int m,
                       int n, const void *alpha, const pumma_view_t *src,
                       const void *beta, pumma_view_t *dst, size_t piece);
size_t pumma_redist_workspace(size_t piece, size_t src_bytes,
                              size_t dst_bytes);
/* dst := op(src) (m x n) into a new temporary with dst's distributions
 * (pumma_view_alloc; the caller frees dst->data, also on failure). */
int pumma_redist_alloc(const pumma_type_t *t, const pumma_grid_t *g, int m,
                       int n, char op, const pumma_view_t *src,
                       pumma_view_t *dst, size_t piece);

/* --------------------------------------------------------- algorithms */

/* The choices a plan makes, each with where it came from. */
typedef enum {
    PUMMA_CH_ALGO, PUMMA_CH_BCAST, PUMMA_CH_REDUCE, PUMMA_CH_SHIFT,
    PUMMA_CH_SEGMENT, PUMMA_CH_PANEL, PUMMA_CH_PIECE, PUMMA_CH_TOPO,
    PUMMA_CH_LAYOUT, PUMMA_NCHOICES
} pumma_choice_t;
typedef enum {
    PUMMA_FROM_DEFAULT = 0,  /* pumma's default, nothing priced */
    PUMMA_FROM_MODEL,        /* priced by the machine model (auto) */
    PUMMA_FROM_DECIDER,      /* auto per message: decision file or models */
    PUMMA_FROM_CLUSTERS,     /* the grid spans clusters: two levels */
    PUMMA_FROM_LIMIT,        /* the workspace limit changed it */
    PUMMA_FROM_ENV,          /* a PUMMA_* variable */
    PUMMA_FROM_CALL          /* the call's options */
} pumma_from_t;

/* What a call asks for: the environment's choices under the call's own
 * options (pumma_gemm.c); NULL / 0 leaves a choice to the plan. */
typedef struct pumma_opts {
    const char *algo;        /* NULL or "auto": let pumma choose */
    const pumma_coll_ops_t *bcast;
    const pumma_coll_ops_t *reduce;
    const pumma_shift_ops_t *shift;
    int segment;             /* bytes per pipelined piece, 0: whole message */
    int panel;               /* columns per local GEMM panel (progress points) */
    double piece;            /* bytes per reduce of a partial product, at most */
    int topo;                /* PUMMA_TOPO_*: the heterogeneous schedules' network */
    int slice;               /* het-overlap: K per gathered slice (0: auto) */
    double workspace;        /* bytes of temporaries at most (0: the
                                environment's or the default) */
    double room;             /* bytes the processes' memory limits leave
                                (0: no limit; pumma_memlimit_room) */
    unsigned char from[PUMMA_NCHOICES];   /* PUMMA_FROM_ENV or _CALL */
} pumma_opts_t;

/* The variants auto chose message by message while a plan ran
 * (pumma_coll_auto.c), counted: part of what the plan did. */
enum { PUMMA_DECIDED_MAX = 8 };
typedef struct pumma_decided {
    int n;
    struct { const char *op, *variant; long messages; } v[PUMMA_DECIDED_MAX];
} pumma_decided_t;
/* One more message of op ("bcast", "reduce": static strings) sent by
 * variant (pumma_coll_auto.c). */
void pumma_decided_add(pumma_decided_t *d, const char *op,
                       const char *variant);

/*
 * A plan: everything that decides how one call runs, made once by
 * pumma_plan_make (pumma_plan.c) before anything runs and not changed
 * after, printed by pumma_plan_format (PUMMA_STATS, pumma_last_plan, the
 * predictor). Each choice records its source (from[]).
 */
struct pumma_algo;
typedef struct pumma_plan {
    const struct pumma_algo *algo;
    const pumma_coll_ops_t *bcast, *reduce;
    const pumma_shift_ops_t *shift;
    int segment;             /* bytes per pipelined piece, 0: the variant's */
    int panel;               /* columns per local GEMM panel */
    double piece;            /* bytes per reduce of a partial product, at most */
    int topo;                /* heterogeneous calls: PUMMA_TOPO_* */
    int layout;              /* heterogeneous calls: where sub(C) is
                                computed (pumma_het_kind_name), 0: its own */
    int layout_id;           /* that layout's handle (pumma_layout.h) */
    int slice;               /* het-overlap: K per slice (0: auto) */
    int repl;                /* copies of the operands kept (1) */
    unsigned uses;           /* PUMMA_USES_*: the variants that run */
    int limited;             /* PUMMA_LIMIT_*: the limit changed the choice */
    double limit;            /* bytes of temporaries allowed (INFINITY) */
    size_t workspace;        /* bytes of temporaries, at most */
    double cost;             /* modelled seconds (0: not priced) */
    unsigned char from[PUMMA_NCHOICES];   /* pumma_from_t of each choice */
    pumma_decided_t *decided;   /* auto's choices as it runs (or NULL) */
} pumma_plan_t;

/* The plan's text: "algo=mdb2 bcast=ring-inc reduce=- shift=simultaneous"
 * (a kind the algorithm does not use is "-"), " limit=fit" or
 * " limit=least" when the workspace limit changed it, " topo=... layout=..."
 * for heterogeneous calls -- pumma_last_plan's text; with `full`, also
 * each choice's source, segment, panel, piece, workspace and auto's
 * per-message choices. Returns buf. */
const char *pumma_plan_format(const pumma_plan_t *pl, int full, char *buf,
                              size_t len);

/* What an algorithm receives: views already aligned to its needs. */
typedef struct pumma_problem {
    const pumma_type_t *t;
    const pumma_grid_t *g;
    char transa, transb;     /* 'N', 'T', 'C' (real types: 'C' -> 'T') */
    int m, n, k;
    const void *alpha, *beta;
    pumma_view_t a, b, c;
    /* heterogeneous calls: the operands (pumma_remap.h), else NULL */
    const struct pumma_het_opnd *ha, *hb, *hc;
    const pumma_plan_t *plan;   /* the plan it runs */
} pumma_problem_t;

/* The kinds of call, each computed by rows of the algorithm table of its
 * kind: a block-cyclic product spread over the grid (the PUMMA
 * algorithms, searched by the planner), a product local to the processes
 * holding sub(C) (one multiply, no message), a heterogeneous one (some
 * descriptor a layout: the schedules of pumma_het.c). */
enum { PUMMA_CALL_BLOCK = 0, PUMMA_CALL_LOCAL, PUMMA_CALL_HET };

typedef struct pumma_algo {
    const char *name;
    const char *help;
    /* 1 if it computes this transpose combination. */
    int (*handles)(char transa, char transb);
    /* Fill `want` with the distributions it needs (from those of `have`):
     * a, b, c in want are set; data is left NULL. NULL: it takes the
     * operands as they are. */
    void (*align)(const pumma_problem_t *have, pumma_problem_t *want);
    /* The product, p aligned as it wants, under the plan p->plan. */
    int (*run)(const pumma_problem_t *p);
    /* Modelled time of run() with p's variants (p aligned as it wants). */
    double (*cost)(const pumma_problem_t *p, const pumma_model_t *mo);
    /* Which variants run() calls on p's grid (PUMMA_USES_*): a collective
     * over one process is none. */
    unsigned (*uses)(const pumma_problem_t *p);
    /* The most bytes of temporaries run() holds at once on any process (p
     * aligned as it wants, its variants chosen): an upper bound, from
     * global values only, so every process agrees. */
    size_t (*workspace)(const pumma_problem_t *p);
    int kind;                /* PUMMA_CALL_*: the calls it computes */
    /* Rows not searched (local, heterogeneous): the rest of their plan,
     * made once before anything runs (NULL: nothing more). PUMMA_OK or
     * a status. */
    int (*prepare)(const pumma_problem_t *have, pumma_plan_t *pl);
} pumma_algo_t;
enum { PUMMA_USES_BCAST = 1, PUMMA_USES_REDUCE = 2, PUMMA_USES_SHIFT = 4 };

const pumma_algo_t *pumma_algo_find(const char *name);
const pumma_algo_t *pumma_algo_at(int i);   /* NULL past the end */
/* The kind of call `have` is (PUMMA_CALL_*), from its descriptors alone:
 * every process finds the same. */
int pumma_plan_kind(const pumma_problem_t *have);
/* The plan of the call `have` asking for o (pumma_plan.c): the row of the
 * call's kind, forced by o where it can be, else the model's cheapest
 * (block-cyclic calls) or the kind's own; o's variants where given, the
 * model's cheapest elsewhere; nothing whose workspace exceeds the limit
 * while another plan fits (pl->limited says whether the limit changed the
 * choice). have->plan is set to pl. Made before anything runs; nothing
 * changes it after but the count of auto's choices (pl->decided, kept
 * when given). Collective only when the row's prepare is (heterogeneous
 * calls measure the grid's speeds once). PUMMA_OK or a status. */
int pumma_plan_make(pumma_problem_t *have, const pumma_opts_t *o,
                    pumma_plan_t *pl);
/* The most bytes of temporaries a call holds at once on any process when
 * algorithm a runs on `have` (want: have aligned by a, o's variants): a's
 * own (its workspace member) and the driver's, the temporaries of the
 * operands a cannot take as they are and their redistributions. */
size_t pumma_plan_workspace(const pumma_problem_t *have,
                            const pumma_algo_t *a,
                            const pumma_problem_t *want);
/* The bytes of the largest local parts of sub(A), sub(B) and sub(C) of
 * the call `have`, summed: the same on every process (pumma_plan.c). */
double pumma_plan_operands(const pumma_problem_t *have);
/* The workspace limit for the call `have` (bytes): o->workspace when set,
 * else PUMMA_MAX_WORKSPACE, else the default, PUMMA_WORKSPACE_FACTOR times
 * the largest local parts of sub(A), sub(B) and sub(C), at least
 * PUMMA_WORKSPACE_FLOOR (doc/memory.md, "The workspace limit"). */
double pumma_plan_limit(const pumma_problem_t *have, const pumma_opts_t *o);
/* pumma_plan_workspace of the last call's plan (pumma_gemm.c; tests). */
size_t pumma_last_workspace(void);
/* The least PUMMA_PIECE the limit may lower a plan's to (bytes). */
#define PUMMA_PIECE_MIN (1024.0 * 1024)
/* PUMMA_PIECE when unset (bytes). */
#define PUMMA_PIECE_DEFAULT (64.0 * 1024 * 1024)
/*
 * The simulator of whole calls: the modelled time of a P?GEMM of type t,
 * C(m x n) += op(A) op(B) (ta, tb: 'N', 'T', 'C'), whole matrices
 * block-cyclic in nb x nb blocks from process (0, 0), on an nprow x npcol
 * grid that need not exist (no communicator is made: the costs are the
 * algorithms' and variants' own cost functions of global values), under
 * the model mo given (not measured; mo->dec NULL: the planner prices
 * every table variant, else auto as the decider decides). force (NULL:
 * nothing forced): its algo, bcast, reduce, shift and segment are forced
 * as a call's options force them, the rest is the planner's choice. The
 * price includes the redistributions into the algorithm's layouts, as
 * the planner's does; one process: the local multiply. plan (if not
 * NULL): the plan, as pumma_last_plan() writes it. Returns seconds; -1
 * when the forced algorithm does not compute ta/tb or an argument is out
 * of range.
 */
double pumma_plan_predict(const pumma_type_t *t, char ta, char tb, int m,
                          int n, int k, int nb, int nprow, int npcol,
                          const pumma_model_t *mo, const pumma_opts_t *force,
                          char *plan, size_t len);
#define PUMMA_WORKSPACE_FACTOR 2.0
#define PUMMA_WORKSPACE_FLOOR (256.0 * 1024 * 1024)
enum { PUMMA_LIMIT_NONE = 0, PUMMA_LIMIT_FIT = 1, PUMMA_LIMIT_LEAST = 2 };

/* ------------------------------------------------------- local helpers */

/* C := beta*C on a local m x n piece (beta == 0: zeroed, never read). */
void pumma_local_scale(const pumma_type_t *t, int m, int n, const void *beta,
                       void *c, int ldc);
/* C := alpha*op(A)*op(B) + beta*C locally, cut into column panels; before
 * and between panels progress(ctx) advances pending communication, so it
 * overlaps the multiply without threads. progress returns nonzero while
 * some of that communication is pending; once none is, the rest of C is
 * one multiply (each call of the BLAS packs all of op(A) again, which
 * costs a few percent at a short K). progress may be NULL: one multiply. */
typedef int (*pumma_progress_fn)(void *ctx);
void pumma_local_gemm(const pumma_problem_t *p, char ta, char tb, int m,
                      int n, int k, const void *alpha, const void *a, int lda,
                      const void *b, int ldb, const void *beta, void *c,
                      int ldc, pumma_progress_fn progress, void *ctx);

/* The one call of the BLAS ?gemm on a caller's C (pumma_local.c): C :=
 * alpha*op(A)*op(B) + beta*C, m, n, k > 0, beta == 0 never reads C. Above
 * PUMMA_BLAS_LDC_MAX, OpenBLAS 0.3.21's small-matrix SGEMM kernels index C
 * with 32-bit j*LDC for j < 16 and crash or write elsewhere; such calls
 * (pumma_blas_ldc_bad) go through a temporary of
 * pumma_blas_gemm_workspace() bytes. */
#define PUMMA_BLAS_LDC_MAX (INT32_MAX / 15)
int pumma_blas_ldc_bad(const pumma_type_t *t, int n, int64_t ldc);
size_t pumma_blas_gemm_workspace(const pumma_type_t *t, int m, int n,
                                 int64_t ldc);
void pumma_blas_gemm(const pumma_type_t *t, char ta, char tb, int m, int n,
                     int k, const void *alpha, const void *a, int lda,
                     const void *b, int ldb, const void *beta, void *c,
                     int ldc);

/* PUMMA_SPEEDS (pumma_speeds.c): how many times slower this rank computes
 * (1: not slowed), and the sleep that makes it so after a multiply that
 * took `wall` seconds and `cpu` seconds of processor time; progress(ctx),
 * when not NULL, is called every millisecond of it. */
double pumma_speed_factor(void);
double pumma_cpu_time(void);
void pumma_speed_pad(double wall, double cpu, int (*progress)(void *),
                     void *ctx);
/* MPI_Wait that naps 0.1 ms between tests instead of polling, so a
 * waiting process leaves a shared core to the others; PUMMA_OK or
 * PUMMA_EMPI (pumma_coll_req.c). */
int pumma_wait_napping(MPI_Request *req);

/* ---------------------------------------------------------- environment */

/*
 * Environment variables: every one pumma reads is a row of the table in
 * SRC/core/pumma_settings.c (its kind, range or names, default, scope and
 * one line of documentation), parsed into one struct (pumma_settings.h:
 * pumma_settings, pumma_setting); doc/environment.md and the README's
 * table are generated from it. The helpers below read values strictly
 * (pumma_env.c): the table's parse, the files' lines and PUMMA_MODEL's
 * items use them.
 */
const char *pumma_env_get(const char *var);        /* NULL: unset or empty */
void pumma_env_bad(const char *var, const char *val, const char *expected);
int pumma_env_parse_int(const char *s, long long lo, long long hi,
                        long long *x);
int pumma_env_parse_double(const char *s, double lo, double hi, double *x);
int pumma_env_items(const char *val, int (*item)(const char *, void *),
                    void *ctx);
int pumma_env_list(const char *var, double *v, int max, double lo, double hi,
                   const char *expected);
/* How this library was built (pumma_version.c; pumma-info shows it):
 * key system, cc, cflags, fc, mangling or libs; "unknown" when the
 * build did not say. */
const char *pumma_build_info(const char *key);
/* The shared variables compared across a grid's communicator at its
 * first call: a difference stops every process with a message naming it
 * (said once, by the grid's first process). */
int pumma_settings_agree(MPI_Comm comm);
/* Stops every process for a cause all may meet alike (a bad value), the
 * message said once, not once per process (pumma_env.c). */
void pumma_stop_all(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* Names of choices (PUMMA_ALGO=SDB, PUMMA_TUNE=Off) are compared without
 * regard to case (pumma_env.c). */
int pumma_name_eq(const char *a, const char *b);
/* At the first call, once per program: MPI_COMM_WORLD's rank 0 names on
 * standard error each PUMMA_* variable of its environment that is not in
 * the table, with the closest known name when one is close; the run goes
 * on (pumma_settings.c). */
void pumma_settings_scan(void);
/* Those names, one line each on out after lead (pumma-info lists them). */
void pumma_settings_unknown(FILE *out, const char *lead);
/* PUMMA_JITTER's random delay at a point where pumma sends or posts a
 * receive (pumma_p2p.c). */
void pumma_jitter(void);
/* PUMMA_MAX_WORKSPACE in bytes, -1 unset (pumma_plan.c). */
double pumma_plan_env_limit(void);
int pumma_tune_mode(void);                 /* PUMMA_TUNE_* (pumma_tune.h) */
int pumma_mem_cache_on(void);   /* PUMMA_CACHE, PUMMA_HUGEPAGES (pumma_stats.c) */

/* Temporaries: counted, so the peak can be reported (pumma_stats.c). */
void *pumma_malloc(size_t bytes);   /* NULL only when bytes > 0 fails */
void pumma_free(void *p);
size_t pumma_mem_cached(void);      /* bytes of kept blocks (PUMMA_CACHE) */

/*
 * Memory limits (pumma_memlimit.c). pumma_memlimit_room: the bytes of
 * temporaries that every process of g may still take under its memory
 * limit (RLIMIT_AS, RLIMIT_DATA, its cgroup's), the least over the grid,
 * less a reserve for MPI and the BLAS; INFINITY when no process of g has
 * a limit. Collective over g->all (on grids without a limit, only at their
 * first call; on the others when the call's operands, `operands` bytes on
 * the process of most, are more than a quarter of the room last measured,
 * and every 64th call: in between, that measure). *why: the process of
 * the least room (rank in g->all) and, on that process, its limit. pumma_memlimit_stop: every process stops
 * with a message naming that limit, said once by the grid's first
 * process (collective).
 */
enum { PUMMA_MEMLIMIT_NONE, PUMMA_MEMLIMIT_AS, PUMMA_MEMLIMIT_DATA,
       PUMMA_MEMLIMIT_CGROUP };
typedef struct pumma_memlimit pumma_memlimit_t;
double pumma_memlimit_room(const pumma_grid_t *g, const char *rout,
                           double operands, pumma_memlimit_t *why);
/* Its first part alone, for calls without a workspace estimate (the
 * heterogeneous schedules): at a grid's first call, the limits' survey and
 * the BLAS's buffer taken (or every process stopped: no room for it). */
void pumma_memlimit_enter(const pumma_grid_t *g, const char *rout);
/* Told by the local multiply that the BLAS has run in this process: its
 * buffer is taken, no room need be asked for it. */
void pumma_memlimit_blas_ran(void);
void pumma_memlimit_stop(const pumma_grid_t *g, const char *rout,
                         double need, double room, const pumma_memlimit_t *why);

/* PUMMA_STATS hooks (pumma_stats.c); all no-ops unless PUMMA_STATS=1.
 * clock() gives a start time for gemm()/comm(), which add the time since. */
int pumma_stats_on(void);
/* A call's record: its routine and plan (pumma_plan_format's short
 * text); calls of the same are counted together. */
void pumma_stats_begin(const char *rout, const char *plan);
void pumma_stats_end(void);
/* PUMMA_STATS=2: the call's sizes and plan on one line of standard error
 * (by the process with lead set; every process counts the call). */
void pumma_stats_trace(int lead, const char *rout, char ta, char tb, int m,
                       int n, int k, int nprow, int npcol, const char *plan);
/* The call just begun runs another plan than it would have without the
 * workspace limit (changed = 1). */
void pumma_stats_limited(int changed);
/* An auto broadcast's or reduce's decision (pumma_coll_auto.c): op and
 * variant are static strings; source and model as pumma_decide.h's. */
void pumma_stats_decide(const char *op, int np, double bytes,
                        const char *variant, double seg, int source,
                        int model);
void pumma_stats_model(const pumma_model_t *mo);   /* printed with the rest */
/* A forced choice (PUMMA_ALGO, _BCAST, _REDUCE, _SHIFT, _SEGMENT,
 * _TOPOLOGY or a per-call option) that a call could not take: kind
 * "algo", asked its name, ran what ran instead ("-": nothing of the
 * kind), why in a few words; reported once per kind, asked and ran as
 * "pumma-stats: asked KIND=ASKED, ran RAN (WHY)". pumma_stats_note: any
 * other line for the report ("pumma-stats: TEXT"), once per text. */
void pumma_stats_forced(const char *kind, const char *asked, const char *ran,
                        const char *why);
void pumma_stats_note(const char *text);
double pumma_stats_clock(void);
void pumma_stats_gemm(double since);
void pumma_stats_comm(double since);
void pumma_stats_sent(double bytes);
/* At the end of a heterogeneous multiply: the elements this process sent,
 * its time in the call and in the local multiply, gathered over the grid
 * (collective) and kept per process for the report. */
void pumma_stats_het(const pumma_grid_t *g, double elements);
/* MPI_Isend and MPI_Irecv as pumma makes them: every point-to-point
 * message goes through these two (pumma_p2p.c). The send is counted for
 * the statistics; both are points where PUMMA_JITTER may delay. A count
 * beyond pumma_count_max travels as one element of a derived type (whole
 * blocks of pumma_count_max elements and the rest), which both sides
 * build alike: one message, one request, whatever its size. */
int pumma_isend(const void *buf, int64_t count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req);
int pumma_irecv(void *buf, int64_t count, MPI_Datatype dt, int source,
                int tag, MPI_Comm comm, MPI_Request *req);
/* The most elements pumma gives MPI as one count: INT_MAX, MPI's int.
 * Messages above it go as a derived type (point to point, MPI_Ibcast), in
 * pieces (the tree engines, MPI_Ireduce, whose MPI_SUM takes predefined
 * types only) or in exchanges (redistributions). Tests lower it, so that
 * all of this runs on small messages; it must be the same everywhere. */
extern int64_t pumma_count_max;
/* (dt, count) when count <= pumma_count_max; else a new committed type of
 * count elements of dt and 1 (*made = 1: free it once the operation is
 * posted, MPI keeps what it needs). PUMMA_OK or PUMMA_EMPI. */
int pumma_count_type(int64_t count, MPI_Datatype dt, MPI_Datatype *type,
                     int *n, int *made);
/* (pumma_jitter, above: PUMMA_JITTER's random delay, at most 20 times the
 * variable's microseconds, at such a point; nothing when it is unset.) */

/* Internal status codes (never shown to users as INFO). */
enum { PUMMA_OK = 0, PUMMA_ENOMEM = 1, PUMMA_EMPI = 2, PUMMA_EGRID = 3 };
void pumma_fatal(const pumma_grid_t *g, const char *rout, const char *what,
                 int status);

/* --------------------------------------------------------------- driver */

/* The body of P?GEMM: checks, quick returns, planning, run. opts may be
 * NULL; info NULL means report errors through PB_Cabort (P?GEMM), else
 * return them there (pumma_p?gemm_opts, PUMMA_P?GEMM). */
struct pumma_options;
void pumma_gemm(const pumma_type_t *t, const char *transa, const char *transb,
                const int *m, const int *n, const int *k, const void *alpha,
                const void *a, const int *ia, const int *ja, const int *desca,
                const void *b, const int *ib, const int *jb, const int *descb,
                const void *beta, void *c, const int *ic, const int *jc,
                const int *descc, const struct pumma_options *opts,
                int *info);

/* The options of a Fortran INTEGER OPTS(PUMMA_NOPTS) array
 * (SRC/fortran/pumma_helpers_.c). */
struct pumma_options pumma_f77_options(const int *opts);

/* ScaLAPACK's argument check; returns 0 or INFO (< 0). desc11 receives the
 * descriptors in their 11-entry form, i0/j0 the 0-based indices. */
int pumma_check(const char *transa, const char *transb, int m, int n, int k,
                int ia, int ja, const int *desca, int ib, int jb,
                const int *descb, int ic, int jc, const int *descc,
                int dA[11], int dB[11], int dC[11], int *ctxt);

/* A plain P?GEMM entry point's signature (complex: interleaved pairs). */
typedef void pumma_pgemm_fn(const char *, const char *, const int *,
                            const int *, const int *, const void *,
                            const void *, const int *, const int *,
                            const int *, const void *, const int *,
                            const int *, const int *, const void *, void *,
                            const int *, const int *, const int *);
/* Called first by each plain entry point (pumma_switch.c): counts the
 * call, and under pumma_use(0) returns the definition to pass it to
 * (else NULL: pumma computes it). */
pumma_pgemm_fn *pumma_entry(const pumma_type_t *t);

/* BLACS and PBLAS routines pumma uses (from libscalapack). */
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow,
                     int *mycol);
void Cblacs_get(int ctxt, int what, int *val);
MPI_Comm Cblacs2sys_handle(int sysctxt);
void Cblacs_abort(int ctxt, int code);
void PB_Cabort(int ctxt, const char *rout, int info);

#endif
