# anon: PostgreSQL extension (PGXS) with a plain C++17 core.
#   make / make install         build and install the extension
#   make unit                   build and run the core's unit tests (GoogleTest)
#   make installcheck           pg_regress against the server in PGHOST/PGPORT
#   make bench                  build the benchmark programs
#   make anon-maintain          build the maintenance tool (build/anon-maintain; libpq)
#   make unit-san               build and run the unit tests under ASan + UBSan (clang; build/unit-san)
#   make fuzz                   build the libFuzzer targets (clang) into build/fuzz/<target>
#   make registry-names         build build/registry_names (the registries' names, for tests/scripts/layering_test.sh)

EXTENSION   = anon
MODULE_big  = anon
DATA        = $(wildcard sql/anon--*.sql)
PGFILEDESC  = "anon - privacy-preserving releases (k-anonymity, l-diversity) inside PostgreSQL"

CORE_SRCS   = $(sort $(wildcard src/core/*/*.cpp src/core/*/*/*.cpp))
PG_SRCS     = $(sort $(wildcard src/pg/*/*.cpp))
OBJS        = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)

# pg_regress reads tests/regress/sql/<test>.sql and tests/regress/expected/<test>.out and writes its results to
# build/regress (REGRESS_OUTPUTDIR); psql runs in the repository root (the tests load data/adult with relative paths).
REGRESS      = $(basename $(notdir $(sort $(wildcard tests/regress/sql/*.sql))))
REGRESS_OUTPUTDIR ?= build/regress
REGRESS_OPTS = --inputdir=tests/regress --outputdir=$(REGRESS_OUTPUTDIR) --load-extension=anon
EXTRA_CLEAN  = build $(CORE_SRCS:.cpp=.o) $(CORE_SRCS:.cpp=.d) src/pg/*/*.o src/pg/*/*.d

# C++ is compiled by g++; PostgreSQL's JIT bitcode step would need clang with the same flags, so it is off.
override with_llvm = no
PG_CXXFLAGS = -std=c++17 -fPIC -Wall -Wextra -Wno-unused-parameter -Isrc/core -Isrc/pg -MMD -MP $(ANON_WERROR)
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

# ---- precompiled headers ----
# The standard headers most files include (build-aux/precompiled_std.hpp; the unit tests add GoogleTest's,
# build-aux/precompiled_unit.hpp) are compiled once per flavour of compile flags into build/pch/<flavour>/ and put
# before each file of that flavour (-include): parsing them again for each of the 300-odd files was about a third of
# the compile time. A precompiled header serves only compiles with its own flags: each is built with the very flags of
# the files it serves, and -Winvalid-pch (an error under -Werror) says if one is not used. ANON_PCH=no compiles every
# file without them (what a file must also do: each includes the headers it uses).
ANON_PCH ?= yes
PCH_DIR   = build/pch
# $(call pch_gcc,FLAVOUR,HEADER) / $(call pch_clang,FLAVOUR,HEADER): the flags that put FLAVOUR's precompiled HEADER
# before a file (g++ finds the .gch beside the header named by -include, clang is given the .pch); pch_file_gcc and
# pch_file_clang name the precompiled file, a prerequisite of the flavour's objects.
ifeq ($(ANON_PCH),yes)
pch_gcc   = -include $(PCH_DIR)/$(1)/$(2) -Winvalid-pch
pch_clang = -include-pch $(PCH_DIR)/$(1)/$(2).pch -Winvalid-pch
pch_file_gcc   = $(PCH_DIR)/$(1)/$(2).gch
pch_file_clang = $(PCH_DIR)/$(1)/$(2).pch
else
pch_gcc   =
pch_clang =
pch_file_gcc   =
pch_file_clang =
endif

# The extension's own objects: the core (plain C++, its CPPFLAGS without PostgreSQL's, below) and the pg layer, each
# with its precompiled header (PGXS's rule with its flags added), compiled by g++ with the flags of its objects from a
# copy of the header beside it (where -include finds the .gch).
# One static pattern rule for both: its targets are named (not left to a chain of implicit rules).
$(PCH_DIR)/core/precompiled_std.hpp.gch $(PCH_DIR)/pg/precompiled_std.hpp.gch: $(PCH_DIR)/%/precompiled_std.hpp.gch: \
		build-aux/precompiled_std.hpp
	@mkdir -p $(dir $@)
	cp $< $(basename $@)
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) -x c++-header $(basename $@) -o $@
$(PCH_DIR)/core/precompiled_std.hpp.gch: override CPPFLAGS := $(filter-out -I%,$(CPPFLAGS)) -DANON_CORE_BUILD
$(PCH_DIR)/pg/precompiled_std.hpp.gch: override CXXFLAGS += -Wno-missing-field-initializers -Wno-register

src/core/%.o: src/core/%.cpp $(call pch_file_gcc,core,precompiled_std.hpp)
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(call pch_gcc,core,precompiled_std.hpp) -c -o $@ $<

src/pg/%.o: src/pg/%.cpp $(call pch_file_gcc,pg,precompiled_std.hpp)
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(call pch_gcc,pg,precompiled_std.hpp) -c -o $@ $<

# The core is plain C++17 and cannot include a PostgreSQL header: its objects compile without the -I flags PGXS puts
# in CPPFLAGS (PostgreSQL's include directories; they only need -Isrc/core, in PG_CXXFLAGS), so such an include names
# no file, and with ANON_CORE_BUILD defined, which the pg layer's postgres_headers.hpp refuses with an #error.
src/core/%.o: override CPPFLAGS := $(filter-out -I%,$(CPPFLAGS)) -DANON_CORE_BUILD

# ---- core unit tests and benchmarks: plain C++, no PostgreSQL ----
UNIT_CXX      ?= g++
# The tools at -O2 -g1 (functions and line numbers, enough for stack traces; twice as fast to compile as -g).
UNIT_OPT      ?= -O2 -g1
# The test files themselves (GoogleTest's macros expand to much code, and little of the run time is spent in it)
# compile at -O0: a third less compile time than -O2. Override UNIT_TEST_OPT for a debugger's -O0 -g. clang compiles
# them in about half the time g++ takes (both use the system's libstdc++, so they link with the g++-built core).
UNIT_TEST_OPT ?= -O0 -g1
UNIT_TEST_CXX ?= clang++
UNIT_WARNINGS  = -Wall -Wextra -Wno-unused-parameter $(ANON_WERROR)
UNIT_CXXFLAGS ?= -std=c++17 $(UNIT_OPT) $(UNIT_WARNINGS)
UNIT_SRCS      = $(sort $(wildcard tests/unit/*.cpp))
UNIT_TEST_OBJS = $(patsubst tests/unit/%.cpp,build/unit/tests/%.o,$(UNIT_SRCS))

# The plain unit tests link the extension's own core objects, the very ones anon.so is linked from (compiled once, by
# the extension's build).
$(PCH_DIR)/unit/precompiled_unit.hpp.pch: build-aux/precompiled_unit.hpp build-aux/precompiled_std.hpp
	@mkdir -p $(dir $@)
	$(UNIT_TEST_CXX) $(UNIT_CXXFLAGS) $(UNIT_TEST_OPT) -x c++-header $< -o $@

build/unit/tests/%.o: tests/unit/%.cpp $(call pch_file_clang,unit,precompiled_unit.hpp)
	@mkdir -p $(dir $@)
	$(UNIT_TEST_CXX) $(UNIT_CXXFLAGS) $(UNIT_TEST_OPT) $(call pch_clang,unit,precompiled_unit.hpp) -MMD -MP -Isrc/core \
		-Itests/unit -Itests/common -c $< -o $@

build/unit/unit_tests: $(CORE_SRCS:.cpp=.o) $(UNIT_TEST_OBJS)
	$(UNIT_CXX) -o $@ $^ -lgtest -lgtest_main -pthread

-include $(UNIT_TEST_OBJS:.o=.d)

.PHONY: unit unit-build unit-san unit-san-build bench
unit-build: build/unit/unit_tests
unit: build/unit/unit_tests
	build/unit/unit_tests $(UNIT_ARGS)

# ---- the instrumented core: compiled once by clang with ASan + UBSan and libFuzzer's coverage ----
# One set of objects serves the sanitizer unit tests, the server's sanitizer build (position independent, linked
# into its anon.so) and the fuzz targets: clang, which compiles the instrumented code in half the time g++ takes. UBSan is recoverable in
# the objects: the unit tests halt at the first report through UBSAN_OPTIONS=halt_on_error=1 (scripts/test.sh), the
# server goes on after a report (tests/sanitizer/preload.cpp). -O1 -g1, as the sanitizers' documentation advises.
# libFuzzer's coverage is its edge counters and their table of places (what it needs to find new paths), about 5% of
# the instrumented code's time. Not the comparison and indirect-call tracing -fsanitize=fuzzer-no-link adds: a call
# per comparison made the core's code 2 to 2.5 times slower under the sanitizer unit tests and the server-side
# sanitizers' suite (Refine on Adult 5.8 s against 2.7 s), where nothing uses it; the fuzz targets' own files keep
# it, and in 10 s the algorithms' target reaches as many edges either way.
SAN_CXX        ?= clang++
SAN_FLAGS      ?= -fsanitize=address,undefined -fno-omit-frame-pointer
SAN_COVERAGE   ?= -fsanitize-coverage=inline-8bit-counters,pc-table
SAN_OPT        ?= -O1 -g1
SAN_CORE_OBJS   = $(patsubst src/core/%.cpp,build/san/core/%.o,$(CORE_SRCS))

SAN_CORE_CXXFLAGS = -std=c++17 $(SAN_OPT) $(UNIT_WARNINGS) $(SAN_FLAGS) $(SAN_COVERAGE) -fPIC

$(PCH_DIR)/san/precompiled_std.hpp.pch: build-aux/precompiled_std.hpp
	@mkdir -p $(dir $@)
	$(SAN_CXX) $(SAN_CORE_CXXFLAGS) -x c++-header $< -o $@

build/san/core/%.o: src/core/%.cpp $(call pch_file_clang,san,precompiled_std.hpp)
	@mkdir -p $(dir $@)
	$(SAN_CXX) $(SAN_CORE_CXXFLAGS) $(call pch_clang,san,precompiled_std.hpp) -MMD -MP -Isrc/core -c $< -o $@

-include $(SAN_CORE_OBJS:.o=.d)

# The sanitizer unit tests: the instrumented core linked with the plain unit tests' own test objects (g++, -O0), not
# with test files compiled a second time: the sanitizers watch the core, which the tests drive (the core's objects
# come first on the line, so an inline function both define is the instrumented one); compiling the 40 test files
# again under the sanitizers took half the time of this build.
build/unit-san/unit_tests: $(SAN_CORE_OBJS) $(UNIT_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(SAN_CXX) $(SAN_FLAGS) -o $@ $^ -lgtest -lgtest_main -pthread

unit-san-build: build/unit-san/unit_tests
unit-san: build/unit-san/unit_tests
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build/unit-san/unit_tests $(UNIT_ARGS)

BENCH_SRCS = $(sort $(wildcard tests/bench/*.cpp))
build/bench/anon_bench: $(BENCH_SRCS)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -I$(shell $(PG_CONFIG) --includedir) -o $@ $^ -L$(shell $(PG_CONFIG) --libdir) -lpq
bench: build/bench/anon_bench

# The names the registries hold, one a line (every model, 'auto', every algorithm), which tests/scripts/layering_test.sh
# looks for outside the registries: the extension's core objects linked with a small printer.
.PHONY: registry-names
build/registry_names: tests/layering/registry_names.cpp $(CORE_SRCS:.cpp=.o)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -Isrc/core -o $@ $^
registry-names: build/registry_names

# The DBA's maintenance tool (not part of `all`, which stays PGXS's default goal).
.PHONY: anon-maintain
build/anon-maintain: $(wildcard tools/*.cpp tools/*.hpp)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -I$(shell $(PG_CONFIG) --includedir) -o $@ $(filter %.cpp,$^) \
		-L$(shell $(PG_CONFIG) --libdir) -lpq
anon-maintain: build/anon-maintain

# ---- libFuzzer targets: each target's file linked with the instrumented core (above, with libFuzzer's coverage) ----
FUZZ_DIR        = build/fuzz
FUZZ_SRCS       = $(sort $(wildcard tests/fuzz/*.cpp))
FUZZ_TARGETS    = $(patsubst tests/fuzz/%.cpp,$(FUZZ_DIR)/%,$(FUZZ_SRCS))

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.cpp $(SAN_CORE_OBJS) $(wildcard src/core/*/*.hpp src/core/*/*/*.hpp tests/common/*.hpp)
	@mkdir -p $(dir $@)
	$(SAN_CXX) -std=c++17 $(SAN_OPT) $(UNIT_WARNINGS) $(SAN_FLAGS) -fsanitize=fuzzer -Isrc/core -Itests/common -o $@ $< \
		$(SAN_CORE_OBJS)

.PHONY: fuzz
fuzz: $(FUZZ_TARGETS)

# ---- the extension under AddressSanitizer + UBSan, loaded into a server (tests/scripts/server_sanitizer_test.sh) ----
# `make server-san` builds anon.so into build/server-san from the pg layer compiled there by clang with the same
# sanitizers and the instrumented core (build/san/core, shared with the sanitizer unit tests),
# leaving the normal objects beside the sources untouched. It installs it, the control file and the SQL scripts into
# a copy of the PostgreSQL named by PG_CONFIG: its bin/lib and share directories, copied on first use to the same
# paths below SERVER_SAN_PG (PostgreSQL finds its share and lib directories relative to its binaries, so the copy runs
# as it is, from $(SERVER_SAN_PG)$(PG_BINDIR)); the normal installation keeps its anon.so. The libraries do not link
# the sanitizer runtime: the server must run with clang's shared ASan runtime (which holds UBSan's too; `make
# server-san-runtime` prints its path) and the copy's anon_san_preload.so preloaded (tests/sanitizer/preload.cpp).
# PostgreSQL's headers are included with its preprocessor flags; its compiler flags are g++'s, so the pg layer gets
# the ones that matter to the code (-fno-strict-aliasing -fwrapv) and clang's own warnings (gnu_printf, PostgreSQL's
# printf attribute, is g++'s alone).
SERVER_SAN_CXXFLAGS ?= -std=c++17 $(SAN_OPT) -fPIC -fno-strict-aliasing -fwrapv -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -Wno-register -Wno-ignored-attributes -Isrc/core -Isrc/pg $(SAN_FLAGS)
SERVER_SAN_DIR   = build/server-san
SERVER_SAN_PG   ?= $(SERVER_SAN_DIR)/pg
SERVER_SAN_OBJS  = $(patsubst %.cpp,$(SERVER_SAN_DIR)/%.o,$(PG_SRCS))
SERVER_SAN_LIBS  = $(addprefix $(SERVER_SAN_DIR)/,anon.so san_probe.so preload.so)
SERVER_SAN_RUNTIME = $(shell $(SAN_CXX) -print-runtime-dir)/libclang_rt.asan-x86_64.so
PG_BINDIR       := $(shell $(PG_CONFIG) --bindir)
PG_SHAREDIR     := $(shell $(PG_CONFIG) --sharedir)
PG_PKGLIBDIR    := $(shell $(PG_CONFIG) --pkglibdir)

$(PCH_DIR)/server-san/precompiled_std.hpp.pch: build-aux/precompiled_std.hpp
	@mkdir -p $(dir $@)
	$(SAN_CXX) $(SERVER_SAN_CXXFLAGS) $(CPPFLAGS) -x c++-header $< -o $@

$(SERVER_SAN_DIR)/src/pg/%.o: src/pg/%.cpp $(call pch_file_clang,server-san,precompiled_std.hpp)
	@mkdir -p $(dir $@)
	$(SAN_CXX) $(SERVER_SAN_CXXFLAGS) $(CPPFLAGS) $(call pch_clang,server-san,precompiled_std.hpp) -MMD -MP -c $< -o $@

-include $(SERVER_SAN_OBJS:.o=.d)

$(SERVER_SAN_DIR)/anon.so: $(SERVER_SAN_OBJS) $(SAN_CORE_OBJS)
	$(SAN_CXX) $(SAN_FLAGS) -shared -o $@ $^ -lstdc++

$(SERVER_SAN_DIR)/san_probe.so: tests/sanitizer/san_probe.cpp
	@mkdir -p $(dir $@)
	$(SAN_CXX) $(SERVER_SAN_CXXFLAGS) $(CPPFLAGS) -shared -o $@ $< -lstdc++

# Linked to the shared runtime, which it initializes first.
$(SERVER_SAN_DIR)/preload.so: tests/sanitizer/preload.cpp
	@mkdir -p $(dir $@)
	$(SAN_CXX) -std=c++17 -Wall -Wextra -fPIC -shared -fsanitize=address -shared-libasan -Wl,-z,initfirst -o $@ $<

$(SERVER_SAN_PG)$(PG_BINDIR)/postgres:
	rm -rf $(SERVER_SAN_PG)$(abspath $(PG_BINDIR)/..) $(SERVER_SAN_PG)$(PG_SHAREDIR)
	mkdir -p $(SERVER_SAN_PG)$(abspath $(PG_BINDIR)/../..) $(SERVER_SAN_PG)$(abspath $(PG_SHAREDIR)/..)
	cp -a $(abspath $(PG_BINDIR)/..) $(SERVER_SAN_PG)$(abspath $(PG_BINDIR)/..)
	cp -a $(PG_SHAREDIR) $(SERVER_SAN_PG)$(PG_SHAREDIR)

.PHONY: server-san server-san-libraries server-san-runtime
# The instrumented libraries alone, without the copy of PostgreSQL: what takes time (scripts/test.sh builds them in
# the background, with the other instrumented builds, while the tests on the extension's cluster run).
server-san-libraries: $(SERVER_SAN_LIBS)

server-san-runtime:
	@echo $(SERVER_SAN_RUNTIME)

server-san: $(SERVER_SAN_LIBS) $(SERVER_SAN_PG)$(PG_BINDIR)/postgres
	install -m 755 $(SERVER_SAN_DIR)/anon.so $(SERVER_SAN_DIR)/san_probe.so $(SERVER_SAN_PG)$(PG_PKGLIBDIR)/
	install -m 755 $(SERVER_SAN_DIR)/preload.so $(SERVER_SAN_PG)$(PG_PKGLIBDIR)/anon_san_preload.so
	install -m 644 anon.control $(DATA) $(SERVER_SAN_PG)$(PG_SHAREDIR)/extension/
