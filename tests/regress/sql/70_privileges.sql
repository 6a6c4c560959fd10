-- Privileges: a source's owner publishes a release; another role can read neither the source through the
-- extension nor the owner's release configuration, cannot rewrite it, and cannot change the owner's taxonomies.
CREATE ROLE regress_anon_owner;
CREATE ROLE regress_anon_other;
GRANT CREATE ON SCHEMA public TO regress_anon_owner, regress_anon_other;

SET ROLE regress_anon_owner;
CREATE TABLE owned_people (id int PRIMARY KEY, town text, illness text);
INSERT INTO owned_people VALUES (1, 'a1', 'flu'), (2, 'a1', 'cold'), (3, 'a2', 'flu'), (4, 'a2', 'cold');
CREATE TABLE owned_towns (c0 text, c1 text, c2 text);
INSERT INTO owned_towns VALUES ('a1', 'a', '*'), ('a2', 'a', '*');
SELECT anon.taxonomy_from_levels('owned_town', 'owned_towns');
SELECT r->>'classes' AS classes
FROM anon.anonymize('owned_people', '{town}', '{illness}', 'distinct-l-diversity',
                    '{"l": 2, "taxonomies": {"town": "owned_town"}}', 'incognito', 'owned_release') r;
SELECT output_name, created_by FROM anon.releases;
RESET ROLE;

SET ROLE regress_anon_other;
-- The owner's release configuration is invisible and cannot be rewritten or removed.
SELECT count(*) AS visible_releases FROM anon.releases;
UPDATE anon.release SET model = 'k-anonymity', params = '{"k": 1}';
DELETE FROM anon.release;
-- Taxonomies are readable, but another role's cannot be changed.
SELECT name, created_by FROM anon.taxonomies WHERE name = 'owned_town';
UPDATE anon.taxonomy_node SET parent = NULL WHERE taxonomy = 'owned_town';
DELETE FROM anon.taxonomy WHERE name = 'owned_town';
\set VERBOSITY terse
SELECT anon.drop_taxonomy('owned_town');
INSERT INTO anon.taxonomy(name, created_by) VALUES ('forged', 'regress_anon_owner');
-- The source is not readable, so nothing can be published from it.
SELECT anon.anonymize('owned_people', '{town}', '{illness}', 'distinct-l-diversity',
                      '{"l": 2, "taxonomies": {"town": "owned_town"}}', 'incognito');
SELECT anon.refresh('owned_release');
\set VERBOSITY default
RESET ROLE;

SET ROLE regress_anon_owner;
-- Still intact for the owner.
SELECT model, params FROM anon.releases WHERE output_name = 'owned_release';
SELECT count(*) AS nodes FROM anon.taxonomy_nodes WHERE taxonomy = 'owned_town';
SELECT anon.drop_release('owned_release');
SELECT anon.drop_taxonomy('owned_town');
DROP TABLE owned_people, owned_towns;
RESET ROLE;
REVOKE CREATE ON SCHEMA public FROM regress_anon_owner, regress_anon_other;
DROP ROLE regress_anon_owner;
DROP ROLE regress_anon_other;
