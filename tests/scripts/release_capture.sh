# shellcheck shell=bash
# tests/scripts/release_capture.sh: sourced by settings_test.sh and release_fingerprints.sh, which replay the
# regression files and fingerprint every release they publish. Defines:
#   fixed ARGS...                 psql with fixed, canonical settings (PGOPTIONS cleared), for set-up and fingerprints;
#   CAPTURE_SQL                   the schema release_capture, which fingerprints release relations (below);
#   replay_regression_files NAME OPTIONS [SQL]
#                                 every tests/regress/sql/*.sql file into a fresh contrib_regression on the server in
#                                 PGHOST/PGPORT/PGUSER, fingerprinted; writes $WORK/NAME.tsv (the caller sets WORK).
# Run from the repository root (the files \copy data/ by relative paths).

REGRESS_DB=contrib_regression  # the files \c back to this name

# psql with fixed, canonical settings (PGOPTIONS cleared), for set-up and fingerprints.
fixed() { PGOPTIONS="-c DateStyle=ISO,\\ MDY -c TimeZone=UTC -c IntervalStyle=postgres -c extra_float_digits=1 -c bytea_output=hex -c max_parallel_workers_per_gather=0 -c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 "$@"; }

# Fingerprints, in a schema of their own: capture(step) records every existing release relation (generalized view,
# QIT, ST) with its row count, the md5 of its rows in physical order and sorted, its columns (names and types) and
# its release's row of anon.release without what differs from run to run (the timestamps created_at and
# refreshed_at, the report's timings ms, read_ms, search_ms and republication_ms, its accounted memory peak_bytes,
# which follows the search's caches, not the release, and Incognito's nodes_evaluated and minimal_nodes, which count
# the search's work: the nodes it grouped and those it proved minimal), all printed under fixed settings. An event trigger
# also records each release relation when a CREATE or REFRESH MATERIALIZED VIEW of it ends (most regression files
# drop their releases before they end), under the step named by the release_capture.step setting.
CAPTURE_SQL=$(cat <<'SQL'
CREATE SCHEMA IF NOT EXISTS release_capture;
CREATE TABLE IF NOT EXISTS release_capture.fingerprint (seq serial, step text, relation text, rows bigint,
                                                        physical text, sorted text, columns text, catalog jsonb);
CREATE OR REPLACE FUNCTION release_capture.columns(rel regclass) RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog AS $$
    SELECT string_agg(format('%I %s', attname, format_type(atttypid, atttypmod)), ', ' ORDER BY attnum)
    FROM pg_attribute WHERE attrelid = rel AND attnum > 0 AND NOT attisdropped
$$;
CREATE OR REPLACE FUNCTION release_capture.catalog_row(rel regclass) RETURNS jsonb LANGUAGE sql STABLE
SET search_path = pg_catalog AS $$
    SELECT to_jsonb(r) - '{created_at,refreshed_at}'::text[]
           || jsonb_build_object('report', r.report - '{ms,check_ms,read_ms,search_ms,republication_ms,peak_bytes,'
                                                      'nodes_evaluated,minimal_nodes}'::text[])
    FROM anon.release r, pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = rel AND r.output_schema = n.nspname
      AND c.relname IN (r.output_name, r.output_name || '_qit', r.output_name || '_st')
    ORDER BY c.relname = r.output_name DESC, r.output_name LIMIT 1
$$;
CREATE OR REPLACE FUNCTION release_capture.record(step text, rel regclass) RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog SET DateStyle = 'ISO, MDY' SET TimeZone = 'UTC' SET IntervalStyle = 'postgres'
SET extra_float_digits = 1 SET bytea_output = 'hex' SET max_parallel_workers_per_gather = 0 AS $$
BEGIN
    EXECUTE format('INSERT INTO release_capture.fingerprint (step, relation, rows, physical, sorted, columns, catalog) '
                   'SELECT %L, %L, count(*), md5(string_agg(t::text, E''\n'')), '
                   'md5(string_agg(t::text, E''\n'' ORDER BY t::text COLLATE "C")), %L, %L FROM %s t', step, rel,
                   release_capture.columns(rel), release_capture.catalog_row(rel), rel);
END $$;
CREATE OR REPLACE FUNCTION release_capture.capture(step text) RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog AS $$
DECLARE rel regclass;
BEGIN
    IF to_regclass('anon.release') IS NULL THEN RETURN; END IF;
    FOR rel IN SELECT to_regclass(format('%I.%I', r.output_schema, r.output_name || s.suffix))
               FROM anon.release r, unnest(ARRAY['', '_qit', '_st']) s(suffix)
               WHERE to_regclass(format('%I.%I', r.output_schema, r.output_name || s.suffix)) IS NOT NULL
               ORDER BY r.output_schema, r.output_name, s.suffix LOOP
        PERFORM release_capture.record(step, rel);
    END LOOP;
END $$;
CREATE OR REPLACE FUNCTION release_capture.on_matview() RETURNS event_trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog AS $$
DECLARE c record;
BEGIN
    FOR c IN SELECT e.objid::regclass AS rel, n.nspname, cl.relname
             FROM pg_event_trigger_ddl_commands() e JOIN pg_class cl ON cl.oid = e.objid
             JOIN pg_namespace n ON n.oid = cl.relnamespace WHERE e.classid = 'pg_class'::regclass LOOP
        IF EXISTS (SELECT 1 FROM anon.release r WHERE r.output_schema = c.nspname
                   AND c.relname IN (r.output_name, r.output_name || '_qit', r.output_name || '_st')) THEN
            PERFORM release_capture.record(coalesce(current_setting('release_capture.step', true), '') || ' ' ||
                                           lower(tg_tag), c.rel);
        END IF;
    END LOOP;
END $$;
DROP EVENT TRIGGER IF EXISTS release_capture;
CREATE EVENT TRIGGER release_capture ON ddl_command_end
WHEN TAG IN ('CREATE MATERIALIZED VIEW', 'REFRESH MATERIALIZED VIEW') EXECUTE FUNCTION release_capture.on_matview();
SQL
)

# The columns of $WORK/NAME.tsv, one line per fingerprint in the order taken: step ("<file> create materialized
# view", "<file> refresh materialized view" or "<file> end"), relation, rows, md5 of the rows in physical order, md5
# of the rows sorted, md5 of the columns, md5 of the catalog row, then the release's source, model and algorithm
# (the one its report names, after "auto:" when the call asked for auto).
FINGERPRINT_COLUMNS="step, relation, rows, physical, sorted, md5(columns), md5(catalog::text), catalog->>'source',
                     catalog->>'model', CASE catalog->>'algorithm' WHEN 'auto' THEN 'auto:' ELSE '' END
                     || coalesce(catalog->'report'->>'algorithm', catalog->>'algorithm')"

# replay_regression_files NAME OPTIONS [SQL]: the regression files into a fresh contrib_regression (set up with SQL,
# if given, after CREATE EXTENSION anon), each run by psql as pg_regress does (output in $WORK/NAME.<file>.out) with
# the libpq options OPTIONS, every release present fingerprinted after each file; writes $WORK/NAME.tsv.
replay_regression_files() {
    local name=$1 options=$2 setup=${3:-SELECT 1} file step
    dropdb --if-exists "$REGRESS_DB" 2>/dev/null
    createdb -T template0 "$REGRESS_DB" || return 1
    fixed -d "$REGRESS_DB" -c "CREATE EXTENSION anon" -c "$CAPTURE_SQL" -c "$setup" >/dev/null || return 1
    for file in tests/regress/sql/*.sql; do
        step=$(basename "$file" .sql)
        PGOPTIONS="$options -c release_capture.step=$step" psql -X -a -q -d "$REGRESS_DB" <"$file" \
            >"$WORK/$name.$step.out" 2>&1
        fixed -d "$REGRESS_DB" -c "SELECT release_capture.capture('$step end')" >/dev/null || return 1
    done
    fixed -d "$REGRESS_DB" -At -F $'\t' -c "SELECT $FINGERPRINT_COLUMNS FROM release_capture.fingerprint ORDER BY seq" \
        >"$WORK/$name.tsv" || return 1
    dropdb "$REGRESS_DB"
}
