/* The layout routines of pumma.h, by address for Fortran and C alike:
 * PUMMA_LAYOUT_NEW, _CLUSTERS, _FREE, _BOX, _NRECT, _RECT, _OWNER, _COST and
 * PUMMA_SQCORNER_RULE. The work is in SRC/layout; those that compute in
 * floating point keep the caller's flags (pumma_base.h). */
#include "pumma.h"
#include "pumma_fortran.h"

PUMMA_API void PUMMA_F77(pumma_layout_new, PUMMA_LAYOUT_NEW)(
    const int *kind, const int *m, const int *n, const int *np,
    const double *speeds, int *layout, int *info)
{
    PUMMA_FENV_CALL(pumma_layout_create(*kind, *m, *n, *np, speeds, layout,
                                        info));
}

PUMMA_API void PUMMA_F77(pumma_layout_clusters, PUMMA_LAYOUT_CLUSTERS)(
    const int *kind, const int *m, const int *n, const int *np,
    const double *speeds, const int *clusters, int *layout, int *info)
{
    PUMMA_FENV_CALL(pumma_layout_create_clusters(*kind, *m, *n, *np, speeds,
                                                 clusters, layout, info));
}

PUMMA_API void PUMMA_F77(pumma_layout_free, PUMMA_LAYOUT_FREE)(
    const int *layout, int *info)
{
    *info = pumma_layout_destroy(*layout);
}

/* The layout and process arguments of the queries: INFO -1, -2. */
static const pumma_layout_t *get(int layout, int proc, int *info)
{
    const pumma_layout_t *L = pumma_layout_get(layout);
    *info = !L ? -1 : (proc < 0 || proc >= L->np) ? -2 : 0;
    return *info ? NULL : L;
}

PUMMA_API void PUMMA_F77(pumma_layout_box, PUMMA_LAYOUT_BOX)(
    const int *layout, const int *proc, int *i0, int *j0, int *mloc,
    int *nloc, int *info)
{
    const pumma_layout_t *L = get(*layout, *proc, info);
    if (!L) return;
    const pumma_rect_t *b = &L->box[*proc];
    *i0 = b->r0 + 1;
    *j0 = b->c0 + 1;
    *mloc = b->r1 - b->r0;
    *nloc = b->c1 - b->c0;
}

PUMMA_API void PUMMA_F77(pumma_layout_nrect, PUMMA_LAYOUT_NRECT)(
    const int *layout, const int *proc, int *nrect, int *info)
{
    const pumma_layout_t *L = get(*layout, *proc, info);
    if (L) *nrect = L->first[*proc + 1] - L->first[*proc];
}

PUMMA_API void PUMMA_F77(pumma_layout_rect, PUMMA_LAYOUT_RECT)(
    const int *layout, const int *proc, const int *r, int *i1, int *i2,
    int *j1, int *j2, int *info)
{
    const pumma_layout_t *L = get(*layout, *proc, info);
    if (!L) return;
    if (*r < 1 || *r > L->first[*proc + 1] - L->first[*proc]) {
        *info = -3;
        return;
    }
    const pumma_rect_t *x = &L->rect[L->first[*proc] + *r - 1];
    *i1 = x->r0 + 1;
    *i2 = x->r1;
    *j1 = x->c0 + 1;
    *j2 = x->c1;
}

PUMMA_API void PUMMA_F77(pumma_layout_owner, PUMMA_LAYOUT_OWNER)(
    const int *layout, const int *i, const int *j, int *proc, int *info)
{
    const pumma_layout_t *L = pumma_layout_get(*layout);
    *info = !L ? -1 : (*i < 1 || *i > L->m) ? -2 : (*j < 1 || *j > L->n) ? -3 : 0;
    if (!*info) *proc = pumma_layout_owner_of(L, *i - 1, *j - 1);
}

PUMMA_API void PUMMA_F77(pumma_layout_cost, PUMMA_LAYOUT_COST)(
    const int *layout, double *halfperim, double *lower, int *info)
{
    const pumma_layout_t *L = pumma_layout_get(*layout);
    *info = L ? 0 : -1;
    if (!L) return;
    pumma_fenv_t fe;
    pumma_fenv_enter(&fe);
    *halfperim = (double)pumma_layout_halfperim(L);
    *lower = pumma_layout_lower(L);
    pumma_fenv_leave(&fe);
}

PUMMA_API void PUMMA_F77(pumma_sqcorner_rule, PUMMA_SQCORNER_RULE)(
    const int *np, const double *speeds, const int *topo, double *volsq,
    double *volrect, int *better, int *info)
{
    if (*topo != PUMMA_TOPO_AUTO && *topo != PUMMA_TOPO_FULL &&
        *topo != PUMMA_TOPO_LINEAR) {
        *info = -3;
        return;
    }
    int rc;
    PUMMA_FENV_CALL(rc = pumma_sqcorner_rule(*np, speeds, *topo, volsq,
                                             volrect));
    *info = rc < 0 ? rc : 0;
    *better = rc > 0;
}
