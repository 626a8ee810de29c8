/*
 * pumma_mem.c -- pumma's temporaries: pumma_malloc and pumma_free, the
 * bytes in use now and at most (pumma_mem_peak, PUMMA_STATS' peak_mem),
 * and the memory kept for the next call (PUMMA_CACHE: pumma_mem_cached,
 * pumma_mem_release).
 *
 * Every temporary pumma allocates goes through pumma_malloc, which counts
 * it, so the peak can be compared with the caller's own A, B and C
 * (TIMING's bench does). The peak counts what was asked for (a large
 * request rounded up to whole pages with its header); what is kept is
 * not in use and not counted.
 *
 * Temporaries of SMALL_MIN bytes and more come from one arena: a range
 * of address space reserved without memory (PROT_NONE, MAP_NORESERVE),
 * made readable and writable as far as its blocks reach, and cut into
 * blocks in address order. A request takes the smallest free block that
 * holds it (split, the rest stays free), else the arena's end grows; a
 * freed block merges with its free neighbours. Pages once faulted in
 * stay for the next call, and blocks that a call split merge again when
 * it frees them, so a later call of another shape finds them whole.
 *
 * Why not mappings of their own, kept in slots (pumma up to 0.5): on
 * this paravirtualized machine every munmap and mremap flushed the TLB
 * of the process's threads, and a page moved by mremap faulted in again
 * at first touch (12-22 ms per 8 MiB). Kept blocks had to be split, cut
 * and gathered to fit each next request, and ScaLAPACK's solvers ask for
 * ever other sizes: PDPOTRF at N = 4000, NB 256 ran at 0.79-0.90 of
 * ScaLAPACK's speed on 1x2 and 2x1 with them, 1.03-1.44 with the arena;
 * PZHER2K N = 744 after the bench's other shapes 0.52, then 0.96
 * (doc/results.md, session 36).
 *
 * What the arena keeps goes back: when no call in a window (at least
 * TRIM_CALLS products and TRIM_SECONDS) held more than a quarter of it,
 * its free end beyond twice that most is unmapped; at pumma_mem_release
 * (a memory limit too, pumma_memlimit.c) every free block's pages. The
 * first arena reserves FIRST_RES: a request beyond an arena's end is a
 * mapping of its own, unmapped at its free, and once no block is in use
 * the arena gives way to one twice as large as it would have needed
 * (reserved address space shows in a process's virtual size, which some
 * batch systems limit). Under an address-space limit (RLIMIT_AS, ulimit
 * -v), which counts reserved ranges too, or when no reservation can be
 * had, there is no arena: as with PUMMA_CACHE=0 below. Fresh arena
 * pages are advised to the kernel as wanting huge pages (MADV_HUGEPAGE;
 * transparent huge pages in their "madvise" mode, many distributions'
 * default): one fault and one clear per 2 MiB instead of 512 (a first
 * call's 46 MiB faulted in: 33 ms in 4 KiB pages, 8 ms in huge pages).
 * PUMMA_HUGEPAGES=0 leaves the kernel's default.
 *
 * Below SMALL_MIN, malloc's own bins serve. PUMMA_CACHE=0 keeps nothing:
 * requests below MAP_MIN from malloc, larger ones mappings of their own.
 * The checking builds (make check-asan, check-valgrind) define
 * PUMMA_CHECK_MEMORY: every temporary then comes from posix_memalign at
 * its exact size, as mappings are out of ASan's sight and read as set to
 * memcheck.
 */
#define _GNU_SOURCE           /* MAP_NORESERVE, MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pumma.h"
#include "pumma_base.h"

/* A header before each block; 64 bytes keep the alignment the BLAS
 * kernels like. */
enum { HDR = 64 };

static size_t mem_now = 0, mem_peak = 0;
static size_t call_held;       /* the most in use at once in this call */
static int cache_on = -1, huge_on = 1;
static size_t page = 0;

/* PUMMA_CACHE (0: off, 1: on, the default), read once, with
 * PUMMA_HUGEPAGES and the page size. */
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

static void count_in(size_t bytes)
{
    mem_now += bytes;
    if (mem_now > mem_peak) mem_peak = mem_now;
    if (mem_now > call_held) call_held = mem_now;
}

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
    count_in(bytes);
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

size_t pumma_mem_cached(void) { return 0; }

static size_t arena_release(void) { return 0; }

static void arena_trim_window(void) {}
#else

#ifdef PUMMA_CHECK_MEMORY
#define SMALL_MIN SIZE_MAX       /* each from malloc at its size, as above */
#else
#define SMALL_MIN ((size_t)16 << 10)
#endif
/* Without the arena, requests of MAP_MIN and more are mappings. */
#define MAP_MIN ((size_t)1 << 20)
/* The arena grows (is made writable) in steps of HUGE, a huge page. */
#define HUGE ((size_t)2 << 20)
/* The first arena's reservation; a request beyond an arena's end makes
 * the next one twice as large as it would have needed. */
