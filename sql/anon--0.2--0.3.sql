-- anon 0.2 -> 0.3: releases that cannot be linked back (issue 16). Versions 0.1 and 0.2 are released and their
-- scripts are never edited again; `CREATE EXTENSION anon` runs anon--0.1.sql, anon--0.1--0.2.sql and this script,
-- and `ALTER EXTENSION anon UPDATE` brings an installed 0.1 or 0.2, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.3'" to load this file. \quit
