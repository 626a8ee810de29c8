/*
 * pumma_memlimit.c -- the room a process's memory limit leaves pumma's
 * temporaries (doc/memory.md, "Memory limits").
 *
 * Under a limit (ulimit -v: RLIMIT_AS; ulimit -d: RLIMIT_DATA; a batch
 * system's cgroup, v2 memory.max or v1 memory.limit_in_bytes), a plan
 * chosen without looking at it can take the memory the local BLAS needs:
 * OpenBLAS maps a buffer of its own (128 MiB here) at its first multiply
 * and, when the mapping fails, retries for ever (100% processor, no
 * message). Two things prevent it:
 *   - at the first planned call, one small multiply through the BLAS,
 *     before pumma holds any temporary, so the BLAS takes its buffer while
 *     there is room (a no-op when the program has multiplied before);
 *     under a limit that leaves no room for it, every process stops, one
 *     saying why;
 *   - on a grid where any process has a limit, calls measure what the
 *     limit leaves every process (its own use read from /proc), take the
 *     least over the grid (one MPI_Allreduce), and the planner keeps to
 *     it like PUMMA_MAX_WORKSPACE -- every call whose operands are more
 *     than a quarter of the room last measured, and every 64th call
 *     (small calls use the last measure: measuring would double their
 *     time); when even the plan of least workspace would not fit, every
 *     process stops with a message naming the limit instead of running
 *     into a failed mapping.
 * Grids where no process has a limit never communicate here after their
 * first call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pumma.h"
#include "pumma_driver.h"

/* What MPI and the BLAS may still take during a call besides pumma's
 * temporaries (a BLAS thread's buffer, MPI's message buffers). */
#define RESERVE (8.0 * 1048576)

static const char *const kind_name[] = {
    "none", "RLIMIT_AS (ulimit -v)", "RLIMIT_DATA (ulimit -d)",
    "the cgroup's memory limit"};

/* A whole file's first number (bytes); -1 when unreadable, 0 for "max". */
static double file_number(const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    char buf[64] = "";
    const int ok = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    if (!ok) return -1;
    if (!strncmp(buf, "max", 3)) return 0;
    char *end;
    double x = strtod(buf, &end);
    return end == buf ? -1 : x;
}

/* The cgroup's limit and use files, found once: cgroup v2 (the line
 * "0::PATH" of /proc/self/cgroup) or v1 (the memory controller's line);
 * the mount's own files when the process's are not visible there (a
 * cgroup namespace). 0: none. */
static char cg_max[512], cg_cur[512];
static int cg_found = -1;

static void cgroup_find(void)
{
    cg_found = 0;
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f) && !cg_found) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        const char *path = c2 + 1;
        *c2 = '\0';
        const char *ctl = c1 + 1;
        const char *root, *max, *cur;
        if (!strcmp(line, "0") && !*ctl) {
            root = "/sys/fs/cgroup", max = "memory.max", cur = "memory.current";
        } else if (strstr(ctl, "memory")) {
            root = "/sys/fs/cgroup/memory", max = "memory.limit_in_bytes",
            cur = "memory.usage_in_bytes";
        } else {
            continue;
        }
        for (int own = 1; own >= 0 && !cg_found; own--) {
            const char *p = own ? path : "";
            snprintf(cg_max, sizeof cg_max, "%s%s/%s", root, p, max);
            snprintf(cg_cur, sizeof cg_cur, "%s%s/%s", root, p, cur);
            cg_found = file_number(cg_max) >= 0 && file_number(cg_cur) >= 0;
        }
    }
    fclose(f);
}

/* This process's virtual size and data size (bytes), from /proc. */
static void own_use(double *vm, double *data)
{
    *vm = *data = -1;
    FILE *f = fopen("/proc/self/status", "re");
    if (!f) return;
    char line[256];
    double kb;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "VmSize: %lf kB", &kb) == 1) *vm = kb * 1024;
        else if (sscanf(line, "VmData: %lf kB", &kb) == 1) *data = kb * 1024;
    }
    fclose(f);
}

/*
 * The room this process's tightest limit leaves (bytes; INFINITY when it
 * has none), which limit (PUMMA_MEMLIMIT_*) and its size. node_procs: the
 * grid's processes on this node, which share a cgroup's limit.
 */
