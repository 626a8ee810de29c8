/*
 * pumma_comm.h -- the communication layer, SRC/comm (not installed): a
 * BLACS grid as MPI communicators, the broadcast, reduce and shift tables
 * and their variants, point-to-point messages, the matching rules every
 * message keeps (below), and the two-level collectives of grids that span
 * clusters. Above base (pumma_base.h) only.
 *
 * Matching: how every message meets its own receive, whatever order the
 * processes arrive in. MPI matches a receive to the earliest message sent
 * to it, on its communicator, from the source and with the tag it names
 * (the standard's non-overtaking rule). pumma relies on that, and on three
 * rules that every variant, algorithm and remap keeps:
 *
 *  1. Every receive names its source and its tag: MPI's wildcards for
 *     either are used nowhere (`make test` checks the sources for them). A
 *     receive open to any source takes whichever matching message comes
 *     first, so a process that runs ahead could have its message taken by
 *     a receive meant for another process's.
 *  2. On one communicator a process never has two operations in flight
 *     with the same tag: an operation (a broadcast, a reduce, a roll, a
 *     remap) is in flight from its start() to its wait() on that process.
 *     So the operations that use a tag follow each other in the same order
 *     on every process (each algorithm starts them in one order
 *     everywhere), and by non-overtaking the k-th message that X sends to
 *     Y with that tag is the one Y's k-th receive from X with it takes.
 *     The tags below are chosen so: one roll at a time; one exchange of
 *     a redistribution at a time, each complete before the next; the
 *     broadcasts of a stage each with its own tag (all of a stage are in
 *     flight at once); a reduce pipeline's reduces tagged by their slot, a slot
 *     reused only after its reduce is complete; remaps tagged by their id
 *     and the (origin, destination) pair. Where two kinds share tag
 *     values they run on different communicators (mdb: broadcasts down
 *     the columns, the roll along the rows).
 *  3. Every call completes all of its operations before it returns, and
 *     consecutive calls on a grid use different communicators
 *     (pumma_grid_enter alternates between two sets): no message of one
 *     call can meet a receive of the next, even if a future change broke
 *     rule 2 across calls.
 * MPI's own collectives (the `mpi` variants, the model's and statistics'
 * collectives) are matched by the order in which they start, which is the
 * same on every process.
 */
#ifndef PUMMA_COMM_H
#define PUMMA_COMM_H

#include "pumma_base.h"

/* ----------------------------------------------------------------- grid */

/*
 * The BLACS grid of a context as MPI communicators, made once per context and
 * cached on the BLACS communicator (freed with it).
 */
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
    struct pumma_hier_grid *hier;  /* its logical clusters (pumma_model.h):
                                NULL until known, or when one */
    int hier_known;          /* 1 once looked for (PUMMA_CLUSTERS) */
    int transposed;          /* a view of the grid with rows and columns
                                swapped (pumma_problem_transpose): its
                                rows are hier's columns */
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
    /* 1: run only when asked for (PUMMA_BCAST, PUMMA_REDUCE, the call's
     * options); auto, the decider, the search and hier's levels pass it
     * over. */
    int asked_only;
} pumma_coll_ops_t;

/* test/wait of a variant that is a single MPI request in req[0]. */
int pumma_coll_req_test(pumma_coll_t *c, int *done);
int pumma_coll_req_wait(pumma_coll_t *c);

typedef enum { PUMMA_BCAST_TABLE, PUMMA_REDUCE_TABLE } pumma_table_kind_t;
const pumma_coll_ops_t *pumma_comm_find(pumma_table_kind_t kind,
                                        const char *name);
/* Row i of a table, NULL past its end. */
const pumma_coll_ops_t *pumma_comm_at(pumma_table_kind_t kind, int i);
/* Row i of those auto may choose (asked_only left out), NULL past them. */
const pumma_coll_ops_t *pumma_comm_auto_at(pumma_table_kind_t kind, int i);

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

/* Let MPI advance the roll (from a multiply's progress points): a large
 * message is matched, and copied, only inside an MPI call, so without this
 * its sender would wait for the receiver's wait(). NULL: nothing.
 * Returns 1 while the roll is not complete. */
int pumma_shift_progress(pumma_shift_t *s);

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

