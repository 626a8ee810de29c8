/*
 * pumma_smpi_count.c -- the words each process receives, counted in the
 * MPI profiling layer of simulated programs (INSTALL/smpi.mk links it
 * into each): pumma's messages and ScaLAPACK's (its BLACS) alike, so the
 * scaling runs (TIMING/smpi/scaletim.c) compare them by one measure.
 *
 * SMPI declares its MPI_* functions weak; the definitions here come first
 * and pass each call on to PMPI_*.
 *
 * Point-to-point: the bytes each send carries are added to the
 * destination's count (in MPI_COMM_WORLD's ranks), on the sender's side,
 * since a send states its length; pumma_smpi_recv_max sums the counts
 * over the processes. Collectives: the data a process must receive from
 * the others for the operation, whatever algorithm the library uses --
 * a broadcast's count at every process but the root, a reduction's at
 * the root (every process for an all-reduce), the others' contributions
 * to its block of a reduce-scatter, the other processes' parts of a
 * gather, all-gather or all-to-all. That is the measure of the
 * communication lower bounds (a binomial-tree reduce makes its root
 * receive log2(P) copies; the bound counts one).
 *
 *   pumma_smpi_count(1)   zero this process's counts and start counting
 *   pumma_smpi_count(0)   stop
 *   pumma_smpi_recv_max(comm)   collective over comm: the most bytes one
 *                         of its processes received while counting
 */
#include <mpi.h>
#include <stdlib.h>

static int on, world_np = -1;
static double *to;                  /* bytes sent to each world rank */
static double mine;                 /* bytes received in collectives */
static MPI_Group world;

static void setup(void)
{
    if (world_np >= 0) return;
    PMPI_Comm_size(MPI_COMM_WORLD, &world_np);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    to = calloc((size_t)world_np, sizeof *to);
}

void pumma_smpi_count(int start)
{
    setup();
    if (start) {
        for (int i = 0; i < world_np; i++) to[i] = 0;
        mine = 0;
    }
    on = start;
}

static double bytes(int count, MPI_Datatype t)
{
    int size;
    PMPI_Type_size(t, &size);
    return (double)count * size;
}

static void sent(int count, MPI_Datatype t, int dst, MPI_Comm comm)
{
    if (!on || dst == MPI_PROC_NULL || !to) return;
    MPI_Group g;
    int w;
    PMPI_Comm_group(comm, &g);
    PMPI_Group_translate_ranks(g, 1, &dst, world, &w);
    PMPI_Group_free(&g);
    if (w >= 0 && w < world_np) to[w] += bytes(count, t);
}

static int rank(MPI_Comm comm)
{
    int r;
    PMPI_Comm_rank(comm, &r);
    return r;
}

static int size(MPI_Comm comm)
{
    int n;
    PMPI_Comm_size(comm, &n);
    return n;
}

double pumma_smpi_recv_max(MPI_Comm comm)
{
    setup();
    const int me = rank(comm);
    double *all = malloc(sizeof(double) * (size_t)world_np);
    PMPI_Allreduce(to, all, world_np, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Group g;
    int w;
    PMPI_Comm_group(comm, &g);
    PMPI_Group_translate_ranks(g, 1, &me, world, &w);
    PMPI_Group_free(&g);
    double got = all[w] + mine, most;
    free(all);
    PMPI_Allreduce(&got, &most, 1, MPI_DOUBLE, MPI_MAX, comm);
    return most;
}

/* ---------------------------------------------------------- point to point */

int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m)
{
    sent(c, t, d, m);
    return PMPI_Send(b, c, t, d, tag, m);
}

int MPI_Ssend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m)
{
    sent(c, t, d, m);
    return PMPI_Ssend(b, c, t, d, tag, m);
}

int MPI_Rsend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m)
{
    sent(c, t, d, m);
    return PMPI_Rsend(b, c, t, d, tag, m);
}

int MPI_Isend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m,
              MPI_Request *r)
{
    sent(c, t, d, m);
    return PMPI_Isend(b, c, t, d, tag, m, r);
}

int MPI_Issend(const void *b, int c, MPI_Datatype t, int d, int tag,
               MPI_Comm m, MPI_Request *r)
{
    sent(c, t, d, m);
    return PMPI_Issend(b, c, t, d, tag, m, r);
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int d, int stag,
                 void *rb, int rc, MPI_Datatype rt, int s, int rtag,
                 MPI_Comm m, MPI_Status *status)
{
    sent(sc, st, d, m);
    return PMPI_Sendrecv(sb, sc, st, d, stag, rb, rc, rt, s, rtag, m, status);
}

