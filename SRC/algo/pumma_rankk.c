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
 * per group of segments (one in all for a rank-NB update at a block
 * boundary), BETA applied by the first. The broadcasts of the next group
 * are in flight while one is multiplied, so for a long K this is SUMMA
 * with look-ahead, and C is never copied, scaled or cleared apart from
 * the multiply.
 *
 * Why groups: a multiply of depth k reads and writes C's part once, so
 * with k = NB = 64 C's traffic is a large share of it (this machine's
 * DGEMM on 512 x 512: 24% of a k = 64 update, 6% at k = 256; ScaLAPACK's
 * SUMMA multiplies one NB block at a time). A long K is multiplied
 * KDEEP at a time: the group's pieces of op(B), each received alone, are
 * stacked first (a copy of a fortieth of the multiply's time), op(A)'s
 * are adjacent already. The first segment is multiplied alone, so that
 * no more is waited for before the first multiply than without groups.
 *
 * The first multiply starts on the first pieces of op(B): its broadcast
 * comes in STREAM_PANELS pieces of whole columns, and C's panels are
 * multiplied as they arrive (pumma_local_gemm_ready), so only op(A) and
 * a quarter of op(B) are waited for before it. On clusters whose nodes
 * hold a grid row's neighbours, a column's broadcast crosses the network
 * and a row's mostly does not (the simulated hpc platform at 16 x 16: 200
 * against 44 us for 256 KB pipelined), and a rank-NB update is that one
 * multiply.
 *
 * Groups and panels depend on the shape only, never on when messages
 * arrive, so a call gives the same C every time.
 *
 * P?SYRK and P?HERK (bt_of_a: op(B) is op(A) transposed, the same
 * matrix): op(B) is not moved at all. Its segment's columns are rows of
 * op(A) that the row broadcasts just brought, each on the process row
 * holding that row of C: one all-gather down each grid column makes them
 * (build_bt), none on one grid row. Against a transposing redistribution
 * of A then a broadcast down the columns, op(B) moves once, from data in
 * place. With TRANS 'T' or 'C' (at_of_b: op(A) = A**T, op(B) = A) the
 * mirror: op(B)'s segments go down the columns from where they are, and
 * op(A)'s rows are their columns, gathered along each grid row
 * (build_at) -- not A transposed into a temporary, broadcast along the
 * rows and gathered back down the columns.
 *
 * Needs: op(A)'s rows distributed like C's rows and op(B)'s columns like
 * C's columns. For 'N' operands the driver aligns them if they are not
 * (align); a transposed operand is transposed by run() itself into a
 * temporary of that form (pumma_redist), since a view cannot say "A's
 * columns over the grid's rows". K's blockings of A and B need not agree.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

/* Segments in flight: DEPTH, or two groups' worth (DEPTH_MOST at most).
 * KDEEP: the depth a group reaches when K has GROUPS_LEAST groups of it
 * (with fewer, the last multiply, alone at the end, would be a larger
 * share, as in a rank-k update's few segments). */
enum { DEPTH = 4, DEPTH_MOST = 8, KDEEP = 256, GROUPS_LEAST = 4 };
/* The first multiply's panels when op(B) streams in: STREAM_PANELS of
 * at least STREAM_LEAST columns, or of the plan's panel width when
 * narrower (PUMMA_PANEL; 0, no panels: no streaming). */
enum { STREAM_PANELS = 4, STREAM_LEAST = 64 };

/* The first multiply's panel width when op(B) streams in, 0 when it does
 * not: this process's choice (PUMMA_PANEL is per process), which only
 * says when it waits for which columns. */
static int stream_panel(int nloc, int P, int plan_panel)
{
    const int least = plan_panel < STREAM_LEAST ? plan_panel : STREAM_LEAST;
    if (P < 2 || least < 1 || nloc < STREAM_PANELS * least) return 0;
    return (nloc + STREAM_PANELS - 1) / STREAM_PANELS;
}

/* The elements per piece of the first op(B) broadcast, which every
 * process of the grid column must cut alike: PUMMA_SEGMENT's (shared),
 * else STREAM_PANELS pieces of whole columns when they are at least
 * STREAM_LEAST wide (the shape's alone), else whole (0). */
