/*
 * pumma_ecef.c -- broadcast schedules between clusters (pumma_comm.h):
 * Early Completion Edge First and its look-aheads.
 *
 * ECEF and ECEF-LA are Bhat, Raghavendra and Prasanna's heuristics for
 * heterogeneous networks (ICDCS 1999): every step sends the message over
 * the edge that would complete first, counting the time its sender becomes
 * free; the look-ahead adds the receiver's best edge onward, so a
 * well-connected receiver goes early. ECEF-LAt (Barchet-Estefanel and
 * Mounie, the hierarchical schedule Nasri, Steffenel and Trystram 2007
 * build on) adds instead the receiver cluster's own broadcast, the time it
 * needs once reached. Each is cheap (nc^3 per schedule for nc clusters, a
 * handful in practice).
 */
#include <string.h>

#include "pumma_comm.h"

static const char *const names[] = {NULL, "ecef", "ecef-la", "ecef-lat"};

const char *pumma_ecef_name(int kind)
{
    return kind >= PUMMA_ECEF && kind <= PUMMA_ECEF_LAT ? names[kind] : "-";
}

int pumma_ecef_kind(const char *name)
{
    for (int k = PUMMA_ECEF; k <= PUMMA_ECEF_LAT; k++)
        if (name && pumma_name_eq(name, names[k])) return k;
    return 0;
}

double pumma_ecef(int kind, int nc, int root, const double *L,
                  const double *g, const double *T, int *parent, int *order,
                  double *arrive)
{
    /* ready[i]: when i may start its next send; informed: arrive >= 0 */
    double ready[nc > 0 ? nc : 1];
    for (int j = 0; j < nc; j++) {
        parent[j] = -1;
        arrive[j] = -1;
        ready[j] = 0;
    }
    arrive[root] = 0;
    order[0] = root;
    for (int step = 1; step < nc; step++) {
        int bi = -1, bj = -1;
        double best = 0;
        for (int i = 0; i < nc; i++) {
            if (arrive[i] < 0) continue;
            for (int j = 0; j < nc; j++) {
                if (arrive[j] >= 0) continue;
                double t = ready[i] + g[i * nc + j] + L[i * nc + j];
                if (kind == PUMMA_ECEF_LA) {
                    double ahead = -1;          /* none left after j: 0 */
                    for (int k = 0; k < nc; k++)
                        if (arrive[k] < 0 && k != j &&
                            (ahead < 0 || g[j * nc + k] + L[j * nc + k] < ahead))
                            ahead = g[j * nc + k] + L[j * nc + k];
                    t += ahead > 0 ? ahead : 0;
                } else if (kind == PUMMA_ECEF_LAT && T) {
                    t += T[j];
                }
                if (bi < 0 || t < best) {
                    best = t;
                    bi = i;
                    bj = j;
                }
            }
        }
        arrive[bj] = ready[bi] + g[bi * nc + bj] + L[bi * nc + bj];
        ready[bi] += g[bi * nc + bj];
        ready[bj] = arrive[bj];
        parent[bj] = bi;
        order[step] = bj;
    }
    double done = 0;
    for (int j = 0; j < nc; j++) {
        const double t = arrive[j] + (T ? T[j] : 0);
        if (t > done) done = t;
    }
    return done;
}

/* pumma_link_share: see pumma_comm.h. Progressive filling: the flows
 * capped below an equal share of what is left take their caps, the rest
 * share the remainder equally; at each completion the shares are made
 * again. */
void pumma_link_share(int n, double bytes, double cap, const double *rate,
                      double *fin)
{
    if (n <= 0) return;
    double left[n], r[n];
    int live[n], alive = n;
    for (int k = 0; k < n; k++) {
        left[k] = bytes;
        live[k] = 1;
        fin[k] = 0;
    }
    if (bytes <= 0) return;
    double t = 0;
    while (alive > 0) {
        double c = cap;
        int m = alive;
        for (int k = 0; k < n; k++) r[k] = -1;
        for (int changed = 1; changed && m > 0;) {
            changed = 0;
            for (int k = 0; k < n; k++)
                if (live[k] && r[k] < 0 && rate[k] <= c / m) {
                    r[k] = rate[k];
                    c -= rate[k];
                    m--;
                    changed = 1;
                }
        }
        double dt = -1;
        for (int k = 0; k < n; k++) {
            if (!live[k]) continue;
            if (r[k] < 0) r[k] = c / m;
            const double d = r[k] > 0 ? left[k] / r[k] : 1e300;
            if (dt < 0 || d < dt) dt = d;
        }
        t += dt;
        for (int k = 0; k < n; k++) {
            if (!live[k]) continue;
            left[k] -= r[k] * dt;
            if (left[k] <= 1e-9 * bytes) {
                live[k] = 0;
                fin[k] = t;
                alive--;
            }
        }
    }
}

/* pumma_hier_eval: see pumma_comm.h. */
double pumma_hier_eval(int nc, int root, const int *parent, const int *order,
                       const double *L, const double *g, const double *T,
                       const double *port, const int *nloc, double bytes,
                       double *arrive)
{
    double done = 0;
    double rate[nc + 64 > 0 ? nc + 64 : 1], fin[nc + 64 > 0 ? nc + 64 : 1];
    int to[nc > 0 ? nc : 1];
    for (int j = 0; j < nc; j++) arrive[j] = -1;
    arrive[root] = 0;
    for (int s = 0; s < nc; s++) {
        const int a = order[s];
        /* a's flows: its children between clusters, in the schedule's
         * order, then its variant's sends inside from the coordinator */
        int n = 0;
        for (int i = 1; i < nc; i++)
            if (parent[order[i]] == a) {
                const int b = order[i];
                to[n] = b;
                rate[n++] = g[a * nc + b] > 0 ? bytes / g[a * nc + b] : 1e300;
            }
        const int nk = n, nl = !nloc ? 0 : nloc[a] < 64 ? nloc[a] : 63;
        const double cap = port && port[a] > 0 ? 1 / port[a] : 1e300;
        for (int i = 0; i < nl; i++) rate[n++] = cap;
        pumma_link_share(n, bytes, cap, rate, fin);
        for (int i = 0; i < nk; i++)
            arrive[to[i]] = arrive[a] + fin[i] + L[a * nc + to[i]];
        /* inside: the variant's own time, later by as much as sharing
         * the link delays the coordinator's sends in it beyond their own
         * one after another */
        double late = 0;
        for (int i = nk; i < n; i++)
            if (fin[i] > late) late = fin[i];
        late -= nl * bytes * (port ? port[a] : 0);
        const double c = arrive[a] + (T ? T[a] : 0) + (late > 0 ? late : 0);
        if (c > done) done = c;
        if (arrive[a] > done) done = arrive[a];
    }
    return done;
}
