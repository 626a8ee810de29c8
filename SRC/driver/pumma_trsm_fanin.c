/*
 * pumma_trsm_fanin.c -- P?TRSM on a narrow sub(B) (few right-hand sides:
 * PDGETRS, PDPOTRS): a fan-in (left-looking) blocked triangular solve
 * that moves B, never A.
 *
 * Every case is first written as one equation, the right-hand sides in
 * the rows:
 *
 *   V * op3(sub(A)) = V0,  V r x n (r right-hand sides, n the triangle);
 *
 * SIDE 'R': V = B, op3 = op; SIDE 'L': op(A) X = B is X**T A**T = B**T
 * (op 'N': V = B**T, op3 'T'), X**T A = B**T (op 'T': op3 'N'), or
 * X**H A = B**H (op 'C': V = B**H, op3 'N' -- the BLAS has no conjugate
 * without transpose). V's leading dimension is r, so block k of V is r x
 * kb, contiguous, and is sent as it lies. In solve order (forward when
 * op3(A) is upper),
 *
 *   V_k := (V0_k - sum_j V_j op3(A)_jk) * op3(A_kk)**-1,
 *
 * the sums kept by the processes that hold the A blocks they need:
 * op3 'T' or 'C' reads A_ik (block row i, a later one; block column k),
 * so process (p, q) sums, for the later blocks of its rows p, what its
 * columns q of A bring; op3 'N' reads A_ki, the mirror. Step k: the grid
 * line holding block k's sums reduces them to the owner of A_kk, which
 * subtracts them from V0_k and solves with the BLAS ?trsm on its own A_kk
 * (never gathered: the diagonal blocks must each lie on one process);
 * V_k is broadcast along A's block column (row) k, whose processes add
 * V_k op3(A) into the next block's sums and start its reduce -- or, on
 * the owner of the next diagonal block, solve it at once -- and only
 * then into the sums of the rest, one ?gemm each: the chain of solves
 * never waits for the bulk of the updates (look-ahead of one step). V
 * lies where the broadcasts leave it (over their line's direction,
 * copied along the other), filled from sub(B) by one redistribution and
 * written back by another (alpha was applied to sub(B) before, as for
 * the recursion); so sub(B)'s own blocking and offsets need not match
 * A's: only A's diagonal blocks must be whole. Memory: V and the sums,
 * n r / (processes of a line) elements each, and a few blocks.
 *
 * When (pumma_trsm_fanin_applies): sub(A)'s row and column blockings
 * along the triangle agree (same first block and block size from IA and
 * JA), neither replicated, sub(B) at most one of A's blocks wide (r <= b:
 * see there), and the machine model prices the fan-in below the
 * recursion. Why a price and not only a width: the recursion pays per
 * diagonal block a P?GEMM call and a redistribution whatever r is, and
 * runs its products (2^l of order n / 2^(l+1) at level l) with the
 * planner's algorithms, priced here as the planner prices them
 * (pumma_plan_predict_on); the fan-in pays per block a reduce and a
 * broadcast of kb x r elements and, on its critical path, the solve and
 * the next block's update (1.5 kb^2 r multiply-adds), and its updates,
 * of depth kb, run on one line at a time, two with the look-ahead
 * (fanin_cost). Both read A's triangle once; what differs grows with r
 * for the fan-in and with the number of blocks for the recursion, and
 * where they cross depends on the machine (its alpha, beta and gamma)
 * and the grid, which a fixed width would only fit to one of them. The
 * model has no term for the recursion's own software per call, so the
 * comparison leans towards the recursion: on 2 ranks here, n = 4000, it
 * takes the fan-in for r = 1 and 64 and leaves r = 256 near the crossing
 * (mostly to the recursion), where the fan-in measured faster still.
 *
 * Messages: the reduces (variant mst) on the line of the sums, the
 * broadcasts (binomial) on the other, both trees of ceil(log2) steps for
 * messages of kb x r elements, fixed (a call has no plan to choose them),
 * each tagged by its step's slot (PUMMA_TAG_REDUCE, PUMMA_TAG_BCAST + step
 * % SLOTS); a slot is reused only once its operation is complete on this
 * process (pumma_comm.h, rule 2). Before it blocks on step s, a process
 * completes the relays it owes to reduces of earlier steps
 * (finish_reduces): every operation of step s then waits only on those
 * of earlier steps, so none deadlocks, whatever the timing. The call
 * completes every operation before it returns (rule 3).
 */
