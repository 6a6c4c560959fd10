#!/usr/bin/env bash
# tests/scripts/citus_test.sh: anon on a Citus cluster (coordinator and two workers on loopback, started and stopped
# by tests/scripts/citus_cluster.sh). Loads Adult into a local table `adult` and a distributed copy `adult_dist`
# (32 shards, distributed by id) and checks:
#   - CREATE EXTENSION anon on the coordinator reaches the workers;
#   - for every algorithm (incognito, bsgi also with publish both, mondrian, refine, anatomy, onedim, sweep, mask)
#     the release of adult_dist equals the release of adult (EXCEPT ALL both ways empty, same row count, same
#     report), and the release of a distributed source is a distributed table (docs/scale.md);
#   - a distributed release's rows spread evenly over all shards (anon_bucket), whatever its number of classes;
#   - an object is filled from its rows per shard, which the workers repeat into rows beside them (no fragment moves
#     between workers), when a piece stands for several tuples (incognito on twice Adult: equal to the local release,
#     spread evenly over the 32 shards, each row's anon_bucket counting its copies on its shard), and with rows the
#     coordinator sends when each stands for one (bsgi), each row to a shard drawn at random, its anon_bucket that of
#     a row held once there;
#   - anon.verify groups a release object by anon_bucket on the shards, and over classes split between buckets its
#     verdicts and counts, and anon.equivalence_classes, equal those of the same rows in a local table;
#   - anon.refresh after both sources changed (equal again), anon.refresh_all, a failed refresh (statement_timeout)
#     keeping the previous release and leaving no relation behind, anon.verify, anon.metrics,
#     anon.equivalence_classes, anon.audit_minimality and anon.drop_release on releases of adult_dist; REFRESH
#     MATERIALIZED VIEW on one says to use anon.refresh;
#   - "distribution": "source" (bsgi publish both, mondrian, incognito, id kept): the objects holding id are
#     distributed by id and co-located with adult_dist (pg_dist_partition), the others by anon_bucket, and equal the
#     local release; no rows move between workers (Citus fetches no fragment); anon.refresh keeps that; the
#     population's planner settings reached worker 1's shard statements (auto_explain's Settings line); "source" on
#     a local source, without id kept or with another kept column, and an unknown value are refused naming
#     params->'distribution', leaving nothing behind;
#   - the kept read is grouped on the shards, but sent as rows when a unique index covers the kept columns (Citus's
#     remote commands), with a release equal to the local one;
#   - the privacy checks of rights, versions and composition: a role that may only read adult_dist publishes from it,
#     another role may not refresh that release, a refresh that would publish one added person is withheld, a second
#     release that would single people out with the first is refused, and a refresh after the owner lost SELECT is
#     not permitted, each with the outcome and message of the same step on adult;
#   - a call on a worker errors saying to call the coordinator.
# When the citus extension is not installed in the PostgreSQL of $PG_CONFIG, prints the one line
# "skipped: citus is not installed" and exits with status 77, which scripts/test.sh counts as skipped. Otherwise
# prints one line per check and ends with "citus: N passed, N failed"; the exit status is non-zero when a check
# failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}

# shellcheck source=tests/scripts/citus_cluster.sh
source tests/scripts/citus_cluster.sh
if ! citus_installed; then
    echo "skipped: citus is not installed"
    exit 77
fi
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# Ends the test with its summary line and status.
finish() {
    report_checks citus
    exit $?
}

if ! citus_start; then
    check_that "start a Citus coordinator and two workers" false
    finish
fi
# Joins of a release (distributed by anon_bucket) with adult_dist (by id) repartition between the workers.
export PGOPTIONS="-c citus.enable_repartition_joins=on"
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# The extension (propagated by Citus), Adult and its taxonomies (on the coordinator), the distributed copy.
check_that "CREATE EXTENSION anon on the coordinator" q -c "CREATE EXTENSION anon"
for w in 1 2; do
    check_that "worker $w has the anon extension (Citus propagated it)" \
        test "$(citus_worker_psql "$w" -At -c "SELECT count(*) FROM pg_extension WHERE extname = 'anon'")" = 1
done
if ! bash scripts/load_adult.sh >/dev/null; then
    check_that "load Adult" false
    finish
fi
q <<'SQL' || { check_that "distribute a copy of Adult" false; finish; }
CREATE TABLE adult_dist (id int, sex text, age int, race text, "marital-status" text, education text,
                         "native-country" text, workclass text, occupation text, "salary-class" text);
SELECT create_distributed_table('adult_dist', 'id');
INSERT INTO adult_dist SELECT * FROM adult;
VACUUM ANALYZE adult;
VACUUM ANALYZE adult_dist;
SQL
check_that "adult_dist is distributed and holds Adult's rows" test \
    "$(q -c "SELECT count(*) FROM adult_dist")|$(q -c "SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'adult_dist'::regclass")" \
    = "$(q -c "SELECT count(*) FROM adult")|32"

qis='{sex,age,race,marital-status,education,native-country,workclass}'

