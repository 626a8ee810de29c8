/*
 * pumma_rankk.c -- "rankk": C := alpha*op(A)*op(B) + beta*C with C kept
 * where it is (stationary C), for the calls ScaLAPACK's solvers make most:
 * rank-k updates of a trailing matrix (K = NB or a few blocks, BETA = 1,
 * submatrices at block offsets) and other calls with a short K.
 *
 * K is cut into segments on which both the owner of op(A)'s columns (a
 * grid column) and the owner of op(B)'s rows (a grid row) are constant.
 * Segment j's columns of op(A) are broadcast along each grid row from their
 * owner, its rows of op(B) down each grid column from theirs, and every
 * process adds their product into its own part of C: one local multiply
 * per segment (one in all for a rank-NB update at a block boundary), BETA
 * applied by the first. The broadcasts of the next segments are in flight
 * while one is multiplied (up to DEPTH segments), so for a long K this is
 * SUMMA with look-ahead, and C is never copied, scaled or cleared apart
 * from the multiply.
 *
 * Needs: op(A)'s rows distributed like C's rows and op(B)'s columns like
 * C's columns. For 'N' operands the driver aligns them if they are not
 * (align); a transposed operand is transposed by run() itself into a
 * temporary of that form (pumma_redist), since a view cannot say "A's
 * columns over the grid's rows". K's blockings of A and B need not agree.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

enum { DEPTH = 4 };             /* segments in flight at once, at most */

static int handles(char ta, char tb) { (void)ta; (void)tb; return 1; }

static void align(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
    if (have->transa == 'N') want->a.row = have->c.row;
    if (have->transb == 'N') want->b.col = have->c.col;
}

/* The segment of K starting at x: its end, and the owners of op(A)'s
 * columns (ka, over the grid's columns) and op(B)'s rows (kb, over its
 * rows) there (-1: every process holds them). */
static int seg_end(const pumma_dist_t *ka, const pumma_dist_t *kb, int x,
                   int *qa, int *pb)
{
    const int ba = pumma_dist_block(ka, x), bb = pumma_dist_block(kb, x);
    const int ea = pumma_dist_bstart(ka, ba) + pumma_dist_bsize(ka, ba);
    const int eb = pumma_dist_bstart(kb, bb) + pumma_dist_bsize(kb, bb);
    *qa = ka->np == 1 ? -1 : pumma_dist_owner(ka, ba);
    *pb = kb->np == 1 ? -1 : pumma_dist_owner(kb, bb);
    return ea < eb ? ea : eb;
}

static int nsegments(const pumma_dist_t *ka, const pumma_dist_t *kb, int k,
                     int *longest)
{
    int n = 0, qa, pb;
    *longest = 0;
    for (int x = 0; x < k; n++) {
        int e = seg_end(ka, kb, x, &qa, &pb);
        if (e - x > *longest) *longest = e - x;
        x = e;
    }
    return n;
}

/* op(A) (m x k) as a view with C's rows, or op(B) (k x n) with C's
 * columns: the operand itself when 'N', else the shape a transposed
 * temporary gets -- K blocked as the operand's K dimension, over the
 * other grid dimension, from coordinate 0. */
static pumma_dist_t k_over(const pumma_dist_t *k, int np)
{
    pumma_dist_t d = pumma_dist_owned(k);
    d.np = np;
    d.src = 0;
    return d;
}

static void op_views(const pumma_problem_t *p, pumma_view_t *av,
                     pumma_view_t *bv)
{
    *av = p->a;
    *bv = p->b;
    if (p->transa != 'N') {
        av->row = p->c.row;
        av->col = k_over(&p->a.row, p->g->npcol);
        av->data = NULL;
    }
    if (p->transb != 'N') {
        bv->row = k_over(&p->b.col, p->g->nprow);
        bv->col = p->c.col;
        bv->data = NULL;
    }
}

/* A segment in flight: its broadcasts along the row (A) and down the
 * column (B), and where its pieces of op(A) and op(B) are. */
