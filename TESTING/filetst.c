/*
 * filetst.c -- writers of pumma's own files for filetst.sh (internal
 * interface: the tune file's and the decision file's writers, as the
 * library and the tuner call them; no MPI). PUMMA_TUNE_FILE names the
 * tune file, PUMMA_DECISION_FILE the decision file.
 *
 *   xfiletst writers N M   N processes at once, each M updates of the
 *                          tune file, each update a `local` line of a key
 *                          of its own (host=wI-J): N*M lines must remain
 *   xfiletst plant VICTIM  plants symbolic links to VICTIM where a
 *                          writer's temporaries used to be named
 *                          (<tune>.<pid>.tmp, <decision>.tmp: what someone
 *                          sharing the directory can guess), then writes
 *                          one tune line and the decision file
 *
 * Exit status 0 when every write was made, 1 otherwise (the shell script
 * checks the files).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pumma_model.h"

static void put(const char *host)
{
    pumma_tune_keys_t k;
    memset(&k, 0, sizeof k);
    snprintf(k.local, sizeof k.local, "host=%s blas=none", host);
    double v[PUMMA_NVAL];
    for (int i = 0; i < PUMMA_NVAL; i++) v[i] = 1e-9 * (i + 1);
    pumma_tune_write(&k, v, PUMMA_LOCAL_BITS);
}

static int writers(int n, int m)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const pid_t p = fork();
        if (p < 0) return 1;
        if (p == 0) {
            char host[64];
            for (int j = 0; j < m; j++) {
                snprintf(host, sizeof host, "w%d-%d", i, j);
                put(host);
            }
            _exit(0);
        }
    }
    for (int st; wait(&st) > 0;)
        bad |= !WIFEXITED(st) || WEXITSTATUS(st);
    return bad;
}

static int plant(const char *victim)
{
    const char *tune = getenv("PUMMA_TUNE_FILE"),
               *dec = getenv("PUMMA_DECISION_FILE");
    if (!tune || !dec) return 1;
    char link[4200];
    snprintf(link, sizeof link, "%s.%ld.tmp", tune, (long)getpid());
    if (symlink(victim, link)) return 1;
    snprintf(link, sizeof link, "%s.tmp", dec);
    if (symlink(victim, link)) return 1;
    put("planted");
    pumma_decider_t d;
    memset(&d, 0, sizeof d);
    return pumma_decide_write(dec, &d, "written by filetst") != 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "writers"))
        return writers(atoi(argv[2]), atoi(argv[3]));
    if (argc == 3 && !strcmp(argv[1], "plant")) return plant(argv[2]);
    fprintf(stderr, "usage: %s writers N M | plant VICTIM\n", argv[0]);
    return 2;
}
