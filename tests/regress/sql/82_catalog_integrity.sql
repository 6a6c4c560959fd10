-- Catalog integrity (issue 16): taxonomies in use cannot be dropped or renamed; dropping a release's views or its
-- source removes its catalog row when nothing of it is left, and flags it orphaned otherwise; CALL
-- anon.refresh_all() refuses transaction blocks before doing anything; every maintenance path reports one status
-- word per release. Two roles: an analyst who publishes in schema ci, and a colleague whose releases the analyst
-- does not see (row-level security). See docs/catalog-integrity.md.
\set VERBOSITY terse
CREATE ROLE regress_anon_ci;
CREATE ROLE regress_anon_ci_other;
CREATE SCHEMA ci AUTHORIZATION regress_anon_ci;
GRANT USAGE, CREATE ON SCHEMA ci TO regress_anon_ci_other;
-- The source of the not_permitted case belongs to the superuser, who grants and later revokes SELECT.
CREATE TABLE ci.granted (id int, zip text, ci_ward text, illness text);
INSERT INTO ci.granted SELECT i, (ARRAY['13053','13068','14850','14853'])[1 + i % 4], (ARRAY['w1','w2'])[1 + i % 2],
       (ARRAY['flu','cold','asthma'])[1 + i % 3] FROM generate_series(1, 60) i;
GRANT SELECT ON ci.granted TO regress_anon_ci;

SET ROLE regress_anon_ci;
SET search_path = ci, public;
CREATE TABLE ci.visits AS SELECT * FROM ci.granted;
GRANT SELECT ON ci.visits TO regress_anon_ci_other;
CREATE TABLE zip_levels (leaf text, prefix text, root text);
INSERT INTO zip_levels SELECT z, left(z, 3), '*' FROM (VALUES ('13053'), ('13068'), ('14850'), ('14853')) v(z);
CREATE TABLE ward_levels (leaf text, root text);
INSERT INTO ward_levels VALUES ('w1', '*'), ('w2', '*');
SELECT anon.taxonomy_from_levels('ci_zip', 'zip_levels') ->> 'nodes' AS nodes;
-- Named after its column: releases use it without mapping it in params->'taxonomies'.
SELECT anon.taxonomy_from_levels('ci_ward', 'ward_levels') ->> 'nodes' AS nodes;
SELECT anon.taxonomy_from_levels('ci_unused', 'ward_levels') ->> 'nodes' AS nodes;
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{zip,ci_ward}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'gen') r;
RESET ROLE;
SET ROLE regress_anon_ci_other;
SELECT r->'classes' AS classes
FROM anon.anonymize('ci.visits', '{zip}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'ci.theirs') r;
RESET ROLE;
SET ROLE regress_anon_ci;

-- 1. Taxonomies in use ------------------------------------------------------------------------------------------
-- Refused by anon.drop_taxonomy, naming the caller's releases and counting those of other roles (ci.theirs, hidden
-- from it); a direct DELETE or rename is refused as every direct write of the catalog is (0.5); the taxonomy and its
-- nodes stay.
SELECT anon.drop_taxonomy('ci_zip');
DELETE FROM anon.taxonomy WHERE name = 'ci_zip';
DELETE FROM anon.taxonomy WHERE name = 'ci_ward';
UPDATE anon.taxonomy SET name = 'ci_ward2' WHERE name = 'ci_ward';
SELECT name, (SELECT count(*) FROM anon.taxonomy_nodes n WHERE n.taxonomy = t.name) AS nodes
FROM anon.taxonomies t WHERE name LIKE 'ci\_%' ORDER BY name;
-- Other changes to a taxonomy in use stay allowed (refresh_if_changed notices them); unused ones drop.
UPDATE anon.taxonomy SET created_at = created_at WHERE name = 'ci_zip';
SELECT anon.drop_taxonomy('ci_unused');

