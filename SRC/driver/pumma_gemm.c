/*
 * pumma_gemm.c -- the body of P?GEMM, layered as a call goes through it:
 * argument checks -> quick returns -> plan (algorithm, variants) -> views of
 * sub(A), sub(B), sub(C) -> alignment (redistribute what the algorithm cannot
 * take as it is) -> run -> sub(C) back.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma.h"
#include "pumma_driver.h"

enum { DTYPE_ = 0, CTXT_, M_, N_, IMB_, INB_, MB_, NB_, RSRC_, CSRC_, LLD_ };

/* ------------------------------------------------------------- options */

/* The name behind a code of pumma_codes.h; NULL if the code is unknown. */
typedef struct code_name { int code; const char *name; } code_name_t;
#define PUMMA_ROW(N, v, s) {v, s},
static const code_name_t algo_codes[] = {PUMMA_ALGO_LIST(PUMMA_ROW)};
static const code_name_t bcast_codes[] = {PUMMA_BCAST_LIST(PUMMA_ROW)};
static const code_name_t reduce_codes[] = {PUMMA_REDUCE_LIST(PUMMA_ROW)};
static const code_name_t shift_codes[] = {PUMMA_SHIFT_LIST(PUMMA_ROW)};
static const code_name_t topo_codes[] = {PUMMA_TOPO_LIST(PUMMA_ROW)};
#define NAME_OF(tab, c) name_of(tab, (int)(sizeof tab / sizeof *tab), c)

static const char *name_of(const code_name_t *t, int n, int code)
{
    for (int i = 0; i < n; i++)
        if (t[i].code == code) return t[i].name;
    return NULL;
}

/* The environment's defaults (pumma_settings.c parses and checks every
 * variable, once; a bad value stops the program there): its names
 * resolved to the rows of the algorithm and variant tables, a name of
 * pumma_codes.h that no table has refused as one of no list. */
enum { PANEL_UNSET = -1 };   /* PUMMA_PANEL not given: set per call kind */
static const pumma_opts_t *env_opts(void)
{
    static pumma_opts_t o;
    static int done = 0;
    if (done) return &o;
    const pumma_settings_t *s = pumma_settings();
    const char *v;
    /* kept in the table's spelling: the plan and the statistics name it
     * so, and the het schedules are told apart by it */
    if ((v = s->algo) != NULL && !pumma_algo_find(v) &&
        !pumma_het_schedule(v))
        pumma_settings_refuse(PUMMA_SET_ALGO, v);
    o.algo = v;
    for (size_t i = 0; i < sizeof topo_codes / sizeof *topo_codes; i++)
        if (s->topology && !strcmp(s->topology, topo_codes[i].name))
            o.topo = topo_codes[i].code;
    if ((v = s->bcast) != NULL &&
        !(o.bcast = pumma_comm_find(PUMMA_BCAST_TABLE, v)))
        pumma_settings_refuse(PUMMA_SET_BCAST, v);
    if ((v = s->reduce) != NULL &&
        !(o.reduce = pumma_comm_find(PUMMA_REDUCE_TABLE, v)))
        pumma_settings_refuse(PUMMA_SET_REDUCE, v);
    if ((v = s->shift) != NULL && !(o.shift = pumma_shift_find(v)))
        pumma_settings_refuse(PUMMA_SET_SHIFT, v);
    o.segment = (int)s->segment;
    o.panel = (int)s->panel;            /* PANEL_UNSET when not given */
    o.slice = (int)s->slice;
    o.piece = (double)s->piece;
    /* each choice a variable made is the environment's in the plan */
    static const struct { int var, ch; } vars[] = {
        {PUMMA_SET_ALGO, PUMMA_CH_ALGO},       {PUMMA_SET_BCAST, PUMMA_CH_BCAST},
        {PUMMA_SET_REDUCE, PUMMA_CH_REDUCE},   {PUMMA_SET_SHIFT, PUMMA_CH_SHIFT},
        {PUMMA_SET_SEGMENT, PUMMA_CH_SEGMENT}, {PUMMA_SET_PANEL, PUMMA_CH_PANEL},
        {PUMMA_SET_PIECE, PUMMA_CH_PIECE},     {PUMMA_SET_TOPOLOGY, PUMMA_CH_TOPO}};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (s->given & (1ul << vars[i].var)) o.from[vars[i].ch] = PUMMA_FROM_ENV;
    done = 1;
    return &o;
}

