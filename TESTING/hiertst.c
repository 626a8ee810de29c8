/*
 * hiertst.c -- grids that span clusters (SRC/include/pumma_comm.h, pumma_model.h): the
 * logical clusters found from latencies and the inter-cluster broadcast
 * schedules, each against cases computed by hand from their definitions.
 *
 *   mpiexec -n NP ./xhiertst
 *
 * With NP >= 4 also on grids: clusters set with PUMMA_GRID_CLUSTERS and
 * read back; PDGEMM, whose broadcasts then go in two levels (plan
 * bcast=hier), equal to the last bit to the same call with one level
 * forced; the two-level plan's schedule against pumma_ecef on the
 * measured links; and whatever PUMMA_CLUSTERS (if set: run-hier sets
 * measure on its second run) finds is a partition of the grid.
 *
 * One PASSED line per group, the first failures of a failed one, then
 * `N passed, N failed`; exit status 1 on any failure.
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep (tstidle.h) */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_driver.h"
#include "pumma_model.h"
#include "pumma_layout.h"
#include "tstgroup.h"
#include "tstidle.h"

static int me_world;

/* ------------------------------------------------------------ clusters */

/* Nasri, Steffenel and Trystram 2007, Table 2: Grid'5000 latencies
 * (microseconds) inside and between its six logical clusters, and their
 * sizes. C23 is one machine (no link inside). */
enum { T2 = 6 };
static const int t2_size[T2] = {20, 11, 7, 1, 20, 19};
static const double t2_lat[T2][T2] = {
    {48.39, 6577.49, 6586.49, 6592.51, 5211.94, 8602.73},
    {6577.49, 35.52, 59.96, 59.96, 5387.48, 2736.56},
    {6586.49, 59.96, 60.08, 79.51, 5393.98, 2740.26},
    {6592.51, 59.96, 79.51, 0, 5405.78, 2745.98},
    {5211.94, 5387.48, 5393.98, 5405.78, 26.94, 3630.51},
    {8602.73, 2736.56, 2740.26, 2745.98, 3630.51, 35.04}};

/* 1 when cl groups the n processes exactly as want does (numbers aside). */
static int same_partition(int n, const int *cl, const int *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if ((cl[i] == cl[j]) != (want[i] == want[j])) return 0;
    return 1;
}

/* The 78 machines of Table 2, in the order perm gives (perm[k]: the
 * machine at position k), grouped with the 20% bound of Nasri, Steffenel
 * and Trystram 2007. */
static void table2_case(const char *group, const int *perm)
{
    int n = 0, of[128];
    for (int c = 0; c < T2; c++)
        for (int k = 0; k < t2_size[c]; k++) of[n++] = c;
    double *lat = calloc((size_t)n * n, sizeof(double));
    int cl[128], want[128];
    for (int a = 0; a < n; a++) {
        want[a] = of[perm[a]];
        for (int b = 0; b < n; b++)
            lat[a * n + b] = t2_lat[of[perm[a]]][of[perm[b]]] * 1e-6;
    }
    int nc = pumma_clusters_group(n, lat, 0.2, 0, cl);
    check(nc == 6, group, "%d clusters, want 6 (C1 C21 C22 C23 C3 C4)", nc);
    check(same_partition(n, cl, want), group,
          "the clusters are not Table 2's");
    /* numbered by first member */
    int seen = -1;
    for (int a = 0; a < n; a++) {
        check(cl[a] <= seen + 1, group, "cluster %d before %d", cl[a],
              seen + 1);
        if (cl[a] > seen) seen = cl[a];
    }
    free(lat);
}

static void test_clusters(void)
{
    const char *G = "clusters: Table 2 of Nasri, Steffenel and Trystram "
                    "2007, 78 machines into its six";
    int perm[128];
    for (int i = 0; i < 78; i++) perm[i] = i;
    table2_case(G, perm);
    group_end(G);

    G = "clusters: Table 2 with the machines shuffled";
    unsigned s = 12345;
    for (int i = 77; i > 0; i--) {
        s = s * 1103515245u + 12345u;
        int j = (int)((s >> 8) % (unsigned)(i + 1)), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    table2_case(G, perm);
    group_end(G);

    /* Three machines, links 1.0 (a-b), 1.1 (a-c), 1.25 (b-c): a and b
     * join; {a,b,c} would spread 1.25 > 1.2, so c stays alone; a bound
     * of 0.25 takes all three. */
    G = "clusters: the bound, by hand";
    {
        const double lat[9] = {0, 1.0, 1.1, 1.0, 0, 1.25, 1.1, 1.25, 0};
        int cl[3];
        int nc = pumma_clusters_group(3, lat, 0.2, 0, cl);
        check(nc == 2 && cl[0] == 0 && cl[1] == 0 && cl[2] == 1, G,
              "bound 0.2: %d clusters (%d %d %d), want 2 (0 0 1)", nc, cl[0],
              cl[1], cl[2]);
        nc = pumma_clusters_group(3, lat, 0.25, 0, cl);
        check(nc == 1, G, "bound 0.25: %d clusters, want 1", nc);
        /* one process, and none */
        check(pumma_clusters_group(1, lat, 0.2, 0, cl) == 1 && cl[0] == 0,
              G, "one process is one cluster");
        check(pumma_clusters_group(0, lat, 0.2, 0, cl) == 0, G,
              "no process, no cluster");
    }
    group_end(G);

    /* The emulated platform of make clusters' PDGEMM: two processes in
     * one room (50 us), one alone at each of two other sites, 3 and 9 ms
     * from the room and 5 ms from each other. The lone machines' link is
     * uniform, but far slower than one end's fastest (3 ms): three sites,
     * not a cluster of the two. */
    G = "clusters: lone machines of two sites stay apart";
    {
        const double lat[16] = {0, 50e-6, 3e-3, 9e-3,   50e-6, 0, 3e-3, 9e-3,
                                3e-3, 3e-3, 0, 5e-3,   9e-3, 9e-3, 5e-3, 0};
        const int want[4] = {0, 0, 1, 2};
        int cl[4];
        int nc = pumma_clusters_group(4, lat, 0.2, 100e-6, cl);
        check(nc == 3 && same_partition(4, cl, want), G,
              "%d clusters (%d %d %d %d), want 3 (0 0 1 2)", nc, cl[0], cl[1],
              cl[2], cl[3]);
        /* the lone machines at 3.3 and 3 ms from each other's best: one
         * pair within 20% of both ends' fastest links is a cluster */
        const double lat2[9] = {0, 3e-3, 9e-3, 3e-3, 0, 3.3e-3, 9e-3, 3.3e-3, 0};
        nc = pumma_clusters_group(3, lat2, 0.2, 100e-6, cl);
        check(nc == 2 && cl[0] == 0 && cl[1] == 0 && cl[2] == 1, G,
              "links 3, 3.3 and 9 ms: %d clusters (%d %d %d), want 0 0 1", nc,
              cl[0], cl[1], cl[2]);
    }
    group_end(G);

    /* Eight processes in two rooms: 20 to 60 us inside (noise), 4 ms
     * between. Without a floor the noise splits the rooms; with 100 us
     * every link inside one counts alike. */
    G = "clusters: the floor keeps LAN noise in one cluster";
    {
        double lat[64];
        int cl[8], want[8];
        unsigned r = 7;
        for (int i = 0; i < 8; i++) want[i] = i % 2;   /* interleaved rooms */
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                r = r * 1103515245u + 12345u;
                double noise = 20e-6 + 40e-6 * (double)((r >> 8) % 1000) / 1000;
                lat[i * 8 + j] = want[i] == want[j] ? noise : 4e-3 + noise;
            }
        int nc = pumma_clusters_group(8, lat, 0.2, 0, cl);
        check(nc > 2, G, "no floor: %d clusters; the noise should split", nc);
        nc = pumma_clusters_group(8, lat, 0.2, 100e-6, cl);
        check(nc == 2 && same_partition(8, cl, want), G,
              "floor 100 us: %d clusters, want the two rooms", nc);
    }
    group_end(G);
}

