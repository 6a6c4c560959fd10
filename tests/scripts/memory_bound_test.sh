#!/usr/bin/env bash
# tests/scripts/memory_bound_test.sh: anon.memory_limit bounds what a call really takes (issue 43). On issue 43's
# table of hospital stays (tests/bench/make_patients.sql; ANON_MEMORY_ROWS rows, default 1,000,000), each algorithm
# publishes a report at the default settings (anon.memory_limit -1: 256 MB here) in a backend of its own whose
# private memory (RssAnon) is sampled every 20 ms (tests/scripts/backend_memory.sh), after the taxonomies built from
# the data are dropped (as a new owner's first call builds them). It prints each call's time, the growth of the
# backend's private memory over its value before the call and the report's accounted peak, and FAILS a call that
# is refused or grows the backend beyond anon.memory_limit + 64 MB. Needs the extension installed and a server in
# PGHOST/PGPORT/PGUSER on this machine (as scripts/test.sh provides); without PGHOST it starts a throwaway cluster.
# ANON_MEMORY_ONLY=REGEX runs only the cases whose name matches. The last line is "memory bound: N passed, M failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if [ -z "${PGHOST:-}" ]; then
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    cluster_start >/dev/null || { echo "memory bound: 0 passed, 1 failed"; exit 1; }
fi
DB=anon_memory_bound_test
ROWS=${ANON_MEMORY_ROWS:-1000000}
SLACK_KB=$((64 * 1024))
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# shellcheck source=tests/scripts/backend_memory.sh
source tests/scripts/backend_memory.sh
start_measured_database "memory bound"
started=$(date +%s)
if ! { psql -X -q -d "$DB" -c "CREATE EXTENSION anon" &&
       psql -X -q -v ON_ERROR_STOP=1 -v name=stays -v rows="$ROWS" -d "$DB" -f tests/bench/make_patients.sql; } \
       >"$WORK/setup.log" 2>&1; then
    cat "$WORK/setup.log"
    echo "memory bound: 0 passed, 1 failed"
    exit 1
fi
echo "generated stays ($ROWS rows) in $(($(date +%s) - started)) s"
# The budget at the defaults (anon.memory_limit is defined once the extension's library is loaded).
LIMIT_KB=$(psql -X -At -d "$DB" -c "LOAD 'anon'" -c "SELECT CASE
    WHEN current_setting('anon.memory_limit') = '-1'
    THEN greatest(256 * 1024, pg_size_bytes(current_setting('maintenance_work_mem')) / 1024)
    ELSE pg_size_bytes(current_setting('anon.memory_limit')) / 1024 END" | tail -1)

# The taxonomies anon.anonymize builds from the data (birth_date, admitted, weight_kg) are dropped before each call.
FRESH="LOAD 'anon';
SELECT anon.drop_taxonomy(name) FROM anon.taxonomy WHERE name IN ('birth_date', 'admitted', 'weight_kg');"
QIS="'{zip,birth_date,sex,admitted,weight_kg}'"
TAXONOMIES='"nulls": "value", "taxonomies": {"zip": "stays_zip", "sex": "stays_sex"}'

# run_case NAME MODEL PARAMS ALGORITHM: one report call over the quasi-identifiers above, sensitive diagnosis_code.
run_case() {
    local name=$1 grew peak
    [[ $name =~ ${ANON_MEMORY_ONLY:-.} ]] || return 0
    call_start "$FRESH" "SELECT 'peak ' || round((r->>'peak_bytes')::numeric / 1048576, 1) || ' MB, ' ||
        (r->>'classes') || ' classes' FROM anon.anonymize('stays', $QIS, '{diagnosis_code}', '$2',
        '{$TAXONOMIES, $3}', '$4') r"
    call_finish 600
    grew=$((MEM_PEAK - MEM_BASE))
    peak=$(grep -m1 '^peak ' "$WORK/session.log" || echo "-")
    printf '%s: %.1f s, private memory +%d MB (RssAnon %d -> %d MB, VmHWM %d MB), accounted %s; %s\n' \
        "$name" "$(awk -v ms="$CALL_ELAPSED_MS" 'BEGIN { print ms / 1000 }')" $((grew / 1024)) $((MEM_BASE / 1024)) \
        $((MEM_PEAK / 1024)) $((MEM_HWM / 1024)) "$peak" "${CALL_OUTCOME:0:200}"
    check "$name: publishes at the defaults" "$([ "$CALL_OUTCOME" = "no error" ] && echo 0 || echo 1)" \
        "${CALL_OUTCOME:0:200}"
    check "$name: memory within anon.memory_limit + 64 MB ($(((LIMIT_KB + SLACK_KB) / 1024)) MB)" \
        "$([ "$grew" -le $((LIMIT_KB + SLACK_KB)) ] && echo 0 || echo 1)" "+$((grew / 1024)) MB"
}

run_case "incognito (global), distinct l=3, k=10" distinct-l-diversity '"k": 10, "l": 3' incognito
run_case "refine (local recoding), distinct l=3, k=10" distinct-l-diversity '"k": 10, "l": 3' refine
run_case "mondrian, distinct l=3, k=10" distinct-l-diversity '"k": 10, "l": 3' mondrian
run_case "bsgi, unique-distinct l=3" unique-distinct-l-diversity '"l": 3' bsgi
run_case "anatomy, distinct l=3" distinct-l-diversity '"l": 3' anatomy
run_case "onedim, distinct l=3" distinct-l-diversity '"l": 3' onedim
run_case "sweep, tau=0.5, l=3" tau-l-diversity '"tau": 0.5, "l": 3' sweep
run_case "mask, m-confidentiality k=10, m=2 (the two most frequent codes)" m-confidentiality \
    '"k": 10, "m": 2, "sensitive_values": ["A00.0", "B00.1"]' mask

report_checks "memory bound"
