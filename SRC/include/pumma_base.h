/*
 * pumma_base.h -- the base layer, SRC/base (not installed): what every
 * layer above uses and that uses nothing of pumma's -- the type
 * descriptors, the machine model's values and the prices made of them,
 * the local multiply's BLAS call, PUMMA_SPEEDS, the environment and its
 * settings, temporaries, statistics, the caller's floating-point flags,
 * pumma's own files, and stopping.
 *
 * The layers, bottom to top (doc/internals.md, "The source tree"), each a
 * directory of SRC with one header here of its name:
 *   base < layout < comm < desc < model < algo < driver < fortran, tools
 * A file calls, and includes the header of, its own layer and those below
 * only (`make check-layers`).
 */
#ifndef PUMMA_BASE_H
#define PUMMA_BASE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <mpi.h>

#include "pumma_mangle.h"

/* ------------------------------------------------------------------ types */

/*
 * One type descriptor serves S, D, C and Z: internals do their address
 * arithmetic in bytes with `size` and reach typed arithmetic only through
 * these members (as PBLAS's PBTYP_T does).
 */
typedef void (*pumma_gemm_fn)(const char *ta, const char *tb, const int *m,
                              const int *n, const int *k, const void *alpha,
                              const void *a, const int *lda, const void *b,
                              const int *ldb, const void *beta, void *c,
                              const int *ldc, size_t la, size_t lb);

/* The BLAS ?trsm and ?trmm (the same arguments). */
typedef void (*pumma_trxm_fn)(const char *side, const char *uplo,
                              const char *ta, const char *diag, const int *m,
                              const int *n, const void *alpha, const void *a,
                              const int *lda, void *b, const int *ldb,
                              size_t l1, size_t l2, size_t l3, size_t l4);

typedef struct pumma_type {
    char letter;              /* 'S', 'D', 'C' or 'Z' */
    const char *rout;         /* "PDGEMM", ... for error reports */
    size_t size;              /* bytes per element */
    int is_complex;
    MPI_Datatype mpi;         /* element type for messages and MPI_SUM */
    const void *zero, *one;
    pumma_gemm_fn gemm;       /* Fortran BLAS ?gemm */
    /* Y := alpha*op(X) + beta*Y on an m x n Y; op by `trans` ('N', 'T', 'C',
     * or 'R' = conjugate without transpose). beta == 0 (exactly) never reads Y. */
    void (*geadd)(char trans, int m, int n, const void *alpha, const void *x,
                  int ldx, const void *beta, void *y, int ldy);
    /* 1 when the scalar equals zero / one (complex: both parts). */
    int (*is_zero)(const void *s);
    int (*is_one)(const void *s);
    pumma_trxm_fn trsm, trmm;  /* Fortran BLAS ?trsm, ?trmm */
} pumma_type_t;

extern const pumma_type_t pumma_type_s, pumma_type_d, pumma_type_c,
    pumma_type_z;

/* The routines pumma serves, one id each: P?GEMM and the rest of
 * ScaLAPACK's Level-3 PBLAS (P?TRAN is PSTRAN/PDTRAN, P?TRANU and P?TRANC
 * the complex ones). */
enum {
    PUMMA_R_GEMM, PUMMA_R_SYMM, PUMMA_R_HEMM, PUMMA_R_SYRK, PUMMA_R_HERK,
    PUMMA_R_SYR2K, PUMMA_R_HER2K, PUMMA_R_TRMM, PUMMA_R_TRSM, PUMMA_R_GEADD,
    PUMMA_R_TRADD, PUMMA_R_TRAN, PUMMA_R_TRANU, PUMMA_R_TRANC, PUMMA_NROUT
};
/* ScaLAPACK's name of routine `rout` in type t ("PDSYRK"): what its
 * errors (PB_Cabort), pumma's messages and the statistics call it. */
const char *pumma_rout_name(int rout, const pumma_type_t *t);

