#!/usr/bin/env bash
# tests/scripts/server_sanitizer_test.sh: the extension built with AddressSanitizer + UndefinedBehaviorSanitizer,
# loaded into a running PostgreSQL 15 server, through the whole pg_regress suite and the shell tests (issue 14).
# From the repository root, as root or as a user who can run initdb:
#   1. `make server-san` builds the instrumented anon.so (clang) into build/server-san and installs it into a copy of
#      the PostgreSQL named by PG_CONFIG, in a temporary directory, so the normal installation is not touched;
#   2. starts a throwaway cluster from the copy (scripts/cluster.sh) with the ASan runtime and
#      anon_san_preload.so preloaded into the server's environment only (initdb and the clients run
#      without them; tests/sanitizer/preload.cpp says why the second is needed). ASan halts a backend at its first
#      report (the server then restarts its backends); UBSan reports with a stack trace and goes on. Leak detection
#      is off (a backend leaves its memory to PostgreSQL's memory contexts at exit). Reports go to the server log;
#   3. proves the reports are seen: a probe module with a heap overflow and an oversized shift must give an ASan and
#      a UBSan report, attributed to the probe;
#   4. runs every pg_regress test (make installcheck, in two halves at once: the second on a cluster of its own), then
#      each shell test in ANON_SAN_SHELL_TESTS (default: all
#      of them but the Citus test and the ones without a server; the load test for ANON_SAN_LOAD_SECONDS, default
#      30; the settings test without its replays of the suite, ANON_SETTINGS_REPLAY=0), reading the server log after
#      the suite and after each shell test (the crash, fdw and load tests start clusters of their own with the
#      runtime preloaded too and run meanwhile the suite, one after the other; their logs are read after them; for
#      the crash test, which kills backends on purpose, a backend's death is not a report). A report is attributed
#      to the test whose connection the reporting process served (log_connections: pg_regress connects as
#      application pg_regress/<test>) and printed as "sanitizer report in test X: <first line>" with its first
#      frames; a backend that died counts as a report too.
# One check per test: it passed (ANON_SAN_TIMING_TESTS excepted, below) and no report names it; one for the probe's
# two reports and one for the shutdown. The figures line: tests run, reports found, seconds. The logs stay in
# build/server-san/logs. The last line is "server sanitizers: N passed, M failed"; the exit status is non-zero when
# a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
SHELL_TESTS=${ANON_SAN_SHELL_TESTS:-random_calls_test concurrency_test anon_maintain_test settings_test dump_restore_test
    owner_dump_test tcloseness_upgrade_test crash_test fdw_test load_test}
# Regression tests whose output depends on timing: 80_operations cancels a job after 200 ms, which the slower
# instrumented build reaches in an earlier phase (the error then has a CONTEXT line). Only reports fail them here.
TIMING_TESTS=${ANON_SAN_TIMING_TESTS:-80_operations}
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
started=$SECONDS
tests_run=0
reports_found=0

LOGS=build/server-san/logs   # the build's, pg_regress's and each shell test's output, and the server log
mkdir -p "$LOGS"
# The PostgreSQL copy the server runs from, in /tmp: as root the server runs as postgres, which may not be allowed
# into the repository's directory.
SAN_PG=$(mktemp -d /tmp/anon-san-pg.XXXXXX) || exit 1
chmod 755 "$SAN_PG"
trap 'rm -rf "$SAN_PG"' EXIT

if ! nice -n 5 make -j2 server-san SERVER_SAN_PG="$SAN_PG" >"$LOGS/build.log" 2>&1; then
    tail -n 30 "$LOGS/build.log"
    check "make server-san" 1 "the build failed"
    report_checks "server sanitizers"
    exit 1
fi
ANON_PG_BIN=$SAN_PG$("$PG_CONFIG" --bindir)
# clang's shared ASan runtime (which holds UBSan's too), the one the instrumented libraries were built for.
runtime=$(make -s --no-print-directory server-san-runtime)
preload=$SAN_PG$("$PG_CONFIG" --pkglibdir)/anon_san_preload.so
# Reports go to the processes' stderr, the server log (UBSan cannot read log_path, see tests/sanitizer/preload.cpp).
# A report's allocation and free stacks keep 5 frames (30 by default): unwinding on every malloc and free was a
# seventh of the instrumented code's time; the access's own stack stays whole.
ANON_PG_SERVER_ENV="LD_PRELOAD=$runtime:$preload ASAN_OPTIONS=detect_leaks=0:malloc_context_size=5"
export ANON_PG_BIN ANON_PG_SERVER_ENV

# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
trap 'cluster_stop; rm -rf "$SAN_PG"' EXIT  # cluster.sh replaced the trap above
if ! cluster_start; then
    check "a cluster with the sanitizer runtime preloaded starts" 1 "see the messages above"
    report_checks "server sanitizers"
    exit 1
fi
# Every connection logs its process id and application (pg_regress/<test> for the suite): the key from a report's
# process id to its test.
psql -X -q -c "ALTER SYSTEM SET log_line_prefix = '%m [%p] '" -c "ALTER SYSTEM SET log_connections = on" \
    -c "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 20); do [ "$(psql -X -At -c 'SHOW log_connections')" = on ] && break; sleep 0.5; done

# Reads the server log written since the last call and prints each sanitizer report in it as "sanitizer report in
# test X: <first line>" and its first frames. X is the pg_regress test whose connection the reporting process
# served (ASan's report names the process; a UBSan report, or a process without a connection such as a parallel
# worker, is given the last connection made before it), otherwise LABEL. Counts the reports; returns 1 when any.
# With LOG, reads that whole file instead (the server logs of a test that ran clusters of its own); with DEATHS=0, a
# backend's death is not a report (the crash test kills backends on purpose).
LOG_SCANNED=0
scan_reports() {
    local label=$1 log=${2:-$ANON_PG_DIR/postgres.log} from=0 out
    [ -n "${2:-}" ] || from=$LOG_SCANNED
    out=$(LC_ALL=C awk -v from="$from" -v label="$label" -v deaths="${DEATHS:-1}" '
        function test_of(app) { return app ~ /^pg_regress\// ? substr(app, 12) : label (app == "" ? "" : " (application " app ")") }
        { at += length($0) + 1 }
        /connection authorized: .*application_name=/ {
            app = $0; sub(/.*application_name=/, "", app); sub(/ .*/, "", app)
            pid = $0; sub(/^[^[]*\[/, "", pid); sub(/\].*/, "", pid)
            app_of[pid] = app; last_app = app
        }
        at <= from { next }
        ubsan && !/^    #/ { ubsan = 0 }
        (asan || ubsan) && /^    #[0-9]+ / && frames++ < 4 { print "    " $0 }
        asan && /^SUMMARY: / { asan = 0 }
        /^==[0-9]+==ERROR: AddressSanitizer/ {
            pid = $0; sub(/^==/, "", pid); sub(/==.*/, "", pid)
            print "sanitizer report in test " test_of(pid in app_of ? app_of[pid] : last_app) ": " $0
            asan = 1; frames = 0
        }
        / runtime error: / { print "sanitizer report in test " test_of(last_app) ": " $0; ubsan = 1; frames = 0 }
        deaths && /server process \(PID [0-9]+\) (was terminated by signal|exited with exit code)/ {
            pid = $0; sub(/.*server process \(PID /, "", pid); sub(/\).*/, "", pid)
            print "sanitizer report in test " test_of(pid in app_of ? app_of[pid] : last_app) ": a backend died: " $0
        }' "$log")
    [ -n "${2:-}" ] || LOG_SCANNED=$(stat -c %s "$log")
    [ -n "$out" ] || return 0
    echo "$out"
    reports_found=$((reports_found + $(grep -c '^sanitizer report in test ' <<<"$out")))
    REPORTED_TESTS+=$(sed -n 's/^sanitizer report in test \([^:]*\): .*/ \1 /p' <<<"$out")
    return 1
}

# ---- the probe: both runtimes report, into the files this test reads, attributed to the probe ----
PGAPPNAME=sanitizer_probe psql -X -q -d postgres >/dev/null 2>&1 <<'SQL'
CREATE FUNCTION pg_temp.shift_overflow(int) RETURNS int AS '$libdir/san_probe', 'san_probe_shift_overflow'
    LANGUAGE C STRICT;
CREATE FUNCTION pg_temp.heap_overflow(int) RETURNS int AS '$libdir/san_probe', 'san_probe_heap_overflow'
    LANGUAGE C STRICT;
SELECT pg_temp.shift_overflow(0);
SELECT pg_temp.heap_overflow(0);
SQL
sleep 1
probe=$(REPORTED_TESTS= && scan_reports probe)
LOG_SCANNED=$(stat -c %s "$ANON_PG_DIR/postgres.log")
# True when a report attributed to the probe's connection contains PATTERN.
probe_reported() {
    awk -v p="$1" '/^sanitizer report in test/ { mine = /^sanitizer report in test probe \(application sanitizer_probe\)/ }
                   mine && index($0, p) { found = 1 } END { exit !found }' <<<"$probe"
}
probe_reported heap-buffer-overflow
check "the probe's heap overflow gives an AddressSanitizer report attributed to it" $? "none among: ${probe:-no report}"
probe_reported 'shift exponent'
check "the probe's oversized shift gives an UndefinedBehaviorSanitizer report attributed to it" $? \
    "none among: ${probe:-no report}"
# The heap overflow ended a backend: wait until the server accepts connections again.
for _ in $(seq 1 30); do psql -X -q -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 1; done

# ---- the shell tests that start clusters of their own: run meanwhile, checked after the others ----
# crash_test, fdw_test and load_test start clusters of their own, with the same runtime preloaded
# (ANON_PG_SERVER_ENV), and leave their server logs in LOGS/<test>.server.log to be read. They run one after the
# other in the background while the suite below runs here: each side waits on about one backend at a time.
OWN_CLUSTER_TESTS=
SHARED_TESTS=
for script in $SHELL_TESTS; do
    case $script in
        crash_test | fdw_test | load_test) OWN_CLUSTER_TESTS+=" $script" ;;
        *) SHARED_TESTS+=" $script" ;;
    esac
done
run_own_cluster_tests() {
    local script own_log
    for script in $OWN_CLUSTER_TESTS; do
        own_log=$LOGS/$script.server.log
        rm -f "$own_log"
        # ASan's quarantine holds freed memory, so the load test's backend memory-growth check is meaningless here
        # (the load step checks it); every other check of the load test stands.
        ANON_PG_DIR='' ANON_PG_LOG_KEEP=$PWD/$own_log ANON_LOAD_SECONDS=${ANON_SAN_LOAD_SECONDS:-30} \
            ANON_LOAD_MEMORY_KB=1000000000 bash "tests/scripts/$script.sh" >"$LOGS/$script.log" 2>&1
        echo $? >"$LOGS/$script.status"
        [ -f "$own_log" ] || touch "$own_log"
    done
}
run_own_cluster_tests &
own_cluster_tests=$!

# ---- the pg_regress suite: one check per test ----
# The suite runs in two halves at once, each after 00_setup: the files before SECOND_HALF_FROM on this cluster, the
# others on a cluster of their own (each half waits on one backend at a time; the files depend on 00_setup only).
# Its server log is read after it, as the other clusters' are.
SECOND_HALF_FROM=${ANON_SAN_SECOND_HALF_FROM:-60}  # about half of the suite's time on each side
first_half=
second_half=
for file in tests/regress/sql/*.sql; do
    test=$(basename "$file" .sql)
    [ "$test" = 00_setup ] && continue
    if [ "${test%%_*}" \< "$SECOND_HALF_FROM" ]; then first_half+=" $test"; else second_half+=" $test"; fi
done
run_second_half() {
    rm -f "$LOGS/regress-second.server.log"
    (
        ANON_PG_DIR='' ANON_PG_LOG_KEEP=$PWD/$LOGS/regress-second.server.log
        cluster_start >/dev/null 2>&1 || exit 1
        psql -X -q -c "ALTER SYSTEM SET log_line_prefix = '%m [%p] '" -c "ALTER SYSTEM SET log_connections = on" \
            -c "SELECT pg_reload_conf()" >/dev/null
        for _ in $(seq 1 20); do [ "$(psql -X -At -c 'SHOW log_connections')" = on ] && break; sleep 0.5; done
        make installcheck REGRESS="00_setup$second_half" REGRESS_OUTPUTDIR=build/regress-second
        rc=$?
        cluster_stop
        exit "$rc"
    ) >"$LOGS/regress-second.log" 2>&1
    [ -f "$LOGS/regress-second.server.log" ] || touch "$LOGS/regress-second.server.log"
}
mkdir -p build/regress-second
run_second_half &
second_half_pid=$!
REPORTED_TESTS=
regress_failed=0
rm -f build/regress/regression.diffs build/regress-second/regression.diffs
make installcheck REGRESS="00_setup$first_half" >"$LOGS/regress.log" 2>&1
scan_reports "the pg_regress suite"
wait "$second_half_pid"
scan_reports "the pg_regress suite" "$LOGS/regress-second.server.log"
while read -r test result; do
    tests_run=$((tests_run + 1))
    status=0
    detail=
    if [ "$result" != ok ]; then
        case " $TIMING_TESTS " in
            *" $test "*) echo "note: $test's output differs under the sanitizers' slowdown (its timing; the regression step checks it)" ;;
            *) status=1; regress_failed=1; detail="pg_regress: $result, see build/regress/regression.diffs" ;;
        esac
    fi
    case $REPORTED_TESTS in *" $test "*) status=1; detail="${detail:+$detail; }sanitizer report above" ;; esac
    check "pg_regress $test under the sanitizers" "$status" "$detail"
done < <(sed -n -E 's/^(test )? *([0-9A-Za-z_]+) +\.\.\. (ok|FAILED).*/\2 \3/p' "$LOGS/regress.log" \
    "$LOGS/regress-second.log" | awk '!($1 == "00_setup" && seen++)')
ran=$(cat "$LOGS/regress.log" "$LOGS/regress-second.log" | grep -cE '\.\.\. (ok|FAILED)')
files=$(find tests/regress/sql -name '*.sql' | wc -l)
check "every pg_regress file ran in one of the two halves (00_setup in both)" $((ran != files + 1)) \
    "$ran results for $files files: see $LOGS/regress.log and $LOGS/regress-second.log"
case $REPORTED_TESTS in
    *" the pg_regress suite"*) check "pg_regress reports attributed to a test" 1 "a report names no test" ;;
