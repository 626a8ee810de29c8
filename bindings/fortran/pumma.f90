! pumma.f90 -- the Fortran 90 module `pumma`: explicit interfaces for
! pumma's extended routines and the named constants of its algorithms and
! communication variants.
!
!   USE pumma
!
! The drop-in routines PSGEMM, PDGEMM, PCGEMM and PZGEMM are deliberately
! not declared here: ScaLAPACK programs declare them EXTERNAL, and a module
! interface for the same name would make such a unit fail to compile once
! it adds USE pumma. They keep ScaLAPACK's implicit interface.
!
! The constants come from pumma_codes.fh, generated from the C header
! pumma_codes.h, so C and Fortran share one list. The module holds
! interfaces and constants only: nothing of it needs to be linked.
!
! Arguments follow ScaLAPACK's P?GEMM (see README): A, B and C are the local
! arrays (any rank; they are passed by sequence association), DESCA, DESCB,
! DESCC descriptors of 9 or 11 integers. INFO is 0 or the (negative) code
! of the first illegal argument; these routines never abort the program.
module pumma
  implicit none
  private :: sp, dp
  integer, parameter :: sp = kind(1.0), dp = kind(1.0d0)

  include 'pumma_codes.fh'

  ! PUMMA_P?GEMM: P?GEMM with a per-call algorithm and broadcast
  ! (PUMMA_ALGO_*, PUMMA_BCAST_*; PUMMA_*_AUTO = 0 leaves the choice to
  ! the environment or to pumma). INFO -20: bad ALGO, -21: bad BCAST.
  !
  ! There is no generic name over S/D/C/Z: generic resolution matches
  ! array ranks exactly, which would refuse the two-dimensional local
  ! arrays programs pass to these assumed-size dummies.
  interface
    subroutine pumma_psgemm(transa, transb, m, n, k, alpha, a, ia, ja, &
                            desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                            algo, bcast, info)
      import :: sp
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc, algo, bcast
      integer, intent(in) :: desca(*), descb(*), descc(*)
      real(sp), intent(in) :: alpha, beta, a(*), b(*)
      real(sp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_psgemm
    subroutine pumma_pdgemm(transa, transb, m, n, k, alpha, a, ia, ja, &
                            desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                            algo, bcast, info)
      import :: dp
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc, algo, bcast
      integer, intent(in) :: desca(*), descb(*), descc(*)
      real(dp), intent(in) :: alpha, beta, a(*), b(*)
      real(dp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_pdgemm
    subroutine pumma_pcgemm(transa, transb, m, n, k, alpha, a, ia, ja, &
                            desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                            algo, bcast, info)
      import :: sp
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc, algo, bcast
      integer, intent(in) :: desca(*), descb(*), descc(*)
      complex(sp), intent(in) :: alpha, beta, a(*), b(*)
      complex(sp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_pcgemm
    subroutine pumma_pzgemm(transa, transb, m, n, k, alpha, a, ia, ja, &
                            desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                            algo, bcast, info)
      import :: dp
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc, algo, bcast
      integer, intent(in) :: desca(*), descb(*), descc(*)
      complex(dp), intent(in) :: alpha, beta, a(*), b(*)
      complex(dp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_pzgemm
  end interface

  ! PUMMA_P?GEMMX: every per-call choice, OPTS(PUMMA_NOPTS) with
  ! OPTS(PUMMA_OPT_ALGO), OPTS(PUMMA_OPT_BCAST), OPTS(PUMMA_OPT_REDUCE),
  ! OPTS(PUMMA_OPT_SHIFT) (codes; 0 = auto) and OPTS(PUMMA_OPT_SEGMENT)
  ! (bytes per pipelined piece; 0 = default). INFO -20..-23: bad code in
  ! OPTS(1..4), -24: OPTS(5) < 0.
  interface
    subroutine pumma_psgemmx(transa, transb, m, n, k, alpha, a, ia, ja, &
                             desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                             opts, info)
      import :: sp, pumma_nopts
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc
      integer, intent(in) :: opts(pumma_nopts)
      integer, intent(in) :: desca(*), descb(*), descc(*)
      real(sp), intent(in) :: alpha, beta, a(*), b(*)
      real(sp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_psgemmx
    subroutine pumma_pdgemmx(transa, transb, m, n, k, alpha, a, ia, ja, &
                             desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                             opts, info)
      import :: dp, pumma_nopts
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc
      integer, intent(in) :: opts(pumma_nopts)
      integer, intent(in) :: desca(*), descb(*), descc(*)
      real(dp), intent(in) :: alpha, beta, a(*), b(*)
      real(dp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_pdgemmx
    subroutine pumma_pcgemmx(transa, transb, m, n, k, alpha, a, ia, ja, &
                             desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                             opts, info)
      import :: sp, pumma_nopts
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc
      integer, intent(in) :: opts(pumma_nopts)
      integer, intent(in) :: desca(*), descb(*), descc(*)
      complex(sp), intent(in) :: alpha, beta, a(*), b(*)
      complex(sp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_pcgemmx
    subroutine pumma_pzgemmx(transa, transb, m, n, k, alpha, a, ia, ja, &
                             desca, b, ib, jb, descb, beta, c, ic, jc, descc, &
                             opts, info)
      import :: dp, pumma_nopts
      character(len=1), intent(in) :: transa, transb
      integer, intent(in) :: m, n, k, ia, ja, ib, jb, ic, jc
      integer, intent(in) :: opts(pumma_nopts)
      integer, intent(in) :: desca(*), descb(*), descc(*)
      complex(dp), intent(in) :: alpha, beta, a(*), b(*)
      complex(dp), intent(inout) :: c(*)
      integer, intent(out) :: info
    end subroutine pumma_pzgemmx
  end interface

  interface
    ! What this process's last multiplying call ran, e.g.
    ! "algo=mdb2 bcast=ring-inc reduce=- shift=simultaneous", blank-padded
    ! or cut to LEN(PLAN) (80 characters always suffice).
    subroutine pumma_lastplan(plan)
      character(len=*), intent(out) :: plan
    end subroutine pumma_lastplan
    ! Peak bytes of temporaries pumma had in use at once in this process
    ! since the start or the last reset; RESET /= 0 then starts a new count
    ! (the temporaries kept for the next call are not counted).
    function pumma_mempeak(reset)
      integer(selected_int_kind(18)) :: pumma_mempeak
      integer, intent(in) :: reset
    end function pumma_mempeak
    ! Returns pumma's cached temporaries to the system; the bytes freed.
    function pumma_memrelease()
      integer(selected_int_kind(18)) :: pumma_memrelease
    end function pumma_memrelease
  end interface
end module pumma
