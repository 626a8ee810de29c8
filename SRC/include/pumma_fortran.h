/*
 * pumma_fortran.h -- what the public entry points of SRC/fortran share
 * (not installed). Above the driver.
 */
#ifndef PUMMA_FORTRAN_H
#define PUMMA_FORTRAN_H

#include "pumma_driver.h"

/* The options of a Fortran INTEGER OPTS(PUMMA_NOPTS) array
 * (SRC/fortran/pumma_helpers_.c). */
struct pumma_options pumma_f77_options(const int *opts);

#endif
