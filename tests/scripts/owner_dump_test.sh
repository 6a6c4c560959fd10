#!/usr/bin/env bash
# tests/scripts/owner_dump_test.sh: the database owner, not a superuser, dumps and restores a database holding the
# releases of two analyst roles, with the plain commands of docs/admin-and-dumps.md (issue 16). The owner has
# CREATEDB and has been granted both analyst roles; analyst 1 publishes in public (a generalized release and one
# in both forms, with a tree and an interval taxonomy), analyst 2 in a schema of its own (the same two forms). The
# owner dumps with pg_dump (custom and plain formats, no --enable-row-security), creates two databases and restores
# with pg_restore and with psql. Checks, each counted as one pass or failure: the dumps and both restores succeed,
# and the dump grants nothing on the catalog tables (a restore into a database of another owner would apply it);
# every catalog row (releases and taxonomies) came back; every view holds the original's rows (EXCEPT ALL both
# ways); every release's version history came back, the restore publishing the same versions again; the owner's
# refresh_report lists and refreshes every release after new source rows, each satisfying its model, its versions
# going on from the restored ones, and anon.verify agrees; the owner's anon-maintain also lists the release of a
# third analyst whose role it does not hold, saying what to GRANT; the owner can neither forge that analyst's
# version history nor change one; an analyst still sees only its own releases, cannot change or forge the
# other's catalog row, and naming the other's release says whose it is. Needs the extension installed and a server in
# PGHOST/PGPORT/PGUSER (a superuser, who only creates the roles and checks); without PGHOST it starts a throwaway
# cluster with scripts/cluster.sh. The last line is "owner dump/restore: N passed, M failed"; the exit status is
# non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if [ -z "${PGHOST:-}" ]; then
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    cluster_start >/dev/null || { echo "owner dump/restore: 0 passed, 1 failed"; exit 1; }
fi
BIN=${ANON_PG_BIN:-/usr/lib/postgresql/15/bin}
OWNER=anon_dumptest_owner
A1=anon_dumptest_analyst1
A2=anon_dumptest_analyst2
A3=anon_dumptest_analyst3
SRC=anon_owner_dump_source
DST=anon_owner_dump_restored
PLAIN=anon_owner_dump_plain
WORK=$(mktemp -d /tmp/anon-owner-dump.XXXXXX)
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# as ROLE DB [psql args]: psql as that role (the superuser is $PGUSER), unaligned, stopping at the first error.
as() { local role=$1 db=$2; shift 2; psql -X -At -q -v ON_ERROR_STOP=1 -U "$role" -d "$db" "$@"; }
cleanup() {
    for db in $SRC $DST $PLAIN; do psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; done
    psql -X -q -d postgres -c "DROP ROLE IF EXISTS $OWNER, $A1, $A2, $A3" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap 'cleanup; type cluster_stop >/dev/null 2>&1 && cluster_stop' EXIT
cleanup
mkdir -p "$WORK"

# The role setup of docs/admin-and-dumps.md: the owner may create databases and holds both analysts' roles.
as "$PGUSER" postgres >/dev/null <<SQL
CREATE ROLE $OWNER LOGIN CREATEDB;
CREATE ROLE $A1 LOGIN;
CREATE ROLE $A2 LOGIN;
GRANT $A1, $A2 TO $OWNER;
SQL
check "setup: a non-superuser owner and two analyst roles" $? "see the errors above"

"$BIN/createdb" -U "$OWNER" "$SRC" && as "$OWNER" "$SRC" >/dev/null <<SQL
CREATE EXTENSION anon;
CREATE TABLE people (id int PRIMARY KEY, town text, age int, illness text);
INSERT INTO people SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], 20 + i % 50,
       (ARRAY['flu','cold','asthma'])[i % 3 + 1] FROM generate_series(1, 120) i;
