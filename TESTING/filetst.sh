#!/bin/bash
# filetst.sh MPIEXEC -- pumma's own files cannot be turned against the
# user, nor lost (SRC/base/pumma_file.c; doc/choosing.md, "The tune file"
# and "The decision file"):
#   - a FIFO as the tune file or the decision file: refused with a message
#     naming it, the program runs as without the file (no hang); likewise
#     a directory and a device;
#   - symbolic links planted where the writers' temporaries used to be
#     named, and one at the tune file's own path: nothing outside pumma's
#     files is written;
#   - 4 processes updating the tune file at once, 100 lines each: all 400
#     kept; an update keeps the file's mode;
#   - a decision file over 1 MiB is read whole (its last rule not cut in
#     two), one over 64 MiB refused with a message;
#   - a last line without an end of line, in the decision file and in the
#     tune file, is reported with its number and not used.
# Runs xpgemmcmp (20 calls per grid and type) on 2 processes with
# PUMMA_STATS=1, and xfiletst (filetst.c) for the writers; every run
# under a 60 s timeout, so a hang fails its case. Prints PASSED/FAILED
# lines and "N passed, N failed"; status 1 when any failed.
mpiexec=${1:-mpiexec}
LIMIT=60
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1
for v in $(env | sed -n 's/^\(PUMMA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
umask 022
dir=$PWD/out/files
tune=$dir/tune
rm -rf "$dir"; mkdir -p "$dir"
pass=0 fail=0
check() {   # check WHAT 'CONDITION': the condition evaluated here
    if eval "$2"; then echo "PASSED $1"; pass=$((pass + 1));
    else echo "FAILED $1"; fail=$((fail + 1)); fi
}
run() {     # run LOG [VAR=value ...]: xpgemmcmp, status in $status
    log=$1; shift
    env PUMMA_TUNE_FILE=$tune PUMMA_DECISION_FILE=$dir/decision \
        PUMMA_STATS=1 "$@" timeout $LIMIT $mpiexec -n 2 ./xpgemmcmp 20 1 \
        > "$dir/$log.out" 2> "$dir/$log.err"
    status=$?
}
passed() { [ $status = 0 ] && grep -q ' 0 failed' "$dir/$log.out"; }
says() { [ "$(grep -cF -- "$1" "$dir/$log.err")" = 1 ]; }  # said TEXT once
bcasts() { grep '^pumma-stats: decide.* op=bcast' "$dir/$log.out"; }
only() { [ -n "$1" ] && ! echo "$1" | grep -qv "$2"; }   # only LINES PATTERN
writers() { env PUMMA_TUNE_FILE=$1 timeout $LIMIT ./xfiletst writers $2 $3; }

# the tune file of this machine, for the runs below (no measuring there)
run setup
check "setup: a first run writes the tune file (status $status)" \
    'passed && grep -q "^local " $tune'
cp "$tune" "$dir/tune.good"

# FIFOs: opening one for reading waits for a writer
mkfifo "$dir/fifo"
run fifotune PUMMA_TUNE_FILE=$dir/fifo
check "a FIFO as PUMMA_TUNE_FILE: refused with a message naming it, the calls pass (status $status)" \
    'passed && says "pumma: $dir/fifo is not a regular file (a FIFO)"'
run fifodec PUMMA_DECISION_FILE=$dir/fifo
check "a FIFO as PUMMA_DECISION_FILE: refused with a message naming it, the calls pass (status $status)" \
    'passed && says "pumma: $dir/fifo is not a regular file (a FIFO)" && ! grep -q "^pumma-stats: decide" $dir/$log.out'
mkdir "$dir/adir"
run dirtune PUMMA_TUNE_FILE=$dir/adir
check "a directory as PUMMA_TUNE_FILE: refused with a message naming it, the calls pass" \
    'passed && says "pumma: $dir/adir is not a regular file (a directory)"'
run devdec PUMMA_DECISION_FILE=/dev/null
check "a device as PUMMA_DECISION_FILE: refused with a message naming it, the calls pass" \
    'passed && says "pumma: /dev/null is not a regular file (a device)"'

# symbolic links planted by whoever shares the directory
echo "the victim's own text" > "$dir/victim"
cp "$dir/victim" "$dir/victim.orig"
env PUMMA_TUNE_FILE=$tune PUMMA_DECISION_FILE=$dir/decision \
    timeout $LIMIT ./xfiletst plant "$dir/victim" > "$dir/plant.out" 2>&1
st=$?
check "links planted at the temporaries' names: the victim is not written (status $st)" \
    'cmp -s $dir/victim $dir/victim.orig && [ $st = 0 ] && grep -q "^local host=planted " $tune && grep -q "^# written by filetst" $dir/decision'
rm -f "$dir"/*.tmp "$dir/decision"
ln -s "$dir/victim" "$dir/linked"
writers "$dir/linked" 1 1 > "$dir/linked.out" 2>&1
check "a link at the tune file's path: not written through, a message names it" \
    'cmp -s $dir/victim $dir/victim.orig && [ -L $dir/linked ] && grep -qF "pumma: $dir/linked is not a regular file (a symbolic link)" $dir/linked.out'

# concurrent writers: hosts sharing a home, several jobs at once
cp "$dir/tune.good" "$dir/shared"
chmod 640 "$dir/shared"
t0=$(date +%s)
writers "$dir/shared" 4 100 > "$dir/writers.out" 2>&1
st=$?
n=$(grep -c '^local host=w[0-3]-[0-9]* blas=none ' "$dir/shared")
u=$(grep '^local host=w' "$dir/shared" | cut -d' ' -f2 | sort -u | wc -l)
others=$(grep -vc '^local host=w' "$dir/shared")
check "4 writers x 100 updates at once: $n of 400 lines, $u keys, in $(( $(date +%s) - t0 )) s (status $st)" \
    '[ $st = 0 ] && [ $n = 400 ] && [ $u = 400 ] && [ $others = $(wc -l < $dir/tune.good) ]'
check "... and the file's mode is kept: $(stat -c %a "$dir/shared") (was 640)" \
    '[ $(stat -c %a $dir/shared) = 640 ]'
check "... and no temporary is left beside it" \
    '[ -z "$(ls -A $dir | grep -E "^\.|\.tmp$")" ]'

# decision files larger than the old reader's 1 MiB: a rule at the cut
python3 - "$dir/decision" <<'PY'
import sys
rule = "bcast 2 0 pipeline 65536\n"
head = (1 << 20) - len("bcast 2 0 pipeline 6")    # the old reader's cut
line = "# " + "x" * 77 + "\n"
body = line * (head // len(line))
body += "#" * (head - len(body) - 1) + "\n"
assert len(body) == head
open(sys.argv[1], "w").write(body + rule)
PY
run big
check "a decision file of $(stat -c %s "$dir/decision") bytes is read whole: its last rule, segment 65536, decides" \
    'passed && only "$(bcasts)" "variant=pipeline segment=65536 source=file"'
rm -f "$dir/decision"; truncate -s 65M "$dir/decision"
run huge
check "a decision file of 65 MiB: refused with a message naming it, the calls pass" \
    'passed && says "pumma: $dir/decision is larger than 64 MiB" && ! grep -q "^pumma-stats: decide" $dir/$log.out'

# a last line cut short
printf 'bcast 2 0 linear 0\nbcast 2 4096 pipeline 6' > "$dir/decision"
run cutdec
check "a decision file's last line without an end of line: reported with its number, not used" \
    'passed && says "decision:2: cut short" && only "$(bcasts)" "variant=linear segment=0 source=file"'
rm -f "$dir/decision"
{ grep -v '^local ' "$dir/tune.good"
  grep '^local ' "$dir/tune.good" | sed 's/ gamma_d=[^ ]*/ gamma_d=7.5e-09/' | tr -d '\n'; } > "$tune"
lno=$(( $(wc -l < "$tune") + 1 ))
run cuttune
check "a tune file's last line without an end of line: reported (line $lno), measured instead" \
    'passed && says "tune:$lno: cut short" && ! grep -q "^pumma-stats: model .* gamma_d=7.5e-09" $dir/$log.out'
check "... and rewritten: the cut line kept as a comment, a whole line measured" \
    '[ $(grep -c "^local " $tune) = 1 ] && grep -q "^# cut short: local .* gamma_d=7.5e-09" $tune && [ -z "$(tail -c 1 $tune)" ]'

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
