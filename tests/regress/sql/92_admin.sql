-- The database owner as anon's admin (issue 16): it owns the catalog tables, so it sees every role's releases
-- (refresh_report covers them all) and pg_dump and pg_restore run by it see every catalog row; it maintains another
-- role's release only with that role's privileges, and is told which role to GRANT; it cannot rewrite the
-- configuration of a role it was not granted. An analyst naming another analyst's release is told whose release it
-- is and who can maintain it, and still sees and changes only its own. After ALTER DATABASE ... OWNER TO, the new
-- owner sees every release at once (0.5: through pg_database_owner); ALTER EXTENSION anon UPDATE from 0.2 gives the owner the
-- catalog. tests/scripts/owner_dump_test.sh dumps and restores.
\set VERBOSITY terse
CREATE ROLE regress_anon_admin LOGIN;
CREATE ROLE regress_anon_alice LOGIN;
CREATE ROLE regress_anon_bob LOGIN;
CREATE DATABASE regress_anon_admin_db OWNER regress_anon_admin;
\c regress_anon_admin_db regress_anon_admin
CREATE EXTENSION anon;
SELECT c.relname, c.relowner::regrole AS owner FROM pg_class c
WHERE c.relnamespace = 'anon'::regnamespace AND c.relkind IN ('r', 'S') ORDER BY 1;
CREATE TABLE adm_people (id int PRIMARY KEY, adm_town text, illness text);
INSERT INTO adm_people SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], (ARRAY['flu','cold','asthma'])[i % 3 + 1]
FROM generate_series(1, 36) i;
GRANT SELECT ON adm_people TO regress_anon_alice, regress_anon_bob;
GRANT CREATE ON SCHEMA public TO regress_anon_alice, regress_anon_bob;

-- Two analysts publish a release each: Alice a generalized one, Bob both forms.
\c - regress_anon_alice
CREATE TABLE adm_town_levels (leaf text, region text, root text);
INSERT INTO adm_town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('adm_town', 'adm_town_levels') ->> 'nodes' AS nodes;
SELECT r->'classes' AS classes FROM anon.anonymize('adm_people', '{adm_town}', '{illness}', 'distinct-l-diversity',
    '{"l": 3, "keep": ["id"], "keep_identifying": true}', 'incognito', 'alice_rel') r;
\c - regress_anon_bob
SELECT r->'classes' AS classes FROM anon.anonymize('adm_people', '{adm_town}', '{illness}', 'k-anonymity',
    '{"k": 4, "publish": "both"}', 'mondrian', 'bob_rel') r;
SELECT r->'classes' AS classes FROM anon.anonymize('adm_people', '{adm_town}', '{illness}', 'k-anonymity',
    '{"k": 4, "publish": "bucketized"}', 'mondrian', 'bob_buckets') r;
\c - regress_anon_alice
-- A bucketized release has no relation of its own name, only <name>_qit and <name>_st.
SELECT anon.metrics('bob_buckets');
\c - regress_anon_bob

-- Bob sees only his release; naming Alice's says whose it is and who maintains it, in every function that takes
-- a release name. His writes to her row change nothing or are refused.
SELECT output_name, created_by FROM anon.releases ORDER BY output_name;
SELECT anon.refresh('alice_rel');
SELECT anon.refresh('public.alice_rel');
SELECT anon.drop_release('alice_rel');
SELECT anon.metrics('alice_rel');
SELECT * FROM anon.audit_minimality('alice_rel', '{flu}', 2);
SELECT anon.metrics('no_such_release');
SELECT * FROM anon.refresh_if_changed('alice_rel');
SELECT * FROM anon.refresh_if_changed('public.alice_rel');
SELECT * FROM anon.refresh_if_changed('no_such_release');
SELECT anon.anonymize('adm_people', '{adm_town}', '{illness}', 'k-anonymity', '{"k": 2, "replace": true}', 'mondrian',
                      'alice_rel');
UPDATE anon.release SET params = '{"l": 1}' WHERE output_name = 'alice_rel';
INSERT INTO anon.release (output_schema, output_name, source, quasi_identifiers, sensitive, model, algorithm, created_by)
VALUES ('public', 'forged', 'adm_people', '{adm_town}', '{illness}', 'k-anonymity', 'mondrian', 'regress_anon_alice');
SELECT anon._release_owner('public', 'adm_people') AS not_a_release;

