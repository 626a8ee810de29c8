/*
 * pumma_reduce_mpi.c -- reduce variant "mpi": MPI_Ireduce (sum) to the root,
 * used to combine the partial products of the transposed algorithms.
 * MPI_SUM takes predefined types only, so a count beyond pumma_count_max
 * (MPI's int) is summed by several MPI_Ireduce, one per piece, all in
 * flight at once (their order is the same on every process).
 *
 * MPI adds the caller's numbers inside these calls: they are data
 * sections (pumma_base.h), so the flags the sums raise are the caller's.
 * (MPI may progress a sum inside another call too; its flags are then
 * dropped with the bookkeeping's.)
 */
#include <stdlib.h>
#include <string.h>
#ifdef PUMMA_SMPI
#include <xbt/config.h>
#endif

#include "pumma_comm.h"

/* The requests of a reduce in pieces (priv): n of them. */
typedef struct pieces { int n; MPI_Request req[]; } pieces_t;

static int start_sum(pumma_coll_t *c)
{
    pumma_jitter();
    c->req[0] = c->req[1] = MPI_REQUEST_NULL;
    c->priv = NULL;
    int me;
    MPI_Comm_rank(c->comm, &me);
    /* MPI picks the tree: count each contribution, once. */
    if (me != c->root) pumma_stats_sent((double)c->count * c->t->size);
    else pumma_stats_recv((double)c->count * c->t->size);
    const void *sbuf = c->buf;
    if (me == c->root && !sbuf) {     /* the root brings no contribution */
        memset(c->rbuf, 0, (size_t)c->count * c->t->size);
        sbuf = MPI_IN_PLACE;
    }
    if (c->count <= pumma_count_max)
        return MPI_Ireduce(sbuf, c->rbuf, (int)c->count, c->dt, MPI_SUM,
                           c->root, c->comm, &c->req[0]) == MPI_SUCCESS
                   ? PUMMA_OK : PUMMA_EMPI;
    const int64_t n = (c->count + pumma_count_max - 1) / pumma_count_max;
    pieces_t *p = malloc(sizeof(pieces_t) + sizeof(MPI_Request) * (size_t)n);
    if (!p) return PUMMA_ENOMEM;
    p->n = (int)n;
    c->priv = p;
    for (int64_t i = 0; i < n; i++) {
        const int64_t at = i * pumma_count_max;
        const int64_t len = c->count - at < pumma_count_max ? c->count - at
                                                            : pumma_count_max;
        const size_t off = (size_t)at * c->t->size;
        const void *s = sbuf == MPI_IN_PLACE ? MPI_IN_PLACE
                                             : (const char *)sbuf + off;
        char *r = c->rbuf ? (char *)c->rbuf + off : NULL;
        if (MPI_Ireduce(s, r, (int)len, c->dt, MPI_SUM, c->root, c->comm,
                        &p->req[i]) != MPI_SUCCESS) {
            p->n = (int)i;           /* wait() completes those posted */
            return PUMMA_EMPI;
        }
    }
    return PUMMA_OK;
}

static int test_sum(pumma_coll_t *c, int *done)
{
    pieces_t *p = c->priv;
    if (!p) return pumma_coll_req_test(c, done);
    return MPI_Testall(p->n, p->req, done, MPI_STATUSES_IGNORE) == MPI_SUCCESS
               ? PUMMA_OK : PUMMA_EMPI;
}

static int wait_sum(pumma_coll_t *c)
{
    pieces_t *p = c->priv;
    if (!p) return pumma_coll_req_wait(c);
    int rc = MPI_Waitall(p->n, p->req, MPI_STATUSES_IGNORE);
    free(p);
    c->priv = NULL;
    return rc == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}
static int start(pumma_coll_t *c)
{
    pumma_fenv_data_begin();
    int rc = start_sum(c);
    pumma_fenv_data_end();
    return rc;
}

static int test(pumma_coll_t *c, int *done)
{
    pumma_fenv_data_begin();
    int rc = test_sum(c, done);
    pumma_fenv_data_end();
    return rc;
}

static int wait(pumma_coll_t *c)
{
    pumma_fenv_data_begin();
    int rc = wait_sum(c);
    pumma_fenv_data_end();
    return rc;
}

int pumma_reduce_mpi_adds(void)
{
#ifdef PUMMA_SMPI
    return sg_cfg_get_boolean("smpi/simulate-computation");
#else
    return 1;
#endif
}

/* A binomial tree (SMPI's MPI_Ireduce, in an SMPI build: a flat one, the
 * root receiving from every other process, colls::ireduce in 3.32), its
 * sums (pumma_reduce_mpi_adds), plus the zeroed contribution of a root
 * that has none and the library's own copy of the message. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    if (np <= 1) return 0;
#ifdef PUMMA_SMPI
    const double steps = np - 1;
#else
    const double steps = pumma_model_log2(np);
#endif
    return steps * (pumma_model_msg(mo, bytes) +
                    (pumma_reduce_mpi_adds() ? pumma_model_copy(mo, bytes, 0)
                                             : 0)) +
           2 * pumma_model_copy(mo, bytes, 0);
}

const pumma_coll_ops_t pumma_reduce_mpi = {
    "mpi", "MPI_Ireduce with MPI_SUM", start, test, wait,
    cost, NULL, NULL, -1, 0};
