/*
 * pumma_hier_plan.c -- the plan of the two-level collectives (hier
 * broadcast and reduce, pumma_bcast_hier.c and pumma_reduce_hier.c): the
 * schedule between a line's clusters (pumma_ecef.c), each cluster's
 * variant inside, and what one process does in it (its role). Every
 * process of the line computes the same plan from the same measured
 * links (pumma_clusters.c).
 *
 * A broadcast's schedule is priced as the engine runs it
 * (pumma_hier_eval): a coordinator's sends to other clusters and its own
 * cluster's broadcast leave together and share its link. On SimGrid's
 * sites platform (4 sites of 8, 1 Gbps LAN and WAN) pumma_ecef's
 * one-after-another time missed 1 MiB broadcasts by half (48 ms
 * predicted, 100 simulated): the root's two sends between sites and its
 * pipeline inside each went at a third of its link. A reduce keeps
 * pumma_ecef's time (its schedule runs backwards, into the parents'
 * links; not judged yet).
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"

/* The variant of table op that the model mo prices fastest for np
 * processes and `bytes` (not auto, not hier); *t its time. */
const pumma_coll_ops_t *pumma_hier_fastest(pumma_table_kind_t op,
                                           const pumma_model_t *mo, int np,
                                           double bytes, double *t)
{
    const pumma_coll_ops_t *v, *best = pumma_comm_at(op, 0);
    *t = np > 1 ? best->cost(mo, np, bytes, 0) : 0;
    for (int i = 0; np > 1 && (v = pumma_comm_at(op, i)); i++) {
        if (!v->cost || v->asked_only || strcmp(v->name, "hier") == 0)
            continue;
        double c = v->cost(mo, np, bytes, 0);
        if (c < *t) {
            *t = c;
            best = v;
        }
    }
    return best;
}

const pumma_coll_ops_t *pumma_hier_single(pumma_table_kind_t op, int dec)
{
    if (dec) return op == PUMMA_BCAST_TABLE ? &pumma_bcast_auto
                                            : &pumma_reduce_auto;
    return op == PUMMA_BCAST_TABLE
               ? pumma_comm_find(PUMMA_BCAST_TABLE, "binomial")
               : pumma_comm_at(PUMMA_REDUCE_TABLE, 0);
}

static int forced = -1;       /* pumma_hier_schedule_set's */
void pumma_hier_schedule_set(int kind) { forced = kind; }

/* The heuristic to use: pumma_hier_schedule_set's, else
 * PUMMA_HIER_SCHEDULE (pumma_settings.c): 0 (auto) or a pumma_ecef kind. */
int pumma_hier_schedule(void)
{
    if (forced >= 0) return forced;
    return pumma_ecef_kind(
        pumma_setting(PUMMA_SET_HIER_SCHEDULE)->hier_schedule);
}

/* pumma_hier_plan: see pumma_comm.h. */
double pumma_hier_plan(pumma_table_kind_t op, const pumma_hier_line_t *L,
                       int root, double bytes, int kind, int *parent,
                       int *order, int *coord,
                       const pumma_coll_ops_t **local, int *chosen)
{
    const int nc = L->nc;
    const pumma_hier_grid_t *h = L->h;
    double *Lt = malloc(sizeof(double) * (size_t)(2 * nc * nc + 2 * nc));
    if (!Lt) return -1;
    double *g = Lt + nc * nc, *T = g + nc * nc, *arrive = T + nc;
    for (int a = 0; a < nc; a++) {
        for (int b = 0; b < nc; b++) {
            const int ga = L->gcl[a], gb = L->gcl[b];
            Lt[a * nc + b] = a == b ? 0 : h->lat[ga * h->nc + gb];
            g[a * nc + b] = a == b ? 0 : bytes * h->beta[ga * h->nc + gb];
        }
        local[a] = pumma_hier_fastest(op, &h->inside[L->gcl[a]], L->size[a],
                                      bytes, &T[a]);
        coord[a] = L->coord[a];
    }
    coord[L->cl[root]] = root;
    /* each coordinator's link, and the sends its variant inside makes
     * from it (its children in its tree; MPI's own: taken as one) */
    double *port = malloc(sizeof(double) * (size_t)nc);
    int *nloc = malloc(sizeof(int) * (size_t)nc), most = 1;
    for (int a = 0; a < nc; a++)
        if (L->size[a] > most) most = L->size[a];
    int *kids = malloc(sizeof(int) * (size_t)most), up;
    for (int a = 0; port && nloc && kids && a < nc; a++) {
        port[a] = h->inside[L->gcl[a]].beta;
        nloc[a] = L->size[a] < 2 ? 0
                  : local[a]->shape ? local[a]->shape(L->size[a], 0, 0, &up, kids)
                                    : 1;
    }
    const int fluid = op == PUMMA_BCAST_TABLE && port && nloc && kids;
    double best = -1;
    int *p = malloc(sizeof(int) * 2 * (size_t)nc), *o = p ? p + nc : NULL;
    for (int k = PUMMA_ECEF; p && k <= PUMMA_ECEF_LAT; k++) {
        if (kind && k != kind) continue;
        double t = pumma_ecef(k, nc, L->cl[root], Lt, g, T, p, o, arrive);
        if (fluid)
            t = pumma_hier_eval(nc, L->cl[root], p, o, Lt, g, T, port, nloc,
                                bytes, arrive);
        if (best < 0 || t < best) {
            best = t;
            *chosen = k;
            memcpy(parent, p, sizeof(int) * (size_t)nc);
            memcpy(order, o, sizeof(int) * (size_t)nc);
        }
    }
    free(p);
    free(Lt);
    free(port);
    free(nloc);
    free(kids);
    return best;
}

int pumma_hier_role(pumma_table_kind_t op, const pumma_hier_line_t *L,
                    int root, int me, double bytes, pumma_hier_role_t *r)
{
    const int nc = L->nc;
    memset(r, 0, sizeof *r);
    int *w = malloc(sizeof(int) * (size_t)(3 * nc));
    const pumma_coll_ops_t **local = malloc(sizeof(*local) * (size_t)nc);
    r->kids = malloc(sizeof(int) * (size_t)nc);
    int chosen = 0, rc = w && local && r->kids ? PUMMA_OK : PUMMA_ENOMEM;
    int *parent = w, *order = w + nc, *coord = w + 2 * nc;
    if (!rc && pumma_hier_plan(op, L, root, bytes, pumma_hier_schedule(),
                               parent, order, coord, local, &chosen) < 0)
        rc = PUMMA_ENOMEM;
    if (!rc) {
        const int mine = L->cl[me];
        r->local = local[mine];
        r->coordinator = coord[mine] == me;
        r->alone = L->size[mine] == 1;
        r->sub_root = L->sub_rank[coord[mine]];
        /* between clusters: my parent's and my children's coordinators,
         * the children in the order the schedule reached them */
        r->parent = parent[mine] < 0 ? -1 : coord[parent[mine]];
        for (int i = 1; i < nc; i++)
            if (parent[order[i]] == mine) r->kids[r->nk++] = coord[order[i]];
    }
    free(w);
    free(local);
    if (rc) pumma_hier_role_free(r);
    return rc;
}

void pumma_hier_role_free(pumma_hier_role_t *r)
{
    free(r->kids);
    r->kids = NULL;
    r->nk = 0;
}
