-- anon 0.2 -> 0.3: releases that cannot be linked back (issue 16). Versions 0.1 and 0.2 are released and their
-- scripts are never edited again; `CREATE EXTENSION anon` runs anon--0.1.sql, anon--0.1--0.2.sql and this script,
-- and `ALTER EXTENSION anon UPDATE` brings an installed 0.1 or 0.2, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.3'" to load this file. \quit

-- Issue 13: t-closeness measures its distances over the sensitive values the table holds, no longer over every
-- leaf of the taxonomy. anon.refresh_report re-verifies every release with a generalized view under the corrected
-- distances; a t-closeness release published only as QIT/ST tables has no such view (refresh_report trusts its
-- last computation), so its input fingerprint is cleared: the next refresh_report, refresh_all or anon-maintain
-- run recomputes it with the corrected distances.
UPDATE anon.release SET source_fingerprint = NULL
WHERE model = 't-closeness' AND params->>'publish' = 'bucketized';
