-- anon 0.1 -> 0.2. Version 0.1 (anon--0.1.sql) is the first released version and is never edited again: every
-- later change to the SQL surface goes into an upgrade script like this one, so `ALTER EXTENSION anon UPDATE`
-- brings an installed 0.1, with its taxonomies and releases, to the current version. A fresh
-- `CREATE EXTENSION anon` runs anon--0.1.sql and then this script.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.2'" to load this file. \quit

-- Functional (tau, l)-diversity: excessive protection of any release -------------------------------------------

-- e(P) (Def. 35 of Tian & Zhang) of a release of this extension against a (tau, l)-diversity requirement, for
-- releases made by any model (e.g. incognito with the weakest stronger (c, l), compared with SWEEP).
CREATE FUNCTION anon.excessive_protection(output text, tau double precision, l int)
RETURNS double precision
AS 'MODULE_PATHNAME', 'anon_excessive_protection'
LANGUAGE C VOLATILE;