/* ------------------------------------------------------------ schedules */

/* The schedule's own consistency: a tree from root, each cluster reached
 * after its parent's free time plus the edge, completion = max(arrive + T). */
static void tree_ok(const char *G, int nc, int root, const double *L,
                    const double *g, const double *T, const int *parent,
                    const int *order, const double *arrive, double done)
{
    int seen[16] = {0};
    check(order[0] == root && parent[root] == -1 && arrive[root] == 0, G,
          "the root is not first");
    double free_at[16] = {0}, most = 0;
    for (int s = 0; s < nc; s++) {
        int j = order[s];
        check(j >= 0 && j < nc && !seen[j], G, "order[%d] = %d repeats", s, j);
        if (j < 0 || j >= nc) return;
        seen[j] = 1;
        if (s > 0) {
            int p = parent[j];
            check(p >= 0 && p < nc && seen[p], G,
                  "%d's parent %d is not reached before it", j, p);
            if (p < 0 || p >= nc) return;
            double t = free_at[p] + g[p * nc + j] + L[p * nc + j];
            check(fabs(arrive[j] - t) <= 1e-12 * (1 + t), G,
                  "%d arrives at %g, its parent's schedule says %g", j,
                  arrive[j], t);
            free_at[p] += g[p * nc + j];
            free_at[j] = arrive[j];
        }
        double c = arrive[j] + (T ? T[j] : 0);
        if (c > most) most = c;
    }
    check(fabs(done - most) <= 1e-12 * (1 + most), G,
          "completion %g, max(arrive + T) = %g", done, most);
}

