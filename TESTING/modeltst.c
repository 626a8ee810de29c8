/*
 * modeltst.c -- tester of the communication models and of the simulator
 * that predicts pumma's collectives with them (SRC/model/pumma_netmodel.c,
 * pumma_sim.c).
 *
 *   mpiexec -n NP ./xmodeltst        (NP >= 2 for the schedule group)
 *
 * closed     the simulator against closed forms, for each of the five
 *            models with parameters given here: Table 3 of Nasri, Steffenel
 *            and Trystram 2007 for the linear broadcast and the segmented
 *            chain (pipeline, and ring-inc as a chain of one piece),
 *            exactly; binomial against the hypercube tree's own form (a
 *            process whose relative rank has s bits set, the highest bit
 *            2^H, is reached after s transfers and H+1-s extra gaps), which
 *            is Table 3's at powers of two; binary under Table 3's bound;
 *            the flat (direct) and chain (ring) reduces and both shifts
 *            worked by hand.
 * complete   every variant of the tables, every model, np 1 to 40, every
 *            root, several sizes and segments: the schedule completes (no
 *            receive waits for a message never sent) and costs more with
 *            more bytes.
 * fits       a machine synthesized from known Hockney, LogP and LogGP
 *            parameters: each fit recovers its own model's parameters, and
 *            pLogP's interpolation returns its samples.
 * schedule   (MPI, every communicator size 2..NP) each tree variant's
 *            engine, run for real, makes exactly the sends the simulator
 *            has it make -- destinations, sizes and order -- for every
 *            root, count and segment: MPI_Isend is intercepted through the
 *            profiling interface, so prediction and implementation cannot
 *            drift apart unnoticed.
 * shared     pLogPC's shared processors: a chain of one piece on a node
 *            of n processes, `cores` processors and polling share theta
 *            takes (n-1)(busy + or + wake)/min(1, cores/(1 + theta(n-1)))
 *            plus its wire times (wake where n > cores); the fast engine
 *            and the shared one agree with processors enough; one
 *            process to a node is as unshared; on one
 *            processor no schedule beats its total work; theta fitted to
 *            collectives timed on a known machine is that machine's; the
 *            tune file keeps the node.
 * decide     the decision file's rules (pumma_model.h): the rules of the
 *            largest communicator size listed at most the message's, of
 *            those the largest size at most its own; `model` rules defer;
 *            malformed lines are counted and ignored; a written file reads
 *            back the same. The models' decision is a candidate predicted
 *            within 1% of the fastest, never MPI's own, the same for every
 *            size of a quarter octave.
 * search     the searches for variant and segment on landscapes known
 *            here: exhaustive finds the least; model-guided, when the
 *            model is the truth, finds it with few experiments; MGD looks
 *            past a first local minimum; MGD and SMGD come within 10%.
 * auto       (MPI) the auto broadcast and reduce send exactly what the
 *            decided variant at the decided segment sends, and a segment
 *            the call set wins over the decision's.
 * One PASSED/FAILED line per group; `N passed, N failed` last.
 */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pumma_model.h"

#include "tstgroup.h"
#include "tstidle.h"
static int me_world;

static int close_to(double x, double y)
{
    return fabs(x - y) <= 1e-9 * (fabs(x) + fabs(y)) + 1e-18;
}

/* Four machines, one per model; the pLogP one has an eager/rendezvous
 * step at 4 KiB (os falls, g jumps) that no linear model has. */
static void machines(pumma_netmodel_t nm[PUMMA_NM_COUNT])
{
    memset(nm, 0, sizeof(pumma_netmodel_t) * PUMMA_NM_COUNT);
    for (int k = 0; k < PUMMA_NM_COUNT; k++) nm[k].add = 2e-10;
    nm[PUMMA_NM_HOCKNEY].alpha = 5e-6;
    nm[PUMMA_NM_HOCKNEY].beta = 1e-9;
    nm[PUMMA_NM_LOGP].L = 3e-6;
    nm[PUMMA_NM_LOGP].o = 1e-6;
    nm[PUMMA_NM_LOGP].g = 2e-6;
    nm[PUMMA_NM_LOGP].w = 4096;
    nm[PUMMA_NM_LOGGP].gL = 3e-6;
    nm[PUMMA_NM_LOGGP].gO = 1e-6;
    nm[PUMMA_NM_LOGGP].gg = 2e-6;
    nm[PUMMA_NM_LOGGP].gG = 5e-10;
    pumma_plogp_t *s = &nm[PUMMA_NM_PLOGP].s;
    const double m[] = {0, 1024, 4096, 8192, 65536, 1048576};
    const double os[] = {1e-6, 1.5e-6, 3e-6, 1e-6, 1e-6, 1e-6};
    const double g[] = {2e-6, 2.5e-6, 5e-6, 12e-6, 40e-6, 500e-6};
    s->n = 6;
    s->L = 4e-6;
    for (int i = 0; i < s->n; i++) {
        s->m[i] = m[i];
        s->os[i] = os[i];
        s->orv[i] = os[i];
        s->g[i] = g[i];
        s->rtt[i] = 2 * s->L + g[i] + g[0];
    }
    /* pLogPC on unshared processors and without receive overhead is pLogP
     * (the sharing has a group of its own) */
    nm[PUMMA_NM_PLOGPC] = nm[PUMMA_NM_PLOGP];
    for (int i = 0; i < s->n; i++) nm[PUMMA_NM_PLOGPC].s.orv[i] = 0;
}

static const pumma_coll_ops_t *bcast(const char *name)
{
    return pumma_comm_find(PUMMA_BCAST_TABLE, name);
}

/* The hypercube tree, LSB first (pumma_bcast_binomial.c): relative rank r
 * is reached through its set bits in increasing order; the hop to bit b
 * leaves its sender as its (log2(b) - log2(previous bit) - 1)-th send. */
static double binomial_hand(int np, double gap, double arrive)
{
    double worst = 0;
    for (int r = 1; r < np; r++) {
        int s = 0, h = 0;
        for (int b = 0; (1 << b) <= r; b++)
            if (r & (1 << b)) {
                s++;
                h = b;
            }
        double t = s * arrive + (h + 1 - s) * gap;
        if (t > worst) worst = t;
    }
    return worst;
}

