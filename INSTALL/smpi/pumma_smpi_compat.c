/*
 * pumma_smpi_compat.c -- what SimGrid 3.32's SMPI lacks and the programs
 * `make smpi` builds need (INSTALL/smpi.mk links it into each of them).
 *
 * MPI_Type_match_size: SMPI declares it and aborts when it is called ("Not
 * yet implemented"). ScaLAPACK's BLACS asks it for the MPI type of its
 * integers in the combine operations (i/s/d/c/z GAMX2D, GAMN2D), which
 * PDGETRF's pivoting reaches. A definition in the program comes before
 * SimGrid's. The types are those MPI-2 (section 10.2.5) names for each
 * class and size.
 */
#include <mpi.h>

int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (typeclass) {
    case MPI_TYPECLASS_INTEGER:
        t = size == 1   ? MPI_SIGNED_CHAR
            : size == 2 ? MPI_SHORT
            : size == 4 ? MPI_INT
            : size == 8 ? MPI_LONG_LONG
                        : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_REAL:
        t = size == 4 ? MPI_FLOAT : size == 8 ? MPI_DOUBLE : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_COMPLEX:
        t = size == 8    ? MPI_C_FLOAT_COMPLEX
            : size == 16 ? MPI_C_DOUBLE_COMPLEX
                         : MPI_DATATYPE_NULL;
        break;
    default:
        break;
    }
    if (t == MPI_DATATYPE_NULL) return MPI_ERR_ARG;
    *datatype = t;
    return MPI_SUCCESS;
}
