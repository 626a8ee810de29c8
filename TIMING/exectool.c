/*
 * exectool.c -- the execution-time models of Ichikawa and Kawai 2008
 * built from xexectim's runs, judged, and asked: make exec's analysis and
 * the recommendation tool (doc/models.md).
 *
 *   xexectool configs KINDS MAXNP
 *       every configuration of KINDS with at most MAXNP processes, one
 *       line each: LABEL SPEEDS MAP (PUMMA_SPEEDS of its ranks, and the
 *       processor each rank runs on, as netns.sh's NETNS_OF takes it)
 *   xexectool fit KINDS BUILD CSV [MODELS]
 *       the models from the rows of CSV at the sizes BUILD (N,N,..):
 *       NP-T per kind, processes per processor and algorithm from the
 *       homogeneous configurations (one kind only; pumma_npt_fit, a cast
 *       element priced as a rolled one), N-T per configuration, grid and
 *       algorithm; printed, and written to MODELS
 *   xexectool eval KINDS BUILD CSV [OUT PLATFORM]
 *       fit as above, then for every other size of CSV: the measured
 *       optimum, the optimum each model estimates among the measured
 *       configurations, and the estimation error of Ichikawa and Kawai
 *       2008, (tau - T)/T. OUT: the same as rows
 *       platform,size,model,chosen,chosen_s,best,best_s (model n-t or
 *       np-t; chosen: what the model estimates fastest, chosen_s its
 *       measured time; best: the fastest measured; configurations as
 *       LABEL/PxQ, /ALGO added when CSV has more than one algorithm):
 *       make -C TIMING models-smpi's out/exec-smpi.csv
 *   xexectool synth KINDS MAXNP SIZES MODELS
 *       for the tests: the CSV xexectim would write on a machine that
 *       follows MODELS exactly (every configuration, grid and size, T by
 *       the max rule below), so fit and eval must recover it
 *   xexectool recommend MODELS KINDS [-N n | -M m -N n -K k] [-b NBEST]
 *                       [-P MAXNP]
 *       the NBEST (5) configurations of KINDS (of at most MAXNP
 *       processes) the NP-T models of MODELS estimate fastest for
 *       C(m x n) += A(m x k) B(k x n), with their predicted times:
 *       processors of each kind used, processes on each, grid, algorithm
 *       (block-cyclic layout)
 *
 * KINDS: processor kinds "SPEED:COUNT:MAXPER,..." (speed relative to this
 * machine's processor, PUMMA_SPEED_BASE=1; how many processors of the
 * kind; most processes on one). A configuration uses P_i processors of
 * kind i with M_i processes each; its ranks, kind by kind, run at
 * SPEED_i / M_i (the processor's time shared by its processes). LABEL:
 * "P_0xM_0+P_1xM_1+...". CSV: xexectim's rows (label,np,p,q,n,nb,algo,
 * best,median,reps); the best time of each is used.
 *
 * A configuration's time is its slowest kind's, T = max_i T_i (Ichikawa and
 * Kawai 2008: block-cyclic gives every process an equal share), T_i from
 * the NP-T model of kind i with M_i processes per processor at the whole
 * run's p x q. In recommend, counts may exceed those measured: NP-T
 * extrapolates in P (the point of Ichikawa and Kawai 2008), which N-T
 * cannot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_model.h"

enum { MAXK = PUMMA_EXEC_MAXKINDS, MAXPER = 8, MAXROWS = 20000,
       MAXALGO = 16, MAXSZ = 64, NT = PUMMA_NT_TERMS, NPT = PUMMA_NPT_TERMS };

typedef struct kinds {
    int n;
    double speed[MAXK];
    pumma_exec_kind_t k[MAXK];
} kinds_t;

typedef struct row {
    int pe[MAXK], per[MAXK], np, p, q, n, algo;
    double t;
} row_t;

static char algos[MAXALGO][64];
static int nalgo;

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "xexectool: %s%s%s\n", what, arg ? ": " : "",
            arg ? arg : "");
    exit(2);
}

static void parse_kinds(const char *s, kinds_t *k)
{
    k->n = 0;
    while (*s) {
        if (k->n == MAXK) die("at most 4 kinds", NULL);
        double sp;
        int c, m, used;
        if (sscanf(s, "%lf:%d:%d%n", &sp, &c, &m, &used) != 3 || !(sp > 0) ||
            c < 1 || m < 1 || m > MAXPER)
            die("KINDS is SPEED:COUNT:MAXPER,... (speed > 0, count >= 1, "
                "1 <= maxper <= 8)", s);
        k->speed[k->n] = sp;
        k->k[k->n].count = c;
        k->k[k->n].maxper = m;
        k->n++;
        s += used;
        if (*s == ',') s++;
        else if (*s) die("KINDS is SPEED:COUNT:MAXPER,...", s);
    }
    if (!k->n) die("no kinds", NULL);
}

static int parse_sizes(const char *s, int *v)
{
    int n = 0;
    while (*s && n < MAXSZ) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < 1) die("sizes are N,N,...", s);
        v[n++] = (int)x;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static int has(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

static int algo_id(const char *name)
{
    for (int i = 0; i < nalgo; i++)
        if (!strcmp(algos[i], name)) return i;
    if (nalgo == MAXALGO) die("too many algorithms", name);
    snprintf(algos[nalgo], sizeof algos[0], "%s", name);
    return nalgo++;
}

/* "2x1+0x0": per kind processors x processes per processor */
static int parse_label(const char *s, int nk, int *pe, int *per)
{
    for (int i = 0; i < nk; i++) {
        int used;
        if (sscanf(s, "%dx%d%n", &pe[i], &per[i], &used) != 2) return -1;
        s += used;
        if (i + 1 < nk && *s++ != '+') return -1;
    }
    return *s ? -1 : 0;
}

