#!/usr/bin/env bash
# tests/scripts/anon_maintain_test.sh [BINARY]: tests the anon-maintain tool (default build/anon-maintain)
# against the running server in PGHOST/PGPORT/PGUSER (scripts/test.sh starts one; the extension must be
# installed). Works in a database of its own, dropped at the end. Prints "ok: ..." / "FAILED: ..." per check and
# ends with "anon-maintain tests: N passed, N failed"; the exit status is non-zero when a check failed.
set -uo pipefail

BIN=${1:-build/anon-maintain}
DB=anon_maintain_test
# shellcheck source=tests/scripts/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
sql() { psql -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

dropdb --if-exists "$DB" 2>/dev/null
createdb "$DB" || { check_that createdb false; report_checks "anon-maintain tests"; exit 1; }
ROLE=anon_maintain_test_role
# Drops the test database, then the role that owned a release in it.
cleanup() { dropdb --if-exists "$DB"; psql -X -q -d postgres -c "DROP ROLE IF EXISTS $ROLE" 2>/dev/null; }
trap cleanup EXIT

# Patients: a 10-wide age taxonomy, a zip taxonomy (zip -> 3-digit prefix -> *), two releases of the same source.
sql <<'SQL' >/dev/null
CREATE EXTENSION anon;
CREATE TABLE zips (zip text, prefix text, root text);
INSERT INTO zips SELECT z, left(z, 3), '*' FROM (VALUES ('13053'), ('13068'), ('14850'), ('14853')) v(z);
SELECT anon.taxonomy_from_levels('zip', 'zips');
SELECT anon.interval_taxonomy('age', 0, 100, '{10,50}');
CREATE TABLE patients (id serial, zip text, age int, disease text);
INSERT INTO patients (zip, age, disease)
SELECT (ARRAY['13053','13068','14850','14853'])[1 + i % 4], 20 + (i * 7) % 50,
       (ARRAY['flu','cancer','gastritis','heart'])[1 + (i / 4) % 4]
FROM generate_series(0, 199) i;
SELECT anon.anonymize('patients', '{zip,age}', '{disease}', 'simple-l-diversity', '{"l": 3, "keep_identifying": true, "keep": ["id"]}',
                      'incognito', 'patients_l3');
SELECT anon.anonymize('patients', '{zip,age}', '{disease}', 'k-anonymity', '{"k": 5}', 'mondrian', 'patients_k5');
SQL
check_that "set-up: two releases" test "$(sql -tAc 'SELECT count(*) FROM anon.release')" = 2

# run [ARGS...]: runs the tool, echoes its output, and leaves it in $out and its exit status in $rc.
run() {
    out=$("$BIN" "$@"); rc=$?
    echo "$out"
}

run "dbname=$DB"
check_that "unchanged sources: exit status 0" test "$rc" -eq 0
check_that "unchanged sources: one line per release, both unchanged" \
    test "$(grep -cP '^public\.patients_(l3|k5)\tunchanged\t0 of [0-9]+ classes' <<<"$out")" -eq 2
check_that "unchanged sources: the summary counts the statuses" \
    grep -qx 'anon-maintain: 2 release(s), 2 unchanged; 0 need(s) attention, 0 error(s)' <<<"$out"

# New rows in the source, all with one disease: 352 of 500 rows are flu, so simple 3-diversity (every value at
# most 1/3) can no longer be met; k-anonymity still can.
sql -c "INSERT INTO patients (zip, age, disease) SELECT '13053', 30 + i % 20, 'flu' FROM generate_series(1, 300) i"
PGDATABASE=$DB run
check_that "refresh_failed: exit status 1" test "$rc" -eq 1
check_that "refresh_failed: the release is named with the reason" \
    grep -qP '^public\.patients_l3\trefresh_failed\tl=3 is not eligible' <<<"$out"
check_that "refreshed: the other release was recomputed and still satisfies its model" \
    grep -qP '^public\.patients_k5\trefreshed\t0 of [0-9]+ classes' <<<"$out"
check_that "refreshed: the refreshed release publishes the new rows" \
    test "$(sql -tAc 'SELECT count(*) FROM patients_k5')" -eq 500
check_that "refresh_failed: the failed release keeps its previous rows" \
    test "$(sql -tAc 'SELECT count(*) FROM patients_l3')" -eq 200
check_that "refresh_failed: the summary counts one of each and one needing attention" \
    grep -qx 'anon-maintain: 2 release(s), 1 refresh_failed, 1 refreshed; 1 need(s) attention, 0 error(s)' <<<"$out"

# Deleting the rows restores the data patients_l3 was last computed from: it is unchanged again (its view matches
# the source), patients_k5 is refreshed back, and the run exits 0.
sql -c "DELETE FROM patients WHERE id > 200"
run "dbname=$DB"
check_that "model restored: exit status 0" test "$rc" -eq 0
check_that "model restored: patients_l3 unchanged, patients_k5 refreshed" \
    test "$(grep -cP '^public\.patients_l3\tunchanged\t|^public\.patients_k5\trefreshed\t' <<<"$out")" -eq 2

# unsatisfied: the stored k raised beyond what the published classes hold (the input is unchanged, so only the
# verification runs); refresh_failed: a model the refresh cannot run (it parses the configuration before its read);
# verify_failed: the view's gid renamed by hand, so the verification cannot read the classes.
sql -c "UPDATE anon.release SET params = params || '{\"k\": 1000}' WHERE output_name = 'patients_k5'"
run "dbname=$DB"
check_that "unsatisfied: exit status 1" test "$rc" -eq 1
check_that "unsatisfied: the violating classes are counted" \
    grep -qP '^public\.patients_k5\tunsatisfied\t[1-9][0-9]* of [0-9]+ classes \(200 rows\) violate k-anonymity\t$' <<<"$out"
sql -c "UPDATE anon.release SET params = params || '{\"k\": 5}', model = 'no-such-model' WHERE output_name = 'patients_k5'"
run "dbname=$DB"
check_that "unknown model: exit status 1" test "$rc" -eq 1
check_that "unknown model: refresh_failed, the error is the detail" \
    grep -qP '^public\.patients_k5\trefresh_failed\tinvalid model: .*found "no-such-model"\t$' <<<"$out"
sql -c "UPDATE anon.release SET model = 'k-anonymity' WHERE output_name = 'patients_k5'"
sql -c "ALTER MATERIALIZED VIEW patients_k5 RENAME COLUMN gid TO class_id"
run "dbname=$DB"
check_that "verify_failed: exit status 1" test "$rc" -eq 1
check_that "verify_failed: the verification's error is the detail" \
    grep -qP '^public\.patients_k5\tverify_failed\t.*"gid".*\t$' <<<"$out"
sql -c "ALTER MATERIALIZED VIEW patients_k5 RENAME COLUMN class_id TO gid"

# orphaned: one of the three views of a release published "both" dropped by hand; anon.drop_release removes it.
sql -c "SELECT anon.anonymize('patients', '{zip,age}', '{disease}', 'k-anonymity', '{\"k\": 5, \"publish\": \"both\"}',
                              'mondrian', 'patients_both')" >/dev/null
