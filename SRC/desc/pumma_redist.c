/*
 * pumma_redist.c -- dst := alpha*op(src) + beta*dst between any two
 * block-cyclic views on one grid (op = 'N', 'T' or 'C').
 *
 * Used to bring operands into the layout an algorithm needs (and sub(C)
 * back), and as the distributed transpose of A**T * B**T. The source may
 * also lie on the transposed grid (pumma_redist_xgrid: its rows over the
 * grid's columns), as the blockwise transpose of PUMMA 3.4's first method
 * leaves it. Only the
 * submatrices move, each element once (or once per replica for a replicated
 * destination).
 *
 * Method: cut the destination's row index range into segments on which both
 * the destination row owner and the owner of the source index it maps to are
 * constant; same for columns. Each (row segment, column segment) rectangle
 * has one source and one destination process and is contiguous in both
 * local arrays. Senders and receivers enumerate the rectangles in the same
 * order, so packed data needs no headers; one MPI_Alltoallv moves it all.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_internal.h"

typedef struct seg {
    int lo, hi;
    int first_pair, npairs;
} seg_t;
typedef struct pair { int s, d; } pair_t;   /* source / destination coord */

typedef struct segs {
    int n, npairs;
    seg_t *seg;
    pair_t *pair;
} segs_t;

/* Block index of global index x in d. */
static int block_of(const pumma_dist_t *d, int x)
{
    int ib = d->ib < d->n ? d->ib : d->n;
    return x < ib ? 0 : 1 + (x - ib) / d->b;
}

/*
 * Segments of [0, n) for destination distribution dd and source distribution
 * sd (the source dimension this index maps to). Replicated source: any copy
 * will do; take the one whose coordinate matches the destination's (mod the
 * source's process count), which is the local one when the dims agree.
 */
static int segs_build(const pumma_dist_t *dd, const pumma_dist_t *sd,
                      segs_t *S)
{
    int n = dd->n;
    int cap = pumma_dist_nblocks(dd) + pumma_dist_nblocks(sd) + 1;
    int pcap = cap * (dd->src < 0 ? dd->np : 1);
    S->seg = malloc(sizeof(seg_t) * (size_t)cap);
    S->pair = malloc(sizeof(pair_t) * (size_t)pcap);
    S->n = S->npairs = 0;
    if (!S->seg || !S->pair) return PUMMA_ENOMEM;
    for (int x = 0; x < n;) {
        int bd = block_of(dd, x), bs = block_of(sd, x);
        int ed = pumma_dist_bstart(dd, bd) + pumma_dist_bsize(dd, bd);
        int es = pumma_dist_bstart(sd, bs) + pumma_dist_bsize(sd, bs);
        int hi = ed < es ? ed : es;
        int od = pumma_dist_owner(dd, bd), os = pumma_dist_owner(sd, bs);
        seg_t *s = &S->seg[S->n++];
        s->lo = x;
        s->hi = hi;
        s->first_pair = S->npairs;
        int d0 = od < 0 ? 0 : od, d1 = od < 0 ? dd->np : od + 1;
        for (int d = d0; d < d1; d++) {
            pair_t *p = &S->pair[S->npairs++];
            p->d = d;
            p->s = os >= 0 ? os : d % sd->np;
        }
        s->npairs = S->npairs - s->first_pair;
        x = hi;
    }
    return PUMMA_OK;
}

static void segs_free(segs_t *S)
{
    free(S->seg);
    free(S->pair);
}

/* Walks the rectangles a process sends (send = 1) or receives, in the one
 * order both sides use, calling fn for each. */
typedef struct walk {
    const pumma_type_t *t;
    const pumma_grid_t *g;
    char op;
    int flip;                   /* a destination row's source is on a grid
                                   column: op transposes, or src is xgrid */
    int sr, sc;                 /* my coordinates along src's rows / cols */
    const pumma_view_t *src;
    pumma_view_t *dst;
    const void *alpha, *beta;
    int *count;                 /* per peer rank, elements */
    int *disp;                  /* per peer rank, running offset */
    char *buf;
    int phase;                  /* 0: count, 1: pack / unpack */
} walk_t;

static void visit(walk_t *w, int send, const seg_t *rs, const pair_t *rp,
                  const seg_t *cs, const pair_t *cp)
{
    const pumma_grid_t *g = w->g;
    const int tr = (w->op != 'N');
    int rows = rs->hi - rs->lo, cols = cs->hi - cs->lo;
    int peer;
    if (send)
        peer = g->rank[rp->d * g->npcol + cp->d];
    else
        peer = w->flip ? g->rank[cp->s * g->npcol + rp->s]
                       : g->rank[rp->s * g->npcol + cp->s];
    if (w->phase == 0) {
        w->count[peer] += rows * cols;
        return;
    }
    char *buf = w->buf + (size_t)w->disp[peer] * w->t->size;
    w->disp[peer] += rows * cols;
    if (send) {
        /* Source element of dst (i, j): src(i, j), or src(j, i) for op. */
        const pumma_view_t *s = w->src;
        int li, lj;
        if (!tr) {
            li = pumma_dist_before(&s->row, rs->lo, w->sr);
            lj = pumma_dist_before(&s->col, cs->lo, w->sc);
        } else {
            li = pumma_dist_before(&s->row, cs->lo, w->sr);
            lj = pumma_dist_before(&s->col, rs->lo, w->sc);
        }
        w->t->geadd(w->op, rows, cols, w->t->one,
                    pumma_at(w->t, s->data, li, lj, s->ld), s->ld,
                    w->t->zero, buf, rows);
    } else {
        pumma_view_t *d = w->dst;
        int li = pumma_dist_before(&d->row, rs->lo, g->myrow);
        int lj = pumma_dist_before(&d->col, cs->lo, g->mycol);
        w->t->geadd('N', rows, cols, w->alpha, buf, rows, w->beta,
                    pumma_at(w->t, d->data, li, lj, d->ld), d->ld);
    }
}

