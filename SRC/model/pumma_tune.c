/*
 * pumma_tune.c -- the tune file: the machine model's measured values kept
 * per user, so that a program's first PDGEMM does not measure them again
 * (doc/choosing.md, "The tune file").
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
 * Only a grid's process 0 reads and writes the file, through
 * pumma_file.c: it reads only a regular file, whole; it rewrites it under
 * the file's lock, through a temporary of its own renamed over it, so
 * that jobs writing at once lose none of each other's lines and a reader
 * sees the old file or the new, never half of one. A last line without
 * an end of line was cut short: it is ignored (and kept, commented out,
 * when the file is rewritten). A file that cannot be read or written is
 * no error: the values are measured, as without the file (with a
 * one-line message saying why, unless the file is just not there).
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

#include "pumma_model.h"

/* PUMMA_MODEL's names too (pumma_base.h): one list */
static const char *const names[] = {PUMMA_MODEL_NAMES};
typedef char names_match[sizeof names / sizeof *names == PUMMA_NVAL &&
                                 PUMMA_MODEL_NNAMES == PUMMA_NVAL
                             ? 1 : -1];

const char *pumma_model_name(int i) { return names[i]; }

int pumma_tune_mode(void)
{
    const char *e = pumma_setting(PUMMA_SET_TUNE)->tune;
    return !e ? PUMMA_TUNE_AUTO
           : !strcmp(e, "refresh") ? PUMMA_TUNE_REFRESH : PUMMA_TUNE_OFF;
}

/* The file's path in buf; 0 when the file is off. */
int pumma_tune_path(char *buf, size_t len)
{
    if (pumma_tune_mode() == PUMMA_TUNE_OFF) return 0;
    const char *e = pumma_setting(PUMMA_SET_TUNE_FILE)->tune_file;
    if (e) return snprintf(buf, len, "%s", e) < (int)len;
#ifdef PUMMA_SMPI
    /* Simulated (make smpi): none unless named. The hosts are a
     * platform's, and one platform's node-0 is not another's: the user's
     * own tune file would take them for machines of its own. */
    return 0;
#endif
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && *x == '/') return snprintf(buf, len, "%s/pumma/tune", x) < (int)len;
    if (h && *h) return snprintf(buf, len, "%s/.cache/pumma/tune", h) < (int)len;
    return 0;
}

/* Whether Open MPI's byte transfer layers, as OMPI_MCA_btl lists them
 * (mpiexec --mca btl ... puts it in its processes' environment), leave
 * it the shared-memory one: unset, a list naming vader, sm or smcuda,
 * or an exclusion (^...) that names none of them. */
static int btl_has_shm(const char *btl)
{
    if (!btl || !*btl) return 1;
    const int exclude = btl[0] == '^';
    int named = 0;
    for (const char *s = btl + exclude; *s;) {
        size_t n = strcspn(s, ",");
        if ((n == 5 && !strncmp(s, "vader", 5)) ||
            (n == 2 && !strncmp(s, "sm", 2)) ||
            (n == 6 && !strncmp(s, "smcuda", 6)))
            named = 1;
        s += n + (s[n] == ',');
    }
    return exclude ? !named : named;
}

/* No blanks in a key's value (they separate fields). */
static void unblank(char *s)
{
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '#') *s = '_';
}

/* The keys of a grid whose processes 0 and peer run on `host` and `peer`
 * (net: it has two processes or more), made where this process runs: its
 * BLAS, its MPI library, its OMPI_MCA_btl. */
static void make_keys(char *host, char *peer, int net, pumma_tune_keys_t *k)
{
    k->net = net;
    /* the BLAS: the file dgemm_ comes from */
    char blas[PATH_MAX] = "unknown";
    Dl_info di;
    if (dladdr(*(void **)&pumma_type_d.gemm, &di) && di.dli_fname &&
        !realpath(di.dli_fname, blas))
        snprintf(blas, sizeof blas, "%s", di.dli_fname);
    unblank(blas);
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(mpi, &len);
    mpi[strcspn(mpi, ",\n")] = '\0';     /* its first words: name, version */
    unblank(mpi);
    snprintf(k->local, sizeof k->local, "host=%s blas=%s", host, blas);
    /* Processes of one host that may not use shared memory (TCP between
     * network namespaces, say) have a network of their own: its values
     * are kept apart, and it overlaps like one. */
    char btl[256] = "";
    const char *b = getenv("OMPI_MCA_btl");
    if (b && *b) {
        snprintf(btl, sizeof btl, " btl=%s", b);
        unblank(btl + 1);
    }
    snprintf(k->netkey, sizeof k->netkey, "pair=%s,%s mpi=%s%s", host, peer,
             mpi, btl);
    k->same_host = net && !strcmp(host, peer) && btl_has_shm(b);
}