sql -c "DROP MATERIALIZED VIEW patients_both_qit"
run "dbname=$DB"
check_that "orphaned: exit status 1" test "$rc" -eq 1
check_that "orphaned: the dropped view is named, with the way out" \
    grep -qP "^public\.patients_both\torphaned\tdropped: public\.patients_both_qit; remove the release with anon\.drop_release\('public\.patients_both'\)\t$" <<<"$out"
check_that "orphaned: the other releases are still maintained" \
    test "$(grep -cP '^public\.patients_(l3|k5)\tunchanged\t' <<<"$out")" -eq 2
sql -c "SELECT anon.drop_release('patients_both')" >/dev/null
run "dbname=$DB"
check_that "orphaned release dropped: exit status 0" test "$rc" -eq 0

# A release dropped by another session while the run maintains it is skipped, not reported (found by
# tests/scripts/load_test.sh: the run failed with "invalid output", refresh_failed or verify_failed). The dropping
# transaction holds the release's views while the run waits to verify them, then commits.
sql -c "SELECT anon.anonymize('patients', '{zip,age}', '{disease}', 'k-anonymity', '{\"k\": 5}', 'mondrian',
                              'patients_gone')" >/dev/null
sql -c "BEGIN" -c "SELECT anon.drop_release('patients_gone')" -c "SELECT pg_sleep(2)" -c "COMMIT" >/dev/null &
dropping=$!
sleep 0.5
run "dbname=$DB"
wait "$dropping"
check_that "dropped during the run: exit status 0" test "$rc" -eq 0
check_that "dropped during the run: skipped, the other releases maintained" \
    grep -qx 'anon-maintain: 2 release(s), 2 unchanged; 0 need(s) attention, 0 error(s)' <<<"$out"

