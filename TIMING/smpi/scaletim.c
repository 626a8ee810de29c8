/*
 * scaletim.c -- one grid of a simulated scaling run (TIMING/smpi/scale.sh,
 * `make -C TIMING smpi-scale`; doc/smpi.md): PDGEMM by pumma and by
 * ScaLAPACK on the same operands, and ScaLAPACK's PDGETRF and PDPOTRF
 * with each PDGEMM, built by `make smpi` (build-smpi/bin/xscaletim) and
 * run by smpirun with P*Q ranks.
 *
 *   smpirun -np P*Q ... xscaletim -g PxQ -c CASE[,CASE..] [-b NB] [-r R] [-R R]
 *                              [-p PLATFORM] [-s SERIES] [-o FILE.csv]
 *                              [-i IMPL[,IMPL..]]
 *
 * CASE: MxNxK or MxNxK:TT (PDGEMM, TRANSA TRANSB; NN when not given),
 * getrf:N (PDGETRF of a random N x N matrix: pivots happen) or potrf:N
 * (PDPOTRF, lower, of a random symmetric matrix plus N on its diagonal).
 * IMPL: pumma (its planner's choice), scalapack, split or layers (pumma
 * with that algorithm asked for by the call's options: the cube plans,
 * which auto leaves out); default pumma,scalapack.
 * Each case runs the implementations in turn (pumma, split, layers,
 * scalapack), after one call of the smallest
 * size first on the grid (pumma measures its model there), then the best
 * of -r R (1) calls of pumma and of -R R (1) of ScaLAPACK, which keeps no
 * state from call to call (its simulated repeats agree within 0.2%, and
 * at 1,024 ranks each takes minutes to simulate). Rows are appended to FILE.csv (scale.csv; the header
 * when the file is new):
 *
 *   platform,impl,P,Q,M,N,K,trans,nb,sim_s,gflops,wall_s,words_recv_max,
 *   words_bound,series,routine,info,pred_s,plan,pred_plan,mem_max,
 *   mem_budget
 *
 * sim_s: the slowest process's simulated time of the call (from a
 * barrier); wall_s: the simulation's own wall time for it (every rank
 * runs in this one process); words_recv_max: the most words (elements of
 * the type) one process received during the call, counted in the MPI
 * profiling layer (INSTALL/smpi/pumma_smpi_count.c), the same measure for
 * both; words_bound (PDGEMM only): the lower bound of Irony, Toledo and
 * Tiskin in the form COSMA attains, 3 (mnk/P)^(2/3) - (mn + mk + nk)/P,
 * or its memory-limited form (Kwasniewski et al., Theorem 2) when the
 * memory pumma may use is less than (mnk/P)^(2/3) words
 * (pumma_words_bound, as PUMMA_STATS). info: the routine's INFO.
 * pred_s (pumma's PDGEMM rows): what pumma's own simulator says of the
 * call, pumma_plan_predict_on the grid as pumma measured it on this
 * simulated platform at its first call (its model, host speeds and
 * clusters), of the plan
 * its planner chooses, pred_plan, beside the plan that ran (plan).
 * mem_max (PDGEMM rows): the most bytes of workspace one process of
 * pumma's held at once during the call (pumma_mem_peak; empty for
 * ScaLAPACK's, whose buffers pumma does not see); mem_budget: the
 * workspace pumma plans within (PUMMA_MAX_WORKSPACE, else the default
 * share; empty when unlimited).
 *
 * Under the compute model (PUMMA_SMPI_COMPUTE) PDGEMM's operands are
 * folded (SMPI_SHARED_MALLOC: every rank's the same memory, so 1,024
 * ranks fit here) and left unfilled: nothing reads them but copies. The
 * factorizations' matrices are never folded and always get their random
 * entries: their panels run for real, and pivoting happens.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pumma.h"
#include "pumma_driver.h"
#include "timutil.h"

#ifdef clock_gettime            /* SMPI's simulated clock: the real one */
#undef clock_gettime
#endif

