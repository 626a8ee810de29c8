/*
 * pumma_shift_oddeven.c -- shift variant "oddeven" (PUMMA Fig. 21(b)): the
 * roll in two steps. First odd-numbered processes send while even ones
 * receive, then even ones send while odd ones receive, so a process never
 * sends and receives at once (on the Delta's mesh this beat the
 * simultaneous shift). A message moves in the step of its sender's parity.
 * On a ring of odd length the last process and process 0 are both even and
 * exchange in step two: the one place a process does both. On one process
 * the message goes to itself.
 *
 * start() posts step one and all receives (a posted receive moves nothing
 * by itself); wait() lets an even process send only once its step-one
 * receive is in, which is what keeps the steps apart. So step two does not
 * overlap the caller's computation, as it would not on the Delta either.
 */
#include "pumma_comm.h"

static int start(pumma_shift_t *s)
{
    int me;
    if (MPI_Comm_rank(s->comm, &me) != MPI_SUCCESS) return PUMMA_EMPI;
    s->req[0] = s->req[1] = MPI_REQUEST_NULL;
    if (pumma_irecv(s->rbuf, s->rcount, s->dt, s->source, s->tag, s->comm,
                    &s->req[0]) != MPI_SUCCESS)
        return PUMMA_EMPI;
    if (me % 2 == 1 &&
        pumma_isend(s->sbuf, s->scount, s->dt, s->dest, s->tag, s->comm,
                  &s->req[1]) != MPI_SUCCESS)
        return PUMMA_EMPI;
    return PUMMA_OK;
}

static int wait(pumma_shift_t *s)
{
    int me;
    if (MPI_Comm_rank(s->comm, &me) != MPI_SUCCESS) return PUMMA_EMPI;
    if (me % 2 == 0) {                 /* step two: my send */
        if (s->source % 2 == 1 &&
            MPI_Wait(&s->req[0], MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return PUMMA_EMPI;
        if (pumma_isend(s->sbuf, s->scount, s->dt, s->dest, s->tag, s->comm,
                      &s->req[1]) != MPI_SUCCESS)
            return PUMMA_EMPI;
    }
    return MPI_Waitall(2, s->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS
               ? PUMMA_OK : PUMMA_EMPI;
}

/* Two phases (odd processes send, then even ones): on a full-duplex
 * network twice a simultaneous shift; it pays off only where sending and
 * receiving at once contend, which this model does not see. */
static double cost(const pumma_model_t *mo, int np, double bytes)
{
    return np > 1 ? 2 * pumma_model_msg(mo, bytes) : 0;
}

const pumma_shift_ops_t pumma_shift_oddeven = {
    "oddeven", "two steps: odd processes send, then even ones (Fig. 21(b))",
    start, wait,
    cost, 1};