/* Byte offset of element (i, j) in a column-major array with leading dim ld. */
static inline char *pumma_at(const pumma_type_t *t, const void *base,
                             int64_t i, int64_t j, int64_t ld)
{
    return (char *)base + (size_t)(i + j * ld) * t->size;
}

/*
 * The alpha-beta-gamma machine model `auto` plans with (SRC/model): see
 * pumma_model.c for what each value means and how it is measured.
 */
typedef struct pumma_model {
    double alpha, beta;      /* s per message, s per byte sent */
    double gamma[4];         /* s per multiply-add of a large GEMM: S D C Z */
    double gamma_k;          /* inner dimension k costs (1 + gamma_k/k) */
    double gamma_t;          /* 'T','T' GEMM over 'N','N' */
    double delta, delta_t;   /* s per byte copied, copied transposed */
    double overlap;          /* share of communication a multiply hides */
    /* share[along] (PUMMA_ALONG_COL 0, ROW 1): on a grid that spans hosts,
     * the most lines of that direction (grid columns, rows) with a process
     * on one host: that many of a step's collectives, which every line
     * runs at once, cross the host's network link together, each at that
     * share of its bandwidth. 1 on one host. Measured with the model, not
     * kept in the tune file (it is the grid's, not the machine's). */
    double share[2];
    /* slow: the grid's slowest local multiply over the first process's
     * (whose gamma and delta the model holds), >= 1; 0 or 1: processes
     * alike. A block-cyclic plan gives every process an equal part, so
     * its steps go at the slowest process's pace (the planner prices
     * local work at it: pumma_model_paced). Measured with the model on a
     * grid that spans hosts (pumma_grid_rates), not kept in the tune
     * file (it is the grid's). */
    double slow;
    /* fair: 1 where the messages a process has in flight at once share
     * its link (pumma_plogp_t.fair): pieces posted together arrive
     * together, so a segmented chain or ring does not pipeline and is
     * priced as unsegmented (pumma_model_pieces); 0, one after another.
     * The tune file's (pumma-tune's samples, through the decider) or
     * measured with the model (pumma_plogp_fair); not kept apart. */
    double fair;
    /* alpha_post: on a grid that spans clusters, where alpha is its
     * slowest link's (pumma_grid_price_model), the fastest link's: what
     * each further message of a redistribution, all posted at once, adds
     * to the first's latency (their latencies overlap; their overheads
     * are a near link's at most). 0: alpha each, as on one network. */
    double alpha_post;
    /* (a value added above must join the plan key, pumma_plan.c) */
    /* Who decides auto's broadcasts and reduces (pumma_model.h); NULL:
     * no decision file and no models, the planner chooses per call. */
    struct pumma_decider *dec;
    unsigned from_env;       /* bit i: value i (PUMMA_V_* below) was */
    unsigned from_file;      /*   PUMMA_MODEL's, the tune file's */
    double seconds;          /* the time it took to get them */
    int valid;
} pumma_model_t;

/* The model's values, in this order: alpha beta overlap (the network's,
 * PUMMA_NNET of them), then gamma_s gamma_d gamma_c gamma_z gamma_k
 * gamma_t delta delta_t (the first process's own). */
enum {
    PUMMA_V_ALPHA, PUMMA_V_BETA, PUMMA_V_OVERLAP,
    PUMMA_V_GAMMA,                         /* + 0..3: S D C Z */
    PUMMA_V_GAMMA_K = PUMMA_V_GAMMA + 4, PUMMA_V_GAMMA_T, PUMMA_V_DELTA,
    PUMMA_V_DELTA_T, PUMMA_NVAL
};
#define PUMMA_NNET 3
#define PUMMA_NET_BITS ((1u << PUMMA_NNET) - 1)
#define PUMMA_LOCAL_BITS (((1u << PUMMA_NVAL) - 1) & ~PUMMA_NET_BITS)

