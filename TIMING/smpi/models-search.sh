#!/bin/bash
# models-search.sh -- the search stage of `make -C TIMING models-smpi`
# (smpi/models.sh; doc/smpi.md, "The models judged"): `make search` on
# simulated platforms. pumma-tune -S (SRC/tools/pumma_tune.c, built by
# `make smpi`) measures pLogP and chooses the poly-model, then for
# broadcasts and reduces of 1 KiB, 128 KiB and 1 MiB on the first p
# ranks, p in SEARCH_NPS, times every candidate (variant and segment: the
# exhaustive search) and replays MGD, scanning MGD and the model-guided
# search on those times, each charged the simulated seconds its
# experiments took: Table 2 of Vadhiyar, Fagg and Dongarra 2004 (optimum
# found, experiments, time). Rows in out/search-smpi.csv:
#
#   platform,np,op,bytes,method,seconds,experiments,variant,segment,
#   time_s,vs_exhaustive
#
# and the tables in out/search-smpi.txt. Platforms (smpi/platform.py):
# hpc (4 ranks a node) and commodity (2 a node), 64 ranks each.
# Variables: SEARCH_PLATFORMS (hpc commodity), SEARCH_NPS (8,64),
# SEARCH_MAXB (1048576: the largest message; 4 MiB adds a fourth size),
# REPS (1: simulated times repeat exactly), MODELS_JOBS, SMPI_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
sim=${SMPI_DIR:-$here/../build-smpi}/bin/pumma-tune
[ -x "$sim" ] || { echo "models-search.sh: $sim missing: make smpi SCALAPACK_SRC=... at the top"; exit 1; }
[ -f out/smpi-compute ] || { echo "models-search.sh: out/smpi-compute missing: make -C TIMING smpi-calibrate first"; exit 1; }
SEARCH_PLATFORMS=${SEARCH_PLATFORMS:-hpc commodity}
NPS=${SEARCH_NPS:-8,64}
MAXB=${SEARCH_MAXB:-1048576}
REPS=${REPS:-1}
JOBS=${MODELS_JOBS:-$(nproc 2>/dev/null || echo 1)}
# shellcheck source=smpi/simenv.sh
. smpi/simenv.sh
d=out/search-smpi
mkdir -p "$d"
rm -f "$d"/*.csv "$d"/*.log "$d"/*.txt
most=${NPS##*,}

run() {   # platform platform.py-args...
    local plat=$1 t0
    shift
    python3 smpi/platform.py "$plat" "$d/$plat" "$@" > /dev/null
    t0=$(date +%s)
    # no tune or decision file is read or written (-S writes neither)
    PUMMA_TUNE=off smpirun -np "$most" -platform "$d/$plat.xml" -hostfile "$d/$plat.hosts" \
        "${SMPI_CFG[@]}" "$sim" -r "$REPS" -m "$MAXB" -p "$NPS" -S "$d/$plat.csv" > "$d/$plat.log" 2>&1 || true
    grep -q '^model-guided: within' "$d/$plat.log" || { tail -n 20 "$d/$plat.log"; echo "models-search.sh: $plat failed"; return 1; }
    echo "== search $plat: $most ranks ($(( $(date +%s) - t0 )) s)"
}

for p in $SEARCH_PLATFORMS; do
    case $p in
    hpc) job run hpc nodes=$(( (most + 3) / 4 )) ;;
    commodity) job run commodity nodes=$(( (most + 1) / 2 )) ;;
    *) echo "models-search.sh: unknown platform $p (hpc commodity)"; exit 1 ;;
    esac
done
jobs_wait || exit 1
{
    first=1
    for p in $SEARCH_PLATFORMS; do
        if [ $first = 1 ]; then sed -n '1s/^/platform,/p' "$d/$p.csv"; first=0; fi
        sed -n "2,\$s/^/$p,/p" "$d/$p.csv"
    done
} > out/search-smpi.csv
for p in $SEARCH_PLATFORMS; do
    echo "== $p ($most ranks; the first p of them)"
    sed -n '/^Search for the variant/,$p' "$d/$p.log"
    echo
done | tee out/search-smpi.txt
