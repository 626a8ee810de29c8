/*
 * pumma_stats.c -- what PUMMA_STATS=1 reports.
 *
 * Per (routine, algorithm, variants) this process counts calls, wall time,
 * time in the local multiply, time blocked on communication (waits, the
 * redistributions) and bytes it sent. MPI_COMM_WORLD rank 0 prints its
 * records when the program exits, one line each, beginning `pumma-stats:`;
 * then its notes, each once: a forced choice a call could not take
 * ("asked bcast=binomial, ran - (mdb2 on a 1x2 grid)"), a decision file
 * measured elsewhere and ignored.
 * Off (the default), every hook is one test of a flag. The memory pumma
 * holds (peak_mem, cached_mem) is pumma_mem.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "pumma.h"
#include "pumma_base.h"

typedef struct rec {
    char rout[8], plan[128];     /* pumma_plan_format's short text */
    long calls, limited;
    double total, gemm, comm, bytes;
    double words, bound;         /* sums over the calls: pumma_stats_words */
    long forms[PUMMA_BOUND_FORMS];  /* calls by their bound's form */
} rec_t;

enum { MAXREC = 64 };
static rec_t recs[MAXREC];
static long unlisted;           /* calls of plans beyond the MAXREC listed */
static int nrec = 0, world_rank = -1;
static rec_t *cur = NULL;
static double t_begin, call_recv;

/* The decisions of auto broadcasts and reduces (pumma_coll_auto.c), by
 * what was decided and by whom. */
typedef struct drec {
    const char *op, *variant, *model;   /* model: NULL when none */
    int np, source;
    double seg, lo, hi;
    long messages;
} drec_t;
enum { MAXDREC = 64 };
static drec_t drecs[MAXDREC];
static int ndrec = 0;

/* Notes: lines of their own, each said once -- forced choices a call
 * could not take (kind, asked and ran make one: `key` is that much of
 * the text), the decision file ignored, ... */
enum { MAXNOTE = 32, NOTELEN = 2048 };
static struct { char text[NOTELEN]; size_t key; } notes[MAXNOTE];
static int nnote = 0;

static pumma_model_t model;          /* the last model measured or set */

int pumma_stats_on(void)
{
    return pumma_setting(PUMMA_SET_STATS)->stats > 0;
}

/* PUMMA_STATS=2: one line per call, said by the grid's first process, so
 * that the plans of two builds can be compared call by call (the line is
 * one write: processes sharing a terminal do not cut into it). */
void pumma_stats_trace(int lead, const char *rout, char ta, char tb, int m,
                       int n, int k, int nprow, int npcol, const char *plan)
{
    static long seq = 0;
    if (pumma_setting(PUMMA_SET_STATS)->stats < 2) return;
    seq++;
    if (!lead) return;
    char line[512];
    snprintf(line, sizeof line, "pumma-plan: %ld %s %c%c %d %d %d %dx%d %s\n",
             seq, rout, ta, tb, m, n, k, nprow, npcol, plan);
    fputs(line, stderr);
}

/* Heterogeneous multiplies, per process of the last grid that ran one
 * (gathered on its process 0): elements sent, seconds in the calls, and
 * of those in the local multiply -- the load balance a layout gives. */
enum { MAXELEM = 256 };
static double elems[MAXELEM], htime[MAXELEM], hgemm[MAXELEM];
static int nelems = 0;
static double call_gemm;             /* local multiply in the current call */

static void per_process(const char *what, const double *v, int digits)
{
    double sum = 0;
    printf("pumma-stats: %s", what);
    for (int p = 0; p < nelems; p++) {
        printf(" p%d=%.*f", p, digits, v[p]);
        sum += v[p];
    }
    printf(" total=%.*f\n", digits, sum);
}

