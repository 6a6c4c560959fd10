-- anon.anonymize on the Adult data set (30,162 rows, loaded by 00_setup) with 7 quasi-identifiers and occupation
-- as the sensitive column: one release per model, each verified with anon.verify and checked independently with
-- anon.covers; the ineligible case; anon.metrics and anon.equivalence_classes; refresh after the source changed;
-- drop_release. Results of the anon functions are read in FROM clauses.
\set VERBOSITY default

-- Checks a release of adult: rows, anon.verify with the release's model and params, rows whose published QI value
-- does not cover the original (checked once per distinct (published, original) pair, so it stays fast), rows
-- whose occupation changed, rows that do not join back to adult, and the class count against the report.
CREATE FUNCTION adult_check(release regclass, model text, params jsonb)
RETURNS TABLE (release_rows bigint, suppressed bigint, satisfied boolean, not_covered bigint,
               occupation_changed bigint, unmatched bigint, classes_ok boolean)
LANGUAGE plpgsql AS $$
DECLARE
    qi constant text[] := '{sex,age,race,marital-status,education,native-country,workclass}';
    col text;
    n bigint;
    report jsonb;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s', release) INTO release_rows;
    SELECT r.report INTO report FROM anon.release r
    WHERE to_regclass(format('%I.%I', r.output_schema, r.output_name)) = release;
    suppressed := (report->>'suppressed')::bigint;
    SELECT (v->>'satisfied')::boolean INTO satisfied FROM anon.verify(release, qi, '{occupation}', model, params) v;
    not_covered := 0;
    FOREACH col IN ARRAY qi LOOP
        -- MATERIALIZED keeps the planner from pushing the covers() filter below the GROUP BY.
        EXECUTE format('WITH p AS MATERIALIZED (SELECT r.%1$I AS g, s.%1$I::text AS v, count(*) AS n '
                       'FROM %2$s r JOIN public.adult s USING (id) GROUP BY 1, 2) '
                       'SELECT coalesce(sum(n), 0) FROM p WHERE NOT coalesce(anon.covers(%3$L, g, v), false)',
                       col, release, col) INTO n;
        not_covered := not_covered + n;
    END LOOP;
    EXECUTE format('SELECT count(*) FROM %s r JOIN public.adult s USING (id) '
                   'WHERE r.occupation IS DISTINCT FROM s.occupation', release) INTO occupation_changed;
    EXECUTE format('SELECT count(*) FROM %s r WHERE NOT EXISTS (SELECT 1 FROM public.adult s WHERE s.id = r.id)',
                   release) INTO unmatched;
    EXECUTE format('SELECT count(DISTINCT gid) = %s AND count(DISTINCT gid) = count(DISTINCT (gid, sex, age, race, '
                   '"marital-status", education, "native-country", workclass)) FROM %s',
                   (report->>'classes')::bigint, release) INTO classes_ok;
    RETURN NEXT;
END
$$;

-- The fields of a report that describe the release (no timings).
CREATE FUNCTION adult_brief(report jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(jsonb_object_agg(key, value), '{}') FROM jsonb_each(report)
    WHERE key IN ('model', 'algorithm', 'rows', 'published_rows', 'suppressed', 'classes', 'min_class_size',
                  'levels', 'minimal_nodes', 'lattice_size', 'release')
$$;

-- distinct-l-diversity, l = 3 ---------------------------------------------------------------------------------

SELECT jsonb_pretty(adult_brief(r)) AS report
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 3, "keep_identifying": true, "keep": ["id"]}', 'incognito', 'adult_l3') r;
SELECT count(*) AS rows FROM adult_l3;
SELECT v - 'relation' AS verify
FROM anon.verify('adult_l3', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                 'distinct-l-diversity', '{"l": 3}') v;
SELECT * FROM adult_check('adult_l3', 'distinct-l-diversity', '{"l": 3}');
-- The published values of each QI (the levels of the report).
SELECT 'sex' AS qi, string_agg(DISTINCT sex, ', ') AS published FROM adult_l3
UNION ALL SELECT 'age', string_agg(DISTINCT age, ', ') FROM adult_l3
UNION ALL SELECT 'race', string_agg(DISTINCT race, ', ') FROM adult_l3
UNION ALL SELECT 'marital-status', string_agg(DISTINCT "marital-status", ', ') FROM adult_l3
UNION ALL SELECT 'education', string_agg(DISTINCT education, ', ') FROM adult_l3
UNION ALL SELECT 'native-country', string_agg(DISTINCT "native-country", ', ') FROM adult_l3
UNION ALL SELECT 'workclass', string_agg(DISTINCT workclass, ', ') FROM adult_l3
ORDER BY qi;