#include <string.h>

#include "pumma.h"
#include "pumma_driver.h"
#include "pumma_model.h"

/* Reduces and broadcasts in flight per line: the look-ahead needs two. */
enum { SLOTS = 4 };

typedef struct slot {
    pumma_coll_t red, bc;
    int red_on, red_root, red_step, bc_on;
} slot_t;

typedef struct fan {
    const pumma_type_t *t;
    const char *rout;
    const pumma_grid_t *g;
    MPI_Comm rcomm, bcomm;       /* the reduces', the broadcasts' line */
    int pa, pv;                  /* their sizes */
    char op3, uplo, diag;
    int on_rows;                 /* accumulators over the grid's rows */
    int forward, nblk, r;
    pumma_dist_t ad, vd;         /* the triangle: accumulators', V's */
    int am, vm;                  /* my coordinate along each */
    pumma_view_t va;             /* sub(A) */
    char *v;                     /* V: r x vloc, leading dimension r */
    char *acc;                   /* the sums: aloc x r (lda), transposed,
                                    conjugated for op3 'C' */
    int lda;
    char *sum, *part;            /* per slot, kb x r: a root's sum, a
                                    packed contribution (r > 1) */
    size_t bmax;                 /* bytes of one of those */
    int solved;                  /* the last step this process solved */
    const pumma_coll_ops_t *bc, *red;   /* the variants */
    slot_t slot[SLOTS];
} fan_t;

static int blk_of(const fan_t *f, int s)
{
    return f->forward ? s : f->nblk - 1 - s;
}

static char *acc_at(const fan_t *f, int x)
{
    return pumma_at(f->t, f->acc, pumma_dist_before(&f->ad, x, f->am), 0,
                    f->lda);
}

static char *v_at(const fan_t *f, int x)
{
    return pumma_at(f->t, f->v, 0, pumma_dist_before(&f->vd, x, f->vm),
                    f->r);
}

static void check(const fan_t *f, int rc)
{
    if (rc) pumma_fatal(f->g->all, f->rout, "fan-in solve", rc);
}

/* The reduce (non-root) of step s, if in flight: completed. */
static void red_done(fan_t *f, slot_t *sl)
{
    if (sl->red_on) check(f, f->red->wait(&sl->red));
    sl->red_on = 0;
}

/* Relays owed to reduces of steps before s, in step order: before this
 * process blocks on step s, so that step s never waits on itself. */
static void finish_reduces(fan_t *f, int s)
{
    for (int d = SLOTS; d >= 1; d--) {
        slot_t *sl = &f->slot[((s - d) % SLOTS + SLOTS) % SLOTS];
        if (s - d >= 0 && sl->red_on && !sl->red_root && sl->red_step == s - d)
            red_done(f, sl);
    }
}

/* Step s's reduce of block k's accumulators, when this process holds
 * some: to the owner of A_kk (its sum in the slot's buffer there). */
static void start_reduce(fan_t *f, int s)
{
    const int k = blk_of(f, s);
    if (f->pa == 1 || pumma_dist_owner(&f->ad, k) != f->am) return;
    slot_t *sl = &f->slot[s % SLOTS];
    red_done(f, sl);
    const int x = pumma_dist_bstart(&f->ad, k), kb = pumma_dist_bsize(&f->ad, k);
    const int root = pumma_dist_owner(&f->vd, k);
    pumma_coll_t c = {0};
    c.buf = acc_at(f, x);
    if (f->r > 1) {                 /* block k's rows, contiguous */
        c.buf = f->part + (size_t)(s % SLOTS) * f->bmax;
        f->t->geadd('N', kb, f->r, f->t->one, acc_at(f, x), f->lda,
                    f->t->zero, c.buf, kb);
    }
    c.root = root;
    sl->red_root = root == f->vm;
    c.rbuf = sl->red_root ? f->sum + (size_t)(s % SLOTS) * f->bmax : NULL;
    c.count = (int64_t)f->r * kb;
    c.dt = f->t->mpi;
    c.t = f->t;
    c.comm = f->rcomm;
    c.tag = PUMMA_TAG_REDUCE + s % SLOTS;
    sl->red = c;
    sl->red_step = s;
    check(f, f->red->start(&sl->red));
    sl->red_on = 1;
}

