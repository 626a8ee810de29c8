/*
 * pumma_ilist.c -- lists of index intervals [lo, hi), sorted and disjoint:
 * the rows and columns a process holds or needs, as layouts, the remap and
 * the heterogeneous multiply see them (declared in pumma_layout.h).
 */
#include <stdlib.h>

#include "pumma_layout.h"

void pumma_ilist_free(pumma_ilist_t *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

long pumma_ilist_len(const pumma_ilist_t *l)
{
    long s = 0;
    for (int i = 0; i < l->n; i++) s += l->v[i].hi - l->v[i].lo;
    return s;
}

static int cmp_lo(const void *a, const void *b)
{
    const pumma_ivl_t *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

int pumma_ilist_union(const pumma_ivl_t *v, int n, pumma_ilist_t *out)
{
    out->n = 0;
    out->v = malloc(sizeof(pumma_ivl_t) * (size_t)(n > 0 ? n : 1));
    if (!out->v) return PUMMA_ENOMEM;
    pumma_ivl_t *s = malloc(sizeof(pumma_ivl_t) * (size_t)(n > 0 ? n : 1));
    if (!s) {
        free(out->v);
        out->v = NULL;
        return PUMMA_ENOMEM;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (v[i].hi > v[i].lo) s[k++] = v[i];
    qsort(s, (size_t)k, sizeof *s, cmp_lo);
    for (int i = 0; i < k; i++) {
        if (out->n && s[i].lo <= out->v[out->n - 1].hi) {
            if (s[i].hi > out->v[out->n - 1].hi) out->v[out->n - 1].hi = s[i].hi;
        } else {
            out->v[out->n++] = s[i];
        }
    }
    free(s);
    return PUMMA_OK;
}

int pumma_ilist_pos(const pumma_ilist_t *l, int g)
{
    int before = 0;
    for (int i = 0; i < l->n; i++) {
        if (g < l->v[i].hi) return before + g - l->v[i].lo;
        before += l->v[i].hi - l->v[i].lo;
    }
    return before;
}

void pumma_ilist_meet(const pumma_ilist_t *a, const pumma_ilist_t *b,
                      pumma_ilist_t *out)
{
    int i = 0, j = 0;
    out->n = 0;
    while (i < a->n && j < b->n) {
        int lo = a->v[i].lo > b->v[j].lo ? a->v[i].lo : b->v[j].lo;
        int hi = a->v[i].hi < b->v[j].hi ? a->v[i].hi : b->v[j].hi;
        if (lo < hi) out->v[out->n++] = (pumma_ivl_t){lo, hi};
        if (a->v[i].hi < b->v[j].hi) i++; else j++;
    }
}

void pumma_ilist_minus(const pumma_ilist_t *a, const pumma_ilist_t *b,
                       pumma_ilist_t *out)
{
    out->n = 0;
    for (int i = 0; i < a->n; i++) {
        int at = a->v[i].lo;
        for (int j = 0; j < b->n && at < a->v[i].hi; j++) {
            if (b->v[j].hi <= at) continue;
            if (b->v[j].lo >= a->v[i].hi) break;
            if (b->v[j].lo > at) out->v[out->n++] = (pumma_ivl_t){at, b->v[j].lo};
            at = b->v[j].hi;
        }
        if (at < a->v[i].hi) out->v[out->n++] = (pumma_ivl_t){at, a->v[i].hi};
    }
}