static void test_schedules(void)
{
    int parent[16], order[16];
    double arrive[16];

    /* Three clusters, root 0: links 0-1 and 0-2 of 5, 1-2 of 1, every
     * message a gap of 2. ECEF: 0->1 ends at 7 (tie with 0->2: the lower
     * j), then 0->2 at 2+2+5 = 9 (1->2 would end at 7+2+1 = 10). */
    const char *G = "ecef: three clusters, by hand";
    {
        const double L[9] = {0, 5, 5, 5, 0, 1, 5, 1, 0};
        const double g[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
        double t = pumma_ecef(PUMMA_ECEF, 3, 0, L, g, NULL, parent, order,
                              arrive);
        check(t == 9 && order[1] == 1 && order[2] == 2 && parent[1] == 0 &&
                  parent[2] == 0 && arrive[1] == 7 && arrive[2] == 9,
              G, "t %g order %d %d parents %d %d arrive %g %g", t, order[1],
              order[2], parent[1], parent[2], arrive[1], arrive[2]);
        tree_ok(G, 3, 0, L, g, NULL, parent, order, arrive, t);
        /* The clusters' own broadcasts T = (0, 10, 1): ECEF ignores them,
         * 0->1 then 0->2, done at max(7 + 10, 9 + 1) = 17. ECEF-LAt: 0->1
         * scores 7 + 10, 0->2 7 + 1: 0->2 first (arrive 7); then 0->1 at
         * 2+2+5 = 9 (+10: 19) against 2->1 at 7+2+1 = 10 (+10: 20): done at
         * max(9 + 10, 7 + 1) = 19. */
        const double T[3] = {0, 10, 1};
        t = pumma_ecef(PUMMA_ECEF, 3, 0, L, g, T, parent, order, arrive);
        check(t == 17 && order[1] == 1, G, "ECEF with T: t %g, first %d", t,
              order[1]);
        t = pumma_ecef(PUMMA_ECEF_LAT, 3, 0, L, g, T, parent, order, arrive);
        check(t == 19 && order[1] == 2 && order[2] == 1 && parent[1] == 0 &&
                  arrive[2] == 7 && arrive[1] == 9,
              G, "ECEF-LAt: t %g order %d %d parent[1] %d arrive %g %g", t,
              order[1], order[2], parent[1], arrive[2], arrive[1]);
        tree_ok(G, 3, 0, L, g, T, parent, order, arrive, t);
        /* from root 2: 2->1 at 0+2+1 = 3, then 1->0 at 3+2+5 = 10 against
         * 2->0 at 2+2+5 = 9 */
        t = pumma_ecef(PUMMA_ECEF, 3, 2, L, g, NULL, parent, order, arrive);
        check(t == 9 && order[0] == 2 && order[1] == 1 && parent[0] == 2, G,
              "root 2: t %g order %d %d %d parent[0] %d", t, order[0],
              order[1], order[2], parent[0]);
    }
    group_end(G);

    /* Four clusters, gap 1 everywhere, latencies 0-1 1, 0-2 2, 0-3 10,
     * 1-2 10, 1-3 10, 2-3 1. ECEF: 0->1 (2), 0->2 (1+1+2 = 4), 2->3
     * (4+1+1 = 6): done at 6. ECEF-LA looks past the receiver: 0->1
     * scores 2 + 11, 0->2 3 + 2 (2 reaches 3 in 1+1), 0->3 11 + 2: 0->2
     * first (3); then 0->1 3 + 11 = 14 beats 2->3 5 + 11 = 16; 2->3 last
     * at 3+1+1 = 5: done at 5. */
    G = "ecef-la: the look-ahead, by hand";
    {
        const double L[16] = {0, 1, 2, 10, 1, 0, 10, 10,
                              2, 10, 0, 1, 10, 10, 1, 0};
        double g[16];
        for (int i = 0; i < 16; i++) g[i] = 1;
        double t = pumma_ecef(PUMMA_ECEF, 4, 0, L, g, NULL, parent, order,
                              arrive);
        check(t == 6 && order[1] == 1 && order[2] == 2 && order[3] == 3 &&
                  parent[3] == 2,
              G, "ECEF: t %g order %d %d %d parent[3] %d", t, order[1],
              order[2], order[3], parent[3]);
        tree_ok(G, 4, 0, L, g, NULL, parent, order, arrive, t);
        t = pumma_ecef(PUMMA_ECEF_LA, 4, 0, L, g, NULL, parent, order,
                       arrive);
        check(t == 5 && order[1] == 2 && order[2] == 1 && order[3] == 3 &&
                  parent[1] == 0 && parent[3] == 2 && arrive[2] == 3 &&
                  arrive[1] == 3 && arrive[3] == 5,
              G, "ECEF-LA: t %g order %d %d %d arrive %g %g %g", t, order[1],
              order[2], order[3], arrive[1], arrive[2], arrive[3]);
        tree_ok(G, 4, 0, L, g, NULL, parent, order, arrive, t);
    }
    group_end(G);

    /* Sharing a link (pumma_link_share): 3 flows of 12 bytes on a link
     * of 6 B/s, one capped at 1 B/s: the others take 2.5 each until they
     * are through at 12/2.5 = 4.8 s (the capped one has 7.2 left), which
     * then goes at its cap: 4.8 + 7.2 = 12 s. Uncapped and alone: 2 s. */
    G = "hier: a coordinator's sends share its link, by hand";
    {
        double fin[3];
        const double rate[3] = {1e9, 1, 1e9};
        pumma_link_share(3, 12, 6, rate, fin);
        check(fabs(fin[0] - 4.8) < 1e-9 && fabs(fin[2] - 4.8) < 1e-9 &&
                  fabs(fin[1] - 12) < 1e-9,
              G, "fin %g %g %g", fin[0], fin[1], fin[2]);
        pumma_link_share(1, 12, 6, rate, fin);
        check(fabs(fin[0] - 2) < 1e-9, G, "alone: %g", fin[0]);
        /* Three clusters as ECEF's by hand above (L 5 from 0, 1 between 1
         * and 2; gap 2 a message of 4 bytes: paths of 2 B/s) on links of
         * their own of 4 B/s: root 0 serves 1 then 2 (ECEF), and its own
         * cluster's broadcast sends 2 messages from it. Its 4 flows share
         * 4 B/s: the two between clusters are capped at 2 but get 1 each,
         * all through at 4 s; clusters 1 and 2 hold the message at 4 + 5 =
         * 9 (pumma_ecef's one after another: 7 and 9). Inside, T = 3: the
         * root's cluster is done at 0 + 3 + (4 - 2 * 1) = 5, cluster 1 at
         * 9 + 3 = 12 (its 1 send inside alone: 1 s, as T counts it). */
        const double L[9] = {0, 5, 5, 5, 0, 1, 5, 1, 0};
        const double g[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
        const double T[3] = {3, 3, 3}, port[3] = {0.25, 0.25, 0.25};
        const int nloc[3] = {2, 1, 1};
        pumma_ecef(PUMMA_ECEF, 3, 0, L, g, T, parent, order, arrive);
        check(parent[1] == 0 && parent[2] == 0 && order[1] == 1, G,
              "ECEF's schedule: parents %d %d", parent[1], parent[2]);
        double t = pumma_hier_eval(3, 0, parent, order, L, g, T, port, nloc,
                                   4, arrive);
        check(fabs(arrive[1] - 9) < 1e-9 && fabs(arrive[2] - 9) < 1e-9 &&
                  fabs(t - 12) < 1e-9,
              G, "arrive %g %g, done %g (9 9 12)", arrive[1], arrive[2], t);
        /* without a link of its own to share (port NULL, nloc NULL) and
         * paths as fast as ECEF's gaps, two flows go side by side: both
         * arrive at 2 + 5 = 7, done at 7 + 3 = 10 */
        t = pumma_hier_eval(3, 0, parent, order, L, g, T, NULL, NULL, 4,
                            arrive);
        check(fabs(arrive[1] - 7) < 1e-9 && fabs(arrive[2] - 7) < 1e-9 &&
                  fabs(t - 10) < 1e-9,
              G, "unshared: arrive %g %g, done %g (7 7 10)", arrive[1],
              arrive[2], t);
    }
    group_end(G);

    /* Random platforms: every heuristic gives a tree whose times follow
     * its own rule; one cluster is the root alone. */
    G = "ecef: random platforms keep the schedule's rules";
    {
        unsigned r = 99;
        for (int rep = 0; rep < 200; rep++) {
            int nc = 1 + rep % 12, root = rep % nc;
            double L[144], g[144], T[12];
            for (int i = 0; i < nc * nc; i++) {
                r = r * 1103515245u + 12345u;
                L[i] = 1e-3 * (1 + (r >> 8) % 9);
                r = r * 1103515245u + 12345u;
                g[i] = 1e-3 * (1 + (r >> 8) % 5);
            }
            for (int j = 0; j < nc; j++) {
                r = r * 1103515245u + 12345u;
                T[j] = 1e-3 * ((r >> 8) % 7);
            }
            for (int k = PUMMA_ECEF; k <= PUMMA_ECEF_LAT; k++) {
                double t = pumma_ecef(k, nc, root, L, g, T, parent, order,
                                      arrive);
                tree_ok(G, nc, root, L, g, T, parent, order, arrive, t);
            }
        }
        check(pumma_ecef_kind("ecef-lat") == PUMMA_ECEF_LAT &&
                  pumma_ecef_kind("ecef-la") == PUMMA_ECEF_LA &&
                  pumma_ecef_kind("ecef") == PUMMA_ECEF &&
                  pumma_ecef_kind("ecefx") == 0 &&
                  strcmp(pumma_ecef_name(PUMMA_ECEF_LA), "ecef-la") == 0,
              G, "names");
    }
    group_end(G);
}

/* ------------------------------------------------------ two-level layouts */

/* Checks a two-level layout h of kind over m x n for processes of speeds
 * sp in clusters cl against its definition: every entry owned once; the
 * clusters' regions those of the top-level layout of kind for the
 * clusters' summed speeds; inside, members in vertical bands (left to
 * right in process order) of areas proportional to their speeds, within
 * one column of the region. */
static void two_level_case(const char *G, int kind, int m, int n, int np,
                           const double *sp, const int *cl)
{
    int h, info, ht, nc = 0, num[16];
    double cs[16] = {0};
    pumma_layout_create_clusters(kind, m, n, np, sp, cl, &h, &info);
    check(info == 0, G, "kind %d: INFO %d", kind, info);
    if (info) return;
    for (int p = 0; p < np; p++) {
        int q = 0;
        while (q < p && cl[q] != cl[p]) q++;
        num[p] = q < p ? num[q] : nc++;
        cs[num[p]] += sp[p];
    }
    pumma_layout_create(kind, m, n, nc, cs, &ht, &info);
    check(info == 0, G, "the top level alone: INFO %d", info);
    if (info) { pumma_layout_destroy(h); return; }
    const pumma_layout_t *L = pumma_layout_get(h), *T = pumma_layout_get(ht);
    long *area = calloc((size_t)np, sizeof(long));
    int *cover = calloc((size_t)m * n, sizeof(int));
    for (int p = 0; p < np; p++)
        for (int r = L->first[p]; r < L->first[p + 1]; r++) {
            const pumma_rect_t *x = &L->rect[r];
            for (int i = x->r0; i < x->r1; i++)
                for (int j = x->c0; j < x->c1; j++) cover[(size_t)i * n + j]++;
            area[p] += (long)(x->r1 - x->r0) * (x->c1 - x->c0);
        }
    int bad = 0;
    for (int i = 0; i < m && !bad; i++)
        for (int j = 0; j < n && !bad; j++) {
            if (cover[(size_t)i * n + j] != 1) bad = 1;
            else if (num[pumma_layout_owner_of(L, i, j)] !=
                     pumma_layout_owner_of(T, i, j)) bad = 2;
        }
    check(!bad, G, "kind %d: %s", kind,
          bad == 1 ? "not an exact cover" : "a cluster's region is not the top level's");
    /* inside: shares of the region within one column of it */
    for (int c = 0; c < nc; c++) {
        long reg = 0, rows = 0;
        double w = 0;
        for (int p = 0; p < np; p++)
            if (num[p] == c) { reg += area[p]; w += sp[p]; }
        for (int r = T->first[c]; r < T->first[c + 1]; r++)
            rows += T->rect[r].r1 - T->rect[r].r0;
        int last_c1 = -1;
        for (int p = 0; p < np; p++) {
            if (num[p] != c) continue;
            double want = (double)reg * sp[p] / w;
            check(fabs((double)area[p] - want) <= (double)rows + 1, G,
                  "kind %d: process %d has %ld of its cluster's %ld, want %.0f",
                  kind, p, area[p], reg, want);
            check(L->box[p].c0 >= last_c1, G,
                  "kind %d: process %d's band is not after the one before",
                  kind, p);
            last_c1 = L->box[p].c1;
        }
    }
    free(area);
    free(cover);
    pumma_layout_destroy(h);
    pumma_layout_destroy(ht);
}

static void test_two_level(void)
{
    const char *G = "two-level layouts: clusters' regions, members' bands";
    const double s4[4] = {45, 45, 5, 5};
    const int c4[4] = {0, 0, 1, 2};
    two_level_case(G, PUMMA_LAYOUT_SQUARE_CORNER, 600, 600, 4, s4, c4);
    two_level_case(G, PUMMA_LAYOUT_RECT3, 600, 600, 4, s4, c4);
    const double s9[9] = {30, 30, 30, 2, 1, 2, 5, 5, 5};
    const int c9[9] = {7, 7, 7, 3, 3, 3, 9, 9, 9};
    two_level_case(G, PUMMA_LAYOUT_SQUARE_CORNER, 500, 700, 9, s9, c9);
    two_level_case(G, PUMMA_LAYOUT_RECT3, 300, 900, 9, s9, c9);
    two_level_case(G, PUMMA_LAYOUT_COLUMNS, 300, 300, 9, s9, c9);
    two_level_case(G, PUMMA_LAYOUT_STRIPS, 200, 400, 9, s9, c9);
    /* interleaved clusters: members need not be neighbours */
    const int ci[6] = {0, 1, 2, 0, 1, 2};
    const double si[6] = {50, 3, 2, 40, 3, 2};
    two_level_case(G, PUMMA_LAYOUT_SQUARE_CORNER, 400, 400, 6, si, ci);
    group_end(G);

    G = "two-level layouts: one member each is the top level itself";
    {
        const double s3[3] = {90, 5, 5};
        const int c3[3] = {4, 8, 2};
        int h, ht, info, info2;
        pumma_layout_create_clusters(PUMMA_LAYOUT_SQUARE_CORNER, 800, 800, 3,
                                     s3, c3, &h, &info);
        pumma_layout_create(PUMMA_LAYOUT_SQUARE_CORNER, 800, 800, 3, s3, &ht,
                            &info2);
        check(!info && !info2, G, "INFO %d, %d", info, info2);
        if (!info && !info2) {
            const pumma_layout_t *L = pumma_layout_get(h),
                                 *T = pumma_layout_get(ht);
            int same = L->first[3] == T->first[3];
            for (int r = 0; same && r < L->first[3]; r++)
                same = !memcmp(&L->rect[r], &T->rect[r], sizeof(pumma_rect_t));
            for (int p = 0; same && p <= 3; p++) same = L->first[p] == T->first[p];
            check(same, G, "the rectangles differ");
            pumma_layout_destroy(h);
            pumma_layout_destroy(ht);
        }
    }
    group_end(G);

    G = "two-level layouts: bad arguments";
    {
        const double s4[4] = {45, 45, 5, 5};
        int h, info;
        const int neg[4] = {0, -1, 1, 2}, four[4] = {0, 1, 2, 3},
                  ok[4] = {0, 0, 1, 2};
        pumma_layout_create_clusters(PUMMA_LAYOUT_SQUARE_CORNER, 60, 60, 4,
                                     s4, neg, &h, &info);
        check(info == -6, G, "a negative cluster: INFO %d, want -6", info);
        pumma_layout_create_clusters(PUMMA_LAYOUT_SQUARE_CORNER, 60, 60, 4,
                                     s4, four, &h, &info);
        check(info == -4, G, "4 clusters for square-corner: INFO %d, want -4",
              info);
        pumma_layout_create_clusters(99, 60, 60, 4, s4, ok, &h, &info);
        check(info == -1, G, "kind 99: INFO %d, want -1", info);
        pumma_layout_create_clusters(PUMMA_LAYOUT_RECT3, 0, 60, 4, s4, ok, &h,
                                     &info);
        check(info == -2, G, "M = 0: INFO %d, want -2", info);
        const double zero[4] = {45, 0, 5, 5};
        pumma_layout_create_clusters(PUMMA_LAYOUT_RECT3, 60, 60, 4, zero, ok,
                                     &h, &info);
        check(info == -5, G, "a speed 0: INFO %d, want -5", info);
        /* two members in a cluster whose strip is one column wide */
        const double tiny[3] = {1e-9, 1e-9, 1};
        const int two[3] = {0, 0, 1};
        pumma_layout_create_clusters(PUMMA_LAYOUT_STRIPS, 10, 10, 3, tiny,
                                     two, &h, &info);
        check(info == 2, G, "shares too small: INFO %d, want 2", info);
    }
    group_end(G);
}

/* The price pumma_layout_clusters_shares puts on shares sh, counted entry
 * by entry from the layouts' owners (its definition, independently). */
static double brute_price(int kind, int m, int n, int k, int np,
                          const double *rate, const int *cl,
                          const double *beta, double es, const double *sh)
{
    int hc, ha, hb, i1, i2, i3, nc = 0, num[16];
    for (int p = 0; p < np; p++) {
        int q = 0;
        while (q < p && cl[q] != cl[p]) q++;
        num[p] = q < p ? num[q] : nc++;
    }
    pumma_layout_create_clusters(kind, m, n, np, sh, cl, &hc, &i1);
    pumma_layout_create_clusters(kind, m, k, np, sh, cl, &ha, &i2);
    pumma_layout_create_clusters(kind, k, n, np, sh, cl, &hb, &i3);
    if (i1 || i2 || i3) return -1;
    const pumma_layout_t *LC = pumma_layout_get(hc), *LA = pumma_layout_get(ha),
                         *LB = pumma_layout_get(hb);
    double comp = 0, up[16] = {0};
    for (int p = 0; p < np; p++) {
        char *row = calloc((size_t)m, 1), *col = calloc((size_t)n, 1);
        double area = 0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                if (pumma_layout_owner_of(LC, i, j) == p) {
                    area++;
                    row[i] = col[j] = 1;
                }
        if (area * k / rate[p] > comp) comp = area * k / rate[p];
        for (int i = 0; i < m; i++)
            for (int kk = 0; row[i] && kk < k; kk++) {
                int q = pumma_layout_owner_of(LA, i, kk);
                if (num[q] != num[p]) up[num[q]] += es * beta[num[q] * nc + num[p]];
            }
        for (int j = 0; j < n; j++)
            for (int kk = 0; col[j] && kk < k; kk++) {
                int q = pumma_layout_owner_of(LB, kk, j);
                if (num[q] != num[p]) up[num[q]] += es * beta[num[q] * nc + num[p]];
            }
        free(row);
        free(col);
    }
    double t = comp;
    for (int c = 0; c < nc; c++) t = up[c] > t ? up[c] : t;
    pumma_layout_destroy(hc);
    pumma_layout_destroy(ha);
    pumma_layout_destroy(hb);
    return t;
}

static void test_shares(void)
{
    const char *G = "two-level shares priced with the links";
    const double rate[4] = {45, 45, 5, 5};
    const int cl[4] = {0, 0, 1, 2};
    double sh[4], t, beta[9];
    /* free links: the speeds themselves */
    for (int i = 0; i < 9; i++) beta[i] = 0;
    int rc = pumma_layout_clusters_shares(PUMMA_LAYOUT_SQUARE_CORNER, 60, 60,
                                          60, 4, rate, cl, beta, 8, sh, &t);
    check(rc == 0 && !memcmp(sh, rate, sizeof sh), G,
          "free links: rc %d, shares %g %g %g %g, want the speeds", rc, sh[0],
          sh[1], sh[2], sh[3]);
    /* slow links: the smallest shares that still give a layout */
    for (int i = 0; i < 9; i++) beta[i] = i % 4 ? 1 : 0;
    rc = pumma_layout_clusters_shares(PUMMA_LAYOUT_SQUARE_CORNER, 60, 60, 60,
                                      4, rate, cl, beta, 8, sh, &t);
    check(rc == 0 && sh[0] == 45 && sh[2] < 0.5 && sh[3] < 0.5, G,
          "slow links: rc %d, shares %g %g %g %g, want the slow ones cut", rc,
          sh[0], sh[1], sh[2], sh[3]);
    /* the price, and no candidate cheaper, against the entry-by-entry
     * count, on platforms between */
    static const double fs[] = {1, 0.7, 0.5, 0.35, 0.25, 0.18, 0.12, 0.09,
                                0.06, 0.045, 0.03, 0.02, 0.015, 0.01};
    unsigned r = 5;
    for (int rep = 0; rep < 6; rep++) {
        for (int i = 0; i < 9; i++) {
            r = r * 1103515245u + 12345u;
            beta[i] = i % 4 ? 1e-3 * (1 + (r >> 8) % 50) : 0;
        }
        const int kind = rep % 2 ? PUMMA_LAYOUT_RECT3 : PUMMA_LAYOUT_SQUARE_CORNER;
        const int m = 40 + 4 * rep, n = 44, k = 36 + rep;
        rc = pumma_layout_clusters_shares(kind, m, n, k, 4, rate, cl, beta, 8,
                                          sh, &t);
        check(rc == 0, G, "platform %d: rc %d", rep, rc);
        if (rc) continue;
        double tb = brute_price(kind, m, n, k, 4, rate, cl, beta, 8, sh);
        check(fabs(tb - t) <= 1e-9 * t, G, "platform %d: price %g, counted %g",
              rep, t, tb);
        for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) {
            double e[4];
            for (int p = 0; p < 4; p++) e[p] = rate[p] * (cl[p] == 0 ? 1 : fs[i]);
            double ti = brute_price(kind, m, n, k, 4, rate, cl, beta, 8, e);
            check(ti < 0 || ti >= t * (1 - 1e-9), G,
                  "platform %d: factor %g prices %g, below the choice's %g",
                  rep, fs[i], ti, t);
        }
    }
    group_end(G);
}

/* ------------------------------------------------------------ on grids */

void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridexit(int);
int numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *,
               const int *, const int *, const int *, const int *, int *);