/* Step s's broadcast of count elements at buf along A's line, from the
 * owner of A_kk; the slot's previous one completed first (rule 2). */
static void bcast_start(fan_t *f, int s, void *buf, int64_t count)
{
    slot_t *sl = &f->slot[s % SLOTS];
    if (sl->bc_on) check(f, f->bc->wait(&sl->bc));
    pumma_coll_t c = {0};
    c.buf = buf;
    c.count = count;
    c.dt = f->t->mpi;
    c.t = f->t;
    c.root = pumma_dist_owner(&f->ad, blk_of(f, s));
    c.comm = f->bcomm;
    c.tag = PUMMA_TAG_BCAST + s % SLOTS;
    sl->bc = c;
    check(f, f->bc->start(&sl->bc));
    sl->bc_on = 1;
}

/* The sums at local indices [l0, l1) += V_k op3(A) there (k at x, kb
 * long), transposed: the triangle is the multiply's long side (OpenBLAS
 * 0.3.21's DGEMM of one right-hand side ran 2.5 times faster so than with
 * r as its M: 5.5 against 13.7 ms for 62 blocks of 2000 x 64, gemv-like
 * either way). op3 'C' keeps the conjugate, A V**H, which the BLAS has. */
static void update(fan_t *f, int x, int kb, int l0, int l1)
{
    if (l1 <= l0) return;
    const pumma_type_t *t = f->t;
    const int lv = pumma_dist_before(&f->vd, x, f->vm);
    const char *ap = f->on_rows ? pumma_at(t, f->va.data, l0, lv, f->va.ld)
                                : pumma_at(t, f->va.data, lv, l0, f->va.ld);
    const double t0 = pumma_stats_clock();
    pumma_blas_gemm(t, f->on_rows ? 'N' : 'T', f->op3 == 'C' ? 'C' : 'T',
                    l1 - l0, f->r, kb, t->one, ap, f->va.ld, v_at(f, x), f->r,
                    t->one, pumma_at(t, f->acc, l0, 0, f->lda), f->lda);
    pumma_stats_gemm(t0);
}

/* Step s at the owner of A_kk: the reduced sum subtracted from V0_k, the
 * solve, V_k's broadcast along A's line k started. */
static void solve(fan_t *f, int s)
{
    const pumma_type_t *t = f->t;
    const int k = blk_of(f, s);
    const int x = pumma_dist_bstart(&f->ad, k), kb = pumma_dist_bsize(&f->ad, k);
    slot_t *sl = &f->slot[s % SLOTS];
    char *vk = v_at(f, x);
    const void *sum = acc_at(f, x);
    int lds = f->lda;
    if (f->pa > 1) {
        check(f, f->red->wait(&sl->red));
        sl->red_on = 0;
        sum = sl->red.rbuf;
        lds = kb;
    }
    const double mone[2] = {-1, 0};
    const float monef[2] = {-1, 0};
    const int dbl = t->letter == 'D' || t->letter == 'Z';
    t->geadd(f->op3 == 'C' ? 'C' : 'T', f->r, kb,
             dbl ? (const void *)mone : (const void *)monef, sum, lds, t->one,
             vk, f->r);
    const pumma_view_t *va = &f->va;
    const char *akk = pumma_at(t, va->data,
                               pumma_dist_before(&va->row, x, f->g->myrow),
                               pumma_dist_before(&va->col, x, f->g->mycol),
                               va->ld);
    pumma_blas_trxm(t, 1, 'R', f->uplo, f->op3, f->diag, f->r, kb, t->one,
                    akk, va->ld, vk, f->r);
    if (f->pv > 1) bcast_start(f, s, vk, (int64_t)f->r * kb);
    f->solved = s;
}

