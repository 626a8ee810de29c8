#!/usr/bin/env bash
# netns.sh -- MPI ranks on one machine that talk over real TCP links of a
# chosen bandwidth: one network namespace per rank, each joined to a
# bridge by a veth pair shaped with tc (token bucket, both directions).
# Root only. Every process of a job runs in its own namespace, so all
# traffic between ranks crosses two shaped links (star through the bridge;
# the linear array of the heterogeneous schedules is the library's routing
# over it, PUMMA_TOPOLOGY / OPTS(PUMMA_OPT_TOPO)).
#
#   netns.sh up NRANKS RATE     create pummans0..NRANKS-1 (RATE as tc
#                               takes it: 100mbit, 1gbit; "none": unshaped)
#   netns.sh run NRANKS CMD...  mpiexec CMD over them, rank k in pummansk,
#                               Open MPI's TCP transport only; with
#                               NETNS_OF=i0,i1,... rank k in pummans(ik)
#                               instead (one rank per item): processes of
#                               one emulated processor share its link
#   netns.sh down NRANKS        remove them (also safe when partly made)
#
# A platform of clusters (issue 15; the grid of sites of Nasri, Steffenel
# and Trystram 2007, scaled):
#
#   netns.sh clusters-up SIZES INTRA INTER LATS
#       SIZES  ranks per cluster, "3,3,3"; rank k of the job in
#              namespace pummacnsk, clusters in order (10.78.C.k+1)
#       INTRA  each rank's link to its cluster's bridge (tc, "1gbit")
#       INTER  each cluster's uplink to the others ("100mbit")
#       LATS   one-way latencies between clusters, seconds, upper
#              triangle row by row: "3e-3,9e-3,5e-3" (C1-C2, C1-C3, C2-C3)
#       Packets between clusters are routed through a tun device to
#       linkemu (linkemu.c), which adds the uplink's serialisation and the
#       latency, for MPI_Bcast and pumma alike. Inside a cluster the
#       latency is the bridge's own (tens of microseconds).
#   netns.sh clusters-run CMD...   mpiexec CMD, one rank per namespace
#                               (NETNS_OF=i0,i1,... places rank k in
#                               pummacns(ik) instead)
#   netns.sh clusters-down      remove it all, restore ip_forward
#
# The kernel has no netem here, so links get bandwidth only; latency can be
# emulated by pumma itself for its heterogeneous multiplies (PUMMA_LATENCY,
# see doc/environment.md), passed to the ranks like every PUMMA_* variable.
set -u
SUBNET=10.77.0
BR=pummabr
cmd=${1:-}; n=${2:-3}

down() {
  for ((k = 0; k < n; k++)); do
    ip netns del pummans$k 2>/dev/null
    ip link del pummav$k 2>/dev/null
  done
  ip link del $BR 2>/dev/null
  return 0
}

