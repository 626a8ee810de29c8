#!/bin/bash
# Run ScaLAPACK's own testers (Debian package scalapack-mpi-test) with a
# P?GEMM replacement preloaded, and decide pass/fail.
#
# usage: run.sh LIBSO|none [REGEX...]
#   LIBSO  shared object to preload into every rank (LD_PRELOAD, absolute path
#          is computed here); "none" runs plain ScaLAPACK (no preload, binding
#          check not enforced).
#   REGEX  optional: only run testers whose "<tester> <dat>" matches one of
#          these extended regexes (e.g. 'pb3tst' or 'xdlu|xzinv' or 'grids').
#
# What runs:
#   1. PBLAS level-3 testers ?pb3tst on the shipped P?BLAS3TST.dat (edited so
#      that only P?GEMM is T) and on our P?BLAS3TST-*.dat next to this script.
#   2. Solver testers x?lu (LU.dat), x?inv (INV.dat), x?ls (LS.dat), which call
#      P?GEMM inside ScaLAPACK, on the shipped .dat and on our LU-*.dat,
#      INV-*.dat, LS-*.dat next to this script (larger problems).
# Our .dat files (same layout as the shipped ones; at most 20 tests/20 grids,
# sized for the testers' 2 MB work memory; all pass with plain ScaLAPACK):
#   P?BLAS3TST-grids.dat   grids 1x1 1x3 3x1 2x3 3x2 1x6 6x1 (6 ranks), 20 tests:
#                          all TRANSA/TRANSB (N,T,C), odd sizes, M/N/K = 0, IA/JA
#                          off block boundaries, IMB!=MB, INB!=NB, different
#                          blocks for A/B/C, blocks larger than the matrix,
#                          RSRC/CSRC = -1 (replicated); complex ALPHA/BETA for C/Z
#   P?BLAS3TST-rsrc.dat    grids 2x2 2x3 3x2 (6 ranks), RSRC/CSRC in {-1,0,1}
#   P?BLAS3TST-alpha0.dat, -beta0, -beta1, -alpha0beta1: ALPHA/BETA special
#                          values, grids 1x1 2x2 1x3 3x1 (4 ranks)
#   P?BLAS3TST-large.dat   M,N,K up to 160, grids 2x2 1x3 3x1 (4 ranks)
#   INV-large.dat          N = 101, 200, NB = 7, 24, grids 2x2 1x3 3x1
# Each tester runs in its own scratch directory $OUT/<tester>-<dat>/ (the .dat
# is copied there under the name the tester opens), with stdout.log,
# stderr.log, output.log (stdout + the summary file, if the .dat names one and
# the tester wrote it), cmd, rc and bindings.log (LD_DEBUG=bindings lines for
# *gemm_; the raw per-process LD_DEBUG files are deleted after the check).
#
# Pass criteria for one tester:
#   - exit status 0 and no timeout (TIMEOUT seconds, default 300);
#   - PBLAS: the summary row "|  P?GEMM  total passed failed skipped" exists,
#     failed = skipped = 0, passed = total = NTESTS x NGRIDS of the .dat;
#     "End of Tests." printed;
#   - solvers: "Finished N tests", "N tests completed and passed residual
#     checks", 0 failed, 0 skipped, 0 "without checking", "END OF TESTS.";
#   - no line reporting a problem in stdout (FAILED, ERROR, ILLEGAL, illegal
#     value, Bad ... parameters, Not enough memory, memory overwrite, Invalid
#     matrix, ...) or stderr (ERROR, illegal, signals, aborts);
#   - unless LIBSO is "none": in the ld.so bindings log, every binding of the
#     precision's p?gemm_ symbol made by another object (the tester, libscalapack)
#     goes to LIBSO, and there is at least one.
#
# Environment: TIMEOUT (s, default 300), OUT (log dir, default
# TESTING/out/scalapack), SCALAPACK_TESTS (tester dir), MPIEXEC (default mpiexec),
# MPIEXEC_FLAGS (extra flags, default "--oversubscribe --bind-to none"),
# PRELOAD_FIRST (objects preloaded before LIBSO, ':'-separated: run-asan gives
# libasan, which must come before an ASan-built LIBSO).
# Exit status: 0 all passed, 1 something failed, 2 usage/setup error.

set -u

