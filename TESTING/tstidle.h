/*
 * tstidle.h -- idle_barrier(): a barrier that sleeps while it waits.
 *
 * Testers whose rank 0 runs checks of its own (no MPI) while the others
 * wait would have the others spin in MPI's polling: on a machine with
 * fewer cores than processes (2 cores, 6 ranks) they take most of the
 * processors rank 0 needs (xmodeltst under ASan: 55 s). Here a waiting
 * process tests the barrier every millisecond and sleeps in between.
 * Needs _POSIX_C_SOURCE >= 199309L before the first system header.
 */
#ifndef TSTIDLE_H
#define TSTIDLE_H

#include <mpi.h>
#include <time.h>

static void idle_barrier(MPI_Comm comm)
{
    const struct timespec ms = {0, 1000000};
    MPI_Request req;
    int done = 0;
    MPI_Ibarrier(comm, &req);
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        nanosleep(&ms, NULL);
    }
}

#endif
