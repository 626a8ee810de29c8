/*
 * pumma_shift_simultaneous.c -- shift variant "simultaneous" (PUMMA Fig.
 * 21(a)): every process sends to one neighbour and receives from the other
 * at once, non-blocking so the local multiply runs meanwhile.
 */
#include "pumma_comm.h"

static int start(pumma_shift_t *s)
{
    if (pumma_irecv(s->rbuf, s->rcount, s->dt, s->source, s->tag, s->comm,
                    &s->req[0]) != MPI_SUCCESS)
        return PUMMA_EMPI;
    return pumma_isend(s->sbuf, s->scount, s->dt, s->dest, s->tag, s->comm,
                     &s->req[1]) == MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}

static int wait(pumma_shift_t *s)
{
    return MPI_Waitall(2, s->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS
               ? PUMMA_OK : PUMMA_EMPI;
}

/* Every process sends and receives one message at once. */
static double cost(const pumma_model_t *mo, int np, double bytes)
{
    return np > 1 ? pumma_model_msg(mo, bytes) : 0;
}

const pumma_shift_ops_t pumma_shift_simultaneous = {
    "simultaneous", "send to one neighbour, receive from the other, at once",
    start, wait,
    cost, 0};
