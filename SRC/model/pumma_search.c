/*
 * pumma_search.c -- choosing a broadcast's or reduce's variant and segment
 * size by experiment (pumma_model.h, "search"): the candidates, the
 * timing of one, and four searches over them -- exhaustive, modified
 * gradient descent (MGD), scanning MGD (SMGD; Vadhiyar, Fagg and Dongarra
 * 2004, section 3.2) and a search guided by the simulator's predictions.
 *
 * Along the segment axis each variant's candidates run from the largest
 * piece (the whole message) down to 1 KiB by halves, as Fig. 2 of Vadhiyar,
 * Fagg and Dongarra 2004 draws them: time first falls as pieces overlap,
 * then rises as their number grows. An experiment costs more the smaller
 * its pieces, which is why the descents start at the large end.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_model.h"

#define SEG_MIN 1024.0

int pumma_search_cands(pumma_table_kind_t op, double bytes, int model_only,
                       pumma_cand_t *c, int max)
{
    int n = 0;
    const pumma_coll_ops_t *v;
    for (int i = 0; (v = pumma_comm_at(op, i)) != NULL; i++) {
        if (model_only && !pumma_sim_knows(v)) continue;
        if (v->asked_only) continue;
        /* hier is another variant's choice on one cluster, and on several
         * priced by its own plan: nothing of its own to measure */
        if (strcmp(v->name, "hier") == 0) continue;
        const double def = v->seg_default;
        /* 0 (the default) first when it is the whole message */
        if (def <= 0 || bytes <= def) {
            if (n == max) return n;
            c[n].v = v;
            c[n].seg = 0;
            c[n++].variant = i;
        }
        if (def < 0) continue;
        double top = SEG_MIN;
        while (top * 2 < bytes) top *= 2;
        for (double s = top; s >= SEG_MIN && s < bytes; s /= 2) {
            if (bytes / s > PUMMA_MAX_PIECES) break;
            if (n == max) return n;
            c[n].v = v;
            c[n].seg = s;
            c[n++].variant = i;
        }
    }
    return n;
}

double pumma_search_predict(const pumma_netmodel_t *nm, int kind,
                            pumma_table_kind_t op, int np, double bytes,
                            int esize, const pumma_cand_t *c)
{
    return op == PUMMA_BCAST_TABLE
               ? pumma_sim_bcast(c->v, nm, kind, np, 0, bytes, c->seg, esize)
               : pumma_sim_reduce(c->v, nm, kind, np, 0, bytes, c->seg,
                                  esize);
}

/* ---------------------------------------------------------- the timing */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double pumma_time_coll_once(const pumma_coll_ops_t *v, MPI_Comm comm,
                            double bytes, double seg, void *buf, void *sum)
{
    pumma_coll_t co;
    memset(&co, 0, sizeof co);
    co.buf = buf;
    co.rbuf = sum;
    co.count = bytes >= 8 ? (int64_t)(bytes / 8) : 1;
    co.dt = MPI_DOUBLE;
    co.t = &pumma_type_d;
    co.root = 0;
    co.comm = comm;
    co.tag = 9;
    co.segment = seg > 0 ? (int)fmin(fmax(seg / 8, 1), INT_MAX) : 0;
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    v->start(&co);
    v->wait(&co);
    return MPI_Wtime() - t0;
}

double pumma_slowest_median(double *t, int n, MPI_Comm comm)
{
    double med, worst;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    med = t[n / 2];
    MPI_Allreduce(&med, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);
    return worst;
}

double pumma_time_coll(const pumma_coll_ops_t *v, MPI_Comm comm,
                       double bytes, double seg, int reps, void *buf,
                       void *sum)
{
    double t[64];
    if (reps > 64) reps = 64;
    if (reps < 1) reps = 1;
#ifdef PUMMA_SMPI
    const int warm = 0;      /* simulated (pure mode): times repeat exactly */
#else
    const int warm = 2;
#endif
    for (int r = -warm; r < reps; r++) {
        const double x = pumma_time_coll_once(v, comm, bytes, seg, buf, sum);
        if (r >= 0) t[r] = x;
    }
    return pumma_slowest_median(t, reps, comm);
}

