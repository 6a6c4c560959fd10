-- anon 0.1 -> 0.2. Version 0.1 (anon--0.1.sql) is the first released version and is never edited again: every
-- later change to the SQL surface goes into an upgrade script like this one, so `ALTER EXTENSION anon UPDATE`
-- brings an installed 0.1, with its taxonomies and releases, to the current version. A fresh
-- `CREATE EXTENSION anon` runs anon--0.1.sql and then this script.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.2'" to load this file. \quit

-- ---- anon.equivalence_classes reports induced frequencies (issue 4) ------------------------------------------
-- One row per equivalence class of a table or view: QI values, size, distinct sensitive values, entropy (natural
-- log), the most frequent sensitive value's share, and (one sensitive column) the induced frequencies of its base
-- values, dominant first: published general values of the sensitive taxonomy spread over the leaves under them.
DROP FUNCTION anon.equivalence_classes(regclass, text[], text[]);
CREATE FUNCTION anon.equivalence_classes(relation regclass, quasi_identifiers text[], sensitive text[],
                                         params jsonb DEFAULT '{}')
RETURNS TABLE (qi text[], size bigint, distinct_sensitive int, entropy double precision, max_share double precision,
               induced_frequencies jsonb)
AS 'MODULE_PATHNAME', 'anon_equivalence_classes'
LANGUAGE C VOLATILE;

-- ---- anon.covers: the root of an interval taxonomy covers only numbers inside its range ---------------------
-- True when `general` is `value` or one of its ancestors in the taxonomy (for interval taxonomies: when the
-- numeric value lies in the interval, the root "*" standing for [lower, upper)). Written in SQL on purpose: tests
-- use it to check releases independently of the C++ code that made them.
CREATE OR REPLACE FUNCTION anon.covers(taxonomy text, general text, value text)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon
AS $$
    WITH RECURSIVE t AS (SELECT kind, lower, upper FROM anon.taxonomy WHERE name = $1),
    up(v) AS (
        SELECT $3
        UNION
        SELECT n.parent FROM up JOIN anon.taxonomy_node n ON n.taxonomy = $1 AND n.value = up.v
        WHERE n.parent IS NOT NULL
    )
    SELECT CASE
        WHEN $2 IS NOT DISTINCT FROM $3 THEN true
        WHEN (SELECT kind FROM t) = 'interval' THEN
            CASE WHEN $3 IS NULL THEN $2 = '*'
                 WHEN $3 !~ '^-?[0-9.eE+-]+$' THEN false
                 WHEN $2 = '*' THEN $3::numeric >= (SELECT lower FROM t) AND $3::numeric < (SELECT upper FROM t)
                 ELSE $2 ~ '^\[[^,]+,[^)]+\)$' AND
                      $3::numeric >= split_part(substr($2, 2), ',', 1)::numeric AND
                      $3::numeric < rtrim(split_part($2, ',', 2), ')')::numeric
            END
        ELSE EXISTS (SELECT 1 FROM up WHERE up.v = $2)
    END
$$;

-- Operations: refreshing releases whose source changed ----------------------------------------------------------

-- The fingerprint of the input a release was last computed from (its frequency set by value, with the
-- taxonomies), stored by every computation of the release; NULL until the first one under this version.
ALTER TABLE anon.release ADD COLUMN source_fingerprint text;

-- The fingerprint of a release's current input: one aggregation pass over its source, no algorithm run.
CREATE FUNCTION anon._source_fingerprint(output text)
RETURNS text
AS 'MODULE_PATHNAME', 'anon_source_fingerprint'
LANGUAGE C VOLATILE STRICT;

-- Refreshes one release if its input changed since it was last computed (new, changed or deleted rows in the
-- QI, sensitive or individual columns, or a changed taxonomy), then re-verifies its generalized view with
-- anon.verify against its model, class by class (gid). A failed refresh (e.g. the new data cannot satisfy the
-- model) leaves the previous release in place and is reported, not raised: satisfied is false and detail says
-- why. `output` is the quoted, schema-qualified name (anon.refresh_if_changed resolves other spellings).
CREATE FUNCTION anon._refresh_release(output text)
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text)
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, anon
AS $$
DECLARE
    r anon.release;
    checked_model text;
    v jsonb;
