/*
 * pumma_stats.c -- what PUMMA_STATS=1 reports, and the memory pumma holds.
 *
 * Per (routine, algorithm, variants) this process counts calls, wall time,
 * time in the local multiply, time blocked on communication (waits, the
 * redistributions) and bytes it sent. MPI_COMM_WORLD rank 0 prints its
 * records when the program exits, one line each, beginning `pumma-stats:`;
 * then its notes, each once: a forced choice a call could not take
 * ("asked bcast=binomial, ran - (mdb2 on a 1x2 grid)"), a decision file
 * measured elsewhere and ignored.
 * Off (the default), every hook is one test of a flag.
 *
 * Memory: every temporary buffer pumma allocates goes through pumma_malloc,
 * which keeps the current and peak total, so the peak can be compared with
 * the caller's own A, B and C (TIMING's bench does).
 */
#define _GNU_SOURCE           /* mremap */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

static size_t mem_now = 0, mem_peak = 0, cached = 0;
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
               r->bytes, mem_peak, pumma_mem_cached(), r->limited, r->words,
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

/* -------------------------------------------------------------- memory */

/* A header before each block remembers its size; 64 bytes keep the
 * alignment the BLAS kernels like. */
enum { HDR = 64, CACHE_SLOTS = 16 };
/* The checking builds (make check-asan, check-valgrind) define
 * PUMMA_CHECK_MEMORY: every temporary then comes from posix_memalign at
 * its exact size, as mappings are out of ASan's sight and read as set to
 * memcheck. */
#ifdef PUMMA_CHECK_MEMORY
#define CACHE_MIN SIZE_MAX
#else
#define CACHE_MIN ((size_t)1 << 20)
#endif

/*
 * Large temporaries (CACHE_MIN and up) are mappings of their own, kept for
 * the next call instead of going back to the system: a fresh mapping costs
 * a page fault and a page clear per 4 KiB, which at N = 4000 is several
 * percent of a PDGEMM. So a call that faults pages in leaves them to the
 * next: the kept blocks together do not hold more than pumma's most
 * temporaries at once (fresh pages are only taken when no kept ones are
 * left), and a kept block's pages go back only when a request more than
 * 4 times smaller takes it, or a seventeenth block is freed (the smallest
 * goes), or pumma_mem_release() (or a memory limit, pumma_memlimit.c)
 * empties the cache.
 *
 * A request takes the smallest kept block that is large enough. A block
 * more than 4 times the request, and larger than the temporaries the
 * current call has held at once so far, is cut to it (its pages beyond
 * are unmapped), so a call that follows a much larger one does not keep
 * that one's memory. Any other is split (a block of the call's own scale:
 * stat-a's 8 MiB redistribution buffers after its 32 MiB slices, 2000^3
 * TN on 2x1, cut them and made every later call fault 1,300 pages back
 * in): the request takes its head, the
 * rest stays kept as a block of its own (used whole when the rest would
 * be under CACHE_MIN). Its pages stay faulted in: a call's phases often
 * need buffers of half the size of the previous phase's or less (stat-a:
 * op(B)'s slice and its redistribution's buffers, then partial products
 * 2.08 times smaller at 2x1, N = 1200), and cutting them there made every
 * next call fault the pages back in: 1050 faults, 1.9 ms of an 8.5 ms
 * call at 2x1, N = 600. The peak (pumma_mem_peak) counts what was asked
 * for; a block's unused tail is the cache's.
 *
 * When no kept block is large enough, the kept blocks are gathered into
 * one (gather: mremap moves their pages, only what is missing is faulted
 * in, and a rest too small to keep alone comes along rather than going
 * back). Solvers call with growing sizes -- PDGETRI's K grows by NB per
 * call -- and a fresh mapping each time cost some 0.5 ms per MB here, more
 * than the copy it was for; and a new shape asks for other sizes than the
 * last: NT after NN (2000^3, 1x2) wants 15.6 MiB where 14.9 and 30.5 MiB
 * are kept, and with blocks used whole and only the largest grown it
 * faulted in 30 MiB for a peak 16 MiB higher. PUMMA_CACHE=0 turns the
 * cache off.
 *
 * Fresh mappings of 2 MiB and more are advised to the kernel as wanting
 * huge pages (MADV_HUGEPAGE; transparent huge pages in its "madvise"
 * mode, the default of many distributions): one fault and one clear per
 * 2 MiB instead of 512 faults. A first call's temporaries are all fresh:
 * 46 MiB faulted in cost 33 ms here in 4 KiB pages, 8 ms in huge pages (a
 * PDGEMM 2000^3 on 2 ranks takes 180 ms). PUMMA_HUGEPAGES=0 leaves the
 * kernel's default.
 *
 * A block's header holds its usable size and, in use, the bytes counted
 * for the request (the request rounded up to whole pages with the header).
 */
