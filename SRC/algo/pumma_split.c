/*
 * pumma_split.c -- "split": the cube engine (pumma_cube.c) on the cube
 * the model prices cheapest, shape-aware as CARMA and COSMA are: M, N and
 * K are each cut over as many processes as lowers the time, so a tall
 * product is cut along M, a panel along M and K, a square one into a
 * cube of pk layers; processes may be left idle (a prime number of them,
 * or a shape that does not divide) when that is faster. Where CARMA and
 * COSMA cut the largest dimension in two, recursively, this prices every
 * cube of more than half the processes, each at its best number of
 * steps, within the memory budget: the recursive cut's cube is among
 * them.
 */
#include "pumma_algo.h"

static void shape(const pumma_problem_t *p, const pumma_model_t *mo,
                  pumma_plan_t *pl)
{
    pumma_cube_search(p, mo, pl, 1, p->g->nprow * p->g->npcol);
}

PUMMA_CUBE_ROW(split, "split",
               "M, N and K cut over a cube of processes priced cheapest "
               "(idle ones allowed); operands fetched by all-to-all, "
               "partial sums of C added on its holders",
               shape);
