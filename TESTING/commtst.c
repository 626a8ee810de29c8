/*
 * commtst.c -- tester of pumma's communication variants: every broadcast and
 * reduce of the tables (pumma_comm_at) and every shift (pumma_shift_at), so
 * a new table row is tested without touching this file.
 *
 * Usage: mpiexec -n 6 ./xcommtst [small] [brief]
 *
 * For communicators of 1 .. 6 processes (sub-communicators of
 * MPI_COMM_WORLD), the four types (S, D, C, Z), several counts (1, 7, a few
 * thousand, one above 1 MB: S and Z only) and segments (0, 1, 1000
 * elements) it checks:
 *   broadcast  from every root, the root's data arrives exactly everywhere,
 *              the root's buf is untouched, nothing is written past count;
 *   reduce     to every root, the root's rbuf holds the exact sum (small
 *              integers, so every summation order gives it), buf is never
 *              modified, rbuf of the other processes is never written (a
 *              guarded buffer, or NULL), nothing past count;
 *   both       several collectives started back to back (different roots,
 *              one communicator), test() called on all of them in between,
 *              completed in reverse order, and in MDB2's order (the
 *              collective this process roots last); after wait() priv is NULL
 *              and test() reports done;
 *   shift      slabs of different sizes per process (one empty) rolled round
 *              the ring in both directions until they come home;
 *   gather     the all-gather (pumma_allgather.c): pieces of different
 *              sizes per process (one empty) arrive exactly everywhere,
 *              nothing past them written, with two gathers in flight on
 *              one communicator and a third reusing the first's tags
 *              while the second is in flight (the cube's use).
 * hier (the two-level broadcast and reduce) runs all of these on each communicator
 * also split into clusters: none, thirds, ranks dealt round three
 * clusters, every rank alone; the links between them and inside priced so
 * the schedules and the variants inside differ from cluster to cluster.
 * small: messages beyond pumma_count_max (MPI's int, INT_MAX elements)
 * go as derived types or in pieces, which only messages of 8+ GB would
 * show; this run lowers it to 1000 elements (the hook is the library's
 * own variable) and repeats the cases above it: 2000 elements (whole
 * blocks only), 3001 (a remainder), 3001 in 700-element segments, and
 * shifts of 1990 to 2015.
 * brief (run-valgrind, where a process runs some 50 times slower): the
 * cases below 1 MB only, in S and Z only -- every code path of the
 * variants in a fraction of the time -- with 5 times the watchdog's time;
 * with small too, small's cases in S and Z.
 * The verdicts are combined over MPI_COMM_WORLD; process 0 prints one
 * PASSED/FAILED line per variant and type (a failure with the first failing
 * case) and the closing "N passed, N failed". Exit status 1 on a failure. A
 * watchdog ends the run (status 3, naming the case) if a variant hangs.
 */
#define _POSIX_C_SOURCE 200809L /* alarm, write */
#include <mpi.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pumma_driver.h"

/* SENTINEL fills what must not be written; data that is sent carries
 * SOURCE_GUARD past its end, so sending too much shows up too. */
enum { MAXNP = 6, GUARD = 16, SENTINEL = 0xA5, SOURCE_GUARD = 0x3C,
       WATCHDOG_S = 60 };

static const pumma_type_t *const types[] = {&pumma_type_s, &pumma_type_d,
                                            &pumma_type_c, &pumma_type_z};
#define NTYPES 4

static int wrank, wsize, small, brief;
static MPI_Comm comms[MAXNP + 1];    /* comms[n]: the first n processes */
static int ntag;                     /* advances identically everywhere */

/* The current variant x type: cases run, failures, the first failure. */
static int ncases, nfail;
static char why[400];
static char current[200];            /* for the watchdog */

static void fail(const char *fmt, ...)
{
    if (nfail++ > 0) return;
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(why, sizeof why, "%s: ", current);
    if (n > 0 && n < (int)sizeof why)
        vsnprintf(why + n, sizeof why - (size_t)n, fmt, ap);
    va_end(ap);
}