/*
 * Per-call options over the environment's: returns 0 or the INFO of the
 * first bad option (-20 algo, -21 bcast, -22 reduce, -23 shift, -24
 * segment, -25 topo). A code naming a variant that is not in its table is bad too.
 */
static int apply_options(const pumma_options_t *u, pumma_opts_t *o)
{
    if (!u) return 0;
    const char *s;
    if (u->algo) {
        if (!(s = NAME_OF(algo_codes, u->algo)) ||
            (!pumma_algo_find(s) && !pumma_het_schedule(s)))
            return -20;
        o->algo = s;
        o->from[PUMMA_CH_ALGO] = PUMMA_FROM_CALL;
    }
    if (u->bcast) {
        if (!(s = NAME_OF(bcast_codes, u->bcast)) ||
            !(o->bcast = pumma_comm_find(PUMMA_BCAST_TABLE, s)))
            return -21;
        o->from[PUMMA_CH_BCAST] = PUMMA_FROM_CALL;
    }
    if (u->reduce) {
        if (!(s = NAME_OF(reduce_codes, u->reduce)) ||
            !(o->reduce = pumma_comm_find(PUMMA_REDUCE_TABLE, s)))
            return -22;
        o->from[PUMMA_CH_REDUCE] = PUMMA_FROM_CALL;
    }
    if (u->shift) {
        if (!(s = NAME_OF(shift_codes, u->shift)) ||
            !(o->shift = pumma_shift_find(s)))
            return -23;
        o->from[PUMMA_CH_SHIFT] = PUMMA_FROM_CALL;
    }
    if (u->segment < 0) return -24;
    if (u->segment > 0) {
        o->segment = u->segment;
        o->from[PUMMA_CH_SEGMENT] = PUMMA_FROM_CALL;
    }
    if (u->topo) {
        if (!NAME_OF(topo_codes, u->topo)) return -25;
        o->topo = u->topo;
        o->from[PUMMA_CH_TOPO] = PUMMA_FROM_CALL;
    }
    return 0;
}


/* ------------------------------------------------------------- driver */

/* What the last call on this process ran (pumma_last_plan, pumma.h). */
static char last_plan[128] = "";

PUMMA_API const char *pumma_last_plan(void) { return last_plan; }

/* The planner's estimate of the temporaries of this process's last call
 * (for the tests). */
static size_t last_workspace = 0;
size_t pumma_last_workspace(void) { return last_workspace; }

/* The problem every kind of call shares: the grid g, TRANSA/TRANSB as
 * upper case, 'C' read as 'T' for real types, the sizes and scalars. */
static void problem_init(pumma_problem_t *p, const pumma_type_t *t,
                         const pumma_grid_t *g, const char *transa,
                         const char *transb, int m, int n, int k,
                         const void *alpha, const void *beta)
{
    p->t = t;
    p->g = g;
    p->transa = (char)(*transa & ~0x20);
    p->transb = (char)(*transb & ~0x20);
    if (!t->is_complex) {      /* for real types 'C' is 'T' */
        if (p->transa == 'C') p->transa = 'T';
        if (p->transb == 'C') p->transb = 'T';
    }
    p->m = m; p->n = n; p->k = k;
    p->alpha = alpha;
    p->beta = beta;
}

/* The grid of ctxt with its MPI communicators (made on first use), for a
 * call that communicates; fatal when MPI cannot give them. */
const pumma_grid_t *pumma_driver_enter(const char *rout, int ctxt)
{
    const pumma_grid_t *g = pumma_grid_enter(ctxt);
    if (!g) pumma_fatal(MPI_COMM_NULL, rout, "no MPI communicator for the grid",
                        PUMMA_EGRID);
    return g;
}

/* PUMMA_STATS=2's line for the call p, said by its grid's first process. */
static void trace(const char *rout, const pumma_problem_t *p,
                  const pumma_plan_t *pl)
{
    char text[400];
    pumma_stats_trace(p->g->myrow == 0 && p->g->mycol == 0, rout,
                      p->transa, p->transb, p->m, p->n, p->k, p->g->nprow,
                      p->g->npcol, pumma_plan_format(pl, 1, text, sizeof text));
}

/* The operands of a call on a block-cyclic grid: views of sub(A), sub(B)
 * and sub(C) (dA, dB, dC the descriptors' 11-entry forms). */
