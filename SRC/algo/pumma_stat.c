/*
 * pumma_stat.c -- stat-a and stat-b (pumma_stat_a.c, pumma_stat_b.c, which
 * say what each is for): one engine, `b_stays` telling which operand
 * stays. The big operand S stays where it is; the small one's K-slices
 * come to it (to one grid line, which broadcasts them to the others in
 * chunks behind the multiply: feed_t), each process makes a partial product W of its own indices
 * of S's other dimension, W is packed by the process that is to hold
 * each group of it, summed onto that process (R), and R goes into C.
 *
 * stat-b is stat-a mirrored, kept in the arrays' stored orientation (so
 * not the operand swap: C**T would lie on the transposed grid while A and
 * B do not): W is C's rows by my N indices, packed by rows -- except with
 * B transposed (not conjugated), where W**T = B * op(A)**T is made
 * instead, a GEMM whose long dimension is its first (M is small): it runs
 * well, where op(A) * B**T with a short first dimension ran at two thirds
 * of the speed. Its columns are C's rows, so it is packed by whole columns
 * as stat-a's W is, and R**T goes into C by a transposing redistribution.
 */
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

/* A distribution of n indices, all of them on every one of np processes. */
static pumma_dist_t everywhere(int n, int np)
{
    pumma_dist_t d = {n, n > 0 ? n : 1, n > 0 ? n : 1, -1, np};
    return d;
}

/* The n indices on one process, `at`, of np: one grid line's worth of a
 * replicated dimension. */
static pumma_dist_t on_one(int n, int at, int np)
{
    pumma_dist_t d = {n, n > 0 ? n : 1, n > 0 ? n : 1, at, np};
    return d;
}

/* The grid coordinate, along the dimension dst is replicated over, of the
 * line that receives op(src) before the broadcast: the one holding the
 * source's first index of that dimension when it lies along it (the
 * redistribution is then a local copy on a panel that starts there), else
 * the first. */
static int line_root(const pumma_view_t *src, char op, int rows_everywhere)
{
    const pumma_dist_t *d = rows_everywhere ? (op == 'N' ? &src->row : NULL)
                                            : (op == 'N' ? &src->col : NULL);
    const int o = d && d->n > 0 ? pumma_dist_owner(d, 0) : -1;
    return o > 0 ? o : 0;
}

/* dst := op(src) (rows x cols), conjugated when conj ('R'), on the line
 * at `root` (line_root) of the grid dimension dst is `everywhere` along
 * (its rows when rows_everywhere; its other dimension, S's K, may be
 * replicated too): that line's processes get their part of dst in a new
 * temporary, the others none (dst->data NULL). The line then feeds the
 * others (feed_t). Sent straight to every replica instead, each holder of
 * src sent its part once per line -- 16 times at 16 x 16, half of the
 * call's time. */
static int slice_line(const pumma_problem_t *p, const pumma_view_t *src,
                      int rows, int cols, char op, int conj,
                      int rows_everywhere, int root, pumma_view_t *dst)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int mine = (rows_everywhere ? g->myrow : g->mycol) == root;
    pumma_view_t line = *dst;
    if (rows_everywhere) line.row = on_one(dst->row.n, root, g->nprow);
    else line.col = on_one(dst->col.n, root, g->npcol);
    dst->data = NULL;
    int rc = mine ? pumma_view_alloc(t, g, dst) : PUMMA_OK;
    if (rc) return rc;
    line.data = dst->data;
    line.ld = dst->ld;
    if ((rc = pumma_redist(t, g, rows, cols, op, t->one, src, t->zero, &line,
                           (size_t)p->plan->piece)))
        return rc;
    const int ml = pumma_view_mloc(dst, g->myrow),
              nl = pumma_view_nloc(dst, g->mycol);
    if (conj && mine)
        t->geadd('R', ml, nl, t->one, dst->data, dst->ld, t->zero, dst->data,
                 dst->ld);
    return PUMMA_OK;
}

/* The groups of `packed` (group q: cnt[q] * per elements, the groups in
 * order) summed over comm (npk processes, me among them) onto process q's
 * r, with p's reduce variant, all in flight; when !split, each process's
 * W is the sum already and its own group is copied to r. */