# same_rows A B: "rows|only in A|only in B" of two relations, compared on A's columns other than the Citus
# release's distribution column (anon_bucket, when there is one).
same_rows() {
    local cols
    cols=$(q -c "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
                 WHERE attrelid = '$1'::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'anon_bucket'")
    q -c "SELECT (SELECT count(*) FROM $1), (SELECT count(*) FROM $2),
                 (SELECT count(*) FROM (SELECT $cols FROM $1 EXCEPT ALL SELECT $cols FROM $2) d),
                 (SELECT count(*) FROM (SELECT $cols FROM $2 EXCEPT ALL SELECT $cols FROM $1) d)"
}

# is_distributed REL: true when REL is a Citus distributed table.
is_distributed() {
    test "$(q -c "SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = to_regclass('$1')")" = 1
}

# same_value NAME QUERY_DIST QUERY_LOCAL: both queries succeed with the same non-empty result.
same_value() {
    local a b
    a=$(q -c "$2" 2>&1) && b=$(q -c "$3" 2>&1) && [ -n "$a" ] && [ "$a" = "$b" ]
    check "$1" $? "distributed: ${a:-nothing}; local: ${b:-nothing}"
}

# compare LABEL MODEL PARAMS ALGORITHM [LOCAL DISTRIBUTED]: publishes the release of LOCAL (adult; rel_local) and of
# DISTRIBUTED (adult_dist; rel_dist) and checks that every published relation holds the same rows, that the reports
# agree and that the releases of the distributed table are distributed tables.
compare() {
    local label=$1 model=$2 params=$3 algorithm=$4 local_table=${5:-adult} dist_table=${6:-adult_dist} suffix rows same
    q -c "SELECT anon.anonymize('$local_table', '$qis', '{occupation}', '$model', '$params', '$algorithm',
                                'rel_local')" >/dev/null 2>"$CITUS_COORD_DIR/err" &&
        q -c "SELECT anon.anonymize('$dist_table', '$qis', '{occupation}', '$model', '$params', '$algorithm',
                                    'rel_dist')" >/dev/null 2>>"$CITUS_COORD_DIR/err"
    check "$label: published from adult and from adult_dist" $? "$(head -c 400 "$CITUS_COORD_DIR/err")"
    for suffix in "" _qit _st; do
        [ "$(q -c "SELECT to_regclass('rel_local$suffix') IS NOT NULL")" = t ] || continue
        rows=$(same_rows "rel_local$suffix" "rel_dist$suffix" 2>&1)
        echo "    $label rel_local$suffix / rel_dist$suffix: $rows (rows local, rows distributed, only local, only distributed)"
        check_that "$label: rel_dist$suffix equals rel_local$suffix" \
            bash -c '[[ $1 =~ ^([0-9]+)\|([0-9]+)\|0\|0$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -gt 0 ]' _ "$rows"
        check_that "$label: rel_dist$suffix is a distributed table" is_distributed "rel_dist$suffix"
    done
    same=$(q -c "SELECT bool_and(a.report->k IS NOT DISTINCT FROM b.report->k) FROM anon.release a, anon.release b,
                 unnest('{classes,min_class_size,suppressed,discernibility,il,ncp,kl,levels}'::text[]) k
                 WHERE a.output_name = 'rel_local' AND b.output_name = 'rel_dist'")
    check_that "$label: the reports agree" test "$same" = t
    # The kept columns' linkage warning: counted from the kept groups on both (read along locally, the release's
    # own kept groups for the distributed table), with the same figures.
    same=$(q -c "SELECT (SELECT string_agg(w, ' ') FROM jsonb_array_elements_text(a.report->'warnings') w
                         WHERE w LIKE 'params->''keep''%') IS NOT DISTINCT FROM
                        (SELECT string_agg(w, ' ') FROM jsonb_array_elements_text(b.report->'warnings') w
                         WHERE w LIKE 'params->''keep''%')
                 FROM anon.release a, anon.release b WHERE a.output_name = 'rel_local' AND b.output_name = 'rel_dist'")
    check_that "$label: the kept columns' warnings agree" test "$same" = t
    if [[ $params == *'"keep_identifying": true'* ]]; then
        same=$(q -c "SELECT count(*) FROM anon.release b, jsonb_array_elements_text(b.report->'warnings') w
                     WHERE b.output_name = 'rel_dist' AND w LIKE 'params->''keep''%singles out%'")
        check_that "$label: the distributed release warns that the kept id singles out rows" test "$same" = 1
    fi
}

# A distributed object that publishes the release alone is filled from its rows per shard (each distinct row once per
# shard, its anon_bucket counting its copies there, which the workers repeat beside it) when a piece stands for
# several tuples, and with rows the coordinator sends when each stands for about one (BSGI; object_queries.cpp): the
# commands Citus sends to the workers show which, and that no fragment moves between workers. Adult has 1.7 tuples a
# piece for incognito; twice Adult, 3.3.
q <<'SQL' || check_that "load twice Adult, locally and distributed" false
CREATE TABLE adult_twice AS SELECT * FROM adult UNION ALL SELECT * FROM adult;
CREATE TABLE adult_twice_dist (LIKE adult_twice);
SELECT create_distributed_table('adult_twice_dist', 'id');
INSERT INTO adult_twice_dist SELECT * FROM adult_twice;
SQL
# sent_commands SOURCE MODEL PARAMS ALGORITHM: "commands repeating rows on the shards|fragments fetched between
# workers" while SOURCE's release rel_pieces is published.
sent_commands() {
    local log
    log=$(q -c "SET citus.log_remote_commands = on" -c "SELECT anon.anonymize('$1', '$qis', '{occupation}', '$2',
          '$3', '$4', 'rel_pieces') IS NOT NULL" 2>&1)
    echo "$(grep -c "generate_series(2, " <<<"$log")|$(grep -c "fetch_intermediate_results" <<<"$log")"
    q -c "SELECT anon.drop_release('rel_pieces')" >/dev/null
}
from_pieces=$(sent_commands adult_twice_dist k-anonymity '{"k": 5}' incognito)
from_coordinator=$(sent_commands adult_dist unique-distinct-l-diversity '{"l": 5}' bsgi)
echo "    commands repeating rows on the shards|fragments fetched: $from_pieces (incognito, twice Adult), $from_coordinator (bsgi, Adult)"
check_that "several tuples a piece: the workers repeat rows per shard, none moves between workers" \
    bash -c '[[ $1 =~ ^([0-9]+)\|0$ ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]' _ "$from_pieces"
check_that "a tuple a piece: the coordinator sends the rows, none is repeated on the shards" \
    test "$from_coordinator" = "0|0"
compare "incognito k=5 on twice Adult, from rows per shard" k-anonymity '{"k": 5}' incognito adult_twice adult_twice_dist
spread=$(q -c "SELECT count(*), max(n) <= 2 * min(n) FROM (SELECT
               get_shard_id_for_distribution_column('rel_dist', anon_bucket) AS s, count(*) AS n FROM rel_dist
               GROUP BY 1) s")
# Each distinct row of a shard: as many copies as its anon_bucket's high bits say (32 shards: 12 low bits).
miscounted=$(q -c "SELECT count(*) FROM (SELECT anon_bucket FROM rel_dist GROUP BY gid, sex, age, race,
                   \"marital-status\", education, \"native-country\", workclass, occupation, anon_bucket
                   HAVING count(*) <> anon_bucket >> 12) d")
echo "    rel_dist ($(q -c "SELECT count(DISTINCT gid) FROM rel_dist") classes) from rows per shard: $spread (shards, largest at most twice the smallest); rows whose copies differ from their anon_bucket's count: $miscounted"
check_that "rows per shard: rel_dist's rows spread over all 32 shards evenly, each row's copies as its anon_bucket says" \
    test "$spread|$miscounted" = "32|t|0"
q -c "SELECT anon.drop_release('rel_local')" -c "SELECT anon.drop_release('rel_dist')" >/dev/null

# Rows the coordinator sends (a tuple a piece: BSGI) take the bucket of a row held once on a shard drawn at random for
# the row (release_citus.cpp): one value per shard, each with the count 1, the rows spread evenly over all shards.
check_that "bsgi published from adult_dist as rel_sent" q -c "SELECT anon.anonymize('adult_dist', '$qis',
    '{occupation}', 'unique-distinct-l-diversity', '{\"l\": 5}', 'bsgi', 'rel_sent') IS NOT NULL" -o /dev/null
sent=$(q -c "SELECT count(DISTINCT anon_bucket), count(DISTINCT get_shard_id_for_distribution_column('rel_sent',
             anon_bucket)), bool_and(anon_bucket >> 12 = 1) FROM rel_sent")
