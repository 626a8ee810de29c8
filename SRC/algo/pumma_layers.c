/*
 * pumma_layers.c -- "layers": 2.5D multiplication (Solomonik and Demmel,
 * Euro-Par 2011) on the cube engine (pumma_cube.c). The grid's processes
 * make c layers, each a pm x pn grid computing the product over its
 * slice of K, so each of A and B is held c times and C's partial sums
 * are added at the end: the words each process receives fall by about
 * sqrt(c) against one 2D grid. c is the most the memory budget allows,
 * up to P^(1/3) (where the layers are as tall as they are wide: the 3D
 * algorithm); each layer's grid and steps are the model's cheapest. The
 * processes beyond c x pm x pn (a grid that does not divide into layers)
 * stay idle.
 */
#include <math.h>

#include "pumma_algo.h"

static void shape(const pumma_problem_t *p, const pumma_model_t *mo,
                  pumma_plan_t *pl)
{
    const int np = p->g->nprow * p->g->npcol;
    int c = (int)floor(cbrt((double)np) + 1e-9);
    if (c > p->k) c = p->k;
    for (; c > 1; c--)
        if (pumma_cube_search(p, mo, pl, c, c)) return;
    pumma_cube_search(p, mo, pl, 1, 1);
}

PUMMA_CUBE_ROW(layers, "layers",
               "2.5D: c layers, as many as memory allows up to P^(1/3), "
               "each computing a slice of K; operands fetched by "
               "all-to-all, partial sums of C added on its holders",
               shape);
