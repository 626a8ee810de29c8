/*
 * pumma_model.c -- the alpha-beta-gamma machine model behind `auto`,
 * measured on the running machine.
 *
 *   alpha    seconds per message (latency)
 *   beta     seconds per byte sent
 *   gamma    seconds per multiply-add of a large local GEMM, per type
 *   gamma_k  GEMM with a short inner dimension k costs gamma*(1 + gamma_k/k)
 *   gamma_t  GEMM of transposed operands ('T','T') over 'N','N' (a ratio)
 *   delta    seconds per byte of a local copy or add (of data beyond the
 *            cache: the algorithms' copies read the caller's matrices)
 *   delta_t  seconds per byte of a local transposing copy
 *   overlap  the share of a message's time a multiply running meanwhile
 *            hides: 1 over a network (the adapter, or the kernel's TCP,
 *            moves the data), 0 between processes of one host that may
 *            use the shared-memory transport, which copies on the
 *            receiving process's own core, inside its MPI calls (Open
 *            MPI's vader: single copy by the receiver); processes of one
 *            host whose OMPI_MCA_btl excludes it count as networked
 *
 * Measured once per grid, at the first call that leaves a choice to pumma:
 * a ping-pong between the grid's first two processes, and small GEMMs and
 * copies on its first process, broadcast so every process of the grid
 * plans with the same numbers (they must all choose alike). It takes some
 * 37 ms here, once per user and machine: the values are kept in the tune
 * file (pumma_tune.c). PUMMA_MODEL sets any of the values instead, e.g.
 * PUMMA_MODEL=alpha=2e-6,beta=1e-9; a value it names is not measured.
 */
#define _GNU_SOURCE             /* MAP_POPULATE */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pumma_model.h"

enum { NVAL = PUMMA_NVAL };  /* pumma_base.h: PUMMA_V_ALPHA ... */

static double now(void) { return MPI_Wtime(); }

/* Best of `reps` timings of a GEMM m x n x k of type t (seconds). */
static double time_gemm(const pumma_type_t *t, char tr, int m, int n, int k,
                        char *a, char *b, char *c, int reps)
{
    double best = 1e30;
    int lda = tr == 'N' ? m : k, ldb = tr == 'N' ? k : n;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        t->gemm(&tr, &tr, &m, &n, &k, t->one, a, &lda, b, &ldb, t->zero, c,
                &m, 1, 1);
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    return best;
}

static double time_copy(char tr, int m, int n, const char *x, char *y,
                        int reps)
{
    const pumma_type_t *t = &pumma_type_d;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        t->geadd(tr, m, n, t->one, x, tr == 'N' ? m : n, t->zero, y, m);
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    return best / ((double)m * n * t->size);
}

/* Nonzero data (some BLAS take shortcuts on zeros), as floats or doubles. */
static void fill(char *a, char *b, size_t bytes, int single)
{
    size_t n = bytes / (single ? sizeof(float) : sizeof(double));
    for (size_t j = 0; j < n; j++) {
        double x = 1.0 / (double)(1 + j % 7), y = 1.0 / (double)(1 + j % 5);
        if (single) {
            ((float *)a)[j] = (float)x;
            ((float *)b)[j] = (float)y;
        } else {
            ((double *)a)[j] = x;
            ((double *)b)[j] = y;
        }
    }
}

/* The local part of the measurement (PUMMA_V_GAMMA on), some 35 ms here:
 * a program without a tune file pays it once (then the file has it). D's
 * GEMM, the reference of gamma_k and gamma_t, best of 3 after a warm-up;
 * the other types best of 2 (the first warms up), the complex ones at 192
 * (a complex multiply-add is four real ones: at 256 they took 8 of the
 * measurement's 50 ms; their rate at 192 is within 3%). One mapping, its pages
 * made at once (MAP_POPULATE: a third of the cost of faulting them one by
 * one here), holds the GEMMs' operands and the copies'. */