static void label_of(const int *pe, const int *per, int nk, char *buf,
                     size_t len)
{
    size_t at = 0;
    for (int i = 0; i < nk; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%dx%d", i ? "+" : "",
                               pe[i], per[i]);
}

static row_t *read_csv(const char *file, const kinds_t *k, int *nrow)
{
    FILE *f = fopen(file, "r");
    if (!f) die("cannot read", file);
    row_t *r = malloc(sizeof(row_t) * MAXROWS);
    if (!r) die("out of memory", NULL);
    char line[512], label[128], algo[64];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        row_t x;
        memset(&x, 0, sizeof x);
        int nb;
        double med;
        if (sscanf(line, "%127[^,],%d,%d,%d,%d,%d,%63[^,],%lf,%lf", label,
                   &x.np, &x.p, &x.q, &x.n, &nb, algo, &x.t, &med) != 9)
            continue;                                      /* a header */
        if (parse_label(label, k->n, x.pe, x.per))
            die("a label does not match KINDS", label);
        int P = 0;
        for (int i = 0; i < k->n; i++) P += x.pe[i] * x.per[i];
        if (P != x.np || x.p * x.q != x.np || !(x.t > 0))
            die("a row is inconsistent", line);
        x.algo = algo_id(algo);
        if (n == MAXROWS) die("too many rows", file);
        r[n++] = x;
    }
    fclose(f);
    *nrow = n;
    return r;
}

/* ------------------------------------------------------------- models */

typedef struct models {
    kinds_t kinds;
    /* NP-T per kind, processes per processor, algorithm; fitted or not */
    double npt[MAXK][MAXPER + 1][MAXALGO][NPT];
    int have[MAXK][MAXPER + 1][MAXALGO];
} models_t;

/* the row's configuration uses kind i alone */
static int only(const row_t *r, int nk, int i)
{
    for (int j = 0; j < nk; j++)
        if ((r->pe[j] > 0) != (j == i)) return 0;
    return 1;
}

static int same_config(const row_t *a, const row_t *b, int nk)
{
    if (a->p != b->p || a->q != b->q || a->algo != b->algo) return 0;
    for (int i = 0; i < nk; i++)
        if (a->pe[i] != b->pe[i] || a->per[i] != b->per[i]) return 0;
    return 1;
}