static void report_all(void)
{
    if (world_rank != 0) return;
    if (model.valid)
        printf("pumma-stats: model alpha=%.3g beta=%.3g overlap=%.3g "
               "gamma_s=%.3g gamma_d=%.3g gamma_c=%.3g gamma_z=%.3g "
               "gamma_k=%.3g gamma_t=%.3g delta=%.3g delta_t=%.3g\n",
               model.alpha, model.beta, model.overlap, model.gamma[0],
               model.gamma[1],
               model.gamma[2], model.gamma[3], model.gamma_k, model.gamma_t,
               model.delta, model.delta_t);
    if (model.valid && (model.share[0] > 1 || model.share[1] > 1))
        printf("pumma-stats: model link share_col=%g share_row=%g\n",
               model.share[0] > 1 ? model.share[0] : 1,
               model.share[1] > 1 ? model.share[1] : 1);
    if (model.valid && model.fair > 0.5)
        printf("pumma-stats: model fair network (pieces posted together "
               "share the link)\n");
    if (model.valid)          /* where the values came from */
        printf("pumma-stats: model source local=%s net=%s seconds=%.4f\n",
               model.from_env & PUMMA_LOCAL_BITS ? "PUMMA_MODEL"
               : model.from_file & PUMMA_LOCAL_BITS ? "tune-file" : "measured",
               model.from_env & PUMMA_NET_BITS ? "PUMMA_MODEL"
               : model.from_file & PUMMA_NET_BITS ? "tune-file" : "measured",
               model.seconds);
    for (int i = 0; i < nrec; i++) {
        rec_t *r = &recs[i];
        char forms[32] = "";     /* the forms of the calls' bounds, by '+' */
        for (int f = 0; f < PUMMA_BOUND_FORMS; f++)
            if (r->forms[f])
                snprintf(forms + strlen(forms), sizeof forms - strlen(forms),
                         "%s%s", *forms ? "+" : "", pumma_bound_form_name(f));
        printf("pumma-stats: %s calls=%ld %s time=%.6f gemm=%.6f comm=%.6f "
               "bytes_sent=%.0f peak_mem=%zu cached_mem=%zu limited=%ld "
               "words_recv_max=%.0f words_bound=%.0f bound_form=%s\n",
               r->rout, r->calls, r->plan, r->total, r->gemm, r->comm,
               r->bytes, pumma_mem_peak(0), pumma_mem_cached(), r->limited, r->words,
               r->bound, *forms ? forms : "-");
    }
    if (unlisted)
        printf("pumma-stats: %ld calls of further plans not listed (%d plans "
               "are)\n", unlisted, MAXREC);
    for (int i = 0; i < nnote; i++)
        printf("pumma-stats: %s\n", notes[i].text);
    for (int i = 0; i < ndrec; i++) {
        const drec_t *d = &drecs[i];
        static const char *const src[] = {"file", "model", "default"};
        printf("pumma-stats: decide op=%s np=%d variant=%s segment=%.0f "
               "source=%s%s%s messages=%ld bytes=%.0f-%.0f\n", d->op, d->np,
               d->variant, d->seg, src[d->source],
               d->model ? " model=" : "", d->model ? d->model : "",
               d->messages, d->lo, d->hi);
    }
    if (nelems > 0) {
        per_process("elements_sent", elems, 0);
        per_process("het_time", htime, 6);
        per_process("het_gemm", hgemm, 6);
    }
    fflush(stdout);
}

/* At exit, after the program's own atexit handlers registered later and
 * before those registered earlier: its sums leave no flags to them. */
static void report(void) { PUMMA_FENV_CALL(report_all()); }

void pumma_stats_begin(const char *rout, const char *plan)
{
    cur = NULL;
    if (!pumma_stats_on()) return;
    if (world_rank < 0) {
        MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
        atexit(report);
    }
    for (int i = 0; i < nrec && !cur; i++)
        if (!strcmp(recs[i].rout, rout) && !strcmp(recs[i].plan, plan))
            cur = &recs[i];
    if (!cur && nrec < MAXREC) {
        cur = &recs[nrec++];
        snprintf(cur->rout, sizeof cur->rout, "%s", rout);
        snprintf(cur->plan, sizeof cur->plan, "%s", plan);
    }
    if (cur) cur->calls++;
    else unlisted++;
    call_gemm = 0;
    call_recv = 0;
    t_begin = MPI_Wtime();
}

void pumma_stats_decide(const char *op, int np, double bytes,
                        const char *variant, double seg, int source,
                        const char *model)
{
    if (!pumma_stats_on()) return;
    if (world_rank < 0) {
        MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
        atexit(report);
    }
    drec_t *d = NULL;
    for (int i = 0; i < ndrec && !d; i++)
        if (!strcmp(drecs[i].op, op) && drecs[i].np == np &&
            !strcmp(drecs[i].variant, variant) && drecs[i].seg == seg &&
            drecs[i].source == source &&
            (drecs[i].model == model ||
             (drecs[i].model && model && !strcmp(drecs[i].model, model))))
            d = &drecs[i];
    if (!d) {
        if (ndrec == MAXDREC) return;
        d = &drecs[ndrec++];
        *d = (drec_t){op, variant, model, np, source, seg, bytes, bytes, 0};
    }
    d->messages++;
    if (bytes < d->lo) d->lo = bytes;
    if (bytes > d->hi) d->hi = bytes;
}

/* Registers the report at exit, on MPI_COMM_WORLD's rank 0 only. */
static void report_at_exit(void)
{
    if (world_rank < 0) {
        MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
        atexit(report);
    }
}

/* A note of text (its first `key` bytes tell it apart), once. */
static void note(const char *text, size_t key)
{
    if (!pumma_stats_on()) return;
    report_at_exit();
    for (int i = 0; i < nnote; i++)
        if (notes[i].key == key && !strncmp(notes[i].text, text, key)) return;
    if (nnote == MAXNOTE) return;
    snprintf(notes[nnote].text, NOTELEN, "%s", text);
    notes[nnote].key = key < NOTELEN ? key : NOTELEN - 1;
    nnote++;
}

void pumma_stats_note(const char *text) { note(text, strlen(text)); }

