-- Hostile and broken input (issue 7): names carrying quotes, spaces, semicolons and SQL payloads; a caller-controlled
-- search_path with shadowing functions and operators; NULLs, empty and one-row tables, a constant sensitive column;
-- parameters out of range or of the wrong JSON type; broken taxonomies; 1,000 quasi-identifiers; a 10,000-level
-- taxonomy; very long values; unusual characters. Every call either works, with names quoted right and values kept
-- exactly, or fails with an error naming what is wrong, and leaves nothing behind (state() after each failure).
\set VERBOSITY default

-- What a failing call could leave behind: relations of the public schema, release and taxonomy catalog rows, counted
-- from what the earlier test files left.
CREATE TEMP TABLE baseline AS
SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public') AS r,
       (SELECT count(*) FROM anon.release) AS rel, (SELECT count(*) FROM anon.taxonomy) AS tax;
CREATE FUNCTION state(OUT relations bigint, OUT releases bigint, OUT taxonomies bigint) LANGUAGE sql
SET search_path = pg_catalog
AS $$
    SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public') - b.r,
           (SELECT count(*) FROM anon.release) - b.rel, (SELECT count(*) FROM anon.taxonomy) - b.tax
    FROM pg_temp.baseline b
$$;
-- A table every payload below tries to drop.
CREATE TABLE victims (id int);
INSERT INTO victims VALUES (1);

-- Names with quotes, spaces, semicolons and payloads -------------------------------------------------------------

CREATE TABLE "evil""; DROP TABLE victims; --" (
    id int,
    "city"" name" text,
    "a b;c" int,
    "x'); DROP TABLE victims; --" text,
    "Diag""nosis; DROP TABLE victims" text
);
INSERT INTO "evil""; DROP TABLE victims; --" VALUES
    (1, 'Lyon', 34, 'p', 'asthma'), (2, 'Lyon', 38, 'q', 'flu'), (3, 'Nice', 31, 'p', 'flu'),
    (4, 'Nice', 36, 'q', 'asthma'), (5, 'Metz', 52, 'p', 'asthma'), (6, 'Metz', 57, 'q', 'flu');
CREATE TABLE "levels; DROP TABLE victims" ("leaf"" x" text, "root'" text);
INSERT INTO "levels; DROP TABLE victims" VALUES ('Lyon', '*'), ('Nice', '*'), ('Metz', '*');
CREATE TABLE "pq levels" (a text, b text);
INSERT INTO "pq levels" VALUES ('p', '*'), ('q', '*');
SELECT anon.taxonomy_from_levels('city"; DROP TABLE victims; --', '"levels; DROP TABLE victims"');
SELECT anon.taxonomy_from_levels('x''); DROP TABLE victims; --', '"pq levels"');
SELECT anon.interval_taxonomy('age''s; DROP TABLE victims', 0, 100, '{10,50}');
SELECT state();
-- Generalized and bucketized releases under a hostile output name.
SELECT r->'classes' AS classes, r->'release' AS release
FROM anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name', 'a b;c', 'x''); DROP TABLE victims; --'],
                    ARRAY['Diag"nosis; DROP TABLE victims'], 'distinct-l-diversity',
                    '{"l": 2, "keep": ["id"], "publish": "both", "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --",
                      "a b;c": "age''s; DROP TABLE victims", "x''); DROP TABLE victims; --": "x''); DROP TABLE victims; --"}}',
                    'incognito', '"out""; DROP TABLE victims; --"') r;