# mpiexec CMD, rank k in namespace PREFIXk (NETNS_OF=i0,i1,...: in
# PREFIX(ik) instead), Open MPI's TCP transport on NET only.
launch() {
  local prefix=$1 nr=$2 net=$3 app=() of=() xs=()
  shift 3
  export PMIX_MCA_ptl_tcp_remote_connections=1
  export PMIX_MCA_ptl_tcp_if_include=$net
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  IFS=, read -r -a of <<< "${NETNS_OF:-}"
  if [ ${#of[@]} -eq 0 ]; then
    for ((k = 0; k < nr; k++)); do of+=($k); done
  fi
  for ((k = 0; k < ${#of[@]}; k++)); do
    [ $k -gt 0 ] && app+=(":")
    app+=(-n 1 ip netns exec "$prefix${of[k]}" "$@")
  done
  # -x: the environment pumma reads, passed to every rank
  for v in $(env | grep -o '^\(PUMMA\|OPENBLAS\)_[A-Z_]*'); do xs+=(-x "$v"); done
  exec mpiexec --oversubscribe --mca btl tcp,self \
    --mca btl_tcp_if_include "$net" --mca oob_tcp_if_include "$net" \
    "${xs[@]}" "${app[@]}"
}

CSTATE=/run/pumma-clusters
CBASE=10.78

cdown() {
  [ -f $CSTATE ] || return 0
  . $CSTATE
  [ -n "${EMU_PID:-}" ] && kill "$EMU_PID" 2>/dev/null
  for ((k = 0; k < NRANKS; k++)); do
    ip netns del pummacns$k 2>/dev/null
    ip link del pummacv$k 2>/dev/null
  done
  for ((c = 1; c <= NCLUSTERS; c++)); do ip link del pummacbr$c 2>/dev/null; done
  while ip rule del pref 7701 2>/dev/null; do :; done
  ip rule del pref 7700 2>/dev/null
  ip route flush table 77 2>/dev/null
  ip link del pummawan 2>/dev/null
  sysctl -qw net.ipv4.ip_forward="${OLD_FORWARD:-0}"
  rm -f $CSTATE
  return 0
}

case "$cmd" in
clusters-up)
  sizes=${2:?sizes, e.g. 3,3,3}; intra=${3:?intra rate}; inter=${4:?inter rate}
  lats=${5:?latencies, e.g. 3e-3,9e-3,5e-3}
  cdown
  here=$(cd "$(dirname "$0")" && pwd)
  [ -x "$here/linkemu" ] || { echo "netns.sh: build linkemu first (make linkemu)"; exit 1; }
  IFS=, read -r -a sz <<< "$sizes"
  nc=${#sz[@]}; nr=0
  for s in "${sz[@]}"; do nr=$((nr + s)); done
  inter_bps=$(echo "$inter" | sed 's/gbit$/e9/; s/mbit$/e6/; s/kbit$/e3/; s/bit$//')
  echo "NRANKS=$nr NCLUSTERS=$nc OLD_FORWARD=$(sysctl -n net.ipv4.ip_forward)" > $CSTATE
  set -e
  sysctl -qw net.ipv4.ip_forward=1
  sysctl -qw net.ipv4.conf.all.rp_filter=0
  ip tuntap add dev pummawan mode tun
  sysctl -qw net.ipv4.conf.pummawan.rp_filter=0
  ip link set pummawan up
  # what arrives from a cluster's bridge for another cluster goes to the
  # emulator; what it writes back (arriving on pummawan) is routed on
  ip route add $CBASE.0.0/16 dev pummawan table 77
  ip rule add pref 7700 iif pummawan lookup main
  k=0
  for ((c = 1; c <= nc; c++)); do
    br=pummacbr$c
    ip link add $br type bridge
    ip addr add $CBASE.$c.254/24 dev $br
    ip link set $br up
    sysctl -qw net.ipv4.conf.$br.rp_filter=0
    ip rule add pref 7701 iif $br to $CBASE.0.0/16 lookup 77
    for ((i = 0; i < ${sz[c-1]}; i++, k++)); do
      ip netns add pummacns$k
      ip link add pummacv$k type veth peer name eth0 netns pummacns$k
      ip link set pummacv$k master $br
      ip link set pummacv$k up
      ip -n pummacns$k addr add $CBASE.$c.$((k + 1))/24 dev eth0
      ip -n pummacns$k link set eth0 up
      ip -n pummacns$k link set lo up
      ip -n pummacns$k route add default via $CBASE.$c.254
      tc qdisc add dev pummacv$k root tbf rate "$intra" burst 64kb latency 400ms
      ip netns exec pummacns$k tc qdisc add dev eth0 root tbf rate "$intra" \
        burst 64kb latency 400ms
    done
  done
  # the emulator, above the ranks' priority: its timing is the latency
  nice -n -15 "$here/linkemu" pummawan "$inter_bps" "$lats" 2>/tmp/pumma-linkemu.log &
  echo "EMU_PID=$!" >> $CSTATE
  set +e
  echo "netns.sh: $nc clusters ($sizes ranks) on pummacbr*, links $intra, uplinks $inter, latencies $lats s"
  ;;
clusters-run)
  shift
  [ -f $CSTATE ] || { echo "netns.sh: no clusters (clusters-up first)"; exit 1; }
  . $CSTATE
  launch pummacns "$NRANKS" $CBASE.0.0/16 "$@"
  ;;
clusters-down)
  cdown
  ;;
up)
  rate=${3:?rate, e.g. 100mbit, or none}
  down
  set -e
  ip link add $BR type bridge
  ip addr add $SUBNET.254/24 dev $BR
  ip link set $BR up
  for ((k = 0; k < n; k++)); do
    ip netns add pummans$k
    ip link add pummav$k type veth peer name eth0 netns pummans$k
    ip link set pummav$k master $BR
    ip link set pummav$k up
    ip -n pummans$k addr add $SUBNET.$((k + 1))/24 dev eth0
    ip -n pummans$k link set eth0 up
    ip -n pummans$k link set lo up
    if [ "$rate" != none ]; then
      # egress of both ends: what the rank sends, and what it receives
      tc qdisc add dev pummav$k root tbf rate "$rate" burst 64kb latency 400ms
      ip netns exec pummans$k tc qdisc add dev eth0 root tbf rate "$rate" \
        burst 64kb latency 400ms
    fi
  done
  echo "netns.sh: $n namespaces on $BR ($SUBNET.0/24), links $rate"
  ;;
run)
  shift 2
  launch pummans "$n" $SUBNET.0/24 "$@"
  ;;
down)
  down
  ;;
*)
  sed -n '2,41p' "$0"
  exit 2
  ;;
esac
