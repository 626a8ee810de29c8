/*
 * gencodes -- writes pumma_codes.fh, the Fortran PARAMETERs of
 * SRC/include/pumma_codes.h, to standard output. The C compiler expands the
 * header's lists, so C and Fortran cannot disagree on a code.
 *
 * The output is valid in fixed and in free source form (statements from
 * column 7, at most 72 columns, no continuation lines, '!' comments), so
 * both F77 programs (INCLUDE 'pumma.fh') and the F90 module can include it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_codes.h"

static void emit(const char *kind, const char *name, int code,
                 const char *what)
{
    char decl[128], param[128];

    snprintf(decl, sizeof decl, "      INTEGER PUMMA_%s%s", kind, name);
    snprintf(param, sizeof param, "      PARAMETER ( PUMMA_%s%s = %d )", kind,
             name, code);
    if (strlen(param) > 52 || 55 + strlen(what) > 72) {
        fprintf(stderr, "gencodes: PUMMA_%s%s is too long for fixed form\n",
                kind, name);
        exit(1);
    }
    printf("%s\n%-52s ! %s\n", decl, param, what);
}

int main(void)
{
    puts("!     pumma_codes.fh -- pumma's algorithm and communication codes,");
    puts("!     generated from pumma_codes.h by bindings/fortran/gencodes.c:");
    puts("!     do not edit. Included by pumma.fh and by the module pumma.");
    puts("!");
    puts("!     Algorithms (ALGO argument of PUMMA_P?GEMM, OPTS(1)).");
#define ALGO(N, v, s) emit("ALGO_", #N, v, s);
    PUMMA_ALGO_LIST(ALGO)
    puts("!     Broadcasts (BCAST argument of PUMMA_P?GEMM, OPTS(2)).");
#define BCAST(N, v, s) emit("BCAST_", #N, v, s);
    PUMMA_BCAST_LIST(BCAST)
    puts("!     Reduces of partial products (OPTS(3)).");
#define REDUCE(N, v, s) emit("REDUCE_", #N, v, s);
    PUMMA_REDUCE_LIST(REDUCE)
    puts("!     Shifts (rolls) of A or B (OPTS(4)).");
#define SHIFT(N, v, s) emit("SHIFT_", #N, v, s);
    PUMMA_SHIFT_LIST(SHIFT)
    puts("!     Network topologies of the heterogeneous schedules (OPTS(6)).");
#define TOPO(N, v, s) emit("TOPO_", #N, v, s);
    PUMMA_TOPO_LIST(TOPO)
    puts("!     Heterogeneous layouts (KIND of PUMMA_LAYOUT_NEW).");
#define LAYOUT(N, v, s) emit("LAYOUT_", #N, v, s);
    PUMMA_LAYOUT_LIST(LAYOUT)
    emit("", "DTYPE_LAYOUT", PUMMA_DTYPE_LAYOUT, "layout DTYPE");
    puts("!     Entries of the OPTS array of PUMMA_P?GEMMX; OPTS(5) is the");
    puts("!     segment in bytes of the pipelined variants (0: default).");
#define OPT(N, v, s) emit("OPT_", #N, v, s);
    PUMMA_OPT_LIST(OPT)
    emit("", "NOPTS", PUMMA_NOPTS, "size of OPTS");
    return 0;
}
