/*
 * pumma_desc.h -- distributions and their data, SRC/desc (not installed):
 * 1D block-cyclic distributions, views of a process's part of a
 * submatrix, the redistributions between them, heterogeneous descriptors
 * and remaps between any two ways of holding a matrix. Above comm and
 * layout.
 */
#ifndef PUMMA_DESC_H
#define PUMMA_DESC_H

#include "pumma_comm.h"
#include "pumma_layout.h"

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
/* The one process holding all n indices; -1 when they are spread over
 * several, replicated, or none. */
int pumma_dist_sole(const pumma_dist_t *d);
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
/* The most blocks of d any one process holds (all when replicated). */
int pumma_dist_maxblocks(const pumma_dist_t *d);
/* The most elements of a view any one process holds, at most. */
size_t pumma_view_maxelems(const pumma_view_t *v);
struct pumma_grid;
/* The rows x cols submatrix at 0-based (i0, j0) of the matrix with
 * block-cyclic descriptor d (11-entry form) and local array base. */
pumma_view_t pumma_view_of(const struct pumma_type *t,
                           const struct pumma_grid *g, const void *base,
                           const int d[11], int i0, int j0, int rows,
                           int cols);
/* A block-cyclic descriptor (11-entry) of a matrix distributed as v,
 * with v's local array (its ld as LLD), on BLACS context ctxt: so that a
 * temporary can be an operand wherever a caller's matrix can. */
void pumma_view_desc(const pumma_view_t *v, int ctxt, int d[11]);
/* Make v a temporary of its distributions on this process: ld = its local
 * rows (at least 1), data from pumma_malloc (NULL when empty). Returns
 * PUMMA_OK or PUMMA_ENOMEM. */
int pumma_view_alloc(const struct pumma_type *t, const struct pumma_grid *g,
                     pumma_view_t *v);
/* 1 when both views have the same row and column distributions. */
int pumma_view_same_layout(const pumma_view_t *a, const pumma_view_t *b);
int pumma_view_nloc(const pumma_view_t *v, int mycol);

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

/* The indices of distribution d that grid coordinate who holds, as an
 * interval list (blocks replicated over the grid, owner -1, count for
 * every one). */
int pumma_ilist_of_dist(const pumma_dist_t *d, int who, pumma_ilist_t *out);

/* ------------------------------------------------------- trapezoids */

/* The global index of local index l of process proc in d (pumma_trap.c). */
int pumma_dist_global(const pumma_dist_t *d, int l, int proc);
/* The local rows [*r0, *r1) of view v, in its column of global index gj
 * (0-based in the view), that lie in its trapezoid: uplo 'U' keeps global
 * rows i <= gj + off, 'L' rows i >= gj + off (off 0: the diagonal in). */
void pumma_trap_rows(const pumma_view_t *v, int myrow, int gj, char uplo,
                     int off, int *r0, int *r1);
/* v's uplo trapezoid := beta * itself (beta 0: zeroed, never read); the
 * rest of v not touched. */
void pumma_trap_scale(const pumma_type_t *t, const pumma_view_t *v,
                      int myrow, int mycol, char uplo, const void *beta);
/* dst's uplo trapezoid := alpha*src + beta*dst (beta 0: dst not read), src
 * a view of dst's distributions; the rest of dst not touched. */
void pumma_trap_add(const pumma_type_t *t, const pumma_view_t *src,
                    const pumma_view_t *dst, int myrow, int mycol, char uplo,
                    const void *alpha, const void *beta);
/* dst := src's (uplo, off) trapezoid (as pumma_trap_rows), zero
 * elsewhere; src's other entries not read. dst has src's distributions. */
void pumma_trap_extract(const pumma_type_t *t, const pumma_view_t *src,
                        const pumma_view_t *dst, int myrow, int mycol,
                        char uplo, int off);
/* The imaginary parts of v's diagonal := 0 (complex t; P?HERK, P?HER2K). */
void pumma_trap_real_diag(const pumma_type_t *t, const pumma_view_t *v,
                          int myrow, int mycol);

/* ------------------------------------------------------------ remaps */

/*
 * Moving a matrix between any two ways of holding it
 * (SRC/desc/pumma_remap.c): block-cyclic (ScaLAPACK descriptors),
 * heterogeneous layouts, and the panels the heterogeneous multiply
 * gathers. Every process's part is described as boxes (a list of row
 * intervals times a list of column intervals), so what process s sends to
 * process d is the intersection of their boxes, and both compute it alike.
 */
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


/* Sides over g's processes, for an m x n window: a view's block-cyclic
 * parts, or a panel of process p holding rows prow[p] x cols pcol[p],
 * packed in data (ld; at least 1). */
pumma_side_t pumma_side_view(const pumma_grid_t *g, const pumma_view_t *v,
                             int rows, int cols);
pumma_side_t pumma_side_panel(const pumma_grid_t *g, const pumma_ilist_t *prow,
                              const pumma_ilist_t *pcol, int rows, int cols,
                              void *data, int ld);

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
/* Until all my sends are out (posted, none held back by PUMMA_LATENCY):
 * a remap whose process then blocks elsewhere (in another collective)
 * must flush first, or its sends beyond the window of those in flight
 * would wait for it, and its receivers with them. */
int pumma_remap_flush(pumma_remap_t *r);
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

#endif