GRANT SELECT ON people TO $A1, $A2;
GRANT CREATE ON SCHEMA public TO $A1;
CREATE SCHEMA analyst2 AUTHORIZATION $A2;
SET ROLE $A1;
CREATE TABLE town_levels (leaf text, region text, root text);
INSERT INTO town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('town', 'town_levels');
SELECT anon.interval_taxonomy('age', 0, 100, '{10,50}');
-- Analyst 1 accepts that its releases coexist with the source's others: analyst 2's 2-diverse release leaves people
-- two candidate illnesses, fewer than l=3, which would refuse every later version of these (and so the restore).
SELECT anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity',
                      '{"l": 3, "keep": ["id"], "keep_identifying": true, "acknowledge_composition": true}', 'incognito', 'gen');
SELECT anon.anonymize('people', '{town,age}', '{illness}', 'unique-distinct-l-diversity',
                      '{"l": 3, "keep": ["id"], "publish": "both", "acknowledge_composition": true}', 'bsgi', 'buck');
SET ROLE $A2;
SELECT anon.anonymize('people', '{town}', '{illness}', 'k-anonymity', '{"k": 5}', 'mondrian', 'analyst2.gen2');
SELECT anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 2, "publish": "both"}',
                      'mondrian', 'analyst2.both2');
SQL
check "setup: each analyst publishes a generalized release and one in both forms" $? "see the errors above"

# The catalog as a superuser sees it, to compare with each restored database.
catalog_sql="SELECT (SELECT string_agg(format('%s.%s:%s:%s:%s:%s:%s:%s:%s', output_schema, output_name, created_by,
    source::text, quasi_identifiers, sensitive, model, algorithm, params), ';' ORDER BY output_schema, output_name)
    FROM anon.release), (SELECT string_agg(format('%s:%s:%s', name, kind, created_by), ';' ORDER BY name)
    FROM anon.taxonomy), (SELECT md5(string_agg(format('%s:%s:%s:%s', taxonomy, value, parent, weight), ';'
    ORDER BY taxonomy, value)) FROM anon.taxonomy_node)"
VIEWS="public.gen public.buck public.buck_qit public.buck_st analyst2.gen2 analyst2.both2 analyst2.both2_qit
       analyst2.both2_st"
before=$(as "$PGUSER" "$SRC" -c "$catalog_sql")
for v in $VIEWS; do as "$PGUSER" "$SRC" -c "\\copy (SELECT * FROM $v) TO '$WORK/$v.copy'"; done

"$BIN/pg_dump" -U "$OWNER" -Fc -d "$SRC" -f "$WORK/dump" 2>"$WORK/dump.err"
check "pg_dump -Fc by the owner" $? "$(cat "$WORK/dump.err")"
"$BIN/pg_dump" -U "$OWNER" -d "$SRC" -f "$WORK/dump.sql" 2>"$WORK/dump-plain.err"
check "pg_dump (plain) by the owner" $? "$(cat "$WORK/dump-plain.err")"
grants=$(grep -E '^(GRANT|REVOKE) .* ON (TABLE|SEQUENCE) anon\.' "$WORK/dump.sql")
check "the dump grants nothing on the catalog (its initial privileges followed its owner)" \
    "$([ -z "$grants" ]; echo $?)" "$grants"

# Restores as documented: create the database, let analyst 1 create in public again (ALTER ... OWNER TO needs the
# new owner's CREATE on the schema, and the dump's GRANTs come after the objects), restore.
"$BIN/createdb" -U "$OWNER" "$DST" && as "$OWNER" "$DST" -c "GRANT CREATE ON SCHEMA public TO $A1" &&
    "$BIN/pg_restore" -U "$OWNER" --exit-on-error -d "$DST" "$WORK/dump" 2>"$WORK/restore.err"
check "pg_restore by the owner, which repopulates every role's views" $? "$(cat "$WORK/restore.err")"
"$BIN/createdb" -U "$OWNER" "$PLAIN" && as "$OWNER" "$PLAIN" -c "GRANT CREATE ON SCHEMA public TO $A1" &&
    as "$OWNER" "$PLAIN" -f "$WORK/dump.sql" >/dev/null 2>"$WORK/restore-plain.err"
