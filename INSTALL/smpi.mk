# INSTALL/smpi.mk -- `make smpi` and `make smpi-smoke` (the top Makefile
# passes them here): pumma and ScaLAPACK built for SimGrid's SMPI, in
# build directories of their own (SMPI_DIR, default build-smpi), never
# touching the native build. doc/smpi.md says what each piece is for.
#
#   make smpi SCALAPACK_SRC=path/to/scalapack-2.2.1.tar.gz
#   make smpi-smoke SCALAPACK_SRC=...   pumma against ScaLAPACK, simulated
#
# Needs smpicc and smpiff (Debian's libsimgrid-dev: `make deps` installs
# it) and ScaLAPACK's release source, given as SCALAPACK_SRC: a tarball
# or an unpacked directory. Nothing of it is copied into the repository.
#
# ScaLAPACK is built with its own makefiles, unchanged, in an unpacked
# copy under SMPI_DIR: BLACS, TOOLS, PBLAS and all of SRC, four
# precisions, one precision at a time (its makefiles add every precision
# to one archive and are not safe to run in parallel across them; nor is
# TOOLS within one, whose LAPACK part and integer part each run ar on
# it). BLACS is made in BLACS/SRC itself: BLACS/Makefile calls a plain
# `make`, which drops the job server, and its 165 files took one core. Its
# Fortran is compiled with -fno-f2c after smpiff's own -ff2c: with f2c's
# conventions its REAL and COMPLEX functions and its calls to the BLAS's
# (SDOT, CDOTC) disagree with the BLAS. Its own definitions of the
# routines pumma serves (P?GEMM and the rest of the Level 3, SL_SERVED)
# are renamed pumma_scalapack_p?xxx_ in the archive (objcopy on those
# objects only, so its solvers still call pumma's): the static link SMPI
# needs has no dlsym(RTLD_NEXT) to find them.
# pumma is compiled with smpicc and -DPUMMA_SMPI (SRC/driver/pumma_switch.c).
# SMPI's gaps are filled by INSTALL/smpi/pumma_smpi_compat.c; the
# programs' ?GEMM (pumma's and ScaLAPACK's) go through
# INSTALL/smpi/pumma_smpi_blas.c, which runs the BLAS's or charges the
# compute model PUMMA_SMPI_COMPUTE names; INSTALL/smpi/pumma_smpi_count.c
# counts the words each process receives (MPI's profiling layer).

TOP       := $(abspath .)
SMPI_DIR  ?= $(TOP)/build-smpi
SMPICC    ?= smpicc
SMPIFF    ?= smpiff
SMPIRUN   ?= smpirun
SMPI_JOBS ?= 2
# all: ScaLAPACK's SRC too (the solvers); pblas: BLACS, TOOLS and PBLAS
# only, what P?GEMM needs (the CI's smoke run: a minute instead of four)
SMPI_SCALAPACK ?= all
SCALAPACK_SRC ?=
BLASLIB   ?= -lblas
LAPACKLIB ?= -llapack

SLDIR   := $(SMPI_DIR)/scalapack
SLLIB   := $(SMPI_DIR)/lib/libscalapack-smpi-$(SMPI_SCALAPACK).a
PLIB    := $(SMPI_DIR)/lib/libpumma.a
COMPAT  := $(SMPI_DIR)/compat/pumma_smpi_compat.o \
           $(SMPI_DIR)/compat/pumma_smpi_blas.o \
           $(SMPI_DIR)/compat/pumma_smpi_count.o
BIN     := $(SMPI_DIR)/bin
SL_VARS  = CC=$(SMPICC) FC=$(SMPIFF) CDEFS=-DAdd_ CCFLAGS=-O2 \
           'FCFLAGS=-O2 -fno-f2c -fallow-argument-mismatch'
PRECISIONS := single double complex complex16
PCFLAGS := -O2 -fPIC -Wall -Wno-unused-parameter -DPUMMA_SMPI

