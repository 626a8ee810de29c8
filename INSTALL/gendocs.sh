#!/bin/bash
# gendocs.sh PUMMA_INFO [--check] -- the docs generated from the settings
# table (SRC/base/pumma_settings.c): each block of README and
# doc/environment.md between
#   <!-- generated: pumma-info --settings FORMAT ... -->
#   <!-- end generated -->
# is what `PUMMA_INFO --settings FORMAT` prints. Without --check the
# blocks are rewritten (make docs); with it nothing is written and the
# status is 1, with the difference shown, when a block differs from the
# table's (make run-info): the docs cannot drift from what pumma reads.
# Run from the top of the tree.
info=${1:?usage: gendocs.sh PUMMA_INFO [--check]}
check=${2:-}
status=0
fail() { echo "gendocs.sh: $f: $1" >&2; rm -f "$new"; exit 2; }
for f in README doc/environment.md; do
    [ -f "$f" ] || { echo "gendocs.sh: $f is missing"; exit 2; }
    new=$(mktemp)
    # each block's FORMAT, in order; the text around them is kept
    n=0 skip=0
    while IFS= read -r line || [ -n "$line" ]; do
        if [ $skip = 1 ]; then
            case $line in '<!-- end generated -->') skip=0 ;; esac
            continue
        fi
        printf '%s\n' "$line"
        case $line in
        '<!-- generated: pumma-info --settings '*)
            fmt=${line#'<!-- generated: pumma-info --settings '}
            fmt=${fmt%% *}
            "$info" --settings "$fmt" || fail "no format $fmt"
            echo '<!-- end generated -->'
            skip=1 n=$((n + 1)) ;;
        esac
    done < "$f" > "$new"
    [ $skip = 1 ] && fail "a block without its end"
    [ $n = 0 ] && fail "no generated block"
    if [ "$check" = --check ]; then
        if ! diff -u "$f" "$new" > "$new.diff"; then
            echo "gendocs.sh: $f differs from the settings table" \
                 "(make docs rewrites it):"
            sed 's/^/    /' "$new.diff" | head -40
            status=1
        fi
        rm -f "$new.diff" "$new"
    elif cmp -s "$f" "$new"; then
        rm -f "$new"
    else
        cat "$new" > "$f" && rm -f "$new"
        echo "gendocs.sh: $f rewritten ($n blocks)"
    fi
done
exit $status