usage() { echo "usage: $0 LIBSO|none [REGEX...]" >&2; exit 2; }
[ $# -ge 1 ] || usage

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TESTS=${SCALAPACK_TESTS:-/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests}
OUT=${OUT:-$TOP/TESTING/out/scalapack}
TIMEOUT=${TIMEOUT:-300}
MPIEXEC=${MPIEXEC:-mpiexec}
MPIEXEC_FLAGS=${MPIEXEC_FLAGS:---oversubscribe --bind-to none}

LIBARG=$1; shift
FILTERS=("$@")

if [ "$LIBARG" = none ]; then
    PRELOAD=
    LIBREAL=
else
    [ -f "$LIBARG" ] || { echo "run.sh: $LIBARG: no such file" >&2; exit 2; }
    # ld.so reports a preloaded object under the name given in LD_PRELOAD, so
    # keep the absolute name as is (no symlink resolution) and also accept
    # the fully resolved name.
    PRELOAD=$(realpath -s "$LIBARG")
    LIBREAL=$(realpath "$LIBARG")
fi

[ -d "$TESTS" ] || { echo "run.sh: $TESTS missing (install scalapack-mpi-test)" >&2; exit 2; }
command -v "$MPIEXEC" >/dev/null || { echo "run.sh: $MPIEXEC not found" >&2; exit 2; }
command -v timeout >/dev/null || { echo "run.sh: timeout not found" >&2; exit 2; }

if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Must not leak into mpiexec itself; the ranks get them through -x only.
unset LD_DEBUG LD_DEBUG_OUTPUT

case "$OUT" in
    */scalapack) rm -rf "$OUT" ;;
esac
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd -P)
SUMMARY=$OUT/summary.txt
: > "$SUMMARY"

say() { echo "$*"; echo "$*" >> "$SUMMARY"; }

if [ -n "$PRELOAD" ]; then
    say "run.sh: preloading $PRELOAD${LIBREAL:+ (resolves to $LIBREAL)}"
    if command -v nm >/dev/null; then
        exported=$(nm -D --defined-only "$PRELOAD" 2>/dev/null | awk '{print $NF}' |
                   grep -E '^p[sdcz]gemm_$' | tr '\n' ' ')
        say "run.sh: $PRELOAD defines: ${exported:-(none of psgemm_ pdgemm_ pcgemm_ pzgemm_)}"
    fi
else
    say "run.sh: no preload (plain ScaLAPACK); binding check not enforced"
fi
say "run.sh: testers from $TESTS, logs in $OUT, timeout ${TIMEOUT}s"

# ---------------------------------------------------------------------------
# .dat helpers

# grids_of DAT -> prints "P Q" per grid (the NGRIDS first values of the two
# lines after the "number of process grids" line).
grids_of() {
    awk '
        want == 0 && /number of process grids/ { n = $1; want = 1; next }
        want == 1 { for (i = 1; i <= n; i++) p[i] = $i; want = 2; next }
        want == 2 { for (i = 1; i <= n; i++) print p[i], $i; exit }
    ' "$1"
}

# nprocs_of DAT -> max P*Q over its grids
nprocs_of() {
    grids_of "$1" | awk 'BEGIN { m = 0 } { if ($1 * $2 > m) m = $1 * $2 } END { print m }'
}

# pblas_expected DAT NP -> NTESTS * (number of grids with P*Q <= NP)
pblas_expected() {
    local ntests ng
    ntests=$(awk '/number of tests problems/ { print $1; exit }' "$1")
    ng=$(grids_of "$1" | awk -v np="$2" '$1 >= 1 && $2 >= 1 && $1 * $2 <= np { c++ } END { print c + 0 }')
    echo $(( ntests * ng ))
}

# gemm_only SRC DST: routine lines -> F, except P?GEMM -> T
gemm_only() {
    sed -E -e 's/^(P[SDCZ][A-Z0-9]+[[:space:]]+)[TF]([[:space:]]|$)/\1F\2/' \
           -e 's/^(P[SDCZ]GEMM[[:space:]]+)F([[:space:]]|$)/\1T\2/' "$1" > "$2"
}

# ---------------------------------------------------------------------------
# checks; each appends reasons to the array REASONS

# Lines in stdout that report a problem. Known good lines containing such
# words (table header, solver summary lines) are removed first.
BAD_STDOUT='FAILED|ERROR|ILLEGAL|[Ii]llegal (input|value)|had an illegal|Bad .* parameters|[Nn]ot enough memory|[Mm]emory overwrite|Invalid matrix|not recognized|Unable to perform|incorrect value|not supported|BYPASS|[Aa]bort'
GOOD_STDOUT='SUBROUTINE +TOTAL TESTS +PASSED +FAILED +SKIPPED|tests completed and failed residual checks\.|tests skipped because of illegal input values\.|^pumma-stats:'
BAD_STDERR='ERROR|[Ii]llegal|Segmentation|Signal:|signal [0-9]|SIG(SEGV|BUS|ABRT|FPE|ILL|KILL|TERM)|MPI_ABORT|[Aa]bort(ed|ing)|core dumped|Killed|Bus error|not enough slots'

