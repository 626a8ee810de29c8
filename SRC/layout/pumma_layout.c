/*
 * pumma_layout.c -- heterogeneous layouts: the handles users hold, the
 * table of partitioners (one file each), and what every layout shares:
 * rounding shares to whole rows and columns, the linear-array order, the
 * the sums of half-perimeters and the square-corner rule. The public
 * routines (SRC/fortran/pumma_layout_.c) are thin wrappers of these.
 *
 * Layouts live in a per-process table. A handle is slot + 1 + NSLOT *
 * generation, the slot's generation counting how often it was freed: a
 * descriptor kept past PUMMA_LAYOUT_FREE no longer names a layout (INFO
 * on its LAYOUT entry), even when a new layout takes its slot, instead
 * of silently naming the new one. The constructors are global (every
 * process calls them alike, in the same order), so every process holds
 * the same layouts under the same handles, and nothing is communicated.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_layout.h"

static const struct {
    int kind;
    pumma_layout_build_fn build;
    int minp, maxp;          /* processes it handles (maxp 0: any) */
} kinds[] = {
    {PUMMA_LAYOUT_COLUMNS, pumma_layout_columns, 1, 0},
    {PUMMA_LAYOUT_STRIPS, pumma_layout_strips, 1, 0},
    {PUMMA_LAYOUT_RECT3, pumma_layout_rect3, 3, 3},
    {PUMMA_LAYOUT_SQUARE_CORNER, pumma_layout_sqcorner, 2, 3},
};
enum { NKINDS = sizeof kinds / sizeof *kinds };

enum { NSLOT = 1 << 16,        /* layouts alive at once, at most */
       NGEN = 32767 };         /* generations before a slot's handles repeat */
static pumma_layout_t **table = NULL;
static int *gen = NULL;        /* per slot */
static int ntable = 0;

/* ------------------------------------------------------ building blocks */

int pumma_layout_alloc(pumma_layout_t *L, int cap)
{
    L->rect = malloc(sizeof(pumma_rect_t) * (size_t)cap);
    L->first = calloc((size_t)L->np + 1, sizeof(int));
    return (L->rect && L->first) ? 0 : -1;
}

void pumma_layout_add(pumma_layout_t *L, int p, int r0, int r1, int c0, int c1)
{
    if (r0 >= r1 || c0 >= c1) return;           /* empty: not a rectangle */
    int at = L->first[p + 1];
    L->rect[at] = (pumma_rect_t){r0, r1, c0, c1};
    for (int q = p + 1; q <= L->np; q++) L->first[q] = at + 1;
}

void pumma_layout_round(int total, int n, const double *w, int *out, int min1)
{
    /* Shares of the weights scaled by the largest: their sum is at most
     * n, never inf (weights near 1e308), and no share is 0/0. Weights
     * that are all 0 (underflow) share equally. */
    double top = 0, sum = 0;
    for (int i = 0; i < n; i++)
        if (w[i] > top) top = w[i];
    for (int i = 0; i < n; i++) sum += top > 0 ? w[i] / top : 1;
    int given = 0;
    for (int i = 0; i < n; i++) {
        out[i] = (int)floor(total * ((top > 0 ? w[i] / top : 1) / sum));
        given += out[i];
    }
    /* Largest remainders first; ties to the lower index. A share rounded
     * up already (out above its floor) has no remainder left. */
    while (given < total) {
        int best = -1;
        double bestrem = -1;
        for (int i = 0; i < n; i++) {
            double exact = total * ((top > 0 ? w[i] / top : 1) / sum);
            double rem = out[i] > (int)floor(exact) ? -1 : exact - out[i];
            if (rem > bestrem) { best = i; bestrem = rem; }
        }
        if (best < 0) break;             /* cannot happen: sum(w) > 0 */
        out[best]++;
        given++;
    }
    /* A process with a share must get a line: take it from the largest. */
    if (min1 && total >= n)
        for (int i = 0; i < n; i++)
            if (out[i] == 0) {
                int big = 0;
                for (int j = 1; j < n; j++)
                    if (out[j] > out[big]) big = j;
                out[big]--;
                out[i] = 1;
            }
}

