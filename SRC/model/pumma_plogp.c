/*
 * pumma_plogp.c -- the pLogP parameters of the running MPI between two
 * processes, measured the way Kielmann et al. measure them (logp_mpi):
 *
 *   rtt(m)  a message of m bytes from a to b and an empty one back;
 *   os(m)   the time a's send call takes, b's receive already posted and
 *           a's previous message long gone (a waits for b's empty reply
 *           between two, so no gap is in it);
 *   or(m)   the time b's receive call takes when the message is already
 *           there (b waits rtt(m) and more before calling it);
 *   g(m)    the time per message of a stream of n messages of m bytes from
 *           a to b, closed by b's empty reply: (T(n) - rtt(0)) / n, n
 *           doubled from 4 until g(m) changes by less than 5% (saturation);
 *   L       rtt(0)/2 - g(0).
 *   fair    whether n messages posted at once by a leave one after another
 *           or side by side (share_probe below).
 *
 * Each of the four is the mean of repeated runs (after one not counted),
 * repeated until the half
 * width of its 95% confidence interval is within 5% of the mean (at least
 * 5 runs, at most 50, or fewer when the time budget runs out). Sizes are 0
 * and the powers of two up to max_bytes; a size whose single message would
 * take beyond a tenth of what is left of the budget ends the series (the
 * model extrapolates above the last size measured).
 *
 * a decides when a run is the last one (or is measured at b, which tells a
 * in its reply); every decision travels in a message of its own after the
 * timed part, so both sides always agree on what comes next.
 */
#define _GNU_SOURCE      /* sched_getaffinity, CPU_COUNT */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pumma_model.h"
#ifdef PUMMA_SMPI
#include <simgrid/actor.h>
#include <simgrid/host.h>
#endif

enum { MIN_RUNS = 5, MAX_RUNS = 50, TAG = PUMMA_TAG_MODEL };

/* Running mean and 95% confidence interval of one quantity. The first
 * run of each is a warm-up, not counted: the first message between two
 * processes (or of a new size) costs many times the next ones (here
 * 7.5 us for an empty round trip, then 0.35 us). */
typedef struct acc {
    int warm, n;
    double sum, sum2;
} acc_t;

static void acc_add(acc_t *a, double x)
{
    if (!a->warm) {
        a->warm = 1;
        return;
    }
    a->n++;
    a->sum += x;
    a->sum2 += x * x;
}

static double acc_mean(const acc_t *a) { return a->n ? a->sum / a->n : 0; }

/* Enough runs: the interval is narrow, or MAX_RUNS, or out of time. */
static int acc_done(const acc_t *a, double deadline)
{
    if (a->n >= MAX_RUNS || (a->n >= 2 && MPI_Wtime() > deadline)) return 1;
    if (a->n < MIN_RUNS) return 0;
    double m = acc_mean(a);
    double var = (a->sum2 - a->n * m * m) / (a->n - 1);
    double half = 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)a->n);
    return half <= 0.05 * m;
}

typedef struct pair {
    MPI_Comm comm;
    int me, peer;               /* I am a (me == 0) or b (me == 1) */
    char *buf;
    double deadline;
} pair_t;

/* The value the side `from` holds, known to both. */
static double share(pair_t *p, int from, double v)
{
    if (p->me == from)
        MPI_Send(&v, 1, MPI_DOUBLE, p->peer, TAG, p->comm);
    else
        MPI_Recv(&v, 1, MPI_DOUBLE, p->peer, TAG, p->comm, MPI_STATUS_IGNORE);
    return v;
}

/* The decision of the side that measured (from), known to both. */
static int agree(pair_t *p, int from, int stop)
{
    return share(p, from, stop) != 0;
}

/* s seconds of waiting, the processor kept awake. Under SMPI the
 * simulated process sleeps s simulated seconds instead: polling the
 * simulated clock takes a simcall a look, each charged SMPI's wtime
 * cost, and a busy wait has no meaning for a simulated processor. */
static void spin(double s)
{
#ifdef PUMMA_SMPI
    sg_actor_sleep_for(s);
    return;
#endif
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < s) {
    }
}

/* a sends m bytes, b answers with an empty message: a times the round
 * trip (rtt(m)), or only its send call (os(m): b's receive is posted and
 * a's previous message gone, so no gap is in it). */