/* 1 on every process when ok is 1 on all of comm. */
static int all_ok(int ok, MPI_Comm comm)
{
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
    return ok;
}

/* C := A*B + C on a P x Q grid with the given algorithm and broadcast
 * codes (0: pumma's choice), into c (local, lld x nl); the plan into
 * plan. */
static int gemm_on(int ctxt, int P, int Q, int myr, int myc, int n, int al,
                   int bc, double *c, char *plan, size_t len)
{
    const int nb = 4, zero = 0, one = 1;
    const int ml = numroc_(&n, &nb, &myr, &zero, &P);
    const int nl = numroc_(&n, &nb, &myc, &zero, &Q);
    const int lld = ml > 1 ? ml : 1;
    int desc[9], info;
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    double *a = malloc(sizeof(double) * (size_t)lld * (nl > 0 ? nl : 1) * 2);
    double *b = a + (size_t)lld * (nl > 0 ? nl : 1);
    for (int j = 0; j < nl; j++)
        for (int i = 0; i < ml; i++) {
            /* global indices: entries that differ in their last bits */
            int gi = (i / nb * P + myr) * nb + i % nb;
            int gj = (j / nb * Q + myc) * nb + j % nb;
            a[i + (size_t)j * lld] = 1.0 / (1 + gi + 2 * gj);
            b[i + (size_t)j * lld] = 1.0 / (3 + 2 * gi + gj);
            c[i + (size_t)j * lld] = 0.25 * gi - gj;
        }
    pumma_options_t o = {al, bc, 0, 0, 0, 0};
    const double one_d = 1;
    pumma_pdgemm_opts("N", "N", &n, &n, &n, &one_d, a, &one, &one, desc, b,
                      &one, &one, desc, &one_d, c, &one, &one, desc, &o,
                      &info);
    snprintf(plan, len, "%s", pumma_last_plan());
    free(a);
    return info;
}