static void test_closed(void)
{
    const char *G = "closed forms against the simulator";
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    const double sizes[] = {8, 1000, 4096, 5000, 100000, 3e6};
    for (int k = 0; k < PUMMA_NM_COUNT; k++) {
        const pumma_netmodel_t *x = &nm[k];
        const char *mn = pumma_nm_name(k);
        for (int np = 2; np <= 33; np++) {
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                const double m = sizes[i];
                pumma_nm_cost_t c;
                pumma_nm_msg(x, k, m, &c);
                double sim = pumma_sim_bcast(bcast("linear"), x, k, np, 0, m,
                                             0, 1);
                double cf = pumma_closed_linear(x, k, np, m);
                check(close_to(sim, cf), G, "%s linear np %d m %g: %g vs %g",
                      mn, np, m, sim, cf);
                sim = pumma_sim_bcast(bcast("ring-inc"), x, k, np, np / 2, m,
                                      0, 1);
                cf = pumma_closed_chain(x, k, np, m, 1);
                check(close_to(sim, cf), G, "%s ring-inc np %d m %g: %g vs %g",
                      mn, np, m, sim, cf);
                for (int pieces = 1; pieces <= 64; pieces *= 4) {
                    sim = pumma_sim_bcast(bcast("pipeline"), x, k, np, 1 % np,
                                          m * pieces, m, 1);
                    cf = pumma_closed_chain(x, k, np, m, pieces);
                    check(close_to(sim, cf), G,
                          "%s pipeline np %d %d x %g: %g vs %g", mn, np,
                          pieces, m, sim, cf);
                }
                sim = pumma_sim_bcast(bcast("binomial"), x, k, np, np - 1, m,
                                      0, 1);
                cf = binomial_hand(np, c.gap, c.arrive);
                check(close_to(sim, cf), G, "%s binomial np %d m %g: %g vs %g",
                      mn, np, m, sim, cf);
                if ((np & (np - 1)) == 0) {
                    cf = pumma_closed_binomial(x, k, np, m);
                    check(close_to(sim, cf), G,
                          "%s binomial np %d m %g: %g vs Table 3's %g", mn, np,
                          m, sim, cf);
                }
                sim = pumma_sim_bcast(bcast("binary"), x, k, np, 0, m, 0, 1);
                cf = pumma_closed_binary(x, k, np, m);
                check(sim <= cf * (1 + 1e-12) && sim >= c.arrive, G,
                      "%s binary np %d m %g: %g above the bound %g", mn, np,
                      m, sim, cf);
                /* flat reduce: every child's message in at `arrive`, the
                 * root takes them one gap apart and adds each */
                double t = 0, done = -INFINITY;
                for (int j = 1; j < np; j++) {
                    done = fmax(c.arrive, done + c.gap);
                    t = fmax(t, done) + m * x->add;
                }
                sim = pumma_sim_reduce(
                    pumma_comm_find(PUMMA_REDUCE_TABLE, "direct"), x, k, np, 0,
                    m, 0, 1);
                check(close_to(sim, t), G, "%s direct np %d m %g: %g vs %g",
                      mn, np, m, sim, t);
                sim = pumma_sim_reduce(
                    pumma_comm_find(PUMMA_REDUCE_TABLE, "ring"), x, k, np,
                    np - 1, m, 0, 1);
                t = (np - 1) * (c.arrive + m * x->add);
                check(close_to(sim, t), G, "%s ring np %d m %g: %g vs %g", mn,
                      np, m, sim, t);
                sim = pumma_sim_shift(pumma_shift_find("simultaneous"), x, k,
                                      np, m);
                check(close_to(sim, c.arrive), G,
                      "%s simultaneous np %d: %g vs %g", mn, np, sim,
                      c.arrive);
                sim = pumma_sim_shift(pumma_shift_find("oddeven"), x, k, np,
                                      m);
                check(close_to(sim, 2 * c.arrive), G,
                      "%s oddeven np %d: %g vs %g", mn, np, sim,
                      2 * c.arrive);
            }
        }
    }
    /* Table 3's binomial itself, on its own terms (pLogP, P = 8):
     * 3 L + 3 g(m). */
    pumma_nm_cost_t c;
    pumma_nm_msg(&nm[PUMMA_NM_PLOGP], PUMMA_NM_PLOGP, 65536, &c);
    check(close_to(pumma_closed_binomial(&nm[PUMMA_NM_PLOGP], PUMMA_NM_PLOGP,
                                         8, 65536),
                   3 * 4e-6 + 3 * 40e-6),
          G, "Table 3 binomial P=8");
    check(close_to(c.arrive, 44e-6) && close_to(c.gap, 40e-6), G,
          "pLogP at a sample: arrive %g gap %g", c.arrive, c.gap);
    group_end(G);
}

static void test_complete(void)
{
    const char *G = "every schedule completes";
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    const double sizes[] = {1, 777, 65536, 1e6};
    const double segs[] = {0, 1, 1000, 8192};
    for (int k = 0; k < PUMMA_NM_COUNT; k++)
        for (int red = 0; red < 2; red++)
            for (int v = 0;; v++) {
                const pumma_coll_ops_t *op = pumma_comm_at(
                    red ? PUMMA_REDUCE_TABLE : PUMMA_BCAST_TABLE, v);
                if (!op) break;
                for (int np = 1; np <= 40; np += np < 9 ? 1 : 7)
                    for (int root = 0; root < np; root += 1 + np / 4)
                        for (int si = 0; si < 4; si++)
                            for (int gi = 0; gi < 4; gi++) {
                                double a = red ? pumma_sim_reduce(
                                                     op, &nm[k], k, np, root,
                                                     sizes[si], segs[gi], 1)
                                               : pumma_sim_bcast(
                                                     op, &nm[k], k, np, root,
                                                     sizes[si], segs[gi], 1);
                                double b = red ? pumma_sim_reduce(
                                                     op, &nm[k], k, np, root,
                                                     2 * sizes[si], segs[gi], 1)
                                               : pumma_sim_bcast(
                                                     op, &nm[k], k, np, root,
                                                     2 * sizes[si], segs[gi], 1);
                                check(a >= 0 && b >= a && (np > 1 || a == 0),
                                      G,
                                      "%s %s %s np %d root %d m %g seg %g: "
                                      "%g, %g at twice the bytes",
                                      pumma_nm_name(k), red ? "reduce" : "bcast",
                                      op->name, np, root, sizes[si], segs[gi],
                                      a, b);
                            }
            }
    group_end(G);
}

static void test_fits(void)
{
    const char *G = "fits recover a synthetic machine";
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    for (int k = 0; k < PUMMA_NM_PLOGP; k++) {
        pumma_netmodel_t x = nm[k];
        pumma_nm_synthesize(&x, k, 4 << 20);
        pumma_netmodel_t f;
        memset(&f, 0, sizeof f);
        f.s = x.s;
        pumma_nm_fit(&f);
        if (k == PUMMA_NM_HOCKNEY)
            check(close_to(f.alpha, x.alpha) && close_to(f.beta, x.beta), G,
                  "hockney: alpha %g beta %g, fitted %g %g", x.alpha, x.beta,
                  f.alpha, f.beta);
        if (k == PUMMA_NM_LOGP)
            check(close_to(f.L, x.L) && close_to(f.o, x.o) &&
                      close_to(f.g, x.g) && f.w == x.w,
                  G, "logp: L %g o %g g %g w %g, fitted %g %g %g %g", x.L,
                  x.o, x.g, x.w, f.L, f.o, f.g, f.w);
        if (k == PUMMA_NM_LOGGP)
            check(close_to(f.gL, x.gL) && close_to(f.gO, x.gO) &&
                      close_to(f.gg, x.gg) && close_to(f.gG, x.gG),
                  G, "loggp: L %g o %g g %g G %g, fitted %g %g %g %g", x.gL,
                  x.gO, x.gg, x.gG, f.gL, f.gO, f.gg, f.gG);
        /* the fitted model predicts the samples it came from */
        for (int i = 0; i < x.s.n; i++) {
            pumma_nm_cost_t a, b;
            pumma_nm_msg(&x, k, x.s.m[i], &a);
            pumma_nm_msg(&f, k, x.s.m[i], &b);
            check(close_to(a.arrive, b.arrive) && close_to(a.gap, b.gap), G,
                  "%s at %g bytes: %g/%g, fitted %g/%g", pumma_nm_name(k),
                  x.s.m[i], a.arrive, a.gap, b.arrive, b.gap);
        }
    }
    /* an empty round trip measured twice too long (a first sample's
     * outlier) leaves Hockney close */
    pumma_netmodel_t h = nm[PUMMA_NM_HOCKNEY], f;
    pumma_nm_synthesize(&h, PUMMA_NM_HOCKNEY, 4 << 20);
    memset(&f, 0, sizeof f);
    f.s = h.s;
    f.s.rtt[0] *= 2;
    pumma_nm_fit(&f);
    check(fabs(f.alpha / h.alpha - 1) < 0.2 && fabs(f.beta / h.beta - 1) < 0.05,
          G, "hockney, rtt(0) an outlier: alpha %g beta %g, fitted %g %g",
          h.alpha, h.beta, f.alpha, f.beta);
    const pumma_plogp_t *s = &nm[PUMMA_NM_PLOGP].s;
    for (int i = 0; i < s->n; i++)
        check(pumma_plogp_at(s, s->g, s->m[i]) == s->g[i], G,
              "plogp g at sample %d", i);
    check(close_to(pumma_plogp_at(s, s->g, 6144), 8.5e-6), G,
          "plogp between samples: %g", pumma_plogp_at(s, s->g, 6144));
    group_end(G);
}


