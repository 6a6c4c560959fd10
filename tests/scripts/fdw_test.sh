#!/usr/bin/env bash
# tests/scripts/fdw_test.sh: the multi-machine design tested on one machine. Starts two throwaway clusters
# (scripts/cluster.sh): a coordinator with Adult and the anon extension, and a second one, on another port, that
# holds partitions of Adult. On the coordinator, adult_fdw is partitioned by race; the White and Black partitions
# are foreign tables (postgres_fdw) on the second cluster, the rest is a local partition. Checks:
#   - postgres_fdw is available;
#   - EXPLAIN VERBOSE of anon's read (GROUP BY of the QIs and occupation, partition key race among them) shows each
#     foreign partition's aggregation pushed down: a Foreign Scan whose Remote SQL has the GROUP BY;
#   - anon.anonymize itself sends GROUP BY queries to the second cluster (its statement log) and no row-by-row scan;
#   - the releases from adult_fdw equal those from the local adult table (EXCEPT ALL both ways, same report), and a
#     release of the foreign table adult_fdw_white itself equals one of a local copy of its rows (every release keeps
#     id: a source with foreign data has its kept columns read GROUP BY, which the planner may push down).
# Needs the extension installed (make install) and PG_CONFIG / ANON_PG_BIN like the other tests. Prints one line
# per check and ends with "fdw: N passed, N failed"; the exit status is non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# Ends the test with its summary line and status.
finish() {
    report_checks fdw
    exit $?
}

# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
# Two clusters: cluster.sh tracks one per shell in ANON_PG_DIR, so each is started with ANON_PG_DIR empty and
# its directory and port are kept here; the EXIT trap stops both.
REMOTE_DIR=
COORD_DIR=
stop_both() {
    for d in "$REMOTE_DIR" "$COORD_DIR"; do
        [ -n "$d" ] && ANON_PG_DIR=$d cluster_stop
    done
}
trap stop_both EXIT

if ! cluster_start >/dev/null; then
    check_that "start the second (remote) cluster" false
    finish
fi
REMOTE_DIR=$ANON_PG_DIR REMOTE_PORT=$PGPORT
echo "log_statement = 'all'" >>"$REMOTE_DIR/data/postgresql.conf"
psql -X -q -c "SELECT pg_reload_conf()" >/dev/null
ANON_PG_DIR=
if ! cluster_start >/dev/null; then
    check_that "start the coordinator cluster" false
    finish
fi
COORD_DIR=$ANON_PG_DIR
echo "clusters: coordinator port $PGPORT, remote port $REMOTE_PORT"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
remote() { PGHOST=$REMOTE_DIR PGPORT=$REMOTE_PORT q "$@"; }

# Coordinator: the extension, Adult and its taxonomies. Remote: the White and Black rows of Adult.
if ! { q -c "CREATE EXTENSION anon" && bash scripts/load_adult.sh >/dev/null; }; then
    check_that "load Adult" false
    finish
fi
cols='id int, sex text, age int, race text, "marital-status" text, education text, "native-country" text,
      workclass text, occupation text, "salary-class" text'
remote -c "CREATE TABLE adult_white ($cols); CREATE TABLE adult_black ($cols)"
q -c "\\copy (SELECT * FROM adult WHERE race = 'White') TO '$REMOTE_DIR/white.csv' WITH (FORMAT csv)"
q -c "\\copy (SELECT * FROM adult WHERE race = 'Black') TO '$REMOTE_DIR/black.csv' WITH (FORMAT csv)"
remote -c "\\copy adult_white FROM '$REMOTE_DIR/white.csv' WITH (FORMAT csv)" \
       -c "\\copy adult_black FROM '$REMOTE_DIR/black.csv' WITH (FORMAT csv)" -c "ANALYZE"

check_that "postgres_fdw is available" q -c "CREATE EXTENSION postgres_fdw"
q <<SQL || { check_that "foreign partitions set up" false; finish; }
CREATE SERVER remote FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$REMOTE_DIR', port '$REMOTE_PORT', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER remote OPTIONS (user 'postgres');
CREATE TABLE adult_fdw ($cols) PARTITION BY LIST (race);
CREATE FOREIGN TABLE adult_fdw_white PARTITION OF adult_fdw FOR VALUES IN ('White')
    SERVER remote OPTIONS (table_name 'adult_white');
CREATE FOREIGN TABLE adult_fdw_black PARTITION OF adult_fdw FOR VALUES IN ('Black')
    SERVER remote OPTIONS (table_name 'adult_black');
