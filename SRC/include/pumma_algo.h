/*
 * pumma_algo.h -- the algorithms, SRC/algo (not installed): what a call
 * asks and the plan it runs, the algorithm table, the rolls and local
 * multiplies the algorithms share, and the heterogeneous multiply.
 * Above desc and model.
 */
#ifndef PUMMA_ALGO_H
#define PUMMA_ALGO_H

#include "pumma_desc.h"
#include "pumma_model.h"

/* Fill s and start it with the variant of p's plan (SRC/algo/pumma_roll.c). */
struct pumma_problem;
int pumma_roll_start(const struct pumma_problem *p, pumma_shift_t *s,
                     const void *sbuf, int64_t scount, void *rbuf,
                     int64_t rcount, int dest, int source, MPI_Comm comm,
                     int tag);
int pumma_roll_wait(const struct pumma_problem *p, pumma_shift_t *s);

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
    /* The process cube of split and layers (pumma_cube.c): processes
     * along M, N and K (K's are layers, each holding a partial sum of C),
     * and the steps each layer takes through its slice of K; 0 for the
     * other algorithms. */
    int cube[4];
    unsigned uses;           /* PUMMA_USES_*: the variants that run */
    int limited;             /* PUMMA_LIMIT_*: the limit changed the choice */
    double limit;            /* bytes of temporaries allowed (INFINITY) */
    size_t workspace;        /* bytes of temporaries, at most */
    double cost;             /* modelled seconds (0: not priced) */
    unsigned char from[PUMMA_NCHOICES];   /* pumma_from_t of each choice */
    pumma_decided_t *decided;   /* auto's choices as it runs (or NULL) */
} pumma_plan_t;

/* What an algorithm receives: views already aligned to its needs. */
typedef struct pumma_problem {
    const pumma_type_t *t;
    const pumma_grid_t *g;
    char transa, transb;     /* 'N', 'T', 'C' (real types: 'C' -> 'T') */
    int m, n, k;
    const void *alpha, *beta;
    pumma_view_t a, b, c;
    /* heterogeneous calls: the operands (pumma_algo.h), else NULL */
    const struct pumma_het_opnd *ha, *hb, *hc;
    const pumma_plan_t *plan;   /* the plan it runs */
    /* 'U' or 'L': only that triangle of sub(C) is computed, the rest of
     * C neither read nor written (P?SYRK, P?HERK, P?SYR2K, P?HER2K; the
     * rows that honour it: rankk and local); 0: all of sub(C). */
    char uplo;
    /* 1: op(B) is op(A)'s transpose (conjugate transpose when transa or
     * transb is 'C'), the same matrix: P?SYRK's and P?HERK's products
     * with TRANS 'N' (op(A) = A). rankk then makes op(B) from the rows of
     * op(A) its row broadcasts brought, gathered down the grid's columns,
     * instead of moving B. at_of_b: the mirror, TRANS 'T' or 'C' (op(B) =
     * A): op(A) made from the columns of op(B) its column broadcasts
     * brought, gathered along the grid's rows, A never transposed whole. */
    int bt_of_a, at_of_b;
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
    /* Rows with a shape of their own to choose (split, layers): chooses
     * it into pl (its cube) for p under mo within pl->limit, before
     * cost(), workspace() and run() read it. NULL: none. */
    void (*shape)(const pumma_problem_t *p, const pumma_model_t *mo,
                  pumma_plan_t *pl);
    /* 1: run only when asked for (PUMMA_ALGO, the call's options); auto
     * does not price it (split and layers, until their model is borne
     * out: doc/algorithms.md). */
    int asked_only;
} pumma_algo_t;
enum { PUMMA_USES_BCAST = 1, PUMMA_USES_REDUCE = 2, PUMMA_USES_SHIFT = 4 };

const pumma_algo_t *pumma_algo_find(const char *name);
const pumma_algo_t *pumma_algo_at(int i);   /* NULL past the end */

