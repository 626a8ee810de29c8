/*
 * blacs.h -- the BLACS and ScaLAPACK tools the test drivers call, which no
 * installed header declares, and the P?GEMM signature they reach
 * ScaLAPACK's own P?GEMM through (dlopen/dlsym).
 */
#ifndef BLACS_H
#define BLACS_H

typedef void gemm_fn(const char *, const char *, const int *, const int *,
                     const int *, const void *, const void *, const int *,
                     const int *, const int *, const void *, const int *,
                     const int *, const int *, const void *, void *,
                     const int *, const int *, const int *);

void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
int numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *,
               const int *, const int *, const int *, const int *, int *);

#endif
