/*
 * commtim.c -- the communication models of this machine: pLogP measured
 * between two processes (Kielmann's method), Hockney, LogP and LogGP
 * fitted to the same samples, and every broadcast, reduce and shift of
 * pumma timed against what each model predicts for it (pumma_sim.c).
 *
 *   mpiexec -n NP ./xcommtim [-m MAXBYTES] [-b BUDGET_S] [-r REPS]
 *                            [-s SIZES] [-p NPS] [-o FILE.csv]
 *                            [-c PICKS.csv] [-P PLATFORM] [-g]
 *
 * Part 1: the samples between process 0 and the first process on another
 * host, else 1 (as the tuner's: pumma_tune_keys; sizes 0 and powers of two
 * up to MAXBYTES, default 4 MiB, within BUDGET seconds, default 10) and the
 * fitted parameters. Part 2: for communicators of the first p processes,
 * p in NPS (default 2..NP), the poly-model (per size class the model of
 * least error on the tuner's training collectives, pumma_poly_choose),
 * then every
 * variant at each size of SIZES (bytes, default 8 to 4 MiB by 8x): the
 * measured time (per repeat: a barrier, then the collective; the variants
 * of a size take turns, repeat after repeat, in rotated order; the slowest
 * process's median of REPS, default 20, four times as many up to 64 KiB)
 * and each model's prediction. Processes outside the communicator sleep
 * meanwhile (pumma_quiet_barrier).
 * Then, per model and for the poly-model, the error over all cases and
 * how often the variant it would pick (as auto picks from the models:
 * pumma's own variants, the first predicted within PUMMA_MODEL_MARGIN of
 * the fastest) is within 10% of the fastest measured, MPI's included
 * (the target: 90%). The CSV has one row per case and
 * model ("poly": the poly-model's). PICKS.csv has one row per case
 * (communicator size, operation, size) and model:
 *
 *   platform,np,op,bytes,model,pick,pick_s,best,best_s,abs_err
 *
 * (platform: PLATFORM, default "machine"; pick: the candidate the model
 * picks, and pick_s its measured time; best and best_s: the fastest
 * candidate measured, MPI's included; abs_err: the model's mean
 * |predicted - measured| / measured over the case's candidates). The
 * candidates are each variant of the table at its default segment, or
 * with -g every broadcast and reduce candidate auto chooses among
 * (pumma_search_cands: variants with their segments, named
 * "variant/bytes"), as pumma_decide_by_model chooses; -G NP: so on
 * communicators of up to NP processes, each variant at its default
 * segment on larger ones. WARMUPS (default 2) untimed rounds first (0 under
 * SMPI's pure mode, whose times repeat exactly).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pumma_model.h"

enum { KIND_BCAST, KIND_REDUCE, KIND_SHIFT };

/* One collective or roll of `bytes` (doubles) with variant v (at seg
 * bytes a piece, 0: its default) on comm after a barrier: this process's
 * seconds (pumma_time_coll_once). */
static double once(int kind, const void *v, double seg, MPI_Comm comm,
                   double bytes, double *buf, double *sum)
{
    if (kind != KIND_SHIFT)
        return pumma_time_coll_once(v, comm, bytes, seg, buf, sum);
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    const pumma_shift_ops_t *s = v;
    pumma_shift_t sh;
    memset(&sh, 0, sizeof sh);
    sh.sbuf = buf;
    sh.rbuf = sum;
    sh.scount = sh.rcount = (int64_t)(bytes / 8) > 0 ? (int64_t)(bytes / 8) : 1;
    sh.dt = MPI_DOUBLE;
    sh.dest = (me + 1) % np;
    sh.source = (me - 1 + np) % np;
    sh.tag = 9;
    sh.comm = comm;
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    s->start(&sh);
    s->wait(&sh);
    return MPI_Wtime() - t0;
}

static const char *kind_name(int kind)
{
    return kind == KIND_BCAST ? "bcast" : kind == KIND_REDUCE ? "reduce" : "shift";
}