/* C := alpha*op(A)*op(B) + beta*C locally, cut into column panels of the
 * plan's width; before and between panels progress(ctx) advances pending
 * communication, so it overlaps the multiply without threads. progress
 * returns nonzero while some of that communication is pending; once none
 * is, it is not called again (the panels stay as they are: which columns
 * a BLAS call gets must not depend on when messages arrive). progress may
 * be NULL: one multiply. */
typedef int (*pumma_progress_fn)(void *ctx);
void pumma_local_gemm(const pumma_problem_t *p, char ta, char tb, int m,
                      int n, int k, const void *alpha, const void *a, int lda,
                      const void *b, int ldb, const void *beta, void *c,
                      int ldc, pumma_progress_fn progress, void *ctx);
/* The same in panels `panel` columns wide, each multiplied once
 * ready(ctx, j1) has returned PUMMA_OK: op(B)'s columns before j1, the
 * panel's end, are here (a multiply that starts on a broadcast's first
 * pieces). Any other return stops the multiply there and is returned.
 * ready may be NULL. */
typedef int (*pumma_ready_fn)(void *ctx, int j1);
/* With p->uplo set, both multiply p's whole local C (m, n its local rows
 * and columns, c its data) and only p->uplo's triangle of sub(C): in
 * panels of columns, one multiply for the rows every column of a panel
 * keeps, and one into a temporary for the rows across the diagonal, added
 * entry by entry where kept (pumma_local_gemm.c). */
int pumma_local_gemm_ready(const pumma_problem_t *p, char ta, char tb, int m,
                           int n, int k, const void *alpha, const void *a,
                           int lda, const void *b, int ldb, const void *beta,
                           void *c, int ldc, int panel, pumma_ready_fn ready,
                           pumma_progress_fn progress, void *ctx);

/* ------------------------------------------ the heterogeneous multiply */

/* 1 when name is one of its schedules: "het" or "het-overlap". */
int pumma_het_schedule(const char *name);
/* One operand of the heterogeneous multiply: the window at 0-based
 * (i0, j0) of descriptor desc (heterogeneous, or block-cyclic in its
 * 11-entry form) over this process's local array data. lay: its layout
 * (NULL: block-cyclic); side: the window of the operand's own shape
 * (for C, m x n), from which a layout operand's storage (data, ld) and a
 * block-cyclic C's distributions and first local entry are read. */
typedef struct pumma_het_opnd {
    const int *desc;
    const pumma_layout_t *lay;
    int i0, j0;
    const void *data;
    pumma_side_t side;
} pumma_het_opnd_t;
int pumma_het_opnd(const pumma_type_t *t, const pumma_grid_t *g,
                   const int *desc, int i0, int j0, int m, int n,
                   const void *data, pumma_het_opnd_t *x);
/* The m x n window at (i, j) of operand x's window, as a remap's side. */
pumma_side_t pumma_het_window(const pumma_type_t *t, const pumma_grid_t *g,
                              const pumma_het_opnd_t *x, int i, int j, int m,
                              int n);
/* C := alpha*op(A)*op(B) + beta*C (pumma_het.c), sub(C) m x n = p->m x
 * p->n, K = p->k; p gives type, grid, transposes, scalars and options. */
int pumma_het_run(const pumma_problem_t *p, const pumma_het_opnd_t *A,
                  const pumma_het_opnd_t *B, const pumma_het_opnd_t *C,
                  int overlap, int topo);
/* The rows (dim 0) or columns (dim 1) of sub(C) (m x n) that process p
 * computes, and how many entries. */
int pumma_het_spans(const pumma_het_opnd_t *C, const pumma_grid_t *g, int m,
                    int n, int p, int dim, pumma_ilist_t *out);
double pumma_het_area(const pumma_het_opnd_t *C, const pumma_grid_t *g, int m,
                      int n, int p);
