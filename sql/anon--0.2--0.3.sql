-- anon 0.2 -> 0.3: releases that cannot be linked back (issue 16). Versions 0.1 and 0.2 are released and their
-- scripts are never edited again; `CREATE EXTENSION anon` runs anon--0.1.sql, anon--0.1--0.2.sql and this script,
-- and `ALTER EXTENSION anon UPDATE` brings an installed 0.1 or 0.2, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.3'" to load this file. \quit

-- Session-independent values (issue 16): every value anon reads, and the join key of every release view, is the
-- value's canonical text (ISO dates and timestamps, timestamptz in UTC, 'postgres' intervals, shortest-exact
-- floats, hex bytea), whatever DateStyle, TimeZone, IntervalStyle, extra_float_digits and bytea_output the
-- session has. STABLE, not IMMUTABLE: the output functions of some types read the catalog (enum labels, reg*).
CREATE FUNCTION anon._canonical_text(value anyelement)
RETURNS text
AS 'MODULE_PATHNAME', 'anon_canonical_text'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
