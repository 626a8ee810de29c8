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
# The kernel has no netem here, so links get bandwidth only; latency can be
# emulated by pumma itself for its heterogeneous multiplies (PUMMA_LATENCY,
# see README), passed to the ranks like every PUMMA_* variable.
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

case "$cmd" in
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
  export PMIX_MCA_ptl_tcp_remote_connections=1
  export PMIX_MCA_ptl_tcp_if_include=$SUBNET.0/24
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  app=()
  IFS=, read -r -a of <<< "${NETNS_OF:-}"
  if [ ${#of[@]} -eq 0 ]; then
    for ((k = 0; k < n; k++)); do of+=($k); done
  fi
  for ((k = 0; k < ${#of[@]}; k++)); do
    [ $k -gt 0 ] && app+=(":")
    app+=(-n 1 ip netns exec pummans${of[k]} "$@")
  done
  # -x: the environment pumma reads, passed to every rank
  xs=()
  for v in $(env | grep -o '^\(PUMMA\|OPENBLAS\)_[A-Z_]*'); do xs+=(-x "$v"); done
  exec mpiexec --oversubscribe --mca btl tcp,self \
    --mca btl_tcp_if_include $SUBNET.0/24 --mca oob_tcp_if_include $SUBNET.0/24 \
    "${xs[@]}" "${app[@]}"
  ;;
down)
  down
  ;;
*)
  sed -n '2,23p' "$0"
  exit 2
  ;;
esac