/* The columns of K in one slice of the schedule (K: one slice). */
int pumma_het_slice(const pumma_problem_t *p, int overlap);
/* Remap ids the planner keeps for sub(C)'s moves (the schedule's slices
 * use 0 .. pumma_remap_ids - 3). */
#define PUMMA_HET_ID_IN(g) (pumma_remap_ids(g) - 2)
#define PUMMA_HET_ID_OUT(g) (pumma_remap_ids(g) - 1)

/* Where sub(C) is computed (pumma_het_plan.c): kind 0 on C's own
 * distribution, else on `layout` (a PUMMA_LAYOUT_* kind made for the
 * measured speeds, M x N, kept by the planner); the predicted seconds of
 * both. */
typedef struct pumma_het_plan {
    int kind, layout;
    double t_own, t;
    double elems_own, elems;   /* elements sent in all, relays included
                                  (the schedule's, and sub(C)'s moves);
                                  -1 when not priced */
} pumma_het_plan_t;
int pumma_het_plan(const pumma_problem_t *p, const pumma_het_opnd_t *A,
                   const pumma_het_opnd_t *B, const pumma_het_opnd_t *C,
                   int overlap, int topo, pumma_het_plan_t *out);
/* PUMMA_HET_LAYOUT: -1 auto, 0 given, else the PUMMA_LAYOUT_* forced. */
int pumma_het_layout_env(void);
/* Sets it for the calls that follow (-1 auto, 0 given, a kind): for the
 * tests, which check a fixed choice's volumes and every choice's
 * results. */
void pumma_het_layout_set(int kind);
/* The last heterogeneous call's plan on this process (pumma_gemm.c). */
const pumma_het_plan_t *pumma_het_last(void);
/* The name of a plan's kind: "given", "columns", "square-corner", ... */
const char *pumma_het_kind_name(int kind);

/* sub(C) := beta*sub(C) on this process's part (m x n). */
int pumma_het_scale(const pumma_type_t *t, const pumma_grid_t *g,
                    const pumma_het_opnd_t *C, int m, int n, const void *beta);
/* This process's last heterogeneous multiply: seconds until its gathers
 * were complete, and for the whole call. */
void pumma_het_times(double *comm, double *total);

/* ------------------------------------------- shared by the algorithms */

void pumma_presort_cols(const pumma_type_t *t, char op, int st,
                        const pumma_groups_t *g, int m, const void *src,
                        int lds, void *dst, int ldd);
int pumma_groups_in_order(const pumma_groups_t *g);
int pumma_groups_sorted_at(const pumma_dist_t *d, int me,
                           const pumma_dist_t *key);
int pumma_groups_contiguous(const pumma_groups_t *g, int grp, int *first);
void pumma_presort_rows(const pumma_type_t *t, char op,
                        const pumma_groups_t *g, int n, const void *src,
                        int lds, void *dst, int ldd);
void pumma_gather_rows(const pumma_type_t *t, char op, int st,
                       const pumma_groups_t *g, int grp, int n,
                       const void *src, int lds, void *dst, int ldd);
void pumma_copy_run_rows(const pumma_type_t *t, char op, int st,
                         const pumma_run_t *u, int n, const void *src,
                         int lds, void *dst, int ldd);
/* dst := beta*dst + slab over a group's rows or columns; beta = 0 never
 * reads dst (C may hold NaN), beta = 1 is a plain add. */
void pumma_scatter_add_rows(const pumma_type_t *t, const pumma_groups_t *g,
                            int grp, int n, const void *slab, int lds,
                            const void *beta, void *dst, int ldd);
void pumma_scatter_add_cols(const pumma_type_t *t, const pumma_groups_t *g,
                            int grp, int lo, int cnt, int m, const void *slab,
                            int lds, const void *beta, void *dst, int ldd);

/* A broadcast or reduce of count elements of p's type, cut at p's segment
 * (the fields every algorithm sets alike; start() sets the rest). */
