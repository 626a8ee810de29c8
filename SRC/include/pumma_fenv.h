/*
 * pumma_fenv.h -- pumma leaves the caller's floating-point flags as it
 * found them (SRC/base/pumma_fenv.c; doc/floating-point.md).
 *
 * A call's arithmetic is of two kinds. Arithmetic on the caller's numbers
 * (the local ?gemm, and pumma's own sums, scalings, copies and
 * conjugations of them) raises the flags the same call to ScaLAPACK
 * would: those are the caller's and stay raised. Everything else --
 * timing, the machine model's fits, the planner's costs, layouts -- is
 * pumma's bookkeeping, and its flags (underflow, denormal, inexact, even
 * a division by zero) must not reach the caller: a Fortran program that
 * ends with STOP lists every flag left raised.
 *
 * So: every public entry point runs between pumma_fenv_enter and
 * pumma_fenv_leave, which note the caller's flags and give them back with
 * those raised in data sections added, every other flag cleared. A data
 * section is bracketed by pumma_fenv_data_begin/end, which clears the
 * flags that would hide what it raises (neither the caller's nor the
 * data's so far) and adds what it raised to the data's: in pumma,
 * the BLAS call on the caller's operands (pumma_blas_gemm), the type
 * descriptor's element-wise kernel (geadd, every sum, scaling and copy of
 * the caller's numbers) and the MPI_SUM reduce (pumma_reduce_mpi.c).
 * The model times the BLAS and geadd on arrays of its own: it calls
 * t->gemm directly (not a data section), and its geadd timings copy and
 * add numbers exactly (x*1, 1+1), which raises no flag.
 *
 * Only flags: pumma never changes rounding or which exceptions trap.
 * On x86 the denormal-operand flag (DE, gfortran's IEEE_DENORMAL) is
 * handled too, which C's FE_ALL_EXCEPT leaves out. The state is per
 * thread, as the floating-point environment is; calls nest (only the
 * outermost saves and restores), and data sections outside any entry
 * (pumma's internals called by its own testers) do nothing.
 */
#ifndef PUMMA_FENV_H
#define PUMMA_FENV_H

typedef struct pumma_fenv {
    int outer;           /* the outermost entry: it saves and restores */
    unsigned flags;      /* the caller's raised flags (x86: MXCSR's) */
    unsigned x87;        /* x86: the caller's x87 flags */
} pumma_fenv_t;

void pumma_fenv_enter(pumma_fenv_t *s);
void pumma_fenv_leave(const pumma_fenv_t *s);
void pumma_fenv_data_begin(void);
void pumma_fenv_data_end(void);

/* call, run between pumma_fenv_enter and pumma_fenv_leave: the body of a
 * public entry point, which may return from anywhere. */
#define PUMMA_FENV_CALL(call)                                                \
    do {                                                                     \
        pumma_fenv_t fenv_;                                                  \
        pumma_fenv_enter(&fenv_);                                            \
        call;                                                                \
        pumma_fenv_leave(&fenv_);                                            \
    } while (0)

#endif