static double ping(pair_t *p, int m, int send_only)
{
    acc_t a = {0};
    for (int stop = 0; !stop;) {
        if (p->me == 0) {
            const double t0 = MPI_Wtime();
            MPI_Send(p->buf, m, MPI_BYTE, p->peer, TAG, p->comm);
            const double sent = MPI_Wtime() - t0;
            MPI_Recv(p->buf, 0, MPI_BYTE, p->peer, TAG, p->comm,
                     MPI_STATUS_IGNORE);
            acc_add(&a, send_only ? sent : MPI_Wtime() - t0);
        } else {
            MPI_Recv(p->buf, m, MPI_BYTE, p->peer, TAG, p->comm,
                     MPI_STATUS_IGNORE);
            MPI_Send(p->buf, 0, MPI_BYTE, p->peer, TAG, p->comm);
        }
        stop = agree(p, 0, p->me == 0 && acc_done(&a, p->deadline));
    }
    return acc_mean(&a);
}

/* b waits out the transfer (twice the round trip) before receiving. A
 * message above the eager limit waits for the receive to move: then or(m)
 * holds the transfer, as it does when such a message arrives. */
static double recv_overhead(pair_t *p, int m, double wait)
{
    acc_t a = {0};
    for (int stop = 0; !stop;) {
        if (p->me == 0) {
            MPI_Send(p->buf, m, MPI_BYTE, p->peer, TAG, p->comm);
            MPI_Recv(p->buf, 0, MPI_BYTE, p->peer, TAG, p->comm,
                     MPI_STATUS_IGNORE);
        } else {
            spin(wait);
            double t0 = MPI_Wtime();
            MPI_Recv(p->buf, m, MPI_BYTE, p->peer, TAG, p->comm,
                     MPI_STATUS_IGNORE);
            acc_add(&a, MPI_Wtime() - t0);
            MPI_Send(p->buf, 0, MPI_BYTE, p->peer, TAG, p->comm);
        }
        stop = agree(p, 1, p->me == 1 && acc_done(&a, p->deadline));
    }
    return share(p, 1, acc_mean(&a));
}

/* A stream of n messages closed by an empty reply: seconds per message. */
static double stream(pair_t *p, int m, int n, double rtt0)
{
    acc_t a = {0};
    for (int stop = 0; !stop;) {
        double t0 = MPI_Wtime();
        if (p->me == 0) {
            for (int i = 0; i < n; i++)
                MPI_Send(p->buf, m, MPI_BYTE, p->peer, TAG, p->comm);
            MPI_Recv(p->buf, 0, MPI_BYTE, p->peer, TAG, p->comm,
                     MPI_STATUS_IGNORE);
            double g = (MPI_Wtime() - t0 - rtt0) / n;
            acc_add(&a, g > 0 ? g : 0);
        } else {
            for (int i = 0; i < n; i++)
                MPI_Recv(p->buf, m, MPI_BYTE, p->peer, TAG, p->comm,
                         MPI_STATUS_IGNORE);
            MPI_Send(p->buf, 0, MPI_BYTE, p->peer, TAG, p->comm);
        }
        stop = agree(p, 0, p->me == 0 && acc_done(&a, p->deadline));
    }
    return acc_mean(&a);
}

/* g(m): streams of 4, 8, 16, ... until two agree within 5%. */
static double gap(pair_t *p, int m, double rtt0, double one)
{
    double prev = -1, g = 0;
    for (int n = 4;; n *= 2) {
        g = stream(p, m, n, rtt0);
        int stop = p->me == 0 &&
                   ((prev > 0 && fabs(g - prev) <= 0.05 * prev) || n >= 256 ||
                    MPI_Wtime() + 2 * n * one > p->deadline);
        if (agree(p, 0, stop)) break;
        prev = g;
    }
    return share(p, 0, g);
}

/*
 * Whether messages a posts at once to b leave one after another or share
 * the link (pumma_plogp_t.fair). b posts NP receives of m bytes and tells
 * a, which posts its NP sends at once; b times the first and the last to
 * complete from its word. One after another, the first takes 1/NP of the
 * last's transfer (and the word's latency twice); side by side, all end
 * together. m: the largest size sampled, in NP pieces, so that the
 * transfer outweighs the latency. The median of three; 1 when the first
 * took more than (1 + 1/NP)/2 of the last, the middle of the two.
 */