/* Cost pieces (seconds) the variants' and algorithms' cost functions use. */
double pumma_model_msg(const pumma_model_t *mo, double bytes);
int pumma_model_log2(int np);        /* ceil(log2(np)) */
double pumma_model_gemm(const pumma_model_t *mo, const struct pumma_type *t,
                        double m, double n, double k, int transposed);
double pumma_model_copy(const pumma_model_t *mo, double bytes, int transposed);
/* A multiply of `work` seconds with `comm` seconds of messages in flight
 * meanwhile: max(work, comm) when the machine overlaps them (overlap 1),
 * their sum when it cannot (0). */
double pumma_model_hide(const pumma_model_t *mo, double work, double comm);
/* mo as a block-cyclic plan meets it: local work (gamma, delta,
 * delta_t) at the slowest process's pace, mo->slow times the first's. */
void pumma_model_paced(const pumma_model_t *mo, pumma_model_t *out);
int pumma_model_pieces(const pumma_model_t *mo, double bytes, double seg_bytes);
/* A redistribution of `bytes` per process over np processes (Alltoallv,
 * packing copy transposed or not, unpacking copy). */
double pumma_model_redist(const pumma_model_t *mo, int np, double bytes,
                          int transposed);
/* The same when each process exchanges with at most `partners` others
 * (pumma_redist sends one message per pair that has data, so a process
 * holding a few blocks pays a few latencies, not np - 1). */
double pumma_model_redist_among(const pumma_model_t *mo, int np,
                                double partners, double bytes,
                                int transposed);

/* A copy of n elements of t that a simulated run's compute model charges
 * instead of running (make smpi, PUMMA_SMPI_COMPUTE: as the element-wise
 * kernel's): 1 when charged, and the caller then skips it; 0 (always,
 * outside SMPI) when the caller is to copy. */
int pumma_charge_copy(const pumma_type_t *t, long n);

/* ------------------------------------------------------- local helpers */

/* C := beta*C on a local m x n piece (beta == 0: zeroed, never read). */
void pumma_local_scale(const pumma_type_t *t, int m, int n, const void *beta,
                       void *c, int ldc);

/* The one call of the BLAS ?gemm on a caller's C (pumma_local.c): C :=
 * alpha*op(A)*op(B) + beta*C, m, n, k > 0, beta == 0 never reads C. Above
 * PUMMA_BLAS_LDC_MAX, OpenBLAS 0.3.21's small-matrix SGEMM kernels index C
 * with 32-bit j*LDC for j < 16 and crash or write elsewhere; such calls
 * (pumma_blas_ldc_bad) go through a temporary of
 * pumma_blas_gemm_workspace() bytes. */
#define PUMMA_BLAS_LDC_MAX (INT32_MAX / 15)
int pumma_blas_ldc_bad(const pumma_type_t *t, int n, int64_t ldc);
size_t pumma_blas_gemm_workspace(const pumma_type_t *t, int m, int n,
                                 int64_t ldc);
void pumma_blas_gemm(const pumma_type_t *t, char ta, char tb, int m, int n,
                     int k, const void *alpha, const void *a, int lda,
                     const void *b, int ldb, const void *beta, void *c,
                     int ldc);
/* The BLAS ?trsm (solve 1) or ?trmm (0) on a caller's B: B :=
 * alpha*op(A)^-1*B, ... as the BLAS defines them, m, n > 0; only A's uplo
 * triangle is read, and not its diagonal when diag is 'U'. */
void pumma_blas_trxm(const pumma_type_t *t, int solve, char side, char uplo,
                     char ta, char diag, int m, int n, const void *alpha,
                     const void *a, int lda, void *b, int ldb);
/* 1 once pumma_blas_gemm has run in this process (the BLAS has then
 * taken its buffer: no room need be asked for it), else 0. */
int pumma_blas_ran(void);

