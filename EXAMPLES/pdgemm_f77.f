      PROGRAM PDGEMMEX
*
*     An ordinary ScaLAPACK program: nothing in it refers to pumma.
*     Linked with pumma before ScaLAPACK (or run with libpumma.so in
*     LD_PRELOAD), its PDGEMM calls are computed by pumma.
*
*     It sets up a BLACS grid on all processes, distributes A, B and C
*     block-cyclically, computes C := ALPHA*op(A)*B + BETA*C with PDGEMM
*     for op = 'N' and op = 'T', and checks every entry of C on the
*     process that owns it against the same product formed from the
*     formulas that define A, B and C. The entries are small integers,
*     so the check is exact.
*
*     .. Parameters ..
      INTEGER            DLEN_, CTXT_, LLD_
      PARAMETER          ( DLEN_ = 9, CTXT_ = 2, LLD_ = 9 )
      INTEGER            M, N, K, MB, NB, MAXLOC
      PARAMETER          ( M = 203, N = 157, K = 111, MB = 16, NB = 16,
     $                     MAXLOC = 40000 )
      DOUBLE PRECISION   ALPHA, BETA
      PARAMETER          ( ALPHA = 2.0D+0, BETA = -1.0D+0 )
*     ..
*     .. Local Scalars ..
      CHARACTER          TRANSA
      INTEGER            CONTXT, I, IAM, ICOL, IROW, INFO, IT, J, L,
     $                   LLDA, LLDB, LLDC, MYCOL, MYROW, NERR, NPCOL,
     $                   NPROCS, NPROW, MA, KA
      DOUBLE PRECISION   EXACT
*     ..
*     .. Local Arrays ..
      INTEGER            DESCA( DLEN_ ), DESCB( DLEN_ ), DESCC( DLEN_ )
      DOUBLE PRECISION   A( MAXLOC ), B( MAXLOC ), C( MAXLOC )
*     ..
*     .. External Functions ..
      INTEGER            INDXL2G, NUMROC
      EXTERNAL           INDXL2G, NUMROC
*     ..
*     .. External Subroutines ..
      EXTERNAL           BLACS_EXIT, BLACS_GET, BLACS_GRIDEXIT,
     $                   BLACS_GRIDINFO, BLACS_GRIDINIT, BLACS_PINFO,
     $                   DESCINIT, IGSUM2D, PDGEMM
*     ..
*     .. Statement Functions ..
      DOUBLE PRECISION   AV, BV, CV
      AV( I, J ) = DBLE( MOD( I + 2*J, 7 ) - 3 )
      BV( I, J ) = DBLE( MOD( 3*I + J, 5 ) - 2 )
      CV( I, J ) = DBLE( MOD( I*J, 3 ) )
*     ..
*     .. Executable Statements ..
*
*     The grid: NPROW x NPCOL with NPROW the largest divisor of NPROCS
*     not above its square root.
*
      CALL BLACS_PINFO( IAM, NPROCS )
      NPROW = INT( SQRT( DBLE( NPROCS ) ) )
   10 CONTINUE
      IF( MOD( NPROCS, NPROW ).NE.0 ) THEN
         NPROW = NPROW - 1
         GO TO 10
      END IF
      NPCOL = NPROCS / NPROW
      CALL BLACS_GET( -1, 0, CONTXT )
      CALL BLACS_GRIDINIT( CONTXT, 'Row-major', NPROW, NPCOL )
      CALL BLACS_GRIDINFO( CONTXT, NPROW, NPCOL, MYROW, MYCOL )
*
      NERR = 0
      DO 90 IT = 1, 2
         IF( IT.EQ.1 ) THEN
            TRANSA = 'N'
            MA = M
            KA = K
         ELSE
            TRANSA = 'T'
            MA = K
            KA = M
         END IF