-- Utility metrics of the release: the report's values, as stored when the view was populated.
SELECT key, CASE jsonb_typeof(value) WHEN 'number' THEN trim_scale(round(value::text::numeric, 4))::text
                 ELSE value #>> '{}' END AS value
FROM anon.metrics('adult_l3') m, jsonb_each(m) WHERE key <> 'computed_at' ORDER BY key;
SELECT m ? 'computed_at' AS has_computed_at,
       (SELECT bool_and(m->key = report->key) FROM jsonb_object_keys(m) key WHERE key NOT IN ('release', 'computed_at'))
           AS same_as_report
FROM anon.metrics('adult_l3') m, anon.release WHERE output_name = 'adult_l3';
-- Discernibility is the sum of squared class sizes.
SELECT sum(n * n) AS discernibility FROM (SELECT count(*) AS n FROM adult_l3 GROUP BY gid) c;

-- Equivalence classes of the release: one per published QI combination, as many as the report's classes.
SELECT qi, size, distinct_sensitive, round(entropy::numeric, 4) AS entropy, round(max_share::numeric, 4) AS max_share
FROM anon.equivalence_classes('adult_l3', '{sex,age,race,marital-status,education,native-country,workclass}',
                              '{occupation}')
ORDER BY qi LIMIT 5;
SELECT count(*) AS classes, sum(size) AS rows, min(size) AS min_size, min(distinct_sensitive) AS min_distinct,
       count(*) = (SELECT (report->>'classes')::int FROM anon.release WHERE output_name = 'adult_l3') AS matches_report
FROM anon.equivalence_classes('adult_l3', '{sex,age,race,marital-status,education,native-country,workclass}',
                              '{occupation}');

-- entropy-l-diversity, l = 3 ----------------------------------------------------------------------------------

SELECT adult_brief(r) AS report
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'entropy-l-diversity', '{"l": 3, "keep_identifying": true, "keep": ["id"]}', 'incognito', 'adult_e3') r;
SELECT * FROM adult_check('adult_e3', 'entropy-l-diversity', '{"l": 3}');
SELECT min(entropy) >= ln(3) - 1e-12 AS entropy_ok
FROM anon.equivalence_classes('adult_e3', '{sex,age,race,marital-status,education,native-country,workclass}',
                              '{occupation}');

-- recursive-cl-diversity, c = 3, l = 3 ------------------------------------------------------------------------

SELECT adult_brief(r) AS report
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'recursive-cl-diversity', '{"c": 3, "l": 3, "keep_identifying": true, "keep": ["id"]}', 'incognito', 'adult_r3') r;
SELECT * FROM adult_check('adult_r3', 'recursive-cl-diversity', '{"c": 3, "l": 3}');

-- k-anonymity, k = 5 ------------------------------------------------------------------------------------------

SELECT adult_brief(r) AS report
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'k-anonymity', '{"k": 5, "keep_identifying": true, "keep": ["id"]}', 'incognito', 'adult_k5') r;
SELECT * FROM adult_check('adult_k5', 'k-anonymity', '{"k": 5}');
SELECT min(n) AS min_class_size FROM (SELECT count(*) AS n FROM adult_k5 GROUP BY gid) c;

-- An ineligible requirement ------------------------------------------------------------------------------------

