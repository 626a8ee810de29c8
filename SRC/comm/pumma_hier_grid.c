/*
 * pumma_hier_grid.c -- a grid's clusters as its collectives use them: each
 * epoch's row and column split by cluster (pumma_comm.h). Which process
 * is in which cluster is found above, by the model
 * (SRC/model/pumma_clusters.c); the two-level variants read these lines,
 * and the grid frees them with itself.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"

void pumma_hier_line_free(pumma_hier_line_t *L)
{
    free(L->cl);
    free(L->size);
    free(L->coord);
    free(L->gcl);
    free(L->sub_rank);
    if (L->sub != MPI_COMM_NULL) MPI_Comm_free(&L->sub);
    memset(L, 0, sizeof *L);
    L->sub = MPI_COMM_NULL;
}

void pumma_hier_free(pumma_hier_grid_t *h)
{
    if (!h) return;
    for (int e = 0; e < PUMMA_GRID_EPOCHS; e++) {
        pumma_hier_line_free(&h->row[e]);
        pumma_hier_line_free(&h->col[e]);
    }
    for (int d = 0; d < 2; d++) {
        for (int i = 0; i < h->nshape[d]; i++)
            pumma_hier_line_free(&h->shape[d][i]);
        free(h->shape[d]);
    }
    free(h->cluster);
    free(h->lat);
    free(h->inside);
    free(h);
}

/* pumma_hier_line_make: see pumma_comm.h. */
int pumma_hier_line_make(pumma_hier_line_t *L, const pumma_hier_grid_t *h,
                     MPI_Comm comm, int n, const int *gc, int me)
{
    memset(L, 0, sizeof *L);
    L->sub = MPI_COMM_NULL;
    L->h = h;
    L->n = n;
    L->cl = malloc(sizeof(int) * (size_t)n);
    L->sub_rank = malloc(sizeof(int) * (size_t)n);
    L->size = calloc((size_t)n, sizeof(int));
    L->coord = malloc(sizeof(int) * (size_t)n);
    L->gcl = malloc(sizeof(int) * (size_t)n);
    if (!L->cl || !L->sub_rank || !L->size || !L->coord || !L->gcl)
        return PUMMA_ENOMEM;
    for (int r = 0; r < n; r++) {
        int c = 0;
        while (c < L->nc && L->gcl[c] != gc[r]) c++;
        if (c == L->nc) {
            L->gcl[c] = gc[r];
            L->coord[c] = r;              /* the lowest rank */
            L->nc++;
        }
        L->cl[r] = c;
        L->sub_rank[r] = L->size[c]++;   /* MPI_Comm_split's order: rank */
    }
    if (L->nc > 1 && comm != MPI_COMM_NULL &&
        MPI_Comm_split(comm, L->cl[me], me, &L->sub) != MPI_SUCCESS)
        return PUMMA_EMPI;
    return PUMMA_OK;
}

/* pumma_hier_shapes_make: see pumma_comm.h. Lines alike position by
 * position are one shape; a grid whose clusters are blocks of rows or
 * columns has a few. */
int pumma_hier_shapes_make(pumma_hier_grid_t *h, int nprow, int npcol)
{
    for (int d = 0; d < 2; d++) {
        /* along columns: npcol lines of nprow; along rows: the converse */
        const int lines = d == PUMMA_ALONG_COL ? npcol : nprow;
        const int n = d == PUMMA_ALONG_COL ? nprow : npcol;
        int *gc = malloc(sizeof(int) * (size_t)lines * (size_t)n);
        h->shape[d] = calloc((size_t)lines, sizeof(pumma_hier_line_t));
        if (!gc || !h->shape[d]) {
            free(gc);
            return PUMMA_ENOMEM;
        }
        for (int l = 0; l < lines; l++) {
            int *mine = gc + (size_t)l * n;
            for (int r = 0; r < n; r++)
                mine[r] = h->cluster[d == PUMMA_ALONG_COL ? r * npcol + l
                                                          : l * npcol + r];
            int seen = 0;
            for (int o = 0; o < l && !seen; o++)
                seen = !memcmp(gc + (size_t)o * n, mine, sizeof(int) * n);
            if (seen) continue;
            int rc = pumma_hier_line_make(&h->shape[d][h->nshape[d]++], h,
                                          MPI_COMM_NULL, n, mine, -1);
            if (rc) {
                free(gc);
                return rc;
            }
        }
        free(gc);
    }
    return PUMMA_OK;
}

const pumma_hier_line_t *pumma_hier_line_of(const pumma_grid_t *g,
                                            MPI_Comm comm)
{
    const pumma_hier_grid_t *h = g->hier;
    if (!h || comm == MPI_COMM_NULL) return NULL;
    for (int e = 0; e < PUMMA_GRID_EPOCHS; e++) {
        if (comm == g->epoch[e].row) return h->row[e].nc > 1 ? &h->row[e] : NULL;
        if (comm == g->epoch[e].col) return h->col[e].nc > 1 ? &h->col[e] : NULL;
    }
    return NULL;
}