static double share_probe(pair_t *p, double top)
{
    enum { NP = 8 };
    int m = (int)(top / NP);
    if (m < 1024) return 0;               /* too small to tell: pLogP's */
    double r[3] = {0, 0, 0};           /* b's, which it tells a */
    for (int k = 0; k < 3; k++) {
        MPI_Request q[NP];
        if (p->me == 1) {
            for (int i = 0; i < NP; i++)
                MPI_Irecv((char *)p->buf + (size_t)i * (size_t)m, m, MPI_BYTE,
                          p->peer, TAG, p->comm, &q[i]);
            const double t0 = MPI_Wtime();
            MPI_Send(NULL, 0, MPI_BYTE, p->peer, TAG, p->comm);
            double first = -1;
            for (int i = 0; i < NP; i++) {
                int idx;
                MPI_Waitany(NP, q, &idx, MPI_STATUS_IGNORE);
                if (first < 0) first = MPI_Wtime() - t0;
            }
            const double last = MPI_Wtime() - t0;
            r[k] = last > 0 ? first / last : 0;
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, p->peer, TAG, p->comm,
                     MPI_STATUS_IGNORE);
            for (int i = 0; i < NP; i++)
                MPI_Isend((char *)p->buf + (size_t)i * (size_t)m, m, MPI_BYTE,
                          p->peer, TAG, p->comm, &q[i]);
            MPI_Waitall(NP, q, MPI_STATUSES_IGNORE);
        }
    }
    const double lo = fmin(r[0], fmin(r[1], r[2])),
                 hi = fmax(r[0], fmax(r[1], r[2]));
    const double med = r[0] + r[1] + r[2] - lo - hi;
    return share(p, 1, med > 0.5 * (1 + 1.0 / NP) ? 1 : 0);
}

/* The pair a, b of comm as process me (one of them) sees it, with a
 * buffer of `bytes` filled with ones and `budget` seconds; whether both
 * sides have their buffer (they agree: both must be able to go on). */
static int pair_open(pair_t *p, MPI_Comm comm, int me, int a, int b,
                     double bytes, double budget)
{
    p->comm = comm;
    p->me = me == a ? 0 : 1;
    p->peer = me == a ? b : a;
    p->deadline = MPI_Wtime() + budget;
    p->buf = malloc((size_t)bytes);
    int ok = p->buf != NULL, both = 0;
    MPI_Sendrecv(&ok, 1, MPI_INT, p->peer, TAG, &both, 1, MPI_INT, p->peer,
                 TAG, comm, MPI_STATUS_IGNORE);
    if (ok) memset(p->buf, 1, (size_t)bytes);
    return ok && both;
}

double pumma_plogp_fair(MPI_Comm comm, int a, int b, double bytes)
{
    int me;
    MPI_Comm_rank(comm, &me);
    if ((me != a && me != b) || a == b) return 0;
    pair_t p;
    const double f = pair_open(&p, comm, me, a, b, bytes > 1 ? bytes : 1, 1)
                         ? share_probe(&p, bytes)
                         : 0;
    free(p.buf);
    return f;
}

