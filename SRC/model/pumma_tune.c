/*
 * pumma_tune.c -- the tune file: the machine model's measured values kept
 * per user, so that a program's first PDGEMM does not measure them again
 * (README, "The tune file").
 *
 * Where: PUMMA_TUNE_FILE, else $XDG_CACHE_HOME/pumma/tune, else
 * $HOME/.cache/pumma/tune. PUMMA_TUNE: auto (the default: read it,
 * measure and write what it lacks), refresh (measure, and write over what
 * it had: `make tune`) or off (neither: every program measures). Text, one line per measured machine part, blanks
 * between fields, '#' to the end of a line a comment:
 *
 *   local host=NAME blas=LIBRARY gamma_s=.. gamma_d=.. gamma_c=.. gamma_z=..
 *         gamma_k=.. gamma_t=.. delta=.. delta_t=..
 *   net pair=NAME0,NAME1 mpi=VERSION alpha=.. beta=.. overlap=..
 *
 * `local` is what the first process of a grid measures alone (its host and
 * the BLAS library dgemm_ comes from, as a path); `net` the ping-pong
 * between a grid's first two processes (their hosts; the MPI library's
 * version, blanks written '_'). A line applies when its keys match
 * exactly; all of its values must be there, numbers from 0 to 1e10 (a
 * line that is not so is ignored, with a warning, and measured again). A
 * user may edit a value (it is then used as measured) or delete a line
 * (measured again at the next first call, and written back).
 *
 * Only a grid's process 0 reads and writes the file; it writes a new copy
 * beside the old and renames it over it, so a reader sees the old file
 * or the new, never half of one. A file that cannot be read or written is
 * no error: the values are measured, as without the file.
 */
#define _GNU_SOURCE             /* dladdr, realpath */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pumma_comm.h"
#include "pumma_tune.h"

static const char *const names[PUMMA_NVAL] = {
    "alpha", "beta", "overlap", "gamma_s", "gamma_d", "gamma_c", "gamma_z",
    "gamma_k", "gamma_t", "delta", "delta_t"};

const char *pumma_model_name(int i) { return names[i]; }

int pumma_tune_mode(void)
{
    static int mode = -1;
    if (mode >= 0) return mode;
    const char *e = pumma_env_get("PUMMA_TUNE");
    if (!e || !strcmp(e, "auto")) mode = PUMMA_TUNE_AUTO;
    else if (!strcmp(e, "refresh")) mode = PUMMA_TUNE_REFRESH;
    else if (!strcmp(e, "off")) mode = PUMMA_TUNE_OFF;
    else pumma_env_bad("PUMMA_TUNE", e, "auto, refresh or off");
    return mode;
}

/* The file's path in buf; 0 when the file is off. */
int pumma_tune_path(char *buf, size_t len)
{
    if (pumma_tune_mode() == PUMMA_TUNE_OFF) return 0;
    const char *e = pumma_env_get("PUMMA_TUNE_FILE");
    if (e) return snprintf(buf, len, "%s", e) < (int)len;
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && *x == '/') return snprintf(buf, len, "%s/pumma/tune", x) < (int)len;
    if (h && *h) return snprintf(buf, len, "%s/.cache/pumma/tune", h) < (int)len;
    return 0;
}

/* No blanks in a key's value (they separate fields). */
static void unblank(char *s)
{
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '#') *s = '_';
}

void pumma_tune_keys(const pumma_grid_t *g, pumma_tune_keys_t *k)
{
    int me, np;
    MPI_Comm_rank(g->all, &me);
    MPI_Comm_size(g->all, &np);
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "", peer[sizeof host] = "";
    int len = 0;
    MPI_Get_processor_name(host, &len);
    host[len] = '\0';
    unblank(host);
    k->net = np >= 2;
    if (me == 1) MPI_Send(host, (int)sizeof host, MPI_CHAR, 0, PUMMA_TAG_MODEL,
                          g->all);
    if (me != 0) return;
    if (np >= 2)
        MPI_Recv(peer, (int)sizeof peer, MPI_CHAR, 1, PUMMA_TAG_MODEL, g->all,
                 MPI_STATUS_IGNORE);
    /* the BLAS: the file dgemm_ comes from */
    char blas[PATH_MAX] = "unknown";
    Dl_info di;
    if (dladdr(*(void **)&pumma_type_d.gemm, &di) && di.dli_fname &&
        !realpath(di.dli_fname, blas))
        snprintf(blas, sizeof blas, "%s", di.dli_fname);
    unblank(blas);
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    MPI_Get_library_version(mpi, &len);
    mpi[strcspn(mpi, ",\n")] = '\0';     /* its first words: name, version */
    unblank(mpi);
    snprintf(k->local, sizeof k->local, "host=%s blas=%s", host, blas);
    snprintf(k->netkey, sizeof k->netkey, "pair=%s,%s mpi=%s", host, peer,
             mpi);
    k->same_host = np >= 2 && !strcmp(host, peer);
}

