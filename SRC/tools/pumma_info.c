/*
 * pumma_info.c -- pumma-info, what ompi_info is to Open MPI: the version,
 * how this pumma was built, what it runs with here (BLAS, ScaLAPACK, MPI),
 * every PUMMA_* setting in effect and where it comes from, and the tune and
 * decision files a program would use and whether they were measured on
 * this host, MPI and BLAS (doc/tools.md).
 *
 *   pumma-info                  everything (one process: no MPI launcher
 *                               needed; under mpiexec -n 2 the network's
 *                               tune lines are checked too)
 *   pumma-info --version        the version alone
 *   pumma-info --check PROGRAM  whether PROGRAM's P?GEMM calls reach pumma:
 *                               linked statically, or libpumma.so needed
 *                               before ScaLAPACK's library (or preloaded);
 *                               status 0 yes, 1 no, 2 not a program, 3
 *                               cannot tell (a stripped static program)
 *
 * It uses pumma's internal interface: it is linked with libpumma.a, the
 * same build as the shared library installed beside it.
 */
#define _GNU_SOURCE                 /* dladdr */
#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <stdarg.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "pumma.h"
#include "pumma_model.h"

static const char *const prog = "pumma-info";

/* ScaLAPACK's BLACS, named so that its library is linked and found. */
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow,
                     int *mycol);

/* ------------------------------------------------------------ --check */

/* The NEEDED entries of an ELF file's dynamic section, in order, and
 * whether its symbol tables define pumma's functions (pumma linked in
 * statically: its internal names stay in an unstripped program's symbol
 * table) and PDGEMM. Returns -1 (with why) when the file is not a 64-bit ELF
 * object this can read. */
/* The Level-3 routines (one precision stands for its file's four), as
 * check_program looks for them in a statically linked program. */
static const char *const l3_names[] = {"pdgemm", "pdsymm", "pdsyrk",
                                       "pdsyr2k", "pdtrmm", "pdtrsm",
                                       "pdgeadd", "pdtradd", "pdtran"};
#define NL3 ((int)(sizeof l3_names / sizeof *l3_names))

typedef struct elfinfo {
    char needed[64][256];
    int nneeded;
    int has_pumma;          /* defines a pumma_ symbol (static pumma) */
    int has_symtab;         /* not stripped */
    unsigned has_l3;        /* bit i: defines l3_names[i] (any mangling) */
} elfinfo_t;

static int read_elf(const char *path, elfinfo_t *e, char *why, size_t n)
{
    memset(e, 0, sizeof *e);
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode)) {
        snprintf(why, n, "not a regular file");
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, n, "cannot be read");
        return -1;
    }
    unsigned char *b = st.st_size > 0 && st.st_size < (1L << 31)
                           ? malloc((size_t)st.st_size) : NULL;
    const size_t size = (size_t)st.st_size;
    if (!b || fread(b, 1, size, f) != size) {
        fclose(f);
        free(b);
        snprintf(why, n, "cannot be read");
        return -1;
    }
    fclose(f);
    const Elf64_Ehdr *h = (const Elf64_Ehdr *)b;
    if (size < sizeof *h || memcmp(h->e_ident, ELFMAG, SELFMAG) ||
        h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_shoff == 0 ||
        h->e_shentsize != sizeof(Elf64_Shdr) ||
        h->e_shoff + (size_t)h->e_shnum * sizeof(Elf64_Shdr) > size) {
        free(b);
        snprintf(why, n, "not a 64-bit ELF program or library");
        return -1;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(b + h->e_shoff);
    for (int i = 0; i < h->e_shnum; i++) {
        const Elf64_Shdr *s = &sh[i];
        if (s->sh_link >= h->e_shnum) continue;
        const Elf64_Shdr *str = &sh[s->sh_link];
        if (s->sh_offset + s->sh_size > size ||
            str->sh_offset + str->sh_size > size)
            continue;
        const char *strtab = (const char *)b + str->sh_offset;
        if (s->sh_type == SHT_DYNAMIC) {
            const Elf64_Dyn *d = (const Elf64_Dyn *)(b + s->sh_offset);
            for (size_t j = 0; j < s->sh_size / sizeof *d; j++)
                if (d[j].d_tag == DT_NEEDED && d[j].d_un.d_val < str->sh_size &&
                    e->nneeded < 64)
                    snprintf(e->needed[e->nneeded++], sizeof e->needed[0],
                             "%s", strtab + d[j].d_un.d_val);
        } else if (s->sh_type == SHT_SYMTAB || s->sh_type == SHT_DYNSYM) {
            if (s->sh_type == SHT_SYMTAB) e->has_symtab = 1;
            const Elf64_Sym *y = (const Elf64_Sym *)(b + s->sh_offset);
            for (size_t j = 0; j < s->sh_size / sizeof *y; j++) {
                if (y[j].st_shndx == SHN_UNDEF || y[j].st_name >= str->sh_size)
                    continue;
                const char *nm = strtab + y[j].st_name;
                if (!strncmp(nm, "pumma_", 6)) e->has_pumma = 1;
                for (int i = 0; i < NL3; i++)
                    if (!strncasecmp(nm, l3_names[i], strlen(l3_names[i])) &&
                        (!nm[strlen(l3_names[i])] ||
                         !strcmp(nm + strlen(l3_names[i]), "_")))
                        e->has_l3 |= 1u << i;
            }
        }
    }
    free(b);
    return 0;
}