/* ------------------------------------------------------------- decide */

/* A grid across hosts (pumma_model_t's share): a line's collective and
 * roll are priced with beta times the lines of its direction that cross
 * one host's link at once, the other direction's count left out; no
 * counts (one host, or a model built by hand): the variant's own cost. */
static void test_link_share(void)
{
    const char *G = "link shared by a host's lines";
    pumma_grid_t g;
    memset(&g, 0, sizeof g);              /* no clusters */
    pumma_model_t mo;
    memset(&mo, 0, sizeof mo);
    mo.alpha = 2e-6;
    mo.beta = 1e-10;
    pumma_model_t four = mo;
    four.beta = 4 * mo.beta;
    const pumma_coll_ops_t *v[2] = {
        pumma_comm_find(PUMMA_BCAST_TABLE, "binomial"),
        pumma_comm_find(PUMMA_REDUCE_TABLE, "ring")};
    const double bytes = 1e6;
    for (int i = 0; i < 2; i++) {
        const double plain = v[i]->cost(&mo, 8, bytes, 0);
        const double shared = v[i]->cost(&four, 8, bytes, 0);
        check(close_to(pumma_coll_price(&g, v[i], &mo, PUMMA_ALONG_COL, 8,
                                         bytes, 0), plain), G,
              "%s without counts: not its cost", v[i]->name);
        mo.share[PUMMA_ALONG_COL] = 4;    /* 4 grid columns on a host */
        mo.share[PUMMA_ALONG_ROW] = 1;
        check(close_to(pumma_coll_price(&g, v[i], &mo, PUMMA_ALONG_COL, 8,
                                         bytes, 0), shared), G,
              "%s down 4 columns sharing a link: not beta x 4", v[i]->name);
        check(close_to(pumma_coll_price(&g, v[i], &mo, PUMMA_ALONG_ROW, 8,
                                         bytes, 0), plain), G,
              "%s along one row a host: shared", v[i]->name);
        mo.share[PUMMA_ALONG_COL] = mo.share[PUMMA_ALONG_ROW] = 0;
    }
    const pumma_shift_ops_t *s = pumma_shift_find("simultaneous");
    mo.share[PUMMA_ALONG_ROW] = 4;
    check(close_to(pumma_shift_price(&g, s, &mo, PUMMA_ALONG_ROW, 8, bytes),
                   s->cost(&four, 8, bytes)), G, "roll along 4 rows a host: "
          "not beta x 4");
    check(close_to(pumma_shift_price(&g, s, &mo, PUMMA_ALONG_COL, 8, bytes),
                   s->cost(&mo, 8, bytes)), G, "roll down columns: shared");
    group_end(G);
}

/* Shared processors (PLOGPC, pumma_sim.c): what the chain, a node of
 * one process, the total work and the fit of theta must give. */
