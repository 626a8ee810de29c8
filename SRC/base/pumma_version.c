/*
 * pumma_version.c -- pumma_version() (pumma.h): the library's own version,
 * which a program compiled against one header may check at run time
 * against PUMMA_VERSION (the header's), e.g. after an upgrade of the
 * shared library beside it; and how the library was built, for pumma-info.
 *
 * The build writes pumma_build.h (the Makefile into its build directory,
 * CMake from SRC/include/pumma_build.h.in) with PUMMA_BUILD_SYSTEM, _CC,
 * _CFLAGS, _FC, _MANGLING and _LIBS as C strings.
 */
#include <string.h>

#include "pumma.h"
#include "pumma_base.h"
#if defined(__has_include)
#if __has_include("pumma_build.h")
#include "pumma_build.h"
#endif
#endif

PUMMA_API const char *pumma_version(void) { return PUMMA_VERSION; }

#ifndef PUMMA_BUILD_SYSTEM
#define PUMMA_BUILD_SYSTEM "unknown"
#define PUMMA_BUILD_CC "unknown"
#define PUMMA_BUILD_CFLAGS "unknown"
#define PUMMA_BUILD_FC "unknown"
#define PUMMA_BUILD_MANGLING "unknown"
#define PUMMA_BUILD_LIBS "unknown"
#endif

const char *pumma_build_info(const char *key)
{
    static const struct { const char *key, *value; } info[] = {
        {"system", PUMMA_BUILD_SYSTEM}, {"cc", PUMMA_BUILD_CC},
        {"cflags", PUMMA_BUILD_CFLAGS}, {"fc", PUMMA_BUILD_FC},
        {"mangling", PUMMA_BUILD_MANGLING}, {"libs", PUMMA_BUILD_LIBS},
    };
    for (size_t i = 0; i < sizeof info / sizeof *info; i++)
        if (!strcmp(key, info[i].key)) return info[i].value;
    return "unknown";
}
