#!/bin/bash
# tunetst.sh MPIEXEC -- the tune file (SRC/model/pumma_tune.c): written at
# a first call that measures, read by the next program, edits honoured, a
# bad line measured again and rewritten, PUMMA_TUNE=off and refresh, a bad
# PUMMA_TUNE refused; the decision file and the tune file's pLogP samples
# deciding auto's broadcasts and reduces (PUMMA_DECISION_FILE). Runs xpgemmcmp (20 calls per grid and type) on 2
# processes with PUMMA_STATS=1, whose last "model" lines say where the
# values came from. Prints PASSED/FAILED lines and "N passed, N failed".
mpiexec=${1:-mpiexec}
unset PUMMA_DECISION_FILE     # the tests below choose theirs
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

# TCP between two processes of one host (Open MPI's btl list without
# shared memory): a network of its own, kept apart, that overlaps
run tcp OMPI_MCA_btl=tcp,self
check "a btl list without shared memory: its own net line, btl=tcp,self, overlap=1" \
    bash -c "grep -qE '^net pair=[^ ]+,[^ ]+ mpi=[^ ]+ btl=tcp,self alpha=[0-9.e+-]+ beta=[0-9.e+-]+ overlap=1$' $file"
check "... beside the shared-memory line, which stays" \
    bash -c "grep -E '^net pair=' $file | grep -v btl= | grep -q 'overlap=0$'"

run second
check "the next program reads it (no measuring)" \
    bash -c "source_of() { grep '^pumma-stats: model source' $dir/second.out | tail -n 1; }; source_of | grep -q 'local=tune-file net=tune-file'"
check "... and takes the TCP line for another configuration's, not a bad one" \
    bash -c "! grep -q 'not a valid line' $dir/second.err"

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

# The decision file and the models (SRC/model/pumma_decide.c): what
# decides auto's broadcasts and reduces, per the "decide" lines.
decide() { grep '^pumma-stats: decide' "$dir/$1.out"; }
ok() { [ $? = 0 ] && grep -q ' 0 failed' "$dir/$1.out"; }
rm -f "$dir/decision"
run nodec
check "no decision file, no samples: the planner chooses per call" \
    bash -c "ok() { grep -q ' 0 failed' $dir/nodec.out; }; ok && ! grep -q '^pumma-stats: decide' $dir/nodec.out && ! grep -q 'bcast=auto' $dir/nodec.out"

cat > "$dir/decision" <<'DEC'
# forced oddities: every message by the file
bcast 2 0 linear 0
bcast 2 4096 pipeline 2048
reduce 2 0 ring 1024
bcast 2 nonsense
DEC
run dec
ok dec; check "a decision file: the calls still give ScaLAPACK's results" test $? = 0
check "... and every auto broadcast and reduce follows it (source=file)" \
    bash -c "d=\$(grep '^pumma-stats: decide' $dir/dec.out); [ -n \"\$d\" ] && ! echo \"\$d\" | grep -qv 'source=file' && ! echo \"\$d\" | grep -E 'op=bcast' | grep -qvE 'variant=(linear segment=0|pipeline segment=2048)' && ! echo \"\$d\" | grep -E 'op=reduce' | grep -qv 'variant=ring segment=1024'"
check "... and its bad line is reported" \
    grep -q "decision:5: not a rule" "$dir/dec.err"

run decoff PUMMA_DECISION_FILE=off
check "PUMMA_DECISION_FILE=off: no decisions but the planner's" \
    bash -c "! grep -q '^pumma-stats: decide' $dir/decoff.out"

printf 'bcast 1 0 binary 0\nreduce 1 0 mst 0\n' > "$dir/other"
run decother PUMMA_DECISION_FILE=$dir/other
check "PUMMA_DECISION_FILE names another file" \
    bash -c "grep '^pumma-stats: decide' $dir/decother.out | grep -q 'variant=binary segment=0 source=file' && ! grep '^pumma-stats: decide' $dir/decother.out | grep -qvE 'variant=(binary|mst) segment=0 source=file'"

# samples of a made-up machine under this pair's key: the models decide
key=$(sed -n 's/^net \(pair=[^ ]* mpi=[^ ]*\) .*/\1/p' "$file" | head -n 1)
echo "plogp $key L=5e-06 add=2e-10 m=0,1024,65536,1048576 os=1e-06,1.5e-06,2e-06,3e-06 or=1e-06,1.5e-06,2e-06,3e-06 g=2e-06,3e-06,5e-05,0.0008 rtt=1.2e-05,1.3e-05,6e-05,0.0008" >> "$file"
rm -f "$dir/decision"
run models
ok models; check "tune-file samples, no decision file: the calls still give ScaLAPACK's results" test $? = 0
check "... and the models decide (source=model model=plogp)" \
    bash -c "d=\$(grep '^pumma-stats: decide' $dir/models.out); [ -n \"\$d\" ] && ! echo \"\$d\" | grep -qv 'source=model model=plogp'"
echo "model 1 hockney" > "$dir/decision"
run hockney
check "a decision file of model lines only: that model decides" \
    bash -c "d=\$(grep '^pumma-stats: decide' $dir/hockney.out); [ -n \"\$d\" ] && ! echo \"\$d\" | grep -qv 'source=model model=hockney'"
sed -i 's/^\(plogp .* add=[^ ]*\)/\1 cores=1 ppn=2 theta=0.5/' "$file"
echo "model 1 plogpc" > "$dir/decision"
run plogpc
ok plogpc; check "a node of one processor for two processes (plogpc): still ScaLAPACK's results" test $? = 0
check "... and plogpc decides (source=model model=plogpc)" \
    bash -c "d=\$(grep '^pumma-stats: decide' $dir/plogpc.out); [ -n \"\$d\" ] && ! echo \"\$d\" | grep -qv 'source=model model=plogpc' && ! grep -q 'not a valid plogp' $dir/plogpc.err"
sed -i 's/^plogp \(.*\) g=[^ ]*/plogp \1 g=1,2/' "$file"
rm -f "$dir/decision"
run badplogp
check "a bad plogp line is reported and not used" \
    bash -c "grep -q 'not a valid plogp line' $dir/badplogp.err && ! grep -q '^pumma-stats: decide' $dir/badplogp.out"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
