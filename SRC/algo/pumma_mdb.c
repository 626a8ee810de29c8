/*
 * pumma_mdb.c -- the engine behind PUMMA's A*B algorithms (section 3.2):
 * SDB, MDB1 and MDB2 (pumma_sdb.c, pumma_mdb1.c, pumma_mdb2.c: each one
 * line, PUMMA_MDB_ROWS, that makes its two rows) in both orientations.
 *
 * Q stages. In stage s grid column q holds the A slab that started in
 * column c = (q + s) mod Q (A rolls left one column per stage, overlapped
 * with the stage). The K-blocks of that slab live, in B, on the grid rows
 * given by B's row distribution; each grid row r broadcasts down the column
 * its local B rows that match (a "wrapped diagonal" of blocks), and every
 * process multiplies the matching columns of its A slab by what it
 * receives. A is presorted once (columns grouped by the grid row owning the
 * matching B rows; PUMMA Fig. 8(b)), so a group is one contiguous matrix.
 * The three algorithms differ in granularity, as in the paper:
 *   SDB   one message and one multiply per K-block;
 *   MDB1  one message per group of blocks (the blocks of one LCM class,
 *         condensed), one multiply per block;
 *   MDB2  one message and one multiply per group.
 * Stages and rolls are the same for all three (Q - 1 rolls of A; the paper's
 * SDB and MDB1 roll A once per step, moving the whole slab Lb or LCM times,
 * which is their main cost and buys nothing here).
 * A process multiplies its own group first while the others' are in flight.
 *
 * Row orientation: C**T = B**T * A**T on the transposed grid is the same
 * computation with A row-cast along grid rows and B rolled up the columns
 * (PUMMA: "preferable for small P"). It runs this engine on transposed views
 * (st = 1): copies read the stored operands transposed, and the local
 * multiply writes C**T's product into C as a transposed GEMM.
 *
 * Needs: A's rows distributed like C's rows, B's columns like C's columns,
 * and A's columns blocked like B's rows (same block boundaries in K; the
 * source processes may differ).
 */
#include <stdlib.h>

#include "pumma_algo.h"


int pumma_mdb_handles(char ta, char tb, const pumma_mdb_shape_t *sh)
{
    (void)sh;
    return ta == 'N' && tb == 'N';
}

/* Broadcasts in flight during a multiply. */
typedef struct pend {
    pumma_coll_t *coll;
    int n;
    const pumma_coll_ops_t *ops;
    pumma_shift_t *roll;          /* the roll in flight, or NULL */
} pend_t;

static int progress(void *ctx)
{
    pend_t *pd = ctx;
    int pending = pumma_shift_progress(pd->roll);
    for (int i = 0; i < pd->n; i++) {
        int done = 1;
        pd->ops->test(&pd->coll[i], &done);
        if (!done) pending = 1;
    }
    return pending;
}

static void align_col(const pumma_problem_t *have, pumma_problem_t *want)
{
    *want = *have;
    want->c.row = pumma_dist_owned(&have->c.row);
    want->c.col = pumma_dist_owned(&have->c.col);
    want->a.row = want->c.row;
    want->b.col = want->c.col;
    /* The K blocking: keep that of an operand which needs no move anyway. */
    int a_moves = !pumma_dist_same(&have->a.row, &want->a.row) ||
                  have->a.col.src < 0;
    int b_moves = !pumma_dist_same(&have->b.col, &want->b.col) ||
                  have->b.row.src < 0;
    pumma_dist_t ka = pumma_dist_owned(&have->a.col);
    pumma_dist_t kb = pumma_dist_owned(&have->b.row);
    if (!pumma_dist_same_blocks(&ka, &kb)) {
        int64_t asz = (int64_t)have->m * have->k,
                bsz = (int64_t)have->k * have->n;
        int take_b = (a_moves && !b_moves) ||
                     (a_moves == b_moves && asz <= bsz);
        if (take_b) {              /* A moves: give it B's K blocking */
            ka.ib = kb.ib;
            ka.b = kb.b;
            ka.src = 0;
        } else {
            kb.ib = ka.ib;
            kb.b = ka.b;
            kb.src = 0;
        }
    }
    want->a.col = ka;
    want->b.row = kb;
}

static pumma_view_t view_t(const pumma_view_t *v)
{
    pumma_view_t w = *v;
    w.row = v->col;
    w.col = v->row;
    return w;
}

