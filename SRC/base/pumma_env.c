/*
 * pumma_env.c -- reading pumma's environment variables, strictly.
 *
 * Every numeric variable goes through these helpers, so all are read the
 * same way: the whole value must be one number (or, for lists, numbers
 * separated by single commas), in the variable's range; otherwise the
 * program stops, as it does for an unknown name, with a message naming
 * the variable, its value and what it accepts. A silent fallback would
 * run something the user did not ask for (PUMMA_PANEL=abc turning panels
 * off, PUMMA_SEGMENT=99999999999 wrapping around) and look like a result.
 * An empty value counts as unset, as for the names (PUMMA_ALGO= ...), so
 * `env PUMMA_X= prog` is the way to clear one. The variables, their
 * kinds and ranges are the table of pumma_settings.c, which reads them
 * through these helpers.
 *
 * Names (PUMMA_ALGO=SDB, PUMMA_TUNE=Off) are matched without regard to
 * case (pumma_name_eq), wherever pumma reads one.
 *
 * A value that stops the program is said once, not once per process:
 * every process reads the same environment, as a rule, at the same call
 * (pumma_stop_all).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_base.h"

/*
 * pumma_env_get: the value of environment variable var (local input),
 * NULL when it is unset or empty.
 */
const char *pumma_env_get(const char *var)
{
    const char *v = getenv(var);
    return v && *v ? v : NULL;
}

/*
 * pumma_name_eq: 1 when names a and b (local input) are equal but for the
 * case of ASCII letters (the C locale's, whatever the program's locale:
 * no Turkish dotless i), else 0.
 */
int pumma_name_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
        if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
        if (x != y) return 0;
        if (!x) return 1;
    }
}

/*
 * pumma_env_bad: stops the program for a bad value: says
 * "pumma: VAR=value is not valid; expected <expected>" on standard error,
 * once (pumma_stop_all), and ends every process (MPI_Abort on
 * MPI_COMM_WORLD, code 2, as for an unknown name; exit(2) when MPI is not
 * running). var, val, expected: local input.
 */
void pumma_env_bad(const char *var, const char *val, const char *expected)
{
    pumma_stop_all("pumma: %s=%s is not valid; expected %s\n", var, val,
                   expected);
}

/* A number must start at once: strtod and strtoll skip leading blanks,
 * which would let " 5" through while "5 " is refused. */
static int starts_number(const char *s)
{
    return (*s >= '0' && *s <= '9') || *s == '-' || *s == '+' || *s == '.';
}

/*
 * pumma_env_parse_int: *x := the decimal integer that is all of s (local
 * input), when it lies in [lo, hi]; returns 0, or -1 (x unchanged) for
 * anything else: empty, trailing characters, beyond the range of long
 * long or of [lo, hi].
 */
int pumma_env_parse_int(const char *s, long long lo, long long hi,
                        long long *x)
{
    char *end;
    if (!starts_number(s)) return -1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < lo || v > hi) return -1;
    *x = v;
    return 0;
}

/*
 * pumma_env_parse_double: *x := the number that is all of s (local input),
 * when it is finite and in [lo, hi]; returns 0, or -1 (x unchanged) for
 * anything else: empty, trailing characters, NaN, infinity, beyond the
 * range of a double (a value that underflows to 0 is refused too: it is
 * not the number written; one that becomes subnormal is kept).
 */
int pumma_env_parse_double(const char *s, double lo, double hi, double *x)
{
    char *end;
    if (!starts_number(s)) return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v)) return -1;
    if (errno == ERANGE && v == 0) {      /* underflow: 0 only if written */
        for (const char *p = s; p < end && *p != 'e' && *p != 'E'; p++)
            if (*p >= '1' && *p <= '9') return -1;
    }
    if (!(v >= lo && v <= hi)) return -1;
    *x = v;
    return 0;
}

/*
 * pumma_env_items: calls item(text, ctx) for each comma-separated item of
 * val (local input), in order, each as its own string. Every item must be
 * non-empty: "1,,2", ",1" and "1," are refused. Returns 0, -1 for an
 * empty item (or no memory for the copy), or the first non-zero value
 * item returned (which stops the walk).
 */
int pumma_env_items(const char *val, int (*item)(const char *, void *),
                    void *ctx)
{
    char *copy = malloc(strlen(val) + 1);
    if (!copy) return -1;
    strcpy(copy, val);
    int rc = 0;
    for (char *p = copy; !rc;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        rc = *p ? item(p, ctx) : -1;
        if (!comma) break;
        p = comma + 1;
    }
    free(copy);
    return rc;
}

typedef struct list_ctx { double *v; int max, n; double lo, hi; } list_ctx_t;

static int list_item(const char *s, void *ctx)
{
    list_ctx_t *l = ctx;
    double x;
    if (pumma_env_parse_double(s, l->lo, l->hi, &x)) return -1;
    if (l->n < l->max) l->v[l->n] = x;
    l->n++;
    return 0;
}

/*
 * pumma_env_list: the numbers of variable var (local input), separated by
 * single commas, each finite and in [lo, hi]: the first max of them go to
 * v (local output); returns how many there are (may exceed max), 0 when
 * var is unset or empty. Anything else stops the program (pumma_env_bad,
 * with `expected`).
 */
int pumma_env_list(const char *var, double *v, int max, double lo, double hi,
                   const char *expected)
{
    const char *val = pumma_env_get(var);
    if (!val) return 0;
    list_ctx_t l = {v, max, 0, lo, hi};
    if (pumma_env_items(val, list_item, &l)) pumma_env_bad(var, val, expected);
    return l.n;
}