static int sum(const pumma_problem_t *p, const char *packed, const int *cnt,
               int per, int npk, int me, MPI_Comm comm, int split, char *r)
{
    const pumma_type_t *t = p->t;
    const pumma_coll_ops_t *rop = p->plan->reduce;
    const size_t e = t->size;
    pumma_coll_t *red = calloc(npk > 1 ? (size_t)npk : 1, sizeof(pumma_coll_t));
    if (!red) return PUMMA_ENOMEM;
    int rc = PUMMA_OK, nred = 0;
    /* one reduce per group, all in flight (tags by group: pumma_comm.h,
     * rule 2); not split, each process's own group is its sum */
    for (int q = 0, at = 0; q < npk; at += cnt[q], q++) {
        if (cnt[q] == 0) continue;
        const char *grp = packed + (size_t)at * per * e;
        if (!split) {
            if (q == me && per > 0)   /* the kernel: simulations charge it */
                t->geadd('N', per, cnt[q], t->one, grp, per, t->zero, r, per);
            continue;
        }
        pumma_coll_t *c = &red[nred++];
        *c = pumma_coll_of(p, (void *)grp, q == me ? r : NULL,
                           (int64_t)cnt[q] * per, q, comm,
                           PUMMA_TAG_REDUCE + q);
        if ((rc = rop->start(c))) break;
    }
    const double t0 = pumma_stats_clock();
    for (int i = 0; i < nred; i++) {          /* all, even after an error */
        const int w = rop->wait(&red[i]);
        if (!rc) rc = w;
    }
    pumma_stats_comm(t0);
    free(red);
    return rc;
}

/* C := R + beta*C: R on the grid (in place when it has C's layout, else
 * redistributed), on the transposed grid (XGRID), or holding C**T's part
 * (TRANSPOSED). */
typedef enum { R_GRID, R_XGRID, R_TRANSPOSED } r_at_t;
static int into_c(const pumma_problem_t *p, pumma_view_t *r, r_at_t how)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    pumma_view_t *c = (pumma_view_t *)&p->c;
    const size_t piece = (size_t)p->plan->piece;
    if (how == R_XGRID)
        return pumma_redist_xgrid(t, g, p->m, p->n, t->one, r, p->beta, c,
                                  piece);
    if (how == R_TRANSPOSED)
        return pumma_redist(t, g, p->m, p->n, 'T', t->one, r, p->beta, c,
                            piece);
    if (!pumma_view_same_layout(r, c))
        return pumma_redist(t, g, p->m, p->n, 'N', t->one, r, p->beta, c,
                            piece);
    const int cm = pumma_view_mloc(c, g->myrow), cn = pumma_view_nloc(c, g->mycol);
    if (cm > 0 && cn > 0)
        t->geadd('N', cm, cn, t->one, r->data, r->ld, p->beta, c->data, c->ld);
    return PUMMA_OK;
}

/* Modelled time of the packing of W (elems), its sums (over the npk
 * processes of a grid line along `along`, split, in groups of rd's
 * blocks) and R into C (in place, or redistributed, transposed or not). */
static double sum_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                       int npk, int along, int split, const pumma_dist_t *rd,
                       double elems, int in_place, int transposed)
{
    const double e = (double)p->t->size;
    const int np = p->g->nprow * p->g->npcol;
    double T = pumma_model_copy(mo, elems * e, 0);          /* packing */
    if (npk > 1 && split) {
        const int nb = pumma_dist_nblocks(rd);
        const int groups = nb < npk ? nb : npk;
        T += groups * pumma_coll_price(p->g, p->plan->reduce, mo, along,
                                       npk, elems / groups * e,
                                       p->plan->segment);
    }
    const double rbytes = elems / npk * e;
    return T + (in_place ? pumma_model_copy(mo, rbytes, 0)
                         : pumma_model_redist(mo, np, rbytes, transposed));
}

/* Temporaries at most (pumma_stat_run's phases): the slice (bytes) and
 * its redistribution (`sent`: the bytes a process sends); the slice, W
 * (wb) and the feed's two chunks (at most `chunk` bytes each) with their
 * broadcasts' buffers (over rep processes); W, its packed copy, R (rb) and
 * the reduce's buffers -- none of them when W is R already (npk 1); R and
 * its redistribution into C. */
