/*
 * pumma_tune.c -- pumma-tune, the tuner of an installed pumma (and of
 * `make tune`): measures this machine into the tune file and chooses the
 * collectives auto runs into the decision file (doc/choosing.md, "The
 * tune file", "The decision file"). Run it once per machine, MPI and
 * BLAS, with the launcher and placement the programs use:
 *
 *   mpiexec -n NP pumma-tune [-o FILE] [-m MAXBYTES] [-r REPS] [-b BUDGET]
 *                            [-k K] [-S FILE.csv [-p NP,..]] [-n]
 *
 * 0. The machine model (the local multiply's and copies' rates on process
 *    0, latency and bandwidth between process 0 and the first process on
 *    another host, else process 1: pumma_tune_keys_t) measured afresh
 *    into the tune file, as PUMMA_TUNE=refresh makes a first call do.
 * 1. pLogP samples between the same two processes into the tune file.
 * 2. Per communicator size (the first 2..NP processes), the model that
 *    errs least (the poly-model).
 * 3. Per operation, communicator size and message size, the broadcast or
 *    reduce variant and segment size, chosen by the model-guided search
 *    (pumma_search.c): the predicted best segment of each of the K (2)
 *    variants the simulator predicts fastest under the poly-model is
 *    measured, with the neighbouring segments of the faster and MPI's own
 *    variants; the fastest measured wins. Message sizes 8 B to MAXBYTES
 *    (4 MiB) by factors of 4; a rule covers from the geometric middle
 *    between two measured sizes. Beyond NP the file leaves the choice to
 *    the models. The rules go to the decision file (-o FILE, else
 *    PUMMA_DECISION_FILE, else `decision` beside the tune file).
 *
 * -S: instead of 0 and 3, the search report (Table 2 of Vadhiyar, Fagg
 * and Dongarra, "Towards an accurate model for collective communications",
 * IJHPCA 18(1), 2004):
 * for broadcasts and reduces of 1 KiB, 128 KiB, 1 MiB and MAXBYTES on 2
 * and NP processes (-p: on the first p processes for each p listed, and
 * the poly-model chosen for those sizes only), every candidate measured (the exhaustive search),
 * then MGD, SMGD and the model-guided search replayed on those
 * measurements -- each sees the times the exhaustive search measured, so
 * they are compared on the same data, and each is charged the seconds its
 * experiments took there.
 * -n: do not write the tune file or the decision file (and skip 0).
 *
 * It uses pumma's internal interface: it is linked with libpumma.a.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_model.h"

static const char *const prog = "pumma-tune";

enum { MAXC = 256, MAXSIZES = 32 };

typedef struct live {
    MPI_Comm comm;
    pumma_table_kind_t op;
    double bytes;
    int reps;
    void *buf, *sum;
    double *cost;            /* seconds each experiment took, or NULL */
    const pumma_cand_t *c0;
} live_t;

/* A live experiment: the candidate timed on the communicator. */
static double measure_live(void *ctx, const pumma_cand_t *c)
{
    live_t *l = ctx;
    const double t0 = MPI_Wtime();
    /* fewer repeats where one run is long: a search must stay short */
    int reps = l->reps;
    double t = pumma_time_coll(c->v, l->comm, l->bytes, c->seg, 1, l->buf,
                               l->sum);
    if (t < 0.02) t = pumma_time_coll(c->v, l->comm, l->bytes, c->seg, reps,
                                      l->buf, l->sum);
    if (l->cost) l->cost[c - l->c0] = MPI_Wtime() - t0;
    return t;
}

typedef struct replay {
    const double *t, *cost;
    const pumma_cand_t *c0;
    double spent;
} replay_t;

/* A replayed experiment: the exhaustive search's measurement. */
static double measure_replay(void *ctx, const pumma_cand_t *c)
{
    replay_t *r = ctx;
    r->spent += r->cost[c - r->c0];
    return r->t[c - r->c0];
}

static void usage(void)
{
    fprintf(stderr, "usage: mpiexec -n NP %s [-o FILE] [-m MAXBYTES] "
                    "[-r REPS] [-b BUDGET_S] [-k K] [-S FILE.csv [-p NP,..]] "
                    "[-n]\n",
            prog);
}

/* The search report (-S): one line per case, as Table 2 of Vadhiyar, Fagg
 * and Dongarra 2004. */
