#!/usr/bin/env bash
# Prints the CDEFS flag (ScaLAPACK's convention) matching how the Fortran
# compiler given as $1 (default gfortran) names external routines:
# -DAdd_ (pdgemm_), -DNoChange (pdgemm) or -DUpCase (PDGEMM).
set -eu
FC=${1:-gfortran}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
printf '      SUBROUTINE PROBE\n      CALL CNAME()\n      END\n' > "$d/p.f"
"$FC" -c -o "$d/p.o" "$d/p.f"
syms=$(nm "$d/p.o")
if   echo "$syms" | grep -q ' cname_$';  then echo "-DAdd_"
elif echo "$syms" | grep -q ' cname$';   then echo "-DNoChange"
elif echo "$syms" | grep -q ' CNAME$';   then echo "-DUpCase"
else echo "INSTALL/mangle.sh: cannot tell the name mangling of $FC" >&2; exit 1
fi
