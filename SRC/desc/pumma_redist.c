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
 * order, so packed data needs no headers. Both sides count what goes
 * between every pair, so each exchange is one message per pair that has
 * data, point to point (not MPI_Alltoallv: a process talks to a few
 * others, and an all-to-all costs every process P - 1 latencies, or,
 * posted pairwise as MPI libraries and SMPI do, P^2 messages on P
 * processes: at 1,024 simulated ranks one took minutes).
 * A rectangle a process sends to itself skips the buffers: the receiving
 * walk adds it into the destination straight from the source (one copy
 * instead of two, and no buffer space: on 2 processes half of an
 * allgather-like redistribution stays home).
 *
 * In exchanges: the destination is cut into windows of whole columns (and,
 * when one column's rows are too many, of rows), each moved by its own
 * exchange, so that no process packs or receives more than `piece`
 * bytes at once -- the memory a redistribution needs next to its source
 * and destination (PUMMA_PIECE, 64 MiB by default) -- and never more than
 * INT_MAX elements (the counts and displacements are int), and a
 * local part beyond 2^31 elements (a 46341^2 matrix on one process) must
 * still move. The windows come from the segments alone (an upper bound of
 * what any process sends or receives in them, counted per grid coordinate,
 * replicas included), so every process cuts alike.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_desc.h"

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
        int bd = pumma_dist_block(dd, x), bs = pumma_dist_block(sd, x);
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
 * order both sides use, within the current window, calling visit for each. */
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
    int me;                     /* my rank in g->all */
    int self;                   /* 1: my own rectangles skip the buffers */
    int64_t *count;             /* per peer rank, elements */
    int64_t *disp;              /* per peer rank, running offset */
    char *buf;
    int phase;                  /* 0: count, 1: pack / unpack */
    int rlo, rhi, clo, chi;     /* the window: destination rows, columns */
} walk_t;

/* The rectangle rows [r0, r1) x columns [c0, c1) of the destination, from
 * the segments' pairs rp and cp. */
static void visit(walk_t *w, int send, int r0, int r1, const pair_t *rp,
                  int c0, int c1, const pair_t *cp)
{
    const pumma_grid_t *g = w->g;
    const int tr = (w->op != 'N');
    const int rows = r1 - r0, cols = c1 - c0;
    const int64_t elems = (int64_t)rows * cols;
    int peer;
    if (send)
        peer = g->rank[rp->d * g->npcol + cp->d];
    else
        peer = w->flip ? g->rank[cp->s * g->npcol + rp->s]
                       : g->rank[rp->s * g->npcol + cp->s];
    const int home = w->self && peer == w->me;
    if (w->phase == 0) {
        if (!home) w->count[peer] += elems;
        return;
    }
    if (send && home) return;      /* added by the receiving walk */
    /* Source element of dst (i, j): src(i, j), or src(j, i) for op. */
    const pumma_view_t *s = w->src;
    const char *from = NULL;
    if (send || home) {
        int li, lj;
        if (!tr) {
            li = pumma_dist_before(&s->row, r0, w->sr);
            lj = pumma_dist_before(&s->col, c0, w->sc);
        } else {
            li = pumma_dist_before(&s->row, c0, w->sr);
            lj = pumma_dist_before(&s->col, r0, w->sc);
        }
        from = pumma_at(w->t, s->data, li, lj, s->ld);
    }
    char *buf = NULL;
    if (!home) {
        buf = w->buf + (size_t)w->disp[peer] * w->t->size;
        w->disp[peer] += elems;
    }
    if (send) {
        w->t->geadd(w->op, rows, cols, w->t->one, from, s->ld, w->t->zero,
                    buf, rows);
    } else {
        pumma_view_t *d = w->dst;
        int li = pumma_dist_before(&d->row, r0, g->myrow);
        int lj = pumma_dist_before(&d->col, c0, g->mycol);
        char *to = pumma_at(w->t, d->data, li, lj, d->ld);
        if (home)
            w->t->geadd(w->op, rows, cols, w->alpha, from, s->ld, w->beta, to,
                        d->ld);
        else
            w->t->geadd('N', rows, cols, w->alpha, buf, rows, w->beta, to,
                        d->ld);
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
        const int c0 = cs->lo > w->clo ? cs->lo : w->clo;
        const int c1 = cs->hi < w->chi ? cs->hi : w->chi;
        if (c0 >= c1) continue;
        for (int cp = cs->first_pair; cp < cs->first_pair + cs->npairs; cp++) {
            const pair_t *cpp = &C->pair[cp];
            if ((send ? cpp->s : cpp->d) != cme) continue;
            for (int r = 0; r < R->n; r++) {
                const seg_t *rs = &R->seg[r];
                const int r0 = rs->lo > w->rlo ? rs->lo : w->rlo;
                const int r1 = rs->hi < w->rhi ? rs->hi : w->rhi;
                if (r0 >= r1) continue;
                for (int rp = rs->first_pair; rp < rs->first_pair + rs->npairs;
                     rp++) {
                    const pair_t *rpp = &R->pair[rp];
                    if ((send ? rpp->s : rpp->d) != rme) continue;
                    visit(w, send, r0, r1, rpp, c0, c1, cpp);
                }
            }
        }
    }
}

