# pumma: distributed matrix multiplication (PUMMA) behind ScaLAPACK's P?GEMM.
#   make          lib/libpumma.a and lib/libpumma.so
#   make test     pumma's own tests, then ScaLAPACK's testers with pumma preloaded
#   make timing   the default TIMING run (pumma against ScaLAPACK's PDGEMM)
#   make bench    the acceptance run (TIMING/BENCH.dat): targets table, variants
#   make clean

TOP := $(abspath .)
include make.inc

ifeq ($(strip $(CDEFS)),)
CDEFS := $(shell $(TOP)/INSTALL/mangle.sh $(FC) 2>/dev/null || echo -DAdd_)
endif

SRCS := $(sort $(wildcard SRC/*/*.c))
OBJS := $(patsubst SRC/%.c,build/%.o,$(SRCS))
HDRS := $(wildcard SRC/*/*.h)
INC  := -ISRC/include

LIBA  := lib/libpumma.a
LIBSO := lib/libpumma.so

# (one variable per export: `export A=1 B=1` would give A the value "1 B=1")
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1

.PHONY: all lib deps test timing bench clean
all: lib
lib: $(LIBA) $(LIBSO)

make.inc:
	cp make.inc.example make.inc

# A fresh machine: install what is missing before the first compile.
deps:
	@command -v $(CC) >/dev/null 2>&1 && [ -e /usr/include/x86_64-linux-gnu/openmpi ] \
	  && [ -e /usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so ] \
	  && [ -d /usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests ] \
	  || $(TOP)/INSTALL/deps.sh

build/%.o: SRC/%.c $(HDRS) make.inc | deps
	@mkdir -p $(dir $@)
	$(CC) $(CCFLAGS) -fvisibility=hidden $(CDEFS) $(INC) -c -o $@ $<

$(LIBA): $(OBJS)
	@mkdir -p lib
	rm -f $@ && ar rcs $@ $^

$(LIBSO): $(OBJS)
	@mkdir -p lib
	$(CC) -shared -o $@ $^ $(LDFLAGS) $(LIBS)

test: lib
	$(MAKE) -C TESTING run

timing: lib
	$(MAKE) -C TIMING run

bench: lib
	$(MAKE) -C TIMING bench

clean:
	rm -rf build lib
	$(MAKE) -C TESTING clean
	$(MAKE) -C TIMING clean
