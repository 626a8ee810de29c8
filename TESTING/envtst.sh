#!/bin/bash
# envtst.sh -- pumma's environment variables, read strictly.
#
#   bash envtst.sh "mpiexec --oversubscribe"      (from TESTING/, after
#                                                   make xenvtst)
#
# Runs xenvtst (one PDGEMM on 2 ranks, envtst.c) under each value below.
# A bad value must stop the program at once (status not 0, within the
# timeout: no hang, no retry) with pumma's message naming the variable,
# "pumma: VAR=value is not valid; expected ...", said once (not once per
# process); a good one must let it pass (status 0, "envtst: PASSED")
# within the timeout. PUMMA_SPEEDS values more than 1000 times apart must
# run (slowed 1000 times, with pumma's note saying so) and finish in
# seconds, not sleep for ever. Then each variable set on rank 1 only
# (MPMD): a shared one must stop both processes, with one line "pumma: VAR
# differs between processes (rank 0: unset, rank 1: "value")"; a
# per-process one must pass; a bad value on rank 1 only must still be
# said, once.
# Also:
#   - names are taken without regard to case (PUMMA_ALGO=SDB runs sdb);
#   - every PUMMA_* variable the sources read is in pumma_settings.c's
#     table; a name that is not (PUMMA_STAT) is said once, with the
#     closest known name, and the run goes on; the known names and the
#     build tools' (PUMMA_CFLAGS, ...) are not;
#   - a forced choice a call cannot take is noted once in PUMMA_STATS's
#     report ("asked algo=tn, ran mdb2 (NN call)");
#   - a decision file measured on another host (its keys line) is
#     ignored, with a note.
# One PASSED/FAILED line per value; `N passed, N failed` last; status 1
# when any failed. Takes about a minute.