static void watchdog(int sig)
{
    static const char msg[] = "xcommtst: watchdog: no progress in ";
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0 ||
        write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0)
        _exit(3);
    _exit(3);
}

static void describe(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(current, sizeof current, fmt, ap);
    va_end(ap);
}

static int next_tag(void) { return 100 + (ntag++ % 20000); }

/*
 * A barrier over all processes that sleeps instead of spinning. The
 * processes outside the communicator under test wait here, so on an
 * oversubscribed machine they leave the cores to those at work (a plain
 * MPI barrier polls, which made the run about twice as long).
 */
static void rest(void)
{
    MPI_Request r;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &r) != MPI_SUCCESS ||
        pumma_wait_idle(&r, 1e-4) != PUMMA_OK)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

/* ------------------------------------------------------------- data */

static int ncomp(const pumma_type_t *t) { return t->is_complex ? 2 : 1; }
static int dbl(const pumma_type_t *t)
{
    return t->letter == 'D' || t->letter == 'Z';
}

/*
 * Real component j of the data labelled `seed` is a small integer with
 * period PERIOD in j; table() gives one period of the sum of the data
 * labelled seed .. seed+n-1 (n = 1: the data itself), so fills and checks
 * cost no division per element.
 */
enum { PERIOD = 61 };
static void table(int seed, int n, double tab[PERIOD])
{
    for (int q = 0; q < PERIOD; q++) {
        tab[q] = 0;
        for (int r = seed; r < seed + n; r++)
            tab[q] += (double)((r * 131 + q * 17) % PERIOD) - 30.0;
    }
}

static double get(const pumma_type_t *t, const void *b, size_t j)
{
    return dbl(t) ? ((const double *)b)[j] : ((const float *)b)[j];
}

