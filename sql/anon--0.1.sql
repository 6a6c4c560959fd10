-- anon 0.1: privacy-preserving releases inside PostgreSQL.
\echo Use "CREATE EXTENSION anon" to load this file. \quit

-- Catalog: taxonomies ------------------------------------------------------------------------------------------

-- One row per taxonomy: a tree of nodes, or nested intervals over a numeric column.
CREATE TABLE anon.taxonomy (
    name       text PRIMARY KEY,
    kind       text NOT NULL DEFAULT 'tree' CHECK (kind IN ('tree', 'interval')),
    lower      numeric,
    upper      numeric,
    widths     numeric[],
    created_by name NOT NULL DEFAULT current_user,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK ((kind = 'interval') = (lower IS NOT NULL AND upper IS NOT NULL AND widths IS NOT NULL))
);

-- One row per node: its value, its parent (NULL for the root) and a weight for sensitive values.
CREATE TABLE anon.taxonomy_node (
    taxonomy text NOT NULL REFERENCES anon.taxonomy (name) ON DELETE CASCADE ON UPDATE CASCADE,
    value    text NOT NULL,
    parent   text,
    weight   double precision NOT NULL DEFAULT 1 CHECK (weight >= 0),
    ord      bigserial,
    PRIMARY KEY (taxonomy, value)
);

-- Catalog: releases --------------------------------------------------------------------------------------------

-- The configuration of every release, so it can be refreshed and re-verified, and its last report.
CREATE TABLE anon.release (
    output_schema     name NOT NULL,
    output_name       name NOT NULL,
    source            regclass NOT NULL,
    quasi_identifiers text[] NOT NULL,
    sensitive         text[] NOT NULL,
    model             text NOT NULL,
    params            jsonb NOT NULL DEFAULT '{}',
    algorithm         text NOT NULL,
    created_by        name NOT NULL DEFAULT current_user,
    created_at        timestamptz NOT NULL DEFAULT pg_catalog.now(),
    refreshed_at      timestamptz,
    report            jsonb,
    PRIMARY KEY (output_schema, output_name)
);

SELECT pg_catalog.pg_extension_config_dump('anon.taxonomy', '');
SELECT pg_catalog.pg_extension_config_dump('anon.taxonomy_node', '');
SELECT pg_catalog.pg_extension_config_dump('anon.release', '');

-- Row-level security: every role reads the taxonomies (they are shared vocabulary) but changes only its own, and
-- sees and changes only its own releases (or those of roles it is a member of), so no role can rewrite another's
-- release configuration before its owner refreshes it.
ALTER TABLE anon.taxonomy ENABLE ROW LEVEL SECURITY;
ALTER TABLE anon.taxonomy_node ENABLE ROW LEVEL SECURITY;
ALTER TABLE anon.release ENABLE ROW LEVEL SECURITY;
CREATE POLICY taxonomy_read ON anon.taxonomy FOR SELECT USING (true);
CREATE POLICY taxonomy_create ON anon.taxonomy FOR INSERT WITH CHECK (created_by = current_user);
CREATE POLICY taxonomy_change ON anon.taxonomy FOR UPDATE
    USING (pg_catalog.pg_has_role(current_user, created_by, 'MEMBER'))
    WITH CHECK (pg_catalog.pg_has_role(current_user, created_by, 'MEMBER'));
CREATE POLICY taxonomy_drop ON anon.taxonomy FOR DELETE
    USING (pg_catalog.pg_has_role(current_user, created_by, 'MEMBER'));
CREATE POLICY taxonomy_node_read ON anon.taxonomy_node FOR SELECT USING (true);
CREATE POLICY taxonomy_node_change ON anon.taxonomy_node FOR ALL
    USING (EXISTS (SELECT 1 FROM anon.taxonomy t WHERE t.name OPERATOR(pg_catalog.=) taxonomy
                   AND pg_catalog.pg_has_role(current_user, t.created_by, 'MEMBER')))
    WITH CHECK (EXISTS (SELECT 1 FROM anon.taxonomy t WHERE t.name OPERATOR(pg_catalog.=) taxonomy
                        AND pg_catalog.pg_has_role(current_user, t.created_by, 'MEMBER')));
CREATE POLICY release_owner ON anon.release FOR ALL
    USING (pg_catalog.pg_has_role(current_user, created_by, 'MEMBER'))
    WITH CHECK (pg_catalog.pg_has_role(current_user, created_by, 'MEMBER'));

GRANT USAGE ON SCHEMA anon TO PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON anon.taxonomy, anon.taxonomy_node, anon.release TO PUBLIC;
GRANT USAGE ON SEQUENCE anon.taxonomy_node_ord_seq TO PUBLIC;

-- Taxonomies ---------------------------------------------------------------------------------------------------

-- Builds a taxonomy from a table whose columns, in order, are leaf, level 1, ..., root.
CREATE FUNCTION anon.taxonomy_from_levels(name text, levels regclass)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_levels'
LANGUAGE C VOLATILE;

-- Nested intervals for a numeric column: widths {5,10,20} gives 5-, 10- and 20-wide ranges and a root '*'.
CREATE FUNCTION anon.interval_taxonomy(name text, lower numeric, upper numeric, widths int[])
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_interval_taxonomy'
LANGUAGE C VOLATILE;

