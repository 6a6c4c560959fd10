-- Upgrades (issue 7): an installed 0.1 with taxonomies and releases is brought to the current version by ALTER
-- EXTENSION anon UPDATE; the releases keep refreshing and verifying, the catalog rows survive, the catalog stays
-- dumped by pg_dump, and the upgraded extension has exactly the objects of a fresh installation.
\set VERBOSITY terse
CREATE DATABASE regress_anon_upgrade;
\c regress_anon_upgrade
CREATE EXTENSION anon VERSION '0.1';
SELECT extversion FROM pg_extension WHERE extname = 'anon';
CREATE TABLE people (id int PRIMARY KEY, town text, age int, illness text);
INSERT INTO people SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], 20 + i % 50, (ARRAY['flu','cold','asthma'])[i % 3 + 1]
FROM generate_series(1, 60) i;
CREATE TABLE town_levels (leaf text, region text, root text);
INSERT INTO town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('town', 'town_levels') ->> 'nodes' AS nodes;
SELECT anon.interval_taxonomy('age', 0, 100, '{10,50}') ->> 'nodes' AS nodes;
-- A generalized release (full-domain) and a bucketized one (local recoding, QIT and ST tables).
SELECT r->'classes' AS classes
FROM anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 3, "keep_identifying": true, "keep": ["id"]}',
                    'incognito', 'gen') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('people', '{town,age}', '{illness}', 'unique-distinct-l-diversity',
                    '{"l": 3, "keep": ["id"], "publish": "both"}', 'bsgi', 'buck') r;
CREATE TEMP TABLE before_upgrade AS
SELECT output_name, model, params, algorithm, quasi_identifiers, sensitive, created_by, created_at FROM anon.release;

ALTER EXTENSION anon UPDATE;
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'anon') AS updated_to_default
FROM pg_extension WHERE extname = 'anon';
-- The catalog rows survived unchanged, and the catalog tables are still dumped by pg_dump.
SELECT count(*) AS releases,
       count(*) FILTER (WHERE (r.model, r.params, r.algorithm, r.quasi_identifiers, r.sensitive, r.created_by,
                               r.created_at) = (b.model, b.params, b.algorithm, b.quasi_identifiers, b.sensitive,
                                                b.created_by, b.created_at)) AS unchanged
FROM anon.release r JOIN before_upgrade b USING (output_name);
SELECT name, kind, (SELECT count(*) FROM anon.taxonomy_node n WHERE n.taxonomy = t.name) AS nodes
FROM anon.taxonomy t ORDER BY name;
SELECT e.extconfig::regclass[] AS dumped_tables FROM pg_extension e WHERE extname = 'anon';
-- The releases refresh (through the extension and directly) and verify.
INSERT INTO people VALUES (61, 'a1', 33, 'flu'), (62, 'b2', 44, 'cold'), (63, 'a2', 55, 'asthma');
SELECT anon.refresh('gen') ->> 'published_rows' AS gen_rows, anon.refresh('buck') ->> 'published_rows' AS buck_rows;
REFRESH MATERIALIZED VIEW gen;
SELECT (SELECT count(*) FROM gen) AS gen, (SELECT count(*) FROM buck) AS buck, (SELECT count(*) FROM buck_qit) AS qit,
       (SELECT sum(count) FROM buck_st) AS st;
SELECT anon.verify('gen', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 3}') ->> 'satisfied' AS gen_ok,
       anon.verify('buck', '{gid}', '{illness}', 'unique-distinct-l-diversity', '{"l": 3}') ->> 'satisfied' AS buck_ok;
SELECT count(*) AS covered FROM gen g JOIN people p USING (id)
WHERE anon.covers('town', g.town, p.town) AND anon.covers('age', g.age, p.age::text);
-- New releases work on the upgraded installation.
SELECT r->'classes' AS classes FROM anon.anonymize('people', '{town}', '{illness}', 'k-anonymity', '{"k": 5}', 'mondrian', 'new') r;
-- The upgraded extension has exactly the member objects of a fresh installation of the default version (which runs
-- the current install script; tests/scripts/install_upgrade_test.sh compares their definitions too).
SELECT md5(string_agg(m.member, ',' ORDER BY m.member)) AS upgraded_members
FROM (SELECT pg_describe_object(classid, objid, objsubid) AS member FROM pg_depend
      WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
        AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'anon')) m \gset