static void search_report(const int *nps, int nnp, const pumma_netmodel_t *nm0,
                          int (*kind_of)[PUMMA_POLY_NCLASS],
                          const double *theta_of, const double *wake_of,
                          double maxb, int reps, int k, void *buf, void *sum,
                          const char *csv)
{
    pumma_netmodel_t nm1 = *nm0, *nm = &nm1;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    /* a file of pumma's tuner, written as the tune and decision files
     * are: through a temporary of its own (pumma_base.h) */
    pumma_file_new_t nf;
    FILE *out = me == 0 && csv && !pumma_file_begin(csv, 0, &nf) ? nf.out
                                                                : NULL;
    if (out)
        fprintf(out, "np,op,bytes,method,seconds,experiments,variant,"
                     "segment,time_s,vs_exhaustive\n");
    if (me == 0)
        printf("\nSearch for the variant and segment size (Vadhiyar, Fagg and "
               "Dongarra 2004, Table 2): seconds spent, experiments, and the "
               "optimum found\n"
               "relative to the exhaustive search's (searches replayed on "
               "the exhaustive measurements)\n\n%-22s %18s %18s %18s %18s "
               "%8s %8s\n",
               "case", "exhaustive", "MGD", "SMGD", "model-guided",
               "speedup", "(model)");
    const double sizes[4] = {1024, 131072, 1048576, maxb};
    int within = 0, cases = 0;
    double worst_exp_ratio = INFINITY;
    for (int ip = 0; ip < nnp; ip++) {
        const int p = nps[ip];
        nm->s.theta = theta_of[p];
        nm->s.wake = wake_of[p];
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, me < p ? 0 : MPI_UNDEFINED, me, &comm);
        for (int op = 0; op < 2; op++)
            for (int si = 0; si < 4; si++) {
                const double bytes = sizes[si];
                /* the buffers hold MAXBYTES: no larger case */
                if ((si == 3 && bytes <= sizes[2]) || (si < 3 && bytes > maxb))
                    continue;
                pumma_cand_t c[MAXC];
                const int n = pumma_search_cands((pumma_table_kind_t)op,
                                                 bytes, 0, c, MAXC);
                double t[MAXC], cost[MAXC];
                if (comm != MPI_COMM_NULL) {
                    live_t l = {comm, (pumma_table_kind_t)op, bytes, reps,
                                buf, sum, cost, c};
                    pumma_search_t s = {(pumma_table_kind_t)op, p, 8, bytes,
                                        c, n, measure_live, &l, t, 0, 0};
                    pumma_search_exhaustive(&s);
                }
                pumma_quiet_barrier(MPI_COMM_WORLD);
                MPI_Bcast(t, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                MPI_Bcast(cost, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                /* the four searches on the same measurements */
                double spent[4], found[4], tt[MAXC];
                int exps[4], pick[4];
                for (int m = 0; m < 4; m++) {
                    replay_t r = {t, cost, c, 0};
                    pumma_search_t s = {(pumma_table_kind_t)op, p, 8, bytes,
                                        c, n, measure_replay, &r, tt, 0, 0};
                    if (m == 0) pumma_search_exhaustive(&s);
                    else if (m == 1) pumma_search_mgd(&s);
                    else if (m == 2) pumma_search_smgd(&s);
                    else pumma_search_model(
                        &s, nm, kind_of[p][pumma_poly_class(bytes)], k);
                    spent[m] = r.spent;
                    exps[m] = s.experiments;
                    pick[m] = s.best;
                    found[m] = t[s.best];
                }
                cases++;
                within += found[3] <= 1.10 * found[0];
                const double ratio = (double)exps[0] / exps[3];
                if (ratio < worst_exp_ratio) worst_exp_ratio = ratio;
                if (me == 0) {
                    char name[64];
                    snprintf(name, sizeof name, "%d proc, %.0fK %s", p,
                             bytes / 1024, op ? "reduce" : "bcast");
                    printf("%-22s", name);
                    for (int m = 0; m < 4; m++)
                        printf(" %7.3f %3d %+5.1f%%", spent[m], exps[m],
                               100 * (found[m] / found[0] - 1));
                    printf(" %7.1fx %7.1fx\n", spent[0] / spent[2],
                           spent[0] / spent[3]);
                    static const char *const mname[4] = {
                        "exhaustive", "mgd", "smgd", "model-guided"};
                    for (int m = 0; out && m < 4; m++)
                        fprintf(out, "%d,%s,%.0f,%s,%.4f,%d,%s,%.0f,%.6e,%.4f\n",
                                p, op ? "reduce" : "bcast", bytes, mname[m],
                                spent[m], exps[m], c[pick[m]].v->name,
                                c[pick[m]].seg, found[m],
                                found[m] / found[0] - 1);
                }
            }
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    }
    if (me == 0)
        printf("\nmodel-guided: within 10%% of the exhaustive optimum in %d of "
               "%d cases; at least %.1fx fewer experiments\n",
               within, cases, worst_exp_ratio);
    if (out) pumma_file_commit(&nf);
}

/* 0. The machine model measured afresh (PUMMA_TUNE=refresh, set by main
 * before pumma reads it) and written to the tune file, as a first call
 * would measure it; shown. */
static void machine_model(pumma_grid_t *g)
{
    int me;
    MPI_Comm_rank(g->all, &me);
    char file[4096];
    if (!pumma_tune_path(file, sizeof file)) {
        if (me == 0)
            printf("machine model: not measured (PUMMA_TUNE=off: no tune "
                   "file)\n");
        return;
    }
    pumma_model_t mo;
    memset(&mo, 0, sizeof mo);
    pumma_model_measure(g, &mo);
    if (me == 0) {
        printf("machine model into the tune file %s, in %.1f s:\n", file,
               mo.seconds);
        printf("  network (process 0 and the first on another host, else 1): "
               "alpha %.2e s, beta %.2e s/B "
               "(%.2f GB/s), overlap %.2f\n", mo.alpha, mo.beta,
               mo.beta > 0 ? 1e-9 / mo.beta : 0.0, mo.overlap);
        static const char prec[4] = {'S', 'D', 'C', 'Z'};
        static const double flops[4] = {2, 2, 8, 8};
        printf("  process 0's multiply:");
        for (int i = 0; i < 4; i++)
            printf(" %c %.1f GFLOP/s%s", prec[i],
                   mo.gamma[i] > 0 ? 1e-9 * flops[i] / mo.gamma[i] : 0.0,
                   i < 3 ? "," : "\n");
        printf("  copies: %.2f GB/s, transposed %.2f GB/s\n",
               mo.delta > 0 ? 1e-9 / mo.delta : 0.0,
               mo.delta_t > 0 ? 1e-9 / mo.delta_t : 0.0);
    }
    pumma_decide_free(mo.dec);
    free(mo.dec);
}

/* What a run of pumma-tune is given and what its steps hand on. */
typedef struct tuning {
    int me, np, reps, k, write, refresh;
    double maxb, budget, t_start;
    const char *path, *report;       /* -o, -S */
    pumma_netmodel_t nm;             /* pLogP samples and their fits */
    pumma_netmodel_t local;          /* within process 0's node: nm.local */
    void *buf, *sum;                 /* message buffers of maxb bytes */
    /* per communicator size p: the poly-model's kind per size class, and
     * plogpc's theta and wake fitted on the first p processes */
    int kind_of[1024][PUMMA_POLY_NCLASS];
    double theta_of[1024], wake_of[1024];
    /* the communicator sizes measured: 2..np, or -p's list (with -S) */
    int nps[1024], nnp;
} tuning_t;

/* -n and -S write nothing: without them, the machine model is measured
 * afresh (step 0), which pumma does under PUMMA_TUNE=refresh; set on
 * every process alike, before pumma reads it (so before MPI_Init).
 * Returns whether step 0 runs. */
static int ask_refresh(int argc, char **argv)
{
    int refresh = 1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-n") || !strcmp(argv[i], "-S")) refresh = 0;
    const char *mode = getenv("PUMMA_TUNE");
    if (refresh && !(mode && !strcmp(mode, "off")))
        setenv("PUMMA_TUNE", "refresh", 1);
    return refresh;
}

/* The options into tu (its me and np set); a bad one, or too few or too
 * many processes, stops every process with the usage. */
static void parse_args(int argc, char **argv, tuning_t *tu)
{
    tu->maxb = 4 << 20;
    tu->budget = 5;
    tu->reps = 10;
    tu->k = 2;
    tu->write = 1;
    const char *list = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) tu->path = argv[++i];
        else if (!strcmp(argv[i], "-m") && i + 1 < argc) tu->maxb = atof(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) tu->reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc) tu->budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "-k") && i + 1 < argc) tu->k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-S") && i + 1 < argc) tu->report = argv[++i];
        else if (!strcmp(argv[i], "-n")) tu->write = 0;
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) list = argv[++i];
        else {
            if (tu->me == 0) usage();
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    tu->nnp = 0;
    for (const char *q = list; q && *q;) {
        char *end;
        const long x = strtol(q, &end, 10);
        if (end == q || x < 2 || x > tu->np || tu->nnp == 1024 ||
            (tu->nnp && x <= tu->nps[tu->nnp - 1]) ||
            (*end && *end != ',')) {
            if (tu->me == 0)
                fprintf(stderr, "%s: -p %s: communicator sizes from 2 to %d, "
                                "increasing, separated by commas\n",
                        prog, list, tu->np);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        tu->nps[tu->nnp++] = (int)x;
        q = *end ? end + 1 : end;
    }
    if (list && !tu->report) {
        if (tu->me == 0)
            fprintf(stderr, "%s: -p is for the search report (-S) only: the "
                            "decision file needs every size\n", prog);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (!list) {
        /* the report's default: 2 and NP; the tuner's: every size */
        for (int p = 2; p <= tu->np && p < 1024; p++)
            if (!tu->report || p == 2 || p == tu->np) tu->nps[tu->nnp++] = p;
    }
    if (tu->np < 2 || tu->np >= 1024 || tu->reps < 1 || tu->k < 1 ||
        !(tu->maxb >= 1024)) {
        if (tu->me == 0) {
            fprintf(stderr, "%s: needs 2 to 1023 processes\n", prog);
            usage();
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* 1. The pLogP samples between processes 0 and peer (the tune file's
 * pair: pumma_tune_keys_t), fitted, with the node's sharing, into
 * tu->nm. */
static void plogp_samples(tuning_t *tu, int peer)
{
    pumma_netmodel_t *nm = &tu->nm;
    memset(nm, 0, sizeof *nm);
    if (pumma_plogp_measure(MPI_COMM_WORLD, 0, peer, tu->maxb, tu->budget,
                            &nm->s)) {
        if (tu->me == 0) fprintf(stderr, "%s: out of memory\n", prog);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pumma_nm_fit(nm);
    nm->add = pumma_measure_add();
    MPI_Bcast(&nm->add, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    pumma_node_share(MPI_COMM_WORLD, &nm->s.cores, &nm->s.ppn);
    /* and within process 0's node, for the searches' predictions on the
     * first p processes (not written: the tune file's line is the pair's) */
    if (pumma_nm_measure_local(MPI_COMM_WORLD, peer, tu->maxb, tu->budget, nm,
                               &tu->local)) {
        if (tu->me == 0) fprintf(stderr, "%s: out of memory\n", prog);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (tu->me == 0)
        printf("pLogP between processes 0 and %d: %d sizes to %.0f bytes, "
               "%.2f s; %.0f processes to a node of %.0f processors; "
               "messages in flight %s%s\n",
               peer, nm->s.n, tu->maxb, MPI_Wtime() - tu->t_start, nm->s.ppn,
               nm->s.cores, nm->s.fair > 0.5 ? "share the link" :
               "leave one after another", nm->local ? "; and between 0 and 1 "
               "(one node)" : "");
}

/* 2. Per communicator size p (the first p processes), the poly-model:
 * tu->kind_of[p], theta_of[p], wake_of[p] on every process, and into d
 * a model line per size class where p's choice differs from p - 1's. */
static void poly_models(tuning_t *tu, pumma_decider_t *d)
{
    const int me = tu->me;
    pumma_netmodel_t *nm = &tu->nm;
    if (me == 0) {
        printf("\npoly-model: mean |error| on the training collectives, per "
               "size class (theta, wake: plogpc's, fitted)\n%4s %9s", "np",
               "bytes");
        for (int k = 0; k < PUMMA_NM_COUNT; k++)
            printf(" %9s", pumma_nm_name(k));
        printf("  theta     wake  chosen\n");
    }
    for (int ip = 0; ip < tu->nnp; ip++) {
        const int p = tu->nps[ip];
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, me < p ? 0 : MPI_UNDEFINED, me, &comm);
        double err[PUMMA_POLY_NCLASS][PUMMA_NM_COUNT];
        int *kind = tu->kind_of[p];
        if (comm != MPI_COMM_NULL) {
            pumma_poly_choose(comm, nm, tu->maxb, tu->reps, tu->buf, tu->sum,
                              err, kind);
            MPI_Comm_free(&comm);
        }
        /* every process predicts alike in the searches below */
        pumma_quiet_barrier(MPI_COMM_WORLD);
        MPI_Bcast(kind, PUMMA_POLY_NCLASS, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Bcast(&nm->s.theta, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(&nm->s.wake, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(err, PUMMA_POLY_NCLASS * PUMMA_NM_COUNT, MPI_DOUBLE, 0,
                  MPI_COMM_WORLD);
        tu->theta_of[p] = nm->s.theta;
        tu->wake_of[p] = nm->s.wake;
        /* model lines for p only when a class differs from the previous
         * size's */
        int differs = ip == 0;
        for (int c = 0; c < PUMMA_POLY_NCLASS && !differs; c++)
            differs = kind[c] != tu->kind_of[tu->nps[ip - 1]][c];
        for (int c = 0; differs && c < PUMMA_POLY_NCLASS &&
                        d->nmodels < PUMMA_DECIDE_MAXMODELS; c++) {
            d->models[d->nmodels].np = p;
            d->models[d->nmodels].bytes = pumma_poly_class_lo[c];
            d->models[d->nmodels++].kind = kind[c];
        }
        for (int c = 0; me == 0 && c < PUMMA_POLY_NCLASS; c++) {
            printf("%4d %8.0f+", p, pumma_poly_class_lo[c]);
            for (int k = 0; k < PUMMA_NM_COUNT; k++)
                printf(" %8.1f%%", 100 * err[c][k]);
            printf("  %5.2f %8.2e  %s\n", nm->s.theta, nm->s.wake,
                   pumma_nm_name(kind[c]));
        }
    }
}

/* 3, for one operation op on the first p processes (comm; MPI_COMM_NULL
 * on the others) and one message size: the model-guided search's choice,
 * the same on every process, shown; *exps counts its experiments. */
static const pumma_cand_t *choose(tuning_t *tu, MPI_Comm comm, int p,
                                  pumma_table_kind_t op, double bytes,
                                  pumma_cand_t *c, int *exps)
{
    const int kind = tu->kind_of[p][pumma_poly_class(bytes)];
    const int n = pumma_search_cands(op, bytes, 0, c, MAXC);
    double t[MAXC];
    int best = 0, e = 0;
    if (comm != MPI_COMM_NULL) {
        live_t l = {comm, op, bytes, tu->reps, tu->buf, tu->sum, NULL, c};
        pumma_search_t s = {op, p, 8, bytes, c, n, measure_live, &l, t, 0, 0};
        pumma_search_model(&s, &tu->nm, kind, tu->k);
        best = s.best;
        e = s.experiments;
    }
    pumma_quiet_barrier(MPI_COMM_WORLD);
    MPI_Bcast(&best, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&e, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(t, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    *exps += e;
    if (tu->me == 0)
        printf("%4d %-6s %9.0f  %-12s %9.0f %11.3e %11.3e\n", p,
               op ? "reduce" : "bcast", bytes, c[best].v->name, c[best].seg,
               t[best],
               pumma_sim_knows(c[best].v)
                   ? pumma_search_predict(&tu->nm, kind, op, p, bytes, 8,
                                          &c[best])
                   : NAN);
    return &c[best];
}

/* 3. Per operation, communicator size and message size, the variant:
 * the rules (the caller frees them) and their number in *nr; *exps
 * counts the experiments. */
static pumma_rule_t *choose_variants(tuning_t *tu, int *nr, int *exps)
{
    const int np = tu->np;
    double sizes[MAXSIZES];
    int nsizes = 0;
    for (double m = 8; m < tu->maxb && nsizes < MAXSIZES - 1; m *= 4)
        sizes[nsizes++] = m;
    sizes[nsizes++] = tu->maxb;
    pumma_rule_t *rules = calloc((size_t)(2 * (np + 1) * (nsizes + 1)),
                                 sizeof *rules);
    if (!rules) MPI_Abort(MPI_COMM_WORLD, 1);
    *nr = *exps = 0;
    if (tu->me == 0)
        printf("\nchoices (model-guided search, K = %d)\n%4s %-6s %9s  "
               "%-12s %9s %11s %11s\n", tu->k, "np", "op", "bytes", "variant",
               "segment", "measured", "predicted");
    for (int p = 2; p <= np; p++) {
        tu->nm.s.theta = tu->theta_of[p];
        tu->nm.s.wake = tu->wake_of[p];
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, tu->me < p ? 0 : MPI_UNDEFINED, tu->me,
                       &comm);
        for (int op = 0; op < 2; op++) {
            const pumma_coll_ops_t *prev = NULL;
            double prev_seg = -1;
            for (int si = 0; si < nsizes; si++) {
                pumma_cand_t c[MAXC];
                const pumma_cand_t *b = choose(tu, comm, p,
                                               (pumma_table_kind_t)op,
                                               sizes[si], c, exps);
                /* the segment scales with the size across the range */
                if (b->v == prev && b->seg == prev_seg) continue;
                rules[(*nr)++] = (pumma_rule_t){
                    (pumma_table_kind_t)op, p,
                    si ? floor(sqrt(sizes[si - 1] * sizes[si])) : 0, b->v,
                    b->seg};
                prev = b->v;
                prev_seg = b->seg;
            }
        }
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    }
    /* beyond the sizes measured, the models decide */
    for (int op = 0; op < 2; op++)
        rules[(*nr)++] = (pumma_rule_t){(pumma_table_kind_t)op, np + 1, 0,
                                        NULL, 0};
    return rules;
}

/* The decision file d (nr rules, exps experiments) written by process 0
 * where -o, PUMMA_DECISION_FILE or the tune file's place says (not with
 * -n), and the run's summary shown. */
static void write_decisions(const tuning_t *tu, const pumma_decider_t *d,
                            const pumma_tune_keys_t *keys, int nr, int exps)
{
    char file[4096] = "";
    if (tu->path) snprintf(file, sizeof file, "%s", tu->path);
    else if (!pumma_decide_path(file, sizeof file)) file[0] = '\0';
    if (tu->me != 0) return;
    char note[1400];
    snprintf(note, sizeof note,
             "by %s on %d processes (%s), %d experiments, %.1f s", prog,
             tu->np, keys->netkey, exps, MPI_Wtime() - tu->t_start);
    if (!tu->write) printf("\n(-n: the decision file is not written)\n");
    else if (!*file || pumma_decide_write(file, d, note))
        fprintf(stderr, "%s: cannot write the decision file %s\n", prog,
                *file ? file : "(PUMMA_TUNE=off and no "
                               "PUMMA_DECISION_FILE)");
    else printf("\ndecision file: %s (%d rules)\n", file, nr);
    printf("tuned in %.1f s, %d experiments\n", MPI_Wtime() - tu->t_start,
           exps);
}

int main(int argc, char **argv)
{
    static tuning_t tu;              /* (its tables are large) */
    tu.refresh = ask_refresh(argc, argv);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &tu.me);
    MPI_Comm_size(MPI_COMM_WORLD, &tu.np);
    parse_args(argc, argv, &tu);
    tu.t_start = MPI_Wtime();
    pumma_grid_t g;
    memset(&g, 0, sizeof g);
    g.all = MPI_COMM_WORLD;
    if (tu.refresh) {
        machine_model(&g);
        if (tu.me == 0) printf("\n");
    }

    /* 1. the samples, into the tune file under the pair's key */
    pumma_tune_keys_t keys;
    pumma_tune_keys(&g, &keys);
    plogp_samples(&tu, keys.peer);

    /* 2. per communicator size, the poly-model */
    tu.buf = calloc(1, (size_t)tu.maxb + 64);
    tu.sum = calloc(1, (size_t)tu.maxb + 64);
    if (!tu.buf || !tu.sum) MPI_Abort(MPI_COMM_WORLD, 1);
    pumma_decider_t d;
    memset(&d, 0, sizeof d);
    poly_models(&tu, &d);
    /* the samples, the node and the largest communicator's theta and
     * wake (the most sharing: what tells them best) into the tune file */
    if (tu.me == 0 && tu.write)
        pumma_tune_write_plogp(keys.netkey, &tu.nm.s, tu.nm.add);

    if (tu.report) {
        search_report(tu.nps, tu.nnp, &tu.nm, tu.kind_of, tu.theta_of, tu.wake_of,
                      tu.maxb, tu.reps, tu.k, tu.buf, tu.sum, tu.report);
    } else {
        /* 3. per operation, communicator size and message size: the
         * variant, into the decision file */
        int nr, exps;
        pumma_rule_t *rules = choose_variants(&tu, &nr, &exps);
        d.rules = rules;
        pumma_decide_set_keys(&d, &keys);   /* where it was measured */
        d.nrules = nr;
        write_decisions(&tu, &d, &keys, nr, exps);
        free(rules);
    }
    free(tu.buf);
    free(tu.sum);
    MPI_Finalize();
    return 0;
}
