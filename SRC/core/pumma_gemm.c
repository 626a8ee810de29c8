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
#include "pumma_fenv.h"
#include "pumma_hier.h"
#include "pumma_remap.h"

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
    }
    if (u->bcast) {
        if (!(s = NAME_OF(bcast_codes, u->bcast)) ||
            !(o->bcast = pumma_comm_find(PUMMA_BCAST_TABLE, s)))
            return -21;
    }
    if (u->reduce) {
        if (!(s = NAME_OF(reduce_codes, u->reduce)) ||
            !(o->reduce = pumma_comm_find(PUMMA_REDUCE_TABLE, s)))
            return -22;
    }
    if (u->shift) {
        if (!(s = NAME_OF(shift_codes, u->shift)) ||
            !(o->shift = pumma_shift_find(s)))
            return -23;
    }
    if (u->segment < 0) return -24;
    if (u->segment > 0) o->segment = u->segment;
    if (u->topo) {
        if (!NAME_OF(topo_codes, u->topo)) return -25;
        o->topo = u->topo;
    }
    return 0;
}

/* ---------------------------------------------- forced choices not taken */

/* A call's forced choices (the environment's and the call's own), kept
 * before the plan fills in or replaces them: what PUMMA_STATS reports as
 * "asked" when the call ran something else (doc/statistics.md). */
typedef struct asked {
    const char *algo;
    const pumma_coll_ops_t *bcast, *reduce;
    const pumma_shift_ops_t *shift;
    int segment, topo;
} asked_t;

static asked_t asked_of(const pumma_opts_t *o)
{
    const asked_t a = {o->algo, o->bcast, o->reduce, o->shift, o->segment,
                       o->topo};
    return a;
}

static void forced(const char *kind, const char *asked, const char *ran,
                   const char *why)
{
    pumma_stats_forced(kind, asked, ran, why);
}

/* The variants and segment asked for a call that runs none of them (a
 * local product, a heterogeneous schedule), with why; the topology too
 * unless `topo_used`. */
static void none_taken(const asked_t *a, int topo_used, const char *why)
{
    char seg[24];
    if (a->bcast) forced("bcast", a->bcast->name, "-", why);
    if (a->reduce) forced("reduce", a->reduce->name, "-", why);
    if (a->shift) forced("shift", a->shift->name, "-", why);
    if (a->segment > 0) {
        snprintf(seg, sizeof seg, "%d", a->segment);
        forced("segment", seg, "-", why);
    }
    if (a->topo && !topo_used)
        forced("topo", NAME_OF(topo_codes, a->topo), "-", why);
}

/* Whether variant v may cut its messages by the segment asked: the
 * pseudo-variants decide per message (auto) or per cluster (hier). */
static int may_cut(const pumma_coll_ops_t *v)
{
    return v->seg_default >= 0 || !strcmp(v->name, "auto") ||
           !strcmp(v->name, "hier");
}

/* What the plan of a block-cyclic call (algorithm a, variants in o) did
 * with the forced choices of `asked`. */
static void plan_taken(const pumma_problem_t *p, const asked_t *asked,
                       const pumma_opts_t *o, const pumma_algo_t *a)
{
    char why[96], seg[24];
    const int ub = o->uses & PUMMA_USES_BCAST;
    const int ur = o->uses & PUMMA_USES_REDUCE;
    const int us = o->uses & PUMMA_USES_SHIFT;
    /* a kind the algorithm does not use on this grid */
    snprintf(why, sizeof why, "%s on a %dx%d grid", a->name, p->g->nprow,
             p->g->npcol);
    static const char *const limit = "workspace limit";
    if (asked->algo && strcmp(asked->algo, a->name)) {
        const pumma_algo_t *f = pumma_algo_find(asked->algo);
        char call[16];
        snprintf(call, sizeof call, "%c%c call", p->transa, p->transb);
        forced("algo", asked->algo, a->name,
               !f ? "block-cyclic call"
               : !f->handles(p->transa, p->transb) ? call : limit);
    }
    if (asked->bcast && (!ub || o->bcast != asked->bcast))
        forced("bcast", asked->bcast->name, ub ? o->bcast->name : "-",
               ub ? limit : why);
    if (asked->reduce && (!ur || o->reduce != asked->reduce))
        forced("reduce", asked->reduce->name, ur ? o->reduce->name : "-",
               ur ? limit : why);
    if (asked->shift && (!us || o->shift != asked->shift))
        forced("shift", asked->shift->name, us ? o->shift->name : "-",
               us ? limit : why);
    if (asked->segment > 0 && !(ub && may_cut(o->bcast)) &&
        !(ur && may_cut(o->reduce))) {
        snprintf(seg, sizeof seg, "%d", asked->segment);
        if (ub || ur) {
            snprintf(why, sizeof why, "%s%s%s%s sends whole messages",
                     ub ? "bcast=" : "", ub ? o->bcast->name : "",
                     ub && ur ? " and reduce=" : ur ? "reduce=" : "",
                     ur ? o->reduce->name : "");
        }
        forced("segment", seg, "-", why);
    }
    if (asked->topo)
        forced("topo", NAME_OF(topo_codes, asked->topo), "-",
               "block-cyclic call");
}

