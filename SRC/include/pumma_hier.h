/*
 * pumma_hier.h -- grids that span clusters (not installed): logical
 * clusters of processes (pumma_clusters.c) and the schedules that cross
 * between them (pumma_ecef.c).
 *
 * A platform of several clusters (machine rooms, sites) has links of two
 * kinds: fast inside a cluster, slow (milliseconds, a tenth of the
 * bandwidth) between clusters. A broadcast that does not know it crosses
 * the slow links many times; one that does sends the message once to one
 * process of each cluster (its coordinator), on a schedule built for the
 * slow links, and each coordinator then broadcasts inside its cluster
 * with the variant best there (Nasri, Steffenel and Trystram 2007,
 * section 4.3).
 */
#ifndef PUMMA_HIER_H
#define PUMMA_HIER_H

#include "pumma_internal.h"

/*
 * pumma_clusters_group: logical clusters of n processes from their
 * latency matrix, as Nasri, Steffenel and Trystram 2007 (section 3.3) group
 * the nodes of a grid after Lowekamp and Beguelin's ECO: processes go
 * together when every link among them has about the same latency.
 *   n      (input) number of processes, >= 1.
 *   lat    (input) n x n, lat[i*n+j] the latency (seconds) between i and
 *          j; read above the diagonal only (i < j).
 *   bound  (input) the spread allowed inside a cluster: its largest link
 *          at most (1 + bound) times its smallest (Nasri, Steffenel and
 *          Trystram 2007: 0.2).
 *   floor  (input) latencies below it count as `floor` (seconds; 0:
 *          none): links of a few microseconds differ by more than 20% in
 *          noise alone, and are one cluster's.
 *   cl     (output) cl[i] the cluster of process i, numbered from 0 in the
 *          order of their first members.
 * Links are taken from the fastest up; each joins the clusters at its two
 * ends when the union still keeps the bound and the link is within it of
 * each end's own fastest link. Returns the number of clusters, or -1
 * when out of memory.
 */
int pumma_clusters_group(int n, const double *lat, double bound, double floor,
                         int *cl);

/*
 * A grid's clusters (pumma_clusters.c), found once per grid at its first
 * P?GEMM when PUMMA_CLUSTERS asks (or set by PUMMA_GRID_CLUSTERS), with
 * what the schedules price: between every two clusters the latency and
 * the seconds per byte measured between their coordinators, inside each
 * the model of its own links (alpha and beta measured between two of its
 * members; the grid's model otherwise).
 */
typedef struct pumma_hier_line {
    int n, nc;               /* ranks on the line, clusters among them */
    int *cl;                 /* [n]: a rank's cluster (line numbering) */
    int *size, *coord, *gcl; /* [nc]: members, coordinator (the lowest
                                rank), the grid's number of the cluster */
    int *sub_rank;           /* [n]: a rank's rank in its cluster's sub */
    MPI_Comm sub;            /* my cluster's members on this line */
    const struct pumma_hier_grid *h;
} pumma_hier_line_t;

typedef struct pumma_hier_grid {
    int nc;                  /* clusters on the grid (>= 2) */
    int *cluster;            /* [nprow*npcol]: a grid position's */
    double *lat, *beta;      /* [nc*nc]: latency (s), s per byte, a to b */
    pumma_model_t *inside;   /* [nc]: each cluster's model */
    pumma_hier_line_t row[PUMMA_GRID_EPOCHS], col[PUMMA_GRID_EPOCHS];
} pumma_hier_grid_t;

/* The grid's clusters, found on first use (collective over g->all: every
 * process of the grid calls it at the same point); NULL when the grid is
 * one cluster or PUMMA_CLUSTERS is unset. Stops the program (pumma_fatal)
 * when MPI fails. */
const pumma_hier_grid_t *pumma_grid_hier(const pumma_grid_t *g);
/* The clusters of comm (the current call's g->row or g->col), NULL when
 * it lies in one. */
const pumma_hier_line_t *pumma_hier_line_of(const pumma_grid_t *g,
                                            MPI_Comm comm);
void pumma_hier_free(pumma_hier_grid_t *h);
/* One line of h's grid: comm's n ranks (gc[r]: the grid's cluster of
 * rank r; me: my rank), its clusters numbered by first member, and my
 * cluster's communicator (collective over comm when they are several).
 * PUMMA_OK, PUMMA_ENOMEM or PUMMA_EMPI; line_free undoes it. */
int pumma_hier_line_make(pumma_hier_line_t *L, const pumma_hier_grid_t *h,
                         MPI_Comm comm, int n, const int *gc, int me);
void pumma_hier_line_free(pumma_hier_line_t *L);
/* Set from cluster numbers per grid position (collective like
 * pumma_grid_hier): measures the links between them. */