void pumma_layout_by_speed(const pumma_layout_t *L, int *order)
{
    for (int i = 0; i < L->np; i++) order[i] = i;
    for (int i = 1; i < L->np; i++)       /* insertion sort: stable */
        for (int j = i; j > 0 && L->speed[order[j]] < L->speed[order[j - 1]];
             j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
}

/* The linear array: fastest in the middle, the next ones alternately to
 * its right and left (for 3: third, fastest, second). */
static void make_line(pumma_layout_t *L)
{
    int *slow = L->pos;                        /* scratch until the end */
    pumma_layout_by_speed(L, slow);
    int mid = (L->np - 1) / 2;
    for (int k = 0; k < L->np; k++) {
        int at = k % 2 ? mid + (k + 1) / 2 : mid - k / 2;
        L->line[at] = slow[L->np - 1 - k];     /* k-th fastest */
    }
    for (int at = 0; at < L->np; at++) L->pos[L->line[at]] = at;
}

static void bounding_boxes(pumma_layout_t *L)
{
    for (int p = 0; p < L->np; p++) {
        pumma_rect_t b = {0, 0, 0, 0};
        for (int r = L->first[p]; r < L->first[p + 1]; r++) {
            const pumma_rect_t *x = &L->rect[r];
            if (r == L->first[p]) {
                b = *x;
                continue;
            }
            if (x->r0 < b.r0) b.r0 = x->r0;
            if (x->r1 > b.r1) b.r1 = x->r1;
            if (x->c0 < b.c0) b.c0 = x->c0;
            if (x->c1 > b.c1) b.c1 = x->c1;
        }
        L->box[p] = b;
    }
}

static void layout_free(pumma_layout_t *L)
{
    if (!L) return;
    free(L->speed);
    free(L->first);
    free(L->rect);
    free(L->box);
    free(L->line);
    free(L->pos);
    free(L);
}

/* ------------------------------------------------------------ handles */

/* The slot of a live handle, or -1. */
static int slot_of(int handle)
{
    if (handle < 1) return -1;
    int h = (handle - 1) % NSLOT, g = (handle - 1) / NSLOT;
    return h < ntable && table[h] && gen[h] == g ? h : -1;
}

const pumma_layout_t *pumma_layout_get(int handle)
{
    int h = slot_of(handle);
    return h < 0 ? NULL : table[h];
}

/* The row of kinds[] of a kind, -1 if none. */
static int kind_row(int kind)
{
    for (int k = 0; k < NKINDS; k++)
        if (kinds[k].kind == kind) return k;
    return -1;
}

/* A layout of kind (recorded) made by build: arguments checked, speeds
 * scaled, every region non-empty, boxes, line and handle. top and
 * cluster: a two-level layout's (pumma_layout_clusters.c). */
static void create(int kind, pumma_layout_build_fn build, int m, int n,
                   int np, const double *speeds,
                   pumma_layout_build_fn top_build, const int *cluster,
                   int *layout, int *info)
{
    for (int p = 0; p < np; p++)
        if (!(speeds[p] > 0) || !isfinite(speeds[p])) { *info = -5; return; }

    pumma_layout_t *L = calloc(1, sizeof(*L));
    if (!L) { *info = 3; return; }
    L->top = top_build;
    L->cluster = cluster;
    L->kind = kind;
    L->m = m;
    L->n = n;
    L->np = np;
    L->speed = malloc(sizeof(double) * (size_t)np);
    L->box = calloc((size_t)np, sizeof(pumma_rect_t));
    L->line = malloc(sizeof(int) * (size_t)np);
    L->pos = malloc(sizeof(int) * (size_t)np);
    if (!L->speed || !L->box || !L->line || !L->pos) {
        layout_free(L);
        *info = 3;
        return;
    }
    /* Speeds are relative: any finite positive ones are legal. The
     * builders get them divided by the largest, so that their sums and
     * products stay finite (1e308 three times) and the fastest is 1; a
     * speed too small to show beside the largest (1e-300 against 1e300,
     * which underflows) becomes the smallest normal double, still > 0. */
    double top = 0;
    for (int p = 0; p < np; p++)
        if (speeds[p] > top) top = speeds[p];
    for (int p = 0; p < np; p++) {
        double s = speeds[p] / top;
        L->speed[p] = s < DBL_MIN ? DBL_MIN : s;
    }
    int rc = build(L);
    L->top = NULL;
    L->cluster = NULL;                 /* the caller's: not kept */
    if (rc) {
        layout_free(L);
        *info = rc;
        return;
    }
    /* Every process needs some of the matrix: else a share is too small
     * for whole rows and columns of this size. */
    for (int p = 0; p < np; p++)
        if (L->first[p + 1] == L->first[p]) {
            layout_free(L);
            *info = 2;
            return;
        }
    bounding_boxes(L);
    make_line(L);

    int h;
    for (h = 0; h < ntable && table[h]; h++)
        ;
    if (h == NSLOT) {
        layout_free(L);
        *info = 3;
        return;
    }
    if (h == ntable) {
        pumma_layout_t **t = realloc(table, sizeof(*t) * (size_t)(ntable + 8));
        if (t) table = t;
        int *g = t ? realloc(gen, sizeof(*g) * (size_t)(ntable + 8)) : NULL;
        if (!g) {
            layout_free(L);
            *info = 3;
            return;
        }
        gen = g;
        for (int i = ntable; i < ntable + 8; i++) table[i] = NULL, gen[i] = 0;
        ntable += 8;
    }
    table[h] = L;
    *layout = h + 1 + NSLOT * gen[h];
    *info = 0;
}

void pumma_layout_create(int kind, int m, int n, int np,
                         const double *speeds, int *layout, int *info)
{
    const int k = kind_row(kind);
    *layout = 0;
    if (k < 0) { *info = -1; return; }
    if (m < 1) { *info = -2; return; }
    if (n < 1) { *info = -3; return; }
    if (np < kinds[k].minp || (kinds[k].maxp && np > kinds[k].maxp)) {
        *info = -4;
        return;
    }
    create(kind, kinds[k].build, m, n, np, speeds, NULL, NULL, layout, info);
}

void pumma_layout_create_clusters(int kind, int m, int n, int np,
                                  const double *speeds, const int *cluster,
                                  int *layout, int *info)
{
    const int k = kind_row(kind);
    *layout = 0;
    if (k < 0) { *info = -1; return; }
    if (m < 1) { *info = -2; return; }
    if (n < 1) { *info = -3; return; }
    if (np < 1) { *info = -4; return; }
    for (int p = 0; p < np; p++)
        if (cluster[p] < 0) { *info = -6; return; }
    /* the top level's count limits apply to the clusters */
    int nc = 0;
    for (int p = 0; p < np; p++) {
        int q = 0;
        while (q < p && cluster[q] != cluster[p]) q++;
        nc += q == p;
    }
    if (nc < kinds[k].minp || (kinds[k].maxp && nc > kinds[k].maxp)) {
        *info = -4;
        return;
    }
    create(kind, pumma_layout_clusters, m, n, np, speeds, kinds[k].build,
           cluster, layout, info);
}

int pumma_layout_destroy(int layout)
{
    int h = slot_of(layout);
    if (h < 0) return -1;
    layout_free(table[h]);
    table[h] = NULL;
    gen[h] = (gen[h] + 1) % NGEN;
    return 0;
}

/* ------------------------------------------------------------ queries */

int pumma_layout_owner_of(const pumma_layout_t *L, int i, int j)
{
    for (int p = 0; p < L->np; p++)
        for (int r = L->first[p]; r < L->first[p + 1]; r++) {
            const pumma_rect_t *x = &L->rect[r];
            if (i >= x->r0 && i < x->r1 && j >= x->c0 && j < x->c1) return p;
        }
    return -1;
}

int pumma_layout_spans(const pumma_layout_t *L, int p, int dim,
                       pumma_ilist_t *out)
{
    int cnt = L->first[p + 1] - L->first[p];
    pumma_ivl_t *v = malloc(sizeof(pumma_ivl_t) * (size_t)(cnt > 0 ? cnt : 1));
    if (!v) return PUMMA_ENOMEM;
    for (int k = 0; k < cnt; k++) {
        const pumma_rect_t *x = &L->rect[L->first[p] + k];
        v[k] = dim ? (pumma_ivl_t){x->c0, x->c1} : (pumma_ivl_t){x->r0, x->r1};
    }
    int rc = pumma_ilist_union(v, cnt, out);
    free(v);
    return rc;
}

long pumma_layout_halfperim(const pumma_layout_t *L)
{
    long s = 0;
    for (int p = 0; p < L->np; p++)
        for (int dim = 0; dim < 2; dim++) {
            pumma_ilist_t l = {0, NULL};
            if (pumma_layout_spans(L, p, dim, &l)) return -1;
            s += pumma_ilist_len(&l);
            pumma_ilist_free(&l);
        }
    return s;
}

double pumma_layout_lower(const pumma_layout_t *L)
{
    double s = 0;
    for (int p = 0; p < L->np; p++) {
        double area = 0;
        for (int r = L->first[p]; r < L->first[p + 1]; r++)
            area += (double)(L->rect[r].r1 - L->rect[r].r0) *
                    (L->rect[r].c1 - L->rect[r].c0);
        s += 2 * sqrt(area);
    }
    return s;
}

/*
 * The rule of Becker and Lastovetsky 2007 for 3 processes (normalised
 * speeds S1 >= S2, S3, sum 1): square-corner moves less data than the 2D
 * rectangular one when sqrt(S2) + sqrt(S3) < 1 - S1/2 (fully connected)
 * or < 1.5 - S1 (linear array, fastest in the middle); it exists when
 * (S2/S1)(S3/S1) <= 1/4.
 * For 2 processes: 2qN against N^2, q = N sqrt(S2/(S1+S2)), i.e. when
 * S2/(S1+S2) < 1/4 (S1 > 3 S2). Volumes are per N^2.
 */
int pumma_sqcorner_rule(int np, const double *speeds, int topo,
                        double *vol_sq, double *vol_rect)
{
    double s[3] = {0, 0, 0}, sum = 0;
    if (np != 2 && np != 3) return -1;
    for (int p = 0; p < np; p++)
        if (!(speeds[p] > 0) || !isfinite(speeds[p])) return -2;
    /* s[0]: the fastest, normalised; divided by it before summing, so
     * speeds near the top of the double range do not overflow the sum. */
    int f = 0;
    for (int p = 1; p < np; p++)
        if (speeds[p] > speeds[f]) f = p;
    for (int p = 0; p < np; p++) sum += speeds[p] / speeds[f];
    for (int p = 0, k = 1; p < np; p++)
        s[p == f ? 0 : k++] = speeds[p] / speeds[f] / sum;
    double sq, rect;
    if (np == 2) {
        sq = 2 * sqrt(s[1]);
        rect = 1;
    } else {
        if (s[1] * s[2] / (s[0] * s[0]) > 0.25) {
            if (vol_sq) *vol_sq = -1;
            if (vol_rect) *vol_rect = 1 + (topo == PUMMA_TOPO_LINEAR ? 2 : 1)
                                              * (s[1] + s[2]);
            return 0;                   /* no square-corner layout exists */
        }
        sq = 2 * (sqrt(s[1]) + sqrt(s[2]));
        rect = 1 + (topo == PUMMA_TOPO_LINEAR ? 2 : 1) * (s[1] + s[2]);
    }
    if (vol_sq) *vol_sq = sq;
    if (vol_rect) *vol_rect = rect;
    return sq < rect;
}
