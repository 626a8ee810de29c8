/* pumma_internal.h -- every layer's header at once (one header per layer:
 * pumma_base.h ... pumma_fortran.h); goes once every file includes its
 * layer's. */
#ifndef PUMMA_INTERNAL_H
#define PUMMA_INTERNAL_H
#include "pumma_driver.h"
#include "pumma_fortran.h"
#endif