static void test_shared(void)
{
    const char *G = "shared processors (plogpc)";
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    pumma_netmodel_t x = nm[PUMMA_NM_PLOGP];    /* or = os: nonzero */
    const int K = PUMMA_NM_PLOGPC;
    const double sizes[] = {8, 4096, 100000, 3e6};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const double m = sizes[i];
        pumma_nm_cost_t c;
        pumma_nm_msg(&x, K, m, &c);
        const double orc = fmin(pumma_plogp_at(&x.s, x.s.orv, m),
                                c.arrive - c.busy),
                     wire = c.arrive - c.busy - orc;
        for (int np = 2; np <= 12; np++)
            for (int cores = 1; cores <= 2; cores++)
                for (int th = 0; th <= 4; th++) {
                    const int ppns[3] = {np, 4, 1};
                    for (int j = 0; j < 3; j++) {
                        /* a chain of one piece from 0: one burst at a
                         * time, the node's other processes all waiting;
                         * nodes of ppn consecutive ranks, the last one
                         * the rest */
                        x.s.cores = cores;
                        x.s.ppn = ppns[j];
                        x.s.theta = th / 4.0;
                        x.s.wake = 2e-6;
                        double want = 0, r[12], w[12];
                        for (int p = 0; p < np; p++) {
                            const int first = p / ppns[j] * ppns[j],
                                      n = np - first < ppns[j] ? np - first
                                                               : ppns[j];
                            r[p] = fmin(1, cores / (1 + x.s.theta * (n - 1)));
                            w[p] = n > cores ? x.s.wake : 0;
                        }
                        for (int p = 0; p + 1 < np; p++)
                            want += c.busy / r[p] + wire +
                                    (orc + w[p + 1]) / r[p + 1];
                        const double sim = pumma_sim_bcast(bcast("ring-inc"), &x,
                                                           K, np, 0, m, 0, 1);
                        check(close_to(sim, want), G,
                              "chain np %d ppn %d cores %d theta %g m %g: %g vs %g",
                              np, ppns[j], cores, x.s.theta, m, sim, want);
                    }
                }
    }
    /* processors enough: the shared engine and the fast one agree */
    for (int t = 0; t < 2; t++) {
        const pumma_table_kind_t op = t ? PUMMA_REDUCE_TABLE : PUMMA_BCAST_TABLE;
        for (int v = 0; pumma_comm_at(op, v); v++) {
            const pumma_coll_ops_t *vo = pumma_comm_at(op, v);
            for (int np = 2; np <= 17; np += 5)
                for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                    x.s.cores = 0, x.s.ppn = np, x.s.theta = 0.5;
                    double a[2];
                    for (int e = 0; e < 2; e++) {
                        pumma_sim_always_shared = e;
                        a[e] = t ? pumma_sim_reduce(vo, &x, K, np, 1, sizes[i], 8192, 8)
                                 : pumma_sim_bcast(vo, &x, K, np, 1, sizes[i], 8192, 8);
                    }
                    pumma_sim_always_shared = 0;
                    check(close_to(a[0], a[1]) && a[0] > 0, G,
                          "%s np %d m %g: fast %g, shared engine %g", vo->name,
                          np, sizes[i], a[0], a[1]);
                }
        }
    }
    /* one process a node shares nothing: as on unshared processors; and
     * on one processor without polling, never faster than the total work */
    for (int t = 0; t < 2; t++) {
        const pumma_table_kind_t op = t ? PUMMA_REDUCE_TABLE : PUMMA_BCAST_TABLE;
        for (int v = 0; pumma_comm_at(op, v); v++) {
            const pumma_coll_ops_t *vo = pumma_comm_at(op, v);
            for (int np = 2; np <= 9; np += 7)
                for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                    const double m = sizes[i];
                    x.s.cores = 1, x.s.ppn = 1, x.s.theta = 1, x.s.wake = 0;
                    double a = t ? pumma_sim_reduce(vo, &x, K, np, 1, m, 8192, 8)
                                 : pumma_sim_bcast(vo, &x, K, np, 1, m, 8192, 8);
                    x.s.cores = 0;
                    double b = t ? pumma_sim_reduce(vo, &x, K, np, 1, m, 8192, 8)
                                 : pumma_sim_bcast(vo, &x, K, np, 1, m, 8192, 8);
                    check(close_to(a, b) && a > 0, G,
                          "%s np %d m %g: one a node %g, unshared %g",
                          vo->name, np, m, a, b);
                    double work = 0;
                    for (int me = 0; me < np; me++) {
                        int dest[4096];
                        double by[4096];
                        const int ns = pumma_sim_sends(
                            vo, t, np, 1, me, (int64_t)(m / 8), 8, 1024, dest,
                            by, 4096);
                        for (int q = 0; q < ns && q < 4096; q++) {
                            pumma_nm_cost_t c;
                            pumma_nm_msg(&x, K, by[q], &c);
                            work += c.busy + (t ? by[q] * x.add : 0) +
                                    fmin(pumma_plogp_at(&x.s, x.s.orv, by[q]),
                                         c.arrive - c.busy);
                        }
                    }
                    x.s.cores = 1, x.s.ppn = np, x.s.theta = 0;
                    a = t ? pumma_sim_reduce(vo, &x, K, np, 1, m, 8192, 8)
                          : pumma_sim_bcast(vo, &x, K, np, 1, m, 8192, 8);
                    check(a >= work * (1 - 1e-9) && a >= b * (1 - 1e-9), G,
                          "%s np %d m %g: %g on one processor, below its work "
                          "%g or unshared %g", vo->name, np, m, a, work, b);
                }
        }
    }
    /* the fit recovers theta from collectives timed on its own machine,
     * and that model wins every size class */
    x.s.cores = 2, x.s.ppn = 8, x.s.theta = 0.3, x.s.wake = 4e-6;
    double t[PUMMA_POLY_NTRAIN], err[PUMMA_POLY_NCLASS][PUMMA_NM_COUNT];
    int best[PUMMA_POLY_NCLASS];
    pumma_poly_predict(&x, K, 8, 4 << 20, t);
    pumma_netmodel_t y = x;
    y.s.theta = 0, y.s.wake = 0;
    memset(err, 0, sizeof err);          /* what it held must not count */
    pumma_poly_fit(&y, 8, 4 << 20, t, err, best);
    check(fabs(y.s.theta - 0.3) < 1e-9 && fabs(y.s.wake - 4e-6) < 1e-15, G,
          "fit: theta %g wake %g", y.s.theta, y.s.wake);
    for (int c = 0; c < PUMMA_POLY_NCLASS; c++)
        check(best[c] == K && err[c][K] < 1e-9 && err[c][PUMMA_NM_PLOGP] > 1e-6,
              G, "fit, class %d: model %s error %g (plogp %g)", c,
              pumma_nm_name(best[c]), err[c][K], err[c][PUMMA_NM_PLOGP]);
    /* a machine whose small messages follow Hockney and large ones pLogP:
     * the poly-model takes each where it holds */
    double th[PUMMA_POLY_NTRAIN], tp[PUMMA_POLY_NTRAIN];
    pumma_netmodel_t h = nm[PUMMA_NM_PLOGP];
    h.alpha = 3e-6, h.beta = 2e-10;
    pumma_poly_predict(&h, PUMMA_NM_HOCKNEY, 4, 4 << 20, th);
    pumma_poly_predict(&h, PUMMA_NM_PLOGP, 4, 4 << 20, tp);
    for (int i = 0; i < PUMMA_POLY_NTRAIN; i++)
        if (i >= 3) th[i] = tp[i];   /* training: 3 of each class, in order */
    memset(err, 0, sizeof err);
    pumma_poly_fit(&h, 4, 4 << 20, th, err, best);
    check(best[0] == PUMMA_NM_HOCKNEY && best[1] == PUMMA_NM_PLOGP &&
              best[2] == PUMMA_NM_PLOGP, G, "poly per class: %s %s %s",
          pumma_nm_name(best[0]), pumma_nm_name(best[1]),
          pumma_nm_name(best[2]));
    /* the tune file keeps the node; a line without it shares nothing */
    char path[] = "/tmp/pumma-modeltst-XXXXXX";
    const int fd = mkstemp(path);
    if (fd >= 0) {
        close(fd);
        setenv("PUMMA_TUNE_FILE", path, 1);
        pumma_tune_write_plogp("pair=a,b mpi=x", &x.s, 3e-10);
        pumma_plogp_t back;
        double add = 0;
        const int got = pumma_tune_read_plogp("pair=a,b mpi=x", &back, &add);
        check(got && back.cores == 2 && back.ppn == 8 &&
                  fabs(back.theta - 0.3) < 1e-9 &&
                  fabs(back.wake - 4e-6) < 1e-15 && back.n == x.s.n, G,
              "tune file: read %d cores %g ppn %g theta %g wake %g", got,
              back.cores, back.ppn, back.theta, back.wake);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "plogp pair=a,b mpi=x L=1e-06 add=0 m=0,8 os=1e-06,1e-06 "
                       "or=1e-06,1e-06 g=2e-06,2e-06 rtt=6e-06,6e-06\n");
            fclose(f);
        }
        memset(&back, 0xff, sizeof back);
        check(pumma_tune_read_plogp("pair=a,b mpi=x", &back, &add) &&
                  back.cores == 0 && back.ppn == 0 && back.theta == 0 &&
                  back.wake == 0, G,
              "tune file: a line without the node");
        unsetenv("PUMMA_TUNE_FILE");
        unlink(path);
    } else {
        check(0, G, "mkstemp");
    }
    group_end(G);
}

