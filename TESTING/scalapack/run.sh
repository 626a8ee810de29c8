#!/bin/bash
# Run ScaLAPACK's own testers (Debian package scalapack-mpi-test) with a
# replacement for its Level-3 PBLAS preloaded, and decide pass/fail.
#
# usage: run.sh LIBSO|none [REGEX...]
#   LIBSO  shared object to preload into every rank (LD_PRELOAD, absolute path
#          is computed here). The routines it serves are the Level-3 names it
#          defines (nm -D --defined-only): p{s,d,c,z}{gemm,symm,syrk,syr2k,
#          trmm,trsm,geadd,tradd}_ and p{c,z}{hemm,herk,her2k}_.
#          "none" runs plain ScaLAPACK, which serves all of them: every
#          routine is tested, and the bindings are only checked for presence
#          (this is how the rules themselves are validated).
#   REGEX  optional: only run testers whose "<tester> <dat>" matches one of
#          these extended regexes (e.g. 'pb3tst' or 'xdlu|xzinv' or 'grids').
#
# What runs:
#   1. PBLAS level-3 testers ?pb3tst on the shipped P?BLAS3TST.dat and on our
#      P?BLAS3TST-*.dat next to this script, each edited so that exactly the
#      served routines of its precision are T (all others F); a precision
#      with no served routine is not run. Error-exit tests stay on where the
#      .dat has them on.
#   2. Solver testers, which call the Level-3 PBLAS from inside ScaLAPACK (or
#      from their own checking code), on the shipped .dat where listed in
#      SOLVERS below and on our <NAME>-*.dat next to this script:
#        x?lu LU.dat, x?inv INV.dat, x?ls LS.dat     (P?GEMM, P?TRSM, ...)
#        x?llt LLT.dat, LLT-*.dat                    (P?POTRF/P?POTRS:
#                                                     P?SYRK/P?HERK, P?TRSM)
#        x?gsep GSEP-*.dat (opened as SEP.dat)       (P?SYGST/P?HEGST, P?SYGVX:
#                                                     SYMM, SYR2K, SYRK, TRMM,
#                                                     TRSM, GEMM)
#        x?sep SEP-*.dat                             (P?SYTRD: P?SYR2K, GEMM)
#        x?trd TRD.dat, TRD-*.dat                    (P?SYTRD and the tester's
#                                                     own copy: SYMM, SYR2K,
#                                                     TRMM, GEMM)
#        x?qr QR-*.dat                               (none of them: P?LARFB
#                                                     updates with the local
#                                                     BLAS; run as the users'
#                                                     acceptance test all the same)
#      The banded, HRD/BRD-only and SVD/NEP/EVC testers call nothing of
#      these beyond P?GEMM and are not run.
#      In every LLT .dat the last flag (condition estimation and iterative
#      refinement, P?POCON/P?PORFS) is forced to F: ScaLAPACK 2.2.1's
#      P?LACON copies its caller's EST on every call and P?PORFS leaves EST
#      uninitialised, so process columns compare different stack garbage,
#      take different branches and deadlock (xsllt hangs in about 2 runs of
#      3 here, with plain ScaLAPACK; fixed upstream after 2.2.1, commit
#      aed609a "Fix uninitialized EST in Placon", ScaLAPACK issue #121).
#      P?GERFS (LU.dat's last flag) has the same uninitialised EST; the LU
#      testers have not hung here, so LU.dat is left as shipped -- if x?lu
#      ever times out, look there first.
# Our .dat files (same layout as the shipped ones; at most 20 tests/20 grids,
# sized for the testers' 2 MB work memory; all pass with plain ScaLAPACK):
#   P?BLAS3TST-l3.dat      every Level-3 routine: grids 2x2 2x3 3x2 (6
#                          ranks), 20 tests: SIDE L/R, UPLO U/L, DIAG N/U,
#                          TRANSA and TRANSB N/T/C, odd sizes, K = 0, M = 0,
#                          IA/JA off block boundaries, IMB != MB, INB != NB,
#                          RSRC/CSRC in {-1,0,1}; every operand of every
#                          routine fits its matrix
#   P?BLAS3TST-grids.dat   grids 1x1 1x3 3x1 2x3 3x2 1x6 6x1 (6 ranks), 20 tests:
#                          all TRANSA/TRANSB (N,T,C), odd sizes, M/N/K = 0, IA/JA
#                          off block boundaries, IMB!=MB, INB!=NB, different
#                          blocks for A/B/C, blocks larger than the matrix,
#                          RSRC/CSRC = -1 (replicated); complex ALPHA/BETA for C/Z
#   P?BLAS3TST-rsrc.dat    grids 2x2 2x3 3x2 (6 ranks), RSRC/CSRC in {-1,0,1}
#   P?BLAS3TST-alpha0.dat, -beta0, -beta1, -alpha0beta1: ALPHA/BETA special
#                          values (one pair per file: the tester reads one),
#                          grids 1x1 2x2 1x3 3x1 (4 ranks)
#   P?BLAS3TST-large.dat   M,N,K up to 160, grids 2x2 1x3 3x1 (4 ranks)
#                          (written for P?GEMM; SIDE, UPLO and DIAG cycle
#                          through L/R, U/L and N/U, and the matrices are
#                          large enough for every routine's operands)
#   INV-large.dat          N = 101, 200, NB = 7, 24, grids 2x2 1x3 3x1
#   QR-small.dat           the shipped QR.dat with M <= N in every size: the
#                          shipped one's M > N sizes are BYPASSed for TZ (32
#                          skips with plain ScaLAPACK too)
#   LLT-upper.dat, LLT-lower.dat  UPLO U / L, N up to 72, NB 2-8 not dividing
#                          N, NRHS 1-6, grids 1x1 2x2 1x3 3x1 2x3 3x2 (6 ranks)
#   GSEP-small.dat, SEP-small.dat  N = 1, 4, 23, 37, both UPLO, NB 1-5, grids
#                          1x1 2x2 1x3 3x1 (4 ranks); GSEP: IBTYPE 1, 2, 3
#   TRD-upper.dat          UPLO U (the shipped TRD.dat is L), N up to 41
# Each tester runs in its own scratch directory $OUT/<tester>-<dat>/ (the .dat
# is copied there under the name the tester opens), with stdout.log,
# stderr.log, output.log (stdout + the summary file, if the .dat names one and
# the tester wrote it), cmd, rc and bindings.log (LD_DEBUG=bindings lines for
# the Level-3 symbols; the raw per-process LD_DEBUG files are deleted after
# the check).
#
# Pass criteria for one tester:
#   - exit status 0 and no timeout (TIMEOUT seconds, default 300);
#   - PBLAS, for every served routine R of the precision: the summary row
#     "|  R  total passed failed skipped" has failed = 0, total = passed +
#     skipped = NTESTS x NGRIDS of the .dat (grids that fit the ranks), and
#     skipped = the skips the tester makes by design, computed from the
#     .dat: complex P?SYRK/P?SYR2K BYPASS the tests with TRANSA = C, and
#     P?HERK/P?HER2K those with TRANSA = T, once per grid (pzblas3tst.f); each
#     such skip must show as its BYPASS line, and no other BYPASS line may
#     appear. Any other skip (an operand that does not fit its matrix,
#     INFO != 0, not enough memory, a bad grid) fails. Rows of routines not
#     served must show total 0. "End of Tests." printed, and "Error-exit
#     tests completed." when the .dat tests error exits;
#   - LU-style solvers (lu, inv, ls, llt, trd): "Finished N tests", "N tests
#     completed and passed residual checks", 0 failed, 0 skipped, 0 "without
#     checking", "END OF TESTS.";
#   - eigensolvers (gsep, sep): "Finished N tests", N > 0 passed, 0 "completed
#     without checking", 0 "skipped for lack of memory", 0 "completed and
#     failed", "END OF TESTS.";
#   - no line reporting a problem in stdout (FAILED, ERROR, ILLEGAL, illegal
#     value, Bad ... parameters, Not enough memory, memory overwrite, Invalid
#     matrix, Incompatible arguments, BYPASS other than the expected ones, ...)
#     or stderr (ERROR, illegal, signals, aborts);
#   - ld.so bindings: every binding of a served symbol (any precision) made by
#     another object (the tester, libscalapack) goes to LIBSO, and each served
#     routine the tester calls (PBLAS: all served routines of its precision;
#     solvers: the list in SOLVERS) has at least one such binding. With
#     "none" the second part is checked with any definer (every listed
#     routine must be called), which validates the SOLVERS lists.
#     With a LIBSO, on each tester's first run only: ld.so binds a program's
#     symbols alike whatever its .dat (the same executable, libraries and
#     preload; every .dat of a tester calls the routines its list names), and
#     LD_DEBUG costs some 0.5 s a run, 84 runs in `make test`. Its later runs
#     say which run's bindings stand for theirs.
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