.PHONY: smpi smpi-smoke need-src need-smpi pumma-smpi
smpi: $(BIN)/xpgemmcmp $(BIN)/xpgemmtim $(BIN)/xcommtim $(BIN)/pumma-tune \
      $(BIN)/xhiertim $(BIN)/xhiergemm \
      $(BIN)/xexectim $(BIN)/xl3tim \
      $(if $(filter all,$(SMPI_SCALAPACK)),$(BIN)/xsolvertim $(BIN)/xscaletim)
	@echo "make smpi: pumma $(PLIB), ScaLAPACK $(SLLIB)"
	@echo "  run: make smpi-smoke SCALAPACK_SRC=$(SCALAPACK_SRC)   (doc/smpi.md)"

need-smpi:
	@for c in $(SMPICC) $(SMPIFF) $(SMPIRUN); do command -v $$c >/dev/null 2>&1 || { \
	  echo "make smpi: $$c not found: SimGrid's SMPI is needed (Debian: apt-get install libsimgrid-dev, or make deps)"; exit 1; }; done

need-src:
	@[ -n "$(SCALAPACK_SRC)" ] || { echo "make smpi: give ScaLAPACK's release source as SCALAPACK_SRC=path (a .tar.gz or an unpacked directory; e.g. scalapack-2.2.1.tar.gz from https://github.com/Reference-ScaLAPACK/scalapack/releases; beside this repository: ../shared/vendor/scalapack-2.2.1.tar.gz)"; exit 1; }
	@[ -e "$(SCALAPACK_SRC)" ] || { echo "make smpi: SCALAPACK_SRC=$(SCALAPACK_SRC): no such file or directory"; exit 1; }

# The unpacked copy, made once (for another source: rm -r $(SMPI_DIR)/scalapack).
$(SLDIR)/.unpacked: | need-src need-smpi
	@rm -rf $(SLDIR) && mkdir -p $(SLDIR)
	@if [ -d "$(SCALAPACK_SRC)" ]; then cp -R "$(SCALAPACK_SRC)"/. $(SLDIR)/; \
	 else tar -xzf "$(SCALAPACK_SRC)" -C $(SLDIR) --strip-components=1; fi
	@[ -f $(SLDIR)/SLmake.inc.example ] && [ -d $(SLDIR)/PBLAS ] || { \
	  echo "make smpi: $(SCALAPACK_SRC) does not hold ScaLAPACK's source (no SLmake.inc.example, PBLAS/)"; exit 1; }
	@cp $(SLDIR)/SLmake.inc.example $(SLDIR)/SLmake.inc
	@touch $@

# The objects of the routines pumma serves (SRC/fortran), whose
# definitions are renamed pumma_scalapack_<name> in the archive.
SL_SERVED := ^p[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm|geadd|tradd|tran|tranu|tranc)_\.o$$

$(SLLIB): $(SLDIR)/.unpacked
	@echo "make smpi: ScaLAPACK with $(SMPICC) and $(SMPIFF) in $(SLDIR) (a few minutes)"
	@set -e; cd $(SLDIR); rm -f libscalapack.a; \
	  $(MAKE) -C BLACS/SRC -j$(SMPI_JOBS) lib $(SL_VARS) > build.log 2>&1 || { tail -20 build.log; exit 1; }; \
	  for p in $(PRECISIONS); do \
	    $(MAKE) -C TOOLS $$p $(SL_VARS) >> build.log 2>&1 && \
	    $(MAKE) -C PBLAS/SRC -j$(SMPI_JOBS) $$p $(SL_VARS) >> build.log 2>&1 && \
	    { [ "$(SMPI_SCALAPACK)" = pblas ] || \
	      $(MAKE) -C SRC -j$(SMPI_JOBS) $$p $(SL_VARS) >> build.log 2>&1; } || { tail -20 build.log; exit 1; }; \
	  done
	@set -e; mkdir -p $(dir $@) $(SLDIR)/renamed; cp $(SLDIR)/libscalapack.a $@.tmp; \
	  cd $(SLDIR)/renamed; for o in $$(ar t $@.tmp | grep -E '$(SL_SERVED)'); do \
	    s=$${o%.o}; ar x $@.tmp $$o; \
	    objcopy --redefine-sym $$s=pumma_scalapack_$$s $$o; \
	    ar r $@.tmp $$o; done; mv $@.tmp $@

