/*
 * pumma_comm_table.c -- the tables of communication variants. Adding a
 * variant is adding its file and one row here.
 */
#include <string.h>

#include "pumma_comm.h"

extern const pumma_coll_ops_t pumma_bcast_mpi, pumma_bcast_ring_inc,
    pumma_bcast_ring_dec, pumma_bcast_ring_split, pumma_bcast_mst,
    pumma_bcast_binomial, pumma_bcast_binary, pumma_bcast_pipeline,
    pumma_bcast_linear, pumma_bcast_hier;
extern const pumma_coll_ops_t pumma_reduce_mpi, pumma_reduce_ring,
    pumma_reduce_mst, pumma_reduce_direct, pumma_reduce_hier,
    pumma_reduce_scatter;

static const pumma_coll_ops_t *const bcasts[] = {
    &pumma_bcast_ring_inc, &pumma_bcast_mpi, &pumma_bcast_ring_dec,
    &pumma_bcast_ring_split, &pumma_bcast_mst, &pumma_bcast_binomial,
    &pumma_bcast_binary, &pumma_bcast_pipeline, &pumma_bcast_linear,
    &pumma_bcast_hier};
/* Rows in order of preference when the model prices them alike (auto takes
 * the earlier): on two processes direct, ring and mst are one message and
 * one add, and direct measured fastest (TIMING, 2 ranks, N = 3000). */
static const pumma_coll_ops_t *const reduces[] = {
    &pumma_reduce_direct, &pumma_reduce_ring, &pumma_reduce_mst,
    &pumma_reduce_mpi, &pumma_reduce_hier, &pumma_reduce_scatter};

#define COUNT(a) ((int)(sizeof(a) / sizeof(a)[0]))

const pumma_coll_ops_t *pumma_comm_at(pumma_table_kind_t kind, int i)
{
    const pumma_coll_ops_t *const *t = kind == PUMMA_BCAST_TABLE ? bcasts
                                                                   : reduces;
    int n = kind == PUMMA_BCAST_TABLE ? COUNT(bcasts) : COUNT(reduces);
    return i >= 0 && i < n ? t[i] : NULL;
}

const pumma_coll_ops_t *pumma_comm_auto_at(pumma_table_kind_t kind, int i)
{
    const pumma_coll_ops_t *v;
    for (int j = 0; (v = pumma_comm_at(kind, j)) != NULL; j++)
        if (!v->asked_only && i-- == 0) return v;
    return NULL;
}

/* By name, without regard to case (PUMMA_BCAST=Ring-Inc, and the decision
 * file's variants). */
const pumma_coll_ops_t *pumma_comm_find(pumma_table_kind_t kind,
                                        const char *name)
{
    const pumma_coll_ops_t *v;
    for (int i = 0; (v = pumma_comm_at(kind, i)) != NULL; i++)
        if (pumma_name_eq(v->name, name)) return v;
    return NULL;
}
