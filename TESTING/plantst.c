/*
 * plantst.c -- tester of `auto` (SRC/driver/pumma_plan.c) and the cost
 * functions it prices with, under models set by hand (no measurement, no
 * communication: one process).
 *
 * Usage: mpiexec -n 1 ./xplantst
 *
 * Checks, from the definitions rather than from what the code prints:
 *   costs   every broadcast, reduce and shift variant against the closed
 *           forms of its schedule (seconds for alpha, beta, delta given):
 *           binomial trees ceil(log2 np) rounds, chains np-1 hops,
 *           segmented chains np-2+s piece times, direct np-1 receipts...;
 *   search  for many problems (grids 1x1 to 6x1 and 2x3, the four
 *           TRANSA/TRANSB, sizes, block sizes) and several models, the
 *           plan is the first combination in the tables' order priced
 *           within 3% of the cheapest (all enumerated here independently;
 *           variants of a kind the algorithm does not use may differ),
 *           uses only an algorithm that computes the TRANSA/TRANSB, and
 *           keeps every forced choice that applies;
 *   sense   on a latency-bound machine broadcasts over 6 processes use a
 *           log-depth tree, never a ring or a chain, and reduces a tree;
 *           on a bandwidth-bound one a large broadcast is pipelined; when
 *           transposing copies are dear A^T*B^T takes tt-local (whose
 *           transposes happen in the GEMM) and A*B no -row form (which
 *           presorts transposed); when transposed GEMMs are dear, tt;
 *   cubes   split's search (pumma_cube_search), which tries a subset of
 *           the cubes, takes one priced within 10% of the cheapest of all
 *           (enumerated here) on grids that factor and that do not;
 *   cache   the temporaries' allocator (SRC/base/pumma_mem.c): the
 *           peak counts the requests; a call whose phases shrink by
 *           half and grow back faults no page in after its first run
 *           (counted by getrusage), and what is kept is released for
 *           real (faulted in again after pumma_mem_release); a kept
 *           block grows in place, serves smaller requests from its
 *           pages, and its freed pieces merge (a later request as
 *           large as the whole faults nothing); random requests and
 *           frees never overlap and merge back into one block; a
 *           window of small calls gives back what a large call before
 *           it left; a request beyond the arena's reservation is served
 *           and the next arena holds it. Without the cache (PUMMA_CACHE=0, the checking
 *           builds) the peak counts the requests and nothing is kept.
 *           Pages are counted in 4 KiB: PUMMA_HUGEPAGES=0 (huge pages
 *           are the kernel's advice to take or leave).
 * Prints one PASSED/FAILED line per check group and "N passed, N failed";
 * exit status 1 on a failure.
 */
#define _POSIX_C_SOURCE 200809L  /* setenv */
#include <mpi.h>
#include <sys/resource.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pumma.h"
#include "pumma_driver.h"

#include "tstgroup.h"

static int close_to(double x, double y)
{
    return fabs(x - y) <= 1e-9 * (fabs(x) + fabs(y)) + 1e-300;
}

static pumma_model_t model(double alpha, double beta, double gamma,
                           double delta, double delta_t, double gamma_t)
{
    pumma_model_t m;
    memset(&m, 0, sizeof m);
    m.alpha = alpha;
    m.beta = beta;
    for (int i = 0; i < 4; i++) m.gamma[i] = gamma;
    m.gamma_k = 8;
    m.gamma_t = gamma_t;
    m.delta = delta;
    m.delta_t = delta_t;
    m.overlap = 1;
    m.valid = 1;
    return m;
}

static int ceil_log2(int n)
{
    int d = 0;
    while ((1 << d) < n) d++;
    return d;
}

/* ------------------------------------------------------------- cache */

static long minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

static void nap(double seconds)
{
    struct timespec t = {(time_t)seconds,
                         (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&t, NULL);
}

static void touch(void *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i += 4096) ((volatile char *)p)[i] = 1;
}

