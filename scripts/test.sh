#!/usr/bin/env bash
# scripts/test.sh: the project's one test command (CI runs it through .ci/run).
# Installs missing packages, builds and installs the extension with -Werror, checks the layering (both halves, and its
# self-test), the format and the docs' tour, then runs the pg_regress suite (make
# installcheck) against a throwaway PostgreSQL 15 cluster and the shell tests on it (anon-maintain and its report page,
# rendered by headless Chromium when installed; session settings: a replay of the suite under hostile settings
# whose releases' fingerprints must be the baseline's, taken under default ones; the taxonomy builders' time and memory under
# hostile inputs; concurrency, dump/restore, the database owner's dump/restore, the t-closeness upgrade and a fresh install against an upgrade from 0.1; random calls of every SQL
# function) while the other builds run in the background; then the tests that start clusters of their own (the
# throwaway cluster script itself; crashes while a release is written; postgres_fdw with two clusters; 60 s of
# concurrent load on releases; a Citus coordinator and two workers, when Citus is installed), which need only the
# installed extension, while the builds end; then the core's GoogleTest unit tests, again built with AddressSanitizer
# + UBSan (both in shards, two at a time), and the libFuzzer targets at once for a bounded time. Beside all these from
# the moment its libraries are built (printed after them), the pg_regress suite and the shell tests that need a
# server run again against servers running the extension built with ASan + UBSan.
# A failing step does not stop the steps that do not depend on it. The last line printed is always `N passed, N
# failed` (unit + sanitizer unit tests + fuzz targets, one each + regression tests + script checks; a build or setup
# error counts as one failure); a skipped step (the Citus test without Citus) counts in neither and is listed on the
# line before. The exit status is non-zero when anything failed. Logs of each step are kept in build/test-logs/.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || { echo "0 passed, 1 failed"; exit 1; }
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
export GTEST_COLOR=no
LOGS=build/test-logs
mkdir -p "$LOGS"

passed=0
failed=0
skipped=()
step_start=$SECONDS

heading() { step_start=$SECONDS; printf '\n======== %s ========\n' "$*"; }
took() { echo "($((SECONDS - step_start)) s)"; }
error() { echo "ERROR: $*"; failed=$((failed + 1)); }

# Runs a command, output to the console and to a log file; returns the command's status.
logged() {
    local log=$1
    shift
    "$@" 2>&1 | tee "$log"
    return "${PIPESTATUS[0]}"
}

# Counts a GoogleTest run from its log: the "[  PASSED  ] N tests." and "[  FAILED  ] N tests, listed
# below:" summary lines. A run that died before its summary (crash, sanitizer halt) counts its finished
# tests ("[       OK ] T (n ms)", "[  FAILED  ] T (n ms)") plus one failure for the death. A non-zero
# status with no failed test counted (compile error, sanitizer report at exit) is one failure.
count_gtest() {
    local label=$1 log=$2 rc=$3 p f died=0
    p=$(awk '/^\[  PASSED  \] [0-9]+ tests?\./ { print $4; exit }' "$log")
    f=$(awk '/^\[  FAILED  \] [0-9]+ tests?, listed below/ { print $4; exit }' "$log")
    if [ -z "$p" ]; then
        died=1
        p=$(grep -c '^\[       OK \] .* ([0-9]* ms)$' "$log")
        f=$(grep -c '^\[  FAILED  \] .* ([0-9]* ms)$' "$log")
    fi
    f=${f:-0}
    if [ "$rc" -ne 0 ] && { [ "$died" -eq 1 ] || [ "$f" -eq 0 ]; }; then
        echo "ERROR: $label exited with status $rc (build error, crash or sanitizer report): see $log"
        f=$((f + 1))
    fi
    echo "$label: $p passed, $f failed"
    passed=$((passed + p))
    failed=$((failed + f))
}