# The Level-3 routines by precision (ScaLAPACK's Fortran names, lower case,
# without the trailing underscore): HEMM, HERK, HER2K exist in C and Z only.
routines_of() { # p
    case $1 in
        s|d) echo "p$1gemm p$1symm p$1syrk p$1syr2k p$1trmm p$1trsm p$1geadd p$1tradd" ;;
        *)   echo "p$1gemm p$1symm p$1hemm p$1syrk p$1herk p$1syr2k p$1her2k p$1trmm p$1trsm p$1geadd p$1tradd" ;;
    esac
}
ALL_SYMS=
for p in s d c z; do
    for r in $(routines_of $p); do ALL_SYMS="$ALL_SYMS ${r}_"; done
done
ALL_SYMS=${ALL_SYMS# }

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

# SERVED: the symbols (with "_") the preloaded object defines, in ALL_SYMS
# order; all of them for "none".
if [ -z "$PRELOAD" ]; then
    SERVED=$ALL_SYMS
else
    command -v nm >/dev/null || { echo "run.sh: nm not found (binutils): cannot tell which routines $LIBARG serves" >&2; exit 2; }
    defined=" $(nm -D --defined-only "$PRELOAD" 2>/dev/null | awk '{ print $NF }' | tr '\n' ' ') "
    SERVED=
    for s in $ALL_SYMS; do
        case "$defined" in *" $s "*) SERVED="$SERVED $s" ;; esac
    done
    SERVED=${SERVED# }
    [ -n "$SERVED" ] || { echo "run.sh: $LIBARG defines none of the Level-3 PBLAS ($ALL_SYMS)" >&2; exit 2; }
fi
is_served() { case " $SERVED " in *" $1 "*) return 0 ;; esac; return 1; }
served_of() { # p -> the served symbols of that precision
    local r out=
    for r in $(routines_of "$1"); do is_served "${r}_" && out="$out ${r}_"; done
    echo "${out# }"
}

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
    say "run.sh: it serves: $SERVED"