/* Does the line (its kind stripped) start with exactly these key fields,
 * then blank? Returns what follows, or NULL. */
static const char *match(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != '\t'))
        return NULL;
    return line + n;
}

/* Values name=number of indices lo..hi-1 from s into v; 0 when all of
 * them are there, well formed, and nothing else is. */
static int read_values(const char *s, int lo, int hi, double *v)
{
    unsigned seen = 0;
    char tok[128];
    int at = 0, used;
    while (sscanf(s + at, "%127s%n", tok, &used) == 1) {
        at += used;
        char *eq = strchr(tok, '=');
        if (!eq) return -1;
        *eq = '\0';
        int i;
        for (i = lo; i < hi; i++)
            if (!strcmp(tok, names[i])) break;
        if (i == hi || (seen >> i & 1u)) return -1;
        if (pumma_env_parse_double(eq + 1, 0, 1e10, &v[i])) return -1;
        seen |= 1u << i;
    }
    for (int i = lo; i < hi; i++)
        if (!(seen >> i & 1u)) return -1;
    return 0;
}

unsigned pumma_tune_read(const pumma_tune_keys_t *k, double *v)
{
    char path[PATH_MAX];
    if (pumma_tune_mode() == PUMMA_TUNE_REFRESH ||
        !pumma_tune_path(path, sizeof path))
        return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned have = 0;
    char line[4096];
    int lno = 0;
    while (fgets(line, sizeof line, f)) {
        lno++;
        line[strcspn(line, "#\n")] = '\0';
        const char *s = line + strspn(line, " \t");
        if (!*s) continue;
        const char *rest;
        double w[PUMMA_NVAL];
        int bad = 0, hit = 0;
        if (!strncmp(s, "local ", 6) && (rest = match(s + 6, k->local))) {
            hit = 1;
            if (!(bad = read_values(rest, PUMMA_NNET, PUMMA_NVAL, w))) {
                memcpy(&v[PUMMA_NNET], &w[PUMMA_NNET],
                       sizeof(double) * (PUMMA_NVAL - PUMMA_NNET));
                have |= PUMMA_LOCAL_BITS;
            }
        } else if (k->net && !strncmp(s, "net ", 4) &&
                   (rest = match(s + 4, k->netkey))) {
            hit = 1;
            if (!(bad = read_values(rest, 0, PUMMA_NNET, w))) {
                memcpy(v, w, sizeof(double) * PUMMA_NNET);
                have |= PUMMA_NET_BITS;
            }
        }
        if (hit && bad)
            fprintf(stderr, "pumma: %s:%d: not a valid line for this machine "
                            "(measuring instead; README, \"The tune file\")\n",
                    path, lno);
    }
    fclose(f);
    return have;
}

/* mkdir -p of the directory part of path. */
static void make_dirs(const char *path)
{
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    for (char *p = d + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(d, 0755) && errno != EEXIST) return;
        *p = '/';
    }
}

static void write_line(FILE *f, const char *kind, const char *key,
                       const double *v, int lo, int hi)
{
    fprintf(f, "%s %s", kind, key);
    for (int i = lo; i < hi; i++) fprintf(f, " %s=%.6g", names[i], v[i]);
    fputc('\n', f);
}

void pumma_tune_write(const pumma_tune_keys_t *k, const double *v,
                      unsigned which)
{
    char path[PATH_MAX], tmp[PATH_MAX + 32];
    const unsigned local = PUMMA_LOCAL_BITS;
    const int put_local = (which & local) == local;
    const int put_net = k->net && (which & PUMMA_NET_BITS) == PUMMA_NET_BITS;
    if ((!put_local && !put_net) || !pumma_tune_path(path, sizeof path))
        return;
    make_dirs(path);
    if (snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >=
        (int)sizeof tmp)
        return;
    FILE *out = fopen(tmp, "w");
    if (!out) return;
    FILE *in = fopen(path, "r");
    int header = 0;
    char line[4096];
    while (in && fgets(line, sizeof line, in)) {
        /* keep every line but the ones replaced */
        const char *s = line + strspn(line, " \t");
        if ((put_local && !strncmp(s, "local ", 6) && match(s + 6, k->local)) ||
            (put_net && !strncmp(s, "net ", 4) && match(s + 4, k->netkey)))
            continue;
        header |= s[0] == '#';
        fputs(line, out);
        if (!strchr(line, '\n')) fputc('\n', out);
    }
    if (in) fclose(in);
    if (!header && !in)
        fprintf(out, "# pumma tune file: the machine model's measured values "
                     "(README, \"The tune file\").\n# Edit a value to use "
                     "yours; delete a line to measure it again.\n");
    if (put_local) write_line(out, "local", k->local, v, PUMMA_NNET, PUMMA_NVAL);
    if (put_net) write_line(out, "net", k->netkey, v, 0, PUMMA_NNET);
    if (fclose(out) || rename(tmp, path)) unlink(tmp);
}
