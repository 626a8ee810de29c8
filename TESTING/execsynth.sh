#!/bin/bash
# execsynth.sh XEXECTOOL -- make exec's analysis (TIMING/xexectool) on a
# machine that follows NP-T exactly (exec-synth.models): the runs it would
# measure (synth), then fit and eval, which must recover the machine --
# every evaluation size's optimum found (the estimation error of Ichikawa
# and Kawai 2008 is 0), predictions exact -- and recommend, which must name
# the optimum eval measured. The optimum moves with N: one process at 500,
# two on 1x2 at 900, eight at 6000. Then a machine whose fast kinds
# have two processors each (exec-synth-net.models): they never cast alone,
# and must price their casts as their rolls. Prints PASSED/FAILED lines and
# "N passed, N failed".
tool=${1:-../TIMING/xexectool}
kinds=1:4:2,0.5:4:1
dir=out/execsynth
mkdir -p $dir
pass=0 fail=0
check() {   # check WHAT CONDITION...
    local what=$1; shift
    if "$@"; then echo "PASSED $what"; pass=$((pass + 1));
    else echo "FAILED $what"; fail=$((fail + 1)); fi
}
$tool synth $kinds 8 400,800,1200,1600,500,700,900,3000,6000 \
    exec-synth.models > $dir/runs.csv
check "synth writes every configuration's runs" \
    test "$(wc -l < $dir/runs.csv)" -gt 500
$tool eval $kinds 400,800,1200,1600 $dir/runs.csv > $dir/eval.txt
check "NP-T finds the optimum at every evaluation size" \
    grep -q '^NP-T: error <= 5% at 5 of 5 sizes (worst 0.0%); mean |prediction error| over all [0-9]* runs 0.0%' $dir/eval.txt
check "the optimum moves: one process at 500, 2x1+0x0 at 900, 4x2+0x0 at 6000" \
    bash -c "grep -qE '^ +500 +[0-9]+ +1x1\+0x0 1x1 ' $dir/eval.txt &&
             grep -qE '^ +900 +[0-9]+ +2x1\+0x0 1x2 ' $dir/eval.txt &&
             grep -qE '^ +6000 +[0-9]+ +4x2\+0x0 2x4 ' $dir/eval.txt"
$tool eval $kinds 400,800,1200,1600 $dir/runs.csv $dir/eval.csv synth > /dev/null
contract() {   # the rows models-smpi's exec-smpi.csv takes: NP-T's choice the best
    head -n 1 $dir/eval.csv | grep -qx 'platform,size,model,chosen,chosen_s,best,best_s' &&
        test "$(grep -c '^synth,[0-9]*,np-t,' $dir/eval.csv)" = 5 &&
        test "$(grep -c '^synth,[0-9]*,n-t,' $dir/eval.csv)" = 5 &&
        grep -q '^synth,6000,np-t,4x2+0x0/2x4,1.459[0-9e+-]*,4x2+0x0/2x4,1.459' $dir/eval.csv &&
        awk -F, 'NR > 1 && $3 == "np-t" && ($4 != $6 || $5 != $7) { bad = 1 } END { exit bad }' $dir/eval.csv
}
check "eval's CSV: a row a size and model, NP-T's choice the optimum" contract
$tool fit $kinds 400,800,1200,1600 $dir/runs.csv $dir/fitted.models > /dev/null
$tool recommend $dir/fitted.models $kinds -N 6000 -b 2 -P 8 > $dir/rec.txt
check "recommend names eval's optimum at N = 6000 (at most 8 processes)" \
    grep -qE '^best +8 +4x2\+0x0 +2x4 +auto +1.4596e\+00 s' $dir/rec.txt
$tool recommend $dir/fitted.models $kinds -N 6000 -b 2 > $dir/rec-all.txt
unbound() {   # 12 processes, predicted below the 8-process optimum
    grep -qE '^best +12 +4x2\+4x1 ' $dir/rec-all.txt &&
        awk '/^best/ { t = $6 } END { exit !(t + 0 < 1.4596) }' $dir/rec-all.txt
}
check "... and without the bound, all 12 processes, predicted faster" unbound
$tool recommend $dir/fitted.models 1:4:2,0.25:4:1 -N 1000 > $dir/bad.txt 2>&1
check "recommend refuses kinds of other speeds" test $? -ne 0
# Kinds of two processors each: alone they never cast (1 x 1, 1 x 2), so
# the casts of their configurations on 2 x 2 must be priced as their rolls
# (pumma_npt_fit: k5 = k4), not left free.
nk=2:2:1,1:2:1,0.5:4:1
$tool synth $nk 8 400,800,1200,1600,500,700,900,3000,6000 \
    exec-synth-net.models > $dir/net-runs.csv
$tool eval $nk 400,800,1200,1600 $dir/net-runs.csv > $dir/net-eval.txt
check "kinds of two processors: casts priced, every run predicted, every optimum found" \
    grep -q '^NP-T: error <= 5% at 5 of 5 sizes (worst 0.0%); mean |prediction error| over all [0-9]* runs 0.0%' $dir/net-eval.txt
check "... on a machine where 2x1+2x1+0x0 on 2x2 (casts) is not the optimum at 3000 and 6000" \
    bash -c "grep -qE '^ +900 +[0-9]+ +1x1\+0x0\+0x0 1x1 ' $dir/net-eval.txt &&
             grep -qE '^ +3000 +[0-9]+ +2x1\+0x0\+0x0 1x2 ' $dir/net-eval.txt &&
             grep -qE '^ +6000 +[0-9]+ +2x1\+0x0\+0x0 1x2 ' $dir/net-eval.txt"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
