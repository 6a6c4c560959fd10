#!/usr/bin/env bash
# tests/scripts/tcloseness_upgrade_test.sh: after ALTER EXTENSION anon UPDATE from 0.2, anon.refresh_report
# re-verifies t-closeness releases with the distances of 0.3, which are measured over the sensitive values the table
# holds (issue 13). Installs anon 0.2, publishes a generalized and a bucketized t-closeness release over an age
# taxonomy padded with unused leaves, updates, and checks, each counted as one pass or failure: the update clears
# the bucketized release's input fingerprint and keeps the generalized one's; refresh_report recomputes the
# bucketized release and re-verifies the generalized one without recomputing it; a release whose stored t its
# classes exceed is reported unsatisfied although its input did not change.
# Needs the extension installed and a server in PGHOST/PGPORT/PGUSER; without PGHOST it starts a throwaway cluster
# with scripts/cluster.sh. The last line is "t-closeness upgrade: N passed, M failed"; the exit status is non-zero
# when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if [ -z "${PGHOST:-}" ]; then
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    cluster_start >/dev/null || { echo "t-closeness upgrade: 0 passed, 1 failed"; exit 1; }
fi
DB=anon_tcloseness_upgrade_test
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
sql() { psql -X -At -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
cleanup() { psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1; }
trap 'cleanup; type cluster_stop >/dev/null 2>&1 && cluster_stop' EXIT
cleanup

# A 0.2 installation with two t-closeness releases of a 200-row table: ages 20..57 under a taxonomy listing 0..150.
psql -X -q -d postgres -c "CREATE DATABASE $DB" >/dev/null
sql >/dev/null <<'SQL'
CREATE EXTENSION anon VERSION '0.2';
CREATE TABLE people AS
SELECT g AS id, (ARRAY['a', 'b', 'c', 'd'])[1 + g % 4] AS city, 20 + (g * 7) % 30 + (g % 4) * 3 AS age
FROM generate_series(1, 200) g;
CREATE TABLE city_levels (c0 text, c1 text, c2 text);
INSERT INTO city_levels VALUES ('a', 'ab', '*'), ('b', 'ab', '*'), ('c', 'cd', '*'), ('d', 'cd', '*');
SELECT anon.taxonomy_from_levels('city', 'city_levels');
CREATE TABLE age_levels AS SELECT v::text AS c0, '*' AS c1 FROM generate_series(0, 150) v;
SELECT anon.taxonomy_from_levels('age', 'age_levels');
SELECT anon.anonymize('people', '{city}', '{age}', 't-closeness', '{"t": 0.1, "keep": ["id"], "keep_identifying": true}', 'incognito', 'tc_gen');
SELECT anon.anonymize('people', '{city}', '{age}', 't-closeness', '{"t": 0.1, "publish": "bucketized"}', 'incognito',
                      'tc_bkt');
SQL
check "0.2 installation with two t-closeness releases" $? "setup failed"

sql -c "ALTER EXTENSION anon UPDATE"
fingerprints=$(sql -c "SELECT string_agg(output_name || '=' || (source_fingerprint IS NULL), ',' ORDER BY output_name)
                       FROM anon.release")
check "the update clears the bucketized release's fingerprint only" \
    "$([ "$fingerprints" = "tc_bkt=true,tc_gen=false" ]; echo $?)" "found $fingerprints"

report=$(sql -F'|' -c "SELECT release, changed, refreshed, satisfied FROM anon.refresh_report() ORDER BY release")
expected="public.tc_bkt|t|t|t
public.tc_gen|f|f|t"
check "refresh_report recomputes the bucketized release and re-verifies the generalized one" \
    "$([ "$report" = "$expected" ]; echo $?)" "found $report"

# A stored t that the classes exceed: the input is unchanged, yet refresh_report verifies and flags the release.
sql -c "UPDATE anon.release SET params = jsonb_set(params, '{t}', '0.01') WHERE output_name = 'tc_gen'"
flagged=$(sql -F'|' -c "SELECT changed, satisfied, detail FROM anon.refresh_report() WHERE release = 'public.tc_gen'")
check "refresh_report flags a release beyond its t without an input change" \
    "$([ "$flagged" = "f|f|2 of 2 classes (200 rows) violate t-closeness" ]; echo $?)" "found $flagged"

report_checks "t-closeness upgrade"