static size_t phases_workspace(const pumma_problem_t *p, size_t slice,
                               size_t sent, int rep, size_t chunk, size_t wb,
                               size_t rb, int npk)
{
    const size_t piece = (size_t)p->plan->piece;
    size_t peak = slice + pumma_redist_workspace(piece, sent, slice);
    /* the feed: two chunks' slots and their broadcasts' buffers, beside
     * the slice (on the root line) and W */
    size_t feed = slice + wb + 2 * chunk;
    if (rep > 1 && p->plan->bcast->buffers)
        feed += 2 * (size_t)p->plan->bcast->buffers(rep) * chunk;
    if (feed > peak) peak = feed;
    if (npk > 1) {
        size_t extra = 0;
        if (p->plan->reduce->buffers)
            extra = (size_t)p->plan->reduce->buffers(npk) * wb;
        if (2 * wb + rb + extra > peak) peak = 2 * wb + rb + extra;
    }
    const size_t ph3 = rb + pumma_redist_workspace(
                                piece, rb, pumma_view_maxelems(&p->c) * p->t->size);
    return peak > ph3 ? peak : ph3;
}

/*
 * The geometry of a call. S, the operand that stays (transposed ts), and
 * M, the one that moves (tm); `full`, the dimension of C that M brings
 * whole (N for stat-a, M for stat-b).
 *   kax   S is transposed
 *   kcol  S's K indices lie along the grid's columns (A 'N', B not 'N'):
 *         W is summed along the grid rows (comm, npk processes)
 *   kd    S's K distribution; od its other, C's, the one W's rows (or
 *         columns: wrows) follow
 *   wrows W is full x own (stat-b, B not 'T'), else own x full
 *   rd    the distribution of R's `full` indices: C's, or (kax) C's
 *         blocking over the grid dimension of K: R then lies on the
 *         transposed grid
 *   sl    the view M's K-slice goes into: full x K when kcol (`full` on
 *         every grid row, K as kd), else K x full (K as kd, `full` on
 *         every grid column); it holds op(M) when kax, else op(M)**T
 *   r     R: od by rd, or rd by od (wrows)
 */
typedef struct geo {
    int kax, kcol, wrows, full, npk, mek, meo;
    char ts, tm;
    const pumma_view_t *s, *mv;
    pumma_dist_t kd, od, rd;
    pumma_view_t sl, r;
    MPI_Comm comm;
} geo_t;

static void geometry(const pumma_problem_t *p, int b_stays, geo_t *o)
{
    const pumma_grid_t *g = p->g;
    memset(o, 0, sizeof *o);
    o->s = b_stays ? &p->b : &p->a;
    o->mv = b_stays ? &p->a : &p->b;
    o->ts = b_stays ? p->transb : p->transa;
    o->tm = b_stays ? p->transa : p->transb;
    o->full = b_stays ? p->m : p->n;
    o->kax = o->ts != 'N';
    o->kcol = b_stays ? o->kax : !o->kax;
    o->wrows = b_stays && o->ts != 'T';
    o->kd = o->kcol ? o->s->col : o->s->row;
    o->od = o->kcol ? o->s->row : o->s->col;
    o->npk = o->kcol ? g->npcol : g->nprow;
    o->mek = o->kcol ? g->mycol : g->myrow;
    o->meo = o->kcol ? g->myrow : g->mycol;
    o->comm = o->kcol ? g->row : g->col;
    o->rd = pumma_dist_owned(b_stays ? &p->c.row : &p->c.col);
    if (o->kax) {
        o->rd.np = o->npk;
        o->rd.src = 0;
    }
    if (o->kcol) {
        o->sl.row = everywhere(o->full, g->nprow);
        o->sl.col = o->kd;
    } else {
        o->sl.row = o->kd;
        o->sl.col = everywhere(o->full, g->npcol);
    }
    o->r.row = o->wrows ? o->rd : o->od;
    o->r.col = o->wrows ? o->od : o->rd;
}

/* The processes the slice is replicated over: the grid dimension other
 * than K's. */
