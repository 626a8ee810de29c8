#!/usr/bin/env bash
# Installs, from Debian packages, whatever pumma's tests, timing and
# examples need that this machine lacks, and the packages named as
# arguments (`make check-valgrind`: valgrind). `make deps` runs it, and so do
# make test, timing, tune, bench and check-*; building or installing the
# library (make, make lib, make install) never does.
# Non-interactive; safe to run again (it does nothing when all is present).
# On a system without apt-get it installs nothing: it says so and succeeds,
# and what make.inc names must be there already.
set -eu
PKGS="openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libblas-dev liblapack-dev
      libopenblas-dev gfortran scalapack-mpi-test make gcc python3 python3-matplotlib
      pkgconf cmake libsimgrid-dev $*"
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "INSTALL/deps.sh: no apt-get here, nothing installed. The tests and timing need MPI,"
  echo "  ScaLAPACK (and its test programs), a BLAS, gfortran, pkg-config, cmake and python3"
  echo "  with matplotlib: install them yourself and name them in make.inc."
  exit 0
fi
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "INSTALL/deps.sh: installing:$missing"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
