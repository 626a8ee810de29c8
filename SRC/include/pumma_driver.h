/*
 * pumma_driver.h -- the drivers, SRC/driver (not installed): the body of
 * P?GEMM and PUMMA_P?GEMR2D, their argument checks, the planner, the
 * memory limits, and the entry points' switch. Above algo.
 */
#ifndef PUMMA_DRIVER_H
#define PUMMA_DRIVER_H

#include "pumma.h"
#include "pumma_algo.h"

/* The plan's text: "algo=mdb2 bcast=ring-inc reduce=- shift=simultaneous"
 * (a kind the algorithm does not use is "-"), " limit=fit" or
 * " limit=least" when the workspace limit changed it, " topo=... layout=..."
 * for heterogeneous calls -- pumma_last_plan's text; with `full`, also
 * each choice's source, segment, panel, piece, workspace and auto's
 * per-message choices. Returns buf. */
const char *pumma_plan_format(const pumma_plan_t *pl, int full, char *buf,
                              size_t len);

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
 * the planner's does, and the workspace limit a call without options
 * has (PUMMA_MAX_WORKSPACE, else the default) binds it as it binds the
 * call's planner; one process: the local multiply. plan (if not
 * NULL): the plan, as pumma_last_plan() writes it. Returns seconds; -1
 * when the forced algorithm does not compute ta/tb or an argument is out
 * of range.
 */
double pumma_plan_predict(const pumma_type_t *t, char ta, char tb, int m,
                          int n, int k, int nb, int nprow, int npcol,
                          const pumma_model_t *mo, const pumma_opts_t *force,
                          char *plan, size_t len);
/* The same on grid g as it is: its model (pumma_grid_model), its shape,
 * and the clusters it found (PUMMA_CLUSTERS, pumma_grid_hier), priced as
 * its planner prices them -- each line's collectives on its own links,
 * the rest under the slowest link. Collective over g the first time (the
 * model and the clusters are measured at their first use). */
double pumma_plan_predict_on(const pumma_grid_t *g, const pumma_type_t *t,
                             char ta, char tb, int m, int n, int k, int nb,
                             const pumma_opts_t *force, char *plan,
                             size_t len);
#define PUMMA_WORKSPACE_FACTOR 2.0
#define PUMMA_WORKSPACE_FLOOR (256.0 * 1024 * 1024)
enum { PUMMA_LIMIT_NONE = 0, PUMMA_LIMIT_FIT = 1, PUMMA_LIMIT_LEAST = 2 };

/* PUMMA_MAX_WORKSPACE in bytes, -1 unset (pumma_plan.c). */
double pumma_plan_env_limit(void);

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
void pumma_memlimit_stop(const pumma_grid_t *g, const char *rout,
                         double need, double room, const pumma_memlimit_t *why);

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

/* The grid of ctxt with its MPI communicators (made on first use), for a
 * call of routine rout that communicates; fatal when MPI cannot give
 * them (pumma_gemm.c). */
const pumma_grid_t *pumma_driver_enter(const char *rout, int ctxt);

/* P?GEADD (uplo NULL), P?TRADD, P?TRAN, P?TRANU, P?TRANC (uplo, trans
 * NULL; rout says which): ScaLAPACK's checks, errors through PB_Cabort,
 * then sub(C) := beta*sub(C) + alpha*op(sub(A)) (pumma_geadd.c). */
void pumma_geadd(const pumma_type_t *t, int rout, const char *uplo,
                 const char *trans, const int *m, const int *n,
                 const void *alpha, const void *a, const int *ia,
                 const int *ja, const int *desca, const void *beta, void *c,
                 const int *ic, const int *jc, const int *descc);

/* A product inside routine rout (its name in messages and statistics):
 * sub(C) := alpha*op(sub(A))*op(sub(B)) + beta*sub(C) as P?GEMM computes
 * it, planned and run alike, with arguments already checked: block-cyclic
 * descriptors in 11-entry form, 1-based indices. uplo 'U' or 'L': that
 * triangle of sub(C) alone (the rest neither read nor written), by a row
 * that honours it (rankk, or local); 0: all of sub(C). bt_of_a: B is A
 * itself (the same operand) and op(B) op(A)'s (conjugate) transpose, as
 * the caller knows for every process alike (P?SYRK, P?HERK). Inside the
 * caller's floating-point bracket (PUMMA_FENV_CALL). */
void pumma_gemm_inner(const pumma_type_t *t, const char *rout, char ta,
                      char tb, int m, int n, int k, const void *alpha,
                      const void *a, int ia, int ja, const int *dA,
                      const void *b, int ib, int jb, const int *dB,
                      const void *beta, void *c, int ic, int jc,
                      const int *dC, char uplo, int bt_of_a);

/* P?TRSM and P?TRMM (rout PUMMA_R_TRSM, PUMMA_R_TRMM): ScaLAPACK's checks,
 * errors through PB_Cabort, then the recursion of pumma_trsm.c. */
void pumma_trsm(const pumma_type_t *t, int rout, const char *side,
                const char *uplo, const char *transa, const char *diag,
                const int *m, const int *n, const void *alpha, const void *a,
                const int *ia, const int *ja, const int *desca, void *b,
                const int *ib, const int *jb, const int *descb);

/* P?TRSM on a narrow sub(B) (pumma_trsm_fanin.c): whether the fan-in
 * solve applies to the call (global values only: every process of g
 * finds the same; side, ta upper case, ta 'T' for 'C' on real types),
 * and the solve itself, sub(B) already scaled by alpha: collective over
 * g, on its current communicators. */
