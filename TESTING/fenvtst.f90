! fenvtst.f90 -- a Fortran program that ends with STOP, as users' do:
! gfortran then reports every IEEE flag left raised ("Note: The following
! floating-point exceptions are signalling: ..."), so pumma's own
! bookkeeping (timing, models, planning) must leave none. fenvtst.sh runs
! it on 2 processes (a 1 x 2 grid) and fails if that note appears.
!
! Ordinary data (small fractions: the products are inexact, which gfortran
! does not report, and raise nothing else): block-cyclic PDGEMM in several
! shapes, the speeds measured, a heterogeneous layout from them, A and B
! moved into it and PDGEMM on it (pumma measures the grid's rates there).
! Prints "fenvtst.f90: PASSED" on rank 0 when every product is right.
program fenvtst
  use pumma
  implicit none
  integer, parameter :: dp = kind(1.0d0), n = 64, nb = 8
  integer, external :: numroc
  integer :: ctxt, iam, nprocs, nprow, npcol, myrow, mycol, info, me
  integer :: layout, i0, j0, mloc, nloc, lld, better, bad(1)
  integer :: desca(9), descb(9), descc(9), hdesc(9)
  real(dp) :: speeds(2), volsq, volrect
  real(dp), allocatable :: a(:,:), b(:,:), c(:,:), cref(:,:)
  real(dp), allocatable :: ha(:,:), hb(:,:), hc(:,:)
  logical :: ok

  call blacs_pinfo(iam, nprocs)
  call blacs_get(-1, 0, ctxt)
  call blacs_gridinit(ctxt, 'R', 1, nprocs)
  call blacs_gridinfo(ctxt, nprow, npcol, myrow, mycol)
  me = myrow * npcol + mycol
  ok = .true.

  call bc(a, desca, 1)
  call bc(b, descb, 2)
  call bc(c, descc, 0)
  call bc(cref, descc, 0)
  call pdgemm('N', 'N', n, n, n, 1.0_dp, a, 1, 1, desca, b, 1, 1, descb, &
              0.0_dp, cref, 1, 1, descc)
  call pdgemm('T', 'N', n, n, n, 1.5_dp, a, 1, 1, desca, b, 1, 1, descb, &
              0.5_dp, c, 1, 1, descc)
  call pdgemm('N', 'T', n - 3, n - 5, n - 7, -1.0_dp, a, 2, 3, desca, b, 4, &
              1, descb, 2.0_dp, c, 1, 2, descc)
  call pdgemm('T', 'T', n, n, n, 1.0_dp, a, 1, 1, desca, b, 1, 1, descb, &
              0.0_dp, c, 1, 1, descc)

  ! Measured speeds, a layout from them, PDGEMM on it.
  call pumma_speeds_measure(ctxt, 64, speeds, info)
  ok = ok .and. info == 0
  call pumma_sqcorner_rule(nprocs, speeds, pumma_topo_full, volsq, volrect, &
                           better, info)
  call pumma_layout_new(pumma_layout_columns, n, n, nprocs, speeds, layout, &
                        info)
  ok = ok .and. info == 0
  call pumma_layout_box(layout, me, i0, j0, mloc, nloc, info)
  lld = max(1, mloc)
  call pumma_descinit(hdesc, n, n, layout, ctxt, lld, info)
  ok = ok .and. info == 0
  allocate(ha(lld, max(1, nloc)), hb(lld, max(1, nloc)), hc(lld, max(1, nloc)))
  call pumma_pdgemr2d(n, n, a, 1, 1, desca, ha, 1, 1, hdesc, info)
  call pumma_pdgemr2d(n, n, b, 1, 1, descb, hb, 1, 1, hdesc, info)
  hc = 0
  call pdgemm('N', 'N', n, n, n, 1.0_dp, ha, 1, 1, hdesc, hb, 1, 1, hdesc, &
              0.0_dp, hc, 1, 1, hdesc)
  c = 0
  call pumma_pdgemr2d(n, n, hc, 1, 1, hdesc, c, 1, 1, descc, info)
  ok = ok .and. info == 0 .and. maxval(abs(c - cref)) < 1.0e-12_dp
  call pumma_layout_free(layout, info)

  bad(1) = merge(0, 1, ok)
  call igsum2d(ctxt, 'All', ' ', 1, 1, bad, 1, -1, -1)
  if (iam == 0) write (*, '(A)') 'fenvtst.f90: ' // &
       trim(merge('PASSED', 'FAILED', bad(1) == 0))
  call blacs_gridexit(ctxt)
  call blacs_exit(0)
  if (bad(1) /= 0) stop 1
  stop

contains

  ! A block-cyclic n x n matrix with entries from seed id (0: zeros).
  subroutine bc(x, desc, id)
    real(dp), allocatable, intent(out) :: x(:,:)
    integer, intent(out) :: desc(9)
    integer, intent(in) :: id
    integer :: ml, nl, st, ii, jj, gi, gj
    ml = numroc(n, nb, myrow, 0, nprow)
    nl = numroc(n, nb, mycol, 0, npcol)
    call descinit(desc, n, n, nb, nb, 0, 0, ctxt, max(1, ml), st)
    allocate(x(max(1, ml), max(1, nl)))
    x = 0
    if (id == 0) return
    do jj = 1, nl
      do ii = 1, ml
        gi = ((ii - 1) / nb * nprow + myrow) * nb + mod(ii - 1, nb) + 1
        gj = ((jj - 1) / nb * npcol + mycol) * nb + mod(jj - 1, nb) + 1
        x(ii, jj) = real(mod(gi * 7 + gj * 3 + id * 5, 9) - 4, dp) / 7
      end do
    end do
  end subroutine bc
end program fenvtst