static int check_program(const char *path)
{
    char missing[128] = "";
    elfinfo_t e;
    char why[128];
    if (read_elf(path, &e, why, sizeof why)) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, why);
        return 2;
    }
    int pumma = -1, scalapack = -1;
    for (int i = 0; i < e.nneeded; i++) {
        if (pumma < 0 && !strncmp(e.needed[i], "libpumma.", 9)) pumma = i;
        if (scalapack < 0 && strstr(e.needed[i], "scalapack")) scalapack = i;
    }
    const char *pre = getenv("LD_PRELOAD");
    const int preloaded = pre && strstr(pre, "libpumma");
    printf("%s:\n  needs (in order):", path);
    for (int i = 0; i < e.nneeded; i++) printf(" %s", e.needed[i]);
    printf("%s\n", e.nneeded ? "" : " nothing (a static program)");
    int ok;
    for (int i = 0; i < NL3; i++)
        if (!(e.has_l3 & (1u << i)))
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing),
                     " %s", l3_names[i]);
    if (e.has_pumma) {
        /* an archive gives only the members the link asked for before
         * ScaLAPACK: what ScaLAPACK's solvers call later is its own */
        ok = !missing[0];
        printf("  pumma: linked in statically\n");
        if (missing[0])
            printf("  but without pumma's%s: those calls take ScaLAPACK's "
                   "own; link libpumma.a whole (-Wl,--whole-archive "
                   "libpumma.a -Wl,--no-whole-archive, doc/install.md)\n",
                   missing);
    } else if (pumma >= 0 && (scalapack < 0 || pumma < scalapack)) {
        ok = 1;
        printf("  pumma: %s is needed%s: its P?GEMM come first\n",
               e.needed[pumma], scalapack >= 0 ? " before ScaLAPACK" : "");
    } else if (pumma >= 0) {
        ok = 0;
        printf("  pumma: %s is needed AFTER %s: ScaLAPACK's own PDGEMM is "
               "taken; link -lpumma before ScaLAPACK\n", e.needed[pumma],
               e.needed[scalapack]);
    } else if (!e.has_symtab) {
        ok = -1;
        printf("  pumma: not needed as a shared library, and the program is "
               "stripped: a static pumma inside it cannot be seen; run it "
               "once with PUMMA_STATS=1 (pumma's pumma-stats lines end the "
               "run)\n");
    } else {
        ok = 0;
        printf("  pumma: not linked%s; link -lpumma after the program's "
               "objects and before ScaLAPACK (under -Wl,--as-needed, a "
               "-lpumma placed before the objects or after ScaLAPACK is "
               "dropped without a word), or preload libpumma.so\n",
               scalapack >= 0 ? " (ScaLAPACK's own PDGEMM is taken)" : "");
    }
    if (ok <= 0 && preloaded) {
        ok = 1;
        printf("  but LD_PRELOAD names %s here: run so, its P?GEMM calls "
               "reach pumma\n", pre);
    }
    printf("  %s\n", ok > 0 ? "ok: Level-3 PBLAS calls reach pumma "
                              "(PUMMA_STATS=1 shows them at the end of a "
                              "run)"
                     : ok < 0 ? "cannot tell" : "NOT served by pumma");
    return ok > 0 ? 0 : ok < 0 ? 3 : 1;
}

/* ------------------------------------------------------------- report */

/* The file a symbol of this process comes from, or "" when unknown. */
static void file_of(void *addr, char *out, size_t n)
{
    Dl_info di;
    char real[PATH_MAX];
    out[0] = '\0';
    if (addr && dladdr(addr, &di) && di.dli_fname)
        snprintf(out, n, "%s",
                 realpath(di.dli_fname, real) ? real : di.dli_fname);
}

