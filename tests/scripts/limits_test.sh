#!/usr/bin/env bash
# tests/scripts/limits_test.sh: the taxonomy builders obey statement_timeout, cancellation and anon.memory_limit
# (issue 41, point 5). Each case runs one hostile builder call in a backend of its own, with anon.memory_limit and a
# statement_timeout of 1 s (or, for the cancel cases, no timeout and a pg_cancel_backend 1 s after the call began),
# while a watcher samples the backend's /proc/<pid>/status every 20 ms. It prints the call's elapsed time, the peak
# growth of the backend's private memory (RssAnon, over its value just before the call), its VmHWM and how the call
# ended, and FAILS when the call ran more than 5 s or the private memory grew beyond anon.memory_limit + 64 MB.
# Needs the extension installed and a server in PGHOST/PGPORT/PGUSER (as scripts/test.sh provides) on this machine;
# without PGHOST it starts a throwaway cluster with scripts/cluster.sh. Works in its own database, dropped at the end.
# ANON_LIMITS_ONLY=REGEX runs only the cases whose name matches. The last line is "limits: N passed, M failed"; the
# exit status is non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if [ -z "${PGHOST:-}" ]; then
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    cluster_start >/dev/null || { echo "limits: 0 passed, 1 failed"; exit 1; }
fi
DB=anon_limits_test
MOST_MS=5000       # a timeout or cancel of 1 s honoured within 5 s
SLACK_KB=$((64 * 1024))
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# shellcheck source=tests/scripts/backend_memory.sh
source tests/scripts/backend_memory.sh
start_measured_database "limits"
if ! psql -X -q -v ON_ERROR_STOP=1 -d "$DB" >"$WORK/setup.log" 2>&1 <<'SQL'; then
CREATE EXTENSION anon;
-- prefix_taxonomy: one value of 15,000 characters (the issue's was 45,000), and 60 values of 1,999 characters
-- (within the catalog's 2,000 bytes per value), whose labels would take 60 x 1,998 x 2 kB.
CREATE TABLE l_long AS SELECT repeat('0123456789', 1500) AS v;
CREATE TABLE l_wide AS
SELECT left(string_agg(md5(i || ':' || j), '' ORDER BY j), 1999) AS v
FROM generate_series(1, 60) i, generate_series(1, 63) j GROUP BY i;
-- quantile_taxonomy: 200,000 distinct numbers.
CREATE TABLE l_numbers AS SELECT i AS x FROM generate_series(1, 200000) i;
-- taxonomy_from_levels and taxonomy_from_pairs: 300,000 leaves under 30,001 groups.
CREATE TABLE l_levels AS SELECT 'v' || i AS leaf, 'g' || (i / 10) AS l1, '*'::text AS root
FROM generate_series(1, 300000) i;
CREATE TABLE l_pairs AS
SELECT 'v' || i AS value, 'g' || (i / 10) AS parent FROM generate_series(1, 300000) i
UNION ALL SELECT 'g' || i, '*' FROM generate_series(0, 30000) i;
-- anon.anonymize builds a quantile taxonomy for a numeric quasi-identifier without one: 300,000 distinct values.
CREATE TABLE l_auto AS SELECT i AS id, i * 1.5 AS x, (i % 7)::text AS s FROM generate_series(1, 300000) i;
ANALYZE;
SQL
    cat "$WORK/setup.log"
    echo "limits: 0 passed, 1 failed"
    exit 1
fi

# A size in kB from a setting's value: 64MB, 1GB.
kilobytes() {
    case $1 in
        *GB) echo $((${1%GB} * 1024 * 1024)) ;;
        *MB) echo $((${1%MB} * 1024)) ;;
        *kB) echo "${1%kB}" ;;
    esac
}