check "psql of the plain dump by the owner" $? "$(cat "$WORK/restore-plain.err")"

for db in $DST $PLAIN; do
    after=$(as "$PGUSER" "$db" -c "$catalog_sql" 2>&1)
    check "$db: every release and taxonomy catalog row came back" \
        "$([ -n "$before" ] && [ "$before" = "$after" ]; echo $?)" "before: $before; after: $after"
    differ=""
    for v in $VIEWS; do
        n=$(as "$PGUSER" "$db" -c "CREATE TEMP TABLE orig (LIKE $v)" -c "\\copy orig FROM '$WORK/$v.copy'" \
            -c "SELECT count(*) FROM ((TABLE orig EXCEPT ALL TABLE $v) UNION ALL (TABLE $v EXCEPT ALL TABLE orig)) d" \
            -c "SELECT count(*) FROM $v" 2>&1 | tr '\n' ' ')
        case $n in "0 "[1-9]*) ;; *) differ="$differ $v: $n;" ;; esac
    done
    check "$db: every view holds the original's rows (EXCEPT ALL both ways)" "$([ -z "$differ" ]; echo $?)" "$differ"
done

# Each release's version history came back with its catalog row (anon.release_history, restored by the owner's
# COPY under anon._check_direct_write), so a restored release is judged against every version published before:
# the restore's REFRESH of each object computed the recorded last version again from the same rows, and published it
# again without recording another (same_as_last_version, docs/republication.md).
history_sql="SELECT string_agg(format('%s.%s:%s', output_schema, output_name, versions), ';'
             ORDER BY output_schema, output_name) FROM anon.release_history"
history_before=$(as "$PGUSER" "$SRC" -c "$history_sql")
for db in $DST $PLAIN; do
    history_after=$(as "$PGUSER" "$db" -c "$history_sql" 2>&1)
    check "$db: every release's version history came back, the restore publishing the same versions again" \
        "$([ "$history_before" = "analyst2.both2:1;analyst2.gen2:1;public.buck:1;public.gen:1" ] &&
           [ "$history_after" = "$history_before" ]; echo $?)" \
        "before: $history_before; after: $history_after"
done

# The owner maintains every release of the restored database. A copy of every row: a change the releases' next
# versions may publish (a few rows here and there would be withheld against the restored histories).
as "$OWNER" "$DST" -c "INSERT INTO people SELECT id + 120, town, age, illness FROM people" >/dev/null
report=$(as "$OWNER" "$DST" -c "SELECT string_agg(format('%s %s %s', release, refreshed, satisfied), '; '
                                ORDER BY release) FROM anon.refresh_report()" 2>&1)
expected_report="analyst2.both2 t t; analyst2.gen2 t t; public.buck t t; public.gen t t"
check "the owner's refresh_report lists and refreshes every release, each satisfied ($report)" \
    "$([ "$report" = "$expected_report" ]; echo $?)" "expected: $expected_report"
rows=$(as "$OWNER" "$DST" -c "SELECT concat_ws(' ', g ->> 'published_rows', b ->> 'published_rows', g ->> 'version',
                                        b ->> 'version')
                              FROM (SELECT anon.refresh('gen') g, anon.refresh('analyst2.both2') b) r" 2>&1)
check "the owner refreshes either analyst's release, its versions going on ($rows)" \
    "$([ "$rows" = "240 240 2 2" ]; echo $?)" "$rows"
ok=$(as "$OWNER" "$DST" -c "SELECT (anon.verify('gen', '{town,age}', '{illness}', 'distinct-l-diversity', '{\"l\": 3}')
                                    ->> 'satisfied') || ' ' ||
                                   (anon.verify('analyst2.gen2', '{town}', '{illness}', 'k-anonymity', '{\"k\": 5}')
                                    ->> 'satisfied')" 2>&1)