static int rep_of(const pumma_problem_t *p, const geo_t *o)
{
    return o->kcol ? p->g->nprow : p->g->npcol;
}

int pumma_stat_handles(char ta, char tb, int b_stays)
{
    (void)ta; (void)tb; (void)b_stays;
    return 1;
}

/* Needs nothing of the layouts: S is read as it lies; M and the result
 * are redistributed as needed (run does it, since the shapes involved --
 * op(M)'s K over S's K dimension -- are not views of the stored M). */
void pumma_stat_align(const pumma_problem_t *have, pumma_problem_t *want,
                      int b_stays)
{
    (void)b_stays;
    *want = *have;
}

/*
 * The slice's feed: its K indices cut into chunks, each broadcast from the
 * root line along the replicated dimension while the one before is
 * multiplied (in slot j % 2, tags by slot: pumma_comm.h, rule 2; a slot is
 * refilled once its chunk is multiplied and its broadcast complete), so
 * that only the first chunk's broadcast waits; a relay multiplies a chunk
 * as soon as it is here, its forwards going on behind. A chunk is
 * full x kc (kcol, ld full: the slice's columns k0.., sent in place from
 * it) or kc x full (ld kc: packed from the slice's rows on the root line).
 * Every process of a line has the same K indices, so the same chunks.
 */
enum { CHUNK_LEAST = 128, CHUNKS_MOST = 4 };
typedef struct feed {
    const pumma_problem_t *p;
    const geo_t *o;
    int kloc, nch, root, mine, rep;
    MPI_Comm comm;
    char *slot[2];          /* the chunk buffers (none where unneeded) */
    const char *at[2];      /* the chunk in each slot, and its ld */
    int ld[2];
    pumma_coll_t bc[2];
    int live[2];            /* its broadcast is in flight */
} feed_t;

/* The chunks of kloc K indices: up to CHUNKS_MOST of at least CHUNK_LEAST
 * (a multiply of 128 columns' depth runs near full speed; a quarter of the
 * broadcast stays exposed); one when nothing is broadcast. */
static int chunks_of(int kloc, int rep)
{
    if (rep < 2 || kloc < 2 * CHUNK_LEAST) return 1;
    const int n = kloc / CHUNK_LEAST;
    return n < CHUNKS_MOST ? n : CHUNKS_MOST;
}

static int chunk_lo(const feed_t *f, int j)
{
    return (int)((int64_t)f->kloc * j / f->nch);
}

/* Chunk j into its slot, and its broadcast started. */
static int feed_start(feed_t *f, int j)
{
    const pumma_problem_t *p = f->p;
    const pumma_type_t *t = p->t;
    const geo_t *o = f->o;
    const size_t e = t->size;
    const int k0 = chunk_lo(f, j), kc = chunk_lo(f, j + 1) - k0, x = j & 1;
    const int full = o->full;
    if (f->live[x]) {   /* chunk j - 2's forwards, before its slot is reused */
        f->live[x] = 0;
        const double t0 = pumma_stats_clock();
        const int rc = p->plan->bcast->wait(&f->bc[x]);
        pumma_stats_comm(t0);
        if (rc) return rc;
    }
    char *c = f->slot[x];
    f->ld[x] = o->kcol ? full : kc;
    if (f->mine && (o->kcol || f->nch == 1)) {   /* the slice's own */
        c = (char *)o->sl.data + (o->kcol ? (size_t)k0 * full : 0) * e;
        f->ld[x] = o->sl.ld;
    } else if (f->mine && kc > 0 && full > 0) {
        t->geadd('N', kc, full, t->one, (char *)o->sl.data + (size_t)k0 * e,
                 o->sl.ld, t->zero, c, kc);
    }
    if (f->ld[x] < 1) f->ld[x] = 1;
    f->at[x] = c;
    if (f->rep < 2 || (int64_t)kc * full == 0) return PUMMA_OK;
    f->bc[x] = pumma_coll_of(p, c, NULL, (int64_t)kc * full, f->root, f->comm,
                             PUMMA_TAG_BCAST + x);
    f->live[x] = 1;
    return p->plan->bcast->start(&f->bc[x]);
}

