#!/usr/bin/env bash
# tests/scripts/load_test.sh [ANON_MAINTAIN]: sustained concurrent load on releases (issue 14). On a throwaway
# cluster of its own, with copies of Adult (data/adult) as sources — a table, a partitioned table (by sex) and a
# third table — and four releases of them (Incognito, Refine and BSGI, all generalized with the row id kept, and
# Anatomy published "both": view, QIT and ST), for ANON_LOAD_SECONDS (default 60) at once:
#   - refreshers: 3 pgbench clients calling anon.refresh on a release drawn at random (so often the same release
#     from two sessions: the documented lock wait);
#   - readers: 2 clients reading a release in one statement and checking it against its catalog row in that
#     snapshot: rows = the report's published_rows, classes = the report's classes, every class of at least k rows
#     or l distinct sensitive values, QIT and ST of one class agreeing; a half release raises an error;
#   - writers: 2 clients deleting rows of the three sources and inserting them again under new ids, and updating
#     rows' ids, at most 40 transactions per second together: the rows the releases publish keep their published
#     values (a row here and there added or dropped would be withheld, docs/republication.md), so every refresh
#     computes the release's last version again and publishes it again, with the new ids, without recording
#     another (same_as_last_version);
#   - a publisher: 1 client publishing a release of the third source (Mondrian k-anonymity, Incognito
#     l-diversity or Anatomy bucketized, drawn at random), verifying it and dropping it;
#   - anon-maintain run again and again.
# Checks: every worker ran, no transaction failed (pgbench counts a deadlock as a failed transaction and goes on)
# and no worker printed an error (each message is printed; refreshes of one release wait for each other, which is
# no error, and no lock_timeout is set, so no error is allowed); every anon-maintain run exited 0; no backend
# crashed; after a last refresh every release verifies against its model with anon.verify and independently (each
# published value covers its source value, every source row published or suppressed once; the QIT and ST hold the
# source's QIs and sensitive values); the catalog holds exactly the four releases, every status is unchanged, no
# object of the dropped releases is left and no relation appeared or went; the private memory (RssAnon, sampled
# every second) of no long-lived backend grew by more than ANON_LOAD_MEMORY_KB (default 4096) from the middle third
# of the run (the first is the warm-up) to the last, peak to peak. Prints one line of figures: refreshes/s, reads/s,
# refresh p50/p99 ms, writes/s, publish+drop cycles, anon-maintain runs, largest memory growth, error lines.
# ANON_LOAD_SEED (default 20261123) seeds pgbench; ANON_LOAD_KEEP=DIR keeps the work files (pgbench logs, outputs,
# memory samples) in DIR. Needs the extension installed and PG_CONFIG / ANON_PG_BIN like the other tests. Prints
# one line per check and ends with "load: N passed, N failed"; the exit status is non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

SECONDS_LOAD=${ANON_LOAD_SECONDS:-60}
SEED=${ANON_LOAD_SEED:-20261123}
MEMORY_KB=${ANON_LOAD_MEMORY_KB:-4096}
MAINTAIN=${1:-build/anon-maintain}
DB=anon_load_test
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
WORK=$(mktemp -d /tmp/anon-load.XXXXXX)
trap 'cluster_stop; [ -n "${ANON_LOAD_KEEP:-}" ] && cp -r "$WORK" "$ANON_LOAD_KEEP"; rm -rf "$WORK"' EXIT
finish() {
    report_checks load
    exit $?
}
sql() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

if [ ! -x "$MAINTAIN" ] && ! make anon-maintain >"$WORK/maintain-build.log" 2>&1; then
    check_that "build anon-maintain" false
    finish
fi
if ! cluster_start >/dev/null; then
    check_that "start a cluster of its own" false
    finish
fi
psql -X -q -d postgres -c "CREATE DATABASE $DB" >/dev/null && sql -c "CREATE EXTENSION anon" &&
    PGDATABASE=$DB PATH="$ANON_PG_BIN:$PATH" bash scripts/load_adult.sh >/dev/null
check "load Adult into a database of its own" $? "see the errors above"

# Sources, releases, and the functions the workers call.
QI="'{sex,age,race,marital-status,education}'"
sql >/dev/null <<SQL
CREATE TABLE src_a (id serial PRIMARY KEY, sex text, age int, race text, "marital-status" text, education text,
                    occupation text);