spread=$(q -c "SELECT max(n) <= 2 * min(n) FROM (SELECT count(*) AS n FROM rel_sent GROUP BY anon_bucket) s")
echo "    rel_sent: $sent (buckets, shards, each a row held once), evenly: $spread"
check_that "rows sent by the coordinator: a bucket per shard, each a row held once, evenly over all 32 shards" \
    test "$sent|$spread" = "32|32|t|t"
# anon.verify groups a release object by anon_bucket too, so Citus aggregates on the shards alone (the commands it
# sends group by it, the coordinator merges nothing), and adds up the groups that one class's values make on several
# shards: on a table distributed by a bucket drawn per row, every class split over many, its verdicts and counts, and
# anon.equivalence_classes, are those of the same rows in a local table.
log=$(q -c "SET citus.log_remote_commands = on" -c "SELECT anon.verify('rel_sent', '{gid}', '{occupation}',
          'unique-distinct-l-diversity', '{\"l\": 5}') IS NOT NULL" 2>&1)
echo "    verify's commands grouped by anon_bucket on the shards: $(grep -c "GROUP BY gid, occupation, anon_bucket" <<<"$log")"
check_that "anon.verify of a release object: the shards group by gid, occupation and anon_bucket" \
    test "$(grep -c "GROUP BY gid, occupation, anon_bucket" <<<"$log")" = 32
q -c "SELECT anon.drop_release('rel_sent')" >/dev/null
q <<'SQL' || check_that "load a table split over buckets, locally and distributed" false
CREATE TABLE split_local AS SELECT i % 40 AS gid, (ARRAY['a', 'b', 'c', 'd'])[1 + (i / 40) % (1 + i % 4)] AS occupation,
                                  0 AS anon_bucket
