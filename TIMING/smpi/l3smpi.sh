#!/bin/bash
# l3smpi.sh -- `make -C TIMING l3-smpi` (doc/smpi.md, "The Level-3 PBLAS at
# scale"): the Level-3 PBLAS other than PDGEMM on the calls ScaLAPACK's
# solvers make (L3SCALE.dat: PDSYRK's rank-NB updates, PDTRSM's panel
# solves and right-hand sides, PDTRMM, PDSYR2K, PDSYMM, PDGEADD, PDTRADD),
# pumma against ScaLAPACK, simulated by SMPI on the hpc and commodity
# platforms (smpi/platform.py), with xl3tim (TIMING/l3tim.c built by `make
# smpi`: build-smpi/bin/xl3tim), the products charged from this machine's
# compute model (out/smpi-compute: make smpi-calibrate); then PDPOTRF end to
# end with either library's Level-3 PBLAS, scale.sh's solver series
# (SOLVERS=potrf, into out/l3-smpi-potrf-*).
#
# Each case is checked: the first call each way runs for real (the BLAS
# computing on real numbers) and the two results must agree as xl3tim's do
# natively (l3tim.c); the calls timed are charged. PDPOTRF's rows are not
# checked (scaletim.c runs it under the model: nothing computed).
#
# Series, each on every grid of GRIDS and block size of NBS:
#   strong  n = STRONG_N (scale.sh's 8192)
#   weak    n = WEAK_NLOC * sqrt(P*Q), rounded to 2*NB (scale.sh's weak
#           series; WEAK_NLOC 1024 there), left out where it equals the
#           strong n
# SERIES (default strong) says which run. One smpirun per platform, grid,
# series and NB, one at a time (a simulation runs on one core); its wall
# time in out/l3-smpi-PLATFORM.log.
#
# Variables (environment or make's command line): PLATFORMS (hpc
# commodity), GRIDS (4x4 8x8 16x16), NBS (64 256), SERIES (strong),
# STRONG_N (8192), WEAK_NLOC (1024), REPS (the timed calls each way, 1:
# charged calls repeat within a fraction of a percent), L3DAT
# (L3SCALE.dat), CASES (xl3tim -c: the cases whose name begins so; empty:
# all), SOLVER_N (STRONG_N), SOLVER_GRIDS (GRIDS; empty: no PDPOTRF),
# SOLVER_NBS (64, scale.sh's NB: PDPOTRF's block sizes),
# HPC_NODES (256, of 4 ranks), COMMODITY_NODES (512, of 2), SIMCOMP (no:
# only the modelled work is charged, as the models' runs do, since this
# machine is shared and a burst timed on it is as slow as the load makes
# it; yes: the host time of the code between MPI calls too, as scale.sh
# does), SMPIRUN_EXTRA (more smpirun options), SMPI_DIR.
# Outputs: out/l3-smpi.csv (a row per platform, grid, NB, series and case)
# and out/l3-smpi.txt (smpi/l3smpi.py).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
sim=${SMPI_DIR:-$here/../build-smpi}/bin/xl3tim
[ -x "$sim" ] || { echo "l3smpi.sh: $sim missing: make smpi SCALAPACK_SRC=... at the top"; exit 1; }
[ -f out/smpi-compute ] || { echo "l3smpi.sh: out/smpi-compute missing: make -C TIMING smpi-calibrate first"; exit 1; }
PLATFORMS=${PLATFORMS:-hpc commodity}
GRIDS=${GRIDS:-4x4 8x8 16x16}
NBS=${NBS:-64 256}
SERIES=${SERIES:-strong}
STRONG_N=${STRONG_N:-8192}
WEAK_NLOC=${WEAK_NLOC:-1024}
REPS=${REPS:-1}
L3DAT=${L3DAT:-L3SCALE.dat}
CASES=${CASES:-}
SOLVER_N=${SOLVER_N:-$STRONG_N}
SOLVER_GRIDS=${SOLVER_GRIDS-$GRIDS}
SOLVER_NBS=${SOLVER_NBS:-64}
SIMCOMP=${SIMCOMP:-no}
# shellcheck source=smpi/simenv.sh
. smpi/simenv.sh
mkdir -p out
rm -f out/l3-smpi.csv out/l3-smpi.txt out/l3-smpi-run-*.csv out/l3-smpi-hpc.log \
    out/l3-smpi-commodity.log out/l3-smpi-runs.csv