void pumma_problem_transpose(const pumma_problem_t *p, pumma_problem_t *q,
                             pumma_grid_t *g)
{
    *g = *p->g;
    g->nprow = p->g->npcol; g->npcol = p->g->nprow;
    g->myrow = p->g->mycol; g->mycol = p->g->myrow;
    g->row = p->g->col; g->col = p->g->row;
    g->rank = NULL;          /* not used by the engines */
    g->transposed = !p->g->transposed;   /* for the prices of its lines */
    *q = *p;
    q->g = g;
    q->m = p->n; q->n = p->m;
    q->transa = p->transb; q->transb = p->transa;
    q->a = view_t(&p->b);
    q->b = view_t(&p->a);
    q->c = view_t(&p->c);
}

void pumma_align_transposed(const pumma_problem_t *have,
                            pumma_problem_t *want,
                            void (*align)(const pumma_problem_t *,
                                          pumma_problem_t *))
{
    pumma_problem_t q, qw;
    pumma_grid_t g;
    pumma_problem_transpose(have, &q, &g);
    align(&q, &qw);
    *want = *have;
    want->a = view_t(&qw.b);
    want->b = view_t(&qw.a);
    want->c = view_t(&qw.c);
}

void pumma_mdb_align(const pumma_problem_t *have, pumma_problem_t *want,
                     const pumma_mdb_shape_t *sh)
{
    if (sh->row)
        pumma_align_transposed(have, want, align_col);
    else
        align_col(have, want);
}

/* C := alpha * A(:, cols) * piece + beta * C, beta the caller's for the
 * first multiply (every one covers all of this process's C, so BETA is
 * applied there and nowhere else: no separate pass over C) and one after
 * it; with ct ('T' or 'C') C is stored as C**T (or C**H) and takes the
 * product's transpose: one transposed GEMM. */
static void multiply(const pumma_problem_t *p, char ct, int mloc, int nloc,
                     int k, const char *a, int lda, const char *b, int ldb,
                     pend_t *pr, int *first)
{
    const void *beta = *first ? p->beta : p->t->one;
    *first = 0;
    if (ct)
        pumma_local_gemm(p, ct, ct, nloc, mloc, k, p->alpha, b, ldb, a, lda,
                         beta, p->c.data, p->c.ld, progress, pr);
    else
        pumma_local_gemm(p, 'N', 'N', mloc, nloc, k, p->alpha, a, lda, b, ldb,
                         beta, p->c.data, p->c.ld, progress, pr);
}

/* engine()'s state. st: A and B are stored transposed; ct: C is (see
 * multiply). */
typedef struct eng {
    const pumma_problem_t *p;
    const pumma_mdb_shape_t *sh;
    int st;
    char ct;
    int mloc, nloc;
    int first;                 /* no multiply yet: BETA still to apply */
    const char *acur;          /* my A slab this stage, presorted */
    int lda;
    char *bbuf;                /* this stage's B rows, by A's order */
    pumma_groups_t ga;         /* this stage's slab, by B's grid rows */
    pumma_groups_t gb;         /* my B rows, by the slab they match */
    pumma_coll_t *coll;        /* this stage's broadcasts */
    int *msg_group;            /* ... and the grid row each comes from */
    int nmsg;
} eng_t;

/* Post every message of the stage whose slab started in column c, in one
 * order on all processes of the column: per group, or per block of each
 * group. A block message holds its rows contiguously (len x nloc); a group
 * message holds the group's rows as one matrix (cnt x nloc). My own
 * group's rows are copied out of B first. */
static int post_stage(eng_t *e, int c)
{
    const pumma_problem_t *p = e->p;
    const pumma_type_t *t = p->t;
    const int P = p->g->nprow, me_r = p->g->myrow, nloc = e->nloc;
    const int whole = !e->sh->msg_per_block;
    const pumma_groups_t *ga = &e->ga, *gb = &e->gb;
    e->nmsg = 0;
    for (int r = 0; r < P && nloc > 0; r++) {
        int kr = ga->cnt[r];
        if (kr == 0) continue;
        char *gbuf = e->bbuf + (size_t)ga->off[r] * nloc * t->size;
        if (r == me_r && whole)
            pumma_gather_rows(t, p->transb, e->st, gb, c, nloc, p->b.data,
                              p->b.ld, gbuf, kr);
        if (r == me_r && !whole)
            for (int u = 0; u < gb->nruns; u++)
                if (gb->run_group[u] == c)
                    pumma_copy_run_rows(
                        t, p->transb, e->st, &gb->runs[u], nloc, p->b.data,
                        p->b.ld,
                        e->bbuf + (size_t)(gb->runs[u].sorted - gb->off[c] +
                                           ga->off[r]) * nloc * t->size,
                        gb->runs[u].len);
        for (int u = 0; u < ga->nruns; u++) {
            if (ga->run_group[u] != r) continue;
            pumma_coll_t *cl = &e->coll[e->nmsg];
            *cl = pumma_coll_of(
                p,
                whole ? gbuf
                      : e->bbuf + (size_t)ga->runs[u].sorted * nloc * t->size,
                NULL, (int64_t)(whole ? kr : ga->runs[u].len) * nloc, r,
                p->g->col, PUMMA_TAG_BCAST + e->nmsg);
            e->msg_group[e->nmsg++] = r;
            int rc = p->plan->bcast->start(cl);
            if (rc) return rc;
            if (whole) break;
        }
    }
    return PUMMA_OK;
}

