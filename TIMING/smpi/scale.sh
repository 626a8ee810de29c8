#!/bin/bash
# scale.sh -- `make -C TIMING smpi-scale` (doc/smpi.md, "Scaling"): PDGEMM,
# pumma against ScaLAPACK, and ScaLAPACK's PDGETRF and PDPOTRF with each
# PDGEMM, simulated by SMPI on the hpc and commodity platforms
# (smpi/platform.py) from 4 to 1,024 ranks, the local multiplies charged
# from this machine's compute model (out/smpi-compute: make smpi-calibrate).
#
# Series, each on every grid of GRIDS:
#   strong  a fixed problem: N = STRONG_N
#   weak    a fixed memory per process: N = WEAK_NLOC * sqrt(P*Q) (rounded
#           to NB), every process holding about WEAK_NLOC^2 of each matrix
# Shapes of each series (N, NB as above; SHAPES for strong, WEAK_SHAPES for
# weak, where square is NN only: at 1,024 ranks each call of ScaLAPACK's
# takes minutes of wall time):
#   square  N x N x N, every TRANSA/TRANSB (square-nn: NN only)
#   rank-k  N x N x NB and N x N x 4NB
#   panels  N x NB x N and 4NB x N x N (C a panel of 1 and of 4 blocks)
#   tall    4N x N/8 x N/8 (tall and skinny: M >> N, K)
# and PDGETRF and PDPOTRF of SOLVER_N on the grids of SOLVER_GRIDS (strong;
# their panels run for real, so their cost grows with the ranks).
# On the grids of CUBE_GRIDS (default 8x8 16x16) the strong series' PDGEMMs
# also run with the cube plans of CUBE (default split; split layers for
# both), asked for per call, beside auto's choice (auto does not price
# them yet: doc/algorithms.md). Their all-to-alls make SMPI slower than
# the 2D plans' broadcasts (minutes a call at 16x16, 20 at a rank-k
# update).
#
# One smpirun per platform, grid and series (its wall time and peak memory
# in out/smpi-scale-PLATFORM.log), the platforms side by side (SCALE_JOBS
# at a time, default the cores: each simulation runs on one); the rows of
# every run in out/smpi-scale.csv (smpi/scaletim.c says the columns), then
# smpi/scale.py's tables (out/smpi-scale.txt) and charts
# (out/smpi-scale-*.png).
#
# Collectives are simulated as MPICH selects them (SMPI's coll-selector
# mpich): Open MPI's selection (ompi) cuts large broadcasts into fine
# segments, every one a simulated message, and a 1,024-rank call then took
# over 18 minutes of wall time.
#
# Variables (environment or make's command line): PLATFORMS, GRIDS, NB,
# STRONG_N, WEAK_NLOC, SOLVER_N, SOLVER_GRIDS, SOLVERS (getrf potrf: which
# factorizations the solver series runs), REPS (pumma's best of, 2: a
# plan's first call also settles pumma's state; ScaLAPACK's calls are
# simulated once, see scaletim.c), SHAPES, WEAK_SHAPES, SOLVER_GRIDS
# (set empty: that series left out), CUBE, CUBE_GRIDS (empty: no cube
# rows), SCALE_JOBS, SMPI_DIR, HPC_NODES (256, of 4
# ranks) and COMMODITY_NODES (512, of 2), SMPIRUN_EXTRA (more smpirun
# options), SCALE_OUT (the outputs' prefix, out/smpi-scale: smpi/l3smpi.sh
# runs the PDPOTRF series into out/l3-smpi-potrf-*), SCALE_TABLES (0: no
# scale.py tables or charts). Run from TIMING/ after `make smpi` at the top.
#
# Beyond 1,024 ranks most of the wall time goes to SMPI's imitation of
# MPICH's node detection: every new communicator runs a ring allgather
# over its processes, P^2 messages (4,096 ranks: hours before the first
# call). The 4,096-rank run of doc/smpi.md gives collectives without it:
#   GRIDS=64x64 PLATFORMS=hpc HPC_NODES=1024 SHAPES=rank-k WEAK_SHAPES=
#   SOLVER_GRIDS= SMPIRUN_EXTRA="--cfg=smpi/bcast:binomial_tree
#   --cfg=smpi/allreduce:rdb --cfg=smpi/barrier:ompi_recursivedoubling"
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
sim=${SMPI_DIR:-$here/../build-smpi}/bin/xscaletim
[ -x "$sim" ] || { echo "scale.sh: $sim missing: make smpi SCALAPACK_SRC=... at the top (SMPI_SCALAPACK=all, the default)"; exit 1; }
[ -f out/smpi-compute ] || { echo "scale.sh: out/smpi-compute missing: make -C TIMING smpi-calibrate first"; exit 1; }
PLATFORMS=${PLATFORMS:-hpc commodity}
GRIDS=${GRIDS:-2x2 4x4 8x8 16x16 32x32}
NB=${NB:-64}
STRONG_N=${STRONG_N:-8192}
WEAK_NLOC=${WEAK_NLOC:-1024}
SOLVER_N=${SOLVER_N:-8192}
SOLVER_GRIDS=${SOLVER_GRIDS-2x2 4x4 8x8}
SOLVERS=${SOLVERS-getrf potrf}
OUT=${SCALE_OUT:-out/smpi-scale}
CUBE=${CUBE-split}
CUBE_GRIDS=${CUBE_GRIDS-8x8 16x16}
REPS=${REPS:-2}
SHAPES=${SHAPES-square rank-k panels tall}
WEAK_SHAPES=${WEAK_SHAPES-square-nn rank-k panels tall}
SCALE_JOBS=${SCALE_JOBS:-$(nproc 2>/dev/null || echo 1)}
PY=${PYTHON:-}
if [ -z "$PY" ]; then for p in python3 /usr/bin/python3; do
    $p -c 'import matplotlib' >/dev/null 2>&1 && { PY=$p; break; }; done; fi