/*
 * The end of the window of S's indices that starts at `from`: as far as
 * the weight allows, at least one index. The weight of a window is, over
 * the grid coordinates, the most indices any one receives (pair.d) or
 * sends (pair.s) in it, replicas counted: what a process holds of a
 * window of rows is at most its row weight times the column weight.
 *   cnt  (workspace) 2 * nc counters; nc: coordinates along either list.
 */
static int window_end(const segs_t *S, int n, int from, int64_t cap,
                      int64_t *cnt, int nc)
{
    memset(cnt, 0, sizeof(int64_t) * 2 * (size_t)nc);
    int x = from, i = 0;
    while (i < S->n && S->seg[i].hi <= x) i++;
    for (; i < S->n && x < n; i++) {
        const seg_t *sg = &S->seg[i];
        int64_t take = sg->hi - x;
        /* room left for the coordinates this segment loads, each as many
         * times as it appears among the segment's pairs */
        for (int p = sg->first_pair; p < sg->first_pair + sg->npairs; p++)
            for (int side = 0; side < 2; side++) {
                const int q = side ? S->pair[p].s : S->pair[p].d;
                int64_t mult = 0;
                for (int u = sg->first_pair; u < sg->first_pair + sg->npairs; u++)
                    mult += (side ? S->pair[u].s : S->pair[u].d) == q;
                int64_t room = (cap - cnt[side * nc + q]) / mult;
                if (room < take) take = room;
            }
        if (take <= 0) return x > from ? x : x + 1;
        for (int p = sg->first_pair; p < sg->first_pair + sg->npairs; p++) {
            cnt[S->pair[p].d] += take;
            cnt[nc + S->pair[p].s] += take;
        }
        x += (int)take;
        if (x < sg->hi) return x;        /* the window ends inside it */
    }
    return x;
}

/* The weight of the one index x of S: the most times a coordinate
 * appears among the pairs of x's segment. */
static int64_t weight1(const segs_t *S, int x, int64_t *cnt, int nc)
{
    memset(cnt, 0, sizeof(int64_t) * 2 * (size_t)nc);
    int64_t most = 1;
    for (int i = 0; i < S->n; i++) {
        if (x < S->seg[i].lo || x >= S->seg[i].hi) continue;
        for (int p = S->seg[i].first_pair;
             p < S->seg[i].first_pair + S->seg[i].npairs; p++) {
            int64_t d = ++cnt[S->pair[p].d], s = ++cnt[nc + S->pair[p].s];
            if (d > most) most = d;
            if (s > most) most = s;
        }
    }
    return most;
}

/* The weight of all of S (see window_end). */
static int64_t weight(const segs_t *S, int64_t *cnt, int nc)
{
    memset(cnt, 0, sizeof(int64_t) * 2 * (size_t)nc);
    int64_t most = 0;
    for (int i = 0; i < S->n; i++)
        for (int p = S->seg[i].first_pair;
             p < S->seg[i].first_pair + S->seg[i].npairs; p++) {
            int64_t len = S->seg[i].hi - S->seg[i].lo;
            int64_t *d = &cnt[S->pair[p].d], *s = &cnt[nc + S->pair[p].s];
            *d += len;
            *s += len;
            if (*d > most) most = *d;
            if (*s > most) most = *s;
        }
    return most;
}

