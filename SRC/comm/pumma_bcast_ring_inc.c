/*
 * pumma_bcast_ring_inc.c -- broadcast variant "ring-inc": the increasing ring
 * of the original MDB2 (PUMMA section 4.3). The root sends to rank+1, each
 * process receives from rank-1 and forwards to rank+1, the last one (root-1)
 * only receives. test() forwards as soon as the message is in, so a process
 * that polls between panels of its multiply keeps the ring moving.
 */
#include "pumma_comm.h"

enum { POSTED = 0, FORWARDED = 1, DONE = 2 };

static int start(pumma_coll_t *c)
{
    int me, np;
    MPI_Comm_rank(c->comm, &me);
    MPI_Comm_size(c->comm, &np);
    c->req[0] = c->req[1] = MPI_REQUEST_NULL;
    c->state = POSTED;
    if (np == 1) {
        c->state = DONE;
        return PUMMA_OK;
    }
    int next = (me + 1) % np, prev = (me - 1 + np) % np;
    int rc;
    if (me == c->root) {
        rc = pumma_isend(c->buf, c->count, c->dt, next, c->tag, c->comm,
                       &c->req[1]);
        c->state = FORWARDED;
    } else {
        rc = pumma_irecv(c->buf, c->count, c->dt, prev, c->tag, c->comm,
                         &c->req[0]);
    }
    return rc == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}

/* Forward once the message has arrived (unless we are the ring's end). */
static int forward(pumma_coll_t *c)
{
    int me, np;
    MPI_Comm_rank(c->comm, &me);
    MPI_Comm_size(c->comm, &np);
    int next = (me + 1) % np;
    c->state = FORWARDED;
    if (next == c->root) return PUMMA_OK;
    return pumma_isend(c->buf, c->count, c->dt, next, c->tag, c->comm,
                     &c->req[1]) == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}

static int test(pumma_coll_t *c, int *done)
{
    int flag = 1;
    *done = 0;
    if (c->state == DONE) { *done = 1; return PUMMA_OK; }
    if (c->state == POSTED) {
        if (MPI_Test(&c->req[0], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (!flag) return PUMMA_OK;
        if (forward(c) != PUMMA_OK) return PUMMA_EMPI;
    }
    if (MPI_Test(&c->req[1], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return PUMMA_EMPI;
    if (flag) { c->state = DONE; *done = 1; }
    return PUMMA_OK;
}

static int wait(pumma_coll_t *c)
{
    if (c->state == DONE) return PUMMA_OK;
    if (c->state == POSTED) {
        if (MPI_Wait(&c->req[0], MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (forward(c) != PUMMA_OK) return PUMMA_EMPI;
    }
    if (MPI_Wait(&c->req[1], MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return PUMMA_EMPI;
    c->state = DONE;
    return PUMMA_OK;
}

/* The last process receives after np-1 hops. */
static double cost(const pumma_model_t *mo, int np, double bytes, double seg)
{
    (void)seg;
    return (np - 1) * pumma_model_msg(mo, bytes);
}

const pumma_coll_ops_t pumma_bcast_ring_inc = {
    "ring-inc", "increasing ring, forwarded as soon as received", start, test,
    wait,
    cost, NULL, pumma_chain_shape, -1};