static double room_local(int node_procs, int *kind, double *limit)
{
    double room = INFINITY, vm = -2, data = -2;
    *kind = PUMMA_MEMLIMIT_NONE;
    *limit = 0;
    struct rlimit r;
    const int res[2] = {RLIMIT_AS, RLIMIT_DATA};
    for (int i = 0; i < 2; i++) {
        if (getrlimit(res[i], &r) || r.rlim_cur == RLIM_INFINITY) continue;
        if (vm == -2) own_use(&vm, &data);
        const double used = i == 0 ? vm : data;
        const double x = (double)r.rlim_cur - (used > 0 ? used : 0);
        if (x < room) {
            room = x;
            *kind = i == 0 ? PUMMA_MEMLIMIT_AS : PUMMA_MEMLIMIT_DATA;
            *limit = (double)r.rlim_cur;
        }
    }
    if (cg_found < 0) cgroup_find();
    if (cg_found) {
        /* v1 writes "no limit" as a number near 2^63 */
        const double max = file_number(cg_max), cur = file_number(cg_cur);
        if (max > 0 && max < 0x1p60 && cur >= 0) {
            const double x = (max - cur) / (node_procs > 0 ? node_procs : 1);
            if (x < room) {
                room = x;
                *kind = PUMMA_MEMLIMIT_CGROUP;
                *limit = max;
            }
        }
    }
    return room;
}

/* The room, rounded down to 1/8 of its power of 2: plans are remembered
 * per room (pumma_plan.c), and a room that moves by a page each call
 * would make every call plan again. */
static double quantized(double x)
{
    if (!(x > 0)) return 0;
    if (x == INFINITY) return x;
    const double step = exp2(floor(log2(x)) - 3);
    return floor(x / step) * step;
}

/* The BLAS's first multiply maps its buffer (OpenBLAS: 128 MiB on
 * x86_64, and it retries for ever when it cannot); this much must be free
 * before pumma lets it try. */
#define BLAS_BUFFER (129.0 * 1048576)

/* Whether the BLAS is OpenBLAS, the one that retries for ever (others
 * take their memory with malloc and fail, or need none): dgemm_ comes
 * from a file of that name, or from the object that holds OpenBLAS's own
 * entry point (a LAPACK may have loaded OpenBLAS beside another BLAS). */
static int blas_is_openblas(void)
{
    static int is = -1;
    if (is >= 0) return is;
    Dl_info g, o;
    char path[PATH_MAX];
    void *cfg = dlsym(RTLD_DEFAULT, "openblas_get_config");
    const int found = dladdr(*(void **)&pumma_type_d.gemm, &g) && g.dli_fname;
    /* the file itself: Debian's libblas.so.3 is a link to the choice */
    is = found && ((realpath(g.dli_fname, path) && strstr(path, "openblas")) ||
                   (cfg && dladdr(cfg, &o) && o.dli_fbase == g.dli_fbase));
    return is;
}

/* Whether BLAS_BUFFER more bytes can be mapped now (writable, as the
 * BLAS maps them: RLIMIT_DATA counts only those); none are touched. */