static void step(fan_t *f, int s)
{
    const int k = blk_of(f, s);
    const int x = pumma_dist_bstart(&f->ad, k), kb = pumma_dist_bsize(&f->ad, k);
    const int mine_a = pumma_dist_owner(&f->ad, k) == f->am;
    const int mine_v = pumma_dist_owner(&f->vd, k) == f->vm;
    slot_t *sl = &f->slot[s % SLOTS];
    finish_reduces(f, s);
    if (mine_a && !(sl->red_on && sl->red_step == s)) start_reduce(f, s);
    if (!mine_v) return;
    if (mine_a) {
        if (f->solved != s) solve(f, s);
    } else if (f->pv > 1) {              /* V_k from the owner of A_kk */
        bcast_start(f, s, v_at(f, x), (int64_t)f->r * kb);
        check(f, f->bc->wait(&sl->bc));
        sl->bc_on = 0;
    }
    /* The next block's accumulators first, its reduce started (and, on
     * the owner of its diagonal block, its solve: the chain goes on while
     * this process updates the rest), then the rest of the later blocks
     * (local indices [lo, hi)). */
    const int lo = f->forward ? pumma_dist_before(&f->ad, x + kb, f->am) : 0;
    const int hi = f->forward ? pumma_dist_count(&f->ad, f->am)
                              : pumma_dist_before(&f->ad, x, f->am);
    if (s + 1 < f->nblk) {
        const int kn = blk_of(f, s + 1);
        if (pumma_dist_owner(&f->ad, kn) == f->am) {
            const int n0 = pumma_dist_bstart(&f->ad, kn);
            const int l0 = pumma_dist_before(&f->ad, n0, f->am);
            const int l1 = l0 + pumma_dist_bsize(&f->ad, kn);
            update(f, x, kb, l0, l1);
            start_reduce(f, s + 1);
            if (pumma_dist_owner(&f->vd, kn) == f->vm) {
                finish_reduces(f, s + 1);
                solve(f, s + 1);
            }
            if (f->forward) update(f, x, kb, l1, hi);
            else update(f, x, kb, lo, l0);
            return;
        }
    }
    update(f, x, kb, lo, hi);
}

/* The fan-in's modelled time: per block, its chain (the reduce and the
 * broadcast of kb x r, the solve and the next block's update on the
 * owner of A_kk), against the updates, which pv processes of a line do
 * in each step and at most two lines at once (the look-ahead is one
 * step); and the two redistributions of B. */
static double fanin_cost(const pumma_model_t *mo, const pumma_type_t *t,
                         int pa, int pv, int nt, int r, int b, int nblk)
{
    const double s = (double)t->size;
    const double chain =
        (pumma_model_log2(pa) + pumma_model_log2(pv)) *
            pumma_model_msg(mo, (double)b * r * s) +
        1.5 * pumma_model_gemm(mo, t, r, b, b, 0);
    const double work = nblk * pumma_model_gemm(mo, t, r, 0.5 * nt, b, 0);
    const double spread = pv * (pa < 2 ? pa : 2);
    const double moves = 2 * pumma_model_redist(mo, pa * pv,
                                                 (double)nt * r * s / pa, 1);
    const double along = nblk * chain, upd = work / spread;
    return (along > upd ? along : upd) + moves;
}

/* The recursion's: its products as the planner prices them (level l
 * of the halving: 2^l products of depth and height nt / 2^(l+1)), and
 * per block the gathering of A_kk (a redistribution) and the solve on
 * the processes sharing r. */
