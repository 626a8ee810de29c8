/*
 * pumma_netmodel.c -- what one message costs under each of the four
 * point-to-point models, the fits of Hockney, LogP and LogGP to measured
 * pLogP samples, and the closed forms that check the simulator
 * (pumma_model.h).
 *
 * The models, for a message of m bytes (Nasri, Steffenel and Trystram
 * 2007, Table 1):
 *   Hockney  alpha + beta*m; the sender is blocked all along (a send is a
 *            transfer: two in a row cost twice one).
 *   LogP     fixed-size packets of w bytes: ceil(m/w) of them, each costing
 *            its sender and its receiver o, spaced by max(g, o), plus L.
 *   LogGP    one message: o + (m-1)*G + L + o; the sender's next message
 *            starts g + (m-1)*G after it (Alexandrov et al.).
 *   pLogP    measured functions of m: os(m), or(m), g(m) and L; a message
 *            is complete g(m) + L after its start, the next may start g(m)
 *            after it (Kielmann et al.; Table 3 of Nasri, Steffenel and
 *            Trystram 2007 rests on this).
 *   pLogPC   pLogP's message, its receive overhead charged to the receiver,
 *            on processors the processes of a node share (pumma_sim.c).
 */
#include <math.h>
#include <string.h>

#include "pumma_model.h"

static const char *const names[PUMMA_NM_COUNT] = {"hockney", "logp", "loggp",
                                                  "plogp", "plogpc"};

const char *pumma_nm_name(int kind)
{
    return kind >= 0 && kind < PUMMA_NM_COUNT ? names[kind] : "?";
}

int pumma_nm_find(const char *name)
{
    for (int i = 0; i < PUMMA_NM_COUNT; i++)
        if (pumma_name_eq(names[i], name)) return i;
    return -1;
}

double pumma_plogp_at(const pumma_plogp_t *s, const double *x, double m)
{
    if (s->n <= 0) return 0;
    if (s->n == 1 || m <= s->m[0]) return x[0];
    int i = 1;
    while (i < s->n - 1 && s->m[i] < m) i++;
    /* m in (m[i-1], m[i]], or beyond the last: along the last two */
    double slope = (x[i] - x[i - 1]) / (s->m[i] - s->m[i - 1]);
    if (m > s->m[i] && slope < 0) slope = 0;
    double v = x[i - 1] + slope * (m - s->m[i - 1]);
    return v > 0 ? v : 0;
}

void pumma_nm_msg(const pumma_netmodel_t *nm, int kind, double m,
                  pumma_nm_cost_t *c)
{
    if (m < 0) m = 0;
    switch (kind) {
    case PUMMA_NM_HOCKNEY:
        c->busy = c->gap = c->arrive = nm->alpha + nm->beta * m;
        return;
    case PUMMA_NM_LOGP: {
        double k = nm->w > 0 ? ceil(m / nm->w) : 1;
        if (k < 1) k = 1;
        double step = nm->g > nm->o ? nm->g : nm->o;
        c->busy = k * nm->o;
        c->gap = k * step;
        c->arrive = (k - 1) * step + 2 * nm->o + nm->L;
        return;
    }
    case PUMMA_NM_LOGGP: {
        double extra = (m > 1 ? m - 1 : 0) * nm->gG;
        c->busy = nm->gO;
        c->gap = nm->gg + extra;
        if (c->gap < c->busy) c->gap = c->busy;
        c->arrive = 2 * nm->gO + extra + nm->gL;
        return;
    }
    default: {                                       /* pLogP */
        const pumma_plogp_t *s = &nm->s;
        double g = pumma_plogp_at(s, s->g, m);
        double os = pumma_plogp_at(s, s->os, m);
        c->busy = os < g ? os : g;
        c->gap = g;
        c->arrive = g + s->L;
        return;
    }
    }
}

/* ----------------------------------------------------------------- fits */

/* One-way time of a sampled message: rtt(m) is m bytes there and none
 * back, so T(m) = rtt(m) - rtt(0)/2, the empty reply's share taken as
 * half the least round trip sampled (rtt(0) alone can be an outlier, as
 * 40 us against 20 us at 512 B over TCP here, and a one-way time near
 * zero would then weigh on the relative fits above all others), and no
 * less than that share. */