/* The multiplies message i makes possible, once it is here: the first
 * message of a group carries all of it (MDB2: one multiply; MDB1: one per
 * block run), or the block runs come one per message (SDB). */
static void multiply_msg(eng_t *e, int i, pend_t *pr)
{
    const pumma_problem_t *p = e->p;
    const pumma_type_t *t = p->t;
    const pumma_groups_t *ga = &e->ga;
    const int r = e->msg_group[i], mloc = e->mloc, nloc = e->nloc,
              lda = e->lda;
    if (e->sh->msg_per_block) {
        const char *buf = e->coll[i].buf;
        int len = (int)(e->coll[i].count / nloc);
        int at = (int)((buf - e->bbuf) / ((size_t)nloc * t->size));
        multiply(p, e->ct, mloc, nloc, len, pumma_at(t, e->acur, 0, at, lda),
                 lda, buf, len, pr, &e->first);
        return;
    }
    int kr = ga->cnt[r];
    const char *gbuf = e->bbuf + (size_t)ga->off[r] * nloc * t->size;
    if (!e->sh->gemm_per_block) {
        multiply(p, e->ct, mloc, nloc, kr,
                 pumma_at(t, e->acur, 0, ga->off[r], lda), lda, gbuf, kr, pr,
                 &e->first);
        return;
    }
    for (int u = 0; u < ga->nruns; u++) {
        if (ga->run_group[u] != r) continue;
        const pumma_run_t *x = &ga->runs[u];
        multiply(p, e->ct, mloc, nloc, x->len,
                 pumma_at(t, e->acur, 0, x->sorted, lda), lda,
                 pumma_at(t, gbuf, x->sorted - ga->off[r], 0, kr), kr, pr,
                 &e->first);
    }
}

/* One stage, its messages posted: own group first, it is here already (as
 * the root we only have to complete our sends later); then the others as
 * they arrive, the stage's other broadcasts relayed while one is awaited
 * (pumma_bcast_await); every forward completes after the multiplies. */
static int multiply_stage(eng_t *e, pumma_shift_t *roll)
{
    const pumma_coll_ops_t *bc = e->p->plan->bcast;
    const int me_r = e->p->g->myrow;
    int rc = PUMMA_OK;
    pend_t pr = {e->coll, e->nmsg, bc, roll};
    pumma_coll_t *stack_all[16], **all = stack_all;
    if (e->nmsg > 16 && !(all = malloc(sizeof *all * (size_t)e->nmsg)))
        return PUMMA_ENOMEM;
    for (int i = 0; i < e->nmsg; i++) all[i] = &e->coll[i];
    for (int pass = 0; pass < 2 && !rc; pass++) {
        for (int i = 0; i < e->nmsg && !rc; i++) {
            if ((pass == 0) != (e->msg_group[i] == me_r)) continue;
            if (pass == 1) {
                double t0 = pumma_stats_clock();
                rc = pumma_bcast_await(bc, &e->coll[i], all, e->nmsg);
                pumma_stats_comm(t0);
                if (rc) break;
            }
            multiply_msg(e, i, &pr);
        }
    }
    if (all != stack_all) free(all);
    if (rc) return rc;
    double t0 = pumma_stats_clock();
    for (int i = 0; i < e->nmsg && !rc; i++) rc = bc->wait(&e->coll[i]);
    pumma_stats_comm(t0);
    return rc;
}