else
    say "run.sh: no preload (plain ScaLAPACK serves every Level-3 routine); bindings checked for presence only"
fi
say "run.sh: testers from $TESTS, logs in $OUT, timeout ${TIMEOUT}s"

# ---------------------------------------------------------------------------
# .dat helpers

# grids_of DAT -> prints "P Q" per grid (the NGRIDS first values of the two
# lines after the "number of process(or) grids" line).
grids_of() {
    awk '
        want == 0 && /[Nn]umber of process(or)? grids/ { n = $1; want = 1; next }
        want == 1 { for (i = 1; i <= n; i++) p[i] = $i; want = 2; next }
        want == 2 { for (i = 1; i <= n; i++) print p[i], $i; exit }
    ' "$1"
}

# nprocs_of DAT -> the "maximum number of processes" of an eigensolver .dat
# (SEP.dat layout: its grids are spread over the test blocks), else max P*Q
# over its grids
nprocs_of() {
    local n
    n=$(awk '/maximum number of processes/ { print $1; exit }' "$1")
    if [ -n "$n" ]; then echo "$n"; return; fi
    grids_of "$1" | awk 'BEGIN { m = 0 } { if ($1 * $2 > m) m = $1 * $2 } END { print m }'
}

# pb3_info DAT NP -> "NTESTS NGRIDS NC NT": the tests, the grids the tester
# runs on NP processes, and the tests with TRANSA = C and = T. A ?pb3tst .dat
# is read by position, as the tester reads it: line 11 NGRIDS, 12-13 P and
# Q, 16 NTESTS, 19 TRANSA.
pb3_info() {
    awk -v np="$2" '
        NR == 11 { ng = $1 }
        NR == 12 { for (i = 1; i <= ng; i++) p[i] = $i }
        NR == 13 { for (i = 1; i <= ng; i++) q[i] = $i }
        NR == 16 { nt = $1 }
        NR == 19 { for (i = 1; i <= nt; i++) { v = toupper($i); gsub(/\047/, "", v); if (v == "C") nc++; if (v == "T") ntr++ } }
        END {
            g = 0
            for (i = 1; i <= ng; i++) if (p[i] >= 1 && q[i] >= 1 && p[i] * q[i] <= np) g++
            print nt + 0, g, nc + 0, ntr + 0
        }
    ' "$1"
}

