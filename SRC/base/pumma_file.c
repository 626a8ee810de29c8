/*
 * pumma_file.c -- pumma's own files (the tune file, the decision file,
 * the tuner's reports) read and written so that they cannot be turned
 * against the user, nor lost (doc/choosing.md, "The tune file").
 *
 * Reading: only a regular file. It is opened without blocking (opening a
 * FIFO would wait for a writer, and the other processes of the grid with
 * it) and checked with fstat; it is read whole, or refused when larger
 * than PUMMA_FILE_MAX: a file cut at a limit may end in half a rule that
 * reads as another one.
 *
 * Writing: the new contents go to a temporary created exclusively
 * (mkstemp) in the file's directory -- a fixed or guessable name there
 * would follow a symbolic link planted in a shared directory and
 * overwrite whatever it points to -- given the old file's mode, fsync'ed
 * and renamed over the file, so a reader sees the old file or the new,
 * and a crash leaves one of them whole. The writer holds an fcntl write
 * lock on the file itself from before it reads the old contents until
 * after the rename: jobs on hosts sharing a home each add their lines to
 * the others', none lost. fcntl, not flock: it is the lock NFS carries.
 * An fcntl lock is the process's, dropped when any descriptor of the
 * file is closed, so the old text is read through the locked descriptor.
 * Another writer may have renamed its version over the path while this
 * one waited for the lock: the lock is then on a file no longer there,
 * and it is taken again on the new one.
 */
#define _GNU_SOURCE             /* mkostemp, O_CLOEXEC, O_NOFOLLOW */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pumma_base.h"

/* A message about path on stderr, once per process and path: a program
 * reads and writes its files at each grid's first plan, and one line
 * saying what is wrong with one says it all. */
static void say(const char *path, const char *fmt, ...)
{
    enum { NTOLD = 16 };
    static char told[NTOLD][256];
    static int ntold = 0;
    for (int i = 0; i < ntold; i++)
        if (!strncmp(told[i], path, sizeof told[i] - 1)) return;
    if (ntold < NTOLD) snprintf(told[ntold++], sizeof told[0], "%s", path);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* What a file that is not a regular one is, for the messages. */
static const char *kind_of(mode_t m)
{
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISLNK(m)) return "a symbolic link";
    return "not a regular file";
}

static void not_regular(const char *path, mode_t m, const char *what)
{
    say(path, "pumma: %s is not a regular file (%s); %s\n", path, kind_of(m),
        what);
}

/* The text of the open file fd (at offset 0), whole; -1 after a message. */
static int read_fd(int fd, const char *path, const char *what, char **text,
                   size_t *len)
{
    struct stat st;
    if (fstat(fd, &st)) {
        say(path, "pumma: cannot read %s (%s); %s\n", path,
            strerror(errno), what);
        return -1;
    }
    if (st.st_size > PUMMA_FILE_MAX) {
        say(path, "pumma: %s is larger than %d MiB (%lld bytes); %s\n",
            path, PUMMA_FILE_MAX >> 20, (long long)st.st_size, what);
        return -1;
    }
    /* the size may change while reading: read to the end, within the cap */
    size_t cap = (size_t)st.st_size + 4096, n = 0;
    char *t = malloc(cap + 1);
    for (;;) {
        if (!t) {
            say(path, "pumma: out of memory reading %s; %s\n", path,
                what);
            return -1;
        }
        ssize_t r = read(fd, t + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            say(path, "pumma: cannot read %s (%s); %s\n", path,
                strerror(errno), what);
            free(t);
            return -1;
        }
        if (r == 0) break;
        n += (size_t)r;
        if (n > PUMMA_FILE_MAX) {
            say(path, "pumma: %s is larger than %d MiB; %s\n", path,
                PUMMA_FILE_MAX >> 20, what);
            free(t);
            return -1;
        }
        if (n == cap) {
            cap *= 2;
            char *g = realloc(t, cap + 1);
            if (!g) free(t);
            t = g;
        }
    }
    /* a NUL would end the text early for every reader: no text file */
    const char *nul = memchr(t, '\0', n);
    if (nul) {
        say(path, "pumma: %s holds a NUL byte (at byte %zu): not a "
            "text file; %s\n", path, (size_t)(nul - t), what);
        free(t);
        return -1;
    }
    t[n] = '\0';
    *text = t;
    *len = n;
    return 0;
}