#define FIRST_RES ((size_t)256 << 20)
/* The window of the arena's trimming (see the top). */
enum { TRIM_CALLS = 16 };
#define TRIM_SECONDS 1.0

/* A block's header. size: the whole block's bytes, header included
 * (whole pages, but for malloc's: the request and the header). */
enum { FROM_MALLOC = 1, FROM_ARENA, FROM_MAP };
typedef struct blk {
    size_t size;
    size_t prev;       /* arena: the block before's size (0: the first) */
    size_t counted;    /* in use: its bytes in mem_now */
    int kind;          /* FROM_* */
    int free;          /* arena: not in use */
    int cold;          /* arena, free: its pages given back */
} blk_t;

/* The arena: [base, base + top) is its blocks, [base, base + rw) is
 * readable and writable, [base, base + res) reserved. */
static char *base;
static size_t res, top, rw;
static int arena_state;        /* 0 not tried, 1 on, -1 none to be had */
static int in_use;             /* its blocks in use */
static size_t next_res;        /* the next arena's reservation (0: FIRST_RES) */
static size_t res_failed = SIZE_MAX;  /* a reservation not to be had */
static int short_of_memory;    /* the arena's last failure: no memory */
static blk_t *last;            /* the block ending at top (NULL: none) */
static size_t win_held;        /* the most any call of the window held */
static int win_calls;
static double win_start;

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

static blk_t *next_of(const blk_t *b)
{
    char *n = (char *)b + b->size;
    return n < base + top ? (blk_t *)n : NULL;
}

static blk_t *prev_of(const blk_t *b)
{
    return b->prev ? (blk_t *)((char *)b - b->prev) : NULL;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The reservation: next_res, halved while none is to be had; none under
 * an address-space limit. */
static int arena_open(void)
{
    if (arena_state) return arena_state > 0;
    arena_state = -1;
    /* under an address-space limit the reservation would count against
     * the program's own arrays (run-limits: ulimit -v) */
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur != RLIM_INFINITY)
        return 0;
    size_t want = next_res > FIRST_RES ? next_res : FIRST_RES;
    for (want = round_up(want, HUGE); want >= 32 * HUGE; want /= 2) {
        /* one huge page more, to start on a huge page's boundary */
        void *p = mmap(NULL, want + HUGE, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            res_failed = want;
            continue;
        }
        char *start = (char *)round_up((uintptr_t)p, HUGE);
        if (start > (char *)p) munmap(p, (size_t)(start - (char *)p));
        munmap(start + want, (size_t)((char *)p + want + HUGE - start - want));
        base = start;
        res = want;
        arena_state = 1;
        win_start = now_seconds();
        break;
    }
    return arena_state > 0;
}

/* The arena's blocks reach end: read-write up to it (whole huge pages);
 * 0 when that is beyond its reservation (the next arena's is made
 * large enough) or the system gives no more memory (short_of_memory). */
static int arena_reach(size_t end)
{
    short_of_memory = 0;
    if (end > res) {
        /* (not a size that failed: the arena would give way again and
         * again to one no larger) */
        const size_t w = 2 * end < res_failed ? 2 * end : res_failed / 2;
        if (w > next_res) next_res = w;
        return 0;
    }
    if (end <= rw) return 1;
    size_t to = round_up(end, HUGE);
    if (to > res) to = res;
    if (mprotect(base + rw, to - rw, PROT_READ | PROT_WRITE) != 0) {
        short_of_memory = 1;
        return 0;
    }
#ifdef MADV_HUGEPAGE
    /* advice only: where the kernel has none to give, 4 KiB pages */
    if (huge_on) madvise(base + rw, to - rw, MADV_HUGEPAGE);
#endif
    rw = to;
    return 1;
}

/* The arena from `from` on given back: pages dropped, no longer
 * writable (nor counted against the system's commit limit). */