static const char *op_name(int kind, const void *v)
{
    return kind == KIND_SHIFT ? ((const pumma_shift_ops_t *)v)->name
                              : ((const pumma_coll_ops_t *)v)->name;
}

/* A case's candidate: a variant (a broadcast's or reduce's, or a
 * shift's) and, for the collectives, its segment (0: the variant's
 * default). */
typedef struct cand {
    const void *v;
    double seg;
} cand_t;

enum { MAXC = 160 };

/* The case's candidates: with segs, every collective candidate the
 * tuner's searches and the models' choice see (pumma_search_cands: every
 * variant auto may take, MPI's included, each segment from the whole
 * message down to 1 KiB); without, each variant of the table at its
 * default segment. */
static int cands_of(int kind, double bytes, int segs, cand_t *c)
{
    int n = 0;
    if (kind == KIND_SHIFT) {
        for (const pumma_shift_ops_t *v; n < MAXC && (v = pumma_shift_at(n));
             n++)
            c[n].v = v, c[n].seg = 0;
        return n;
    }
    const pumma_table_kind_t tk =
        kind == KIND_BCAST ? PUMMA_BCAST_TABLE : PUMMA_REDUCE_TABLE;
    if (segs) {
        pumma_cand_t pc[MAXC];
        n = pumma_search_cands(tk, floor(bytes / 8) * 8, 0, pc, MAXC);
        for (int i = 0; i < n; i++) c[i].v = pc[i].v, c[i].seg = pc[i].seg;
        return n;
    }
    for (const pumma_coll_ops_t *v; n < MAXC && (v = pumma_comm_at(tk, n));
         n++)
        c[n].v = v, c[n].seg = 0;
    return n;
}

/* "ring-inc" or, at a segment of its own, "pipeline/16384". */
static const char *cand_name(int kind, const cand_t *c, char *buf, size_t n)
{
    if (c->seg > 0)
        snprintf(buf, n, "%s/%.0f", op_name(kind, c->v), c->seg);
    else
        snprintf(buf, n, "%s", op_name(kind, c->v));
    return buf;
}

static double predict(int kind, const cand_t *c, const pumma_netmodel_t *nm,
                      int model, int np, double bytes)
{
    double b = floor(bytes / 8) > 0 ? floor(bytes / 8) * 8 : 8;
    if (kind == KIND_SHIFT) return pumma_sim_shift(c->v, nm, model, np, b);
    if (kind == KIND_BCAST)
        return pumma_sim_bcast(c->v, nm, model, np, 0, b, c->seg, 8);
    return pumma_sim_reduce(c->v, nm, model, np, 0, b, c->seg, 8);
}

/* The candidate model k picks, as auto picks from the models
 * (pumma_decide_by_model): those whose schedule the simulator knows
 * (pumma_sim_knows: pumma's own; MPI's too in an SMPI build), the first
 * in the table's order predicted within
 * PUMMA_MODEL_MARGIN of the fastest. */
