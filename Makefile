# pumma: distributed matrix multiplication (PUMMA) behind ScaLAPACK's P?GEMM.
#   make          lib/libpumma.a and lib/libpumma.so (a link to .so.MAJOR,
#                 a link to .so.VERSION), and beside them what programs
#                 compile against: include/ (pumma.h, the Fortran module
#                 pumma.mod, pumma.fh) and lib/pkgconfig/pumma.pc
#   make test     pumma's own tests, the examples (also from an installed
#                 copy), then ScaLAPACK's testers with pumma preloaded
#   make check-stress  the long stress run (TESTING/stresstst.c; about 45 min)
#   make check-asan    pumma's drivers (and some of ScaLAPACK's testers) on
#                 a build under AddressSanitizer and UBSan, leaks included
#                 (build-asan/, lib-asan/)
#   make check-valgrind  a small run of the drivers under valgrind's
#                 memcheck (build-vg/, lib-vg/)
#   make install PREFIX=/usr/local   (and DESTDIR=, for staging)
#   make uninstall PREFIX=/usr/local
#   make timing   the default TIMING run (pumma against ScaLAPACK's PDGEMM)
#   make tune     measure the machine model into the tune file (README,
#                 "The tune file"); without it the first call measures it
#   make bench    the acceptance run (TIMING/BENCH.dat): targets table, variants
#   make clean

TOP := $(abspath .)
include make.inc

ifeq ($(strip $(CDEFS)),)
CDEFS := $(shell $(TOP)/INSTALL/mangle.sh $(FC) 2>/dev/null || echo -DAdd_)
endif

# The objects and the library: build/ and lib/. `make check-asan` and
# `make check-valgrind` build the same sources with their own SANFLAGS into
# directories of their own (BUILD, LIBDIR), so that their objects never mix
# with these and `make`, `make test` are unaffected.
BUILD    ?= build
LIBDIR   ?= lib
SANFLAGS ?=

