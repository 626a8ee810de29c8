/*
 * pumma_shift.c -- the shift table, and advancing a roll under way. Adding
 * a variant is adding its file and one row here; an algorithm rolls with
 * the variant its plan chose through SRC/algo/pumma_roll.c.
 */
#include <string.h>

#include "pumma_comm.h"

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

int pumma_shift_progress(pumma_shift_t *s)
{
    int flag = 1;
    if (s) MPI_Testall(2, s->req, &flag, MPI_STATUSES_IGNORE);
    return !flag;
}