static void test_decide(void)
{
    const char *G = "decision file and the models' decisions";
    const char *text =
        "# a comment\n"
        "bcast 2 0 linear 0\n"
        "bcast 2 4096 pipeline 2048   # trailing comment\n"
        "bcast 4 0 binomial 0\n"
        "bcast 4 100000 ring-dec 8192\n"
        "bcast 8 0 model 0\n"
        "reduce 3 10 mst 4096\n"
        "model 2 loggp\n"
        "model 6 hockney\n"
        "model 6 65536 plogpc\n"          /* from 64 KiB on 6 and up */
        "model 6 65536 logp\n"            /* repeats np, bytes */
        "model 7 -1 logp\n"
        "bcast 2 4096 binary 0\n"          /* repeats op, np, bytes */
        "bcast 2 10 auto 0\n"              /* auto is no variant */
        "bcast 2 10 mpi 1024\n"            /* mpi never cuts */
        "bcast 0 10 linear 0\n"            /* np from 1 */
        "bcast 2 -1 linear 0\n"
        "bcast 2 1.5 linear 0\n"
        "scatter 2 0 linear 0\n"
        "bcast 2 0 linear\n"
        "model 3 nosuch\n"
        "\n";
    pumma_decider_t d;
    memset(&d, 0, sizeof d);
    int bad = pumma_decide_parse(&d, text, NULL);
    check(bad == 11, G, "%d lines ignored, expected 11", bad);
    check(d.nrules == 6 && d.nmodels == 3, G, "%d rules %d models", d.nrules,
          d.nmodels);
    struct { pumma_table_kind_t op; int np; double bytes; const char *v;
             double seg; int src; } want[] = {
        {PUMMA_BCAST_TABLE, 2, 8, "linear", 0, PUMMA_SRC_FILE},
        {PUMMA_BCAST_TABLE, 2, 4095, "linear", 0, PUMMA_SRC_FILE},
        {PUMMA_BCAST_TABLE, 2, 4096, "pipeline", 2048, PUMMA_SRC_FILE},
        {PUMMA_BCAST_TABLE, 3, 1e9, "pipeline", 2048, PUMMA_SRC_FILE},
        {PUMMA_BCAST_TABLE, 4, 99999, "binomial", 0, PUMMA_SRC_FILE},
        {PUMMA_BCAST_TABLE, 7, 100000, "ring-dec", 8192, PUMMA_SRC_FILE},
        {PUMMA_BCAST_TABLE, 1, 100, NULL, 0, PUMMA_SRC_DEFAULT},
        {PUMMA_BCAST_TABLE, 9, 100, NULL, 0, PUMMA_SRC_DEFAULT},
        {PUMMA_REDUCE_TABLE, 3, 9, NULL, 0, PUMMA_SRC_DEFAULT},
        {PUMMA_REDUCE_TABLE, 5, 10, "mst", 4096, PUMMA_SRC_FILE},
        {PUMMA_REDUCE_TABLE, 2, 1e6, NULL, 0, PUMMA_SRC_DEFAULT}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        pumma_decision_t x;
        pumma_decide(&d, want[i].op, want[i].np, want[i].bytes, 8, &x);
        check(x.source == want[i].src &&
              (!want[i].v || (!strcmp(x.v->name, want[i].v) &&
                              x.seg == want[i].seg)),
              G, "case %zu: %s seg %g source %d", i, x.v->name, x.seg,
              x.source);
    }
    check(pumma_decide_model_of(&d, 1, 8) == PUMMA_NM_PLOGP &&
          pumma_decide_model_of(&d, 5, 8) == PUMMA_NM_LOGGP &&
          pumma_decide_model_of(&d, 5, 1e6) == PUMMA_NM_LOGGP &&
          pumma_decide_model_of(&d, 6, 65535) == PUMMA_NM_HOCKNEY &&
          pumma_decide_model_of(&d, 6, 65536) == PUMMA_NM_PLOGPC &&
          pumma_decide_model_of(&d, 100, 0) == PUMMA_NM_HOCKNEY &&
          pumma_decide_model_of(&d, 100, 1e9) == PUMMA_NM_PLOGPC, G,
          "model lines by communicator size and message size");

    /* written and read back */
    char path[] = "/tmp/pumma-modeltst-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    check(fd >= 0 && !pumma_decide_write(path, &d, "two\nlines"), G,
          "writing %s", path);
    FILE *f = fopen(path, "r");
    static char back[65536];
    size_t n = f ? fread(back, 1, sizeof back - 1, f) : 0;
    back[n] = '\0';
    if (f) fclose(f);
    remove(path);
    pumma_decider_t e;
    memset(&e, 0, sizeof e);
    check(pumma_decide_parse(&e, back, NULL) == 0 && e.nrules == d.nrules &&
          e.nmodels == d.nmodels, G, "read back: %d rules", e.nrules);
    for (int i = 0; i < e.nrules && i < d.nrules; i++)
        check(e.rules[i].op == d.rules[i].op && e.rules[i].np == d.rules[i].np
              && e.rules[i].bytes == d.rules[i].bytes &&
              e.rules[i].v == d.rules[i].v && e.rules[i].seg == d.rules[i].seg,
              G, "rule %d read back differs", i);
    for (int i = 0; i < e.nmodels && i < d.nmodels; i++)
        check(e.models[i].np == d.models[i].np &&
              e.models[i].bytes == d.models[i].bytes &&
              e.models[i].kind == d.models[i].kind, G,
              "model line %d read back differs", i);
    pumma_decide_free(&e);

    /* the models: no file rule for reduces on 2, `model` for broadcasts
     * on 8 and more, so they decide */
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    d.have_nm = 1;
    d.nm = nm[PUMMA_NM_PLOGP];
    d.nm.alpha = nm[PUMMA_NM_HOCKNEY].alpha;
    d.nm.beta = nm[PUMMA_NM_HOCKNEY].beta;
    const double sizes[] = {8, 1000, 65536, 1 << 20};
    const struct { pumma_table_kind_t op; int np; } mc[] = {
        {PUMMA_REDUCE_TABLE, 2}, {PUMMA_BCAST_TABLE, 8},
        {PUMMA_BCAST_TABLE, 9}};
    for (int m = 0; m < 3; m++)
        for (int si = 0; si < 4; si++) {
            const pumma_table_kind_t op = mc[m].op;
            const int np = mc[m].np;
            pumma_decision_t x, y, z;
            pumma_decide(&d, op, np, sizes[si], 8, &x);
            /* the same for any size of its quarter octave */
            pumma_decide(&d, op, np, sizes[si] * 1.05, 8, &y);
            check(x.source == PUMMA_SRC_MODEL && x.v->shape && x.v == y.v &&
                  x.seg == y.seg &&
                  x.model == pumma_decide_model_of(&d, np, sizes[si]),
                  G, "model decision np %d bytes %g: %s source %d", np,
                  sizes[si], x.v->name, x.source);
            /* within 1% of every candidate's prediction */
            const int kind = pumma_decide_model_of(&d, np, sizes[si]);
            pumma_decide_by_model(&d.nm, kind, op, np,
                                  sizes[si], 8, &z);
            pumma_cand_t c[256], me = {z.v, z.seg, 0};
            const int nc = pumma_search_cands(op, sizes[si],
                                              1, c, 256);
            const double tz = pumma_search_predict(&d.nm, kind,
                                                   op, np,
                                                   sizes[si], 8, &me);
            for (int i = 0; i < nc; i++)
                check(tz <= 1.01 * pumma_search_predict(
                                       &d.nm, kind, op, np,
                                       sizes[si], 8, &c[i]),
                      G, "np %d bytes %g: %s/%g is faster than the choice",
                      np, sizes[si], c[i].v->name, c[i].seg);
        }
    pumma_decide_free(&d);
    group_end(G);
}

/* ------------------------------------------------------------- search */

typedef struct land { const double *t; const pumma_cand_t *c0; } land_t;
static double land_measure(void *ctx, const pumma_cand_t *c)
{
    land_t *l = ctx;
    return l->t[c - l->c0];
}