static inline pumma_coll_t pumma_coll_of(const pumma_problem_t *p, void *buf,
                                         void *rbuf, int64_t count, int root,
                                         MPI_Comm comm, int tag)
{
    pumma_coll_t c = {0};
    c.buf = buf;
    c.rbuf = rbuf;
    c.count = count;
    c.dt = p->t->mpi;
    c.t = p->t;
    c.segment = p->plan->segment / (int)p->t->size;
    c.root = root;
    c.comm = comm;
    c.tag = tag;
    c.dec = p->g->model.dec;
    c.decided = p->plan->decided;
    c.hier = pumma_hier_line_of(p->g, comm);
    return c;
}

/*
 * The reduce pipeline of the transposed algorithms: partial products are
 * summed onto their owner with non-blocking reduces, up to `depth` in flight,
 * so no process waits for a sum before computing the next product (PUMMA's
 * asynchronous accumulation, section 3.3). When a sum lands at its root,
 * `land` adds it into C.
 */
typedef struct pumma_rslot {
    void *part, *sum;
    pumma_coll_t coll;
    int busy, grp, rows, cols;
    int at;                  /* the piece's first column of the product */
    int in_c;                /* the root's own product went into C
                                (with beta): land adds, else it scales */
} pumma_rslot_t;
typedef struct pumma_rpipe {
    const pumma_problem_t *p;
    int depth, head, count;
    pumma_rslot_t *slot;
    void (*land)(struct pumma_rpipe *rp, pumma_rslot_t *s);
    const pumma_groups_t *gc;      /* for land(): C's local rows/cols */
    int me;                        /* my coordinate along the reduce comm */
    pumma_shift_t *roll;           /* the roll in flight, or NULL */
} pumma_rpipe_t;
int pumma_rpipe_init(pumma_rpipe_t *rp, const pumma_problem_t *p, int depth,
                     size_t slot_elems);
/* A free slot (completing the oldest reduce if all are busy). */
int pumma_rpipe_slot(pumma_rpipe_t *rp, pumma_rslot_t **s);
int pumma_rpipe_post(pumma_rpipe_t *rp, pumma_rslot_t *s, int root,
                     MPI_Comm comm, int tag);
int pumma_rpipe_drain(pumma_rpipe_t *rp);
void pumma_rpipe_free(pumma_rpipe_t *rp);
/* The width of the piece of an n-wide partial product (`other` long) that
 * one reduce carries. */
int pumma_rpipe_piece(const pumma_problem_t *p, int n, int other);
/* The temporaries of a reduce pipeline of `depth` slots of slot_elems
 * summed over R processes, at most: each slot's product, the sum at its
 * root, and the reduce variant's own buffers. */
size_t pumma_rpipe_workspace(const pumma_problem_t *p, int depth, int R,
                             size_t slot_elems);
/* Modelled time of a reduce-pipeline algorithm: `stages` stages (the roll
 * of `roll_bytes` around that many processes of a grid row between them);
 * in each, R products of `area` elements with inner dimension k, each
 * summed over the R processes of a grid column while the next is
 * computed; the last sum is exposed. */
double pumma_rpipe_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                        int stages, int R, double area, double k,
                        double roll_bytes);
/* Advance every reduce in flight, and the roll (for pumma_local_gemm's
 * progress); 1 while any of them is pending. */
int pumma_rpipe_progress(pumma_rpipe_t *rp);

/*
 * The operand swap: C**T = op(B)**T * op(A)**T is the problem q on the
 * transposed grid g, with B**T for A and A**T for B (views of the same
 * stored arrays, read transposed: the algorithm running q must know that
 * its operands and C are stored transposed). The mirrored algorithms (the
 * -row forms, nt, stat-b) are their originals run on it.
 */
void pumma_problem_transpose(const pumma_problem_t *p, pumma_problem_t *q,
                             pumma_grid_t *g);
/* want := have aligned for the mirror of `align`: align of the transposed
 * problem, transposed back. */