static double rec_cost(const pumma_grid_t *g, const pumma_model_t *mo,
                       const pumma_type_t *t, int left, int pr, int nt, int r,
                       int b, int nblk)
{
    const int np = g->nprow * g->npcol;
    double c = nblk * (pumma_model_redist(mo, np, (double)b * b * t->size, 0) +
                       0.5 * pumma_model_gemm(mo, t, (double)r / pr, b, b, 0));
    for (int l = 0, cnt = 1; (nt >> (l + 1)) >= b && cnt < nblk; l++, cnt *= 2) {
        const int len = nt >> (l + 1);
        const double p = left ? pumma_plan_predict_on(g, t, 'N', 'N', len, r,
                                                      len, b, NULL, NULL, 0)
                              : pumma_plan_predict_on(g, t, 'N', 'N', r, len,
                                                      len, b, NULL, NULL, 0);
        if (p > 0) c += cnt * p;
    }
    return c;
}

int pumma_trsm_fanin_applies(const pumma_type_t *t, const pumma_grid_t *g,
                             char side, char ta, int m, int n,
                             const int *dA, int ia, int ja)
{
    const int nt = side == 'L' ? m : n, r = side == 'L' ? n : m;
    /* sub(A)'s blockings along the triangle (dA: DTYPE CTXT M N IMB INB
     * MB NB RSRC CSRC LLD) */
    const pumma_dist_t rows = {dA[2], dA[4], dA[6], dA[8], g->nprow};
    const pumma_dist_t cols = {dA[3], dA[5], dA[7], dA[9], g->npcol};
    const pumma_dist_t rd = pumma_dist_sub(&rows, ia - 1, nt);
    const pumma_dist_t cd = pumma_dist_sub(&cols, ja - 1, nt);
    if (rd.src < 0 || cd.src < 0 || !pumma_dist_same_blocks(&rd, &cd))
        return 0;
    const char op3 = side == 'L' ? (ta == 'N' ? 'T' : 'N') : ta;
    const int pa = op3 != 'N' ? g->npcol : g->nprow;
    const int pv = op3 != 'N' ? g->nprow : g->npcol;
    /* B's r over the grid's columns (SIDE 'L') or rows: the recursion's
     * solves share them */
    const int pr = side == 'L' ? g->npcol : g->nprow;
    const int nblk = pumma_dist_nblocks(&rd);
    const int b = rd.b > rd.ib ? rd.b : rd.ib;
    /* At most one block of right-hand sides: wider, the fan-in's updates
     * (on two grid lines at a time) outweigh the chain it shortens, and
     * the model, which has no term for the recursion's software per call,
     * still priced it first -- PDGETRS's 1024 right-hand sides ran 0.09 to
     * 0.58x ScaLAPACK with it at 4x4 to 16x16, simulated (l3-smpi). */
    if (r > b) return 0;
    const pumma_model_t *mo = pumma_grid_model(g);
    const double fc = fanin_cost(mo, t, pa, pv, nt, r, b, nblk);
    const double rcst = rec_cost(g, mo, t, side == 'L', pr, nt, r, b, nblk);
    return fc < rcst;
}