static void measure_local(double *v)
{
    enum { N = 256, NZ = 192, KS = 32, REPS = 3, NC = 384, NCOPY = 512 };
    /* delta: a copy of 12 MiB into 12 MiB, beyond the caches of a core (on
     * this machine's 32 MiB L3, 7.2e-11 s/B at 64 MiB, 7.4e-11 at 16,
     * 3.4e-11 at 2: in the cache a copy runs twice as fast as the
     * algorithms' copies of the caller's matrices, which made `auto`
     * underprice presorting). */
    enum { BIG_M = 1536, BIG_N = 1024 };
    const pumma_type_t *types[4] = {&pumma_type_s, &pumma_type_d,
                                    &pumma_type_c, &pumma_type_z};
    const size_t bytes = (size_t)NCOPY * NCOPY * 8;  /* >= N*N complex doubles */
    const size_t big = (size_t)BIG_M * BIG_N * 8;
    const size_t len = 2 * big;
#ifdef MAP_POPULATE
    const int populate = MAP_POPULATE;
#else
    const int populate = 0;
#endif
    char *base = mmap(NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
    if (base == MAP_FAILED) return;      /* keep the defaults */
    char *a = base, *b = base + bytes, *c = base + 2 * bytes;
    for (int single = 1; single >= 0; single--) {
        fill(a, b, bytes, single);
        for (int i = 0; i < 4; i++) {
            const int s1 = types[i]->letter == 'S' || types[i]->letter == 'C';
            if (s1 != single) continue;
            const int n = types[i]->is_complex ? NZ : N;
            if (types[i]->letter == 'D')
                time_gemm(types[i], 'N', N, N, N, a, b, c, 1);   /* warm up */
            v[PUMMA_V_GAMMA + i] =
                time_gemm(types[i], 'N', n, n, n, a, b, c,
                          types[i]->letter == 'D' ? REPS : 2) /
                ((double)n * n * n);
        }
    }
    const pumma_type_t *d = &pumma_type_d;
    double g = v[PUMMA_V_GAMMA + 1];
    double gs = time_gemm(d, 'N', N, N, KS, a, b, c, REPS * 4) /
                ((double)N * N * KS);
    v[PUMMA_V_GAMMA_K] = gs > g ? (gs / g - 1.0) * KS : 0.0;
    /* Transposed against plain at 384: at 256 the two are within the noise
     * (a ratio of 0.98 to 1.06 from run to run) while the panels the
     * algorithms multiply show 'T','T' 3-6% slower, as 512 does (384 for a
     * third of 512's time). Taken alternately, best of two each. */
    double gn = 1e30, gt = 1e30;
    for (int r = 0; r < 2; r++) {
        double x = time_gemm(d, 'N', NC, NC, NC, a, b, c, 1);
        double y = time_gemm(d, 'T', NC, NC, NC, a, b, c, 1);
        if (x < gn) gn = x;
        if (y < gt) gt = y;
    }
    v[PUMMA_V_GAMMA_T] = gt / gn;
    /* transposing copies at 512 (2 MB), between the panels that stay in
     * the caches (300 x 600: 4.7e-11 s/B here) and those beyond them
     * (1000 x 2000: 1.9e-10); 512's leading dimension, 4 KiB, is the
     * worst case of a column-at-a-time copy (3.5e-10), which geadd's
     * strips avoid (7.5e-11) */
    v[PUMMA_V_DELTA_T] = time_copy('T', NCOPY, NCOPY, a, b, REPS);
    /* (populated pages are the mapping's own, zeroed: a copy's source
     * needs no other values) */
    v[PUMMA_V_DELTA] = time_copy('N', BIG_M, BIG_N, base, base + big, 2);
    munmap(base, len);
}

/* Ping-pong between ranks 0 and 1 of comm: alpha and beta. */
int pumma_pingpong(MPI_Comm comm, int peer, int lead, char *buf, int bytes,
                   int reps, int tag, double *best)
{
    *best = -1;
    for (int r = 0; r < reps + 1; r++) {
        double t0 = now();
        int rc = lead
            ? (MPI_Send(buf, bytes, MPI_BYTE, peer, tag, comm) ||
               MPI_Recv(buf, bytes, MPI_BYTE, peer, tag, comm,
                        MPI_STATUS_IGNORE))
            : (MPI_Recv(buf, bytes, MPI_BYTE, peer, tag, comm,
                        MPI_STATUS_IGNORE) ||
               MPI_Send(buf, bytes, MPI_BYTE, peer, tag, comm));
        if (rc != MPI_SUCCESS) return PUMMA_EMPI;
        double dt = (now() - t0) / 2;
        if (r > 0 && (*best < 0 || dt < *best)) *best = dt;  /* r = 0 warms up */
    }
    return PUMMA_OK;
}

static void measure_net(MPI_Comm comm, int with, double *v)
{
    enum { BIG = 1 << 20, REPS = 15 };   /* best of: kept in the tune file */
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    if (np < 2 || (me != 0 && me != with)) return;
    char *buf = calloc(1, BIG);
    if (!buf) return;                  /* both sides agree: same size */
    int peer = me == 0 ? with : 0;
    double t[2];
    const int sizes[2] = {8, BIG};
    for (int s = 0; s < 2; s++)
        pumma_pingpong(comm, peer, me == 0, buf, sizes[s], REPS,
                       PUMMA_TAG_MODEL, &t[s]);
    free(buf);
    v[PUMMA_V_ALPHA] = t[0];
    v[PUMMA_V_BETA] = t[1] > t[0] ? (t[1] - t[0]) / (BIG - 8) : 1e-12;
}


/*
 * mo->slow (pumma_base.h): on a grid that spans hosts, every process
 * times the same local multiply at once (256^3, best of three, slowed as
 * PUMMA_SPEEDS says: some 3 ms), and slow is the slowest time over the
 * first process's. Hosts may differ there (a cluster of two generations,
 * a grid over sites); the cores of one host are taken alike. A gap under
 * SLOW_NOISE is the measurement's noise, not a slower host: 1. Blocking
 * collectives, not pumma_grid_rates' napping Iallgather: SMPI completes
 * a nonblocking collective message by message (at 256 simulated ranks
 * the latter took minutes). Collective over g->all.
 */
#define SLOW_NOISE 1.1
static void measure_slow(const pumma_grid_t *g, pumma_model_t *mo)
{
    enum { N = 256, REPS = 3 };
    mo->slow = 1;
    const pumma_type_t *t = &pumma_type_d;
    const size_t bytes = (size_t)N * N * sizeof(double);
    char *a = malloc(3 * bytes);
    int me, ok = a != NULL, all_ok = 0;
    MPI_Comm_rank(g->all, &me);
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, g->all);
    if (!all_ok) { free(a); return; }
    fill(a, a + bytes, bytes, 0);
    const int n = N;
    double best = 1e30;
    MPI_Barrier(g->all);
    for (int r = 0; r < REPS; r++) {
        const double t0 = now(), c0 = pumma_cpu_time();
        t->gemm("N", "N", &n, &n, &n, t->one, a, &n, a + bytes, &n, t->zero,
                a + 2 * bytes, &n, 1, 1);
        pumma_speed_pad(now() - t0, pumma_cpu_time() - c0, NULL, NULL);
        const double dt = now() - t0;
        if (dt < best) best = dt;
    }
    free(a);
    double mine[2] = {best, me == 0 ? best : 0}, most[2];
    MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, g->all);
    if (most[1] > 0 && most[0] / most[1] >= SLOW_NOISE)
        mo->slow = most[0] / most[1];
}