static void test_search(void)
{
    const char *G = "segment and variant searches";
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    enum { MAXC = 256 };
    pumma_cand_t c[MAXC];
    double truth[MAXC], t[MAXC];
    for (int np = 3; np <= 16; np *= 2) {
        const double bytes = 1 << 20;
        const int n = pumma_search_cands(PUMMA_BCAST_TABLE, bytes, 1, c, MAXC);
        int arg = 0;
        for (int i = 0; i < n; i++) {
            truth[i] = pumma_search_predict(&nm[PUMMA_NM_PLOGP],
                                            PUMMA_NM_PLOGP, PUMMA_BCAST_TABLE,
                                            np, bytes, 8, &c[i]);
            if (truth[i] < truth[arg]) arg = i;
        }
        land_t l = {truth, c};
        pumma_search_t s = {PUMMA_BCAST_TABLE, np, 8, bytes, c, n,
                            land_measure, &l, t, 0, 0};
        pumma_search_exhaustive(&s);
        check(s.best == arg && s.experiments == n, G,
              "exhaustive np %d: best %d of %d, expected %d", np, s.best,
              s.experiments, arg);
        pumma_search_model(&s, &nm[PUMMA_NM_PLOGP], PUMMA_NM_PLOGP, 2);
        check(truth[s.best] == truth[arg] && s.experiments <= 4, G,
              "model-guided np %d: %g against %g in %d experiments", np,
              truth[s.best], truth[arg], s.experiments);
        pumma_search_mgd(&s);
        check(truth[s.best] <= 1.10 * truth[arg] && s.experiments < n, G,
              "mgd np %d: %g against %g in %d of %d", np, truth[s.best],
              truth[arg], s.experiments, n);
        pumma_search_smgd(&s);
        check(truth[s.best] <= 1.10 * truth[arg] && s.experiments < n, G,
              "smgd np %d: %g against %g in %d of %d", np, truth[s.best],
              truth[arg], s.experiments, n);
    }
    /* one variant, a first minimum at its 3rd segment, a bump, the least
     * two halvings further: MGD looks two steps past a minimum */
    const double bytes = 1 << 20;
    int n = pumma_search_cands(PUMMA_BCAST_TABLE, bytes, 1, c, MAXC), lo = -1;
    for (int i = 0; i < n; i++) {
        truth[i] = 1.0;
        if (c[i].v == bcast("binary") && lo < 0) lo = i;
    }
    const double curve[] = {0.9, 0.7, 0.5, 0.6, 0.3, 0.4, 0.8, 0.9};
    for (int j = 0; j < 8 && lo + j < n; j++) truth[lo + j] = curve[j];
    land_t l = {truth, c};
    pumma_search_t s = {PUMMA_BCAST_TABLE, 4, 8, bytes, c, n, land_measure,
                        &l, t, 0, 0};
    pumma_search_mgd(&s);
    check(lo >= 0 && s.best == lo + 4, G, "mgd past a local minimum: %d, "
          "expected %d", s.best, lo + 4);
    group_end(G);
}

/* ------------------------------------------------- schedule (with MPI) */

enum { MAXLOG = 4096 };
static int tracing, nlog, log_dest[MAXLOG];
static double log_bytes[MAXLOG];
static MPI_Comm traced;

/* The profiling interface: every send of the engines is logged. */
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    if (tracing && comm == traced && nlog < MAXLOG) {
        int sz;
        PMPI_Type_size(dt, &sz);
        log_dest[nlog] = dest;
        log_bytes[nlog++] = (double)count * sz;
    }
    return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
}

/* A collective of count doubles on comm from/to root, cut at seg elements
 * (0: the variant's default). */
static pumma_coll_t coll_on(MPI_Comm comm, double *buf, double *sum,
                            int64_t count, int root, int seg)
{
    pumma_coll_t c;
    memset(&c, 0, sizeof c);
    c.buf = buf;
    c.rbuf = sum;
    c.count = count;
    c.dt = MPI_DOUBLE;
    c.t = &pumma_type_d;
    c.root = root;
    c.comm = comm;
    c.tag = 5;
    c.segment = seg;
    return c;
}

/* Runs c with variant run, its sends traced, and compares them with what
 * the simulator has this process send for variant sim at seg elements per
 * piece (sim NULL: MPI's own, not compared). 1 when they are the same;
 * *nsim the simulated number. */
static int sends_match(const pumma_coll_ops_t *run, pumma_coll_t *c,
                       const pumma_coll_ops_t *sim, int red, int seg,
                       int *nsim)
{
    static int sdest[MAXLOG];
    static double sbytes[MAXLOG];
    int me, np;
    MPI_Comm_rank(c->comm, &me);
    MPI_Comm_size(c->comm, &np);
    traced = c->comm;
    nlog = 0;
    tracing = 1;
    int rc = run->start(c);
    if (!rc) rc = run->wait(c);
    tracing = 0;
    *nsim = -1;
    if (!sim) return rc == 0;
    *nsim = pumma_sim_sends(sim, red, np, c->root, me, c->count, 8, seg,
                            sdest, sbytes, MAXLOG);
    int same = rc == 0 && *nsim == nlog;
    for (int i = 0; same && i < *nsim; i++)
        same = sdest[i] == log_dest[i] && sbytes[i] == log_bytes[i];
    return same;
}

/* The end of a group run on every process: bad is this one's failures. */
static void group_end_all(const char *G, int bad)
{
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me_world == 0) {
        if (all && !bad) check(0, G, "%d mismatches on other ranks", all);
        group_fail += all > 0 && !group_fail;
        group_end(G);
    }
    group_fail = 0;
}

static void test_schedule(void)
{
    const char *G = "engines send what the simulator schedules";
    int np_world;
    MPI_Comm_size(MPI_COMM_WORLD, &np_world);
    const int64_t counts[] = {1, 1000, 30001};
    const int segs[] = {0, 100, 7000};
    int bad = 0;
    for (int np = 2; np <= np_world; np++) {
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, me_world < np ? 0 : MPI_UNDEFINED,
                       me_world, &comm);
        if (comm == MPI_COMM_NULL) continue;
        double *buf = malloc(sizeof(double) * 30001),
               *sum = malloc(sizeof(double) * 30001);
        for (int i = 0; i < 30001; i++) buf[i] = 1;
        for (int red = 0; red < 2; red++)
            for (int v = 0;; v++) {
                const pumma_coll_ops_t *op = pumma_comm_at(
                    red ? PUMMA_REDUCE_TABLE : PUMMA_BCAST_TABLE, v);
                if (!op) break;
                if (!op->shape) continue;           /* MPI's own */
                for (int root = 0; root < np; root++)
                    for (int ci = 0; ci < 3; ci++)
                        for (int gi = 0; gi < 3; gi++) {
                            pumma_coll_t c = coll_on(comm, buf, sum,
                                                     counts[ci], root,
                                                     segs[gi]);
                            int me, n;
                            MPI_Comm_rank(comm, &me);
                            if (!sends_match(op, &c, op, red, segs[gi], &n) &&
                                bad++ < 5)
                                check(0, G,
                                      "%s %s np %d root %d count %lld seg %d "
                                      "rank %d: %d sends, simulated %d",
                                      red ? "reduce" : "bcast", op->name, np,
                                      root, (long long)counts[ci], segs[gi],
                                      me, nlog, n);
                        }
            }
        free(buf);
        free(sum);
        MPI_Comm_free(&comm);
    }
    group_end_all(G, bad);
}


