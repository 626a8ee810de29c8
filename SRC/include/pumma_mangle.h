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

/* The rest of the Level-3 PBLAS (the names ScaLAPACK has). */
#define pssymm_F77 PUMMA_F77(pssymm, PSSYMM)
#define pdsymm_F77 PUMMA_F77(pdsymm, PDSYMM)
#define pcsymm_F77 PUMMA_F77(pcsymm, PCSYMM)
#define pzsymm_F77 PUMMA_F77(pzsymm, PZSYMM)
#define pchemm_F77 PUMMA_F77(pchemm, PCHEMM)
#define pzhemm_F77 PUMMA_F77(pzhemm, PZHEMM)
#define pssyrk_F77 PUMMA_F77(pssyrk, PSSYRK)
#define pdsyrk_F77 PUMMA_F77(pdsyrk, PDSYRK)
#define pcsyrk_F77 PUMMA_F77(pcsyrk, PCSYRK)
#define pzsyrk_F77 PUMMA_F77(pzsyrk, PZSYRK)
#define pcherk_F77 PUMMA_F77(pcherk, PCHERK)
#define pzherk_F77 PUMMA_F77(pzherk, PZHERK)
#define pssyr2k_F77 PUMMA_F77(pssyr2k, PSSYR2K)
#define pdsyr2k_F77 PUMMA_F77(pdsyr2k, PDSYR2K)
#define pcsyr2k_F77 PUMMA_F77(pcsyr2k, PCSYR2K)
#define pzsyr2k_F77 PUMMA_F77(pzsyr2k, PZSYR2K)
#define pcher2k_F77 PUMMA_F77(pcher2k, PCHER2K)
#define pzher2k_F77 PUMMA_F77(pzher2k, PZHER2K)
#define pstrmm_F77 PUMMA_F77(pstrmm, PSTRMM)
#define pdtrmm_F77 PUMMA_F77(pdtrmm, PDTRMM)
#define pctrmm_F77 PUMMA_F77(pctrmm, PCTRMM)
#define pztrmm_F77 PUMMA_F77(pztrmm, PZTRMM)
#define pstrsm_F77 PUMMA_F77(pstrsm, PSTRSM)
#define pdtrsm_F77 PUMMA_F77(pdtrsm, PDTRSM)
#define pctrsm_F77 PUMMA_F77(pctrsm, PCTRSM)
#define pztrsm_F77 PUMMA_F77(pztrsm, PZTRSM)
#define psgeadd_F77 PUMMA_F77(psgeadd, PSGEADD)
#define pdgeadd_F77 PUMMA_F77(pdgeadd, PDGEADD)
#define pcgeadd_F77 PUMMA_F77(pcgeadd, PCGEADD)
#define pzgeadd_F77 PUMMA_F77(pzgeadd, PZGEADD)
#define pstradd_F77 PUMMA_F77(pstradd, PSTRADD)
#define pdtradd_F77 PUMMA_F77(pdtradd, PDTRADD)
#define pctradd_F77 PUMMA_F77(pctradd, PCTRADD)
#define pztradd_F77 PUMMA_F77(pztradd, PZTRADD)
#define pstran_F77 PUMMA_F77(pstran, PSTRAN)
#define pdtran_F77 PUMMA_F77(pdtran, PDTRAN)
#define pctranu_F77 PUMMA_F77(pctranu, PCTRANU)
#define pztranu_F77 PUMMA_F77(pztranu, PZTRANU)
#define pctranc_F77 PUMMA_F77(pctranc, PCTRANC)
#define pztranc_F77 PUMMA_F77(pztranc, PZTRANC)

/* The BLAS pumma calls for the local multiply (always Fortran BLAS). */
#define sgemm_F77 PUMMA_F77(sgemm, SGEMM)
#define dgemm_F77 PUMMA_F77(dgemm, DGEMM)
#define cgemm_F77 PUMMA_F77(cgemm, CGEMM)
#define zgemm_F77 PUMMA_F77(zgemm, ZGEMM)
#define strsm_F77 PUMMA_F77(strsm, STRSM)
#define dtrsm_F77 PUMMA_F77(dtrsm, DTRSM)
#define ctrsm_F77 PUMMA_F77(ctrsm, CTRSM)
#define ztrsm_F77 PUMMA_F77(ztrsm, ZTRSM)
#define strmm_F77 PUMMA_F77(strmm, STRMM)
#define dtrmm_F77 PUMMA_F77(dtrmm, DTRMM)
#define ctrmm_F77 PUMMA_F77(ctrmm, CTRMM)
#define ztrmm_F77 PUMMA_F77(ztrmm, ZTRMM)

/* Only the public entry points leave the shared library (the build hides
 * everything else), so pumma's internals never clash with a program's. */
#if defined(__GNUC__)
#define PUMMA_API __attribute__((visibility("default")))
#else
#define PUMMA_API
#endif

#endif