/* Until chunk j is here (pumma_bcast_await: the other slot's relayed
 * meanwhile); its forwards complete when its slot is refilled. */
static int feed_wait(feed_t *f, int j)
{
    const int x = j & 1;
    if (!f->live[x]) return PUMMA_OK;
    pumma_coll_t *both[2] = {&f->bc[0], &f->bc[1]};
    const double t0 = pumma_stats_clock();
    const int rc = pumma_bcast_await(f->p->plan->bcast, &f->bc[x], both,
                                     f->live[!x] ? 2 : 0);
    pumma_stats_comm(t0);
    return rc;
}

/* pumma_local_gemm's progress: the next chunk's broadcast advanced. */
static int feed_progress(void *ctx)
{
    feed_t *f = ctx;
    int pending = 0;
    for (int x = 0; x < 2; x++)
        if (f->live[x]) {
            int done = 0;
            if (f->p->plan->bcast->test(&f->bc[x], &done) == PUMMA_OK && !done)
                pending = 1;
        }
    return pending;
}

/* W := alpha * my part of op(S) * the slice (own x full), or alpha * the
 * slice * it (wrows: full x own), chunk by chunk as the feed brings them
 * (kloc 0: W := 0). */
static int multiply(feed_t *f, int own, char *w)
{
    const pumma_problem_t *p = f->p;
    const geo_t *o = f->o;
    const size_t e = p->t->size;
    const int full = o->full;
    int rc = feed_start(f, 0);
    for (int j = 0; j < f->nch && !rc; j++) {
        if ((rc = feed_wait(f, j))) break;
        if (j + 1 < f->nch && (rc = feed_start(f, j + 1))) break;
        const int k0 = chunk_lo(f, j), kc = chunk_lo(f, j + 1) - k0;
        const char *sk = (const char *)o->s->data +
                         (o->kcol ? (size_t)k0 * o->s->ld : (size_t)k0) * e;
        const char *ck = f->at[j & 1];
        const int ldc = f->ld[j & 1];
        const void *beta = j ? p->t->one : p->t->zero;
        pumma_progress_fn go = j + 1 < f->nch ? feed_progress : NULL;
        if (own == 0 || full == 0) continue;
        if (!o->wrows)
            pumma_local_gemm(p, o->kcol ? 'N' : o->ts, o->kcol ? 'T' : 'N',
                             own, full, kc, p->alpha, sk, o->s->ld, ck, ldc,
                             beta, w, own, go, f);
        else
            pumma_local_gemm(p, o->kcol ? 'N' : 'T', o->kcol ? o->ts : 'N',
                             full, own, kc, p->alpha, ck, ldc, sk, o->s->ld,
                             beta, w, full, go, f);
    }
    /* after an error, what is in flight completes before the return */
    for (int x = 0; x < 2; x++)
        if (f->live[x]) {
            f->live[x] = 0;
            p->plan->bcast->wait(&f->bc[x]);
        }
    return rc;
}

/* W's `full` indices packed by their owner in rd: group q, cnt[q] of them
 * at off[q] (times own), its blocks in order (R's local order): whole
 * columns of W, or (wrows) its rows into a cnt[q] x own matrix. cnt, off
 * and fill (npk + 1 each) come zeroed. */
static void pack(const pumma_type_t *t, const geo_t *o, const char *w,
                 int own, int *cnt, int *off, int *fill, char *packed)
{
    const size_t e = t->size;
    const int nb = pumma_dist_nblocks(&o->rd);
    for (int b = 0; b < nb; b++)
        cnt[pumma_dist_owner(&o->rd, b)] += pumma_dist_bsize(&o->rd, b);
    for (int q = 0; q < o->npk; q++) off[q + 1] = off[q] + cnt[q];
    for (int b = 0; b < nb; b++) {
        const int q = pumma_dist_owner(&o->rd, b);
        const int len = pumma_dist_bsize(&o->rd, b);
        const int i0 = pumma_dist_bstart(&o->rd, b);
        if (!o->wrows) {
            if (own > 0)   /* contiguous, but the kernel: see sum() */
                t->geadd('N', own, len, t->one, w + (size_t)i0 * own * e, own,
                         t->zero, packed + ((size_t)off[q] + fill[q]) * own * e,
                         own);
        } else
            t->geadd('N', len, own, t->one, pumma_at(t, w, i0, 0, o->full),
                     o->full, t->zero,
                     packed + ((size_t)off[q] * own + fill[q]) * e, cnt[q]);
        fill[q] += len;
    }
}