static int pick_of(int kind, const cand_t *c, int nv,
                   double (*pred)[PUMMA_NM_COUNT + 1], int k)
{
    double best = INFINITY;
    for (int v = 0; v < nv; v++)
        if ((kind == KIND_SHIFT || pumma_sim_knows(c[v].v)) &&
            pred[v][k] < best)
            best = pred[v][k];
    for (int v = 0; v < nv; v++)
        if ((kind == KIND_SHIFT || pumma_sim_knows(c[v].v)) &&
            pred[v][k] <= best * (1 + PUMMA_MODEL_MARGIN))
            return v;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double maxb = 4 << 20, budget = 10;
    int reps = 20, segs = 0, warm = 2, segmax = 1 << 30;
    const char *csv = NULL, *sizelist = NULL, *nplist = NULL, *picks = NULL,
               *platform = "machine";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-m") && i + 1 < argc) maxb = atof(argv[++i]);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc) budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) csv = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) sizelist = argv[++i];
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) nplist = argv[++i];
        else if (!strcmp(argv[i], "-c") && i + 1 < argc) picks = argv[++i];
        else if (!strcmp(argv[i], "-P") && i + 1 < argc) platform = argv[++i];
        else if (!strcmp(argv[i], "-g")) segs = 1;
        else if (!strcmp(argv[i], "-G") && i + 1 < argc) segs = 1, segmax = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-w") && i + 1 < argc) warm = atoi(argv[++i]);
        else {
            if (me == 0)
                fprintf(stderr, "usage: mpiexec -n NP %s [-m MAXBYTES] [-b "
                                "BUDGET_S] [-r REPS] [-s SIZE,..] [-p NP,..] "
                                "[-o FILE.csv] [-c PICKS.csv] [-P PLATFORM] [-g | -G NP] "
                                "[-w WARMUPS]\n",
                        argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (np < 2 || reps < 1 || warm < 0) {
        if (me == 0) fprintf(stderr, "commtim: needs 2 processes or more\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double sizes[32];
    int nsizes = 0;
    if (sizelist) {
        for (const char *s = sizelist; *s && nsizes < 32;) {
            char *end;
            sizes[nsizes++] = strtod(s, &end);
            s = *end == ',' ? end + 1 : end;
            if (end == s && *s) break;
        }
    } else {
        for (double m = 8; m <= 4 << 20; m *= 8) sizes[nsizes++] = m;
        sizes[nsizes++] = 4 << 20;
    }

    int nps[64], nnp = 0;
    if (nplist) {
        for (const char *s = nplist; *s && nnp < 64;) {
            char *end;
            long x = strtol(s, &end, 10);
            if (end == s) break;
            if (x >= 2 && x <= np) nps[nnp++] = (int)x;
            s = *end == ',' ? end + 1 : end;
        }
    } else {
        for (int p = 2; p <= np && nnp < 64; p++) nps[nnp++] = p;
    }

    /* Part 1: the samples and the fits, between process 0 and the pair
     * the tuner and the library measure: the first process on another
     * host, if any (the network the collectives cross, not the host's
     * shared memory). */
    pumma_netmodel_t nm;
    memset(&nm, 0, sizeof nm);
    pumma_grid_t g;
    memset(&g, 0, sizeof g);
    g.all = MPI_COMM_WORLD;
    pumma_tune_keys_t keys;
    pumma_tune_keys(&g, &keys);
    double t0 = MPI_Wtime();
    if (pumma_plogp_measure(MPI_COMM_WORLD, 0, keys.peer, maxb, budget, &nm.s)) {
        if (me == 0) fprintf(stderr, "commtim: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double spent = MPI_Wtime() - t0;
    pumma_nm_fit(&nm);
    nm.add = pumma_measure_add();
    MPI_Bcast(&nm.add, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    pumma_node_share(MPI_COMM_WORLD, &nm.s.cores, &nm.s.ppn);
    /* processes 0 .. peer-1 share process 0's node: messages between two
     * processes of one node get a model of their own, from 0 and 1 */
    pumma_netmodel_t in;
    memset(&in, 0, sizeof in);
    if (pumma_nm_measure_local(MPI_COMM_WORLD, keys.peer, maxb, budget, &nm,
                               &in)) {
        if (me == 0) fprintf(stderr, "commtim: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (me == 0) {
        printf("pLogP between processes 0 and %d (%d sizes, %.2f s)\n",
               keys.peer, nm.s.n, spent);
        printf("%10s %11s %11s %11s %11s\n", "bytes", "os", "or", "g",
               "rtt");
        for (int i = 0; i < nm.s.n; i++)
            printf("%10.0f %11.3e %11.3e %11.3e %11.3e\n", nm.s.m[i],
                   nm.s.os[i], nm.s.orv[i], nm.s.g[i], nm.s.rtt[i]);
        printf("L = %.3e s\n", nm.s.L);
        printf("hockney  alpha %.3e s, beta %.3e s/B\n", nm.alpha, nm.beta);
        printf("logp     L %.3e s, o %.3e s, g %.3e s, w %.0f B\n", nm.L,
               nm.o, nm.g, nm.w);
        printf("loggp    L %.3e s, o %.3e s, g %.3e s, G %.3e s/B\n", nm.gL,
               nm.gO, nm.gg, nm.gG);
        printf("add      %.3e s/B\n", nm.add);
        printf("sharing  messages in flight at once leave %s\n",
               nm.s.fair > 0.5 ? "side by side, sharing the link (fair)"
                               : "one after another");
        printf("plogpc   %.0f processes to a node of %.0f processors; theta "
               "and wake fitted per communicator\n", nm.s.ppn, nm.s.cores);
        if (nm.local)
            printf("within a node (processes 0 and 1; %d to a node): "
                   "hockney alpha %.3e s, beta %.3e s/B; loggp L %.3e s, "
                   "G %.3e s/B; %s\n", nm.per, in.alpha, in.beta, in.gL,
                   in.gG, in.s.fair > 0.5 ? "fair" : "one after another");
        printf("\n");
    }

    /* Part 2: every variant, measured against each model. */
    FILE *out = me == 0 && csv ? fopen(csv, "w") : NULL;
    if (out)
        fprintf(out, "np,op,variant,bytes,measured_s,model,predicted_s,"
                     "error\n");
    FILE *pk = me == 0 && picks ? fopen(picks, "w") : NULL;
    if (pk)
        fprintf(pk, "platform,np,op,bytes,model,pick,pick_s,best,best_s,"
                    "abs_err\n");
    const size_t nbuf = (size_t)(4 << 20) + 64;
    double *buf = malloc(nbuf), *sum = malloc(nbuf),
           *t = malloc(sizeof(double) * MAXC * (size_t)(4 * reps));
    if (!buf || !sum || !t) MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t i = 0; i < nbuf / 8; i++) buf[i] = 1;
    /* the models, and the poly-model: per communicator and size class the
     * one of least error on the tuner's training collectives */
    enum { NMOD = PUMMA_NM_COUNT + 1, POLY = PUMMA_NM_COUNT };
    double err[NMOD] = {0};
    int ncase = 0, npick = 0, good[NMOD] = {0};
    for (int ip = 0; ip < nnp; ip++) {
        const int p = nps[ip];
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, me < p ? 0 : MPI_UNDEFINED, me, &comm);
        int poly[PUMMA_POLY_NCLASS] = {0};
        double perr[PUMMA_POLY_NCLASS][PUMMA_NM_COUNT];
        if (comm != MPI_COMM_NULL)
            pumma_poly_choose(comm, &nm, maxb, reps, buf, sum, perr, poly);
        pumma_quiet_barrier(MPI_COMM_WORLD);
        MPI_Bcast(poly, PUMMA_POLY_NCLASS, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Bcast(&nm.s.theta, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(&nm.s.wake, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (me == 0) {
            printf("%s%3d processes: theta %.2f, wake %.2e s\n",
                   ip ? "\n" : "", p, nm.s.theta, nm.s.wake);
            for (int c = 0; c < PUMMA_POLY_NCLASS; c++) {
                printf("  from %6.0f B: poly-model %-7s (training errors:",
                       pumma_poly_class_lo[c], pumma_nm_name(poly[c]));
                for (int k = 0; k < PUMMA_NM_COUNT; k++)
                    printf(" %s %.0f%%", pumma_nm_name(k), 100 * perr[c][k]);
                printf(")\n");
            }
            printf("%3s %-6s %-12s %9s %11s   predicted (error):", "np",
                   "op", "variant", "bytes", "measured");
            for (int k = 0; k < PUMMA_NM_COUNT; k++)
                printf(" %s", pumma_nm_name(k));
            printf("\n");
        }
        for (int kind = 0; kind < 3; kind++)
            for (int si = 0; si < nsizes; si++) {
                const double bytes = sizes[si];
                double meas[MAXC], pred[MAXC][NMOD];
                cand_t ops[MAXC];
                char name[64];
                const int nv = cands_of(kind, bytes, segs && p <= segmax, ops);
                /* the variants in turn, repeat after repeat, each round
                 * starting one further: drift, and what runs before and
                 * after, touch all alike */
                /* small messages are cheap to repeat and noisy: 4x */
                const int nr = bytes <= 65536 ? 4 * reps : reps;
                if (comm != MPI_COMM_NULL) {
                    for (int r = -warm; r < nr; r++)
                        for (int j = 0; j < nv; j++) {
                            const int v = (j + r + warm) % nv;
                            const double x = once(kind, ops[v].v, ops[v].seg,
                                                  comm, bytes, buf, sum);
                            if (r >= 0) t[v * nr + r] = x;
                        }
                    for (int v = 0; v < nv; v++)
                        meas[v] = pumma_slowest_median(t + v * nr, nr, comm);
                }
                pumma_quiet_barrier(MPI_COMM_WORLD);
                for (int v = 0; v < nv; v++) {
                    const cand_t *op = &ops[v];
                    cand_name(kind, op, name, sizeof name);
                    if (me == 0) {
                        printf("%3d %-6s %-12s %9.0f %11.3e  ", p,
                               kind_name(kind),
                               name, bytes, meas[v]);
                        for (int k = 0; k < PUMMA_NM_COUNT; k++) {
                            double x = predict(kind, op, &nm, k, p, bytes);
                            double e = (x - meas[v]) / meas[v];
                            pred[v][k] = x;
                            err[k] += fabs(e);
                            printf(" %9.3e (%+5.0f%%)", x, 100 * e);
                            if (out)
                                fprintf(out, "%d,%s,%s,%.0f,%.6e,%s,%.6e,%.4f\n",
                                        p,
                                        kind_name(kind),
                                        name, bytes, meas[v],
                                        pumma_nm_name(k), x, e);
                        }
                        pred[v][POLY] = pred[v][poly[pumma_poly_class(bytes)]];
                        err[POLY] += fabs(pred[v][POLY] - meas[v]) / meas[v];
                        if (out)
                            fprintf(out, "%d,%s,%s,%.0f,%.6e,poly,%.6e,%.4f\n",
                                    p,
                                    kind_name(kind),
                                    name, bytes, meas[v], pred[v][POLY],
                                    (pred[v][POLY] - meas[v]) / meas[v]);
                        printf("\n");
                        ncase++;
                    }
                }
                /* the variant each model picks, against the fastest */
                if (me == 0 && nv > 1) {
                    double best = 1e30;
                    int bv = 0;
                    for (int v = 0; v < nv; v++)
                        if (meas[v] < best) best = meas[v], bv = v;
                    npick++;
                    for (int k = 0; k < NMOD; k++) {
                        const int pick = pick_of(kind, ops, nv, pred, k);
                        if (meas[pick] <= 1.10 * best) good[k]++;
                        if (!pk) continue;
                        double ae = 0;
                        for (int v = 0; v < nv; v++)
                            ae += fabs(pred[v][k] - meas[v]) / meas[v];
                        char bname[64];
                        fprintf(pk, "%s,%d,%s,%.0f,%s,%s,%.6e,%s,%.6e,%.4f\n",
                                platform, p, kind_name(kind), bytes,
                                k == POLY ? "poly" : pumma_nm_name(k),
                                cand_name(kind, &ops[pick], name, sizeof name),
                                meas[pick],
                                cand_name(kind, &ops[bv], bname, sizeof bname),
                                best, ae / nv);
                    }
                    if (pk) fflush(pk);     /* a stopped run keeps its cases */
                }
            }
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    }
    if (me == 0) {
        printf("\n%-8s %16s %28s\n", "model", "mean |error|",
               "pick within 10% of best");
        for (int k = 0; k < NMOD; k++)
            printf("%-8s %15.1f%% %20d of %d (%.0f%%)\n",
                   k == POLY ? "poly" : pumma_nm_name(k),
                   100 * err[k] / ncase, good[k], npick,
                   100.0 * good[k] / npick);
    }
    if (out) fclose(out);
    if (pk) fclose(pk);
    free(buf);
    free(sum);
    free(t);
    MPI_Finalize();
    return 0;
}