static void arena_unreach(size_t from)
{
    from = round_up(from, HUGE);
    if (from >= rw) return;
    mmap(base + from, rw - from, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    rw = from;
}

/* A block of len bytes (whole pages) from the arena; NULL: none. */
static blk_t *arena_take(size_t len)
{
    blk_t *best = NULL;
    for (blk_t *b = top ? (blk_t *)base : NULL; b; b = next_of(b))
        if (b->free && b->size >= len && (!best || b->size < best->size))
            best = b;
    if (!best) {              /* the end grows, the last block with it */
        blk_t *b = last && last->free ? last : NULL;
        const size_t grow = b ? len - b->size : len;
        if (!arena_reach(top + grow)) return NULL;
        if (!b) {
            b = (blk_t *)(base + top);
            *b = (blk_t){0, last ? last->size : 0, 0, FROM_ARENA, 1, 0};
            last = b;
        }
        b->size = len;
        top += grow;
        best = b;
    }
    if (best->size - len >= page) {          /* the rest stays free */
        blk_t *r = (blk_t *)((char *)best + len);
        *r = (blk_t){best->size - len, len, 0, FROM_ARENA, 1, best->cold};
        blk_t *n = next_of(r);
        if (n) n->prev = r->size;
        if (best == last) last = r;
        best->size = len;
    }
    best->free = 0;
    best->cold = 0;
    in_use++;
    return best;
}

/* With no block in use, an arena too small for the requests it has seen
 * gives way to a larger one, reserved at the next request (its pages
 * are faulted in again, once). */
static void arena_outgrown(void)
{
    if (in_use || arena_state <= 0 || next_res <= res) return;
    munmap(base, res);
    base = NULL;
    res = top = rw = 0;
    last = NULL;
    arena_state = 0;
}

static void arena_give(blk_t *b)
{
    b->free = 1;
    in_use--;
    blk_t *n = next_of(b), *p = prev_of(b);
    if (n && n->free) {
        b->size += n->size;
        if (n == last) last = b;
    }
    if (p && p->free) {
        p->size += b->size;
        p->cold = 0;
        if (b == last) last = p;
        b = p;
    }
    n = next_of(b);
    if (n) n->prev = b->size;
}

/* The arena's end cut back to `keep` bytes at least, as far as its last
 * block is free. */
static void arena_cut(size_t keep)
{
    if (!last || !last->free) return;
    const size_t start = (size_t)((char *)last - base);
    size_t end = start + page > keep ? start + page : round_up(keep, page);
    if (end >= top) return;
    last->size = end - start;
    top = end;
    arena_unreach(top);
}

/* What pumma_mem_release gives back of the arena: every free block's
 * pages (its header's stays), its free end unmapped. */
static size_t arena_release(void)
{
    size_t was = 0;
    for (blk_t *b = top ? (blk_t *)base : NULL; b; b = next_of(b)) {
        if (!b->free || b->cold) continue;
        was += b->size;
        if (b->size > page)
            madvise((char *)b + page, b->size - page, MADV_DONTNEED);
        b->cold = 1;
    }
    if (last && last->free) {
        blk_t *p = prev_of(last);
        top = (size_t)((char *)last - base);
        last = p;
        arena_unreach(top);
    }
    return was;
}

/* At a call's start: a window ends after TRIM_CALLS calls and
 * TRIM_SECONDS; the arena beyond twice what its calls held at most goes
 * back when that is less than a quarter of the arena. */
static void arena_trim_window(void)
{
    if (call_held > win_held) win_held = call_held;
    if (arena_state <= 0 || ++win_calls < TRIM_CALLS) return;
    const double t = now_seconds();
    if (t - win_start < TRIM_SECONDS) return;
    if (4 * win_held < top) arena_cut(2 * win_held);
    win_calls = 0;
    win_held = 0;
    win_start = t;
}

size_t pumma_mem_cached(void)
{
    size_t kept = 0;
    for (blk_t *b = top ? (blk_t *)base : NULL; b; b = next_of(b))
        if (b->free && !b->cold) kept += b->size;
    return kept;
}

void *pumma_malloc(size_t bytes)
{
    if (bytes == 0) return NULL;
    if (cache_on < 0) pumma_mem_cache_on();
    blk_t *b = NULL;
    size_t len = round_up(bytes + HDR, page);
    const int arena = bytes >= SMALL_MIN && cache_on && arena_open();
    if (bytes < SMALL_MIN || (!arena && bytes < MAP_MIN)) {
        void *q;
        if (posix_memalign(&q, HDR, bytes + HDR) != 0) return NULL;
        b = q;
        b->size = bytes + HDR;
        b->kind = FROM_MALLOC;
        len = bytes + HDR;
    } else {
        if (arena) {
            b = arena_take(len);
            /* under a memory limit the kept blocks may be what is
             * missing: give them back and try once more */
            if (!b && short_of_memory && pumma_mem_release())
                b = arena_take(len);
        }
        if (!b) {                         /* a mapping of its own */
            void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
            if (huge_on && len >= HUGE) madvise(p, len, MADV_HUGEPAGE);
#endif
            b = p;
            b->size = len;
            b->kind = FROM_MAP;
        }
    }
    /* counted: what was asked, a mapping's size in whole pages */
    b->counted = bytes < MAP_MIN ? bytes : len - HDR;
    count_in(b->counted);
    return (char *)b + HDR;
}

void pumma_free(void *p)
{
    if (!p) return;
    blk_t *b = (blk_t *)((char *)p - HDR);
    mem_now -= b->counted;
    if (b->kind == FROM_MALLOC) {
        free(b);
        return;
    }
    if (b->kind == FROM_MAP) munmap(b, b->size);
    else arena_give(b);
    arena_outgrown();
}
#endif

void pumma_mem_call_begin(void)
{
    arena_trim_window();
    call_held = mem_now;
}

PUMMA_API size_t pumma_mem_release(void) { return arena_release(); }

PUMMA_API size_t pumma_mem_peak(int reset)
{
    size_t peak = mem_peak;
    if (reset) mem_peak = mem_now;
    return peak;
}
