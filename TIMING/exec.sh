#!/usr/bin/env bash
# exec.sh -- make exec: the runs of the execution-time models of Ichikawa
# and Kawai 2008, on processor kinds emulated by PUMMA_SPEEDS, then the
# models fitted and judged (xexectool). Every configuration of the kinds
# with at most MAXNP processes (xexectool configs) runs xexectim on every
# grid of its processes at the BUILD and EVAL sizes: its ranks at SPEED/M
# each (PUMMA_SPEED_BASE=1: speeds relative to this machine's processor), on
# shared memory or (NET=netns, root) in network namespaces whose links are
# shaped to RATE, the processes of one processor sharing one namespace. NP-T
# models are fitted per kind and processes per processor from the
# homogeneous configurations at the BUILD sizes, N-T per configuration; each
# is judged at the EVAL sizes against the measured optimum.
#
#   exec.sh OUT   (OUT.csv: the runs; OUT.models; OUT.txt: the report)
#
# Environment: KINDS (0.5:2:2,0.25:3:2), MAXNP (8), BUILD
# (400,800,1200,1600), EVAL (500,700,900,1100,1300,1500,1700,1900),
# ALGOS (auto), REPS (3), NET (shm), RATE (1gbit), MPIEXEC (mpiexec).
set -u
out=${1:?exec.sh OUT}
KINDS=${KINDS:-0.5:2:2,0.25:3:2}
MAXNP=${MAXNP:-8}
BUILD=${BUILD:-400,800,1200,1600}
EVAL=${EVAL:-500,700,900,1100,1300,1500,1700,1900}
ALGOS=${ALGOS:-auto}
REPS=${REPS:-3}
NET=${NET:-shm}
RATE=${RATE:-1gbit}
MPIEXEC=${MPIEXEC:-mpiexec}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 PUMMA_SPEED_BASE=1
here=$(cd "$(dirname "$0")" && pwd)

./xexectool configs "$KINDS" "$MAXNP" > "$out.configs" || exit 1
npe=0
IFS=, read -r -a ks <<< "$KINDS"
for k in "${ks[@]}"; do c=${k#*:}; npe=$((npe + ${c%%:*})); done
if [ "$NET" = netns ]; then
  "$here/netns.sh" up "$npe" "$RATE" > /dev/null || exit 1
  trap '"$here/netns.sh" down "$npe"' EXIT
fi
rm -f "$out.csv" "$out.log"
t0=$(date +%s)
n=$(wc -l < "$out.configs") i=0
while read -r label speeds map; do
  i=$((i + 1))
  np=$(($(tr -cd , <<< "$speeds" | wc -c) + 1))
  echo "== [$i/$n] $label: $np ranks, speeds $speeds ($(( $(date +%s) - t0 )) s)"
  args=(./xexectim -l "$label" -n "$BUILD,$EVAL" -a "$ALGOS" -r "$REPS"
        -o "$out.csv")
  if [ "$NET" = netns ]; then
    PUMMA_SPEEDS=$speeds NETNS_OF=$map "$here/netns.sh" run "$npe" "${args[@]}"
  else
    PUMMA_SPEEDS=$speeds $MPIEXEC -n "$np" --oversubscribe --bind-to none \
      -x LD_LIBRARY_PATH -x OPENBLAS_NUM_THREADS -x OMP_NUM_THREADS \
      -x PUMMA_SPEEDS -x PUMMA_SPEED_BASE "${args[@]}"
  fi < /dev/null 2>&1 | tee -a "$out.log" | grep -E 'WRONG|best' | tail -n 1
  [ "${PIPESTATUS[0]}" = 0 ] || { tail -n 20 "$out.log"; echo "exec.sh: $label failed"; exit 1; }
done < "$out.configs"
echo "== runs: $(( $(date +%s) - t0 )) s, $(wc -l < "$out.csv") rows in $out.csv"
{
  echo "Execution-time models (Ichikawa and Kawai 2008): kinds $KINDS (speed:count:maxper),"
  echo "$NET$([ "$NET" = netns ] && echo " links $RATE"), at most $MAXNP processes, algorithms $ALGOS,"
  echo "built from sizes $BUILD, judged at $EVAL; best of $REPS."
  echo
  ./xexectool eval "$KINDS" "$BUILD" "$out.csv"
} | tee "$out.txt"
./xexectool fit "$KINDS" "$BUILD" "$out.csv" "$out.models" > /dev/null
echo "models: $out.models; recommendation: ./xexectool recommend $out.models KINDS -N n"