/* PUMMA_SPEEDS (pumma_speeds.c): how many times slower this rank computes
 * (1: not slowed), and the sleep that makes it so after a multiply that
 * took `wall` seconds and `cpu` seconds of processor time; progress(ctx),
 * when not NULL, is called every millisecond of it. */
double pumma_speed_factor(void);
double pumma_cpu_time(void);
void pumma_speed_pad(double wall, double cpu, int (*progress)(void *),
                     void *ctx);

/* ---------------------------------------------------------- environment */

/*
 * The settings: every PUMMA_* environment variable, parsed once into one
 * struct. The table, one row per variable (its kind, range or names,
 * default, whether a grid's processes must share it, one line of
 * documentation), is in SRC/base/pumma_settings.c: a new variable is a
 * row there, a field here and an id below (doc/internals.md).
 *
 * The settings are in the bottom layer: they know the names of
 * pumma_codes.h, never the algorithm or variant tables; the driver
 * resolves a name to its table row.
 */

/* The variables, in the table's order: the order of the agreement check
 * across a grid, of pumma-info's list and of the generated docs. */
enum pumma_setting_id {
    PUMMA_SET_ALGO, PUMMA_SET_BCAST, PUMMA_SET_REDUCE, PUMMA_SET_SHIFT,
    PUMMA_SET_TOPOLOGY, PUMMA_SET_SEGMENT, PUMMA_SET_SLICE, PUMMA_SET_PIECE,
    PUMMA_SET_HET_LAYOUT, PUMMA_SET_CLUSTERS, PUMMA_SET_HIER_SCHEDULE,
    PUMMA_SET_MODEL, PUMMA_SET_MAX_WORKSPACE, PUMMA_SET_STATS,
    PUMMA_SET_TUNE, PUMMA_SET_TUNE_FILE, PUMMA_SET_DECISION_FILE,
    PUMMA_SET_SMPI_COMPUTE,
    /* per process */
    PUMMA_SET_PANEL, PUMMA_SET_LATENCY, PUMMA_SET_SPEEDS,
    PUMMA_SET_SPEED_BASE, PUMMA_SET_JITTER, PUMMA_SET_CACHE,
    PUMMA_SET_HUGEPAGES,
    PUMMA_NSETTINGS
};

/* PUMMA_PIECE when unset (bytes): the row's default, the planner's too. */
#define PUMMA_PIECE_DEFAULT (64.0 * 1024 * 1024)

/* The names of the machine model's values, in the order of the
 * PUMMA_V_* above (PUMMA_MODEL's item names; gamma alone means gamma_d). */
#define PUMMA_MODEL_NAMES                                                    \
    "alpha", "beta", "overlap", "gamma_s", "gamma_d", "gamma_c", "gamma_z",  \
        "gamma_k", "gamma_t", "delta", "delta_t"
#define PUMMA_MODEL_NNAMES 11

/* One number per MPI rank of MPI_COMM_WORLD (v[0..n-1], n its size), or
 * the row's one word (PUMMA_CLUSTERS=measure); both NULL when unset.
 * text: the value as written (NULL unset), for notes that quote it. */
typedef struct pumma_rank_list {
    const char *word;
    const double *v;
    int n;
    const char *text;
} pumma_rank_list_t;

/*
 * The values, as the table parses them. A name is in the table's
 * spelling (PUMMA_ALGO=SDB is "sdb"); NULL: unset, empty or auto. A
 * number unset is its default, but for those said below.
 */
