/*
 * tstgroup.h -- the testers' groups of checks (modeltst, plantst,
 * exectst): check() counts a failure in the current group and prints the
 * first five; group_end() prints one PASSED line or counts the group as
 * failed. npass and nfail are the groups' tallies.
 */
#ifndef TSTGROUP_H
#define TSTGROUP_H

#include <stdarg.h>
#include <stdio.h>

static int npass, nfail, group_fail;

static void check(int ok, const char *group, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void check(int ok, const char *group, const char *fmt, ...)
{
    if (ok) return;
    if (group_fail++ < 5) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAILED %s: ", group);
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
}

static void group_end(const char *group)
{
    if (group_fail) nfail++;
    else {
        npass++;
        printf("PASSED %s\n", group);
    }
    group_fail = 0;
}

#endif
