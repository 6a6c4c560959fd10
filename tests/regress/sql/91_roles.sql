-- Three roles (issue 7): the owner of a source, an analyst who publishes releases of it, and a reader of a release.
-- What each needs: the analyst SELECT on the source (and CREATE on the output schema); the reader SELECT on the
-- release only. The reader sees nothing of the source, and no release configuration (row-level security); a role
-- without rights on the source can neither publish nor refresh. Nothing needs a superuser at run time, and a
-- database owner who is not a superuser can install the extension (trusted).
\set VERBOSITY terse
CREATE ROLE regress_anon_source_owner;
CREATE ROLE regress_anon_analyst;
CREATE ROLE regress_anon_reader;
GRANT CREATE ON SCHEMA public TO regress_anon_source_owner, regress_anon_analyst;

SET ROLE regress_anon_source_owner;
CREATE TABLE role_patients (id int PRIMARY KEY, role_town text, illness text);
INSERT INTO role_patients SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], (ARRAY['flu','cold','asthma'])[i % 3 + 1]
FROM generate_series(1, 24) i;
CREATE TABLE role_town_levels (leaf text, region text, root text);
INSERT INTO role_town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('role_town', 'role_town_levels') ->> 'nodes' AS nodes;
RESET ROLE;

-- Without SELECT on the source the analyst can publish nothing, not even a report.
SET ROLE regress_anon_analyst;
SELECT anon.anonymize('role_patients', '{role_town}', '{illness}', 'distinct-l-diversity', '{"l": 2}', 'incognito', 'pub');
SELECT anon.anonymize('role_patients', '{role_town}', '{illness}', 'distinct-l-diversity', '{"l": 2}');
SELECT anon.verify('role_patients', '{role_town}', '{illness}', 'k-anonymity', '{"k": 2}');
SELECT anon.eligible_range('role_patients', '{illness}');
SELECT count(*) FROM anon.equivalence_classes('role_patients', '{role_town}', '{illness}');
SELECT to_regclass('pub') AS pub, (SELECT count(*) FROM anon.releases) AS releases;
RESET ROLE;

-- With SELECT granted by the owner, the analyst publishes and grants the release to the reader.
SET ROLE regress_anon_source_owner;
GRANT SELECT ON role_patients TO regress_anon_analyst;
RESET ROLE;
SET ROLE regress_anon_analyst;
SELECT r->'classes' AS classes
FROM anon.anonymize('role_patients', '{role_town}', '{illness}', 'distinct-l-diversity', '{"l": 3, "keep_identifying": true, "keep": ["id"]}', 'incognito',
                    'pub') r;
GRANT SELECT ON pub TO regress_anon_reader;
SELECT output_name, created_by FROM anon.releases;
SELECT r->'published_rows' AS published_rows FROM anon.refresh('pub') r;
RESET ROLE;

-- The reader reads the release, and nothing of the source or the catalog's release rows.
SET ROLE regress_anon_reader;
SELECT count(*) AS rows, count(DISTINCT role_town) AS towns FROM pub;
SELECT count(*) FROM role_patients;
SELECT anon.anonymize('role_patients', '{role_town}', '{illness}', 'k-anonymity', '{"k": 2}');
SELECT anon.verify('pub', '{role_town}', '{illness}', 'distinct-l-diversity', '{"l": 3}') ->> 'satisfied' AS satisfied;
SELECT count(*) AS visible_releases FROM anon.releases;
SELECT anon.refresh('pub');
REFRESH MATERIALIZED VIEW pub;
SELECT anon.drop_release('pub');
SELECT anon.metrics('pub');
RESET ROLE;

-- After the owner revokes SELECT, the analyst's refresh fails and the published release stays as it was.
SET ROLE regress_anon_source_owner;
REVOKE SELECT ON role_patients FROM regress_anon_analyst;
RESET ROLE;
SET ROLE regress_anon_analyst;
SELECT anon.refresh('pub');
REFRESH MATERIALIZED VIEW pub;
SELECT count(*) AS rows FROM pub;
SELECT anon.drop_release('pub');
SELECT to_regclass('pub') AS pub, (SELECT count(*) FROM anon.releases) AS releases;
RESET ROLE;

-- Nothing here needed a superuser. The analyst's and owner's objects are removed by their owners.
SET ROLE regress_anon_source_owner;
SELECT anon.drop_taxonomy('role_town');
DROP TABLE role_patients, role_town_levels;
RESET ROLE;
REVOKE CREATE ON SCHEMA public FROM regress_anon_source_owner, regress_anon_analyst;

-- A database owner who is not a superuser installs the extension (trusted) and uses it.
CREATE ROLE regress_anon_db_owner LOGIN;
CREATE DATABASE regress_anon_owned OWNER regress_anon_db_owner;
\c regress_anon_owned regress_anon_db_owner
SELECT rolsuper FROM pg_roles WHERE rolname = current_user;
CREATE EXTENSION anon;
SELECT extname, extversion, r.rolname AS owner
FROM pg_extension e JOIN pg_roles r ON r.oid = e.extowner WHERE extname = 'anon';
CREATE TABLE t (id int, v text, s text);
INSERT INTO t SELECT i, (ARRAY['x','y'])[i % 2 + 1], (ARRAY['p','q'])[i / 2 % 2 + 1] FROM generate_series(1, 8) i;
CREATE TABLE v_levels (leaf text, root text);
INSERT INTO v_levels VALUES ('x', '*'), ('y', '*');
SELECT anon.taxonomy_from_levels('v', 'v_levels') ->> 'nodes' AS nodes;
SELECT r->'classes' AS classes FROM anon.anonymize('t', '{v}', '{s}', 'distinct-l-diversity', '{"l": 2}', 'auto', 'tr') r;
SELECT anon.refresh('tr') ->> 'published_rows' AS published_rows;
SELECT anon.drop_release('tr');
DROP EXTENSION anon;
\c contrib_regression postgres
DROP DATABASE regress_anon_owned;
DROP ROLE regress_anon_db_owner, regress_anon_source_owner, regress_anon_analyst, regress_anon_reader;
