#!/bin/bash
# models-plan.sh -- the plan stage of `make -C TIMING models-smpi`
# (smpi/models.sh; doc/smpi.md, "The models judged"): the plan predictor
# judged. On each platform of
# PLATFORMS and grid of its GRIDS_<platform>, pumma's PDGEMM of each case
# of CASES (strong, N = MODELS_N: square NN, rank-NB and rank-4NB updates,
# the panels N x NB x N and 4NB x N x N, tall 4N x N/8 x N/8) runs as its
# planner chooses (smpi/scaletim.c, pumma only, best of REPS), and
# pumma_plan_predict, under the model pumma measured on that platform at
# its first call, says what the chosen plan takes. Rows in
# out/plan-smpi.csv: platform,P,Q,M,N,K,algo,predicted_s,simulated_s
# (smpi/models.py, which also prints how many are within 15% at P*Q >=
# 16, the issue's target: out/plan-smpi.txt).
#
# Platforms (smpi/platform.py; nodes as the grids need):
#   hpc        fat tree, 4 ranks a node             2x2 .. 16x16
#   commodity  10 GbE switch, 2 ranks a node        2x2 .. 16x16
#   hetero     single-core hosts of 50, 50, 25, 10 Gflop/s    2x2 .. 8x8
#   clusters3  clusters of 8, 4 and 4 hosts, slow links between   2x2, 4x4
#   sites      4 sites of 8 hosts, WAN between      2x2 .. 4x8
# On clusters3 and sites pumma measures its clusters (PUMMA_CLUSTERS=
# measure). Pure mode (--cfg=smpi/simulate-computation:no): only modelled work is
# charged, from out/smpi-compute (make smpi-calibrate), so a run gives the
# same times whatever this machine does.
#
# Variables: PLATFORMS, GRIDS_hpc (and _commodity, _hetero, _clusters3,
# _sites), MODELS_N (4096), NB (64), REPS (2), MODELS_JOBS (the cores),
# SMPI_DIR. Run from TIMING/ after `make smpi` at the top.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
sim=${SMPI_DIR:-$here/../build-smpi}/bin/xscaletim
[ -x "$sim" ] || { echo "models-plan.sh: $sim missing: make smpi SCALAPACK_SRC=... at the top"; exit 1; }
[ -f out/smpi-compute ] || { echo "models-plan.sh: out/smpi-compute missing: make -C TIMING smpi-calibrate first"; exit 1; }
PLATFORMS=${PLATFORMS:-hpc commodity hetero clusters3 sites}
GRIDS_hpc=${GRIDS_hpc:-2x2 4x4 8x8 16x16}
GRIDS_commodity=${GRIDS_commodity:-2x2 4x4 8x8 16x16}
GRIDS_hetero=${GRIDS_hetero:-2x2 4x4 8x8}
GRIDS_clusters3=${GRIDS_clusters3:-2x2 4x4}
GRIDS_sites=${GRIDS_sites:-2x2 4x4 4x8}
N=${MODELS_N:-4096}
NB=${NB:-64}
REPS=${REPS:-2}
JOBS=${MODELS_JOBS:-$(nproc 2>/dev/null || echo 1)}
CASES=${CASES:-${N}x${N}x${N},${N}x${N}x${NB},${N}x${N}x$((4 * NB)),${N}x${NB}x${N},$((4 * NB))x${N}x${N},$((4 * N))x$((N / 8))x$((N / 8))}
# shellcheck source=smpi/simenv.sh
. smpi/simenv.sh
mkdir -p out
rm -f out/models-plan-*.csv out/models-plan-*.log

# The platform files, each with as many hosts as its largest grid needs.
platform() {   # kind -> out/models-KIND.xml/.hosts
    local kind=$1 most=0 g np
    local var=GRIDS_$kind
    for g in ${!var}; do np=$((${g%x*} * ${g#*x})); [ $np -gt $most ] && most=$np; done
    case $kind in
    hpc) python3 smpi/platform.py hpc out/models-hpc nodes=$(( (most + 3) / 4 )) ;;
    commodity) python3 smpi/platform.py commodity out/models-commodity nodes=$(( (most + 1) / 2 )) ;;
    hetero) python3 smpi/platform.py hetero out/models-hetero nodes=$most ;;
    clusters3) python3 smpi/platform.py clusters3 out/models-clusters3 ;;
    sites) python3 smpi/platform.py sites out/models-sites ;;
    *) echo "models-plan.sh: unknown platform $kind (hpc commodity hetero clusters3 sites)"; exit 1 ;;
    esac
    local have
    have=$(wc -l < out/models-$kind.hosts)
    [ "$have" -ge "$most" ] || { echo "models-plan.sh: out/models-$kind.hosts has $have slots, $most needed"; exit 1; }
}

run() {   # platform grid
    local plat=$1 grid=$2 np
    np=$((${grid%x*} * ${grid#*x}))
    local log=out/models-plan-$plat-$grid.log
    # on the multi-cluster platforms pumma finds its clusters, as a user
    # there would ask it to (PUMMA_CLUSTERS=measure: every pair's latency)
    local clusters=
    case $plat in clusters3|sites) clusters=PUMMA_CLUSTERS=measure ;; esac
    # shellcheck disable=SC2086
    env $clusters smpirun -np "$np" -platform "out/models-$plat.xml" -hostfile "out/models-$plat.hosts" \
        "${SMPI_CFG[@]}" \
        "$sim" -g "$grid" -c "$CASES" -b "$NB" -r "$REPS" -p "$plat" -s strong -i pumma \
        -o "out/models-plan-$plat-$grid.csv" > "$log" 2>&1 || true
    echo "== $plat $grid: $(grep -c '^[^p]' "out/models-plan-$plat-$grid.csv" 2>/dev/null || echo 0) rows"
}

for p in $PLATFORMS; do platform "$p"; done
for p in $PLATFORMS; do
    var=GRIDS_$p
    for g in ${!var}; do job run "$p" "$g"; done
done
jobs_wait
PY=python3
for p in python3 /usr/bin/python3; do $p -c 'import csv' >/dev/null 2>&1 && { PY=$p; break; }; done
$PY smpi/models.py plan out/plan-smpi.csv out/models-plan-*.csv | tee out/plan-smpi.txt
