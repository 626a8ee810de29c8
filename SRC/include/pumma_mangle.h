/*
 * Fortran names of pumma's entry points, chosen by ScaLAPACK's CDEFS flag:
 * -DAdd_ (pdgemm_), -DNoChange (pdgemm), -DUpCase (PDGEMM).
 */
#ifndef PUMMA_MANGLE_H
#define PUMMA_MANGLE_H

/* Without a flag, the mangling pumma was built with: `make` rewrites
 * PUMMA_BUILT_Add_ to match CDEFS in the copy it puts in include/. */
#if !defined(Add_) && !defined(NoChange) && !defined(UpCase)
#define PUMMA_BUILT_Add_
#endif

#if defined(UpCase) || defined(PUMMA_BUILT_UpCase)
#define PUMMA_F77(lower, UPPER) UPPER
#elif defined(NoChange) || defined(PUMMA_BUILT_NoChange)
#define PUMMA_F77(lower, UPPER) lower
#else
#define PUMMA_F77(lower, UPPER) lower##_
#endif

#define psgemm_F77 PUMMA_F77(psgemm, PSGEMM)
#define pdgemm_F77 PUMMA_F77(pdgemm, PDGEMM)
#define pcgemm_F77 PUMMA_F77(pcgemm, PCGEMM)
#define pzgemm_F77 PUMMA_F77(pzgemm, PZGEMM)

/* The BLAS pumma calls for the local multiply (always Fortran BLAS). */
#define sgemm_F77 PUMMA_F77(sgemm, SGEMM)
#define dgemm_F77 PUMMA_F77(dgemm, DGEMM)
#define cgemm_F77 PUMMA_F77(cgemm, CGEMM)
#define zgemm_F77 PUMMA_F77(zgemm, ZGEMM)

/* Only the public entry points leave the shared library (the build hides
 * everything else), so pumma's internals never clash with a program's. */
#if defined(__GNUC__)
#define PUMMA_API __attribute__((visibility("default")))
#else
#define PUMMA_API
#endif

#endif
