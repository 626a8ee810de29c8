#!/usr/bin/env bash
# hetbench.sh -- section 4 of Becker and Lastovetsky 2007: 3 ranks, one per
# network namespace, links shaped to RATE (netns.sh); for S2 = S3 in RATIOS
# and S1 = 100 - S2 - S3, xhetbench times PDGEMM of N**3 multiply-adds in
# each M:N:K of SHAPES, A, B and C on rectangular or square-corner layouts
# of their shapes (with and without overlap), and from rectangular inputs
# remapped to columns, to square-corner, and as the planner chooses; fully
# connected and linear. hetbench.py turns the lines into out/hetbench.txt
# (with the paper's figures beside ours and the targets), .csv and .png.
#
#   hetbench.sh [N] [RATE] [REPS] [RATIOS] [LATENCY] [SHAPES]
#        (2000 250mbit 3 "5 10 15 20 25" 0 1:1:1,4:1:1,1:1:4)
# LATENCY (seconds) is added to every message by pumma (PUMMA_LATENCY).
#
# Root only (network namespaces). The ranks are slowed to S1:S2:S3 with
# PUMMA_SPEEDS; OpenBLAS, one thread per rank.
set -u
cd "$(dirname "$0")"
N=${1:-2000}; RATE=${2:-250mbit}; REPS=${3:-3}; RATIOS=${4:-5 10 15 20 25}
LAT=${5:-0}; SHAPES=${6:-1:1:1,4:1:1,1:1:4}
BLASDIR=${BLASDIR:-/usr/lib/x86_64-linux-gnu/openblas-pthread}
mkdir -p out
out=out/hetbench.raw
trap './netns.sh down 3 >/dev/null' EXIT
./netns.sh up 3 "$RATE" || exit 1
: > "$out"
echo "# N=$N shapes=$SHAPES rate=$RATE latency=$LAT reps=$REPS $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
status=0
for s in $RATIOS; do
  s1=$((100 - 2 * s))
  echo "hetbench: $s1:$s:$s"
  PUMMA_LATENCY=$LAT PUMMA_SPEEDS=$s1,$s,$s OPENBLAS_NUM_THREADS=1 timeout 1800 ./netns.sh run 3 \
    env LD_LIBRARY_PATH="$BLASDIR" "$PWD/xhetbench" "$N" "$REPS" "$SHAPES" | tee -a "$out"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
py=${PYTHON:-}
if [ -z "$py" ]; then
  for p in python3 /usr/bin/python3; do
    $p -c 'import matplotlib' >/dev/null 2>&1 && { py=$p; break; }
  done
fi
[ -n "$py" ] || py=/usr/bin/python3
"$py" hetbench.py "$out" out/hetbench || status=1
exit $status
