/*
 * pumma_algo.h -- what the algorithm files share (not installed).
 */
#ifndef PUMMA_ALGO_H
#define PUMMA_ALGO_H

#include "pumma_comm.h"
#include "pumma_hier.h"

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
 * of `roll_bytes` around that many processes between them); in each, R
 * products of `area` elements with inner dimension k, each summed over R
 * processes while the next is computed; the last sum is exposed. */
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
        id##_uses, id##_workspace, PUMMA_CALL_BLOCK, NULL}

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

/* A**T*B**T as MDB2's B*A (pumma_tt.c; tt-local shares them). */
void pumma_tt_as_mdb2(const pumma_problem_t *p, pumma_problem_t *q);
void pumma_tt_align(const pumma_problem_t *have, pumma_problem_t *want);
size_t pumma_tt_workspace(const pumma_problem_t *p);
double pumma_tt_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                     char store, int transposing);

#endif
