#!/bin/bash
# tunetst.sh MPIEXEC -- the tune file (SRC/model/pumma_tune.c): written at
# a first call that measures, read by the next program, edits honoured, a
# bad line measured again and rewritten, PUMMA_TUNE=off and refresh, a bad
# PUMMA_TUNE refused. Runs xpgemmcmp (20 calls per grid and type) on 2
# processes with PUMMA_STATS=1, whose last "model" lines say where the
# values came from. Prints PASSED/FAILED lines and "N passed, N failed".
mpiexec=${1:-mpiexec}
dir=out/tune
file=$dir/tune
rm -rf "$dir"; mkdir -p "$dir"
pass=0 fail=0
check() {   # check WHAT CONDITION...
    local what=$1; shift
    if "$@"; then echo "PASSED $what"; pass=$((pass + 1));
    else echo "FAILED $what"; fail=$((fail + 1)); fi
}
run() {     # run LOG [VAR=value ...]: xpgemmcmp with the tune file
    local log=$1; shift
    env PUMMA_TUNE_FILE=$file PUMMA_STATS=1 "$@" $mpiexec -n 2 ./xpgemmcmp 20 1 \
        > "$dir/$log.out" 2> "$dir/$log.err"
}
source_of() { grep '^pumma-stats: model source' "$dir/$1.out" | tail -n 1; }
names="gamma_s gamma_d gamma_c gamma_z gamma_k gamma_t delta delta_t"

run first
check "a first run writes the file: a local line with every value" \
    bash -c "grep -E '^local host=[^ ]+ blas=[^ ]+' $file | grep -q 'delta_t='"
for n in $names; do
    grep -q "^local .* $n=[0-9]" "$file" || { check "local line has $n" false; }
done
check "a first run writes the network line of its process pair" \
    bash -c "grep -qE '^net pair=[^ ]+,[^ ]+ mpi=[^ ]+ alpha=[0-9.e+-]+ beta=[0-9.e+-]+ overlap=[0-9.e+-]+$' $file"
check "two processes of one host: overlap=0 (shared memory copies on their cores)" \
    bash -c "grep -E '^net pair=([^ ,]+),([^ ]+) ' $file | sed -E 's/^net pair=([^ ,]+),([^ ]+) .* overlap=([^ ]+)$/\1 \2 \3/' | awk '{exit !((\$1 == \$2) == (\$3 == 0))}'"

run second
check "the next program reads it (no measuring)" \
    bash -c "source_of() { grep '^pumma-stats: model source' $dir/second.out | tail -n 1; }; source_of | grep -q 'local=tune-file net=tune-file'"

sed -i 's/ gamma_d=[^ ]*/ gamma_d=7.5e-09/' "$file"
run edited
check "an edited value is used" \
    grep -q '^pumma-stats: model .* gamma_d=7.5e-09' "$dir/edited.out"

sed -i 's/ gamma_d=[^ ]*/ gamma_d=abc/' "$file"
run bad
check "a bad line is reported, measured again and rewritten" \
    bash -c "grep -q 'not a valid line' $dir/bad.err && ! grep -q 'gamma_d=abc' $file && grep -qE '^local .* gamma_d=[0-9]' $file && [ \$(grep -c '^local ' $file) = 1 ]"

cp "$file" "$dir/before"
rm -f "$file"
run off PUMMA_TUNE=off
check "PUMMA_TUNE=off: measured, no file written" \
    bash -c "grep -q 'local=measured net=measured' $dir/off.out && [ ! -e $file ]"

cp "$dir/before" "$file"
run refresh PUMMA_TUNE=refresh
check "PUMMA_TUNE=refresh: measured although the file has the values" \
    bash -c "grep '^pumma-stats: model source' $dir/refresh.out | tail -n 1 | grep -q 'local=measured net=measured' && [ \$(grep -c '^local ' $file) = 1 ]"

run model PUMMA_MODEL=gamma_d=3e-11
check "PUMMA_MODEL's values go before the file's" \
    bash -c "grep -q 'local=PUMMA_MODEL' $dir/model.out && grep -q 'gamma_d=3e-11' $dir/model.out"

run wrong PUMMA_TUNE=sometimes
check "PUMMA_TUNE=sometimes stops the program with a message" \
    grep -q 'PUMMA_TUNE=sometimes is not valid' "$dir/wrong.err"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
