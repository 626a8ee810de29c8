# simenv.sh -- sourced by smpi/scale.sh and smpi/models*.sh (from TIMING/,
# with $here set to it): the environment of a simulated run under the
# compute model. Sets ref (the compute model's rate, flop/s: smpirun's
# smpi/host-speed) and exports the rest.
ref=$(sed -n 's/^machine .*ref=\([0-9.e+-]*\).*/\1/p' out/smpi-compute)
export PUMMA_SMPI_COMPUTE=$here/out/smpi-compute OPENBLAS_NUM_THREADS=1
# Every simulated rank lives in this one process and shares its malloc,
# whose heap top went back to the system between calls and came back as
# fresh pages: faults and clears that SMPI charged to whichever rank took
# them (an 8192 x 64 x 8192 pumma call at 16x16 took 1.27-1.99 ms with
# them, 0.90-0.96 without; ScaLAPACK's 1.06-1.17 either way). pumma's own
# build keeps its temporaries for the next call (pumma_mem.c's arena,
# which simulated builds leave to malloc), and a rank of a real job
# has its heap to itself: malloc here keeps what it took, for every
# implementation alike.
export MALLOC_MMAP_THRESHOLD_=${MALLOC_MMAP_THRESHOLD_:-1073741824}
export MALLOC_TRIM_THRESHOLD_=${MALLOC_TRIM_THRESHOLD_:-4294967295}
export MALLOC_TOP_PAD_=${MALLOC_TOP_PAD_:-268435456}
# no decision file of this machine's
export PUMMA_DECISION_FILE=${PUMMA_DECISION_FILE:-off}
# smpirun's settings for the models' runs (smpi/models*.sh): links that do
# what the platform says (no TCP factors); a failed MPI_Test costs 0.1 us;
# mpich's collectives (SMPI's default allgather is P^2 messages, hours at
# 256 ranks); pure mode, the local work charged by the compute model; and
# messages up to 64 KiB sent eagerly, as an MPI's eager protocol sends them
# (SMPI's default starts every transfer when its receive is posted: a
# stream of small messages then pays the latency each, g(0) = L).
# At most JOBS runs at once (smpi/models*.sh): `job CMD ARGS...` starts
# one in the background, first waiting for a slot; `jobs_wait` waits for
# the rest, and fails if any of them did.
jobs_n=0 jobs_fail=0
job() {
    if [ "$jobs_n" -ge "${JOBS:-1}" ]; then
        wait -n || jobs_fail=1
        jobs_n=$((jobs_n - 1))
    fi
    "$@" &
    jobs_n=$((jobs_n + 1))
}
jobs_wait() {
    while [ "$jobs_n" -gt 0 ]; do
        wait -n || jobs_fail=1
        jobs_n=$((jobs_n - 1))
    done
    [ "$jobs_fail" = 0 ]
}
SMPI_CFG=(--cfg=smpi/test:1e-7 "--cfg=smpi/host-speed:${ref}f"
          --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
          --cfg=smpi/coll-selector:mpich --cfg=smpi/simulate-computation:no
          --cfg=smpi/async-small-thresh:65536 --log=root.thres:warning)
