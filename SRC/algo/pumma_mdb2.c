/*
 * pumma_mdb2.c -- MDB2 (PUMMA section 3.2), C := alpha*A*B + beta*C, in both
 * orientations: "mdb2" column-casts B and rolls A left; "mdb2-row" row-casts A
 * and rolls B up (the mirror, better when P is small). The engine and what
 * distinguishes SDB, MDB1 and MDB2 are in pumma_mdb.c.
 */
#include "pumma_algo.h"

static const pumma_mdb_shape_t col = {0, 0, 0, 0}, row = {0, 0, 1, 0};

static void align_col(const pumma_problem_t *have, pumma_problem_t *want)
{
    pumma_mdb_align(have, want, 0);
}

static void align_row(const pumma_problem_t *have, pumma_problem_t *want)
{
    pumma_mdb_align(have, want, 1);
}

static int run_col(const pumma_problem_t *p) { return pumma_mdb_run(p, &col); }
static int run_row(const pumma_problem_t *p) { return pumma_mdb_run(p, &row); }
static unsigned uses_col(const pumma_problem_t *p)
{
    return pumma_mdb_uses(p, 0);
}
static unsigned uses_row(const pumma_problem_t *p)
{
    return pumma_mdb_uses(p, 1);
}
static size_t workspace_col(const pumma_problem_t *p)
{
    return pumma_mdb_workspace(p, 0);
}
static size_t workspace_row(const pumma_problem_t *p)
{
    return pumma_mdb_workspace(p, 1);
}
static double cost_col(const pumma_problem_t *p, const pumma_model_t *mo)
{
    return pumma_mdb_cost(p, mo, &col);
}
static double cost_row(const pumma_problem_t *p, const pumma_model_t *mo)
{
    return pumma_mdb_cost(p, mo, &row);
}

const pumma_algo_t pumma_algo_mdb2 = {
    "mdb2", "MDB2, one message and one multiply per group of K-blocks; B column-cast, A rolled",
    pumma_mdb_handles, align_col, run_col, cost_col, uses_col, workspace_col, PUMMA_CALL_BLOCK, NULL};
const pumma_algo_t pumma_algo_mdb2_row = {
    "mdb2-row", "MDB2, one message and one multiply per group of K-blocks; A row-cast, B rolled",
    pumma_mdb_handles, align_row, run_row, cost_row, uses_row, workspace_row, PUMMA_CALL_BLOCK, NULL};