# run_case NAME MEMORY_LIMIT HOW CALL: runs CALL (a SELECT) under anon.memory_limit = MEMORY_LIMIT, HOW being
# "timeout" (statement_timeout 1 s) or "cancel" (pg_cancel_backend 1 s after the call began), and checks it.
run_case() {
    local name=$1 limit=$2 how=$3 call=$4 timeout=0 grew limit_kb
    [[ $name =~ ${ANON_LIMITS_ONLY:-.} ]] || return 0
    [ "$how" = timeout ] && timeout=1s
    call_start "SET anon.memory_limit = '$limit'; SET statement_timeout = '$timeout';" "$call"
    if [ "$how" = cancel ] && [ -n "$CALL_PID" ]; then
        sleep 1
        psql -X -q -At -d "$DB" -c "SELECT pg_cancel_backend($CALL_PID)" >/dev/null
    fi
    # A call that ignores its limits is stopped after 60 s (terminated, then waited for), and fails.
    call_finish 60
    grew=$((MEM_PEAK - MEM_BASE))
    limit_kb=$(kilobytes "$limit")
    printf '%s: %.2f s, private memory +%d MB (RssAnon %d -> %d MB, VmHWM %d MB), anon.memory_limit %s, %s: %s\n' \
        "$name" "$(awk -v ms="$CALL_ELAPSED_MS" 'BEGIN { print ms / 1000 }')" $((grew / 1024)) $((MEM_BASE / 1024)) \
        $((MEM_PEAK / 1024)) $((MEM_HWM / 1024)) "$limit" "$how" "${CALL_OUTCOME:0:160}"
    check "$name: done within 5 s" "$([ "$CALL_ELAPSED_MS" -le "$MOST_MS" ] && echo 0 || echo 1)" "${CALL_ELAPSED_MS} ms"
    check "$name: memory within anon.memory_limit + 64 MB" \
        "$([ "$grew" -le $((limit_kb + SLACK_KB)) ] && echo 0 || echo 1)" "+$((grew / 1024)) MB"
}

run_case "prefix_taxonomy, one value of 15,000 characters" 64MB timeout \
    "SELECT anon.prefix_taxonomy('l_long', 'l_long', 'v')"
run_case "prefix_taxonomy, 60 values of 1,999 characters" 64MB timeout \
    "SELECT anon.prefix_taxonomy('l_wide', 'l_wide', 'v')"
run_case "quantile_taxonomy, 200,000 values, bins {100000,50000,25000}" 64MB timeout \
    "SELECT anon.quantile_taxonomy('l_q1', 'l_numbers', 'x', '{100000,50000,25000}')"
run_case "quantile_taxonomy, 200,000 values, bins {60000}, cancelled" 64MB cancel \
    "SELECT anon.quantile_taxonomy('l_q2', 'l_numbers', 'x', '{60000}')"
run_case "date_taxonomy, 1,000,000 days under weeks to centuries" 64MB timeout \
    "SELECT anon.date_taxonomy('l_date', '0001-01-01', date '0001-01-01' + 999999, '{week,year,decade,century}')"
run_case "interval_taxonomy, 1,000,000 intervals and four coarser levels" 64MB timeout \
    "SELECT anon.interval_taxonomy('l_interval', 0, 1000000, '{1,2,4,8,16}')"
run_case "taxonomy_from_levels, 300,000 rows" 16MB timeout \
    "SELECT anon.taxonomy_from_levels('l_levels', 'l_levels')"
run_case "taxonomy_from_pairs, 330,001 rows" 16MB timeout \
    "SELECT anon.taxonomy_from_pairs('l_pairs', 'l_pairs')"
run_case "anonymize building a quantile taxonomy over 300,000 values" 16MB timeout \
    "SELECT anon.anonymize('l_auto', '{x}', '{s}', 'k-anonymity', '{\"k\": 2}')"
run_case "taxonomy_from_levels, 300,000 rows, within 1 GB, timeout" 1GB timeout \
    "SELECT anon.taxonomy_from_levels('l_levels_t', 'l_levels')"
run_case "taxonomy_from_pairs, 330,001 rows, within 1 GB, cancelled" 1GB cancel \
    "SELECT anon.taxonomy_from_pairs('l_pairs_c', 'l_pairs')"

report_checks "limits"