# not_permitted: a role's release of a source it can no longer read; the tool runs as that role, which sees only
# its own releases.
sql <<SQL >/dev/null
CREATE ROLE $ROLE LOGIN;
GRANT SELECT ON patients TO $ROLE;
GRANT CREATE ON SCHEMA public TO $ROLE;
SET ROLE $ROLE;
SELECT anon.anonymize('patients', '{zip,age}', '{disease}', 'k-anonymity', '{"k": 5}', 'mondrian', 'role_k5');
RESET ROLE;
REVOKE SELECT ON patients FROM $ROLE;
SQL
run "dbname=$DB user=$ROLE"
check_that "not_permitted: exit status 1" test "$rc" -eq 1
check_that "not_permitted: the missing privilege is the detail" \
    grep -qP '^public\.role_k5\tnot_permitted\tthe release "public"\."role_k5" is recomputed with the rights of its owner "[^"]+", who may no longer read what it reads \(permission denied for table patients\); the release is left as it was\t' <<<"$out"
check_that "not_permitted: the role sees only its own release" \
    grep -qx 'anon-maintain: 1 release(s), 1 not_permitted; 1 need(s) attention, 0 error(s)' <<<"$out"
sql -c "SELECT anon.drop_release('role_k5')" >/dev/null

# Every release line has four tab-separated fields (name, status, detail, hint); the summary line has none.
check_that "format: four fields on every release line" \
    test "$(head -n -1 <<<"$out" | awk -F'\t' 'NF != 4' | wc -l)" -eq 0

# A hostile name (issue 41): a release whose name holds tabs and a line break that spell a status line. Every field
# is escaped, so the run still prints one line of four fields per release and no forged "a1.y" line.
sql -c "CREATE SCHEMA a1" -c "SELECT anon.anonymize('patients', '{zip,age}', '{disease}', 'k-anonymity', '{\"k\": 5}',
                              'mondrian', E'a1.\"x\\tunchanged\\tok\\na1.y\\\\z\"')" >/dev/null
run "dbname=$DB"
check_that "hostile name: exit status 0" test "$rc" -eq 0
check_that "hostile name: one line per release and the summary" test "$(wc -l <<<"$out")" -eq 4
check_that "hostile name: four fields on every release line" \
    test "$(head -n -1 <<<"$out" | awk -F'\t' 'NF != 4' | wc -l)" -eq 0
check_that "hostile name: printed escaped (\\t, \\n, \\\\)" \
    grep -qP '^a1\."x\\tunchanged\\tok\\na1\.y\\\\z"\tunchanged\t0 of [0-9]+ classes' <<<"$out"
check_that "hostile name: no forged line" test "$(grep -c '^a1\.y' <<<"$out")" -eq 0
sql -c "SELECT anon.drop_release(E'a1.\"x\\tunchanged\\tok\\na1.y\\\\z\"')" -c "DROP SCHEMA a1" >/dev/null

# A source's owner holding LOCK TABLE ... IN ACCESS EXCLUSIVE MODE (issue 41) in a transaction left open: the run
# waits at most --lock-timeout for that release, reports it lock_timeout with a hint, and goes on to the next
# release, which it still refreshes. Without the timeout the run would wait for the locker's whole minute.
sql <<'SQL' >/dev/null
CREATE TABLE locked_src AS SELECT * FROM patients;
CREATE TABLE next_src AS SELECT * FROM patients;
SELECT anon.anonymize('locked_src', '{zip,age}', '{disease}', 'k-anonymity', '{"k": 5}', 'mondrian', 'locked_k5');
-- Full-domain, so that a copy of every row keeps its classes, each twice as large: a change its next version may
-- publish (Mondrian would split the doubled classes anew, and the rows they lose would be withheld).
SELECT anon.anonymize('next_src', '{zip,age}', '{disease}', 'k-anonymity', '{"k": 5}', 'incognito', 'next_k5');
INSERT INTO next_src SELECT * FROM next_src;
SQL
PGAPPNAME=anon_maintain_test_locker sql -c "BEGIN" -c "LOCK TABLE locked_src IN ACCESS EXCLUSIVE MODE" \
    -c "SELECT pg_sleep(60)" -c "COMMIT" >/dev/null 2>&1 &
locker=$!
for _ in $(seq 100); do
    [ "$(sql -tAc "SELECT count(*) FROM pg_locks WHERE relation = 'locked_src'::regclass AND granted
                   AND mode = 'AccessExclusiveLock'")" = 1 ] && break
    sleep 0.1
done
started=$(date +%s%N)
run "dbname=$DB" --lock-timeout=1s
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
echo "run with the source locked: $elapsed_ms ms"
sql -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'anon_maintain_test_locker'" \
    >/dev/null
wait "$locker"
check_that "locked source: the run ends within the lock timeout and a margin (1 s + 14 s)" test "$elapsed_ms" -lt 15000
check_that "locked source: exit status 1" test "$rc" -eq 1
check_that "locked source: the release is reported lock_timeout, with the server's message and a hint" \
    grep -qP '^public\.locked_k5\tlock_timeout\tcanceling statement due to lock timeout\t.*--lock-timeout=1s' <<<"$out"
