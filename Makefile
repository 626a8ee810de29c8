# pumma: distributed matrix multiplication (PUMMA) behind ScaLAPACK's P?GEMM.
#   make          lib/libpumma.a and lib/libpumma.so (a link to .so.MAJOR,
#                 a link to .so.VERSION), and beside them what programs
#                 compile against: include/ (pumma.h, the Fortran module
#                 pumma.mod, pumma.fh) and lib/pkgconfig/pumma.pc; and
#                 the tools bin/pumma-* (SRC/tools/pumma_*.c). Needs only
#                 what make.inc names (MPI's compilers, ScaLAPACK, a BLAS):
#                 it installs nothing
#   make deps     install what is missing from Debian's packages
#                 (INSTALL/deps.sh: apt-get); the targets below that run
#                 programs do this first, `make`, `make install` never
#   make test     pumma's own tests, the examples (also from an installed
#                 copy), the CMake build and its consumers, then
#                 ScaLAPACK's testers with pumma preloaded
#   make check-stress  the long stress run (TESTING/stresstst.c; about 45 min)
#   make check-asan    pumma's drivers (and some of ScaLAPACK's testers) on
#                 a build under AddressSanitizer and UBSan, leaks included
#                 (build-asan/, lib-asan/)
#   make check-valgrind  a small run of the drivers under valgrind's
#                 memcheck (build-vg/, lib-vg/)
#   make install PREFIX=/usr/local   (and DESTDIR=, for staging; LIBDIR=lib64,
#                 BINDIR, INCLUDEDIR, DOCDIR: under PREFIX unless absolute)
#   make uninstall PREFIX=/usr/local   (the same variables)
#   make timing   the default TIMING run (pumma against ScaLAPACK's PDGEMM)
#   make tune     measure the machine model into the tune file
#                 (doc/choosing.md, "The tune file"); without it the first
#                 call measures it
#   make bench    the acceptance run (TIMING/BENCH.dat): targets table, variants,
#                 PDGEMM shapes, ScaLAPACK's solvers, the other Level-3 PBLAS
#                 (TIMING/Makefile's header; doc/results.md)
#   make docs     rewrite the docs generated from the settings table (README's
#                 environment table, doc/environment.md's lists:
#                 INSTALL/gendocs.sh); make -C TESTING run-info checks them
#   make clean

TOP := $(abspath .)
include make.inc

ifeq ($(strip $(CDEFS)),)
CDEFS := $(shell $(TOP)/INSTALL/mangle.sh $(FC) 2>/dev/null || echo -DAdd_)
endif

# The objects and the library: build/ and lib/. `make check-asan` and
# `make check-valgrind` build the same sources with their own SANFLAGS into
# directories of their own (BUILD, LIBOUT), so that their objects never mix
# with these and `make`, `make test` are unaffected. (LIBDIR is the
# installed library directory: see install.)
BUILD    ?= build
LIBOUT   ?= lib
BINOUT   ?= bin
SANFLAGS ?=

