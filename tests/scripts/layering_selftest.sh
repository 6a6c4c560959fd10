#!/usr/bin/env bash
# tests/scripts/layering_selftest.sh: the layering check bites. Copies what tests/scripts/layering_test.sh reads
# (the sources of src/, tools/ and tests/, the Makefile, the current install script) into a temporary directory, and
# expects the check to pass on the untouched copy and to fail, with the check named, on each violation injected into
# it one at a time (and taken out again): an upward include and a private header of another folder in either half, a
# PostgreSQL header and the pg layer in the core, stray files, a header that does not exist, each way of comparing a
# model or algorithm name in C++ and in the install script's SQL. Then compiles probes with the Makefile's own rules:
# a core file cannot include a PostgreSQL header (no PostgreSQL include directory on the core's command line) nor
# postgres_headers.hpp (its #error under ANON_CORE_BUILD), while a file of src/pg can. Prints ok:/FAILED: lines
# (tests/scripts/checks.sh). Needs PG_CONFIG (or pg_config on the PATH) for the probes and the registries' names
# (make registry-names).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh

work=$(mktemp -d /tmp/anon-layering-selftest.XXXXXX)
trap 'rm -rf "$work"' EXIT

names=$work/names
if ! make -s --no-print-directory registry-names >"$work/make.log" 2>&1 || ! build/registry_names >"$names"; then
    cat "$work/make.log"
    echo "FAILED: make registry-names (the registries' names)"
    exit 1