/* A buffer of n elements and a guard zone, all SENTINEL bytes. */
static char *guarded(const pumma_type_t *t, int n)
{
    size_t bytes = ((size_t)n + GUARD) * t->size;
    char *b = malloc(bytes);
    if (!b) {
        fprintf(stderr, "xcommtst: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(b, SENTINEL, bytes);
    return b;
}

/* Data to send: n elements labelled seed, then SOURCE_GUARD bytes. */
static void fill(const pumma_type_t *t, void *b, int n, int seed)
{
    size_t nr = (size_t)n * ncomp(t);
    double tab[PERIOD];
    table(seed, 1, tab);
    memset((char *)b + (size_t)n * t->size, SOURCE_GUARD, GUARD * t->size);
    for (size_t j = 0, q = 0; j < nr; j++, q = q + 1 < PERIOD ? q + 1 : 0) {
        if (dbl(t))
            ((double *)b)[j] = tab[q];
        else
            ((float *)b)[j] = (float)tab[q];
    }
}

/* First byte in [from, to) that is not `pattern`, or -1. */
static long differs(const char *b, size_t from, size_t to, int pattern)
{
    for (size_t i = from; i < to; i++)
        if ((unsigned char)b[i] != pattern) return (long)i;
    return -1;
}

static long dirty(const char *b, size_t from, size_t to)
{
    return differs(b, from, to, SENTINEL);
}

/* Is b (n elements) the sum of the data labelled seed .. seed+nseeds-1,
 * with its guard intact (`sent`: b is the sender's, guarded by
 * SOURCE_GUARD)? */
static int check_sum(const pumma_type_t *t, const char *b, int n, int seed,
                     int nseeds, int sent, const char *what)
{
    size_t nr = (size_t)n * ncomp(t);
    double tab[PERIOD];
    table(seed, nseeds, tab);
    for (size_t j = 0, q = 0; j < nr; j++, q = q + 1 < PERIOD ? q + 1 : 0)
        if (get(t, b, j) != tab[q]) {
            fail("%s: component %zu is %g, expected %g", what, j,
                 get(t, b, j), tab[q]);
            return 0;
        }
    long d = differs(b, (size_t)n * t->size, ((size_t)n + GUARD) * t->size,
                     sent ? SOURCE_GUARD : SENTINEL);
    if (d >= 0) {
        fail("%s: written past count (byte %ld)", what, d);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------- one case */

typedef struct setup {
    const pumma_coll_ops_t *ops;
    const pumma_type_t *t;
    int is_reduce;
    MPI_Comm comm;
    int np, me, count, segment;
    const pumma_hier_line_t *hier;     /* hier: the clusters, or NULL */
} setup_t;

/* A collective of this setup with the given root; buffers filled. */
static void coll_init(const setup_t *s, pumma_coll_t *c, int root, int seed,
                      int null_rbuf)
{
    memset(c, 0, sizeof *c);
    c->count = s->count;
    c->dt = s->t->mpi;
    c->t = s->t;
    c->root = root;
    c->comm = s->comm;
    c->tag = next_tag();
    c->segment = s->segment;
    c->hier = s->hier;
    c->buf = guarded(s->t, s->count);
    if (!s->is_reduce) {
        if (s->me == root) fill(s->t, c->buf, s->count, seed);
        return;
    }
    fill(s->t, c->buf, s->count, seed + s->me);
    if (s->me == root || !null_rbuf) c->rbuf = guarded(s->t, s->count);
}

/* Check a completed collective and free its buffers. */
static void coll_check(const setup_t *s, pumma_coll_t *c, int seed)
{
    const pumma_type_t *t = s->t;
    int done = 0;
    if (c->priv) fail("priv not freed by wait()");
    if (s->ops->test(c, &done) || !done) fail("test() after wait(): not done");
    if (!s->is_reduce) {
        check_sum(t, c->buf, s->count, seed, 1, s->me == c->root,
                  s->me == c->root ? "root's buf" : "received data");
    } else {
        check_sum(t, c->buf, s->count, seed + s->me, 1, 1,
                  "buf (contribution)");
        if (c->rbuf && s->me != c->root) {
            long d = dirty(c->rbuf, 0, ((size_t)s->count + GUARD) * t->size);
            if (d >= 0) fail("non-root rbuf written (byte %ld)", d);
        } else if (c->rbuf) {
            check_sum(t, c->rbuf, s->count, seed, s->np, 0, "sum in rbuf");
        }
    }
    free(c->buf);
    free(c->rbuf);
}

static int run_ok(int rc, const char *what)
{
    if (rc != PUMMA_OK) fail("%s returned %d", what, rc);
    return rc == PUMMA_OK;
}

/* One collective, completed by polling test() (poll) or by wait(). */
static void case_single(const setup_t *s, int root, int poll)
{
    pumma_coll_t c;
    int seed = 1000 * root + s->count % 997;
    coll_init(s, &c, root, seed, 0);
    if (!run_ok(s->ops->start(&c), "start")) return;
    int done = 0;
    while (poll && !done)
        if (!run_ok(s->ops->test(&c, &done), "test")) return;
    if (!run_ok(s->ops->wait(&c), "wait")) return;
    coll_check(s, &c, seed);
}

static void test_all(const setup_t *s, pumma_coll_t *c, const int *open,
                     int k)
{
    for (int i = 0; i < k; i++) {
        int done;
        if (open[i]) run_ok(s->ops->test(&c[i], &done), "test");
    }
}

/*
 * np + 1 collectives (roots 1, 2, ..., wrapping, so one root has two in
 * flight) started back to back, tested, then completed in reverse order
 * (mdb2_order 0) or as MDB2 does: the others' in order, my own last.
 * Reduces pass rbuf NULL on non-roots here.
 */
static void case_multi(const setup_t *s, int mdb2_order)
{
    enum { K = MAXNP + 1 };
    pumma_coll_t c[K];
    int open[K], seed[K], k = s->np + 1;
    for (int i = 0; i < k; i++) {
        seed[i] = 7 * i + 3;
        coll_init(s, &c[i], (i + 1) % s->np, seed[i], 1);
        open[i] = run_ok(s->ops->start(&c[i]), "start");
    }
    for (int round = 0; round < 3; round++) test_all(s, c, open, k);
    for (int pass = 0; pass < 2; pass++)
        for (int j = 0; j < k; j++) {
            int i = mdb2_order ? j : k - 1 - j;
            if (!open[i]) continue;
            if (mdb2_order && (pass == 0) == (c[i].root == s->me)) continue;
            if (!mdb2_order && pass == 1) continue;
            run_ok(s->ops->wait(&c[i]), "wait");
            open[i] = 0;
            coll_check(s, &c[i], seed[i]);
            test_all(s, c, open, k);
        }
}

/* The clusters of map m over np ranks (hier): 0 none, 1 thirds, 2 dealt
 * round three, 3 every rank alone. */
enum { NMAPS = 4 };
static int cluster_of(int m, int np, int r)
{
    return m == 1 ? r * 3 / np : m == 2 ? r % 3 : m == 3 ? r : 0;
}

/* A made-up platform of up to MAXNP clusters: links between them of
 * different latencies and bandwidths, and inside models that make the
 * variants' costs differ (so the clusters choose differently). */
static pumma_hier_grid_t platform;
static void platform_init(void)
{
    enum { NC = MAXNP };
    static double v[2 * NC * NC];
    static pumma_model_t inside[NC];
    platform.nc = NC;
    platform.lat = v;
    platform.beta = v + NC * NC;
    platform.inside = inside;
    for (int a = 0; a < NC; a++)
        for (int b = 0; b < NC; b++) {
            v[a * NC + b] = 1e-3 * (1 + (a + b) % 4);
            v[NC * NC + a * NC + b] = 1e-8 * (1 + (a * b) % 3);
        }
    for (int c = 0; c < NC; c++) {
        inside[c].alpha = c % 2 ? 5e-6 : 2e-4;
        inside[c].beta = c % 3 ? 1e-9 : 1e-10;
        inside[c].overlap = 1;
        inside[c].valid = 1;
    }
}

/* Every case of one collective variant and type, on this process's
 * communicators. */
/* The types a collective's case above 1 MB runs in (run_coll). */
static int big_type(const pumma_type_t *t)
{
    return t->letter == 'S' || t->letter == 'Z';
}

static void run_coll(const pumma_coll_ops_t *ops, const pumma_type_t *t,
                     int is_reduce)
{
    const char *kind = is_reduce ? "reduce" : "bcast";
    /* (count, segment) pairs: every segment on the small counts; above
     * 1 MB the whole message and 1000-element pieces (segment 1 would be
     * capped by the variants anyway, and time matters there), in S and Z
     * only: a variant moves bytes, and these two are the most and the
     * fewest pieces per megabyte (the big cases were nine tenths of the
     * run's two minutes on 2 cores). */
    const int big = (int)((1 << 20) / t->size) + 3;
    const int all[][2] = {{1, 0},    {1, 1},    {1, 1000},    {7, 0},
                          {7, 1},    {7, 1000}, {3001, 0},    {3001, 1},
                          {3001, 1000}, {big, 0}, {big, 1000}};
    /* pumma_count_max lowered to 1000: the counts above it */
    const int above[][2] = {{2000, 0}, {3001, 0}, {3001, 700}};
    const int (*cases)[2] = small ? above : all;
    const int ncs = small ? 3 : (int)(sizeof all / sizeof all[0]);
    const int nmaps = strcmp(ops->name, "hier") == 0 ? NMAPS : 1;
    for (int np = 1; np <= wsize && np <= MAXNP; np++)
      for (int map = 0; map < nmaps; map++) {
        pumma_hier_line_t line = {0};
        line.sub = MPI_COMM_NULL;
        int hier_on = 0;
        if (map > 0 && comms[np] != MPI_COMM_NULL) {
            int gc[MAXNP], me;
            MPI_Comm_rank(comms[np], &me);
            for (int r = 0; r < np; r++) gc[r] = cluster_of(map, np, r);
            if (pumma_hier_line_make(&line, &platform, comms[np], np, gc, me))
                fail("hier: the clusters' line could not be made");
            hier_on = line.nc > 1;
        }
        for (int ic = 0; ic < ncs; ic++) {
            if (cases[ic][0] == big && (brief || !big_type(t))) continue;
            setup_t s = {ops, t, is_reduce, comms[np], np, -1,
                         cases[ic][0], cases[ic][1], hier_on ? &line : NULL};
            int ntags = np + 2 * (np + 1);
            describe("%s %s %c np=%d count=%d segment=%d clusters %d", kind,
                     ops->name, t->letter, np, s.count, s.segment, map);
            if (s.comm == MPI_COMM_NULL) {     /* not in this one */
                ntag += ntags;
                rest();
                continue;
            }
            MPI_Comm_rank(s.comm, &s.me);
            for (int root = 0; root < np; root++) {
                describe("%s %s %c np=%d count=%d segment=%d root=%d "
                         "clusters %d", kind, ops->name, t->letter, np,
                         s.count, s.segment, root, map);
                case_single(&s, root, (root + ic) % 2);
                ncases++;
            }
            for (int order = 0; order < 2; order++) {
                describe("%s %s %c np=%d count=%d segment=%d "
                         "clusters %d back-to-back, %s", kind, ops->name,
                         t->letter, np, s.count, s.segment, map,
                         order ? "own root last" : "reverse order");
                case_multi(&s, order);
                ncases++;
            }
            rest();
        }
        pumma_hier_line_free(&line);
      }
}

/* -------------------------------------------------------------- shifts */

/* Slab length of origin o: all different, origin 1 empty. */
static int slab(int base, int o) { return o == 1 ? 0 : base + 5 * o; }

/* Roll slabs np steps in direction d (+1: to me+1) until they are home. */
static void case_shift(const pumma_shift_ops_t *ops, const pumma_type_t *t,
                       MPI_Comm comm, int np, int base, int d)
{
    int me;
    MPI_Comm_rank(comm, &me);
    int max = 0;
    for (int o = 0; o < np; o++)
        if (slab(base, o) > max) max = slab(base, o);
    char *cur = guarded(t, max), *next = guarded(t, max);
    fill(t, cur, slab(base, me), 500 + me);
    for (int step = 1; step <= np; step++) {
        int held = ((me - (step - 1) * d) % np + np) % np;
        int comes = ((me - step * d) % np + np) % np;
        pumma_shift_t sh = {0};
        sh.sbuf = cur;
        sh.rbuf = next;
        sh.scount = slab(base, held);
        sh.rcount = slab(base, comes);
        sh.dt = t->mpi;
        sh.dest = ((me + d) % np + np) % np;
        sh.source = ((me - d) % np + np) % np;
        sh.tag = next_tag();
        sh.comm = comm;
        sh.req[0] = sh.req[1] = MPI_REQUEST_NULL;
        if (!run_ok(ops->start(&sh), "start") ||
            !run_ok(ops->wait(&sh), "wait"))
            break;
        char what[64];
        snprintf(what, sizeof what, "step %d, slab of %d", step, comes);
        if (!check_sum(t, next, slab(base, comes), 500 + comes, 1, 0, what))
            break;
        memset(cur, SENTINEL, ((size_t)max + GUARD) * t->size);
        char *x = cur; cur = next; next = x;
    }
    free(cur);
    free(next);
}

static void run_shift(const pumma_shift_ops_t *ops, const pumma_type_t *t)
{
    const int all[] = {1, 7, 3001, (int)((1 << 20) / t->size) + 3};
    const int above[] = {1990, 3001};     /* 1990 + 5 * 2 = 2000 */
    const int *bases = small ? above : all;
    for (int np = 1; np <= wsize && np <= MAXNP; np++)
        for (int ib = 0; ib < (small ? 2 : brief ? 3 : 4); ib++)
            for (int d = -1; d <= 1; d += 2) {
                describe("shift %s %c np=%d slabs %d+ direction %+d",
                         ops->name, t->letter, np, bases[ib], d);
                if (comms[np] == MPI_COMM_NULL) {
                    ntag += np;
                    rest();
                    continue;
                }
                case_shift(ops, t, comms[np], np, bases[ib], d);
                ncases++;
                rest();
            }
}

/* ----------------------------------------------------------- all-gathers */

/* Piece length of rank r: all different, rank 1 empty. */
static int piece(int base, int r) { return r == 1 ? 0 : base + 3 * r; }

/* Gather `gen`'s pieces (data labelled 700 + 10 gen + r) into b. */
static void gather_init(const pumma_type_t *t, int np, int me, int base,
                        int gen, char **b, int *cnt, int *dsp, int *total)
{
    *total = 0;
    for (int r = 0; r < np; r++) {
        cnt[r] = piece(base, r);
        dsp[r] = *total;
        *total += cnt[r];
    }
    *b = guarded(t, *total);
    char *mine = guarded(t, cnt[me]);
    fill(t, mine, cnt[me], 700 + 10 * gen + me);
    memcpy(*b + (size_t)dsp[me] * t->size, mine, (size_t)cnt[me] * t->size);
    free(mine);
}

static int gather_check(const pumma_type_t *t, int np, const char *b,
                        const int *cnt, const int *dsp, int total, int gen)
{
    for (int r = 0; r < np; r++) {
        char *want = guarded(t, cnt[r]);
        fill(t, want, cnt[r], 700 + 10 * gen + r);
        const int ok = !memcmp(b + (size_t)dsp[r] * t->size, want,
                               (size_t)cnt[r] * t->size);
        free(want);
        if (!ok) {
            fail("gather %d: piece of rank %d (%d elements) wrong", gen, r,
                 cnt[r]);
            return 0;
        }
    }
    long d = dirty(b, (size_t)total * t->size,
                   ((size_t)total + GUARD) * t->size);
    if (d >= 0) {
        fail("gather %d: written past the pieces (byte %ld)", gen, d);
        return 0;
    }
    return 1;
}

/* As the cube uses them (SRC/algo/pumma_cube.c): gathers 0 and 1 in
 * flight at once on one communicator (tags T and T + 64), test() on both
 * in between; 0 completed, then 2 started on 0's tags while 1 is still in
 * flight; all completed. */
static void case_allgather(const pumma_type_t *t, MPI_Comm comm, int np,
                           int base)
{
    int me;
    MPI_Comm_rank(comm, &me);
    const int tag = next_tag();
    ntag += 64;
    int cnt[3][MAXNP], dsp[3][MAXNP], total[3];
    char *b[3] = {NULL, NULL, NULL};
    pumma_allgather_t g[3];
    int done = 0;
    for (int x = 0; x < 2; x++) {
        gather_init(t, np, me, base, x, &b[x], cnt[x], dsp[x], &total[x]);
        if (!run_ok(pumma_allgather_start(&g[x], b[x], cnt[x], dsp[x],
                                          t->mpi, t->size, comm,
                                          tag + 64 * x), "start"))
            goto out;
    }
    for (int i = 0; i < 3; i++)
        for (int x = 0; x < 2; x++)
            if (!run_ok(pumma_allgather_test(&g[x], &done), "test")) goto out;
    if (!run_ok(pumma_allgather_wait(&g[0]), "wait") ||
        !run_ok(pumma_allgather_test(&g[0], &done), "test"))
        goto out;
    if (!done) {
        fail("test() after wait() says not done");
        goto out;
    }
    gather_init(t, np, me, base, 2, &b[2], cnt[2], dsp[2], &total[2]);
    if (!run_ok(pumma_allgather_start(&g[2], b[2], cnt[2], dsp[2], t->mpi,
                                      t->size, comm, tag), "start") ||
        !run_ok(pumma_allgather_wait(&g[1]), "wait") ||
        !run_ok(pumma_allgather_wait(&g[2]), "wait"))
        goto out;
    for (int x = 0; x < 3; x++)
        if (!gather_check(t, np, b[x], cnt[x], dsp[x], total[x], x)) break;
out:
    for (int x = 0; x < 3; x++) free(b[x]);
}

static void run_allgather(const pumma_type_t *t)
{
    const int bases[] = {1, 7, 3001, (int)((1 << 20) / t->size) + 3};
    for (int np = 1; np <= wsize && np <= MAXNP; np++)
        for (int ib = 0; ib < (brief ? 3 : 4); ib++) {
            describe("allgather %c np=%d pieces %d+", t->letter, np,
                     bases[ib]);
            if (comms[np] == MPI_COMM_NULL) {
                ntag += 65;
                rest();
                continue;
            }
            case_allgather(t, comms[np], np, bases[ib]);
            ncases++;
            rest();
        }
}

/* ------------------------------------------------------------- verdicts */

/* Combine the current variant x type over all processes, print its line. */
static int verdict(const char *kind, const char *name, char letter,
                   double secs)
{
    int bad = 0, who = nfail ? wrank : wsize, cases = 0;
    MPI_Allreduce(&nfail, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Reduce(&ncases, &cases, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (bad) MPI_Bcast(why, (int)sizeof why, MPI_CHAR, who, MPI_COMM_WORLD);
    if (wrank == 0) {
        if (bad)
            printf("FAILED %-6s %-12s %c  %d failures; first on process %d: "
                   "%s\n", kind, name, letter, bad, who, why);
        else
            printf("PASSED %-6s %-12s %c  %d cases  %.2f s\n", kind, name,
                   letter, cases, secs);
        fflush(stdout);
    }
    ncases = nfail = 0;
    why[0] = 0;
    return bad != 0;
}

/* brief runs S (4-byte real) and Z (16-byte complex) only. */
static int keep_type(int it)
{
    return !brief || types[it]->letter == 'S' || types[it]->letter == 'Z';
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    for (int n = 1; n <= MAXNP; n++)
        MPI_Comm_split(MPI_COMM_WORLD, wrank < n ? 0 : MPI_UNDEFINED, wrank,
                       &comms[n]);
    signal(SIGALRM, watchdog);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "small") == 0) small = 1;
        else if (strcmp(argv[i], "brief") == 0) brief = 1;
        else {
            if (wrank == 0) fprintf(stderr, "xcommtst: unknown argument %s\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (small) pumma_count_max = 1000;
    platform_init();
    double t0 = MPI_Wtime();
    int passed = 0, failed = 0;

    for (int kind = 0; kind < 2; kind++) {
        const pumma_coll_ops_t *ops;
        pumma_table_kind_t tk = kind ? PUMMA_REDUCE_TABLE : PUMMA_BCAST_TABLE;
        for (int v = 0; (ops = pumma_comm_at(tk, v)) != NULL; v++)
            for (int it = 0; it < NTYPES; it++) {
                if (!keep_type(it)) continue;
                alarm(brief ? 5 * WATCHDOG_S : WATCHDOG_S);
                double t1 = MPI_Wtime();
                run_coll(ops, types[it], kind);
                int bad = verdict(kind ? "reduce" : "bcast", ops->name,
                                  types[it]->letter, MPI_Wtime() - t1);
                passed += !bad;
                failed += bad;
            }
    }
    const pumma_shift_ops_t *sh;
    for (int v = 0; (sh = pumma_shift_at(v)) != NULL; v++)
        for (int it = 0; it < NTYPES; it++) {
            if (!keep_type(it)) continue;
            alarm(brief ? 5 * WATCHDOG_S : WATCHDOG_S);
            double t1 = MPI_Wtime();
            run_shift(sh, types[it]);
            int bad = verdict("shift", sh->name, types[it]->letter,
                              MPI_Wtime() - t1);
            passed += !bad;
            failed += bad;
        }
    for (int it = 0; it < NTYPES; it++) {
        if (!keep_type(it)) continue;
        alarm(brief ? 5 * WATCHDOG_S : WATCHDOG_S);
        double t1 = MPI_Wtime();
        run_allgather(types[it]);
        int bad = verdict("gather", "bruck", types[it]->letter,
                          MPI_Wtime() - t1);
        passed += !bad;
        failed += bad;
    }
    alarm(0);

    if (wrank == 0) {
        printf("time %.1f s\n", MPI_Wtime() - t0);
        printf("%d passed, %d failed\n", passed, failed);
    }
    for (int n = 1; n <= MAXNP; n++)
        if (comms[n] != MPI_COMM_NULL) MPI_Comm_free(&comms[n]);
    MPI_Finalize();
    return failed ? 1 : 0;
}