# pumma's own makefile, its rules and dependencies, with smpicc.
pumma-smpi: | need-smpi
	@$(MAKE) --no-print-directory -j$(SMPI_JOBS) BUILD=$(SMPI_DIR)/pumma LIBOUT=$(SMPI_DIR)/lib \
	  CC=$(SMPICC) CCFLAGS='$(PCFLAGS)' $(PLIB)

$(SMPI_DIR)/compat/%.o: INSTALL/smpi/%.c | need-smpi
	@mkdir -p $(dir $@)
	$(SMPICC) -O2 -Wall -c -o $@ $<

$(SMPI_DIR)/testing/%.o: TESTING/%.c | need-smpi
	@mkdir -p $(dir $@)
	$(SMPICC) -O2 -std=c99 -DAdd_ -DPUMMA_SMPI -ISRC/include -ITESTING -c -o $@ $<

$(SMPI_DIR)/tools/%.o: SRC/tools/%.c | need-smpi
	@mkdir -p $(dir $@)
	$(SMPICC) -O2 -std=c99 -DPUMMA_SMPI -ISRC/include -c -o $@ $<

$(SMPI_DIR)/timing/%.o: TIMING/%.c | need-smpi
	@mkdir -p $(dir $@)
	$(SMPICC) -O2 -std=c99 -DAdd_ -DPUMMA_SMPI -ISRC/include -ITIMING -c -o $@ $<

# One static link: pumma and ScaLAPACK in a group, since each calls the
# other (ScaLAPACK's solvers call pumma's PDGEMM). pumma_switch.c's
# references to ScaLAPACK's renamed routines are weak, and pull nothing out
# of the archive: -u does, so that pumma_use(0) finds them in every
# program (xscaletim's and xsolvertim's ScaLAPACK runs had none: "no other
# pdgemm_ in this program").
SL_L3 := $(foreach p,s d c z,$(foreach r,gemm symm syrk syr2k trmm trsm geadd tradd,p$(p)$(r))) \
         pchemm pzhemm pcherk pzherk pcher2k pzher2k pstran pdtran pctranu pztranu \
         pctranc pztranc
SMPI_LINK = $(SMPICC) -O2 -o $@ $< $(foreach r,$(SL_L3),-Wl,-u,pumma_scalapack_$(r)_) \
            -Wl,--start-group $(PLIB) \
            $(SLLIB) -Wl,--end-group $(COMPAT) $(LAPACKLIB) $(BLASLIB) -lgfortran -lm

# The smoke run: TESTING/pgemmcmp.c's random calls, pumma's P?GEMM
# against ScaLAPACK's on the same data (S D C Z, grids 1x1 to 4x4, 2x8,
# 8x2), simulated on a cluster of SMOKE_HOSTS hosts
# (INSTALL/smpi/cluster.sh). smpirun's exit status says nothing (0 after
# an MPI_Abort too): the verdict is the program's last line.
# smpi/test: a failed MPI_Test costs 0.1 us of simulated time, not SMPI's
# default 100 us (which grows while it keeps failing).
SMOKE_NP    ?= 16
SMOKE_HOSTS ?= 16
SMOKE_CASES ?= 40
SMOKE_CUBE  ?= split layers
SMOKE_CUBE_CASES ?= 12
SMPIRUN_CFG ?= --cfg=smpi/test:1e-7 --cfg=smpi/host-speed:50Gf
smpi-smoke: smpi
	@cd $(SMPI_DIR) && sh $(TOP)/INSTALL/smpi/cluster.sh smoke $(SMOKE_HOSTS) 50Gf 25Gbps 1us
	cd $(SMPI_DIR) && $(SMPIRUN) -np $(SMOKE_NP) -platform smoke.xml -hostfile smoke.hosts \
	  $(SMPIRUN_CFG) --log=root.thres:warning ./bin/xpgemmcmp $(SMOKE_CASES) 1 \
	  2>&1 | tee smoke.log
	@tail -n 1 $(SMPI_DIR)/smoke.log | grep -q '^[1-9][0-9]* passed, 0 failed$$' || { \
	  echo "make smpi-smoke: FAILED (see $(SMPI_DIR)/smoke.log)"; exit 1; }
	@# split and layers forced (the calls without options of their own):
	@# cubes with idle processes on 3x3, 3x5 and the 16-rank grids
	@for a in $(SMOKE_CUBE); do \
	  echo "PUMMA_ALGO=$$a smpirun -np $(SMOKE_NP) ... xpgemmcmp $(SMOKE_CUBE_CASES) 2"; \
	  (cd $(SMPI_DIR) && PUMMA_ALGO=$$a $(SMPIRUN) -np $(SMOKE_NP) -platform smoke.xml \
	    -hostfile smoke.hosts $(SMPIRUN_CFG) --log=root.thres:warning \
	    ./bin/xpgemmcmp $(SMOKE_CUBE_CASES) 2 > smoke-$$a.log 2>&1); \
	  tail -n 1 $(SMPI_DIR)/smoke-$$a.log; \
	  tail -n 1 $(SMPI_DIR)/smoke-$$a.log | grep -q '^[1-9][0-9]* passed, 0 failed$$' || { \
	    echo "make smpi-smoke: PUMMA_ALGO=$$a FAILED (see $(SMPI_DIR)/smoke-$$a.log)"; exit 1; }; \
	done