# The library is every SRC/*/*.c but the tools' (SRC/tools: programs).
SRCS := $(sort $(filter-out SRC/tools/%,$(wildcard SRC/*/*.c)))
OBJS := $(patsubst SRC/%.c,$(BUILD)/%.o,$(SRCS))
HDRS := $(wildcard SRC/*/*.h)
INC  := -ISRC/include
# The tools: each SRC/tools/pumma_X.c is a program of its own, bin/pumma-X
# (an underscore in X becomes a dash).
TOOLSRCS := $(sort $(wildcard SRC/tools/pumma_*.c))
toolbin   = $(BINOUT)/$(subst _,-,$(basename $(notdir $(1))))
TOOLS    := $(foreach s,$(TOOLSRCS),$(call toolbin,$(s)))

VERSION  := $(shell sed -n 's/^\#define PUMMA_VERSION "\(.*\)"/\1/p' SRC/include/pumma.h)

# The shared library carries a soname (libpumma.so.MAJOR), which programs
# linked with -lpumma record, so that an incompatible pumma can be
# installed beside this one; libpumma.so (for -lpumma and LD_PRELOAD) and
# the soname are symbolic links to the file named by the full version.
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libpumma.so.$(SOMAJOR)
LIBA    := $(LIBOUT)/libpumma.a
LIBSOV  := $(LIBOUT)/libpumma.so.$(VERSION)
LIBSO   := $(LIBOUT)/libpumma.so
MANGLING := $(patsubst -D%,%,$(filter -DAdd_ -DNoChange -DUpCase,$(CDEFS)))

# What programs compile against, in include/ beside lib/ (and installed).
# The Fortran constants (pumma_codes.fh) are generated from pumma_codes.h.
INCLUDES := include/pumma.h include/pumma_codes.h include/pumma_mangle.h \
            include/pumma.fh include/pumma_codes.fh include/pumma.mod
PC       := lib/pkgconfig/pumma.pc

# (one variable per export: `export A=1 B=1` would give A the value "1 B=1")
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1

.PHONY: all lib deps havecc test check-layers check-stress checklib check-asan check-valgrind timing tune bench smpi smpi-smoke docs install uninstall clean
all: lib
lib: $(LIBA) $(LIBSO) $(INCLUDES) $(PC) $(TOOLS)

make.inc:
	cp make.inc.example make.inc

# `make deps`: what the tests, the timing and the examples need, installed
# from Debian's packages when missing (DEPS: INSTALL/deps.sh, apt-get; it
# does nothing on a machine without apt-get). The targets that run programs
# (test, timing, tune, bench, check-*) run it first, then build the library
# in a make of its own, so that on a fresh machine MPI's compilers exist
# before make.inc's probes run. Building and installing the library never
# runs it: elsewhere, name your compilers and libraries in make.inc. Set
# DEPS= (empty) to skip it there too.
DEPS    ?= $(TOP)/INSTALL/deps.sh
RUNDEPS  = $(if $(strip $(DEPS)),$(DEPS),true)
deps:
	@$(RUNDEPS)

# Before the first compile: make.inc's compilers must exist.
havecc:
	@for c in $(firstword $(CC)) $(firstword $(FC)); do \
	  command -v $$c >/dev/null 2>&1 || { echo "pumma: $$c (CC, FC in make.inc) not found. Name your MPI compilers, ScaLAPACK and BLAS in make.inc (make.inc.example: OpenBLAS, MKL, Cray LibSci, Spack); on Debian, make deps installs them."; exit 1; }; \
	done

$(BUILD)/%.o: SRC/%.c $(HDRS) make.inc | havecc
	@mkdir -p $(dir $@)
	$(CC) $(CCFLAGS) $(SANFLAGS) -fvisibility=hidden $(CDEFS) $(INC) -c -o $@ $<

# How this library was built, for pumma-info (pumma_version.c, which
# includes it): rewritten when make.inc or the Makefile change.
esc = $(subst ",\",$(subst \,\\,$(1)))
$(BUILD)/pumma_build.h: Makefile make.inc | havecc
	@mkdir -p $(BUILD)
	@printf '%s\n' '/* written by make: how this pumma was built */' \
	  '#define PUMMA_BUILD_SYSTEM "make"' \
	  '#define PUMMA_BUILD_CC "$(call esc,$(CC)) ($(call esc,$(shell $(CC) --version 2>/dev/null | head -n 1)))"' \
	  '#define PUMMA_BUILD_CFLAGS "$(call esc,$(strip $(CCFLAGS) $(SANFLAGS)))"' \
	  '#define PUMMA_BUILD_FC "$(call esc,$(FC)) ($(call esc,$(shell $(FC) --version 2>/dev/null | head -n 1)))"' \
	  '#define PUMMA_BUILD_MANGLING "$(MANGLING)"' \
	  '#define PUMMA_BUILD_LIBS "$(call esc,$(strip $(LDFLAGS) $(LIBS)))"' > $@.tmp && mv $@.tmp $@
$(BUILD)/base/pumma_version.o: $(BUILD)/pumma_build.h
$(BUILD)/base/pumma_version.o: INC += -I$(BUILD)

$(LIBA): $(OBJS)
	@mkdir -p $(LIBOUT)
	rm -f $@ && ar rcs $@ $^

$(LIBSOV): $(OBJS)
	@mkdir -p $(LIBOUT)
	$(CC) $(SANFLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDFLAGS) $(LIBS) -ldl

$(LIBSO): $(LIBSOV)
	ln -sf $(notdir $(LIBSOV)) $(LIBOUT)/$(SONAME)
	ln -sf $(SONAME) $@

# The tools (TOOLS) use pumma's internals, hidden in the shared library:
# they link the static one.
define tool_rule
$(call toolbin,$(1)): $(1) $(LIBA) $(HDRS) make.inc | havecc
	@mkdir -p $(BINOUT)
	$$(CC) $$(CCFLAGS) $$(CDEFS) $$(INC) -o $$@ $$< $$(LIBA) $$(LDFLAGS) $$(LIBS) -ldl
endef
$(foreach s,$(TOOLSRCS),$(eval $(call tool_rule,$(s))))

include/%.h: SRC/include/%.h
	@mkdir -p include
	cp $< $@

# The installed header needs no -D flag: it defaults to this build's mangling.
include/pumma_mangle.h: SRC/include/pumma_mangle.h make.inc
	@mkdir -p include
	sed 's/PUMMA_BUILT_Add_$$/PUMMA_BUILT_$(MANGLING)/' $< > $@

build/gencodes: bindings/fortran/gencodes.c SRC/include/pumma_codes.h | havecc
	@mkdir -p build
	$(CC) $(CCFLAGS) $(INC) -o $@ $<

include/pumma_codes.fh: build/gencodes
	@mkdir -p include
	build/gencodes > $@.tmp && mv $@.tmp $@

include/pumma.fh: bindings/fortran/pumma.fh
	@mkdir -p include
	cp $< $@

# Compiled in include/ so that any compiler leaves pumma.mod there. The
# module has interfaces and constants only: its object is not needed.
include/pumma.mod: bindings/fortran/pumma.f90 include/pumma_codes.fh make.inc | havecc
	@mkdir -p build/fortran
	cd include && $(FC) $(FCFLAGS) -I. -c -o ../build/fortran/pumma_mod.o ../$<
	@touch $@     # gfortran leaves an unchanged .mod as it was: rebuilt each make

# pumma.pc, with $(1) the prefix, $(2) the libdir and $(3) the includedir.
# Libs: pumma, then the ScaLAPACK and BLAS it was built with. ScaLAPACK
# stays in Libs (not only in Libs.private, for static links): a program's
# own PDGEMM calls must find pumma's PDGEMM before ScaLAPACK's, so the
# line must name -lpumma first and ScaLAPACK after it, and the program
# needs ScaLAPACK on its line anyway for the BLACS and descinit_.
# Requires.private: the MPI that CC wraps (PCMPI), when pkg-config knows
# it, and Libs.private: what libpumma.a needs besides, for
# `pkg-config --static`. PCMPI= (empty) leaves MPI out.
PCMPI ?= $(shell for m in $$($(CC) --showme:version 2>/dev/null | grep -q 'Open MPI' && echo ompi-c) \
                         $$($(CC) -v 2>&1 | grep -qi mpich && echo mpich); do \
                   pkg-config --exists $$m 2>/dev/null && echo $$m && break; done)
pc_text = printf '%s\n' '\# pumma.pc, written by make (pumma $(VERSION))' 'prefix=$(1)' 'libdir=$(2)' \
  'includedir=$(3)' '' 'Name: pumma' \
  'Description: PUMMA algorithms behind the ScaLAPACK P?GEMM routines' \
  'Version: $(VERSION)' 'Cflags: -I$${includedir}' \
  '\# -lpumma comes before ScaLAPACK: PDGEMM calls then go to pumma' \
  'Libs: -L$${libdir} -lpumma $(strip $(LIBS))' 'Libs.private: -ldl' \
  $(if $(strip $(PCMPI)),'Requires.private: $(strip $(PCMPI))')

$(PC): Makefile make.inc SRC/include/pumma.h
	@mkdir -p lib/pkgconfig
	$(call pc_text,$(TOP),$${prefix}/lib,$${prefix}/include) > $@

# make install PREFIX=... [DESTDIR=...]: the library, the headers and
# modules, pumma.pc, the tools, and the README, the doc/ and EXAMPLES as
# documentation; make uninstall removes exactly these files. LIBDIR (lib64),
# INCLUDEDIR, BINDIR and DOCDIR are under PREFIX, unless absolute.
PREFIX     ?= /usr/local
LIBDIR     ?= lib
INCLUDEDIR ?= include
BINDIR     ?= bin
DOCDIR     ?= share/doc/pumma
instdir     = $(if $(filter /%,$(1)),$(1),$(PREFIX)/$(1))
pcdir       = $(if $(filter /%,$(1)),$(1),$${prefix}/$(1))
I_LIB       = $(DESTDIR)$(call instdir,$(LIBDIR))
I_INC       = $(DESTDIR)$(call instdir,$(INCLUDEDIR))
I_BIN       = $(DESTDIR)$(call instdir,$(BINDIR))
I_DOC       = $(DESTDIR)$(call instdir,$(DOCDIR))
# the sources only: `make -C EXAMPLES` leaves programs and objects there
EXAMPLES := EXAMPLES/Makefile $(sort $(wildcard EXAMPLES/*.c EXAMPLES/*.f EXAMPLES/*.f90))
DOCS     := $(wildcard README README.md LICENSE CHANGELOG CHANGELOG.md)
DOCMD    := $(sort $(wildcard doc/*.md))
INSTALLED = $(addprefix $(I_LIB)/,$(notdir $(LIBA) $(LIBSOV)) $(SONAME) $(notdir $(LIBSO)) pkgconfig/pumma.pc) \
            $(addprefix $(I_INC)/,$(notdir $(INCLUDES))) $(addprefix $(I_BIN)/,$(notdir $(TOOLS))) \
            $(addprefix $(I_DOC)/,$(DOCS) $(DOCMD) bindings-README) \
            $(patsubst EXAMPLES/%,$(I_DOC)/examples/%,$(EXAMPLES))

install: lib
	install -d $(I_LIB)/pkgconfig $(I_INC) $(I_DOC)/examples $(if $(TOOLS),$(I_BIN)) $(if $(DOCMD),$(I_DOC)/doc)
	install -m 644 $(LIBA) $(I_LIB)/
	install -m 755 $(LIBSOV) $(I_LIB)/
	ln -sf $(notdir $(LIBSOV)) $(I_LIB)/$(SONAME)
	ln -sf $(SONAME) $(I_LIB)/$(notdir $(LIBSO))
	install -m 644 $(INCLUDES) $(I_INC)/
	$(call pc_text,$(PREFIX),$(call pcdir,$(LIBDIR)),$(call pcdir,$(INCLUDEDIR))) > $(I_LIB)/pkgconfig/pumma.pc
	$(if $(TOOLS),install -m 755 $(TOOLS) $(I_BIN)/)
	install -m 644 $(DOCS) $(I_DOC)/
	$(if $(DOCMD),install -m 644 $(DOCMD) $(I_DOC)/doc/)
	install -m 644 bindings/README $(I_DOC)/bindings-README
	install -m 644 $(EXAMPLES) $(I_DOC)/examples/

uninstall:
	rm -f $(INSTALLED)
	@rmdir $(I_DOC)/examples $(if $(DOCMD),$(I_DOC)/doc) $(I_DOC) 2>/dev/null || true

# The targets that run programs: Debian's packages first (see deps), then
# the library in a make of its own, JOBS compiles at a time (the programs
# then run one at a time).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) lib
	@$(MAKE) --no-print-directory check-layers
	$(MAKE) -C TESTING run

# make check-layers: no directory of SRC reaches one above it, by an
# include or a symbol (doc/internals.md, "The source tree"):
# INSTALL/layers.sh, on the objects `make lib` made.
check-layers: $(LIBA)
	sh INSTALL/layers.sh $(BUILD)

timing: deps
	@$(MAKE) --no-print-directory -j$(JOBS) lib
	$(MAKE) -C TIMING run

tune: deps
	@$(MAKE) --no-print-directory -j$(JOBS) lib
	$(MAKE) -C TIMING tune

check-stress: deps
	@$(MAKE) --no-print-directory -j$(JOBS) lib
	$(MAKE) -C TESTING check-stress

# The checking builds, their temporaries all from malloc
# (PUMMA_CHECK_MEMORY, SRC/base/pumma_mem.c): the library compiled for
# AddressSanitizer with UBSan (UB is fatal: -fno-sanitize-recover), and
# for memcheck (-g -O1: reports with exact lines); TESTING builds pumma's
# drivers against each and runs them (run-asan, run-valgrind: see there).
# `checklib` is the library alone, for the BUILD/LIBOUT given.
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
              -fno-omit-frame-pointer -g -O1 -DPUMMA_CHECK_MEMORY
VG_FLAGS   := -g -O1 -DPUMMA_CHECK_MEMORY

checklib: $(LIBA) $(LIBSO)

check-asan: deps
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-asan LIBOUT=lib-asan SANFLAGS='$(ASAN_FLAGS)' checklib
	$(MAKE) --no-print-directory -C TESTING run-asan SANFLAGS='$(ASAN_FLAGS)'

check-valgrind:
	@command -v valgrind >/dev/null 2>&1 || $(RUNDEPS) valgrind
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-vg LIBOUT=lib-vg SANFLAGS='$(VG_FLAGS)' checklib
	$(MAKE) --no-print-directory -C TESTING run-valgrind SANFLAGS='$(VG_FLAGS)'

bench: deps
	@$(MAKE) --no-print-directory -j$(JOBS) lib
	$(MAKE) -C TIMING bench

# Pumma and ScaLAPACK for SimGrid's SMPI, in build-smpi (doc/smpi.md):
# make smpi SCALAPACK_SRC=path/to/scalapack-2.2.1.tar.gz
smpi smpi-smoke:
	@$(MAKE) --no-print-directory -f INSTALL/smpi.mk $@

# The docs generated from the settings table (SRC/base/pumma_settings.c):
# each block between README's and doc/environment.md's markers is what
# pumma-info --settings prints.
docs: $(BINOUT)/pumma-info
	bash INSTALL/gendocs.sh $(BINOUT)/pumma-info

clean:
	rm -rf build lib include bin build-asan lib-asan build-vg lib-vg
	$(MAKE) -C EXAMPLES clean
	$(MAKE) -C TESTING clean
	$(MAKE) -C TIMING clean