/*
 * mo->share (pumma_base.h): the grid's processes on this host (MPI's
 * shared-memory split), the distinct grid columns and rows among them,
 * the most over the hosts. Collective over g->all.
 */
static void measure_share(const pumma_grid_t *g, pumma_model_t *mo)
{
    mo->share[0] = mo->share[1] = 1;
    mo->slow = 1;
    int np, nn = 0, here[2] = {0, 0}, most[2];
    MPI_Comm_size(g->all, &np);
    if (np < 2) return;
    MPI_Comm node = MPI_COMM_NULL;
    if (MPI_Comm_split_type(g->all, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS)
        MPI_Comm_size(node, &nn);
    if (nn > 0 && nn < np) {            /* the grid spans hosts */
        int mine[2] = {g->mycol, g->myrow};
        int *all = malloc(sizeof(int) * 2 * (size_t)nn);
        if (all && MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, node) ==
                       MPI_SUCCESS)
            for (int d = 0; d < 2; d++)
                for (int i = 0; i < nn; i++) {
                    int seen = 0;
                    for (int j = 0; j < i && !seen; j++)
                        seen = all[2 * j + d] == all[2 * i + d];
                    here[d] += !seen;
                }
        free(all);
    }
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
    int spans = nn > 0 && nn < np, any = 0;
    MPI_Allreduce(here, most, 2, MPI_INT, MPI_MAX, g->all);
    MPI_Allreduce(&spans, &any, 1, MPI_INT, MPI_MAX, g->all);
    for (int d = 0; d < 2; d++)
        if (most[d] > 1) mo->share[d] = most[d];
    if (any) measure_slow(g, mo);
}

/*
 * mo->fair (pumma_base.h): pumma-tune's measurement, where the decider
 * has the tune file's samples; 0 where PUMMA_MODEL sets the network's
 * values (the closed forms as they stand); else probed between process 0
 * and the tune keys' peer (8 pieces of 128 KiB posted at once, three
 * times: about a millisecond). Process 0's value. Collective over g->all.
 */