static void test_cache(void)
{
    const char *G = "cache";
    const size_t MB = (size_t)1 << 20;
#ifdef PUMMA_CHECK_MEMORY
    const int keeps = 0;            /* the checking builds keep nothing */
#else
    const int keeps = pumma_mem_cache_on();
#endif
    if (!keeps) {
        /* PUMMA_CACHE=0 or a checking build: every temporary goes back at
         * once, and the peak still counts the requests */
        pumma_mem_release();
        pumma_mem_peak(1);
        void *p = pumma_malloc(11 * MB), *q = pumma_malloc(3 * MB);
        touch(p, 11 * MB);
        touch(q, 3 * MB);
        pumma_free(p);
        pumma_free(q);
        size_t peak = pumma_mem_peak(1);
        check(peak >= 14 * MB && peak < 14 * MB + 2 * 8192, G,
              "peak %zu bytes for requests of 11 and 3 MiB", peak);
        void *r = pumma_malloc(200 * 1024);
        pumma_free(r);
        check(pumma_mem_release() == 0, G, "temporaries kept without a cache");
        group_end(G);
        return;
    }
    pumma_mem_release();
    pumma_mem_peak(1);
    /* A call: three buffers of 11 MB (an operand's slice and its
     * redistribution), then three of 5.3 MB (partial products): the
     * second phase reuses the first's pages, the next call the same. */
    long before = 0, faults[3];
    for (int call = 0; call < 3; call++) {
        before = minor_faults();
        void *big[3], *half[3];
        for (int i = 0; i < 3; i++) {
            big[i] = pumma_malloc(11 * MB);
            touch(big[i], 11 * MB);
        }
        for (int i = 0; i < 3; i++) pumma_free(big[i]);
        for (int i = 0; i < 3; i++) {
            half[i] = pumma_malloc(11 * MB / 2 - 4096);
            touch(half[i], 11 * MB / 2 - 4096);
        }
        for (int i = 0; i < 3; i++) pumma_free(half[i]);
        faults[call] = minor_faults() - before;
    }
    /* 33 MB is 8448 pages: the first call faults them, later ones none
     * (a few for the process's own bookkeeping) */
    check(faults[0] >= 8000, G, "first call faulted %ld pages, expected >= 8000",
          faults[0]);
    check(faults[1] < 64 && faults[2] < 64, G,
          "repeated calls faulted %ld and %ld pages, expected none", faults[1],
          faults[2]);
    size_t peak = pumma_mem_peak(0);
    check(peak >= 33 * MB && peak < 33 * MB + 3 * 8192, G,
          "peak %zu bytes for three requests of 11 MiB", peak);
    size_t kept = pumma_mem_cached();
    check(kept >= 33 * MB && kept < 33 * MB + 3 * 8192, G,
          "kept %zu bytes, expected the three 11 MiB blocks", kept);
    check(pumma_mem_release() == kept && pumma_mem_cached() == 0, G,
          "pumma_mem_release gave back other than the %zu bytes kept", kept);
    check(pumma_mem_release() == 0, G, "a second release freed bytes");
    /* given back for real: the same request faults its pages in again */
    void *p = pumma_malloc(8 * MB);
    before = minor_faults();
    touch(p, 8 * MB);
    check(minor_faults() - before >= 2000, G,
          "after pumma_mem_release 8 MiB faulted %ld pages, expected 2048",
          minor_faults() - before);
    pumma_free(p);
    pumma_mem_release();

    /* A larger request grows the kept block; its touched pages stay. */
    p = pumma_malloc(4 * MB);
    touch(p, 4 * MB);
    pumma_free(p);
    p = pumma_malloc(6 * MB);
    before = minor_faults();
    touch(p, 4 * MB);
    long grown = minor_faults() - before;
    check(grown < 64, G, "a grown block faulted %ld of its old pages", grown);
    memset(p, 1, 6 * MB);               /* every byte of the request usable */
    pumma_free(p);
    check(pumma_mem_peak(1) >= 6 * MB, G, "the peak missed a grown block");
    pumma_mem_release();

    /* A kept 10 MiB serving 4 MiB twice: both from its pages, apart; freed,
     * the pieces are one block again, and serve 10 MiB with no fault (a
     * call of another shape after one that split them). */
    p = pumma_malloc(10 * MB);
    touch(p, 10 * MB);
    pumma_free(p);
    p = pumma_malloc(4 * MB);
    kept = pumma_mem_cached();
    check(kept >= 6 * MB - 8192 && kept < 6 * MB + 8192, G,
          "a 10 MiB block serving 4 MiB left %zu bytes kept, expected 6 MiB",
          kept);
    void *p2 = pumma_malloc(4 * MB);
    before = minor_faults();
    memset(p, 4, 4 * MB);
    memset(p2, 5, 4 * MB);
    long split = minor_faults() - before;
    check(split < 64, G, "the two pieces of a kept block faulted %ld pages",
          split);
    check(((char *)p)[4 * MB - 1] == 4, G, "the pieces of a kept block overlap");
    pumma_free(p);
    pumma_free(p2);
    p = pumma_malloc(10 * MB);
    before = minor_faults();
    memset(p, 6, 10 * MB);
    check(minor_faults() - before < 64, G,
          "10 MiB after its two freed pieces faulted %ld pages",
          minor_faults() - before);
    pumma_free(p);
    pumma_mem_release();

    /* Small temporaries too: a freed one of 200 KiB is kept, and serves
     * the next 150 KiB in place with its pages in. */
    const size_t KB = 1024;
    p = pumma_malloc(200 * KB);
    touch(p, 200 * KB);
    pumma_free(p);
    check(pumma_mem_cached() >= 200 * KB, G,
          "a freed temporary of 200 KiB left %zu bytes kept, expected all",
          pumma_mem_cached());
    void *q = pumma_malloc(150 * KB);
    before = minor_faults();
    memset(q, 5, 150 * KB);
    long again = minor_faults() - before;
    check(q == p && again < 4, G,
          "a request of 150 KiB after a freed 200 KiB one: %s, %ld faults",
          q == p ? "the same block" : "another block", again);
    pumma_free(q);
    pumma_mem_release();

    /* Any order of requests and frees: no two blocks in use overlap (each
     * keeps its own pattern until freed), and once all are freed they
     * are one block again (kept as much as the most in use at once, or
     * less, and served whole without a fault). */
    enum { LIVE = 12 };
    void *live[LIVE] = {0};
    size_t size[LIVE] = {0};
    unsigned seed = 12345;
    int overlap = 0;
    size_t most = 0, now = 0;
    for (int op = 0; op < 600; op++) {
        seed = seed * 1103515245u + 12345u;
        const int i = (int)((seed >> 8) % LIVE);
        if (live[i]) {
            const unsigned char *c = live[i];
            for (size_t o = 0; o < size[i]; o += 4093)
                if (c[o] != (unsigned char)i) overlap = 1;
            pumma_free(live[i]);
            live[i] = NULL;
            now -= size[i];
        } else {
            seed = seed * 1103515245u + 12345u;
            size[i] = 16 * KB + (seed >> 4) % (3 * MB);
            live[i] = pumma_malloc(size[i]);
            memset(live[i], i, size[i]);
            now += size[i];
            if (now > most) most = now;
        }
    }
    for (int i = 0; i < LIVE; i++) pumma_free(live[i]);
    check(!overlap, G, "two temporaries in use overlapped");
    kept = pumma_mem_cached();
    check(kept > 0 && kept <= 2 * most, G,
          "random requests (at most %zu bytes at once) left %zu kept", most,
          kept);
    p = pumma_malloc(kept - 4096);
    before = minor_faults();
    touch(p, kept - 4096);
    check(minor_faults() - before < 64, G,
          "the freed blocks, one again, faulted %ld pages",
          minor_faults() - before);
    pumma_free(p);
    pumma_mem_release();

    /* A request beyond the arena's first reservation (256 MiB) is served
     * all the same, and the next arena holds it: kept once freed. */
    p = pumma_malloc(320 * MB);
    memset(p, 7, MB);
    ((char *)p)[320 * MB - 1] = 7;
    pumma_free(p);
    p = pumma_malloc(320 * MB);
    ((char *)p)[320 * MB - 1] = 8;
    pumma_free(p);
    check(pumma_mem_cached() >= 320 * MB, G,
          "320 MiB beyond the first arena: %zu bytes kept after the second",
          pumma_mem_cached());
    pumma_mem_release();

    /* What no recent call needs goes back: 64 MiB held once, then a
     * window (16 calls, a second) of calls holding 1 MiB keeps it; the
     * next such window gives back all but about twice 1 MiB. */
    p = pumma_malloc(64 * MB);
    touch(p, 64 * MB);
    pumma_free(p);
    for (int w = 0; w < 2; w++) {
        for (int call = 0; call < 16; call++) {
            pumma_mem_call_begin();
            q = pumma_malloc(MB);
            touch(q, MB);
            pumma_free(q);
        }
        if (w == 0)
            check(pumma_mem_cached() >= 64 * MB, G,
                  "64 MiB used in this window: %zu kept", pumma_mem_cached());
        nap(1.05);
    }
    pumma_mem_call_begin();
    check(pumma_mem_cached() <= 4 * MB, G,
          "a window of 1 MiB calls after one of 64 MiB left %zu bytes kept",
          pumma_mem_cached());
    pumma_mem_release();
    group_end(G);
}

/* ------------------------------------------------------------- costs */

static void test_costs(void)
{
    const char *G = "variant costs match their schedules' closed forms";
    const double a = 1e-5, b = 1e-9, d = 3e-10;
    pumma_model_t mo = model(a, b, 1e-11, d, 2 * d, 1);
    const double sizes[] = {8, 1e4, 3e6};
    const int nps[] = {1, 2, 3, 4, 5, 6, 8};
    for (int is = 0; is < 3; is++)
        for (int in = 0; in < 7; in++) {
            double m = sizes[is];
            int np = nps[in], L = ceil_log2(np);
            double msg = a + b * m, add = msg + d * m;
            const pumma_coll_ops_t *v;
            for (int i = 0; (v = pumma_comm_at(PUMMA_BCAST_TABLE, i)); i++) {
                double want = -1, got = v->cost(&mo, np, m, 0);
                const char *nm = v->name;
                if (!strcmp(nm, "ring-inc") || !strcmp(nm, "ring-dec") ||
                    !strcmp(nm, "linear"))
                    want = (np - 1) * msg;
                else if (!strcmp(nm, "mpi") || !strcmp(nm, "mst") ||
                         !strcmp(nm, "binomial"))
                    want = L * msg;
                else if (!strcmp(nm, "ring-split")) {
                    /* root sends one way, then the other: the farthest
                     * node is ceil((np-1)/2) hops one way, or one more
                     * than floor((np-1)/2) the other */
                    int one = np / 2, other = (np - 1) / 2;
                    int far = other > 0 && other + 1 > one ? other + 1 : one;
                    want = far * msg;
                } else if (!strcmp(nm, "binary")) {
                    int lv = 0;
                    while ((2 << lv) <= np) lv++;
                    want = np <= 1 ? 0 : (np == 2 ? 1 : 2 * lv) * msg;
                } else if (!strcmp(nm, "pipeline")) {
                    double seg = 65536;
                    int s = m <= seg ? 1 : (int)ceil(m / seg);
                    if (s > 256) s = 256;
                    want = np <= 1 ? 0 : (np - 2 + s) * (a + b * m / s);
                } else if (!strcmp(nm, "hier")) {
                    /* one cluster: what it runs there, binomial without
                     * a decider (whose cost is checked above) */
                    want = pumma_comm_find(PUMMA_BCAST_TABLE, "binomial")
                               ->cost(&mo, np, m, 0);
                }
                check(want >= 0, G, "bcast %s has no closed form here", nm);
                check(close_to(got, want), G, "bcast %s np=%d m=%g: %g, want %g",
                      nm, np, m, got, want);
            }
            for (int i = 0; (v = pumma_comm_at(PUMMA_REDUCE_TABLE, i)); i++) {
                double want = -1, got = v->cost(&mo, np, m, 0);
                const char *nm = v->name;
                if (!strcmp(nm, "direct") || !strcmp(nm, "ring"))
                    want = (np - 1) * add;
                else if (!strcmp(nm, "mst"))
                    want = L * add;
                else if (!strcmp(nm, "mpi"))
                    want = np <= 1 ? 0 : L * add + 2 * d * m;
                else if (!strcmp(nm, "scatter"))
                    /* a piece of m/np to and from each other process, the
                     * np contributions to my piece summed, the root
                     * receiving np-1 sums */
                    want = np <= 1 ? 0 : 2 * (np - 1) * (a + b * m / np) + d * m;
                else if (!strcmp(nm, "hier")) {
                    /* one cluster: what it runs there, the table's first
                     * without a decider */
                    want = pumma_comm_at(PUMMA_REDUCE_TABLE, 0)
                               ->cost(&mo, np, m, 0);
                }
                check(want >= 0, G, "reduce %s has no closed form here", nm);
                check(close_to(got, want), G,
                      "reduce %s np=%d m=%g: %g, want %g", nm, np, m, got,
                      want);
            }
            /* A segmented ring reduce: np-2+s pieces, each sent and added. */
            const pumma_coll_ops_t *ring =
                pumma_comm_find(PUMMA_REDUCE_TABLE, "ring");
            if (np > 1 && m > 4096) {
                int s = (int)ceil(m / 4096);
                if (s > 256) s = 256;
                double want = (np - 2 + s) * (a + (b + d) * m / s);
                check(close_to(ring->cost(&mo, np, m, 4096), want), G,
                      "segmented ring reduce np=%d m=%g", np, m);
            }
            const pumma_shift_ops_t *sh;
            for (int i = 0; (sh = pumma_shift_at(i)); i++) {
                double got = sh->cost(&mo, np, m);
                double want = np <= 1 ? 0
                              : !strcmp(sh->name, "oddeven") ? 2 * msg
                                                              : msg;
                check(close_to(got, want), G, "shift %s np=%d m=%g: %g, want %g",
                      sh->name, np, m, got, want);
            }
        }
    group_end(G);
}