static int64_t stream_piece(const pumma_problem_t *p, int L, int nloc)
{
    if (p->plan->segment > 0) return p->plan->segment / (int64_t)p->t->size;
    if (nloc < STREAM_PANELS * STREAM_LEAST) return 0;
    return (int64_t)L * ((nloc + STREAM_PANELS - 1) / STREAM_PANELS);
}

/* Segments multiplied together after the first (1: each alone), and the
 * slots in flight (a multiple of the group: segment j is in slot
 * (j + group - 1) % depth, so that a group's slots are adjacent). */
static int group_of(int nseg, int longest)
{
    int g = longest > 0 ? (KDEEP + longest - 1) / longest : 1;
    if (g > nseg / GROUPS_LEAST) g = nseg / GROUPS_LEAST;
    if (g > DEPTH_MOST / 2) g = DEPTH_MOST / 2;
    return g < 1 ? 1 : g;
}

static int depth_of(int nseg, int group)
{
    const int d = group > 1 ? 2 * group : DEPTH;
    return nseg < d ? nseg : d;
}

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
    /* at_of_b: op(A) is never sent (build_at makes it), so K is cut
     * where op(B)'s owner changes */
    if (p->at_of_b) av->col = bv->row;
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

/*
 * When all of C's rows are on one process row, only that row multiplies:
 * op(B)'s rows are needed there alone, and a segment whose rows are there
 * already is not broadcast down the columns at all (so for op(A)'s columns
 * and C's one process column). C one block row beside a long B -- P?SYMM's
 * M = NB in PDSYGST, the single-block products of P?TRSM's recursion --
 * would otherwise send B to every process row, each but one to idle.
 * Never with bt_of_a: its gather takes every process of the column
 * (at_of_b's takes every process of the row, and op(A) is not sent).
 * From global values only: every process decides alike.
 */
static void sole_needs(const pumma_problem_t *p, int *rsole, int *csole)
{
    *rsole = p->g->nprow > 1 && !p->bt_of_a ? pumma_dist_sole(&p->c.row) : -1;
    *csole = p->g->npcol > 1 && !p->bt_of_a ? pumma_dist_sole(&p->c.col) : -1;
}

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
    char *abuf[DEPTH_MOST], *bbuf[DEPTH_MOST];
    char *astack, *bstack;      /* a group's pieces, when not adjacent */
    int bpanel;                 /* stream_panel's, 0: op(B) comes whole */
    char *btbuf, *gbuf;         /* bt_of_a: op(B) (at_of_b: op(A)), the
                                   gather's pieces */
    int *gcnt;                  /* their gather's counts (3 * P, 3 * Q) */
    int rsole, csole;           /* sole_needs(): C's one process row, column */
} ctx_t;

/* The first multiply's wait for op(B)'s columns, between its panels. */
typedef struct stream {
    pend_t pd;                  /* first: progress() takes it as its own */
    pumma_coll_t *cb, **inflight;
    int nin, ldb;
} stream_t;

