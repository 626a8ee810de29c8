/*
 * pumma_clusters.c -- logical clusters: which processes of a grid share a
 * fast network (pumma_model.h).
 *
 * Grouping (Nasri, Steffenel and Trystram 2007, section 3.3, after Lowekamp
 * and Beguelin's ECO): links are taken in increasing latency; a link
 * between two clusters merges them when every link inside the union stays
 * within the bound of its fastest one, and the link itself within the bound
 * of each end's own fastest link (else two lone machines of two sites would
 * pair up: their one link is uniform). A union only grows its spread as it
 * grows (its slowest link can only get slower, its fastest only faster), so
 * a pair of clusters refused once stays refused: each pair is judged once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_model.h"

typedef struct edge { double l; int i, j; } edge_t;

static int by_latency(const void *a, const void *b)
{
    const edge_t *x = a, *y = b;
    if (x->l != y->l) return x->l < y->l ? -1 : 1;
    if (x->i != y->i) return x->i - y->i;
    return x->j - y->j;
}

/* The latency of link (a, b), read above the diagonal, at least floor. */
static double eff(const double *lat, int n, double floor, int a, int b)
{
    const double v = a < b ? lat[(size_t)a * n + b] : lat[(size_t)b * n + a];
    return v > floor ? v : floor;
}

int pumma_clusters_group(int n, const double *lat, double bound, double floor,
                         int *cl)
{
    if (n <= 0) return 0;
    const size_t ne = (size_t)n * (size_t)(n - 1) / 2;
    edge_t *e = malloc(sizeof(edge_t) * (ne ? ne : 1));
    int *rep = malloc(sizeof(int) * (size_t)n);      /* cluster of i */
    int *next = malloc(sizeof(int) * (size_t)n);     /* members, a list */
    double *lo = malloc(sizeof(double) * 3 * (size_t)n), *hi = lo + n,
           *best = hi + n;
    char *refused = calloc((size_t)n * (size_t)n, 1); /* by representatives */
    if (!e || !rep || !next || !lo || !refused) {
        free(e); free(rep); free(next); free(lo); free(refused);
        return -1;
    }
    size_t k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) e[k++] = (edge_t){eff(lat, n, floor, i, j), i, j};
    qsort(e, ne, sizeof(edge_t), by_latency);
    for (int i = 0; i < n; i++) {
        rep[i] = i;
        next[i] = -1;
        hi[i] = -1;                     /* a cluster of one has no link */
    }
    /* each process's fastest link: its first in the sorted order */
    for (int i = 0; i < n; i++) best[i] = lo[i] = -1;
    for (k = 0; k < ne; k++) {
        if (best[e[k].i] < 0) best[e[k].i] = e[k].l;
        if (best[e[k].j] < 0) best[e[k].j] = e[k].l;
    }
    for (k = 0; k < ne; k++) {
        const int a = rep[e[k].i], b = rep[e[k].j];
        if (a == b || refused[(size_t)a * n + b]) continue;
        /* a link far slower than an end's own fastest one is between
         * clusters, even between two processes alone (two sites' lone
         * machines are not a cluster) */
        if (e[k].l > (1 + bound) * best[e[k].i] ||
            e[k].l > (1 + bound) * best[e[k].j])
            continue;
        /* the union's fastest and slowest links */
        double l = lo[a], h = hi[a];
        if (lo[b] >= 0 && (l < 0 || lo[b] < l)) l = lo[b];
        if (hi[b] > h) h = hi[b];
        for (int x = a; x >= 0; x = next[x])
            for (int y = b; y >= 0; y = next[y]) {
                const double v = eff(lat, n, floor, x, y);
                if (l < 0 || v < l) l = v;
                if (v > h) h = v;
            }
        if (h > (1 + bound) * l) {
            refused[(size_t)a * n + b] = refused[(size_t)b * n + a] = 1;
            continue;
        }
        /* b joins a: its members, and the pairs refused with it */
        int last = a;
        while (next[last] >= 0) last = next[last];
        next[last] = b;
        for (int y = b; y >= 0; y = next[y]) rep[y] = a;
        for (int x = 0; x < n; x++)
            if (refused[(size_t)b * n + x])
                refused[(size_t)a * n + x] = refused[(size_t)x * n + a] = 1;
        lo[a] = l;
        hi[a] = h;
    }
    /* numbered in the order of their first members */
    int nc = 0;
    for (int i = 0; i < n; i++) next[i] = -1;
    for (int i = 0; i < n; i++) {
        if (next[rep[i]] < 0) next[rep[i]] = nc++;
        cl[i] = next[rep[i]];
    }
    free(e); free(rep); free(next); free(lo); free(refused);
    return nc;
}

/* ------------------------------------------------- a grid's clusters */

enum {
    PROBE = 256 * 1024,      /* bytes of the bandwidth probe */
    SMALL_REPS = 10,         /* ping-pongs per latency (the first warms up) */
    BIG_REPS = 3
};

