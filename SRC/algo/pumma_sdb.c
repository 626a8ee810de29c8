/*
 * pumma_sdb.c -- SDB (PUMMA section 3.2), C := alpha*A*B + beta*C: one
 * message and one local multiply per K-block. "sdb" column-casts B and
 * rolls A left; "sdb-row" row-casts A and rolls B up (the mirror, better
 * when P is small). The engine, and how SDB, MDB1 and MDB2 differ, are in
 * pumma_mdb.c.
 */
#include "pumma_algo.h"

PUMMA_MDB_ROWS(sdb, "SDB, one K-block per message and per multiply", 1, 1);