check_that "locked source: the release after it is still refreshed" \
    grep -qP '^public\.next_k5\trefreshed\t0 of [0-9]+ classes' <<<"$out"
check_that "locked source: the summary counts it" \
    grep -qx 'anon-maintain: 4 release(s), 1 lock_timeout, 1 refreshed, 2 unchanged; 1 need(s) attention, 0 error(s)' \
    <<<"$out"
run "dbname=$DB"
check_that "lock released: every release unchanged or refreshed, exit status 0" test "$rc" -eq 0

# withheld (issue 42): twenty rows added here and there would single people out against the published versions;
# the release stays as it was and the line gives the figures and the way out.
sql -c "INSERT INTO next_src SELECT * FROM patients WHERE id <= 20" >/dev/null
run "dbname=$DB"
check_that "withheld: exit status 1" test "$rc" -eq 1
check_that "withheld: the detail gives the figures and names the m-invariant mode" \
    grep -qP '^public\.next_k5\twithheld\tthe new version of "public"\."next_k5" is withheld against the 2 versions already published: [1-9][^\t]*m-invariant' <<<"$out"
check_that "withheld: the hint, the error's own, says how to publish such changes" \
    grep -qP '^public\.next_k5\twithheld\t[^\t]*\tTo publish such changes, publish the release.s versions m-invariant' <<<"$out"
check_that "withheld: the summary counts it" \
    grep -qx 'anon-maintain: 4 release(s), 3 unchanged, 1 withheld; 1 need(s) attention, 0 error(s)' <<<"$out"
check_that "withheld: the release keeps its previous rows" test "$(sql -tAc 'SELECT count(*) FROM next_k5')" -eq 400
sql -c "SELECT anon.drop_release('locked_k5')" -c "SELECT anon.drop_release('next_k5')" >/dev/null

# A source its owner made slow to read (a view whose function sleeps once the database setting asks it to, so that
# publishing it is quick): its call is cancelled after --statement-timeout, reported timed_out with a hint, and the
# other releases are maintained.
sql <<'SQL' >/dev/null
CREATE FUNCTION slow_age(a int) RETURNS int LANGUAGE plpgsql
AS $$ BEGIN IF current_setting('anon_test.slow', true) = 'on' THEN PERFORM pg_sleep(0.05); END IF; RETURN a; END $$;
CREATE VIEW slow_src AS SELECT zip, slow_age(age) AS age, disease FROM patients;
SELECT anon.anonymize('slow_src', '{zip,age}', '{disease}', 'k-anonymity', '{"k": 5}', 'mondrian', 'slow_k5');
SQL
sql -c "ALTER DATABASE $DB SET anon_test.slow = on" >/dev/null
run "dbname=$DB" --statement-timeout=3s
sql -c "ALTER DATABASE $DB RESET anon_test.slow" >/dev/null
check_that "slow source: exit status 1" test "$rc" -eq 1
check_that "slow source: reported timed_out with the server's message and a hint" \
    grep -qP '^public\.slow_k5\ttimed_out\tcanceling statement due to statement timeout\t.*--statement-timeout=3s' <<<"$out"
check_that "slow source: the other releases are maintained" \
    grep -qx 'anon-maintain: 3 release(s), 1 timed_out, 2 unchanged; 1 need(s) attention, 0 error(s)' <<<"$out"
sql -c "SELECT anon.drop_release('slow_k5')" -c "DROP VIEW slow_src" >/dev/null

# Timeouts are the server's durations; one it refuses is a usage error naming the option, with the server's hint.
err=$("$BIN" --lock-timeout=10parsecs "dbname=$DB" 2>&1 >/dev/null); rc=$?
check_that "invalid --lock-timeout: exit status 2" test "$rc" -eq 2
check_that "invalid --lock-timeout: named, with the server's message and its hint on one line" \
    grep -qxP 'anon-maintain: invalid --lock-timeout: invalid value for parameter "lock_timeout": "10parsecs" \(hint: Valid units .*"ms".*\)' \
    <<<"$err"
"$BIN" "dbname=$DB host=/nonexistent-anon-socket-dir" >/dev/null 2>&1; rc=$?
check_that "connection failure: exit status 2" test "$rc" -eq 2
"$BIN" "dbname=$DB" extra >/dev/null 2>&1; rc=$?
check_that "usage error: exit status 2" test "$rc" -eq 2
"$BIN" "dbname=template1" >/dev/null 2>&1; rc=$?
check_that "no anon extension (SQL error): exit status 2" test "$rc" -eq 2

report_checks "anon-maintain tests"