/* The wait of the measurements (the machine model, the processors'
 * speeds), where some processes wait while others are timed: MPI_Wait,
 * except on a node with more of the program's processes than processors,
 * where a polling wait would take a timed process's processor and it
 * tests and naps `nap` seconds instead (pumma_coll_req.c). PUMMA_OK or
 * PUMMA_EMPI. */
int pumma_wait_idle(MPI_Request *req, double nap);

/* PUMMA_JITTER's random delay at a point where pumma sends or posts a
 * receive (pumma_p2p.c). */
void pumma_jitter(void);

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

/* BLACS routines pumma uses (from libscalapack). */
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow,
                     int *mycol);
void Cblacs_get(int ctxt, int what, int *val);
MPI_Comm Cblacs2sys_handle(int sysctxt);

/* The tags (rule 2). Every one is at most MPI_TAG_UB, which is at least
 * 32767 (the standard's least); PUMMA_TAG_BCAST and PUMMA_TAG_REMAP start
 * ranges whose users check them against the grid's tag_ub. */
enum {
    PUMMA_TAG_MODEL = 77,      /* the model's ping-pong, alone on `all` */
    PUMMA_TAG_CLUSTERS = 78,   /* the clusters' ping-pongs, alone on `all` */
    PUMMA_TAG_ROLL = 11,       /* the one roll in flight (a shift) */
    PUMMA_TAG_REDIST = 12,     /* the one redistribution exchange in flight */
    PUMMA_TAG_REDUCE = 100,    /* + slot: a reduce pipeline's reduces */
    PUMMA_TAG_GATHER = 300,    /* + round: rankk's one gather of op(B) */
    PUMMA_TAG_BCAST = 1000,    /* + i: broadcast i of an mdb stage */
    PUMMA_TAG_REMAP = 2000     /* + (id * np + origin) * np + dest, on all */
};

/* A variant names its tree with a shape function: the parent of `me` (-1
 * at the root) and its children (returned count), on a communicator of np
 * ranks. */

typedef int (*pumma_tree_shape_fn)(int np, int root, int me, int *parent,
                                   int *kids);

/* The pieces the tree engines (and the simulator) cut a message of count
 * elements into at `segment` elements each (0: one piece): at most
 * PUMMA_MAX_PIECES, as all of them are posted at once, and none beyond
 * pumma_count_max. */
enum { PUMMA_MAX_PIECES = 256 };
void pumma_coll_cut(int64_t count, int segment, int *npieces, int *piece);

/* The chain root, root+1, ..., root-1 (ring-inc and pipeline). */
int pumma_chain_shape(int np, int root, int me, int *parent, int *kids);

int pumma_bcast_tree_start(pumma_coll_t *c, pumma_tree_shape_fn shape,
                           int segment);
int pumma_bcast_tree_test(pumma_coll_t *c, int *done);
int pumma_bcast_tree_wait(pumma_coll_t *c);
/* On a tree given as this process's parent and children (the
 * hierarchical broadcast's between clusters); received: 1 once the whole
 * message is here; wait_received: until then (forwards left in flight). */
int pumma_bcast_tree_start_at(pumma_coll_t *c, int parent, const int *kids,
                              int nkids, int segment);
int pumma_bcast_tree_received(const pumma_coll_t *c);
int pumma_bcast_tree_wait_received(pumma_coll_t *c);
/* pending: the receive of the next piece this process awaits (NULL once
 * the whole message is here); arrived: that receive completed elsewhere
 * (its handle MPI_REQUEST_NULL), forward the piece. */
MPI_Request *pumma_bcast_tree_pending(pumma_coll_t *c);
int pumma_bcast_tree_arrived(pumma_coll_t *c);
/* The elements from the message's start this process holds. */
int64_t pumma_bcast_tree_have(const pumma_coll_t *c);
/*
 * pumma_bcast_await (pumma_bcast_await.c): block until this process holds
 * broadcast c's whole message (v: the variant it was started with),
 * relaying meanwhile every broadcast of others[0..n-1] (started with v;
 * c itself, NULL and finished ones are skipped) whose pieces arrive first,
 * in one MPI_Waitany over the next receive of each: a process blocked on
 * one broadcast still passes the others down their trees, and waits no
 * longer, nor more often, than for its own pieces. c's forwards may be
 * left in flight: v->wait() completes them. Variants other than the tree
 * engine's and MPI's own are waited with v->wait(). PUMMA_OK or PUMMA_EMPI.
 */