/* ---------------------------------------------------------- the searches */

/* One experiment, counted (each candidate measured once at most). */
static double try_one(pumma_search_t *s, int i)
{
    if (s->t[i] >= 0) return s->t[i];
    s->t[i] = s->measure(s->ctx, &s->c[i]);
    s->experiments++;
    if (s->t[i] < s->t[s->best] || s->t[s->best] < 0) s->best = i;
    return s->t[i];
}

static void reset(pumma_search_t *s)
{
    for (int i = 0; i < s->n; i++) s->t[i] = -1;
    s->experiments = 0;
    s->best = 0;
}

void pumma_search_exhaustive(pumma_search_t *s)
{
    reset(s);
    for (int i = 0; i < s->n; i++) try_one(s, i);
}

/* The candidates of variant v: [*lo, *hi). */
static void span(const pumma_search_t *s, int v, int *lo, int *hi)
{
    *lo = 0;
    while (*lo < s->n && s->c[*lo].variant != v) (*lo)++;
    *hi = *lo;
    while (*hi < s->n && s->c[*hi].variant == v) (*hi)++;
}

/*
 * MGD down one variant's segments from the largest: go on while the time
 * falls; past a minimum, look `ahead` more steps before stopping (Vadhiyar,
 * Fagg and Dongarra 2004: the curves have several local minima near the
 * best). Stops early, too, when the time has risen above `cut` (the best
 * any variant has): smaller pieces only cost more from there.
 */
static void descend(pumma_search_t *s, int lo, int hi, int ahead, double cut)
{
    double best = INFINITY;
    int since = 0;
    for (int i = lo; i < hi; i++) {
        const double t = try_one(s, i);
        if (t < best) {
            best = t;
            since = 0;
        } else if (++since > ahead || (cut > 0 && t > cut * 1.5)) {
            break;
        }
    }
}

void pumma_search_mgd(pumma_search_t *s)
{
    reset(s);
    const int nv = s->c[s->n - 1].variant + 1;
    for (int v = 0; v < nv; v++) {
        int lo, hi;
        span(s, v, &lo, &hi);
        if (lo < hi) descend(s, lo, hi, 2, 0);
    }
}

/*
 * SMGD: first a scan -- every variant at its two largest segments, which
 * gives its time and the slope of its curve; then MGD over the variants in
 * the order of the time the slope predicts they reach, skipping those that
 * even on that prediction cannot come within `threshold` of the best
 * measured so far (the pruning, in Vadhiyar, Fagg and Dongarra 2004, of
 * methods considerably worse than the others), and with one step of
 * look-ahead instead of two.
 */
void pumma_search_smgd(pumma_search_t *s)
{
    enum { MAXV = 64 };
    const double threshold = 1.25;
    reset(s);
    const int nv = s->c[s->n - 1].variant + 1;
    struct order { int v, lo, hi; double hope; } o[MAXV];
    int no = 0;
    for (int v = 0; v < nv && no < MAXV; v++) {
        int lo, hi;
        span(s, v, &lo, &hi);
        if (lo == hi) continue;
        const double t0 = try_one(s, lo);
        double hope = t0;
        if (hi - lo > 1) {
            const double t1 = try_one(s, lo + 1);
            /* halving the piece gained t0 - t1; if each further halving
             * gains half as much again, the curve flattens at t1 - (t0 -
             * t1): the most it may still gain */
            hope = t1 < t0 ? t1 - (t0 - t1) : t1;
            if (hope < 0.5 * t1) hope = 0.5 * t1;
        }
        o[no].v = v;
        o[no].lo = lo;
        o[no].hi = hi;
        o[no++].hope = hope;
    }
    for (int i = 1; i < no; i++)               /* by hope, insertion sort */
        for (int j = i; j > 0 && o[j].hope < o[j - 1].hope; j--) {
            const struct order x = o[j];
            o[j] = o[j - 1];
            o[j - 1] = x;
        }
    for (int i = 0; i < no; i++) {
        if (o[i].hope > threshold * s->t[s->best]) continue;
        if (o[i].hi - o[i].lo > 2) descend(s, o[i].lo, o[i].hi, 1,
                                           s->t[s->best]);
    }
}

