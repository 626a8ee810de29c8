/*
 * pumma_remap.h -- moving a matrix between any two ways of holding it
 * (SRC/desc/pumma_remap.c): block-cyclic (ScaLAPACK descriptors),
 * heterogeneous layouts, and the panels the heterogeneous multiply
 * gathers. Every process's part is described as boxes (a list of row
 * intervals times a list of column intervals), so what process s sends to
 * process d is the intersection of their boxes, and both compute it alike.
 */
#ifndef PUMMA_REMAP_H
#define PUMMA_REMAP_H

#include "pumma_layout.h"

enum { PUMMA_SIDE_BC, PUMMA_SIDE_LAYOUT, PUMMA_SIDE_PANEL };

/* One matrix (an m x n window of it) and how np = nprow*npcol processes
 * hold it; process p sits at grid position (p / npcol, p % npcol). */
typedef struct pumma_side {
    int kind, m, n, nprow, npcol;
    pumma_dist_t row, col;             /* BC: the window's distributions */
    const pumma_layout_t *lay;         /* LAYOUT: window at (i0, j0) of it */
    int i0, j0;
    const pumma_ilist_t *prow, *pcol;  /* PANEL: process p holds rows
                                          prow[p] x cols pcol[p], packed */
    char *data;                        /* this process's storage */
    int ld;
} pumma_side_t;


/* A remap in flight: dst := src, element for element, over the grid's
 * processes; with topo PUMMA_TOPO_LINEAR a message between processes that
 * are not neighbours in the layout's linear array is relayed along it
 * (store and forward). id (0, 1, ...) keeps concurrent remaps apart. */
typedef struct pumma_remap pumma_remap_t;
int pumma_remap_start(const pumma_type_t *t, const pumma_grid_t *g,
                      const pumma_side_t *src, const pumma_side_t *dst,
                      int topo, const pumma_layout_t *line, int id,
                      pumma_remap_t **r);
/* How many ids concurrent remaps on g can have: each takes np^2 MPI tags
 * of g's private communicator, and MPI_TAG_UB bounds them (at least 32767
 * by the standard, 2^31 - 1 in Open MPI). pumma_remap_start gives
 * PUMMA_EGRID for an id beyond. */
int pumma_remap_ids(const pumma_grid_t *g);
/* Advances it (relays forwarded, arrivals unpacked); *done = 1 at the end. */
int pumma_remap_test(pumma_remap_t *r, int *done);
/* Completes and frees it. */
int pumma_remap_wait(pumma_remap_t *r);
/* Elements this process sent in remaps so far (with relays). */
double pumma_remap_sent(void);

/* Heterogeneous descriptors (pumma_desc_layout.c). */
int pumma_desc_is_layout(const int *d);
/* 0, or the (1-based) entry of d that is wrong for this process. */
int pumma_desc_layout_check(const int *d, int nprow, int npcol, int myrow,
                            int mycol);
const pumma_layout_t *pumma_desc_layout(const int *d);
/* The m x n window at 0-based (i0, j0) of descriptor d's matrix as a side:
 * d heterogeneous (is_layout) or block-cyclic in its 11-entry form. */
pumma_side_t pumma_side_of(const pumma_type_t *t, const pumma_grid_t *g,
                           const int *d, int is_layout, int i0, int j0, int m,
                           int n, void *data);

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
/* sub(B) := sub(A), any two descriptors of one context (pumma_gemr2d.c);
 * info as PUMMA_P?GEMR2D's. */
void pumma_gemr2d(const pumma_type_t *t, int m, int n, const void *a, int ia,
                  int ja, const int *desca, void *b, int ib, int jb,
                  const int *descb, int *info);
int pumma_check_gemr2d(int m, int n, int ia, int ja, const int *desca,
                       int ib, int jb, const int *descb, int dA[11],
                       int dB[11], int *ctxt);
#endif