/* ------------------------------------------------------------ planning */

static pumma_grid_t grid(int P, int Q, const pumma_model_t *mo)
{
    pumma_grid_t g;
    memset(&g, 0, sizeof g);
    g.nprow = P;
    g.npcol = Q;
    g.all = g.row = g.col = MPI_COMM_NULL;
    g.tag_ub = 2147483647;          /* Open MPI's MPI_TAG_UB */
    g.model = *mo;
    return g;
}

static pumma_view_t view(int rows, int cols, int mb, int nb, int P, int Q)
{
    pumma_view_t v;
    memset(&v, 0, sizeof v);
    v.row = (pumma_dist_t){rows, mb, mb, 0, P};
    v.col = (pumma_dist_t){cols, nb, nb, 0, Q};
    v.ld = 1;
    return v;
}

static pumma_problem_t problem(const pumma_grid_t *g, char ta, char tb, int m,
                               int n, int k, int nb)
{
    pumma_problem_t p;
    memset(&p, 0, sizeof p);
    p.t = &pumma_type_d;
    p.g = g;
    p.transa = ta;
    p.transb = tb;
    p.m = m; p.n = n; p.k = k;
    p.alpha = p.beta = pumma_type_d.one;
    int P = g->nprow, Q = g->npcol;
    p.a = ta == 'N' ? view(m, k, nb, nb, P, Q) : view(k, m, nb, nb, P, Q);
    p.b = tb == 'N' ? view(k, n, nb, nb, P, Q) : view(n, k, nb, nb, P, Q);
    p.c = view(m, n, nb, nb, P, Q);
    return p;
}

/* The planner's plan of p asking for o (pumma_plan_make): its row. */
static const pumma_algo_t *plan_make(pumma_problem_t *p, const pumma_opts_t *o,
                                     pumma_plan_t *pl)
{
    memset(pl, 0, sizeof *pl);
    pumma_plan_make(p, o, pl);
    return pl->algo;
}

/* The variants b, r, s priced as a plan with o's sizes. */
static pumma_plan_t variants(const pumma_opts_t *o, const pumma_coll_ops_t *b,
                             const pumma_coll_ops_t *r,
                             const pumma_shift_ops_t *s)
{
    pumma_plan_t t;
    memset(&t, 0, sizeof t);
    t.bcast = b;
    t.reduce = r;
    t.shift = s;
    t.segment = o->segment;
    t.piece = o->piece;
    t.panel = o->panel;
    return t;
}

/* The plan's cost recomputed: the same pricing, done here. */
static double price(const pumma_problem_t *have, const pumma_algo_t *a,
                    const pumma_plan_t *o)
{
    const pumma_grid_t *g = have->g;
    pumma_problem_t h = *have, want;
    pumma_plan_t t = *o;               /* (a cube row chooses its cube) */
    h.plan = &t;
    a->align(&h, &want);
    want.plan = &t;
    if (a->shape) a->shape(&want, &g->model, &t);
    double c = a->cost(&want, &g->model);
    const pumma_view_t *hv[3] = {&h.a, &h.b, &h.c};
    const pumma_view_t *wv[3] = {&want.a, &want.b, &want.c};
    for (int i = 0; i < 3; i++)
        if (!pumma_view_same_layout(hv[i], wv[i]))
            c += pumma_model_redist(&g->model, g->nprow * g->npcol,
                                    (double)wv[i]->row.n / g->nprow *
                                        wv[i]->col.n / g->npcol * 8,
                                    0);
    return c;
}

#define MARGIN 0.03

/* Plan p with o's choices; return the cost of the plan and of the cheapest
 * combination enumerated here, and in *first the first combination priced
 * within MARGIN of it (what auto must choose, up to unused kinds). */
static const pumma_algo_t *plan(pumma_problem_t *p, const pumma_opts_t *o,
                                pumma_plan_t *got, double *chosen,
                                double *cheapest, pumma_plan_t *first,
                                const pumma_algo_t **fa)
{
    const pumma_opts_t keep = *o;
    const pumma_algo_t *a = plan_make(p, o, got);
    *chosen = price(p, a, got);
    *cheapest = HUGE_VAL;
    *fa = NULL;
    for (int pass = 0; pass < 2; pass++) {
        const pumma_algo_t *x;
        const pumma_coll_ops_t *b, *r;
        const pumma_shift_ops_t *s;
        for (int i = 0; (x = pumma_algo_at(i)); i++) {
            if (x->kind != PUMMA_CALL_BLOCK ||
                !x->handles(p->transa, p->transb))
                continue;
            /* split and layers: priced only when asked for */
            if (x->asked_only && !(keep.algo && !strcmp(keep.algo, x->name)))
                continue;
            /* scatter: run only when asked for */
            for (int ib = 0; (b = pumma_comm_auto_at(PUMMA_BCAST_TABLE, ib));
                 ib++)
                for (int ir = 0;
                     (r = pumma_comm_auto_at(PUMMA_REDUCE_TABLE, ir)); ir++)
                    for (int is = 0; (s = pumma_shift_at(is)); is++) {
                        pumma_plan_t t = variants(&keep, b, r, s);
                        t.limit = got->limit;   /* what the cubes fit in */
                        double c = price(p, x, &t);
                        if (pass == 0 && c < *cheapest) *cheapest = c;
                        if (pass == 1 && !*fa &&
                            c <= *cheapest * (1 + MARGIN)) {
                            *fa = x;
                            *first = t;
                        }
                    }
        }
    }
    return a;
}