int pumma_bcast_await(const pumma_coll_ops_t *v, pumma_coll_t *c,
                      pumma_coll_t *const *others, int n);
/* The same until this process holds c's first `upto` elements (the tree
 * engine's pieces arrive in order; other variants: the whole message),
 * so that a multiply can start on them. */
int pumma_bcast_await_upto(const pumma_coll_ops_t *v, pumma_coll_t *c,
                           int64_t upto, pumma_coll_t *const *others, int n);

/* Sums in tree order (children in the order shape gives them). */
int pumma_reduce_tree_start(pumma_coll_t *c, pumma_tree_shape_fn shape,
                            int segment);
int pumma_reduce_tree_test(pumma_coll_t *c, int *done);
int pumma_reduce_tree_wait(pumma_coll_t *c);
/* On a tree given as this process's parent and children (the
 * hierarchical reduce's between clusters). */
int pumma_reduce_tree_start_at(pumma_coll_t *c, int parent, const int *kids,
                               int nkids, int segment);
/* The most whole-message buffers the engine gives one process (over every
 * root and member) in one reduce over np: an inner node's receive buffers,
 * and off the root its running sum (rbuf, the root's sum, not counted). */
int pumma_reduce_tree_buffers(pumma_tree_shape_fn shape, int np);

/* The tree engines' sends, completed in posting order: test advances *done
 * past those complete and sets *all when every one of the n is; wait
 * completes the rest. Both return PUMMA_OK or PUMMA_EMPI. */
int pumma_sends_test(MPI_Request *req, int n, int *done, int *all);
int pumma_sends_wait(MPI_Request *req, int n, int *done);

/* The mst broadcast's tree (pumma_bcast_mst.c), also the mst reduce's. */
int pumma_bcast_mst_tree(int np, int root, int me, int *parent, int *kids);

/* ------------------------------------------------------------------ auto */

/* Who decided a message's variant (pumma_model.h). */
enum { PUMMA_SRC_FILE, PUMMA_SRC_MODEL, PUMMA_SRC_DEFAULT };

typedef struct pumma_decision {
    const pumma_coll_ops_t *v;
    double seg;                   /* bytes per piece, 0: v's default */
    int source;                   /* PUMMA_SRC_* */
    int model;                    /* PUMMA_NM_* when source is the model */
    const char *model_name;       /* its name then ("hockney", ...), else NULL */
} pumma_decision_t;

/* What auto asks of whoever decides (SRC/model/pumma_decide.c): the first
 * member of a pumma_decider, set by pumma_decide_parse; the collectives
 * see the decider only through these, as it is the model's. */
typedef struct pumma_decider_ops {
    void (*decide)(struct pumma_decider *d, pumma_table_kind_t op, int np,
                   double bytes, int esize, pumma_decision_t *out);
    void (*release)(struct pumma_decider *d);  /* pumma_decide_free, free */
} pumma_decider_ops_t;
static inline const pumma_decider_ops_t *
pumma_decider_ops(const struct pumma_decider *d)
{
    return *(const pumma_decider_ops_t *const *)d;   /* its first member */
}

/* The auto pseudo-variants (pumma_coll_auto.c): start() decides, then
 * runs the chosen variant (c->via); cost() prices the choice. */
extern const pumma_coll_ops_t pumma_bcast_auto, pumma_reduce_auto;
/* Whether the MPI library's own reduce (variant "mpi") takes time for its
 * sums: not in an SMPI build that does not simulate computation (SMPI
 * applies its operations uncharged; pumma's own sums are charged by their
 * model there, INSTALL/smpi/pumma_smpi_blas.c). */
int pumma_reduce_mpi_adds(void);

/* --------------------------------------------- grids that span clusters */

/*
 * Grids that span clusters (not installed): logical
 * clusters of processes (pumma_clusters.c) and the schedules that cross
 * between them (pumma_ecef.c).
 *
 * A platform of several clusters (machine rooms, sites) has links of two
 * kinds: fast inside a cluster, slow (milliseconds, a tenth of the
 * bandwidth) between clusters. A broadcast that does not know it crosses
 * the slow links many times; one that does sends the message once to one
 * process of each cluster (its coordinator), on a schedule built for the
 * slow links, and each coordinator then broadcasts inside its cluster
 * with the variant best there (Nasri, Steffenel and Trystram 2007,
 * section 4.3).
 */