/* Mean |relative error| of the fitted terms over the samples. */
static double fit_error(int ns, int nt, const double *rows, const double *T,
                        const double *k)
{
    double s = 0;
    for (int i = 0; i < ns; i++)
        s += fabs(pumma_exec_eval(k, rows + (size_t)i * nt, nt) - T[i]) / T[i];
    return ns ? s / ns : 0;
}

static void fit_npt(models_t *m, const row_t *r, int nr, const int *build,
                    int nbuild, FILE *out)
{
    const int nk = m->kinds.n;
    double *rows = malloc(sizeof(double) * (size_t)nr * NPT);
    double *T = malloc(sizeof(double) * (size_t)nr);
    if (!rows || !T) die("out of memory", NULL);
    for (int i = 0; i < nk; i++)
        for (int per = 1; per <= m->kinds.k[i].maxper; per++)
            for (int a = 0; a < nalgo; a++) {
                int ns = 0, pmax = 0;
                for (int j = 0; j < nr; j++) {
                    const row_t *x = &r[j];
                    if (!only(x, nk, i) || x->per[i] != per ||
                        x->algo != a || !has(build, nbuild, x->n))
                        continue;
                    pumma_npt_terms(x->n, x->n, x->n, x->p, x->q,
                                    rows + (size_t)ns * NPT);
                    T[ns++] = x->t;
                    if (x->pe[i] > pmax) pmax = x->pe[i];
                }
                if (ns < 4) continue;     /* too few runs for a model */
                pumma_npt_fit(ns, rows, T, m->npt[i][per][a]);
                m->have[i][per][a] = 1;
                printf("NP-T kind %d (speed %g) x%d %-9s from %2d runs on "
                       "1..%d processors: mean |error| %.1f%%\n", i,
                       m->kinds.speed[i], per, algos[a], ns, pmax,
                       100 * fit_error(ns, NPT, rows, T, m->npt[i][per][a]));
                if (out) {
                    fprintf(out, "npt %d %d %s", i, per, algos[a]);
                    for (int t = 0; t < NPT; t++)
                        fprintf(out, " %.9e", m->npt[i][per][a][t]);
                    fprintf(out, "\n");
                }
            }
    free(rows);
    free(T);
}

/* T = max_i T_i of the configuration (pe, per) on p x q; < 0: a kind it
 * uses has no model. */
static double predict(const models_t *m, const int *pe, const int *per,
                      int a, double mm, double nn, double kk, int p, int q)
{
    double t = 0, terms[NPT];
    pumma_npt_terms(mm, nn, kk, p, q, terms);
    for (int i = 0; i < m->kinds.n; i++) {
        if (!pe[i]) continue;
        if (per[i] > MAXPER || !m->have[i][per[i]][a]) return -1;
        const double ti = pumma_exec_eval(m->npt[i][per[i]][a], terms, NPT);
        if (ti > t) t = ti;
    }
    return t;
}

/* N-T of the row's configuration, grid and algorithm from its runs at the
 * build sizes (at least 4); 0 if it has too few. */
static int fit_nt(const row_t *x, const row_t *r, int nr, const int *build,
                  int nbuild, int nk, double *k)
{
    double rows[MAXSZ * NT], T[MAXSZ];
    int ns = 0;
    for (int j = 0; j < nr && ns < MAXSZ; j++)
        if (same_config(&r[j], x, nk) && has(build, nbuild, r[j].n)) {
            pumma_nt_terms(r[j].n, rows + ns * NT);
            T[ns++] = r[j].t;
        }
    if (ns < NT) return 0;
    pumma_exec_fit(ns, NT, rows, T, k);
    return 1;
}

/* --------------------------------------------------------- subcommands */

/* Every configuration (pe, per) of k with 1..maxnp processes, in order:
 * an odometer over (pe_i, per_i), (0,0) then (1..count, 1..maxper). */