typedef struct pumma_settings {
    /* bit id (1ul << PUMMA_SET_X): the variable was set, to other than
     * auto (what a plan reports as the environment's choice) */
    unsigned long given;
    const char *algo, *bcast, *reduce, *shift, *topology;
    long long segment;           /* bytes per pipelined piece, 0: own */
    long long slice;             /* het-overlap's K per slice, 0: auto */
    long long piece;             /* bytes per summed piece */
    const char *het_layout;      /* given, columns, strips, ... */
    pumma_rank_list_t clusters;  /* each rank's cluster, or "measure" */
    const char *hier_schedule;   /* ecef, ecef-la, ecef-lat */
    struct {
        unsigned set;            /* bit i: v[i] given */
        double v[PUMMA_MODEL_NNAMES];
    } model;
    double max_workspace;        /* bytes; -1 unset */
    long long stats;             /* 0, 1, 2 */
    const char *tune;            /* refresh, off */
    const char *tune_file;       /* as written; NULL unset */
    const char *decision_file;   /* as written ("off" too); NULL unset */
    const char *smpi_compute;    /* simulated runs' compute model (the
                                    SMPI build's BLAS reads it) */
    long long panel;             /* columns; -1 unset (set per call kind) */
    double latency;              /* seconds */
    pumma_rank_list_t speeds;
    double speed_base;           /* 0 unset */
    double jitter;               /* microseconds */
    long long cache;             /* 0, 1 */
    long long hugepages;         /* 0, 1 */
} pumma_settings_t;

/* Every variable parsed, once per process (at the first P?GEMM; a bad
 * value stops the program there, said once: pumma_stop_all), after the
 * environment's unknown names are said (pumma_settings_scan). */
const pumma_settings_t *pumma_settings(void);
/* The same struct with variable `id` parsed at least: for the readers an
 * entry point other than P?GEMM reaches (PUMMA_P?GEMR2D's latency and
 * jitter, PUMMA_SPEEDS_MEASURE's speeds, ...), so that such a program is
 * not stopped for a variable it never uses, as before the table. */
const pumma_settings_t *pumma_setting(int id);

/* Stops the program for value v of variable id, a name: "pumma: VAR=v is
 * not known; choose one of: ..." (or the row's "not valid; expected");
 * the driver's, for a name of pumma_codes.h that no table has. */
void pumma_settings_refuse(int id, const char *v)
    __attribute__((noreturn));

/* The table (pumma-info lists it): variable i's name (0 .. count-1),
 * *shared whether the processes of a grid must agree on it; what unset
 * means, in words. */
int pumma_settings_count(void);
const char *pumma_settings_name(int i, int *shared);
const char *pumma_settings_default(int i);
/* The generated docs (pumma-info --settings FORMAT): "readme" the
 * README's environment table, "reference" doc/environment.md's list of
 * every variable; -1 for another format. */
int pumma_settings_doc(FILE *out, const char *format);

/*
 * Environment variables: every one pumma reads is a row of the table in
 * SRC/base/pumma_settings.c (its kind, range or names, default, scope and
 * one line of documentation), parsed into one struct (pumma_settings,
 * pumma_setting: below); doc/environment.md and the README's table are
 * generated from it. The helpers below read values strictly
 * (pumma_env.c): the table's parse, the files' lines and PUMMA_MODEL's
 * items use them.
 */
const char *pumma_env_get(const char *var);        /* NULL: unset or empty */
void pumma_env_bad(const char *var, const char *val, const char *expected);
int pumma_env_parse_int(const char *s, long long lo, long long hi,
                        long long *x);
int pumma_env_parse_double(const char *s, double lo, double hi, double *x);
int pumma_env_items(const char *val, int (*item)(const char *, void *),
                    void *ctx);
int pumma_env_list(const char *var, double *v, int max, double lo, double hi,
                   const char *expected);
/* How this library was built (pumma_version.c; pumma-info shows it):
 * key system, cc, cflags, fc, mangling or libs; "unknown" when the
 * build did not say. */
const char *pumma_build_info(const char *key);
/* The shared variables compared across a grid's communicator at its
 * first call: a difference stops every process with a message naming it
 * (said once, by the grid's first process). */
int pumma_settings_agree(MPI_Comm comm);
/* Stops every process for a cause all may meet alike (a bad value), the
 * message said once, not once per process (pumma_error.c). */
