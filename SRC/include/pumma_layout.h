/*
 * pumma_layout.h -- heterogeneous layouts (SRC/layout), inside pumma.
 *
 * A layout gives each of np processes a region of an m x n matrix whose
 * area is proportional to the process's relative speed: a union of
 * disjoint rectangles. A process stores the bounding box of its region,
 * column-major; entries of the box outside the region are never touched.
 * Process p is the grid process at row-major position p (p / NPCOL,
 * p mod NPCOL) of the context a descriptor names.
 */
#ifndef PUMMA_LAYOUT_H
#define PUMMA_LAYOUT_H

#include "pumma_base.h"
#include "pumma_codes.h"

/* Lists of index intervals (SRC/layout/pumma_ilist.c). */
typedef struct pumma_ivl { int lo, hi; } pumma_ivl_t;   /* [lo, hi) */
typedef struct pumma_ilist {
    int n;
    pumma_ivl_t *v;          /* sorted, disjoint, non-empty */
} pumma_ilist_t;

void pumma_ilist_free(pumma_ilist_t *l);
/* Sum of the lengths. */
long pumma_ilist_len(const pumma_ilist_t *l);
/* The union of n intervals (any order, may overlap or be empty). */
int pumma_ilist_union(const pumma_ivl_t *v, int n, pumma_ilist_t *out);
/* a ∩ b and a minus b into out, whose v must hold a->n + b->n. */
void pumma_ilist_meet(const pumma_ilist_t *a, const pumma_ilist_t *b,
                      pumma_ilist_t *out);
void pumma_ilist_minus(const pumma_ilist_t *a, const pumma_ilist_t *b,
                       pumma_ilist_t *out);
/* Position of index g in the packed list (g must be in it). */
int pumma_ilist_pos(const pumma_ilist_t *l, int g);

/* Rows [r0, r1) x columns [c0, c1), 0-based. */
typedef struct pumma_rect {
    int r0, r1, c0, c1;
} pumma_rect_t;

typedef struct pumma_layout {
    int kind;                /* PUMMA_LAYOUT_* */
    int m, n, np;
    double *speed;           /* relative speeds, np of them, divided by the
                                largest (the fastest is 1; none below
                                DBL_MIN), so sums of them stay finite */
    int *first;              /* process p's rectangles: rect[first[p]..first[p+1]) */
    pumma_rect_t *rect;
    pumma_rect_t *box;       /* bounding box of each region (empty: r0 == r1) */
    int *line;               /* linear array: line[k] is the process at k, the
                                fastest in the middle */
    int *pos;                /* pos[p]: p's position in line */
    /* while a two-level layout is built (pumma_layout_clusters.c): the
     * top level's builder and each process's cluster (NULL after) */
    int (*top)(struct pumma_layout *L);
    const int *cluster;
} pumma_layout_t;

/* A builder fills L->first/rect for L->kind from L->m, n, np, speed (>0).
 * Returns 0, or a positive INFO (see pumma.h, pumma_layout_new). */
typedef int (*pumma_layout_build_fn)(pumma_layout_t *L);
int pumma_layout_columns(pumma_layout_t *L);     /* pumma_layout_columns.c */
int pumma_layout_strips(pumma_layout_t *L);      /* pumma_layout_strips.c */
int pumma_layout_rect3(pumma_layout_t *L);       /* pumma_layout_rect3.c */
int pumma_layout_sqcorner(pumma_layout_t *L);    /* pumma_layout_sqcorner.c */
int pumma_layout_clusters(pumma_layout_t *L);    /* pumma_layout_clusters.c */

/* Rectangle storage while building: room for `cap` rectangles. */
int pumma_layout_alloc(pumma_layout_t *L, int cap);
/* Adds rectangle (r0, r1, c0, c1) to process p; processes must be added in
 * increasing order (all of p's rectangles before p + 1's). */
void pumma_layout_add(pumma_layout_t *L, int p, int r0, int r1, int c0,
                      int c1);

/* out[i] >= 0 with sum total, out[i] as near total*w[i]/sum(w) as whole
 * numbers allow (largest remainders); each out[i] >= 1 when min1 and
 * total >= n. Any finite weights >= 0 (scaled by the largest first; all
 * 0: equal shares). */
void pumma_layout_round(int total, int n, const double *w, int *out,
                        int min1);
/* Processes sorted by speed, slowest first (ties: lower index first). */
void pumma_layout_by_speed(const pumma_layout_t *L, int *order);

/* A new layout (see PUMMA_LAYOUT_NEW in pumma.h for kind, info). */
void pumma_layout_create(int kind, int m, int n, int np,
                         const double *speeds, int *layout, int *info);
/* A two-level layout (see PUMMA_LAYOUT_CLUSTERS in pumma.h). */
void pumma_layout_create_clusters(int kind, int m, int n, int np,
                                  const double *speeds, const int *cluster,
                                  int *layout, int *info);
/* Shares for a two-level layout of kind priced with the links: C := A*B
 * (m x n x k), A, B and C each on a two-level layout of the same shares;
 * the slower clusters' speeds scaled by a factor from 1 down to 0.01,
 * each candidate priced as the larger of the slowest process's multiply
 * (area * k / rate) and the busiest cluster uplink's time (the elements
 * of A and B its members hold that other clusters' members need, times
 * esize bytes, times beta[c*nc+d] seconds per byte from cluster c to d;
 * clusters numbered by first member). shares (np): the best; *t its
 * price. Returns 0, or INFO as PUMMA_LAYOUT_CLUSTERS (2: no candidate
 * exists, 3: out of memory). */
int pumma_layout_clusters_shares(int kind, int m, int n, int k, int np,
                                 const double *rate, const int *cluster,
                                 const double *beta, double esize,
                                 double *shares, double *t);
/* Frees it; -1 if the handle names none. */
int pumma_layout_destroy(int layout);
/* The layout behind a handle, NULL if none. */
const pumma_layout_t *pumma_layout_get(int handle);
/* The lower bound of the sum of half-perimeters, 2 sum sqrt(area_p). */
double pumma_layout_lower(const pumma_layout_t *L);
/* The volumes per N^2 of Becker and Lastovetsky 2007 (square-corner,
 * rectangular) for 2 or 3 processes; returns 1 when square-corner moves
 * less, 0 when not (or it does not exist: *vol_sq = -1), < 0 for bad
 * arguments. */
int pumma_sqcorner_rule(int np, const double *speeds, int topo,
                        double *vol_sq, double *vol_rect);

/* The rows (dim 0) or columns (dim 1) that process p's region spans. */
int pumma_layout_spans(const pumma_layout_t *L, int p, int dim,
                       pumma_ilist_t *out);
/* Sum over processes of (rows spanned + columns spanned) of their regions:
 * the "sum of half-perimeters" of Becker and Lastovetsky 2007. */
long pumma_layout_halfperim(const pumma_layout_t *L);
/* The process owning (i, j), 0-based. */
int pumma_layout_owner_of(const pumma_layout_t *L, int i, int j);

#endif
