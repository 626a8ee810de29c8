#!/bin/bash
# validate.sh MODE -- the simulated runs judged against real ones here
# (doc/smpi.md, "Validation"): TIMING's default cases (PUMMATIM.dat:
# square 1000 and 2000, the rank-64 update 3000x3000x64, the panels
# 4000x64x4000 and 64x4000x4000, 200^3, every TRANSA/TRANSB), on 1x1, 1x2
# and 2x1, pumma and ScaLAPACK, timed by the same driver (pgemmtim.c) run
# by Open MPI on this machine and by SMPI on this machine's platform
# (platform.py machine, from its tune file). MODE: real (the simulated
# ranks run their multiplies, each timed alone on a core) or model (the
# multiplies charged from out/smpi-compute: make smpi-calibrate first).
# Writes out/smpi-validate.csv: case,grid,M,N,K,trans,impl,real_s,sim_s
# (best of the repeats each), and a summary: the cases within 10%.
# Run from TIMING/ after `make smpi` at the top (build-smpi/).
set -euo pipefail
mode=${1:-real}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
sim=${SMPI_DIR:-$here/../build-smpi}/bin/xpgemmtim
[ -x "$sim" ] || { echo "validate.sh: $sim missing: make smpi SCALAPACK_SRC=... at the top"; exit 1; }
[ -x ./xpgemmtim ] || { echo "validate.sh: ./xpgemmtim missing: make xpgemmtim"; exit 1; }
mkdir -p out
# the cases: PUMMATIM.dat on 1x1 too, 5 repeats
sed -e 's/^[0-9]* *number of process grids.*/3                    number of process grids/' \
    -e 's/^1x2 2x1 .*/1x1 1x2 2x1              process grids/' \
    -e 's/^[0-9]* *number of repeats.*/5                    number of repeats/' \
    PUMMATIM.dat > out/validate.dat
mpirun_real=${MPIRUN:-mpiexec -n 2 --bind-to core -x LD_LIBRARY_PATH -x OPENBLAS_NUM_THREADS}
echo "== real (Open MPI, 2 ranks)"
$mpirun_real ./xpgemmtim -i out/validate.dat -o out/validate-real.csv > out/validate-real.txt
speed=""
extra=()
if [ "$mode" = model ]; then
    [ -f out/smpi-compute ] || { echo "validate.sh: out/smpi-compute missing: make smpi-calibrate"; exit 1; }
    speed="speed=$(sed -n 's/^machine .*ref=\([0-9.e+-]*\).*/\1/p' out/smpi-compute)"
    export PUMMA_SMPI_COMPUTE=$here/out/smpi-compute
fi
python3 smpi/platform.py machine out/machine $speed
hs=$(sed -n 's/.*speed="\([0-9.e+]*\)f".*/\1/p' out/machine.xml)
echo "== simulated (SMPI, machine platform, $mode compute)"
smpirun -np 2 -platform out/machine.xml -hostfile out/machine.hosts \
    --cfg=smpi/test:1e-7 --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 \
    --cfg=smpi/host-speed:${hs}f --log=root.thres:warning \
    "$sim" -i out/validate.dat -o out/validate-sim.csv > out/validate-sim.txt 2>&1 || true
python3 - "$mode" <<'PY'
import csv, sys
mode = sys.argv[1]
def rows(f):
    out = {}
    for r in csv.DictReader(open(f)):
        if r["impl"] in ("pumma", "scalapack"):
            out[(r["P"], r["Q"], r["M"], r["N"], r["K"], r["transa"] + r["transb"],
                 r["impl"])] = float(r["seconds"])
    return out
real, sim = rows("out/validate-real.csv"), rows("out/validate-sim.csv")
def case(M, N, K):
    if M == N == K: return "small" if int(M) < 500 else "square"
    if int(K) < 500: return "rank-k"
    return "panel"
n = ok = 0
with open("out/smpi-validate.csv", "w") as f:
    f.write("case,grid,M,N,K,trans,impl,real_s,sim_s\n")
    for k in sorted(real):
        if k not in sim: continue
        P, Q, M, N, K, tr, impl = k
        f.write("%s,%sx%s,%s,%s,%s,%s,%s,%.6g,%.6g\n" % (case(M, N, K), P, Q, M, N, K,
                tr, impl, real[k], sim[k]))
        n += 1
        ok += abs(sim[k] / real[k] - 1) <= 0.10
print("out/smpi-validate.csv: %d cases (%s compute), %d within 10%% of the real time"
      % (n, mode, ok))
PY