static void *cache[CACHE_SLOTS];
static size_t call_held;     /* the most in use at once in this call */

/*
 * Small temporaries (SMALL_MIN up to CACHE_MIN) come from malloc, and are
 * kept too (SMALL_SLOTS of them, reused for a request at least half
 * their size): glibc gives the top of its heap back at a free that
 * leaves more than its trim threshold there (128 KiB, or twice the last
 * mapped block freed), and grows it again at the next call, so a small
 * call whose buffers were on top faulted its pages in every time.
 * PDGEADD 'T' 200 x 200 on 1x2: 5 faults a call on one process, in
 * process_vm_readv filling the receive buffer, and 210 us a call against
 * ScaLAPACK's 66. Below SMALL_MIN, malloc's own bins serve.
 */
enum { SMALL_SLOTS = 8 };
#ifdef PUMMA_CHECK_MEMORY
#define SMALL_MIN SIZE_MAX       /* each from malloc at its size, as above */
#else
#define SMALL_MIN ((size_t)16 << 10)
#endif
static void *small[SMALL_SLOTS];
static size_t small_cached;
static int cache_on = -1, huge_on = 1;
static size_t page = 0;

/* Usable bytes after the header (a whole number of pages with it). */
static size_t block_size(void *base) { return *(size_t *)base; }

static void unmap(void *base) { munmap(base, block_size(base) + HDR); }

#ifndef PUMMA_SMPI       /* (simulated builds take malloc's: see below) */
static size_t counted(void *base) { return ((size_t *)base)[1]; }

/* A freed block kept in one of the n slots, counted in *count: an empty
 * slot, else the smallest block's, which drop gives back. */
static void keep_freed(void **slots, int n, size_t *count, char *base,
                       void (*drop)(void *))
{
    int slot = 0;
    for (int i = 0; i < n; i++) {
        if (!slots[i]) { slot = i; break; }
        if (block_size(slots[i]) < block_size(slots[slot])) slot = i;
    }
    if (slots[slot]) {
        *count -= block_size(slots[slot]);
        drop(slots[slot]);
    }
    slots[slot] = base;
    *count += block_size(base);
}

static size_t map_len(size_t bytes)
{
    return (bytes + HDR + page - 1) / page * page;
}
#endif

/* PUMMA_CACHE (0: off, 1: on, the default), read once, with
 * PUMMA_HUGEPAGES and the page size the blocks are cut to. */
int pumma_mem_cache_on(void)
{
    if (cache_on < 0) {
        cache_on = (int)pumma_setting(PUMMA_SET_CACHE)->cache;
        huge_on = (int)pumma_setting(PUMMA_SET_HUGEPAGES)->hugepages;
        long ps = sysconf(_SC_PAGESIZE);
        page = ps > 0 ? (size_t)ps : 4096;
    }
    return cache_on;
}

#ifndef PUMMA_SMPI
/* A fresh mapping of len bytes (NULL: none to be had), huge pages asked
 * for when it can hold one. */
static char *map_fresh(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    /* advice only: where the kernel has none to give, 4 KiB pages */
    if (huge_on && len >= ((size_t)2 << 20)) madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

/* The kept block that fits len bytes most closely (-1: none fits), or
 * with fit 0, the largest (-1: none is kept); not the slots skip marks
 * (NULL: none). */
static int kept_block(size_t len, int fit, const int *skip)
{
    int best = -1;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (!cache[i] || (skip && skip[i]) ||
            (fit && block_size(cache[i]) + HDR < len))
            continue;
        const size_t b = block_size(cache[i]);
        if (best < 0 || (fit ? b < block_size(cache[best])
                             : b > block_size(cache[best])))
            best = i;
    }
    return best;
}

