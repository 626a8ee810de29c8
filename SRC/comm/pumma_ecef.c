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