static double oneway(const pumma_plogp_t *s, int i)
{
    double z = s->rtt[0];
    for (int j = 1; j < s->n; j++)
        if (s->rtt[j] < z) z = s->rtt[j];
    z /= 2;
    const double t = s->rtt[i] - z;
    return t > z ? t : z;
}

/* Relative squared error of a prediction (the samples span five decades:
 * absolute errors would fit the largest messages only). */
static double rel2(double pred, double meas)
{
    if (meas <= 0) return 0;
    double e = (pred - meas) / meas;
    return e * e;
}

/* Hockney: alpha + beta*m by least squares relative to T(m). */
static void fit_hockney(pumma_netmodel_t *nm)
{
    const pumma_plogp_t *s = &nm->s;
    double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
    for (int i = 0; i < s->n; i++) {
        double t = oneway(s, i), w = t > 0 ? 1 / (t * t) : 0;
        a11 += w;
        a12 += w * s->m[i];
        a22 += w * s->m[i] * s->m[i];
        b1 += w * t;
        b2 += w * t * s->m[i];
    }
    double det = a11 * a22 - a12 * a12;
    double alpha = det != 0 ? (b1 * a22 - b2 * a12) / det : oneway(s, 0);
    double beta = det != 0 ? (a11 * b2 - a12 * b1) / det : 0;
    if (alpha < 0 || beta < 0) {         /* the constrained optimum */
        if (alpha < 0) {
            alpha = 0;
            beta = a22 > 0 ? b2 / a22 : 0;
        } else {
            beta = 0;
            alpha = a11 > 0 ? b1 / a11 : 0;
        }
        if (beta < 0) beta = 0;
    }
    nm->alpha = alpha;
    nm->beta = beta;
}

/* The error of model `kind` over the samples: one-way times and gaps. */
static double fit_error(const pumma_netmodel_t *nm, int kind)
{
    const pumma_plogp_t *s = &nm->s;
    double e = 0;
    for (int i = 0; i < s->n; i++) {
        pumma_nm_cost_t c;
        pumma_nm_msg(nm, kind, s->m[i], &c);
        e += rel2(c.arrive, oneway(s, i)) + rel2(c.gap, s->g[i]);
    }
    return e;
}

/* LogP: for each packet size w (powers of two), o, g and L measured at w;
 * the w whose model errs least over all sizes. */
static void fit_logp(pumma_netmodel_t *nm)
{
    const pumma_plogp_t *s = &nm->s;
    double best = INFINITY, mmax = s->m[s->n - 1];
    pumma_netmodel_t t = *nm;
    for (double w = 1; w <= (mmax > 1 ? mmax : 1); w *= 2) {
        t.w = w;
        t.o = (pumma_plogp_at(s, s->os, w) + pumma_plogp_at(s, s->orv, w)) / 2;
        t.g = pumma_plogp_at(s, s->g, w);
        /* one packet: rtt(w) = 2(2o + L) with the reply's packet */
        double L = (pumma_plogp_at(s, s->rtt, w) +
                    pumma_plogp_at(s, s->rtt, 0)) / 4 - 2 * t.o;
        t.L = L > 0 ? L : 0;
        double e = fit_error(&t, PUMMA_NM_LOGP);
        if (e < best) {
            best = e;
            nm->w = t.w;
            nm->o = t.o;
            nm->g = t.g;
            nm->L = t.L;
        }
    }
}

/* LogGP: o, g and L from the smallest message; G from the gaps of all
 * sizes, g(m) ~ g + (m-1)*G by least squares relative to g(m). */
static void fit_loggp(pumma_netmodel_t *nm)
{
    const pumma_plogp_t *s = &nm->s;
    nm->gO = (s->os[0] + s->orv[0]) / 2;
    nm->gg = s->g[0];
    double L = s->rtt[0] / 2 - 2 * nm->gO;
    nm->gL = L > 0 ? L : 0;
    double num = 0, den = 0;
    for (int i = 0; i < s->n; i++) {
        double x = s->m[i] > 1 ? s->m[i] - 1 : 0, y = s->g[i] - nm->gg;
        if (x <= 0 || s->g[i] <= 0) continue;
        double w = 1 / (s->g[i] * s->g[i]);
        num += w * x * y;
        den += w * x * x;
    }
    nm->gG = den > 0 && num > 0 ? num / den : 0;
}