typedef struct seg {
    int x, len, qa, pb;
    pumma_coll_t ca, cb;
    int has_a, has_b;           /* a broadcast was started */
    const char *a, *b;          /* the pieces, ld mloc / len (or the view's) */
    int lda, ldb;
} seg_t;

typedef struct pend { seg_t *s; int n; const pumma_coll_ops_t *bc; } pend_t;

static int progress(void *ctx)
{
    pend_t *pd = ctx;
    int pending = 0;
    for (int i = 0; i < pd->n; i++) {
        int done = 1;
        if (pd->s[i].has_a) pd->bc->test(&pd->s[i].ca, &done);
        if (!done) pending = 1;
        done = 1;
        if (pd->s[i].has_b) pd->bc->test(&pd->s[i].cb, &done);
        if (!done) pending = 1;
    }
    return pending;
}

typedef struct ctx {
    const pumma_problem_t *p;
    const pumma_view_t *av, *bv;
    int mloc, nloc, longest;
    char *abuf[DEPTH], *bbuf[DEPTH];
} ctx_t;

/* Start segment s (slot i): pack what this process roots, post the
 * broadcasts, or point at the local piece when no one needs to send. */
static int seg_start(ctx_t *c, seg_t *s, int slot)
{
    const pumma_problem_t *p = c->p;
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const pumma_view_t *av = c->av, *bv = c->bv;
    const pumma_coll_ops_t *bc = p->plan->bcast;
    const int mloc = c->mloc, nloc = c->nloc, L = s->len;
    int rc;
    s->has_a = s->has_b = 0;
    /* op(A)'s columns x .. x+L-1, along my grid row. */
    if (mloc > 0) {
        const int q = s->qa < 0 ? g->mycol : s->qa;
        const char *mine = NULL;
        if (q == g->mycol)
            mine = pumma_at(t, av->data, 0,
                            pumma_dist_before(&av->col, s->x, g->mycol),
                            av->ld);
        if (s->qa < 0) {
            s->a = mine;
            s->lda = av->ld;
        } else {
            char *buf = c->abuf[slot];
            /* columns x .. of my part are contiguous when LLD is mloc */
            if (mine && av->ld != mloc && L > 1) {
                t->geadd('N', mloc, L, t->one, mine, av->ld, t->zero, buf,
                         mloc);
                mine = buf;
            }
            s->a = mine ? mine : buf;
            s->lda = mine && mine != buf ? av->ld : mloc;
            s->ca = pumma_coll_of(p, (void *)s->a, NULL, (int64_t)mloc * L,
                                  s->qa, g->row, PUMMA_TAG_BCAST + slot);
            if ((rc = bc->start(&s->ca))) return rc;
            s->has_a = 1;
        }
    }
    /* op(B)'s rows x .. x+L-1, down my grid column. */
    if (nloc > 0) {
        const int r = s->pb < 0 ? g->myrow : s->pb;
        const char *mine = NULL;
        if (r == g->myrow)
            mine = pumma_at(t, bv->data,
                            pumma_dist_before(&bv->row, s->x, g->myrow), 0,
                            bv->ld);
        if (s->pb < 0) {
            s->b = mine;
            s->ldb = bv->ld;
        } else {
            char *buf = c->bbuf[slot];
            /* rows x .. of my part are contiguous only in one column or
             * when they are all of it */
            if (mine && nloc > 1 && bv->ld != L) {
                t->geadd('N', L, nloc, t->one, mine, bv->ld, t->zero, buf, L);
                mine = buf;
            }
            s->b = mine ? mine : buf;
            s->ldb = mine && mine != buf ? bv->ld : L;
            s->cb = pumma_coll_of(p, (void *)s->b, NULL, (int64_t)L * nloc,
                                  s->pb, g->col, PUMMA_TAG_BCAST + slot);
            if ((rc = bc->start(&s->cb))) return rc;
            s->has_b = 1;
        }
    }
    return PUMMA_OK;
}