static void each_config(const kinds_t *k, int maxnp,
                        void (*f)(const int *pe, const int *per, int P,
                                  void *ctx),
                        void *ctx)
{
    int pe[MAXK] = {0}, per[MAXK] = {0};
    for (;;) {
        int P = 0;
        for (int i = 0; i < k->n; i++) P += pe[i] * per[i];
        if (P >= 1 && P <= maxnp) f(pe, per, P, ctx);
        int i = 0;
        for (; i < k->n; i++) {
            if (pe[i] && per[i] < k->k[i].maxper) { per[i]++; break; }
            if (pe[i] < k->k[i].count) { pe[i]++; per[i] = 1; break; }
            pe[i] = per[i] = 0;
        }
        if (i == k->n) return;
    }
}

/* LABEL SPEEDS MAP: the ranks' speeds, kind by kind, and the processor
 * (numbered over all kinds) each runs on */
static void print_config(const int *pe, const int *per, int P, void *ctx)
{
    const kinds_t *k = ctx;
    (void)P;
    char label[128];
    label_of(pe, per, k->n, label, sizeof label);
    printf("%s ", label);
    int first = 1, pe_at = 0;
    for (int i = 0; i < k->n; i++)
        for (int j = 0; j < pe[i] * per[i]; j++, first = 0)
            printf("%s%.9g", first ? "" : ",", k->speed[i] / per[i]);
    printf(" ");
    first = 1;
    for (int i = 0; i < k->n; pe_at += k->k[i].count, i++)
        for (int j = 0; j < pe[i] * per[i]; j++, first = 0)
            printf("%s%d", first ? "" : ",", pe_at + j / per[i]);
    printf("\n");
}

static int cmd_configs(const kinds_t *k, int maxnp)
{
    each_config(k, maxnp, print_config, (void *)k);
    return 0;
}

typedef struct synth { const models_t *m; const int *n; int nn; } synth_t;

static void synth_config(const int *pe, const int *per, int P, void *ctx)
{
    const synth_t *s = ctx;
    char label[128];
    label_of(pe, per, s->m->kinds.n, label, sizeof label);
    for (int p = 1; p <= P; p++) {
        if (P % p) continue;
        for (int i = 0; i < s->nn; i++) {
            const double t = predict(s->m, pe, per, 0, s->n[i], s->n[i],
                                     s->n[i], p, P / p);
            if (t < 0) die("MODELS lacks a kind or processes per processor",
                           label);
            printf("%s,%d,%d,%d,%d,64,%s,%.17g,%.17g,1\n", label, P, p, P / p,
                   s->n[i], algos[0], t, t);
        }
    }
}

static void describe(const int *pe, const int *per, int nk, int p, int q,
                     const char *algo, char *buf, size_t len)
{
    char l[128];
    label_of(pe, per, nk, l, sizeof l);
    snprintf(buf, len, "%s %dx%d %s", l, p, q, algo);
}

/* LABEL/PxQ[/ALGO]: a configuration as OUT's rows name it */
static void csv_name(const row_t *x, int nk, char *buf, size_t len)
{
    char l[128];
    label_of(x->pe, x->per, nk, l, sizeof l);
    if (nalgo > 1)
        snprintf(buf, len, "%s/%dx%d/%s", l, x->p, x->q, algos[x->algo]);
    else
        snprintf(buf, len, "%s/%dx%d", l, x->p, x->q);
}

