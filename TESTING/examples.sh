#!/usr/bin/env bash
# examples.sh SRC PCDIR WORK -- builds pumma's examples (the files in SRC:
# EXAMPLES/, or the copy `make install` put in share/doc/pumma/examples)
# in WORK against the pumma whose pumma.pc is in PCDIR, as a user would,
# runs them on 2-4 processes and checks:
#   - pumma.fh compiles in fixed and in free source form;
#   - every example exits 0 and reports PASSED / "0 failed";
#   - the heterogeneous one's PUMMA_STATS report the elements sent and
#     each process's time in the call and in its local multiply;
#   - the binaries record libpumma's soname (libpumma.so.MAJOR), and
#     load it from that pumma's libdir;
#   - pumma computed the unchanged ScaLAPACK program's PDGEMM calls, both
#     when linked before ScaLAPACK and when preloaded into a binary linked
#     with ScaLAPACK only (PUMMA_STATS reports them).
set -u
SRC=$(cd "$1" && pwd); PCDIR=$(cd "$2" && pwd); WORK=$3
MPIEXEC=${MPIEXEC:-mpiexec --oversubscribe}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1
rm -rf "$WORK"; mkdir -p "$WORK"
cp "$SRC"/Makefile "$SRC"/*.c "$SRC"/*.f "$SRC"/*.f90 "$WORK"/   # not programs built there
cd "$WORK" || exit 1
libdir=$(PKG_CONFIG_PATH=$PCDIR pkg-config --variable=libdir pumma)
fail=0
bad() { echo "FAILED examples: $*"; fail=1; }

echo "examples: building in $WORK against $libdir"
if ! make PKG_CONFIG_PATH="$PCDIR" > build.log 2>&1; then
  cat build.log; bad "build"; exit 1
fi
# pumma.fh, which no example includes, in both source forms it claims
fhflags=$(PKG_CONFIG_PATH=$PCDIR pkg-config --cflags pumma)
printf '%s\n' '      SUBROUTINE FHFIX( OPTS )' "      INCLUDE 'pumma.fh'" \
  '      INTEGER OPTS( PUMMA_NOPTS )' '      OPTS( PUMMA_OPT_ALGO ) = PUMMA_ALGO_MDB2' \
  '      OPTS( PUMMA_OPT_TOPO ) = PUMMA_TOPO_LINEAR' '      END' > fh_fixed.f
printf '%s\n' 'subroutine fhfree(opts)' "  include 'pumma.fh'" \
  '  integer :: opts(pumma_nopts)' '  opts(pumma_opt_bcast) = pumma_bcast_mst' \
  'end subroutine fhfree' > fh_free.f90
for f in fh_fixed.f fh_free.f90; do
  mpifort -Wline-truncation -Werror $fhflags -c -o /dev/null "$f" > fh.log 2>&1 || { cat fh.log; bad "pumma.fh does not compile in $f"; }
done

soname=$(readelf -d "$libdir/libpumma.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
case $soname in libpumma.so.[0-9]*) ;; *) bad "libpumma.so has soname '$soname'";; esac
for x in xpdgemm_f77 xpumma_f90 xpumma_c xpumma_het; do
  readelf -d "./$x" | grep -q "NEEDED.*\[$soname\]" || bad "$x does not record $soname"
  got=$(ldd "./$x" | awk '/libpumma\.so/ { print $3 }')
  [ "$got" = "$libdir/$soname" ] || bad "$x loads libpumma from '$got', not $libdir/$soname"
done

# run NAME NPROCS [mpiexec options]: output in NAME.log; status checked.
run() {
  local name=$1 n=$2; shift 2
  PUMMA_STATS=1 $MPIEXEC -n "$n" "$@" > "$name.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || { tail -n 20 "$name.log"; bad "$name exited with $rc"; }
}

# The ScaLAPACK program, linked with pumma, then preloaded: 2 calls each.
for v in linked preloaded; do
  if [ $v = linked ]; then run f77-$v 3 ./xpdgemm_f77
  else run f77-$v 3 -x LD_PRELOAD="$libdir/libpumma.so" ./xpdgemm_sl; fi
  grep -q ': PASSED$' f77-$v.log || bad "pdgemm_f77 ($v) did not pass"
  served=$(awk '/^pumma-stats: PDGEMM calls=/ { split($3, c, "="); s += c[2] }
                END { print s + 0 }' f77-$v.log)
  [ "$served" = 2 ] || bad "pdgemm_f77 ($v): pumma computed $served of its 2 PDGEMM calls"
  echo "examples: pdgemm_f77 ($v, 3 processes): $(grep -o 'PASSED$\|FAILED$' f77-$v.log)," \
       "pumma computed $served of its 2 PDGEMM calls"
done

run f90 4 ./xpumma_f90
grep -q '^[1-9][0-9]* passed, 0 failed$' f90.log || bad "pumma_f90"
echo "examples: pumma_f90 (4 processes): $(grep 'passed,' f90.log || echo no result)"
run c 2 ./xpumma_c
grep -q '^[1-9][0-9]* passed, 0 failed$' c.log || bad "pumma_c"
echo "examples: pumma_c (2 processes): $(grep 'passed,' c.log || echo no result)"
run het 3 -x PUMMA_SPEEDS=18,1,1 ./xpumma_het
grep -q '^[1-9][0-9]* passed, 0 failed$' het.log || bad "pumma_het_f90"
grep -q '^pumma-stats: elements_sent p0=[0-9]* p1=[0-9]* p2=[0-9]* total=[1-9]' het.log \
  || bad "pumma_het_f90: no elements_sent line in PUMMA_STATS"
# every process's time in the multiply: positive, of which the local
# multiply a positive part
awk -F'[ =]' '/^pumma-stats: het_time/ { for (i = 3; i <= 7; i += 2) t[i] = $(i + 1); nt++ }
              /^pumma-stats: het_gemm/ { for (i = 3; i <= 7; i += 2) g[i] = $(i + 1); ng++ }
              END { if (nt != 1 || ng != 1) exit 1
                    for (i = 3; i <= 7; i += 2) if (!(g[i] > 0 && g[i] <= t[i])) exit 1 }' het.log \
  || bad "pumma_het_f90: het_time/het_gemm lines missing, or a process's multiply time not within its call time"
echo "examples: pumma_het_f90 (3 processes, PUMMA_SPEEDS=18,1,1): $(grep 'passed,' het.log || echo no result);" \
     "$(grep -o 'elements_sent.*' het.log); $(grep -o 'het_gemm.*' het.log)"

grep -h '^FAILED' ./*.log | head -20
exit $fail