/* Latencies under this count alike (pumma_clusters_group's floor): on a
 * loaded host a ping-pong's best of ten still wanders up to hundreds of
 * microseconds (seen: one host split in two under 4 busy loops beside the
 * tests, at a 100 us floor), and two levels pay from wide-area latencies
 * (milliseconds) up; the rooms of one site are one cluster. */
#define LAN_FLOOR 1e-3

/* Round r (0 .. n-2) of a round robin among n players (n even): i's
 * partner. Every player meets every other once. */
static int partner(int n, int r, int i)
{
    const int m = n - 1;
    if (i == m) return r % m;
    const int j = ((2 * r - i) % m + m) % m;
    return j == i ? m : j;
}

/* Latency and seconds per byte between me and peer (lead: the lower). */
static int link_of(MPI_Comm comm, int peer, int lead, char *buf, double *l,
                   double *b)
{
    double big;
    int rc = pumma_pingpong(comm, peer, lead, buf, 1, SMALL_REPS,
                            PUMMA_TAG_CLUSTERS, l);
    if (!rc) rc = pumma_pingpong(comm, peer, lead, buf, PROBE, BIG_REPS,
                                  PUMMA_TAG_CLUSTERS, &big);
    *b = big > *l ? (big - *l) / PROBE : 0;
    return rc;
}

/* Every pair of the np ranks of comm: latency[i*np+j], i < j, in np-1 (or
 * np) rounds of disjoint pairs, gathered everywhere. */
static int measure_latencies(MPI_Comm comm, int np, int me, char *buf,
                             double *lat)
{
    const int n = np + np % 2;
    int rc = PUMMA_OK;
    for (int i = 0; i < np * np; i++) lat[i] = 0;
    for (int r = 0; r < n - 1 && !rc; r++) {
        const int j = partner(n, r, me);
        if (j >= np) continue;
        double l;
        rc = pumma_pingpong(comm, j, me < j, buf, 1, SMALL_REPS,
                            PUMMA_TAG_CLUSTERS, &l);
        if (me < j) lat[me * np + j] = l;
    }
    if (!rc && MPI_Allreduce(MPI_IN_PLACE, lat, np * np, MPI_DOUBLE, MPI_MAX,
                             comm) != MPI_SUCCESS)
        rc = PUMMA_EMPI;
    return rc;
}

int pumma_hier_set(pumma_grid_t *g, const int *cluster)
{
    const int np = g->nprow * g->npcol;
    int me, rc = PUMMA_OK;
    MPI_Comm_rank(g->all, &me);
    pumma_hier_free(g->hier);
    g->hier = NULL;
    g->hier_known = 1;
    /* numbered 0.. by first grid position */
    int *pos = malloc(sizeof(int) * (size_t)np * 3), *of_rank = pos + np,
        *coord = of_rank + np, nc = 0;
    if (!pos) return PUMMA_ENOMEM;
    for (int q = 0; q < np; q++) {
        int c = 0;
        while (c < q && cluster[c] != cluster[q]) c++;
        pos[q] = c < q ? pos[c] : nc++;
    }
    if (nc < 2) {
        free(pos);
        return PUMMA_OK;
    }
    for (int q = 0; q < np; q++) of_rank[g->rank[q]] = pos[q];
    pumma_hier_grid_t *h = calloc(1, sizeof *h);
    char *buf = malloc(PROBE);
    double *v = calloc((size_t)(2 * nc * nc + 2 * nc), sizeof(double));
    if (!h || !buf || !v) {
        free(pos); free(h); free(buf); free(v);
        return PUMMA_ENOMEM;
    }
    for (int e = 0; e < PUMMA_GRID_EPOCHS; e++)
        h->row[e].sub = h->col[e].sub = MPI_COMM_NULL;
    h->nc = nc;
    h->cluster = pos;
    h->lat = v;
    h->beta = v + nc * nc;
    double *ia = v + 2 * nc * nc, *ib = ia + nc;
    /* each cluster's coordinator (its lowest rank of g->all) and a second
     * member: the links between clusters, then those inside each */
    for (int c = 0; c < nc; c++) coord[c] = -1;
    for (int r = np - 1; r >= 0; r--) coord[of_rank[r]] = r;
    const MPI_Comm all = g->all;
    int mine = -1;                        /* the cluster I coordinate */
    for (int c = 0; c < nc; c++)
        if (coord[c] == me) mine = c;
    const int n = nc + nc % 2;
    for (int r = 0; r < n - 1 && !rc && mine >= 0; r++) {
        const int j = partner(n, r, mine);
        if (j >= nc) continue;
        double l, b;
        rc = link_of(all, coord[j], mine < j, buf, &l, &b);
        if (mine < j) {
            v[mine * nc + j] = v[j * nc + mine] = l;
            v[nc * nc + mine * nc + j] = v[nc * nc + j * nc + mine] = b;
        }
    }
    int second = -1, lead = 0, cl = of_rank[me];
    for (int r = 0; r < np; r++)
        if (of_rank[r] == cl && r != coord[cl]) { second = r; break; }
    if (me == coord[cl] && second >= 0) lead = 1;
    if (!rc && (lead || me == second)) {
        double l, b;
        rc = link_of(all, lead ? second : coord[cl], lead, buf, &l, &b);
        if (lead) { ia[cl] = l; ib[cl] = b; }
    }
    free(buf);
    if (!rc && MPI_Allreduce(MPI_IN_PLACE, v, 2 * nc * nc + 2 * nc,
                             MPI_DOUBLE, MPI_MAX, all) != MPI_SUCCESS)
        rc = PUMMA_EMPI;
    /* inside each cluster: its own alpha and beta in the grid's model */
    const pumma_model_t *mo = pumma_grid_model(g);
    h->inside = malloc(sizeof(pumma_model_t) * (size_t)nc);
    if (!rc && !h->inside) rc = PUMMA_ENOMEM;
    for (int c = 0; !rc && c < nc; c++) {
        h->inside[c] = *mo;
        if (ia[c] > 0) {
            h->inside[c].alpha = ia[c];
            h->inside[c].beta = ib[c];
        }
    }
    /* the lines: my row's clusters by column, my column's by row */
    int *gc = malloc(sizeof(int) * (size_t)(g->nprow > g->npcol ? g->nprow
                                                                 : g->npcol));
    if (!rc && !gc) rc = PUMMA_ENOMEM;
    for (int e = 0; !rc && e < PUMMA_GRID_EPOCHS; e++) {
        for (int q = 0; q < g->npcol; q++) gc[q] = pos[g->myrow * g->npcol + q];
        rc = pumma_hier_line_make(&h->row[e], h, g->epoch[e].row, g->npcol, gc,
                       g->mycol);
        for (int p = 0; !rc && p < g->nprow; p++)
            gc[p] = pos[p * g->npcol + g->mycol];
        if (!rc) rc = pumma_hier_line_make(&h->col[e], h, g->epoch[e].col, g->nprow, gc,
                                g->myrow);
    }
    free(gc);
    if (!rc) rc = pumma_hier_shapes_make(h, g->nprow, g->npcol);
    if (rc) {
        pumma_hier_free(h);
        return rc;
    }
    static unsigned made;
    h->id = ++made;
    g->hier = h;
    return PUMMA_OK;
}

