/*
 * pumma_mdb1.c -- MDB1 (PUMMA section 3.2), C := alpha*A*B + beta*C: one
 * message per group of K-blocks (the blocks of one LCM class, condensed),
 * one local multiply per block. "mdb1" column-casts B and rolls A left;
 * "mdb1-row" row-casts A and rolls B up (the mirror, better when P is
 * small). The engine, and how SDB, MDB1 and MDB2 differ, are in
 * pumma_mdb.c.
 */
#include "pumma_algo.h"

PUMMA_MDB_ROWS(mdb1,
               "MDB1, one message per group of K-blocks (LCM class), one "
               "multiply per block",
               0, 1);