static int cmd_eval(models_t *m, const row_t *r, int nr, const int *build,
                    int nbuild, FILE *csv, const char *platform)
{
    const int nk = m->kinds.n;
    int sizes[MAXSZ], ns = 0;
    for (int j = 0; j < nr; j++)
        if (!has(build, nbuild, r[j].n) && !has(sizes, ns, r[j].n) &&
            ns < MAXSZ)
            sizes[ns++] = r[j].n;
    for (int i = 1; i < ns; i++)                       /* ascending */
        for (int j = i; j > 0 && sizes[j] < sizes[j - 1]; j--) {
            int t = sizes[j]; sizes[j] = sizes[j - 1]; sizes[j - 1] = t;
        }
    printf("\nEstimation error (Ichikawa and Kawai 2008: (tau - T)/T, tau the "
           "measured time of the estimated optimum, T the measured "
           "optimum's), sizes not used to build the models:\n\n");
    printf("%6s %4s  %-24s %10s | %-24s %10s %10s %7s | %-24s %7s\n", "N",
           "runs", "measured optimum", "T (s)", "NP-T estimate", "predicted",
           "tau (s)", "error", "N-T estimate", "error");
    int within[2] = {0, 0}, judged[2] = {0, 0};
    double worst[2] = {0, 0}, perr = 0;
    int npred = 0;
    for (int s = 0; s < ns; s++) {
        const row_t *opt = NULL, *enp = NULL, *ent = NULL;
        double pnp = 0, pnt = 0;
        int runs = 0;
        for (int j = 0; j < nr; j++) {
            const row_t *x = &r[j];
            if (x->n != sizes[s]) continue;
            runs++;
            if (!opt || x->t < opt->t) opt = x;
            const double t = predict(m, x->pe, x->per, x->algo, x->n, x->n,
                                     x->n, x->p, x->q);
            if (t >= 0) {
                perr += fabs(t - x->t) / x->t;
                npred++;
                if (!enp || t < pnp) { enp = x; pnp = t; }
            }
            double k[NT];
            if (fit_nt(x, r, nr, build, nbuild, nk, k)) {
                double terms[NT];
                pumma_nt_terms(x->n, terms);
                const double tn = pumma_exec_eval(k, terms, NT);
                if (!ent || tn < pnt) { ent = x; pnt = tn; }
            }
        }
        char a[160], b[160] = "-", c[160] = "-", eb[16] = "-", ec[16] = "-",
             pb[16] = "-", tb[16] = "-";
        describe(opt->pe, opt->per, nk, opt->p, opt->q, algos[opt->algo], a,
                 sizeof a);
        const row_t *e[2] = {enp, ent};
        char *desc[2] = {b, c}, *err[2] = {eb, ec};
        for (int w = 0; w < 2; w++) {
            if (!e[w]) continue;
            describe(e[w]->pe, e[w]->per, nk, e[w]->p, e[w]->q,
                     algos[e[w]->algo], desc[w], 160);
            const double eps = pumma_exec_error(e[w]->t, opt->t);
            snprintf(err[w], 16, "%.1f%%", 100 * eps);
            judged[w]++;
            within[w] += eps <= 0.05;
            if (eps > worst[w]) worst[w] = eps;
        }
        static const char *const model_name[2] = {"np-t", "n-t"};
        for (int w = 0; csv && w < 2; w++) {
            if (!e[w]) continue;
            char cn[160], bn[160];
            csv_name(e[w], nk, cn, sizeof cn);
            csv_name(opt, nk, bn, sizeof bn);
            fprintf(csv, "%s,%d,%s,%s,%.6e,%s,%.6e\n", platform, sizes[s],
                    model_name[w], cn, e[w]->t, bn, opt->t);
        }
        if (enp) {
            snprintf(pb, sizeof pb, "%.4e", pnp);
            snprintf(tb, sizeof tb, "%.4e", enp->t);
        }
        printf("%6d %4d  %-24s %10.4e | %-24s %10s %10s %7s | %-24s %7s\n",
               sizes[s], runs, a, opt->t, b, pb, tb, eb, c, ec);
    }
    printf("\nNP-T: error <= 5%% at %d of %d sizes (worst %.1f%%); "
           "mean |prediction error| over all %d runs %.1f%%\n",
           within[0], judged[0], 100 * worst[0], npred,
           npred ? 100 * perr / npred : 0);
    printf("N-T:  error <= 5%% at %d of %d sizes (worst %.1f%%)\n", within[1],
           judged[1], 100 * worst[1]);
    return 0;
}

typedef struct rctx { const models_t *m; int algo, maxnp; } rctx_t;