int MPI_Sendrecv_replace(void *b, int c, MPI_Datatype t, int d, int stag,
                         int s, int rtag, MPI_Comm m, MPI_Status *status)
{
    sent(c, t, d, m);
    return PMPI_Sendrecv_replace(b, c, t, d, stag, s, rtag, m, status);
}

/* ------------------------------------------------------------- collectives */

static void got(double b)
{
    if (on) mine += b;
}

int MPI_Bcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm m)
{
    if (rank(m) != root) got(bytes(c, t));
    return PMPI_Bcast(b, c, t, root, m);
}

int MPI_Ibcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm m,
               MPI_Request *r)
{
    if (rank(m) != root) got(bytes(c, t));
    return PMPI_Ibcast(b, c, t, root, m, r);
}

int MPI_Reduce(const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op,
               int root, MPI_Comm m)
{
    if (rank(m) == root && size(m) > 1) got(bytes(c, t));
    return PMPI_Reduce(sb, rb, c, t, op, root, m);
}

int MPI_Ireduce(const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op,
                int root, MPI_Comm m, MPI_Request *r)
{
    if (rank(m) == root && size(m) > 1) got(bytes(c, t));
    return PMPI_Ireduce(sb, rb, c, t, op, root, m, r);
}

int MPI_Allreduce(const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op,
                  MPI_Comm m)
{
    if (size(m) > 1) got(bytes(c, t));
    return PMPI_Allreduce(sb, rb, c, t, op, m);
}

/* A reduce-scatter: each process's block from each other process (the
 * per-process measure any schedule needs at most once summed elsewhere;
 * COSMA sums its layers' partial C so). */
int MPI_Reduce_scatter(const void *sb, void *rb, const int *rc,
                       MPI_Datatype t, MPI_Op op, MPI_Comm m)
{
    got(bytes(rc[rank(m)], t) * (size(m) - 1));
    return PMPI_Reduce_scatter(sb, rb, rc, t, op, m);
}

int MPI_Reduce_scatter_block(const void *sb, void *rb, int rc, MPI_Datatype t,
                             MPI_Op op, MPI_Comm m)
{
    got(bytes(rc, t) * (size(m) - 1));
    return PMPI_Reduce_scatter_block(sb, rb, rc, t, op, m);
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, MPI_Comm m)
{
    got(bytes(rc, rt) * (size(m) - 1));
    return PMPI_Allgather(sb, sc, st, rb, rc, rt, m);
}

int MPI_Iallgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                   MPI_Datatype rt, MPI_Comm m, MPI_Request *r)
{
    got(bytes(rc, rt) * (size(m) - 1));
    return PMPI_Iallgather(sb, sc, st, rb, rc, rt, m, r);
}

/* The others' parts (split and layers gather their steps' blocks so). */
static double others(const int *rc, MPI_Datatype rt, MPI_Comm m)
{
    const int me = rank(m), n = size(m);
    double b = 0;
    for (int i = 0; i < n; i++)
        if (i != me) b += bytes(rc[i], rt);
    return b;
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
                   const int *rc, const int *rd, MPI_Datatype rt, MPI_Comm m)
{
    got(others(rc, rt, m));
    return PMPI_Allgatherv(sb, sc, st, rb, rc, rd, rt, m);
}

int MPI_Iallgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
                    const int *rc, const int *rd, MPI_Datatype rt, MPI_Comm m,
                    MPI_Request *r)
{
    got(others(rc, rt, m));
    return PMPI_Iallgatherv(sb, sc, st, rb, rc, rd, rt, m, r);
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
               MPI_Datatype rt, int root, MPI_Comm m)
{
    if (rank(m) == root) got(bytes(rc, rt) * (size(m) - 1));
    return PMPI_Gather(sb, sc, st, rb, rc, rt, root, m);
}

int MPI_Alltoallv(const void *sb, const int *sc, const int *sd,
                  MPI_Datatype st, void *rb, const int *rc, const int *rd,
                  MPI_Datatype rt, MPI_Comm m)
{
    got(others(rc, rt, m));
    return PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, m);
}
