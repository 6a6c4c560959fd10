#!/usr/bin/env bash
# tests/scripts/random_calls_test.sh: every SQL function of the extension called with random arguments (issue 14).
# A seeded generator (in SQL, setseed) writes calls of every function and procedure of schema anon, round robin,
# with arguments drawn per type: NULLs, empty and huge arrays, random jsonb (deep nesting, huge and negative
# numbers, wrong types, the parameters the models and algorithms read), names of relations that exist or not and of
# other kinds (views, sequences, partitioned tables, materialized views, releases), hostile names, extreme numbers
# and dates. psql runs them one by one (statement_timeout 10 s, errors do not stop it). Checks:
#   - the backend never crashes (the connection survives every call, the server log has no crash);
#   - every call returns or raises a clear error: no internal error (SQLSTATE XX...), no timeout;
#   - nothing is left behind: every relation the run created belongs to a release in anon.release, and every
#     release's objects exist.
# Prints calls made, calls per second and the distinct error messages seen. ANON_RANDOM_SEED and
# ANON_RANDOM_CALLS change the seed (default 20261123) and the number of calls (default 10000). Needs the extension
# installed and a server in PGHOST/PGPORT/PGUSER (as scripts/test.sh provides); without PGHOST it starts a throwaway
# cluster with scripts/cluster.sh. Works in its own database, dropped at the end.
# The last line is "random_calls: N passed, M failed"; the exit status is non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if [ -z "${PGHOST:-}" ]; then
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    cluster_start >/dev/null || { echo "random_calls: 0 passed, 1 failed"; exit 1; }
fi
DB=anon_random_calls_test
SEED=${ANON_RANDOM_SEED:-20261123}
CALLS=${ANON_RANDOM_CALLS:-10000}
WORK=$(mktemp -d /tmp/anon-random-calls.XXXXXX)
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
sql() { psql -X -At -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
cleanup() {
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
    [ -n "${ANON_KEEP_WORK:-}" ] && cp -r "$WORK" /tmp/rc_work; rm -rf "$WORK"
}
trap 'cleanup; type cluster_stop >/dev/null 2>&1 && cluster_stop' EXIT

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
psql -X -q -d postgres -c "CREATE DATABASE $DB" >/dev/null || { echo "random_calls: 0 passed, 1 failed"; exit 1; }

# Fixtures: a source with a taxonomy per QI, relations of other kinds, a published release.
sql >/dev/null <<'SQL' || { echo "FAILED: fixtures"; echo "random_calls: 0 passed, 1 failed"; exit 1; }
CREATE EXTENSION anon;
CREATE TABLE people (id int PRIMARY KEY, town text, age int, born date, illness text);
INSERT INTO people SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], 20 + i % 50,
       date '1950-01-01' + i * 97, (ARRAY['flu','cold','asthma'])[i % 3 + 1]
FROM generate_series(1, 200) i;
CREATE TABLE town_levels (leaf text, region text, root text);
INSERT INTO town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('town', 'town_levels');
SELECT anon.interval_taxonomy('age', 0, 100, '{10,50}');
CREATE VIEW people_v AS SELECT * FROM people;
CREATE MATERIALIZED VIEW people_m AS SELECT * FROM people;
CREATE SEQUENCE seq1;
CREATE TABLE parted (id int, town text, age int, illness text) PARTITION BY RANGE (id);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM (0) TO (100);
CREATE TABLE parted_2 PARTITION OF parted FOR VALUES FROM (100) TO (1000);
INSERT INTO parted SELECT id, town, age, illness FROM people;
CREATE TABLE "Weird ""name""" (id int, town text, age int, illness text);
SELECT anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 2}', 'incognito', 'rel1');
SQL
before=$(sql -c "SELECT string_agg(c.oid::text, ',' ORDER BY c.oid) FROM pg_class c
                 WHERE c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace,
                                              'pg_toast'::regnamespace)")

# The generator: random literals per argument type, one call per line.
sql -c "SELECT setseed(1.0 / (1 + $SEED % 1000003))" >/dev/null
sql >"$WORK/calls.sql" <<SQL
CREATE FUNCTION pg_temp.pick(variadic choices text[]) RETURNS text LANGUAGE sql VOLATILE AS
\$\$ SELECT choices[1 + floor(random() * array_length(choices, 1))::int] \$\$;
CREATE FUNCTION pg_temp.random_json(depth int) RETURNS text LANGUAGE plpgsql VOLATILE AS \$\$
DECLARE
    keys constant text[] := '{k,l,c,t,m,tau,dont_care,negative_disclosure,sensitive_values,distance,metric,
        max_suppression,seed,exact,ranges,recoding,importance,k_algorithm,taxonomies,keep,keep_identifying,publish,
        nulls,replace,individual,x}';
    out text := '{';