/*
 * A grid's clusters, found (SRC/model/pumma_clusters.c) once per grid at
 * its first P?GEMM when PUMMA_CLUSTERS asks (or set by
 * PUMMA_GRID_CLUSTERS), with what the schedules price: between every two
 * clusters the latency and the seconds per byte measured between their
 * coordinators, inside each
 * the model of its own links (alpha and beta measured between two of its
 * members; the grid's model otherwise).
 */
typedef struct pumma_hier_line {
    int n, nc;               /* ranks on the line, clusters among them */
    int *cl;                 /* [n]: a rank's cluster (line numbering) */
    int *size, *coord, *gcl; /* [nc]: members, coordinator (the lowest
                                rank), the grid's number of the cluster */
    int *sub_rank;           /* [n]: a rank's rank in its cluster's sub */
    MPI_Comm sub;            /* my cluster's members on this line */
    const struct pumma_hier_grid *h;
} pumma_hier_line_t;

typedef struct pumma_hier_grid {
    int nc;                  /* clusters on the grid (>= 2) */
    int *cluster;            /* [nprow*npcol]: a grid position's */
    double *lat, *beta;      /* [nc*nc]: latency (s), s per byte, a to b */
    pumma_model_t *inside;   /* [nc]: each cluster's model */
    pumma_hier_line_t row[PUMMA_GRID_EPOCHS], col[PUMMA_GRID_EPOCHS];
    /* every distinct line of the grid, by the clusters of its positions
     * (no communicators): what the planner prices (pumma_coll_price.c);
     * [PUMMA_ALONG_COL] the columns', [PUMMA_ALONG_ROW] the rows' */
    pumma_hier_line_t *shape[2];
    int nshape[2];
    unsigned id;             /* this set of clusters and links, among all
                                a process has made: plans remembered for
                                one are not another's */
} pumma_hier_grid_t;

/* The clusters of comm (the current call's g->row or g->col), NULL when
 * it lies in one. */
const pumma_hier_line_t *pumma_hier_line_of(const pumma_grid_t *g,
                                            MPI_Comm comm);
void pumma_hier_free(pumma_hier_grid_t *h);
/* One line of h's grid: comm's n ranks (gc[r]: the grid's cluster of
 * rank r; me: my rank), its clusters numbered by first member, and my
 * cluster's communicator (collective over comm when they are several;
 * none when comm is MPI_COMM_NULL: a line the planner prices).
 * PUMMA_OK, PUMMA_ENOMEM or PUMMA_EMPI; line_free undoes it. */
int pumma_hier_line_make(pumma_hier_line_t *L, const pumma_hier_grid_t *h,
                         MPI_Comm comm, int n, const int *gc, int me);
void pumma_hier_line_free(pumma_hier_line_t *L);
/* h's shape[] and nshape[] for a nprow x npcol grid (h->cluster set).
 * PUMMA_OK or PUMMA_ENOMEM. */
int pumma_hier_shapes_make(pumma_hier_grid_t *h, int nprow, int npcol);

/*
 * The modelled time of one collective (v: a broadcast or reduce variant)
 * or roll (s) of `bytes` over a line of np processes of grid g: along
 * PUMMA_ALONG_COL the nprow processes of one grid column (g->col), along
 * PUMMA_ALONG_ROW the npcol of one row (g->row). On a grid without
 * clusters that is the variant's cost under mo. On a grid that spans
 * clusters it is the slowest line's (the busiest sets the pace): hier
 * priced by its own plan (pumma_hier_plan, averaged over the roots of
 * the line), the other variants under the slowest link the line holds
 * (pumma_coll_price.c).
 */
enum { PUMMA_ALONG_COL = 0, PUMMA_ALONG_ROW = 1 };
/* The model the other exchanges of a call are priced under (the
 * redistributions, among every process of the grid): mo, or on a grid
 * that spans clusters mo with the slowest link between any two of its
 * processes, and the fastest's latency as alpha_post (a redistribution's
 * further messages, posted with the first). The line prices below
 * replace mo's network values with the line's own, so this model may be
 * theirs too. */