SELECT relname, relkind FROM pg_class WHERE relname LIKE 'out"; DROP%' ORDER BY relname;
SELECT output_schema, output_name, quasi_identifiers, sensitive FROM anon.release;
SELECT attname FROM pg_attribute WHERE attrelid = '"out""; DROP TABLE victims; --"'::regclass AND attnum > 0
ORDER BY attnum;
SELECT count(*) AS victims FROM victims;
-- Every row is published and covers its original values (checked through SQL: the kept id is in the QIT only, so
-- each class's published values are joined to its QIT ids), and each class publishes its rows' diagnoses.
SELECT count(*) AS rows,
       count(*) FILTER (WHERE anon.covers('city"; DROP TABLE victims; --', r."city"" name", s."city"" name")
                          AND anon.covers('age''s; DROP TABLE victims', r."a b;c", s."a b;c"::text)) AS covered
FROM (SELECT DISTINCT gid, "city"" name", "a b;c" FROM "out""; DROP TABLE victims; --") r
JOIN "out""; DROP TABLE victims; --_qit" q USING (gid) JOIN "evil""; DROP TABLE victims; --" s USING (id);
SELECT count(*) AS diagnoses_differ
FROM ((SELECT gid, "Diag""nosis; DROP TABLE victims" FROM "out""; DROP TABLE victims; --"
       EXCEPT ALL SELECT q.gid, s."Diag""nosis; DROP TABLE victims"
       FROM "out""; DROP TABLE victims; --_qit" q JOIN "evil""; DROP TABLE victims; --" s USING (id))
      UNION ALL
      (SELECT q.gid, s."Diag""nosis; DROP TABLE victims"
       FROM "out""; DROP TABLE victims; --_qit" q JOIN "evil""; DROP TABLE victims; --" s USING (id)
       EXCEPT ALL SELECT gid, "Diag""nosis; DROP TABLE victims" FROM "out""; DROP TABLE victims; --")) d;
SELECT r->'satisfied' AS satisfied
FROM anon.verify('"out""; DROP TABLE victims; --"', ARRAY['city" name', 'a b;c', 'x''); DROP TABLE victims; --'],
                 ARRAY['Diag"nosis; DROP TABLE victims'], 'distinct-l-diversity', '{"l": 2}') r;
SELECT count(*) AS qit_rows FROM "out""; DROP TABLE victims; --_qit";
SELECT sum(count) AS st_rows FROM "out""; DROP TABLE victims; --_st";
SELECT r->'published_rows' AS published_rows FROM anon.refresh('"out""; DROP TABLE victims; --"') r;
SELECT m->'classes' AS classes FROM anon.metrics('"out""; DROP TABLE victims; --"') m;
SELECT count(*) AS classes
FROM anon.equivalence_classes('"out""; DROP TABLE victims; --"', ARRAY['city" name', 'a b;c'],
                              ARRAY['Diag"nosis; DROP TABLE victims']);
SELECT anon.drop_release('"out""; DROP TABLE victims; --"');
SELECT state();

-- Payloads that are not valid names are refused with a clear error.
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 2, "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto',
                      'x; DROP TABLE victims');
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 2, "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto',
                      'x"; DROP TABLE victims; --');
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 2, "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto',
                      'public.x.y; DROP TABLE victims');
-- A column name that does not exist (unquoted forms are not folded or parsed).
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['"city"" name"'], '{}', 'k-anonymity', '{"k": 2}');
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['id); DROP TABLE victims; --'], '{}', 'k-anonymity',
                      '{"k": 2}');
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 2, "keep": ["id\"; DROP TABLE victims; --"],
                        "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto', 'hostile_out');