FROM generate_series(1, 4000) i;
CREATE TABLE split_dist (LIKE split_local);
SELECT create_distributed_table('split_dist', 'anon_bucket');
INSERT INTO split_dist SELECT gid, occupation, (random() * 100000)::int FROM split_local;
SQL
for m in "k-anonymity|{\"k\": 100}" "distinct-l-diversity|{\"l\": 3}" "entropy-l-diversity|{\"l\": 2}"; do
    same_value "anon.verify ${m%%|*} over classes split between buckets agrees with the local table" \
        "SELECT anon.verify('split_dist', '{gid}', '{occupation}', '${m%%|*}', '${m#*|}') - 'relation'" \
        "SELECT anon.verify('split_local', '{gid}', '{occupation}', '${m%%|*}', '${m#*|}') - 'relation'"
done
check_that "anon.verify distinct-l-diversity over split classes: 20 of 40 classes violate l = 3" \
    test "$(q -c "SELECT v->>'classes', v->>'violating_classes' FROM anon.verify('split_dist', '{gid}',
           '{occupation}', 'distinct-l-diversity', '{\"l\": 3}') v")" = "40|20"
check_that "anon.equivalence_classes over split classes equals the local table's" test "$(q -c "SELECT count(*) FROM
    ((SELECT * FROM anon.equivalence_classes('split_dist', '{gid}', '{occupation}') EXCEPT ALL
      SELECT * FROM anon.equivalence_classes('split_local', '{gid}', '{occupation}')) UNION ALL
     (SELECT * FROM anon.equivalence_classes('split_local', '{gid}', '{occupation}') EXCEPT ALL
      SELECT * FROM anon.equivalence_classes('split_dist', '{gid}', '{occupation}'))) d")|$(q -c "SELECT count(*)
    FROM anon.equivalence_classes('split_dist', '{gid}', '{occupation}')")" = "0|40"
q -c "DROP TABLE split_local, split_dist" >/dev/null

# The kept read of a distributed source is grouped by the shards (only groups reach the coordinator), unless a unique
# index says each group would be a row: then the shards send the rows without a GROUP BY (source_reader.cpp). Citus
# logs the commands it sends; the release of a copy of adult_dist with a primary key on id equals the local one.
q <<'SQL' || check_that "load adult_dist with a primary key on id" false
CREATE TABLE adult_pk_dist (LIKE adult_dist, PRIMARY KEY (id));
SELECT create_distributed_table('adult_pk_dist', 'id');
INSERT INTO adult_pk_dist SELECT * FROM adult;
SQL
grouped_by_id() {
    q -c "SET citus.log_remote_commands = on" -c "SELECT anon.anonymize('$1', '$qis', '{occupation}',
          'distinct-l-diversity', '{\"l\": 3, \"keep_identifying\": true, \"keep\": [\"id\"], \"replace\": true}',
          'incognito', 'rel_grouped') IS NOT NULL" 2>&1 | grep -c "GROUP BY id"
    q -c "SELECT anon.drop_release('rel_grouped')" >/dev/null
}
grouped_plain=$(grouped_by_id adult_dist)
grouped_pk=$(grouped_by_id adult_pk_dist)
echo "    shard reads grouped by id: $grouped_plain without a unique index, $grouped_pk with the primary key"
check_that "kept id: the shards group the kept read without a unique index on id, send rows with one" \
    test "$grouped_plain" -gt 0 -a "$grouped_pk" = 0
compare "incognito distinct l=3, id kept and unique" distinct-l-diversity \
    '{"l": 3, "keep_identifying": true, "keep": ["id"]}' incognito adult adult_pk_dist
q -c "SELECT anon.drop_release('rel_local')" -c "SELECT anon.drop_release('rel_dist')" -c "DROP TABLE adult_pk_dist" \
    >/dev/null

# Publishes every algorithm's release from both tables; the last release of each is kept for the checks below.
cases=(
    "incognito distinct l=3|distinct-l-diversity|{\"l\": 3, \"keep_identifying\": true, \"keep\": [\"id\"]}|incognito"
    "incognito k=5 no kept column|k-anonymity|{\"k\": 5}|incognito"
    "bsgi unique-distinct l=5|unique-distinct-l-diversity|{\"l\": 5, \"keep_identifying\": true, \"keep\": [\"id\"]}|bsgi"
    "bsgi publish both|unique-distinct-l-diversity|{\"l\": 5, \"publish\": \"both\"}|bsgi"
    "mondrian k=5|k-anonymity|{\"k\": 5, \"keep_identifying\": true, \"keep\": [\"id\"]}|mondrian"
    "refine k=5|k-anonymity|{\"k\": 5, \"recoding\": \"local\"}|refine"
    "anatomy publish both|distinct-l-diversity|{\"l\": 4, \"publish\": \"both\"}|anatomy"
    "onedim distinct l=4|distinct-l-diversity|{\"l\": 4}|onedim"
    "sweep tau-l|tau-l-diversity|{\"tau\": 0.3, \"l\": 5}|sweep"
    "mask m=2|m-confidentiality|{\"k\": 5, \"m\": 2, \"sensitive_values\": [\"Sales\"]}|mask"
)
for c in "${cases[@]}"; do
    IFS='|' read -r label model params algorithm <<<"$c"
    q -c "SELECT anon.drop_release(output_name) FROM anon.release WHERE output_name IN ('rel_local', 'rel_dist')" \
        >/dev/null
    compare "$label" "$model" "$params" "$algorithm"