static int run(const pumma_problem_t *p)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const pumma_coll_ops_t *bc = p->plan->bcast;
    pumma_view_t av, bv;
    op_views(p, &av, &bv);
    int rc = PUMMA_OK;
    ctx_t c = {p, &av, &bv, pumma_view_mloc(&p->c, g->myrow),
               pumma_view_nloc(&p->c, g->mycol), 0, {NULL}, {NULL}};
    seg_t seg[DEPTH];
    memset(seg, 0, sizeof seg);
    int posted = 0, done = 0, x = 0;
    const int nseg = nsegments(&av.col, &bv.row, p->k, &c.longest);
    const int depth = nseg < DEPTH ? nseg : DEPTH;

    const size_t piece = (size_t)p->plan->piece;
    if (p->transa != 'N' &&
        (rc = pumma_redist_alloc(t, g, p->m, p->k, p->transa, &p->a, &av,
                                 piece)))
        goto out;
    if (p->transb != 'N' &&
        (rc = pumma_redist_alloc(t, g, p->k, p->n, p->transb, &p->b, &bv,
                                 piece)))
        goto out;
    for (int i = 0; i < depth; i++) {
        const size_t L = (size_t)c.longest;
        c.abuf[i] = pumma_malloc((size_t)c.mloc * L * t->size);
        c.bbuf[i] = pumma_malloc(L * (size_t)c.nloc * t->size);
        if ((c.mloc && !c.abuf[i]) || (c.nloc && !c.bbuf[i])) {
            rc = PUMMA_ENOMEM;
            goto out;
        }
    }
    /* Segment j uses slot j % depth; a slot is reused only once its
     * broadcasts are complete (pumma_comm.h, rule 2: the tag is the
     * slot's). */
    while (done < nseg) {
        while (posted < nseg && posted < done + depth) {
            seg_t *s = &seg[posted % depth];
            s->x = x;
            x = seg_end(&av.col, &bv.row, x, &s->qa, &s->pb);
            s->len = x - s->x;
            if ((rc = seg_start(&c, s, posted % depth))) goto out;
            posted++;
        }
        /* Wait for what this segment receives to arrive, relaying the
         * other segments' pieces meanwhile (pumma_bcast_await); its
         * forwards and what it roots complete after the multiply (the
         * data is not written meanwhile), before its slot is refilled. */
        seg_t *s = &seg[done % depth];
        const int root_a = s->has_a && s->qa == g->mycol;
        const int root_b = s->has_b && s->pb == g->myrow;
        pumma_coll_t *inflight[2 * DEPTH];
        int nin = 0;
        for (int i = 0; i < depth; i++) {
            if (seg[i].has_a) inflight[nin++] = &seg[i].ca;
            if (seg[i].has_b) inflight[nin++] = &seg[i].cb;
        }
        double t0 = pumma_stats_clock();
        if (s->has_a && !root_a &&
            (rc = pumma_bcast_await(bc, &s->ca, inflight, nin)))
            goto out;
        if (s->has_b && !root_b &&
            (rc = pumma_bcast_await(bc, &s->cb, inflight, nin)))
            goto out;
        pumma_stats_comm(t0);
        if (c.mloc > 0 && c.nloc > 0) {
            pend_t pd = {seg, depth, bc};
            pumma_local_gemm(p, 'N', 'N', c.mloc, c.nloc, s->len, p->alpha,
                             s->a, s->lda, s->b, s->ldb,
                             done == 0 ? p->beta : t->one, p->c.data, p->c.ld,
                             progress, &pd);
        }
        t0 = pumma_stats_clock();
        if (s->has_a && (rc = bc->wait(&s->ca))) goto out;
        if (s->has_b && (rc = bc->wait(&s->cb))) goto out;
        pumma_stats_comm(t0);
        s->has_a = s->has_b = 0;
        done++;
    }
out:
    for (int i = 0; i < DEPTH; i++) {
        pumma_free(c.abuf[i]);
        pumma_free(c.bbuf[i]);
    }
    if (p->transa != 'N') pumma_free(av.data);
    if (p->transb != 'N') pumma_free(bv.data);
    return rc;
}