static void test_search(void)
{
    const char *G = "auto takes the first combination within 3% of the cheapest";
    const char *G2 = "auto keeps forced choices that apply";
    const pumma_model_t models[] = {
        model(3e-7, 5e-10, 4e-11, 1.4e-10, 3.8e-10, 1.06),   /* this box */
        model(5e-5, 1e-9, 1e-11, 2e-10, 6e-10, 1.0),        /* latency */
        model(1e-7, 1e-7, 1e-12, 1e-10, 1e-10, 1.0),        /* bandwidth */
        model(1e-6, 1e-9, 1e-11, 1e-10, 5e-9, 1.0),         /* dear transposes */
    };
    const int grids[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 6}, {6, 1},
                            {2, 3}, {3, 2}};
    const char tr[][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'T', 'T'}};
    const int sizes[][4] = {{1, 1, 1, 64}, {300, 200, 100, 32},
                            {3000, 3000, 3000, 64}, {50, 4000, 700, 100}};
    int cases = 0;
    for (int im = 0; im < 4; im++)
        for (int ig = 0; ig < 8; ig++) {
            pumma_grid_t g = grid(grids[ig][0], grids[ig][1], &models[im]);
            for (int it = 0; it < 4; it++)
                for (int iz = 0; iz < 4; iz++) {
                    const int *z = sizes[iz];
                    pumma_problem_t p =
                        problem(&g, tr[it][0], tr[it][1], z[0], z[1], z[2], z[3]);
                    pumma_opts_t o;
                    pumma_plan_t pl, f;
                    memset(&o, 0, sizeof o);
                    double chosen, cheapest;
                    const pumma_algo_t *fa;
                    cases++;
                    /* a product each process holds whole is the local
                     * row's, never searched */
                    if (pumma_plan_kind(&p) == PUMMA_CALL_LOCAL) {
                        const pumma_algo_t *l = plan_make(&p, &o, &pl);
                        check(!strcmp(l->name, "local"), G,
                              "%s for a local product", l->name);
                        continue;
                    }
                    const pumma_algo_t *a =
                        plan(&p, &o, &pl, &chosen, &cheapest, &f, &fa);
                    check(a && a->handles(p.transa, p.transb), G,
                          "%s chosen for %c%c", a ? a->name : "nothing",
                          p.transa, p.transb);
                    check(pl.bcast && pl.reduce && pl.shift, G, "variant unset");
                    check(!pl.bcast->asked_only && !pl.reduce->asked_only, G,
                          "auto chose %s/%s, run only when asked for",
                          pl.bcast->name, pl.reduce->name);
                    check(chosen <= cheapest * (1 + MARGIN) * (1 + 1e-12), G,
                          "model %d grid %dx%d %c%c size %d: %s at %g, "
                          "cheapest %g", im, g.nprow, g.npcol, p.transa,
                          p.transb, iz, a->name, chosen, cheapest);
                    unsigned u = a->uses(&p);
                    check(a == fa &&
                              (!(u & PUMMA_USES_BCAST) || pl.bcast == f.bcast) &&
                              (!(u & PUMMA_USES_REDUCE) || pl.reduce == f.reduce) &&
                              (!(u & PUMMA_USES_SHIFT) || pl.shift == f.shift),
                          G, "model %d grid %dx%d %c%c size %d: chose %s/%s/%s/%s,"
                          " the first within 3%% is %s/%s/%s/%s", im, g.nprow,
                          g.npcol, p.transa, p.transb, iz, a->name, pl.bcast->name,
                          pl.reduce->name, pl.shift->name, fa ? fa->name : "-",
                          f.bcast ? f.bcast->name : "-",
                          f.reduce ? f.reduce->name : "-",
                          f.shift ? f.shift->name : "-");
                    /* Forcing: a variant and an algorithm that applies are
                     * kept; an algorithm that does not is replaced. */
                    const pumma_algo_t *x;
                    for (int i = 0; (x = pumma_algo_at(i)); i++) {
                        if (x->kind != PUMMA_CALL_BLOCK) continue;
                        memset(&o, 0, sizeof o);
                        o.algo = x->name;
                        o.reduce = pumma_comm_find(PUMMA_REDUCE_TABLE,
                                                   i % 2 ? "scatter" : "ring");
                        o.shift = pumma_shift_find("oddeven");
                        const pumma_algo_t *y = plan_make(&p, &o, &pl);
                        int applies = x->handles(p.transa, p.transb);
                        /* (unless it does not fit the workspace limit:
                         * test_limit) */
                        check(applies && !pl.limited ? y == x
                                                     : y->handles(p.transa, p.transb),
                              G2, "forced %s gave %s for %c%c, model %d grid "
                              "%dx%d size %d (limited %d)", x->name, y->name,
                              p.transa, p.transb, im, g.nprow, g.npcol, iz,
                              pl.limited);
                        check(!strcmp(pl.reduce->name, i % 2 ? "scatter" : "ring") &&
                                  !strcmp(pl.shift->name, "oddeven"),
                              G2, "forced variants changed");
                    }
                }
        }
    group_end(G);
    group_end(G2);
    printf("(%d planned calls)\n", cases);
}

static void test_sense(void)
{
    const char *G = "auto's choices follow the machine";
    pumma_opts_t o;
    pumma_plan_t pl, f;
    const pumma_algo_t *fa;
    double c1, c2;
    /* Latency-bound, small NN on 6x1: B is broadcast over 6 processes. */
    pumma_model_t lat = model(1e-3, 1e-12, 1e-13, 1e-13, 1e-13, 1.0);
    pumma_grid_t g = grid(6, 1, &lat);
    pumma_problem_t p = problem(&g, 'N', 'N', 60, 60, 60, 10);
    memset(&o, 0, sizeof o);
    o.algo = "mdb2";
    plan(&p, &o, &pl, &c1, &c2, &f, &fa);
    const char *bn = pl.bcast->name;
    check(!strcmp(bn, "mpi") || !strcmp(bn, "mst") || !strcmp(bn, "binomial") ||
              !strcmp(bn, "ring-split"),
          G, "latency-bound 6-process broadcast: %s", bn);
    /* Latency-bound TN on 6x1: partial products summed over 6 (tn's:
     * split's 1x1x6 cube is priced cheaper, 12 ms against 21) */
    p = problem(&g, 'T', 'N', 60, 60, 60, 10);
    memset(&o, 0, sizeof o);
    o.algo = "tn";
    plan(&p, &o, &pl, &c1, &c2, &f, &fa);
    check(!strcmp(pl.reduce->name, "mst") || !strcmp(pl.reduce->name, "mpi"), G,
          "latency-bound 6-process reduce: %s (%s)", pl.reduce->name,
          pl.algo->name);
    /* Bandwidth-bound, large NN on 6x1: pipelined chain. */
    pumma_model_t bw = model(1e-9, 1e-6, 1e-15, 1e-15, 1e-15, 1.0);
    g = grid(6, 1, &bw);
    p = problem(&g, 'N', 'N', 3000, 3000, 3000, 64);
    memset(&o, 0, sizeof o);
    o.algo = "mdb2";
    plan(&p, &o, &pl, &c1, &c2, &f, &fa);
    check(!strcmp(pl.bcast->name, "pipeline"), G,
          "bandwidth-bound broadcast of large slabs: %s", pl.bcast->name);
    /* Dear transposing copies: tt-local for TT, no -row form for NN. */
    pumma_model_t dt = model(1e-6, 1e-10, 1e-11, 1e-10, 1e-7, 1.0);
    const int grids[][2] = {{1, 2}, {2, 1}, {2, 3}};
    for (int i = 0; i < 3; i++) {
        g = grid(grids[i][0], grids[i][1], &dt);
        p = problem(&g, 'T', 'T', 1000, 1000, 1000, 64);
        memset(&o, 0, sizeof o);
        const pumma_algo_t *a = plan(&p, &o, &pl, &c1, &c2, &f, &fa);
        check(!strcmp(a->name, "tt-local"), G,
              "TT with dear transposing copies on %dx%d: %s", g.nprow,
              g.npcol, a->name);
        p = problem(&g, 'N', 'N', 1000, 1000, 1000, 64);
        memset(&o, 0, sizeof o);
        a = plan(&p, &o, &pl, &c1, &c2, &f, &fa);
        check(!strstr(a->name, "-row"), G,
              "NN with dear transposing copies on %dx%d: %s", g.nprow,
              g.npcol, a->name);
    }
    /* Dear transposed GEMMs (and cheap copies): tt. */
    pumma_model_t tg = model(1e-6, 1e-10, 1e-11, 1e-10, 1e-10, 3.0);
    for (int i = 0; i < 3; i++) {
        g = grid(grids[i][0], grids[i][1], &tg);
        p = problem(&g, 'T', 'T', 1000, 1000, 1000, 64);
        memset(&o, 0, sizeof o);
        const pumma_algo_t *a = plan(&p, &o, &pl, &c1, &c2, &f, &fa);
        check(!strcmp(a->name, "tt"), G,
              "TT with dear transposed GEMMs on %dx%d: %s", g.nprow, g.npcol,
              a->name);
    }
    group_end(G);
}

/* Plans are remembered (pumma_plan.c): a call planned again gets the
 * plan the search gives, whatever was planned between, on grids of other
 * models (the tests reuse one grid object with new models), with other
 * forced choices; and a machine that cannot hide messages behind the
 * multiply (overlap 0, one host's shared memory) makes auto move less
 * data: a 3000 x 128 x 3000 panel product on 1x2 keeps A still (stat-a)
 * instead of rolling it (mdb2), as measured here (27 ms against 35-40). */
