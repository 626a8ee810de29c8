#!/usr/bin/env bash
# Installs, from Debian packages, whatever pumma needs that this machine lacks,
# and the packages named as arguments (`make check-valgrind`: valgrind).
# Non-interactive; safe to run again (it does nothing when all is present).
set -eu
PKGS="openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libblas-dev liblapack-dev
      libopenblas-dev gfortran scalapack-mpi-test make gcc python3 python3-matplotlib
      pkgconf $*"
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
