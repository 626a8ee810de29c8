#!/bin/sh
# layers.sh [BUILD]: fails when a directory of SRC reaches one above it
# (doc/internals.md, "The source tree"). The layers, bottom to top, are
# LAYERS; a file's layer is its directory, SRC/include/pumma_X.h's is X.
# Two checks, each line naming the file:
#   - an #include of a higher layer's header (SRC/*/*.c, SRC/*/*.h);
#     the public and generated headers (pumma.h, pumma_codes.h,
#     pumma_mangle.h, pumma_build.h) are no layer's and go anywhere;
#   - a symbol an object of BUILD (default build: `make lib` made it)
#     takes from an object of a higher layer (nm -u against nm -g), which
#     catches what an include cannot: a call through a declaration of
#     one's own. The tools are linked straight into bin/: includes only.
# Run from the top directory; needs nm (binutils, beside ar).
LAYERS=${LAYERS:-"base layout comm desc model algo driver fortran tools"}
build=${1:-build}
tmp=${TMPDIR:-/tmp}/layers.$$
trap 'rm -f $tmp.*' 0
ls "$build"/*/*.o > /dev/null 2>&1 || {
    echo "layers: no objects in $build (make lib first)"; exit 1; }
for f in SRC/*/*.c SRC/*/*.h; do
    case $f in
    SRC/include/pumma_*.h) d=${f#SRC/include/pumma_}; d=${d%.h} ;;
    *) d=${f#SRC/}; d=${d%%/*} ;;
    esac
    sed -n "s|^#include \"pumma_\([a-z0-9_]*\)\.h\".*|$f $d \1|p" "$f"
done > $tmp.inc
# The objects of today's sources only: one a moved or deleted file left
# in BUILD is not the library's (the Makefile links from SRCS too).
for c in SRC/*/*.c; do
    case $c in SRC/tools/*) continue ;; esac
    o=$build/${c#SRC/}; o=${o%.c}.o
    [ -f "$o" ] || continue
    d=${o#"$build"/}; d=${d%%/*}
    nm -g --defined-only "$o" | awk -v d="$d" 'NF == 3 {print "D", $3, d}'
    nm -u "$o" | awk -v d="$d" -v o="$o" '{print "U", $NF, d, o}'
done > $tmp.sym
awk -v layers="$LAYERS" '
    BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; i++) r[l[i]] = i }
    FILENAME ~ /inc$/ { if (($2 in r) && ($3 in r) && r[$3] > r[$2]) {
                            print "layers: " $1 " includes pumma_" $3 ".h, above " $2; bad = 1 }
                        next }
    $1 == "D" { def[$2] = $3; next }
    $1 == "U" { use[++nu] = $0 }
    END {
        for (i = 1; i <= nu; i++) {
            split(use[i], u, " ")
            e = def[u[2]]
            if (e != "" && (u[3] in r) && (e in r) && r[e] > r[u[3]]) {
                print "layers: " u[4] " uses " u[2] " (" e "), above " u[3]; bad = 1 }
        }
        exit bad
    }' $tmp.inc $tmp.sym