static double rmodel(void *ctx, int kind, int per, double mm, double nn,
                     double kk, int p, int q)
{
    const rctx_t *c = ctx;
    if (per > MAXPER || !c->m->have[kind][per][c->algo]) return -1;
    if (c->maxnp > 0 && p * q > c->maxnp) return -1;
    double t[NPT];
    pumma_npt_terms(mm, nn, kk, p, q, t);
    return pumma_exec_eval(c->m->npt[kind][per][c->algo], t, NPT);
}

static void read_models(const char *file, models_t *m)
{
    FILE *f = fopen(file, "r");
    if (!f) die("cannot read", file);
    char line[1024], name[32];
    int got = 0;
    while (fgets(line, sizeof line, f)) {
        int i, per, used;
        char ks[256];
        if (sscanf(line, "kinds %255s", ks) == 1) parse_kinds(ks, &m->kinds);
        if (sscanf(line, "npt %d %d %31s%n", &i, &per, name, &used) != 3)
            continue;
        if (i < 0 || i >= MAXK || per < 1 || per > MAXPER)
            die("a bad line", line);
        const int a = algo_id(name);
        char *s = line + used;
        for (int t = 0; t < NPT; t++) {
            char *end;
            m->npt[i][per][a][t] = strtod(s, &end);
            if (end == s) die("a bad line", line);
            s = end;
        }
        m->have[i][per][a] = 1;
        got++;
    }
    fclose(f);
    if (!got) die("no models in", file);
}