/* Whether bytes (whole pages, with a header) make a block worth keeping. */
static int keepable(size_t bytes)
{
    return bytes > HDR && bytes - HDR >= CACHE_MIN;
}

/* The last bytes (whole pages) of a block, from rest on, kept in the
 * empty slot i as a block of their own when keepable, else given back. */
static void keep_rest(int i, char *rest, size_t bytes)
{
    if (keepable(bytes)) {
        *(size_t *)rest = bytes - HDR;
        cache[i] = rest;
        cached += block_size(rest);
    } else {
        munmap(rest, bytes);
    }
}

/* A block of at least len bytes (a whole number of pages; *got: how
 * many) when no kept block is large enough: a fresh mapping with the kept
 * blocks' pages moved into it, largest first (mremap moves them, neither
 * copied nor faulted in again). The last block moved gives only what is
 * missing, and its rest stays kept when CACHE_MIN or more; a smaller rest
 * comes along whole (the block is that much larger), since giving its
 * pages back made a later call fault them in again (PDPOTRF at N = 4000,
 * NB 256, 1x2, run again and again: 250-480 faults a run, none since; on
 * a virtual machine a fault can cost tens of microseconds). NULL when no
 * mapping is to be had. */
static char *gather(size_t len, size_t *got)
{
    /* the blocks it takes, largest first: the last one whole if its rest
     * would be too small to keep */
    size_t want = len, sum = 0;
    int taken[CACHE_SLOTS] = {0}, i;
    while (sum < len && (i = kept_block(0, 0, taken)) >= 0) {
        taken[i] = 1;
        const size_t had = block_size(cache[i]) + HDR;
        if (sum + had > len && !keepable(sum + had - len)) want = sum + had;
        sum += had;
    }
    char *p = map_fresh(want);
    if (!p) return NULL;
    size_t at = 0;
    while (at < want && (i = kept_block(0, 0, NULL)) >= 0) {
        char *b = cache[i];
        const size_t had = block_size(b) + HDR;
        const size_t take = had < want - at ? had : want - at;
        if (mremap(b, take, take, MREMAP_MAYMOVE | MREMAP_FIXED, p + at) ==
            MAP_FAILED)
            break;                   /* (the rest of p is fresh pages) */
        cached -= had - HDR;         /* (b's header went with its pages) */
        cache[i] = NULL;
        if (take < had) keep_rest(i, b + take, had - take);
        at += take;
    }
    *got = want;
    return p;
}
#endif

#ifdef PUMMA_SMPI
/*
 * Simulated builds (make smpi): temporaries from malloc, and under the
 * compute model (PUMMA_SMPI_COMPUTE, which computes nothing from them)
 * those of FOLD_MIN bytes or more folded by SMPI's shared malloc (every
 * rank's block the same memory), so that a thousand simulated ranks fit
 * in one machine's memory. Folding is asked here, not by SMPI's
 * automatic option, which folds every large malloc of the program:
 * BLACS keeps its requests inside its message buffers, and folded they
 * are every rank's at once (SMPI crashes in MPI_Testall). A folded
 * block's bytes are every rank's at once: nothing of pumma's may live in
 * it, so its size and start are kept here, in private memory, not in a
 * header.
 */
typedef struct live { char *data; void *start; size_t bytes; int folded; } live_t;
/* INSTALL/smpi/pumma_smpi_blas.c: whether the model charges now (a
 * driver may run some calls for real to check them: TIMING/l3tim.c);
 * weak, for SMPI programs without that file */
int pumma_smpi_charging(void) __attribute__((weak));
static live_t *lives;
static int nlive, caplive, fold = -1;
enum { FOLD_MIN = 1 << 20 };

