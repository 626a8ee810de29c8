/*
 * pumma_shift.c -- the shift table, and the calls algorithms make to roll a
 * slab with the variant the plan chose. Adding a variant is adding its file
 * and one row here.
 */
#include <string.h>

#include "pumma_internal.h"

extern const pumma_shift_ops_t pumma_shift_simultaneous, pumma_shift_oddeven;

static const pumma_shift_ops_t *const shifts[] = {&pumma_shift_simultaneous,
                                                  &pumma_shift_oddeven};

const pumma_shift_ops_t *pumma_shift_at(int i)
{
    return i >= 0 && i < (int)(sizeof shifts / sizeof *shifts) ? shifts[i]
                                                                 : NULL;
}

/* By name, without regard to case. */
const pumma_shift_ops_t *pumma_shift_find(const char *name)
{
    const pumma_shift_ops_t *v;
    for (int i = 0; (v = pumma_shift_at(i)) != NULL; i++)
        if (pumma_name_eq(v->name, name)) return v;
    return NULL;
}

int pumma_shift_start(const pumma_problem_t *p, pumma_shift_t *s,
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

int pumma_shift_progress(pumma_shift_t *s)
{
    int flag = 1;
    if (s) MPI_Testall(2, s->req, &flag, MPI_STATUSES_IGNORE);
    return !flag;
}

int pumma_shift_wait(const pumma_problem_t *p, pumma_shift_t *s)
{
    double t0 = pumma_stats_clock();
    int rc = p->plan->shift->wait(s);
    pumma_stats_comm(t0);
    return rc;
}