check_text() { # DIR
    local d=$1 n
    n=$(grep -vE "$GOOD_STDOUT" "$d/output.log" | grep -cE "$BAD_STDOUT")
    if [ "$n" -gt 0 ]; then
        REASONS+=("$n problem line(s) in output, first: '$(grep -vE "$GOOD_STDOUT" "$d/output.log" | grep -m1 -E "$BAD_STDOUT" | sed -E 's/^ +//')'")
    fi
    n=$(grep -v '^pumma-stats:' "$d/stderr.log" | grep -cE "$BAD_STDERR")
    if [ "$n" -gt 0 ]; then
        REASONS+=("$n problem line(s) in stderr, first: '$(grep -v '^pumma-stats:' "$d/stderr.log" | grep -m1 -E "$BAD_STDERR" | sed -E 's/^ +//')'")
    fi
}

check_pblas() { # DIR ROUTINE EXPECTED
    local d=$1 r=$2 exp=$3 row tot pas fai ski
    row=$(grep -E "^ *\| +$r +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ *$" "$d/output.log" | tail -1)
    if [ -z "$row" ]; then
        REASONS+=("no '|  $r ...' row in the summary table")
        NTEST=0
    else
        read -r tot pas fai ski <<< "$(echo "$row" | awk '{ print $3, $4, $5, $6 }')"
        NTEST=$tot
        [ "$fai" -eq 0 ] || REASONS+=("$fai of $tot $r tests failed")
        [ "$ski" -eq 0 ] || REASONS+=("$ski $r tests skipped")
        [ "$pas" -eq "$exp" ] && [ "$tot" -eq "$exp" ] ||
            REASONS+=("$r: $pas passed of $tot, expected $exp")
    fi
    # no other routine may have been tested
    local other
    other=$(grep -E '^ *\| +P[SDCZ][A-Z0-9]+ +[0-9]+ ' "$d/output.log" |
            awk -v r="$r" '$2 != r && $3 != 0 { print $2 }' | tr '\n' ' ')
    [ -z "$other" ] || REASONS+=("other routines tested: $other")
    grep -q 'End of Tests\.' "$d/output.log" || REASONS+=("no 'End of Tests.' line")
    grep -q 'Error-exit tests completed\.' "$d/output.log" ||
        ! grep -qE 'Test for error exits flag : +T' "$d/output.log" ||
        REASONS+=("error-exit tests did not complete")
}

check_solver() { # DIR
    local d=$1 fin pas fai ski woc
    fin=$(sed -nE 's/^ *Finished +([0-9]+) tests, with the following results:.*/\1/p' "$d/output.log" | tail -1)
    pas=$(sed -nE 's/^ *([0-9]+) tests completed and passed residual checks\..*/\1/p' "$d/output.log" | tail -1)
    fai=$(sed -nE 's/^ *([0-9]+) tests completed and failed residual checks\..*/\1/p' "$d/output.log" | tail -1)
    ski=$(sed -nE 's/^ *([0-9]+) tests skipped because of illegal input values\..*/\1/p' "$d/output.log" | tail -1)
    woc=$(sed -nE 's/^ *([0-9]+) tests completed without checking\..*/\1/p' "$d/output.log" | tail -1)
    NTEST=${fin:-0}
    if [ -z "$fin" ] || [ -z "$pas" ] || [ -z "$fai" ] || [ -z "$ski" ]; then
        REASONS+=("summary ('Finished N tests' / passed / failed / skipped lines) missing")
        return
    fi
    [ "$fai" -eq 0 ] || REASONS+=("$fai of $fin tests failed the residual check")
    [ "$ski" -eq 0 ] || REASONS+=("$ski tests skipped because of illegal input values")
    [ -z "$woc" ] || [ "$woc" -eq 0 ] || REASONS+=("$woc tests completed without checking")
    [ "$fin" -gt 0 ] || REASONS+=("no tests run")
    [ "$pas" -eq "$fin" ] || REASONS+=("only $pas of $fin tests passed")
    grep -q 'END OF TESTS\.' "$d/output.log" || REASONS+=("no 'END OF TESTS.' line")
}