/* ------------------------------------------------------------- driver */

/* What the last call on this process ran (pumma_last_plan, pumma.h). */
static char last_plan[128] = "";

PUMMA_API const char *pumma_last_plan(void) { return last_plan; }

/* The planner's estimate of the temporaries of this process's last call
 * that ran an algorithm of the table (for the tests). */
static size_t last_workspace = 0;
size_t pumma_last_workspace(void) { return last_workspace; }

/* The problem both kinds of call share: the grid g, TRANSA/TRANSB as
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
static const pumma_grid_t *enter(const pumma_type_t *t, int ctxt)
{
    const pumma_grid_t *g = pumma_grid_enter(ctxt);
    if (!g) pumma_fatal(NULL, t->rout, "no MPI communicator for the grid",
                        PUMMA_EGRID);
    return g;
}

/* PUMMA_STATS=2's line for the call p, said by its grid's first process. */
static void trace(const pumma_problem_t *p, const char *plan)
{
    pumma_stats_trace(p->g->myrow == 0 && p->g->mycol == 0, p->t->rout,
                      p->transa, p->transb, p->m, p->n, p->k, p->g->nprow,
                      p->g->npcol, plan);
}

/* ------------------------------------------------- the local multiply */

/* Along one grid dimension, who holds all of a distribution's indices:
 * every coordinate (-1: replicated, or one process along it), one (its
 * coordinate), or nobody (-2: they are spread). */
static int holder(const pumma_dist_t *d)
{
    if (d->src < 0 || d->np == 1) return -1;
    return pumma_dist_nblocks(d) <= 1 ? d->src : -2;
}

/* 1 when every process holding a piece of sub(C) holds all of it, and all
 * of sub(A) and sub(B) too: the product is then local to each of them (a
 * 1x1 grid always; else submatrices inside one block, or replicated). From
 * the descriptors only, so every process decides alike. */
static int product_is_local(const pumma_problem_t *p)
{
    const int cr = holder(&p->c.row), cc = holder(&p->c.col);
    if (cr == -2 || cc == -2) return 0;
    const pumma_dist_t *op[4] = {&p->a.row, &p->b.row, &p->a.col, &p->b.col};
    for (int i = 0; i < 4; i++) {
        const int need = i < 2 ? cr : cc, have = holder(op[i]);
        if (!(have == -1 || (need >= 0 && need == have))) return 0;
    }
    return 1;
}

/* The whole product on each process that holds sub(C): one multiply on
 * the caller's arrays, no temporary, no message (the BLAS applies beta,
 * and never reads C when beta = 0). */
static void local_call(const pumma_problem_t *p, const asked_t *asked)
{
    if (pumma_stats_on()) {
        if (asked->algo) forced("algo", asked->algo, "local", "local product");
        none_taken(asked, 0, "local product");
    }
    const pumma_type_t *t = p->t;
    const pumma_grid_t *g = p->g;
    snprintf(last_plan, sizeof last_plan,
             "algo=local bcast=- reduce=- shift=-");
    last_workspace = pumma_blas_gemm_workspace(t, p->m, p->n, p->c.ld);
    trace(p, last_plan);
    pumma_stats_begin(t->rout, "local", "-", "-", "-");
    if (pumma_view_mloc(&p->c, g->myrow) > 0 &&
        pumma_view_nloc(&p->c, g->mycol) > 0)
        pumma_local_gemm(p, p->transa, p->transb, p->m, p->n, p->k, p->alpha,
                         p->a.data, p->a.ld, p->b.data, p->b.ld, p->beta,
                         p->c.data, p->c.ld, NULL, NULL);
    pumma_stats_end();
}

