/*
 * pumma_tt.c -- C := alpha*op(A)*op(B) + beta*C with both operands
 * transposed, PUMMA section 3.4, second approach: D = B*A by MDB2 (no
 * modification needed), then C := alpha*D**T + beta*C by a distributed
 * transpose (each block moves once, to its transposed owner).
 *
 * Conjugation rides along: A**H*B**H = (B*A)**H; A**T*B**H = (conj(B)*A)**T;
 * A**H*B**T = (B*conj(A))**T. The conjugations are applied while MDB2
 * presorts its operands, so they cost nothing extra.
 *
 * D gets B's row distribution and A's column distribution, so B and A need no
 * move unless their K blockings disagree. C is never a temporary: the
 * transpose writes it wherever it lives.
 */
#include <stdlib.h>

#include "pumma_algo.h"

static int handles(char ta, char tb) { return ta != 'N' && tb != 'N'; }

static const pumma_mdb_shape_t mdb2 = {0, 0, 0, 0};

/* The MDB2 problem D = opc(B) * opc(A) for this problem's operands; D's
 * distributions are B's rows and A's columns, its data NULL. */
void pumma_tt_as_mdb2(const pumma_problem_t *p, pumma_problem_t *q)
{
    *q = *p;
    int both_h = (p->transa == 'C' && p->transb == 'C');
    q->transa = (!both_h && p->transb == 'C') ? 'R' : 'N';
    q->transb = (!both_h && p->transa == 'C') ? 'R' : 'N';
    q->m = p->n;
    q->n = p->m;
    q->a = p->b;
    q->b = p->a;
    q->c.data = NULL;
    q->c.row = pumma_dist_owned(&p->b.row);
    q->c.col = pumma_dist_owned(&p->a.col);
    q->c.ld = 1;
    q->alpha = p->t->one;
    q->beta = p->t->zero;
}

void pumma_tt_align(const pumma_problem_t *have, pumma_problem_t *want)
{
    pumma_problem_t q, qw;
    pumma_tt_as_mdb2(have, &q);
    pumma_mdb_align(&q, &qw, &mdb2);
    *want = *have;
    want->b = qw.a;
    want->a = qw.b;
}

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    pumma_problem_t q;
    pumma_tt_as_mdb2(p, &q);
    int mloc = pumma_view_mloc(&q.c, g->myrow);
    int nloc = pumma_view_nloc(&q.c, g->mycol);
    q.c.ld = mloc > 0 ? mloc : 1;
    q.c.data = pumma_malloc((size_t)mloc * nloc * t->size);
    if (mloc && nloc && !q.c.data) return PUMMA_ENOMEM;
    int rc = pumma_mdb_run(&q, &mdb2);
    if (!rc) {
        char op = (p->transa == 'C' && p->transb == 'C') ? 'C' : 'T';
        rc = pumma_redist(t, g, p->m, p->n, op, p->alpha, &q.c, p->beta,
                          (pumma_view_t *)&p->c, (size_t)p->plan->piece);
    }
    pumma_free(q.c.data);
    return rc;
}

/* MDB2's time for B*A, its local GEMMs storing D**T when store ('T'),
 * then the redistribution of C's blocks (transposing them or not). */
double pumma_tt_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                     char store, int transposing)
{
    pumma_problem_t q;
    pumma_tt_as_mdb2(p, &q);
    const pumma_mdb_shape_t sh = {0, 0, 0, store};
    const pumma_grid_t *g = p->g;
    double c = (double)pumma_dist_maxcount(&p->c.row) *
               pumma_dist_maxcount(&p->c.col) * p->t->size;
    return pumma_mdb_cost(&q, mo, &sh) +
           pumma_model_redist(mo, g->nprow * g->npcol, c, transposing);
}

/* Then a redistribution that transposes C. */
static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    return pumma_tt_cost(p, mo, 0, 1);
}

/* MDB2's on the same grid (B*A: the cast down the columns). */
static unsigned uses(const pumma_problem_t *p)
{
    return pumma_mdb_uses(p, &mdb2);
}

/* D = B*A, with MDB2's temporaries while it is computed, then the
 * transposing redistribution's buffers (at most PUMMA_PIECE each way). */
size_t pumma_tt_workspace(const pumma_problem_t *p)
{
    pumma_problem_t q;
    pumma_tt_as_mdb2(p, &q);
    const size_t e = p->t->size, d = pumma_view_maxelems(&q.c) * e;
    const size_t mdb = pumma_mdb_workspace(&q, &mdb2);
    const size_t back = pumma_redist_workspace((size_t)p->plan->piece, d,
                                               pumma_view_maxelems(&p->c) * e);
    return d + (mdb > back ? mdb : back);
}

const pumma_algo_t pumma_algo_tt = {
    "tt", "A**T*B**T: D = B*A by MDB2, then a distributed transpose into C",
    handles, pumma_tt_align, run, cost, uses, pumma_tt_workspace,
    PUMMA_CALL_BLOCK, NULL, NULL, 0};