/* The slowest link a line of the grid's clusters cl[0..n-1] holds, from
 * the definitions: inside a cluster with two or more of them, between
 * every two; in *a (latency) and *b (seconds per byte). */
static void slowest(const pumma_hier_grid_t *h, const int *cl, int n,
                    double *a, double *b)
{
    *a = *b = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j) continue;
            double l, s;
            if (cl[i] == cl[j]) {
                l = h->inside[cl[i]].alpha;
                s = h->inside[cl[i]].beta;
            } else {
                l = h->lat[cl[i] * h->nc + cl[j]];
                s = h->beta[cl[i] * h->nc + cl[j]];
            }
            if (l > *a) *a = l;
            if (s > *b) *b = s;
        }
}

/* The rows of the P x Q grid holding processes of both clusters c and
 * d: a step's collectives run on every row at once, each sending across
 * the one link between c and d, at that share of its bandwidth. */
static int rows_crossing(const pumma_hier_grid_t *h, int P, int Q, int c,
                         int d)
{
    int n = 0;
    for (int p = 0; p < P; p++) {
        int hc = 0, hd = 0;
        for (int q = 0; q < Q; q++) {
            hc |= h->cluster[p * Q + q] == c;
            hd |= h->cluster[p * Q + q] == d;
        }
        n += hc && hd;
    }
    return n > 1 ? n : 1;
}

