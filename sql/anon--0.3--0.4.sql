-- anon 0.3 -> 0.4. Versions 0.1 to 0.3 are released and their scripts are never edited again; `CREATE EXTENSION
-- anon` runs anon--0.1.sql and the upgrade scripts in turn, and `ALTER EXTENSION anon UPDATE` brings an installed
-- earlier version, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.4'" to load this file. \quit

-- Hierarchy builders and typed ranges (issue 15) ---------------------------------------------------------------

-- Two more kinds of taxonomy: 'ranges', explicit "[a,b)" nodes under "*" (anon.quantile_taxonomy; lower and upper
-- hold the outer bounds, and a column's numbers become leaves under their finest interval when a job reads them),
-- and 'date', days in ISO form under coarser levels (anon.date_taxonomy; a timestamp's value becomes a leaf under
-- its day, a timestamptz's under its UTC day, when a job reads it).
ALTER TABLE anon.taxonomy DROP CONSTRAINT taxonomy_kind_check;
ALTER TABLE anon.taxonomy ADD CONSTRAINT taxonomy_kind_check CHECK (kind IN ('tree', 'interval', 'ranges', 'date'));
-- Bottom and top coding of an interval taxonomy: values below lower go under '<lower', values from upper on under
-- '>=upper', and at every coarser level the first and last intervals are open ('<10', '>=90').
ALTER TABLE anon.taxonomy ADD COLUMN coded boolean NOT NULL DEFAULT false;

-- Every builder takes `replace boolean DEFAULT false`: true rewrites an existing taxonomy of the caller's in place
-- (the releases that use it keep it, and use the new nodes at their next refresh).
DROP FUNCTION anon.taxonomy_from_levels(text, regclass);
CREATE FUNCTION anon.taxonomy_from_levels(name text, levels regclass, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_levels'
LANGUAGE C VOLATILE;

-- Nested intervals for a numeric column: widths {5,10,20} gives 5-, 10- and 20-wide ranges and a root '*'; widths
-- may be fractional ({0.5,1}), each a whole multiple (at least twice) of the previous one. coding => true: values
-- outside [lower, upper) are generalized into '<lower' / '>=upper' instead of stopping a job.
DROP FUNCTION anon.interval_taxonomy(text, numeric, numeric, int[]);
CREATE FUNCTION anon.interval_taxonomy(name text, lower numeric, upper numeric, widths numeric[],
                                       replace boolean DEFAULT false, coding boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_interval_taxonomy'
LANGUAGE C VOLATILE;

-- Days from lower to upper in ISO form (2023-05-17, whatever the session's DateStyle) under the given levels, finest
-- first (week, month, quarter, year, decade, century), and '*'. For date, timestamp and timestamptz columns.
CREATE FUNCTION anon.date_taxonomy(name text, lower date, upper date, levels text[] DEFAULT '{month,year,decade}',
                                   replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_date_taxonomy'
LANGUAGE C VOLATILE;

-- A masking hierarchy over a column's distinct values: each level masks `step` more characters from the right
-- (12345 -> 1234* -> 123** -> ... -> *).
CREATE FUNCTION anon.prefix_taxonomy(name text, source regclass, column_name text, step int DEFAULT 1,
                                     replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_prefix_taxonomy'
LANGUAGE C VOLATILE;

-- Nested intervals whose bounds are a numeric column's quantiles: bins[1] intervals of about equal row counts,
-- merged into bins[2], ... (finest first, decreasing), and '*'.
CREATE FUNCTION anon.quantile_taxonomy(name text, source regclass, column_name text, bins int[] DEFAULT '{16,8,4,2}',
                                       replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_quantile_taxonomy'
LANGUAGE C VOLATILE;

-- A taxonomy from (value, parent) rows: the first two columns of `pairs`; a NULL parent, or a parent never listed
-- as a value, is the root.
CREATE FUNCTION anon.taxonomy_from_pairs(name text, pairs regclass, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_pairs'
LANGUAGE C VOLATILE;

-- ---- anon.covers: also for 'ranges' taxonomies (like interval ones), coded intervals and 'date' taxonomies -------
-- True when `general` is `value` or one of its ancestors in the taxonomy (for interval and ranges taxonomies: when
-- the numeric value lies in the interval, '<x' and '>=x' being open intervals and the root "*" standing for
-- [lower, upper), or for every number when the taxonomy is coded; for date taxonomies a value
-- that is no node is looked up by its first ten characters, its day). Written in SQL on purpose: tests use it to
-- check releases independently of the C++ code that made them.
CREATE OR REPLACE FUNCTION anon.covers(taxonomy text, general text, value text)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon
AS $$
    WITH RECURSIVE t AS (SELECT kind, lower, upper, coded FROM anon.taxonomy WHERE name = $1),
    up(v) AS (
        SELECT CASE WHEN (SELECT kind FROM t) = 'date' AND length($3) > 10 AND $3 !~ ' BC$'
                         AND NOT EXISTS (SELECT 1 FROM anon.taxonomy_node n WHERE n.taxonomy = $1 AND n.value = $3)
                    THEN left($3, 10) ELSE $3 END
        UNION
        SELECT n.parent FROM up JOIN anon.taxonomy_node n ON n.taxonomy = $1 AND n.value = up.v
        WHERE n.parent IS NOT NULL
    )
    SELECT CASE
        WHEN $2 IS NOT DISTINCT FROM $3 THEN true
        WHEN (SELECT kind FROM t) IN ('interval', 'ranges') THEN
            CASE WHEN $3 IS NULL THEN $2 = '*'
                 WHEN $3 !~ '^-?[0-9.eE+-]+$' THEN false
                 WHEN $2 = '*' THEN (SELECT coded FROM t) OR
                                    ($3::numeric >= (SELECT lower FROM t) AND $3::numeric < (SELECT upper FROM t))
                 WHEN $2 ~ '^<' THEN $3::numeric < substr($2, 2)::numeric
                 WHEN $2 ~ '^>=' THEN $3::numeric >= substr($2, 3)::numeric
                 ELSE $2 ~ '^\[[^,]+,[^)]+\)$' AND
                      $3::numeric >= split_part(substr($2, 2), ',', 1)::numeric AND
                      $3::numeric < rtrim(split_part($2, ',', 2), ')')::numeric
            END
        ELSE EXISTS (SELECT 1 FROM up WHERE up.v = $2)
    END
$$;

-- Declared columns, risk figures and the solution space (issue 15) -----------------------------------------------

-- Publishing (issue 19) -------------------------------------------------------------------------------------------