void pumma_stats_forced(const char *kind, const char *asked, const char *ran,
                        const char *why)
{
    if (!pumma_stats_on()) return;
    char t[NOTELEN];
    const int key = snprintf(t, sizeof t, "asked %s=%s, ran %s", kind, asked,
                             ran);
    if (key < 0 || key >= NOTELEN) return;   /* names: never so long */
    snprintf(t + key, sizeof t - (size_t)key, " (%s)", why);
    note(t, (size_t)key);
}

void pumma_stats_limited(int changed)
{
    if (cur && changed) cur->limited++;
}

void pumma_stats_end(void)
{
    if (cur) cur->total += MPI_Wtime() - t_begin;
    cur = NULL;
}

void pumma_stats_het(MPI_Comm all_comm, int np, const int *rank,
                     double elements)
{
    /* A collective: every process of the grid must take part, so it may
     * depend only on what they share (PUMMA_STATS, compared at the grid's
     * first call), never on this process's records -- their table fills
     * at different calls on different processes (local products run on
     * some only), and a process that skipped the gather went on to its
     * next call's messages while the others waited here. */
    if (!pumma_stats_on()) return;
    int me;
    double mine[3] = {elements, MPI_Wtime() - t_begin, call_gemm};
    double all[3 * MAXELEM];
    if (np > MAXELEM) return;
    MPI_Comm_rank(all_comm, &me);
    MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, rank[0], all_comm);
    if (me != rank[0]) return;
    if (nelems != np) {
        memset(elems, 0, sizeof elems);
        memset(htime, 0, sizeof htime);
        memset(hgemm, 0, sizeof hgemm);
        nelems = np;
    }
    /* gathered by rank in all_comm; kept by grid position */
    for (int p = 0; p < np; p++) {
        elems[p] += all[3 * rank[p]];
        htime[p] += all[3 * rank[p] + 1];
        hgemm[p] += all[3 * rank[p] + 2];
    }
}

void pumma_stats_model(const pumma_model_t *mo)
{
    if (!pumma_stats_on()) return;
    model = *mo;
    if (world_rank < 0) {
        MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
        atexit(report);
    }
}

double pumma_stats_clock(void) { return cur ? MPI_Wtime() : 0.0; }

void pumma_stats_gemm(double since)
{
    if (!cur) return;
    double t = MPI_Wtime() - since;
    cur->gemm += t;
    call_gemm += t;
}

void pumma_stats_comm(double since)
{
    if (cur) cur->comm += MPI_Wtime() - since;
}

void pumma_stats_recv(double bytes)
{
    if (cur) call_recv += bytes;
}

double pumma_words_bound(double m, double n, double k, double np,
                         double mem, int *form)
{
    /* d1 >= d2 >= d3: the largest matrix is d1 x d2, the smallest d2 x d3 */
    double d1 = m, d2 = n, d3 = k, x;
    if (d1 < d2) { x = d1; d1 = d2; d2 = x; }
    if (d2 < d3) { x = d2; d2 = d3; d3 = x; }
    if (d1 < d2) { x = d1; d1 = d2; d2 = x; }
    const double cube = pow(m * n * k / np, 2.0 / 3.0);
    const double held = (m * n + m * k + n * k) / np;
    double b;
    if (np <= d1 / d2) {              /* all of the smallest matrix */
        *form = PUMMA_BOUND_1D;
        b = d2 * d3 * (1 - 1 / np);
    } else if (np <= d1 * d2 / (d3 * d3)) {   /* the largest stays put */
        *form = PUMMA_BOUND_2D;
        b = 2 * d3 * sqrt(d1 * d2 / np) - (d1 * d3 + d2 * d3) / np;
    } else {
        *form = PUMMA_BOUND_3D;
        b = 3 * cube - held;
    }
    if (mem < cube) {
        /* Theorem 2's form: above the 3D one wherever mem < cube (2F/sqrt(S)
         * + S falls until S = F^(2/3), where it is 3F^(2/3)), so it is taken
         * there without comparing; above the others where it is larger */
        const double lim = 2 * m * n * k / (np * sqrt(mem)) + mem - held;
        if (*form == PUMMA_BOUND_3D || lim > b) {
            *form = PUMMA_BOUND_MEMORY;
            b = lim;
        }
    }
    return b > 0 ? b : 0;
}

const char *pumma_bound_form_name(int form)
{
    static const char *const names[PUMMA_BOUND_FORMS] = {"3d", "memory", "2d", "1d"};
    return form >= 0 && form < PUMMA_BOUND_FORMS ? names[form] : "?";
}

void pumma_stats_words(MPI_Comm all, int np, double esize, double m,
                       double n, double k, double mem)
{
    if (!pumma_stats_on() || np < 1 || !(esize > 0)) return;
    double mine = call_recv / esize, most = mine;
    if (np > 1) MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, all);
    int form;
    const double b = pumma_words_bound(m, n, k, np, mem, &form);
    if (cur) {
        cur->words += most;
        cur->bound += b;
        cur->forms[form]++;
    }
}

void pumma_stats_sent(double bytes)
{
    if (cur) cur->bytes += bytes;
}
