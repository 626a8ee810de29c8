/*
 * pumma_stat.c -- stat-a and stat-b (pumma_stat_a.c, pumma_stat_b.c, which
 * say what each is for): one engine, `b_stays` telling which operand
 * stays. The big operand S stays where it is; the small one's K-slices
 * come to it (to one process of each line of processes sharing S's K
 * indices, its root, which broadcasts them along the line in chunks
 * behind the multiply: feed_t), each process makes a partial product W
 * of its own indices of S's other dimension, W is packed by the process
 * that is to hold each group of it, summed onto that process (R), and R
 * goes into C.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_algo.h"

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
                       double elems, int in_place, int transposed,
                       double partners)
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
                         : pumma_model_redist_among(mo, np, partners, rbytes,
                                                    transposed));
}

/* Temporaries at most (pumma_stat_run's phases): the feed -- the slice
 * (on a root) or the two chunks' slots, W (wb), the broadcasts' buffers
 * (over rep processes), and the remaps' (my part of M packed for the
 * roots, `sent` bytes at most, and two chunks arriving); W, its packed
 * copy, R (rb) and the reduce's buffers -- none of them when W is R
 * already (npk 1); R and its redistribution into C. */
static size_t phases_workspace(const pumma_problem_t *p, size_t slice,
                               size_t sent, int rep, size_t chunk, size_t wb,
                               size_t rb, int npk)
{
    const size_t piece = (size_t)p->plan->piece;
    size_t peak = (slice > 2 * chunk ? slice : 2 * chunk) + wb + sent +
                  2 * chunk;
    if (rep > 1 && p->plan->bcast->buffers)
        peak += 2 * (size_t)p->plan->bcast->buffers(rep) * chunk;
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
 *   krows M's stored rows are K: its K-slice (as M is stored, so that
 *         it moves element for element) is K x full, else full x K
 *   sx    the GEMM's operation on my part of S
 *   tx    the GEMM's operation on a chunk of it (op(M)'s chunk, or its
 *         transpose for W**T); conj: with tm 'C' W**T needs conj(M)'s
 *         chunk untransposed, which no GEMM flag gives, so the root
 *         conjugates it before it goes out
 *   r     R: od by rd, or rd by od (wrows)
 */
typedef struct geo {
    int kax, kcol, wrows, full, npk, mek, meo, krows, conj;
    char ts, tm, sx, tx;
    const pumma_view_t *s, *mv;
    pumma_dist_t kd, od, rd;
    pumma_view_t r;
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
    o->krows = b_stays ? o->tm != 'N' : o->tm == 'N';
    /* W = op(S) op(M) (stat-a), op(M) op(S) (wrows) or W**T = B op(M)**T */
    o->tx = !b_stays || o->wrows ? o->tm : o->tm == 'N' ? 'T' : 'N';
    o->sx = !o->wrows ? (o->kcol ? 'N' : o->ts) : (o->kcol ? o->ts : 'N');
    o->conj = b_stays && !o->wrows && o->tm == 'C' && p->t->is_complex;
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
 * The slice's feed. The processes of a line (a grid line along the
 * dimension other than K's, rep of them) share their K indices of S, so
 * each needs the same K-slice of M: all `full` of its other dimension.
 * The slice goes, as M is stored, from M's holders to one process of the
 * line, its root (root_of), by remaps (pumma_remap: every holder sends
 * each root its part at once), cut into chunks of the line's K indices;
 * each root broadcasts chunk j along its line while the chunk before is
 * multiplied, and chunk j + 2's remap is posted when chunk j is here, so
 * that only the first chunks' moves wait (in slot j % 2 on the others,
 * tags by slot: pumma_comm.h, rule 2; a slot is refilled once its chunk is
 * multiplied and its broadcast complete). A relay multiplies a chunk as
 * soon as it is here, its forwards going on behind. Chunk j is K x full
 * (krows) or full x K, packed, at chunk_lo(j) * full of the root's slice.
 * Every process of a line has the same K indices, so the same chunks; the
 * number of chunks is every process's (each remap involves all).
 */
