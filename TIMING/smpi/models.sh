#!/bin/bash
# models.sh -- `make -C TIMING models-smpi` (doc/smpi.md, "The models
# judged"): pumma's models judged on simulated platforms, where ranks do
# not share this machine's 2 cores and the network is the platform's
# (issue 31). Each stage is a script of its own, writes its own
# out/*-smpi.* files and prints its judgement:
#
#   coll      the communication models' picks of variant and segment
#             (smpi/models-coll.sh: out/coll-smpi.csv, .txt)
#   search    the segment searches of Vadhiyar, Fagg and Dongarra, their
#             Table 2 (smpi/models-search.sh: out/search-smpi.csv, .txt)
#   exec      the execution-time models of Ichikawa and Kawai 2008
#             (smpi/models-exec.sh: out/exec-smpi.csv, .txt)
#   plan      the plan predictor (smpi/models-plan.sh: out/plan-smpi.csv, .txt)
#   clusters  the two-level broadcasts and layouts across clusters
#             (smpi/models-clusters.sh: out/clusters-{bcast,gemm}-smpi.*)
#
# STAGES picks them (default: all, in that order). Then the charts of
# every stage's file there is (models_charts.py: out/*-smpi.png). smpirun's settings are
# smpi/simenv.sh's SMPI_CFG for all. Run from TIMING/ after `make smpi` at
# the top and `make -C TIMING smpi-calibrate`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
ALL="coll search exec plan clusters"
STAGES=${STAGES:-$ALL}
for s in $STAGES; do
    case " $ALL " in *" $s "*) ;; *) echo "models.sh: unknown stage $s ($ALL)"; exit 1 ;; esac
done
t0=$(date +%s)
for s in $ALL; do
    case " $STAGES " in *" $s "*) ;; *) continue ;; esac
    echo "== models-smpi: stage $s ($(( $(date +%s) - t0 )) s)"
    bash "smpi/models-$s.sh"
done
# the charts, where matplotlib is (Debian's python3-matplotlib: make deps)
for py in ${PYTHON:-} python3 /usr/bin/python3; do
    if $py -c 'import matplotlib' > /dev/null 2>&1; then
        $py models_charts.py out
        break
    fi
done
echo "== models-smpi: $STAGES done in $(( $(date +%s) - t0 )) s"