void pdgemm_(const char *, const char *, const int *, const int *,
             const int *, const double *, const double *, const int *,
             const int *, const int *, const double *, const int *,
             const int *, const int *, const double *, double *, const int *,
             const int *, const int *);
void pdgetrf_(const int *, const int *, double *, const int *, const int *,
              const int *, int *, int *);
void pdpotrf_(const char *, const int *, double *, const int *, const int *,
              const int *, int *);
void pumma_smpi_count(int start);          /* INSTALL/smpi/pumma_smpi_count.c */
double pumma_smpi_recv_max(MPI_Comm comm);

enum { GEMM, GETRF, POTRF };
static const char *const routine[] = {"pdgemm", "pdgetrf", "pdpotrf"};

typedef struct {
    int r, m, n, k;
    char ta, tb;
    char name[32];
} case_t;

static int me, np, P, Q, nb = 64, reps = 1, sreps = 1, myr, myc, ctxt;
static const char *platform = "-", *series = "-", *out = "scale.csv";
/* The implementations: ScaLAPACK's PDGEMM, and pumma's with its own
 * choice or with an algorithm asked for (pumma_pdgemm_opts). */
enum { SCALAPACK, PUMMA, SPLIT, LAYERS, NIMPL };
static const char *const impl_name[NIMPL] = {"scalapack", "pumma", "split",
                                             "layers"};
static const int impl_algo[NIMPL] = {0, 0, PUMMA_ALGO_SPLIT, PUMMA_ALGO_LAYERS};
static const int impl_order[NIMPL] = {PUMMA, SPLIT, LAYERS, SCALAPACK};
static int impls = 1 << PUMMA | 1 << SCALAPACK;

