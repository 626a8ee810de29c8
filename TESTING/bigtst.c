/*
 * bigtst.c -- one real transfer beyond MPI's int count: 2^31 + 5 floats
 * (8.6 GB) from process 0 to process 1 by pumma's ring-inc broadcast (a
 * point-to-point message of a derived type), its mpi broadcast
 * (MPI_Ibcast of a derived type), and back by the direct reduce (pieces
 * of at most 2^31-1 elements). Not the mpi reduce: Open MPI's MPI_Ireduce
 * holds a temporary of the message's size at the root, 8.6 GB more than
 * this 24 GB machine has beside the two buffers (the pieces it is cut
 * into are xcommtst small's business).
 *
 *   mpiexec -n 2 ./xbigtst        (make -C TESTING run-big; not in make test)
 *
 * Needs 17.2 GB of memory (one 8.6 GB buffer per process) and about a
 * minute. The data is i mod 1021 (exact in single precision), checked
 * element by element. PASSED/FAILED per transfer, `N passed, N failed`.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_driver.h"

static const int64_t COUNT = ((int64_t)1 << 31) + 5;

static float pattern(int64_t i) { return (float)(i % 1021); }

/* Elements of x[0..COUNT) that differ from pattern * scale (at most one
 * reported). */
static int64_t wrong(const float *x, float scale, int me)
{
    int64_t bad = 0;
    for (int64_t i = 0; i < COUNT; i++)
        if (x[i] != pattern(i) * scale && bad++ == 0)
            fprintf(stderr, "rank %d: element %lld is %g, expected %g\n", me,
                    (long long)i, x[i], pattern(i) * scale);
    return bad;
}

static int report(const char *what, int64_t bad, double secs, int me)
{
    int64_t all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s %s: %lld elements (%.1f GB), %.1f s\n",
               all ? "FAILED" : "PASSED", what, (long long)COUNT,
               (double)COUNT * 4 / 1e9, secs);
    return all != 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 2) {
        if (me == 0) fprintf(stderr, "bigtst: run it on 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    float *x = malloc((size_t)COUNT * sizeof(float));
    if (!x) {
        fprintf(stderr, "rank %d: no memory for %.1f GB\n", me,
                (double)COUNT * 4 / 1e9);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int failed = 0, tag = 1;
    const char *bcasts[] = {"ring-inc", "mpi"};
    for (int v = 0; v < 2; v++) {
        for (int64_t i = 0; i < COUNT; i++) x[i] = me == 0 ? pattern(i) : -1;
        pumma_coll_t c;
        memset(&c, 0, sizeof c);
        c.buf = x;
        c.count = COUNT;
        c.dt = MPI_FLOAT;
        c.t = &pumma_type_s;
        c.root = 0;
        c.comm = MPI_COMM_WORLD;
        c.tag = tag++;
        const pumma_coll_ops_t *ops = pumma_comm_find(PUMMA_BCAST_TABLE, bcasts[v]);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int rc = ops->start(&c) || ops->wait(&c);
        double secs = MPI_Wtime() - t0;
        char what[64];
        snprintf(what, sizeof what, "bcast %s", bcasts[v]);
        failed += report(what, rc ? COUNT : wrong(x, 1, me), secs, me);
    }
    const char *reduces[] = {"direct"};
    for (int v = 0; v < 1; v++) {
        /* process 1 contributes its x, the root nothing: its x gets the sum */
        for (int64_t i = 0; i < COUNT; i++) x[i] = me == 1 ? 2 * pattern(i) : -1;
        pumma_coll_t c;
        memset(&c, 0, sizeof c);
        c.buf = me == 0 ? NULL : x;
        c.rbuf = me == 0 ? x : NULL;
        c.count = COUNT;
        c.dt = MPI_FLOAT;
        c.t = &pumma_type_s;
        c.root = 0;
        c.comm = MPI_COMM_WORLD;
        c.tag = tag++;
        const pumma_coll_ops_t *ops = pumma_comm_find(PUMMA_REDUCE_TABLE, reduces[v]);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int rc = ops->start(&c) || ops->wait(&c);
        double secs = MPI_Wtime() - t0;
        char what[64];
        snprintf(what, sizeof what, "reduce %s", reduces[v]);
        failed += report(what, rc ? COUNT : me == 0 ? wrong(x, 2, me) : 0, secs,
                         me);
    }
    if (me == 0) printf("%d passed, %d failed\n", 3 - failed, failed);
    free(x);
    MPI_Finalize();
    return failed != 0;
}
