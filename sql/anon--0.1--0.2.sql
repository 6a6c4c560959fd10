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
