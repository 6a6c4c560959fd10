#!/usr/bin/env bash
# tests/scripts/settings_test.sh [ANON_MAINTAIN]: releases do not depend on the session's settings (issue 16).
# Against the running server in PGHOST/PGPORT/PGUSER (scripts/test.sh starts one after the regression tests; the
# extension must be installed), from the repository root:
#   1. runs every tests/regress/sql/*.sql file with psql, as pg_regress does (output ignored), into a fresh
#      contrib_regression database with hostile DateStyle, TimeZone, IntervalStyle, extra_float_digits, bytea_output,
#      search_path (and lc_numeric when a locale with a decimal comma exists). After each file every release then
#      present (generalized view, QIT, ST) is fingerprinted under fixed settings (release_capture.sh), and the
#      fingerprints must be those of tests/regress/release_fingerprints.txt, which release_fingerprints.sh --update
#      takes from the same replay under default settings: the same releases, rows (md5 sorted and in physical order),
#      columns and catalog rows. (Comparing with the baseline rather than with a second replay under default settings
#      spares the run a replay of the suite; a release changed on purpose changes the baseline first, docs/testing.md.)
#   2. publishes releases over date/timestamptz/interval/float8/numeric/bytea quasi-identifiers (one of them ranking
#      tuples into classes by a kept date column) under default settings, then refreshes them under hostile ones
#      with REFRESH MATERIALIZED VIEW, anon.refresh and anon-maintain (PGDATESTYLE, PGTZ, PGOPTIONS set) and gets
#      identical releases.
# Prints "ok: ..." / "FAILED: ..." per check and ends with "settings tests: N passed, N failed".
set -uo pipefail

MAINTAIN=${1:-build/anon-maintain}
# ANON_SETTINGS_REPLAY=0 skips step 1, the replay of the regression files (the server-sanitizer step: that server
# has just run the files, and the replay differs only in session settings, which step 1 of the normal run proves
# changes nothing the extension computes); step 2 runs either way.
REPLAY=${ANON_SETTINGS_REPLAY:-1}
# ANON_RELEASE_FINGERPRINTS=FILE keeps the replay's fingerprints in FILE, for release_fingerprints.sh --from FILE
# (scripts/test.sh: its per-file report of the same comparison).
# shellcheck source=tests/scripts/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
# shellcheck source=tests/scripts/release_capture.sh
source "$(dirname "${BASH_SOURCE[0]}")/release_capture.sh"  # fixed, CAPTURE_SQL, replay_regression_files
WORK=$(mktemp -d)
REFRESH_DB=anon_settings_test
trap 'rm -rf "$WORK"; dropdb --if-exists "$REFRESH_DB" 2>/dev/null; dropdb --if-exists "$REGRESS_DB" 2>/dev/null' EXIT

# Hostile settings, as libpq options (a backslash keeps a space inside a value). The search_path puts a schema
# shadowing anon's helper and a text(date) function before pg_catalog.
HOSTILE="-c DateStyle=SQL,\\ DMY -c TimeZone=Pacific/Chatham -c IntervalStyle=sql_standard -c extra_float_digits=-3"
HOSTILE+=" -c bytea_output=escape -c search_path=public,settings_hostile,pg_catalog"
comma_locale=$(locale -a 2>/dev/null | grep -m1 -iE '^(de_DE|fr_FR|nl_NL|es_ES|it_IT)\.utf-?8$' || true)
if [ -n "$comma_locale" ]; then
    HOSTILE+=" -c lc_numeric=$comma_locale"
    echo "lc_numeric varied: $comma_locale"
else
    echo "lc_numeric NOT varied: no locale with a decimal comma (locale -a: $(locale -a 2>/dev/null | tr '\n' ' '))"
fi

HOSTILE_SCHEMA_SQL=$(cat <<'SQL'
CREATE SCHEMA IF NOT EXISTS settings_hostile;
CREATE OR REPLACE FUNCTION settings_hostile._canonical_text(anyelement) RETURNS text LANGUAGE sql AS 'SELECT ''shadowed''';
CREATE OR REPLACE FUNCTION settings_hostile.text(date) RETURNS text LANGUAGE sql AS 'SELECT ''shadowed''';
SQL
)

if [ "$REPLAY" = 0 ]; then
    echo "---- step 1 skipped (ANON_SETTINGS_REPLAY=0): the regression files are not replayed"