static void stop(const char *what, const char *arg)
{
    if (me == 0) fprintf(stderr, "xscaletim: %s%s\n", what, arg ? arg : "");
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int parse_case(const char *s, case_t *c)
{
    int used = 0;
    char tr[3] = "NN";
    memset(c, 0, sizeof *c);
    if (sscanf(s, "getrf:%d%n", &c->n, &used) == 1) c->r = GETRF;
    else if (sscanf(s, "potrf:%d%n", &c->n, &used) == 1) c->r = POTRF;
    else if (sscanf(s, "%dx%dx%d%n", &c->m, &c->n, &c->k, &used) == 3) {
        c->r = GEMM;
        if (s[used] == ':') {
            int more;
            if (sscanf(s + used + 1, "%2[NTCntc]%n", tr, &more) != 1 || more != 2)
                return 0;
            used += 3;
        }
    } else
        return 0;
    if (c->r != GEMM) c->m = c->k = c->n;
    c->ta = (char)(tr[0] & ~0x20);
    c->tb = (char)(tr[1] & ~0x20);
    return s[used] == 0 && c->m > 0 && c->n > 0 && c->k > 0;
}

/* An m x n operand's descriptor and folded, unfilled local part (the
 * block tim_mat_make takes is never touched: given back at once). */
static void mat_folded(tim_mat_t *x, int m, int n)
{
    tim_mat_make(x, 0, ctxt, m, n, nb, myr, myc, P, Q);
    free(x->a);
    x->a = SMPI_SHARED_MALLOC(sizeof(double) * (size_t)x->lld *
                              (size_t)(x->nloc > 0 ? x->nloc : 1));
}

/* One call of case c by implementation `use`: its simulated time
 * (slowest process), wall time, the most words a process received and
 * INFO. */
typedef struct {
    double sim, wall, words, pred, mem;
    int info;
    char plan[128], pred_plan[128];
} run_t;

static run_t run(const case_t *c, int use, int fill)
{
    run_t res = {0};
    const int one = 1;
    const int am = c->ta == 'N' ? c->m : c->k, an = c->ta == 'N' ? c->k : c->m;
    const int bm = c->tb == 'N' ? c->k : c->n, bn = c->tb == 'N' ? c->n : c->k;
    tim_mat_t A = {0}, B = {0}, C = {0};
    if (c->r == GEMM && !fill) {
        mat_folded(&A, am, an);
        mat_folded(&B, bm, bn);
        mat_folded(&C, c->m, c->n);
    } else if (c->r == GEMM) {
        tim_mat_make(&A, 1, ctxt, am, an, nb, myr, myc, P, Q);
        tim_mat_make(&B, 2, ctxt, bm, bn, nb, myr, myc, P, Q);
        tim_mat_make(&C, 3, ctxt, c->m, c->n, nb, myr, myc, P, Q);
    } else {
        tim_mat_make(&A, 0, ctxt, c->n, c->n, nb, myr, myc, P, Q);
        if (A.a)
            tim_fill(A.a, A.lld, A.mloc, A.nloc, nb, myr, myc, P, Q, 1,
                     c->r == POTRF ? c->n : 0);
    }
    int ok = A.a && (c->r != GEMM || (B.a && C.a)), all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) stop("out of memory for the operands", NULL);
    int *ipiv = malloc(sizeof(int) * (size_t)(A.mloc + nb));
    pumma_use(use != SCALAPACK);
    pumma_smpi_count(1);
    pumma_mem_peak(1);
    MPI_Barrier(MPI_COMM_WORLD);
    const double w0 = wall(), t0 = MPI_Wtime();
    if (c->r == GEMM) {
        const double alpha = 1, beta = 1;
        char ta[2] = {c->ta, 0}, tb[2] = {c->tb, 0};
        if (impl_algo[use]) {
            const pumma_options_t o = {.algo = impl_algo[use]};
            pumma_pdgemm_opts(ta, tb, &c->m, &c->n, &c->k, &alpha, A.a, &one,
                              &one, A.desc, B.a, &one, &one, B.desc, &beta,
                              C.a, &one, &one, C.desc, &o, &res.info);
        } else {
            pdgemm_(ta, tb, &c->m, &c->n, &c->k, &alpha, A.a, &one, &one,
                    A.desc, B.a, &one, &one, B.desc, &beta, C.a, &one, &one,
                    C.desc);
        }
    } else if (c->r == GETRF)
        pdgetrf_(&c->n, &c->n, A.a, &one, &one, A.desc, ipiv, &res.info);
    else
        pdpotrf_("L", &c->n, A.a, &one, &one, A.desc, &res.info);
    res.sim = tim_slowest(t0);
    pumma_smpi_count(0);
    const double held = (double)pumma_mem_peak(0);
    MPI_Allreduce(&held, &res.mem, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (use != SCALAPACK && c->r == GEMM) {  /* the plan that ran, and what pumma predicts */
        snprintf(res.plan, sizeof res.plan, "%s", pumma_last_plan());
        pumma_opts_t force = {0};
        force.algo = impl_algo[use] ? impl_name[use] : NULL;
        res.pred = pumma_plan_predict_on(pumma_grid_enter(ctxt), &pumma_type_d,
                                         c->ta, c->tb, c->m, c->n, c->k, nb,
                                         impl_algo[use] ? &force : NULL,
                                         res.pred_plan, sizeof res.pred_plan);
    }
    res.wall = wall() - w0;
    res.words = pumma_smpi_recv_max(MPI_COMM_WORLD) / sizeof(double);
    int worst;
    MPI_Allreduce(&res.info, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    res.info = worst;
    pumma_use(1);
    free(ipiv);
    if (c->r == GEMM && !fill) {
        SMPI_SHARED_FREE(A.a);
        SMPI_SHARED_FREE(B.a);
        SMPI_SHARED_FREE(C.a);
    } else {
        free(A.a);
        free(B.a);
        free(C.a);
    }
    return res;
}

static double flops(const case_t *c)
{
    const double n = c->n;
    return c->r == GEMM    ? 2.0 * c->m * (double)c->n * c->k
           : c->r == GETRF ? 2.0 / 3.0 * n * n * n
                           : n * n * n / 3.0;
}

/* The most rows (or columns) of n a process holds, blocks of nb dealt
 * over p processes from the first. */
static double most_local(int n, int p)
{
    const double blocks = ceil((double)n / nb), each = ceil(blocks / p) * nb;
    return each < n ? each : n;
}

/* The bytes of the largest local parts of A, B and C, summed
 * (pumma_plan_operands). */
static double operands(const case_t *c)
{
    const int am = c->ta == 'N' ? c->m : c->k, an = c->ta == 'N' ? c->k : c->m;
    const int bm = c->tb == 'N' ? c->k : c->n, bn = c->tb == 'N' ? c->n : c->k;
    return 8 * (most_local(am, P) * most_local(an, Q) +
                most_local(bm, P) * most_local(bn, Q) +
                most_local(c->m, P) * most_local(c->n, Q));
}

/* The workspace pumma plans within, in bytes (INFINITY: no limit), as
 * pumma_plan_limit sets it: PUMMA_MAX_WORKSPACE, else the default
 * factor of the operands' bytes, at least the floor (doc/memory.md, "The
 * workspace limit"). */
static double budget(const case_t *c)
{
    const double held = operands(c), env = pumma_plan_env_limit();
    return env > 0 ? env : env == 0 ? INFINITY
           : PUMMA_WORKSPACE_FACTOR * held > PUMMA_WORKSPACE_FLOOR
               ? PUMMA_WORKSPACE_FACTOR * held : PUMMA_WORKSPACE_FLOOR;
}

/* The words bound PUMMA_STATS gives (pumma_words_bound, pumma_gemm.c):
 * the memory a process may hold is its operands and the workspace
 * budget, in doubles. */
static double bound(const case_t *c)
{
    if (c->r != GEMM) return NAN;
    int limited;
    return pumma_words_bound(c->m, c->n, c->k, np,
                             (operands(c) + budget(c)) / 8, &limited);
}

static void row(FILE *f, const case_t *c, const char *impl, const run_t *r)
{
    char tr[3] = {c->ta, c->tb, 0};
    fprintf(f, "%s,%s,%d,%d,%d,%d,%d,%s,%d,%.6g,%.6g,%.3f,%.6g,", platform,
            impl, P, Q, c->m, c->n, c->k, c->r == GEMM ? tr : "-", nb, r->sim,
            flops(c) / r->sim * 1e-9, r->wall, r->words);
    if (c->r == GEMM) fprintf(f, "%.6g", bound(c));
    fprintf(f, ",%s,%s,%d,", series, routine[c->r], r->info);
    if (r->pred > 0) fprintf(f, "%.6g", r->pred);
    fprintf(f, ",\"%s\",\"%s\",", r->plan, r->pred_plan);
    if (c->r == GEMM && strcmp(impl, "scalapack")) {
        const double b = budget(c);
        fprintf(f, "%.6g,", r->mem);
        if (isfinite(b)) fprintf(f, "%.6g", b);
    } else
        fprintf(f, ",");
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    const double w_start = wall();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *grid = NULL, *cases = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "g:c:b:r:R:p:s:o:i:")) != -1) {
        switch (opt) {
        case 'g': grid = optarg; break;
        case 'c': cases = optarg; break;
        case 'b': nb = atoi(optarg); break;
        case 'r': reps = atoi(optarg); break;
        case 'R': sreps = atoi(optarg); break;
        case 'p': platform = optarg; break;
        case 's': series = optarg; break;
        case 'o': out = optarg; break;
        case 'i': {
            impls = 0;
            char *l = strdup(optarg), *save = NULL;
            for (char *w = strtok_r(l, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
                int x = 0;
                while (x < NIMPL && strcmp(w, impl_name[x])) x++;
                if (x == NIMPL) stop("-i takes pumma, scalapack, split or layers, not ", w);
                impls |= 1 << x;
            }
            free(l);
            break;
        }
        default: stop("usage: xscaletim -g PxQ -c CASE[,CASE..] [-b NB] "
                      "[-r R] [-R R] [-p PLATFORM] [-s SERIES] [-o FILE.csv] "
                      "[-i IMPL[,IMPL..]]", NULL);
        }
    }
    if (!grid || sscanf(grid, "%dx%d", &P, &Q) != 2 || P < 1 || Q < 1 ||
        P * Q != np)
        stop("-g PxQ with P*Q the number of ranks, not ", grid ? grid : "given");
    if (!cases) stop("-c CASE[,CASE..] missing", NULL);
    if (nb < 1 || reps < 1 || sreps < 1) stop("-b, -r and -R take positive numbers", NULL);
    enum { MAXC = 64 };
    case_t cs[MAXC];
    int nc = 0;
    char *list = strdup(cases);
    for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
        if (nc == MAXC) stop("more than 64 cases", NULL);
        if (!parse_case(s, &cs[nc]) || strlen(s) >= sizeof cs[nc].name)
            stop("bad case (MxNxK[:TT], getrf:N, potrf:N): ", s);
        strcpy(cs[nc++].name, s);
    }
    const int modelled = getenv("PUMMA_SMPI_COMPUTE") && *getenv("PUMMA_SMPI_COMPUTE");
    ctxt = tim_gridinit(P, Q, &myr, &myc);
    FILE *f = NULL;
    if (me == 0) {
        const int fresh = access(out, F_OK) != 0;
        if (!(f = fopen(out, "a"))) stop("cannot write ", out);
        if (fresh)
            fprintf(f, "platform,impl,P,Q,M,N,K,trans,nb,sim_s,gflops,wall_s,"
                       "words_recv_max,words_bound,series,routine,info,"
                       "pred_s,plan,pred_plan,mem_max,mem_budget\n");
    }
    /* pumma measures the grid's model at its first call: not timed */
    const case_t warm = {GEMM, nb, nb, nb, 'N', 'N', "warm"};
    const double w_grid = wall();
    run(&warm, PUMMA, 1);
    const double w_pumma = wall();
    run(&warm, SCALAPACK, 1);
    if (me == 0)   /* where a large simulation's wall time goes */
        printf("%dx%d setup: %.1f s of wall time to the grid, %.1f s for "
               "pumma's first call, %.1f s for ScaLAPACK's\n", P, Q,
               w_grid - w_start, w_pumma - w_grid, wall() - w_pumma);
    for (int i = 0; i < nc; i++) {
        const int fill = cs[i].r != GEMM || !modelled;
        for (int u = 0; u < NIMPL; u++) {
            const int use = impl_order[u];
            if (!(impls >> use & 1) || (use >= SPLIT && cs[i].r != GEMM)) continue;
            run_t best = {0};
            char each[256] = "";           /* every repeat's time, for the log */
            const int n = use != SCALAPACK ? reps : sreps;
            for (int r = 0; r < n; r++) {
                const run_t x = run(&cs[i], use, fill);
                if (r == 0 || x.sim < best.sim) best = x;
                const size_t l = strlen(each);
                if (n > 1 && l < sizeof each - 16)
                    snprintf(each + l, sizeof each - l, " %.4g", x.sim);
            }
            if (me == 0) {
                row(f, &cs[i], impl_name[use], &best);
                fflush(f);
                printf("%dx%d %-8s %-22s %-9s %10.4f s sim %8.1f s wall %12.4g words%s%s%s\n",
                       P, Q, routine[cs[i].r], cs[i].name, impl_name[use],
                       best.sim, best.wall, best.words, best.info ? " INFO != 0" : "",
                       *each ? " each:" : "", each);
                if (best.pred > 0)
                    printf("    ran %s; pumma predicts %.4f s for %s\n", best.plan,
                           best.pred, best.pred_plan);
                fflush(stdout);
            }
        }
    }
    if (f) fclose(f);
    free(list);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return 0;
}