int pumma_file_read(const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    /* stat first: even a non-blocking open of a device may act on it */
    struct stat st;
    if (stat(path, &st)) {
        if (errno == ENOENT || errno == ENOTDIR) return 1;
        say(path, "pumma: cannot read %s (%s); ignored\n", path,
            strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        not_regular(path, st.st_mode, "ignored");
        return -1;
    }
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return 1;
        say(path, "pumma: cannot read %s (%s); ignored\n", path,
            strerror(errno));
        return -1;
    }
    /* what was opened, which may not be what stat saw */
    if (fstat(fd, &st)) st.st_mode = 0;
    if (!S_ISREG(st.st_mode)) {
        not_regular(path, st.st_mode, "ignored");
        close(fd);
        return -1;
    }
    const int rc = read_fd(fd, path, "ignored", text, len);
    close(fd);
    return rc;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The file at path opened read-write (created when missing) and
 * write-locked, still the one the path names; *st its status. -1 after
 * a message. */
static int lock_open(const char *path, struct stat *st)
{
    const double until = now() + PUMMA_FILE_LOCK_WAIT;
    for (;;) {
        struct stat ls;
        if (!lstat(path, &ls) && !S_ISREG(ls.st_mode)) {
            not_regular(path, ls.st_mode, "not written");
            return -1;
        }
        /* O_NOFOLLOW: a link planted here since lstat is not followed;
         * O_NONBLOCK: nor does a FIFO put there hang the open */
        const int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
                                      O_NOCTTY | O_CLOEXEC, 0666);
        if (fd < 0) {
            if (errno == ELOOP)
                say(path, "pumma: %s is not a regular file (a symbolic "
                    "link); not written\n", path);
            else
                say(path, "pumma: cannot write %s (%s); not written\n",
                    path, strerror(errno));
            return -1;
        }
        if (fstat(fd, st)) st->st_mode = 0;
        if (!S_ISREG(st->st_mode)) {
            not_regular(path, st->st_mode, "not written");
            close(fd);
            return -1;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        /* polled, not F_SETLKW: a writer stuck holding the lock (a hung
         * job, a lost NFS server) must not hang this one for ever */
        struct flock l;
        memset(&l, 0, sizeof l);
        l.l_type = F_WRLCK;
        l.l_whence = SEEK_SET;
        long wait_ns = 1000000;
        while (fcntl(fd, F_SETLK, &l)) {
            if (errno != EACCES && errno != EAGAIN && errno != EINTR) {
                /* no locks here (an NFS mount without them): writing
                 * unlocked is what every writer did before */
                say(path, "pumma: cannot lock %s (%s); written without "
                    "a lock\n", path, strerror(errno));
                return fd;
            }
            if (now() > until) {
                say(path, "pumma: %s is locked by another process for "
                    "%.0f s; not written\n", path,
                    PUMMA_FILE_LOCK_WAIT);
                close(fd);
                return -1;
            }
            struct timespec ts = {0, wait_ns};
            nanosleep(&ts, NULL);
            if (wait_ns < 64000000) wait_ns *= 2;
        }
        struct stat cur;
        if (fstat(fd, st) == 0 && lstat(path, &cur) == 0 &&
            cur.st_dev == st->st_dev && cur.st_ino == st->st_ino)
            return fd;
        close(fd);               /* replaced or removed meanwhile: again */
    }
}

int pumma_file_begin(const char *path, int read_old, pumma_file_new_t *nf)
{
    memset(nf, 0, sizeof *nf);
    nf->fd = -1;
    char dir[PUMMA_FILE_PATH], base[PUMMA_FILE_PATH];
    if (snprintf(nf->path, sizeof nf->path, "%s", path) >=
            (int)sizeof nf->path ||
        snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir ||
        snprintf(base, sizeof base, "%s", path) >= (int)sizeof base) {
        say(path, "pumma: %s: path too long; not written\n", path);
        return -1;
    }
    if (snprintf(nf->tmp, sizeof nf->tmp, "%s/.%s.XXXXXX", dirname(dir),
                 basename(base)) >= (int)sizeof nf->tmp) {
        say(path, "pumma: %s: path too long; not written\n", path);
        return -1;
    }
    struct stat st;
    nf->fd = lock_open(path, &st);
    if (nf->fd < 0) return -1;
    if (read_old && read_fd(nf->fd, path, "not written", &nf->old, &nf->len)) {
        close(nf->fd);
        return -1;
    }
    const int t = mkostemp(nf->tmp, O_CLOEXEC);
    if (t < 0) {
        say(path, "pumma: cannot write %s (a temporary beside it: %s); "
            "not written\n", path, strerror(errno));
        free(nf->old);
        close(nf->fd);
        return -1;
    }
    /* the old file's mode (a new one's is 0666 less the umask, as the
     * open that created it gave), not mkstemp's 0600 */
    if (fchmod(t, st.st_mode & 07777) || !(nf->out = fdopen(t, "w"))) {
        say(path, "pumma: cannot write %s (%s); not written\n", path,
            strerror(errno));
        close(t);
        unlink(nf->tmp);
        free(nf->old);
        close(nf->fd);
        return -1;
    }
    return 0;
}

void pumma_file_abort(pumma_file_new_t *nf)
{
    if (nf->out) fclose(nf->out);
    unlink(nf->tmp);
    free(nf->old);
    if (nf->fd >= 0) close(nf->fd);
    nf->out = NULL;
    nf->old = NULL;
    nf->fd = -1;
}

int pumma_file_commit(pumma_file_new_t *nf)
{
    int bad = fflush(nf->out) || ferror(nf->out) || fsync(fileno(nf->out));
    const int err = errno;
    bad |= fclose(nf->out) != 0;
    nf->out = NULL;
    if (bad || rename(nf->tmp, nf->path)) {
        say(nf->path, "pumma: cannot write %s (%s); left as it was\n",
            nf->path, strerror(bad ? err : errno));
        pumma_file_abort(nf);
        return -1;
    }
    /* the rename itself on disk before the lock goes */
    char dir[PUMMA_FILE_PATH];
    snprintf(dir, sizeof dir, "%s", nf->path);
    const int d = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d >= 0) {
        fsync(d);
        close(d);
    }
    free(nf->old);
    nf->old = NULL;
    close(nf->fd);
    nf->fd = -1;
    return 0;
}