int pumma_stat_run(const pumma_problem_t *p, int b_stays)
{
    const pumma_type_t *t = p->t;
    geo_t o;
    geometry(p, b_stays, &o);
    const int full = o.full;
    const int own = pumma_dist_count(&o.od, o.meo);
    const int kloc = pumma_dist_count(&o.kd, o.mek);
    const size_t e = t->size;
    int rc = PUMMA_OK;
    char *w = NULL, *packed = NULL;
    feed_t f = {p, &o, kloc, chunks_of(kloc, rep_of(p, &o)), 0, 0,
                rep_of(p, &o), o.kcol ? p->g->col : p->g->row,
                {NULL, NULL}, {NULL, NULL}, {0, 0}, {{0}}, {0, 0}};
    int *cnt = calloc((size_t)o.npk + 1, sizeof(int));
    int *off = calloc((size_t)o.npk + 1, sizeof(int));
    int *fill = calloc((size_t)o.npk + 1, sizeof(int));
    if (!cnt || !off || !fill) { rc = PUMMA_ENOMEM; goto out; }

    /* op(M)'s K-slice for my K indices, all `full` of the other: op(M)
     * (kax) or op(M)**T (for 'C' that is conj(M)), to the root line */
    const char op = o.kax ? o.tm : o.tm == 'N' ? 'T' : 'N';
    f.root = line_root(o.mv, op, o.kcol);
    f.mine = (o.kcol ? p->g->myrow : p->g->mycol) == f.root;
    if ((rc = slice_line(p, o.mv, o.kcol ? full : p->k, o.kcol ? p->k : full,
                         op, !o.kax && o.tm == 'C', o.kcol, f.root, &o.sl)))
        goto out;
    /* the chunks' slots: on the root line the slice's own, but packed
     * rows (not kcol) of more than one chunk */
    const size_t most = (size_t)(chunk_lo(&f, 1) + 1) * (size_t)full * e;
    const int slots = !f.mine ? 2 : !o.kcol && f.nch > 1 ? 2 : 0;
    for (int x = 0; x < slots && full > 0; x++)
        if (!(f.slot[x] = pumma_malloc(most))) { rc = PUMMA_ENOMEM; goto out; }

    /* W, the feed multiplied in as it comes */
    w = pumma_malloc((size_t)own * (size_t)full * e);
    if (own && full && !w) { rc = PUMMA_ENOMEM; goto out; }
    rc = multiply(&f, own, w);
    for (int x = 0; x < 2; x++) pumma_free(f.slot[x]);
    f.slot[0] = f.slot[1] = NULL;
    pumma_free(o.sl.data);
    o.sl.data = NULL;
    if (rc) goto out;

    /* R: my own indices of the sums, my indices of rd. With K on one
     * process (npk 1) rd is all of `full`, in order, on it: W is R. */
    const int rloc = pumma_dist_count(&o.rd, o.mek);
    const int rld = o.wrows ? rloc : own;
    o.r.ld = rld > 0 ? rld : 1;
    if (o.npk == 1) {
        o.r.data = w;
        w = NULL;
    } else if (own > 0) {
        /* made after the slice is freed: the allocator gives its pages */
        packed = pumma_malloc((size_t)own * (size_t)full * e);
        o.r.data = pumma_malloc((size_t)own * (size_t)rloc * e);
        if (full && (!packed || (rloc && !o.r.data))) {
            rc = PUMMA_ENOMEM;
            goto out;
        }
    }
    if (own > 0 && o.npk > 1) {
        pack(t, &o, w, own, cnt, off, fill, packed);
        /* S replicated along K (every process holds all of it): not split */
        if ((rc = sum(p, packed, cnt, own, o.npk, o.mek, o.comm,
                      o.npk > 1 && o.kd.src >= 0, o.r.data)))
            goto out;
    }
    pumma_free(w);
    w = NULL;
    pumma_free(packed);
    packed = NULL;
    rc = into_c(p, &o.r, b_stays && !o.wrows ? R_TRANSPOSED
                         : o.kax             ? R_XGRID
                                             : R_GRID);
out:
    for (int x = 0; x < 2; x++) pumma_free(f.slot[x]);
    pumma_free(o.sl.data);
    pumma_free(o.r.data);
    pumma_free(w);
    pumma_free(packed);
    free(cnt);
    free(off);
    free(fill);
    return rc;
}