BEGIN
    SELECT * INTO r FROM anon.release x WHERE pg_catalog.format('%I.%I', x.output_schema, x.output_name) = output;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'invalid output: expected a release, found "%", which is not one', output
            USING ERRCODE = 'undefined_object';
    END IF;
    release := pg_catalog.format('%I.%I', r.output_schema, r.output_name);
    refreshed := false;
    satisfied := false;
    BEGIN
        changed := r.source_fingerprint IS DISTINCT FROM anon._source_fingerprint(release);
        IF changed THEN
            PERFORM anon.refresh(release);
            refreshed := true;
            SELECT * INTO r FROM anon.release x WHERE (x.output_schema, x.output_name) = (r.output_schema, r.output_name);
        END IF;
        IF coalesce(r.params->>'publish', 'generalized') = 'bucketized' THEN
            -- No generalized view to audit: the refresh's own checks passed (it would have failed otherwise).
            satisfied := r.report IS NOT NULL;
            detail := 'bucketized release: checked by its last computation';
        ELSE
            -- Groups of BSGI that took residual tuples are checked as distinct l-diversity, as the job does.
            checked_model := CASE WHEN r.model = 'unique-distinct-l-diversity'
                                       AND coalesce((r.report->>'residuals')::bigint, 0) > 0
                                  THEN 'distinct-l-diversity' ELSE r.model END;
            -- The published classes are the gid values (local recoding may publish equal QI values in two
            -- classes); the QI taxonomies do not matter then, the sensitive ones do (value sets, tau).
            v := anon.verify(release::regclass, '{gid}', r.sensitive, checked_model,
                             (r.params - 'taxonomies') || jsonb_build_object('taxonomies',
                                 (SELECT coalesce(jsonb_object_agg(t.key, t.value), '{}') FROM
                                  jsonb_each(coalesce(r.params->'taxonomies', '{}')) t WHERE t.key = ANY (r.sensitive))));
            satisfied := (v->>'satisfied')::boolean;
            detail := pg_catalog.format('%s of %s classes (%s rows) violate %s', v->>'violating_classes',
                                        v->>'classes', v->>'violating_rows', checked_model);
        END IF;
    EXCEPTION WHEN query_canceled THEN
        RAISE;
    WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS detail = MESSAGE_TEXT;
        satisfied := false;
        detail := CASE WHEN refreshed THEN 'verification failed: ' ELSE 'refresh failed: ' END || detail;
        refreshed := false;
    END;
    RETURN NEXT;
END
$$;

-- _refresh_release for the release named `output`: schema-qualified, or found on the caller's search_path like
-- anon.refresh finds it (hence no SET search_path here, and everything schema-qualified instead).
CREATE FUNCTION anon.refresh_if_changed(output text)
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text)
LANGUAGE sql VOLATILE STRICT
AS $$
    SELECT f.* FROM anon._refresh_release(coalesce(
        (SELECT pg_catalog.format('%I.%I', r.output_schema, r.output_name)
         FROM anon.release r
         LEFT JOIN pg_catalog.unnest(pg_catalog.current_schemas(false)) WITH ORDINALITY AS p(nsp, pos)
                ON p.nsp OPERATOR(pg_catalog.=) r.output_schema
         WHERE pg_catalog.format('%I.%I', r.output_schema, r.output_name) OPERATOR(pg_catalog.=) output
            OR (pg_catalog.quote_ident(r.output_name) OPERATOR(pg_catalog.=) output AND p.pos IS NOT NULL)
         ORDER BY p.pos NULLS FIRST LIMIT 1),
        output)) f
$$;

-- _refresh_release for every release the caller sees, in one transaction; one row per release.
CREATE FUNCTION anon.refresh_report()
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text)
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, anon
AS $$
    SELECT f.* FROM anon.release r,
           LATERAL anon._refresh_release(pg_catalog.format('%I.%I', r.output_schema, r.output_name)) f
    ORDER BY r.output_schema, r.output_name
$$;

-- _refresh_release for every release the caller sees, committing after each one (call it outside an explicit
-- transaction block), with a NOTICE per release. Returns how many were refreshed and the releases that no longer
-- satisfy their model (or could not be refreshed or verified). A procedure that commits cannot have a SET clause,
-- so everything here is schema-qualified instead.
CREATE PROCEDURE anon.refresh_all(INOUT refreshed integer DEFAULT NULL, INOUT unsatisfied text[] DEFAULT NULL)
LANGUAGE plpgsql
AS $$
DECLARE
    rel record;
    f record;
BEGIN
    refreshed := 0;
    unsatisfied := '{}';
    FOR rel IN SELECT pg_catalog.format('%I.%I', output_schema, output_name) AS name FROM anon.release
               ORDER BY output_schema, output_name LOOP
        SELECT * INTO f FROM anon._refresh_release(rel.name);
        IF f.refreshed THEN
            refreshed := refreshed OPERATOR(pg_catalog.+) 1;
        END IF;
        IF NOT f.satisfied THEN
            unsatisfied := pg_catalog.array_append(unsatisfied, f.release);
        END IF;
        RAISE NOTICE 'anon.refresh_all: % %, %: %', f.release,
            CASE WHEN f.refreshed THEN 'refreshed' WHEN f.changed THEN 'changed' ELSE 'unchanged' END,
            CASE WHEN f.satisfied THEN 'satisfied' ELSE 'NOT SATISFIED' END, f.detail;
        COMMIT;
    END LOOP;
END
$$;

-- Functional (tau, l)-diversity: excessive protection of any release -------------------------------------------

-- e(P) (Def. 35 of Tian & Zhang) of a release of this extension against a (tau, l)-diversity requirement, for
-- releases made by any model (e.g. incognito with the weakest stronger (c, l), compared with SWEEP).
CREATE FUNCTION anon.excessive_protection(output text, tau double precision, l int)
RETURNS double precision
AS 'MODULE_PATHNAME', 'anon_excessive_protection'
LANGUAGE C VOLATILE;