extra="--cfg=smpi/simulate-computation:$SIMCOMP ${SMPIRUN_EXTRA:-}"
echo "platform,grid,series,nb,n,wall_s,file" > out/l3-smpi-runs.csv

run() {   # platform grid series nb n
    local plat=$1 grid=$2 series=$3 nb=$4 n=$5 np t0 t1 f
    local log=out/l3-smpi-$plat.log
    f=out/l3-smpi-run-$plat-$grid-$series-$nb.csv
    np=$((${grid%x*} * ${grid#*x}))
    echo "== $plat $grid $series NB $nb n $n" | tee -a "$log"
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086  # extra: words on purpose
    smpirun -np "$np" -platform "out/scale-$plat.xml" -hostfile "out/scale-$plat.hosts" \
        --cfg=smpi/test:1e-7 --cfg=smpi/host-speed:${ref}f \
        --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 \
        --cfg=smpi/coll-selector:mpich $extra --log=root.thres:warning \
        "$sim" -i "$L3DAT" -g "$grid" -b "$nb" -n "$n" -r "$REPS" \
        ${CASES:+-c "$CASES"} -o "$f" 2>&1 | grep -v '^\[' | tee -a "$log" || true
    t1=$(date +%s.%N)
    local w
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    echo "wall_s $w" | tee -a "$log"
    echo "$plat,$grid,$series,$nb,$n,$w,$f" >> out/l3-smpi-runs.csv
}

for plat in $PLATFORMS; do
    case $plat in
    hpc) python3 smpi/platform.py hpc out/scale-hpc nodes="${HPC_NODES:-256}" ;;
    commodity) python3 smpi/platform.py commodity out/scale-commodity nodes="${COMMODITY_NODES:-512}" ;;
    *) python3 smpi/platform.py "$plat" "out/scale-$plat" ;;
    esac
    for grid in $GRIDS; do
        np=$((${grid%x*} * ${grid#*x}))
        for nb in $NBS; do
            for s in $SERIES; do
                case $s in
                strong) n=$STRONG_N ;;
                weak) n=$(python3 -c "import math; print(max(2 * $nb, round($WEAK_NLOC * math.sqrt($np) / (2 * $nb)) * 2 * $nb))")
                      case " $SERIES " in *" strong "*) [ "$n" != "$STRONG_N" ] || continue ;; esac ;;
                *) echo "l3smpi.sh: unknown series $s (strong weak)"; exit 1 ;;
                esac
                run "$plat" "$grid" "$s" "$nb" "$n"
            done
        done
    done
done
# PDPOTRF end to end, each library's Level-3 PBLAS: scale.sh's solver series
if [ -n "$SOLVER_GRIDS" ]; then
    for nb in $SOLVER_NBS; do
        # (scale.sh runs its solver series on the grids of GRIDS that
        # SOLVER_GRIDS names: both these)
        g=$SOLVER_GRIDS
        SCALE_OUT=out/l3-smpi-potrf-$nb SCALE_TABLES=0 SCALE_JOBS=1 NB=$nb \
        GRIDS=$g SOLVER_GRIDS=$g SOLVERS=potrf SOLVER_N=$SOLVER_N \
        SHAPES='' WEAK_SHAPES='' CUBE_GRIDS='' \
        SMPIRUN_EXTRA="$extra" bash smpi/scale.sh
    done
fi
python3 smpi/l3smpi.py out/l3-smpi