*
*        A is MA x KA, B is K x N, C is M x N.
*
         LLDA = MAX( 1, NUMROC( MA, MB, MYROW, 0, NPROW ) )
         LLDB = MAX( 1, NUMROC( K, MB, MYROW, 0, NPROW ) )
         LLDC = MAX( 1, NUMROC( M, MB, MYROW, 0, NPROW ) )
         CALL DESCINIT( DESCA, MA, KA, MB, NB, 0, 0, CONTXT, LLDA,
     $                  INFO )
         CALL DESCINIT( DESCB, K, N, MB, NB, 0, 0, CONTXT, LLDB, INFO )
         CALL DESCINIT( DESCC, M, N, MB, NB, 0, 0, CONTXT, LLDC, INFO )
         IF( LLDA*NUMROC( KA, NB, MYCOL, 0, NPCOL ).GT.MAXLOC .OR.
     $       LLDB*NUMROC( N, NB, MYCOL, 0, NPCOL ).GT.MAXLOC .OR.
     $       LLDC*NUMROC( N, NB, MYCOL, 0, NPCOL ).GT.MAXLOC ) THEN
            WRITE( *, * ) 'MAXLOC too small for this grid'
            STOP 1
         END IF
*
*        Fill the local parts: global entry (I,J) of the local entry
*        (IROW,ICOL) comes from INDXL2G.
*
         DO 30 ICOL = 1, NUMROC( KA, NB, MYCOL, 0, NPCOL )
            J = INDXL2G( ICOL, NB, MYCOL, 0, NPCOL )
            DO 20 IROW = 1, NUMROC( MA, MB, MYROW, 0, NPROW )
               I = INDXL2G( IROW, MB, MYROW, 0, NPROW )
*              op(A)(I,J) is AV(I,J) in both cases: store A or A**T.
               IF( IT.EQ.1 ) THEN
                  A( IROW+(ICOL-1)*LLDA ) = AV( I, J )
               ELSE
                  A( IROW+(ICOL-1)*LLDA ) = AV( J, I )
               END IF
   20       CONTINUE
   30    CONTINUE
         DO 50 ICOL = 1, NUMROC( N, NB, MYCOL, 0, NPCOL )
            J = INDXL2G( ICOL, NB, MYCOL, 0, NPCOL )
            DO 40 IROW = 1, NUMROC( K, MB, MYROW, 0, NPROW )
               I = INDXL2G( IROW, MB, MYROW, 0, NPROW )
               B( IROW+(ICOL-1)*LLDB ) = BV( I, J )
   40       CONTINUE
            DO 45 IROW = 1, NUMROC( M, MB, MYROW, 0, NPROW )
               I = INDXL2G( IROW, MB, MYROW, 0, NPROW )
               C( IROW+(ICOL-1)*LLDC ) = CV( I, J )
   45       CONTINUE
   50    CONTINUE
*
         CALL PDGEMM( TRANSA, 'N', M, N, K, ALPHA, A, 1, 1, DESCA, B,
     $                1, 1, DESCB, BETA, C, 1, 1, DESCC )
*
*        Check every local entry of C.
*
         DO 80 ICOL = 1, NUMROC( N, NB, MYCOL, 0, NPCOL )
            J = INDXL2G( ICOL, NB, MYCOL, 0, NPCOL )
            DO 70 IROW = 1, NUMROC( M, MB, MYROW, 0, NPROW )
               I = INDXL2G( IROW, MB, MYROW, 0, NPROW )
               EXACT = BETA*CV( I, J )
               DO 60 L = 1, K
                  EXACT = EXACT + ALPHA*AV( I, L )*BV( L, J )
   60          CONTINUE
               IF( C( IROW+(ICOL-1)*LLDC ).NE.EXACT )
     $            NERR = NERR + 1
   70       CONTINUE
   80    CONTINUE
   90 CONTINUE
*
      CALL IGSUM2D( CONTXT, 'All', ' ', 1, 1, NERR, 1, -1, -1 )
      IF( IAM.EQ.0 ) THEN
         IF( NERR.EQ.0 ) THEN
            WRITE( *, FMT = 9999 ) NPROW, NPCOL, M, N, K, 'PASSED'
         ELSE
            WRITE( *, FMT = 9999 ) NPROW, NPCOL, M, N, K, 'FAILED'
            WRITE( *, * ) NERR, ' wrong entries'
         END IF
      END IF
      CALL BLACS_GRIDEXIT( CONTXT )
      CALL BLACS_EXIT( 0 )
      IF( NERR.NE.0 )
     $   STOP 1
      STOP
*
 9999 FORMAT( 'PDGEMM example on a ', I2, ' x ', I2, ' grid, M=', I4,
     $        ' N=', I4, ' K=', I4, ', op(A) = A and A**T: ', A )
      END