typedef struct operands {
    const void *a, *b;
    void *c;
    int ia, ja, ib, jb, ic, jc;
    const int *desca, *descb, *descc, *dA, *dB, *dC;
} operands_t;

static void views(pumma_problem_t *p, const operands_t *x)
{
    const int ar = p->transa == 'N' ? p->m : p->k;
    const int ac = p->transa == 'N' ? p->k : p->m;
    const int br = p->transb == 'N' ? p->k : p->n;
    const int bc = p->transb == 'N' ? p->n : p->k;
    p->a = pumma_view_of(p->t, p->g, x->a, x->dA, x->ia - 1, x->ja - 1, ar, ac);
    p->b = pumma_view_of(p->t, p->g, x->b, x->dB, x->ib - 1, x->jb - 1, br, bc);
    p->c = pumma_view_of(p->t, p->g, x->c, x->dC, x->ic - 1, x->jc - 1, p->m,
                         p->n);
}

/* One operand of a heterogeneous call (pumma_het.c's): the rows x cols
 * window at (i, j) (1-based) of its descriptor, a layout's or (d11) a
 * block-cyclic one. */
static void het_operand(const pumma_problem_t *p, const int *desc,
                        const int *d11, int i, int j, int rows, int cols,
                        const void *data, pumma_het_opnd_t *h)
{
    pumma_het_opnd(p->t, p->g, pumma_desc_is_layout(desc) ? desc : d11,
                   i - 1, j - 1, rows, cols, data, h);
}

/*
 * The plan run on `have`: operands the algorithm cannot take as they are
 * go through temporaries (its align), A first, then B, C made for the
 * run and added back with the caller's beta (C computed with beta = 0,
 * so C is read only when beta != 0); A's and B's temporaries are freed
 * before sub(C) goes back, so the peak is the larger of the run's and
 * C's way back, not their sum.
 */
static int run_plan(const pumma_problem_t *have, const pumma_plan_t *pl)
{
    const pumma_algo_t *algo = pl->algo;
    if (!algo->align) return algo->run(have);
    const pumma_type_t *t = have->t;
    const pumma_grid_t *g = have->g;
    const size_t piece = (size_t)pl->piece;
    pumma_problem_t run;
    algo->align(have, &run);
    const int tmp_a = !pumma_view_same_layout(&have->a, &run.a);
    const int tmp_b = !pumma_view_same_layout(&have->b, &run.b);
    const int tmp_c = !pumma_view_same_layout(&have->c, &run.c);
    const int ar = have->transa == 'N' ? have->m : have->k;
    const int ac = have->transa == 'N' ? have->k : have->m;
    const int br = have->transb == 'N' ? have->k : have->n;
    const int bc = have->transb == 'N' ? have->n : have->k;
    int rc = PUMMA_OK;
    run.a.data = run.b.data = run.c.data = NULL;
    if (tmp_a) rc = pumma_redist_alloc(t, g, ar, ac, 'N', &have->a, &run.a,
                                       piece);
    else run.a = have->a;
    if (!rc && tmp_b)
        rc = pumma_redist_alloc(t, g, br, bc, 'N', &have->b, &run.b, piece);
    else if (!rc) run.b = have->b;
    if (!rc && tmp_c) {
        rc = pumma_view_alloc(t, g, &run.c);
        run.beta = t->zero;
    } else if (!rc) {
        run.c = have->c;
    }
    if (!rc) rc = algo->run(&run);
    if (tmp_a) pumma_free(run.a.data);
    if (tmp_b) pumma_free(run.b.data);
    if (!rc && tmp_c)
        rc = pumma_redist(t, g, have->m, have->n, 'N', t->one, &run.c,
                          have->beta, (pumma_view_t *)&have->c, piece);
    if (tmp_c) pumma_free(run.c.data);
    return rc;
}

/*
 * A P?GEMM whose arguments are checked: ScaLAPACK's quick returns, the
 * operands described, sub(C) := beta*sub(C) alone when alpha = 0 or K =
 * 0, the plan made (pumma_plan.c: the row of the algorithm table, its
 * variants and sizes), then run. rout names the routine the user called
 * (P?GEMM, or the one this product is part of) in messages and
 * statistics.
 */
