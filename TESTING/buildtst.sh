#!/usr/bin/env bash
# buildtst.sh "MPIEXEC" -- pumma's two builds and their consumers, in a
# temporary directory (never in the source tree), as a site or a user would
# meet them (make run-build; the tree's lib/ must be built):
#   cmake     CMake configures, builds and installs the source tree into a
#             prefix; the library exports the same symbols as the
#             Makefile's, the generated headers are the same
#   consumer  an outside CMake project, find_package(pumma) and
#             pumma::pumma only, builds EXAMPLES/pumma_c.c and
#             pumma_f90.f90 (USE pumma) against that prefix; run on 2
#             processes they pass, the C one loads the prefix's
#             libpumma.so.MAJOR, and pumma computed all 3 of its PDGEMM
#             calls (pdgemm_ included: PUMMA_STATS)
#   pkgconfig `make install PREFIX=... LIBDIR=lib64`: nothing in lib/,
#             pumma.pc's libdir is lib64; the same program built with
#             mpicc and `pkg-config --libs pumma`, then statically with
#             plain cc and `pkg-config --static` (MPI from Requires.private),
#             each run as above; `make uninstall` with LIBDIR=lib64 removes all
#   noapt     a copy of the source tree as a clone has it (tracked and
#             unignored files: no make.inc, no lib/), with apt-get, apt,
#             dpkg, dpkg-query, sudo, yum and dnf replaced by failing
#             scripts first on PATH and, where `unshare -m` works, ScaLAPACK's
#             test programs gone: `make lib` and `make install` succeed and
#             run none of them; `make deps` does reach them (the fakes work)
#   tools     every SRC/tools/pumma_X.c is installed as bin/pumma-X by both
#             builds (nothing to check when SRC/tools has none)
# Each step prints "buildtst: STEP ok (N s)" or FAILED lines; the last line
# is "buildtst: N passed, N failed". The work directory is removed when all
# pass, kept (and named) otherwise.
set -u
MPIEXEC=${1:-mpiexec --oversubscribe}
TOP=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1 PUMMA_DECISION_FILE=off
# (nothing of the caller's: a make that runs this passes its flags on)
unset PKG_CONFIG_PATH CMAKE_PREFIX_PATH PUMMA_STATS MAKEFLAGS MFLAGS MAKELEVEL
T=$(mktemp -d "${TMPDIR:-/tmp}/pumma-buildtst.XXXXXX")
JOBS=${JOBS:-2}
# The two builds of the library here check the build systems, not the
# code: unoptimized (CMake's Debug, make's CCFLAGS without -O3), they
# take a third of the time (50 s of the CI's time with -O3).
QUICK="CCFLAGS=-O0 -fPIC -Wall -Wextra -Wno-unused-parameter"
npass=0; nfail=0; stepfail=0
bad() { echo "FAILED buildtst: $step: $*"; stepfail=1; }
begin() { step=$1; stepfail=0; t0=$(date +%s); }
end() {
  if [ $stepfail -eq 0 ]; then npass=$((npass + 1)); echo "buildtst: $step ok ($(( $(date +%s) - t0 )) s)"
  else nfail=$((nfail + 1)); fi
}
# quiet LOG CMD...: runs CMD with its output in $T/LOG, shown on failure.
quiet() { local log=$T/$1; shift; "$@" > "$log" 2>&1 || { tail -n 25 "$log"; return 1; }; }

# check_run NAME BINARY LIBDIR: the binary loads libpumma from LIBDIR (or,
# LIBDIR "static", no libpumma at all), passes on 2 processes, and pumma
# computed its 3 PDGEMM calls (pdgemm_ and 2 of pumma_pdgemm_opts).
check_run() {
  local name=$1 bin=$2 libdir=$3 got served
  got=$(ldd "$bin" | awk '/libpumma/ { print $3 }')
  if [ "$libdir" = static ]; then
    [ -z "$got" ] || bad "$name loads $got, though linked statically"
  else
    [ "$got" = "$libdir/libpumma.so.${VERSION%%.*}" ] || bad "$name loads libpumma from '$got', not $libdir"
  fi
  PUMMA_STATS=1 $MPIEXEC -n 2 "$bin" > "$T/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || { tail -n 20 "$T/$name.log"; bad "$name exited with $rc"; }
  grep -q '^[1-9][0-9]* passed, 0 failed$' "$T/$name.log" || bad "$name: $(grep 'FAILED\|passed,' "$T/$name.log" | head -5)"
  served=$(awk '/^pumma-stats: PDGEMM calls=/ { split($3, c, "="); s += c[2] } END { print s + 0 }' "$T/$name.log")
  [ "$served" = 3 ] || bad "$name: pumma computed $served of its 3 PDGEMM calls"
}