void pumma_align_transposed(const pumma_problem_t *have,
                            pumma_problem_t *want,
                            void (*align)(const pumma_problem_t *,
                                          pumma_problem_t *));

/*
 * One row of the algorithm table over an engine that takes a parameter
 * (an orientation, a shape): the members take none, so the row gets
 * functions of its own that pass it. The engine is the six functions
 * <engine>_handles, _align, _run, _cost, _uses and _workspace, each with
 * the members' arguments and the parameter last.
 */
#define PUMMA_ALGO_ROW(id, name, desc, engine, param)                       \
    static int id##_handles(char ta, char tb)                               \
    {                                                                        \
        return engine##_handles(ta, tb, param);                             \
    }                                                                        \
    static void id##_align(const pumma_problem_t *have,                     \
                           pumma_problem_t *want)                           \
    {                                                                        \
        engine##_align(have, want, param);                                  \
    }                                                                        \
    static int id##_run(const pumma_problem_t *p)                           \
    {                                                                        \
        return engine##_run(p, param);                                      \
    }                                                                        \
    static double id##_cost(const pumma_problem_t *p,                       \
                            const pumma_model_t *mo)                        \
    {                                                                        \
        return engine##_cost(p, mo, param);                                 \
    }                                                                        \
    static unsigned id##_uses(const pumma_problem_t *p)                     \
    {                                                                        \
        return engine##_uses(p, param);                                     \
    }                                                                        \
    static size_t id##_workspace(const pumma_problem_t *p)                  \
    {                                                                        \
        return engine##_workspace(p, param);                                \
    }                                                                        \
    const pumma_algo_t pumma_algo_##id = {                                   \
        name, desc, id##_handles, id##_align, id##_run, id##_cost,           \
        id##_uses, id##_workspace, PUMMA_CALL_BLOCK, NULL, NULL, 0}

/*
 * The engine of the A*B algorithms (pumma_mdb.c). SDB, MDB1 and MDB2 differ
 * in granularity: one message per K-block or per group of blocks (an LCM
 * class), one local multiply per K-block or per group. `row`: the mirrored
 * orientation (A row-cast along grid rows, B rolled up the columns).
 * transa/transb are 'N' or 'R' (conjugate, no transpose), applied while
 * presorting; A**T*B**T uses this.
 */
typedef struct pumma_mdb_shape {
    int msg_per_block, gemm_per_block, row;
    char store;      /* column orientation only: 0, or 'T' / 'C' when C's
                        local array is to receive the product's (conjugate)
                        transpose, computed by transposed local GEMMs */
} pumma_mdb_shape_t;
int pumma_mdb_handles(char ta, char tb, const pumma_mdb_shape_t *sh);
void pumma_mdb_align(const pumma_problem_t *have, pumma_problem_t *want,
                     const pumma_mdb_shape_t *sh);
int pumma_mdb_run(const pumma_problem_t *p, const pumma_mdb_shape_t *sh);
double pumma_mdb_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                      const pumma_mdb_shape_t *sh);
/* Variants used: the cast along one grid dimension, the roll along the
 * other (row: the mirror). */
unsigned pumma_mdb_uses(const pumma_problem_t *p, const pumma_mdb_shape_t *sh);
/* Its temporaries, at most (the algorithms' workspace member). */
size_t pumma_mdb_workspace(const pumma_problem_t *p,
                           const pumma_mdb_shape_t *sh);
/* An algorithm's two rows, NAME (B column-cast, A rolled) and NAME-row
 * (the mirror), of granularity msg_per_block, gemm_per_block. */
#define PUMMA_MDB_ROWS(id, desc, msg_per_block, gemm_per_block)             \
    PUMMA_ALGO_ROW(id, #id, desc "; B column-cast, A rolled", pumma_mdb,    \
                   (&(const pumma_mdb_shape_t){msg_per_block,               \
                                               gemm_per_block, 0, 0}));     \
    PUMMA_ALGO_ROW(id##_row, #id "-row", desc "; A row-cast, B rolled",     \
                   pumma_mdb,                                                \
                   (&(const pumma_mdb_shape_t){msg_per_block,               \
                                               gemm_per_block, 1, 0}))