static void measure_fair(const pumma_grid_t *g, const pumma_tune_keys_t *k,
                         int env_net, pumma_model_t *mo)
{
    int me, np;
    MPI_Comm_rank(g->all, &me);
    MPI_Comm_size(g->all, &np);
    mo->fair = 0;
    if (np < 2 || env_net) return;
    double f[2] = {0, 0};                /* known, the value */
    if (me == 0 && mo->dec && mo->dec->have_nm)
        f[0] = 1, f[1] = mo->dec->nm.s.fair;
    MPI_Bcast(f, 2, MPI_DOUBLE, 0, g->all);
    if (!f[0]) {
        f[1] = pumma_plogp_fair(g->all, 0, k->peer, 1 << 20);
        MPI_Bcast(&f[1], 1, MPI_DOUBLE, 0, g->all);
    }
    mo->fair = f[1] > 0.5;
}

/* The values PUMMA_MODEL sets into v; which (bit i: value i). */
static unsigned parse_env(double *v)
{
    const pumma_settings_t *s = pumma_setting(PUMMA_SET_MODEL);
    for (int i = 0; i < NVAL; i++)
        if (s->model.set & (1u << i)) v[i] = s->model.v[i];
    return s->model.set;
}

/*
 * The values: PUMMA_MODEL's; else the tune file's for this machine (read
 * by the grid's process 0); else measured -- and then written to the tune
 * file, so that the next program's first call need not measure. Process 0
 * broadcasts what it has, so every process plans with the same numbers.
 */
void pumma_model_measure(const pumma_grid_t *g, pumma_model_t *mo)
{
    /* Defaults: a plausible cluster node, used for any value that cannot
     * be measured (one process: no network). */
    double v[NVAL] = {5e-6, 1e-9, 1.0, 1e-11, 2e-11, 8e-11, 1.6e-10,
                      8.0, 1.0, 2e-10, 6e-10};
    const unsigned all = (1u << NVAL) - 1;
    unsigned set = parse_env(v), file = 0, measured = 0;
    const double t0 = now();
    /* the keys of the tune file: its values' and the decider's samples' */
    pumma_tune_keys_t k;
    pumma_tune_keys(g, &k);
    if ((set & all) != all) {
        int me, np;
        MPI_Comm_rank(g->all, &me);
        MPI_Comm_size(g->all, &np);
        double m[NVAL + 1];
        memcpy(m, v, sizeof(double) * NVAL);
        if (me == 0) file = pumma_tune_read(&k, m) & ~set;
        m[NVAL] = file;
        MPI_Bcast(m, NVAL + 1, MPI_DOUBLE, 0, g->all);
        file = (unsigned)m[NVAL];
        const unsigned have = set | file;
        if ((have & PUMMA_NET_BITS) != PUMMA_NET_BITS && np >= 2) {
            measure_net(g->all, k.peer, m);
            if (me == 0) m[PUMMA_V_OVERLAP] = k.same_host ? 0.0 : 1.0;
            measured |= PUMMA_NET_BITS;
        }
        if ((have & PUMMA_LOCAL_BITS) != PUMMA_LOCAL_BITS) {
            if (me == 0) measure_local(m);
            measured |= PUMMA_LOCAL_BITS;
        }
        if (measured) MPI_Bcast(m, NVAL, MPI_DOUBLE, 0, g->all);
        /* the file gets whole measured parts, PUMMA_MODEL's values aside */
        if (me == 0 && measured) pumma_tune_write(&k, m, measured & ~set);
        for (int i = 0; i < NVAL; i++)
            if (!(set & (1u << i))) v[i] = m[i];
    }
    mo->alpha = v[PUMMA_V_ALPHA];
    mo->beta = v[PUMMA_V_BETA];
    mo->overlap = v[PUMMA_V_OVERLAP] > 1 ? 1 : v[PUMMA_V_OVERLAP];
    for (int i = 0; i < 4; i++) mo->gamma[i] = v[PUMMA_V_GAMMA + i];
    mo->gamma_k = v[PUMMA_V_GAMMA_K];
    mo->gamma_t = v[PUMMA_V_GAMMA_T];
    mo->delta = v[PUMMA_V_DELTA];
    mo->delta_t = v[PUMMA_V_DELTA_T];
    measure_share(g, mo);
    mo->from_env = set & all;
    mo->from_file = file;
    mo->valid = 1;
    /* after the values: the defaults' decisions price with them */
    mo->dec = pumma_decider_load(g, &k, mo);
    measure_fair(g, &k, (set & PUMMA_NET_BITS) == PUMMA_NET_BITS, mo);
    mo->seconds = now() - t0;
    pumma_stats_model(mo);
}

/* The grid's model, measured at its first use (the grid, SRC/comm, holds
 * the value; measuring it is the model's). */
const pumma_model_t *pumma_grid_model(const pumma_grid_t *g)
{
    /* The grid is pumma's own object; its model is filled in once. */
    pumma_grid_t *w = (pumma_grid_t *)g;
    if (!w->model.valid) pumma_model_measure(g, &w->model);
    return &w->model;
}