static void test_remembered(void)
{
    const char *G = "remembered plans are the search's";
    pumma_opts_t o;
    pumma_plan_t pl, f;
    const pumma_algo_t *fa;
    double c1, c2;
    pumma_model_t dt = model(1e-6, 1e-10, 1e-11, 1e-10, 1e-7, 1.0);
    pumma_model_t tg = model(1e-6, 1e-10, 1e-11, 1e-10, 1e-10, 3.0);
    /* the models alternate; the fifth call forces tt under dt's model */
    const int on_tg[7] = {0, 1, 0, 1, 0, 0, 1};
    const char *want[7] = {"tt-local", "tt", "tt-local", "tt", "tt",
                           "tt-local", "tt"};
    for (int i = 0; i < 7; i++) {
        pumma_grid_t g = grid(1, 2, on_tg[i] ? &tg : &dt);
        pumma_problem_t p = problem(&g, 'T', 'T', 1000, 1000, 1000, 64);
        memset(&o, 0, sizeof o);
        if (i == 4) o.algo = "tt";          /* forced: its own entry */
        const pumma_algo_t *a = plan(&p, &o, &pl, &c1, &c2, &f, &fa);
        check(!strcmp(a->name, want[i]), G,
              "TT 1000 planned %d times: %s, expected %s", i + 1, a->name,
              want[i]);
        if (i != 4)
            check(fa == a, G,
                  "plan %d is the first within 3%% of the cheapest", i + 1);
    }
    for (int ov = 1; ov >= 0; ov--) {
        pumma_model_t here = model(1.6e-7, 1.17e-10, 3.9e-11, 6e-11, 3.6e-10,
                                   1.04);
        here.overlap = ov;
        for (int rep = 0; rep < 2; rep++) {
            pumma_grid_t g = grid(1, 2, &here);
            pumma_problem_t p = problem(&g, 'N', 'N', 3000, 128, 3000, 64);
            memset(&o, 0, sizeof o);
            const pumma_algo_t *a = plan(&p, &o, &pl, &c1, &c2, &f, &fa);
            check(!strcmp(a->name, ov ? "mdb2" : "stat-a"), G,
                  "3000x128x3000 on 1x2, overlap %d: %s", ov, a->name);
        }
    }
    group_end(G);
}

/* ------------------------------------------------------- the limit */

/* The workspace of every combination open to p (o's forced choices kept
 * when keep) at the least piece the limit may lower PUMMA_PIECE to (the
 * least workspace each can have): the least, and whether any is within
 * lim. */
static size_t least_workspace(pumma_problem_t *p, const pumma_opts_t *o,
                              int keep, double lim, int *fits)
{
    size_t least = SIZE_MAX;
    *fits = 0;
    const pumma_algo_t *x;
    const pumma_coll_ops_t *b, *r;
    const pumma_shift_ops_t *s;
    for (int i = 0; (x = pumma_algo_at(i)); i++) {
        if (x->kind != PUMMA_CALL_BLOCK || !x->handles(p->transa, p->transb))
            continue;
        /* rows auto does not price (split, layers) count when forced */
        if (x->asked_only && !(o->algo && !strcmp(o->algo, x->name)))
            continue;
        if (keep && o->algo && pumma_algo_find(o->algo)->handles(p->transa, p->transb) &&
            strcmp(o->algo, x->name))
            continue;
        for (int ib = 0; (b = pumma_comm_at(PUMMA_BCAST_TABLE, ib)); ib++)
            for (int ir = 0; (r = pumma_comm_at(PUMMA_REDUCE_TABLE, ir)); ir++)
                for (int is = 0; (s = pumma_shift_at(is)); is++) {
                    if (keep && ((o->bcast && b != o->bcast) ||
                                 (o->reduce && r != o->reduce) ||
                                 (o->shift && s != o->shift)))
                        continue;
                    pumma_plan_t t = variants(o, b, r, s);
                    t.piece = PUMMA_PIECE_MIN;
                    t.limit = lim;     /* (a cube row's search fits it) */
                    pumma_problem_t h = *p, want;
                    h.plan = &t;
                    x->align(&h, &want);
                    want.plan = &t;
                    if (x->shape) x->shape(&want, &p->g->model, &t);
                    size_t ws = pumma_plan_workspace(&h, x, &want);
                    if (ws < least) least = ws;
                    if ((double)ws <= lim) *fits = 1;
                }
    }
    return least;
}

static void test_limit(void)
{
    const char *G = "under a workspace limit the plan fits it, or has the least";
    const char *G2 = "the limit keeps forced choices that fit, reports changes";
    pumma_model_t mo = model(3e-7, 5e-10, 4e-11, 1.4e-10, 3.8e-10, 1.06);
    const int grids[][2] = {{1, 2}, {2, 1}, {2, 2}, {2, 3}, {1, 6}};
    const char tr[][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'T', 'T'}};
    const int sizes[][4] = {{300, 200, 100, 32}, {2000, 2000, 50, 64},
                            {50, 3000, 3000, 100}, {3000, 40, 2000, 64}};
    int cases = 0, changed = 0, least = 0;
    for (int ig = 0; ig < 5; ig++) {
        pumma_grid_t g = grid(grids[ig][0], grids[ig][1], &mo);
        for (int it = 0; it < 4; it++)
            for (int iz = 0; iz < 4; iz++)
                for (int il = 0; il < 4; il++) {
                    const int *z = sizes[iz];
                    pumma_problem_t p = problem(&g, tr[it][0], tr[it][1], z[0],
                                                z[1], z[2], z[3]);
                    /* the unconstrained plan's workspace, scaled */
                    pumma_opts_t o;
                    memset(&o, 0, sizeof o);
                    o.piece = 64.0 * 1024 * 1024;
                    o.workspace = 1e30;
                    pumma_plan_t pl;
                    const pumma_algo_t *a = plan_make(&p, &o, &pl);
                    pumma_problem_t want;
                    a->align(&p, &want);
                    const size_t free_ws = pumma_plan_workspace(&p, a, &want);
                    check(pl.limited == PUMMA_LIMIT_NONE, G2,
                          "no limit, yet limited %d", pl.limited);
                    static const double scale[] = {1.01, 0.9, 0.5, 0.01};
                    memset(&o, 0, sizeof o);
                    o.piece = 64.0 * 1024 * 1024;
                    o.workspace = scale[il] * (double)free_ws;
                    if (il == 1) {    /* forced algorithm, if it applies */
                        o.algo = tr[it][0] == 'N' ? (tr[it][1] == 'N' ? "mdb2-row" : "nt")
                                                  : (tr[it][1] == 'N' ? "tn" : "tt-local");
                    }
                    pumma_opts_t asked = o;
                    const double lim = o.workspace;
                    int fits, fits_kept;
                    const size_t lw = least_workspace(&p, &o, 0, lim, &fits);
                    least_workspace(&p, &o, 1, lim, &fits_kept);
                    const pumma_algo_t *b = plan_make(&p, &o, &pl);
                    b->align(&p, &want);
                    const size_t ws = pumma_plan_workspace(&p, b, &want);
                    cases++;
                    changed += pl.limited == PUMMA_LIMIT_FIT;
                    least += pl.limited == PUMMA_LIMIT_LEAST;
                    check(b->handles(p.transa, p.transb), G, "%s for %c%c",
                          b->name, p.transa, p.transb);
                    if (fits)
                        check((double)ws <= lim, G, "grid %dx%d %c%c size %d "
                              "limit %.0f: %s needs %zu", g.nprow, g.npcol,
                              p.transa, p.transb, iz, lim, b->name, ws);
                    else
                        check(ws == lw && pl.limited == PUMMA_LIMIT_LEAST, G,
                              "grid %dx%d %c%c size %d limit %.0f: nothing "
                              "fits, %s needs %zu, the least is %zu (%d)",
                              g.nprow, g.npcol, p.transa, p.transb, iz, lim,
                              b->name, ws, lw, pl.limited);
                    if (fits_kept && asked.algo &&
                        pumma_algo_find(asked.algo)->handles(p.transa, p.transb))
                        check(!strcmp(b->name, asked.algo), G2,
                              "forced %s fits but %s ran", asked.algo, b->name);
                    if (il == 0 && !asked.algo)
                        check(pl.limited == PUMMA_LIMIT_NONE && b == a, G2,
                              "a limit above the plan changed it: %s, %d",
                              b->name, pl.limited);
                    if (il >= 2 && fits)
                        check(pl.limited == PUMMA_LIMIT_FIT || ws == free_ws,
                              G2, "limited %d", pl.limited);
                }
    }
    group_end(G);
    group_end(G2);
    printf("(%d planned calls under limits: %d changed to fit, %d took the "
           "least)\n", cases, changed, least);
}

/* ------------------------------------------------- real calls: peaks */

