/*
 * pumma_mdb2.c -- MDB2 (PUMMA section 3.2), C := alpha*A*B + beta*C: one
 * message and one local multiply per group of K-blocks, the coarsest
 * grain. "mdb2" column-casts B and rolls A left; "mdb2-row" row-casts A
 * and rolls B up (the mirror, better when P is small). The engine, and how
 * SDB, MDB1 and MDB2 differ, are in pumma_mdb.c.
 */
#include "pumma_algo.h"

PUMMA_MDB_ROWS(mdb2,
               "MDB2, one message and one multiply per group of K-blocks", 0,
               0);