MPIEXEC=${1:-mpiexec --oversubscribe}
NP=2
LIMIT=20                 # seconds; a run that takes longer has hung
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1
# Only the variable under test: none inherited from the caller.
for v in $(env | sed -n 's/^\(PUMMA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

[ -x ./xenvtst ] || { echo "envtst.sh: ./xenvtst is missing (make xenvtst)"; exit 1; }
mkdir -p out
pass=0 fail=0
log=out/envtst.run

# run VAR=value...: status, output in $log, seconds in $secs; CALLS (the
# environment) PDGEMMs, 1 when unset
run() {
    local t0=$(date +%s.%N)
    env "$@" timeout $LIMIT $MPIEXEC -n $NP ./xenvtst ${CALLS:-1} > $log 2>&1
    status=$?
    secs=$(echo "$(date +%s.%N) - $t0" | bc)
}
said() { grep -cF -- "$1" $log; }        # said TEXT: how many lines have it

verdict() {       # verdict ok text
    if [ "$1" = 1 ]; then pass=$((pass + 1)); echo "PASSED $2"
    else fail=$((fail + 1)); echo "FAILED $2"; sed 's/^/    /' $log | head -5; fi
}

bad() {           # bad VAR=value: must stop, quickly, naming VAR
    local var=${1%%=*}
    run "$1"
    local ok=1 why="" n=$(said "pumma: $1 is not valid; expected")
    if [ $status -eq 0 ]; then ok=0; why="ran to the end"
    elif [ $status -eq 124 ]; then ok=0; why="still running after ${LIMIT}s"
    elif [ $n -ne 1 ]; then
        ok=0; why="'pumma: $1 is not valid; expected ...' said $n times, not once"
    fi
    verdict $ok "bad $1 must stop, said once: status $status, ${secs}s $why"
}

good() {          # good VAR=value [note]: must pass; note: pumma's note
    run "$1"
    local ok=1 why=""
    if [ $status -ne 0 ]; then ok=0; why="status $status"
    elif ! grep -q '^envtst: PASSED' $log; then ok=0; why="no PASSED line"
    elif [ -n "$2" ] && ! grep -qF "$2" $log; then ok=0; why="no note '$2'"
    elif [ -z "$2" ] && grep -q '^pumma:' $log; then ok=0; why="pumma printed: $(grep '^pumma:' $log | head -1)"
    fi
    verdict $ok "good $1 must pass: status $status, ${secs}s $why"
}

# par FUNC VALUE...: FUNC VALUE for each value, PAR at a time (each run
# waits mostly on MPI's start; pumma's files are safe for jobs sharing
# them, pumma_file.c), each with a log of its own; the verdicts are said
# in the values' order and counted here
PAR=3
par() {
    local f=$1 i=0 dir=out/envtst-par; shift
    rm -rf $dir; mkdir -p $dir
    for v in "$@"; do
        i=$((i + 1))
        # each job's mpiexec its own session directory: Open MPI removes
        # the shared one (/tmp/ompi.HOST.UID) when its last job ends, and
        # another job creating its own inside it then failed ("A call to
        # mkdir was unable to create the desired directory")
        (log=$dir/$i.log; s=$(mktemp -d "${TMPDIR:-/tmp}/pumma-envtst.XXXXXX")
         export OMPI_MCA_orte_tmpdir_base=$s; $f "$v" > $dir/$i.out; rm -rf "$s") &
        while [ $(jobs -rp | wc -l) -ge $PAR ]; do wait -n; done
    done
    wait
    for j in $(seq 1 $i); do
        cat $dir/$j.out
        pass=$((pass + $(grep -c '^PASSED' $dir/$j.out)))
        fail=$((fail + $(grep -c '^FAILED' $dir/$j.out)))
    done
    rm -rf $dir
}

par bad PUMMA_SEGMENT=abc PUMMA_SEGMENT=-5 PUMMA_SEGMENT=99999999999 \
         PUMMA_SEGMENT=12x "PUMMA_SEGMENT= 5" PUMMA_PANEL=abc PUMMA_PANEL=1.5 \
         PUMMA_PIECE=nan PUMMA_PIECE=inf PUMMA_PIECE=0 PUMMA_SLICE=-1 \
         PUMMA_LATENCY=abc PUMMA_LATENCY=-1 PUMMA_LATENCY=1e9 \
         PUMMA_CACHE=abc PUMMA_CACHE=2 PUMMA_HUGEPAGES=on PUMMA_HUGEPAGES=2 \
         PUMMA_STATS=yes \
         PUMMA_SPEEDS=1,2, PUMMA_SPEEDS=1,,2 PUMMA_SPEEDS=1,abc \
         PUMMA_SPEEDS=0,1 PUMMA_SPEEDS=-1,1 PUMMA_SPEEDS=nan PUMMA_SPEEDS=1 \
         PUMMA_SPEEDS=1,2,3 PUMMA_SPEEDS=1e-400,1 \
         PUMMA_SPEED_BASE=0 PUMMA_SPEED_BASE=-1 PUMMA_SPEED_BASE=abc \
         PUMMA_SPEED_BASE=inf PUMMA_SPEED_BASE=1e-400 \
         PUMMA_MODEL=alpha=abc PUMMA_MODEL=alpha=1, PUMMA_MODEL=alpha=inf \
         PUMMA_MODEL=alpha PUMMA_JITTER=abc PUMMA_JITTER=-1 \
         PUMMA_JITTER=2e6 PUMMA_MAX_WORKSPACE=abc PUMMA_MAX_WORKSPACE=-1 \
         PUMMA_MAX_WORKSPACE=1X PUMMA_MAX_WORKSPACE=nan \
         PUMMA_MAX_WORKSPACE=1e19 PUMMA_HET_LAYOUT=diagonal \
         PUMMA_HET_LAYOUT=column PUMMA_TUNE=sometimes
# a name no table has: its own message, said once
for v in PUMMA_ALGO=mbd2 PUMMA_BCAST=ring PUMMA_SHIFT=odd; do
    run "$v"
    n=$(said "pumma: $v is not known; choose one of:")
    verdict "$([ $status -ne 0 ] && [ $status -ne 124 ] && [ $n = 1 ] && echo 1)" \
        "bad $v must stop, said once: status $status, ${secs}s, said $n times"
done

note="speeds more than 1000 times apart; the slower ranks are slowed 1000 times"
par good PUMMA_SEGMENT=0 PUMMA_SEGMENT=65536 PUMMA_SEGMENT= PUMMA_PANEL=0 \
         PUMMA_PIECE=1 PUMMA_SLICE=0 PUMMA_LATENCY=0.001 PUMMA_CACHE=0 \
         PUMMA_HUGEPAGES=0 \
         PUMMA_STATS=0 PUMMA_MODEL=alpha=2e-5,beta=1e-8,gamma=0 \
         PUMMA_SPEEDS=1e308,1.7e308 PUMMA_SPEEDS=1e-300,1e-300 \
         PUMMA_JITTER=0 PUMMA_JITTER=50 PUMMA_MAX_WORKSPACE=0 \
         PUMMA_MAX_WORKSPACE=512M PUMMA_MAX_WORKSPACE=1g \
         PUMMA_HET_LAYOUT=auto PUMMA_HET_LAYOUT=given \
         PUMMA_HET_LAYOUT=square-corner
good PUMMA_STATS=1 "pumma-stats: PDGEMM calls=1"
good PUMMA_SPEEDS=1e300,1 "$note"
good PUMMA_SPEEDS=1e6,1 "$note"
good PUMMA_SPEEDS=1e-300,1e300 "$note"
good PUMMA_SPEED_BASE=2
good PUMMA_SPEED_BASE=0.5 "ranks faster than the base run unslowed"
good PUMMA_SPEED_BASE=1e300 "$note"

# Names without regard to case: the values above in other cases must run,
# silently, and run what they name
par good PUMMA_ALGO=SDB PUMMA_ALGO=Auto PUMMA_BCAST=Ring-Inc PUMMA_REDUCE=RING \
         PUMMA_SHIFT=OddEven PUMMA_TOPOLOGY=Linear PUMMA_HET_LAYOUT=Columns \
         PUMMA_HET_LAYOUT=Square-Corner PUMMA_HIER_SCHEDULE=ECEF-la \
         PUMMA_CLUSTERS=Measure PUMMA_TUNE=OFF PUMMA_TUNE=Auto \
         PUMMA_MODEL=Alpha=2e-5,GAMMA=1e-11
cased() {         # cased WANT VAR=value...: PUMMA_STATS's plan has WANT
    run PUMMA_STATS=1 "${@:2}"
    local ok=1 why=""
    if [ $status -ne 0 ] || ! grep -q '^envtst: PASSED' $log; then ok=0; why="status $status"
    elif ! grep -q "^pumma-stats: PDGEMM calls=1 .*$1" $log; then ok=0; why="the plan is not $1: $(grep '^pumma-stats: PDGEMM' $log)"
    fi
    verdict $ok "${*:2} runs $1: status $status $why"
}
cased "algo=sdb " PUMMA_ALGO=SDB
cased "algo=sdb-row bcast=binomial " PUMMA_ALGO=Sdb-Row PUMMA_BCAST=BINOMIAL
cased "shift=oddeven " PUMMA_ALGO=mdb2 PUMMA_SHIFT=OddEven
# PUMMA_TUNE=OFF is off: no tune file written
rm -f out/envtst-tuneoff
run PUMMA_TUNE=OFF PUMMA_TUNE_FILE=out/envtst-tuneoff
verdict "$([ $status = 0 ] && [ ! -e out/envtst-tuneoff ] && echo 1)" \
    "PUMMA_TUNE=OFF writes no tune file: status $status"
# PUMMA_DECISION_FILE=Off is off, not a file named so (here one that
# would decide every broadcast)
printf 'bcast 1 0 linear 0\n' > Off
run PUMMA_DECISION_FILE=Off PUMMA_ALGO=sdb-row PUMMA_STATS=1
verdict "$([ $status = 0 ] && ! grep -q 'source=file' $log && echo 1)" \
    "PUMMA_DECISION_FILE=Off reads no file: status $status $(grep '^pumma-stats: decide' $log)"
rm -f Off

# Unknown names: each said once (rank 0, at the first call, whatever the
# calls and processes), with the closest known name when one is close;
# the run goes on
CALLS=3
typo() {          # typo VAR=value SUGGESTION ("": none)
    local var=${1%%=*}
    run "$1"
    local want="pumma: $var is not a pumma variable; did you mean $2?"
    [ -z "$2" ] && want="pumma: $var is not a pumma variable (doc/environment.md)"
    local ok=1 why="" n=$(said "$want") all=$(grep -c '^pumma:' $log)
    if [ $status -ne 0 ] || ! grep -q '^envtst: PASSED' $log; then ok=0; why="status $status"
    elif [ $n -ne 1 ] || [ $all -ne 1 ]; then ok=0; why="'$want' said $n times, pumma: lines $all"
    fi
    verdict $ok "unknown $1 is said once${2:+, suggesting $2}, the run goes on: status $status $why"
}
typo PUMMA_STAT=1 PUMMA_STATS
typo PUMMA_ALGORITHM=mdb2 PUMMA_ALGO
typo PUMMA_BCST=mpi PUMMA_BCAST
typo PUMMA_TUNEFILE=x PUMMA_TUNE_FILE
typo PUMMA_DECISION=off PUMMA_DECISION_FILE
typo pumma_algo=sdb PUMMA_ALGO
typo PUMMA_XYZZY=1 ""
NP=3 typo PUMMA_SEGMENTS=0 PUMMA_SEGMENT
# Every known name (empty: unset) and the names of the build tools that
# are no settings: not a word
known=$(grep -oE '\{"PUMMA_[A-Z0-9_]+", *[01][,}]' ../SRC/base/pumma_settings.c |
        grep -oE 'PUMMA_[A-Z0-9_]+')
args=""
for v in $known; do args="$args $v="; done
run $args PUMMA_CFLAGS=-I/x PUMMA_LIBS=-lpumma PUMMA_LIBDIR=/x PUMMA_ROOT=/x \
    PUMMA_DIR=/x pumma_DIR=/x PUMMA_FAKE_INFO=0 PUMMA_FAKE_PERTURB=
verdict "$([ $status = 0 ] && grep -q '^envtst: PASSED' $log && ! grep -q '^pumma:' $log && echo 1)" \
    "the $(echo $known | wc -w) known names and the build tools' are not reported: status $status $(grep '^pumma:' $log | head -1)"
unset CALLS

# Every PUMMA_ variable the sources read is in pumma_settings.c's table
# (which the check above and the agreement of a grid's processes go by):
# the library reads them through the table (pumma_settings()->x,
# pumma_setting(PUMMA_SET_X)); a literal read (a tool's getenv) must name
# a row too. Names read through a variable are allowed only in the
# readers that take them from the table (pumma_settings.c; pumma-info
# lists the table's).
srcs=$(ls ../SRC/*/*.c)
read_names=$( (cat $srcs | tr '\n' ' ' |
    grep -oE '(getenv|secure_getenv|pumma_env_[a-z]+)\s*\(\s*"PUMMA_[A-Z0-9_]+"' |
    grep -oE 'PUMMA_[A-Z0-9_]+'
    cat $(echo $srcs | tr ' ' '\n' | grep -v pumma_settings.c) |
        grep -oE 'PUMMA_SET_[A-Z0-9_]+' | sed 's/^PUMMA_SET_/PUMMA_/') | sort -u)
missing=$(for v in $read_names; do echo "$known" | grep -qx "$v" || echo $v; done)
indirect=$(grep -nE '(getenv|secure_getenv|pumma_env_(get|int|double|list))\s*\(\s*[a-z_]' $srcs |
    grep -vE '^\.\./SRC/base/(pumma_env|pumma_settings)\.c:|^\.\./SRC/tools/pumma_info\.c:[0-9]+: *const char \*v = pumma_env_get\(name\);')
verdict "$([ -z "$missing" ] && [ -z "$indirect" ] && [ $(echo $read_names | wc -w) -ge 15 ] && echo 1)" \
    "the $(echo $read_names | wc -w) PUMMA_ variables the sources read are in the table${missing:+; not: $missing}${indirect:+; read through a variable: $indirect}"

# Forced choices a call cannot take: noted once (3 calls) in PUMMA_STATS's
# report; one it takes: no note
CALLS=3
noted() {         # noted 'LINE' VAR=value...: the report has LINE, once
    run PUMMA_STATS=1 "${@:2}"
    local ok=1 why="" n=$(grep -cxE "pumma-stats: $1" $log)
    if [ $status -ne 0 ] || ! grep -q '^envtst: PASSED' $log; then ok=0; why="status $status"
    elif [ $n -ne 1 ]; then ok=0; why="said $n times: $(grep 'asked' $log | head -2)"
    fi
    verdict $ok "${*:2}: noted once '$1': status $status $why"
}
noted 'asked algo=tn, ran [a-z0-9-]+ \(NN call\)' PUMMA_ALGO=tn
noted 'asked algo=het, ran [a-z0-9-]+ \(block-cyclic call\)' PUMMA_ALGO=het
noted 'asked bcast=binomial, ran - \(mdb2 on a 1x2 grid\)' PUMMA_ALGO=mdb2 PUMMA_BCAST=binomial
noted 'asked reduce=ring, ran - \(mdb2 on a 1x2 grid\)' PUMMA_ALGO=mdb2 PUMMA_REDUCE=Ring
noted 'asked segment=100, ran - \(bcast=ring-inc sends whole messages\)' PUMMA_ALGO=sdb-row PUMMA_BCAST=ring-inc PUMMA_SEGMENT=100
noted 'asked topo=linear, ran - \(block-cyclic call\)' PUMMA_TOPOLOGY=linear
NP=1 noted 'asked algo=sdb, ran local \(local product\)' PUMMA_ALGO=sdb
run PUMMA_STATS=1 PUMMA_ALGO=mdb2 PUMMA_SHIFT=oddeven
verdict "$([ $status = 0 ] && grep -q '^pumma-stats: PDGEMM' $log && ! grep -q 'asked' $log && echo 1)" \
    "PUMMA_ALGO=mdb2 PUMMA_SHIFT=oddeven (taken): no note: status $status $(grep asked $log | head -1)"
unset CALLS

# The decision file keys where it was measured (the tune file's keys): one
# from another host, MPI and BLAS is ignored, with a note (once, 3 calls);
# one of this machine's is applied; one without keys (by hand, or by
# pumma 0.4.0) is applied with a note. sdb-row on 1x2 broadcasts A.
ddir=out/envtst-dec
rm -rf $ddir; mkdir -p $ddir
dec() { run PUMMA_TUNE_FILE=$ddir/tune PUMMA_DECISION_FILE=$ddir/decision PUMMA_ALGO=sdb-row PUMMA_STATS=1 "$@"; }
CALLS=3 dec
printf 'keys host=elsewhere blas=/opt/other/libblas.so pair=elsewhere,elsewhere mpi=Other_MPI_v9\nbcast 1 0 linear 0\n' > $ddir/decision
CALLS=3 dec
n=$(grep -cE "^pumma-stats: decision file $ddir/decision ignored: measured on host=elsewhere blas=/opt/other/libblas.so pair=elsewhere,elsewhere mpi=Other_MPI_v9, this is host=[^ ]+ blas=[^ ]+ pair=[^ ]+ mpi=[^ ]+\$" $log)
verdict "$([ $status = 0 ] && [ $n = 1 ] && ! grep -q 'source=file' $log && echo 1)" \
    "a decision file of another host, MPI and BLAS: ignored, noted once: status $status, noted $n times $(grep -E 'decision file|source=file' $log | head -2)"
here=$(sed -n 's/^local \(host=[^ ]* blas=[^ ]*\) .*/\1/p' $ddir/tune)
here="$here $(sed -n 's/^net \(pair=[^ ]* mpi=[^ ]*\) .*/\1/p' $ddir/tune)"
printf 'keys %s\nbcast 1 0 linear 0\n' "$here" > $ddir/decision
dec
verdict "$([ $status = 0 ] && grep -q 'variant=linear segment=0 source=file' $log && ! grep -q 'decision file' $log && echo 1)" \
    "a decision file of this machine ($here): applied, no note: status $status $(grep -E 'decision file' $log | head -1)"
printf 'keys %s\nbcast 1 0 linear 0\n' "${here/mpi=/mpi=X}" > $ddir/decision
dec
verdict "$([ $status = 0 ] && grep -qE "decision file .* ignored: measured on mpi=X[^ ]+, this is mpi=[^ ]+\$" $log && ! grep -q 'source=file' $log && echo 1)" \
    "... of another MPI only: ignored, the note names mpi alone: status $status $(grep -E 'decision file' $log | head -1)"
printf 'bcast 1 0 linear 0\n' > $ddir/decision
dec
verdict "$([ $status = 0 ] && grep -q 'variant=linear segment=0 source=file' $log && grep -qx "pumma-stats: decision file $ddir/decision has no keys: applied as written" $log && echo 1)" \
    "a decision file without keys: applied, with a note: status $status"

# Settings on one process only (an MPMD job, a launcher that passes the
# environment to some ranks): a variable the processes must share stops
# every process at the grid's first call, with one line naming it and
# both values (the grid's first process says it: all know the same); a
# per-process one (doc/environment.md, "The processes must agree") lets
# the call pass.
mpmd() {          # mpmd VAR=value [N]: N ranks without it (1), one with it
    local t0=$(date +%s.%N)
    timeout $LIMIT $MPIEXEC -n ${2:-1} ./xenvtst : -n 1 env "$1" ./xenvtst > $log 2>&1
    status=$?
    secs=$(echo "$(date +%s.%N) - $t0" | bc)
}
differ() {        # differ VAR=value [N]: must stop, one line naming VAR
    local var=${1%%=*} val=${1#*=} r=${2:-1}
    mpmd "$1" $r
    local ok=1 why="" want="pumma: $var differs between processes (rank 0: unset, rank $r: \"$val\")"
    local n=$(said "$want")
    if [ $status -eq 0 ]; then ok=0; why="ran to the end"
    elif [ $status -eq 124 ]; then ok=0; why="still running after ${LIMIT}s"
    elif [ "$n" -ne 1 ]; then ok=0; why="'$want' said $n times, not once"
    fi
    verdict $ok "$1 on rank $r only ($((r + 1)) ranks) must stop, said once: status $status, ${secs}s $why"
}
own() {           # own VAR=value: per process, must pass
    mpmd "$1"
    local ok=1 why=""
    if [ $status -ne 0 ]; then ok=0; why="status $status"
    elif ! grep -q '^envtst: PASSED' $log; then ok=0; why="no PASSED line"
    elif grep -q 'differs between processes' $log; then ok=0; why="called a difference"
    fi
    verdict $ok "$1 on rank 1 only must pass: status $status, ${secs}s $why"
}
par differ PUMMA_ALGO=mdb1 PUMMA_BCAST=ring-inc PUMMA_REDUCE=ring \
         PUMMA_SHIFT=oddeven PUMMA_TOPOLOGY=linear PUMMA_SEGMENT=1024 \
         PUMMA_SLICE=16 PUMMA_PIECE=4096 PUMMA_HET_LAYOUT=columns \
         PUMMA_CLUSTERS=0,1 PUMMA_CLUSTERS=measure PUMMA_HIER_SCHEDULE=ecef \
         PUMMA_MODEL=alpha=1e-5 PUMMA_MAX_WORKSPACE=1G PUMMA_STATS=1 \
         PUMMA_TUNE=off PUMMA_TUNE_FILE=out/envtst-tune \
         PUMMA_DECISION_FILE=off
differ PUMMA_SHIFT=oddeven 2
par own PUMMA_PANEL=8 PUMMA_LATENCY=0.0001 PUMMA_SPEEDS=1,2 \
         PUMMA_SPEED_BASE=2 PUMMA_JITTER=50 PUMMA_CACHE=0 PUMMA_HUGEPAGES=0
# A bad value on one process only: only that process meets it, and it must
# still say it (once) and stop every process
for v in PUMMA_PANEL=abc PUMMA_SEGMENT=-1; do
    mpmd "$v"
    n=$(said "pumma: $v is not valid; expected")
    verdict "$([ $status -ne 0 ] && [ $status -ne 124 ] && [ $n = 1 ] && echo 1)" \
        "bad $v on rank 1 only must stop, said once: status $status, ${secs}s, said $n times"
done

rm -f $log
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
