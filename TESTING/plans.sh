#!/bin/bash
# plans.sh -- the plan of every call of the test and bench inputs, for
# comparing two builds call by call (doc/testing.md, "Plans before and
# after").
#
#   bash plans.sh DIR            run the inputs, one DIR/NAME.txt each
#   bash plans.sh --compare A B  the differences, input by input
#
# Each input runs under PUMMA_STATS=2 (a line per call: its sizes and
# plan) with the machine model fixed by PUMMA_MODEL and no tune or
# decision file, so that a plan depends on the build and the call only.
# The lines of an input are sorted: calls on grids of different first
# processes are said by different processes, in no fixed order.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# The fields both forms of the line have: the choices without their
# sources, the limit's verdict, segment, piece and workspace of
# block-cyclic calls (the plan's text before pumma_plan_format had the
# rest: panel, the limit's bytes, the price, auto's choices). Not
# compared: where a heterogeneous call's sub(C) is computed (layout=),
# chosen from speeds measured at the grid's first such call, which a
# loaded machine changes from run to run.
normalize() {
    sed -E 's/\((default|model|decider|clusters|limit|env|call)\)//g;
            s/ workspace=/ ws=/; s/ panel=[0-9]+//; s/ limit=[0-9][^ ]*//;
            s/ cost=[^ ]+//; s/ (bcast|reduce):[^ ]+=[0-9]+//g;
            /algo=(local|het|het-overlap) /s/ segment=.*//;
            / topo=/s/ layout=[a-z-]+//' "$1" | sort | dedup "$1"
}
# The timing driver repeats a short call until the clock can measure it:
# how many calls a plan gets follows the clock, so for its inputs only
# the set of plans is compared.
dedup() { case $(basename "$1") in tim-*) uniq ;; *) cat ;; esac; }
if [ "${1:-}" = --compare ]; then
    [ $# -eq 3 ] || { echo "usage: plans.sh --compare DIR_A DIR_B" >&2; exit 2; }
    diffs=0
    for f in "$2"/*.txt; do
        n=$(basename "$f")
        if [ ! -f "$3/$n" ]; then echo "$n: only in $2"; diffs=1; continue; fi
        if cmp -s <(normalize "$f") <(normalize "$3/$n"); then
            echo "$n: $(wc -l < "$f") calls, the same plans"
        else
            echo "$n: $(diff <(normalize "$f") <(normalize "$3/$n") | grep -c '^<') lines differ:"
            diff <(normalize "$f") <(normalize "$3/$n") | head -40
            diffs=1
        fi
    done
    exit $diffs
fi
[ $# -eq 1 ] || { echo "usage: plans.sh DIR | --compare DIR_A DIR_B" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$here"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_rmaps_base_oversubscribe=1 OPENBLAS_NUM_THREADS=1 \
    PUMMA_STATS=2 PUMMA_TUNE=off PUMMA_DECISION_FILE=off \
    PUMMA_MODEL=alpha=5.01e-07,beta=3.04e-10,overlap=0,gamma_s=4.17e-11,gamma_d=5.13e-11,gamma_c=1.12e-10,gamma_z=1.94e-10,gamma_k=6.06,gamma_t=1.01,delta=1.76e-10,delta_t=4.38e-10
run() {         # NAME NPROCS [VAR=VALUE ...] PROGRAM ARGS...
    local name=$1 np=$2; shift 2
    local vars=()
    while [ $# -gt 0 ] && [[ $1 == *=* ]]; do vars+=("$1"); shift; done
    env ${vars[@]+"${vars[@]}"} timeout 1800 mpiexec -n "$np" "$@" \
        > "$out/$name.log" 2> "$out/$name.err"
    local rc=$?
    grep -h '^pumma-plan: ' "$out/$name.err" | cut -d' ' -f3- | sort > "$out/$name.txt"
    echo "$name: status $rc, $(wc -l < "$out/$name.txt") calls"
}
run driver 6 ./xpgemmtst PGEMMTST.dat
run driver-ring 6 PUMMA_BCAST=ring-inc PUMMA_PIECE=16384 ./xpgemmtst PGEMMTST.dat
run cmp 6 ./xpgemmcmp 200 1
run stress 6 ./xstresstst 1200 1
run stress-small 6 PUMMA_PIECE=2048 PUMMA_PANEL=8 ./xstresstst 1200 1
run stress-4 4 ./xstresstst 300 7
run plan 1 ./xplantst
run plan-peaks 4 ./xplantst peaks
run plan-limit 4 PUMMA_MAX_WORKSPACE=332K ./xplantst limit
run plan-piece 4 PUMMA_MAX_WORKSPACE=12M ./xplantst limit-piece
run local 2 ./xlocaltst
run het 6 ./xhettst
# The bench's inputs, pumma's row alone, once each.
tim=$here/../TIMING
for dat in PUMMATIM BENCH BENCH-variants; do
    [ -f "$tim/$dat.dat" ] || continue
    awk 'BEGIN { n = 0 } /^[ \t]*(#|$)/ { print; next }
         { n++ }
         n == 1 { $1 = "-" } n == 2 { $1 = "1" }
         { print }' "$tim/$dat.dat" > "$out/$dat.dat"
    (cd "$tim" && run "tim-$dat" 2 ./xpgemmtim -i "$out/$dat.dat" -r 1 -o -)
done
