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
trap 'dropdb --if-exists "$DB"' EXIT

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

out=$("$BIN" "dbname=$DB"); rc=$?
echo "$out"
check_that "unchanged sources: exit status 0" test "$rc" -eq 0
check_that "unchanged sources: one line per release, both unchanged and satisfied" \
    test "$(grep -cP '^public\.patients_(l3|k5)\tunchanged\tsatisfied\t' <<<"$out")" -eq 2

# New rows in the source, all with one disease: 352 of 500 rows are flu, so simple 3-diversity (every value at
# most 1/3) can no longer be met; k-anonymity still can.
sql -c "INSERT INTO patients (zip, age, disease) SELECT '13053', 30 + i % 20, 'flu' FROM generate_series(1, 300) i"
out=$(PGDATABASE=$DB "$BIN"); rc=$?
echo "$out"
check_that "model broken: exit status 1" test "$rc" -eq 1
check_that "model broken: the release is named as not satisfied, with the reason" \
    grep -qP '^public\.patients_l3\tchanged\tNOT SATISFIED\trefresh failed: l=3 is not eligible' <<<"$out"
check_that "model broken: the other release was refreshed and still satisfies its model" \
    grep -qP '^public\.patients_k5\trefreshed\tsatisfied\t0 of [0-9]+ classes' <<<"$out"
check_that "model broken: the refreshed release publishes the new rows" \
    test "$(sql -tAc 'SELECT count(*) FROM patients_k5')" -eq 500
check_that "model broken: the failed release keeps its previous rows" \
    test "$(sql -tAc 'SELECT count(*) FROM patients_l3')" -eq 200

# Deleting the rows restores the data patients_l3 was last computed from: it is unchanged again (its view matches
# the source), patients_k5 is refreshed back, and the run exits 0.
sql -c "DELETE FROM patients WHERE id > 200"
out=$("$BIN" "dbname=$DB"); rc=$?
echo "$out"
check_that "model restored: exit status 0" test "$rc" -eq 0
check_that "model restored: patients_l3 unchanged and satisfied, patients_k5 refreshed" \
    test "$(grep -cP '^public\.patients_l3\tunchanged\tsatisfied|^public\.patients_k5\trefreshed\tsatisfied' <<<"$out")" -eq 2

"$BIN" "dbname=$DB host=/nonexistent-anon-socket-dir" >/dev/null 2>&1; rc=$?
check_that "connection failure: exit status 2" test "$rc" -eq 2
"$BIN" "dbname=$DB" extra >/dev/null 2>&1; rc=$?
check_that "usage error: exit status 2" test "$rc" -eq 2

report_checks "anon-maintain tests"