/*
 * Modelled time: op(M) redistributed to one grid line (each of its
 * processes receives its K-slice, `full` wide) and fed along the other
 * dimension in chunks, each broadcast while the one before is multiplied
 * (the first exposed), the packing copy, the reduces of W
 * (own x full in all, in npk groups, over npk processes), and R into C (a
 * copy in place, or a redistribution of R).
 */
double pumma_stat_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                       int b_stays)
{
    const pumma_type_t *t = p->t;
    const double e = (double)t->size;
    const pumma_grid_t *g = p->g;
    const int np = g->nprow * g->npcol;
    geo_t o;
    geometry(p, b_stays, &o);
    const double own = (double)pumma_dist_maxcount(&o.od);
    const double kloc = (double)pumma_dist_maxcount(&o.kd);
    const double full = o.full;
    const int rep = rep_of(p, &o);
    const int nch = chunks_of((int)kloc, rep);
    const double kc = kloc / nch;
    const double g1 = o.wrows ? pumma_model_gemm(mo, t, full, own, kc, !o.kcol)
                              : pumma_model_gemm(mo, t, own, full, kc, !o.kcol);
    double T = pumma_model_redist(mo, np, kloc * full * e, !o.kax) + g1;
    if (rep > 1) {   /* the feed: the first chunk's broadcast exposed */
        const double cb = pumma_coll_price(
            g, p->plan->bcast, mo, o.kcol ? PUMMA_ALONG_COL : PUMMA_ALONG_ROW,
            rep, kc * full * e, p->plan->segment);
        T += cb + (nch - 1) * pumma_model_hide(mo, g1, cb);
        if (!o.kcol && nch > 1)   /* the root line packs its chunks */
            T += pumma_model_copy(mo, kloc * full * e, 0) / rep;
    } else {
        T += (nch - 1) * g1;
    }
    T += sum_cost(p, mo, o.npk, o.kcol ? PUMMA_ALONG_ROW : PUMMA_ALONG_COL,
                  o.kd.src >= 0, &o.rd, own * full,
                  !o.kax && pumma_dist_same(&o.od, b_stays ? &p->c.col
                                                            : &p->c.row),
                  b_stays && !o.wrows);
    return T;
}

unsigned pumma_stat_uses(const pumma_problem_t *p, int b_stays)
{
    geo_t o;
    geometry(p, b_stays, &o);
    return (rep_of(p, &o) > 1 ? PUMMA_USES_BCAST : 0u) |
           (o.npk > 1 && o.kd.src >= 0 ? PUMMA_USES_REDUCE : 0u);
}

/* op(M)'s slice with its redistribution's buffers; then W, its packed
 * copy and R, with the reduce variant's buffers; then R and the final
 * redistribution's buffers. */
size_t pumma_stat_workspace(const pumma_problem_t *p, int b_stays)
{
    const size_t e = p->t->size;
    geo_t o;
    geometry(p, b_stays, &o);
    const size_t own = (size_t)pumma_dist_maxcount(&o.od);
    const size_t sl = pumma_view_maxelems(&o.sl) * e;
    const int kloc = pumma_dist_maxcount(&o.kd);
    const int nch = chunks_of(kloc, rep_of(p, &o));
    const size_t chunk = ((size_t)kloc / (size_t)nch + 1) * (size_t)o.full * e;
    return phases_workspace(p, sl, pumma_view_maxelems(o.mv) * e, rep_of(p, &o),
                            chunk, own * (size_t)o.full * e,
                            own * (size_t)pumma_dist_maxcount(&o.rd) * e,
                            o.npk);
}