/* The auto variants send what the decided variant sends. */
static void test_auto(void)
{
    const char *G = "auto sends what its decision says";
    int np_world;
    MPI_Comm_size(MPI_COMM_WORLD, &np_world);
    pumma_decider_t d;
    memset(&d, 0, sizeof d);
    pumma_decide_parse(&d,
                       "bcast 2 0 linear 0\nbcast 2 4096 pipeline 2048\n"
                       "bcast 3 0 binary 1024\nreduce 2 0 ring 0\n"
                       "reduce 2 10000 mst 4096\n", NULL);
    const int64_t counts[] = {1, 1000, 30001};
    int bad = 0;
    double *buf = malloc(sizeof(double) * 30001),
           *sum = malloc(sizeof(double) * 30001);
    for (int i = 0; i < 30001; i++) buf[i] = 1;
    for (int np = 2; np <= np_world; np++) {
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, me_world < np ? 0 : MPI_UNDEFINED,
                       me_world, &comm);
        if (comm == MPI_COMM_NULL) continue;
        for (int red = 0; red < 2; red++)
            for (int ci = 0; ci < 3; ci++)
                for (int preset = 0; preset < 2; preset++) {
                    const pumma_table_kind_t op =
                        red ? PUMMA_REDUCE_TABLE : PUMMA_BCAST_TABLE;
                    pumma_coll_t c = coll_on(comm, buf, sum, counts[ci],
                                             np - 1, preset ? 300 : 0);
                    c.dec = &d;
                    pumma_decision_t x;
                    pumma_decide(&d, op, np, counts[ci] * 8.0, 8, &x);
                    const int seg = preset ? 300 : x.seg > 0 ? (int)(x.seg / 8)
                                                             : 0;
                    const pumma_coll_ops_t *a =
                        red ? &pumma_reduce_auto : &pumma_bcast_auto;
                    int n;
                    const int same =
                        sends_match(a, &c, x.v->shape ? x.v : NULL, red, seg,
                                    &n) &&
                        c.via == x.v;
                    if (!same && bad++ < 5)
                        check(0, G, "%s np %d count %lld preset %d: %s, %d "
                                    "sends, simulated %d",
                              red ? "reduce" : "bcast", np,
                              (long long)counts[ci], preset, x.v->name, nlog,
                              n);
                }
        MPI_Comm_free(&comm);
    }
    free(buf);
    free(sum);
    pumma_decide_free(&d);
    group_end_all(G, bad);
}

/* A network whose messages in flight share their sender's link
 * (pumma_plogp_t.fair): a linear broadcast keeps its time (the root's
 * link carries the same messages, busy throughout); a pipeline's pieces,
 * posted together, are all through the root's link only after all of
 * them -- k pieces of gap g on each of two links, 2 k g + 2 L -- where
 * one after another they are 5 g + 2 L for 4 pieces (the chain's closed
 * form). */
static void test_fair(void)
{
    const char *G = "a fair network's sharing";
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    for (int k = PUMMA_NM_PLOGP; k <= PUMMA_NM_PLOGPC; k++) {
        pumma_netmodel_t fifo = nm[k], fair = nm[k];
        fair.s.fair = 1;
        const char *mn = pumma_nm_name(k);
        for (int np = 2; np <= 9; np++) {
            const double a = pumma_sim_bcast(bcast("linear"), &fifo, k, np, 0,
                                             1e6, 0, 1),
                         b = pumma_sim_bcast(bcast("linear"), &fair, k, np, 0,
                                             1e6, 0, 1);
            check(fabs(a - b) <= 1e-9 * a, G, "%s linear np %d: %g, %g "
                  "one after another", mn, np, b, a);
        }
        /* late in a long run, a message shorter than the clock's
         * rounding still arrives (it once left the engine spinning) */
        {
            pumma_netmodel_t late = fair;
            late.s.L = 1000;
            for (int i = 0; i < late.s.n; i++)
                late.s.g[i] = 1e-16, late.s.rtt[i] = 2000;
            const double t = pumma_sim_bcast(bcast("pipeline"), &late, k, 3,
                                             0, 512, 64, 8);
            check(t >= 2000 && t < 2000 * (1 + 1e-9), G, "%s a pipeline "
                  "of tiny pieces after a 1000 s latency: %g, want 2000",
                  mn, t);
        }
        /* posted at one instant: no send overhead between the pieces */
        for (int i = 0; i < fair.s.n; i++) fair.s.os[i] = fifo.s.os[i] = 0;
        const double m = 65536;
        pumma_nm_cost_t c;
        pumma_nm_msg(&fifo, k, m, &c);
        for (int pieces = 4; pieces <= 64; pieces *= 4) {
            const double want = 2 * pieces * c.gap + 2 * fifo.s.L,
                         got = pumma_sim_bcast(bcast("pipeline"), &fair, k, 3,
                                               0, m * pieces, m, 1),
                         chain = pumma_closed_chain(&fifo, k, 3, m, pieces),
                         one = pumma_sim_bcast(bcast("pipeline"), &fifo, k, 3,
                                               0, m * pieces, m, 1);
            check(fabs(got - want) <= 1e-9 * want, G,
                  "%s pipeline of %d pieces: %g, want %g", mn, pieces, got,
                  want);
            check(close_to(one, chain), G, "%s pipeline of %d pieces one "
                  "after another: %g, the chain's %g", mn, pieces, one, chain);
        }
    }
    group_end(G);
}

/* On a fair network a node's processes share its link (SimGrid's
 * clusters and a real NIC alike): whatever the schedule, it cannot end
 * before each node's link has carried the messages that leave it (and,
 * its link in, those that reach it), each its gap of the link (beta m
 * under Hockney, whose alpha is latency). Trees whose
 * inner processes share a node (binomial, binary) send several messages
 * out of a node at once; given a link each, they would look as fast as
 * the minimum spanning tree, whose senders each have a node. */
static void test_nic(void)
{
    const char *G = "a node's processes share its link";
    pumma_netmodel_t nm[PUMMA_NM_COUNT];
    machines(nm);
    const char *names[] = {"binomial", "binary", "ring-split", "mst", "linear",
                           "pipeline"};
    for (int k = PUMMA_NM_HOCKNEY; k < PUMMA_NM_COUNT; k++) {
        pumma_netmodel_t x = nm[k], in = nm[k];
        x.s.fair = in.s.fair = 1;
        x.local = &in;
        const char *mn = pumma_nm_name(k);
        for (int v = 0; v < 6; v++)
            for (int np = 4; np <= 16; np *= 2)
                for (int per = 2; per <= 4 && per < np; per *= 2)
                    for (int sg = 0; sg < 2; sg++) {
                        const double m = 1 << 20, seg = sg ? 65536 : 0;
                        x.per = per;
                        const double T = pumma_sim_bcast(bcast(names[v]), &x, k,
                                                          np, 0, m, seg, 8);
                        double out[16] = {0}, into[16] = {0}, most = 0;
                        for (int me = 0; me < np; me++) {
                            int dest[4096];
                            double by[4096];
                            const int ns = pumma_sim_sends(
                                bcast(names[v]), 0, np, 0, me,
                                (int64_t)(m / 8), 8, (int)(seg / 8), dest, by,
                                4096);
                            for (int q = 0; q < ns && q < 4096; q++) {
                                if (dest[q] / per == me / per) continue;
                                pumma_nm_cost_t c;
                                pumma_nm_msg(&x, k, by[q], &c);
                                /* Hockney's alpha is latency, not link */
                                const double w = k == PUMMA_NM_HOCKNEY
                                                     ? x.beta * by[q]
                                                     : c.gap;
                                out[me / per] += w;
                                into[dest[q] / per] += w;
                            }
                        }
                        for (int n = 0; n < np / per; n++)
                            most = fmax(most, fmax(out[n], into[n]));
                        check(T > 0 && T >= most * (1 - 1e-9), G,
                              "%s %s np %d, %d a node, pieces of %g: %g, before "
                              "its busiest node's link has carried its "
                              "messages (%g)", mn, names[v], np, per, seg, T,
                              most);
                    }
    }
    group_end(G);
}