done

# "distribution": "source": objects that publish the kept distribution column (id) are distributed by it and
# co-located with adult_dist; the others keep anon_bucket. Compared with the same release of adult (default
# distribution, a local source).
# colocated REL: "distribution column|same colocation group as adult_dist" of REL.
colocated() {
    q -c "SELECT column_to_column_name(r.logicalrelid, r.partkey), r.colocationid = s.colocationid
          FROM pg_dist_partition r, pg_dist_partition s
          WHERE r.logicalrelid = to_regclass('$1') AND s.logicalrelid = 'adult_dist'::regclass"
}
# coloc_case LABEL MODEL PARAMS ALGORITHM EXPECTED: publishes rel_local (adult, PARAMS) and rel_colo (adult_dist,
# PARAMS with "distribution": "source") and checks each object's rows and "column|colocated" (EXPECTED:
# object=value ..., object view, _qit or _st).
coloc_case() {
    local label=$1 model=$2 params=$3 algorithm=$4 expected=$5 item suffix rows got
    # The releases of the cases above go too: another live release of adult_dist would be composed with rel_colo.
    q -c "SELECT anon.drop_release(output_name) FROM anon.release WHERE output_name IN ('rel_local', 'rel_colo',
          'rel_dist')" >/dev/null
    q -c "SELECT anon.anonymize('adult', '$qis', '{occupation}', '$model', '$params', '$algorithm', 'rel_local')" \
        >/dev/null 2>"$CITUS_COORD_DIR/err" &&
        q -c "SELECT anon.anonymize('adult_dist', '$qis', '{occupation}', '$model',
                                    '${params%\}}, \"distribution\": \"source\"}', '$algorithm', 'rel_colo')" \
            >/dev/null 2>>"$CITUS_COORD_DIR/err"
    check "$label: published from adult and, distribution source, from adult_dist" $? \
        "$(head -c 400 "$CITUS_COORD_DIR/err")"
    for item in $expected; do
        suffix=${item%%=*}
        [ "$suffix" = view ] && suffix=
        rows=$(same_rows "rel_local$suffix" "rel_colo$suffix" 2>&1)
        echo "    $label rel_colo$suffix: $rows; distributed by|co-located: $(colocated "rel_colo$suffix")"
        check_that "$label: rel_colo$suffix equals rel_local$suffix" \
            bash -c '[[ $1 =~ ^([0-9]+)\|([0-9]+)\|0\|0$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -gt 0 ]' _ "$rows"
        # By anon_bucket: only the column counts (Citus's default co-location groups all tables distributed by an
        # int4 with the same shard count, which a random bucket makes meaningless).
        got=$(colocated "rel_colo$suffix")
        [[ ${item#*=} == *"|"* ]] || got=${got%%|*}
        check_that "$label: rel_colo$suffix is distributed by ${item#*=}" test "$got" = "${item#*=}"
    done
}
coloc_case "co-located bsgi, publish both" unique-distinct-l-diversity '{"l": 5, "publish": "both", "keep": ["id"]}' bsgi \
    "view=anon_bucket _qit=id|t _st=anon_bucket"
coloc_case "co-located mondrian, id in the view" distinct-l-diversity '{"l": 3, "keep_identifying": true, "keep": ["id"]}' mondrian \
    "view=id|t"
coloc_case "co-located incognito, id in the view" distinct-l-diversity '{"l": 3, "keep_identifying": true, "keep": ["id"]}' incognito \
    "view=id|t"
# An object with kept columns is sent by the coordinator, each row to its shard (by id when co-located, by anon_bucket
# otherwise): no repartitioned INSERT ... SELECT, so no fragment is fetched from another node either way (a join of
# the source's shards with the map fetched some with anon_bucket). Citus logs the commands it sends.
fetches() {
    q -c "SET citus.log_remote_commands = on" -c "SELECT anon.anonymize('adult_dist', '$qis', '{occupation}',
          'distinct-l-diversity', '{\"l\": 3, \"keep_identifying\": true, \"keep\": [\"id\"], \"replace\": true,
          \"distribution\": \"$1\"}', 'incognito', '$2') IS NOT NULL" 2>&1 | grep -c "fetch_intermediate_results"
}
moved_colo=$(fetches source rel_colo)
moved_random=$(fetches random rel_moved)
echo "    fragments fetched between workers: $moved_colo co-located, $moved_random with anon_bucket"
check_that "kept columns: no rows move between workers, co-located or by anon_bucket" \
    test "$moved_colo" = 0 -a "$moved_random" = 0
q -c "SELECT anon.drop_release('rel_moved')" >/dev/null
# The planner settings of the population reach the workers: worker 1 logs the plan of every statement with the
# settings that differ from its defaults (auto_explain), and the shard statements of a population that runs on the
# workers (rel_pieces: rows per shard, repeated beside them) run with jit and merge joins off.
q -c "SELECT anon.anonymize('adult_twice_dist', '$qis', '{occupation}', 'k-anonymity', '{\"k\": 5}', 'incognito',
                            'rel_pieces') IS NOT NULL" >/dev/null
w1_log=${CITUS_WORKERS[0]%:*}/postgres.log
citus_worker_psql 1 -q -c "LOAD 'auto_explain'" -c "ALTER SYSTEM SET session_preload_libraries = 'auto_explain'" \
    -c "ALTER SYSTEM SET auto_explain.log_min_duration = 0" -c "ALTER SYSTEM SET auto_explain.log_settings = on" \
    -c "SELECT pg_reload_conf()" >/dev/null
log_from=$(wc -c <"$w1_log")
# The sources change by a copy of their first rows (new ids): every class gains a copy of its own rows, a change
# that keeps the model on its own, so the refresh is not withheld against the published version (issue 42).
# copy_first_rows OFFSET TABLE...: each table gains a copy of its rows of id below 100000, their ids moved by OFFSET.
copy_first_rows() {
    local offset=$1 t
    shift
    for t in "$@"; do
        q -c "INSERT INTO $t SELECT id + $offset, sex, age, race, \"marital-status\", education, \"native-country\",
              workclass, occupation, \"salary-class\" FROM $t WHERE id < 100000" || return 1
    done
}
copy_first_rows 100000 adult adult_dist
check_that "anon.refresh of the co-located release after the sources changed" \
    q -c "SELECT anon.refresh('rel_local') IS NOT NULL AND anon.refresh('rel_colo') IS NOT NULL AND
                 anon.refresh('rel_pieces') IS NOT NULL" -o /dev/null
worker_settings=$(tail -c +"$((log_from + 1))" "$w1_log" | grep -A40 "Query Text: .*generate_series(2, " | grep "Settings:" |
    sort | uniq -c)
q -c "SELECT anon.drop_release('rel_pieces')" >/dev/null
echo "    worker 1, settings of the refresh's statements repeating rel_pieces's rows:"
sed 's/^/      /' <<<"$worker_settings"
check_that "the population's settings reach the workers (jit and enable_mergejoin off in shard statements)" \
    grep -q "enable_mergejoin = 'off', jit = 'off'" <<<"$worker_settings"
citus_worker_psql 1 -q -c "ALTER SYSTEM RESET session_preload_libraries" -c "SELECT pg_reload_conf()" >/dev/null
rows=$(same_rows rel_local rel_colo 2>&1)
echo "    after refresh: $rows; distributed by|co-located: $(colocated rel_colo)"
check_that "anon.refresh: rel_colo equals rel_local again" \
    bash -c '[[ $1 =~ ^([0-9]+)\|([0-9]+)\|0\|0$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]' _ "$rows"
check_that "anon.refresh keeps rel_colo co-located with adult_dist, by id" test "$(colocated rel_colo)" = "id|t"
check_that "the release's params keep the choice" \
    test "$(q -c "SELECT params->>'distribution' FROM anon.release WHERE output_name = 'rel_colo'")" = source
# Errors, and nothing left behind by them.
bad() {
    q -c "SELECT anon.anonymize('$1', '$qis', '{occupation}', 'k-anonymity', '$2', 'incognito', 'rel_bad')" 2>&1
}
relations_before=$(q -c "SELECT count(*) FROM pg_class")
err=$(bad adult '{"k": 5, "keep": ["id"], "keep_identifying": true, "distribution": "source"}')
echo "    local source: $err"
check_that "distribution source on a local source names the argument and what is wrong" \
    grep -q "params->'distribution'.*hash-distributed table, found \"source\" with source" <<<"$err"
err=$(bad adult_dist '{"k": 5, "distribution": "source"}')
echo "    no kept column: $err"
check_that "distribution source without the distribution column kept says to keep \"id\"" \
    grep -q "params->'distribution'.*\"id\" in params->'keep', found \"source\" with no kept column" <<<"$err"
err=$(bad adult_dist '{"k": 5, "keep": ["salary-class"], "distribution": "source"}')
echo "    another kept column: $err"
check_that "distribution source with another kept column names it" \
    grep -q "found \"source\" with params->'keep' \"salary-class\"" <<<"$err"
err=$(bad adult_dist '{"k": 5, "distribution": "colocated"}')
check_that "an unknown distribution is refused" grep -q "params->'distribution'" <<<"$err"
check_that "the refused publications left nothing behind" test \
    "$(q -c "SELECT count(*) FROM anon.release WHERE output_name = 'rel_bad'")|$(q -c "SELECT to_regclass('rel_bad') IS NULL")|$(q -c "SELECT count(*) FROM pg_class")" = "0|t|$relations_before"
q -c "SELECT anon.drop_release(output_name) FROM anon.release WHERE output_name IN ('rel_local', 'rel_colo')" >/dev/null
check_that "anon.drop_release of the co-located release" test "$(q -c "SELECT to_regclass('rel_colo') IS NULL")" = t

# The privacy checks of rights, versions and composition (issues 40 and 42) on releases of adult_dist, each outcome
# that of the same step on adult, its message equal once the names are (adult_dist read as adult).
# both_as ROLE SQL: SQL run by ROLE on adult, then on adult_dist (TABLE in SQL), each output's first line, the second
# with adult_dist named adult; "same: <output>" when they agree, else both.
both_as() {
    local a b
    a=$(PGUSER=$1 q -c "SET client_min_messages = warning" -c "${2//TABLE/adult}" 2>&1 | head -n 1)
    b=$(PGUSER=$1 q -c "SET client_min_messages = warning" -c "${2//TABLE/adult_dist}" 2>&1 | head -n 1)
    b=${b//adult_dist/adult}
    if [ "$a" = "$b" ]; then echo "same: $a"; else echo "local: $a / distributed: $b"; fi
}
# add_person ID: one more person in adult and adult_dist (a copy of person 1's values under ID).
add_person() {
    q -c "INSERT INTO adult SELECT $1, sex, age, race, \"marital-status\", education, \"native-country\", workclass,
          occupation, \"salary-class\" FROM adult WHERE id = 1" -c "INSERT INTO adult_dist SELECT * FROM adult WHERE id = $1"
}
q -c "SELECT anon.drop_release(format('%I.%I', output_schema, output_name)) FROM anon.release" >/dev/null
q <<'SQL' || check_that "create an analyst who may only read adult and adult_dist, and another role" false
CREATE ROLE citus_analyst LOGIN;
CREATE ROLE citus_other LOGIN;
GRANT SELECT ON adult, adult_dist TO citus_analyst;
CREATE SCHEMA analyst AUTHORIZATION citus_analyst;
SQL
# Rights: a role that may only read a distributed source publishes from it (the source's SHARE lock, which
# PostgreSQL gives only to roles that may write, is not taken for it), the same release as from the local table.
out=$(both_as citus_analyst "SELECT r->>'classes' FROM anon.anonymize('TABLE', '$qis', '{occupation}',
      'distinct-l-diversity', '{\"l\": 3}', 'incognito', 'analyst.rel_TABLE') r")
echo "    published by a role that may only read the source: $out"
check_that "rights: a role with SELECT alone publishes from adult_dist as from adult" grep -q "^same: [0-9]" <<<"$out"
rows=$(same_rows analyst.rel_adult analyst.rel_adult_dist 2>&1)
check_that "rights: that role's release of adult_dist equals its release of adult" \
    bash -c '[[ $1 =~ ^([0-9]+)\|([0-9]+)\|0\|0$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]' _ "$rows"
out=$(both_as citus_other "SELECT anon.refresh('analyst.rel_TABLE') IS NOT NULL")
echo "    another role's refresh: $out"
check_that "rights: another role may not refresh it, as locally (the release is hidden from it)" \
    grep -q "^same: ERROR: .*hidden from you" <<<"$out"
# Versions: one person added; the refresh would publish that person's row on its own, so it is withheld, and the
# release stays as it was.
rows_before=$(q -c "SELECT count(*) FROM analyst.rel_adult_dist")
add_person 990001
out=$(both_as citus_analyst "SELECT status || ': ' || detail FROM anon.refresh_if_changed('analyst.rel_TABLE')")
echo "    refresh after one person was added: ${out:0:160}…"
check_that "versions: the refresh after one person was added is withheld, with the same figures as locally" \
    grep -q "^same: withheld: " <<<"$out"
check_that "versions: the withheld release of adult_dist is left as it was" \
    test "$(q -c "SELECT count(*) FROM analyst.rel_adult_dist")" = "$rows_before"
q -c "DELETE FROM adult WHERE id = 990001" -c "DELETE FROM adult_dist WHERE id = 990001" >/dev/null
# Composition: a second release of the same source that, with the first, would leave people with fewer candidate
# values is refused.
out=$(both_as citus_analyst "SELECT anon.anonymize('TABLE', '$qis', '{occupation}', 'unique-distinct-l-diversity',
      '{\"l\": 5}', 'bsgi', 'analyst.second_TABLE') IS NOT NULL")
echo "    a second release of the source: $out"
check_that "composition: a second release that would single people out with the first is refused, as locally" \
    grep -q "^same: ERROR: .*combined with the 1 other live release" <<<"$out"
# Rights again: the analyst's SELECT revoked, its refresh (run with its rights) is not permitted, the release kept.
q -c "REVOKE SELECT ON adult, adult_dist FROM citus_analyst" >/dev/null
add_person 990002
out=$(both_as citus_analyst "SELECT status || ': ' || detail FROM anon.refresh_if_changed('analyst.rel_TABLE')")
echo "    refresh after the owner's SELECT was revoked: ${out:0:160}…"
check_that "rights: once its owner may no longer read adult_dist, its release's refresh is not permitted, as locally" \
    grep -q "^same: not_permitted: " <<<"$out"
q -c "DELETE FROM adult WHERE id = 990002" -c "DELETE FROM adult_dist WHERE id = 990002" \
    -c "SELECT anon.drop_release(format('%I.%I', output_schema, output_name)) FROM anon.release" -c "DROP SCHEMA analyst CASCADE" \
    -c "DROP ROLE citus_analyst" -c "DROP ROLE citus_other" >/dev/null

# The maintenance functions on a release of adult_dist (global recoding, id kept).
q -c "SELECT anon.drop_release(output_name) FROM anon.release WHERE output_name IN ('rel_local', 'rel_dist')" >/dev/null
compare "incognito for maintenance" distinct-l-diversity '{"l": 3, "keep_identifying": true, "keep": ["id"]}' incognito
spread=$(q -c "SELECT count(*), max(n) <= 2 * min(n) FROM (SELECT count(*) AS n FROM rel_dist
             GROUP BY get_shard_id_for_distribution_column('rel_dist', anon_bucket)) s")
echo "    rel_dist ($(q -c "SELECT count(DISTINCT gid) FROM rel_dist") classes): rows on $spread (shards, largest at most twice the smallest)"
check_that "rel_dist's rows spread over all 32 shards, evenly" test "$spread" = "32|t"
copy_first_rows 200000 adult adult_dist
check_that "anon.refresh of both releases after the sources changed" \
    q -c "SELECT anon.refresh('rel_local') IS NOT NULL AND anon.refresh('rel_dist') IS NOT NULL" -o /dev/null
rows=$(same_rows rel_local rel_dist 2>&1)
echo "    after refresh: $rows"
check_that "anon.refresh: rel_dist equals rel_local again" \
    bash -c '[[ $1 =~ ^([0-9]+)\|([0-9]+)\|0\|0$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]' _ "$rows"
same_value "anon.refresh: every row of rel_dist joins the changed adult_dist" \
    "SELECT count(*) FROM rel_dist r JOIN adult_dist s USING (id)" "SELECT count(*) FROM rel_dist WHERE $(q -c "SELECT count(*) FROM adult_dist") > 0"
check_that "anon.verify on rel_dist: satisfied" test "$(q -c "SELECT v->>'satisfied' FROM
    anon.verify('rel_dist', '$qis', '{occupation}', 'distinct-l-diversity', '{\"l\": 3}') v")" = true
same_value "anon.metrics on rel_dist agrees with rel_local" \
    "SELECT m->'discernibility', m->'classes' FROM anon.metrics('rel_dist') m" \
    "SELECT m->'discernibility', m->'classes' FROM anon.metrics('rel_local') m"
same_value "anon.equivalence_classes on rel_dist agrees with rel_local" \
    "SELECT count(*), sum(size) FROM anon.equivalence_classes('rel_dist', '$qis', '{occupation}')" \
    "SELECT count(*), sum(size) FROM anon.equivalence_classes('rel_local', '$qis', '{occupation}')"
same_value "anon.audit_minimality on rel_dist agrees with rel_local" \
    "SELECT count(*), count(*) FILTER (WHERE violates) FROM anon.audit_minimality('rel_dist', '{Sales}', 2)" \
    "SELECT count(*), count(*) FILTER (WHERE violates) FROM anon.audit_minimality('rel_local', '{Sales}', 2)"
err=$(q -c "REFRESH MATERIALIZED VIEW rel_dist" 2>&1)
echo "    REFRESH MATERIALIZED VIEW rel_dist: $err"
check_that "REFRESH MATERIALIZED VIEW on rel_dist says to use anon.refresh" grep -q "anon.refresh" <<<"$err"
copy_first_rows 300000 adult_dist
out=$(q -c "CALL anon.refresh_all()" 2>&1)
echo "$out" | sed 's/^/    /'
check_that "anon.refresh_all refreshes rel_dist after adult_dist changed" grep -q "public.rel_dist refreshed" <<<"$out"
check_that "anon.refresh_all: rel_dist holds adult_dist's rows" \
    test "$(q -c "SELECT count(*) FROM rel_dist")" = "$(q -c "SELECT count(*) FROM adult_dist")"
before=$(q -c "SELECT count(*), count(DISTINCT gid) FROM rel_dist")
q -c "DELETE FROM adult_dist WHERE id % 13 = 0"
relations_before=$(q -c "SELECT count(*) FROM pg_class")
err=$(q -c "SET statement_timeout = '50ms'" -c "SELECT anon.refresh('rel_dist')" 2>&1)
echo "    refresh cut off by statement_timeout: ${err%%$'\n'*}"
check_that "a failed anon.refresh keeps the previous distributed release" \
    test -n "$err" -a "$(q -c "SELECT count(*), count(DISTINCT gid) FROM rel_dist")" = "$before"
check_that "the failed refresh left no relation behind" test "$(q -c "SELECT count(*) FROM pg_class")" = "$relations_before"
check_that "anon.drop_release on rel_dist" q -c "SELECT anon.drop_release('rel_dist')" -o /dev/null
check_that "anon.drop_release: rel_dist and its catalog row are gone" test \
    "$(q -c "SELECT count(*) FROM anon.release WHERE output_name = 'rel_dist'")|$(q -c "SELECT to_regclass('rel_dist') IS NULL")" = "0|t"

# On a worker: Citus synced adult_dist's metadata there, but anon's catalog (taxonomies, releases) lives on the
# coordinator.
err=$(citus_worker_psql 1 -q -At -c "SELECT anon.anonymize('adult_dist', '$qis', '{occupation}', 'k-anonymity',
                                                             '{\"k\": 5}', 'incognito', NULL)" 2>&1)
echo "    anonymize on worker 1: $err"
check_that "anon.anonymize on a worker says to call the coordinator" grep -q "coordinator" <<<"$err"
err=$(citus_worker_psql 2 -q -At -c "SELECT anon.refresh('rel_local')" 2>&1)
echo "    refresh on worker 2: $err"
check_that "anon.refresh on a worker says to call the coordinator" grep -q "coordinator" <<<"$err"
finish