/*
 * tn and its mirror nt (pumma_tn.c): partial products summed onto C's
 * owners through a reduce pipeline while A (B) rolls. nt: 1 for nt.
 */
int pumma_tn_handles(char ta, char tb, int nt);
void pumma_tn_align(const pumma_problem_t *have, pumma_problem_t *want,
                    int nt);
int pumma_tn_run(const pumma_problem_t *p, int nt);
double pumma_tn_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                     int nt);
unsigned pumma_tn_uses(const pumma_problem_t *p, int nt);
size_t pumma_tn_workspace(const pumma_problem_t *p, int nt);

/*
 * stat-a and its mirror stat-b (pumma_stat.c): the big operand stays, the
 * small one's K-slices come to it, and the partial products are summed
 * onto C's holders. b_stays: 1 for stat-b.
 */
int pumma_stat_handles(char ta, char tb, int b_stays);
void pumma_stat_align(const pumma_problem_t *have, pumma_problem_t *want,
                      int b_stays);
int pumma_stat_run(const pumma_problem_t *p, int b_stays);
double pumma_stat_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                       int b_stays);
unsigned pumma_stat_uses(const pumma_problem_t *p, int b_stays);
size_t pumma_stat_workspace(const pumma_problem_t *p, int b_stays);

/*
 * The cube engine of split and layers (pumma_cube.c): pm x pn x pk
 * processes (the rest idle), each computing the product of op(A)'s rows
 * I_i and op(B)'s columns J_j over K's slice l in `steps` steps, the
 * layers' partial sums added into C at the end; every move a one-step
 * all-to-all from and to the caller's arrays. The plan's cube holds it.
 */
typedef struct pumma_cube { int pm, pn, pk, steps; } pumma_cube_t;
pumma_cube_t pumma_cube_of(const pumma_plan_t *pl);
void pumma_cube_set(pumma_plan_t *pl, const pumma_cube_t *c);
int pumma_cube_handles(char ta, char tb);
void pumma_cube_align(const pumma_problem_t *have, pumma_problem_t *want);
int pumma_cube_run(const pumma_problem_t *p);
double pumma_cube_cost(const pumma_problem_t *p, const pumma_model_t *mo);
unsigned pumma_cube_uses(const pumma_problem_t *p);
size_t pumma_cube_workspace(const pumma_problem_t *p);
/* Into pl's cube: the cheapest (under mo) of the cubes with pk in [klo,
 * khi] and more than half the grid's processes, each at its best number
 * of steps, whose workspace is within pl->limit; 1 if one is. Else (0)
 * the one of least workspace. */
int pumma_cube_search(const pumma_problem_t *p, const pumma_model_t *mo,
                      pumma_plan_t *pl, int klo, int khi);
/* The rows' description and their shape member: split prices every
 * cube; layers makes as many layers as memory allows, up to P^(1/3). */
#define PUMMA_CUBE_ROW(id, name, desc, shape)                                \
    const pumma_algo_t pumma_algo_##id = {                                   \
        name, desc, pumma_cube_handles, pumma_cube_align, pumma_cube_run,    \
        pumma_cube_cost, pumma_cube_uses, pumma_cube_workspace,              \
        PUMMA_CALL_BLOCK, NULL, shape, 1}

/* A**T*B**T as MDB2's B*A (pumma_tt.c; tt-local shares them). */
void pumma_tt_as_mdb2(const pumma_problem_t *p, pumma_problem_t *q);
void pumma_tt_align(const pumma_problem_t *have, pumma_problem_t *want);
size_t pumma_tt_workspace(const pumma_problem_t *p);
double pumma_tt_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                     char store, int transposing);

#endif