INSERT INTO src_a (sex, age, race, "marital-status", education, occupation)
SELECT sex, age, race, "marital-status", education, occupation FROM adult WHERE id <= 3000 ORDER BY id;
CREATE TABLE src_b (id int NOT NULL, sex text, age int, race text, "marital-status" text, education text,
                    occupation text) PARTITION BY LIST (sex);
CREATE TABLE src_b_female PARTITION OF src_b FOR VALUES IN ('Female');
CREATE TABLE src_b_male PARTITION OF src_b FOR VALUES IN ('Male');
INSERT INTO src_b SELECT id, sex, age, race, "marital-status", education, occupation
FROM adult WHERE id BETWEEN 3001 AND 6000;
CREATE TABLE src_c (LIKE src_a INCLUDING ALL);
INSERT INTO src_c SELECT id, sex, age, race, "marital-status", education, occupation
FROM adult WHERE id BETWEEN 6001 AND 9000;
CREATE SEQUENCE src_b_id START 100001;
SELECT setval('src_a_id_seq', 100000);

SELECT anon.anonymize('src_a', $QI, '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["id"], "keep_identifying": true}',
                      'incognito', 'rel_inc');
SELECT anon.anonymize('src_a', $QI, '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["id"], "keep_identifying": true}',
                      'refine', 'rel_ref');
SELECT anon.anonymize('src_b', $QI, '{occupation}', 'distinct-l-diversity',
                      '{"l": 3, "keep": ["id"], "keep_identifying": true}', 'bsgi', 'rel_bsgi');
-- rel_bkt and the publisher's releases of src_c coexist: each acknowledges their composition.
SELECT anon.anonymize('src_c', $QI, '{occupation}', 'distinct-l-diversity',
                      '{"l": 3, "publish": "both", "acknowledge_composition": true}', 'anatomy', 'rel_bkt');

-- A reader's figures of a release against its catalog row, all read by one statement in one snapshot: raises when
-- they disagree (a half release: rows or classes not the report's, a class below k or l, QIT and ST apart).
CREATE FUNCTION load_expect(release text, published bigint, classes bigint, smallest bigint, fewest bigint,
                            agree boolean, report jsonb, params jsonb) RETURNS boolean LANGUAGE plpgsql AS \$\$
BEGIN
    IF published IS DISTINCT FROM (report->>'published_rows')::bigint
       OR classes IS DISTINCT FROM (report->>'classes')::bigint
       OR smallest < coalesce((params->>'k')::bigint, 1)
       OR fewest < coalesce((params->>'l')::bigint, 1)
       OR NOT agree THEN
        RAISE EXCEPTION 'half release %: % rows, % classes, smallest class %, fewest sensitive values %, QIT and ST agree %; report: % rows, % classes',
            release, published, classes, smallest, fewest, agree, report->>'published_rows', report->>'classes';
    END IF;
    RETURN true;
END \$\$;

-- The final checks' helpers: the rows of a relation; published values of a release (kept id) that do not cover
-- their source value, per distinct (column, published, source) triple, plus rows whose sensitive value changed.
CREATE FUNCTION load_count(relation text) RETURNS bigint LANGUAGE plpgsql AS \$\$
DECLARE
    n bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s', relation::regclass) INTO n;
    RETURN n;
END \$\$;
CREATE FUNCTION load_uncovered(release text, source text, qi text[]) RETURNS bigint LANGUAGE plpgsql AS \$\$
DECLARE
    col text;
    n bigint;
    total bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s r JOIN %s s USING (id) WHERE r.occupation IS DISTINCT FROM s.occupation',
                   release::regclass, source::regclass) INTO total;
    FOREACH col IN ARRAY qi LOOP
        EXECUTE format('WITH p AS MATERIALIZED (SELECT DISTINCT r.%1\$I AS g, s.%1\$I::text AS v FROM %2\$s r '
                       'JOIN %3\$s s USING (id)) SELECT count(*) FROM p WHERE NOT coalesce(anon.covers(%1\$L, g, v), false)',
                       col, release::regclass, source::regclass) INTO n;
        total := total + n;
    END LOOP;
    RETURN total;
END \$\$;