-- A taxonomy name that does not exist, as a mapping and to drop.
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 2, "taxonomies": {"city\" name": "x\"; DROP TABLE victims; --"}}', 'auto', 'hostile_out');
SELECT anon.drop_taxonomy('''; DROP TABLE victims; --');
-- A source that is not a relation name.
SELECT anon.anonymize('victims; DROP TABLE victims', ARRAY['id'], '{}', 'k-anonymity', '{"k": 2}');
SELECT count(*) AS victims FROM victims;
SELECT state();

-- Output names that are taken ------------------------------------------------------------------------------------

-- A view, or the _qit / _st name a bucketized release needs, is never replaced (also with replace).
CREATE VIEW hostile_view AS SELECT 1 AS x;
CREATE TABLE hostile_bucket_st (x int);
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 2, "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto', 'hostile_view');
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 2, "replace": true, "publish": "bucketized",
                        "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto', 'hostile_bucket');
SELECT state();
-- An existing release: refused without replace; replace may be given as the JSON string 'true' (params->>'replace').
SELECT r->'classes' AS classes
FROM anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                    '{"k": 2, "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto', 'hostile_r') r;
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 3, "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}', 'auto', 'hostile_r');
SELECT anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                      '{"k": 3, "replace": false, "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}',
                      'auto', 'hostile_r');
SELECT r->'min_class_size' AS min_class_size
FROM anon.anonymize('"evil""; DROP TABLE victims; --"', ARRAY['city" name'], '{}', 'k-anonymity',
                    '{"k": 3, "replace": "true", "taxonomies": {"city\" name": "city\"; DROP TABLE victims; --"}}',
                    'auto', 'hostile_r') r;
SELECT params FROM anon.release WHERE output_name = 'hostile_r';
SELECT anon.drop_release('hostile_r');
DROP VIEW hostile_view;
DROP TABLE hostile_bucket_st;
SELECT state();

-- A caller-controlled search_path with shadowing functions and operators -----------------------------------------

-- Every shadow raises, so a single call from the extension would fail the call that made it.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['text', 'integer', 'bigint', 'smallint', 'oid', 'name', 'text[]', 'jsonb'] LOOP
        EXECUTE format('CREATE FUNCTION public.shadow_compare(a %1$s, b %1$s) RETURNS boolean LANGUAGE plpgsql '
                       'AS $f$ BEGIN RAISE EXCEPTION ''shadowing operator called on %% and %%'', a, b; END $f$', t);
        EXECUTE format('CREATE OPERATOR public.= (LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = public.shadow_compare)', t);
        EXECUTE format('CREATE OPERATOR public.<> (LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = public.shadow_compare)', t);
        EXECUTE format('CREATE OPERATOR public.< (LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = public.shadow_compare)', t);
        EXECUTE format('CREATE OPERATOR public.> (LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = public.shadow_compare)', t);
    END LOOP;
END
$$;
CREATE FUNCTION public.shadow_concat(a text, b text) RETURNS text LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'shadowing || called'; END $$;
CREATE FUNCTION public.shadow_minus(a bigint, b bigint) RETURNS bigint LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'shadowing - called'; END $$;
CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = public.shadow_concat);
CREATE OPERATOR public.- (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = public.shadow_minus);
CREATE FUNCTION public.lower(text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'shadowing lower called'; END $$;
CREATE FUNCTION public.upper(text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'shadowing upper called'; END $$;
CREATE FUNCTION public.quote_ident(text) RETURNS text LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'shadowing quote_ident called'; END $$;
CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'shadowing now called'; END $$;
CREATE FUNCTION public.unnest(text[]) RETURNS SETOF text LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'shadowing unnest called'; END $$;
CREATE FUNCTION public.generate_series(bigint, bigint) RETURNS SETOF bigint LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'shadowing generate_series called'; END $$;
CREATE FUNCTION public.current_schemas(boolean) RETURNS name[] LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'shadowing current_schemas called'; END $$;
CREATE FUNCTION public.pg_has_role(name, name, text) RETURNS boolean LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'shadowing pg_has_role called'; END $$;
CREATE TABLE public.release (x int);  -- an unqualified "release" would find this table

CREATE TABLE shadow_src (id int, city text, age int, ailment text);
INSERT INTO shadow_src SELECT i, (ARRAY['Lyon','Nice','Metz'])[i % 3 + 1], 20 + i % 40,
                              (ARRAY['asthma','flu','cold'])[i % 3 + 1 + (i / 3) % 2 * 0]
FROM generate_series(1, 60) i;
UPDATE shadow_src SET ailment = (ARRAY['asthma','flu','cold'])[(id / 2) % 3 + 1];
CREATE TABLE shadow_city_levels (leaf text, region text, root text);
INSERT INTO shadow_city_levels VALUES ('Lyon', 'South', '*'), ('Nice', 'South', '*'), ('Metz', 'North', '*');

SET search_path = public, anon, pg_catalog;
-- The shadows are live for unqualified SQL in this session.
SELECT 'a'::text = 'a'::text;
SELECT 1 = 1;
SELECT lower('A');
-- Every function of the extension runs without calling them (the releases of shadow_src coexist on purpose: their
-- composition is acknowledged, so that refreshes and audits of either go through the composition check).
SELECT taxonomy_from_levels('shadow_city', 'shadow_city_levels');
SELECT interval_taxonomy('shadow_age', 0, 100, '{10,20}');
SELECT r->'classes' AS classes
FROM anonymize('shadow_src', '{city,age}', '{ailment}', 'distinct-l-diversity',
               '{"l": 2, "keep_identifying": true, "keep": ["id"], "acknowledge_composition": true,
                 "taxonomies": {"city": "shadow_city", "age": "shadow_age"}}',
               'incognito', 'shadow_release') r;
SELECT r->'classes' AS classes
FROM anonymize('shadow_src', '{city,age}', '{ailment}', 'unique-distinct-l-diversity',
               '{"l": 2, "keep": ["id"], "publish": "both", "acknowledge_composition": true,
                 "taxonomies": {"city": "shadow_city", "age": "shadow_age"}}',
               'bsgi', 'shadow_bsgi') r;
SELECT r->'classes' AS classes
FROM anonymize('shadow_src', '{city,age}', '{ailment}', 'k-anonymity',
               '{"k": 4, "taxonomies": {"city": "shadow_city", "age": "shadow_age"}}', 'mondrian', 'shadow_mondrian') r;
SELECT r->'satisfied' AS satisfied
FROM verify('shadow_release', '{city,age}', '{ailment}', 'distinct-l-diversity', '{"l": 2}') r;
SELECT r->'satisfied' AS satisfied
FROM verify('shadow_bsgi', '{city,age}', '{ailment}', 'distinct-l-diversity', '{"l": 2}') r;
SELECT count(*) AS classes FROM equivalence_classes('shadow_release', '{city,age}', '{ailment}');
SELECT r->'published_rows' AS published_rows FROM refresh('shadow_release') r;
SELECT r->'published_rows' AS published_rows FROM refresh('shadow_bsgi') r;
REFRESH MATERIALIZED VIEW shadow_mondrian;
SELECT m->'classes' AS classes FROM metrics('shadow_release') m;
SELECT r->'n' AS n FROM eligible_range('shadow_src', '{ailment}') r;
SELECT covers('shadow_city', '*', 'Lyon') AS covers;
SELECT count(*) AS audited_classes FROM audit_minimality('shadow_release', ARRAY['flu'], 2);
-- Errors are reported, not masked by a shadow.
SELECT anonymize('shadow_src', '{city,age}', '{ailment}', 'distinct-l-diversity',
                 '{"l": 2, "taxonomies": {"city": "shadow_city", "age": "shadow_age"}}', 'auto', 'shadow_release');
SELECT drop_release('shadow_release');
SELECT drop_release('shadow_bsgi');
SELECT drop_release('shadow_mondrian');
SELECT drop_taxonomy('shadow_city');
SELECT drop_taxonomy('shadow_age');
RESET search_path;
DROP TABLE public.release, shadow_src, shadow_city_levels;
DROP FUNCTION public.lower(text), public.upper(text), public.quote_ident(text), public.now(), public.unnest(text[]),
              public.generate_series(bigint, bigint), public.current_schemas(boolean),
              public.pg_has_role(name, name, text);
SET client_min_messages = warning;
DROP FUNCTION public.shadow_compare(text, text), public.shadow_compare(integer, integer),
              public.shadow_compare(bigint, bigint), public.shadow_compare(smallint, smallint),
              public.shadow_compare(oid, oid), public.shadow_compare(name, name), public.shadow_compare(text[], text[]),
              public.shadow_compare(jsonb, jsonb), public.shadow_concat(text, text), public.shadow_minus(bigint, bigint)
              CASCADE;
RESET client_min_messages;
SELECT state();

-- NULLs, empty and one-row tables, a constant sensitive column ---------------------------------------------------

CREATE TABLE small (id int, hcity text, ailment text);
CREATE TABLE small_levels (leaf text, root text);
INSERT INTO small_levels VALUES ('Lyon', '*'), ('Nice', '*');
SELECT anon.taxonomy_from_levels('hcity', 'small_levels');
-- Empty: every algorithm refuses with the same clear error; verify and the class listing report nothing.
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 2}', 'bsgi', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2}', 'mondrian', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'tau-l-diversity', '{"tau": 0.5, "l": 2}', 'sweep', 'hostile_out');
SELECT v - 'relation' AS verify FROM anon.verify('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2}') v;
SELECT count(*) AS classes FROM anon.equivalence_classes('small', '{hcity}', '{ailment}');
SELECT anon.eligible_range('small', '{ailment}');
SELECT state();
-- One row: k = 1 is a release of that row; any diversity is ineligible.
INSERT INTO small VALUES (1, 'Lyon', 'flu');
SELECT r->'classes' AS classes, r->'min_class_size' AS min_class_size
FROM anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 1}', 'incognito', 'hostile_one') r;
SELECT * FROM hostile_one;
SELECT anon.drop_release('hostile_one');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2}', 'incognito', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 2}', 'auto', 'hostile_out');
-- A sensitive column with one value: no l >= 2 is eligible, whatever the algorithm; k-anonymity works.
INSERT INTO small VALUES (2, 'Lyon', 'flu'), (3, 'Nice', 'flu'), (4, 'Nice', 'flu');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 2}', 'bsgi', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'entropy-l-diversity', '{"l": 2}', 'mondrian', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'tau-l-diversity', '{"tau": 0.5, "l": 2}', 'sweep', 'hostile_out');
SELECT r->'classes' AS classes FROM anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2}') r;
-- NULLs: refused by default (naming the column), published as a value of their own with nulls = 'value'.
INSERT INTO small VALUES (5, NULL, 'cold'), (6, NULL, NULL), (7, 'Lyon', NULL), (8, 'Nice', 'cold');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 2}', 'auto', 'hostile_out');
SELECT r->'classes' AS classes
FROM anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 2, "nulls": "value", "keep_identifying": true, "keep": ["id"]}',
                    'incognito', 'hostile_nulls') r;
SELECT s.id, s.hcity, r.hcity AS published_city, s.ailment, r.ailment AS published_diagnosis
FROM small s LEFT JOIN hostile_nulls r USING (id) ORDER BY s.id;
SELECT anon.drop_release('hostile_nulls');
SELECT state();

-- Parameters out of range or of the wrong JSON type; unknown models and algorithms ---------------------------------

DELETE FROM small WHERE hcity IS NULL OR ailment IS NULL;
INSERT INTO small VALUES (9, 'Lyon', 'asthma'), (10, 'Nice', 'asthma');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'tau-l-diversity', '{"tau": 1, "l": 2}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'tau-l-diversity', '{"tau": 0.2, "l": 2}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'tau-l-diversity', '{"tau": "half", "l": 2}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'tau-l-diversity', '{"tau": 0.5, "l": 9}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'tau-l-diversity', '{"l": 2}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 't-closeness', '{"t": -0.1}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 't-closeness', '{"t": 1.5}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 't-closeness', '{"t": [0.2]}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 't-closeness', '{"t": 0.2, "distance": "euclid"}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'm-confidentiality', '{"k": 2, "m": 0, "sensitive_values": ["flu"]}',
                      'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'm-confidentiality', '{"k": 2, "m": "2", "sensitive_values": "flu"}',
                      'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'm-confidentiality', '{"k": 2, "m": {"x": 1}, "sensitive_values": ["flu"]}',
                      'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 1e300}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": null}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 99999999999}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'recursive-cl-diversity', '{"c": "NaN", "l": 2}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'K-Anonymity', '{"k": 2}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', '', '{"k": 2}', 'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2}', 'SWEEP; DROP TABLE victims', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2}', 'sweep', 'hostile_out');
SELECT state();

-- Broken taxonomies written straight into the catalog ------------------------------------------------------------

-- A value that is its own parent, a parent that is not a node, two roots, a source value missing from the leaves.
INSERT INTO anon.taxonomy (name) VALUES ('self_loop'), ('dangling'), ('two_roots');
INSERT INTO anon.taxonomy_node (taxonomy, value, parent) VALUES
    ('self_loop', '*', NULL), ('self_loop', 'Lyon', 'Lyon'), ('self_loop', 'Nice', '*'),
    ('dangling', '*', NULL), ('dangling', 'Lyon', 'France'), ('dangling', 'Nice', '*'),
    ('two_roots', 'Lyon', NULL), ('two_roots', 'Nice', NULL);
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2, "taxonomies": {"hcity": "self_loop"}}',
                      'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2, "taxonomies": {"hcity": "dangling"}}',
                      'auto', 'hostile_out');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2, "taxonomies": {"hcity": "two_roots"}}',
                      'auto', 'hostile_out');
INSERT INTO small VALUES (11, 'Paris', 'flu');
SELECT anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 2}', 'mondrian', 'hostile_out');
DELETE FROM small WHERE id = 11;
SELECT anon.covers('self_loop', '*', 'Lyon') AS self_loop_covers;
SELECT anon.drop_taxonomy('self_loop'), anon.drop_taxonomy('dangling'), anon.drop_taxonomy('two_roots');
SELECT state();

-- Size: 1,000 quasi-identifiers, a 10,000-level taxonomy, 100 kB values ---------------------------------------------

-- 1,000 QI columns of two values each, all generalized by one two-level taxonomy.
CREATE TABLE ab_levels (leaf text, root text);
INSERT INTO ab_levels VALUES ('a', '*'), ('b', '*');
SELECT anon.taxonomy_from_levels('ab', 'ab_levels');
DO $$
BEGIN
    EXECUTE 'CREATE TABLE wide (id int, s text, ' ||
            (SELECT string_agg(format('q%s text', i), ', ') FROM generate_series(1, 1000) i) || ')';
    EXECUTE 'INSERT INTO wide SELECT g, (ARRAY[''x'',''y'',''z''])[g % 3 + 1], ' ||
            (SELECT string_agg(format('CASE WHEN (g + %s) %% 2 = 0 THEN ''a'' ELSE ''b'' END', i), ', ')
             FROM generate_series(1, 1000) i) || ' FROM generate_series(1, 30) g';
END
$$;
SELECT (SELECT array_agg(format('q%s', i)) FROM generate_series(1, 1000) i) AS wide_qis,
       (SELECT jsonb_build_object('taxonomies', jsonb_object_agg(format('q%s', i), 'ab'))
        FROM generate_series(1, 1000) i) AS wide_taxonomies \gset
-- Full-domain search over a lattice of 2^1000 nodes is refused at once; the local-recoding algorithms work.
SELECT anon.anonymize('wide', :'wide_qis', '{s}', 'k-anonymity', :'wide_taxonomies'::jsonb || '{"k": 2}', 'incognito',
                      'hostile_out');
-- Local recoding publishes it: the release's objects repeat the computed pieces, with no ranking subquery over the
-- source's columns (before 0.4 its views would have exceeded PostgreSQL's 1,664 query columns and were refused).
SELECT r->'classes' AS classes
FROM anon.anonymize('wide', :'wide_qis', '{s}', 'k-anonymity', :'wide_taxonomies'::jsonb || '{"k": 3}', 'mondrian',
                    'hostile_wide') r;
SELECT count(*) AS published, count(DISTINCT gid) AS classes FROM hostile_wide;
SELECT anon.drop_release('hostile_wide');
SELECT r->'classes' AS classes, r->'min_class_size' AS min_class_size
FROM anon.anonymize('wide', :'wide_qis', '{s}', 'k-anonymity', :'wide_taxonomies'::jsonb || '{"k": 3}', 'mondrian') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('wide', :'wide_qis', '{s}', 'distinct-l-diversity', :'wide_taxonomies'::jsonb || '{"l": 3}', 'bsgi') r;
-- A NULL sensitive value of so wide a table: the source check refuses it with the read's message before the read
-- (1 scan: the sensitive column grouped for l shows its NULL group, beside the one per-row test of the other
-- columns, anon._row_misfit).
CREATE FUNCTION wide_try(call text, OUT outcome text, OUT scans bigint) LANGUAGE plpgsql AS $$
DECLARE
    scans_before bigint := pg_stat_get_xact_numscans('wide'::regclass);
BEGIN
    EXECUTE call;
    outcome := 'published';
    scans := pg_stat_get_xact_numscans('wide'::regclass) - scans_before;
EXCEPTION WHEN OTHERS THEN
    outcome := SQLERRM;
    scans := pg_stat_get_xact_numscans('wide'::regclass) - scans_before;
END
$$;
BEGIN;
UPDATE wide SET s = NULL WHERE id = 5;
SELECT * FROM wide_try(format('SELECT anon.anonymize(%L, %L::text[], %L, %L, %L::jsonb, %L)', 'wide', :'wide_qis',
                              '{s}', 'distinct-l-diversity', :'wide_taxonomies'::jsonb || '{"l": 3}', 'bsgi'));
ROLLBACK;
DROP FUNCTION wide_try(text);
DROP TABLE wide, ab_levels;
SELECT anon.drop_taxonomy('ab');
SELECT state();

-- A chain of 10,000 levels above two leaves.
INSERT INTO anon.taxonomy (name) VALUES ('chain');
INSERT INTO anon.taxonomy_node (taxonomy, value, parent)
SELECT 'chain', 'level ' || i, CASE WHEN i < 10000 THEN 'level ' || (i + 1) END FROM generate_series(1, 10000) i;
INSERT INTO anon.taxonomy_node (taxonomy, value, parent) VALUES ('chain', 'Lyon', 'level 1'), ('chain', 'Nice', 'level 1');
SELECT r->'classes' AS classes, r->'levels' AS levels
FROM anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity', '{"k": 5, "taxonomies": {"hcity": "chain"}}',
                    'incognito', 'hostile_chain') r;
SELECT DISTINCT hcity FROM hostile_chain;
SELECT r->'classes' AS classes, r->'levels' AS levels
FROM anon.anonymize('small', '{hcity}', '{ailment}', 'k-anonymity',
                    '{"k": 7, "replace": true, "taxonomies": {"hcity": "chain"}}', 'incognito', 'hostile_chain') r;
SELECT r->'published_rows' AS published_rows FROM anon.refresh('hostile_chain') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 2, "taxonomies": {"hcity": "chain"}}',
                    'mondrian') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('small', '{hcity}', '{ailment}', 'distinct-l-diversity', '{"l": 2, "taxonomies": {"hcity": "chain"}}',
                    'bsgi') r;
SELECT anon.drop_release('hostile_chain');
SELECT anon.drop_taxonomy('chain');
SELECT state();

-- Very long values and unusual characters ---------------------------------------------------------------------------

-- 100 kB values (incompressible: md5 chains) as a sensitive value, and as a QI value with a taxonomy of its own.
CREATE TABLE long_values (id int, city text, note text);
INSERT INTO long_values
SELECT i, CASE WHEN i % 2 = 0 THEN 'Lyon' ELSE (SELECT string_agg(md5(j::text), '') FROM generate_series(1, 3125) j) END,
       (SELECT string_agg(md5((i % 3 * 10000 + j)::text), '') FROM generate_series(1, 3125) j)
FROM generate_series(1, 12) i;
SELECT min(length(note)) AS note_bytes, max(length(city)) AS city_bytes FROM long_values;
CREATE TABLE long_levels (leaf text, root text);
INSERT INTO long_levels SELECT DISTINCT city, '*' FROM long_values;
-- The catalog's index cannot hold a 100 kB taxonomy value: a clear error, nothing stored.
SELECT anon.taxonomy_from_levels('long_city', 'long_levels');
SELECT state();
-- Long sensitive and kept values are published exactly; verify reads long QI values without taxonomies.
SELECT anon.interval_taxonomy('long_id', 0, 100, '{4}');
SELECT r->'classes' AS classes
FROM anon.anonymize('long_values', '{id}', '{note}', 'distinct-l-diversity',
                    '{"l": 3, "keep_identifying": true, "keep": ["city"], "taxonomies": {"id": "long_id"}}', 'incognito', 'hostile_long') r;
SELECT count(*) AS rows, count(*) FILTER (WHERE r.note = s.note AND r.city = s.city) AS exact
FROM hostile_long r JOIN long_values s ON s.note = r.note AND s.city = r.city AND anon.covers('long_id', r.id, s.id::text);
SELECT r->'satisfied' AS satisfied FROM anon.verify('hostile_long', '{id}', '{note}', 'distinct-l-diversity', '{"l": 3}') r;
SELECT r->'classes' AS classes FROM anon.verify('long_values', '{city}', '{note}', 'k-anonymity', '{"k": 6}') r;
SELECT anon.drop_release('hostile_long');
SELECT anon.drop_taxonomy('long_id');
DROP TABLE long_values, long_levels;
SELECT state();

-- Control characters, backslashes, quotes, escapes, invalid-looking sequences spelled out, combining marks,
-- right-to-left text and U+FFFD are ordinary values.
CREATE TABLE odd (id int, city text, ailment text);
INSERT INTO odd VALUES
    (1, E'tab\there', E'line\nbreak'), (2, E'tab\there', E'bell\x07'), (3, E'back\\slash', E'\x01\x1f\x7f'),
    (4, E'back\\slash', '"; DROP TABLE victims; --'), (5, '\xff\xfe', '{"a": 1}'), (6, '\xff\xfe', '%s%n%x'),
    (7, E'e\u0301\u200b', E'\uFFFD'), (8, E'e\u0301\u200b', E'\u05e9\u05dc\u05d5\u05dd \u202e'),
    (9, '{a,"b}', E'\\N'), (10, '{a,"b}', 'NULL');
CREATE TABLE odd_levels (leaf text, mid text, root text);
INSERT INTO odd_levels SELECT DISTINCT city, CASE WHEN id <= 4 THEN E'ascii\tgroup' ELSE E'other \u2400 group' END, '*'
FROM odd;
SELECT anon.taxonomy_from_levels(E'odd\ncity', 'odd_levels');
SELECT r->'classes' AS classes
FROM anon.anonymize('odd', '{city}', '{ailment}', 'distinct-l-diversity',
                    E'{"l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"city": "odd\\ncity"}}', 'incognito', 'hostile_odd') r;
-- Every row published once, with its sensitive value byte for byte and a QI label that covers the original.
SELECT count(*) AS rows, count(*) FILTER (WHERE r.ailment = s.ailment AND anon.covers(E'odd\ncity', r.city, s.city)) AS exact
FROM hostile_odd r JOIN odd s USING (id);
SELECT r->'satisfied' AS satisfied FROM anon.verify('hostile_odd', '{city}', '{ailment}', 'distinct-l-diversity', '{"l": 2}') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('odd', '{city}', '{ailment}', 'unique-distinct-l-diversity',
                    E'{"l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"city": "odd\\ncity"}}', 'bsgi', 'hostile_odd_bsgi') r;
SELECT count(*) AS rows, count(*) FILTER (WHERE r.ailment = s.ailment AND anon.covers(E'odd\ncity', r.city, s.city)) AS exact
FROM hostile_odd_bsgi r JOIN odd s USING (id);
SELECT anon.drop_release('hostile_odd'), anon.drop_release('hostile_odd_bsgi');
-- U+2400 (the symbol the extension uses internally for NULL) in the data is refused, not mistaken for NULL.
INSERT INTO odd_levels VALUES (E'\u2400', E'ascii\tgroup', '*');
INSERT INTO odd VALUES (11, E'\u2400', 'x');
SELECT anon.anonymize('odd', '{city}', '{ailment}', 'k-anonymity',
                      E'{"k": 2, "nulls": "value", "taxonomies": {"city": "odd\\ncity"}}', 'incognito', 'hostile_odd');
UPDATE odd SET city = 'tab' || chr(9) || 'here', ailment = E'\u2400' WHERE id = 11;
SELECT anon.anonymize('odd', '{city}', '{ailment}', 'k-anonymity', E'{"k": 2, "taxonomies": {"city": "odd\\ncity"}}',
                      'incognito', 'hostile_odd');
SELECT state();
SELECT anon.drop_taxonomy(E'odd\ncity');
DROP TABLE odd, odd_levels;

-- Source columns named like the columns the release's queries add (the tuple key, the rank of local recoding) ------
-- are kept and published as they are, by global and local recoding, in the view and in the QIT.
CREATE TABLE internal_names (id int, hcity text, ailment text, anon_rank int, anon_key text);
INSERT INTO internal_names
SELECT g, CASE WHEN g % 2 = 0 THEN 'Lyon' ELSE 'Nice' END, (ARRAY['flu', 'cold', 'asthma'])[g % 3 + 1], 100 - g, 'k' || g
FROM generate_series(1, 12) g;
SELECT r->'classes' AS classes
FROM anon.anonymize('internal_names', '{hcity}', '{ailment}', 'distinct-l-diversity',
                    '{"l": 2, "keep_identifying": true, "keep": ["id", "anon_rank", "anon_key"]}', 'incognito',
                    'hostile_internal_global') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('internal_names', '{hcity}', '{ailment}', 'unique-distinct-l-diversity',
                    '{"l": 2, "keep_identifying": true, "keep": ["anon_key", "anon_rank", "id"]}', 'bsgi',
                    'hostile_internal_local') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('internal_names', '{hcity}', '{ailment}', 'distinct-l-diversity',
                    '{"l": 2, "keep_identifying": true, "keep": ["anon_rank", "id", "anon_key"], "publish": "both"}',
                    'mondrian', 'hostile_internal_qit') r;
-- Each row published once with its own kept values and diagnosis.
SELECT (SELECT count(*) FROM hostile_internal_global r JOIN internal_names s
        ON (r.id, r.anon_rank, r.anon_key, r.ailment) = (s.id, s.anon_rank, s.anon_key, s.ailment)) AS global_rows,
       (SELECT count(*) FROM hostile_internal_local r JOIN internal_names s
        ON (r.id, r.anon_rank, r.anon_key, r.ailment) = (s.id, s.anon_rank, s.anon_key, s.ailment)) AS local_rows,
       (SELECT count(*) FROM hostile_internal_qit_qit r JOIN internal_names s
        ON (r.id, r.anon_rank, r.anon_key, r.hcity) = (s.id, s.anon_rank, s.anon_key, s.hcity)) AS qit_rows;
SELECT anon.drop_release('hostile_internal_global'), anon.drop_release('hostile_internal_local'),
       anon.drop_release('hostile_internal_qit');
DROP TABLE internal_names;
SELECT state();

-- Clean up ---------------------------------------------------------------------------------------------------------

SELECT anon.drop_taxonomy('hcity'), anon.drop_taxonomy('city"; DROP TABLE victims; --'),
       anon.drop_taxonomy('x''); DROP TABLE victims; --'), anon.drop_taxonomy('age''s; DROP TABLE victims');
DROP TABLE small, small_levels, "evil""; DROP TABLE victims; --", "levels; DROP TABLE victims", "pq levels";
SELECT count(*) AS victims FROM victims;
DROP TABLE victims;
SELECT state();
DROP FUNCTION state();
DROP TABLE baseline;
