/*
 * pumma_algo_table.c -- the algorithm table: every way pumma computes a
 * call, block-cyclic (the PUMMA algorithms), local, heterogeneous (each
 * row's kind). Adding an algorithm is adding its file and one row here;
 * `auto` (pumma_plan.c) prices every block-cyclic row that handles the
 * call's transpose combination, a tie going to the earlier row.
 */
#include <string.h>

#include "pumma_algo.h"

extern const pumma_algo_t pumma_algo_mdb2, pumma_algo_mdb2_row,
    pumma_algo_mdb1, pumma_algo_mdb1_row, pumma_algo_sdb, pumma_algo_sdb_row,
    pumma_algo_tn, pumma_algo_nt, pumma_algo_tt, pumma_algo_tt_local,
    pumma_algo_rankk, pumma_algo_stat_a, pumma_algo_stat_b,
    pumma_algo_layers, pumma_algo_split, pumma_algo_local,
    pumma_algo_het, pumma_algo_het_overlap;

static const pumma_algo_t *const algos[] = {
    &pumma_algo_mdb2, &pumma_algo_mdb2_row, &pumma_algo_mdb1,
    &pumma_algo_mdb1_row, &pumma_algo_sdb, &pumma_algo_sdb_row,
    &pumma_algo_tn, &pumma_algo_nt, &pumma_algo_tt, &pumma_algo_tt_local,
    &pumma_algo_rankk, &pumma_algo_stat_a, &pumma_algo_stat_b,
    &pumma_algo_layers, &pumma_algo_split,
    /* the calls the search does not price: one row each (pumma_plan.c) */
    &pumma_algo_local, &pumma_algo_het, &pumma_algo_het_overlap};

const pumma_algo_t *pumma_algo_at(int i)
{
    return i >= 0 && i < (int)(sizeof algos / sizeof *algos) ? algos[i] : NULL;
}

/* By name, without regard to case (PUMMA_ALGO=SDB). */
const pumma_algo_t *pumma_algo_find(const char *name)
{
    const pumma_algo_t *a;
    for (int i = 0; (a = pumma_algo_at(i)) != NULL; i++)
        if (pumma_name_eq(a->name, name)) return a;
    return NULL;
}