$(BIN)/xpgemmcmp: $(SMPI_DIR)/testing/pgemmcmp.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)

# The timing driver (TIMING/pgemmtim.c): its .dat inputs, pumma against
# ScaLAPACK, simulated. Its references to pumma's extended entry points
# are weak: -u pulls them out of the archive.
$(BIN)/xpgemmtim: $(SMPI_DIR)/timing/pgemmtim.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK) $(foreach s,psgemm pdgemm pcgemm pzgemm,-Wl,-u,pumma_$(s)_opts) \
	  -Wl,-u,pumma_mem_peak -Wl,-u,pumma_last_plan

# ScaLAPACK's PDGETRF, PDGETRI, PDGELS with either PDGEMM (needs
# SMPI_SCALAPACK=all).
$(BIN)/xsolvertim: $(SMPI_DIR)/timing/solvertim.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)
# One grid of the scaling runs (TIMING/smpi/scale.sh): PDGEMM, PDGETRF and
# PDPOTRF with either PDGEMM (needs SMPI_SCALAPACK=all).
$(BIN)/xscaletim: $(SMPI_DIR)/timing/smpi/scaletim.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)

# The Level-3 PBLAS on the solvers' calls at scale (TIMING/l3tim.c,
# TIMING/smpi/l3smpi.sh, `make -C TIMING l3-smpi`): pumma's P?SYRK,
# P?TRSM, ... against ScaLAPACK's renamed ones (SMPI_SCALAPACK=pblas is
# enough).
$(BIN)/xl3tim: $(SMPI_DIR)/timing/l3tim.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)

# The models judged on simulated platforms (TIMING/smpi/models.sh): the
# communication models' bench (TIMING/commtim.c) and the tuner with its
# segment searches (SRC/tools/pumma_tune.c), pumma's internal interface.
$(BIN)/xcommtim: $(SMPI_DIR)/timing/commtim.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)
$(BIN)/pumma-tune: $(SMPI_DIR)/tools/pumma_tune.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)
# Broadcasts and layouts across clusters on simulated multi-cluster
# platforms (TIMING/smpi/models-clusters.sh): TIMING/hiertim.c and
# TIMING/hiergemm.c, pumma's internal interface.
$(BIN)/xhiertim: $(SMPI_DIR)/timing/hiertim.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)
$(BIN)/xhiergemm: $(SMPI_DIR)/timing/hiergemm.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)
# The execution-time models' runs (TIMING/exectim.c; smpi/models-exec.sh):
# each configuration of processor kinds on the hosts of a heterogeneous
# platform, the speeds the hosts' own.
$(BIN)/xexectim: $(SMPI_DIR)/timing/exectim.o pumma-smpi $(COMPAT) $(SLLIB)
	@mkdir -p $(dir $@)
	$(SMPI_LINK)