# serve_only SRC DST P: each routine line "P?NAME  T|F ..." gets T when that
# routine is served, F otherwise
serve_only() {
    local on
    on=" $(served_of "$3" | tr '[:lower:]' '[:upper:]' | tr -d '_') "
    awk -v on="$on" '
        /^P[SDCZ][A-Z0-9]+[ \t]+[TF]([ \t]|$)/ {
            name = $1; rest = substr($0, length(name) + 1)
            match(rest, /^[ \t]+/); ws = substr(rest, 1, RLENGTH)
            print name ws (index(on, " " name " ") ? "T" : "F") substr(rest, RLENGTH + 2)
            next
        }
        { print }
    ' "$1" > "$2"
}

# no_refine SRC DST: an LLT .dat with its last flag (condition estimation
# and iterative refinement) set to F (see the header: P?PORFS deadlocks)
no_refine() {
    sed -E 's/^([[:space:]]*)[TF]([[:space:]].*Cond\. Est\.)/\1F\2/' "$1" > "$2"
}

# ---------------------------------------------------------------------------
# checks; each appends reasons to the array REASONS

# Lines in stdout that report a problem. Known good lines containing such
# words (table header, solver summary lines) are removed first; ?pb3tst's
# BYPASS lines are removed too, after check_pblas has matched each of them
# to a skip the tester makes by design.
BAD_STDOUT='FAILED|ERROR|ILLEGAL|[Ii]llegal (input|value)|had an illegal|Bad .* parameters|[Nn]ot enough memory|[Mm]emory overwrite|Invalid matrix|Incompatible arguments|not recognized|Unable to perform|incorrect value|not supported|BYPASS|[Aa]bort'
GOOD_STDOUT='SUBROUTINE +TOTAL TESTS +PASSED +FAILED +SKIPPED|tests completed and failed residual checks\.|tests skipped because of illegal input values\.|^pumma-stats:'
BYPASS_LINE='^ +\*\*\*\*\* TRANSA has an incorrect value: +BYPASS +\*\*\*\*\* *$'
BAD_STDERR='ERROR|[Ii]llegal|Segmentation|Signal:|signal [0-9]|SIG(SEGV|BUS|ABRT|FPE|ILL|KILL|TERM)|MPI_ABORT|[Aa]bort(ed|ing)|core dumped|Killed|Bus error|not enough slots'

check_text() { # DIR KIND
    local d=$1 good=$GOOD_STDOUT n
    [ "$2" = pblas ] && good="$good|$BYPASS_LINE"
    n=$(grep -vE "$good" "$d/output.log" | grep -cE "$BAD_STDOUT")
    if [ "$n" -gt 0 ]; then
        REASONS+=("$n problem line(s) in output, first: '$(grep -vE "$good" "$d/output.log" | grep -m1 -E "$BAD_STDOUT" | sed -E 's/^ +//')'")
    fi
    n=$(grep -v '^pumma-stats:' "$d/stderr.log" | grep -cE "$BAD_STDERR")
    if [ "$n" -gt 0 ]; then
        REASONS+=("$n problem line(s) in stderr, first: '$(grep -v '^pumma-stats:' "$d/stderr.log" | grep -m1 -E "$BAD_STDERR" | sed -E 's/^ +//')'")
    fi
}

# bypass_scan OUTPUT -> "ok ROUTINE" per BYPASS line the tester makes by
# design (complex SYRK/SYR2K with TRANSA = C, HERK/HER2K with TRANSA = T),
# "bad ROUTINE TRANSA TEST" per other one. The routine is the last "Tested
# Subroutine:" line, TRANSA and the test number come from the test's header.
bypass_scan() {
    awk '
        /Test number +[0-9]+ started on/ { test = $3 }
        /M +N +K +SIDE +UPLO +TRANSA +TRANSB +DIAG/ { hdr = 1; next }
        hdr && NF == 8 && $1 ~ /^[0-9]+$/ { transa = toupper($6); hdr = 0; next }
        /Tested Subroutine:/ { rout = $NF; next }
        /BYPASS/ {
            base = substr(rout, 3)
            if (((base == "SYRK" || base == "SYR2K") && transa == "C") ||
                ((base == "HERK" || base == "HER2K") && transa == "T"))
                print "ok", rout
            else
                print "bad", rout, transa, test
        }
    ' "$1"
}