/*
 * Modelled time: the transposing redistributions, if any; then per
 * segment a multiply (mloc x nloc x len) and the two broadcasts of the
 * next, overlapped as far as the machine does (pumma_model_hide); the
 * first segment's broadcasts are exposed, the last multiply alone. Packing:
 * op(B)'s rows always, op(A)'s columns when its LLD is not mloc (counted
 * as always: LLD is local).
 */
static double cost(const pumma_problem_t *p, const pumma_model_t *mo)
{
    const pumma_type_t *t = p->t;
    const double e = (double)t->size;
    const int P = p->g->nprow, Q = p->g->npcol;
    pumma_view_t av, bv;
    op_views(p, &av, &bv);
    int longest;
    const int nseg = nsegments(&av.col, &bv.row, p->k, &longest);
    const double mloc = (double)pumma_dist_maxcount(&p->c.row);
    const double nloc = (double)pumma_dist_maxcount(&p->c.col);
    const double L = (double)p->k / nseg;
    const double seg_op = p->plan->segment;
    const double ca = Q > 1 && av.col.src >= 0
                          ? pumma_coll_price(p->g, p->plan->bcast, mo,
                                             PUMMA_ALONG_ROW, Q,
                                             mloc * L * e, seg_op)
                          : 0;
    const double cb = P > 1 && bv.row.src >= 0
                          ? pumma_coll_price(p->g, p->plan->bcast, mo,
                                             PUMMA_ALONG_COL, P,
                                             L * nloc * e, seg_op)
                          : 0;
    const double w = pumma_model_gemm(mo, t, mloc, nloc, L, 0);
    double T = ca + cb + (nseg - 1) * pumma_model_hide(mo, w, ca + cb) + w;
    T += nseg * pumma_model_copy(mo, ((Q > 1 ? mloc : 0) + (P > 1 ? nloc : 0)) * L * e, 0);
    const int np = P * Q;
    if (p->transa != 'N')
        T += pumma_model_redist(mo, np, mloc * (double)p->k / Q * e, 1);
    if (p->transb != 'N')
        T += pumma_model_redist(mo, np, (double)p->k / P * nloc * e, 1);
    return T;
}

static unsigned uses(const pumma_problem_t *p)
{
    return p->g->nprow > 1 || p->g->npcol > 1 ? PUMMA_USES_BCAST : 0u;
}

/* The segments' buffers, and the transposed operands with their
 * redistribution's buffers. */
static size_t workspace(const pumma_problem_t *p)
{
    const size_t e = p->t->size;
    pumma_view_t av, bv;
    op_views(p, &av, &bv);
    int longest;
    const int nseg = nsegments(&av.col, &bv.row, p->k, &longest);
    const size_t depth = (size_t)(nseg < DEPTH ? nseg : DEPTH);
    const size_t mloc = (size_t)pumma_dist_maxcount(&p->c.row);
    const size_t nloc = (size_t)pumma_dist_maxcount(&p->c.col);
    const size_t segs = depth * (size_t)longest * (mloc + nloc) * e;
    const size_t piece = (size_t)p->plan->piece;
    size_t ta = 0, tb = 0, peak = 0;
    if (p->transa != 'N') {
        ta = pumma_view_maxelems(&av) * e;
        peak = ta + pumma_redist_workspace(
                        piece, pumma_view_maxelems(&p->a) * e, ta);
    }
    if (p->transb != 'N') {
        tb = pumma_view_maxelems(&bv) * e;
        const size_t ph = ta + tb + pumma_redist_workspace(
                              piece, pumma_view_maxelems(&p->b) * e, tb);
        if (ph > peak) peak = ph;
    }
    return ta + tb + segs > peak ? ta + tb + segs : peak;
}

const pumma_algo_t pumma_algo_rankk = {
    "rankk",
    "C stays; each K-segment of op(A) row-cast and of op(B) column-cast, one "
    "multiply per segment (rank-k updates, short K)",
    handles, align, run, cost, uses, workspace, PUMMA_CALL_BLOCK, NULL, NULL,
    0};