static void walk(walk_t *w, int send, const segs_t *R, const segs_t *C)
{
    const pumma_grid_t *g = w->g;
    /* My coordinate along each segment list, as source or destination. */
    int rme = send ? (w->flip ? g->mycol : g->myrow) : g->myrow;
    int cme = send ? (w->flip ? g->myrow : g->mycol) : g->mycol;
    for (int c = 0; c < C->n; c++) {
        const seg_t *cs = &C->seg[c];
        for (int cp = cs->first_pair; cp < cs->first_pair + cs->npairs; cp++) {
            const pair_t *cpp = &C->pair[cp];
            if ((send ? cpp->s : cpp->d) != cme) continue;
            for (int r = 0; r < R->n; r++) {
                const seg_t *rs = &R->seg[r];
                for (int rp = rs->first_pair; rp < rs->first_pair + rs->npairs;
                     rp++) {
                    const pair_t *rpp = &R->pair[rp];
                    if ((send ? rpp->s : rpp->d) != rme) continue;
                    visit(w, send, rs, rpp, cs, cpp);
                }
            }
        }
    }
}

static int redist(const pumma_type_t *t, const pumma_grid_t *g, int m,
                  int n, char op, int xgrid, const void *alpha,
                  const pumma_view_t *src, const void *beta,
                  pumma_view_t *dst)
{
    if (m == 0 || n == 0) return PUMMA_OK;
    const int tr = (op != 'N');
    segs_t R = {0}, C = {0};
    int np = g->nprow * g->npcol, rc = PUMMA_OK;
    int *cnt = calloc((size_t)np * 4, sizeof(int));
    char *sbuf = NULL, *rbuf = NULL;
    if (!cnt) return PUMMA_ENOMEM;
    int *scount = cnt, *sdisp = cnt + np, *rcount = cnt + 2 * np,
        *rdisp = cnt + 3 * np;

    if ((rc = segs_build(&dst->row, tr ? &src->col : &src->row, &R)) ||
        (rc = segs_build(&dst->col, tr ? &src->row : &src->col, &C)))
        goto out;

    walk_t w = {t, g, op, tr != xgrid, xgrid ? g->mycol : g->myrow,
                xgrid ? g->myrow : g->mycol, src, dst, alpha, beta, scount,
                NULL, NULL, 0};
    walk(&w, 1, &R, &C);
    w.count = rcount;
    walk(&w, 0, &R, &C);

    size_t stot = 0, rtot = 0;
    for (int p = 0; p < np; p++) {
        sdisp[p] = (int)stot; stot += (size_t)scount[p];
        rdisp[p] = (int)rtot; rtot += (size_t)rcount[p];
    }
    sbuf = pumma_malloc(stot * t->size);
    rbuf = pumma_malloc(rtot * t->size);
    if ((stot && !sbuf) || (rtot && !rbuf)) { rc = PUMMA_ENOMEM; goto out; }

    /* Pack with running offsets, then restore them for MPI. */
    int *run = malloc(sizeof(int) * (size_t)np);
    if (!run) { rc = PUMMA_ENOMEM; goto out; }
    memcpy(run, sdisp, sizeof(int) * (size_t)np);
    w.phase = 1; w.disp = run; w.buf = sbuf;
    walk(&w, 1, &R, &C);
    double t0 = pumma_stats_clock();
    int me_all;
    MPI_Comm_rank(g->all, &me_all);
    pumma_stats_sent((double)(stot - (size_t)scount[me_all]) * t->size);
    int mrc = MPI_Alltoallv(sbuf, scount, sdisp, t->mpi, rbuf, rcount, rdisp,
                            t->mpi, g->all);
    pumma_stats_comm(t0);
    if (mrc != MPI_SUCCESS) {
        free(run);
        rc = PUMMA_EMPI;
        goto out;
    }
    memcpy(run, rdisp, sizeof(int) * (size_t)np);
    w.disp = run; w.buf = rbuf;
    walk(&w, 0, &R, &C);
    free(run);
out:
    pumma_free(sbuf);
    pumma_free(rbuf);
    segs_free(&R);
    segs_free(&C);
    free(cnt);
    return rc;
}

int pumma_redist(const pumma_type_t *t, const pumma_grid_t *g, int m, int n,
                 char op, const void *alpha, const pumma_view_t *src,
                 const void *beta, pumma_view_t *dst)
{
    return redist(t, g, m, n, op, 0, alpha, src, beta, dst);
}

int pumma_redist_xgrid(const pumma_type_t *t, const pumma_grid_t *g, int m,
                       int n, const void *alpha, const pumma_view_t *src,
                       const void *beta, pumma_view_t *dst)
{
    return redist(t, g, m, n, 'N', 1, alpha, src, beta, dst);
}