# check_pblas DIR P DAT NP: the summary rows of the served and the other
# routines of precision P, the BYPASS lines, the end of the run
check_pblas() {
    local d=$1 p=$2 dat=$3 np=$4
    local nt ng nc ntr exp expskip r R row tot pas fai ski byp info summ=
    read -r nt ng nc ntr <<< "$(pb3_info "$dat" "$np")"
    exp=$((nt * ng))
    bypass_scan "$d/output.log" > "$d/bypass.txt"
    local nbad
    nbad=$(grep -c '^bad' "$d/bypass.txt")
    if [ "$nbad" -gt 0 ]; then
        REASONS+=("$nbad BYPASS line(s) the tester does not make by design, first: $(grep -m1 '^bad' "$d/bypass.txt" | awk '{ printf "%s with TRANSA = %s in test %s", $2, $3, $4 }')")
    fi
    NTEST=0
    for r in $(routines_of "$p"); do
        R=$(echo "$r" | tr '[:lower:]' '[:upper:]')
        row=$(grep -E "^ *\| +$R +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ *$" "$d/output.log" | tail -1)
        if ! is_served "${r}_"; then
            # not served: must not have been tested
            if [ -n "$row" ] && [ "$(echo "$row" | awk '{ print $3 }')" -ne 0 ]; then
                REASONS+=("$R tested but not served")
            fi
            continue
        fi
        expskip=0
        case $p$R in
            [cz]P[CZ]SYRK|[cz]P[CZ]SYR2K) expskip=$((nc * ng)) ;;
            [cz]P[CZ]HERK|[cz]P[CZ]HER2K) expskip=$((ntr * ng)) ;;
        esac
        if [ -z "$row" ]; then
            REASONS+=("no '|  $R ...' row in the summary table")
            continue
        fi
        read -r tot pas fai ski <<< "$(echo "$row" | awk '{ print $3, $4, $5, $6 }')"
        NTEST=$((NTEST + tot))
        byp=$(grep -c "^ok $R\$" "$d/bypass.txt")
        info="$R $pas/$tot"
        [ "$ski" -eq 0 ] || info="$info+${ski}skipped"
        summ="${summ:+$summ, }$info"
        [ "$fai" -eq 0 ] || REASONS+=("$fai of $tot $R tests failed")
        [ "$tot" -eq "$exp" ] || REASONS+=("$R: $tot tests, expected $exp ($nt tests x $ng grids)")
        if [ "$ski" -ne "$expskip" ] && [ "$expskip" -eq 0 ]; then
            REASONS+=("$R: $ski tests skipped, expected none")
        elif [ "$ski" -ne "$expskip" ]; then
            REASONS+=("$R: $ski tests skipped, expected $expskip (the tester's BYPASS of the TRANSA = $(case $R in *HER*) echo T ;; *) echo C ;; esac) tests)")
        elif [ "$byp" -ne "$expskip" ]; then
            REASONS+=("$R: $byp BYPASS lines for $expskip expected skips")
        fi
        [ $((pas + ski)) -eq "$tot" ] || REASONS+=("$R: $pas passed + $ski skipped != $tot")
    done
    PBSUMMARY=$summ
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