-- 2. Dropping a release's objects or its source ------------------------------------------------------------------
-- Three more releases: both1 and both2 publish <name>, <name>_qit and <name>_st; an ST view reads no source, so it
-- outlives the source.
CREATE TABLE ci.src2 AS SELECT * FROM ci.visits;
CREATE TABLE ci.src3 AS SELECT * FROM ci.visits;
SELECT r->'classes' AS classes
FROM anon.anonymize('src2', '{zip,ci_ward}', '{illness}', 'k-anonymity',
                    '{"k": 5, "taxonomies": {"zip": "ci_zip"}, "publish": "both"}', 'incognito', 'both2') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('src3', '{zip,ci_ward}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'gen3') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{zip,ci_ward}', '{illness}', 'k-anonymity',
                    '{"k": 5, "taxonomies": {"zip": "ci_zip"}, "publish": "both"}', 'incognito', 'both1') r;
SELECT output_name FROM anon.releases ORDER BY 1;
-- A release's only view dropped: its catalog row goes with it.
DROP MATERIALIZED VIEW gen3;
-- One of three views dropped: the release is orphaned, and every path says so.
DROP MATERIALIZED VIEW both1_st;
-- The source dropped with CASCADE: the view and the QIT go with it, the ST stays: orphaned.
DROP TABLE src2 CASCADE;
-- Dropping an unrelated table or a column no view uses changes nothing.
ALTER TABLE src3 DROP COLUMN id;
DROP TABLE src3;
SELECT output_name FROM anon.releases ORDER BY 1;
SELECT release, status, changed, refreshed, satisfied, detail FROM anon.refresh_report();
SELECT release, status, detail FROM anon.refresh_if_changed('both1');
CALL anon.refresh_all();
-- Recomputing an orphaned release by hand is refused with the same diagnosis.
SELECT anon.refresh('both1');
REFRESH MATERIALIZED VIEW both2_st;
\set VERBOSITY default
SELECT anon.refresh('both2');
\set VERBOSITY terse
-- anon.drop_release removes an orphaned release: its remaining views and its catalog row.
SELECT anon.drop_release('both1'), anon.drop_release('both2');
SELECT output_name FROM anon.releases ORDER BY 1;
SELECT count(*) AS leftover_views FROM pg_class WHERE relnamespace = 'ci'::regnamespace AND relname LIKE 'both%';

-- 3. refresh_all where it cannot commit ---------------------------------------------------------------------------
-- Refused before refreshing anything (no NOTICE), saying what to call instead.
BEGIN;
CALL anon.refresh_all();
ROLLBACK;
CREATE FUNCTION ci.maintain() RETURNS void LANGUAGE plpgsql AS $$
DECLARE n int; u text[]; f jsonb;
BEGIN
    CALL anon.refresh_all(n, u, f);
END $$;
SELECT ci.maintain();
-- A DO block outside a transaction block may commit.
DO $$ DECLARE n int; u text[]; f jsonb; BEGIN CALL anon.refresh_all(n, u, f); RAISE NOTICE 'refreshed %, failures %', n, f; END $$;