void *pumma_malloc(size_t bytes)
{
    if (bytes == 0) return NULL;
    if (nlive == caplive) {
        const int nc = caplive ? 2 * caplive : 64;
        live_t *g = realloc(lives, sizeof *g * (size_t)nc);
        if (!g) return NULL;
        lives = g;
        caplive = nc;
    }
    if (fold < 0) {
        const char *model = pumma_setting(PUMMA_SET_SMPI_COMPUTE)->smpi_compute;
        fold = model && *model;
    }
    const int folded = fold && bytes >= FOLD_MIN &&
                       (!pumma_smpi_charging || pumma_smpi_charging());
    char *m = folded ? SMPI_SHARED_MALLOC(bytes + HDR) : malloc(bytes + HDR);
    if (!m) return NULL;
    char *d = m + (HDR - (uintptr_t)m % HDR) % HDR;     /* HDR-aligned */
    lives[nlive++] = (live_t){d, m, bytes, folded};
    mem_now += bytes;
    if (mem_now > mem_peak) mem_peak = mem_now;
    if (mem_now > call_held) call_held = mem_now;
    return d;
}

void pumma_free(void *p)
{
    if (!p) return;
    for (int i = nlive - 1; i >= 0; i--)
        if (lives[i].data == p) {
            mem_now -= lives[i].bytes;
            if (lives[i].folded) SMPI_SHARED_FREE(lives[i].start);
            else free(lives[i].start);
            lives[i] = lives[--nlive];
            return;
        }
}
#else
void *pumma_malloc(size_t bytes)
{
    if (bytes == 0) return NULL;
    if (cache_on < 0) pumma_mem_cache_on();
    char *p = NULL;
    if (bytes < CACHE_MIN) {
        int best = -1;
        if (cache_on && bytes >= SMALL_MIN)
            for (int i = 0; i < SMALL_SLOTS; i++) {
                if (!small[i]) continue;
                const size_t b = block_size(small[i]);
                if (b >= bytes && b / 2 <= bytes &&
                    (best < 0 || b < block_size(small[best])))
                    best = i;
            }
        if (best >= 0) {
            p = small[best];
            small[best] = NULL;
            small_cached -= block_size(p);
        } else {
            void *q;
            if (posix_memalign(&q, HDR, bytes + HDR) != 0) return NULL;
            p = q;
            *(size_t *)p = bytes;
        }
        ((size_t *)p)[1] = bytes;
    } else {
        const size_t len = map_len(bytes);
        const int best = kept_block(len, 1, NULL);
        if (best >= 0) {
            p = cache[best];
            cache[best] = NULL;
            size_t had = block_size(p) + HDR;
            cached -= block_size(p);
            if (had > 4 * len && had - HDR > call_held) {
                munmap(p + len, had - len);
                *(size_t *)p = len - HDR;
            } else if (keepable(had - len)) {
                keep_rest(best, p + len, had - len);
                *(size_t *)p = len - HDR;
            }
        } else {
            size_t got = len;
            p = gather(len, &got);
            /* under a memory limit the kept blocks may be what is
             * missing: give them back and try once more */
            if (!p && cached && pumma_mem_release()) p = gather(len, &got);
            if (!p) return NULL;
            *(size_t *)p = got - HDR;
        }
        ((size_t *)p)[1] = len - HDR;
    }
    mem_now += counted(p);
    if (mem_now > mem_peak) mem_peak = mem_now;
    if (mem_now > call_held) call_held = mem_now;
    return p + HDR;
}

void pumma_free(void *p)
{
    if (!p) return;
    char *base = (char *)p - HDR;
    size_t bytes = block_size(base);
    mem_now -= counted(base);
    if (bytes < CACHE_MIN) {
        if (!cache_on || bytes < SMALL_MIN) {
            free(base);
            return;
        }
        keep_freed(small, SMALL_SLOTS, &small_cached, base, free);
        return;
    }
    if (!cache_on) {
        unmap(base);
        return;
    }
    keep_freed(cache, CACHE_SLOTS, &cached, base, unmap);
}
#endif

size_t pumma_mem_cached(void) { return cached + small_cached; }

void pumma_mem_call_begin(void) { call_held = mem_now; }

PUMMA_API size_t pumma_mem_release(void)
{
    size_t was = cached + small_cached;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (cache[i]) unmap(cache[i]);
        cache[i] = NULL;
    }
    for (int i = 0; i < SMALL_SLOTS; i++) {
        free(small[i]);
        small[i] = NULL;
    }
    cached = small_cached = 0;
    return was;
}

PUMMA_API size_t pumma_mem_peak(int reset)
{
    size_t peak = mem_peak;
    if (reset) mem_peak = mem_now;
    return peak;
}
