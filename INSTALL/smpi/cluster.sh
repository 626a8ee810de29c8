#!/bin/sh
# cluster.sh NAME HOSTS SPEED BW LAT: a SimGrid platform of one homogeneous
# cluster (HOSTS hosts of SPEED flop/s each, e.g. 50Gf, one link of BW and
# LAT per host to a backbone that never limits, e.g. 25Gbps and 1us) in
# NAME.xml, and a hostfile of its hosts in NAME.hosts. The smoke run's
# platform (INSTALL/smpi.mk); the platforms that stand for real machines
# are TIMING's (doc/smpi.md).
set -eu
[ $# -eq 5 ] || { echo "usage: cluster.sh NAME HOSTS SPEED BW LAT" >&2; exit 2; }
name=$1 n=$2 speed=$3 bw=$4 lat=$5
cat > "$name.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- cluster.sh $name $n $speed $bw $lat: $n hosts of $speed, links of $bw and $lat -->
<platform version="4.1">
  <cluster id="$name" prefix="node-" suffix="" radical="0-$((n - 1))"
           speed="$speed" bw="$bw" lat="$lat" bb_bw="$((n * 1000))Gbps" bb_lat="0us"/>
</platform>
XML
i=0; : > "$name.hosts"
while [ $i -lt "$n" ]; do echo "node-$i" >> "$name.hosts"; i=$((i + 1)); done
