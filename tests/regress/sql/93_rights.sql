-- Rights and the catalog (issue 40, docs/security.md "Rights and the catalog"), each attack of the issue replayed in
-- a database owned by a non-superuser who holds the analysts' roles, as docs/admin-and-dumps.md advises:
--   1. the database owner cannot attach code to the catalog (it belongs to the superuser), nor hijack the names the
--      extension's SECURITY DEFINER code resolves, so dropping a release does not make it a superuser;
--   2. the owner's maintenance reads an analyst's source with the analyst's rights: a function in the source runs as
--      the analyst and reaches nothing of another analyst's;
--   3. no role rewrites a catalog row; an analyst whose SELECT was revoked keeps the release as it was (not_permitted);
--   4. no role squats a release name;
--   5. another role's taxonomy is never used silently, and a refresh after its owner changed it is refused
--      (taxonomy_changed), the release as it was;
--   6. the nodes of a taxonomy built from data are readable only where the column is;
-- and every function that takes a release name folds it as anon.refresh does.
\set VERBOSITY terse
CREATE ROLE regress_rights_owner LOGIN;
CREATE ROLE regress_rights_a1 LOGIN;
CREATE ROLE regress_rights_a2 LOGIN;
CREATE ROLE regress_rights_eve LOGIN;
CREATE ROLE regress_rights_mallory LOGIN;
GRANT regress_rights_a1, regress_rights_a2 TO regress_rights_owner;
CREATE DATABASE regress_rights_db OWNER regress_rights_owner;
\c regress_rights_db
CREATE SCHEMA eve AUTHORIZATION regress_rights_eve;
\c - regress_rights_owner
CREATE EXTENSION anon;
CREATE SCHEMA a1 AUTHORIZATION regress_rights_a1;
CREATE SCHEMA a2 AUTHORIZATION regress_rights_a2;
CREATE TABLE town_levels (leaf text, region text, root text);
INSERT INTO town_levels VALUES ('a1', 'a', '*'), ('a2', 'a', '*'), ('b1', 'b', '*'), ('b2', 'b', '*');
SELECT anon.taxonomy_from_levels('town', 'town_levels') ->> 'nodes' AS nodes;
CREATE TABLE people (id int PRIMARY KEY, town text, age int, name text, diagnosis text);
INSERT INTO people SELECT i, (ARRAY['a1','a2','b1','b2'])[i % 4 + 1], 20 + i % 50, 'person ' || i,
       (ARRAY['flu','cold','asthma','gout'])[i % 4 + 1] FROM generate_series(1, 120) i;
GRANT SELECT ON people TO regress_rights_a2;

-- 1. The catalog belongs to a superuser: the database owner cannot put a trigger, rule, policy or default on it,
-- nor rename the schema whose name the extension's functions use.
SELECT c.relname, (SELECT rolsuper FROM pg_roles WHERE oid = c.relowner) AS superuser_owns
FROM pg_class c WHERE c.relnamespace = 'anon'::regnamespace AND c.relkind IN ('r', 'S') ORDER BY 1;
CREATE FUNCTION public.pwn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_user <> 'regress_rights_owner' THEN
        EXECUTE 'ALTER ROLE regress_rights_owner SUPERUSER';
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER pwn BEFORE DELETE ON anon.release FOR EACH ROW EXECUTE FUNCTION public.pwn();
CREATE RULE pwn AS ON DELETE TO anon.release DO ALSO SELECT 1;
CREATE POLICY pwn ON anon.release USING (true);
ALTER TABLE anon.release ALTER COLUMN model SET DEFAULT 'x';
ALTER SCHEMA anon RENAME TO anon_old;
-- Overloads the owner may create in its schema anon do not reach the extension's code, which names pg_catalog's.
CREATE FUNCTION anon.format(text, name, name) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    IF current_user <> 'regress_rights_owner' THEN
        EXECUTE 'ALTER ROLE regress_rights_owner SUPERUSER';
    END IF;
    RETURN 'x';
END $$;
SELECT r->>'classes' AS classes FROM anon.anonymize('people', '{town}', '{diagnosis}', 'k-anonymity', '{"k": 5}',
                                                    'mondrian', 'owner_rel') r;
