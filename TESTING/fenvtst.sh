#!/usr/bin/env bash
# fenvtst.sh "MPIEXEC" [BIN] -- pumma leaves the caller's floating-point
# flags as it found them (doc/floating-point.md), on 2 processes:
#   - xfenvtst (fenvtst.c): the caller's flags kept, none from pumma's
#     bookkeeping, the caller's data's own flags (overflow) kept;
#   - xfenvtst_f (fenvtst.f90), a Fortran program that ends with STOP, as
#     is and with a slowed rank (PUMMA_SPEEDS=3,1: the emulation's
#     arithmetic): gfortran must not report "floating-point exceptions are
#     signalling" (before pumma kept its flags to itself, every rank
#     reported IEEE_UNDERFLOW_FLAG IEEE_DENORMAL).
# One PASSED/FAILED line per case, "N passed, N failed" last; status 1 on
# any failure; each run is cut off after 300 s (a hang fails). All under
# PUMMA_TUNE=off: the machine model is measured and fitted in each run
# (bookkeeping whose flags must go too), and no tune file is read or
# written.
set -u
MPIEXEC=${1:-mpiexec --oversubscribe}
BIN=${2:-.}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1 PUMMA_DECISION_FILE=off PUMMA_TUNE=off
pass=0; fail=0
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

timeout 300 $MPIEXEC -n 2 "$BIN/xfenvtst" > "$out/c.log" 2>&1; rc=$?
tally='^[0-9]+ passed, [0-9]+ failed$'
grep -Ev "$tally" "$out/c.log"
last=$(grep -E "$tally" "$out/c.log" | tail -n 1)
if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  pass=$((pass + BASH_REMATCH[1])); fail=$((fail + BASH_REMATCH[2]))
fi
if [ $rc -ne 0 ] && [ "$fail" -eq 0 ]; then
  echo "FAILED xfenvtst: status $rc"; fail=$((fail + 1))
fi

for v in "" "PUMMA_SPEEDS=3,1"; do
  what="Fortran program ending with STOP${v:+ ($v)}"
  env $v timeout 300 $MPIEXEC -n 2 "$BIN/xfenvtst_f" > "$out/f.log" 2> "$out/f.err"; rc=$?
  note=$(grep -m 1 'floating-point exceptions are signalling' "$out/f.err")
  if [ $rc -eq 0 ] && grep -q '^fenvtst.f90: PASSED' "$out/f.log" && [ -z "$note" ]; then
    echo "PASSED $what: no flag reported"; pass=$((pass + 1))
  else
    echo "FAILED $what: status $rc; ${note:-$(tail -n 2 "$out/f.log" "$out/f.err" | tr '\n' ' ')}"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