static void gemm_run(const pumma_type_t *t, const char *rout, int ctxt,
                     pumma_opts_t opts, const operands_t *x, const char *transa,
                     const char *transb, int m, int n, int k,
                     const void *alpha, const void *beta, char uplo,
                     int bt_of_a)
{
    /* One triangle of C: a row that keeps C where it is and honours the
     * mask (pumma_algo.h, pumma_problem_t.uplo), its variants priced. */
    if (uplo) {
        opts.algo = "rankk";
        opts.from[PUMMA_CH_ALGO] = PUMMA_FROM_DEFAULT;
    }
    const int het = pumma_desc_is_layout(x->desca) ||
                    pumma_desc_is_layout(x->descb) ||
                    pumma_desc_is_layout(x->descc);
    /* Columns between progress points, unless PUMMA_PANEL says: finer for
     * the heterogeneous schedules, whose transfers wait for the receiver
     * and stall between points (128 measured best against 64 and 512 on
     * shaped 500 Mbit/s links). */
    if (opts.panel == PANEL_UNSET) opts.panel = het ? 128 : 512;

    /* Quick returns, exactly as ScaLAPACK. */
    if (m == 0 || n == 0) return;
    const int nowork = t->is_zero(alpha) || k == 0;
    if (nowork && t->is_one(beta)) return;

    pumma_problem_t have = {0};
    pumma_het_opnd_t h[3];
    pumma_grid_t shape = {0};
    if (het) {
        have.g = pumma_driver_enter(rout, ctxt);
        /* the BLAS's buffer before any temporary (pumma_memlimit.c); the
         * schedules give no estimate to bound by a limit's room */
        pumma_memlimit_enter(have.g, rout);
        problem_init(&have, t, have.g, transa, transb, m, n, k, alpha, beta);
        het_operand(&have, x->descc, x->dC, x->ic, x->jc, m, n, x->c, &h[2]);
        have.hc = &h[2];
    } else {
        /* The views need the grid's shape and this process's place only;
         * communicators are made (pumma_grid_enter) for calls that talk. */
        Cblacs_gridinfo(ctxt, &shape.nprow, &shape.npcol, &shape.myrow,
                        &shape.mycol);
        problem_init(&have, t, &shape, transa, transb, m, n, k, alpha, beta);
        views(&have, x);
    }
    have.uplo = uplo;
    /* P?SYRK's and P?HERK's products, B being A itself transposed: the
     * caller says so (the local arrays' addresses cannot: they differ
     * between processes, and where a process holds nothing two arrays
     * may share one) */
    const int sym = bt_of_a && uplo && !het &&
                    (have.transa == 'N') != (have.transb == 'N');
    have.bt_of_a = sym && have.transa == 'N';
    have.at_of_b = sym && have.transa != 'N';
    if (nowork) {              /* sub(C) := beta*sub(C), A and B unread */
        if (het) {
            pumma_het_scale(t, have.g, have.hc, m, n, beta);
        } else if (uplo) {
            pumma_trap_scale(t, &have.c, shape.myrow, shape.mycol, uplo, beta);
        } else {
            pumma_local_scale(t, pumma_view_mloc(&have.c, shape.myrow),
                              pumma_view_nloc(&have.c, shape.mycol), beta,
                              have.c.data, have.c.ld);
        }
        return;
    }
    if (het) {
        const int nota = have.transa == 'N', notb = have.transb == 'N';
        het_operand(&have, x->desca, x->dA, x->ia, x->ja, nota ? m : k,
                    nota ? k : m, x->a, &h[0]);
        het_operand(&have, x->descb, x->dB, x->ib, x->jb, notb ? k : n,
                    notb ? n : k, x->b, &h[1]);
        have.ha = &h[0];
        have.hb = &h[1];
    }
    pumma_memlimit_t why;
    if (pumma_plan_kind(&have) == PUMMA_CALL_BLOCK) {
        have.g = pumma_driver_enter(rout, ctxt);
        /* its clusters, if it spans some (two-level collectives) */
        pumma_grid_hier(have.g);
        /* Under a memory limit, the room it leaves bounds the plan
         * (doc/memory.md, "Memory limits"); 0: none. */
        const double room = pumma_memlimit_room(
            have.g, rout, pumma_plan_operands(&have), &why);
        opts.room = room == INFINITY ? 0 : room > 1 ? room : 1;
    }
    static pumma_decided_t decided;
    decided.n = 0;
    pumma_plan_t plan = {.decided = &decided};
    int rc = pumma_plan_make(&have, &opts, &plan);
    const char *name = plan.algo ? plan.algo->name : "plan";
    if (rc) pumma_fatal(have.g->all, rout, name, rc);
    pumma_plan_format(&plan, 0, last_plan, sizeof last_plan);
    last_workspace = plan.workspace;
    /* Even the least plan would not fit: stop with the limit's name
     * rather than fail a mapping, or leave the BLAS none (every process
     * has the same room and estimate). */
    if (opts.room > 0 && (double)plan.workspace > opts.room)
        pumma_memlimit_stop(have.g, rout, (double)plan.workspace, opts.room,
                            &why);
    pumma_stats_begin(rout, last_plan);
    pumma_stats_limited(plan.limited != PUMMA_LIMIT_NONE);
    pumma_mem_call_begin();
    rc = run_plan(&have, &plan);
    trace(rout, &have, &plan);      /* with what auto decided as it ran */
    if (!rc && have.g != &shape)   /* (a call that does not talk has none) */
        pumma_stats_words(have.g->all, have.g->nprow * have.g->npcol,
                          (double)t->size, have.m, have.n, have.k,
                          /* the words a process may hold: its operands
                           * and the temporaries the limit allows */
                          (pumma_plan_operands(&have) + plan.limit) /
                              (double)t->size);
    pumma_stats_end();
    if (rc) pumma_fatal(have.g->all, rout, name, rc);
}