int pumma_plogp_measure(MPI_Comm comm, int a, int b, double max_bytes,
                        double budget, pumma_plogp_t *s)
{
    int me, rc = PUMMA_OK;
    MPI_Comm_rank(comm, &me);
    memset(s, 0, sizeof *s);
    if (me == a || me == b) {
        pair_t p;
        double top = max_bytes < 1 ? 1 : max_bytes;
        if (top > 1 << 30) top = 1 << 30;
        if (pair_open(&p, comm, me, a, b, top, budget)) {
            double rtt0 = 0;
            for (double m = 0; m <= top && s->n < PUMMA_PLOGP_MAXS;
                 m = m > 0 ? 2 * m : 1) {
                const int i = s->n;
                double r = share(&p, 0, ping(&p, (int)m, 0));
                if (i == 0) rtt0 = r;
                s->m[i] = m;
                s->rtt[i] = r;
                s->os[i] = ping(&p, (int)m, 1);
                s->orv[i] = recv_overhead(&p, (int)m, 2 * r);
                s->g[i] = gap(&p, (int)m, rtt0, r);
                s->n++;
                /* the next size, twice this one, must fit what is left */
                int more = MPI_Wtime() + 40 * r < p.deadline;
                if (!agree(&p, 0, p.me == 0 ? !more : 0)) continue;
                break;
            }
            s->L = s->rtt[0] / 2 - s->g[0];
            if (s->L < 0) s->L = 0;
            s->fair = share_probe(&p, s->m[s->n - 1]);
        } else {
            rc = PUMMA_ENOMEM;
        }
        free(p.buf);
    }
    /* everyone gets a's samples; the others sleep meanwhile, so that the
     * pair's processors are the pair's */
    pumma_quiet_barrier(comm);
    double flat[1 + 1 + 5 * PUMMA_PLOGP_MAXS + 1 + 1];
    if (me == a) {
        flat[3 + 5 * PUMMA_PLOGP_MAXS] = s->fair;
        flat[0] = s->n;
        flat[1] = s->L;
        for (int i = 0; i < PUMMA_PLOGP_MAXS; i++) {
            flat[2 + 5 * i] = s->m[i];
            flat[3 + 5 * i] = s->os[i];
            flat[4 + 5 * i] = s->orv[i];
            flat[5 + 5 * i] = s->g[i];
            flat[6 + 5 * i] = s->rtt[i];
        }
        flat[2 + 5 * PUMMA_PLOGP_MAXS] = rc;
    }
    MPI_Bcast(flat, 4 + 5 * PUMMA_PLOGP_MAXS, MPI_DOUBLE, a, comm);
    s->fair = flat[3 + 5 * PUMMA_PLOGP_MAXS];
    s->n = (int)flat[0];
    s->L = flat[1];
    for (int i = 0; i < PUMMA_PLOGP_MAXS; i++) {
        s->m[i] = flat[2 + 5 * i];
        s->os[i] = flat[3 + 5 * i];
        s->orv[i] = flat[4 + 5 * i];
        s->g[i] = flat[5 + 5 * i];
        s->rtt[i] = flat[6 + 5 * i];
    }
    return (int)flat[2 + 5 * PUMMA_PLOGP_MAXS];
}

/* The reduces' local sums, on 8 MiB: beyond the caches, as the messages
 * they add are. The best of five. */
double pumma_measure_add(void)
{
    enum { N = 1 << 20 };
    double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
    if (!x || !y) {
        free(x);
        free(y);
        return 2e-10;
    }
    for (int i = 0; i < N; i++) x[i] = y[i] = 1;
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        const double t0 = MPI_Wtime();
        pumma_type_d.geadd('N', N, 1, pumma_type_d.one, x, N, pumma_type_d.one,
                           y, N);
        const double dt = MPI_Wtime() - t0;
        if (dt < best) best = dt;
    }
    free(x);
    free(y);
    return best / (N * 8.0);
}

/* The processors this process may run on: its affinity mask, else every
 * processor online. Under SMPI, its simulated host's cores (this
 * machine's mask says nothing of the platform's hosts). */
static int my_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
#ifdef PUMMA_SMPI
    const int cores = sg_host_core_count(sg_host_self());
    for (int i = 0; i < cores && i < CPU_SETSIZE; i++) CPU_SET(i, set);
    return cores > 0;
#endif
    if (!sched_getaffinity(0, sizeof *set, set) && CPU_COUNT(set) > 0)
        return 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    for (long i = 0; i < n && i < CPU_SETSIZE; i++) CPU_SET((int)i, set);
    return n > 0;
}

void pumma_node_share(MPI_Comm comm, double *cores, double *ppn)
{
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int n;
    MPI_Comm_size(node, &n);
    cpu_set_t mine, all;
    const int known = my_cpus(&mine);
    MPI_Allreduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, node);
    MPI_Comm_free(&node);
    /* the fewest processors (as -max) and the most processes per node */
    double x[2] = {known ? -(double)CPU_COUNT(&all) : 0, n}, w[2];
    MPI_Allreduce(x, w, 2, MPI_DOUBLE, MPI_MAX, comm);
    *cores = w[0] < 0 ? -w[0] : 0;
    *ppn = w[1];
}

void pumma_quiet_barrier(MPI_Comm comm)
{
    MPI_Request r;
    /* 2 ms naps: fewer wake-ups near a pair timing its latency */
    if (MPI_Ibarrier(comm, &r) == MPI_SUCCESS) (void)pumma_wait_idle(&r, 2e-3);
}