-- Removes a taxonomy and its nodes.
CREATE FUNCTION anon.drop_taxonomy(name text)
RETURNS void
AS 'MODULE_PATHNAME', 'anon_drop_taxonomy'
LANGUAGE C VOLATILE STRICT;

-- True when `general` is `value` or one of its ancestors in the taxonomy (for interval taxonomies: when the
-- numeric value lies in the interval). Written in SQL on purpose: tests use it to check releases independently of
-- the C++ code that made them.
CREATE FUNCTION anon.covers(taxonomy text, general text, value text)
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
            $2 = '*' OR (
                $2 ~ '^\[[^,]+,[^)]+\)$' AND $3 ~ '^-?[0-9.eE+-]+$' AND
                $3::numeric >= split_part(substr($2, 2), ',', 1)::numeric AND
                $3::numeric < rtrim(split_part($2, ',', 2), ')')::numeric)
        ELSE EXISTS (SELECT 1 FROM up WHERE up.v = $2)
    END
$$;

-- Releases -----------------------------------------------------------------------------------------------------

-- Publishes a release of `source` satisfying `model` as the materialized view `output` (NULL: report only).
CREATE FUNCTION anon.anonymize(source regclass, quasi_identifiers text[], sensitive text[], model text,
                               params jsonb DEFAULT '{}', algorithm text DEFAULT 'auto', output text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_anonymize'
LANGUAGE C VOLATILE;

-- Populates a release's view (called by the view's query on creation and on REFRESH MATERIALIZED VIEW).
CREATE FUNCTION anon._release_map(output_schema text, output_name text)
RETURNS TABLE (gid int, key text[], label text[], lo bigint, hi bigint)
AS 'MODULE_PATHNAME', 'anon_release_map'
LANGUAGE C VOLATILE STRICT;

-- Recomputes a release from the source's current data with its stored configuration; returns the new report.
CREATE FUNCTION anon.refresh(output text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_refresh'
LANGUAGE C VOLATILE STRICT;

-- Removes everything a release created.
CREATE FUNCTION anon.drop_release(output text)
RETURNS void
AS 'MODULE_PATHNAME', 'anon_drop_release'
LANGUAGE C VOLATILE STRICT;

-- Utility metrics of a release, as computed by the core from the release that last populated its view.
CREATE FUNCTION anon.metrics(output text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_metrics'
LANGUAGE C STABLE STRICT;

-- Auditing -----------------------------------------------------------------------------------------------------

-- Checks any table or view against a privacy model, treating each distinct QI combination as a class.
CREATE FUNCTION anon.verify(relation regclass, quasi_identifiers text[], sensitive text[], model text,
                            params jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_verify'
LANGUAGE C VOLATILE;

-- The eligible range of l (and c) for a table's sensitive columns, and BSGI's optimal l.
CREATE FUNCTION anon.eligible_range(source regclass, sensitive text[])
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_eligible_range'
LANGUAGE C VOLATILE;

-- One row per equivalence class of a table or view: QI values, size, distinct sensitive values, entropy (natural
-- log) and the most frequent sensitive value's share.
CREATE FUNCTION anon.equivalence_classes(relation regclass, quasi_identifiers text[], sensitive text[])
RETURNS TABLE (qi text[], size bigint, distinct_sensitive int, entropy double precision, max_share double precision)
AS 'MODULE_PATHNAME', 'anon_equivalence_classes'
LANGUAGE C VOLATILE;

-- Functional (tau, l)-diversity ----------------------------------------------------------------------------------

-- The weakest simple l-diversity and (c,l)-diversity requirements that guarantee (tau, l)-diversity over m values.
CREATE FUNCTION anon.weakest_stronger_requirement(tau double precision, l int, m int)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_weakest_stronger_requirement'
LANGUAGE C IMMUTABLE;

-- The average relative error of random count queries answered from a release, against the source.
CREATE FUNCTION anon.count_query_error(output text, queries int, dimensions int, seed int)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_count_query_error'
LANGUAGE C VOLATILE;

-- Minimality attacks ---------------------------------------------------------------------------------------------

-- The adversary's credibility, per original QI class, that a member has a value of `sensitive_values`, for a
-- release of this extension, assuming the publisher followed the minimality principle for l-diversity.
CREATE FUNCTION anon.audit_minimality(output text, sensitive_values text[], l int, m int DEFAULT NULL)
RETURNS TABLE (qi text[], class_size int, credibility double precision, violates bool)
AS 'MODULE_PATHNAME', 'anon_audit_minimality'
LANGUAGE C VOLATILE;

-- The same for a table published by another tool; `key` links a published row to its source row.
CREATE FUNCTION anon.audit_minimality_table(source regclass, published regclass, key text, quasi_identifiers text[],
                                            sensitive text, sensitive_values text[], l int, m int DEFAULT NULL)
RETURNS TABLE (qi text[], class_size int, credibility double precision, violates bool)
AS 'MODULE_PATHNAME', 'anon_audit_minimality_table'
LANGUAGE C VOLATILE;