/* Elements per process per exchange: the piece, and an int. */
static int64_t exchange_cap(const pumma_type_t *t, size_t piece)
{
    int64_t cap = piece ? (int64_t)(piece / t->size) : INT64_MAX;
    if (cap > pumma_count_max) cap = pumma_count_max;   /* an int */
    return cap < 1 ? 1 : cap;
}

/* The packed data of one exchange moved: a message to each process with a
 * count, one from each expected, on the grid's `all` (one exchange at a
 * time, every one complete before the next: between two processes the
 * k-th message is the k-th exchange's, rule 2 of pumma_comm.h). */
static int move(const pumma_type_t *t, MPI_Comm all, int me, int np,
                const char *sbuf, const int *scount, const int *sdisp,
                char *rbuf, const int *rcount, const int *rdisp)
{
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(2 * np));
    if (!req) return PUMMA_ENOMEM;
    int n = 0, rc = PUMMA_OK;
    for (int p = 0; p < np && !rc; p++)
        if (p != me && rcount[p] > 0)
            rc = pumma_irecv(rbuf + (size_t)rdisp[p] * t->size, rcount[p],
                             t->mpi, p, PUMMA_TAG_REDIST, all, &req[n++]);
    for (int p = 0; p < np && !rc; p++)
        if (p != me && scount[p] > 0)
            rc = pumma_isend(sbuf + (size_t)sdisp[p] * t->size, scount[p],
                             t->mpi, p, PUMMA_TAG_REDIST, all, &req[n++]);
    if (scount[me] > 0)   /* the kernel, which simulations charge */
        t->geadd('N', scount[me], 1, t->one, sbuf + (size_t)sdisp[me] * t->size,
                 scount[me], t->zero, rbuf + (size_t)rdisp[me] * t->size,
                 scount[me]);
    /* a failed post (MPI's errors are fatal unless the program says
     * otherwise) leaves those posted to complete before the error */
    if (MPI_Waitall(n, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS) rc = 1;
    free(req);
    return rc ? PUMMA_EMPI : PUMMA_OK;
}

/* One exchange: the window w->rlo.. x w->clo.. counted, packed, moved,
 * unpacked. */
static int exchange(walk_t *w, const segs_t *R, const segs_t *C, int *cnt,
                    int np)
{
    const pumma_type_t *t = w->t;
    int *scount = cnt, *sdisp = cnt + np, *rcount = cnt + 2 * np,
        *rdisp = cnt + 3 * np;
    int64_t *c64 = calloc((size_t)np * 2, sizeof(int64_t));
    int64_t *run = malloc(sizeof(int64_t) * (size_t)np);
    char *sbuf = NULL, *rbuf = NULL;
    int rc = PUMMA_OK;
    if (!c64 || !run) { rc = PUMMA_ENOMEM; goto out; }
    w->phase = 0;
    w->count = c64;
    walk(w, 1, R, C);
    w->count = c64 + np;
    walk(w, 0, R, C);
    int64_t stot = 0, rtot = 0;
    for (int p = 0; p < np; p++) {
        sdisp[p] = (int)stot; scount[p] = (int)c64[p]; stot += c64[p];
        rdisp[p] = (int)rtot; rcount[p] = (int)c64[np + p]; rtot += c64[np + p];
    }
    /* the windows keep every total within int (exchange_cap) */
    if (stot > INT_MAX || rtot > INT_MAX) { rc = PUMMA_EMPI; goto out; }
    sbuf = pumma_malloc((size_t)stot * t->size);
    rbuf = pumma_malloc((size_t)rtot * t->size);
    if ((stot && !sbuf) || (rtot && !rbuf)) { rc = PUMMA_ENOMEM; goto out; }

    /* Pack with running offsets. */
    for (int p = 0; p < np; p++) run[p] = sdisp[p];
    w->phase = 1; w->disp = run; w->buf = sbuf;
    walk(w, 1, R, C);
    double t0 = pumma_stats_clock();
    rc = move(t, w->g->all, w->me, np, sbuf, scount, sdisp, rbuf, rcount,
              rdisp);
    pumma_stats_comm(t0);
    if (rc) goto out;
    for (int p = 0; p < np; p++) run[p] = rdisp[p];
    w->disp = run; w->buf = rbuf;
    walk(w, 0, R, C);
out:
    pumma_free(sbuf);
    pumma_free(rbuf);
    free(c64);
    free(run);
    return rc;
}