static int blas_buffer_fits(void)
{
    void *p = mmap(NULL, (size_t)BLAS_BUFFER, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return 0;
    munmap(p, (size_t)BLAS_BUFFER);
    return 1;
}

/* Whether the BLAS has multiplied in this process: here, or through
 * pumma_blas_gemm (pumma_blas_ran); its buffer is then taken. */
static int warm = 0;

/* Every process of g stops, the grid's first saying the line of
 * pumma_memlimit_stop's form -- once: all know the same (collective), and
 * one line per process would say nothing more; what: the need, said
 * after the routine's name; the limit is process `rank`'s (in g->all),
 * whose kind, limit and room are v[0..2] there. */
static void stop(const pumma_grid_t *g, const char *rout, const char *what,
                 int rank, double *v)
{
    int world, me;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(g->all, &me);
    v[3] = world;
    MPI_Bcast(v, 4, MPI_DOUBLE, rank, g->all);
    const int kind = (int)v[0];
    if (me == 0) {
        fprintf(stderr,
                "pumma: %s: %s; %s of rank %.0f (%.1f MiB) leaves %.1f MiB: "
                "raise the limit (PUMMA_MAX_WORKSPACE cannot lower the need; "
                "doc/memory.md, \"Memory limits\")\n",
                rout, what,
                kind > 0 && kind <= 3 ? kind_name[kind] : "the memory limit",
                v[3], v[1] / 1048576, v[2] / 1048576);
        fflush(stderr);
    }
    /* said before any process is stopped */
    MPI_Barrier(g->all);
    MPI_Abort(g->all, 1);
}

/*
 * pumma_memlimit_enter: see pumma_driver.h. At the first call on a
 * grid: counts the grid's processes on this node, agrees whether any
 * process has a limit (collective over g->all), and has the BLAS take its
 * buffer (once per process, before pumma holds any temporary; a no-op
 * when the program has multiplied before) -- or, where a limit leaves no
 * room for it, stops every process. Later calls return at once.
 */
void pumma_memlimit_enter(const pumma_grid_t *g, const char *rout)
{
    pumma_grid_t *w = (pumma_grid_t *)g;      /* the grid is pumma's own */
    int kind, me;
    double limit;
    MPI_Comm_rank(g->all, &me);
    if (!w->mem_known) {
        MPI_Comm node;
        int procs = 1;
        if (MPI_Comm_split_type(g->all, MPI_COMM_TYPE_SHARED, 0,
                                MPI_INFO_NULL, &node) == MPI_SUCCESS) {
            MPI_Comm_size(node, &procs);
            MPI_Comm_free(&node);
        }
        w->node_procs = procs;
        const double room0 = room_local(procs, &kind, &limit);
        /* a failed mapping spins only under an rlimit (a cgroup kills) */
        struct rlimit r[2];
        const int rlimited =
            (!getrlimit(RLIMIT_AS, &r[0]) && r[0].rlim_cur != RLIM_INFINITY) ||
            (!getrlimit(RLIMIT_DATA, &r[1]) && r[1].rlim_cur != RLIM_INFINITY);
        const int shortfall =
            !(warm || pumma_blas_ran()) && rlimited && blas_is_openblas() &&
            !blas_buffer_fits();
        int in[2] = {room0 < INFINITY, shortfall ? me + 1 : 0}, out[2];
        MPI_Allreduce(in, out, 2, MPI_INT, MPI_MAX, g->all);
        if (out[1]) {
            double v[4] = {kind, limit, room0, 0};
            stop(g, rout, "the BLAS's first multiply needs a buffer of its "
                          "own (OpenBLAS: 128 MiB) that the memory limit "
                          "leaves no room for",
                 out[1] - 1, v);
        }
        if (!(warm || pumma_blas_ran())) {
            const pumma_type_t *t = &pumma_type_d;
            static double x[64 * 64], z[64 * 64];
            const int n = 64;
            /* 64 x 64 x 64: past any small-matrix path that needs no
             * buffer; zeros, so no floating-point flag is raised */
            t->gemm("N", "N", &n, &n, &n, t->one, x, &n, x, &n, t->zero, z,
                    &n, 1, 1);
            warm = 1;
        }
        w->mem_limited = out[0];
        w->mem_known = 1;
    }
}

/* A grid's room is measured again (collectively) at most every
 * REFRESH_CALLS calls, unless a call's operands are a good part of it:
 * measuring costs some 40 us (reading /proc and the cgroup's files, one
 * MPI_Allreduce), more than a small call itself. */
#define REFRESH_CALLS 64

/* pumma_memlimit_room: see pumma_driver.h. */
double pumma_memlimit_room(const pumma_grid_t *g, const char *rout,
                           double operands, pumma_memlimit_t *why)
{
    pumma_grid_t *w = (pumma_grid_t *)g;      /* the grid is pumma's own */
    pumma_memlimit_enter(g, rout);
    if (!g->mem_limited) {
        memset(why, 0, sizeof *why);
        return INFINITY;
    }
    /* every process decides alike: all of these are the grid's */
    if (w->mem_room_calls && 4 * operands <= w->mem_room &&
        g->calls - w->mem_room_calls < REFRESH_CALLS) {
        *why = w->mem_why;
        return w->mem_room;
    }
    int kind, me;
    double limit;
    MPI_Comm_rank(g->all, &me);
    double room = room_local(g->node_procs, &kind, &limit) - RESERVE;
    /* pumma's kept blocks (PUMMA_CACHE) hold room; where they are a good
     * part of it, they go back first (a cgroup gives no failed mapping to
     * free them on: it kills) */
    const double kept = (double)pumma_mem_cached();
    if (kept > 0 && room < 2 * kept) {
        pumma_mem_release();
        room = room_local(g->node_procs, &kind, &limit) - RESERVE;
    }
    if (room < 0) room = 0;
    struct { double room; int rank; } in = {room, me}, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, g->all);
    memset(why, 0, sizeof *why);
    why->rank = out.rank;
    if (me == out.rank) {
        why->kind = kind;
        why->limit = limit;
    }
    w->mem_why = *why;
    w->mem_room = quantized(out.room);
    w->mem_room_calls = g->calls;
    return w->mem_room;
}

/* pumma_memlimit_stop: see pumma_driver.h. */
void pumma_memlimit_stop(const pumma_grid_t *g, const char *rout,
                         double need, double room, const pumma_memlimit_t *why)
{
    char what[128];
    snprintf(what, sizeof what, "the least plan needs %.1f MiB of "
                                "temporaries per process", need / 1048576);
    double v[4] = {why->kind, why->limit, room, 0};
    stop(g, rout, what, why->rank, v);
}