/* The process the network is measured with (pumma_tune_keys_t): the
 * first on another host than process 0's, else 1; every process gets the
 * same answer. */
static int peer_of(MPI_Comm comm, const char *host, int me, int np)
{
    char first[MPI_MAX_PROCESSOR_NAME + 1];
    memcpy(first, host, sizeof first);
    MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, comm);
    int mine = strcmp(first, host) ? me : np, other;
    MPI_Allreduce(&mine, &other, 1, MPI_INT, MPI_MIN, comm);
    return other < np ? other : 1;
}

/* The keys this process made last (pumma_tune_keys_last). */
static pumma_tune_keys_t last_keys;
static int have_last_keys = 0;

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
    k->peer = np >= 2 ? peer_of(g->all, host, me, np) : 0;
    if (np >= 2 && me == k->peer)
        MPI_Send(host, (int)sizeof host, MPI_CHAR, 0, PUMMA_TAG_MODEL, g->all);
    if (me != 0) return;
    if (np >= 2)
        MPI_Recv(peer, (int)sizeof peer, MPI_CHAR, k->peer, PUMMA_TAG_MODEL,
                 g->all, MPI_STATUS_IGNORE);
    make_keys(host, peer, np >= 2, k);
    last_keys = *k;
    have_last_keys = 1;
}

void pumma_tune_keys_here(pumma_tune_keys_t *k)
{
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0;
    MPI_Get_processor_name(host, &len);
    host[len] = '\0';
    unblank(host);
    make_keys(host, host, 1, k);
}

const pumma_tune_keys_t *pumma_tune_keys_last(void)
{
    return have_last_keys ? &last_keys : NULL;
}

/* Does the line (its kind stripped) start with exactly these key fields,
 * then blank, then no further key field? Returns what follows, or NULL.
 * A net line with btl= after the same pair and MPI is another
 * configuration's (TCP between processes of one host), not this one's. */
static const char *match(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != '\t'))
        return NULL;
    const char *rest = line + n + strspn(line + n, " \t");
    if (!strncmp(rest, "btl=", 4)) return NULL;
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

/* Where text's last line starts when it was cut short (no end of line:
 * a write cut by a full disk, an editor's, whose half a line might read
 * as another whole line), NULL when it was not; such a line with more
 * than blanks or a comment is told once per process, with its number. */
static char *cut_line(const char *path, char *text)
{
    char *nl = strrchr(text, '\n'), *tail = nl ? nl + 1 : text;
    if (!*tail) return NULL;
    static int told = 0;
    const char *s = tail + strspn(tail, " \t");
    if (*s && *s != '#' && !told) {
        int lno = 1;
        for (const char *c = text; c < tail; c++) lno += *c == '\n';
        fprintf(stderr, "pumma: %s:%d: cut short (no end of line); ignored "
                        "(doc/choosing.md, \"The tune file\")\n", path, lno);
        told = 1;
    }
    return tail;
}

/* The file's text, whole lines only; NULL when there is none or it is
 * refused (pumma_file_read says why). */
static char *read_text(const char *path)
{
    char *text;
    size_t len;
    if (pumma_file_read(path, &text, &len)) return NULL;
    char *tail = cut_line(path, text);
    if (tail) *tail = '\0';
    return text;
}

/* Whether a rejected line lno is told now: each once per process (the
 * file is read at every grid's first plan). */
static int tell_line(int lno)
{
    static unsigned char told[8192 / 8];
    if (lno < 1 || lno >= 8192) return 1;
    const int was = told[lno / 8] >> (lno % 8) & 1;
    told[lno / 8] |= (unsigned char)(1u << (lno % 8));
    return !was;
}