esac
[ "$regress_failed" -eq 0 ] || head -n 60 build/regress/regression.diffs build/regress-second/regression.diffs 2>/dev/null

# ---- the shell tests: one check each ----
# Those that need a running server share this one (each works in a database of its own); anon-maintain and the
# settings test call the client program. Then the checks of the tests with clusters of their own, once they ended.
if ! nice -n 5 make anon-maintain >"$LOGS/anon-maintain-build.log" 2>&1; then
    check "make anon-maintain" 1 "see $LOGS/anon-maintain-build.log"
fi
# check_shell_test SCRIPT RC FOUND: prints the test's last line and its failures, and its check.
check_shell_test() {
    local script=$1 rc=$2 found=$3
    tail -n 1 "$LOGS/$script.log"
    if [ "$rc" -ne 0 ]; then
        grep '^FAILED: ' "$LOGS/$script.log" | head -n 10
    fi
    check "$script under the sanitizers" $((rc != 0 || found != 0)) \
        "exit status $rc$([ "$found" -ne 0 ] && echo ', sanitizer report above')"
}
for script in $SHARED_TESTS; do
    tests_run=$((tests_run + 1))
    REPORTED_TESTS=
    # The settings test without its replays of the suite, which has just run here (ANON_SETTINGS_REPLAY).
    ANON_SETTINGS_REPLAY=0 PATH="$ANON_PG_BIN:$PATH" bash "tests/scripts/$script.sh" build/anon-maintain \
        >"$LOGS/$script.log" 2>&1
    rc=$?
    scan_reports "$script"
    check_shell_test "$script" "$rc" $?
done
wait "$own_cluster_tests"
for script in $OWN_CLUSTER_TESTS; do
    tests_run=$((tests_run + 1))
    REPORTED_TESTS=
    rc=$(cat "$LOGS/$script.status" 2>/dev/null || echo 1)
    # For the crash test, which kills backends on purpose, a backend's death is not a report.
    DEATHS=$([ "$script" = crash_test ] && echo 0 || echo 1) scan_reports "$script" "$LOGS/$script.server.log"
    check_shell_test "$script" "$rc" $?
done

# A report of a process that served no test (the postmaster, a checkpointer) still counts; the server log is kept.
_anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$ANON_PG_DIR/data" -m fast -w -t 60 stop >/dev/null 2>&1
scan_reports "the server's shutdown"
check "no report at the server's shutdown" $? "report above"
cp "$ANON_PG_DIR/postgres.log" "$LOGS/postgres.log"
cluster_stop

printf 'server sanitizers: %d tests run (%d pg_regress + %d shell), %d sanitizer reports, %d s\n' \
    "$tests_run" "$((tests_run - $(wc -w <<<"$SHELL_TESTS")))" "$(wc -w <<<"$SHELL_TESTS")" "$reports_found" \
    "$((SECONDS - started))"
report_checks "server sanitizers"