static pumma_het_plan_t het_last;

const pumma_het_plan_t *pumma_het_last(void) { return &het_last; }

/* A call with heterogeneous descriptors (checked; dA, dB, dC the
 * block-cyclic ones' 11-entry forms): ScaLAPACK's quick returns, C :=
 * beta*C alone when alpha = 0 or K = 0, else the schedule of
 * pumma_het.c. */
static void het_call(const pumma_type_t *t, int ctxt, const char *transa,
                     const char *transb, int m, int n, int k,
                     const void *alpha, const void *a, int ia, int ja,
                     const int *desca, const int *dA, const void *b, int ib,
                     int jb, const int *descb, const int *dB,
                     const void *beta, void *c, int ic, int jc,
                     const int *descc, const int *dC, pumma_opts_t *o)
{
    if (m == 0 || n == 0) return;
    if ((t->is_zero(alpha) || k == 0) && t->is_one(beta)) return;
    pumma_problem_t p = {0};
    const pumma_grid_t *g = enter(t, ctxt);
    /* the BLAS's buffer before any temporary (pumma_memlimit.c); the
     * schedules give no estimate to bound by a limit's room */
    pumma_memlimit_enter(g, t->rout);
    problem_init(&p, t, g, transa, transb, m, n, k, alpha, beta);
    const int nota = p.transa == 'N', notb = p.transb == 'N';
    pumma_het_opnd_t A, B, C;
    pumma_het_opnd(t, g, pumma_desc_is_layout(descc) ? descc : dC, ic - 1,
                   jc - 1, m, n, c, &C);
    if (t->is_zero(alpha) || k == 0) {
        pumma_het_scale(t, g, &C, m, n, beta);
        return;
    }
    pumma_het_opnd(t, g, pumma_desc_is_layout(desca) ? desca : dA, ia - 1,
                   ja - 1, nota ? m : k, nota ? k : m, a, &A);
    pumma_het_opnd(t, g, pumma_desc_is_layout(descb) ? descb : dB, ib - 1,
                   jb - 1, notb ? k : n, notb ? n : k, b, &B);
    const char *name = o->algo && pumma_het_schedule(o->algo)
                           ? o->algo : "het-overlap";
    if (pumma_stats_on()) {
        const asked_t asked = asked_of(o);
        if (o->algo && strcmp(o->algo, name))
            forced("algo", o->algo, name, "heterogeneous call");
        none_taken(&asked, 1, "heterogeneous call");
    }
    const int topo = o->topo ? o->topo : PUMMA_TOPO_FULL;
    const int overlap = strcmp(name, "het") != 0;
    p.opts = o;
    /* Where sub(C) is computed: its own distribution, or a layout of the
     * measured speeds (pumma_het_plan.c). */
    pumma_het_plan_t pl;
    int rc = pumma_het_plan(&p, &A, &B, &C, overlap, topo, &pl);
    het_last = pl;
    if (rc) pumma_fatal(g, t->rout, name, rc);
    snprintf(last_plan, sizeof last_plan,
             "algo=%s bcast=- reduce=- shift=- topo=%s layout=%s", name,
             NAME_OF(topo_codes, topo), pumma_het_kind_name(pl.kind));
    trace(&p, last_plan);
    pumma_stats_begin_het(t->rout, name, pumma_het_kind_name(pl.kind));
    double before = pumma_remap_sent();
    if (!pl.kind) {
        rc = pumma_het_run(&p, &A, &B, &C, overlap, topo);
    } else {
        /* sub(C) into the layout (unless BETA = 0), the product there,
         * and back */
        const pumma_layout_t *L = pumma_layout_get(pl.layout);
        const int me = g->myrow * g->npcol + g->mycol;
        const pumma_rect_t *box = &L->box[me];
        const int ml = box->r1 - box->r0, nl = box->c1 - box->c0;
        int d[9] = {PUMMA_DTYPE_LAYOUT, ctxt, m, n, pl.layout, 0, 0, 0,
                    ml > 1 ? ml : 1};
        char *w = pumma_malloc((size_t)d[8] * (size_t)(nl > 0 ? nl : 0) * t->size);
        pumma_het_opnd_t D;
        pumma_het_opnd(t, g, d, 0, 0, m, n, w, &D);
        if (ml > 0 && nl > 0 && !w) rc = PUMMA_ENOMEM;
        pumma_side_t sc = pumma_het_window(t, g, &C, 0, 0, m, n);
        pumma_side_t sd = pumma_het_window(t, g, &D, 0, 0, m, n);
        pumma_remap_t *r = NULL;
        /* on a linear array relayed along the new layout's line, as the
         * schedule's own messages then are */
        if (!rc && !t->is_zero(beta) &&
            !(rc = pumma_remap_start(t, g, &sc, &sd, topo, L,
                                     PUMMA_HET_ID_IN(g), &r)))
            rc = pumma_remap_wait(r);
        if (!rc) rc = pumma_het_run(&p, &A, &B, &D, overlap, topo);
        if (!rc && !(rc = pumma_remap_start(t, g, &sd, &sc, topo, L,
                                            PUMMA_HET_ID_OUT(g), &r)))
            rc = pumma_remap_wait(r);
        pumma_free(w);
    }
    pumma_stats_het(g, pumma_remap_sent() - before);
    pumma_stats_end();
    if (rc) pumma_fatal(g, t->rout, name, rc);
}

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
    const int het = pumma_desc_is_layout(desca) ||
                    pumma_desc_is_layout(descb) || pumma_desc_is_layout(descc);
    int info = pumma_check(transa, transb, *m, *n, *k, *ia, *ja, desca, *ib,
                           *jb, descb, *ic, *jc, descc, dA, dB, dC, &ctxt);
    /* Plan: per-call options > environment > pumma's choice. */
    pumma_opts_t opts = *env_opts();
    if (!info) info = apply_options(uopts, &opts);
    if (info_out) *info_out = info;
    if (info) {
        if (!info_out) PB_Cabort(ctxt, t->rout, info);
        return;
    }
    /* Columns between progress points, unless PUMMA_PANEL says: finer for
     * the heterogeneous schedules, whose transfers wait for the receiver
     * and stall between points (128 measured best against 64 and 512 on
     * shaped 500 Mbit/s links). */
    if (opts.panel == PANEL_UNSET) opts.panel = het ? 128 : 512;
    if (het) {
        het_call(t, ctxt, transa, transb, *m, *n, *k, alpha, a, *ia, *ja,
                 desca, dA, b, *ib, *jb, descb, dB, beta, c, *ic, *jc, descc,
                 dC, &opts);
        return;
    }
    /* A heterogeneous schedule asked for a block-cyclic call: pumma's own
     * choice, as for any algorithm that cannot compute the call. */
    const asked_t asked = asked_of(&opts);
    if (opts.algo && pumma_het_schedule(opts.algo)) opts.algo = NULL;

    /* Quick returns, exactly as ScaLAPACK. */
    if (*m == 0 || *n == 0) return;
    const int nowork = t->is_zero(alpha) || *k == 0;
    if (nowork && t->is_one(beta)) return;

    /* The views need the grid's shape and this process's place only;
     * communicators are made (pumma_grid_enter) for calls that talk. */
    pumma_grid_t shape = {0};
    Cblacs_gridinfo(ctxt, &shape.nprow, &shape.npcol, &shape.myrow,
                    &shape.mycol);
    pumma_problem_t have = {0};
    problem_init(&have, t, &shape, transa, transb, *m, *n, *k, alpha, beta);
    int ar = have.transa == 'N' ? *m : *k, ac = have.transa == 'N' ? *k : *m;
    int br = have.transb == 'N' ? *k : *n, bc = have.transb == 'N' ? *n : *k;
    have.a = pumma_view_of(t, &shape, a, dA, *ia - 1, *ja - 1, ar, ac);
    have.b = pumma_view_of(t, &shape, b, dB, *ib - 1, *jb - 1, br, bc);
    have.c = pumma_view_of(t, &shape, c, dC, *ic - 1, *jc - 1, *m, *n);

    if (nowork) {              /* sub(C) := beta*sub(C), A and B unread */
        pumma_local_scale(t, pumma_view_mloc(&have.c, shape.myrow),
                          pumma_view_nloc(&have.c, shape.mycol), beta,
                          have.c.data, have.c.ld);
        return;
    }
    have.opts = &opts;
    if (product_is_local(&have)) {
        local_call(&have, &asked);
        return;
    }
    const pumma_grid_t *g = have.g = enter(t, ctxt);
    /* A grid that spans clusters broadcasts and reduces in two levels,
     * unless the call or the environment names a variant. */
    const int bcast_named = opts.bcast != NULL;
    const int reduce_named = opts.reduce != NULL;
    pumma_grid_hier(g);
    /* Under a memory limit, the room it leaves bounds the plan
     * (doc/memory.md, "Memory limits"); 0: none. */
    pumma_memlimit_t why;
    const double room =
        pumma_memlimit_room(g, t->rout, pumma_plan_operands(&have), &why);
    opts.room = room == INFINITY ? 0 : room > 1 ? room : 1;

    const pumma_algo_t *algo = pumma_plan(&have, &opts);
    if (g->hier && !bcast_named) opts.bcast = &pumma_bcast_hier;
    if (g->hier && !reduce_named) opts.reduce = &pumma_reduce_hier;

    /* Align: operands the algorithm cannot take as they are go through
     * temporaries. A temporary C is computed with beta = 0 and added back
     * with the caller's beta, so C is read only when beta != 0. */
    const char *bn = opts.uses & PUMMA_USES_BCAST ? opts.bcast->name : "-";
    const char *rn = opts.uses & PUMMA_USES_REDUCE ? opts.reduce->name : "-";
    const char *sn = opts.uses & PUMMA_USES_SHIFT ? opts.shift->name : "-";
    /* The workspace limit changed the choice: to one that fits it, or
     * (none fits) to the least workspace there is. */
    static const char *const limited[] = {"", " limit=fit", " limit=least"};
    snprintf(last_plan, sizeof last_plan,
             "algo=%s bcast=%s reduce=%s shift=%s%s", algo->name, bn, rn, sn,
             limited[opts.limited]);
    pumma_stats_begin(t->rout, algo->name, bn, rn, sn);
    pumma_stats_limited(opts.limited != PUMMA_LIMIT_NONE);
    if (pumma_stats_on()) plan_taken(&have, &asked, &opts, algo);
    pumma_problem_t run;
    algo->align(&have, &run);
    last_workspace = pumma_plan_workspace(&have, algo, &run);
    if (pumma_stats_on()) {
        char line[200];
        snprintf(line, sizeof line, "%s segment=%d piece=%.0f ws=%zu",
                 last_plan, opts.segment, opts.piece, last_workspace);
        trace(&have, line);
    }
    /* Even the least plan would not fit: stop with the limit's name
     * rather than fail a mapping, or leave the BLAS none (every process
     * has the same room and estimate). */
    if (opts.room > 0 && (double)last_workspace > opts.room)
        pumma_memlimit_stop(g, t->rout, (double)last_workspace, opts.room,
                            &why);
    int rc = PUMMA_OK;
    const size_t piece = (size_t)opts.piece;
    const int tmp_a = !pumma_view_same_layout(&have.a, &run.a);
    const int tmp_b = !pumma_view_same_layout(&have.b, &run.b);
    const int tmp_c = !pumma_view_same_layout(&have.c, &run.c);
    run.a.data = run.b.data = run.c.data = NULL;
    if (tmp_a) {
        rc = pumma_redist_alloc(t, g, ar, ac, 'N', &have.a, &run.a, piece);
    } else {
        run.a = have.a;
    }
    if (!rc && tmp_b) {
        rc = pumma_redist_alloc(t, g, br, bc, 'N', &have.b, &run.b, piece);
    } else if (!rc) {
        run.b = have.b;
    }
    if (!rc && tmp_c) {
        rc = pumma_view_alloc(t, g, &run.c);
        run.beta = t->zero;
    } else if (!rc) {
        run.c = have.c;
    }
    if (!rc) rc = algo->run(&run);
    /* A and B are done with before sub(C) goes back: the peak is the
     * larger of the run's and C's way back, not their sum. */
    if (tmp_a) pumma_free(run.a.data);
    if (tmp_b) pumma_free(run.b.data);
    if (!rc && tmp_c)
        rc = pumma_redist(t, g, *m, *n, 'N', t->one, &run.c, beta, &have.c,
                          piece);
    if (tmp_c) pumma_free(run.c.data);
    pumma_stats_end();
    if (rc) pumma_fatal(g, t->rout, algo->name, rc);
}

/* Every P?GEMM form comes here: the caller's floating-point flags are
 * kept, and those pumma's bookkeeping raises dropped (pumma_fenv.h). */
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
