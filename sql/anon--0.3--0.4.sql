-- anon 0.3 -> 0.4. Versions 0.1 to 0.3 are released and their scripts are never edited again; `CREATE EXTENSION
-- anon` runs anon--0.1.sql and the upgrade scripts in turn, and `ALTER EXTENSION anon UPDATE` brings an installed
-- earlier version, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.4'" to load this file. \quit

-- Hierarchy builders and typed ranges (issue 15) ---------------------------------------------------------------

-- Declared columns, risk figures and the solution space (issue 15) -----------------------------------------------

-- Publishing (issue 19) -------------------------------------------------------------------------------------------

-- The rows of a release as anon._release_map gives them, with each piece's position in the generalized view's order
-- and in the QIT's order, for the release objects published from 0.4 on: they repeat each piece of the computed
-- release once per tuple, in these orders, instead of joining the source (docs/architecture.md). The source
-- argument, a constant of the objects' queries, makes them depend on the source as the join did. Row-level security
-- on, as for _release_map (the REFRESH at the end of a restore reads the catalog row through its policies).
-- Releases published before 0.4 keep their views, which still call anon._release_map.
CREATE FUNCTION anon._release_rows(output_schema text, output_name text, source regclass)
RETURNS TABLE (gid int, key text[], label text[], lo bigint, hi bigint, view_position bigint, qit_position bigint)
AS 'MODULE_PATHNAME', 'anon_release_rows'
LANGUAGE C VOLATILE STRICT
SET row_security = on;