-- 4. One status per release, in every path -----------------------------------------------------------------------
-- Besides gen: three more releases of visits, and one of a source the analyst loses SELECT on (not_permitted). l2
-- coexists with the k-anonymous releases of visits, whose classes the deletion below leaves with one illness: its
-- composition with them is acknowledged (docs/republication.md).
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{zip,ci_ward}', '{illness}', 'distinct-l-diversity',
                    '{"l": 2, "taxonomies": {"zip": "ci_zip"}, "acknowledge_composition": true}', 'incognito', 'l2') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{zip,ci_ward}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'strict') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{zip,ci_ward}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'broken') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('granted', '{zip,ci_ward}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'lost') r;
-- The stored configuration edited (0.5: only a superuser can, no role writes the catalog directly): k = 1000 does
-- not hold for the published classes (unsatisfied); an unknown model cannot be run (refresh_failed, changed NULL: the
-- refresh reads the input only once it has parsed the configuration, 0.5). The input is unchanged, so nothing is
-- recomputed yet.
RESET ROLE;
UPDATE anon.release SET params = params || '{"k": 1000}' WHERE output_name = 'strict';
UPDATE anon.release SET model = 'no-such-model' WHERE output_name = 'broken';
REVOKE SELECT ON ci.granted FROM regress_anon_ci;
SET ROLE regress_anon_ci;
SELECT release, status, changed, refreshed, satisfied, detail FROM anon.refresh_report();
-- New rows: the releases of visits are recomputed, one call each. The rows added to a class hold two illnesses, so
-- that they satisfy l2's model on their own and the new versions are published (docs/republication.md).
INSERT INTO ci.visits SELECT 100 + i, '14850', 'w1', (ARRAY['asthma', 'flu'])[1 + i % 2] FROM generate_series(1, 5) i;
SELECT release, status, changed, refreshed, satisfied FROM anon.refresh_if_changed('gen');
SELECT release, status, changed, refreshed, satisfied FROM anon.refresh_if_changed('ci.l2');
-- Changed again: refresh_all recomputes gen and l2; strict (k = 1000 of 45 rows) and broken (unknown model) can no
-- longer be recomputed and keep their previous release (refresh_failed); lost stays not_permitted.
DELETE FROM ci.visits WHERE zip LIKE '13%' AND illness <> 'asthma';
CALL anon.refresh_all();
SELECT (SELECT count(*) FROM ci.strict) AS strict_rows, (SELECT count(*) FROM ci.gen) AS gen_rows;
SELECT release, status, detail FROM anon.refresh_if_changed('l2');
-- The theirs release of the other role is not the analyst's to see or refresh.
SELECT count(*) AS visible FROM anon.refresh_report() WHERE release = 'ci.theirs';

-- Clean up --------------------------------------------------------------------------------------------------------
SELECT anon.drop_release(output_name) FROM anon.releases WHERE output_schema = 'ci' ORDER BY output_name;
RESET ROLE;
-- DROP OWNED of the other role and DROP SCHEMA ... CASCADE remove the catalog rows of every role whose views
-- they take, also of releases the dropping role cannot see.
SET ROLE regress_anon_ci_other;
SELECT r->'classes' AS classes
FROM anon.anonymize('ci.visits', '{zip}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'ci.theirs2') r;
RESET ROLE;
SELECT output_name, created_by FROM anon.releases WHERE output_schema = 'ci' ORDER BY 1;
DROP OWNED BY regress_anon_ci_other;
SELECT output_name, created_by FROM anon.releases WHERE output_schema = 'ci' ORDER BY 1;
GRANT USAGE, CREATE ON SCHEMA ci TO regress_anon_ci_other;
GRANT SELECT ON ci.visits TO regress_anon_ci_other;
SET ROLE regress_anon_ci_other;
SELECT r->'classes' AS classes
FROM anon.anonymize('ci.visits', '{zip}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'ci.theirs3') r;
RESET ROLE;
SET ROLE regress_anon_ci;
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{zip,ci_ward}', '{illness}', 'k-anonymity', '{"k": 5, "taxonomies": {"zip": "ci_zip"}}',
                    'incognito', 'mine') r;
SELECT count(*) AS visible_releases FROM anon.releases;
DROP SCHEMA ci CASCADE;
RESET ROLE;
SELECT count(*) AS catalog_rows FROM anon.releases WHERE output_schema = 'ci';
-- With no release left, the taxonomies drop.
SELECT anon.drop_taxonomy('ci_zip'), anon.drop_taxonomy('ci_ward');
RESET search_path;
DROP ROLE regress_anon_ci_other;
DROP ROLE regress_anon_ci;

-- DROP EXTENSION anon CASCADE drops the releases' views and the event trigger itself without tripping over it.
CREATE DATABASE regress_anon_drop_extension;
\c regress_anon_drop_extension
\set VERBOSITY terse
CREATE EXTENSION anon;
CREATE TABLE t (id int, v int, s text);
INSERT INTO t SELECT i, i % 10, 's' || i % 2 FROM generate_series(1, 12) i;
SELECT anon.interval_taxonomy('v', 0, 10, '{5}') ->> 'nodes' AS nodes;
SELECT anon.anonymize('t', '{v}', '{s}', 'k-anonymity', '{"k": 2, "publish": "both"}', 'mondrian', 'r') ->> 'classes' AS classes;
DROP EXTENSION anon;
DROP EXTENSION anon CASCADE;
SELECT count(*) AS views_left FROM pg_matviews;
SELECT count(*) AS event_triggers_left FROM pg_event_trigger;
DROP TABLE t;
\c contrib_regression
DROP DATABASE regress_anon_drop_extension;