void Cblacs_pinfo(int *, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridexit(int);

/* A local array for an M x N matrix in blocks mb x nb from (0, 0). */
static double *local_array(int M, int N, int mb, int nb, int P, int Q,
                           int r, int c, int ctxt, int cplx, int desc[9])
{
    int ml = 0, nl = 0;
    for (int x = 0, b = 0; x < M; x += mb, b++)
        if (b % P == r) ml += M - x < mb ? M - x : mb;
    for (int x = 0, b = 0; x < N; x += nb, b++)
        if (b % Q == c) nl += N - x < nb ? N - x : nb;
    int lld = ml > 1 ? ml : 1;
    int d[9] = {1, ctxt, M, N, mb, nb, 0, 0, lld};
    memcpy(desc, d, sizeof d);
    size_t cnt = (size_t)lld * (size_t)(nl > 0 ? nl : 1) * (cplx ? 2 : 1);
    double *x = malloc(cnt * sizeof(double));
    for (size_t i = 0; i < cnt; i++) x[i] = (double)((i * 7919) % 13) / 13 - 0.5;
    return x;
}

/* One real call with the algorithm (and reduce) forced: its peak of
 * temporaries (the most any process of the grid held) and the planner's
 * estimate of it. */
static void real_call(int ctxt, int P, int Q, int r, int c, int cplx,
                      int algo, int reduce, char ta, char tb, int m, int n,
                      int k, int off, int nb_a, int nb_b, int nb_c,
                      size_t *measured, size_t *estimate, char *plan,
                      size_t plen)
{
    const int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
    const int br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
    int da[9], db[9], dc[9], one = 1, ia = 1 + off;
    double *a = local_array(ar + off, ac + off, nb_a, nb_a, P, Q, r, c, ctxt,
                            cplx, da);
    double *b = local_array(br, bc, nb_b, nb_b, P, Q, r, c, ctxt, cplx, db);
    double *cc = local_array(m, n, nb_c, nb_c, P, Q, r, c, ctxt, cplx, dc);
    double al[2] = {1, 0}, be[2] = {0.5, 0};
    pumma_options_t op = {.algo = algo, .reduce = reduce};
    int info;
    pumma_mem_peak(1);
    if (cplx)
        pumma_pzgemm_opts(&ta, &tb, &m, &n, &k, al, a, &ia, &ia, da, b, &one,
                          &one, db, be, cc, &one, &one, dc, &op, &info);
    else
        pumma_pdgemm_opts(&ta, &tb, &m, &n, &k, al, a, &ia, &ia, da, b, &one,
                          &one, db, be, cc, &one, &one, dc, &op, &info);
    unsigned long long mine = pumma_mem_peak(1), most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX,
                  MPI_COMM_WORLD);
    *measured = (size_t)most;
    *estimate = pumma_last_workspace();
    snprintf(plan, plen, "%s", pumma_last_plan());
    free(a); free(b); free(cc);
}

/*
 * Every algorithm on grids of 2 and 4 processes, with operands that need
 * aligning and with ones that do not, D and Z, several sizes: the
 * planner's estimate must hold what the call measured (pumma_mem_peak,
 * most over the grid's processes: the estimate is one bound for all) and
 * be within PEAK_FACTOR of it, plus PEAK_SLACK for rounding (a temporary
 * of 1 MiB or more is counted in whole pages).
 */
#define PEAK_FACTOR 3.0
#define PEAK_SLACK (32 * 1024)
static void test_peaks(int me, int np)
{
    const char *G = "workspace estimates hold the measured peaks, within 3x";
    const int grids[][2] = {{1, 2}, {2, 1}, {2, 2}, {1, 4}, {4, 1}};
    static const struct { int m, n, k, off, nba, nbb, nbc; } sz[] = {
        {300, 200, 100, 0, 32, 32, 32},     /* aligned as they come */
        {250, 310, 90, 3, 16, 24, 40},      /* offsets, other blocks */
        {60, 400, 500, 1, 8, 64, 16},
        {400, 50, 30, 0, 64, 64, 64},
        {700, 650, 200, 5, 32, 48, 32}};
    const int reduces[] = {PUMMA_REDUCE_AUTO, PUMMA_REDUCE_DIRECT,
                           PUMMA_REDUCE_RING, PUMMA_REDUCE_MST};
    double worst = 0;
    int cases = 0;
    for (int gi = 0; gi < 5; gi++) {
        int P = grids[gi][0], Q = grids[gi][1];
        if (P * Q > np) continue;
        int ctxt, pr, pc, r, c;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", P, Q);
        Cblacs_gridinfo(ctxt, &pr, &pc, &r, &c);
        for (int algo = PUMMA_ALGO_SDB; algo <= PUMMA_ALGO_SPLIT; algo++)
            for (int cplx = 0; cplx < 2; cplx++)
                for (int iz = 0; iz < 5; iz++)
                    for (int ir = 0; ir < 4; ir++) {
                        if (algo > PUMMA_ALGO_TT_LOCAL && algo < PUMMA_ALGO_RANKK)
                            continue;          /* the heterogeneous codes */
                        const int tn = algo == PUMMA_ALGO_TN,
                                  nt = algo == PUMMA_ALGO_NT,
                                  rk = algo >= PUMMA_ALGO_RANKK;
                        if (ir > 0 && !tn && !nt && !rk) continue;
                        /* rankk, stat-a, stat-b, layers and split compute
                         * every pair: ir picks NN, TN, NT, TT */
                        const char T = cplx ? 'C' : 'T';
                        const char ta = rk ? (ir & 1 ? T : 'N')
                                           : algo >= PUMMA_ALGO_TN && !nt ? T : 'N';
                        const char tb = rk ? (ir & 2 ? 'T' : 'N')
                                           : nt || algo >= PUMMA_ALGO_TT ? 'T' : 'N';
                        size_t meas = 0, est = 0;
                        char plan[128] = "";
                        if (pr > 0)
                            real_call(ctxt, P, Q, r, c, cplx, algo, reduces[ir],
                                      ta, tb, sz[iz].m, sz[iz].n, sz[iz].k,
                                      sz[iz].off, sz[iz].nba, sz[iz].nbb,
                                      sz[iz].nbc, &meas, &est, plan,
                                      sizeof plan);
                        else     /* outside the grid: only the reduction */
                            MPI_Allreduce(MPI_IN_PLACE, &(unsigned long long){0},
                                          1, MPI_UNSIGNED_LONG_LONG, MPI_MAX,
                                          MPI_COMM_WORLD);
                        if (pr <= 0 || me != 0) continue;
                        cases++;
                        if (getenv("PLANTST_VERBOSE"))
                            printf("grid %dx%d %c %-50s %d %d %d: measured "
                                   "%zu estimated %zu ratio %.2f\n", P, Q,
                                   cplx ? 'Z' : 'D', plan, sz[iz].m, sz[iz].n,
                                   sz[iz].k, meas, est,
                                   meas ? (double)est / meas : 0);
                        double ratio = meas ? (double)est / (double)meas : 0;
                        if (ratio > worst) worst = ratio;
                        check(meas <= est + PEAK_SLACK &&
                                  est <= PEAK_FACTOR * meas + PEAK_SLACK,
                              G, "grid %dx%d %c %s m=%d n=%d k=%d: measured "
                              "%zu, estimated %zu", P, Q, cplx ? 'Z' : 'D',
                              plan, sz[iz].m, sz[iz].n, sz[iz].k, meas, est);
                    }
        if (pr > 0) Cblacs_gridexit(ctxt);
    }
    if (me == 0) {
        group_end(G);
        printf("(%d real calls; estimate / measured at most %.2f)\n", cases,
               worst);
    }
}

/*
 * Real calls under PUMMA_MAX_WORKSPACE (set by the Makefile: 340000): a
 * call whose plan fits keeps it; mdb2 forced on a 300 x 200 x 100 product
 * over 1x2 (estimated 360448 bytes) gives way to a plan that fits
 * (mdb2-row's 323200), which must hold what it measured; A**T*B**T of 400
 * x 400 x 400 on 2x2 fits nowhere (C's part alone is 320000, rankk's
 * transposed A and B as much; split's and layers' homes and C's way
 * back more) and takes the least -- tt when it was forced, tt-local
 * needing no less. With K = 30 rankk fits (C stays, A and
 * B are thin): auto takes it, and so does tt forced, which does not fit.
 * The plan says which ("limit=fit", "limit=least").
 */
