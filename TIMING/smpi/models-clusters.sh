#!/bin/bash
# models-clusters.sh -- the clusters stage of `make -C TIMING models-smpi`
# (smpi/models.sh; doc/smpi.md, "Clusters judged"): issue 31's multi-
# cluster part, which `make -C TIMING clusters` runs on one host's network
# namespaces (9 ranks), on simulated platforms of 32 to 128 ranks.
#
# (a) Broadcasts (xhiertim, TIMING/hiertim.c): on the `sites` platform
#     (smpi/platform.py: SITES sites of PER_SITE single-core hosts, 1 Gbps
#     LAN, 1 Gbps WAN of 5-15 ms between sites) for each SxN of
#     CL_SITES, CL_BYTES bytes from the first and the last rank, on the
#     line in rank order and dealt round the sites: MPI_Bcast (SMPI's
#     mpich selector), pumma's flat trees (linear, binomial), hier
#     (auto) and each ECEF heuristic against its prediction. Rows in
#     out/clusters-bcast-smpi.csv:
#       platform,sites,per_site,np,bytes,placement,root,method,seconds,predicted_s
# (b) PDGEMM across clusters (xhiergemm, TIMING/hiergemm.c): on
#     `clusters3` (8, 4, 4 hosts of 50, 25, 10 Gflop/s; 100 Mbps, 3-9 ms
#     between clusters), N of CL_GEMM_N: the two-level layouts (square-
#     corner, rect3; speeds from the simulated hosts, PUMMA_SPEEDS_MEASURE)
#     and the priced shares (PUMMA_GRID_SHARES) against flat block-cyclic
#     on 4x4, with overlap (het-overlap, the default) and without
#     (PUMMA_ALGO=het; the flat calls are block-cyclic and ignore it). Rows
#     in out/clusters-gemm-smpi.csv: platform,n,layout,overlap,seconds.
# smpi/clusters.py writes the summaries (out/clusters-bcast-smpi.txt,
# out/clusters-gemm-smpi.txt): ECEF against the flat binomial (target: 2x
# at 4+ sites), the two-level layouts against flat (target: 30% faster
# with speeds alone; the priced shares, which may idle whole clusters,
# apart).
#
# Pure mode (simulate-computation:no, the compute model of out/smpi-
# compute): deterministic, so CL_REPS (1) is enough. One simulation at a
# time. PUMMA_CLUSTERS=measure: pumma finds the sites itself.
# Variables: CL_SITES (4x8 4x16 4x32 8x8 8x16), CL_BYTES (65536 1048576),
# CL_GEMM_N (4096 8192), CL_REPS (1), SMPI_DIR. Run from TIMING/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
bin=${SMPI_DIR:-$here/../build-smpi}/bin
for p in xhiertim xhiergemm; do
    [ -x "$bin/$p" ] || { echo "models-clusters.sh: $bin/$p missing: make smpi SCALAPACK_SRC=... at the top"; exit 1; }
done
[ -f out/smpi-compute ] || { echo "models-clusters.sh: out/smpi-compute missing: make -C TIMING smpi-calibrate first"; exit 1; }
CL_SITES=${CL_SITES:-4x8 4x16 4x32 8x8 8x16}
CL_BYTES=${CL_BYTES:-65536 1048576}
CL_GEMM_N=${CL_GEMM_N:-4096 8192}
REPS=${CL_REPS:-1}
# shellcheck source=smpi/simenv.sh
. smpi/simenv.sh
mkdir -p out/clusters-smpi
d=out/clusters-smpi
rm -f "$d"/*.csv "$d"/*.log

sim() {   # np platform program args...
    local np=$1 plat=$2
    shift 2
    PUMMA_CLUSTERS=measure smpirun -np "$np" -platform "$d/$plat.xml" -hostfile "$d/$plat.hosts" \
        "${SMPI_CFG[@]}" "$@"
}

# (a) broadcasts
bc=out/clusters-bcast-smpi.csv
echo "platform,sites,per_site,np,bytes,placement,root,method,seconds,predicted_s" > "$bc"
for sn in $CL_SITES; do
    s=${sn%x*} n=${sn#*x}
    python3 smpi/platform.py sites "$d/sites-$sn" sites="$s" nodes="$n" > /dev/null
    for b in $CL_BYTES; do
        t0=$(date +%s)
        sim $((s * n)) "sites-$sn" "$bin/xhiertim" -b "$b" -r "$REPS" \
            -o "$d/bcast-$sn-$b.csv" > "$d/bcast-$sn-$b.log" 2>&1 || true
        # placement,root,method,median_s,min_s,predicted_s
        tail -n +2 "$d/bcast-$sn-$b.csv" 2>/dev/null |
            awk -F, -v s="$s" -v n="$n" -v b="$b" \
                '{printf "sites,%s,%s,%d,%s,%s,%s,%s,%s,%s\n", s, n, s*n, b, $1, $2, $3, $4, $6}' >> "$bc"
        echo "== sites $sn, $b bytes: $(grep -c . "$d/bcast-$sn-$b.csv" 2>/dev/null || echo 0) lines, $(( $(date +%s) - t0 )) s"
    done
done

# (b) PDGEMM on clusters3
gc=out/clusters-gemm-smpi.csv
echo "platform,n,layout,overlap,seconds" > "$gc"
python3 smpi/platform.py clusters3 "$d/clusters3" > /dev/null
for n in $CL_GEMM_N; do
    for ov in yes no; do
        t0=$(date +%s)
        algo=het-overlap
        [ $ov = no ] && algo=het
        PUMMA_ALGO=$algo sim 16 clusters3 "$bin/xhiergemm" -n "$n" -r "$REPS" \
            -o "$d/gemm-$n-$ov.csv" > "$d/gemm-$n-$ov.log" 2>&1 || true
        # n,method,median_s,min_s
        tail -n +2 "$d/gemm-$n-$ov.csv" 2>/dev/null |
            awk -F, -v ov="$ov" '{printf "clusters3,%s,%s,%s,%s\n", $1, $2, ov, $3}' >> "$gc"
        echo "== clusters3 N=$n overlap=$ov: $(( $(date +%s) - t0 )) s"
    done
done
PY=python3
for p in python3 /usr/bin/python3; do $p -c 'import csv' >/dev/null 2>&1 && { PY=$p; break; }; done
$PY smpi/clusters.py bcast "$bc" | tee out/clusters-bcast-smpi.txt
$PY smpi/clusters.py gemm "$gc" "$d"/gemm-*-yes.log | tee out/clusters-gemm-smpi.txt
