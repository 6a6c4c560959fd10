#!/usr/bin/env bash
# tests/scripts/dump_restore_test.sh: an installation upgraded from 0.1 survives pg_dump and pg_restore (issue 7).
# Installs anon 0.1, builds taxonomies and a generalized and a bucketized release, runs ALTER EXTENSION anon UPDATE,
# refreshes the generalized one (its version history begins), dumps the database and restores it into a new one.
# Checks, each counted as one pass or failure: the restore succeeds (it repopulates the releases' views, under
# pg_dump's empty search_path); the extension, its taxonomies and release configurations came back; the restored
# views hold the same rows; the version histories came back (anon.release_history), so that the releases' next
# versions go on from them; the releases refresh and verify there.
# Needs the extension installed and a server in PGHOST/PGPORT/PGUSER; without PGHOST it starts a throwaway cluster
# with scripts/cluster.sh. The last line is "dump/restore: N passed, M failed"; the exit status is non-zero when a
# check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if [ -z "${PGHOST:-}" ]; then
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    cluster_start >/dev/null || { echo "dump/restore: 0 passed, 1 failed"; exit 1; }
fi
BIN=${ANON_PG_BIN:-/usr/lib/postgresql/15/bin}
SRC=anon_dump_source_test
DST=anon_dump_restored_test
WORK=$(mktemp -d /tmp/anon-dump.XXXXXX)
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
sql() { local db=$1; shift; psql -X -At -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
cleanup() {
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $SRC" -c "DROP DATABASE IF EXISTS $DST" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap 'cleanup; type cluster_stop >/dev/null 2>&1 && cluster_stop' EXIT
cleanup
mkdir -p "$WORK"

psql -X -q -d postgres -c "CREATE DATABASE $SRC" >/dev/null || { echo "dump/restore: 0 passed, 1 failed"; exit 1; }
sql "$SRC" >/dev/null <<'EOF'
CREATE EXTENSION anon VERSION '0.1';
CREATE TABLE people (id int PRIMARY KEY, town text, age int, illness text);
INSERT INTO people SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], 20 + i % 50, (ARRAY['flu','cold','asthma'])[i % 3 + 1]
FROM generate_series(1, 90) i;
CREATE TABLE town_levels (leaf text, region text, root text);
INSERT INTO town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('town', 'town_levels');
SELECT anon.interval_taxonomy('age', 0, 100, '{10,50}');
SELECT anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 3, "keep_identifying": true, "keep": ["id"]}',
                      'incognito', 'gen');
SELECT anon.anonymize('people', '{town,age}', '{illness}', 'unique-distinct-l-diversity',
                      '{"l": 3, "keep": ["id"], "publish": "both"}', 'bsgi', 'buck');
ALTER EXTENSION anon UPDATE;
SELECT anon.refresh('gen');
EOF
check "setup: 0.1 with two releases, upgraded, one refreshed since (its version history begins)" $? \
    "see the errors above"

# What the source database holds, to compare with the restored one.
state_sql="SELECT e.extversion, (SELECT count(*) FROM anon.taxonomy), (SELECT count(*) FROM anon.taxonomy_node),
  (SELECT string_agg(output_name || ':' || model || ':' || algorithm || ':' || params::text, ';' ORDER BY output_name)
   FROM anon.release),
  (SELECT md5(string_agg(g::text, ',' ORDER BY g.id)) FROM gen g),
  (SELECT md5(string_agg(q::text, ',' ORDER BY q.id)) FROM buck_qit q),
  (SELECT md5(string_agg(s::text, ',' ORDER BY s::text)) FROM buck_st s)
  FROM pg_extension e WHERE e.extname = 'anon'"
before=$(sql "$SRC" -c "$state_sql")

"$BIN/pg_dump" -Fc -d "$SRC" -f "$WORK/dump" 2>"$WORK/dump.err"
check "pg_dump of the upgraded database" $? "$(cat "$WORK/dump.err")"
psql -X -q -d postgres -c "CREATE DATABASE $DST" >/dev/null
"$BIN/pg_restore" --exit-on-error -d "$DST" "$WORK/dump" 2>"$WORK/restore.err"
check "pg_restore, which repopulates the releases' views" $? "$(cat "$WORK/restore.err")"

after=$(sql "$DST" -c "$state_sql" 2>&1)
check "the extension version, taxonomies, release configurations and published rows came back" \
    "$([ -n "$before" ] && [ "$before" = "$after" ]; echo $?)" "before: $before; after: $after"

# The version histories came back: gen's restored history counts the version recorded before the dump, and the
# restore's REFRESH, computing that same version from the same rows, published it again without recording another
# (same_as_last_version, docs/republication.md); buck, never refreshed since 0.1, began its history at the restore
# (one version: its second object computed the same).
history_sql="SELECT string_agg(output_name || ':' || versions, ',' ORDER BY output_name) FROM anon.release_history"
versions=$(sql "$SRC" -c "$history_sql")/$(sql "$DST" -c "$history_sql" 2>&1)
check "the version histories came back, the restore publishing the same versions again ($versions)" \
    "$([[ $versions =~ ^gen:1/buck:1,gen:1$ ]]; echo $?)" "$versions"
buck_versions=$(sql "$DST" -c "SELECT versions FROM anon.release_history WHERE output_name = 'buck'")

# A copy of every row: a change the releases' next versions may publish (a few rows would be withheld).
sql "$DST" -c "INSERT INTO people SELECT id + 90, town, age, illness FROM people" >/dev/null
rows=$(sql "$DST" -c "SELECT concat_ws(' ', g ->> 'published_rows', b ->> 'published_rows', g ->> 'version', b ->> 'version')
                      FROM (SELECT anon.refresh('gen') g, anon.refresh('buck') b) r" 2>&1)
check "the restored releases refresh, their versions going on from the restored histories ($rows)" \
    "$([ "$rows" = "180 180 2 $((${buck_versions:-0} + 1))" ]; echo $?)" "$rows"
ok=$(sql "$DST" -c "SELECT (anon.verify('gen', '{town,age}', '{illness}', 'distinct-l-diversity', '{\"l\": 3}') ->> 'satisfied')
  || ' ' || (SELECT count(*) FROM gen g JOIN people p USING (id)
             WHERE anon.covers('town', g.town, p.town) AND anon.covers('age', g.age, p.age::text))" 2>&1)
check "the refreshed release verifies and covers every source row ($ok)" "$([ "$ok" = "true 180" ]; echo $?)" "$ok"
new=$(sql "$DST" -c "SELECT anon.anonymize('people', '{town}', '{illness}', 'k-anonymity', '{\"k\": 5}', 'mondrian', 'fresh') ->> 'classes'" 2>&1)
check "a new taxonomy-backed release on the restored database ($new classes)" "$([ "$new" = "4" ]; echo $?)" "$new"

report_checks "dump/restore"