static void test_limit_env(int me, int np)
{
    const char *G = "PUMMA_MAX_WORKSPACE: plans fit it, or take the least, and say so";
    pumma_problem_t none;
    memset(&none, 0, sizeof none);
    none.t = &pumma_type_d;
    const double lim = pumma_plan_limit(&none, NULL);
    static const struct {
        int P, Q, algo; char ta, tb; int m, n, k; const char *tag;
    } cs[] = {{1, 2, 0, 'N', 'N', 60, 50, 40, ""},
              {1, 2, PUMMA_ALGO_MDB2, 'N', 'N', 300, 200, 100, "fit"},
              {2, 2, 0, 'T', 'T', 400, 400, 400, "least"},
              {2, 2, PUMMA_ALGO_TT, 'T', 'T', 400, 400, 400, "least"},
              {2, 2, 0, 'T', 'T', 400, 400, 30, ""},
              {2, 2, PUMMA_ALGO_TT, 'T', 'T', 400, 400, 30, "fit"}};
    for (int i = 0; i < (int)(sizeof cs / sizeof *cs); i++) {
        if (cs[i].P * cs[i].Q > np) continue;
        int ctxt, pr, pc, r, c;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", cs[i].P, cs[i].Q);
        Cblacs_gridinfo(ctxt, &pr, &pc, &r, &c);
        size_t meas = 0, est = 0;
        char plan[128] = "";
        if (pr > 0)
            real_call(ctxt, cs[i].P, cs[i].Q, r, c, 0, cs[i].algo, 0, cs[i].ta,
                      cs[i].tb, cs[i].m, cs[i].n, cs[i].k, 0, 32, 32, 32, &meas,
                      &est, plan, sizeof plan);
        else
            MPI_Allreduce(MPI_IN_PLACE, &(unsigned long long){0}, 1,
                          MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
        if (pr > 0) Cblacs_gridexit(ctxt);
        if (me != 0) continue;
        const char *tag = strstr(plan, " limit=");
        const char *got = tag ? tag + 7 : "";
        printf("limit %.0f: %c%c %d x %d x %d on %dx%d: \"%s\", estimated %zu, "
               "measured %zu\n", lim, cs[i].ta, cs[i].tb, cs[i].m, cs[i].n,
               cs[i].k, cs[i].P, cs[i].Q, plan, est, meas);
        check(!strcmp(got, cs[i].tag), G, "case %d: \"%s\", want limit=%s", i,
              plan, cs[i].tag);
        /* tt forced, and tt-local needs no less: the forced choice stays */
        if (cs[i].algo == PUMMA_ALGO_TT && !strcmp(cs[i].tag, "least"))
            check(!strncmp(plan, "algo=tt ", 8), G, "case %d: \"%s\", want "
                  "the forced tt (none fits, it has the least)", i, plan);
        check(meas <= est + PEAK_SLACK, G, "case %d: measured %zu over the "
              "estimate %zu", i, meas, est);
        if (strcmp(cs[i].tag, "least"))
            check((double)est <= lim && (double)meas <= lim + PEAK_SLACK, G,
                  "case %d: estimated %zu, measured %zu, limit %.0f", i, est,
                  meas, lim);
    }
    if (me == 0) group_end(G);
}

/*
 * Under PUMMA_MAX_WORKSPACE=12M (the Makefile's second run): tt forced on
 * a 2000 x 2000 A**T*B**T over 2x2 holds D (8 MB), then transposes it
 * into C through windows of PUMMA_PIECE each way (64 MiB: all of D, 8 MB
 * more each way, 24 MB in all). Lowering the piece is what makes it fit:
 * tt must run, within the limit, measured.
 */
static void test_limit_piece(int me, int np)
{
    const char *G = "PUMMA_MAX_WORKSPACE: a lower PUMMA_PIECE makes tt fit";
    pumma_problem_t none;
    memset(&none, 0, sizeof none);
    none.t = &pumma_type_d;
    const double lim = pumma_plan_limit(&none, NULL);
    if (np < 4) return;
    int ctxt, pr, pc, r, c;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 2, 2);
    Cblacs_gridinfo(ctxt, &pr, &pc, &r, &c);
    size_t meas = 0, est = 0;
    char plan[128] = "";
    if (pr > 0)
        real_call(ctxt, 2, 2, r, c, 0, PUMMA_ALGO_TT, 0, 'T', 'T', 2000, 2000,
                  30, 0, 64, 64, 64, &meas, &est, plan, sizeof plan);
    else
        MPI_Allreduce(MPI_IN_PLACE, &(unsigned long long){0}, 1,
                      MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (pr > 0) Cblacs_gridexit(ctxt);
    if (me != 0) return;
    printf("limit %.0f: TT 2000 x 2000 x 30 on 2x2, tt forced: \"%s\", "
           "estimated %zu, measured %zu\n", lim, plan, est, meas);
    check(!strncmp(plan, "algo=tt ", 8) && strstr(plan, " limit=fit"), G,
          "\"%s\", want tt with limit=fit", plan);
    check((double)est <= lim && (double)meas <= lim + PEAK_SLACK &&
              meas <= est + PEAK_SLACK, G,
          "estimated %zu, measured %zu, limit %.0f", est, meas, lim);
    group_end(G);
}

/*
 * The bound PUMMA_STATS prints, by hand from its papers' formulas (each
 * process starting with a P-th of every operand):
 * - 3D (Irony, Toledo and Tiskin's form): M = N = K = 1000 on 8 processes,
 *   (MNK/P)^(2/3) = 250000 words, (MN + MK + NK)/P = 375000: 3 * 250000 -
 *   375000 = 375000. With 10^4 words of memory, Kwasniewski et al.'s
 *   Theorem 2: 2 * 10^9 / (8 * 100) + 10^4 - 375000 = 2135000. At S =
 *   250000 the two agree (375000), the memory form given.
 *   32768 x 1024 x 1024 on 256 (d1/d2 = d1 d2 / d3^2 = 32 < 256):
 *   (MNK/P)^(2/3) = 2^18, so 3 * 262144 - 266240 = 520192.
 * - 2D (Al Daas et al., SPAA 2022; 1 < P <= d1 d2 / d3^2): a rank-64
 *   update 1000 x 1000 x 64 on 4: 2 * 64 * sqrt(10^6 / 4) - 2000 * 64 / 4
 *   = 32000, what SUMMA on 2 x 2 receives (half of its row's panel of A
 *   and of its column's of B, 500 x 32 each). With 10^4 words the memory
 *   form is larger: 2 * 64 * 10^6 / (4 * 100) + 10^4 - 282000 = 48000;
 *   with 5 * 10^4 it is negative and the 2D form stays.
 * - 1D (P <= d1/d2): 100000 x 100 x 10 on 4: all of the 10 x 100 matrix
 *   but the quarter held, 750.
 */
static void test_words_bound(void)
{
    const char *G = "the words bound: 1D, 2D, 3D and memory-limited forms";
    struct {
        double m, n, k, p, mem, want;
        int form;
    } t[] = {
        {1000, 1000, 1000, 8, 1e9, 375000, PUMMA_BOUND_3D},
        {1000, 1000, 1000, 8, 1e4, 2135000, PUMMA_BOUND_MEMORY},
        {1000, 1000, 1000, 8, 250000 * (1 - 1e-12), 375000, PUMMA_BOUND_MEMORY},
        {32768, 1024, 1024, 256, 1e12, 520192, PUMMA_BOUND_3D},
        {1024, 32768, 1024, 256, 1e12, 520192, PUMMA_BOUND_3D},
        {1000, 1000, 64, 4, 1e12, 32000, PUMMA_BOUND_2D},
        {64, 1000, 1000, 4, 1e12, 32000, PUMMA_BOUND_2D},
        {1000, 1000, 64, 4, 1e4, 48000, PUMMA_BOUND_MEMORY},
        {1000, 1000, 64, 4, 5e4, 32000, PUMMA_BOUND_2D},
        {100000, 100, 10, 4, 1e12, 750, PUMMA_BOUND_1D},
        {10, 100, 100000, 4, 1e12, 750, PUMMA_BOUND_1D},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int form = -1;
        const double b = pumma_words_bound(t[i].m, t[i].n, t[i].k, t[i].p,
                                           t[i].mem, &form);
        check(fabs(b - t[i].want) <= 1e-6 * t[i].want && form == t[i].form,
              G, "%.0f x %.0f x %.0f on %.0f, memory %.3g: %.1f (%s), want %.0f (%s)",
              t[i].m, t[i].n, t[i].k, t[i].p, t[i].mem, b,
              pumma_bound_form_name(form), t[i].want,
              pumma_bound_form_name(t[i].form));
    }
    /* the forms meet where the cases change: at P = d1/d2 (1D = 2D) and
     * at P = d1 d2 / d3^2 (2D = 3D), from either side */
    const double edges[][4] = {{4096, 1024, 64, 4}, {4096, 1024, 64, 1024}};
    for (int i = 0; i < 2; i++) {
        int f1, f2;
        const double *e = edges[i];
        const double lo = pumma_words_bound(e[0], e[1], e[2], e[3] * (1 - 1e-9), 1e15, &f1);
        const double hi = pumma_words_bound(e[0], e[1], e[2], e[3] * (1 + 1e-9), 1e15, &f2);
        check(f1 != f2 && fabs(lo - hi) <= 1e-6 * hi, G,
              "at P = %.0f: %.3f (%s) against %.3f (%s)", e[3], lo,
              pumma_bound_form_name(f1), hi, pumma_bound_form_name(f2));
    }
    group_end(G);
}

/* split's search (pumma_cube_search) tries a subset of the cubes: on
 * grids that factor and grids that do not, for square, rank-k, panel and
 * tall products and two machines, the cube it takes is priced within 10%
 * of the cheapest of every cube of more than half the processes at every
 * number of steps (enumerated here), and uses no more processes than the
 * grid has and more than half of them. */
static void test_cube_search(void)
{
    const char *G = "split's search against every cube";
    const pumma_model_t mos[2] = {
        model(2e-6, 8e-11, 1e-11, 1e-11, 5e-11, 1.1),    /* HPC-like */
        model(5e-5, 8e-10, 1e-11, 1e-11, 5e-11, 1.1)};   /* commodity */
    static const int grids[][2] = {{8, 8}, {16, 16}, {11, 13}, {5, 7}, {1, 2}};
    static const int shapes[][3] = {{8192, 8192, 8192}, {8192, 8192, 64},
                                    {8192, 64, 8192}, {256, 8192, 8192},
                                    {32768, 1024, 1024}, {2048, 2048, 2048}};
    int cases = 0;
    double worst = 1;
    for (int im = 0; im < 2; im++)
        for (size_t ig = 0; ig < sizeof grids / sizeof grids[0]; ig++)
            for (size_t is = 0; is < sizeof shapes / sizeof shapes[0]; is++) {
                pumma_grid_t g = grid(grids[ig][0], grids[ig][1], &mos[im]);
                const int np = g.nprow * g.npcol;
                pumma_problem_t p = problem(&g, 'N', 'N', shapes[is][0],
                                            shapes[is][1], shapes[is][2], 64);
                pumma_plan_t pl;
                memset(&pl, 0, sizeof pl);
                pl.limit = INFINITY;
                p.plan = &pl;
                double least = INFINITY;
                for (int pm = 1; pm <= np && pm <= p.m; pm++)
                    for (int pn = 1; pm * pn <= np && pn <= p.n; pn++)
                        for (int pk = 1; pm * pn * pk <= np && pk <= p.k; pk++) {
                            if (2 * pm * pn * pk <= np) continue;
                            for (int st = 1; st <= 64 && pk * st <= p.k; st *= 2) {
                                const pumma_cube_t c = {pm, pn, pk, st};
                                pumma_cube_set(&pl, &c);
                                const double t = pumma_cube_cost(&p, &mos[im]);
                                if (t < least) least = t;
                            }
                        }
                const int ok = pumma_cube_search(&p, &mos[im], &pl, 1, np);
                const pumma_cube_t c = pumma_cube_of(&pl);
                const double t = pumma_cube_cost(&p, &mos[im]);
                const int used = c.pm * c.pn * c.pk;
                check(ok && used <= np && 2 * used > np && t <= 1.10 * least, G,
                      "%dx%d, %dx%dx%d, model %d: took %dx%dx%d steps %d at "
                      "%.4g s, the cheapest cube %.4g s", g.nprow, g.npcol,
                      p.m, p.n, p.k, im, c.pm, c.pn, c.pk, c.steps, t, least);
                if (t / least > worst) worst = t / least;
                cases++;
            }
    printf("(%d searches; the worst %.3f of the cheapest cube)\n", cases, worst);
    group_end(G);
}

/* ------------------------------------------------- redistributions */

/*
 * pumma_redist sends one message per pair of processes that has data, so
 * a redistribution costs a process as many latencies as it has partners
 * -- at most its blocks out or in, never more than np - 1 -- not np - 1
 * always (pumma_model_redist_among; pumma_dist_maxblocks). stat-a's move
 * of a panel's small operand to its roots is such a move: on 16 x 16,
 * nb 64, the 4096 x 64 B of 4096 x 64 x 4096 is 4 blocks on each of 16
 * processes, each root receiving its 4 K blocks; priced with latency
 * only (no overlap), the whole call must cost less than one all-to-all's
 * 255 latencies, which the move alone was priced at before.
 */
static void test_redist_partners(void)
{
    const char *G = "redistributions priced by their partners";
    const double a = 1e-5, b = 1e-9, d = 3e-10, bytes = 3e6;
    pumma_model_t mo = model(a, b, 1e-11, d, 2 * d, 1);
    check(close_to(pumma_model_redist_among(&mo, 16, 3, bytes, 0),
                   3 * a + b * bytes * 15 / 16 + 2 * d * bytes),
          G, "3 partners of 16");
    check(close_to(pumma_model_redist_among(&mo, 16, 40, bytes, 1),
                   15 * a + b * bytes * 15 / 16 + 3 * d * bytes),
          G, "40 partners of 16: np - 1");
    check(close_to(pumma_model_redist(&mo, 16, bytes, 0),
                   15 * a + b * bytes * 15 / 16 + 2 * d * bytes),
          G, "all-to-all");
    const pumma_dist_t d1 = {4096, 64, 64, 0, 16}, d2 = {4096, 64, 64, -1, 16},
                       d3 = {100, 64, 64, 0, 16}, d4 = {4160, 64, 64, 3, 16};
    check(pumma_dist_maxblocks(&d1) == 4 && pumma_dist_maxblocks(&d2) == 64 &&
              pumma_dist_maxblocks(&d3) == 1 && pumma_dist_maxblocks(&d4) == 5,
          G, "maxblocks %d %d %d %d", pumma_dist_maxblocks(&d1),
          pumma_dist_maxblocks(&d2), pumma_dist_maxblocks(&d3),
          pumma_dist_maxblocks(&d4));
    pumma_model_t lat = model(a, 0, 0, 0, 0, 1);
    lat.gamma_k = 0;
    lat.overlap = 0;
    pumma_grid_t g = grid(16, 16, &lat);
    pumma_problem_t p = problem(&g, 'N', 'N', 4096, 64, 4096, 64);
    pumma_opts_t o;
    memset(&o, 0, sizeof o);
    o.piece = PUMMA_PIECE_DEFAULT;
    const pumma_plan_t pl = variants(&o, pumma_comm_find(PUMMA_BCAST_TABLE, "mst"),
                                     pumma_comm_find(PUMMA_REDUCE_TABLE, "mst"),
                                     pumma_shift_at(0));
    const double c = price(&p, pumma_algo_find("stat-a"), &pl);
    check(c > 0 && c < 255 * a, G, "stat-a 16x16 4096x64x4096: %.1f latencies",
          c / a);
    group_end(G);
}

int main(int argc, char **argv)
{
    setenv("PUMMA_HUGEPAGES", "0", 1);      /* (the cache counts 4 KiB pages) */
    MPI_Init(&argc, &argv);
    int me, np;
    Cblacs_pinfo(&me, &np);
    const char *mode = argc > 1 ? argv[1] : "plan";
    if (!strcmp(mode, "peaks")) {
        test_peaks(me, np);
    } else if (!strcmp(mode, "limit")) {
        test_limit_env(me, np);
    } else if (!strcmp(mode, "limit-piece")) {
        test_limit_piece(me, np);
    } else {
        test_costs();
        test_search();
        test_sense();
        test_remembered();
        test_limit();
        test_cache();
        test_words_bound();
        test_cube_search();
        test_redist_partners();
    }
    int bad = nfail;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) printf("%d passed, %d failed\n", npass, nfail);
    MPI_Finalize();
    return bad ? 1 : 0;
}