# shellcheck source=smpi/simenv.sh
. smpi/simenv.sh
mkdir -p out
csv=$OUT.csv
rm -f "$csv" "$OUT"-*.csv "$OUT"-*.log

# the cases of shapes $2 for order N $1
cases() {
    local n=$1 nb=$NB out=() s
    for s in $2; do
        case $s in
        square) out+=("${n}x${n}x${n}:NN" "${n}x${n}x${n}:NT" "${n}x${n}x${n}:TN" "${n}x${n}x${n}:TT") ;;
        square-nn) out+=("${n}x${n}x${n}:NN") ;;
        rank-k) out+=("${n}x${n}x${nb}" "${n}x${n}x$((4 * nb))") ;;
        panels) out+=("${n}x${nb}x${n}" "$((4 * nb))x${n}x${n}") ;;
        tall) out+=("$((4 * n))x$((n / 8))x$((n / 8))") ;;
        *) echo "scale.sh: unknown shape $s (square rank-k panels tall)"; exit 1 ;;
        esac
    done
    local IFS=,
    echo "${out[*]}"
}

run() {   # platform grid series cases [implementations]
    local plat=$1 grid=$2 series=$3 list=$4 impls=${5:-pumma,scalapack} np t0 t1
    [ -n "$list" ] || return 0          # (a series without shapes)
    local log=$OUT-$plat.log
    np=$((${grid%x*} * ${grid#*x}))
    echo "== $plat $grid $series ($impls): $list" | tee -a "$log"
    t0=$(date +%s.%N)
    local timer=()
    [ -x /usr/bin/time ] && timer=(/usr/bin/time -f "peak_rss_kb %M" -a -o "$log")
    # shellcheck disable=SC2086  # SMPIRUN_EXTRA: words on purpose
    "${timer[@]}" smpirun -np "$np" -platform "out/scale-$plat.xml" -hostfile "out/scale-$plat.hosts" \
        --cfg=smpi/test:1e-7 --cfg=smpi/host-speed:${ref}f \
        --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 \
        --cfg=smpi/coll-selector:mpich ${SMPIRUN_EXTRA:-} --log=root.thres:warning \
        "$sim" -g "$grid" -c "$list" -b "$NB" -r "$REPS" -p "$plat" -s "$series" -i "$impls" \
        -o "$OUT-$plat.csv" 2>&1 | grep -v '^\[' | tee -a "$log" || true
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "wall_s %.1f\n", b - a }' | tee -a "$log"
}

platform() {
    local plat=$1 grid P Q np n strong weak
    case $plat in
    hpc) python3 smpi/platform.py hpc out/scale-hpc nodes="${HPC_NODES:-256}" ;;   # 4 ranks a node
    commodity) python3 smpi/platform.py commodity out/scale-commodity nodes="${COMMODITY_NODES:-512}" ;;  # 2 a node
    *) python3 smpi/platform.py "$plat" "out/scale-$plat" ;;
    esac
    for grid in $GRIDS; do
        P=${grid%x*} Q=${grid#*x}
        np=$((P * Q))
        strong=$(cases "$STRONG_N" "$SHAPES")
        n=$(python3 -c "import math; print(max($NB, round($WEAK_NLOC * math.sqrt($np) / $NB) * $NB))")
        weak=$(cases "$n" "$WEAK_SHAPES")
        local impls=pumma,scalapack c
        case " $CUBE_GRIDS " in
        *" $grid "*) for c in $CUBE; do impls=$impls,$c; done ;;
        esac
        run "$plat" "$grid" strong "$strong" "$impls"
        run "$plat" "$grid" weak "$weak"
        local solve=() f
        for f in $SOLVERS; do solve+=("$f:$SOLVER_N"); done
        case " $SOLVER_GRIDS " in
        *" $grid "*) run "$plat" "$grid" strong "$(IFS=,; echo "${solve[*]}")" ;;
        esac
    done
}

running=0
for plat in $PLATFORMS; do
    platform "$plat" > /dev/null &
    running=$((running + 1))
    if [ "$running" -ge "$SCALE_JOBS" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
for plat in $PLATFORMS; do
    f=$OUT-$plat.csv
    [ -f "$f" ] || continue
    if [ -f "$csv" ]; then tail -n +2 "$f" >> "$csv"; else cp "$f" "$csv"; fi
    grep -h '^== \|^wall_s\|^peak_rss' "$OUT-$plat.log" | sed "s/^/$plat: /"
done
[ -f "$csv" ] || { echo "scale.sh: no rows (see $OUT-*.log)"; exit 1; }
if [ "${SCALE_TABLES:-1}" = 0 ]; then
    :
elif [ -n "$PY" ]; then
    $PY smpi/scale.py "$csv" "$OUT"
else
    echo "(no python3 with matplotlib: no tables or charts; the CSV is $csv)"
fi