finish() {
    type cluster_stop >/dev/null 2>&1 && cluster_stop
    printf '\n======== summary (%d s) ========\n' "$SECONDS"
    [ ${#skipped[@]} -eq 0 ] || echo "skipped (not counted): ${skipped[*]}"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && exit 0
    exit 1
}

# Builds anon-maintain and runs its shell test against the running cluster; counts its PASS/FAIL lines.
maintain_tests() {
    local log=$LOGS/anon-maintain.log p f
    if ! logged "$LOGS/anon-maintain-build.log" make anon-maintain ANON_WERROR=-Werror; then
        error "make anon-maintain failed: see $LOGS/anon-maintain-build.log"
        return
    fi
    PATH="$ANON_PG_BIN:$PATH" logged "$log" bash tests/scripts/anon_maintain_test.sh build/anon-maintain
    count_checks "anon-maintain tests" "$log" $?
    # The release report page; without Chromium its rendering checks are skipped, the others still count.
    log=$LOGS/report_html.log
    PATH="$ANON_PG_BIN:$PATH" logged "$log" bash tests/scripts/report_html_test.sh build/anon-maintain
    count_checks "report_html tests" "$log" $?
    grep -q '^skipped: ' "$log" && skipped+=("report_html rendering")
}

# Counts a shell test's checks from its log ("ok: " and "FAILED: " lines, tests/scripts/checks.sh); a non-zero
# status with no failed check counted is one failure.
count_checks() {
    local label=$1 log=$2 rc=$3 p f
    p=$(grep -c '^ok: ' "$log")
    f=$(grep -c '^FAILED: ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "ERROR: $label exited with status $rc: see $log"
        f=1
    fi
    echo "$label: $p passed, $f failed"
    passed=$((passed + p))
    failed=$((failed + f))
}

heading "dependencies"
bash scripts/deps.sh || error "scripts/deps.sh failed"

heading "build and install the extension (-Werror)"
built=0
# -g1 (line tables, no variables) compiles the same code a quarter faster than PostgreSQL's -g (Makefile).
if ! logged "$LOGS/build.log" make -j2 ANON_WERROR=-Werror ANON_DEBUG_INFO=-g1; then
    error "make failed: see $LOGS/build.log"
elif ! logged "$LOGS/install.log" make install; then
    error "make install failed: see $LOGS/install.log"
else
    built=1
fi
took

# The layering check takes the model and algorithm names from the registries (build/registry_names, linked from the
# core's objects the build just compiled), so it runs after the build, before the background builds start; its
# self-test injects violations into a copy.
heading "layering, format and the docs' tour (tests/scripts/layering_test.sh, layering_selftest.sh, format_test.sh, tour_test.sh)"
for script in layering_test layering_selftest format_test tour_test; do
    logged "$LOGS/$script.log" bash "tests/scripts/$script.sh"
    count_checks "$script" "$LOGS/$script.log" $?
done
took

# Prints how many of the processes PIDS are still running.
running() {
    local pid n=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && n=$((n + 1)); done
    echo "$n"
}

# Runs the unit test binary BINARY as UNIT_SHARDS (default 6) GoogleTest shards, two at a time (one per core; more
# shards than cores even out the long tests), each into LOG.N, and counts each shard: LABEL (shard N/6). A shard that
# failed prints its whole log, one that passed its summary. Waits for its shards only (the builds and the
# server-sanitizer step run in the background meanwhile).
unit_shards() {
    local label=$1 binary=$2 log=$3 shards=${UNIT_SHARDS:-6} shard rc pids=()
    for shard in $(seq 1 "$shards"); do
        while [ "$(running "${pids[@]}")" -ge 2 ]; do sleep 0.2; done
        (
            GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$((shard - 1)) "$binary" >"$log.$shard" 2>&1
            echo $? >"$log.$shard.status"
        ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    for shard in $(seq 1 "$shards"); do
        rc=$(cat "$log.$shard.status" 2>/dev/null || echo 1)
        if [ "$rc" -ne 0 ]; then cat "$log.$shard"; else grep -E '^\[(==========|  PASSED  )\]' "$log.$shard"; fi
        count_gtest "$label (shard $shard/$shards)" "$log.$shard" "$rc"
    done
}

# The other builds run one after the other in the background at the lowest priority while the regression and shell
# tests below, which mostly wait on one backend at a time (and whose time limits must hold), leave a core idle; after
# these tests at the normal priority (unnice_builds). In this order: the server-sanitizer step's libraries, with the
# instrumented core they link (compiled once by clang, shared with the sanitizer unit tests and the fuzz targets),
# so that step, the longest, starts as soon as can be and runs beside all the others; the unit tests (their files by
# clang); the sanitizer unit tests and the fuzz targets, which only link. The steps that need them wait for them
# (wait_build) and report their errors. They start after the extension's build, whose core objects the unit tests
# link.
BUILDS=(server-san-libraries unit-build unit-san-build fuzz)
for build in "${BUILDS[@]}"; do rm -f "$LOGS/$build.status"; done
(
    renice -n 19 -p "$BASHPID" >/dev/null
    for build in "${BUILDS[@]}"; do
        make -j2 "$build" ANON_WERROR=-Werror >"$LOGS/$build.log" 2>&1
        echo $? >"$LOGS/$build.status"
    done
) &
builds=$!
builds_started=$SECONDS

# The server-sanitizer step, the longest, waits on about one backend at a time, as the tests with clusters of their
# own do: it runs in the background from the moment its libraries are built (after the steps on the extension's
# cluster, on this machine type), and its output follows the others'. It runs at the normal priority: its crash test
# must interrupt a call within the 2 s a phase lasts, which a niced client missed beside the fuzz targets. It installs
# its instrumented anon.so into a copy of PostgreSQL in a temporary directory, so the installation the other steps
# use is not touched.
(
    while [ ! -f "$LOGS/server-san-libraries.status" ] && kill -0 "$builds" 2>/dev/null; do sleep 1; done
    bash tests/scripts/server_sanitizer_test.sh
) >"$LOGS/server_sanitizer_test.log" 2>&1 &
san_test=$!

# Gives the background builds, and the compilers they start from now on, the normal priority back (as root; for
# another user they stay at the lowest).
unnice_builds() {
    local pids=("$builds") i=0 child
    while [ "$i" -lt "${#pids[@]}" ]; do
        for child in $(pgrep -P "${pids[$i]}"); do pids+=("$child"); done
        i=$((i + 1))
    done
    renice -n 0 -p "${pids[@]}" >/dev/null 2>&1
}

# Waits for the background build BUILD (a make goal) and says how long; returns its status.
wait_build() {
    local build=$1 from=$SECONDS
    while [ ! -f "$LOGS/$build.status" ] && kill -0 "$builds" 2>/dev/null; do sleep 1; done
    echo "(make $build: ready $((SECONDS - builds_started)) s after the builds started; waited $((SECONDS - from)) s)"
    [ "$(cat "$LOGS/$build.status" 2>/dev/null)" = 0 ]
}

heading "regression tests (pg_regress)"
if ! compgen -G 'tests/regress/sql/*.sql' >/dev/null; then
    echo "no tests/regress/sql/*.sql: nothing to run"
elif [ "$built" -ne 1 ]; then
    error "regression tests not run: the extension did not build or install"
else
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    if ! cluster_start; then
        error "could not start the test cluster"
    else
        rm -f build/regress/regression.diffs
        logged "$LOGS/regress.log" make installcheck
        rc=$?
        # PG15 prints "test name ... ok  12 ms" / "... FAILED"; PG16+ prints TAP "ok 1 - name" / "not ok".
        p=$(grep -cE '\.\.\. ok|^ok [0-9]+ ' "$LOGS/regress.log")
        f=$(grep -cE '\.\.\. FAILED|^not ok [0-9]+ ' "$LOGS/regress.log")
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            echo "ERROR: make installcheck exited with status $rc: see $LOGS/regress.log"
            echo "---- server log (last 30 lines) ----"
            tail -n 30 "$PGHOST/postgres.log"
            f=1
        fi
        if [ "$f" -ne 0 ] && [ -f build/regress/regression.diffs ]; then
            echo "---- build/regress/regression.diffs ----"
            cat build/regress/regression.diffs
        fi
        echo "regression tests: $p passed, $f failed"
        passed=$((passed + p))
        failed=$((failed + f))
        took
        # The shell tests that need a running server share the regression tests' cluster (each works in a
        # database of its own).
        heading "anon-maintain (tests/scripts/anon_maintain_test.sh, report_html_test.sh)"
        maintain_tests
        took
        heading "session settings (tests/scripts/settings_test.sh)"
        rm -f "$LOGS/release_fingerprints.tsv"
        PATH="$ANON_PG_BIN:$PATH" ANON_RELEASE_FINGERPRINTS=$LOGS/release_fingerprints.tsv \
            logged "$LOGS/settings_test.log" bash tests/scripts/settings_test.sh build/anon-maintain
        count_checks "settings_test" "$LOGS/settings_test.log" $?
        took
        heading "release fingerprints against tests/regress/release_fingerprints.txt, from the settings test's replay"
        logged "$LOGS/release_fingerprints.log" bash tests/scripts/release_fingerprints.sh \
            --from "$LOGS/release_fingerprints.tsv"
        count_checks "release_fingerprints" "$LOGS/release_fingerprints.log" $?
        heading "builders under hostile inputs: time and memory (tests/scripts/limits_test.sh)"
        logged "$LOGS/limits_test.log" bash tests/scripts/limits_test.sh
        count_checks "limits_test" "$LOGS/limits_test.log" $?
        took
        heading "memory at a million rows: every algorithm within anon.memory_limit + 64 MB (tests/scripts/memory_bound_test.sh)"
        logged "$LOGS/memory_bound_test.log" bash tests/scripts/memory_bound_test.sh
        count_checks "memory_bound_test" "$LOGS/memory_bound_test.log" $?
        took
        heading "concurrency, dump/restore, owner dumps, upgrades and random calls (tests/scripts/)"
        for script in concurrency_test dump_restore_test owner_dump_test tcloseness_upgrade_test install_upgrade_test \
            random_calls_test; do
            logged "$LOGS/$script.log" bash "tests/scripts/$script.sh"
            count_checks "$script" "$LOGS/$script.log" $?
        done
        cluster_stop
    fi
fi
took
unnice_builds

# Runs a shell test that starts clusters of its own: LABEL, its script name, its heading. Status 77 with its one
# line "skipped: ..." (the Citus test without Citus installed) counts as skipped, neither passed nor failed.
own_cluster_test() {
    local rc
    heading "$3 (tests/scripts/$2.sh)"
    if [ "$built" -ne 1 ]; then
        error "$1 test not run: the extension did not build or install"
    else
        logged "$LOGS/$1.log" bash "tests/scripts/$2.sh"
        rc=$?
        if [ "$rc" -eq 77 ] && grep -q '^skipped: ' "$LOGS/$1.log"; then
            skipped+=("$1")
        else
            count_checks "$1" "$LOGS/$1.log" "$rc"
        fi
    fi
    took
}
own_cluster_test cluster cluster_script_test "scripts/cluster.sh: a stale inherited cluster, a shared one; scripts/workspace.sh"
own_cluster_test crash crash_test "crashes while a release is written"
own_cluster_test fdw fdw_test "postgres_fdw: foreign partitions on a second cluster"
own_cluster_test load load_test "sustained concurrent load: refreshes, reads, writes, publications, anon-maintain"
own_cluster_test citus citus_test "Citus: a coordinator and two workers"

heading "unit tests"
if wait_build unit-build; then
    unit_shards "unit tests" build/unit/unit_tests "$LOGS/unit.log"
else
    tail -n 30 "$LOGS/unit-build.log"
    error "the unit tests did not build: see $LOGS/unit-build.log"
fi
took

# The sanitizers slow the core about twelvefold: the tests that only replay the core's paths on the whole of Adult
# or a million tuples (10 to 140 s each under the sanitizers, two thirds of the suite's time) are left to the plain
# run above, and the server-sanitizer step runs the same algorithms on Adult through the pg_regress suite; the
# random-table property tests and every other test run here. UNIT_SAN_SKIP='' runs them all.
UNIT_SAN_SKIP=${UNIT_SAN_SKIP-AdultEducation.ReportAgreesWithTheAudit:AdultOccupationThreeQis.ReportAgreesWithTheAudit:\
AdultOccupation.ReportAgreesWithTheAudit:AdultIncognito.MaxSuppressionStaysWithinBudget:AdultBsgi.AdultFastVsExact:\
AdultRefine.InformationLossFloors:AdultOneDim.LTwoToSeven:OneDim.MillionTuples:\
AdultMinimality.FullDomainReleasesForLTwoToTen:AdultMInvariance.*:AdultIncognito.DistinctThreeDiversityMatchesBruteForce:\
AdultAttacks.IntersectingTwoReleasesLeavesPeopleOneCandidate:AdultRefine.SameTableSameRelease:\
MaskAdult.AfterIncognitoFiveAnonymity:AdultSweep.OccupationThreeTenthsFive:LabelIndex.TaxonomyOfAMillionLeavesFindsEach}

heading "unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
if wait_build unit-san-build; then
    [ -z "$UNIT_SAN_SKIP" ] || echo "left to the plain unit tests (not counted here): ${UNIT_SAN_SKIP//:/ }"
    GTEST_FILTER="-$UNIT_SAN_SKIP" ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        unit_shards "sanitizer unit tests" build/unit-san/unit_tests "$LOGS/unit-san.log"
else
    tail -n 30 "$LOGS/unit-san-build.log"
    error "the sanitizer unit tests did not build: see $LOGS/unit-san-build.log"
fi
took

heading "fuzzing (libFuzzer + ASan + UBSan, ${FUZZ_SECONDS:-30} s per target)"
# Each target runs from its seed corpus (tests/fuzz/corpus/<target>, if any) with a working corpus in
# build/fuzz/corpus/<target>; a crash, leak, sanitizer report or failed check counts the target as one failure and
# leaves the input in build/fuzz/crash-* (rerun it with build/fuzz/<target> <file>). UBSan halts at its first report
# (the instrumented core is built recoverable, as for the server-sanitizer step).
if ! wait_build fuzz; then
    tail -n 30 "$LOGS/fuzz.log"
    error "make fuzz failed: see $LOGS/fuzz.log"
else
    # The targets run at once (each is single-threaded), then are counted one by one.
    fuzz_pids=()
    fuzz_names=()
    for target in build/fuzz/fuzz_*; do
        [ -x "$target" ] || continue
        name=$(basename "$target")
        mkdir -p "build/fuzz/corpus/$name"
        seeds=()
        [ -d "tests/fuzz/corpus/$name" ] && seeds=("tests/fuzz/corpus/$name")
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$target" -max_total_time="${FUZZ_SECONDS:-30}" -timeout=20 \
            -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build/fuzz/ "build/fuzz/corpus/$name" "${seeds[@]}" \
            >"$LOGS/$name.log" 2>&1 &
        fuzz_pids+=($!)
        fuzz_names+=("$name")
    done
    for i in "${!fuzz_pids[@]}"; do
        name=${fuzz_names[$i]}
        if wait "${fuzz_pids[$i]}"; then
            echo "$name: passed ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$LOGS/$name.log" | grep -o '[0-9]*$') runs)"
            passed=$((passed + 1))
        else
            tail -n 30 "$LOGS/$name.log"
            error "$name failed: see $LOGS/$name.log"
        fi
    done
fi
took


heading "server-side sanitizers: pg_regress and shell tests (tests/scripts/server_sanitizer_test.sh, run meanwhile)"
wait "$san_test"
san_rc=$?
cat "$LOGS/server_sanitizer_test.log"
count_checks "server sanitizers" "$LOGS/server_sanitizer_test.log" "$san_rc"
took

finish
