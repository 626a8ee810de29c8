/*
 * pumma_codes.h -- the integer codes of pumma's algorithms and
 * communication variants: the one list behind the C constants
 * (PUMMA_ALGO_MDB2, ...), the names accepted by the environment variables,
 * the codes Fortran callers pass to PUMMA_P?GEMM, and the Fortran
 * PARAMETERs of pumma_codes.fh and of the module `pumma` (generated from
 * this file by bindings/fortran/gencodes.c). A code, once given, keeps its
 * meaning; new variants take new numbers.
 *
 * X(NAME, code, "name")
 */
#ifndef PUMMA_CODES_H
#define PUMMA_CODES_H

/* The algorithms of block-cyclic calls, then the schedules of calls on
 * heterogeneous descriptors (each kind ignores the other's: pumma chooses). */
#define PUMMA_BC_ALGO_LIST(X)                                                \
    X(AUTO, 0, "auto")                                                       \
    X(SDB, 1, "sdb")                                                         \
    X(MDB1, 2, "mdb1")                                                       \
    X(MDB2, 3, "mdb2")                                                       \
    X(SDB_ROW, 4, "sdb-row")                                                 \
    X(MDB1_ROW, 5, "mdb1-row")                                               \
    X(MDB2_ROW, 6, "mdb2-row")                                               \
    X(TN, 7, "tn")                                                           \
    X(NT, 8, "nt")                                                           \
    X(TT, 9, "tt")                                                           \
    X(TT_LOCAL, 10, "tt-local")                                              \
    X(RANKK, 13, "rankk")                                                    \
    X(STAT_A, 14, "stat-a")                                                  \
    X(STAT_B, 15, "stat-b")                                                  \
    X(LAYERS, 16, "layers")                                                  \
    X(SPLIT, 17, "split")
#define PUMMA_HET_ALGO_LIST(X)                                               \
    X(HET, 11, "het")                                                        \
    X(HET_OVERLAP, 12, "het-overlap")
#define PUMMA_ALGO_LIST(X) PUMMA_BC_ALGO_LIST(X) PUMMA_HET_ALGO_LIST(X)

#define PUMMA_BCAST_LIST(X)                                                  \
    X(AUTO, 0, "auto")                                                       \
    X(MPI, 1, "mpi")                                                         \
    X(RING_INC, 2, "ring-inc")                                               \
    X(RING_DEC, 3, "ring-dec")                                               \
    X(RING_SPLIT, 4, "ring-split")                                           \
    X(MST, 5, "mst")                                                         \
    X(BINOMIAL, 6, "binomial")                                               \
    X(BINARY, 7, "binary")                                                   \
    X(PIPELINE, 8, "pipeline")                                               \
    X(LINEAR, 9, "linear")                                                   \
    X(HIER, 10, "hier")

#define PUMMA_REDUCE_LIST(X)                                                 \
    X(AUTO, 0, "auto")                                                       \
    X(MPI, 1, "mpi")                                                         \
    X(RING, 2, "ring")                                                       \
    X(MST, 3, "mst")                                                         \
    X(DIRECT, 4, "direct")                                                   \
    X(HIER, 5, "hier")                                                       \
    X(SCATTER, 6, "scatter")

#define PUMMA_SHIFT_LIST(X)                                                  \
    X(AUTO, 0, "auto")                                                       \
    X(SIMULTANEOUS, 1, "simultaneous")                                       \
    X(ODDEVEN, 2, "oddeven")

/* Network topologies for the heterogeneous schedules: every pair of
 * processes linked, or a linear array with the fastest process in the
 * middle (traffic between others relayed along it). */
#define PUMMA_TOPO_LIST(X)                                                   \
    X(AUTO, 0, "auto")                                                       \
    X(FULL, 1, "full")                                                       \
    X(LINEAR, 2, "linear")

/* Heterogeneous layouts (pumma_layout_new): column-based rectangular
 * (Beaumont et al.), 1D column strips, the 3-process 2D rectangular and
 * the square-corner (2 or 3 processes). */
#define PUMMA_LAYOUT_LIST(X)                                                 \
    X(COLUMNS, 1, "columns")                                                 \
    X(STRIPS, 2, "strips")                                                   \
    X(RECT3, 3, "rect3")                                                     \
    X(SQUARE_CORNER, 4, "square-corner")

/* DTYPE (descriptor entry 1) of a heterogeneous descriptor; ScaLAPACK
 * uses 1, 2, 501, 502 and 601. */
#define PUMMA_DTYPE_LAYOUT 801

/* The per-call options in their order: the fields of pumma_options_t (C)
 * and the entries 1..6 of the INTEGER OPTS(PUMMA_NOPTS) array that
 * Fortran's PUMMA_P?GEMMX takes. */
#define PUMMA_OPT_LIST(X)                                                    \
    X(ALGO, 1, "algo")                                                       \
    X(BCAST, 2, "bcast")                                                     \
    X(REDUCE, 3, "reduce")                                                   \
    X(SHIFT, 4, "shift")                                                     \
    X(SEGMENT, 5, "segment")                                                 \
    X(TOPO, 6, "topo")

#define PUMMA_ENUM_ALGO(N, v, s) PUMMA_ALGO_##N = v,
#define PUMMA_ENUM_BCAST(N, v, s) PUMMA_BCAST_##N = v,
#define PUMMA_ENUM_REDUCE(N, v, s) PUMMA_REDUCE_##N = v,
#define PUMMA_ENUM_SHIFT(N, v, s) PUMMA_SHIFT_##N = v,
enum pumma_algo_code { PUMMA_ALGO_LIST(PUMMA_ENUM_ALGO) };
enum pumma_bcast_code { PUMMA_BCAST_LIST(PUMMA_ENUM_BCAST) };
enum pumma_reduce_code { PUMMA_REDUCE_LIST(PUMMA_ENUM_REDUCE) };
enum pumma_shift_code { PUMMA_SHIFT_LIST(PUMMA_ENUM_SHIFT) };
#define PUMMA_ENUM_OPT(N, v, s) PUMMA_OPT_##N = v,
enum pumma_opt_index { PUMMA_OPT_LIST(PUMMA_ENUM_OPT) PUMMA_NOPTS = 6 };
#define PUMMA_ENUM_TOPO(N, v, s) PUMMA_TOPO_##N = v,
#define PUMMA_ENUM_LAYOUT(N, v, s) PUMMA_LAYOUT_##N = v,
enum pumma_topo_code { PUMMA_TOPO_LIST(PUMMA_ENUM_TOPO) };
enum pumma_layout_kind { PUMMA_LAYOUT_LIST(PUMMA_ENUM_LAYOUT) };

#endif