VERSION=$(sed -n 's/^#define PUMMA_VERSION "\(.*\)"/\1/p' "$TOP/SRC/include/pumma.h")
TOOLS=$(cd "$TOP" && for s in SRC/tools/pumma_*.c; do [ -e "$s" ] && basename "$s" .c | tr _ -; done)
[ -f "$TOP/lib/libpumma.so" ] || { echo "buildtst: $TOP/lib is not built: run make first"; exit 1; }

# ------------------------------------------------------------------ cmake
begin cmake
CP=$T/cmake-prefix
if quiet cmake-configure.log cmake -S "$TOP" -B "$T/cmake-build" -DCMAKE_INSTALL_PREFIX="$CP" -DCMAKE_BUILD_TYPE=Debug &&
   quiet cmake-build.log cmake --build "$T/cmake-build" -j "$JOBS" &&
   quiet cmake-install.log cmake --install "$T/cmake-build"; then
  for f in lib/libpumma.a lib/libpumma.so "lib/libpumma.so.$VERSION" include/pumma.h include/pumma.mod \
           include/pumma.fh include/pumma_codes.fh include/pumma_mangle.h lib/pkgconfig/pumma.pc \
           lib/cmake/pumma/pummaConfig.cmake lib/cmake/pumma/pummaConfigVersion.cmake; do
    [ -e "$CP/$f" ] || bad "$f not installed"
  done
  soname=$(readelf -d "$CP/lib/libpumma.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
  [ "$soname" = "libpumma.so.${VERSION%%.*}" ] || bad "soname '$soname'"
  exports() { nm -D --defined-only "$1" | awk '{ print $3 }' | sort; }
  cmp -s <(exports "$CP/lib/libpumma.so") <(exports "$TOP/lib/libpumma.so") \
    || bad "libpumma.so exports differ from the Makefile's: $(diff <(exports "$CP/lib/libpumma.so") <(exports "$TOP/lib/libpumma.so") | head -5 | tr '\n' ' ')"
  for h in pumma_mangle.h pumma_codes.fh pumma.h pumma.fh; do
    cmp -s "$CP/include/$h" "$TOP/include/$h" || bad "include/$h differs from the Makefile's"
  done
else
  bad "cmake configure, build or install failed (logs in $T)"
fi
end

# ------------------------------------------------------------------ consumer
begin consumer
mkdir -p "$T/consumer"
cp "$TOP/EXAMPLES/pumma_c.c" "$TOP/EXAMPLES/pumma_f90.f90" "$T/consumer/"
cat > "$T/consumer/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.18)
project(consumer C Fortran)
find_package(pumma REQUIRED)
add_executable(xpumma_c pumma_c.c)
target_link_libraries(xpumma_c PRIVATE pumma::pumma)
add_executable(xpumma_f90 pumma_f90.f90)
target_link_libraries(xpumma_f90 PRIVATE pumma::pumma)
EOF
if quiet consumer-configure.log cmake -S "$T/consumer" -B "$T/consumer/build" -DCMAKE_PREFIX_PATH="$CP" &&
   quiet consumer-build.log cmake --build "$T/consumer/build"; then
  check_run consumer "$T/consumer/build/xpumma_c" "$CP/lib"
  # USE pumma: the installed module, through pumma::pumma's include directory
  $MPIEXEC -n 2 "$T/consumer/build/xpumma_f90" > "$T/consumer-f90.log" 2>&1 \
    && grep -q '^[1-9][0-9]* passed, 0 failed$' "$T/consumer-f90.log" \
    || bad "pumma_f90.f90 (USE pumma): $(tail -n 3 "$T/consumer-f90.log" | tr '\n' ' ')"
else
  bad "the find_package(pumma) project did not build (logs in $T)"
fi
end

# ------------------------------------------------------------------ pkgconfig
begin pkgconfig
MP=$T/make-prefix
if quiet make-install.log make -C "$TOP" --no-print-directory install PREFIX="$MP" LIBDIR=lib64; then
  [ -e "$MP/lib" ] && bad "make install LIBDIR=lib64 left $(cd "$MP" && find lib | head -3 | tr '\n' ' ')"
  export PKG_CONFIG_PATH=$MP/lib64/pkgconfig
  libdir=$(pkg-config --variable=libdir pumma)
  [ "$libdir" = "$MP/lib64" ] || bad "pumma.pc's libdir is '$libdir'"
  cd "$T" && cp "$TOP/EXAMPLES/pumma_c.c" . || exit 1
  if quiet pc-shared.log mpicc -std=c99 $(pkg-config --cflags pumma) -o xpc_shared pumma_c.c \
       -Wl,-rpath,"$libdir" $(pkg-config --libs pumma); then
    check_run pc-shared "$T/xpc_shared" "$libdir"
  else bad "mpicc with pkg-config --libs pumma failed"; fi
  # libpumma.a by its path in -lpumma's place; plain cc: MPI's flags and
  # libraries come from pumma.pc's Requires.private
  if quiet pc-static.log cc -std=c99 $(pkg-config --cflags pumma) -o xpc_static pumma_c.c \
       $(pkg-config --static --libs pumma | sed "s|-lpumma|$libdir/libpumma.a|"); then
    check_run pc-static "$T/xpc_static" static
  else bad "cc with pkg-config --static --libs pumma failed"; fi
  unset PKG_CONFIG_PATH
  quiet make-uninstall.log make -C "$TOP" --no-print-directory uninstall PREFIX="$MP" LIBDIR=lib64 \
    || bad "make uninstall failed"
  left=$(find "$MP" -type f -o -type l)
  [ -z "$left" ] || bad "make uninstall LIBDIR=lib64 left $(echo "$left" | head -3 | tr '\n' ' ')"
else
  bad "make install PREFIX=$MP LIBDIR=lib64 failed"
fi
end

# ------------------------------------------------------------------ noapt
begin noapt
C=$T/clone; mkdir -p "$C" "$T/fakebin"
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | grep -zv '^make\.inc$' \
   | tar --null --no-recursion --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$C"
for p in apt-get apt dpkg dpkg-query sudo yum dnf; do
  printf '#!/bin/sh\necho "%s $*" >> "%s"\nexit 1\n' "$p" "$T/fakebin.log" > "$T/fakebin/$p"
  chmod +x "$T/fakebin/$p"
done
TESTERS=/usr/lib/x86_64-linux-gnu/scalapack
# in_noapt CMD...: CMD with the fakes first on PATH and, where a private
# mount namespace can be had, ScaLAPACK's testers (Debian's
# scalapack/openmpi-tests and mpich-tests) gone: an empty directory over
# their parent (in that namespace only: the system is not touched).
if [ -d "$TESTERS" ] && unshare -m true 2>/dev/null; then
  mkdir -p "$T/empty"; hide="mount --bind $T/empty $TESTERS &&"; how="ScaLAPACK's testers gone, "
else hide=""; how=""; fi
in_noapt() { PATH=$T/fakebin:$PATH ${hide:+unshare -m} sh -c "$hide \"\$@\"" sh "$@"; }
if [ -e "$C/make.inc" ] || [ -e "$C/lib" ]; then bad "the copy is not clean"; fi
if quiet noapt-lib.log in_noapt make -C "$C" -j "$JOBS" lib "$QUICK" &&
   quiet noapt-install.log in_noapt make -C "$C" install PREFIX="$T/clone-prefix" "$QUICK"; then
  [ -e "$C/lib/libpumma.so" ] && [ -e "$T/clone-prefix/lib/libpumma.so" ] && [ -e "$C/include/pumma.mod" ] \
    || bad "make lib / make install built no libpumma.so or pumma.mod"
  cmp -s "$C/make.inc" "$C/make.inc.example" || bad "make.inc was not made from make.inc.example"
else
  bad "make lib or make install failed with no package manager (${how}logs in $T)"
fi
[ -s "$T/fakebin.log" ] && bad "make lib / make install ran: $(sort -u "$T/fakebin.log" | head -3 | tr '\n' ';')"
# the fakes are really in the way: make deps reaches them, and fails
in_noapt make -C "$C" deps > "$T/noapt-deps.log" 2>&1 && bad "make deps passed with a failing dpkg-query"
[ -s "$T/fakebin.log" ] || bad "make deps never reached the fake package manager"
[ $stepfail -eq 0 ] && echo "buildtst: noapt: ${how}make lib, make install ran no package manager; make deps did"
end

# ------------------------------------------------------------------ tools
begin tools
for t in $TOOLS; do
  for d in "$CP/bin" "$T/clone-prefix/bin"; do
    [ -x "$d/$t" ] || bad "$d/$t is not installed"
  done
done
# pumma-info of each build says which built it, and the installed version
for b in "$CP/bin:cmake" "$T/clone-prefix/bin:make"; do
  d=${b%%:*} sys=${b##*:}
  [ -x "$d/pumma-info" ] || continue
  v=$("$d/pumma-info" --version)
  [ "$v" = "pumma $VERSION" ] || bad "$d/pumma-info --version: \"$v\""
  "$d/pumma-info" > "$T/info-$sys.log" 2>&1 || bad "$d/pumma-info failed: $(tail -n 3 "$T/info-$sys.log")"
  grep -Eq "^  built by +$sys( |$)" "$T/info-$sys.log" || bad "$d/pumma-info does not say $sys built it"
done
[ -n "$TOOLS" ] && [ $stepfail -eq 0 ] && echo "buildtst: tools: $(echo $TOOLS) installed by CMake and make; pumma-info names each build"
[ -z "$TOOLS" ] && echo "buildtst: tools: SRC/tools has none"
end

echo "buildtst: $npass passed, $nfail failed"
if [ $nfail -eq 0 ]; then rm -rf "$T"; else echo "buildtst: logs kept in $T"; fi
[ $nfail -eq 0 ]