void pumma_grid_price_model(const pumma_grid_t *g, const pumma_model_t *mo,
                            pumma_model_t *out);
double pumma_coll_price(const pumma_grid_t *g, const pumma_coll_ops_t *v,
                        const pumma_model_t *mo, int along, int np,
                        double bytes, double seg);
double pumma_shift_price(const pumma_grid_t *g, const pumma_shift_ops_t *s,
                         const pumma_model_t *mo, int along, int np,
                         double bytes);

/* The two-level broadcast and reduce (pumma_bcast_hier.c,
 * pumma_reduce_hier.c), and their plan (pumma_hier_plan.c): of `bytes` from (to) line rank
 * root on L, the schedule between clusters (parent[] and order[] over the
 * line's clusters, their coordinators in coord[]; a reduce runs it
 * backwards), the variant of table op inside each (local[]), the
 * heuristic (*chosen; kind 0: the best predicted of the three) and the
 * predicted time, returned (-1: out of memory). Every process computes
 * the same. */
extern const pumma_coll_ops_t pumma_bcast_hier, pumma_reduce_hier;
double pumma_hier_plan(pumma_table_kind_t op, const pumma_hier_line_t *L,
                       int root, double bytes, int kind, int *parent,
                       int *order, int *coord,
                       const pumma_coll_ops_t **local, int *chosen);
/* One process's part in the plan of a collective of `bytes` from (to)
 * line rank root, for rank me of L: whether it coordinates its cluster,
 * its parent (-1: none) and children (kids[nk], sending order) between
 * clusters, its cluster's coordinator in L->sub and variant inside, and
 * whether its cluster is itself alone. PUMMA_OK or PUMMA_ENOMEM;
 * role_free frees kids. */
typedef struct pumma_hier_role {
    int coordinator, parent, nk, *kids, sub_root, alone;
    const pumma_coll_ops_t *local;
} pumma_hier_role_t;
int pumma_hier_role(pumma_table_kind_t op, const pumma_hier_line_t *L,
                    int root, int me, double bytes, pumma_hier_role_t *r);
void pumma_hier_role_free(pumma_hier_role_t *r);
/* What hier runs on a line inside one cluster: auto with a decider (dec),
 * else the table's plain choice (binomial; the first reduce). */
const pumma_coll_ops_t *pumma_hier_single(pumma_table_kind_t op, int dec);
/* The variant of table op the model mo prices fastest for np processes
 * and `bytes` (neither auto nor hier); *t its time (0 for one process). */
const pumma_coll_ops_t *pumma_hier_fastest(pumma_table_kind_t op,
                                           const pumma_model_t *mo, int np,
                                           double bytes, double *t);
/* The heuristic of the next hier collectives: kind (0: the best
 * predicted) over PUMMA_HIER_SCHEDULE; -1 gives the choice back. For
 * timing each in one run (TIMING/hiertim.c). pumma_hier_schedule: the
 * kind in force. */
void pumma_hier_schedule_set(int kind);
int pumma_hier_schedule(void);

/* The inter-cluster schedules (pumma_ecef.c). */
enum {
    PUMMA_ECEF = 1,      /* Early Completion Edge First (Bhat et al.) */
    PUMMA_ECEF_LA = 2,   /* ... with a look-ahead at the receiver's next edge */
    PUMMA_ECEF_LAT = 3   /* ... with the receiver cluster's own broadcast */
};

/*
 * pumma_ecef: a broadcast schedule among nc clusters' coordinators,
 * grown one transfer at a time by the heuristic `kind`. With RT_i the
 * time sender i is free again (a sender is busy g_ij(m) per message, the
 * receiver holds it L_ij later), each step takes the pair (i informed, j
 * not) that minimises
 *   ECEF       RT_i + g_ij + L_ij
 *   ECEF-LA    RT_i + g_ij + L_ij + min_{k not informed, k != j} (g_jk + L_jk)
 *   ECEF-LAt   RT_i + g_ij + L_ij + T_j
 * (ties: the lower i, then the lower j); then j holds the message at
 * RT_i + g_ij + L_ij and RT_i grows by g_ij.
 *   nc      (input) clusters, >= 1; root (input) the one holding the message.
 *   L, g    (input) nc x nc: latency and gap (seconds, for this message)
 *           of the link from i to j at [i*nc+j].
 *   T       (input) nc: each cluster's own broadcast from its coordinator
 *           (seconds; 0 for a cluster of one); NULL: all 0.
 *   parent  (output) nc: who sends to j (-1 at the root).
 *   order   (output) nc: the clusters in the order they are reached
 *           (order[0] = root); a sender sends to its children in this order.
 *   arrive  (output) nc: when j's coordinator holds the message (root 0).
 * Returns the predicted completion, max_j (arrive_j + T_j): a coordinator
 * broadcasts in its cluster as soon as it holds the message, while it
 * still forwards it to other clusters (the slow link is not its own).
 */