else
    echo "---- the regression files under hostile settings ($HOSTILE), against the baseline taken under default ones"
    replay_regression_files hostile "$HOSTILE" "$HOSTILE_SCHEMA_SQL"; rc=$?
    check_that "the hostile pass ran" test "$rc" -eq 0
    [ "$rc" -ne 0 ] || [ -z "${ANON_RELEASE_FINGERPRINTS:-}" ] || cp "$WORK/hostile.tsv" "$ANON_RELEASE_FINGERPRINTS"
    releases=$(cut -f1,2 "$WORK/hostile.tsv" 2>/dev/null | wc -l)
    echo "fingerprints (file, release relation) under hostile settings: $releases"
    check_that "the regression files' releases are fingerprinted (when published or refreshed, and after each file)" \
        test "$releases" -gt 20
    # Release objects are populated in a fixed order (gid, then the published values' canonical text): the physical
    # order of their rows is the same under any settings too, and the baseline compares it.
    bash "$(dirname "${BASH_SOURCE[0]}")/release_fingerprints.sh" --from "$WORK/hostile.tsv" >"$WORK/compared.log" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || grep '^FAILED: ' "$WORK/compared.log"
    check_that "the same releases, rows in the same physical order, columns and catalog rows as under default settings (tests/regress/release_fingerprints.txt)" \
        test "$rc" -eq 0
fi

echo "---- refreshes under hostile settings of releases published under default ones"
dropdb --if-exists "$REFRESH_DB" 2>/dev/null
createdb "$REFRESH_DB" || { check_that "createdb $REFRESH_DB" false; report_checks "settings tests"; exit 1; }
fixed -d "$REFRESH_DB" -c "CREATE EXTENSION anon" -c "$CAPTURE_SQL" -c "$HOSTILE_SCHEMA_SQL" >/dev/null
fixed -d "$REFRESH_DB" >/dev/null <<'SQL'
CREATE TABLE visits (id int, day date, seen_tz timestamptz, stay interval, score float8, amount numeric, tag bytea, ill text);
INSERT INTO visits
SELECT i, date '2007-01-30' + i % 6, timestamptz '2007-02-20 10:00:00+00' + (i % 4) * interval '7 hours',
       (i % 3) * interval '1 day 2 hours', (i % 5) / 3.0::float8, (i % 4) * 2.5, decode(lpad(to_hex(i % 3), 2, '0'), 'hex'),
       (ARRAY['flu', 'cold', 'asthma'])[i % 3 + 1]
FROM generate_series(1, 300) i;
CREATE TABLE day_levels (leaf date, month text, root text);
INSERT INTO day_levels SELECT d, to_char(d, 'YYYY-MM'), '*' FROM generate_series(date '2007-01-30', date '2007-02-04', '1 day') d;
CREATE TABLE seen_tz_levels (leaf timestamptz, utc_day text, root text);
INSERT INTO seen_tz_levels SELECT t, to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '*'
FROM generate_series(timestamptz '2007-02-20 10:00:00+00', timestamptz '2007-02-21 07:00:00+00', '7 hours') t;
CREATE TABLE stay_levels (leaf interval, length text, root text);
INSERT INTO stay_levels VALUES ('0', 'short', '*'), ('1 day 2 hours', 'short', '*'), ('2 days 4 hours', 'long', '*');
CREATE TABLE tag_levels (leaf bytea, root text);
INSERT INTO tag_levels VALUES ('\x00', '*'), ('\x01', '*'), ('\x02', '*');
SELECT anon.taxonomy_from_levels('day', 'day_levels'), anon.taxonomy_from_levels('seen_tz', 'seen_tz_levels'),
       anon.taxonomy_from_levels('stay', 'stay_levels'), anon.taxonomy_from_levels('tag', 'tag_levels'),
       anon.interval_taxonomy('score', 0, 2, '{1,2}'), anon.interval_taxonomy('amount', 0, 10, '{5,10}');
CREATE FUNCTION publish(suffix text) RETURNS void LANGUAGE sql AS $$
    SELECT anon.anonymize('visits', '{day,seen_tz,stay,score}', '{ill}', 'k-anonymity', '{"k": 3, "keep": ["id"], "keep_identifying": true}',
                          'incognito', 'full' || suffix);
    SELECT anon.anonymize('visits', '{amount,tag,stay}', '{ill}', 'unique-distinct-l-diversity',
                          '{"l": 2, "keep": ["day", "id"], "publish": "both"}', 'bsgi', 'local' || suffix);