int pumma_hier_set(pumma_grid_t *g, const int *cluster);

/* The two-level broadcast and reduce (pumma_bcast_hier.c,
 * pumma_reduce_hier.c), and their plan (pumma_hier_plan.c): of `bytes` from (to) line rank
 * root on L, the schedule between clusters (parent[] and order[] over the
 * line's clusters, their coordinators in coord[]; a reduce runs it
 * backwards), the variant of table op inside each (local[]), the
 * heuristic (*chosen; kind 0: the best predicted of the three) and the
 * predicted time, returned (-1: out of memory). Every process computes
 * the same. */
extern const pumma_coll_ops_t pumma_bcast_hier, pumma_reduce_hier;
double pumma_hier_plan(pumma_table_kind_t op, const pumma_hier_line_t *L,
                       int root, double bytes, int kind, int *parent,
                       int *order, int *coord,
                       const pumma_coll_ops_t **local, int *chosen);
/* One process's part in the plan of a collective of `bytes` from (to)
 * line rank root, for rank me of L: whether it coordinates its cluster,
 * its parent (-1: none) and children (kids[nk], sending order) between
 * clusters, its cluster's coordinator in L->sub and variant inside, and
 * whether its cluster is itself alone. PUMMA_OK or PUMMA_ENOMEM;
 * role_free frees kids. */
typedef struct pumma_hier_role {
    int coordinator, parent, nk, *kids, sub_root, alone;
    const pumma_coll_ops_t *local;
} pumma_hier_role_t;
int pumma_hier_role(pumma_table_kind_t op, const pumma_hier_line_t *L,
                    int root, int me, double bytes, pumma_hier_role_t *r);
void pumma_hier_role_free(pumma_hier_role_t *r);
/* The variant of table op the model mo prices fastest for np processes
 * and `bytes` (neither auto nor hier); *t its time (0 for one process). */
const pumma_coll_ops_t *pumma_hier_fastest(pumma_table_kind_t op,
                                           const pumma_model_t *mo, int np,
                                           double bytes, double *t);
/* The heuristic of the next hier collectives: kind (0: the best
 * predicted) over PUMMA_HIER_SCHEDULE; -1 gives the choice back. For
 * timing each in one run (TIMING/hiertim.c). pumma_hier_schedule: the
 * kind in force. */
void pumma_hier_schedule_set(int kind);
int pumma_hier_schedule(void);

/* The inter-cluster schedules (pumma_ecef.c). */
enum {
    PUMMA_ECEF = 1,      /* Early Completion Edge First (Bhat et al.) */
    PUMMA_ECEF_LA = 2,   /* ... with a look-ahead at the receiver's next edge */
    PUMMA_ECEF_LAT = 3   /* ... with the receiver cluster's own broadcast */
};

/*
 * pumma_ecef: a broadcast schedule among nc clusters' coordinators,
 * grown one transfer at a time by the heuristic `kind`. With RT_i the
 * time sender i is free again (a sender is busy g_ij(m) per message, the
 * receiver holds it L_ij later), each step takes the pair (i informed, j
 * not) that minimises
 *   ECEF       RT_i + g_ij + L_ij
 *   ECEF-LA    RT_i + g_ij + L_ij + min_{k not informed, k != j} (g_jk + L_jk)
 *   ECEF-LAt   RT_i + g_ij + L_ij + T_j
 * (ties: the lower i, then the lower j); then j holds the message at
 * RT_i + g_ij + L_ij and RT_i grows by g_ij.
 *   nc      (input) clusters, >= 1; root (input) the one holding the message.
 *   L, g    (input) nc x nc: latency and gap (seconds, for this message)
 *           of the link from i to j at [i*nc+j].
 *   T       (input) nc: each cluster's own broadcast from its coordinator
 *           (seconds; 0 for a cluster of one); NULL: all 0.
 *   parent  (output) nc: who sends to j (-1 at the root).
 *   order   (output) nc: the clusters in the order they are reached
 *           (order[0] = root); a sender sends to its children in this order.
 *   arrive  (output) nc: when j's coordinator holds the message (root 0).
 * Returns the predicted completion, max_j (arrive_j + T_j): a coordinator
 * broadcasts in its cluster as soon as it holds the message, while it
 * still forwards it to other clusters (the slow link is not its own).
 */
double pumma_ecef(int kind, int nc, int root, const double *L,
                  const double *g, const double *T, int *parent, int *order,
                  double *arrive);

/* The heuristic's name ("ecef", "ecef-la", "ecef-lat"); pumma_ecef_kind
 * the reverse (0: none of them). */
const char *pumma_ecef_name(int kind);
int pumma_ecef_kind(const char *name);

#endif