void pumma_nm_fit(pumma_netmodel_t *nm)
{
    if (nm->s.n < 1) return;
    fit_hockney(nm);
    fit_logp(nm);
    fit_loggp(nm);
}

void pumma_nm_synthesize(pumma_netmodel_t *nm, int kind, double max_bytes)
{
    pumma_plogp_t *s = &nm->s;
    pumma_nm_cost_t z, c;
    s->n = 0;
    pumma_nm_msg(nm, kind, 0, &z);
    for (double m = 0; m <= max_bytes && s->n < PUMMA_PLOGP_MAXS;
         m = m > 0 ? 2 * m : 1) {
        pumma_nm_msg(nm, kind, m, &c);
        const int i = s->n++;
        s->m[i] = m;
        s->g[i] = c.gap;
        s->os[i] = c.busy;
        /* a receive costs its receiver what a send costs its sender in
         * LogP/LogGP; Hockney and pLogP leave it inside the transfer */
        s->orv[i] = kind == PUMMA_NM_LOGP || kind == PUMMA_NM_LOGGP ? c.busy
                                                                  : 0;
        s->rtt[i] = c.arrive + z.arrive;
    }
    s->L = s->rtt[0] / 2 - s->g[0];
    if (s->L < 0) s->L = 0;
}

/* --------------------------------------------------------- closed forms */

static int ceil_log2(int np)
{
    int d = 0;
    while ((1 << d) < np) d++;
    return d;
}

/* Table 3, linear: L + (P-1) g(m); in general the last of P-1 sends,
 * spaced by the gap, plus its transfer. */
double pumma_closed_linear(const pumma_netmodel_t *nm, int kind, int np,
                           double m)
{
    pumma_nm_cost_t c;
    if (np <= 1) return 0;
    pumma_nm_msg(nm, kind, m, &c);
    return (np - 2) * c.gap + c.arrive;
}

/* Table 3, segmented chain: (P-1)(g(s) + L) + g(s)(k-1). */
double pumma_closed_chain(const pumma_netmodel_t *nm, int kind, int np,
                          double s, int k)
{
    pumma_nm_cost_t c;
    if (np <= 1 || k <= 0) return 0;
    pumma_nm_msg(nm, kind, s, &c);
    return (np - 1) * c.arrive + (k - 1) * c.gap;
}

/* Table 3, binary: at most ceil(log2 P) (2 g(m) + L): per level the
 * second child's message. */
double pumma_closed_binary(const pumma_netmodel_t *nm, int kind, int np,
                           double m)
{
    pumma_nm_cost_t c;
    if (np <= 1) return 0;
    pumma_nm_msg(nm, kind, m, &c);
    return ceil_log2(np) * (c.gap + c.arrive);
}

/* Table 3, binomial: ceil(log2 P) L + floor(log2 P) g(m) under pLogP,
 * ceil(log2 P) transfers under the others. Exact for P a power of two
 * when the largest subtree is served first (and, under Hockney, for any
 * P); otherwise the table's own approximation. */
double pumma_closed_binomial(const pumma_netmodel_t *nm, int kind, int np,
                             double m)
{
    pumma_nm_cost_t c;
    if (np <= 1) return 0;
    pumma_nm_msg(nm, kind, m, &c);
    int up = ceil_log2(np), down = (1 << up) == np ? up : up - 1;
    if (kind != PUMMA_NM_PLOGP && kind != PUMMA_NM_PLOGPC)
        return up * c.arrive;
    return up * nm->s.L + down * c.gap;
}

int pumma_nm_measure_local(MPI_Comm comm, int peer, double max_bytes,
                           double budget, pumma_netmodel_t *nm,
                           pumma_netmodel_t *in)
{
    nm->local = NULL;
    nm->per = 0;
    memset(in, 0, sizeof *in);
    if (peer <= 1) return PUMMA_OK;
    const int rc = pumma_plogp_measure(comm, 0, 1, max_bytes, budget, &in->s);
    if (rc) return rc;
    pumma_nm_fit(in);
    in->add = nm->add;
    in->s.cores = nm->s.cores;
    in->s.ppn = nm->s.ppn;
    nm->local = in;
    nm->per = peer;
    return PUMMA_OK;
}