static int ready_b(void *ctx, int j1)
{
    stream_t *st = ctx;
    const double t0 = pumma_stats_clock();
    const int rc = pumma_bcast_await_upto(st->pd.bc, st->cb,
                                          (int64_t)j1 * st->ldb,
                                          st->inflight, st->nin);
    pumma_stats_comm(t0);
    return rc;
}

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
    /* op(A)'s columns x .. x+L-1, along my grid row (at_of_b: made from
     * op(B)'s columns once they are here, build_at). */
    if (mloc > 0 && !p->at_of_b) {
        const int q = s->qa < 0 ? g->mycol : s->qa;
        const char *mine = NULL;
        if (q == g->mycol)
            mine = pumma_at(t, av->data, 0,
                            pumma_dist_before(&av->col, s->x, g->mycol),
                            av->ld);
        if (s->qa < 0 || q == c->csole) {   /* here, or needed here only */
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
    /* op(B)'s rows x .. x+L-1, down my grid column (bt_of_a: made from
     * op(A)'s rows once they are here, build_bt). */
    if (nloc > 0 && !p->bt_of_a) {
        const int r = s->pb < 0 ? g->myrow : s->pb;
        const char *mine = NULL;
        if (r == g->myrow)
            mine = pumma_at(t, bv->data,
                            pumma_dist_before(&bv->row, s->x, g->myrow), 0,
                            bv->ld);
        if (s->pb < 0 || r == c->rsole) {    /* here, or needed here only */
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
            if (s->x == 0) {                        /* the first streams */
                const int64_t sp = stream_piece(p, L, nloc);
                s->cb.segment = sp > INT_MAX ? INT_MAX : (int)sp;
            }
            if ((rc = bc->start(&s->cb))) return rc;
            s->has_b = 1;
        }
    }
    return PUMMA_OK;
}

/* The most temporaries run() holds with groups of `group` segments: the
 * segments' buffers (and the group's stacks), the transposed operands
 * with their redistribution's buffers. From global values only. */
static size_t footprint(const pumma_problem_t *p, int group)
{
    const size_t e = p->t->size;
    pumma_view_t av, bv;
    op_views(p, &av, &bv);
    int longest;
    const int nseg = nsegments(&av.col, &bv.row, p->k, &longest);
    const size_t depth = (size_t)depth_of(nseg, group);
    const size_t mloc = (size_t)pumma_dist_maxcount(&p->c.row);
    const size_t nloc = (size_t)pumma_dist_maxcount(&p->c.col);
    const size_t segs = (depth + (group > 1 ? (size_t)group : 0)) *
                        (size_t)longest * (mloc + nloc) * e;
    const size_t piece = (size_t)p->plan->piece;
    size_t ta = 0, tb = 0, peak = 0;
    if (p->transa != 'N' && !p->at_of_b) {
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

/* group_of's groups when their buffers fit the plan's workspace limit,
 * else one segment at a time (the least rankk holds: under a memory
 * limit it is often the plan that still fits). */
static int group_for(const pumma_problem_t *p, int nseg, int longest)
{
    const int g = group_of(nseg, longest);
    return g > 1 && (double)footprint(p, g) > p->plan->limit ? 1 : g;
}

/* The group of gn segments from `first` as one op(A) (mloc x kg) and one
 * op(B) (kg x nloc): as they lie where they are adjacent already (op(A)'s
 * slots are, one ring; pieces the operand holds in place may be), else
 * stacked into the group's buffers. */
static void gather(const ctx_t *c, seg_t *const *grp, int gn,
                   const char **a, int *lda, const char **b, int *ldb,
                   int *kg)
{
    const pumma_type_t *t = c->p->t;
    const size_t e = t->size;
    const seg_t *s0 = grp[0];
    int k = 0, adj_a = 1, adj_b = 1;
    for (int u = 0; u < gn; u++) {
        const seg_t *s = grp[u];
        /* (not op(A) nor op(B) as build_at and build_bt make them, nor
         * where this process holds none) */
        if (!c->p->at_of_b && c->mloc > 0 &&
            (s->lda != s0->lda || s->a != s0->a + (size_t)k * s0->lda * e))
            adj_a = 0;
        if (!c->p->bt_of_a && c->nloc > 0 &&
            (s->ldb != s0->ldb || s->b != s0->b + (size_t)k * e))
            adj_b = 0;
        k += s->len;
    }
    *kg = k;
    *a = s0->a;
    *lda = s0->lda;
    *b = s0->b;
    *ldb = s0->ldb;
    if (gn < 2) return;
    k = 0;
    for (int u = 0; u < gn; u++) {
        const seg_t *s = grp[u];
        if (!adj_a)
            t->geadd('N', c->mloc, s->len, t->one, s->a, s->lda, t->zero,
                     c->astack + (size_t)k * c->mloc * e, c->mloc);
        if (!adj_b)
            t->geadd('N', s->len, c->nloc, t->one, s->b, s->ldb, t->zero,
                     c->bstack + (size_t)k * e, *kg);
        k += s->len;
    }
    if (!adj_a) {
        *a = c->astack;
        *lda = c->mloc;
    }
    if (!adj_b) {
        *b = c->bstack;
        *ldb = *kg;
    }
}

/* Rows lr .. lr+r-1 of a (kg columns, lda) as r columns of kg elements
 * from y on (conjugated when conj): one transposing copy (geadd's strips)
 * for a run of C's columns whose rows of A are adjacent, not one element
 * at a time. */
static void copy_rows(const pumma_type_t *t, int kg, const char *a, int lda,
                      int lr, int r, char *y, int conj)
{
    t->geadd(conj ? 'C' : 'T', kg, r, t->one, a + (size_t)lr * t->size, lda,
             t->zero, y, kg);
}

/* Whether build_bt (build_at) gathers down the grid column (along the
 * row): C's rows (columns), d, on more than one of the line's np
 * processes (else every one it needs is here). */
static int gathers_on(const pumma_dist_t *d, int np)
{
    return np > 1 && d->src >= 0;
}

/* The run of my nloc indices of C along `from` (my coordinate mf) from j
 * on whose same indices along `to` are on my coordinate mt there (every
 * one, replicated) and adjacent: its length (0: index j's is elsewhere)
 * and, in *l0, the local index along `to` of its first. build_bt: my
 * columns whose rows are here; build_at: my rows whose columns are. */
static int mine_run(const pumma_dist_t *from, int mf, int nloc,
                    const pumma_dist_t *to, int mt, int j, int *l0)
{
    int r = 0;
    for (; j + r < nloc; r++) {
        const int gx = pumma_dist_global(from, j + r, mf);
        const int o = pumma_dist_owner(to, pumma_dist_block(to, gx));
        if (o >= 0 && o != mt) break;
        const int l = pumma_dist_before(to, gx, mt);
        if (r == 0) *l0 = l;
        else if (l != *l0 + r) break;
    }
    return r;
}

/* The pieces of the all-gather over a line of n processes: kg elements
 * for each of my nloc indices along `from` (my coordinate mf), from the
 * process holding that index along `to`: their counts (cnt), offsets
 * (dsp) and a copy of these (pos) to fill them by, at cnt, cnt + n,
 * cnt + 2n. */
static void pieces(const pumma_dist_t *from, int mf, int nloc,
                   const pumma_dist_t *to, int kg, int *cnt, int n)
{
    int *dsp = cnt + n, *pos = cnt + 2 * n;
    for (int r = 0; r < n; r++) cnt[r] = 0;
    for (int j = 0; j < nloc; j++) {
        const int gj = pumma_dist_global(from, j, mf);
        cnt[pumma_dist_owner(to, pumma_dist_block(to, gj))] += kg;
    }
    for (int r = 0; r < n; r++) {
        dsp[r] = r ? dsp[r - 1] + cnt[r - 1] : 0;
        pos[r] = dsp[r];
    }
}

/* build_bt's and build_at's all-gather of the pieces in buf (cnt, dsp)
 * over comm, where mine is piece me; want: the elements this process
 * needs in all (for PUMMA_STATS' received bytes). */
static int gather_pieces(const pumma_type_t *t, char *buf, int *cnt,
                         int *dsp, MPI_Comm comm, int me, size_t want)
{
    pumma_allgather_t ag;
    const double t0 = pumma_stats_clock();
    int rc = pumma_allgather_start(&ag, buf, cnt, dsp, t->mpi, t->size, comm,
                                   PUMMA_TAG_GATHER);
    if (!rc) rc = pumma_allgather_wait(&ag);
    pumma_stats_comm(t0);
    if (!rc)
        pumma_stats_recv((double)(want - (size_t)cnt[me]) * (double)t->size);
    return rc;
}

/*
 * bt_of_a (P?SYRK, P?HERK): op(B) for a group whose op(A) rows are here,
 * a (mloc x kg, lda; C's local rows I_p): column j of op(B) is row g_j of
 * op(A), g_j my j-th column of C (conjugated for the Hermitian forms).
 * Those rows are spread over my grid column, row g on the process row
 * holding C's row g: each process gives the ones it holds (I_p and my
 * columns J_q), one all-gather down the column (Bruck's, log2 P rounds),
 * and op(B) is assembled in C's column order. One grid row, or C's rows
 * on every process: no message.
 */
static int build_bt(ctx_t *c, const char *a, int lda, int kg, const char **b,
                    int *ldb)
{
    const pumma_problem_t *p = c->p;
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const size_t e = t->size;
    const int conj = t->is_complex && (p->transa == 'C' || p->transb == 'C');
    const pumma_dist_t *rows = &p->c.row, *cols = &p->c.col;
    const int P = g->nprow, me = g->myrow, nloc = c->nloc;
    char *bt = c->btbuf;
    *b = bt;
    *ldb = kg;
    if (!gathers_on(rows, P)) {
        for (int j = 0, lr = 0, r; j < nloc; j += r) {
            r = mine_run(cols, g->mycol, nloc, rows, me, j, &lr);
            copy_rows(t, kg, a, lda, lr, r, bt + (size_t)j * kg * e, conj);
        }
        return PUMMA_OK;
    }
    int *cnt = c->gcnt, *dsp = c->gcnt + P, *pos = c->gcnt + 2 * P;
    pieces(cols, g->mycol, nloc, rows, kg, cnt, P);
    char *buf = c->gbuf;
    for (int j = 0, lr = 0, r; j < nloc; j += r > 0 ? r : 1) {
        if ((r = mine_run(cols, g->mycol, nloc, rows, me, j, &lr)) == 0)
            continue;                                  /* mine, in runs */
        copy_rows(t, kg, a, lda, lr, r, buf + (size_t)pos[me] * e, conj);
        pos[me] += r * kg;
    }
    const int rc = gather_pieces(t, buf, cnt, dsp, g->col, me,
                                 (size_t)nloc * (size_t)kg);
    if (rc) return rc;
    for (int r = 0; r < P; r++) pos[r] = dsp[r];
    for (int j = 0; j < nloc; j++) {      /* in C's column order */
        const int gj = pumma_dist_global(cols, j, g->mycol);
        const int r = pumma_dist_owner(rows, pumma_dist_block(rows, gj));
        memcpy(bt + (size_t)j * kg * e, buf + (size_t)pos[r] * e,
               (size_t)kg * e);
        pos[r] += kg;
    }
    return PUMMA_OK;
}

/*
 * at_of_b (P?SYRK, P?HERK with TRANS 'T' or 'C'): op(A) (mloc x kg) for a
 * group whose op(B) columns are here, b (kg x nloc, ldb; C's local
 * columns J_q): row i of op(A) is column g_i of op(B), g_i my i-th row
 * of C (conjugated for the Hermitian forms). Those columns are spread
 * over my grid row, column g on the process column holding C's column g:
 * each process gives the ones it holds (J_q and my rows I_p), one
 * all-gather along the row, and op(A) is assembled in C's row order. One
 * grid column, or C's columns on every process: no message.
 */
static int build_at(ctx_t *c, const char *b, int ldb, int kg, const char **a,
                    int *lda)
{
    const pumma_problem_t *p = c->p;
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const size_t e = t->size;
    const int conj = t->is_complex && (p->transa == 'C' || p->transb == 'C');
    const pumma_dist_t *rows = &p->c.row, *cols = &p->c.col;
    const int Q = g->npcol, me = g->mycol, mloc = c->mloc, nloc = c->nloc;
    char *at = c->btbuf;
    *a = at;
    *lda = mloc;
    const char op = conj ? 'C' : 'T';
    if (!gathers_on(cols, Q)) {
        for (int i = 0, lc = 0, r; i < mloc; i += r > 0 ? r : 1) {
            if ((r = mine_run(rows, g->myrow, mloc, cols, me, i, &lc)) == 0)
                continue;                                /* (none) */
            t->geadd(op, r, kg, t->one, b + (size_t)lc * ldb * e, ldb,
                     t->zero, at + (size_t)i * e, mloc);
        }
        return PUMMA_OK;
    }
    int *cnt = c->gcnt, *dsp = c->gcnt + Q, *pos = c->gcnt + 2 * Q;
    pieces(rows, g->myrow, mloc, cols, kg, cnt, Q);
    /* mine: my columns that are rows of C here, in C's order, kg each */
    char *buf = c->gbuf;
    for (int j = 0; j < nloc; j++) {
        const int gj = pumma_dist_global(cols, j, me);
        const int o = pumma_dist_owner(rows, pumma_dist_block(rows, gj));
        if (o >= 0 && o != g->myrow) continue;
        memcpy(buf + (size_t)pos[me] * e, b + (size_t)j * ldb * e,
               (size_t)kg * e);
        pos[me] += kg;
    }
    const int rc = gather_pieces(t, buf, cnt, dsp, g->row, me,
                                 (size_t)mloc * (size_t)kg);
    if (rc) return rc;
    /* in C's row order: runs of rows from one process column are adjacent
     * in its piece, one transposing copy each */
    for (int q = 0; q < Q; q++) pos[q] = dsp[q];
    for (int i = 0, r; i < mloc; i += r) {
        const int gi = pumma_dist_global(rows, i, g->myrow);
        const int q = pumma_dist_owner(cols, pumma_dist_block(cols, gi));
        for (r = 1; i + r < mloc; r++) {
            const int gr = pumma_dist_global(rows, i + r, g->myrow);
            if (pumma_dist_owner(cols, pumma_dist_block(cols, gr)) != q)
                break;
        }
        t->geadd(op, r, kg, t->one, buf + (size_t)pos[q] * e, kg, t->zero,
                 at + (size_t)i * e, mloc);
        pos[q] += r * kg;
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
               pumma_view_nloc(&p->c, g->mycol), 0, {NULL}, {NULL}, NULL,
               NULL, 0, NULL, NULL, NULL, -1, -1};
    c.bpanel = stream_panel(c.nloc, g->nprow, p->plan->panel);
    sole_needs(p, &c.rsole, &c.csole);
    seg_t seg[DEPTH_MOST];
    memset(seg, 0, sizeof seg);
    int posted = 0, done = 0, x = 0;
    const int nseg = nsegments(&av.col, &bv.row, p->k, &c.longest);
    const int group = group_for(p, nseg, c.longest);
    const int depth = depth_of(nseg, group), off = group - 1;
    char *ring = NULL;

    const size_t piece = (size_t)p->plan->piece;
    if (p->transa != 'N' && !p->at_of_b &&
        (rc = pumma_redist_alloc(t, g, p->m, p->k, p->transa, &p->a, &av,
                                 piece)))
        goto out;
    if (p->transb != 'N' && !p->bt_of_a &&
        (rc = pumma_redist_alloc(t, g, p->k, p->n, p->transb, &p->b, &bv,
                                 piece)))
        goto out;
    const size_t L = (size_t)c.longest, e = t->size;
    const size_t mloc = (size_t)c.mloc, nloc = (size_t)c.nloc;
    if (mloc && !p->at_of_b &&
        !(ring = pumma_malloc((size_t)depth * mloc * L * e))) {
        rc = PUMMA_ENOMEM;
        goto out;
    }
    for (int i = 0; i < depth; i++) {
        c.abuf[i] = ring ? ring + (size_t)i * mloc * L * e : NULL;
        if (p->bt_of_a) continue;
        c.bbuf[i] = pumma_malloc(L * nloc * e);
        if (nloc && !c.bbuf[i]) {
            rc = PUMMA_ENOMEM;
            goto out;
        }
    }
    /* (the gather's buffers only where build_bt gathers: besides not
     * being needed, a second 1 MB block freed with op(B)'s made malloc
     * give both back to the system at every call, and fault them in again
     * at the next: a tenth of a rank-64 PDSYRK on 1x2 at N = 4000) */
    const int gathers = gathers_on(&p->c.row, g->nprow);
    if (p->bt_of_a && nloc &&
        (!(c.btbuf = pumma_malloc((size_t)group * L * nloc * e)) ||
         (gathers &&
          (!(c.gbuf = pumma_malloc((size_t)group * L * nloc * e)) ||
           !(c.gcnt = pumma_malloc(3 * (size_t)g->nprow * sizeof(int))))))) {
        rc = PUMMA_ENOMEM;
        goto out;
    }
    if (p->at_of_b && mloc &&
        (!(c.btbuf = pumma_malloc((size_t)group * L * mloc * e)) ||
         (gathers_on(&p->c.col, g->npcol) &&
          (!(c.gbuf = pumma_malloc((size_t)group * L * mloc * e)) ||
           !(c.gcnt = pumma_malloc(3 * (size_t)g->npcol * sizeof(int))))))) {
        rc = PUMMA_ENOMEM;
        goto out;
    }
    if (group > 1 && mloc && nloc &&
        ((!p->at_of_b && !(c.astack = pumma_malloc(mloc * group * L * e))) ||
         !(c.bstack = pumma_malloc(group * L * nloc * e)))) {
        rc = PUMMA_ENOMEM;
        goto out;
    }
    /* Segment j uses slot (j + off) % depth; a slot is reused only once
     * its broadcasts are complete (pumma_comm.h, rule 2: the tag is the
     * slot's). Segments are multiplied `group` at a time after the first,
     * from slots that are multiples of it: adjacent ones. */
    while (done < nseg) {
        while (posted < nseg && posted < done + depth) {
            const int slot = (posted + off) % depth;
            seg_t *s = &seg[slot];
            s->x = x;
            x = seg_end(&av.col, &bv.row, x, &s->qa, &s->pb);
            s->len = x - s->x;
            if ((rc = seg_start(&c, s, slot))) goto out;
            posted++;
        }
        /* Wait for what the group receives to arrive, relaying the other
         * segments' pieces meanwhile (pumma_bcast_await); their forwards
         * and what this process roots complete after the multiply (the
         * data is not written meanwhile), before the slots are refilled. */
        const int gn = done == 0 ? 1 : nseg - done < group ? nseg - done
                                                            : group;
        seg_t *grp[DEPTH_MOST];
        for (int u = 0; u < gn; u++) grp[u] = &seg[(done + u + off) % depth];
        pumma_coll_t *inflight[2 * DEPTH_MOST];
        int nin = 0;
        for (int i = 0; i < depth; i++) {
            if (seg[i].has_a) inflight[nin++] = &seg[i].ca;
            if (seg[i].has_b) inflight[nin++] = &seg[i].cb;
        }
        /* the first multiply takes op(B) as it streams in */
        const int stream = done == 0 && c.bpanel > 0 && grp[0]->has_b &&
                           grp[0]->pb != g->myrow && c.mloc > 0 &&
                           !p->at_of_b;
        double t0 = pumma_stats_clock();
        for (int u = 0; u < gn; u++) {
            seg_t *s = grp[u];
            if (s->has_a && s->qa != g->mycol &&
                (rc = pumma_bcast_await(bc, &s->ca, inflight, nin)))
                goto out;
            if (s->has_b && s->pb != g->myrow && !stream &&
                (rc = pumma_bcast_await(bc, &s->cb, inflight, nin)))
                goto out;
        }
        pumma_stats_comm(t0);
        /* bt_of_a: op(B)'s gather takes every process of the column,
         * those without rows of C too (at_of_b: op(A)'s, of the row) */
        if (p->bt_of_a ? c.nloc > 0
                       : p->at_of_b ? c.mloc > 0 : c.mloc > 0 && c.nloc > 0) {
            stream_t st = {{seg, depth, bc}, &grp[0]->cb, inflight, nin,
                           grp[0]->ldb};
            const char *a, *b;
            int lda, ldb, kg;
            gather(&c, grp, gn, &a, &lda, &b, &ldb, &kg);
            if (p->bt_of_a && (rc = build_bt(&c, a, lda, kg, &b, &ldb)))
                goto out;
            if (p->at_of_b && (rc = build_at(&c, b, ldb, kg, &a, &lda)))
                goto out;
            if (c.mloc == 0 || c.nloc == 0) goto multiplied;
            const void *beta = done == 0 ? p->beta : t->one;
            if (stream)
                rc = pumma_local_gemm_ready(p, 'N', 'N', c.mloc, c.nloc, kg,
                                            p->alpha, a, lda, b, ldb, beta,
                                            p->c.data, p->c.ld, c.bpanel,
                                            ready_b, progress, &st);
            else
                pumma_local_gemm(p, 'N', 'N', c.mloc, c.nloc, kg, p->alpha,
                                 a, lda, b, ldb, beta, p->c.data, p->c.ld,
                                 progress, &st.pd);
            if (rc) goto out;
        }
    multiplied:
        t0 = pumma_stats_clock();
        for (int u = 0; u < gn; u++) {
            seg_t *s = grp[u];
            if (s->has_a && (rc = bc->wait(&s->ca))) goto out;
            if (s->has_b && (rc = bc->wait(&s->cb))) goto out;
            s->has_a = s->has_b = 0;
        }
        pumma_stats_comm(t0);
        done += gn;
    }
out:
    pumma_free(ring);
    for (int i = 0; i < DEPTH_MOST; i++) pumma_free(c.bbuf[i]);
    pumma_free(c.astack);
    pumma_free(c.bstack);
    pumma_free(c.btbuf);
    pumma_free(c.gbuf);
    pumma_free(c.gcnt);
    if (p->transa != 'N' && !p->at_of_b) pumma_free(av.data);
    if (p->transb != 'N') pumma_free(bv.data);
    return rc;
}

/* The broadcasts of k indices of K: op(A)'s along the rows (*ca), op(B)'s
 * down the columns in pieces of seg_b bytes (*cb); 0 where no process
 * sends (one grid column or row, or a replicated operand). */
static void seg_price(const pumma_problem_t *p, const pumma_model_t *mo,
                      double mloc, double nloc, double k, double seg_b,
                      double *ca, double *cb)
{
    const double e = (double)p->t->size;
    const int P = p->g->nprow, Q = p->g->npcol;
    pumma_view_t av, bv;
    op_views(p, &av, &bv);
    int rsole, csole;                 /* sole_needs(): no message at all */
    sole_needs(p, &rsole, &csole);
    const int a_here = csole >= 0 && pumma_dist_sole(&av.col) == csole;
    const int b_here = rsole >= 0 && pumma_dist_sole(&bv.row) == rsole;
    *ca = Q > 1 && av.col.src >= 0 && !a_here
              ? pumma_coll_price(p->g, p->plan->bcast, mo, PUMMA_ALONG_ROW, Q,
                                 mloc * k * e, p->plan->segment)
              : 0;
    *cb = P > 1 && bv.row.src >= 0 && !b_here
              ? pumma_coll_price(p->g, p->plan->bcast, mo, PUMMA_ALONG_COL, P,
                                 k * nloc * e, seg_b)
              : 0;
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
    const int group = group_for(p, nseg, longest);
    const int ngr = group > 1 ? 1 + (nseg - 1 + group - 1) / group : nseg;
    const double kg = group > 1 ? (p->k - L) / (ngr - 1) : L;  /* after the first */
    const double seg_op = p->plan->segment;
    const int bpanel = stream_panel(mloc > 0 ? (int)nloc : 0, P,
                                    p->plan->panel);
    /* the first segment's broadcasts (op(B)'s in stream_piece's pieces),
     * and a group's */
    double ca1, cb1, ca, cb;
    seg_price(p, mo, mloc, nloc, L, e * (double)stream_piece(p, (int)L,
                                                             (int)nloc),
              &ca1, &cb1);
    seg_price(p, mo, mloc, nloc, kg, seg_op, &ca, &cb);
    const double cg = ca + cb;
    /* the first multiply waits for op(A) and, streaming, op(B)'s first
     * panel; the rest of op(B) comes in behind it */
    const double cb_wait = bpanel ? cb1 / STREAM_PANELS : cb1;
    const double w1 = pumma_model_gemm(mo, t, mloc, nloc, L, 0);
    const double wg = pumma_model_gemm(mo, t, mloc, nloc, kg, 0);
    const double behind1 = cb1 - cb_wait + (ngr > 1 ? cg : 0);
    double T = ca1 + cb_wait + pumma_model_hide(mo, w1, behind1);
    if (ngr > 1) T += (ngr - 2) * pumma_model_hide(mo, wg, cg) + wg;
    T += nseg * pumma_model_copy(mo, ((Q > 1 ? mloc : 0) + (P > 1 ? nloc : 0)) * L * e, 0);
    if (group > 1 && P > 1)                   /* op(B)'s pieces stacked */
        T += (ngr - 1) * pumma_model_copy(mo, kg * nloc * e, 0);
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
    pumma_view_t av, bv;
    op_views(p, &av, &bv);
    int longest;
    const int nseg = nsegments(&av.col, &bv.row, p->k, &longest);
    return footprint(p, group_for(p, nseg, longest));
}

const pumma_algo_t pumma_algo_rankk = {
    "rankk",
    "C stays; each K-segment of op(A) row-cast and of op(B) column-cast, one "
    "multiply per segment (rank-k updates, short K)",
    handles, align, run, cost, uses, workspace, PUMMA_CALL_BLOCK, NULL, NULL,
    0};
