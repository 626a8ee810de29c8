/*
 * cosmatim.cpp -- COSMA's multiply (Kwasniewski et al., SC'19; the
 * eth-cscs/COSMA library, built under SMPI by TIMING/smpi/cosma.sh from a
 * source tree you give it: never part of pumma) timed on the scaling
 * runs' cases, beside pumma and ScaLAPACK on the same simulated platforms.
 *
 *   cosmatim -g PxQ -c MxNxK[,MxNxK..] -p PLATFORM -s SERIES -o OUT.csv
 *            [-r REPS]
 *
 * COSMA chooses its own decomposition of the P*Q ranks (its Strategy,
 * with no memory limit) and its own data layout: its matrices are made in
 * that layout, so no redistribution from the caller's block-cyclic one is
 * timed (the best case for COSMA; pumma and ScaLAPACK start from
 * block-cyclic descriptors). Each case: REPS calls (2), each between
 * barriers, timed by MPI_Wtime (simulated time), the best kept; the local
 * multiplies are charged by the compute model as pumma's and ScaLAPACK's
 * are (INSTALL/smpi/pumma_smpi_blas.c's cblas_?gemm). The words a process
 * receives are counted in MPI's profiling layer as for the others
 * (INSTALL/smpi/pumma_smpi_count.c).
 *
 * Rows in scaletim.c's CSV format: impl cosma, trans NN, nb 0, words_bound
 * the memory-independent bound (1D, 2D or 3D: pumma_base.h), plan COSMA's
 * strategy; pred_s and pred_plan empty.
 */
#include <cosma/multiply.hpp>

#include "parse_strategy.hpp"   /* COSMA's utils/ */

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
void pumma_smpi_count(int start);
double pumma_smpi_recv_max(MPI_Comm comm);
}

static int me = 0;

static void stop(const char *what, const char *arg)
{
    if (me == 0) fprintf(stderr, "cosmatim: %s%s\n", what, arg ? arg : "");
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* pumma_words_bound's memory-independent forms (pumma_base.h; this
 * driver links no pumma): 1D, 2D or 3D by the sorted dimensions */
static double bound(double m, double n, double k, double p)
{
    double d[3] = {m, n, k};
    std::sort(d, d + 3);            /* d[2] >= d[1] >= d[0] */
    double b;
    if (p <= d[2] / d[1])
        b = d[1] * d[0] * (1 - 1 / p);
    else if (p <= d[2] * d[1] / (d[0] * d[0]))
        b = 2 * d[0] * std::sqrt(d[2] * d[1] / p) - (d[2] + d[1]) * d[0] / p;
    else
        b = 3 * std::pow(m * n * k / p, 2.0 / 3.0) - (m * n + m * k + n * k) / p;
    return b > 0 ? b : 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *grid = nullptr, *cases = nullptr, *platform = "-", *series = "strong",
               *out = nullptr;
    int reps = 2, opt;
    while ((opt = getopt(argc, argv, "g:c:p:s:o:r:")) != -1) {
        switch (opt) {
        case 'g': grid = optarg; break;
        case 'c': cases = optarg; break;
        case 'p': platform = optarg; break;
        case 's': series = optarg; break;
        case 'o': out = optarg; break;
        case 'r': reps = atoi(optarg); break;
        default: stop("usage: cosmatim -g PxQ -c MxNxK[,..] -p PLATFORM -s SERIES -o OUT [-r REPS]", nullptr);
        }
    }
    int P = 0, Q = 0;
    if (!grid || sscanf(grid, "%dx%d", &P, &Q) != 2 || P * Q != np)
        stop("-g PxQ with P*Q the number of ranks, not ", grid ? grid : "given");
    if (!cases || !out || reps < 1) stop("-c, -o and a positive -r are needed", nullptr);

    FILE *f = nullptr;
    if (me == 0) {
        const bool fresh = access(out, F_OK) != 0;
        if (!(f = fopen(out, "a"))) stop("cannot write ", out);
        if (fresh)
            fprintf(f, "platform,impl,P,Q,M,N,K,trans,nb,sim_s,gflops,wall_s,"
                       "words_recv_max,words_bound,series,routine,info,"
                       "pred_s,plan,pred_plan\n");
    }
    std::string list(cases);
    std::stringstream ss(list);
    std::string c;
    while (std::getline(ss, c, ',')) {
        int m, n, k;
        if (sscanf(c.c_str(), "%dx%dx%d", &m, &n, &k) != 3 || m < 1 || n < 1 || k < 1)
            stop("bad case (MxNxK): ", c.c_str());
        const long long mem = cosma::get_cpu_max_memory<double>();
        cosma::Strategy s = parse_strategy(m, n, k, np, std::vector<std::string>{}, mem,
                                                  cosma::get_overlap_comm_and_comp());
        std::stringstream st;
        st << s;
        std::string plan = st.str();
        for (auto &ch : plan)
            if (ch == '"' || ch == '\n' || ch == ',') ch = ' ';
        double best = INFINITY, best_wall = 0, words = 0;
        cosma::CosmaMatrix<double> A('A', s, me), B('B', s, me), C('C', s, me);
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            pumma_smpi_count(1);
            /* the simulation's own wall time: SMPI leaves steady_clock */
            const auto w0 = std::chrono::steady_clock::now();
            const double t0 = MPI_Wtime();
            cosma::multiply<double>(A, B, C, s, MPI_COMM_WORLD, 1.0, 0.0);
            MPI_Barrier(MPI_COMM_WORLD);
            const double t = MPI_Wtime() - t0;
            const double w =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
            pumma_smpi_count(0);
            const double wd = pumma_smpi_recv_max(MPI_COMM_WORLD) / sizeof(double);
            if (t < best) {
                best = t;
                best_wall = w;
                words = wd;
            }
        }
        if (me == 0) {
            fprintf(f, "%s,cosma,%d,%d,%d,%d,%d,NN,0,%.6g,%.6g,%.3f,%.6g,%.6g,%s,pdgemm,0,,\"%s\",\"\"\n",
                    platform, P, Q, m, n, k, best, 2.0 * m * n * k / best * 1e-9, best_wall, words,
                    bound(m, n, k, np), series, plan.c_str());
            fflush(f);
            printf("%dx%d cosma %dx%dx%d %10.6f s sim %8.1f s wall %12.4g words (%s)\n", P, Q, m, n, k,
                   best, best_wall, words, plan.c_str());
        }
    }
    if (f) fclose(f);
    MPI_Finalize();
    return 0;
}