# The eigensolver testers (x?gsep, x?sep) count differently
# (pdgsepdriver.f, pdsepdriver.f): passed, "completed without checking",
# "skipped for lack of memory", "completed and failed".
check_eigen() { # DIR
    local d=$1 fin pas woc mem fai
    fin=$(sed -nE 's/^ *Finished +([0-9]+) tests, with the following results:.*/\1/p' "$d/output.log" | tail -1)
    pas=$(sed -nE 's/^ *([0-9]+) tests completed and passed residual checks\..*/\1/p' "$d/output.log" | tail -1)
    woc=$(sed -nE 's/^ *([0-9]+) tests completed without checking\..*/\1/p' "$d/output.log" | tail -1)
    mem=$(sed -nE 's/^ *([0-9]+) tests skipped for lack of memory\..*/\1/p' "$d/output.log" | tail -1)
    fai=$(sed -nE 's/^ *([0-9]+) tests completed and failed\..*/\1/p' "$d/output.log" | tail -1)
    NTEST=${fin:-0}
    if [ -z "$fin" ] || [ -z "$pas" ] || [ -z "$woc" ] || [ -z "$mem" ] || [ -z "$fai" ]; then
        REASONS+=("summary ('Finished N tests' / passed / without checking / lack of memory / failed lines) missing")
        return
    fi
    [ "$fai" -eq 0 ] || REASONS+=("$fai of $fin tests failed")
    [ "$mem" -eq 0 ] || REASONS+=("$mem tests skipped for lack of memory")
    [ "$woc" -eq 0 ] || REASONS+=("$woc tests completed without checking")
    [ "$fin" -gt 0 ] || REASONS+=("no tests run")
    [ "$pas" -eq "$fin" ] || REASONS+=("only $pas of $fin tests passed")
    grep -q 'END OF TESTS\.' "$d/output.log" || REASONS+=("no 'END OF TESTS.' line")
}

# check_bindings DIR REQUIRED...: reads LD_DEBUG=bindings output of every
# process (ld/ld.<pid>), keeps the lines of the Level-3 symbols in
# bindings.log, deletes the raw files (several MB each). Lines look like
#   <pid>:\tbinding file <requester> [0] to <definer> [0]: normal symbol `pdgemm_'
# Bindings requested by the preloaded object itself (e.g. dlsym(RTLD_NEXT))
# are not counted. Every served symbol bound by another object must go to
# LIBSO; each REQUIRED symbol must be bound (to LIBSO; with "none", to
# anything) in at least one process.
L3_RE='p[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm|geadd|tradd)_'
check_bindings() {
    local d=$1; shift
    local required=" $* " f nfiles=0 sym
    BINDINFO=
    : > "$d/bindings.log"
    for f in "$d"/ld/ld.*; do
        [ -e "$f" ] || continue
        grep -q 'binding file' "$f" || continue
        nfiles=$((nfiles + 1))
        grep -E "symbol \`$L3_RE'" "$f" | sed "s|^|${f##*/}: |" >> "$d/bindings.log"
    done
    rm -rf "$d/ld"
    # per symbol: processes binding it to LIBSO, to something else (and
    # what), and lookups made by LIBSO itself
    local table
    table=$(sed -nE 's/^(ld\.[0-9]+): .*binding file (.*) \[[0-9]+\] to (.*) \[[0-9]+\]: [a-z]+ symbol `([^'"'"']*)'"'"'.*/\1\t\2\t\3\t\4/p' "$d/bindings.log" |
        awk -F'\t' -v pre="$PRELOAD" -v real="$LIBREAL" '
            {
                f = $1; req = $2; def = $3; s = $4; syms[s] = 1
                if (pre != "" && (req == pre || req == real)) { self[s, f] = 1; next }
                if (pre != "" && (def == pre || def == real)) good[s, f] = 1
                else { other[s, f] = 1; if (index(" " defs[s] " ", " " def " ") == 0) defs[s] = defs[s] " " def }
            }
            END {
                for (k in good)  { split(k, a, SUBSEP); ng[a[1]]++ }
                for (k in other) { split(k, a, SUBSEP); no[a[1]]++ }
                for (k in self)  { split(k, a, SUBSEP); ns[a[1]]++ }
                for (s in syms) printf "%s %d %d %d%s\n", s, ng[s], no[s], ns[s], defs[s]
            }')
    local ngood nother nself defs called='' elsewhere='' selfinfo=''
    for sym in $SERVED; do
        read -r ngood nother nself defs <<< "$(echo "$table" | awk -v s="$sym" '$1 == s { $1 = ""; print; exit }')"
        ngood=${ngood:-0} nother=${nother:-0} nself=${nself:-0}
        if [ -n "$PRELOAD" ]; then
            [ "$nother" -eq 0 ] || REASONS+=("$sym bound to $defs (not $PRELOAD) in $nother/$nfiles processes")
            [ "$ngood" -eq 0 ] || called="$called $sym($ngood/$nfiles)"
            [ "$nself" -eq 0 ] || selfinfo="$selfinfo $sym"
            case "$required" in
                *" $sym "*)
                    [ "$ngood" -gt 0 ] || REASONS+=("no binding of $sym to $PRELOAD in any of $nfiles processes (the tester never called it through the preload)") ;;
            esac
        else
            if [ "$nother" -gt 0 ]; then
                called="$called $sym($nother/$nfiles)"
                for f in $defs; do
                    case " $elsewhere " in *" $f "*) ;; *) elsewhere="$elsewhere $f" ;; esac
                done
            fi
            case "$required" in
                *" $sym "*)
                    [ "$nother" -gt 0 ] || REASONS+=("$sym never bound in any of $nfiles processes (the tester was expected to call it)") ;;
            esac
        fi
    done
    if [ "$nfiles" -eq 0 ] && { [ -n "$PRELOAD" ] || [ -n "${required// /}" ]; }; then
        REASONS+=("no LD_DEBUG=bindings output, cannot tell where the Level-3 calls went")
    fi
    if [ -n "$PRELOAD" ]; then
        BINDINFO="bound to ${PRELOAD##*/}:${called:- none of the served routines called}"
        [ -z "$selfinfo" ] || BINDINFO="$BINDINFO; ${PRELOAD##*/} itself looked up$selfinfo elsewhere"
    else
        BINDINFO="called:${called:- none}${elsewhere:+ ->$elsewhere}"
    fi
}