/*
 * pumma_coll_price on the 2 x Q grid of test_grids (columns inside one
 * cluster each, rows across three), against its definition
 * (pumma_comm.h): a column's price is the variant's under its cluster's
 * links; a row's, a flat variant's under the row's slowest link and
 * hier's the mean over the row's Q roots of its own plan; a transposed
 * view's rows are the grid's columns. Then the links between the
 * clusters made slow, the first and the last very slow (sites in a
 * chain): PDGEMM's planner takes hier on the rows (mdb2-row) and not on
 * the columns (mdb2), and its C is the one-level call's to the last bit.
 */
static void priced(int ctxt, int P, int Q, int myr, int myc)
{
    const char *G = "grid: the planner prices hier on the lines it runs on";
    pumma_grid_t *g = (pumma_grid_t *)pumma_grid_enter(ctxt);
    pumma_hier_grid_t *h = g->hier;
    check(h != NULL, G, "the grid has no clusters");
    if (!h) return;
    const pumma_model_t *mo = pumma_grid_model(g);
    const pumma_coll_ops_t *bin = pumma_comm_find(PUMMA_BCAST_TABLE,
                                                  "binomial");
    const double bytes = 256 * 1024;
    int ccl[64], rcl[64];
    for (int slow = 0; slow < 2; slow++) {
        if (slow) {
            /* the measured links made slow: ~1 ms and ~10 MB/s between
             * neighbouring sites, ten times that between the ends */
            for (int a = 0; a < h->nc; a++)
                for (int b = 0; b < h->nc; b++) {
                    if (a == b) continue;
                    const double f = abs(a - b) > 1 ? 10 : 1;
                    h->lat[a * h->nc + b] = 1e-3 * f;
                    h->beta[a * h->nc + b] = 1e-7 * f;
                }
            h->id += 1000;   /* new links: plans remembered are stale */
        }
        for (int q = 0; q < Q; q++) rcl[q] = h->cluster[myr * Q + q];
        double a, b;
        pumma_model_t m = *mo;
        /* the columns: each inside one cluster; the slowest is the price */
        double want = 0;
        for (int q = 0; q < Q; q++) {
            for (int p = 0; p < P; p++) ccl[p] = h->cluster[p * Q + q];
            slowest(h, ccl, P, &a, &b);
            m.alpha = a;
            m.beta = b;
            want = fmax(want, bin->cost(&m, P, bytes, 0));
        }
        double got = pumma_coll_price(g, bin, mo, PUMMA_ALONG_COL, P, bytes, 0);
        check(got == want, G, "slow %d: binomial on the columns %g, want %g",
              slow, got, want);
        got = pumma_coll_price(g, &pumma_bcast_hier, mo, PUMMA_ALONG_COL, P,
                               bytes, 0);
        check(got == want, G, "slow %d: hier on the columns %g, binomial's %g",
              slow, got, want);
        /* a row: across the clusters, each link between them at the
         * share the grid's rows crossing it leave */
        slowest(h, rcl, Q, &a, &b);
        m.alpha = a;
        double bs = 0;
        for (int i = 0; i < Q; i++)
            for (int j = 0; j < Q; j++)
                if (rcl[i] != rcl[j])
                    bs = fmax(bs, rows_crossing(h, P, Q, rcl[i], rcl[j]) *
                                      h->beta[rcl[i] * h->nc + rcl[j]]);
                else if (i != j)
                    bs = fmax(bs, h->inside[rcl[i]].beta);
        m.beta = bs;
        const pumma_coll_ops_t *v;
        for (int i = 0; (v = pumma_comm_at(PUMMA_BCAST_TABLE, i)); i++) {
            if (v == &pumma_bcast_hier || v == &pumma_bcast_auto) continue;
            got = pumma_coll_price(g, v, mo, PUMMA_ALONG_ROW, Q, bytes, 0);
            want = v->cost(&m, Q, bytes, 0);
            check(got == want, G, "slow %d: %s on a row %g, want %g", slow,
                  v->name, got, want);
        }
        const pumma_hier_line_t *L0 = pumma_hier_line_of(g, g->row);
        /* hier's plans on the links at those shares */
        pumma_hier_grid_t hs = *h;
        double sb[64];
        for (int c = 0; c < h->nc; c++)
            for (int d = 0; d < h->nc; d++)
                sb[c * h->nc + d] = h->beta[c * h->nc + d] *
                                    (c == d ? 1 : rows_crossing(h, P, Q, c, d));
        hs.beta = sb;
        pumma_hier_line_t Ls;
        if (L0) { Ls = *L0; Ls.h = &hs; }
        const pumma_hier_line_t *L = L0 ? &Ls : NULL;
        double mean = 0;
        for (int root = 0; L && root < Q; root++) {
            int par[64], ord[64], crd[64], chosen;
            const pumma_coll_ops_t *loc[64];
            mean += pumma_hier_plan(PUMMA_BCAST_TABLE, L, root, bytes,
                                    pumma_hier_schedule(), par, ord, crd, loc,
                                    &chosen) / Q;
        }
        got = pumma_coll_price(g, &pumma_bcast_hier, mo, PUMMA_ALONG_ROW, Q,
                               bytes, 0);
        check(fabs(got - mean) <= 1e-12 * mean, G,
              "slow %d: hier on a row %g, its plans' mean %g", slow, got, mean);
        if (slow)
            check(got < bin->cost(&m, Q, bytes, 0), G,
                  "slow links: hier %g not below binomial's %g", got,
                  bin->cost(&m, Q, bytes, 0));
        /* a transposed view: its columns are the rows */
        pumma_grid_t t = *g;
        t.nprow = g->npcol;
        t.npcol = g->nprow;
        t.transposed = 1;
        check(pumma_coll_price(&t, &pumma_bcast_hier, mo, PUMMA_ALONG_COL, Q,
                               bytes, 0) == got,
              G, "slow %d: a transposed view's columns are not the rows",
              slow);
        /* the whole grid's exchanges: its slowest link */
        int all[64];
        for (int q = 0; q < P * Q; q++) all[q] = h->cluster[q];
        slowest(h, all, P * Q, &a, &b);
        pumma_model_t gm;
        pumma_grid_price_model(g, mo, &gm);
        check(gm.alpha == a && gm.beta == b && gm.gamma[1] == mo->gamma[1],
              G, "slow %d: the grid's model %g %g, its slowest link %g %g",
              slow, gm.alpha, gm.beta, a, b);
        const pumma_shift_ops_t *s = pumma_shift_at(0);
        check(pumma_shift_price(g, s, mo, PUMMA_ALONG_ROW, Q, bytes) ==
                  s->cost(&m, Q, bytes),
              G, "slow %d: a roll along a row", slow);
    }
    /* the planner, on the slow links */
    const int n = 48;
    static double c1[64 * 64], c2[64 * 64], c3[64 * 64];
    char p1[200], p2[200], p3[200];
    int i1 = gemm_on(ctxt, P, Q, myr, myc, n, PUMMA_ALGO_MDB2_ROW, 0, c1, p1,
                     sizeof p1);
    int i2 = gemm_on(ctxt, P, Q, myr, myc, n, PUMMA_ALGO_MDB2_ROW,
                     PUMMA_BCAST_BINOMIAL, c2, p2, sizeof p2);
    int i3 = gemm_on(ctxt, P, Q, myr, myc, n, PUMMA_ALGO_MDB2, 0, c3, p3,
                     sizeof p3);
    check(i1 == 0 && i2 == 0 && i3 == 0, G, "INFO %d, %d, %d", i1, i2, i3);
    check(strstr(p1, "bcast=hier") != NULL, G,
          "slow links, rows across them: plan \"%s\", not hier", p1);
    check(strstr(p3, "bcast=hier") == NULL, G,
          "slow links, columns inside clusters: plan \"%s\", hier", p3);
    check(memcmp(c1, c2, sizeof c1) == 0, G, "hier and binomial differ in C");
    /* the predictor on this grid (pumma_plan_predict_on) prices as its
     * planner: the plan it names is the one the call ran (hier on the
     * rows), and dearer than the same shape priced flat under the grid's
     * own measured model, which sees none of the slow links */
    pumma_opts_t f;
    memset(&f, 0, sizeof f);
    f.algo = "mdb2-row";
    char pp[200], pf[200];
    const double on = pumma_plan_predict_on(g, &pumma_type_d, 'N', 'N', n, n,
                                            n, 4, &f, pp, sizeof pp);
    const double flat = pumma_plan_predict(&pumma_type_d, 'N', 'N', n, n, n,
                                           4, P, Q, mo, &f, pf, sizeof pf);
    check(!strcmp(pp, p1), G, "predicted plan \"%s\", the call ran \"%s\"",
          pp, p1);
    check(on > flat, G, "on the grid %g, flat %g (\"%s\")", on, flat, pf);
}