static int engine(const pumma_problem_t *p, const pumma_mdb_shape_t *shape,
                  int st, char ct)
{
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    const int P = g->nprow, Q = g->npcol, me_r = g->myrow, me_c = g->mycol;
    const pumma_dist_t *Ak = &p->a.col, *Bk = &p->b.row;
    eng_t e = {.p = p, .st = st, .ct = ct, .first = 1,
               .mloc = pumma_view_mloc(&p->c, me_r),
               .nloc = pumma_view_nloc(&p->c, me_c)};
    const int mloc = e.mloc;
    int rc = PUMMA_OK;

    int kmax = 0;
    for (int c = 0; c < Q; c++) {
        int kc = pumma_dist_count(Ak, c);
        if (kc > kmax) kmax = kc;
    }
    int maxmsg = pumma_dist_nblocks(Ak) + P;
    /* Each broadcast of a stage has a tag of its own (pumma_comm.h, rule
     * 2): where the tag space cannot hold one per K-block, send one per
     * group, as MDB1 does (the same products, in the same order). */
    pumma_mdb_shape_t shp = *shape;
    if ((long)PUMMA_TAG_BCAST + maxmsg > g->tag_ub) {
        shp.msg_per_block = 0;
        maxmsg = P;
    }
    e.sh = &shp;
    size_t slab = (size_t)mloc * (size_t)kmax * t->size;
    char *abuf[2] = {NULL, NULL};
    e.coll = calloc((size_t)maxmsg, sizeof(pumma_coll_t));
    e.msg_group = malloc(sizeof(int) * (size_t)maxmsg);
    if (!e.coll || !e.msg_group) { rc = PUMMA_ENOMEM; goto out; }

    /* Presort my A slab by the grid row owning the matching B rows -- or,
     * when that order is A's own and the slab can be sent as it is, start
     * from the caller's A (read only) and save the copy. */
    if ((rc = pumma_groups_build(Ak, me_c, Bk, &e.ga))) goto out;
    const int a_inplace = !st && p->transa == 'N' &&
                          pumma_groups_in_order(&e.ga) &&
                          (Q == 1 || p->a.ld == mloc || mloc == 0);
    const int nabuf = Q == 1 ? !a_inplace : (a_inplace && Q == 2 ? 1 : 2);
    for (int i = 0; i < nabuf; i++)
        if (slab && !(abuf[i] = pumma_malloc(slab))) { rc = PUMMA_ENOMEM; goto out; }
    e.bbuf = pumma_malloc((size_t)kmax * (size_t)e.nloc * t->size);
    if (kmax && e.nloc && !e.bbuf) { rc = PUMMA_ENOMEM; goto out; }
    e.acur = abuf[0];
    e.lda = mloc > 0 ? mloc : 1;
    if (a_inplace) {
        e.acur = p->a.data;
        e.lda = p->a.ld;
    } else {
        pumma_presort_cols(t, p->transa, st, &e.ga, mloc, p->a.data, p->a.ld,
                           abuf[0], e.lda);
    }
    int next_buf = a_inplace ? 0 : 1;
    pumma_groups_free(&e.ga);
    /* My B rows, grouped by the grid column whose A slab they match. */
    if ((rc = pumma_groups_build(Bk, me_r, Ak, &e.gb))) goto out;

    for (int s = 0; s < Q; s++) {
        const int c = (me_c + s) % Q;             /* origin of my A slab */
        pumma_shift_t roll;
        char *anext = NULL;
        const int rolling = (Q > 1 && s < Q - 1);
        if (rolling) {
            int cn = (c + 1) % Q;
            anext = abuf[next_buf];
            rc = pumma_roll_start(p, &roll, e.acur,
                                  (int64_t)mloc * pumma_dist_count(Ak, c),
                                  anext,
                                  (int64_t)mloc * pumma_dist_count(Ak, cn),
                                  (me_c - 1 + Q) % Q, (me_c + 1) % Q, g->row,
                                  PUMMA_TAG_ROLL);
            if (rc) goto out;
        }
        if ((rc = pumma_groups_build(Ak, c, Bk, &e.ga))) goto out;
        if ((rc = post_stage(&e, c))) goto out;
        if ((rc = multiply_stage(&e, rolling ? &roll : NULL))) goto out;
        pumma_groups_free(&e.ga);
        if (rolling) {
            if ((rc = pumma_roll_wait(p, &roll))) goto out;
            e.acur = anext;
            e.lda = mloc > 0 ? mloc : 1;
            next_buf = (next_buf + 1) % nabuf;
        }
    }
out:
    pumma_groups_free(&e.ga);
    pumma_groups_free(&e.gb);
    pumma_free(abuf[0]);
    pumma_free(abuf[1]);
    pumma_free(e.bbuf);
    free(e.coll);
    free(e.msg_group);
    return rc;
}

