#!/bin/bash
# cosma.sh -- `make -C TIMING smpi-cosma` (doc/smpi.md, "COSMA beside
# pumma"): COSMA's multiply, built under SMPI from source trees you give
# (never part of pumma: fetch them, e.g. github eth-cscs/COSMA v2.8 and the
# eth-cscs/COSTA commit it pins), timed by smpi/cosmatim.cpp on the
# strong series' cases, the platforms and smpirun options of scale.sh.
#
#   COSMA_SRC=dir COSTA_SRC=dir [PLATFORMS="hpc commodity"] [GRIDS="8x8 16x16"]
#   [CASES=MxNxK,..] [REPS=2] [SMPIRUN_EXTRA=...] bash smpi/cosma.sh
#
# Rows (scaletim.c's columns, impl cosma) in out/smpi-cosma.csv, and
# beside pumma's of out/smpi-scale.csv in out/smpi-cosma.txt (smpi/cosma.py:
# COSMA's time over pumma's, words, and how many cases pumma is at least
# as fast on); the build in out/cosma-build (COSMA_BUILD). COSMA is compiled with -fno-gnu-unique:
# its context is a function-local static of a template, which GCC makes a
# GNU-unique symbol, and the loader then gives SMPI's ranks (copies of the
# program in one process) one context between them: a segmentation fault
# in MPI_Allgather from 1024^3 on 4 ranks. COSMA's memory is real: 8192^3
# on 64 ranks peaks at 15.5 GB here, and 256 ranks did not fit in 24. From
# FOLD_FROM ranks (256) allocations of 1 MB and more are folded
# (smpi/auto-shared-malloc-thresh, as scaletim folds its matrices; the data
# is meaningless under the compute model anyway), and then COSMA's process
# may end in a segmentation fault, at exit or within a later case: so one
# smpirun per case, each row written before the next starts.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
: "${COSMA_SRC:?COSMA_SRC: a COSMA 2.8 source tree (github eth-cscs/COSMA; not part of pumma)}"
: "${COSTA_SRC:?COSTA_SRC: the COSTA source tree COSMA pins (github eth-cscs/COSTA)}"
smpi=${SMPI_DIR:-$here/../build-smpi}
for f in "$smpi/compat/pumma_smpi_blas.o" "$smpi/compat/pumma_smpi_count.o" out/smpi-compute; do
    [ -e "$f" ] || { echo "cosma.sh: $f missing: make smpi SCALAPACK_SRC=... at the top, then make -C TIMING smpi-calibrate"; exit 1; }
done
for c in smpicc smpicxx smpirun cmake; do
    command -v $c >/dev/null || { echo "cosma.sh: $c not found (make deps installs SimGrid; apt-get install cmake)"; exit 1; }
done
build=${COSMA_BUILD:-$here/out/cosma-build}
mkdir -p "$build"
if [ ! -f "$build/src/cosma/libcosma.a" ]; then
    echo "cosma.sh: building COSMA ($COSMA_SRC) with SMPI in $build (a few minutes)"
    (cd "$build" && CC=smpicc CXX=smpicxx cmake "$COSMA_SRC" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS=-fno-gnu-unique -DCOSMA_BLAS=OPENBLAS -DCOSMA_SCALAPACK=OFF \
        -DCOSMA_WITH_TESTS=OFF -DCOSMA_WITH_BENCHMARKS=OFF -DCOSMA_WITH_APPS=OFF \
        -DFETCHCONTENT_FULLY_DISCONNECTED=ON -DFETCHCONTENT_SOURCE_DIR_COSTA="$COSTA_SRC" \
        -DMPI_CXX_COMPILER=smpicxx -DMPI_C_COMPILER=smpicc > cmake.log 2>&1 &&
        make -j"$(nproc)" cosma > make.log 2>&1) ||
        { echo "cosma.sh: COSMA did not build; see $build/cmake.log and $build/make.log"; exit 1; }
fi
smpicxx -O2 -std=gnu++17 -fno-gnu-unique -fopenmp -I"$COSMA_SRC/src" -I"$COSMA_SRC/utils" \
    -I"$COSTA_SRC/src" -I"$build/src" -I"$build/_deps/costa-build/src" smpi/cosmatim.cpp \
    "$smpi/compat/pumma_smpi_blas.o" "$smpi/compat/pumma_smpi_count.o" \
    "$build/src/cosma/libcosma.a" "$build/_deps/costa-build/src/costa/libcosta.a" \
    -lopenblas -fopenmp -ldl -o "$build/cosmatim" 2> "$build/cosmatim.log" ||
    { echo "cosma.sh: cosmatim did not build; see $build/cosmatim.log"; exit 1; }

N=${STRONG_N:-8192}; NB=${NB:-64}
CASES=${CASES:-${N}x${N}x${N},${N}x${N}x${NB},${N}x${N}x$((4 * NB)),${N}x${NB}x${N},$((4 * NB))x${N}x${N},$((4 * N))x$((N / 8))x$((N / 8))}
ref=$(sed -n 's/^machine .*ref=\([0-9.e+-]*\).*/\1/p' out/smpi-compute)
export PUMMA_SMPI_COMPUTE=$here/out/smpi-compute OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
for plat in ${PLATFORMS:-hpc commodity}; do
    case $plat in
    hpc) nodes=${HPC_NODES:-256} ;;
    commodity) nodes=${COMMODITY_NODES:-512} ;;
    *) echo "cosma.sh: platform $plat: hpc or commodity"; exit 1 ;;
    esac
    [ -f "out/scale-$plat.xml" ] || python3 smpi/platform.py "$plat" "out/scale-$plat" nodes="$nodes"
    for grid in ${GRIDS:-8x8 16x16}; do
        np=$((${grid%x*} * ${grid#*x}))
        fold=
        [ "$np" -ge "${FOLD_FROM:-256}" ] && fold=--cfg=smpi/auto-shared-malloc-thresh:1048576
        for c in ${CASES//,/ }; do
            echo "cosma.sh: $plat $grid $c"
            /usr/bin/time -f "cosma.sh: $plat $grid $c: peak %M KB, wall %e s" \
            smpirun -np "$np" -platform "out/scale-$plat.xml" -hostfile "out/scale-$plat.hosts" \
                --cfg=smpi/test:1e-7 --cfg=smpi/host-speed:${ref}f \
                --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 \
                --cfg=smpi/coll-selector:mpich $fold ${SMPIRUN_EXTRA:-} --log=root.thres:warning \
                "$build/cosmatim" -g "$grid" -c "$c" -p "$plat" -s strong -r "${REPS:-2}" \
                -o out/smpi-cosma.csv 2>&1 | grep -v '^\[' || true
        done
    done
done
# beside pumma's rows of the same cases, when smpi-scale has run (with the
# same SMPIRUN_EXTRA: the same mode)
if [ -f out/smpi-scale.csv ]; then
    python3 smpi/cosma.py out/smpi-cosma.csv out/smpi-scale.csv | tee out/smpi-cosma.txt || true
fi