/*
 * Model-guided: every candidate predicted by the simulator; measured are
 * the predicted best candidate of each of the `k` variants predicted
 * fastest -- one per variant, since a model's errors are the variant's
 * (its shape) more than the segment's -- then the neighbouring segments
 * (one larger, one smaller) of the fastest of those measured, which
 * covers a model that places a curve's minimum one halving off.
 */
void pumma_search_model(pumma_search_t *s, const pumma_netmodel_t *nm,
                        int kind, int k)
{
    reset(s);
    double *p = malloc(sizeof(double) * (size_t)s->n);
    int *order = malloc(sizeof(int) * (size_t)s->n);
    if (!p || !order) {
        free(p);
        free(order);
        pumma_search_exhaustive(s);
        return;
    }
    for (int i = 0; i < s->n; i++) {
        p[i] = pumma_sim_knows(s->c[i].v)
                   ? pumma_search_predict(nm, kind, s->op, s->np, s->bytes,
                                          s->esize, &s->c[i])
                   : -1;
        order[i] = i;
    }
    /* MPI's own variants, where the simulator does not know their
     * schedule (pumma_sim_knows): each is measured, as one candidate */
    for (int i = 0; i < s->n; i++)
        if (p[i] < 0) try_one(s, i);
    /* each variant's predicted best candidate, the variants in order */
    int nv = 0;
    for (int i = 0; i < s->n; i++) {
        if (p[i] < 0) continue;
        int j = 0;
        while (j < nv && s->c[order[j]].variant != s->c[i].variant) j++;
        if (j == nv) order[nv++] = i;
        else if (p[i] < p[order[j]]) order[j] = i;
    }
    for (int i = 1; i < nv; i++)
        for (int j = i; j > 0 && p[order[j]] < p[order[j - 1]]; j--) {
            const int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    int best = -1;
    for (int r = 0; r < k && r < nv; r++) {
        const int i = order[r];
        if (try_one(s, i) >= 0 && (best < 0 || s->t[i] < s->t[best]))
            best = i;
    }
    if (best >= 0) {
        if (best > 0 && s->c[best - 1].variant == s->c[best].variant)
            try_one(s, best - 1);
        if (best + 1 < s->n && s->c[best + 1].variant == s->c[best].variant)
            try_one(s, best + 1);
    }
    free(p);
    free(order);
}

/* ------------------------------------------------------- the poly-model */

const double pumma_poly_class_lo[PUMMA_POLY_NCLASS] = {0, 8192, 262144};

int pumma_poly_class(double bytes)
{
    int c = 0;
    while (c + 1 < PUMMA_POLY_NCLASS && bytes >= pumma_poly_class_lo[c + 1]) c++;
    return c;
}

/*
 * The collectives the models are chosen on, three per size class, in
 * order: trees, chains and a flat tree, whole and cut, broadcasts and
 * reduces -- the regimes the models differ on, few and small enough to
 * measure in well under a second on a shared-memory node. The chain of tiny messages is
 * where shared processors show most (each hop waits for its process).
 */
static const struct { pumma_table_kind_t op; const char *v; double bytes, seg; }
    training[PUMMA_POLY_NTRAIN] = {
        {PUMMA_BCAST_TABLE, "ring-inc", 8, 0},
        {PUMMA_BCAST_TABLE, "binomial", 1024, 0},
        {PUMMA_REDUCE_TABLE, "direct", 512, 0},
        {PUMMA_BCAST_TABLE, "binomial", 16384, 0},
        {PUMMA_BCAST_TABLE, "linear", 65536, 0},
        {PUMMA_REDUCE_TABLE, "direct", 65536, 0},
        {PUMMA_BCAST_TABLE, "linear", 262144, 0},
        {PUMMA_BCAST_TABLE, "pipeline", 1048576, 65536},
        {PUMMA_REDUCE_TABLE, "ring", 1048576, 65536}};

static pumma_cand_t training_cand(int i, double maxb, double *bytes)
{
    *bytes = fmin(training[i].bytes, maxb);
    return (pumma_cand_t){pumma_comm_find(training[i].op, training[i].v),
                          *bytes > training[i].seg ? training[i].seg : 0, 0};
}

void pumma_poly_predict(const pumma_netmodel_t *nm, int kind, int np,
                        double maxb, double *t)
{
    for (int i = 0; i < PUMMA_POLY_NTRAIN; i++) {
        double bytes;
        const pumma_cand_t c = training_cand(i, maxb, &bytes);
        t[i] = pumma_search_predict(nm, kind, training[i].op, np, bytes, 8, &c);
    }
}

/* Model kind's mean relative error on the training collectives of class
 * c (all of them: c < 0). */
static double mean_error(const pumma_netmodel_t *nm, int kind, int np,
                         double maxb, const double *t, int c)
{
    double p[PUMMA_POLY_NTRAIN], e = 0;
    int n = 0;
    pumma_poly_predict(nm, kind, np, maxb, p);
    for (int i = 0; i < PUMMA_POLY_NTRAIN; i++)
        if (c < 0 || pumma_poly_class(training[i].bytes) == c) {
            e += fabs(p[i] - t[i]) / t[i];
            n++;
        }
    return n ? e / n : 0;
}

void pumma_poly_fit(pumma_netmodel_t *nm, int np, double maxb, const double *t,
                    double err[PUMMA_POLY_NCLASS][PUMMA_NM_COUNT],
                    int best[PUMMA_POLY_NCLASS])
{
    /* wake matters only where a node has more processes than processors */
    const double per = nm->s.ppn >= 1 && nm->s.ppn < np ? nm->s.ppn : np;
    const int nwake = nm->s.cores > 0 && per > nm->s.cores ? 9 : 1;
    double best_e = INFINITY, best_theta = 0, best_wake = 0;
    for (int w = 0; w < nwake; w++)
        for (int j = 0; j <= 10; j++) {
            nm->s.wake = w ? 0.5e-6 * (1 << (w - 1)) : 0;  /* 0, 0.5 .. 64 us */
            nm->s.theta = j / 10.0;
            const double e = mean_error(nm, PUMMA_NM_PLOGPC, np, maxb, t, -1);
            if (e < best_e - 1e-12)
                best_e = e, best_theta = nm->s.theta, best_wake = nm->s.wake;
        }
    nm->s.theta = best_theta;
    nm->s.wake = best_wake;
    for (int c = 0; c < PUMMA_POLY_NCLASS; c++) {
        for (int k = 0; k < PUMMA_NM_COUNT; k++)
            err[c][k] = mean_error(nm, k, np, maxb, t, c);
        best[c] = PUMMA_NM_PLOGP;     /* ties: pLogP, the most detailed */
        for (int k = 0; k < PUMMA_NM_COUNT; k++)
            if (err[c][k] < err[c][best[c]]) best[c] = k;
    }
}

void pumma_poly_choose(MPI_Comm comm, pumma_netmodel_t *nm, double maxb,
                       int reps, void *buf, void *sum,
                       double err[PUMMA_POLY_NCLASS][PUMMA_NM_COUNT],
                       int best[PUMMA_POLY_NCLASS])
{
    int np;
    MPI_Comm_size(comm, &np);
    double t[PUMMA_POLY_NTRAIN];
    for (int i = 0; i < PUMMA_POLY_NTRAIN; i++) {
        double bytes;
        const pumma_cand_t c = training_cand(i, maxb, &bytes);
        t[i] = pumma_time_coll(c.v, comm, bytes, c.seg, reps, buf, sum);
    }
    pumma_poly_fit(nm, np, maxb, t, err, best);
}