unsigned pumma_tune_read(const pumma_tune_keys_t *k, double *v)
{
    char path[PATH_MAX];
    if (pumma_tune_mode() == PUMMA_TUNE_REFRESH ||
        !pumma_tune_path(path, sizeof path))
        return 0;
    char *text = read_text(path);
    if (!text) return 0;
    unsigned have = 0;
    int lno = 0;
    for (char *line = text, *end; *line; line = end + 1) {
        end = line + strcspn(line, "\n");    /* every line ends in one */
        *end = '\0';
        lno++;
        line[strcspn(line, "#")] = '\0';
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
        if (hit && bad && tell_line(lno))
            fprintf(stderr, "pumma: %s:%d: not a valid line for this machine "
                            "(measuring instead; doc/choosing.md, \"The tune "
                            "file\")\n",
                    path, lno);
    }
    free(text);
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


/*
 * Rewrite the file with the lines of kind[i] keyed key[i] (i < n) replaced
 * by body[i] ("kind key body"), every other line kept, under the file's
 * lock (pumma_file_begin): what other jobs wrote meanwhile is kept too.
 */
static void put_lines(int n, const char *const *kind, const char *const *key,
                      const char *const *body)
{
    char path[PATH_MAX];
    pumma_file_new_t nf;
    if (n == 0 || !pumma_tune_path(path, sizeof path)) return;
    make_dirs(path);
    if (pumma_file_begin(path, 1, &nf)) return;
    FILE *out = nf.out;
    char *tail = cut_line(path, nf.old);     /* the line cut short */
    char *const stop = tail ? tail : nf.old + nf.len;
    int header = 0;
    for (char *line = nf.old, *end; line < stop; line = end + 1) {
        end = line + strcspn(line, "\n");
        *end = '\0';
        /* keep every line but the ones replaced */
        const char *s = line + strspn(line, " \t");
        int drop = 0;
        for (int i = 0; i < n && !drop; i++) {
            size_t kl = strlen(kind[i]);
            drop = !strncmp(s, kind[i], kl) && s[kl] == ' ' &&
                   match(s + kl + 1, key[i]);
        }
        if (drop) continue;
        header |= s[0] == '#';
        fprintf(out, "%s\n", line);
    }
    /* a line cut short is kept for its reader, never to be read as one */
    if (tail) {
        const char *s = tail + strspn(tail, " \t");
        fprintf(out, "%s%s\n", *s && *s != '#' ? "# cut short: " : "", tail);
    }
    if (!header && !nf.len)
        fprintf(out, "# pumma tune file: the machine model's measured values "
                     "(doc/choosing.md, \"The tune file\").\n# Edit a value "
                     "to use yours; delete a line to measure it again.\n");
    for (int i = 0; i < n; i++)
        fprintf(out, "%s %s %s\n", kind[i], key[i], body[i]);
    pumma_file_commit(&nf);
}

static void values_text(char *buf, size_t len, const double *v, int lo,
                        int hi)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = lo; i < hi && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s=%.6g",
                               i > lo ? " " : "", names[i], v[i]);
}

void pumma_tune_write(const pumma_tune_keys_t *k, const double *v,
                      unsigned which)
{
    const unsigned local = PUMMA_LOCAL_BITS;
    const char *kind[2], *key[2], *body[2];
    char text[2][1024];
    int n = 0;
    if ((which & local) == local) {
        values_text(text[n], sizeof text[n], v, PUMMA_NNET, PUMMA_NVAL);
        kind[n] = "local", key[n] = k->local, body[n] = text[n];
        n++;
    }
    if (k->net && (which & PUMMA_NET_BITS) == PUMMA_NET_BITS) {
        values_text(text[n], sizeof text[n], v, 0, PUMMA_NNET);
        kind[n] = "net", key[n] = k->netkey, body[n] = text[n];
        n++;
    }
    put_lines(n, kind, key, body);
}

/* ------------------------------------------------------ pLogP samples */

/*
 *   plogp pair=NAME0,NAME1 mpi=VERSION L=.. add=.. [cores=.. ppn=..
 *         theta=.. wake=.. fair=..] m=M0,M1,.. os=.. or=.. g=.. rtt=..
 *
 * The samples of pumma_plogp_measure between a grid's first two
 * processes (one value per size in each list), the seconds per byte
 * of a local add, and the node they were taken on (pumma_plogp_t; absent:
 * no sharing); what the decisions' models are fitted to
 * (pumma_model.h). Written by the tuner (make tune) only.
 */
static const char *const plogp_lists[5] = {"m", "os", "or", "g", "rtt"};

static double *plogp_list(pumma_plogp_t *s, int i)
{
    double *l[5] = {s->m, s->os, s->orv, s->g, s->rtt};
    return l[i];
}

