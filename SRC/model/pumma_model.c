/*
 * pumma_model.c -- the alpha-beta-gamma machine model behind `auto`,
 * measured on the running machine.
 *
 *   alpha    seconds per message (latency)
 *   beta     seconds per byte sent
 *   gamma    seconds per multiply-add of a large local GEMM, per type
 *   gamma_k  GEMM with a short inner dimension k costs gamma*(1 + gamma_k/k)
 *   gamma_t  GEMM of transposed operands ('T','T') over 'N','N' (a ratio)
 *   delta    seconds per byte of a local copy or add
 *   delta_t  seconds per byte of a local transposing copy
 *
 * Measured once per grid, at the first call that leaves a choice to pumma:
 * a ping-pong between the grid's first two processes, and small GEMMs and
 * copies on its first process, broadcast so every process of the grid
 * plans with the same numbers (they must all choose alike). It takes a few
 * milliseconds. PUMMA_MODEL sets any of the values instead, e.g.
 * PUMMA_MODEL=alpha=2e-6,beta=1e-9; a value it names is not measured.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_comm.h"
#include "pumma_tune.h"

enum { NVAL = PUMMA_NVAL };  /* alpha beta gamma[4] gamma_k gamma_t delta delta_t */

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

static double time_copy(char tr, int n, const char *x, char *y, int reps)
{
    const pumma_type_t *t = &pumma_type_d;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        t->geadd(tr, n, n, t->one, x, n, t->zero, y, n);
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    return best / ((double)n * n * t->size);
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

/* The local part of the measurement (values 2..9), some 25 ms here: a
 * program without a tune file pays it once (then the file has it). D's
 * GEMM, the reference of gamma_k and gamma_t, best of 3 after a warm-up;
 * the other types best of 2 (the first warms up). */
static void measure_local(double *v)
{
    enum { N = 256, KS = 32, REPS = 3, NC = 384, NCOPY = 512 };
    const pumma_type_t *types[4] = {&pumma_type_s, &pumma_type_d,
                                    &pumma_type_c, &pumma_type_z};
    size_t bytes = (size_t)NCOPY * NCOPY * 8;  /* >= N*N complex doubles */
    char *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    if (!a || !b || !c) {
        free(a); free(b); free(c);
        return;                          /* keep the defaults */
    }
    const double ma = (double)N * N * N;
    for (int single = 1; single >= 0; single--) {
        fill(a, b, bytes, single);
        for (int i = 0; i < 4; i++) {
            const int s1 = types[i]->letter == 'S' || types[i]->letter == 'C';
            if (s1 != single) continue;
            if (types[i]->letter == 'D')
                time_gemm(types[i], 'N', N, N, N, a, b, c, 1);   /* warm up */
            v[2 + i] = time_gemm(types[i], 'N', N, N, N, a, b, c,
                                 types[i]->letter == 'D' ? REPS : 2) / ma;
        }
    }
    const pumma_type_t *d = &pumma_type_d;
    double g = v[3];
    double gs = time_gemm(d, 'N', N, N, KS, a, b, c, REPS * 4) /
                ((double)N * N * KS);
    v[6] = gs > g ? (gs / g - 1.0) * KS : 0.0;
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
    v[7] = gt / gn;
    /* copies at 512 (2 MB): a transposing copy of a cache-sized 384 runs
     * three times faster than those of the algorithms' panels */
    v[8] = time_copy('N', NCOPY, a, b, REPS);
    v[9] = time_copy('T', NCOPY, a, b, REPS);
    free(a); free(b); free(c);
}

/* Ping-pong between ranks 0 and 1 of comm: alpha and beta. */
static void measure_net(MPI_Comm comm, double *v)
{
    enum { BIG = 1 << 20, REPS = 15 };   /* best of: kept in the tune file */
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    if (np < 2 || me > 1) return;
    char *buf = calloc(1, BIG);
    if (!buf) return;                  /* both sides agree: same size */
    int peer = 1 - me;
    double t[2];
    const int sizes[2] = {8, BIG};
    for (int s = 0; s < 2; s++) {
        double best = 1e30;
        for (int r = 0; r < REPS + 1; r++) {
            double t0 = now();
            if (me == 0) {
                MPI_Send(buf, sizes[s], MPI_BYTE, peer, PUMMA_TAG_MODEL, comm);
                MPI_Recv(buf, sizes[s], MPI_BYTE, peer, PUMMA_TAG_MODEL, comm,
                         MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, sizes[s], MPI_BYTE, peer, PUMMA_TAG_MODEL, comm,
                         MPI_STATUS_IGNORE);
                MPI_Send(buf, sizes[s], MPI_BYTE, peer, PUMMA_TAG_MODEL, comm);
            }
            double dt = (now() - t0) / 2;
            if (r > 0 && dt < best) best = dt;     /* r = 0 warms up */
        }
        t[s] = best;
    }
    free(buf);
    v[0] = t[0];
    v[1] = t[1] > t[0] ? (t[1] - t[0]) / (BIG - 8) : 1e-12;
}


/*
 * PUMMA_MODEL=name=value,...: the values it sets, read once. Every item
 * must name a value and give it as a number from 0 to MODEL_MAX: a
 * typo must not leave a value measured while the user believes it set.
 * MODEL_MAX is far above any real machine's figure (seconds per message,
 * byte or multiply-add, or ratios near 1 and 8) and keeps every cost
 * finite: sizes enter as at most (2^31)^3 ~ 1e28 multiply-adds.
 */
#define MODEL_MAX 1e10
static int env_read = 0;
static unsigned env_set = 0;           /* bit i: value i given */
static double env_val[NVAL];

static int model_item(const char *tok, void *ctx)
{
    const char *eq = strchr(tok, '=');
    size_t len = eq ? (size_t)(eq - tok) : 0;
    int i;
    (void)ctx;
    if (!eq) return -1;
    for (i = 0; i < NVAL; i++)
        if (strlen(pumma_model_name(i)) == len &&
            !strncmp(pumma_model_name(i), tok, len))
            break;
    if (i == NVAL && len == 5 && !strncmp(tok, "gamma", 5)) i = 3;   /* D's */
    if (i == NVAL ||
        pumma_env_parse_double(eq + 1, 0, MODEL_MAX, &env_val[i]))
        return -1;
    env_set |= 1u << i;
    return 0;
}

void pumma_model_env_check(void)
{
    if (env_read) return;
    const char *e = pumma_env_get("PUMMA_MODEL");
    if (e && pumma_env_items(e, model_item, NULL)) {
        char expect[256];
        int at = snprintf(expect, sizeof expect,
                          "name=value,... with each value a number from 0 "
                          "to 1e10 and names");
        for (int j = 0; j < NVAL && at < (int)sizeof expect; j++)
            at += snprintf(expect + at, sizeof expect - (size_t)at, " %s",
                           pumma_model_name(j));
        if (at < (int)sizeof expect)
            snprintf(expect + at, sizeof expect - (size_t)at,
                     " (gamma = gamma_d)");
        pumma_env_bad("PUMMA_MODEL", e, expect);
    }
    env_read = 1;
}

/* The values PUMMA_MODEL sets into v; which (bit i: value i). */
static unsigned parse_env(double *v)
{
    pumma_model_env_check();
    for (int i = 0; i < NVAL; i++)
        if (env_set & (1u << i)) v[i] = env_val[i];
    return env_set;
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
    double v[NVAL] = {5e-6, 1e-9, 1e-11, 2e-11, 8e-11, 1.6e-10,
                      8.0, 1.0, 2e-10, 6e-10};
    const unsigned all = (1u << NVAL) - 1;
    unsigned set = parse_env(v), file = 0, measured = 0;
    const double t0 = now();
    if ((set & all) != all) {
        int me, np;
        MPI_Comm_rank(g->all, &me);
        MPI_Comm_size(g->all, &np);
        pumma_tune_keys_t k;
        pumma_tune_keys(g, &k);
        double m[NVAL + 1];
        memcpy(m, v, sizeof(double) * NVAL);
        if (me == 0) file = pumma_tune_read(&k, m) & ~set;
        m[NVAL] = file;
        MPI_Bcast(m, NVAL + 1, MPI_DOUBLE, 0, g->all);
        file = (unsigned)m[NVAL];
        const unsigned have = set | file;
        if ((have & 3u) != 3u && np >= 2) {
            measure_net(g->all, m);
            measured |= 3u;
        }
        if ((have & ~3u & all) != (~3u & all)) {
            if (me == 0) measure_local(m);
            measured |= ~3u & all;
        }
        if (measured) MPI_Bcast(m, NVAL, MPI_DOUBLE, 0, g->all);
        /* the file gets whole measured parts, PUMMA_MODEL's values aside */
        if (me == 0 && measured) pumma_tune_write(&k, m, measured & ~set);
        for (int i = 0; i < NVAL; i++)
            if (!(set & (1u << i))) v[i] = m[i];
    }
    mo->alpha = v[0];
    mo->beta = v[1];
    for (int i = 0; i < 4; i++) mo->gamma[i] = v[2 + i];
    mo->gamma_k = v[6];
    mo->gamma_t = v[7];
    mo->delta = v[8];
    mo->delta_t = v[9];
    mo->seconds = now() - t0;
    mo->from_env = set & all;
    mo->from_file = file;
    mo->valid = 1;
    pumma_stats_model(mo);
}

/* ------------------------------------------------- costs shared by all */

double pumma_model_msg(const pumma_model_t *mo, double bytes)
{
    return mo->alpha + mo->beta * bytes;
}

int pumma_model_log2(int np)
{
    int d = 0;
    while ((1 << d) < np) d++;
    return d;
}

static int type_slot(const pumma_type_t *t)
{
    return t->is_complex ? (t->size == 8 ? 2 : 3) : (t->size == 4 ? 0 : 1);
}

double pumma_model_gemm(const pumma_model_t *mo, const pumma_type_t *t,
                        double m, double n, double k, int transposed)
{
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    double g = mo->gamma[type_slot(t)] * (1.0 + mo->gamma_k / k);
    return g * m * n * k * (transposed ? mo->gamma_t : 1.0);
}

double pumma_model_copy(const pumma_model_t *mo, double bytes, int transposed)
{
    return bytes * (transposed ? mo->delta_t : mo->delta);
}

/* Pieces of a segmented collective (as pumma_bcast_tree.c cuts them). */
int pumma_model_pieces(double bytes, double seg_bytes)
{
    if (seg_bytes <= 0 || seg_bytes >= bytes) return 1;
    double n = ceil(bytes / seg_bytes);
    return n > 256 ? 256 : (int)n;
}

double pumma_model_redist(const pumma_model_t *mo, int np, double bytes,
                          int transposed)
{
    double net = np > 1 ? mo->alpha * (np - 1) + mo->beta * bytes * (np - 1) / np
                        : 0;
    return net + pumma_model_copy(mo, bytes, transposed) +
           pumma_model_copy(mo, bytes, 0);
}
