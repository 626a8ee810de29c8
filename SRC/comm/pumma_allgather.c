/*
 * pumma_allgather.c -- an all-gather along a communicator in Bruck's
 * order (Bruck et al., IEEE TPDS 1997), non-blocking, advanced by test()
 * at the local multiply's progress points: the cube's gathers of a step's
 * blocks along its lines (SRC/algo/pumma_cube.c).
 *
 * Round r (d = 1, 2, 4, ...): each process sends the s = min(d, q - d)
 * pieces it has from its own on (me, me+1, ... mod q) to me - d, and
 * receives me+d ... me+d+s-1 from me + d. After ceil(log2 q) rounds each
 * has every piece. Pieces lie in rank order one after another in the
 * buffer, so a run of them is one message, or two where it wraps past
 * q - 1: at most two messages each way a round. MPI_Iallgatherv instead
 * is one message from each other process at once in Open MPI's libnbc
 * and in SimGrid's SMPI: q - 1 concurrent flows a process, which on a
 * 256-rank simulated cube (lines of 16) made SMPI 50 times slower than a
 * 2D plan's broadcasts, and makes an incast on any network.
 */
#include "pumma_comm.h"

/* The run of s pieces from piece a (mod q): its first element and
 * count, the second run's in [1] (count 0 when it does not wrap). */
static void runs(const pumma_allgather_t *g, int a, int s, int at[2],
                 int n[2])
{
    const int q = g->q;
    a %= q;
    const int first = a + s <= q ? s : q - a;
    at[0] = g->dsp[a];
    n[0] = g->dsp[a + first - 1] + g->cnt[a + first - 1] - at[0];
    at[1] = g->dsp[0];
    n[1] = first < s ? g->dsp[s - first - 1] + g->cnt[s - first - 1] - at[1]
                     : 0;
}

/* Post the round that brings the pieces after the `have` I hold. */
static int post(pumma_allgather_t *g)
{
    const int q = g->q, d = g->have, s = d < q - d ? d : q - d;
    const int to = (g->me - d + q) % q, from = (g->me + d) % q;
    int sa[2], sn[2], ra[2], rn[2];
    runs(g, g->me, s, sa, sn);
    runs(g, g->me + d, s, ra, rn);
    g->nreq = 0;
    for (int x = 0; x < 2; x++) {
        const int tag = g->tag + 2 * g->round + x;
        if (rn[x] > 0 &&
            MPI_Irecv(g->buf + (size_t)ra[x] * g->esize, rn[x], g->type, from,
                      tag, g->comm, &g->req[g->nreq++]) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (sn[x] > 0 &&
            MPI_Isend(g->buf + (size_t)sa[x] * g->esize, sn[x], g->type, to,
                      tag, g->comm, &g->req[g->nreq++]) != MPI_SUCCESS)
            return PUMMA_EMPI;
    }
    g->have += s;
    g->round++;
    return PUMMA_OK;
}

int pumma_allgather_start(pumma_allgather_t *g, void *buf, const int *cnt,
                          const int *dsp, MPI_Datatype type, size_t esize,
                          MPI_Comm comm, int tag)
{
    g->buf = buf;
    g->cnt = cnt;
    g->dsp = dsp;
    g->type = type;
    g->esize = esize;
    g->comm = comm;
    g->tag = tag;
    g->have = 1;
    g->round = 0;
    g->nreq = 0;
    if (MPI_Comm_size(comm, &g->q) != MPI_SUCCESS ||
        MPI_Comm_rank(comm, &g->me) != MPI_SUCCESS)
        return PUMMA_EMPI;
    return g->have < g->q ? post(g) : PUMMA_OK;
}

/* Rounds finished in turn, the next posted as each ends: all of them
 * (block), or while the last one posted is already done. */
static int advance(pumma_allgather_t *g, int block)
{
    for (;;) {
        int flag = 1;
        MPI_Status *st = MPI_STATUSES_IGNORE;
        const int rc = g->nreq == 0 ? MPI_SUCCESS
                       : block ? MPI_Waitall(g->nreq, g->req, st)
                               : MPI_Testall(g->nreq, g->req, &flag, st);
        if (rc != MPI_SUCCESS) return PUMMA_EMPI;
        if (!flag) return PUMMA_OK;
        g->nreq = 0;
        if (g->have >= g->q) return PUMMA_OK;
        const int prc = post(g);
        if (prc) return prc;
    }
}

int pumma_allgather_test(pumma_allgather_t *g, int *done)
{
    const int rc = advance(g, 0);
    *done = g->nreq == 0 && g->have >= g->q;
    return rc;
}

int pumma_allgather_wait(pumma_allgather_t *g)
{
    return advance(g, 1);
}