double pumma_ecef(int kind, int nc, int root, const double *L,
                  const double *g, const double *T, int *parent, int *order,
                  double *arrive);

/*
 * pumma_hier_eval: the time of a schedule of pumma_ecef's (parent, order)
 * as hier's engine runs it, which is not one message after another: a
 * coordinator posts its sends to the clusters it serves all at once as it
 * receives the message (pumma_bcast_tree.c), and starts its own cluster's
 * broadcast meanwhile, so all of them share its own link; each goes at
 * its max-min fair share of it (pumma_link_share), no faster than its
 * path between the clusters (bytes / g_ab). A cluster's broadcast inside
 * takes T_a from when its coordinator holds the message, plus the delay
 * that sharing puts on the coordinator's nloc[a] sends in it beyond
 * taking them one after another.
 *   L, g, T  (input) as pumma_ecef's.
 *   port     (input) nc: seconds per byte of each coordinator's own link
 *            (its cluster's beta inside); NULL: unlimited.
 *   nloc     (input) nc: the messages the variant inside sends from the
 *            coordinator (its children in its tree; 0 alone); NULL: none.
 *   bytes    (input) the message.
 *   arrive   (output) nc: when j's coordinator holds the message.
 * Returns the completion, max_a (arrive_a + T_a + delay_a). Where a
 * coordinator serves one cluster and has nothing else to send it is
 * pumma_ecef's time.
 */
double pumma_hier_eval(int nc, int root, const int *parent, const int *order,
                       const double *L, const double *g, const double *T,
                       const double *port, const int *nloc, double bytes,
                       double *arrive);
/* n flows of `bytes` each leave one link of `cap` bytes per second at
 * once, flow k at most rate[k] bytes per second: fin[k] the seconds until
 * flow k is through, under max-min fair sharing (bandwidth left by
 * flows at their caps is shared among the others). */
void pumma_link_share(int n, double bytes, double cap, const double *rate,
                      double *fin);

/* The heuristic's name ("ecef", "ecef-la", "ecef-lat"); pumma_ecef_kind
 * the reverse (0: none of them). */
const char *pumma_ecef_name(int kind);
int pumma_ecef_kind(const char *name);

/*
 * An all-gather along comm's q processes in Bruck's order, non-blocking
 * (pumma_allgather.c): ceil(log2 q) rounds of at most two messages each
 * way, a round posted when the last one is done -- by test() at the local
 * multiply's progress points, or by wait(). Piece r (cnt[r] elements at
 * dsp[r] of buf) is rank r's; the pieces lie in rank order one after
 * another (dsp[r+1] = dsp[r] + cnt[r]), and mine is in place at start.
 * Tags tag .. tag + 2*rounds - 1 on comm are the gather's while it is in
 * flight. The buffer is the caller's until wait() or test() says done.
 */
typedef struct pumma_allgather {
    char *buf;
    const int *cnt, *dsp;
    MPI_Datatype type;
    size_t esize;
    MPI_Comm comm;
    int q, me, tag;
    int have, round;         /* pieces held (from mine on), rounds posted */
    int nreq;
    MPI_Request req[4];
} pumma_allgather_t;
int pumma_allgather_start(pumma_allgather_t *g, void *buf, const int *cnt,
                          const int *dsp, MPI_Datatype type, size_t esize,
                          MPI_Comm comm, int tag);
int pumma_allgather_test(pumma_allgather_t *g, int *done);
int pumma_allgather_wait(pumma_allgather_t *g);
/* (its rounds: pumma_model_log2(q), pumma_base.h) */

#endif