void pumma_trsm_fanin(const pumma_type_t *t, const char *rout,
                      const pumma_grid_t *g, char side, char uplo, char ta,
                      char diag, int m, int n, const void *a, int ia, int ja,
                      const int *dA, void *b, int ib, int jb, const int *dB,
                      size_t piece)
{
    const int left = side == 'L';
    const int nt = left ? m : n, r = left ? n : m;
    fan_t f = {0};
    f.t = t;
    f.rout = rout;
    f.solved = -1;
    f.bc = pumma_comm_find(PUMMA_BCAST_TABLE, "binomial");
    f.red = pumma_comm_find(PUMMA_REDUCE_TABLE, "mst");
    f.g = g;
    f.uplo = uplo;
    f.diag = diag;
    f.op3 = left ? (ta == 'N' ? 'T' : 'N') : ta;
    f.on_rows = f.op3 != 'N';
    f.forward = (uplo == 'U') == (f.op3 == 'N');
    f.r = r;
    f.va = pumma_view_of(t, g, a, dA, ia - 1, ja - 1, nt, nt);
    f.ad = f.on_rows ? f.va.row : f.va.col;
    f.vd = f.on_rows ? f.va.col : f.va.row;
    f.am = f.on_rows ? g->myrow : g->mycol;
    f.vm = f.on_rows ? g->mycol : g->myrow;
    f.rcomm = f.on_rows ? g->row : g->col;
    f.bcomm = f.on_rows ? g->col : g->row;
    f.pa = f.on_rows ? g->npcol : g->nprow;
    f.pv = f.on_rows ? g->nprow : g->npcol;
    f.nblk = pumma_dist_nblocks(&f.ad);
    const int ibk = pumma_dist_bsize(&f.ad, 0);
    f.bmax = (size_t)r * (size_t)(ibk > f.ad.b ? ibk : f.ad.b) * t->size;
    pumma_stats_begin(rout, "algo=trsm-fanin");

    pumma_view_t vb = pumma_view_of(t, g, b, dB, ib - 1, jb - 1, m, n);
    const pumma_dist_t rhs = {r, r, r, -1, f.on_rows ? g->nprow : g->npcol};
    const int vloc = pumma_dist_count(&f.vd, f.vm);
    const int aloc = pumma_dist_count(&f.ad, f.am);
    /* V from sub(B): as a view itself (on_rows: the triangle over the
     * grid's columns, r copied down them), or as V**T, then transposed
     * here (the triangle over the grid's rows: V is on the transposed
     * grid, which a view cannot say). */
    const int cj = left && ta == 'C';
    pumma_view_t vv = {0}, vt = {0};
    int rc = PUMMA_OK;
    if (f.on_rows) {
        vv.row = rhs;
        vv.col = f.vd;
        rc = pumma_view_alloc(t, g, &vv);
        if (!rc)
            rc = pumma_redist(t, g, r, nt, left ? 'T' : 'N', t->one, &vb,
                              t->zero, &vv, piece);
        f.v = vv.data;
    } else {
        vt.row = f.vd;
        vt.col = rhs;
        rc = pumma_view_alloc(t, g, &vt);
        if (!rc)
            rc = pumma_redist(t, g, nt, r, left ? 'N' : 'T', t->one, &vb,
                              t->zero, &vt, piece);
        if (!rc && vloc > 0 &&
            !(f.v = pumma_malloc((size_t)r * vloc * t->size)))
            rc = PUMMA_ENOMEM;
        if (!rc && vloc > 0)
            t->geadd(cj ? 'C' : 'T', r, vloc, t->one, vt.data, vt.ld, t->zero,
                     f.v, r);
    }
    if (!rc && aloc > 0 &&
        !(f.acc = pumma_malloc((size_t)r * aloc * t->size)))
        rc = PUMMA_ENOMEM;
    f.lda = aloc > 0 ? aloc : 1;
    if (!rc && (!(f.sum = pumma_malloc(SLOTS * f.bmax)) ||
                (r > 1 && !(f.part = pumma_malloc(SLOTS * f.bmax)))))
        rc = PUMMA_ENOMEM;
    if (rc) pumma_fatal(g->all, rout, "fan-in solve", rc);
    if (aloc > 0) memset(f.acc, 0, (size_t)r * aloc * t->size);

    for (int s = 0; s < f.nblk; s++) step(&f, s);
    for (int i = 0; i < SLOTS; i++) {
        slot_t *sl = &f.slot[i];
        red_done(&f, sl);
        if (sl->bc_on) check(&f, f.bc->wait(&sl->bc));
    }

    /* X back into sub(B) */
    if (f.on_rows) {
        rc = pumma_redist(t, g, m, n, left ? 'T' : 'N', t->one, &vv, t->zero,
                          &vb, piece);
    } else {
        if (vloc > 0)
            t->geadd(cj ? 'C' : 'T', vloc, r, t->one, f.v, r, t->zero,
                     vt.data, vt.ld);
        rc = pumma_redist(t, g, m, n, left ? 'N' : 'T', t->one, &vt, t->zero,
                          &vb, piece);
        pumma_free(f.v);
    }
    if (rc) pumma_fatal(g->all, rout, "fan-in solve", rc);
    pumma_free(vv.data);
    pumma_free(vt.data);
    pumma_free(f.acc);
    pumma_free(f.sum);
    pumma_free(f.part);
    pumma_stats_end();
}
