/*
 * pumma_tt_local.c -- C := alpha*op(A)*op(B) + beta*C with both operands
 * transposed, PUMMA section 3.4, first approach: multiply the locally
 * transposed blocks, C(I,J) = sum_K A(K,I)**T * B(J,K)**T, with A's slab
 * cast down the grid columns and B rolled left, then a blockwise transpose.
 *
 * It is the MDB2 engine on the problem B*A (the operands as they are stored,
 * set up and aligned as in pumma_tt.c), except that every local multiply is
 * a transposed GEMM writing C's block (I,J) where (B*A)'s block (J,I) would
 * go: the local transposes happen inside the GEMM, as the paper suggests.
 * The result lies on the transposed grid (C's rows on the grid columns that
 * own A's columns), and one redistribution moves each block, untransposed,
 * to its owner in C. pumma_tt.c instead transposes the elements in that
 * redistribution.
 *
 * Conjugation: A**H*B**H takes conjugate-transposed GEMMs; with one 'C' the
 * conjugated operand is conjugated while presorted (as in pumma_tt.c).
 */
#include <stdlib.h>

#include "pumma_algo.h"

static int handles(char ta, char tb) { return ta != 'N' && tb != 'N'; }

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    pumma_problem_t q;
    pumma_tt_as_mdb2(p, &q);
    const int both_h = (p->transa == 'C' && p->transb == 'C');
    /* E = (B*A)**T (or **H): C's values; its rows are A's columns, on the
     * grid columns, and its columns B's rows, on the grid rows. */
    int erows = pumma_view_nloc(&q.c, g->mycol);
    int ecols = pumma_view_mloc(&q.c, g->myrow);
    pumma_view_t e;
    e.row = q.c.col;
    e.col = q.c.row;
    e.ld = erows > 0 ? erows : 1;
    e.data = pumma_malloc((size_t)erows * ecols * t->size);
    if (erows && ecols && !e.data) return PUMMA_ENOMEM;
    q.c.data = e.data;
    q.c.ld = e.ld;
    const pumma_mdb_shape_t mdb2 = {0, 0, 0, both_h ? 'C' : 'T'};
    int rc = pumma_mdb_run(&q, &mdb2);
    if (!rc)
        rc = pumma_redist_xgrid(t, g, p->m, p->n, p->alpha, &e, p->beta,
                                (pumma_view_t *)&p->c, (size_t)p->plan->piece);
    pumma_free(e.data);
    return rc;
}

/* MDB2's time for B*A with transposed GEMMs, then blocks moved as they
 * are. */
static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    return pumma_tt_cost(p, mo, 'T', 0);
}

/* MDB2's on the same grid (B*A: the cast down the columns). */
static unsigned uses(const pumma_problem_t *p)
{
    return pumma_mdb_uses(p, &(const pumma_mdb_shape_t){0, 0, 0, 0});
}

const pumma_algo_t pumma_algo_tt_local = {
    "tt-local",
    "A**T*B**T: transposed local GEMMs on B*A's schedule, then a blockwise transpose",
    handles, pumma_tt_align, run, cost, uses,
    pumma_tt_workspace, PUMMA_CALL_BLOCK, NULL, NULL, 0};   /* E is D's size, moved as D is */