const pumma_hier_grid_t *pumma_grid_hier(const pumma_grid_t *cg)
{
    pumma_grid_t *g = (pumma_grid_t *)cg;   /* pumma's own, filled once */
    if (g->hier_known) return g->hier;
    /* PUMMA_CLUSTERS, read at the first use (PUMMA_GRID_CLUSTERS reaches
     * it without a P?GEMM): 0 unset, 1 measure, 2 a list by world rank */
    const pumma_rank_list_t *c = &pumma_setting(PUMMA_SET_CLUSTERS)->clusters;
    const int mode = c->word ? 1 : c->v ? 2 : 0;
    const double *v = c->v;
    g->hier_known = 1;
    if (!mode) return NULL;
    const int np = g->nprow * g->npcol;
    const MPI_Comm all = g->all;
    int me, rc = PUMMA_OK;
    MPI_Comm_rank(all, &me);
    int *cl = malloc(sizeof(int) * (size_t)np * 2), *byrank = cl + np;
    double *lat = mode == 1 ? malloc(sizeof(double) * (size_t)np * np) : NULL;
    char *buf = malloc(64);
    if (!cl || !buf || (mode == 1 && !lat)) rc = PUMMA_ENOMEM;
    if (!rc && mode == 1) {
        rc = measure_latencies(all, np, me, buf, lat);
        if (!rc && pumma_clusters_group(np, lat, 0.2, LAN_FLOOR, byrank) < 0)
            rc = PUMMA_ENOMEM;
        for (int q = 0; !rc && q < np; q++) cl[q] = byrank[g->rank[q]];
    } else if (!rc) {
        /* the list is by world rank: this grid's ranks in the world's */
        MPI_Group ga, gw;
        int *ranks = malloc(sizeof(int) * (size_t)np);
        if (!ranks) rc = PUMMA_ENOMEM;
        for (int r = 0; ranks && r < np; r++) ranks[r] = r;
        if (!rc && (MPI_Comm_group(all, &ga) != MPI_SUCCESS ||
                    MPI_Comm_group(MPI_COMM_WORLD, &gw) != MPI_SUCCESS ||
                    MPI_Group_translate_ranks(ga, np, ranks, gw, byrank) !=
                        MPI_SUCCESS))
            rc = PUMMA_EMPI;
        if (!rc) {
            MPI_Group_free(&ga);
            MPI_Group_free(&gw);
        }
        for (int q = 0; !rc && q < np; q++) cl[q] = (int)v[byrank[g->rank[q]]];
        free(ranks);
    }
    if (!rc) rc = pumma_hier_set(g, cl);
    free(cl); free(lat); free(buf);
    if (rc) pumma_fatal(g->all, "PUMMA_CLUSTERS", "finding the clusters", rc);
    return g->hier;
}
