-- anon 0.1 -> 0.2. Version 0.1 (anon--0.1.sql) is the first released version and is never edited again: every
-- later change to the SQL surface goes into an upgrade script like this one, so `ALTER EXTENSION anon UPDATE`
-- brings an installed 0.1, with its taxonomies and releases, to the current version. A fresh
-- `CREATE EXTENSION anon` runs anon--0.1.sql and then this script.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.2'" to load this file. \quit