int pumma_mdb_run(const pumma_problem_t *p, const pumma_mdb_shape_t *sh)
{
    if (!sh->row) return engine(p, sh, 0, sh->store);
    pumma_problem_t q;
    pumma_grid_t g;
    pumma_problem_transpose(p, &q, &g);
    return engine(&q, sh, 1, 'T');
}

/*
 * Modelled time (pumma_cost.c). Per stage: the multiply w of the stage's
 * K/Q columns; the broadcasts, hidden behind the own group's multiply
 * until the last group, which is multiplied after it arrives; the roll of
 * A for the next stage, hidden behind the whole stage. Plus the presorting
 * copies (transposed ones for the row form).
 */
static double engine_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                          const pumma_mdb_shape_t *sh, int st, char ct)
{
    const pumma_type_t *t = p->t;
    const double e = (double)t->size;
    const int P = p->g->nprow, Q = p->g->npcol;
    /* The busiest process sets the pace: its local sizes, not averages
     * (a C of one block column lies on one grid column only). */
    const double mloc = (double)pumma_dist_maxcount(&p->c.row);
    const double nloc = (double)pumma_dist_maxcount(&p->c.col);
    const double kstage = (double)pumma_dist_maxcount(&p->a.col);
    const double kgroup = kstage / P;
    double kb = p->a.col.b > 0 ? p->a.col.b : kstage;
    if (kb > kgroup) kb = kgroup;
    if (kb < 1) kb = 1;
    const double kmul = sh->gemm_per_block ? kb : kgroup;
    const double w = pumma_model_gemm(mo, t, mloc, nloc, kmul, ct != 0) *
                     (kstage / kmul);
    const double nmsg = sh->msg_per_block ? kstage / kb : P;
    const double msg = (sh->msg_per_block ? kb : kgroup) * nloc * e;
    const double cb =
        P > 1 ? nmsg * pumma_coll_price(p->g, p->plan->bcast, mo,
                                        PUMMA_ALONG_COL, P, msg,
                                        p->plan->segment)
              : 0;
    const double roll = Q > 1 ? pumma_shift_price(p->g, p->plan->shift, mo,
                                                  PUMMA_ALONG_ROW, Q,
                                                  mloc * kstage * e)
                              : 0;
    double stage = pumma_model_hide(mo, w - w / P, cb) + w / P;
    double T = (Q - 1) * pumma_model_hide(mo, stage, roll) + stage;
    if (st || P > 1 || p->transa != 'N')
        T += pumma_model_copy(mo, mloc * kstage * e, st);
    return T + pumma_model_copy(mo, (double)p->k * nloc / P * e, st);
}

double pumma_mdb_cost(const pumma_problem_t *p, const pumma_model_t *mo,
                      const pumma_mdb_shape_t *sh)
{
    if (!sh->row) return engine_cost(p, mo, sh, 0, sh->store);
    pumma_problem_t q;
    pumma_grid_t g;
    pumma_problem_transpose(p, &q, &g);
    return engine_cost(&q, mo, sh, 1, 'T');
}

/* Temporaries of engine() on p (st as there): A's slabs, two while one
 * rolls, and a stage's rows of B. On one grid column the caller's A is
 * used in place when it needs no presorting (whether it does is global
 * then); elsewhere that also depends on its local LLD, so it is not
 * counted on. */
static size_t engine_workspace(const pumma_problem_t *p, int st)
{
    const size_t mloc = (size_t)pumma_dist_maxcount(&p->c.row);
    const size_t nloc = (size_t)pumma_dist_maxcount(&p->c.col);
    const size_t kmax = (size_t)pumma_dist_maxcount(&p->a.col);
    size_t nabuf = 2;
    if (p->g->npcol == 1)
        nabuf = !st && p->transa == 'N' &&
                        pumma_groups_sorted_at(&p->a.col, 0, &p->b.row)
                    ? 0 : 1;
    return (nabuf * mloc * kmax + kmax * nloc) * p->t->size;
}

size_t pumma_mdb_workspace(const pumma_problem_t *p,
                           const pumma_mdb_shape_t *sh)
{
    if (!sh->row) return engine_workspace(p, 0);
    pumma_problem_t q;
    pumma_grid_t g;
    pumma_problem_transpose(p, &q, &g);
    return engine_workspace(&q, 1);
}

unsigned pumma_mdb_uses(const pumma_problem_t *p, const pumma_mdb_shape_t *sh)
{
    int cast = sh->row ? p->g->npcol : p->g->nprow;
    int roll = sh->row ? p->g->nprow : p->g->npcol;
    return (cast > 1 ? PUMMA_USES_BCAST : 0u) |
           (roll > 1 ? PUMMA_USES_SHIFT : 0u);
}