static int cmd_recommend(models_t *m, double mm, double nn, double kk,
                         int nbest, int maxnp)
{
    pumma_exec_config_t *best = malloc(sizeof *best * (size_t)nbest * (nalgo + 1));
    int *algo = malloc(sizeof(int) * (size_t)nbest * (nalgo + 1));
    if (!best || !algo) die("out of memory", NULL);
    int kept = 0, seen = 0;
    for (int a = 0; a < nalgo; a++) {
        rctx_t c = {m, a, maxnp};
        pumma_exec_config_t b[64];
        const int nb = nbest < 64 ? nbest : 64;
        const int got = pumma_exec_search(m->kinds.n, m->kinds.k, rmodel,
                                          &c, mm, nn, kk, b, nb);
        seen += got;
        for (int j = 0; j < nb && j < got; j++) {
            best[kept] = b[j];
            algo[kept++] = a;
        }
    }
    for (int i = 1; i < kept; i++)            /* merge: fastest first */
        for (int j = i; j > 0 && best[j].t < best[j - 1].t; j--) {
            pumma_exec_config_t t = best[j]; best[j] = best[j - 1]; best[j - 1] = t;
            int x = algo[j]; algo[j] = algo[j - 1]; algo[j - 1] = x;
        }
    if (!kept) die("no configuration has a model for every kind it uses", NULL);
    printf("C(%gx%g) += A(%gx%g) B(%gx%g): %d configurations estimated "
           "(NP-T, block-cyclic)\n\n", mm, nn, mm, kk, kk, nn, seen);
    printf("%-4s %-8s %-28s %-7s %-9s %s\n", "", "procs", "per kind "
           "(processors x processes)", "grid", "algo", "predicted");
    for (int j = 0; j < kept && j < nbest; j++) {
        const pumma_exec_config_t *c = &best[j];
        char l[128], g[16];
        label_of(c->pe, c->per, m->kinds.n, l, sizeof l);
        snprintf(g, sizeof g, "%dx%d", c->p, c->q);
        printf("%-4s %-8d %-28s %-7s %-9s %.4e s%s\n", j ? "" : "best",
               c->p * c->q, l, g, algos[algo[j]], c->t,
               j ? "" : "   <- recommended");
    }
    free(best);
    free(algo);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) die("usage: xexectool configs|fit|eval|recommend ...", NULL);
    static models_t m;
    const char *cmd = argv[1];
    if (!strcmp(cmd, "configs") && argc == 4) {
        parse_kinds(argv[2], &m.kinds);
        return cmd_configs(&m.kinds, atoi(argv[3]));
    }
    if ((!strcmp(cmd, "fit") && (argc == 5 || argc == 6)) ||
        (!strcmp(cmd, "eval") && (argc == 5 || argc == 7))) {
        int build[MAXSZ], nrow;
        parse_kinds(argv[2], &m.kinds);
        const int nbuild = parse_sizes(argv[3], build);
        row_t *r = read_csv(argv[4], &m.kinds, &nrow);
        FILE *out = NULL;
        if (argc == 6 && !strcmp(cmd, "fit")) {
            out = fopen(argv[5], "w");
            if (!out) die("cannot write", argv[5]);
            fprintf(out, "# pumma execution-time models (TIMING/xexectool "
                         "fit %s %s %s)\n# npt KIND PER ALGO k0..k9 "
                         "(pumma_model.h's NP-T terms)\nkinds %s\n",
                    argv[2], argv[3], argv[4], argv[2]);
        }
        fit_npt(&m, r, nrow, build, nbuild, out);
        if (out) fclose(out);
        int rc = 0;
        if (!strcmp(cmd, "eval")) {
            FILE *csv = NULL;
            if (argc == 7) {
                csv = fopen(argv[5], "w");
                if (!csv) die("cannot write", argv[5]);
                fprintf(csv, "platform,size,model,chosen,chosen_s,best,"
                             "best_s\n");
            }
            rc = cmd_eval(&m, r, nrow, build, nbuild, csv,
                          argc == 7 ? argv[6] : NULL);
            if (csv && fclose(csv)) die("cannot write", argv[5]);
        }
        free(r);
        return rc;
    }
    if (!strcmp(cmd, "synth") && argc == 6) {
        int sizes[MAXSZ];
        parse_kinds(argv[2], &m.kinds);
        const int nn = parse_sizes(argv[4], sizes);
        kinds_t k = m.kinds;
        read_models(argv[5], &m);
        m.kinds = k;
        if (nalgo != 1) die("synth takes the models of one algorithm", argv[5]);
        synth_t s = {&m, sizes, nn};
        each_config(&m.kinds, atoi(argv[3]), synth_config, &s);
        return 0;
    }
    if (!strcmp(cmd, "recommend") && argc >= 4) {
        read_models(argv[2], &m);
        kinds_t k;
        parse_kinds(argv[3], &k);
        /* the models are per kind: the same kinds, in the same order, of
         * any count and processes per processor */
        if (k.n != m.kinds.n) die("KINDS must have the models' kinds", argv[3]);
        for (int i = 0; i < k.n; i++)
            if (fabs(k.speed[i] - m.kinds.speed[i]) > 1e-9 * m.kinds.speed[i])
                die("KINDS must have the models' speeds, in order", argv[3]);
        m.kinds = k;
        double mm = 0, nn = 0, kk = 0;
        int nbest = 5, maxnp = 0;
        for (int i = 4; i + 1 < argc; i += 2) {
            const double v = atof(argv[i + 1]);
            if (!strcmp(argv[i], "-M")) mm = v;
            else if (!strcmp(argv[i], "-N")) nn = v;
            else if (!strcmp(argv[i], "-K")) kk = v;
            else if (!strcmp(argv[i], "-b")) nbest = (int)v;
            else if (!strcmp(argv[i], "-P")) maxnp = (int)v;
            else die("recommend takes -N n, or -M m -N n -K k, -b NBEST "
                     "and -P MAXNP", argv[i]);
        }
        if (!(nn > 0) || nbest < 1) die("recommend needs -N n > 0", NULL);
        if (!(mm > 0)) mm = nn;
        if (!(kk > 0)) kk = nn;
        return cmd_recommend(&m, mm, nn, kk, nbest, maxnp);
    }
    die("usage: xexectool configs KINDS MAXNP | fit KINDS BUILD CSV [MODELS]"
        " | eval KINDS BUILD CSV [OUT PLATFORM] | synth KINDS MAXNP SIZES MODELS"
        " | recommend MODELS KINDS -N n [-M m -K k] [-b NBEST] [-P MAXNP]",
        NULL);
    return 2;
}
