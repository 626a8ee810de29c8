#!/bin/bash
# models-coll.sh -- the coll stage of `make -C TIMING models-smpi`
# (smpi/models.sh; doc/smpi.md, "The models judged"): `make comm` on
# simulated platforms. On each platform of COLL_PLATFORMS, xcommtim
# (TIMING/commtim.c, built by `make smpi`) measures pLogP between rank 0
# and the first rank on another node, fits Hockney, LogP and LogGP, picks
# the poly-model per communicator size, then times every candidate auto
# chooses among -- each broadcast and reduce variant with each of its
# segments (pumma_search_cands) on communicators of up to COLL_SEGMAX
# processes, at its default segment on larger ones; the shifts -- and
# writes per case and model the candidate the model picks, the best one
# simulated and the model's mean error (platform,np,op,bytes,model,pick,
# pick_s,best,best_s,abs_err). smpi/models.py coll joins them into
# out/coll-smpi.csv and judges: out/coll-smpi.txt.
#
# Platforms (smpi/platform.py), communicators of the first p ranks:
#   hpc        fat tree, 4 ranks a node       p = 4, 16, 64; 256 (small)
#   commodity  10 GbE switch, 2 ranks a node  p = 4, 16, 64; 256 (small)
#   hetero     single-core hosts, 10 GbE      p = 8, 64
#   sites      4 sites of 8 hosts, WAN        p = 8, 32
# At 256 ranks only COLL_SIZES_256 (64 and 8192 bytes), at each variant's
# default segment, pLogP and the poly-model's training to 64 KiB: a 256
# KiB broadcast's candidates there took SimGrid's solver more than 20
# minutes of wall time here (its max-min system couples every flow
# through the shared switch links).
# Variables: COLL_PLATFORMS, COLL_SIZES (64,8192,262144,2097152 bytes: one
# size in each of the poly-model's classes and a large one),
# COLL_SIZES_256, COLL_SEGMAX (64), REPS (1: simulated times repeat
# exactly), MODELS_JOBS, SMPI_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
sim=${SMPI_DIR:-$here/../build-smpi}/bin/xcommtim
[ -x "$sim" ] || { echo "models-coll.sh: $sim missing: make smpi SCALAPACK_SRC=... at the top"; exit 1; }
[ -f out/smpi-compute ] || { echo "models-coll.sh: out/smpi-compute missing: make -C TIMING smpi-calibrate first"; exit 1; }
COLL_PLATFORMS=${COLL_PLATFORMS:-hpc commodity hetero sites}
SIZES=${COLL_SIZES:-64,8192,262144,2097152}
SIZES_256=${COLL_SIZES_256:-64,8192}
SEGMAX=${COLL_SEGMAX:-64}
REPS=${REPS:-1}
JOBS=${MODELS_JOBS:-$(nproc 2>/dev/null || echo 1)}
# shellcheck source=smpi/simenv.sh
. smpi/simenv.sh
d=out/coll-smpi
mkdir -p "$d"
rm -f "$d"/*.csv "$d"/*.log

run() {   # platform tag np communicators sizes maxbytes platform.py-args...
    local plat=$1 tag=$2 np=$3 comms=$4 sizes=$5 maxb=$6
    shift 6
    python3 smpi/platform.py "$plat" "$d/$tag" "$@" > /dev/null
    local t0
    t0=$(date +%s)
    smpirun -np "$np" -platform "$d/$tag.xml" -hostfile "$d/$tag.hosts" "${SMPI_CFG[@]}" \
        "$sim" -r "$REPS" -w 0 -G "$SEGMAX" -s "$sizes" -m "$maxb" -p "$comms" -P "$plat" \
        -c "$d/$tag.csv" > "$d/$tag.log" 2>&1 || true
    # smpirun's status says nothing: the summary line does
    grep -q '^poly ' "$d/$tag.log" || { tail -n 20 "$d/$tag.log"; echo "models-coll.sh: $tag failed"; return 1; }
    echo "== coll $tag: $np ranks, $(($(wc -l < "$d/$tag.csv") - 1)) rows ($(( $(date +%s) - t0 )) s)"
}

runs=()
for p in $COLL_PLATFORMS; do
    case $p in
    hpc) runs+=("hpc hpc-256 256 256 $SIZES_256 65536 nodes=64" "hpc hpc 64 4,16,64 $SIZES 4194304 nodes=16") ;;
    commodity) runs+=("commodity commodity-256 256 256 $SIZES_256 65536 nodes=128"
                      "commodity commodity 64 4,16,64 $SIZES 4194304 nodes=32") ;;
    hetero) runs+=("hetero hetero 64 8,64 $SIZES 4194304 nodes=64") ;;
    sites) runs+=("sites sites 32 8,32 $SIZES 4194304 sites=4 nodes=8") ;;
    *) echo "models-coll.sh: unknown platform $p (hpc commodity hetero sites)"; exit 1 ;;
    esac
done
for r in "${runs[@]}"; do
    # shellcheck disable=SC2086
    job run $r
done
jobs_wait || exit 1
csvs=()
for r in "${runs[@]}"; do set -- $r; csvs+=("$d/$2.csv"); done
python3 smpi/models.py coll out/coll-smpi.csv "${csvs[@]}" | tee out/coll-smpi.txt