check "the refreshed releases verify ($ok)" "$([ "$ok" = "true true" ]; echo $?)" "$ok"

# A third analyst, whose role the owner does not hold, publishes: the owner's anon-maintain lists that release too
# and says which role to GRANT, rather than skipping it.
as "$PGUSER" postgres -c "CREATE ROLE $A3 LOGIN" >/dev/null &&
    as "$OWNER" "$DST" -c "GRANT SELECT ON people TO $A3" -c "GRANT CREATE ON SCHEMA public TO $A3" >/dev/null &&
    as "$A3" "$DST" -c "SELECT anon.anonymize('people', '{town}', '{illness}', 'k-anonymity', '{\"k\": 3}',
                                              'mondrian', 'gen3')" >/dev/null
check "setup: a third analyst's release" $? "see the errors above"
if make -s anon-maintain >"$WORK/make.log" 2>&1; then
    PGUSER=$OWNER PGDATABASE=$DST build/anon-maintain >"$WORK/maintain.out" 2>&1
    status=$?
    lines=$(grep -c $'^[^\t]*\t' "$WORK/maintain.out")
    check "the owner's anon-maintain covers all 5 releases and says what to GRANT for the third (status $status)" \
        "$([ "$status" -eq 1 ] && [ "$lines" -eq 5 ] &&
           grep -q "^public.gen3.*GRANT \"$A3\" TO \"$OWNER\"" "$WORK/maintain.out"; echo $?)" \
        "$(cat "$WORK/maintain.out")"
else
    check "make anon-maintain" 1 "$(cat "$WORK/make.log")"
fi

# The owner restores version histories only as a restore does: a row of a release of a role it holds, never one of
# another role's release, and it changes none.
forged=$(as "$OWNER" "$DST" -c "INSERT INTO anon.release_history (output_schema, output_name, versions, history)
                                VALUES ('public', 'gen3', 1, '\\x00')" 2>&1)
changed=$(as "$OWNER" "$DST" -c "UPDATE anon.release_history SET versions = 1 WHERE output_name = 'gen'" 2>&1)
check "the owner cannot forge a history of the third analyst's release nor change one" \
    "$([[ $forged == *"cannot insert the version history of the release public.gen3 of role $A3"* ]] &&
       [[ $changed == *"permission denied for table release_history"* ]]; echo $?)" "insert: $forged; update: $changed"

# The analysts are still kept apart.
seen=$(as "$A1" "$DST" -c "SELECT string_agg(output_name, ',' ORDER BY output_name) FROM anon.releases" 2>&1)
check "analyst 1 sees only its own releases ($seen)" "$([ "$seen" = "buck,gen" ]; echo $?)" "$seen"
changed=$(as "$A1" "$DST" -c "UPDATE anon.release SET params = '{\"k\": 1}' WHERE output_name = 'gen2'
                              RETURNING output_name" 2>&1)
forged=$(as "$A1" "$DST" -c "INSERT INTO anon.release (output_schema, output_name, source, quasi_identifiers,
    sensitive, model, algorithm, created_by) VALUES ('analyst2', 'x', 'people', '{town}', '{illness}',
    'k-anonymity', 'mondrian', '$A2')" 2>&1)
params=$(as "$PGUSER" "$DST" -c "SELECT params FROM anon.release WHERE output_name = 'gen2'")
check "analyst 1 cannot change or forge analyst 2's catalog row" \
    "$([[ $changed == *"permission denied"* ]] && [[ $forged == *"ERROR"* ]] && [ "$params" = '{"k": 5}' ]; echo $?)" \
    "update: $changed; insert: $forged; params now: $params"
hidden=$(as "$A1" "$DST" -c "SELECT anon.refresh('analyst2.gen2')" 2>&1)
check "analyst 1 naming analyst 2's release is told whose it is" \
    "$([[ $hidden == *"a release of role \"$A2\""*"hidden from you"* ]]; echo $?)" "$hidden"

report_checks "owner dump/restore"