CREATE TABLE adult_fdw_other PARTITION OF adult_fdw DEFAULT;
INSERT INTO adult_fdw_other SELECT * FROM adult WHERE race NOT IN ('White', 'Black');
ANALYZE adult_fdw_other;
SQL
check_that "adult_fdw holds Adult's rows" test "$(q -c "SELECT count(*) FROM adult_fdw")" = "$(q -c "SELECT count(*) FROM adult")"

# The read anon issues (source_reader.cpp: the columns grouped by themselves when their type allows, count(*); anon
# converts each group's values to their canonical text), with partitionwise aggregation on as the reader sets it.
read_sql='SELECT sex, age, race, "marital-status", education, "native-country", workclass, occupation, count(*)
          FROM adult_fdw GROUP BY sex, age, race, "marital-status", education, "native-country", workclass, occupation'
plan=$(q -c "SET enable_partitionwise_aggregate = on" -c "EXPLAIN (VERBOSE, COSTS OFF) $read_sql")
echo "$plan" | grep -E 'Foreign Scan|Remote SQL|Append|Aggregate' | sed 's/^/    /'
pushed=$(echo "$plan" | grep -c 'Remote SQL: SELECT .* GROUP BY')
check_that "EXPLAIN VERBOSE: both foreign partitions aggregate remotely (Remote SQL with GROUP BY)" test "$pushed" -eq 2
check_that "EXPLAIN VERBOSE: the aggregation above the partitions is gone (partitionwise)" \
    bash -c "! grep -q 'Finalize\\|Partial' <<<\"\$1\"" _ "$plan"

# Publishes from both sources and compares the releases and reports; also counts the statements the remote
# cluster received during the fdw call.
qis='{sex,age,race,marital-status,education,native-country,workclass}'
compare() {
    local model=$1 params=$2 algorithm=$3 local_table=${4:-adult} fdw_table=${5:-adult_fdw} before after out
    before=$(grep -c 'GROUP BY' "$REMOTE_DIR/postgres.log")
    out=$(q <<SQL
SELECT anon.anonymize('$local_table', '$qis', '{occupation}', '$model', '$params'::jsonb || '{"keep": ["id"], "keep_identifying": true}', '$algorithm', 'rel_local') IS NOT NULL;
SELECT anon.anonymize('$fdw_table', '$qis', '{occupation}', '$model', '$params'::jsonb || '{"keep": ["id"], "keep_identifying": true}', '$algorithm', 'rel_fdw') IS NOT NULL;
SELECT (SELECT count(*) FROM rel_local), (SELECT count(*) FROM (TABLE rel_local EXCEPT ALL TABLE rel_fdw) d),
       (SELECT count(*) FROM (TABLE rel_fdw EXCEPT ALL TABLE rel_local) d);
SELECT bool_and(a.report->k IS NOT DISTINCT FROM b.report->k) FROM anon.release a, anon.release b,
       unnest('{classes,min_class_size,discernibility,il,kl,levels,residuals}'::text[]) k
WHERE a.output_name = 'rel_local' AND b.output_name = 'rel_fdw';
SELECT anon.drop_release('rel_local'), anon.drop_release('rel_fdw');
SQL
)
    after=$(grep -c 'GROUP BY' "$REMOTE_DIR/postgres.log")
    grep "GROUP BY" "$REMOTE_DIR/postgres.log" | tail -n 2 | cut -c1-160 | sed "s/^/    remote: /"
    echo "    $algorithm $model ($fdw_table): $(echo "$out" | sed -n 3p | tr '|' ' ') (rows, only local, only fdw); same report: $(echo "$out" | sed -n 4p)"
    check_that "$algorithm $model ($fdw_table): the fdw release equals the local one" \
        test "$(echo "$out" | sed -n 3p | cut -d'|' -f2-)" = "0|0" -a "$(echo "$out" | sed -n 4p)" = "t"
    # anonymize's read sends one grouped query per foreign table. (The view's read of its groups with the kept column
    # is a GROUP BY too, which the planner pushes down or not by its estimates.)
    local tables=$(( $(q -c "SELECT count(*) FROM pg_class WHERE relkind = 'f' AND relname LIKE '${fdw_table}%'") ))
    check_that "$algorithm $model ($fdw_table): anonymize's read ran GROUP BY on the remote cluster" \
        test $((after - before)) -ge "$tables"
}
compare distinct-l-diversity '{"l": 3}' incognito
compare unique-distinct-l-diversity '{"l": 5}' bsgi
compare k-anonymity '{"k": 5}' mondrian
# A foreign table as the source itself (not a partition of a local table).
q -c "CREATE TABLE adult_white AS SELECT * FROM adult WHERE race = 'White'" >/dev/null
compare distinct-l-diversity '{"l": 3}' incognito adult_white adult_fdw_white
finish