# ---------------------------------------------------------------------------

NPASS=0
declare -A BOUND_BY=()      # tester executable -> the run its bindings were checked in
NFAIL=0
NSKIP=0
FAILED_LIST=()
IDX=0

# Ranks still running in DIR after mpiexec returned (e.g. after a timeout,
# mpiexec was killed before its ranks): they are ours (their working directory
# is our scratch directory). Give them a few seconds, then SIGKILL them by pid.
reap_leftovers() {
    local d=$1 left i
    for i in 1 2 3 4 5 6 7 8 9 10 11; do
        # one find instead of a readlink per process (that took 0.6 s here)
        left=$(find /proc -mindepth 2 -maxdepth 2 -name cwd -lname "$d" 2>/dev/null |
               cut -d/ -f3 | tr '\n' ' ')
        left=${left% }
        [ -n "$left" ] || return 0
        if [ "$i" -eq 11 ]; then
            echo "run.sh: killing leftover processes in $d: $left" >&2
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

# run_one KIND TESTER EXE SRCDAT DATNAME(as opened by the tester) P REQUIRED...
# KIND: pblas, lu (LU-style summary) or eigen; REQUIRED: the served symbols
# the tester must call
run_one() {
    local kind=$1 tester=$2 exe=$3 src=$4 datname=$5 p=$6
    shift 6
    local required=("$@")
    local label
    label=$(basename "$src")
    local tag=${label%.dat}
    local d=$OUT/$tester-$tag
    mkdir -p "$d/ld"
    case $kind in
        pblas) serve_only "$src" "$d/$datname" "$p" ;;
        *)     case $tester in
                   x?llt) no_refine "$src" "$d/$datname" ;;
                   *)     cp "$src" "$d/$datname" ;;
               esac ;;
    esac
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
    local ldcheck=1
    [ -n "$PRELOAD" ] && [ -n "${BOUND_BY[$exe]:-}" ] && ldcheck=0
    [ "$ldcheck" -eq 0 ] || cmd+=(-x LD_DEBUG=bindings -x "LD_DEBUG_OUTPUT=$d/ld/ld")
    cmd+=("$exe")
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
    PBSUMMARY=
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        REASONS+=("timeout after ${TIMEOUT}s (exit $rc)")
    elif [ "$rc" -ne 0 ]; then
        REASONS+=("exit status $rc")
    fi
    case $kind in
        pblas) check_pblas "$d" "$p" "$d/$datname" "$np" ;;
        eigen) check_eigen "$d" ;;
        *)     check_solver "$d" ;;
    esac
    check_text "$d" "$kind"
    if [ "$ldcheck" -eq 1 ]; then
        check_bindings "$d" "${required[@]}"
        BOUND_BY[$exe]="$label"
    else
        rm -rf "$d/ld"
        BINDINFO="bindings as checked on ${BOUND_BY[$exe]}"
    fi

    local what="$NTEST tests"
    [ -z "$PBSUMMARY" ] || what="$PBSUMMARY"
    local info="[$np ranks, ${secs}s, $BINDINFO]"
    if [ ${#REASONS[@]} -eq 0 ]; then
        NPASS=$((NPASS + 1))
        say "PASSED $tester $label ($what) $info"
    else
        NFAIL=$((NFAIL + 1))
        FAILED_LIST+=("$tester $label")
        local r joined=''
        for r in "${REASONS[@]}"; do joined="${joined:+$joined; }$r"; done
        say "FAILED $tester $label ($what): $joined $info (logs: $d)"
    fi
}

# The solver testers: name (x<p><name>), the .dat it opens, the prefix of
# our .dat files (<prefix>-*.dat here), whether the shipped .dat is run
# too, the summary style, and the Level-3 routines it calls (real names;
# C/Z call HEMM, HERK, HER2K for SYMM, SYRK, SYR2K). The routine lists come
# from ld.so's bindings with plain ScaLAPACK on these .dat files
# (`run.sh none` requires every listed routine to be called).
SOLVERS=(
    "lu   LU  LU   shipped lu    gemm trsm"
    "inv  INV INV  shipped lu    gemm symm syrk trmm trsm"
    "ls   LS  LS   shipped lu    gemm trsm"
    "llt  LLT LLT  shipped lu    syrk trsm"
    "qr   QR  QR   own     lu"
    "gsep SEP GSEP own     eigen gemm symm syrk syr2k trmm trsm"
    "sep  SEP SEP  own     eigen gemm syr2k"
    "trd  TRD TRD  shipped lu    gemm symm syr2k trmm"
)

# required_of P ROUTINE... -> the served symbols among p<P><routine>_
# (complex: symm, syrk, syr2k -> hemm, herk, her2k)
required_of() {
    local p=$1 r out=
    shift
    for r in "$@"; do
        case $p$r in
            [cz]symm)  r=hemm ;;
            [cz]syrk)  r=herk ;;
            [cz]syr2k) r=her2k ;;
        esac
        is_served "p$p${r}_" && out="$out p$p${r}_"
    done
    echo "${out# }"
}

