#!/bin/bash
# limittst.sh -- PDGEMM under memory limits (doc/memory.md, "Memory
# limits").
#
#   bash limittst.sh "mpiexec --oversubscribe"    (from TESTING/, after
#                                                   make xlimittst)
#
# One N = 3000 PDGEMM on 2 ranks (limittst.c) under each rank's limit:
# ulimit -v (RLIMIT_AS) and ulimit -d (RLIMIT_DATA), and a cgroup's
# memory limit where this machine lets root make one. The limits are set
# from what ScaLAPACK's own PDGEMM uses here, measured first, so they mean
# the same on any machine:
#   - where ScaLAPACK fits with 24 MiB to spare (a cgroup's: 48 MiB for
#     the job), pumma must compute the right C (with a plan that fits);
#   - where ScaLAPACK fits with 2 MiB to spare, pumma must compute it or
#     stop with its message naming the limit, said once (every rank
#     knows it; the grid's first says it);
#   - where the BLAS cannot even map its buffer (OpenBLAS retries for ever;
#     so does ScaLAPACK), pumma must stop with its message, said once.
# Never a hang: every run has LIMIT seconds. One PASSED/FAILED line per
# case; `N passed, N failed` last; status 1 when any failed.

MPIEXEC=${1:-mpiexec --oversubscribe}
LIMIT=60
N=3000
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1 PUMMA_DECISION_FILE=off
for v in $(env | sed -n 's/^\(PUMMA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

[ -x ./xlimittst ] || { echo "limittst.sh: ./xlimittst is missing (make xlimittst)"; exit 1; }
mkdir -p out
log=out/limittst.run
pass=0 fail=0

verdict() {       # verdict ok text
    if [ "$1" = 1 ]; then pass=$((pass + 1)); echo "PASSED $2"
    else fail=$((fail + 1)); echo "FAILED $2"; sed 's/^/    /' $log | grep -v '^ *$' | head -8; fi
}

# run IMPL ULIMIT-FLAG KB [TRANSA TRANSB]: the ranks (not the launcher)
# under `ulimit FLAG KB`; status, output in $log
run() {
    local impl=$1 flag=$2 kb=$3
    shift 3
    timeout $LIMIT $MPIEXEC -n 2 sh -c "ulimit $flag $kb && exec ./xlimittst $impl $N $*" > $log 2>&1
    status=$?
}

# field NAME: a number of limittst's "kB before: ...; after: ..." line
field() { sed -n "s/^limittst: kB before: .*$1=\([0-9]*\).*/\1/p" $log | head -1; }

# ScaLAPACK's own use, unlimited
timeout $LIMIT $MPIEXEC -n 2 ./xlimittst scalapack $N > $log 2>&1
grep -q '^limittst: PASSED' $log || { echo "FAILED ScaLAPACK's PDGEMM without a limit"; cat $log; exit 1; }
size0=$(sed -n 's/^limittst: kB before: size=\([0-9]*\).*/\1/p' $log)
data0=$(sed -n 's/^limittst: kB before: size=[0-9]* data=\([0-9]*\).*/\1/p' $log)
peak=$(sed -n 's/.*peak=\([0-9]*\).*/\1/p' $log)
data1=$(sed -n 's/.*after: .* data=\([0-9]*\).*/\1/p' $log)
echo "ScaLAPACK's PDGEMM, N=$N, 2 ranks: virtual ${size0} kB before, peak ${peak} kB; data ${data0} kB before, ${data1} kB after"

# must_pass NAME IMPL FLAG KB [T T]
must_pass() {
    local name=$1
    shift
    run "$@"
    local ok=1 why=""
    if [ $status -eq 124 ]; then ok=0; why="still running after ${LIMIT}s"
    elif [ $status -ne 0 ] || ! grep -q '^limittst: PASSED' $log; then ok=0; why="status $status"
    fi
    verdict $ok "$name: $1 under ulimit $2 $3 must compute C: status $status $why"
}

# must_stop NAME LIMITNAME WHAT FLAG KB: pumma must stop, one line saying
# "pumma: PDGEMM: WHAT...; LIMITNAME..."; or compute C when WHAT is "or-pass"
must_stop() {
    local name=$1 lim=$2 what=$3 flag=$4 kb=$5
    shift 5
    run pumma $flag $kb "$@"
    local ok=1 why="" said
    said=$(grep -c "^pumma: PDGEMM: .*$lim .*leaves .* MiB: raise the limit" $log)
    if [ $status -eq 124 ]; then ok=0; why="still running after ${LIMIT}s"
    elif [ "$what" = or-pass ] && [ $status -eq 0 ] && grep -q '^limittst: PASSED' $log; then why="(computed C)"
    elif [ $status -eq 0 ]; then ok=0; why="ran to the end"
    elif [ "$said" -ne 1 ]; then ok=0; why="the limit's message said $said times, not once"
    elif [ "$what" != or-pass ] && ! grep -q "^pumma: PDGEMM: $what" $log; then ok=0; why="not '$what'"
    else why="(stopped: $(grep -m1 '^pumma: PDGEMM' $log | cut -c1-60)...)"
    fi
    verdict $ok "$name: pumma under ulimit $flag $kb must $([ "$what" = or-pass ] && echo 'compute C or ')stop naming $lim: status $status $why"
}

# RLIMIT_AS
as_room=$((peak + 24 * 1024)) as_tight=$((peak + 2 * 1024)) as_blas=$((size0 + 64 * 1024))
must_pass "RLIMIT_AS, ScaLAPACK's peak + 24 MiB" scalapack -v $as_room
must_pass "RLIMIT_AS, ScaLAPACK's peak + 24 MiB" pumma -v $as_room
# Small calls first, then 200 MiB more of the program's own, then the
# call: the room of the small calls (200 MiB more) must not be reused
must_pass "RLIMIT_AS, ScaLAPACK's peak + 24 MiB after small calls and 200 MiB of the program's" pumma -v $((as_room + 200 * 1024)) N N 200
# TN and NT: pumma's plan of least workspace holds a transposed operand
# whole (40 MiB here), so at 24 MiB to spare it may stop; at 64 it runs
must_stop "RLIMIT_AS, ScaLAPACK's peak + 24 MiB, TN" "RLIMIT_AS" or-pass -v $as_room T N
must_pass "RLIMIT_AS, ScaLAPACK's peak + 64 MiB, TN" pumma -v $((peak + 64 * 1024)) T N
must_pass "RLIMIT_AS, ScaLAPACK's peak + 64 MiB, NT" pumma -v $((peak + 64 * 1024)) N T
must_stop "RLIMIT_AS, ScaLAPACK's peak + 2 MiB" "RLIMIT_AS" or-pass -v $as_tight
must_stop "RLIMIT_AS, no room for the BLAS's buffer" "RLIMIT_AS" "the BLAS's first multiply" -v $as_blas

# The reference BLAS takes no buffer of its own: pumma must not ask room
# for one (N = 1000, that BLAS is slow; ScaLAPACK's peak + 24 MiB, less
# than the 129 MiB OpenBLAS's would need)
refblas=/usr/lib/x86_64-linux-gnu/blas
if [ -e $refblas/libblas.so.3 ]; then
    timeout $LIMIT $MPIEXEC -n 2 -x LD_LIBRARY_PATH=$refblas ./xlimittst scalapack 1000 > $log 2>&1
    rpeak=$(sed -n 's/.*peak=\([0-9]*\).*/\1/p' $log)
    timeout $LIMIT $MPIEXEC -n 2 -x LD_LIBRARY_PATH=$refblas sh -c "ulimit -v $((rpeak + 24 * 1024)) && exec ./xlimittst pumma 1000" > $log 2>&1
    status=$?
    ok=1; why=""
    if [ $status -eq 124 ]; then ok=0; why="still running after ${LIMIT}s"
    elif [ $status -ne 0 ] || ! grep -q '^limittst: PASSED' $log; then ok=0; why="status $status"; fi
    verdict $ok "RLIMIT_AS, the reference BLAS, ScaLAPACK's peak + 24 MiB (N = 1000): pumma must compute C: status $status $why"
else
    echo "SKIPPED the reference BLAS: $refblas/libblas.so.3 is not installed"
fi

# RLIMIT_DATA: ScaLAPACK's data after the call (its buffers freed, the
# BLAS's kept) is its need, give or take its few MiB of temporaries
d_room=$((data1 + 24 * 1024)) d_blas=$((data0 + 64 * 1024))
must_pass "RLIMIT_DATA, ScaLAPACK's + 24 MiB" scalapack -d $d_room
must_pass "RLIMIT_DATA, ScaLAPACK's + 24 MiB" pumma -d $d_room
must_stop "RLIMIT_DATA, no room for the BLAS's buffer" "RLIMIT_DATA" "the BLAS's first multiply" -d $d_blas

# A cgroup's limit (v1 memory controller or v2), where root can make one:
# ScaLAPACK's most use in it plus 24 MiB. Exceeding it kills (no failed
# mapping), so pumma must plan within it.
cg=""
if [ -w /sys/fs/cgroup/memory ] && [ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    cg=/sys/fs/cgroup/memory/pumma-limittst.$$ cgmax=memory.limit_in_bytes cgpeak=memory.max_usage_in_bytes
elif [ -w /sys/fs/cgroup ] && grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    cg=/sys/fs/cgroup/pumma-limittst.$$ cgmax=memory.max cgpeak=memory.peak
fi
if [ -n "$cg" ] && mkdir $cg 2>/dev/null && [ -e $cg/$cgpeak ]; then
    trap 'rmdir $cg 2>/dev/null' EXIT
    # in_cg IMPL: the run inside the cgroup (this subshell moves into it)
    in_cg() { ( echo $BASHPID > $cg/cgroup.procs && timeout $LIMIT $MPIEXEC -n 2 ./xlimittst $1 $N ) > $log 2>&1; status=$?; }
    in_cg scalapack
    used=$(cat $cg/$cgpeak)
    # verdict_cg TEXT [or-pass]: the run must compute C (or-pass: or stop
    # with pumma's message, said once), never be killed
    verdict_cg() {
        local ok=1 why="" said=$(grep -c "^pumma: PDGEMM: .*cgroup's memory limit .*leaves .* MiB: raise the limit" $log)
        if [ $status -eq 124 ]; then ok=0; why="still running after ${LIMIT}s"
        elif [ $status -eq 0 ] && grep -q '^limittst: PASSED' $log; then why="(computed C)"
        elif [ "$2" = or-pass ] && [ "$said" -eq 1 ]; then why="(stopped with the limit's message)"
        else ok=0; why="status $status (137: killed)"; fi
        verdict $ok "$1: status $status $why"
    }
    # the limit is the whole job's (both ranks and the launcher)
    for spare in 48 8; do
        echo $((used + spare * 1048576)) > $cg/$cgmax
        for impl in scalapack pumma; do
            [ $spare = 8 ] && [ $impl = scalapack ] && continue
            in_cg $impl
            verdict_cg "cgroup limit, ScaLAPACK's most use ($((used / 1048576)) MiB) + $spare MiB: $impl must compute C$([ $spare = 8 ] && echo ' or stop naming the limit')" $([ $spare = 8 ] && echo or-pass)
        done
    done
    sleep 1; rmdir $cg 2>/dev/null
else
    echo "SKIPPED cgroup limit: no writable cgroup memory controller here (not root, or none delegated)"
    [ -n "$cg" ] && rmdir $cg 2>/dev/null
fi

rm -f $log
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
