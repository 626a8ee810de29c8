! pumma.f90 -- the Fortran 90 module `pumma`: explicit interfaces for
! pumma's extended routines and the named constants of its algorithms and
! communication variants.
!
!   USE pumma
!
! The drop-in routines -- P?GEMM, P?SYMM, P?HEMM, P?SYRK, P?HERK, P?SYR2K,
! P?HER2K, P?TRMM, P?TRSM, P?GEADD, P?TRADD, P?TRAN, P?TRANU, P?TRANC --
! are deliberately not declared here: ScaLAPACK programs declare them
! EXTERNAL, and a module interface for the same name would make such a
! unit fail to compile once it adds USE pumma. They keep ScaLAPACK's
! implicit interface.
!
! The constants come from pumma_codes.fh, generated from the C header
! pumma_codes.h, so C and Fortran share one list. The module holds
! interfaces and constants only: nothing of it needs to be linked.
!
! Arguments follow ScaLAPACK's P?GEMM (see doc/routines.md, "P?GEMM"): A, B
! and C are the local arrays (any rank; they are passed by sequence
! association), DESCA, DESCB, DESCC descriptors of 9 or 11 integers. INFO is
! 0 or the (negative) code of the first illegal argument; these routines
! never abort the program.
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
  ! OPTS(PUMMA_OPT_SHIFT) (codes; 0 = auto), OPTS(PUMMA_OPT_SEGMENT)
  ! (bytes per pipelined piece; 0 = default) and OPTS(PUMMA_OPT_TOPO)
  ! (heterogeneous calls: PUMMA_TOPO_*; 0 = auto). INFO -20..-23: bad code
  ! in OPTS(1..4), -24: OPTS(5) < 0, -25: bad code in OPTS(6).
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
  ! Heterogeneous layouts (doc/heterogeneous.md, "Heterogeneous layouts").
  ! Processes are numbered 0..NP-1 in row-major order of the grid; indices
  ! are 1-based.
  interface
    subroutine pumma_layout_new(kind, m, n, np, speeds, layout, info)
      import :: dp
      integer, intent(in) :: kind, m, n, np
      real(dp), intent(in) :: speeds(*)
      integer, intent(out) :: layout, info
    end subroutine pumma_layout_new
    subroutine pumma_layout_clusters(kind, m, n, np, speeds, clusters, &
                                     layout, info)
      import :: dp
      integer, intent(in) :: kind, m, n, np, clusters(*)
      real(dp), intent(in) :: speeds(*)
      integer, intent(out) :: layout, info
    end subroutine pumma_layout_clusters
    subroutine pumma_layout_free(layout, info)
      integer, intent(in) :: layout
      integer, intent(out) :: info
    end subroutine pumma_layout_free
    subroutine pumma_layout_box(layout, proc, i0, j0, mloc, nloc, info)
      integer, intent(in) :: layout, proc
      integer, intent(out) :: i0, j0, mloc, nloc, info
    end subroutine pumma_layout_box
    subroutine pumma_layout_nrect(layout, proc, nrect, info)
      integer, intent(in) :: layout, proc
      integer, intent(out) :: nrect, info
    end subroutine pumma_layout_nrect
    subroutine pumma_layout_rect(layout, proc, r, i1, i2, j1, j2, info)
      integer, intent(in) :: layout, proc, r
      integer, intent(out) :: i1, i2, j1, j2, info
    end subroutine pumma_layout_rect
    subroutine pumma_layout_owner(layout, i, j, proc, info)
      integer, intent(in) :: layout, i, j
      integer, intent(out) :: proc, info
    end subroutine pumma_layout_owner
    subroutine pumma_layout_cost(layout, halfperim, lower, info)
      import :: dp
      integer, intent(in) :: layout
      real(dp), intent(out) :: halfperim, lower
      integer, intent(out) :: info
    end subroutine pumma_layout_cost
    subroutine pumma_sqcorner_rule(np, speeds, topo, volsq, volrect, better, &
                                   info)
      import :: dp
      integer, intent(in) :: np, topo
      real(dp), intent(in) :: speeds(*)
      real(dp), intent(out) :: volsq, volrect
      integer, intent(out) :: better, info
    end subroutine pumma_sqcorner_rule
    subroutine pumma_speeds_measure(ictxt, n, speeds, info)
      import :: dp
      integer, intent(in) :: ictxt, n
      real(dp), intent(out) :: speeds(*)
      integer, intent(out) :: info
    end subroutine pumma_speeds_measure
    subroutine pumma_grid_clusters(ictxt, clusters, info)
      integer, intent(in) :: ictxt, clusters(*)
      integer, intent(out) :: info
    end subroutine pumma_grid_clusters
    subroutine pumma_grid_clusters_get(ictxt, clusters, nc, info)
      integer, intent(in) :: ictxt
      integer, intent(out) :: clusters(*), nc, info
    end subroutine pumma_grid_clusters_get
    subroutine pumma_grid_shares(ictxt, kind, m, n, k, elsize, shares, info)
      import :: dp
      integer, intent(in) :: ictxt, kind, m, n, k, elsize
      real(dp), intent(out) :: shares(*)
      integer, intent(out) :: info
    end subroutine pumma_grid_shares
    subroutine pumma_descinit(desc, m, n, layout, ictxt, lld, info)
      integer, intent(out) :: desc(9), info
      integer, intent(in) :: m, n, layout, ictxt, lld
    end subroutine pumma_descinit
  end interface

  ! PUMMA_P?GEMR2D: sub(B) := sub(A) (M x N) between any two descriptors,
  ! block-cyclic or heterogeneous, of one context.
  interface
    subroutine pumma_psgemr2d(m, n, a, ia, ja, desca, b, ib, jb, descb, info)
      import :: sp
      integer, intent(in) :: m, n, ia, ja, ib, jb, desca(*), descb(*)
      real(sp), intent(in) :: a(*)
      real(sp), intent(inout) :: b(*)
      integer, intent(out) :: info
    end subroutine pumma_psgemr2d
    subroutine pumma_pdgemr2d(m, n, a, ia, ja, desca, b, ib, jb, descb, info)
      import :: dp
      integer, intent(in) :: m, n, ia, ja, ib, jb, desca(*), descb(*)
      real(dp), intent(in) :: a(*)
      real(dp), intent(inout) :: b(*)
      integer, intent(out) :: info
    end subroutine pumma_pdgemr2d
    subroutine pumma_pcgemr2d(m, n, a, ia, ja, desca, b, ib, jb, descb, info)
      import :: sp
      integer, intent(in) :: m, n, ia, ja, ib, jb, desca(*), descb(*)
      complex(sp), intent(in) :: a(*)
      complex(sp), intent(inout) :: b(*)
      integer, intent(out) :: info
    end subroutine pumma_pcgemr2d
    subroutine pumma_pzgemr2d(m, n, a, ia, ja, desca, b, ib, jb, descb, info)
      import :: dp
      integer, intent(in) :: m, n, ia, ja, ib, jb, desca(*), descb(*)
      complex(dp), intent(in) :: a(*)
      complex(dp), intent(inout) :: b(*)
      integer, intent(out) :: info
    end subroutine pumma_pzgemr2d
  end interface
end module pumma