$$;
SELECT publish('');
SELECT release_capture.capture('published');
SQL
# same_as STEP REFERENCE [SUFFIX [LIKE]]: the number of fingerprints taken at STEP (of relations matching LIKE, all
# by default) without an equal one (same relation, rows and md5s) taken at REFERENCE of a relation named with SUFFIX,
# and the other way round: 0 when identical.
same_as() {
    fixed -d "$REFRESH_DB" -At -c "SELECT count(*) FROM
        (SELECT replace(relation, '\"', '') AS relation, rows, physical, sorted FROM release_capture.fingerprint
         WHERE step = '$1' AND replace(relation, '\"', '') LIKE '${4:-%}') a FULL JOIN
        (SELECT replace(replace(relation, '\"', ''), '${3:-}', '') AS relation, rows, physical, sorted
         FROM release_capture.fingerprint WHERE step = '$2' AND relation LIKE '%${3:-}%'
           AND replace(replace(relation, '\"', ''), '${3:-}', '') LIKE '${4:-%}') b
        USING (relation, rows, physical, sorted)
        WHERE a.relation IS NULL OR b.relation IS NULL"
}
hostile_psql() { PGOPTIONS=$HOSTILE psql -X -q -v ON_ERROR_STOP=1 -d "$REFRESH_DB" "$@"; }

# A plain REFRESH plans its query unlike anon.anonymize and anon.refresh (which set planner options), so its rows
# come in another physical order: it is compared with itself under default settings, and by content with the
# publication.
refresh_all_views() {
    "$@" -d "$REFRESH_DB" -c 'REFRESH MATERIALIZED VIEW public."full"' -c "REFRESH MATERIALIZED VIEW public.local" \
        -c "REFRESH MATERIALIZED VIEW public.local_qit" -c "REFRESH MATERIALIZED VIEW public.local_st" >/dev/null
}
refresh_all_views fixed && fixed -d "$REFRESH_DB" -c "SELECT release_capture.capture('refresh_mv_default')" >/dev/null
PGOPTIONS=$HOSTILE refresh_all_views psql -X -q -v ON_ERROR_STOP=1; rc=$?
check_that "REFRESH MATERIALIZED VIEW under hostile settings runs" test "$rc" -eq 0
fixed -d "$REFRESH_DB" -c "SELECT release_capture.capture('refresh_mv')" >/dev/null
check_that "REFRESH MATERIALIZED VIEW under hostile settings: identical to REFRESH under default settings" \
    test "$(same_as refresh_mv refresh_mv_default)" = 0
check_that "REFRESH MATERIALIZED VIEW under hostile settings: the published rows (sorted md5)" \
    test "$(fixed -d "$REFRESH_DB" -At -c "SELECT count(*) FROM release_capture.fingerprint a
        FULL JOIN (SELECT * FROM release_capture.fingerprint WHERE step = 'published') b USING (relation, rows, sorted)
        WHERE a.step = 'refresh_mv' AND b.relation IS NULL")" = 0

hostile_psql -c "SELECT anon.refresh('full'), anon.refresh('local')" >/dev/null; rc=$?
check_that "anon.refresh under hostile settings runs" test "$rc" -eq 0
fixed -d "$REFRESH_DB" -c "SELECT release_capture.capture('anon_refresh')" >/dev/null
check_that "anon.refresh under hostile settings: identical releases" test "$(same_as anon_refresh published)" = 0

# anon-maintain refreshes what changed: new rows, then its run under hostile client settings must publish what a
# publication under default settings of the same data publishes. The full-domain release publishes its next version;
# BSGI regroups its classes, so the new rows of the local release are withheld (docs/republication.md), and its status
# says so under hostile settings too (anon-maintain exits 1 for it).
if [ -x "$MAINTAIN" ]; then
    fixed -d "$REFRESH_DB" -c "INSERT INTO visits SELECT id + 1000, day + 1, seen_tz, stay, score, amount, tag, ill FROM visits
                               WHERE day < '2007-02-04' AND id % 2 = 0" >/dev/null
    out=$(PGDATESTYLE='SQL, DMY' PGTZ=Pacific/Chatham PGOPTIONS=$HOSTILE "$MAINTAIN" "dbname=$REFRESH_DB"); rc=$?
    echo "$out"
    check_that "anon-maintain under hostile settings: exit status 1 (a release withheld)" test "$rc" -eq 1
    check_that "anon-maintain under hostile settings: full refreshed (re-verified, satisfied), local withheld" \
        test "$(grep -cP '^(public\."full"\trefreshed|public\.local\twithheld)\t' <<<"$out")" -eq 2
    fixed -d "$REFRESH_DB" -c "SELECT release_capture.capture('maintain')" -c "SELECT publish('_again')" \
        -c "SELECT release_capture.capture('republished')" >/dev/null
    check_that "anon-maintain under hostile settings: identical to a publication under default settings" \
        test "$(same_as maintain republished _again 'public.full%')" = 0
else
    check_that "anon-maintain binary $MAINTAIN exists (make anon-maintain)" false
fi

report_checks "settings tests"
