/*
 * pumma_roll.c -- an algorithm's roll of a slab, with the shift variant
 * its plan chose (SRC/comm/pumma_shift.c's table), its wait counted as
 * communication by PUMMA_STATS.
 */
#include "pumma_algo.h"

int pumma_roll_start(const pumma_problem_t *p, pumma_shift_t *s,
                     const void *sbuf, int64_t scount, void *rbuf,
                     int64_t rcount, int dest, int source, MPI_Comm comm,
                     int tag)
{
    s->sbuf = sbuf;
    s->rbuf = rbuf;
    s->scount = scount;
    s->rcount = rcount;
    s->dt = p->t->mpi;
    s->dest = dest;
    s->source = source;
    s->comm = comm;
    s->tag = tag;
    s->req[0] = s->req[1] = MPI_REQUEST_NULL;
    s->state = 0;
    return p->plan->shift->start(s);
}

int pumma_roll_wait(const pumma_problem_t *p, pumma_shift_t *s)
{
    double t0 = pumma_stats_clock();
    int rc = p->plan->shift->wait(s);
    pumma_stats_comm(t0);
    return rc;
}