/* One P?GEMM as called: ScaLAPACK's checks, the call's options over the
 * environment's, then gemm_run. */
static void gemm_call(const pumma_type_t *t, const char *transa,
                      const char *transb, const int *m, const int *n,
                      const int *k, const void *alpha, const void *a,
                      const int *ia, const int *ja, const int *desca,
                      const void *b, const int *ib, const int *jb,
                      const int *descb, const void *beta, void *c,
                      const int *ic, const int *jc, const int *descc,
                      const pumma_options_t *uopts, int *info_out)
{
    int dA[11], dB[11], dC[11], ctxt;
    int info = pumma_check(transa, transb, *m, *n, *k, *ia, *ja, desca, *ib,
                           *jb, descb, *ic, *jc, descc, dA, dB, dC, &ctxt);
    /* Per-call options > environment > pumma's choice. */
    pumma_opts_t opts = *env_opts();
    if (!info) info = apply_options(uopts, &opts);
    if (info_out) *info_out = info;
    if (info) {
        if (!info_out) PB_Cabort(ctxt, t->rout, info);
        return;
    }
    const operands_t x = {a, b, c, *ia, *ja, *ib, *jb, *ic, *jc,
                          desca, descb, descc, dA, dB, dC};
    gemm_run(t, t->rout, ctxt, opts, &x, transa, transb, *m, *n, *k, alpha,
             beta, 0, 0);
}

void pumma_gemm_inner(const pumma_type_t *t, const char *rout, char ta,
                      char tb, int m, int n, int k, const void *alpha,
                      const void *a, int ia, int ja, const int *dA,
                      const void *b, int ib, int jb, const int *dB,
                      const void *beta, void *c, int ic, int jc,
                      const int *dC, char uplo, int bt_of_a)
{
    const operands_t x = {a, b, c, ia, ja, ib, jb, ic, jc,
                          dA, dB, dC, dA, dB, dC};
    gemm_run(t, rout, dA[1], *env_opts(), &x, &ta, &tb, m, n, k, alpha,
             beta, uplo, bt_of_a);
}

/* Every P?GEMM form comes here: the caller's floating-point flags are
 * kept, and those pumma's bookkeeping raises dropped (pumma_base.h). */
void pumma_gemm(const pumma_type_t *t, const char *transa, const char *transb,
                const int *m, const int *n, const int *k, const void *alpha,
                const void *a, const int *ia, const int *ja, const int *desca,
                const void *b, const int *ib, const int *jb, const int *descb,
                const void *beta, void *c, const int *ic, const int *jc,
                const int *descc, const pumma_options_t *uopts, int *info_out)
{
    PUMMA_FENV_CALL(gemm_call(t, transa, transb, m, n, k, alpha, a, ia, ja,
                              desca, b, ib, jb, descb, beta, c, ic, jc, descc,
                              uopts, info_out));
}