-- The publisher's cycle, part one: publishes pub_rel of src_c by one of three configurations and verifies it.
CREATE FUNCTION load_publish(kind int) RETURNS boolean LANGUAGE plpgsql AS \$\$
DECLARE
    v jsonb;
BEGIN
    IF kind = 1 THEN
        PERFORM anon.anonymize('src_c', $QI, '{occupation}', 'k-anonymity', '{"k": 5, "acknowledge_composition": true}',
                               'mondrian', 'pub_rel');
        v := anon.verify('pub_rel', '{gid}', '{occupation}', 'k-anonymity', '{"k": 5}');
    ELSIF kind = 2 THEN
        PERFORM anon.anonymize('src_c', $QI, '{occupation}', 'distinct-l-diversity',
                               '{"l": 2, "acknowledge_composition": true}', 'incognito', 'pub_rel');
        v := anon.verify('pub_rel', $QI, '{occupation}', 'distinct-l-diversity', '{"l": 2}');
    ELSE
        PERFORM anon.anonymize('src_c', $QI, '{occupation}', 'distinct-l-diversity',
                               '{"l": 3, "publish": "bucketized", "acknowledge_composition": true}', 'anatomy',
                               'pub_rel');
        SELECT jsonb_build_object('satisfied', bool_and(d >= 3)) INTO v
        FROM (SELECT count(DISTINCT occupation) AS d FROM pub_rel_st GROUP BY gid) s;
    END IF;
    IF NOT (v->>'satisfied')::boolean THEN
        RAISE EXCEPTION 'publication % does not satisfy its model: %', kind, v;
    END IF;
    RETURN true;
