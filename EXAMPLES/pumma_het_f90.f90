! pumma_het_f90.f90 -- a heterogeneous layout from Fortran 90: three
! processes of unequal speed share C := A*B through the square-corner
! layout (or the rectangular one when square-corner does not pay).
!
! The speeds are measured (PUMMA_SPEEDS_MEASURE; run with PUMMA_SPEEDS to
! emulate unequal processors), the layout is chosen by the rule of Becker
! and Lastovetsky 2007 (PUMMA_SQCORNER_RULE), block-cyclic A and B move into
! it and C back out (PUMMA_PDGEMR2D), and the product is checked against
! ScaLAPACK-style PDGEMM on the block-cyclic originals. Needs exactly 3
! processes. Prints PASSED/FAILED lines and "N passed, N failed".
program pumma_het_f90
  use pumma
  implicit none
  integer, parameter :: dp = kind(1.0d0), n = 300, nb = 32
  integer, external :: numroc
  integer :: ctxt, iam, nprocs, nprow, npcol, myrow, mycol, info, me
  integer :: layout, lkind, better, i0, j0, mloc, nloc, lld, i
  integer :: desca(9), descb(9), descc(9), hdesc(9), npass, nfail
  real(dp) :: speeds(3), volsq, volrect, hp, lower
  real(dp), allocatable :: a(:,:), b(:,:), c(:,:), cref(:,:)
  real(dp), allocatable :: ha(:,:), hb(:,:), hc(:,:)
  character(len=80) :: plan

  integer :: bad(1)

  call blacs_pinfo(iam, nprocs)
  if (nprocs /= 3) then
    if (iam == 0) print *, 'pumma_het_f90 needs 3 processes'
    call blacs_exit(0)
    stop 1
  end if
  call blacs_get(-1, 0, ctxt)
  call blacs_gridinit(ctxt, 'R', 1, 3)
  call blacs_gridinfo(ctxt, nprow, npcol, myrow, mycol)
  me = myrow * npcol + mycol           ! process number in the layouts
  npass = 0
  nfail = 0

  ! Block-cyclic A, B, C and the reference C = A*B.
  call bc(a, desca, 1)
  call bc(b, descb, 2)
  call bc(c, descc, 0)
  call bc(cref, descc, 0)
  call pdgemm('N', 'N', n, n, n, 1.0_dp, a, 1, 1, desca, b, 1, 1, descb, &
              0.0_dp, cref, 1, 1, descc)

  ! The layout: measured speeds, square-corner when it moves less data.
  call pumma_speeds_measure(ctxt, 200, speeds, info)
  call report('PUMMA_SPEEDS_MEASURE', info == 0 .and. &
              abs(sum(speeds) - 1) < 1.0e-12_dp .and. all(speeds > 0))
  call pumma_sqcorner_rule(3, speeds, pumma_topo_full, volsq, volrect, &
                           better, info)
  lkind = merge(pumma_layout_square_corner, pumma_layout_rect3, better == 1)
  call pumma_layout_new(lkind, n, n, 3, speeds, layout, info)
  call report('PUMMA_LAYOUT_NEW', info == 0)
  call pumma_layout_cost(layout, hp, lower, info)
  if (iam == 0) write (*, '(A, 3F7.3, A, A, A, F8.4)') ' speeds', speeds, &
       ': ', trim(merge('square-corner', 'rect3        ', better == 1)), &
       ' layout, half-perimeters / lower bound', hp / lower

  ! This process's box, and heterogeneous descriptors for it.
  call pumma_layout_box(layout, me, i0, j0, mloc, nloc, info)
  lld = max(1, mloc)
  call pumma_descinit(hdesc, n, n, layout, ctxt, lld, info)
  call report('PUMMA_DESCINIT', info == 0)
  allocate(ha(lld, max(1, nloc)), hb(lld, max(1, nloc)), hc(lld, max(1, nloc)))
  ha = 0; hb = 0; hc = 0

  call pumma_pdgemr2d(n, n, a, 1, 1, desca, ha, 1, 1, hdesc, info)
  call pumma_pdgemr2d(n, n, b, 1, 1, descb, hb, 1, 1, hdesc, info)
  ! The plain ScaLAPACK call, on heterogeneous descriptors.
  call pdgemm('N', 'N', n, n, n, 1.0_dp, ha, 1, 1, hdesc, hb, 1, 1, hdesc, &
              0.0_dp, hc, 1, 1, hdesc)
  call pumma_lastplan(plan)
  call pumma_pdgemr2d(n, n, hc, 1, 1, hdesc, c, 1, 1, descc, info)
  call report('PDGEMM on the layout: ' // trim(plan), &
              info == 0 .and. maxval(abs(c - cref)) < 1.0e-10_dp)

  ! Descriptors may be mixed: heterogeneous A and B, the product straight
  ! into the block-cyclic C the rest of the program keeps.
  c = 0
  call pumma_pdgemmx('N', 'N', n, n, n, 1.0_dp, ha, 1, 1, hdesc, hb, 1, 1, &
                     hdesc, 0.0_dp, c, 1, 1, descc, [(0, i = 1, pumma_nopts)], &
                     info)
  call report('heterogeneous A and B into block-cyclic C', &
              info == 0 .and. maxval(abs(c - cref)) < 1.0e-10_dp)
  ! A window that passes the matrix's end is reported as ScaLAPACK does,
  ! at the index's position (IA: -8).
  call pumma_pdgemmx('N', 'N', n, n, n, 1.0_dp, ha, 2, 1, hdesc, hb, 1, 1, &
                     hdesc, 0.0_dp, c, 1, 1, descc, [(0, i = 1, pumma_nopts)], &
                     info)
  call report('a window past the end gives INFO=-8', info == -8)

  call pumma_layout_free(layout, info)
  if (iam == 0) write (*, '(I0, " passed, ", I0, " failed")') npass, nfail
  call blacs_gridexit(ctxt)
  call blacs_exit(0)
  if (nfail /= 0) stop 1

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
        x(ii, jj) = real(mod(gi * 7 + gj * 3 + id * 5, 9) - 4, dp) / 4
      end do
    end do
  end subroutine bc

  subroutine report(what, ok)
    character(len=*), intent(in) :: what
    logical, intent(in) :: ok
    bad(1) = merge(0, 1, ok)
    call igsum2d(ctxt, 'All', ' ', 1, 1, bad, 1, -1, -1)
    if (bad(1) == 0) then
      npass = npass + 1
      if (iam == 0) write (*, '("PASSED ", A)') what
    else
      nfail = nfail + 1
      if (iam == 0) write (*, '("FAILED ", A, " (INFO=", I0, ")")') what, info
    end if
  end subroutine report
end program pumma_het_f90
