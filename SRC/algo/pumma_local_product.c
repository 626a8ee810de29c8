/*
 * pumma_local_product.c -- "local": a product whose operands each
 * process holding a piece of sub(C) holds whole (a 1x1 grid; submatrices
 * inside one block; replicated operands): one multiply on the caller's
 * arrays, no temporary, no message. The planner takes it for every such
 * call (pumma_plan_kind), and nothing else for them.
 */
#include "pumma_algo.h"

static int handles(char ta, char tb)
{
    (void)ta;
    (void)tb;
    return 1;
}

/* The BLAS applies beta, and never reads C when beta = 0. */
static int run(const pumma_problem_t *p)
{
    const pumma_grid_t *g = p->g;
    if (pumma_view_mloc(&p->c, g->myrow) > 0 &&
        pumma_view_nloc(&p->c, g->mycol) > 0)
        pumma_local_gemm(p, p->transa, p->transb, p->m, p->n, p->k, p->alpha,
                         p->a.data, p->a.ld, p->b.data, p->b.ld, p->beta,
                         p->c.data, p->c.ld, NULL, NULL);
    return PUMMA_OK;
}

static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    return pumma_model_gemm(mo, p->t, p->m, p->n, p->k,
                            p->transa != 'N' && p->transb != 'N');
}

static unsigned uses(const pumma_problem_t *p)
{
    (void)p;
    return 0;
}

/* Only the BLAS workaround's temporary for a C of a large LLD. */
static size_t workspace(const pumma_problem_t *p)
{
    return pumma_blas_gemm_workspace(p->t, p->m, p->n, p->c.ld);
}

const pumma_algo_t pumma_algo_local = {
    "local",
    "the whole product on each process holding sub(C): one multiply, no "
    "message",
    handles, NULL, run, cost, uses, workspace, PUMMA_CALL_LOCAL, NULL,
    NULL, 0};