\c contrib_regression
DROP DATABASE regress_anon_upgrade;
CREATE DATABASE regress_anon_fresh;
\c regress_anon_fresh
CREATE EXTENSION anon;
SELECT md5(string_agg(m.member, ',' ORDER BY m.member)) = :'upgraded_members' AS same_members_as_fresh
FROM (SELECT pg_describe_object(classid, objid, objsubid) AS member FROM pg_depend
      WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
        AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'anon')) m;
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'anon') AS default_version
FROM pg_extension WHERE extname = 'anon';
\c contrib_regression
DROP DATABASE regress_anon_fresh;

-- Releases published by 0.3 (issue 19): their views join the source through anon._release_map and keep doing so after
-- the update; anon.refresh and REFRESH MATERIALIZED VIEW recompute them into those views, with the same rows in the
-- same order as the same releases published by the updated extension, whose objects repeat the computed pieces of
-- the release instead of joining the source (anon._release_tuples).
CREATE DATABASE regress_anon_upgrade03;
\c regress_anon_upgrade03
CREATE EXTENSION anon VERSION '0.3';
CREATE TABLE people (id int PRIMARY KEY, town text, age int, illness text);
INSERT INTO people SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], 20 + i % 50, (ARRAY['flu','cold','asthma'])[i % 3 + 1]
FROM generate_series(1, 300) i;
CREATE TABLE town_levels (leaf text, region text, root text);
INSERT INTO town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('town', 'town_levels') ->> 'nodes' AS nodes;
SELECT anon.interval_taxonomy('age', 0, 100, '{10,50}') ->> 'nodes' AS nodes;
SELECT r->'classes' AS classes
FROM anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 3}', 'incognito', 'old_gen') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('people', '{town,age}', '{illness}', 'unique-distinct-l-diversity', '{"l": 3, "publish": "both"}',
                    'bsgi', 'old_both') r;
ALTER EXTENSION anon UPDATE;
INSERT INTO people SELECT i, (ARRAY['a1','b2'])[i % 2 + 1], 30 + i % 20, (ARRAY['flu','cold','asthma'])[i % 3 + 1]
FROM generate_series(301, 360) i;
SELECT anon.refresh('old_gen') ->> 'published_rows' AS gen_rows, anon.refresh('old_both') ->> 'published_rows' AS both_rows;
REFRESH MATERIALIZED VIEW old_gen;
REFRESH MATERIALIZED VIEW old_both_qit;
SELECT c.relname, pg_get_viewdef(c.oid) LIKE '%anon._release_map(%' AS joins_source_as_in_0_3
FROM pg_class c WHERE c.relname IN ('old_gen', 'old_both', 'old_both_qit') ORDER BY 1;
SELECT r->'classes' AS classes
FROM anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 3}', 'incognito', 'new_gen') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('people', '{town,age}', '{illness}', 'unique-distinct-l-diversity', '{"l": 3, "publish": "both"}',
                    'bsgi', 'new_both') r;
SELECT c.relname, pg_get_viewdef(c.oid) LIKE '%anon._release_tuples(%' AS repeats_pieces
FROM pg_class c WHERE c.relname IN ('new_gen', 'new_both', 'new_both_qit') ORDER BY 1;
-- Position by position (a materialized view's scan returns its rows in their stored order).
SELECT (SELECT array_agg(t::text) FROM old_gen t) = (SELECT array_agg(t::text) FROM new_gen t) AS same_view,
       (SELECT array_agg(t::text) FROM old_both t) = (SELECT array_agg(t::text) FROM new_both t) AS same_both_view,
       (SELECT array_agg(t::text) FROM old_both_qit t) = (SELECT array_agg(t::text) FROM new_both_qit t) AS same_qit,
       (SELECT array_agg(t::text) FROM old_both_st t) = (SELECT array_agg(t::text) FROM new_both_st t) AS same_st;
-- Republished with replace, an old release gets the new objects.
SELECT r->'classes' AS classes
FROM anon.anonymize('people', '{town,age}', '{illness}', 'distinct-l-diversity', '{"l": 3, "replace": true}',
                    'incognito', 'old_gen') r;
SELECT pg_get_viewdef('old_gen'::regclass) LIKE '%anon._release_tuples(%' AS republished_repeats_pieces;
\c contrib_regression
DROP DATABASE regress_anon_upgrade03;
