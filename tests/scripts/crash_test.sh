#!/usr/bin/env bash
# tests/scripts/crash_test.sh: crashes while a release is written (issue 14). On a throwaway cluster of its own, a
# release of a 30,000-row source (BSGI's exact search: about a second; reading the source and populating the release
# each paused 2 s by a setting only the interrupted session sets) is interrupted while it is being written, at the start of each
# phase its progress NOTICEs name (read, search, materialize), in four ways:
#   - crash: the backend is killed with SIGKILL (the postmaster then restarts every process and replays the WAL);
#   - server: the postmaster and all its processes are killed with SIGKILL and the server is started again;
#   - terminate: pg_terminate_backend from another session;
#   - dropped: the client is killed (the backend notices within client_connection_check_interval).
# The operations: anon.refresh of the release, REFRESH MATERIALIZED VIEW of it, and a first publication of a new
# release. After each interruption (and the restart): the release's stored report is unchanged, its view holds the
# rows the report counts and verifies against its model, the catalog has no row and the database no relation of
# the interrupted first publication, no relation appeared, and the next refresh (or publication) succeeds.
# Needs the extension installed and PG_CONFIG / ANON_PG_BIN like the other tests. Prints one line per check and ends
# with "crash: N passed, N failed"; the exit status is non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
WORK=$(mktemp -d /tmp/anon-crash.XXXXXX)
chmod 777 "$WORK"
trap 'cluster_stop; rm -rf "$WORK"' EXIT
finish() {
    report_checks crash
    exit $?
}
if ! cluster_start >/dev/null; then
    check_that "start a cluster of its own" false
    finish
fi
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# Waits until the server answers again (after a crash restart), at most 60 s.
wait_ready() {
    for _ in $(seq 1 300); do
        q -c "SELECT 1" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}

# Kills the postmaster and every process it started with SIGKILL (its children from /proc, read at once so that
# the job is still running), then starts the server again.
kill_server() {
    local pm children
    pm=$(head -n 1 "$ANON_PG_DIR/data/postmaster.pid")
    children=$(cat "/proc/$pm/task/$pm/children" 2>/dev/null)
    # shellcheck disable=SC2086
    kill -KILL "$pm" $children 2>/dev/null
    for _ in $(seq 1 100); do
        # shellcheck disable=SC2086
        kill -0 "$pm" $children 2>/dev/null || break
        sleep 0.1
    done
    sleep 0.5
    # shellcheck disable=SC2086 # ANON_PG_SERVER_ENV is a list of words (the sanitizer step's runtime preload)
    _anon_as_pg env $ANON_PG_SERVER_ENV "$ANON_PG_BIN/pg_ctl" -D "$ANON_PG_DIR/data" -l "$ANON_PG_DIR/postgres.log" \
        -w -t 60 start >>"$WORK/pg_ctl.log" 2>&1
}

# The throwaway cluster commits asynchronously (scripts/cluster.sh); a crash would then lose the last commits, which
# is that setting's documented trade-off, not the extension's: this test commits synchronously.
q -c "ALTER SYSTEM SET synchronous_commit = on" -c "SELECT pg_reload_conf()" >/dev/null
if ! q >/dev/null <<'SQL'; then
CREATE EXTENSION anon;
-- Reading the source pauses once per scan in sessions that ask for it (SET anon_test.delay = seconds).
CREATE FUNCTION pause() RETURNS boolean LANGUAGE sql VOLATILE
AS $$ SELECT true FROM pg_sleep(coalesce(nullif(current_setting('anon_test.delay', true), ''), '0')::float8) $$;
-- So does populating the release: it converts each distinct kept value to its column's type once, and the one value
-- of `tag` is of a domain whose check pauses.
CREATE DOMAIN paused_text AS text CHECK (pause());
CREATE TABLE crash_src (id int PRIMARY KEY, a int, b text, s text, tag paused_text);
INSERT INTO crash_src SELECT i, (i * 7919) % 1000, 'b' || (i * 31 % 12), 's' || (i * 17 % 7), 'tag'
FROM generate_series(1, 30000) i;
CREATE TABLE b_levels (leaf text, grp text, root text);
INSERT INTO b_levels SELECT 'b' || j, 'g' || (j % 3), '*' FROM generate_series(0, 11) j;
SELECT anon.taxonomy_from_levels('b', 'b_levels');
SELECT anon.interval_taxonomy('a', 0, 1000, '{10,100,500}');
CREATE VIEW crash_view AS SELECT * FROM crash_src WHERE (SELECT pause());
-- The release keeps id and tag, so that its population pauses (tag's conversion); a release without kept columns
-- populates from the computed release in milliseconds, too fast to be interrupted.
SELECT anon.anonymize('crash_view', '{a,b}', '{s}', 'unique-distinct-l-diversity',
                      '{"l": 3, "exact": true, "keep": ["id", "tag"], "keep_identifying": true}', 'bsgi', 'crash_rel');
SQL
    check_that "set up a release of a 30,000-row source" false
    finish
fi
# The stored report of the release and the relations of the database, which an interrupted call must leave alone.
baseline() {
    report_before=$(q -c "SELECT md5(report::text) FROM anon.release WHERE output_name = 'crash_rel'")
    relations_before=$(q -c "SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_class
                             WHERE relnamespace NOT IN ('pg_catalog'::regnamespace, 'pg_toast'::regnamespace)")
}
baseline
verify_sql="SELECT (v->>'satisfied')::boolean AND (v->>'rows')::bigint = (SELECT (report->>'published_rows')::bigint
                   FROM anon.release WHERE output_name = 'crash_rel')
            FROM anon.verify('crash_rel', '{gid}', '{s}', 'unique-distinct-l-diversity', '{\"l\": 3}') v"

# interrupt LABEL MODE PHASE SQL: runs SQL in a session (application_name LABEL) that pauses its reads, waits for the
# progress NOTICE of PHASE, interrupts it by MODE, and waits until the server answers again.
interrupt() {
    local label=$1 mode=$2 phase=$3 sql=$4 out=$WORK/$1.out client pid seen=1
    {
        printf "SET anon.progress = on;\nSET anon_test.delay = '2';\nSET client_connection_check_interval = '100ms';\n"
        printf '%s\n' "$sql"
    } | PGAPPNAME=$label psql -X -q -At >"$out" 2>&1 &
    client=$!
    for _ in $(seq 1 1500); do
        grep -q "anon progress: $phase " "$out" && { seen=0; break; }
        kill -0 "$client" 2>/dev/null || break
        sleep 0.02
    done
    check "$label: the $phase phase began" "$seen" "$(tail -n 3 "$out")"
    pid=$(q -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$label'")
    case $mode in
        crash) [ -n "$pid" ] && kill -KILL "$pid" ;;
        server) kill_server ;;
        terminate) q -c "SELECT pg_terminate_backend($pid)" >/dev/null ;;
        dropped) kill -KILL "$client" ;;
    esac
    wait "$client" 2>/dev/null
    wait_ready
    check "$label: the server answers again" $? "no answer within 60 s"
    # A call that finished before it was interrupted is a miss of the test, not of the extension: start over from
    # its result so that the checks of the later interruptions stay meaningful.
    if grep -qx t "$out"; then
        check "$label: interrupted before it finished" 1 "it finished first"
        q -c "SELECT anon.drop_release('crash_new') FROM anon.release WHERE output_name = 'crash_new'" >/dev/null
        baseline
    fi
}