static void row(const char *key, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void row(const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("  %-22s ", key);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* Whether a file is there to read: 0 yes, 1 absent, -1 refused (a FIFO,
 * a device, too large: pumma_file_read has said why). Read as pumma reads
 * it, so that a FIFO cannot hang the report. */
static int file_state(const char *path)
{
    char *text = NULL;
    size_t len;
    const int rc = pumma_file_read(path, &text, &len);
    free(text);
    return rc;
}

static const char *absent_or_refused(int st, const char *absent)
{
    return st == 0 ? "" : st > 0 ? absent : " (refused: see the line above)";
}

static void report(void)
{
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* collective first: the tune file's keys (processes 0 and peer talk) */
    pumma_grid_t g;
    memset(&g, 0, sizeof g);
    g.all = MPI_COMM_WORLD;
    pumma_tune_keys_t k;
    pumma_tune_keys(&g, &k);
    if (me != 0) return;

    printf("pumma %s\n", pumma_version());
    if (strcmp(pumma_version(), PUMMA_VERSION))
        printf("  (built with the header of %s)\n", PUMMA_VERSION);

    printf("\nbuild\n");
    row("built by", "%s", pumma_build_info("system"));
    row("C compiler", "%s", pumma_build_info("cc"));
    row("C flags", "%s", pumma_build_info("cflags"));
    row("Fortran compiler", "%s", pumma_build_info("fc"));
    const char *m = pumma_build_info("mangling");
    row("Fortran names", "%s%s", m,
        !strcmp(m, "Add_") ? " (pdgemm_)" : !strcmp(m, "NoChange") ? " (pdgemm)"
        : !strcmp(m, "UpCase") ? " (PDGEMM)" : "");
    row("libraries", "%s", pumma_build_info("libs"));
    char self[PATH_MAX];
    row("this program", "%s", realpath("/proc/self/exe", self) ? self
                                                                : "unknown");

    printf("\nrunning with\n");
    char f[PATH_MAX + 1];
    file_of(*(void **)&pumma_type_d.gemm, f, sizeof f);
    row("BLAS (dgemm)", "%s", *f ? f : "unknown");
    void (*blacs)(int, int *, int *, int *, int *) = Cblacs_gridinfo;
    void *at;
    memcpy(&at, &blacs, sizeof at);     /* a function's address as data */
    file_of(at, f, sizeof f);
    row("ScaLAPACK (BLACS)", "%s", *f ? f : "unknown");
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(mpi, &len);
    mpi[strcspn(mpi, ",\n")] = '\0';
    row("MPI", "%s (MPI %d.%d)", mpi, MPI_VERSION, MPI_SUBVERSION);
    row("processes", "%d%s", np,
        np < 2 ? " (run under mpiexec -n 2 to check the network's tune "
                 "lines)" : "");

    printf("\nsettings (doc/environment.md)\n");
    for (int i = 0; i < pumma_settings_count(); i++) {
        int shared;
        const char *name = pumma_settings_name(i, &shared);
        const char *v = pumma_env_get(name);
        const char *dflt = pumma_settings_default(i);
        if (v) row(name, "%s  (environment)", v);
        else row(name, "%s  (default)", dflt);
    }
    pumma_settings_unknown(stdout, "  ");

    printf("\nfiles (doc/choosing.md)\n");
    char path[4096];
    if (!pumma_tune_path(path, sizeof path)) {
        row("tune file", "none (PUMMA_TUNE=off, or no HOME)");
    } else {
        const int st = file_state(path);
        row("tune file", "%s%s", path,
            absent_or_refused(st, " (absent: the first call measures and "
                                  "writes it)"));
        if (st == 0) {
            double v[PUMMA_NVAL];
            const unsigned have = pumma_tune_read(&k, v);
            row("  this host and BLAS", "%s (%s)",
                (have & PUMMA_LOCAL_BITS) == PUMMA_LOCAL_BITS ? "measured"
                                                              : "not measured",
                k.local);
            if (k.net)
                row("  this pair and MPI", "%s (%s)",
                    (have & PUMMA_NET_BITS) == PUMMA_NET_BITS ? "measured"
                                                              : "not measured",
                    k.netkey);
        }
    }
    if (!pumma_decide_path(path, sizeof path)) {
        row("decision file", "none (PUMMA_DECISION_FILE=off, or no tune "
                             "file)");
    } else {
        const int fs = file_state(path);
        row("decision file", "%s%s", path,
            absent_or_refused(fs, " (absent: auto follows the models; "
                                  "pumma-tune writes it)"));
        if (fs == 0) {
            char why[512];
            const int st = pumma_decide_file_status(&k, path, why, sizeof why);
            row("  applies here", "%s%s%s",
                st == PUMMA_DECIDE_FILE_MATCH || st == PUMMA_DECIDE_FILE_NOKEYS
                    ? "yes" : "no", *why ? ": " : "", why);
        }
    }
}

static void usage(FILE *to)
{
    fprintf(to, "usage: %s [--version | --check PROGRAM | --settings FORMAT "
                "| --help]\n"
                "  (no argument: version, build, settings and files; under "
                "mpiexec -n 2 also the network's)\n"
                "  --settings readme|reference|shared|process: the docs "
                "generated from the settings table (make docs)\n", prog);
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
        printf("pumma %s\n", pumma_version());
        return 0;
    }
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--check")) return check_program(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "--settings")) {
        if (pumma_settings_doc(stdout, argv[2]) == 0) return 0;
        usage(stderr);
        return 2;
    }
    if (argc != 1) {
        usage(stderr);
        return 2;
    }
    MPI_Init(&argc, &argv);
    report();
    MPI_Finalize();
    return 0;
}