-- The database owner sees both releases. Without Alice's privileges it cannot refresh hers, and the report says
-- which role to GRANT; it cannot rewrite her configuration nor forge a row in her name.
\c - regress_anon_admin
SELECT output_name, created_by, params FROM anon.releases ORDER BY 1;
SELECT release, status, satisfied, detail FROM anon.refresh_report();
SELECT anon.refresh('alice_rel');
SELECT anon.metrics('alice_rel') ->> 'classes' AS classes;
UPDATE anon.release SET params = '{"l": 1}' WHERE output_name = 'alice_rel';
INSERT INTO anon.release (output_schema, output_name, source, quasi_identifiers, sensitive, model, algorithm, created_by)
VALUES ('public', 'forged', 'adm_people', '{adm_town}', '{illness}', 'k-anonymity', 'mondrian', 'regress_anon_alice');
UPDATE anon.taxonomy SET created_by = current_user WHERE name = 'adm_town';
-- Nor add a node to her taxonomy (as a restore would: every column given), alone or among nodes of its own (nodes
-- are checked per statement, all of them).
INSERT INTO anon.taxonomy_node (taxonomy, value, parent, ord) VALUES ('adm_town', 'c1', '*', 1000000);
CREATE TABLE adm_own_levels (leaf text, root text);
INSERT INTO adm_own_levels VALUES ('x', '*');
SELECT anon.taxonomy_from_levels('adm_own', 'adm_own_levels') ->> 'nodes' AS own_nodes;
INSERT INTO anon.taxonomy_node (taxonomy, value, parent, ord)
VALUES ('adm_own', 'y', '*', 1000001), ('adm_town', 'c1', '*', 1000002);
INSERT INTO anon.taxonomy_node (taxonomy, value, parent, ord) VALUES ('adm_own', 'y', '*', 1000001);
SELECT count(*) AS own_nodes_now FROM anon.taxonomy_nodes WHERE taxonomy = 'adm_own';

-- Granted both analysts' roles, it maintains every release.
\c - postgres
GRANT regress_anon_alice, regress_anon_bob TO regress_anon_admin;
\c - regress_anon_admin
-- A copy of every row (a change that satisfies every model on its own, so that the refreshes publish).
INSERT INTO adm_people SELECT id + 36, adm_town, illness FROM adm_people;
SELECT release, refreshed, satisfied, detail FROM anon.refresh_report();
SELECT anon.refresh('bob_rel') ->> 'published_rows' AS published_rows;

-- A new database owner sees every release at once: the database owner reads the catalog through pg_database_owner
-- (0.5), which follows the database's owner; the catalog stays the superuser's.
\c - postgres
CREATE ROLE regress_anon_new_owner LOGIN;
ALTER DATABASE regress_anon_admin_db OWNER TO regress_anon_new_owner;
\c - regress_anon_new_owner
SELECT count(*) AS visible_releases FROM anon.releases;
SELECT count(*) AS catalog_rows FROM anon.release;
SELECT c.relname, c.relowner::regrole AS owner FROM pg_class c
WHERE c.relnamespace = 'anon'::regnamespace AND c.relkind IN ('r', 'S') ORDER BY 1;

\c contrib_regression postgres
DROP DATABASE regress_anon_admin_db;

-- An installation of 0.2 by a non-superuser owner: the catalog belongs to the superuser that ran the script, so the
-- owner (no longer granted the analysts' roles) sees no analyst's release until ALTER EXTENSION anon UPDATE gives it
-- the catalog.
REVOKE regress_anon_alice, regress_anon_bob FROM regress_anon_admin;
CREATE DATABASE regress_anon_admin_upgrade OWNER regress_anon_admin;
\c regress_anon_admin_upgrade regress_anon_admin
CREATE EXTENSION anon VERSION '0.2';
CREATE TABLE adm_people (id int PRIMARY KEY, adm_town text, illness text);
INSERT INTO adm_people SELECT i, (ARRAY['a1','a2'])[i % 2 + 1], (ARRAY['flu','cold'])[i % 2 + 1]
FROM generate_series(1, 8) i;
GRANT SELECT ON adm_people TO regress_anon_alice;
GRANT CREATE ON SCHEMA public TO regress_anon_alice;
\c - regress_anon_alice
CREATE TABLE adm_town_levels (leaf text, root text);
INSERT INTO adm_town_levels VALUES ('a1', '*'), ('a2', '*');
SELECT anon.taxonomy_from_levels('adm_town', 'adm_town_levels') ->> 'nodes' AS nodes;
SELECT r->'classes' AS classes FROM anon.anonymize('adm_people', '{adm_town}', '{illness}', 'k-anonymity',
    '{"k": 2}', 'mondrian', 'old_rel') r;
\c - regress_anon_admin
SELECT count(*) AS visible_releases FROM anon.releases;
ALTER EXTENSION anon UPDATE;
SELECT count(*) AS visible_releases FROM anon.releases;
SELECT c.relname, c.relowner::regrole AS owner FROM pg_class c
WHERE c.relnamespace = 'anon'::regnamespace AND c.relkind IN ('r', 'S') ORDER BY 1;
\c contrib_regression postgres
DROP DATABASE regress_anon_admin_upgrade;

-- A superuser installs anon in the owner's database: the superuser owns the extension, the database owner the catalog.
CREATE DATABASE regress_anon_admin_su OWNER regress_anon_admin;
\c regress_anon_admin_su postgres
CREATE EXTENSION anon;
SELECT e.extowner::regrole AS extension_owner, c.relowner::regrole AS catalog_owner
FROM pg_extension e, pg_class c WHERE e.extname = 'anon' AND c.oid = 'anon.release'::regclass;
\c contrib_regression postgres
DROP DATABASE regress_anon_admin_su;
DROP ROLE regress_anon_admin, regress_anon_alice, regress_anon_bob, regress_anon_new_owner;