BEGIN
    FOR i IN 1 .. 1 + floor(random() * 3)::int LOOP
        out := out || CASE WHEN i > 1 THEN ', ' ELSE '' END || to_jsonb(keys[1 + floor(random() * 26)::int])::text
               || ': ' || CASE WHEN depth > 0 AND random() < 0.2 THEN pg_temp.random_json(depth - 1)
                               ELSE pg_temp.pick('2', '3', '0', '-1', '0.5', '1e308', '-1e308', '1e-320',
                                   '123456789012345678901234567890', 'true', 'null', '"local"', '"global"', '"tight"',
                                   '"typed"', '"both"', '"bucketized"', '"value"', '"x"', '""', '[]', '["id"]',
                                   '["town", "age"]', '{"town": "town"}', '{"town": "nope"}', '[1, [2, [3]]]') END;
    END LOOP;
    RETURN out || '}';
END \$\$;
CREATE FUNCTION pg_temp.random_value(t regtype) RETURNS text LANGUAGE plpgsql VOLATILE AS \$\$
BEGIN
    IF random() < 0.12 THEN RETURN 'NULL'; END IF;
    RETURN CASE t
        WHEN 'text'::regtype THEN pg_temp.pick('''people''', '''people_v''', '''people_m''', '''seq1''', '''parted''',
            '''nope''', '''public.people''', '''rel1''', '''rel2''', '''""Weird """"name"""""''', '''''',
            'repeat(''x'', 100000)', '''town''', '''age''', '''illness''', '''k-anonymity''',
            '''distinct-l-diversity''', '''t-closeness''', '''tau-l-diversity''', '''auto''', '''incognito''',
            '''refine''', '''bsgi''', '''mask''', '''; DROP TABLE people; --''', '''pg_class''', '''Prof-specialty''',
            '''a1''', '''*''', E'''\\\\x00''')
        WHEN 'regclass'::regtype THEN pg_temp.pick('''people''::regclass', '''people_v''::regclass',
            '''people_m''::regclass', '''seq1''::regclass', '''parted''::regclass', '''parted_1''::regclass',
            '''rel1''::regclass', '''town_levels''::regclass', '''pg_class''::regclass', '''nope''::regclass',
            '''"Weird ""name"""''::regclass', '''anon.release''::regclass')
        WHEN 'text[]'::regtype THEN pg_temp.pick('''{}''', '''{town}''', '''{town,age}''', '''{illness}''',
            '''{town,age,illness}''', '''{nope}''', '''{NULL}''', '''{town,town}''', '''{id}''', '''{born}''',
            '(SELECT array_agg(i::text) FROM generate_series(1, 5000) i)', '''{a1,b2}''', '''{flu}''')
        WHEN 'jsonb'::regtype THEN pg_temp.pick(quote_literal(pg_temp.random_json(2)),
            quote_literal(pg_temp.random_json(4)), '''{}''', '''[1, 2]''', '''"s"''', '''42''',
            '(repeat(''['', 3000) || repeat('']'', 3000))::jsonb', quote_literal('{"k": ' || repeat('9', 400) || '}'))
        WHEN 'integer'::regtype THEN pg_temp.pick('0', '1', '2', '3', '-1', '2147483647', '-2147483648', '1000000')
        WHEN 'bigint'::regtype THEN pg_temp.pick('0', '1', '3', '-1', '9223372036854775807')
        WHEN 'double precision'::regtype THEN pg_temp.pick('0', '0.2', '1', '-1', '1e308', '''NaN''', '''Infinity''')
        WHEN 'numeric'::regtype THEN pg_temp.pick('0', '0.5', '-3', '1e100', '''NaN''')
        WHEN 'boolean'::regtype THEN pg_temp.pick('true', 'false')
        WHEN 'date'::regtype THEN pg_temp.pick('''2020-01-01''', '''infinity''', '''4713-01-01 BC''', '''9999-12-31''')
        ELSE 'NULL' END;
END \$\$;
WITH fns AS (
    SELECT row_number() OVER (ORDER BY p.proname, p.oid) - 1 AS i, count(*) OVER () AS n, p.proname, p.prokind,
           p.proargtypes::regtype[] AS types, p.pronargs
    FROM pg_proc p
    WHERE p.pronamespace = 'anon'::regnamespace
      AND p.prorettype NOT IN ('trigger'::regtype, 'event_trigger'::regtype))
SELECT format('\echo CALL %s %s', c, f.proname) || E'\n' ||
       CASE f.prokind WHEN 'p' THEN 'CALL' ELSE 'SELECT' END || ' anon.' || quote_ident(f.proname) || '(' ||
       coalesce((SELECT string_agg(CASE WHEN f.types[a]::text LIKE 'any%'
                                        THEN pg_temp.pick('1', '''a''::text', 'now()', 'NULL::int', '''{1}''::int[]')
                                        ELSE '(' || pg_temp.random_value(f.types[a]) || ')::' || f.types[a]::text END,
                                   ', ' ORDER BY a)
                 FROM generate_series(0, f.pronargs - 1) a), '') || ');'
FROM generate_series(0, $CALLS - 1) c JOIN fns f ON f.i = c % f.n
ORDER BY c;
SQL
functions=$(sql -c "SELECT count(*) FROM pg_proc WHERE pronamespace = 'anon'::regnamespace
                    AND prorettype NOT IN ('trigger'::regtype, 'event_trigger'::regtype)")
made=$(grep -c '^\\echo CALL' "$WORK/calls.sql")

start=$(date +%s%N)
{
    echo "SET statement_timeout = '10s';"
    echo "\\set VERBOSITY verbose"
    cat "$WORK/calls.sql"
} | psql -X -q -v ON_ERROR_STOP=0 -d "$DB" >"$WORK/out.log" 2>&1
status=$?
seconds=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')

check "the connection survived every call (psql status $status)" "$([ "$status" -le 1 ] && echo 0 || echo 1)" \
    "$(grep -m1 -B2 'server closed the connection' "$WORK/out.log" | head -3)"
crash=0
if [ -n "${PGHOST:-}" ] && [ -f "$PGHOST/postgres.log" ] &&
   grep -q 'terminated by signal\|was terminated by exception' "$PGHOST/postgres.log"; then
    crash=1
fi
check "no backend crashed (server log)" "$crash" "see the server log"
check "the server answers after the run" "$(sql -c 'SELECT 1' >/dev/null 2>&1; echo $?)" "no answer"

# The call each error belongs to: the last CALL line echoed before it.
awk '/^CALL [0-9]+ /{call=$3; next} /^(psql:.*)?ERROR:/{sub(/^psql:[^:]*:[0-9]+: /, ""); print call "\t" $0}' \
    "$WORK/out.log" >"$WORK/errors.tsv"
internal=$(awk -F'\t' '$2 ~ /^ERROR:  XX/' "$WORK/errors.tsv")
check "no internal error (SQLSTATE XX...)" "$([ -z "$internal" ] && echo 0 || echo 1)" "$(echo "$internal" | head -5)"
timeouts=$(grep -c 'canceling statement due to statement timeout' "$WORK/errors.tsv")
check "no call ran into the 10 s statement timeout" "$([ "$timeouts" -eq 0 ] && echo 0 || echo 1)" \
    "$(grep 'statement timeout' "$WORK/errors.tsv" | cut -f1 | sort | uniq -c | head -5)"

# Nothing left behind: relations created by the run belong to releases; every release has its objects.
stray=$(sql -c "SELECT string_agg(c.oid::regclass::text, ' ') FROM pg_class c
                WHERE c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace,
                                             'pg_toast'::regnamespace)
                  AND c.relkind IN ('r', 'v', 'm', 'p', 'S', 'f')
                  AND NOT (c.oid = ANY ('{$before}'::oid[]))
                  AND NOT EXISTS (SELECT 1 FROM anon.release r
                                  WHERE r.output_schema = c.relnamespace::regnamespace::text
                                    AND c.relname IN (r.output_name, r.output_name || '_qit',
                                                      r.output_name || '_st'))")
check "every relation the run created belongs to a release" "$([ -z "$stray" ] && echo 0 || echo 1)" "$stray"
missing=$(sql -c "SELECT string_agg(output_name, ' ') FROM anon.release r
                  WHERE to_regclass(format('%I.%I', r.output_schema, r.output_name)) IS NULL
                    AND to_regclass(format('%I.%I', r.output_schema, r.output_name || '_qit')) IS NULL")
check "every release in the catalog has its objects" "$([ -z "$missing" ] && echo 0 || echo 1)" "$missing"

distinct=$(cut -f2 "$WORK/errors.tsv" | sed -E "s/\"[^\"]*\"/\"…\"/g; s/[0-9]+(\.[0-9]+)?/N/g" | sort -u | wc -l)
printf 'random calls: %s calls of %s functions in %.1f s (%.0f calls/s), %s errors, %s distinct messages\n' \
    "$made" "$functions" "$seconds" "$(awk -v n="$made" -v s="$seconds" 'BEGIN { print n / s }')" "$(wc -l <"$WORK/errors.tsv")" "$distinct"
report_checks "random_calls"