END \$\$;
SQL
check "set up three sources (one partitioned) and four releases" $? "see the errors above"
sql -c "ALTER DATABASE $DB SET search_path = public" >/dev/null
relations_before=$(sql -c "SELECT string_agg(relkind::text || ':' || oid::regclass::text, ' ' ORDER BY oid::regclass::text)
                           FROM pg_class WHERE relnamespace = 'public'::regnamespace")

# The pgbench scripts of the workers.
for r in inc ref bsgi bkt; do
    echo "SELECT anon.refresh('rel_$r') IS NOT NULL;" >"$WORK/refresh_$r.sql"
done
# shellcheck disable=SC2016
for r in inc ref bsgi; do
    cat >"$WORK/read_$r.sql" <<SQL
SELECT load_expect('rel_$r', s.n, s.classes, s.smallest, s.fewest, true, r.report, r.params)
FROM (SELECT sum(c)::bigint AS n, count(*) AS classes, min(c) AS smallest, min(d) AS fewest
      FROM (SELECT count(*) AS c, count(DISTINCT occupation) AS d FROM rel_$r GROUP BY gid) g) s,
     anon.release r WHERE r.output_name = 'rel_$r';
SQL
done
cat >"$WORK/read_bkt.sql" <<'SQL'
SELECT load_expect('rel_bkt', q.n, q.classes, q.smallest, st.fewest,
                   q.n = v.n AND q.classes = st.classes AND q.n = st.n AND q.classes = j.agreeing, r.report, r.params)
FROM (SELECT sum(c)::bigint AS n, count(*) AS classes, min(c) AS smallest
      FROM (SELECT count(*) AS c FROM rel_bkt_qit GROUP BY gid) g) q,
     (SELECT count(*) AS n FROM rel_bkt) v,
     (SELECT sum(c)::bigint AS n, count(*) AS classes, min(d) AS fewest
      FROM (SELECT sum(count) AS c, count(DISTINCT occupation) AS d FROM rel_bkt_st GROUP BY gid) g) st,
     (SELECT count(*) AS agreeing
      FROM (SELECT gid, count(*) AS c FROM rel_bkt_qit GROUP BY gid) a
      JOIN (SELECT gid, sum(count) AS c FROM rel_bkt_st GROUP BY gid) b USING (gid) WHERE a.c = b.c) j,
     anon.release r WHERE r.output_name = 'rel_bkt';
SQL
cat >"$WORK/write_move.sql" <<'SQL'
\set o random(0, 2000)
WITH gone AS (DELETE FROM src_a WHERE id = (SELECT id FROM src_a ORDER BY id OFFSET :o LIMIT 1) RETURNING *)
INSERT INTO src_a (sex, age, race, "marital-status", education, occupation)
SELECT sex, age, race, "marital-status", education, occupation FROM gone;
WITH gone AS (DELETE FROM src_b WHERE id = (SELECT id FROM src_b ORDER BY id OFFSET :o LIMIT 1) RETURNING *)
INSERT INTO src_b SELECT nextval('src_b_id'), sex, age, race, "marital-status", education, occupation FROM gone;
WITH gone AS (DELETE FROM src_c WHERE id = (SELECT id FROM src_c ORDER BY id OFFSET :o LIMIT 1) RETURNING *)
INSERT INTO src_c (sex, age, race, "marital-status", education, occupation)
SELECT sex, age, race, "marital-status", education, occupation FROM gone;
SQL
cat >"$WORK/write_update.sql" <<'SQL'
\set o random(0, 2000)
UPDATE src_a SET id = nextval('src_a_id_seq') WHERE id = (SELECT id FROM src_a ORDER BY id OFFSET :o LIMIT 1);
UPDATE src_b SET id = nextval('src_b_id') WHERE id = (SELECT id FROM src_b ORDER BY id OFFSET :o LIMIT 1);
SQL
cat >"$WORK/publish.sql" <<'SQL'
\set kind random(1, 3)
SELECT load_publish(:kind);
SELECT anon.drop_release('pub_rel');
SQL

# worker NAME CLIENTS RATE SCRIPTS...: a pgbench run of the load's length as application NAME, at most RATE
# transactions per second (0: no limit), logging each transaction.
worker() {
    local name=$1 clients=$2 scripts=() s
    [ "$3" -gt 0 ] && scripts+=(--rate="$3")
    shift 3
    for s in "$@"; do scripts+=(-f "$WORK/$s.sql"); done
    PGAPPNAME=load_$name "$ANON_PG_BIN/pgbench" -n --verbose-errors -c "$clients" -j "$clients" -T "$SECONDS_LOAD" \
        --random-seed="$SEED" -l --log-prefix="$WORK/log_$name" "${scripts[@]}" "$DB" >"$WORK/$name.out" 2>"$WORK/$name.err"
}

# Runs anon-maintain until the load ends; one line per run (exit status) in maintain.runs, its output in maintain.out.
maintain_loop() {
    local end=$((SECONDS + SECONDS_LOAD)) rc
    while [ "$SECONDS" -lt "$end" ]; do
        "$MAINTAIN" "dbname=$DB application_name=load_maintain" >>"$WORK/maintain.out" 2>&1
        rc=$?
        echo "$rc" >>"$WORK/maintain.runs"
        [ "$rc" -ne 0 ] && echo "(exit status $rc)" >>"$WORK/maintain.out"
    done
}

# Samples the private memory (RssAnon, kB) of every long-lived backend of the load every second: "second pid app kB".
memory_monitor() {
    local start=$SECONDS pid app kb
    while [ $((SECONDS - start)) -le "$SECONDS_LOAD" ]; do
        while IFS='|' read -r pid app; do
            kb=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
            [ -n "$kb" ] && echo "$((SECONDS - start)) $pid $app $kb"
        done < <(sql -c "SELECT pid, application_name FROM pg_stat_activity
                         WHERE datname = '$DB' AND application_name IN ('load_refresh', 'load_read', 'load_write',
                                                                        'load_publish')")
        sleep 1
    done >"$WORK/memory.tsv"
}

log_offset=$(wc -c <"$ANON_PG_DIR/postgres.log")
echo "load: ${SECONDS_LOAD} s, seed $SEED"
started=$SECONDS
worker refresh 3 0 refresh_inc refresh_ref refresh_bsgi refresh_bkt &
worker read 2 0 read_inc read_ref read_bsgi read_bkt &
worker write 2 40 write_move write_update &
worker publish 1 0 publish &
maintain_loop &
memory_monitor &
wait
elapsed=$((SECONDS - started))

# Every worker ran to its end with no failed transaction (pgbench counts deadlocks and serialization failures as
# failed transactions and goes on; --verbose-errors prints their messages), and every message it printed is an
# error unless it is pgbench's own report.
errors=0
for w in refresh read write publish; do
    done_count=$(cat "$WORK/log_$w".* 2>/dev/null | awk '$3 ~ /^[0-9]+$/' | wc -l)
    messages=$(grep -v '^pgbench (\|^pgbench: setting random seed' "$WORK/$w.err")
    check "$w: ran transactions, none failed and no error printed ($done_count transactions)" \
        "$([ -z "$messages" ] && [ "$done_count" -gt 0 ] &&
           grep -q '^number of failed transactions: 0 ' "$WORK/$w.out"; echo $?)" \
        "$(grep '^number of failed' "$WORK/$w.out"; head -c 2000 <<<"$messages")"
    [ -n "$messages" ] && errors=$((errors + $(wc -l <<<"$messages")))
done
maintain_runs=$(wc -l <"$WORK/maintain.runs" 2>/dev/null || echo 0)
maintain_failed=$(grep -vcx 0 "$WORK/maintain.runs" 2>/dev/null)
check "anon-maintain: $maintain_runs runs, every one exited 0" \
    "$([ "$maintain_runs" -gt 0 ] && [ "$maintain_failed" -eq 0 ]; echo $?)" \
    "$maintain_failed failed: $(grep -vP '\t(unchanged|refreshed)\t|^anon-maintain: ' "$WORK/maintain.out" | head -c 2000)"
crash=$(tail -c +"$((log_offset + 1))" "$ANON_PG_DIR/postgres.log" | grep -c 'terminated by signal\|server process .* was terminated')
check "no backend crashed (server log)" "$crash" "see $ANON_PG_DIR/postgres.log"

# A last refresh of each release, then its checks against its model and, independently, against its source.
for r in rel_inc rel_ref rel_bsgi rel_bkt; do
    sql -c "SELECT anon.refresh('$r')" >/dev/null
done
versions=$(sql -c "SELECT string_agg(output_name || ' ' || (report->>'version'), ', ' ORDER BY output_name)
                   FROM anon.release")
check "every release republished its one version under the load, its history not rewritten ($versions)" \
    "$(sql -c "SELECT bool_and((r.report->>'version')::int = 1 AND h.versions = 1)
               FROM anon.release r JOIN anon.release_history h USING (output_schema, output_name)" |
       grep -qx t; echo $?)" "$versions"
# shellcheck disable=SC2016
bad=$(sql <<'SQL' 2>&1
SELECT r.output_name || ': ' || v::text
FROM anon.release r,
     LATERAL anon.verify(r.output_name::regclass, CASE r.algorithm WHEN 'incognito' THEN r.quasi_identifiers
                                                                     ELSE '{gid}' END,
                         r.sensitive, r.model, r.params) v
WHERE NOT (v->>'satisfied')::boolean OR (v->>'rows')::bigint <> (r.report->>'published_rows')::bigint;
SQL
)
check "every release verifies against its model with the rows its report counts" \
    "$([ -z "$bad" ]; echo $?)" "$bad"
# Independently of anon.verify: every source row is published or suppressed once; each published QI value covers
# the source's value (per distinct pair) and the sensitive value is the source's; the QIT and ST hold the source's
# QIs and sensitive values.
bad=$(sql <<SQL 2>&1
SELECT format('%s: %s published + %s suppressed <> %s source rows', r.output_name,
              load_count(r.output_name || CASE WHEN r.output_name = 'rel_bkt' THEN '_qit' ELSE '' END),
              r.report->>'suppressed', load_count(r.source::text))
FROM anon.release r
WHERE load_count(r.output_name || CASE WHEN r.output_name = 'rel_bkt' THEN '_qit' ELSE '' END)
      + (r.report->>'suppressed')::bigint <> load_count(r.source::text)
UNION ALL
SELECT format('%s: %s values not covered or changed', r, n)
FROM (VALUES ('rel_inc', 'src_a'), ('rel_ref', 'src_a'), ('rel_bsgi', 'src_b')) o(r, s),
     LATERAL load_uncovered(o.r, o.s, $QI) n WHERE n <> 0
UNION ALL
SELECT 'rel_bkt: ' || count(*) || ' QIT rows differ from the source'
FROM ((SELECT sex, age, race, "marital-status", education FROM rel_bkt_qit
       EXCEPT ALL SELECT sex, age, race, "marital-status", education FROM src_c)
      UNION ALL (SELECT sex, age, race, "marital-status", education FROM src_c
                 EXCEPT ALL SELECT sex, age, race, "marital-status", education FROM rel_bkt_qit)) d
HAVING count(*) <> 0
UNION ALL
SELECT 'rel_bkt: ' || count(*) || ' ST values differ from the source'
FROM ((SELECT occupation FROM rel_bkt_st, generate_series(1, count) EXCEPT ALL SELECT occupation FROM src_c)
      UNION ALL (SELECT occupation FROM src_c
                 EXCEPT ALL SELECT occupation FROM rel_bkt_st, generate_series(1, count))) d
HAVING count(*) <> 0;
SQL
)
check "independently: every source row published or suppressed once, values covered, QIT and ST the source's" \
    "$([ -z "$bad" ]; echo $?)" "$bad"

# Catalog integrity: the four releases and nothing of the dropped ones.
statuses=$(sql -c "SELECT string_agg(release || ' ' || status, ', ' ORDER BY release) FROM anon.refresh_report()")
expected="public.rel_bkt unchanged, public.rel_bsgi unchanged, public.rel_inc unchanged, public.rel_ref unchanged"
check "the catalog holds the four releases, each unchanged ($statuses)" "$([ "$statuses" = "$expected" ]; echo $?)" \
    "$statuses"
relations_after=$(sql -c "SELECT string_agg(relkind::text || ':' || oid::regclass::text, ' ' ORDER BY oid::regclass::text)
                          FROM pg_class WHERE relnamespace = 'public'::regnamespace")
check "no object of a dropped release is left and no relation appeared or went" \
    "$([ -n "$relations_before" ] && [ "$relations_after" = "$relations_before" ]; echo $?)" \
    "$(diff <(tr ' ' '\n' <<<"$relations_before") <(tr ' ' '\n' <<<"$relations_after") | grep '^[<>]')"

# Memory: per backend, the peak RssAnon of the last third of the run against the peak of the middle third (the
# first is the warm-up). Peaks, because a sample may fall inside a refresh; a leak raises every later one.
growth=$(awk -v a="$((SECONDS_LOAD / 3))" -v b="$((2 * SECONDS_LOAD / 3))" '
    $1 >= a && $1 < b && $4 > mid[$2] { mid[$2] = $4 }
    $1 >= b && $4 > end[$2] { end[$2] = $4 }
    { app[$2] = $3 }
    END { for (p in mid) if (p in end) printf "%d %s %s %d %d\n", end[p] - mid[p], p, app[p], mid[p], end[p] }' \
    "$WORK/memory.tsv" | sort -rn)
largest=$(head -n 1 <<<"$growth" | cut -d' ' -f1)
largest=${largest:-0}
backends=$(grep -c . <<<"$growth")
figure="$backends backends, largest ${largest} kB"
check "no backend's private memory grew by more than $MEMORY_KB kB after the warm-up ($figure)" \
    "$([ "$backends" -gt 0 ] && [ "$largest" -le "$MEMORY_KB" ]; echo $?)" "$(head -n 5 <<<"$growth")"

# The figures.
latencies=$(cat "$WORK"/log_refresh.* 2>/dev/null | awk '$3 ~ /^[0-9]+$/ { print $3 / 1000 }' | sort -n)
# count WORKER: the transactions the worker completed.
count() { cat "$WORK/log_$1".* 2>/dev/null | awk '$3 ~ /^[0-9]+$/' | wc -l; }
# pct P: the P-th percentile of the refresh latencies (ms), nearest rank.
pct() {
    awk -v p="$1" '{ v[NR] = $1 }
        END { if (NR) { i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; printf "%.0f", v[i] } else print "-" }' \
        <<<"$latencies"
}
printf 'load figures: %.1f refreshes/s, %.1f reads/s, refresh p50 %s ms p99 %s ms, %.1f writes/s, %d publish+drop cycles, %d anon-maintain runs, memory growth at most %d kB (%d backends), %d error lines, %d s\n' \
    "$(awk -v n="$(count refresh)" -v s="$SECONDS_LOAD" 'BEGIN { print n / s }')" \
    "$(awk -v n="$(count read)" -v s="$SECONDS_LOAD" 'BEGIN { print n / s }')" "$(pct 50)" "$(pct 99)" \
    "$(awk -v n="$(count write)" -v s="$SECONDS_LOAD" 'BEGIN { print n / s }')" "$(count publish)" \
    "$maintain_runs" "$largest" "$backends" "$errors" "$elapsed"
finish