-- simple-l-diversity with l = 9 needs every value below 1/9 = 11.1% of each class; Prof-specialty alone covers
-- 4038 of 30162 rows (13.4%) of the whole table, so no generalization can qualify: the eligibility check refuses
-- it before any search, quoting the numbers and BSGI's optimal l. Nothing is created.
SELECT occupation, count(*), round(100.0 * count(*) / 30162, 2) AS percent
FROM adult GROUP BY occupation ORDER BY count(*) DESC LIMIT 2;
SELECT adult_brief(r)
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'simple-l-diversity', '{"l": 9}', 'incognito', 'adult_s9') r;
SELECT to_regclass('adult_s9') AS view, (SELECT count(*) FROM anon.release WHERE output_name = 'adult_s9') AS catalog;
-- l = 7 is below the bound 7.46 and qualifies (here only the fully generalized table does).
SELECT adult_brief(r) AS report
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'simple-l-diversity', '{"l": 7}') r;

-- Refresh after the source changed ----------------------------------------------------------------------------

-- 100 rows change occupation to Armed-Forces: in each class the changed rows would be a group of one occupation,
-- not 3-diverse on its own, so anon.refresh withholds the new version (issue 42) and the release stays as it was.
CREATE TEMP TABLE adult_saved AS SELECT id, occupation FROM adult WHERE id % 300 = 0;
UPDATE adult SET occupation = 'Armed-Forces' WHERE id % 300 = 0;
SELECT adult_brief(r) AS report FROM anon.refresh('adult_l3') r;
SELECT * FROM adult_check('adult_l3', 'distinct-l-diversity', '{"l": 3}');
SELECT count(*) AS armed_forces FROM adult_l3 WHERE occupation = 'Armed-Forces';
-- A release that was not refreshed keeps the data of its creation: 100 occupations differ from the source now.
SELECT * FROM adult_check('adult_k5', 'k-anonymity', '{"k": 5}');
-- Restored, and a copy of every row added: each class gains a copy of itself, which satisfies the model on its
-- own; anon.refresh recomputes the release from the current data with its stored configuration.
UPDATE adult a SET occupation = s.occupation FROM adult_saved s WHERE a.id = s.id;
INSERT INTO adult (id, sex, age, race, "marital-status", education, "native-country", workclass, occupation,
                   "salary-class")
SELECT id + 100000, sex, age, race, "marital-status", education, "native-country", workclass, occupation,
       "salary-class"
FROM adult;
SELECT adult_brief(r) AS report FROM anon.refresh('adult_l3') r;
SELECT * FROM adult_check('adult_l3', 'distinct-l-diversity', '{"l": 3}');
-- The copies deleted, and refreshed with plain REFRESH MATERIALIZED VIEW: the release is the first one again.
DELETE FROM adult WHERE id > 100000;
REFRESH MATERIALIZED VIEW adult_l3;
SELECT adult_brief(report) AS report FROM anon.release WHERE output_name = 'adult_l3';
SELECT * FROM adult_check('adult_l3', 'distinct-l-diversity', '{"l": 3}');
SELECT count(*) AS armed_forces FROM adult_l3 WHERE occupation = 'Armed-Forces';
SELECT * FROM adult_check('adult_k5', 'k-anonymity', '{"k": 5}');

-- drop_release ------------------------------------------------------------------------------------------------

SELECT anon.drop_release('adult_l3');
SELECT to_regclass('adult_l3') AS view, (SELECT count(*) FROM anon.release WHERE output_name = 'adult_l3') AS catalog;
SELECT anon.drop_release('public.adult_e3');
SELECT anon.drop_release('adult_r3');
SELECT anon.drop_release('adult_k5');
SELECT count(*) AS releases FROM anon.release;
SELECT count(*) AS views FROM pg_class WHERE relkind = 'm';
-- The source and the taxonomies are untouched.
SELECT count(*) AS adult_rows FROM adult;
SELECT count(*) AS taxonomies FROM anon.taxonomy WHERE name IN ('sex', 'age', 'race', 'marital-status', 'education',
                                                                 'native-country', 'workclass', 'occupation');