void pumma_stop_all(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* Names of choices (PUMMA_ALGO=SDB, PUMMA_TUNE=Off) are compared without
 * regard to case (pumma_env.c). */
int pumma_name_eq(const char *a, const char *b);
/* At the first call, once per program: MPI_COMM_WORLD's rank 0 names on
 * standard error each PUMMA_* variable of its environment that is not in
 * the table, with the closest known name when one is close; the run goes
 * on (pumma_settings.c). */
void pumma_settings_scan(void);
/* Those names, one line each on out after lead (pumma-info lists them). */
void pumma_settings_unknown(FILE *out, const char *lead);

int pumma_mem_cache_on(void);   /* PUMMA_CACHE, PUMMA_HUGEPAGES (pumma_mem.c) */

/* Temporaries: counted, so the peak can be reported, and kept for the
 * next call (pumma_mem.c). */
void *pumma_malloc(size_t bytes);   /* NULL only when bytes > 0 fails */
void pumma_free(void *p);
size_t pumma_mem_cached(void);      /* bytes kept, not in use (PUMMA_CACHE) */
/* A call begins: what it holds at most is measured from here on, and
 * what no recent call needed goes back (pumma_mem.c). */
void pumma_mem_call_begin(void);

/* PUMMA_STATS hooks (pumma_stats.c); all no-ops unless PUMMA_STATS=1.
 * clock() gives a start time for gemm()/comm(), which add the time since. */
int pumma_stats_on(void);
/* A call's record: its routine and plan (pumma_plan_format's short
 * text); calls of the same are counted together. */
void pumma_stats_begin(const char *rout, const char *plan);
void pumma_stats_end(void);
/* PUMMA_STATS=2: the call's sizes and plan on one line of standard error
 * (by the process with lead set; every process counts the call). */
void pumma_stats_trace(int lead, const char *rout, char ta, char tb, int m,
                       int n, int k, int nprow, int npcol, const char *plan);
/* The call just begun runs another plan than it would have without the
 * workspace limit (changed = 1). */
void pumma_stats_limited(int changed);
/* An auto broadcast's or reduce's decision (pumma_coll_auto.c): op,
 * variant and model (the deciding model's name, NULL: none) are static
 * strings; source as pumma_comm.h's PUMMA_SRC_*. */
void pumma_stats_decide(const char *op, int np, double bytes,
                        const char *variant, double seg, int source,
                        const char *model);
void pumma_stats_model(const pumma_model_t *mo);   /* printed with the rest */
/* A forced choice (PUMMA_ALGO, _BCAST, _REDUCE, _SHIFT, _SEGMENT,
 * _TOPOLOGY or a per-call option) that a call could not take: kind
 * "algo", asked its name, ran what ran instead ("-": nothing of the
 * kind), why in a few words; reported once per kind, asked and ran as
 * "pumma-stats: asked KIND=ASKED, ran RAN (WHY)". pumma_stats_note: any
 * other line for the report ("pumma-stats: TEXT"), once per text. */
void pumma_stats_forced(const char *kind, const char *asked, const char *ran,
                        const char *why);
void pumma_stats_note(const char *text);
double pumma_stats_clock(void);
void pumma_stats_gemm(double since);
void pumma_stats_comm(double since);
void pumma_stats_sent(double bytes);
/* Bytes this process is to receive in the current call (posted receives;
 * MPI's broadcast a non-root's count, its reduce the root's). */
void pumma_stats_recv(double bytes);
/* The words some process of np must receive in an M x N x K product when
 * each starts with an np-th of the operands and may hold `mem` words.
 * Memory-independent (Al Daas, Ballard, Grigori, Kumar and Rouse, "Tight
 * memory-independent parallel matrix multiplication communication lower
 * bounds", SPAA 2022), with d1 >= d2 >= d3 the dimensions sorted:
 *   np <= d1/d2            1D: d2 d3 (1 - 1/np), the smallest matrix
 *   np <= d1 d2 / d3^2     2D: 2 d3 sqrt(d1 d2 / np) - (d1 + d2) d3 / np
 *   else                   3D: 3 (MNK/np)^(2/3) - (MN + MK + NK)/np
 *                              (Irony, Toledo and Tiskin; COSMA's form)
 * and, when mem < (MNK/np)^(2/3), the memory-limited form of Kwasniewski
 * et al. (SC'19, Theorem 2), 2 MNK/(np sqrt(mem)) + mem - (MN + MK +
 * NK)/np, where it is the larger (always, against the 3D form). *form:
 * which (PUMMA_BOUND_...). 0 when negative. */
enum { PUMMA_BOUND_3D, PUMMA_BOUND_MEMORY, PUMMA_BOUND_2D, PUMMA_BOUND_1D,
       PUMMA_BOUND_FORMS };
double pumma_words_bound(double m, double n, double k, double np,
                         double mem, int *form);
/* "3d", "memory", "2d" or "1d". */
const char *pumma_bound_form_name(int form);
/* At the end of an M x N x K call on `all` (np processes, elements of
 * esize bytes, `mem` words a process may hold; collective over all): the
 * most words one process received and pumma_words_bound, added to the
 * call's record. */
void pumma_stats_words(MPI_Comm all, int np, double esize, double m,
                       double n, double k, double mem);
/* At the end of a heterogeneous multiply: the elements this process sent,
 * its time in the call and in the local multiply, gathered over the grid
 * (collective over all, its np processes; rank[q]: grid position q's rank
 * in all) and kept per process for the report. */
void pumma_stats_het(MPI_Comm all, int np, const int *rank, double elements);

/* Internal status codes (never shown to users as INFO). */
enum { PUMMA_OK = 0, PUMMA_ENOMEM = 1, PUMMA_EMPI = 2, PUMMA_EGRID = 3 };
/* Says rout failed at `what` with a PUMMA_E* status and aborts comm
 * (MPI_COMM_NULL: MPI_COMM_WORLD), the grid's processes as one. */
void pumma_fatal(MPI_Comm comm, const char *rout, const char *what,
                 int status);

/*
 * Pumma leaves the caller's floating-point flags as it
 * found them (SRC/base/pumma_fenv.c; doc/floating-point.md).
 *
 * A call's arithmetic is of two kinds. Arithmetic on the caller's numbers
 * (the local ?gemm, and pumma's own sums, scalings, copies and
 * conjugations of them) raises the flags the same call to ScaLAPACK
 * would: those are the caller's and stay raised. Everything else --
 * timing, the machine model's fits, the planner's costs, layouts -- is
 * pumma's bookkeeping, and its flags (underflow, denormal, inexact, even
 * a division by zero) must not reach the caller: a Fortran program that
 * ends with STOP lists every flag left raised.
 *
 * So: every public entry point runs between pumma_fenv_enter and
 * pumma_fenv_leave, which note the caller's flags and give them back with
 * those raised in data sections added, every other flag cleared. A data
 * section is bracketed by pumma_fenv_data_begin/end, which clears the
 * flags that would hide what it raises (neither the caller's nor the
 * data's so far) and adds what it raised to the data's: in pumma,
 * the BLAS call on the caller's operands (pumma_blas_gemm), the type
 * descriptor's element-wise kernel (geadd, every sum, scaling and copy of
 * the caller's numbers) and the MPI_SUM reduce (pumma_reduce_mpi.c).
 * The model times the BLAS and geadd on arrays of its own: it calls
 * t->gemm directly (not a data section), and its geadd timings copy and
 * add numbers exactly (x*1, 1+1), which raises no flag.
 *
 * Only flags: pumma never changes rounding or which exceptions trap.
 * On x86 the denormal-operand flag (DE, gfortran's IEEE_DENORMAL) is
 * handled too, which C's FE_ALL_EXCEPT leaves out. The state is per
 * thread, as the floating-point environment is; calls nest (only the
 * outermost saves and restores), and data sections outside any entry
 * (pumma's internals called by its own testers) do nothing.
 */
typedef struct pumma_fenv {
    int outer;           /* the outermost entry: it saves and restores */
    unsigned flags;      /* the caller's raised flags (x86: MXCSR's) */
    unsigned x87;        /* x86: the caller's x87 flags */
} pumma_fenv_t;

void pumma_fenv_enter(pumma_fenv_t *s);
void pumma_fenv_leave(const pumma_fenv_t *s);
void pumma_fenv_data_begin(void);
void pumma_fenv_data_end(void);

/* call, run between pumma_fenv_enter and pumma_fenv_leave: the body of a
 * public entry point, which may return from anywhere. */
#define PUMMA_FENV_CALL(call)                                                \
    do {                                                                     \
        pumma_fenv_t fenv_;                                                  \
        pumma_fenv_enter(&fenv_);                                            \
        call;                                                                \
        pumma_fenv_leave(&fenv_);                                            \
    } while (0)

/*
 * Pumma's own files read and written safely
 * (SRC/base/pumma_file.c; not installed): the tune file, the decision
 * file, the tuner's reports.
 */
/* The most of a file read: a larger one is refused, never cut. */
#define PUMMA_FILE_MAX (64 << 20)
/* The longest path written (PATH_MAX on Linux; a constant of its own, as
 * strict C99 programs including this have no PATH_MAX). */
#define PUMMA_FILE_PATH 4096
/* The longest a writer waits for another's lock before giving up. */
#define PUMMA_FILE_LOCK_WAIT 20.0

/*
 * pumma_file_read: the whole text of path (local input) into *text
 * (local output, malloc'ed, NUL-terminated; *len bytes before the NUL).
 * Only a regular file of at most PUMMA_FILE_MAX bytes without a NUL byte
 * is read; it is opened without blocking (a FIFO cannot hang it).
 * Returns 0; 1 when there is no such file (nothing said); -1 when it is
 * refused or cannot be read, after a one-line message on stderr naming
 * the path and the cause ("...; ignored").
 */
int pumma_file_read(const char *path, char **text, size_t *len);

/* A new version of a file being written (pumma_file_begin). */
typedef struct pumma_file_new {
    FILE *out;            /* where the new contents go */
    char *old;            /* the file's text when begun (read_old), ""
                             for a new file; else NULL */
    size_t len;           /* strlen(old) */
    int fd;               /* the file itself, locked */
    char path[PUMMA_FILE_PATH];
    char tmp[PUMMA_FILE_PATH];   /* the temporary beside it */
} pumma_file_new_t;

/*
 * pumma_file_begin: starts replacing path (local input; created when
 * missing, its directory must exist). Takes an advisory (fcntl) write
 * lock on the file, waiting at most PUMMA_FILE_LOCK_WAIT seconds for
 * other writers; with read_old, reads its text under the lock into
 * nf->old; opens nf->out on a temporary created exclusively beside it
 * (mkstemp), with the file's mode. Only a regular file is written: a
 * symbolic link, FIFO, device or directory at path is refused. Returns 0
 * and fills *nf (local output); -1 after a one-line message naming the
 * path and the cause ("...; not written"), *nf then holding nothing.
 */
int pumma_file_begin(const char *path, int read_old, pumma_file_new_t *nf);

/*
 * pumma_file_commit: ends what pumma_file_begin started: the temporary
 * flushed, fsync'ed and renamed over the path, the directory fsync'ed,
 * the lock released, nf's memory freed. Returns 0; -1 (the file left as
 * it was, the temporary removed) after a one-line message naming the
 * path and the cause.
 */
int pumma_file_commit(pumma_file_new_t *nf);

/* pumma_file_abort: gives up what pumma_file_begin started: the file
 * left as it was, the temporary removed, the lock released. */
void pumma_file_abort(pumma_file_new_t *nf);

#endif