# after LABEL: the release is the one from before, nothing of the interrupted call is left, and a refresh succeeds.
after() {
    local label=$1
    check "$label: the stored report is unchanged" \
        "$([ "$(q -c "SELECT md5(report::text) FROM anon.release WHERE output_name = 'crash_rel'")" = "$report_before" ] \
           && echo 0 || echo 1)" "the report changed"
    check "$label: the release verifies and holds the rows its report counts" \
        "$([ "$(q -c "$verify_sql" 2>&1)" = t ] && echo 0 || echo 1)" "$(q -c "$verify_sql" 2>&1 | head -2)"
    check "$label: no catalog row or relation of an interrupted first publication" \
        "$([ "$(q -c "SELECT count(*) FROM anon.release WHERE output_name = 'crash_new'")$(q -c \
              "SELECT count(*) FROM pg_class WHERE relname LIKE 'crash_new%'")" = 00 ] && echo 0 || echo 1)" \
        "crash_new is left"
    check "$label: no relation appeared" \
        "$([ "$(q -c "SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_class
                      WHERE relnamespace NOT IN ('pg_catalog'::regnamespace, 'pg_toast'::regnamespace)")" = \
             "$relations_before" ] && echo 0 || echo 1)" "relations differ"
}

refresh_sql="SELECT anon.refresh('crash_rel') IS NOT NULL;"
rmv_sql="REFRESH MATERIALIZED VIEW crash_rel;"
publish_sql="SELECT anon.anonymize('crash_view', '{a,b}', '{s}', 'unique-distinct-l-diversity', '{\"l\": 3, \"exact\": true, \"keep\": [\"id\", \"tag\"], \"keep_identifying\": true}', 'bsgi', 'crash_new') IS NOT NULL;"
for phase in read search materialize; do
    interrupt "refresh-crash-$phase" crash "$phase" "$refresh_sql"
    after "refresh-crash-$phase"
    interrupt "publish-crash-$phase" crash "$phase" "$publish_sql"
    after "publish-crash-$phase"
done
interrupt "refresh-server-search" server search "$refresh_sql"
after "refresh-server-search"
interrupt "publish-server-search" server search "$publish_sql"
after "publish-server-search"
interrupt "rmv-crash-read" crash read "$rmv_sql"
after "rmv-crash-read"
interrupt "refresh-terminate-search" terminate search "$refresh_sql"
after "refresh-terminate-search"
interrupt "rmv-terminate-read" terminate read "$rmv_sql"
after "rmv-terminate-read"
interrupt "refresh-dropped-read" dropped read "$refresh_sql"
after "refresh-dropped-read"

# The next refresh and a first publication succeed, and the refreshed release verifies.
check "a refresh after the interruptions succeeds" "$(q -c "$refresh_sql" >/dev/null 2>&1; echo $?)" "it failed"
check "the refreshed release verifies" "$([ "$(q -c "$verify_sql")" = t ] && echo 0 || echo 1)" "it does not"
check "a first publication after the interruptions succeeds" "$(q -c "$publish_sql" >/dev/null 2>&1; echo $?)" \
    "it failed"
finish
