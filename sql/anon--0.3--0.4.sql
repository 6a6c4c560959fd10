-- anon 0.3 -> 0.4. Versions 0.1 to 0.3 are released and their scripts are never edited again; `CREATE EXTENSION
-- anon` runs anon--0.1.sql and the upgrade scripts in turn, and `ALTER EXTENSION anon UPDATE` brings an installed
-- earlier version, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.4'" to load this file. \quit

-- Random calls (issue 14) ----------------------------------------------------------------------------------------

-- A NULL release row has nothing missing (it raised "null values cannot be formatted as an SQL identifier").
ALTER FUNCTION anon._release_missing(anon.release) STRICT;

-- Hierarchy builders and typed ranges (issue 15) ---------------------------------------------------------------

-- Declared columns, risk figures and the solution space (issue 15) -----------------------------------------------

-- Publishing (issue 19) -------------------------------------------------------------------------------------------
