# anon: PostgreSQL extension (PGXS) with a plain C++17 core.
#   make / make install         build and install the extension
#   make unit                   build and run the core's unit tests (GoogleTest)
#   make installcheck           pg_regress against the server in PGHOST/PGPORT
#   make bench                  build the benchmark programs
#   make anon-maintain          build the maintenance tool (build/anon-maintain; libpq)
#   make fuzz                   build the libFuzzer targets (clang) into build/fuzz/<target>

EXTENSION   = anon
MODULE_big  = anon
DATA        = $(wildcard sql/anon--*.sql)
PGFILEDESC  = "anon - privacy-preserving releases (k-anonymity, l-diversity) inside PostgreSQL"

CORE_SRCS   = $(sort $(wildcard src/core/*/*.cpp src/core/*/*/*.cpp))
# The pg layer in src/pg and in its sub-folders (src/pg/<folder>/*.cpp).
PG_SRCS     = $(sort $(wildcard src/pg/*.cpp src/pg/*/*.cpp))
OBJS        = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)

# pg_regress reads tests/regress/sql/<test>.sql and tests/regress/expected/<test>.out and writes its results to
# build/regress; psql runs in the repository root (the tests load data/adult with relative paths).
REGRESS      = $(basename $(notdir $(sort $(wildcard tests/regress/sql/*.sql))))
REGRESS_OPTS = --inputdir=tests/regress --outputdir=build/regress --load-extension=anon
EXTRA_CLEAN  = build $(CORE_SRCS:.cpp=.o) $(CORE_SRCS:.cpp=.d) src/pg/*.o src/pg/*.d src/pg/*/*.o src/pg/*/*.d

# C++ is compiled by g++; PostgreSQL's JIT bitcode step would need clang with the same flags, so it is off.
override with_llvm = no
PG_CXXFLAGS = -std=c++17 -fPIC -Wall -Wextra -Wno-unused-parameter -Isrc/core -MMD -MP $(ANON_WERROR)
SHLIB_LINK  = -lstdc++

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# ANON_DEBUG_INFO: debug-information flags appended after PostgreSQL's (-g). scripts/test.sh builds with -g1 (functions
# and line numbers, enough for backtraces): the same code, a quarter less compile time. Empty by default.
ANON_DEBUG_INFO ?=
override CXXFLAGS += $(ANON_DEBUG_INFO)

# Header dependencies: every compile writes a .d file beside its object (-MMD -MP), included here, so an object is
# rebuilt when a header it includes changes, and only then.
-include $(CORE_SRCS:.cpp=.d) $(PG_SRCS:.cpp=.d)

# The pg layer includes PostgreSQL headers, which use some C idioms g++ warns about.
src/pg/%.o: override CXXFLAGS += -Wno-missing-field-initializers -Wno-register

# ---- core unit tests and benchmarks: plain C++, no PostgreSQL ----
UNIT_CXX      ?= g++
UNIT_SAN      ?=
# UNIT_OPT: the instrumented core at -O1, as the sanitizers' documentation advises, which halves its compile time
# again (the sanitizer unit tests are the slowest step of scripts/test.sh); the tools at -O2. -g1 (functions and line
# numbers, enough for stack traces and sanitizer reports) compiles twice as fast as -g. Override UNIT_OPT and
# UNIT_TEST_OPT for a debugger's -O0 -g.
UNIT_OPT      ?= $(if $(UNIT_SAN),-O1 -g1,-O2 -g1)
# The test files themselves (GoogleTest's macros expand to much code, and little of the run time is spent in it)
# compile at -O0: half the compile time at -O1 under the sanitizers, a third less at -O2. The core keeps UNIT_OPT.
UNIT_TEST_OPT ?= -O0 -g1
UNIT_CXXFLAGS ?= -std=c++17 $(UNIT_OPT) -Wall -Wextra -Wno-unused-parameter $(ANON_WERROR)
UNIT_DIR       = build/unit$(if $(UNIT_SAN),-san)
UNIT_SRCS      = $(sort $(wildcard tests/unit/*.cpp))
# The plain unit tests link the extension's own core objects, the very ones anon.so is linked from (compiled once, by
# the extension's build); an instrumented build compiles its own into $(UNIT_DIR)/core.
UNIT_CORE_OBJS = $(if $(UNIT_SAN),$(patsubst src/core/%.cpp,$(UNIT_DIR)/core/%.o,$(CORE_SRCS)),$(CORE_SRCS:.cpp=.o))
UNIT_TEST_OBJS = $(patsubst tests/unit/%.cpp,$(UNIT_DIR)/tests/%.o,$(UNIT_SRCS))

# Instrumented core objects are position independent: the server's sanitizer build links them into anon.so.
build/unit-san/core/%.o: src/core/%.cpp
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $(UNIT_SAN) -fPIC -MMD -MP -Isrc/core -c $< -o $@

$(UNIT_DIR)/tests/%.o: tests/unit/%.cpp
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $(UNIT_TEST_OPT) $(UNIT_SAN) -MMD -MP -Isrc/core -Itests/unit -Itests/common -c $< -o $@

-include $(UNIT_CORE_OBJS:.o=.d) $(UNIT_TEST_OBJS:.o=.d)

$(UNIT_DIR)/unit_tests: $(UNIT_CORE_OBJS) $(UNIT_TEST_OBJS)
	$(UNIT_CXX) $(UNIT_SAN) -o $@ $^ -lgtest -lgtest_main -pthread

.PHONY: unit unit-build bench
unit-build: $(UNIT_DIR)/unit_tests
unit: $(UNIT_DIR)/unit_tests
	$(UNIT_DIR)/unit_tests $(UNIT_ARGS)

BENCH_SRCS = $(sort $(wildcard tests/bench/*.cpp))
build/bench/anon_bench: $(BENCH_SRCS)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -I$(shell $(PG_CONFIG) --includedir) -o $@ $^ -L$(shell $(PG_CONFIG) --libdir) -lpq
bench: build/bench/anon_bench

# The DBA's maintenance tool (not part of `all`, which stays PGXS's default goal).
.PHONY: anon-maintain
build/anon-maintain: tools/anon_maintain.cpp
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -I$(shell $(PG_CONFIG) --includedir) -o $@ $< -L$(shell $(PG_CONFIG) --libdir) -lpq
anon-maintain: build/anon-maintain

# ---- libFuzzer targets: clang with ASan + UBSan; the core is built instrumented into build/fuzz/core ----
FUZZ_CXX       ?= clang++
FUZZ_CXXFLAGS  ?= -std=c++17 -O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_DIR        = build/fuzz
FUZZ_SRCS       = $(sort $(wildcard tests/fuzz/*.cpp))
FUZZ_TARGETS    = $(patsubst tests/fuzz/%.cpp,$(FUZZ_DIR)/%,$(FUZZ_SRCS))
FUZZ_CORE_OBJS  = $(patsubst src/core/%.cpp,$(FUZZ_DIR)/core/%.o,$(CORE_SRCS))

$(FUZZ_DIR)/core/%.o: src/core/%.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -MMD -MP -fsanitize=fuzzer-no-link -Isrc/core -c $< -o $@

-include $(FUZZ_CORE_OBJS:.o=.d)

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.cpp $(FUZZ_CORE_OBJS) $(wildcard src/core/*/*.hpp src/core/*/*/*.hpp tests/common/*.hpp)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer -Isrc/core -Itests/common -o $@ $< $(FUZZ_CORE_OBJS)

.PHONY: fuzz
fuzz: $(FUZZ_TARGETS)

# ---- the extension under AddressSanitizer + UBSan, loaded into a server (tests/scripts/server_sanitizer_test.sh) ----
# `make server-san` builds anon.so with SERVER_SAN into build/server-san, from the pg layer compiled there and the
# core objects of the sanitizer unit tests (build/unit-san/core, the same flags: CI compiles the instrumented core
# once), leaving the normal objects beside the sources untouched. It installs it, the control file and the SQL
# scripts into a copy of the PostgreSQL named by PG_CONFIG: its bin/lib and share directories, copied on first use
# to the same paths below SERVER_SAN_PG (PostgreSQL finds its share and lib directories relative to its binaries,
# so the copy runs as it is, from $(SERVER_SAN_PG)$(PG_BINDIR)); the normal installation keeps its anon.so. The
# server must run with the ASan runtime and the copy's anon_san_preload.so preloaded (tests/sanitizer/preload.cpp).
SERVER_SAN      ?= -fsanitize=address,undefined -fno-omit-frame-pointer
# The instrumented pg layer at -O1 -g1 like the instrumented core (UNIT_OPT): under the sanitizers PostgreSQL's -O2 -g
# takes 2.5 times as long to compile.
SERVER_SAN_OPT  ?= -O1 -g1
SERVER_SAN_DIR   = build/server-san
SERVER_SAN_PG   ?= $(SERVER_SAN_DIR)/pg
SERVER_SAN_OBJS  = $(patsubst %.cpp,$(SERVER_SAN_DIR)/%.o,$(PG_SRCS))
SERVER_SAN_LIBS  = $(addprefix $(SERVER_SAN_DIR)/,anon.so san_probe.so preload.so)
PG_BINDIR       := $(shell $(PG_CONFIG) --bindir)
PG_SHAREDIR     := $(shell $(PG_CONFIG) --sharedir)
PG_PKGLIBDIR    := $(shell $(PG_CONFIG) --pkglibdir)

$(SERVER_SAN_DIR)/src/pg/%.o: src/pg/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(SERVER_SAN_OPT) -Wno-missing-field-initializers -Wno-register $(CPPFLAGS) $(SERVER_SAN) -c $< -o $@

-include $(SERVER_SAN_OBJS:.o=.d)

$(SERVER_SAN_DIR)/anon.so: $(SERVER_SAN_OBJS) $(UNIT_CORE_OBJS)
	$(CXX) $(SERVER_SAN) -shared -o $@ $^ -lstdc++

$(SERVER_SAN_DIR)/san_probe.so: tests/sanitizer/san_probe.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(SERVER_SAN) -shared -o $@ $< -lstdc++

$(SERVER_SAN_DIR)/preload.so: tests/sanitizer/preload.cpp
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -Wall -Wextra -fPIC -shared -fsanitize=address -Wl,-z,initfirst -o $@ $<

$(SERVER_SAN_PG)$(PG_BINDIR)/postgres:
	rm -rf $(SERVER_SAN_PG)$(abspath $(PG_BINDIR)/..) $(SERVER_SAN_PG)$(PG_SHAREDIR)
	mkdir -p $(SERVER_SAN_PG)$(abspath $(PG_BINDIR)/../..) $(SERVER_SAN_PG)$(abspath $(PG_SHAREDIR)/..)
	cp -a $(abspath $(PG_BINDIR)/..) $(SERVER_SAN_PG)$(abspath $(PG_BINDIR)/..)
	cp -a $(PG_SHAREDIR) $(SERVER_SAN_PG)$(PG_SHAREDIR)

.PHONY: server-san server-san-install server-san-libraries
server-san:
	$(MAKE) UNIT_SAN='$(SERVER_SAN)' server-san-install

# The instrumented libraries alone, without the copy of PostgreSQL: what takes time (scripts/test.sh builds them in
# the background while the tests before the server-sanitizer step run).
server-san-libraries:
	$(MAKE) UNIT_SAN='$(SERVER_SAN)' $(SERVER_SAN_LIBS)

server-san-install: $(SERVER_SAN_LIBS) $(SERVER_SAN_PG)$(PG_BINDIR)/postgres
	install -m 755 $(SERVER_SAN_DIR)/anon.so $(SERVER_SAN_DIR)/san_probe.so $(SERVER_SAN_PG)$(PG_PKGLIBDIR)/
	install -m 755 $(SERVER_SAN_DIR)/preload.so $(SERVER_SAN_PG)$(PG_PKGLIBDIR)/anon_san_preload.so
	install -m 644 anon.control $(DATA) $(SERVER_SAN_PG)$(PG_SHAREDIR)/extension/