static int redist(const pumma_type_t *t, const pumma_grid_t *g, int m,
                  int n, char op, int xgrid, const void *alpha,
                  const pumma_view_t *src, const void *beta,
                  pumma_view_t *dst, size_t piece)
{
    if (m == 0 || n == 0) return PUMMA_OK;
    const int tr = (op != 'N');
    segs_t R = {0}, C = {0};
    const int np = g->nprow * g->npcol;
    const int nc = g->nprow > g->npcol ? g->nprow : g->npcol;
    int rc = PUMMA_OK;
    int *cnt = calloc((size_t)np * 4, sizeof(int));
    int64_t *wc = calloc((size_t)nc * 2, sizeof(int64_t));
    if (!cnt || !wc) { rc = PUMMA_ENOMEM; goto out; }

    if ((rc = segs_build(&dst->row, tr ? &src->col : &src->row, &R)) ||
        (rc = segs_build(&dst->col, tr ? &src->row : &src->col, &C)))
        goto out;

    walk_t w = {t, g, op, tr != xgrid, xgrid ? g->mycol : g->myrow,
                xgrid ? g->myrow : g->mycol, src, dst, alpha, beta, 0,
                /* in place, the source could be overwritten before read */
                src->data != dst->data, NULL, NULL, NULL, 0, 0, m, 0, n};
    MPI_Comm_rank(g->all, &w.me);
    /* Windows of whole columns while a column of rows fits the cap, else
     * windows of rows within one column at a time. */
    const int64_t cap = exchange_cap(t, piece), rw = weight(&R, wc, nc);
    for (int c0 = 0; rc == PUMMA_OK && c0 < n;) {
        const int c1 = rw <= cap ? window_end(&C, n, c0, cap / rw, wc, nc)
                                 : c0 + 1;
        const int64_t cw = c1 - c0 == 1 ? weight1(&C, c0, wc, nc) : 0;
        for (int r0 = 0; rc == PUMMA_OK && r0 < m;) {
            const int r1 = rw <= cap ? m : window_end(&R, m, r0, cap / cw, wc, nc);
            w.rlo = r0; w.rhi = r1; w.clo = c0; w.chi = c1;
            rc = exchange(&w, &R, &C, cnt, np);
            r0 = r1;
        }
        c0 = c1;
    }
out:
    segs_free(&R);
    segs_free(&C);
    free(cnt);
    free(wc);
    return rc;
}

int pumma_redist(const pumma_type_t *t, const pumma_grid_t *g, int m, int n,
                 char op, const void *alpha, const pumma_view_t *src,
                 const void *beta, pumma_view_t *dst, size_t piece)
{
    return redist(t, g, m, n, op, 0, alpha, src, beta, dst, piece);
}

int pumma_redist_xgrid(const pumma_type_t *t, const pumma_grid_t *g, int m,
                       int n, const void *alpha, const pumma_view_t *src,
                       const void *beta, pumma_view_t *dst, size_t piece)
{
    return redist(t, g, m, n, 'N', 1, alpha, src, beta, dst, piece);
}

int pumma_redist_alloc(const pumma_type_t *t, const pumma_grid_t *g, int m,
                       int n, char op, const pumma_view_t *src,
                       pumma_view_t *dst, size_t piece)
{
    const int rc = pumma_view_alloc(t, g, dst);
    return rc ? rc : redist(t, g, m, n, op, 0, t->one, src, t->zero, dst,
                            piece);
}

/* The most bytes one redistribution holds at once in one process beside
 * its source and destination (its send and receive buffers): at most
 * `piece` each, and no more than the local parts themselves (src_bytes,
 * dst_bytes: the largest any process holds). */
size_t pumma_redist_workspace(size_t piece, size_t src_bytes,
                              size_t dst_bytes)
{
    size_t cap = piece ? piece : SIZE_MAX;
    return (src_bytes < cap ? src_bytes : cap) +
           (dst_bytes < cap ? dst_bytes : cap);
}
