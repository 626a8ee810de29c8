#!/bin/bash
# infotst.sh MPIEXEC -- the installed tools (doc/tools.md), from the
# specification:
#   - pumma-info --version prints the header's PUMMA_VERSION; without
#     arguments (no launcher) every PUMMA_* variable of the settings table
#     is listed once, "(default)" when unset, "(environment)" with its
#     value when set; the build part names the build system; a PUMMA_*
#     name pumma does not know is listed with the one it probably meant;
#   - the docs generated from the settings table (README's environment
#     table, doc/environment.md's lists) are what pumma-info --settings
#     prints (INSTALL/gendocs.sh --check), and a deliberate drift (a row
#     of a copy changed) is caught;
#   - a FIFO as the tune file: refused, never a hang;
#   - the tune and decision files: absent, then written by pumma-tune on 2
#     processes (measured here: "measured", "applies here yes"), then with
#     their keys changed to another host ("not measured", "no");
#   - --check against the truth: EXAMPLES/pdgemm_f77.f linked four ways
#     (-lpumma before ScaLAPACK; after it under --as-needed; before the
#     objects under --as-needed; libpumma.a whole) and run with
#     PUMMA_STATS=1: the program is served by pumma (pumma-stats lines)
#     exactly when --check says ok (status 0), else status 1; libpumma.a
#     as a plain archive: status 1, naming the routines ScaLAPACK's
#     solvers would not find in it; preloaded: ok; a text file: status 2.
# Prints PASSED/FAILED lines and "N passed, N failed"; status 1 when any
# failed.
mpiexec=${1:-mpiexec}
top=$(cd .. && pwd)
info=$top/bin/pumma-info
tune=$top/bin/pumma-tune
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1
for v in $(env | sed -n 's/^\(PUMMA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
dir=$PWD/out/info
rm -rf "$dir"; mkdir -p "$dir"
export PUMMA_TUNE_FILE=$dir/tune PUMMA_DECISION_FILE=$dir/decision
pass=0 fail=0
check() {   # check WHAT 'CONDITION': the condition evaluated here
    if eval "$2"; then echo "PASSED $1"; pass=$((pass + 1));
    else echo "FAILED $1"; fail=$((fail + 1)); fi
}
row() { grep -E "^  $1([ :]|$)" "$dir/$2.out"; }   # row NAME LOG: its line

version=$(sed -n 's/^#define PUMMA_VERSION "\(.*\)"/\1/p' "$top/SRC/include/pumma.h")
out=$("$info" --version); status=$?
check "--version prints pumma $version (status $status)" \
    '[ $status = 0 ] && [ "$out" = "pumma $version" ]'

# The generated docs: as the table makes them; a copy drifted fails
(cd "$top" && bash INSTALL/gendocs.sh "$info" --check) > "$dir/docs.out" 2>&1; status=$?
check "README and doc/environment.md are what the settings table generates (status $status$(head -1 "$dir/docs.out" | sed 's/^/: /'))" \
    '[ $status = 0 ]'
mkdir -p "$dir/drift/doc"
sed 's/| auto, refresh, off | auto | shared |/| auto, off | auto | shared |/' "$top/README" > "$dir/drift/README"
cp "$top/doc/environment.md" "$dir/drift/doc/"
(cd "$dir/drift" && bash "$top/INSTALL/gendocs.sh" "$info" --check) > "$dir/drift.out" 2>&1; status=$?
check "a README drifted from the table (PUMMA_TUNE's row changed) is caught (status $status)" \
    '[ $status = 1 ] && ! cmp -s "$top/README" "$dir/drift/README" && grep -q "README differs from the settings table" "$dir/drift.out"'

timeout 60 "$info" > "$dir/plain.out" 2> "$dir/plain.err"; status=$?
# (the two files' variables are set by this test)
names=$(grep -o '{"PUMMA_[A-Z_]*"' "$top/SRC/base/pumma_settings.c" | tr -d '{"' |
        grep -v 'PUMMA_TUNE_FILE\|PUMMA_DECISION_FILE')
nnames=$(echo "$names" | wc -l)
listed=0
for n in $names; do
    [ "$(grep -cE "^  $n +.*\(default\)$" "$dir/plain.out")" = 1 ] && listed=$((listed + 1))
done
check "no arguments: status $status, all $nnames unset variables of the table listed once as default ($listed), the files' as set" \
    '[ $status = 0 ] && [ $nnames -ge 20 ] && [ $listed = $nnames ] &&
     row "PUMMA_TUNE_FILE +$dir/tune  \\(environment\\)" plain >/dev/null'
check "the build part names the build system and the version" \
    'grep -q "^pumma $version$" $dir/plain.out && row "built by" plain | grep -Eq "make|cmake"'
check "the BLAS and ScaLAPACK this process runs with are files" \
    'f=$(row "BLAS \\(dgemm\\)" plain | awk "{print \$NF}"); [ -f "$f" ] &&
     f=$(row "ScaLAPACK \\(BLACS\\)" plain | awk "{print \$NF}"); [ -f "$f" ]'
check "the tune file named, absent" \
    'row "tune file" plain | grep -qF "$dir/tune (absent"'

mkfifo "$dir/fifo"
PUMMA_TUNE_FILE=$dir/fifo timeout 20 "$info" > "$dir/fifo.out" 2>&1; status=$?
check "a FIFO as the tune file: refused as pumma refuses it, no hang (status $status)" \
    '[ $status = 0 ] && row "tune file" fifo | grep -qF "$dir/fifo (refused"'
PUMMA_STATS=1 PUMMA_ALGO=sdb timeout 60 "$info" > "$dir/env.out" 2>&1
check "set variables: value and (environment)" \
    'row "PUMMA_STATS +1  \\(environment\\)" env >/dev/null &&
     row "PUMMA_ALGO +sdb  \\(environment\\)" env >/dev/null'
PUMMA_STAT=1 timeout 60 "$info" > "$dir/typo.out" 2>&1
check "an unknown PUMMA_STAT is listed with PUMMA_STATS" \
    'grep "PUMMA_STAT\b" $dir/typo.out | grep -q "PUMMA_STATS"'

# the files, measured here by pumma-tune
timeout 120 $mpiexec -n 2 -x PUMMA_TUNE_FILE -x PUMMA_DECISION_FILE \
    "$tune" -m 65536 -r 3 > "$dir/tune.log" 2>&1; status=$?
check "pumma-tune on 2 processes writes both files (status $status)" \
    '[ $status = 0 ] && grep -q "^local " $dir/tune && grep -q "^net " $dir/tune &&
     [ -s $dir/decision ]'
files() {   # files LOG MEASURED APPLIES: pumma-info on 2 processes says so
    timeout 60 $mpiexec -n 2 -x PUMMA_TUNE_FILE -x PUMMA_DECISION_FILE "$info" \
        > "$dir/$1.out" 2>&1 &&
    row " +this host and BLAS +$2" $1 >/dev/null &&
    row " +this pair and MPI +$2" $1 >/dev/null &&
    row " +applies here +$3" $1 >/dev/null
}
check "after pumma-tune: this host, this pair measured; the decision file applies" \
    'files tuned measured yes'
sed -i 's/host=[^ ]*/host=elsewhere/; s/pair=[^ ]*/pair=elsewhere,elsewhere/' "$dir/tune" "$dir/decision"
check "files of another host: not measured here, the decision file does not apply" \
    'files moved "not measured" no'

# --check against what a run shows
src=$top/EXAMPLES/pdgemm_f77.f
L=$top/lib
SL=$(pkg-config --libs scalapack-openmpi 2>/dev/null || echo -lscalapack-openmpi)
build() {   # build NAME LINK...: the example linked so
    local name=$1; shift
    mpifort -O1 -o "$dir/$name" "$@" > "$dir/$name.link" 2>&1
}
build good "$src" -L"$L" -Wl,-rpath,"$L" -lpumma $SL
build after "$src" -L"$L" -Wl,-rpath,"$L" -Wl,--as-needed $SL -lpumma -lblas
build before -L"$L" -Wl,-rpath,"$L" -Wl,--as-needed -lpumma "$src" $SL
build static "$src" -Wl,--whole-archive "$L/libpumma.a" -Wl,--no-whole-archive $SL -lblas -lm
build staticpart "$src" "$L/libpumma.a" $SL -lblas -lm
served() {  # served NAME [launcher options]: pumma-stats lines in a run
    local name=$1; shift
    PUMMA_STATS=1 timeout 60 $mpiexec -n 2 "$@" "$dir/$name" > "$dir/$name.run" 2>&1 &&
        grep -q '^pumma-stats: PDGEMM' "$dir/$name.run"
}
for name in good after before static; do
    "$info" --check "$dir/$name" > "$dir/$name.check" 2>&1; st=$?
    if served $name; then want=0; else want=1; fi
    check "--check $name: status $st, and the run says $([ $want = 0 ] && echo served || echo 'not served')" \
        '[ -x $dir/$name ] && [ $st = $want ]'
done
check "the four links: two served, two not (the test sees both cases)" \
    '! served after && ! served before && served good && served static'
# the archive as a plain -l takes only what the program calls itself
# (PDGEMM): ScaLAPACK's solvers would get their own PDTRSM, PDSYRK, ...
"$info" --check "$dir/staticpart" > "$dir/staticpart.check" 2>&1; st=$?
check "--check of a static link without --whole-archive: status 1, naming the routines it lacks ($st)" \
    '[ $st = 1 ] && grep -q "without pumma.s pdsymm pdsyrk" $dir/staticpart.check'
LD_PRELOAD=$L/libpumma.so "$info" --check "$dir/after" > "$dir/pre.check" 2>&1; st=$?
check "--check under LD_PRELOAD=libpumma.so: ok (status $st), and so it runs" \
    '[ $st = 0 ] && served after -x LD_PRELOAD=$L/libpumma.so'
"$info" --check "$src" > "$dir/text.check" 2>&1; st=$?
check "--check of a text file: status 2 with a reason ($st)" \
    '[ $st = 2 ] && grep -q "not a 64-bit ELF" $dir/text.check'

echo "$pass passed, $fail failed"
[ $fail = 0 ]