static void test_grids(int np)
{
    const char *G = "grid: clusters set, read back, and PDGEMM in two levels";
    const int P = 2, Q = np / 2;
    int ctxt, nprow, npcol, myr, myc;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", P, Q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    int in = nprow > 0, ok = 1;
    if (in) {
        /* three clusters along each row (one if Q < 3), rows alike: the
         * rows span clusters, the columns do not */
        int cl[64], got[64], nc, info;
        for (int p = 0; p < P; p++)
            for (int q = 0; q < Q; q++) cl[p * Q + q] = 10 + q * 3 / Q;
        PUMMA_F77(pumma_grid_clusters, PUMMA_GRID_CLUSTERS)(&ctxt, cl, &info);
        ok &= info == 0;
        PUMMA_F77(pumma_grid_clusters_get, PUMMA_GRID_CLUSTERS_GET)(
            &ctxt, got, &nc, &info);
        ok &= info == 0 && nc == (Q >= 3 ? 3 : Q);
        for (int q = 0; q < P * Q; q++)
            for (int r = 0; r < P * Q; r++)
                ok &= (got[q] == got[r]) == (cl[q] == cl[r]);
        check(ok, G, "clusters read back differ (nc %d)", nc);
        /* bad input */
        int bad[64];
        for (int q = 0; q < P * Q; q++) bad[q] = q == 1 ? -1 : 0;
        PUMMA_F77(pumma_grid_clusters, PUMMA_GRID_CLUSTERS)(&ctxt, bad, &info);
        check(info == -2, G, "a negative cluster: INFO %d, want -2", info);
        int none = -1;
        PUMMA_F77(pumma_grid_clusters_get, PUMMA_GRID_CLUSTERS_GET)(
            &none, got, &nc, &info);
        check(info == -1, G, "a bad context: INFO %d, want -1", info);
        /* shares priced for the grid's clusters: some, all > 0, and the
         * argument checks (KIND 2, M 3, K 5, ELSIZE 6) */
        double sh[64];
        const int sq = PUMMA_LAYOUT_COLUMNS,  /* exists for any speeds */
                  s60 = 60, s0 = 0, s8 = 8, bad_kind = 99;
        PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(&ctxt, &sq, &s60, &s60,
                                                        &s60, &s8, sh, &info);
        int pos = info == 0;
        for (int q = 0; pos && q < P * Q; q++) pos = sh[q] > 0;
        check(pos, G, "PUMMA_GRID_SHARES: INFO %d or a share <= 0", info);
        PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(
            &ctxt, &bad_kind, &s60, &s60, &s60, &s8, sh, &info);
        check(info == -2, G, "PUMMA_GRID_SHARES kind 99: INFO %d", info);
        PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(&ctxt, &sq, &s0, &s60,
                                                        &s60, &s8, sh, &info);
        check(info == -3, G, "PUMMA_GRID_SHARES M = 0: INFO %d", info);
        PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(&ctxt, &sq, &s60, &s60,
                                                        &s0, &s8, sh, &info);
        check(info == -5, G, "PUMMA_GRID_SHARES K = 0: INFO %d", info);
        PUMMA_F77(pumma_grid_shares, PUMMA_GRID_SHARES)(&ctxt, &sq, &s60, &s60,
                                                        &s60, &s0, sh, &info);
        check(info == -6, G, "PUMMA_GRID_SHARES ELSIZE 0: INFO %d", info);

        const int n = 37;
        static double c1[64 * 64], c2[64 * 64];    /* zero past the part */
        char p1[200], p2[200];
        /* mdb2-row broadcasts along the rows, which span clusters */
        int i1 = gemm_on(ctxt, P, Q, myr, myc, n, PUMMA_ALGO_MDB2_ROW,
                         PUMMA_BCAST_HIER, c1, p1, sizeof p1);
        int i2 = gemm_on(ctxt, P, Q, myr, myc, n, PUMMA_ALGO_MDB2_ROW,
                         PUMMA_BCAST_BINOMIAL, c2, p2, sizeof p2);
        check(i1 == 0 && i2 == 0, G, "INFO %d, %d", i1, i2);
        check(strstr(p1, "bcast=hier") != NULL, G, "plan \"%s\": hier asked",
              p1);
        check(strstr(p2, "bcast=binomial") != NULL, G,
              "plan \"%s\": binomial asked", p2);
        check(memcmp(c1, c2, sizeof(double) * 64 * 64) == 0, G,
              "two levels and one differ in C");
    }
    if (!all_ok(!group_fail, MPI_COMM_WORLD)) group_fail = group_fail ? group_fail : 1;
    if (me_world == 0) group_end(G);
    else group_fail = 0;

    /* The plan on a row of the grid: the schedule is pumma_ecef's on the
     * links measured (same on every process), the root's cluster is
     * coordinated by the root, the others by their lowest rank. */
    G = "grid: the two-level plan follows the measured links";
    if (in && Q >= 3) {
        const pumma_grid_t *g = pumma_grid_enter(ctxt);
        const pumma_hier_line_t *L = pumma_hier_line_of(g, g->row);
        check(L && L->nc == 3, G, "the row's clusters: %d", L ? L->nc : 0);
        const pumma_hier_line_t *Lc = pumma_hier_line_of(g, g->col);
        check(Lc == NULL, G, "a column inside one cluster has no line");
        for (int root = 0; L && root < Q; root++) {
            int parent[8], order[8], coord[8], chosen = 0, p2[8], o2[8];
            const pumma_coll_ops_t *local[8];
            double arrive[8], Lt[64], gg[64], T[8];
            const double bytes = 512 * 1024;
            double t = pumma_hier_plan(PUMMA_BCAST_TABLE, L, root, bytes, 0,
                                       parent, order,
                                       coord, local, &chosen);
            const pumma_hier_grid_t *h = L->h;
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) {
                    int ga = L->gcl[a], gb = L->gcl[b];
                    Lt[a * 3 + b] = a == b ? 0 : h->lat[ga * h->nc + gb];
                    gg[a * 3 + b] = a == b ? 0 : bytes * h->beta[ga * h->nc + gb];
                }
                T[a] = L->size[a] > 1 ? local[a]->cost(&h->inside[L->gcl[a]],
                                                       L->size[a], bytes, 0)
                                      : 0;
            }
            /* each schedule priced as the engine runs it: the
             * coordinator's sends share its link (pumma_hier_eval) */
            double port[8];
            int nloc[8], kids[64], up;
            for (int a = 0; a < 3; a++) {
                port[a] = h->inside[L->gcl[a]].beta;
                nloc[a] = L->size[a] < 2 ? 0
                          : local[a]->shape
                              ? local[a]->shape(L->size[a], 0, 0, &up, kids)
                              : 1;
            }
            double best = -1;
            for (int k = PUMMA_ECEF; k <= PUMMA_ECEF_LAT; k++) {
                pumma_ecef(k, 3, L->cl[root], Lt, gg, T, p2, o2, arrive);
                double tk = pumma_hier_eval(3, L->cl[root], p2, o2, Lt, gg, T,
                                            port, nloc, bytes, arrive);
                if (best < 0 || tk < best) best = tk;
                if (k == chosen)
                    check(!memcmp(p2, parent, sizeof(int) * 3) &&
                              !memcmp(o2, order, sizeof(int) * 3),
                          G, "root %d: the schedule is not %s's", root,
                          pumma_ecef_name(k));
            }
            check(t == best && chosen >= PUMMA_ECEF, G,
                  "root %d: predicted %g, the best heuristic's %g", root, t,
                  best);
            check(coord[L->cl[root]] == root, G,
                  "root %d does not coordinate its cluster", root);
            for (int c = 0; c < 3; c++)
                check(c == L->cl[root] || coord[c] == L->coord[c], G,
                      "cluster %d's coordinator %d, its lowest rank %d", c,
                      coord[c], L->coord[c]);
            /* each variant inside is the fastest its cluster's model prices */
            for (int c = 0; c < 3; c++) {
                const pumma_coll_ops_t *v;
                for (int i = 0; L->size[c] > 1 &&
                                (v = pumma_comm_at(PUMMA_BCAST_TABLE, i));
                     i++)
                    if (strcmp(v->name, "hier"))
                        check(v->cost(&h->inside[L->gcl[c]], L->size[c],
                                      bytes, 0) >= T[c],
                              G, "cluster %d: %s prices below the chosen %s",
                              c, v->name, local[c]->name);
            }
        }
    }
    if (!all_ok(!group_fail, MPI_COMM_WORLD)) group_fail = group_fail ? group_fail : 1;
    if (me_world == 0) group_end(G);
    else group_fail = 0;

    G = "grid: the planner prices hier on the lines it runs on";
    if (in && Q >= 3) priced(ctxt, P, Q, myr, myc);
    if (!all_ok(!group_fail, MPI_COMM_WORLD)) group_fail = group_fail ? group_fail : 1;
    if (me_world == 0) group_end(G);
    else group_fail = 0;
    if (in) Cblacs_gridexit(ctxt);

    /* PUMMA_CLUSTERS (measure on run-hier's second run): a partition. */
    G = "grid: PUMMA_CLUSTERS's clusters partition the grid";
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Col", P, Q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    if (nprow > 0) {
        int got[64], nc = 0, info;
        PUMMA_F77(pumma_grid_clusters_get, PUMMA_GRID_CLUSTERS_GET)(
            &ctxt, got, &nc, &info);
        int seen = -1, fine = info == 0 && nc >= 1 && nc <= P * Q;
        for (int q = 0; q < P * Q; q++) {
            fine &= got[q] >= 0 && got[q] <= seen + 1;
            if (got[q] > seen) seen = got[q];
        }
        check(fine && seen + 1 == nc, G, "INFO %d, nc %d, numbers up to %d",
              info, nc, seen);
        const char *e = getenv("PUMMA_CLUSTERS");
        if (me_world == 0)
            printf("PUMMA_CLUSTERS=%s: %d cluster(s) on this machine\n",
                   e ? e : "(unset)", nc);
        static double c1[64 * 64];
        char p1[200];
        check(gemm_on(ctxt, P, Q, myr, myc, 29, PUMMA_ALGO_MDB2, 0, c1, p1,
                  sizeof p1) == 0,
              G, "PDGEMM failed");
        Cblacs_gridexit(ctxt);
    }
    if (!all_ok(!group_fail, MPI_COMM_WORLD)) group_fail = group_fail ? group_fail : 1;
    if (me_world == 0) group_end(G);
    else group_fail = 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me_world);
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (me_world == 0) {
        test_clusters();
        test_schedules();
        test_two_level();
        test_shares();
    }
    idle_barrier(MPI_COMM_WORLD);  /* the others sleep meanwhile */
    if (np >= 4) test_grids(np > 64 ? 64 : np - np % 2);
    if (me_world == 0) printf("%d passed, %d failed\n", npass, nfail);
    int f = nfail;
    MPI_Bcast(&f, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return f ? 1 : 0;
}