int pumma_tune_read_plogp(const char *netkey, pumma_plogp_t *s, double *add)
{
    char path[PATH_MAX];
    if (!pumma_tune_path(path, sizeof path)) return 0;
    char *text = read_text(path);
    if (!text) return 0;
    int found = 0, lno = 0;
    for (char *line = text, *end; !found && *line; line = end + 1) {
        end = line + strcspn(line, "\n");    /* every line ends in one */
        *end = '\0';
        lno++;
        line[strcspn(line, "#")] = '\0';
        const char *s0 = line + strspn(line, " \t"), *rest;
        if (strncmp(s0, "plogp ", 6) || !(rest = match(s0 + 6, netkey)))
            continue;
        pumma_plogp_t x;
        memset(&x, 0, sizeof x);
        double a = -1;
        int n[5] = {-1, -1, -1, -1, -1}, bad = 0, haveL = 0;
        char *copy = strdup(rest), *save = NULL;
        const int nomem = !copy;
        for (char *t = copy ? strtok_r(copy, " \t", &save) : NULL; t && !bad;
             t = strtok_r(NULL, " \t", &save)) {
            char *eq = strchr(t, '=');
            if (!eq) { bad = 1; break; }
            *eq++ = '\0';
            if (!strcmp(t, "L")) {
                bad = pumma_env_parse_double(eq, 0, 1e10, &x.L);
                haveL = 1;
                continue;
            }
            if (!strcmp(t, "add")) {
                bad = pumma_env_parse_double(eq, 0, 1e10, &a);
                continue;
            }
            if (!strcmp(t, "cores") || !strcmp(t, "ppn")) {
                bad = pumma_env_parse_double(eq, 0, 1e7,
                                             t[0] == 'c' ? &x.cores : &x.ppn);
                continue;
            }
            if (!strcmp(t, "theta")) {
                bad = pumma_env_parse_double(eq, 0, 1, &x.theta);
                continue;
            }
            if (!strcmp(t, "wake")) {
                bad = pumma_env_parse_double(eq, 0, 1, &x.wake);
                continue;
            }
            if (!strcmp(t, "fair")) {
                bad = pumma_env_parse_double(eq, 0, 1, &x.fair);
                continue;
            }
            int i = 0;
            while (i < 5 && strcmp(t, plogp_lists[i])) i++;
            if (i == 5 || n[i] >= 0) { bad = 1; break; }
            n[i] = 0;
            char *save2 = NULL;
            for (char *v = strtok_r(eq, ",", &save2); v && !bad;
                 v = strtok_r(NULL, ",", &save2)) {
                if (n[i] == PUMMA_PLOGP_MAXS) bad = 1;
                else bad = pumma_env_parse_double(v, 0, 1e10,
                                                  &plogp_list(&x, i)[n[i]++]);
            }
        }
        free(copy);
        for (int i = 1; i < 5; i++) bad |= n[i] != n[0];
        bad |= nomem || !haveL || a < 0 || n[0] < 2 || x.m[0] != 0;
        for (int i = 1; i < n[0] && !bad; i++) bad = x.m[i] <= x.m[i - 1];
        if (bad) {
            if (tell_line(lno))
                fprintf(stderr, "pumma: %s:%d: not a valid plogp line "
                                "(ignored; doc/choosing.md, \"The tune "
                                "file\")\n",
                        path, lno);
            continue;
        }
        x.n = n[0];
        *s = x;
        *add = a;
        found = 1;
    }
    free(text);
    return found;
}

void pumma_tune_write_plogp(const char *netkey, const pumma_plogp_t *s,
                            double add)
{
    size_t len = 160 + (size_t)s->n * 5 * 16, at;
    char *body = malloc(len);
    if (!body) return;
    at = (size_t)snprintf(body, len, "L=%.6g add=%.6g cores=%.0f ppn=%.0f "
                                     "theta=%.3g wake=%.3g fair=%.0f", s->L,
                          add, s->cores, s->ppn, s->theta, s->wake, s->fair);
    pumma_plogp_t c = *s;
    for (int i = 0; i < 5 && at < len; i++) {
        const double *l = plogp_list(&c, i);
        at += (size_t)snprintf(body + at, len - at, " %s=", plogp_lists[i]);
        for (int j = 0; j < s->n && at < len; j++)
            at += (size_t)snprintf(body + at, len - at, i ? "%s%.6g" : "%s%.0f",
                                   j ? "," : "", l[j]);
    }
    if (at >= len) {               /* cannot happen at these widths */
        free(body);
        return;
    }
    const char *kind = "plogp";
    put_lines(1, &kind, &netkey, (const char *const *)&body);
    free(body);
}