int pumma_trsm_fanin_applies(const pumma_type_t *t, const pumma_grid_t *g,
                             char side, char ta, int m, int n,
                             const int *dA, int ia, int ja);
void pumma_trsm_fanin(const pumma_type_t *t, const char *rout,
                      const pumma_grid_t *g, char side, char uplo, char ta,
                      char diag, int m, int n, const void *a, int ia, int ja,
                      const int *dA, void *b, int ib, int jb, const int *dB,
                      size_t piece);

/* P?SYRK, P?HERK (b, ib, jb, descb NULL), P?SYR2K, P?HER2K (rout says
 * which): ScaLAPACK's checks, errors through PB_Cabort, then UPLO's
 * triangle of sub(C) by masked products (pumma_syrk.c). */
void pumma_syrk(const pumma_type_t *t, int rout, const char *uplo,
                const char *trans, const int *n, const int *k,
                const void *alpha, const void *a, const int *ia,
                const int *ja, const int *desca, const void *b,
                const int *ib, const int *jb, const int *descb,
                const void *beta, void *c, const int *ic, const int *jc,
                const int *descc);

/* P?SYMM, P?HEMM (rout says which): ScaLAPACK's checks, errors through
 * PB_Cabort, then sub(A) made whole and one product (pumma_symm.c). */
void pumma_symm(const pumma_type_t *t, int rout, const char *side,
                const char *uplo, const int *m, const int *n,
                const void *alpha, const void *a, const int *ia,
                const int *ja, const int *desca, const void *b,
                const int *ib, const int *jb, const int *descb,
                const void *beta, void *c, const int *ic, const int *jc,
                const int *descc);

/*
 * Operands of the Level-3 routines other than P?GEMM on heterogeneous
 * descriptors (pumma_het_operands.c): the window (rows x cols at 1-based
 * (i, j)) of raw, as a block-cyclic operand -- itself when raw is
 * block-cyclic (d11 its 11-entry form), else a temporary on the grid g
 * of context ctxt holding the window's values (copy 1) or room only (0).
 * pumma_bc_out copies a temporary back into its window and frees it;
 * pumma_bc_free frees it alone. PUMMA_OK or a status; collective over g.
 */
typedef struct pumma_bc_opnd {
    void *data;
    int i, j, d[11];
    int tmp;
} pumma_bc_opnd_t;
int pumma_bc_in(const pumma_type_t *t, const pumma_grid_t *g, int ctxt,
                const int *raw, const int *d11, int i, int j, int rows,
                int cols, const void *data, int copy, pumma_bc_opnd_t *o);
int pumma_bc_out(const pumma_type_t *t, const pumma_grid_t *g,
                 const int *raw, int i, int j, int rows, int cols, void *data,
                 pumma_bc_opnd_t *o);
void pumma_bc_free(pumma_bc_opnd_t *o);

/* ScaLAPACK's argument check; returns 0 or INFO (< 0). desc11 receives the
 * descriptors in their 11-entry form, i0/j0 the 0-based indices. */
int pumma_check(const char *transa, const char *transb, int m, int n, int k,
                int ia, int ja, const int *desca, int ib, int jb,
                const int *descb, int ic, int jc, const int *descc,
                int dA[11], int dB[11], int dC[11], int *ctxt);

/* The other Level-3 routines' checks, ScaLAPACK's code for code
 * (pumma_check.c): 0 or INFO; the descriptors' 11-entry forms and the
 * context returned as pumma_check's. P?GEADD: uplo NULL; P?TRAN*: uplo
 * and trans NULL. P?SYRK/P?HERK: descb NULL (herm: P?HERK, P?HER2K). */
int pumma_check_geadd(const char *uplo, const char *trans, int m, int n,
                      int ia, int ja, const int *desca, int ic, int jc,
                      const int *descc, int dA[11], int dC[11], int *ctxt);
int pumma_check_syrk(const pumma_type_t *t, int herm, const char *uplo,
                     const char *trans, int n, int k, int ia, int ja,
                     const int *desca, int ib, int jb, const int *descb,
                     int ic, int jc, const int *descc, int dA[11],
                     int dB[11], int dC[11], int *ctxt);
int pumma_check_symm(const char *side, const char *uplo, int m, int n,
                     int ia, int ja, const int *desca, int ib, int jb,
                     const int *descb, int ic, int jc, const int *descc,
                     int dA[11], int dB[11], int dC[11], int *ctxt);
int pumma_check_trmm(int rout, const char *side, const char *uplo,
                     const char *transa, const char *diag, int m, int n,
                     int ia, int ja, const int *desca, int ib, int jb,
                     const int *descb, int dA[11], int dB[11], int *ctxt);

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
/* The same for any routine (PUMMA_R_*): NULL, or the definition to pass
 * the call to, cast by the caller to the routine's own type. */
typedef void pumma_any_fn(void);
pumma_any_fn *pumma_entry_of(int rout, const pumma_type_t *t);

/* ScaLAPACK's error report of P?GEMM (PBLAS; from libscalapack). */
void PB_Cabort(int ctxt, const char *rout, int info);

/* sub(B) := sub(A), any two descriptors of one context (pumma_gemr2d.c);
 * info as PUMMA_P?GEMR2D's. */
void pumma_gemr2d(const pumma_type_t *t, int m, int n, const void *a, int ia,
                  int ja, const int *desca, void *b, int ib, int jb,
                  const int *descb, int *info);
int pumma_check_gemr2d(int m, int n, int ia, int ja, const int *desca,
                       int ib, int jb, const int *descb, int dA[11],
                       int dB[11], int *ctxt);

#endif
