! pumma_f90.f90 -- choosing pumma's algorithm and communication per call
! from Fortran 90, through the module `pumma`.
!
! Every algorithm is run on the TRANSA/TRANSB combination it computes,
! with every broadcast (named by the constants PUMMA_ALGO_*, PUMMA_BCAST_*); PUMMA_PZGEMMX then picks a reduce and a shift, and
! a bad code must come back as INFO. Each result is checked against
! MATMUL of the whole matrices, which every process builds from the same
! formulas; PUMMA_LASTPLAN must name the algorithm that was asked for.
! Prints one line per call and ends with "N passed, N failed".
program pumma_f90
  use pumma
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: m = 97, n = 81, k = 70, nb = 8
  integer, external :: numroc, indxl2g
  integer :: ctxt, iam, nprocs, nprow, npcol, myrow, mycol, info
  integer :: desca(9), descb(9), descc(9), opts(pumma_nopts)
  integer :: ia, ib, npass, nfail
  character(len=1) :: ta, tb
  character(len=80) :: plan
  real(dp), allocatable :: ga(:,:), gb(:,:), gc(:,:), a(:,:), b(:,:), c(:,:)
  complex(dp), allocatable :: za(:,:), zb(:,:), zc(:,:), gza(:,:), gzb(:,:), gzc(:,:)
  real(dp), parameter :: alpha = 1.5_dp, beta = 0.5_dp

  ! Every algorithm with the TRANSA/TRANSB it computes, and its name in
  ! PUMMA_LASTPLAN.
  integer, parameter :: nalgo = 10
  integer, parameter :: algos(nalgo) = [pumma_algo_sdb, pumma_algo_mdb1, &
       pumma_algo_mdb2, pumma_algo_sdb_row, pumma_algo_mdb1_row, &
       pumma_algo_mdb2_row, pumma_algo_tn, pumma_algo_nt, pumma_algo_tt, &
       pumma_algo_tt_local]
  character(len=*), parameter :: trans(nalgo) = ['NN', 'NN', 'NN', 'NN', &
       'NN', 'NN', 'TN', 'NT', 'TT', 'TT']
  character(len=8), parameter :: names(nalgo) = [character(len=8) :: 'sdb', &
       'mdb1', 'mdb2', 'sdb-row', 'mdb1-row', 'mdb2-row', 'tn', 'nt', 'tt', &
       'tt-local']
  integer, parameter :: nbcast = 10
  integer, parameter :: bcasts(nbcast) = [pumma_bcast_auto, pumma_bcast_mpi, &
       pumma_bcast_ring_inc, pumma_bcast_ring_dec, pumma_bcast_ring_split, &
       pumma_bcast_mst, pumma_bcast_binomial, pumma_bcast_binary, &
       pumma_bcast_pipeline, pumma_bcast_linear]
  character(len=10), parameter :: bnames(nbcast) = [character(len=10) :: &
       'auto', 'mpi', 'ring-inc', 'ring-dec', 'ring-split', 'mst', &
       'binomial', 'binary', 'pipeline', 'linear']

  call blacs_pinfo(iam, nprocs)
  nprow = 1
  do ia = 1, nprocs
    if (ia * ia <= nprocs .and. mod(nprocs, ia) == 0) nprow = ia
  end do
  npcol = nprocs / nprow
  call blacs_get(-1, 0, ctxt)
  call blacs_gridinit(ctxt, 'R', nprow, npcol)
  call blacs_gridinfo(ctxt, nprow, npcol, myrow, mycol)
  npass = 0
  nfail = 0

  ! Real double precision: every algorithm x every broadcast.
  do ia = 1, nalgo
    ta = trans(ia)(1:1)
    tb = trans(ia)(2:2)
    do ib = 1, nbcast
      call setup_d(ta, tb)
      call pumma_pdgemm(ta, tb, m, n, k, alpha, a, 1, 1, desca, b, 1, 1, &
                        descb, beta, c, 1, 1, descc, algos(ia), bcasts(ib), &
                        info)
      call pumma_lastplan(plan)
      ! (An algorithm that broadcasts nothing on this grid shows bcast=-.)
      call report('pumma_pdgemm ' // trans(ia) // ' ' // trim(names(ia)) // &
                  '/' // trim(bnames(ib)) // ': ' // trim(plan), &
                  info == 0 .and. check_d() .and. &
                  index(plan, 'algo=' // trim(names(ia)) // ' ') == 1 .and. &
                  (ib == 1 .or. index(plan, 'bcast=- ') > 0 .or. &
                   index(plan, 'bcast=' // trim(bnames(ib)) // ' ') > 0))
    end do
  end do

  ! pumma's own choice.
  call setup_d('N', 'N')
  call pumma_pdgemm('N', 'N', m, n, k, alpha, a, 1, 1, desca, b, 1, 1, descb, &
                  beta, c, 1, 1, descc, pumma_algo_auto, pumma_bcast_auto, info)
  call pumma_lastplan(plan)
  call report('pumma_pdgemm NN auto: ' // trim(plan), info == 0 .and. check_d())

  ! Complex: tn with the ring reduce and the odd-even shift, all in OPTS.
  call setup_z()
  opts = 0
  opts(pumma_opt_algo) = pumma_algo_tn
  opts(pumma_opt_reduce) = pumma_reduce_ring
  opts(pumma_opt_shift) = pumma_shift_oddeven
  call pumma_pzgemmx('C', 'N', m, n, k, (1.0_dp, -2.0_dp), za, 1, 1, desca, &
                     zb, 1, 1, descb, (0.5_dp, 0.25_dp), zc, 1, 1, descc, &
                     opts, info)
  call pumma_lastplan(plan)
  call report('pumma_pzgemmx CN ' // trim(plan), info == 0 .and. check_z() &
              .and. index(plan, 'algo=tn ') == 1 &
              .and. (index(plan, 'reduce=ring ') > 0 .or. nprow == 1) &
              .and. (index(plan, 'shift=oddeven') > 0 .or. npcol == 1))

  ! Bad codes: INFO says which, and C is left alone.
  call setup_d('N', 'N')
  gc = c
  call pumma_pdgemm('N', 'N', m, n, k, alpha, a, 1, 1, desca, b, 1, 1, descb, &
                    beta, c, 1, 1, descc, 99, pumma_bcast_auto, info)
  call report('bad ALGO gives INFO=-20', info == -20 .and. all(c == gc))
  call pumma_pdgemm('N', 'N', m, n, k, alpha, a, 1, 1, desca, b, 1, 1, descb, &
                    beta, c, 1, 1, descc, pumma_algo_auto, -1, info)
  call report('bad BCAST gives INFO=-21', info == -21 .and. all(c == gc))
  opts = 0
  opts(pumma_opt_segment) = -1
  call pumma_pdgemmx('N', 'N', m, n, k, alpha, a, 1, 1, desca, b, 1, 1, descb, &
                     beta, c, 1, 1, descc, opts, info)
  call report('negative segment gives INFO=-24', info == -24 .and. all(c == gc))
  ! An illegal ScaLAPACK argument (M < 0) is returned too, not aborted on.
  call pumma_pdgemm('N', 'N', -1, n, k, alpha, a, 1, 1, desca, b, 1, 1, descb, &
                    beta, c, 1, 1, descc, pumma_algo_auto, pumma_bcast_auto, info)
  call report('M < 0 gives INFO=-3', info == -3 .and. all(c == gc))

  ! Every process counted the same verdicts (report makes them global).
  if (iam == 0) write (*, '(I0, " passed, ", I0, " failed")') npass, nfail
  call blacs_gridexit(ctxt)
  call blacs_exit(0)
  if (nfail /= 0) stop 1

contains

  ! op(A) is m x k, op(B) is k x n: A is stored m x k or k x m.
  subroutine setup_d(ta, tb)
    character(len=1), intent(in) :: ta, tb
    integer :: ma, ka, kb, nbb
    ma = m; ka = k; kb = k; nbb = n
    if (ta /= 'N') then
      ma = k; ka = m
    end if
    if (tb /= 'N') then
      kb = n; nbb = k
    end if
    if (allocated(ga)) deallocate(ga, gb, gc, a, b, c)
    allocate(ga(ma, ka), gb(kb, nbb), gc(m, n))
    call fill(ga); call fill(gb); call fill(gc)
    call distribute(ga, a, desca)
    call distribute(gb, b, descb)
    call distribute(gc, c, descc)
    ! The reference, from the global copies.
    if (ta /= 'N') ga = transpose(ga)
    if (tb /= 'N') gb = transpose(gb)
    gc = alpha * matmul(ga, gb) + beta * gc
  end subroutine setup_d

  subroutine setup_z()
    real(dp), allocatable :: re(:,:), im(:,:)
    if (allocated(gza)) deallocate(gza, gzb, gzc, za, zb, zc)
    allocate(re(k, m), im(k, m))
    call fill(re); call fill(im)
    gza = cmplx(re, -im, dp)
    deallocate(re, im)
    allocate(re(k, n), im(k, n))
    call fill(re); call fill(im)
    gzb = cmplx(im, re, dp)
    deallocate(re, im)
    allocate(re(m, n), im(m, n))
    call fill(re); call fill(im)
    gzc = cmplx(re, im, dp)
    call distribute_z(gza, za, desca)
    call distribute_z(gzb, zb, descb)
    call distribute_z(gzc, zc, descc)
    gzc = (1.0_dp, -2.0_dp) * matmul(conjg(transpose(gza)), gzb) &
          + (0.5_dp, 0.25_dp) * gzc
  end subroutine setup_z

  ! Values in [-1, 1] that every process computes alike.
  subroutine fill(x)
    real(dp), intent(out) :: x(:,:)
    integer :: i, j
    do j = 1, size(x, 2)
      do i = 1, size(x, 1)
        x(i, j) = real(mod(7 * i + 13 * j + size(x, 1), 17) - 8, dp) / 8.0_dp
      end do
    end do
  end subroutine fill

  ! The local part of global x on this process, block-cyclic nb x nb.
  subroutine distribute(x, loc, desc)
    real(dp), intent(in) :: x(:,:)
    real(dp), allocatable, intent(out) :: loc(:,:)
    integer, intent(out) :: desc(9)
    integer :: mloc, nloc, i, j, st
    mloc = numroc(size(x, 1), nb, myrow, 0, nprow)
    nloc = numroc(size(x, 2), nb, mycol, 0, npcol)
    call descinit(desc, size(x, 1), size(x, 2), nb, nb, 0, 0, ctxt, &
                  max(1, mloc), st)
    allocate(loc(max(1, mloc), max(1, nloc)))
    do j = 1, nloc
      do i = 1, mloc
        loc(i, j) = x(indxl2g(i, nb, myrow, 0, nprow), &
                      indxl2g(j, nb, mycol, 0, npcol))
      end do
    end do
  end subroutine distribute

  subroutine distribute_z(x, loc, desc)
    complex(dp), intent(in) :: x(:,:)
    complex(dp), allocatable, intent(out) :: loc(:,:)
    integer, intent(out) :: desc(9)
    integer :: mloc, nloc, i, j, st
    mloc = numroc(size(x, 1), nb, myrow, 0, nprow)
    nloc = numroc(size(x, 2), nb, mycol, 0, npcol)
    call descinit(desc, size(x, 1), size(x, 2), nb, nb, 0, 0, ctxt, &
                  max(1, mloc), st)
    allocate(loc(max(1, mloc), max(1, nloc)))
    do j = 1, nloc
      do i = 1, mloc
        loc(i, j) = x(indxl2g(i, nb, myrow, 0, nprow), &
                      indxl2g(j, nb, mycol, 0, npcol))
      end do
    end do
  end subroutine distribute_z

  ! This process's part of C against the reference gc.
  logical function check_d()
    integer :: i, j
    check_d = .true.
    do j = 1, numroc(n, nb, mycol, 0, npcol)
      do i = 1, numroc(m, nb, myrow, 0, nprow)
        if (abs(c(i, j) - gc(indxl2g(i, nb, myrow, 0, nprow), &
                             indxl2g(j, nb, mycol, 0, npcol))) &
            > 1.0e-12_dp * k) check_d = .false.
      end do
    end do
  end function check_d

  logical function check_z()
    integer :: i, j
    check_z = .true.
    do j = 1, numroc(n, nb, mycol, 0, npcol)
      do i = 1, numroc(m, nb, myrow, 0, nprow)
        if (abs(zc(i, j) - gzc(indxl2g(i, nb, myrow, 0, nprow), &
                               indxl2g(j, nb, mycol, 0, npcol))) &
            > 1.0e-12_dp * k) check_z = .false.
      end do
    end do
  end function check_z

  ! One line per call from process 0, with every process's verdict.
  subroutine report(what, ok)
    character(len=*), intent(in) :: what
    logical, intent(in) :: ok
    integer :: bad(1)
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
end program pumma_f90