T0=$(date +%s)

for p in s d c z; do
    P=$(echo $p | tr '[:lower:]' '[:upper:]')
    exe=$TESTS/PBLAS/${p}pb3tst
    mine=$(served_of $p)
    for dat in "$TESTS/PBLAS/P${P}BLAS3TST.dat" "$HERE"/P"${P}"BLAS3TST-*.dat; do
        [ -e "$dat" ] || continue
        selected "${p}pb3tst $(basename "$dat")" || continue
        if [ -z "$mine" ]; then
            NSKIP=$((NSKIP + 1))
            say "SKIPPED ${p}pb3tst $(basename "$dat"): no P${P} routine served"
            continue
        fi
        # shellcheck disable=SC2086 # a list of symbols
        run_one pblas "${p}pb3tst" "$exe" "$dat" "P${P}BLAS3TST.dat" "$p" $mine
    done
done

for entry in "${SOLVERS[@]}"; do
    read -r t base own shipped style routs <<< "$entry"
    for p in s d c z; do
        name=x$p$t
        dats=()
        [ "$shipped" = shipped ] && dats+=("$TESTS/$base.dat")
        dats+=("$HERE/$own"-*.dat)
        for dat in "${dats[@]}"; do
            [ -e "$dat" ] || continue
            selected "$name $(basename "$dat")" || continue
            # shellcheck disable=SC2046,SC2086 # lists of words
            run_one "$style" "$name" "$TESTS/$name" "$dat" "$base.dat" "$p" $(required_of $p $routs)
        done
    done
done

T1=$(date +%s)
notrun=
[ "$NSKIP" -eq 0 ] || notrun=", $NSKIP not run (no routine of their precision served)"
say "$NPASS passed, $NFAIL failed$notrun ($((T1 - T0)) s)"
for f in "${FAILED_LIST[@]}"; do say "  failed: $f"; done
[ "$NFAIL" -eq 0 ] && [ "$NPASS" -gt 0 ] || exit 1
exit 0