DROP MATERIALIZED VIEW owner_rel;
SELECT count(*) AS rows_left FROM anon.release WHERE output_name = 'owner_rel';
SELECT rolsuper AS owner_became_superuser FROM pg_roles WHERE rolname = 'regress_rights_owner';
DROP FUNCTION anon.format(text, name, name);

-- 2. An analyst's source calls a function of its own. The owner's maintenance reads it with the analyst's rights:
-- the function runs as the analyst and cannot copy the other analyst's table.
\c - regress_rights_a2
CREATE TABLE a2.secret (id int, note text);
INSERT INTO a2.secret VALUES (1, 'a2 only');
SELECT r->>'classes' AS classes FROM anon.anonymize('people', '{town}', '{diagnosis}', 'k-anonymity', '{"k": 5}',
                                                    'mondrian', 'a2.rel2') r;
\c - regress_rights_a1
CREATE TABLE a1.zip_levels (leaf text, root text);
INSERT INTO a1.zip_levels VALUES ('z1', '*'), ('z2', '*'), ('z3', '*');
SELECT anon.taxonomy_from_levels('zip', 'a1.zip_levels') ->> 'nodes' AS nodes;
CREATE TABLE a1.t (id int, zip text, dis text);
INSERT INTO a1.t SELECT i, (ARRAY['z1','z2','z3'])[i % 3 + 1], (ARRAY['flu','cold'])[i % 2 + 1]
FROM generate_series(1, 30) i;
CREATE TABLE a1.seen (who text, copied bigint);
CREATE FUNCTION a1.tap(x text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    copied bigint;
BEGIN
    BEGIN
        SELECT count(*) INTO copied FROM a2.secret;
    EXCEPTION WHEN insufficient_privilege THEN
        copied := NULL;
    END;
    INSERT INTO a1.seen VALUES (current_user, copied);
    RETURN x;
END $$;
CREATE VIEW a1.v AS SELECT zip, a1.tap(dis) AS dis FROM a1.t;
SELECT r->>'classes' AS classes FROM anon.anonymize('a1.v', '{zip}', '{dis}', 'k-anonymity', '{"k": 5}', 'mondrian',
                                                    'a1.rel1') r;
TRUNCATE a1.seen;
-- A copy of every row: a change the refresh may publish (one inserted row would be withheld).
INSERT INTO a1.t SELECT id + 30, zip, dis FROM a1.t;
\c - regress_rights_owner
SELECT release, status FROM anon.refresh_report() WHERE release = 'a1.rel1';
\c - regress_rights_a1
SELECT DISTINCT who, copied FROM a1.seen;

-- 3. No role writes the catalog directly. Eve's rewrite of her own release's source is refused, so the owner's
-- refresh_all cannot copy a table she may not read.
\c - regress_rights_eve
CREATE TABLE eve.twin (id int, age int, name text, diagnosis text);
INSERT INTO eve.twin SELECT i, 20 + i % 5, 'twin', 'x' FROM generate_series(1, 20) i;
SELECT r->>'classes' AS classes FROM anon.anonymize('eve.twin', '{age}', '{}', 'k-anonymity',
    '{"k": 2, "keep": ["id", "name", "diagnosis"], "keep_identifying": true, "publish": "bucketized"}', 'incognito',
    'eve.loot') r;
UPDATE anon.release SET source = 'public.people'::regclass WHERE output_name = 'loot';
DELETE FROM anon.release WHERE output_name = 'loot';
SELECT output_name, source FROM anon.releases ORDER BY output_name;
\c - regress_rights_owner
UPDATE anon.release SET source = 'public.people'::regclass WHERE output_name = 'loot';
DELETE FROM anon.taxonomy;
-- An analyst whose SELECT on the source is revoked: the owner's refresh leaves the release as it was.
REVOKE SELECT ON people FROM regress_rights_a2;
INSERT INTO people SELECT i, 'a1', 30, 'late ' || i, 'flu' FROM generate_series(121, 180) i;
SELECT release, status, detail LIKE '%recomputed with the rights of its owner "regress_rights_a2"%' AS says_why
FROM anon.refresh_report() WHERE release = 'a2.rel2';
SELECT count(*) AS rows_still FROM a2.rel2;
SELECT anon.refresh('a2.rel2');

-- 4. A name cannot be squatted: no role inserts a release row for objects it does not own.
\c - regress_rights_eve
INSERT INTO anon.release (output_schema, output_name, source, quasi_identifiers, sensitive, model, algorithm)
VALUES ('a1', 'future', 'eve.twin', '{age}', '{}', 'k-anonymity', 'mondrian');
\c - regress_rights_owner
INSERT INTO anon.release (output_schema, output_name, source, quasi_identifiers, sensitive, model, algorithm, created_by)
VALUES ('a1', 'future', 'people', '{town}', '{}', 'k-anonymity', 'mondrian', 'regress_rights_a1');
\c - regress_rights_a1
SELECT r->>'classes' AS classes FROM anon.anonymize('a1.t', '{zip}', '{dis}', 'k-anonymity', '{"k": 5}', 'mondrian',
                                                    'a1.future') r;

-- 5. A taxonomy of another role: used with a notice and a warning, recorded with its owner and fingerprint; when
-- its owner replaces it, the analyst's refresh is refused and the release stays.
\c - regress_rights_mallory
SELECT anon.interval_taxonomy('income', 0, 1000, '{100,500}') ->> 'nodes' AS nodes;
\c - regress_rights_a1
CREATE TABLE a1.pay (id int, income int, dis text);
INSERT INTO a1.pay SELECT i, i * 7 % 1000, (ARRAY['flu','cold'])[i % 2 + 1] FROM generate_series(1, 40) i;
SELECT r->'warnings' AS warnings, r->'taxonomies' -> 0 ->> 'owner' AS income_owner,
       length(r->'taxonomies' -> 0 ->> 'fingerprint') AS fingerprint_digits
FROM anon.anonymize('a1.pay', '{income}', '{dis}', 'k-anonymity', '{"k": 4}', 'incognito', 'a1.payrel') r;
\c - regress_rights_mallory
SELECT anon.interval_taxonomy('income', 0, 1000, '{250,500}', replace => true) ->> 'nodes' AS nodes;
\c - regress_rights_a1
SELECT status, detail LIKE 'taxonomy "income" of column "income" changed since%' AS says_which
FROM anon.refresh_if_changed('a1.payrel');
SELECT anon.refresh('a1.payrel');
SELECT DISTINCT income FROM a1.payrel ORDER BY 1;
-- Named on purpose, another role's taxonomy is used without a warning.
SELECT r->'warnings' AS warnings FROM anon.anonymize('a1.pay', '{income}', '{dis}', 'k-anonymity',
    '{"k": 4, "taxonomies": {"income": "income"}}', 'incognito') r;

-- 6. Nodes of a taxonomy built from data: readable by its creator and by roles that may read the column.
SELECT anon.prefix_taxonomy('zipx', 'a1.t', 'zip') ->> 'nodes' AS nodes;
SELECT count(*) AS nodes_a1_sees FROM anon.taxonomy_nodes WHERE taxonomy = 'zipx';
SELECT anon.covers('zipx', 'z*', 'z1') AS a1_covers;
\c - regress_rights_mallory
SELECT count(*) AS nodes_mallory_sees FROM anon.taxonomy_nodes WHERE taxonomy = 'zipx';
SELECT name, readable FROM anon.taxonomies WHERE name = 'zipx';
SELECT count(*) FROM anon.taxonomy_node;
SELECT anon.covers('zipx', 'z*', 'z1') AS mallory_covers;
\c - regress_rights_a1
GRANT USAGE ON SCHEMA a1 TO regress_rights_mallory;
GRANT SELECT (zip) ON a1.t TO regress_rights_mallory;
\c - regress_rights_mallory
SELECT count(*) AS nodes_after_grant FROM anon.taxonomy_nodes WHERE taxonomy = 'zipx';

-- Release names fold as anon.refresh folds them.
\c - regress_rights_a1
SELECT release, status FROM anon.refresh_if_changed('A1.Rel1');
SELECT release, status FROM anon.refresh_if_changed('"a1"."rel1"');
SELECT (anon.refresh('A1.Rel1')->>'classes') IS NOT NULL AS refreshed;

\c contrib_regression postgres
DROP DATABASE regress_rights_db;
DROP ROLE regress_rights_owner, regress_rights_a1, regress_rights_a2, regress_rights_eve, regress_rights_mallory;