SRCS := $(sort $(filter-out SRC/tools/%,$(wildcard SRC/*/*.c)))
OBJS := $(patsubst SRC/%.c,$(BUILD)/%.o,$(SRCS))
HDRS := $(wildcard SRC/*/*.h)
INC  := -ISRC/include

VERSION  := $(shell sed -n 's/^\#define PUMMA_VERSION "\(.*\)"/\1/p' SRC/include/pumma.h)

# The shared library carries a soname (libpumma.so.MAJOR), which programs
# linked with -lpumma record, so that an incompatible pumma can be
# installed beside this one; libpumma.so (for -lpumma and LD_PRELOAD) and
# the soname are symbolic links to the file named by the full version.
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libpumma.so.$(SOMAJOR)
LIBA    := $(LIBDIR)/libpumma.a
LIBSOV  := $(LIBDIR)/libpumma.so.$(VERSION)
LIBSO   := $(LIBDIR)/libpumma.so
MANGLING := $(patsubst -D%,%,$(filter -DAdd_ -DNoChange -DUpCase,$(CDEFS)))

# What programs compile against, in include/ beside lib/ (and installed).
# The Fortran constants (pumma_codes.fh) are generated from pumma_codes.h.
INCLUDES := include/pumma.h include/pumma_codes.h include/pumma_mangle.h \
            include/pumma.fh include/pumma_codes.fh include/pumma.mod
PC       := lib/pkgconfig/pumma.pc

# (one variable per export: `export A=1 B=1` would give A the value "1 B=1")
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1

.PHONY: all lib deps test check-stress checklib check-asan check-valgrind timing tune bench install uninstall clean
all: lib
lib: $(LIBA) $(LIBSO) $(INCLUDES) $(PC)

make.inc:
	cp make.inc.example make.inc

# A fresh machine: install what is missing before the first compile.
deps:
	@command -v $(CC) >/dev/null 2>&1 && [ -e /usr/include/x86_64-linux-gnu/openmpi ] \
	  && [ -e /usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so ] \
	  && [ -d /usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests ] \
	  && command -v pkg-config >/dev/null 2>&1 \
	  || $(TOP)/INSTALL/deps.sh

$(BUILD)/%.o: SRC/%.c $(HDRS) make.inc | deps
	@mkdir -p $(dir $@)
	$(CC) $(CCFLAGS) $(SANFLAGS) -fvisibility=hidden $(CDEFS) $(INC) -c -o $@ $<

$(LIBA): $(OBJS)
	@mkdir -p $(LIBDIR)
	rm -f $@ && ar rcs $@ $^

$(LIBSOV): $(OBJS)
	@mkdir -p $(LIBDIR)
	$(CC) $(SANFLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDFLAGS) $(LIBS)

$(LIBSO): $(LIBSOV)
	ln -sf $(notdir $(LIBSOV)) $(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $@

include/%.h: SRC/include/%.h
	@mkdir -p include
	cp $< $@

# The installed header needs no -D flag: it defaults to this build's mangling.
include/pumma_mangle.h: SRC/include/pumma_mangle.h make.inc
	@mkdir -p include
	sed 's/PUMMA_BUILT_Add_$$/PUMMA_BUILT_$(MANGLING)/' $< > $@

build/gencodes: bindings/fortran/gencodes.c SRC/include/pumma_codes.h | deps
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
include/pumma.mod: bindings/fortran/pumma.f90 include/pumma_codes.fh make.inc | deps
	@mkdir -p build/fortran
	cd include && $(FC) $(FCFLAGS) -I. -c -o ../build/fortran/pumma_mod.o ../$<
	@touch $@     # gfortran leaves an unchanged .mod as it was: rebuilt each make

# pumma.pc for prefix $(1): pumma first, then what it was built with.
pc_text = printf '%s\n' 'prefix=$(1)' 'libdir=$${prefix}/lib' \
  'includedir=$${prefix}/include' '' 'Name: pumma' \
  'Description: PUMMA algorithms behind the ScaLAPACK P?GEMM routines' \
  'Version: $(VERSION)' 'Cflags: -I$${includedir}' \
  'Libs: -L$${libdir} -lpumma $(strip $(LIBS))'

$(PC): Makefile make.inc SRC/include/pumma.h
	@mkdir -p lib/pkgconfig
	$(call pc_text,$(TOP)) > $@

# make install PREFIX=... [DESTDIR=...]: the library, include/, pumma.pc,
# and the README and EXAMPLES as documentation; make uninstall removes
# exactly these files.
PREFIX  ?= /usr/local
DEST     = $(DESTDIR)$(PREFIX)
DOCDIR   = share/doc/pumma
# the sources only: `make -C EXAMPLES` leaves programs and objects there
EXAMPLES := EXAMPLES/Makefile $(sort $(wildcard EXAMPLES/*.c EXAMPLES/*.f EXAMPLES/*.f90))
INSTALLED = $(addprefix lib/,$(notdir $(LIBA) $(LIBSOV)) $(SONAME) $(notdir $(LIBSO))) $(INCLUDES) $(PC) $(DOCDIR)/README \
            $(DOCDIR)/bindings-README $(patsubst EXAMPLES/%,$(DOCDIR)/examples/%,$(EXAMPLES))

install: lib
	install -d $(DEST)/lib/pkgconfig $(DEST)/include $(DEST)/$(DOCDIR)/examples
	install -m 644 $(LIBA) $(DEST)/lib/
	install -m 755 $(LIBSOV) $(DEST)/lib/
	ln -sf $(notdir $(LIBSOV)) $(DEST)/lib/$(SONAME)
	ln -sf $(SONAME) $(DEST)/$(LIBSO)
	install -m 644 $(INCLUDES) $(DEST)/include/
	$(call pc_text,$(PREFIX)) > $(DEST)/$(PC)
	install -m 644 README $(DEST)/$(DOCDIR)/README
	install -m 644 bindings/README $(DEST)/$(DOCDIR)/bindings-README
	install -m 644 $(EXAMPLES) $(DEST)/$(DOCDIR)/examples/

uninstall:
	rm -f $(addprefix $(DEST)/,$(INSTALLED))
	-rmdir $(DEST)/$(DOCDIR)/examples $(DEST)/$(DOCDIR) 2>/dev/null

test: lib
	$(MAKE) -C TESTING run

timing: lib
	$(MAKE) -C TIMING run

tune: lib
	$(MAKE) -C TIMING tune

check-stress: lib
	$(MAKE) -C TESTING check-stress

# The checking builds, their temporaries all from malloc
# (PUMMA_CHECK_MEMORY, SRC/core/pumma_stats.c): the library compiled for
# AddressSanitizer with UBSan (UB is fatal: -fno-sanitize-recover), and
# for memcheck (-g -O1: reports with exact lines); TESTING builds pumma's
# drivers against each and runs them (run-asan, run-valgrind: see there).
# `checklib` is the library alone, for the BUILD/LIBDIR given.
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
              -fno-omit-frame-pointer -g -O1 -DPUMMA_CHECK_MEMORY
VG_FLAGS   := -g -O1 -DPUMMA_CHECK_MEMORY

checklib: $(LIBA) $(LIBSO)

check-asan:
	$(MAKE) --no-print-directory BUILD=build-asan LIBDIR=lib-asan SANFLAGS='$(ASAN_FLAGS)' checklib
	$(MAKE) --no-print-directory -C TESTING run-asan SANFLAGS='$(ASAN_FLAGS)'

check-valgrind:
	@command -v valgrind >/dev/null 2>&1 || $(TOP)/INSTALL/deps.sh valgrind
	$(MAKE) --no-print-directory BUILD=build-vg LIBDIR=lib-vg SANFLAGS='$(VG_FLAGS)' checklib
	$(MAKE) --no-print-directory -C TESTING run-valgrind SANFLAGS='$(VG_FLAGS)'

bench: lib
	$(MAKE) -C TIMING bench

clean:
	rm -rf build lib include build-asan lib-asan build-vg lib-vg
	$(MAKE) -C EXAMPLES clean
	$(MAKE) -C TESTING clean
	$(MAKE) -C TIMING clean
