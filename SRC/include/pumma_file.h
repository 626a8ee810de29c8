/*
 * pumma_file.h -- pumma's own files read and written safely
 * (SRC/base/pumma_file.c; not installed): the tune file, the decision
 * file, the tuner's reports.
 */
#ifndef PUMMA_FILE_H
#define PUMMA_FILE_H

#include <stddef.h>
#include <stdio.h>

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
