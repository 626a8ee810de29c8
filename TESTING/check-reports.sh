#!/bin/bash
# check-reports.sh DIR STATUS -- the verdict of run-asan and run-valgrind.
#
# DIR holds the steps' logs and, in DIR/reports, the checkers' report files
# (one per process); STATUS is the steps' exit status. Fails (exit 1) when
# STATUS is not 0 or when any of these files holds a report: a sanitizer's
# error or warning, a UBSan "runtime error" (UBSan writes to the process's
# stderr, that is to the step's log, whatever log_path says), or memcheck
# counting errors. Each report is shown.
dir=$1 status=$2
pattern='(ERROR|WARNING): [A-Za-z]*Sanitizer|runtime error:|ERROR SUMMARY: [1-9]'
n=0
for f in $(grep -rlE "$pattern" "$dir" 2>/dev/null | sort); do
    n=$((n + 1))
    echo "==== $f"
    case $f in
        */reports/*) grep -v '^==[0-9]*== *$' "$f" | head -n 100 ;;
        *) grep -m 3 -E -A 30 "$pattern" "$f" | head -n 100 ;;
    esac
done
if [ "$n" -gt 0 ]; then
    echo "$n file(s) in $dir hold reports (above)"
    exit 1
fi
[ "$status" -eq 0 ] || { echo "a step failed (see above)"; exit 1; }
echo "no reports in $dir"
