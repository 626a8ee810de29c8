/*
 * pumma_shift.c -- the roll of PUMMA's algorithms: every process sends its
 * slab to one neighbour and receives the next slab from the other, both at
 * once ("simultaneous" rotation, PUMMA Fig. 21(a)), non-blocking so the local
 * multiply runs meanwhile.
 */
#include "pumma_internal.h"

int pumma_shift_start(pumma_shift_t *s, const void *sbuf, int scount,
                      void *rbuf, int rcount, MPI_Datatype dt, int dest,
                      int source, MPI_Comm comm, int tag)
{
    if (MPI_Irecv(rbuf, rcount, dt, source, tag, comm, &s->req[0]) !=
        MPI_SUCCESS)
        return PUMMA_EMPI;
    return MPI_Isend(sbuf, scount, dt, dest, tag, comm, &s->req[1]) ==
                   MPI_SUCCESS ? PUMMA_OK : PUMMA_EMPI;
}

int pumma_shift_wait(pumma_shift_t *s)
{
    return MPI_Waitall(2, s->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS
               ? PUMMA_OK : PUMMA_EMPI;
}
