/*
 * pumma_tune.h -- the tune file (SRC/model/pumma_tune.c; not installed):
 * the machine model's measured values kept per user and machine.
 */
#ifndef PUMMA_TUNE_H
#define PUMMA_TUNE_H

#include "pumma_internal.h"

const char *pumma_model_name(int i);

/* What a grid's values are kept under: `local` (the host of its process 0
 * and the BLAS library) and, when it has two processes or more, `netkey`
 * (the hosts of its processes 0 and 1 and the MPI library, and Open
 * MPI's btl list when OMPI_MCA_btl restricts it). */
typedef struct pumma_tune_keys {
    char local[4608];
    char netkey[1024];
    int net;
    int same_host;           /* processes 0 and 1 on one host, and the
                                shared-memory transport not excluded */
} pumma_tune_keys_t;

/* Collective over g->all (its processes 0 and 1 talk); the keys are made
 * on process 0 only, which alone reads and writes the file. */
void pumma_tune_keys(const pumma_grid_t *g, pumma_tune_keys_t *k);
/* The keys of a grid whose processes 0 and 1 both run on this process's
 * host (what `make tune` on this host measures), made without a message:
 * for a tool that runs on one process (pumma-info). Needs MPI_Init. */
void pumma_tune_keys_here(pumma_tune_keys_t *k);
/* The keys pumma_tune_keys last made on this process (its grid's process
 * 0), NULL when it made none: what the tuner's decision file is written
 * under (pumma_decide_write). */
const pumma_tune_keys_t *pumma_tune_keys_last(void);
/* The file's values for k into v; bit i set for each value found. */
unsigned pumma_tune_read(const pumma_tune_keys_t *k, double *v);
/* Puts v's values into the file under k: the local ones when every one of
 * them is in `which`, the network's likewise. */
void pumma_tune_write(const pumma_tune_keys_t *k, const double *v,
                      unsigned which);
/* PUMMA_TUNE, read once (a bad value stops the program). */
enum { PUMMA_TUNE_OFF, PUMMA_TUNE_AUTO, PUMMA_TUNE_REFRESH };
int pumma_tune_mode(void);
/* The file's path (PUMMA_TUNE_FILE, else the per-user default) into buf;
 * 0 when there is none (PUMMA_TUNE=off, no HOME). */
int pumma_tune_path(char *buf, size_t len);

#endif