enum { CHUNK_LEAST = 128, CHUNKS_MOST = 4 };
typedef struct feed {
    const pumma_problem_t *p;
    const geo_t *o;
    int kloc, nch, root, mine, rep;
    MPI_Comm comm;
    pumma_ilist_t *klist;   /* each line's K indices (npk of them) */
    int *roots;             /* each line's root, along the replicated dim */
    char *sl;               /* the root's slice, chunk by chunk */
    pumma_remap_t *rm[CHUNKS_MOST];   /* chunk j's, until the root has it */
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

/* The first local K index of chunk j of a line holding kl of them. */
static int cut_at(int kl, int nch, int j)
{
    return (int)((int64_t)kl * j / nch);
}

static int chunk_lo(const feed_t *f, int j)
{
    return cut_at(f->kloc, f->nch, j);
}

/* The chunks of every line (each remap involves every process, and takes
 * one of the grid's remap ids): 0 when the grid has no id. */
static int nchunks(const pumma_problem_t *p, const geo_t *o)
{
    const int n = chunks_of(pumma_dist_maxcount(&o->kd), rep_of(p, o));
    const int ids = pumma_remap_ids(p->g);
    return n < ids ? n : ids;
}

/*
 * Line l's root: its coordinate along the dimension the slice is
 * replicated over (rep processes). Where M's K lies along that dimension,
 * the holder of the line's first K index (with S's blocking, the grid's
 * diagonal); else a holder of M's `full` indices, the lines taking its
 * blocks in turn. Either way the roots sit on different grid lines and
 * near their data. One root line for all (the first form) sent every
 * slice into one grid line: on a fat tree that picks a packet's up-link
 * by its destination (d-mod-k, as InfiniBand's ftree routing does) a
 * grid column's processes, 4 to a node, all sat behind the same up-link
 * of each leaf, and on 256 simulated ranks the move took 0.5 ms of a
 * 2.7 ms call (256 x 8192 x 8192) where the diagonal takes a quarter.
 */
static int root_of(const geo_t *o, const pumma_ilist_t *k, int line, int rep)
{
    const pumma_dist_t *mk = o->krows ? &o->mv->row : &o->mv->col;
    const pumma_dist_t *mf = o->krows ? &o->mv->col : &o->mv->row;
    if (o->krows == o->kcol) {   /* M's K lies along the replicated dim */
        if (mk->src >= 0 && k->n > 0)
            return pumma_dist_owner(mk, pumma_dist_block(mk, k->v[0].lo));
    } else if (mf->src >= 0 && mf->n > 0) {
        return pumma_dist_owner(mf, line % pumma_dist_nblocks(mf));
    }
    return line % rep;
}

/* The intervals of l at packed positions [lo, hi) into v; how many. */
static int window(const pumma_ilist_t *l, long lo, long hi, pumma_ivl_t *v)
{
    int n = 0;
    long at = 0;
    for (int i = 0; i < l->n && at < hi; i++) {
        const long len = l->v[i].hi - l->v[i].lo;
        const long a = lo > at ? lo - at : 0, b = hi - at < len ? hi - at : len;
        if (b > a)
            v[n++] = (pumma_ivl_t){l->v[i].lo + (int)a, l->v[i].lo + (int)b};
        at += len;
    }
    return n;
}

/* Chunk j's remap to the roots started (every process, j in order) and
 * my sends flushed: I may block in a broadcast next. */
static int remap_chunk(feed_t *f, int j)
{
    const pumma_problem_t *p = f->p;
    const geo_t *o = f->o;
    const pumma_grid_t *g = p->g;
    const int np = g->nprow * g->npcol, full = o->full;
    long ivls = 0;
    for (int l = 0; l < o->npk; l++) ivls += f->klist[l].n;
    pumma_ilist_t *lists = calloc(2 * (size_t)np, sizeof *lists);
    pumma_ivl_t *v = malloc(sizeof *v * (size_t)(ivls + o->npk + 1));
    pumma_ilist_t *win = calloc((size_t)o->npk, sizeof *win);
    int rc = lists && v && win ? PUMMA_OK : PUMMA_ENOMEM;
    pumma_ilist_t all = {full > 0, v};
    if (v) v[0] = (pumma_ivl_t){0, full};
    for (int l = 0, at = 1; !rc && l < o->npk; l++) {
        const long kl = pumma_ilist_len(&f->klist[l]);
        win[l].v = v + at;
        win[l].n = window(&f->klist[l], cut_at((int)kl, f->nch, j),
                          cut_at((int)kl, f->nch, j + 1), win[l].v);
        at += win[l].n;
    }
    for (int q = 0; !rc && q < np; q++) {
        const int pr = q / g->npcol, pc = q % g->npcol;
        const int l = o->kcol ? pc : pr, c = o->kcol ? pr : pc;
        if (c != f->roots[l] || !win[l].n || !all.n) continue;
        lists[q] = o->krows ? win[l] : all;
        lists[np + q] = o->krows ? all : win[l];
    }
    if (!rc) {
        const int k0 = chunk_lo(f, j), kc = chunk_lo(f, j + 1) - k0;
        const int kdim = o->krows ? o->mv->row.n : o->mv->col.n;
        const int rows = o->krows ? kdim : full, cols = o->krows ? full : kdim;
        const pumma_side_t src = pumma_side_view(g, o->mv, rows, cols);
        const pumma_side_t dst = pumma_side_panel(
            g, lists, lists + np, rows, cols,
            f->mine && f->sl ? f->sl + (size_t)k0 * full * p->t->size : NULL,
            o->krows ? kc : full);
        rc = pumma_remap_start(p->t, g, &src, &dst, 0, NULL, j, &f->rm[j]);
        if (!rc) rc = pumma_remap_flush(f->rm[j]);
    }
    free(lists);
    free(v);
    free(win);
    return rc;
}

/* Chunk j into its slot (the root: from its remap, conjugated as
 * o->conj asks), and its broadcast started. */
static int feed_start(feed_t *f, int j)
{
    const pumma_problem_t *p = f->p;
    const pumma_type_t *t = p->t;
    const geo_t *o = f->o;
    const int k0 = chunk_lo(f, j), kc = chunk_lo(f, j + 1) - k0, x = j & 1;
    const int full = o->full;
    if (f->live[x]) {   /* chunk j - 2's forwards, before its slot is reused */
        f->live[x] = 0;
        const double t0 = pumma_stats_clock();
        const int rc = p->plan->bcast->wait(&f->bc[x]);
        pumma_stats_comm(t0);
        if (rc) return rc;
    }
    const int rows = o->krows ? kc : full, cols = o->krows ? full : kc;
    f->ld[x] = rows > 0 ? rows : 1;
    char *c = f->slot[x];
    if (f->mine) {
        c = f->sl ? f->sl + (size_t)k0 * full * t->size : NULL;
        const double t0 = pumma_stats_clock();
        const int rc = pumma_remap_wait(f->rm[j]);
        pumma_stats_comm(t0);
        f->rm[j] = NULL;
        if (rc) return rc;
        if (o->conj && rows > 0 && cols > 0)
            t->geadd('R', rows, cols, t->one, c, rows, t->zero, c, rows);
    }
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

/* pumma_local_gemm's progress: the next chunk's broadcast and the remaps
 * advanced. */
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
    for (int j = 0; j < f->nch; j++)
        if (f->rm[j]) {
            int done = 0;
            if (pumma_remap_test(f->rm[j], &done) == PUMMA_OK && !done)
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
    int rc = remap_chunk(f, 0);
    if (!rc && f->nch > 1) rc = remap_chunk(f, 1);
    if (!rc) rc = feed_start(f, 0);
    for (int j = 0; j < f->nch && !rc; j++) {
        if ((rc = feed_wait(f, j))) break;
        if (j + 2 < f->nch && (rc = remap_chunk(f, j + 2))) break;
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
            pumma_local_gemm(p, o->sx, o->tx, own, full, kc,
                             p->alpha, sk, o->s->ld, ck, ldc, beta, w, own, go,
                             f);
        else
            pumma_local_gemm(p, o->tx, o->sx, full, own, kc,
                             p->alpha, ck, ldc, sk, o->s->ld, beta, w, full,
                             go, f);
    }
    /* after an error, what is in flight completes before the return */
    for (int x = 0; x < 2; x++)
        if (f->live[x]) {
            f->live[x] = 0;
            p->plan->bcast->wait(&f->bc[x]);
        }
    for (int j = 0; j < f->nch; j++)
        if (f->rm[j]) {
            const int w2 = pumma_remap_wait(f->rm[j]);
            f->rm[j] = NULL;
            if (!rc) rc = w2;
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
    const int rep = rep_of(p, &o);
    feed_t f;
    memset(&f, 0, sizeof f);
    f.p = p;
    f.o = &o;
    f.kloc = kloc;
    f.rep = rep;
    f.comm = o.kcol ? p->g->col : p->g->row;
    f.nch = nchunks(p, &o);
    int *cnt = calloc((size_t)o.npk + 1, sizeof(int));
    int *off = calloc((size_t)o.npk + 1, sizeof(int));
    int *fill = calloc((size_t)o.npk + 1, sizeof(int));
    f.klist = calloc((size_t)o.npk, sizeof *f.klist);
    f.roots = calloc((size_t)o.npk, sizeof *f.roots);
    if (!cnt || !off || !fill || !f.klist || !f.roots) {
        rc = PUMMA_ENOMEM;
        goto out;
    }
    if (f.nch < 1) { rc = PUMMA_EGRID; goto out; }   /* no remap ids */

    /* each line's K indices and root; my line's slice on its root */
    for (int l = 0; l < o.npk; l++) {
        if ((rc = pumma_ilist_of_dist(&o.kd, l, &f.klist[l]))) goto out;
        f.roots[l] = root_of(&o, &f.klist[l], l, rep);
    }
    f.root = f.roots[o.mek];
    f.mine = (o.kcol ? p->g->myrow : p->g->mycol) == f.root;
    const size_t most = (size_t)(chunk_lo(&f, 1) + 1) * (size_t)full * e;
    if (f.mine && kloc > 0 && full > 0 &&
        !(f.sl = pumma_malloc((size_t)kloc * (size_t)full * e))) {
        rc = PUMMA_ENOMEM;
        goto out;
    }
    for (int x = 0; x < 2 && !f.mine && full > 0; x++)
        if (!(f.slot[x] = pumma_malloc(most))) { rc = PUMMA_ENOMEM; goto out; }

    /* W, the feed multiplied in as it comes */
    w = pumma_malloc((size_t)own * (size_t)full * e);
    if (own && full && !w) { rc = PUMMA_ENOMEM; goto out; }
    rc = multiply(&f, own, w);
    for (int x = 0; x < 2; x++) pumma_free(f.slot[x]);
    f.slot[0] = f.slot[1] = NULL;
    pumma_free(f.sl);
    f.sl = NULL;
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
    pumma_free(f.sl);
    for (int l = 0; f.klist && l < o.npk; l++) pumma_ilist_free(&f.klist[l]);
    free(f.klist);
    free(f.roots);
    pumma_free(o.r.data);
    pumma_free(w);
    pumma_free(packed);
    free(cnt);
    free(off);
    free(fill);
    return rc;
}

/* The partners of R's move into C: R's blocks (od by rd) out, C's in,
 * on the process with the most. */
static double r_partners(const pumma_problem_t *p, const geo_t *o)
{
    const double r_out = (double)pumma_dist_maxblocks(&o->od) *
                         pumma_dist_maxblocks(&o->rd);
    const double c_in = (double)pumma_dist_maxblocks(&p->c.row) *
                        pumma_dist_maxblocks(&p->c.col);
    return fmax(r_out, c_in);
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
    const int nch = nchunks(p, &o);
    if (nch < 1) return INFINITY;
    const double kc = kloc / nch;
    const int tt = o.sx != 'N' && o.tx != 'N';
    const double g1 = o.wrows ? pumma_model_gemm(mo, t, full, own, kc, tt)
                              : pumma_model_gemm(mo, t, own, full, kc, tt);
    /* the slice's move to the roots: the first two chunks' (in flight
     * together) exposed, each later one's behind a chunk's multiply */
    /* one message per pair that has data (pumma_redist): a process
     * sends its blocks of M, the roots receive their K blocks of each
     * of M's blocks along `full` -- a few partners, not np - 1 */
    const pumma_dist_t *mk = o.krows ? &o.mv->row : &o.mv->col;
    const pumma_dist_t *mf = o.krows ? &o.mv->col : &o.mv->row;
    const double m_out = (double)pumma_dist_maxblocks(mk) *
                         pumma_dist_maxblocks(mf);
    const double m_in = (double)pumma_dist_maxblocks(&o.kd) *
                        pumma_dist_nblocks(mf);
    const double rd = pumma_model_redist_among(mo, np, fmax(m_out, m_in),
                                               kloc * full * e, 0);
    double T = rd * (nch > 1 ? 2.0 / nch : 1.0) + g1;
    if (o.conj) T += pumma_model_copy(mo, kloc * full * e, 0) / rep;
    double cb = 0;
    if (rep > 1)     /* the feed: the first chunk's broadcast exposed */
        cb = pumma_coll_price(
            g, p->plan->bcast, mo, o.kcol ? PUMMA_ALONG_COL : PUMMA_ALONG_ROW,
            rep, kc * full * e, p->plan->segment);
    T += cb + (nch - 1) * pumma_model_hide(mo, g1, cb + rd / nch);
    T += sum_cost(p, mo, o.npk, o.kcol ? PUMMA_ALONG_ROW : PUMMA_ALONG_COL,
                  o.kd.src >= 0, &o.rd, own * full,
                  !o.kax && pumma_dist_same(&o.od, b_stays ? &p->c.col
                                                            : &p->c.row),
                  b_stays && !o.wrows, r_partners(p, &o));
    return T;
}

unsigned pumma_stat_uses(const pumma_problem_t *p, int b_stays)
{
    geo_t o;
    geometry(p, b_stays, &o);
    return (rep_of(p, &o) > 1 ? PUMMA_USES_BCAST : 0u) |
           (o.npk > 1 && o.kd.src >= 0 ? PUMMA_USES_REDUCE : 0u);
}

/* The feed's slice or slots, W and the remaps' and broadcasts' buffers;
 * then W, its packed copy and R, with the reduce variant's buffers; then
 * R and the final redistribution's buffers. */
size_t pumma_stat_workspace(const pumma_problem_t *p, int b_stays)
{
    const size_t e = p->t->size;
    geo_t o;
    geometry(p, b_stays, &o);
    const size_t own = (size_t)pumma_dist_maxcount(&o.od);
    const int kloc = pumma_dist_maxcount(&o.kd);
    const size_t sl = (size_t)kloc * (size_t)o.full * e;
    const int nc = nchunks(p, &o), nch = nc > 0 ? nc : 1;
    const size_t chunk = ((size_t)kloc / (size_t)nch + 1) * (size_t)o.full * e;
    return phases_workspace(p, sl, pumma_view_maxelems(o.mv) * e, rep_of(p, &o),
                            chunk, own * (size_t)o.full * e,
                            own * (size_t)pumma_dist_maxcount(&o.rd) * e,
                            o.npk);
}