fi
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" anon.control)
script=sql/anon--$version.sql
python=/usr/bin/python3  # as tests/scripts/layering_test.sh
[ -x "$python" ] || python=python3
mapfile -t pg_layers < <("$python" -c 'import sys; sys.path.insert(0, "tests/scripts")
import layering_check; print("\n".join(layering_check.PG_LAYERS))')

# The copy: what the check reads, and the Makefile for the probes.
copy=$work/copy
mkdir -p "$copy/tests/scripts" "$copy/sql"
find src tools tests -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c' -o -name '*.cc' \) \
    -exec cp --parents -t "$copy" {} +
cp Makefile anon.control "$copy/"
cp -r build-aux "$copy/"  # the precompiled headers the Makefile's rules put before each file
cp "$script" "$copy/sql/"
cp tests/scripts/layering_test.sh tests/scripts/layering_check.py tests/scripts/checks.sh "$copy/tests/scripts/"

# run_check COPY OUT: the layering check on a copy; its status.
run_check() {
    LAYERING_NAMES=$names bash "$1/tests/scripts/layering_test.sh" >"$2" 2>&1
}

run_check "$copy" "$work/untouched.out"
rc=$?
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/untouched.out"
check_that "the check passes on the untouched copy" test "$rc" -eq 0

# first_file DIR TEST...: the first file (sorted) directly in DIR of the copy that the find tests select.
first_file() {
    local dir=$1
    shift
    (cd "$copy" && find "$dir" -maxdepth 1 -type f "$@" | sort | head -n 1)
}

# expect_failure WHAT FAILED_CHECK FILE TEXT: appends TEXT to FILE of the copy (a new file when there is none), expects
# the check to fail with a FAILED line containing FAILED_CHECK, and puts FILE back as it was.
expect_failure() {
    local what=$1 expected=$2 file=$copy/$3 text=$4 out=$work/case.out rc
    if [ -z "$3" ]; then
        check_that "the check fails on $what (the copy has no file to put it in)" false
        return
    fi
    [ -e "$file" ] && cp -p "$file" "$work/saved"
    printf '%s\n' "$text" >>"$file"
    run_check "$copy" "$out"
    rc=$?
    if [ -e "$work/saved" ]; then mv "$work/saved" "$file"; else rm -f "$file"; fi
    if [ "$rc" -ne 0 ] && grep -F -- "FAILED: $expected" "$out" >/dev/null; then
        check_that "the check fails on $what" true
    else
        sed 's/^/    /' "$out"
        check_that "the check fails on $what: expected FAILED: $expected" false
    fi
}

higher="no file of src/core includes a higher layer"
core_private="src/core reaches another of its folders only through its interface header"
core_outside="src/core includes only src/core, the C++ standard library and Boost"
compared="no model or algorithm name compared in C++"
sql_compared="no model or algorithm name compared in the current install script"
expect_failure "a core base/ file including an algorithms/ header" "$higher" \
    src/core/base/error.cpp '#include "algorithms/algorithms.hpp"'
expect_failure "a core file including a private header of a lower folder" "$core_private" \
    src/core/job/job.cpp '#include "models/eligibility.hpp"'
expect_failure "a core file including utils/elog.h" "$core_outside" \
    src/core/data/taxonomy.cpp '#include "utils/elog.h"'
expect_failure "a core file including <postgres.h>" "$core_outside" \
    src/core/base/params.hpp '#include <postgres.h>'
expect_failure "a core file including the pg layer by a relative path" "$higher" \
    src/core/metrics/metrics.hpp "#include \"../../pg/${pg_layers[0]}/${pg_layers[0]}.hpp\""
expect_failure "a stray file in the src/core root" "no source file of src/core outside its folders" \
    src/core/stray.hpp '#pragma once'

# Each way of comparing a name, in a function appended to a core file.
probe='namespace anon { bool layering_probe(const std::string& m) { return %s; } }'
for expression in 'm == std::string("k-anonymity")' 'm.compare("mondrian") == 0' '"refine" == m' \
    'std::strcmp(m.c_str(), "bsgi") == 0' 'm == ("onedim")' 'std::string_view(m) != "t-closeness"sv'; do
    # shellcheck disable=SC2059
    expect_failure "$expression" "$compared" src/core/job/job.cpp "$(printf "$probe" "$expression")"
done
expect_failure 'a std::string_view constant holding "sweep"' "$compared" \
    src/core/job/job_spec.cpp 'constexpr std::string_view sweep_name = "sweep";'
expect_failure 'a lookup table keyed by "anatomy"' "$compared" \
    src/core/audit/risk.cpp 'const std::map<std::string, int> table = {{"anatomy", 1}};'
expect_failure 'algorithm != "auto" in tools/' "$compared" \
    tools/anon_maintain.cpp 'static bool probe(const std::string& a) { return a != "auto"; }'
expect_failure "m = 'mondrian' in the install script's PL/pgSQL" "$sql_compared" "$script" \
    "CREATE FUNCTION anon.probe(m text) RETURNS boolean LANGUAGE plpgsql AS \$\$
BEGIN
    RETURN m = 'mondrian';
END \$\$;"
expect_failure "m IN ('sweep', 'mask') in the install script's SQL" "$sql_compared" "$script" \
    "CREATE FUNCTION anon.probe(m text) RETURNS boolean LANGUAGE sql AS \$\$ SELECT m IN ('sweep', 'mask') \$\$;"

infra=${pg_layers[0]}
api=${pg_layers[${#pg_layers[@]} - 1]}
infra_file=$(first_file "src/pg/$infra" -name '*.cpp')
api_file=$(first_file "src/pg/$api" -name '*.cpp')
catalog_private=$(first_file src/pg/catalog -name '*.hpp' ! -name catalog.hpp)
expect_failure "a pg $infra file including the publish header" "no file of src/pg includes a higher layer" \
    "$infra_file" '#include "publish/publish.hpp"'
expect_failure "a pg $api file including a private header of catalog" \
    "src/pg reaches another of its folders only through its interface header" \
    "$api_file" "#include \"catalog/${catalog_private##*/}\""
expect_failure "a pg file including a private core header" \
    "src/pg reaches the core only through its interface headers" "$api_file" '#include "data/taxonomy.hpp"'
expect_failure "a stray file in the src/pg root" "no source file of src/pg outside its folders" \
    src/pg/stray.cpp '#include "job/job.hpp"'
expect_failure "a pg file including a header that does not exist" \
    "every quoted .hpp include of src/ names a file" "$api_file" '#include "spi_gone.hpp"'
long_function="void selftest_long_function() {"$'\n'"$(printf '    (void)0;\n%.0s' $(seq 1 80))"$'\n'"}"
expect_failure "a pg function of 82 lines" "no function of src/ over 80 lines" "$api_file" "$long_function"

# The compile-time guard: probes compiled in the untouched copy by the Makefile's own rules (make's output in
# $work/probe.log), then removed with what make wrote beside them.
# compile_probe PATH INCLUDE...: a file of those include lines at PATH, compiled by make; make's status.
compile_probe() {
    local path=$1 file=$copy/$1 rc
    shift
    printf '#include %s\n' "$@" >"$file"
    make -C "$copy" -s --no-print-directory "${path%.cpp}.o" >"$work/probe.log" 2>&1
    rc=$?
    rm -f "$file" "${file%.cpp}.o" "${file%.cpp}.d"
    return "$rc"
}
# expect_no_compile WHAT PATH INCLUDE MESSAGE: the probe does not compile, and the compiler says MESSAGE.
expect_no_compile() {
    if ! compile_probe "$2" "$3" && grep -F -- "$4" "$work/probe.log" >/dev/null; then
        check_that "$1 does not compile" true
    else
        sed 's/^/    /' "$work/probe.log"
        check_that "$1 does not compile, with: $4" false
    fi
}
guard=$(cd "$copy" && find src/pg -name postgres_headers.hpp | head -n 1)
if [ -z "$guard" ]; then
    check_that "src/pg has postgres_headers.hpp, the guard header" false
else
    compile_probe "$(dirname "$guard")/layering_probe.cpp" '"postgres_headers.hpp"' '"utils/elog.h"'
    rc=$?
    [ "$rc" -eq 0 ] || sed 's/^/    /' "$work/probe.log"
    check_that "a file of src/pg compiles with postgres_headers.hpp and utils/elog.h (the probes' control)" \
        test "$rc" -eq 0
    expect_no_compile "a core file including utils/elog.h (no PostgreSQL include directory)" \
        src/core/base/layering_probe.cpp '"utils/elog.h"' 'utils/elog.h: No such file'
    expect_no_compile "a core file including postgres_headers.hpp (its #error under ANON_CORE_BUILD)" \
        src/core/base/layering_probe.cpp "\"../../../$guard\"" '#error "src/core includes the PostgreSQL layer'
fi

report_checks "layering self-test"
