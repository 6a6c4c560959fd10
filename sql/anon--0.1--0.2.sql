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
