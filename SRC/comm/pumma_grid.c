/*
 * pumma_grid.c -- a BLACS context as MPI communicators.
 *
 * The BLACS give the grid (shape, coordinates) and the MPI communicator behind
 * it (Cblacs_get what=10, then Cblacs2sys_handle). pumma duplicates that
 * communicator, so its messages never meet the BLACS', and splits it into
 * row and column communicators -- twice: calls on the grid alternate
 * between the two sets (pumma_grid_enter), so that no message of one call
 * can be taken by a receive of the next or the previous. The result is cached as an MPI attribute of
 * the BLACS communicator: when the BLACS free the grid (BLACS_GRIDEXIT), MPI
 * calls our delete callback and the cache goes with it, so a context number
 * reused for another grid can never see stale communicators.
 */
#include <stdlib.h>

#include "pumma_comm.h"

#define SGET_BLACSCONTXT 10

static int keyval = MPI_KEYVAL_INVALID;

static void grid_free(pumma_grid_t *g)
{
    if (!g) return;
    for (int e = 0; e < PUMMA_GRID_EPOCHS; e++) {
        pumma_grid_comms_t *s = &g->epoch[e];
        if (s->row != MPI_COMM_NULL) MPI_Comm_free(&s->row);
        if (s->col != MPI_COMM_NULL) MPI_Comm_free(&s->col);
        if (s->all != MPI_COMM_NULL) MPI_Comm_free(&s->all);
    }
    pumma_hier_free(g->hier);     /* its clusters, and their communicators */
    free(g->rank);
    free(g->rates);
    /* the decider its model loaded (pumma_model_measure) */
    if (g->model.dec) pumma_decider_ops(g->model.dec)->release(g->model.dec);
    free(g);
}

static int delete_cb(MPI_Comm comm, int key, void *val, void *extra)
{
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin) grid_free(val);
    return MPI_SUCCESS;
}

static pumma_grid_t *grid_make(int ctxt, MPI_Comm parent)
{
    pumma_grid_t *g = calloc(1, sizeof(*g));
    if (!g) return NULL;
    for (int e = 0; e < PUMMA_GRID_EPOCHS; e++)
        g->epoch[e].all = g->epoch[e].row = g->epoch[e].col = MPI_COMM_NULL;
    g->all = g->row = g->col = MPI_COMM_NULL;
    Cblacs_gridinfo(ctxt, &g->nprow, &g->npcol, &g->myrow, &g->mycol);
    int n = g->nprow * g->npcol, me, coords[2] = {g->myrow, g->mycol};
    int *all = malloc(sizeof(int) * 2 * (size_t)n);
    g->rank = malloc(sizeof(int) * (size_t)n);
    int ok = all && g->rank;
    for (int e = 0; ok && e < PUMMA_GRID_EPOCHS; e++) {
        pumma_grid_comms_t *s = &g->epoch[e];
        ok = MPI_Comm_dup(parent, &s->all) == MPI_SUCCESS &&
             MPI_Comm_split(s->all, g->myrow, g->mycol, &s->row) ==
                 MPI_SUCCESS &&
             MPI_Comm_split(s->all, g->mycol, g->myrow, &s->col) ==
                 MPI_SUCCESS;
    }
    /* Before any message of a call: settings that differ between the
     * processes would pair sends and receives wrongly (pumma_settings.c). */
    ok = ok && pumma_settings_agree(g->epoch[0].all) == PUMMA_OK;
    ok = ok && MPI_Comm_rank(g->epoch[0].all, &me) == MPI_SUCCESS &&
         MPI_Allgather(coords, 2, MPI_INT, all, 2, MPI_INT,
                       g->epoch[0].all) == MPI_SUCCESS;
    int *ub = NULL, flag = 0;
    g->tag_ub = 32767;               /* the standard's least MPI_TAG_UB */
    /* an attribute of MPI_COMM_WORLD, valid for every communicator */
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag) ==
            MPI_SUCCESS && flag && ub && *ub > g->tag_ub)
        g->tag_ub = *ub;
    if (ok) {
        int size = 0;
        MPI_Comm_size(g->epoch[0].all, &size);
        ok = (size == n);
        for (int r = 0; ok && r < n; r++)
            g->rank[all[2 * r] * g->npcol + all[2 * r + 1]] = r;
    }
    free(all);
    if (!ok) {
        grid_free(g);
        return NULL;
    }
    return g;
}

/* The cached grid of ctxt, made on first use; NULL when MPI or the BLACS
 * cannot give it. */
static pumma_grid_t *grid_get(int ctxt)
{
    int sys = -1, flag = 0;
    void *val = NULL;
    Cblacs_get(ctxt, SGET_BLACSCONTXT, &sys);
    MPI_Comm parent = Cblacs2sys_handle(sys);
    if (parent == MPI_COMM_NULL) return NULL;
    if (keyval == MPI_KEYVAL_INVALID &&
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &keyval,
                               NULL) != MPI_SUCCESS)
        return NULL;
    if (MPI_Comm_get_attr(parent, keyval, &val, &flag) != MPI_SUCCESS)
        return NULL;
    if (flag) return val;
    pumma_grid_t *g = grid_make(ctxt, parent);
    if (g && MPI_Comm_set_attr(parent, keyval, g) != MPI_SUCCESS) {
        grid_free(g);
        return NULL;
    }
    return g;
}

/*
 * pumma_grid_enter: the grid of ctxt for a new collective call on it (a
 * P?GEMM, a PUMMA_P?GEMR2D, a speed measurement): advances the grid's call
 * count and makes all, row and col the communicators of this call's epoch
 * (see pumma_comm.h, "Matching"). Every process of the grid makes the same
 * calls in the same order, so all agree on the epoch.
 *   ctxt  (global input) a BLACS context this process belongs to.
 * Returns NULL when MPI or the BLACS cannot give the grid.
 */
const pumma_grid_t *pumma_grid_enter(int ctxt)
{
    pumma_grid_t *g = grid_get(ctxt);
    if (!g) return NULL;
    const pumma_grid_comms_t *s = &g->epoch[g->calls++ % PUMMA_GRID_EPOCHS];
    g->all = s->all;
    g->row = s->row;
    g->col = s->col;
    return g;
}
