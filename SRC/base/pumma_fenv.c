/*
 * pumma_fenv.c -- the caller's floating-point flags kept as they were,
 * but for those its numbers raise (see pumma_base.h).
 *
 * Flags are never cleared on entry: a flag the caller has raised already
 * is raised whatever pumma does, so only the flags that are neither the
 * caller's nor the data's need going at the end, and a data section
 * clears only those that would hide what it raises. Once a program's
 * first multiply has raised inexact (nearly every one does), bookkeeping
 * raises nothing new and no call writes the flags at all: writing MXCSR
 * with a changed value costs some 50 ns here, reading it a few.
 *
 * On x86 the flags are read and written in MXCSR and the x87 status word
 * directly: C's fenv.h leaves out the denormal flag (DE, bit 0x02, which
 * gfortran reports as IEEE_DENORMAL and nextafter(0, 1) raises), and
 * feclearexcept goes through the x87 environment (fnstenv/fldenv), some
 * 150 ns. The six flag bits are the same in both registers (invalid 0x01,
 * denormal 0x02, divide 0x04, overflow 0x08, underflow 0x10, inexact
 * 0x20), and glibc's FE_* values are those bits. Elsewhere: fenv.h with
 * FE_ALL_EXCEPT.
 */
#include <fenv.h>

#include "pumma_base.h"

/* Per thread, as the floating-point environment is. */
static _Thread_local int depth;     /* entries open */
static _Thread_local int in_data;   /* data sections open */
static _Thread_local unsigned base; /* the caller's flags, at entry */
static _Thread_local unsigned kept; /* flags the data sections raised */

#if (defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))) && \
    defined(__GNUC__)

#define FLAGS 0x3fu

static inline unsigned sse_get(void)
{
    unsigned m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    return m;
}

static inline void sse_set(unsigned m) { __asm__ volatile("ldmxcsr %0" : : "m"(m)); }

static inline unsigned x87_get(void)
{
    unsigned short sw;
    __asm__ volatile("fnstsw %0" : "=m"(sw));
    return sw & FLAGS;
}

/* The x87 flags set to f exactly. Rare: pumma does no x87 arithmetic of
 * its own (libm may). fnstenv masks every x87 exception, fldenv puts the
 * control word back. */
static void x87_set(unsigned f)
{
    if (!f) {
        __asm__ volatile("fnclex");
        return;
    }
    struct { unsigned short cw, r0, sw, r1; unsigned rest[5]; } env;
    __asm__ volatile("fnstenv %0" : "=m"(env));
    env.sw = (unsigned short)((env.sw & ~FLAGS) | f);
    __asm__ volatile("fldenv %0" : : "m"(env));
}

void pumma_fenv_enter(pumma_fenv_t *s)
{
    s->outer = depth++ == 0;
    if (!s->outer) return;
    s->flags = sse_get() & FLAGS;
    s->x87 = x87_get();
    base = s->flags | s->x87;
    kept = 0;
    in_data = 0;
}

/* The caller's MXCSR flags with the data's added (setting an MXCSR flag
 * raises no exception, even an unmasked one), its x87 flags as they were. */
void pumma_fenv_leave(const pumma_fenv_t *s)
{
    depth--;
    if (!s->outer) return;
    const unsigned m = sse_get(), want = s->flags | kept;
    if ((m & FLAGS) != want) sse_set((m & ~FLAGS) | want);
    if (x87_get() != s->x87) x87_set(s->x87);
}

void pumma_fenv_data_begin(void)
{
    if (!depth || in_data++) return;
    const unsigned m = sse_get();
    if (m & FLAGS & ~(base | kept)) sse_set(m & ~(FLAGS & ~(base | kept)));
    /* the caller's own x87 flags are put back on leaving */
    if (x87_get() & ~(base | kept)) __asm__ volatile("fnclex");
}

void pumma_fenv_data_end(void)
{
    if (depth && --in_data == 0)
        kept |= ((sse_get() | x87_get()) & FLAGS) & ~base;
}

#else  /* fenv.h: the flags of FE_ALL_EXCEPT */

static inline unsigned flags_get(void)
{
    return (unsigned)fetestexcept(FE_ALL_EXCEPT);
}

void pumma_fenv_enter(pumma_fenv_t *s)
{
    s->outer = depth++ == 0;
    if (!s->outer) return;
    s->flags = base = flags_get();
    s->x87 = 0;
    kept = 0;
    in_data = 0;
}

/* feraiseexcept, the one portable way to set a flag, would trap were the
 * exception unmasked; but then the operation that raised it in a data
 * section would have trapped already. */
void pumma_fenv_leave(const pumma_fenv_t *s)
{
    depth--;
    if (!s->outer) return;
    const unsigned now = flags_get(), want = s->flags | kept;
    if (now & ~want) feclearexcept((int)(now & ~want));
    if (want & ~now) feraiseexcept((int)(want & ~now));
}

void pumma_fenv_data_begin(void)
{
    if (!depth || in_data++) return;
    const unsigned stale = flags_get() & ~(base | kept);
    if (stale) feclearexcept((int)stale);
}

void pumma_fenv_data_end(void)
{
    if (depth && --in_data == 0) kept |= flags_get() & ~base;
}

#endif
