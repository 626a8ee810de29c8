/*
 * pumma_error.c -- stopping the program: for a cause every process may
 * meet alike, said once (pumma_stop_all), and for a failure of one call
 * (pumma_fatal).
 */
#define _POSIX_C_SOURCE 200809L    /* nanosleep */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pumma_base.h"

/* Seconds a process other than MPI_COMM_WORLD's rank 0 waits before it
 * says why it stops (pumma_stop_all). Rank 0 meets the same cause within
 * milliseconds when it shares it (the same environment, the same call);
 * its MPI_Abort reaches the others well within this, also on a loaded
 * machine. */
#define STOP_WAIT 5.0

/*
 * pumma_stop_all: stops the program for a cause every process may meet
 * alike -- a bad environment value, a program linked without ScaLAPACK --
 * with the message fmt (local input, printf's format, ending in a
 * newline) said once, not once per process: MPI_COMM_WORLD's rank 0 says
 * it and aborts (MPI_Abort on MPI_COMM_WORLD, code 2) at once; any other
 * process first waits STOP_WAIT seconds, in which rank 0's abort ends it
 * when rank 0 met the cause too. When it did not (its environment lacks
 * the bad value: an MPMD job, a launcher that passes some ranks another
 * environment), the waiting process says it itself and aborts: the cause
 * is always said, by one process when all share it. Without MPI
 * (before MPI_Init or after MPI_Finalize): said, and exit(2).
 */
void pumma_stop_all(const char *fmt, ...)
{
    int up = 0, down = 0, me = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    const int mpi = up && !down;
    if (mpi) MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (mpi && me != 0) {
        struct timespec t = {(time_t)STOP_WAIT, 0}, left;
        while (nanosleep(&t, &left) && errno == EINTR) t = left;
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    if (mpi) MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

void pumma_fatal(MPI_Comm comm, const char *rout, const char *what,
                 int status)
{
    static const char *const why[] = {"ok", "out of memory",
                                      "MPI call failed",
                                      "cannot map the BLACS grid to MPI"};
    fprintf(stderr, "pumma: %s: %s (%s)\n", rout, what,
            status >= 0 && status <= 3 ? why[status] : "internal error");
    MPI_Abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, 1);
}