/* The planner's prices on a fair network (pumma_model_t.fair): pieces
 * posted together arrive together, so a pipeline broadcast and a ring
 * reduce cost np - 1 hops of the whole message (and the reduce its sums),
 * whatever the segment; one after another they pipeline, (np - 2 + s)
 * hops of a piece (s pieces, at most PUMMA_MAX_PIECES). */
static void test_fair_prices(void)
{
    const char *G = "the planner's prices on a fair network";
    pumma_model_t mo;
    memset(&mo, 0, sizeof mo);
    mo.alpha = 2e-6, mo.beta = 1e-9, mo.delta = 1e-10;
    const pumma_coll_ops_t *pipe = pumma_comm_find(PUMMA_BCAST_TABLE, "pipeline"),
                           *ring = pumma_comm_find(PUMMA_REDUCE_TABLE, "ring");
    for (int np = 2; np <= 32; np *= 2)
        for (double seg = 8192; seg <= 1 << 20; seg *= 8) {
            const double m = 1 << 22;
            mo.fair = 1;
            const double whole = (np - 1) * pumma_model_msg(&mo, m),
                         bp = pipe->cost(&mo, np, m, seg),
                         rr = ring->cost(&mo, np, m, seg);
            check(close_to(bp, whole), G, "pipeline np %d seg %g: %g, want %g",
                  np, seg, bp, whole);
            check(close_to(rr, whole + (np - 1) * pumma_model_copy(&mo, m, 0)),
                  G, "ring reduce np %d seg %g: %g", np, seg, rr);
            mo.fair = 0;
            const double s = fmin(ceil(m / seg), PUMMA_MAX_PIECES),
                         piped = (np - 2 + s) * pumma_model_msg(&mo, m / s);
            check(close_to(pipe->cost(&mo, np, m, seg), piped), G,
                  "pipeline np %d seg %g one after another: %g, want %g", np,
                  seg, pipe->cost(&mo, np, m, seg), piped);
        }
    group_end(G);
}

/* A redistribution posts its messages at once (pumma_redist): over a
 * grid's slowest link (alpha, pumma_grid_price_model) the first pays its
 * latency and each further one the fastest link's (alpha_post); on one
 * network (alpha_post 0) each pays alpha. */
static void test_redist_latency(void)
{
    const char *G = "a redistribution's latencies";
    pumma_model_t mo;
    memset(&mo, 0, sizeof mo);
    mo.alpha = 10e-3, mo.beta = 1e-8;
    const double bytes = 1e6, np = 32, bw = mo.beta * bytes * (np - 1) / np;
    for (int partners = 1; partners <= 31; partners += 5) {
        mo.alpha_post = 0;
        const double one = pumma_model_redist_among(&mo, np, partners, bytes, 0);
        check(close_to(one, partners * mo.alpha + bw), G,
              "%d partners on one network: %g", partners, one);
        mo.alpha_post = 25e-6;
        const double two = pumma_model_redist_among(&mo, np, partners, bytes, 0);
        check(close_to(two, mo.alpha + (partners - 1) * 25e-6 + bw), G,
              "%d partners over a slow link: %g", partners, two);
    }
    group_end(G);
}

/* Messages within a node priced by the node's own model
 * (pumma_netmodel_t.local): a communicator inside one node takes the local
 * model's time, one spread one process a node the network's; one of two
 * nodes lies between. */
static void test_local(void)
{
    const char *G = "a node's own model";
    pumma_netmodel_t nm[PUMMA_NM_COUNT], fast[PUMMA_NM_COUNT];
    machines(nm);
    machines(fast);
    for (int k = 0; k < PUMMA_NM_COUNT; k++) {
        fast[k].alpha /= 10, fast[k].beta /= 10, fast[k].L /= 10;
        fast[k].o /= 10, fast[k].g /= 10, fast[k].gL /= 10, fast[k].gO /= 10;
        fast[k].gg /= 10, fast[k].gG /= 10, fast[k].s.L /= 10;
        for (int i = 0; i < fast[k].s.n; i++) {
            fast[k].s.g[i] /= 10;
            fast[k].s.os[i] /= 10;
            fast[k].s.orv[i] /= 10;
        }
        const char *mn = pumma_nm_name(k);
        const char *names[] = {"linear", "binomial", "pipeline", "ring-split"};
        for (int v = 0; v < 4; v++)
            for (int np = 2; np <= 8; np *= 2) {
                pumma_netmodel_t two = nm[k];
                two.local = &fast[k];
                two.per = 8;
                const double in = pumma_sim_bcast(bcast(names[v]), &two, k, np,
                                                  0, 100000, 0, 1),
                             want = pumma_sim_bcast(bcast(names[v]), &fast[k],
                                                    k, np, 0, 100000, 0, 1);
                check(close_to(in, want), G, "%s %s np %d in one node: %g, "
                      "the node's model %g", mn, names[v], np, in, want);
                two.per = 1;
                const double apart = pumma_sim_bcast(bcast(names[v]), &two, k,
                                                     np, 0, 100000, 0, 1),
                             net = pumma_sim_bcast(bcast(names[v]), &nm[k], k,
                                                   np, 0, 100000, 0, 1);
                check(close_to(apart, net), G, "%s %s np %d a node each: %g, "
                      "the network's %g", mn, names[v], np, apart, net);
                two.per = np / 2;
                const double half = pumma_sim_bcast(bcast(names[v]), &two, k,
                                                    np, 0, 100000, 0, 1);
                check(np < 4 || (half < net && half > in), G,
                      "%s %s np %d on two nodes: %g, not between %g and %g",
                      mn, names[v], np, half, in, net);
            }
    }
    group_end(G);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me_world);
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (me_world == 0) {
        test_closed();
        test_complete();
        test_fits();
        test_shared();
        test_link_share();
        test_fair();
        test_nic();
        test_fair_prices();
        test_redist_latency();
        test_local();
        test_decide();
        test_search();
    }
    idle_barrier(MPI_COMM_WORLD);  /* the others sleep meanwhile */
    if (np >= 2) test_schedule();
    if (np >= 2) test_auto();
    if (me_world == 0) printf("%d passed, %d failed\n", npass, nfail);
    int f = nfail;
    MPI_Bcast(&f, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return f ? 1 : 0;
}