# check_bindings DIR SYMBOL: reads LD_DEBUG=bindings output of every process
# (ld/ld.<pid>), keeps the *gemm_ lines in bindings.log, deletes the raw files
# (several MB each). Lines look like
#   <pid>:\tbinding file <requester> [0] to <definer> [0]: normal symbol `pdgemm_'
# Bindings requested by the preloaded object itself (e.g. dlsym(RTLD_NEXT))
# are not counted.
check_bindings() {
    local d=$1 sym=$2 f nfiles=0 ngood=0 nbad=0 badto='' nself=0 good bad self
    BINDINFO=
    for f in "$d"/ld/ld.*; do
        [ -e "$f" ] || continue
        grep -q 'binding file' "$f" || continue
        nfiles=$((nfiles + 1))
        grep -F "gemm_'" "$f" | sed "s|^|${f##*/}: |" >> "$d/bindings.log"
        # requester<TAB>definer for this symbol
        local pairs
        pairs=$(grep -F "symbol \`$sym'" "$f" |
                sed -nE 's/.*binding file (.*) \[[0-9]+\] to (.*) \[[0-9]+\]: [a-z]+ symbol `[^'"'"']*'"'"'.*/\1\t\2/p')
        good=0 bad=0 self=0
        while IFS=$'\t' read -r req def; do
            [ -n "$req" ] || continue
            if [ -n "$PRELOAD" ] && { [ "$req" = "$PRELOAD" ] || [ "$req" = "$LIBREAL" ]; }; then
                self=$((self + 1)); continue
            fi
            if [ -n "$PRELOAD" ] && { [ "$def" = "$PRELOAD" ] || [ "$def" = "$LIBREAL" ]; }; then
                good=$((good + 1))
            else
                bad=$((bad + 1))
                case " $badto " in *" $def "*) ;; *) badto="$badto $def" ;; esac
            fi
        done <<< "$pairs"
        [ "$good" -gt 0 ] && ngood=$((ngood + 1))
        [ "$bad" -gt 0 ] && nbad=$((nbad + 1))
        [ "$self" -gt 0 ] && nself=$((nself + 1))
    done
    rm -rf "$d/ld"
    [ -e "$d/bindings.log" ] || : > "$d/bindings.log"
    if [ -z "$PRELOAD" ]; then
        if [ "$nbad" -gt 0 ]; then
            BINDINFO="$sym ->${badto} in $nbad/$nfiles procs"
        else
            BINDINFO="$sym not called"
        fi
        return
    fi
    if [ "$nfiles" -eq 0 ]; then
        REASONS+=("no LD_DEBUG=bindings output, cannot prove that $sym came from $PRELOAD")
        return
    fi
    if [ "$nbad" -gt 0 ]; then
        REASONS+=("$sym bound to${badto} (not $PRELOAD) in $nbad/$nfiles processes")
    fi
    if [ "$ngood" -eq 0 ]; then
        REASONS+=("no binding of $sym to $PRELOAD in any of $nfiles processes (tester never called it through the preload)")
    fi
    BINDINFO="$sym -> ${PRELOAD##*/} in $ngood/$nfiles procs"
    [ "$nself" -eq 0 ] || BINDINFO="$BINDINFO; ${PRELOAD##*/} itself looked up $sym elsewhere in $nself procs"
}

# ---------------------------------------------------------------------------

NPASS=0
NFAIL=0
FAILED_LIST=()
IDX=0

# Ranks still running in DIR after mpiexec returned (e.g. after a timeout,
# mpiexec was killed before its ranks): they are ours (their working directory
# is our scratch directory). Give them a few seconds, then SIGKILL them by pid.
reap_leftovers() {
    local d=$1 p left i
    for i in 1 2 3 4 5 6 7 8 9 10 11; do
        left=
        for p in /proc/[0-9]*; do
            [ "$(readlink "$p/cwd" 2>/dev/null)" = "$d" ] && left="$left ${p#/proc/}"
        done
        [ -n "$left" ] || return 0
        if [ "$i" -eq 11 ]; then
            echo "run.sh: killing leftover processes in $d:$left" >&2
            # shellcheck disable=SC2086 # a list of pids
            kill -KILL $left 2>/dev/null
            return 0
        fi
        sleep 1
    done
}

