/*
 * pumma_version.c -- pumma_version() (pumma.h): the library's own version,
 * which a program compiled against one header may check at run time
 * against PUMMA_VERSION (the header's), e.g. after an upgrade of the
 * shared library beside it.
 */
#include "pumma.h"

PUMMA_API const char *pumma_version(void) { return PUMMA_VERSION; }