selected() { # "tester dat"
    [ ${#FILTERS[@]} -eq 0 ] && return 0
    local re
    for re in "${FILTERS[@]}"; do
        [[ "$1" =~ $re ]] && return 0
    done
    return 1
}

# run_one KIND TESTER EXE SRCDAT DATNAME(as opened by the tester) SYMBOL
run_one() {
    local kind=$1 tester=$2 exe=$3 src=$4 datname=$5 sym=$6
    local label
    label=$(basename "$src")
    local tag=${label%.dat}
    local d=$OUT/$tester-$tag
    mkdir -p "$d/ld"
    if [ "$kind" = pblas ]; then
        gemm_only "$src" "$d/$datname"
    else
        cp "$src" "$d/$datname"
    fi
    local np
    np=$(nprocs_of "$d/$datname")
    [ -n "$np" ] && [ "$np" -ge 1 ] || np=4
    IDX=$((IDX + 1))
    echo "[$IDX] running $tester $label on $np ranks ..."
    if [ ! -x "$exe" ]; then
        NFAIL=$((NFAIL + 1))
        FAILED_LIST+=("$tester $label")
        say "FAILED $tester $label (0 tests): tester $exe not found"
        return
    fi

    # shellcheck disable=SC2206 # MPIEXEC_FLAGS is a list of words
    local -a cmd=("$MPIEXEC" $MPIEXEC_FLAGS -n "$np")
    [ -z "$PRELOAD" ] || cmd+=(-x "LD_PRELOAD=${PRELOAD_FIRST:+$PRELOAD_FIRST:}$PRELOAD")
    cmd+=(-x LD_DEBUG=bindings -x "LD_DEBUG_OUTPUT=$d/ld/ld" "$exe")
    printf '%q ' timeout -k 10 "$TIMEOUT" "${cmd[@]}" > "$d/cmd"; echo >> "$d/cmd"

    local t0 t1 rc
    t0=$(date +%s.%N)
    (cd "$d" && timeout -k 10 "$TIMEOUT" "${cmd[@]}" > stdout.log 2> stderr.log < /dev/null)
    rc=$?
    t1=$(date +%s.%N)
    reap_leftovers "$d"
    echo "$rc" > "$d/rc"
    local secs
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

    # What the tester reports: stdout, plus the summary file named on line 3
    # of the .dat if it wrote one (only when "device out" is not 6 or 0).
    cp "$d/stdout.log" "$d/output.log"
    local sumf
    sumf=$(sed -n "3s/^[[:space:]]*'\([^']*\)'.*/\1/p" "$d/$datname")
    if [ -n "$sumf" ] && [ -f "$d/$sumf" ]; then
        { echo "==== $sumf"; cat "$d/$sumf"; } >> "$d/output.log"
    fi

    REASONS=()
    NTEST=0
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        REASONS+=("timeout after ${TIMEOUT}s (exit $rc)")
    elif [ "$rc" -ne 0 ]; then
        REASONS+=("exit status $rc")
    fi
    if [ "$kind" = pblas ]; then
        local routine
        routine=$(echo "$sym" | tr a-z A-Z | tr -d _)
        check_pblas "$d" "$routine" "$(pblas_expected "$d/$datname" "$np")"
    else
        check_solver "$d"
    fi
    check_text "$d"
    check_bindings "$d" "$sym"

    local info="[$np ranks, ${secs}s, $BINDINFO]"
    if [ ${#REASONS[@]} -eq 0 ]; then
        NPASS=$((NPASS + 1))
        say "PASSED $tester $label ($NTEST tests) $info"
    else
        NFAIL=$((NFAIL + 1))
        FAILED_LIST+=("$tester $label")
        local r joined=''
        for r in "${REASONS[@]}"; do joined="${joined:+$joined; }$r"; done
        say "FAILED $tester $label ($NTEST tests): $joined $info (logs: $d)"
    fi
}

T0=$(date +%s)

for p in s d c z; do
    P=$(echo $p | tr a-z A-Z)
    exe=$TESTS/PBLAS/${p}pb3tst
    for dat in "$TESTS/PBLAS/P${P}BLAS3TST.dat" "$HERE"/P${P}BLAS3TST-*.dat; do
        [ -e "$dat" ] || continue
        selected "${p}pb3tst $(basename "$dat")" || continue
        run_one pblas "${p}pb3tst" "$exe" "$dat" "P${P}BLAS3TST.dat" "p${p}gemm_"
    done
done

for t in lu:LU inv:INV ls:LS; do
    for p in s d c z; do
        name=x$p${t%%:*}
        base=${t##*:}
        for dat in "$TESTS/$base.dat" "$HERE/$base"-*.dat; do
            [ -e "$dat" ] || continue
            selected "$name $(basename "$dat")" || continue
            run_one solver "$name" "$TESTS/$name" "$dat" "$base.dat" "p${p}gemm_"
        done
    done
done

T1=$(date +%s)
say "$NPASS passed, $NFAIL failed ($((T1 - T0)) s)"
for f in "${FAILED_LIST[@]}"; do say "  failed: $f"; done
[ "$NFAIL" -eq 0 ] && [ "$NPASS" -gt 0 ] || exit 1
exit 0
