-- The solution space (anon.explore, docs/explore.md): one row per minimal full-domain node with its release's
-- figures, best NCP first; publishing a chosen node with params->'levels' (object or array), refused with the
-- reason when the node does not satisfy the model.
\set VERBOSITY terse

SELECT levels, classes, suppressed, round(ncp::numeric, 4) AS ncp, discernibility, round(kl::numeric, 4) AS kl,
       round(prosecutor_risk::numeric, 4) AS prosecutor_risk
FROM anon.explore('adult', '{age,sex,race}', '{}', 'k-anonymity', '{"k": 10}');

-- Every row is a node that anonymize publishes as it is, with the same figures.
SELECT e.levels = r->'levels' AS same_levels, e.classes = (r->>'classes')::bigint AS same_classes,
       abs(e.ncp - (r->>'ncp')::float8) < 1e-9 AS same_ncp, r->>'algorithm' AS algorithm
FROM anon.explore('adult', '{age,sex,race}', '{}', 'k-anonymity', '{"k": 10}') e,
     LATERAL anon.anonymize('adult', '{age,sex,race}', '{}', 'k-anonymity',
                            jsonb_build_object('k', 10, 'levels', e.levels)) r;

-- The search publishes one of these nodes (the best by its metric, params->'metric').
SELECT r->'levels' AS searched FROM anon.anonymize('adult', '{age,sex,race}', '{}', 'k-anonymity', '{"k": 10}',
                                                     'incognito') r;

-- With a suppression budget and a sensitive column (l-diversity).
SELECT levels, classes, suppressed, round(ncp::numeric, 4) AS ncp
FROM anon.explore('adult', '{age,sex,education}', '{occupation}', 'distinct-l-diversity',
                  '{"l": 3, "max_suppression": 0.01}');

-- A declared table.
CREATE TABLE explore_people AS SELECT id, age, sex, race, occupation FROM adult;
SELECT anon.declare('explore_people', '{age,sex,race}', '{occupation}');
SELECT count(*) AS nodes FROM anon.explore('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10}');

-- Publishing a node: as an object, as an array in QI order, into a view.
SELECT r->'levels' AS levels, r->>'classes' AS classes, r->>'lattice_size' AS lattice_size
FROM anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": {"age": 2, "sex": 0, "race": 1}}') r;
SELECT r->'levels' AS levels FROM anon.anonymize('explore_people', NULL, NULL, 'k-anonymity',
                                                 '{"k": 10, "levels": [2, 0, 1]}', 'incognito', 'explore_release') r;
SELECT count(*) AS rows, count(DISTINCT age) AS ages FROM explore_release;
SELECT v->>'satisfied' AS satisfied FROM anon.verify('explore_release', '{age,sex,race}', '{}', 'k-anonymity', '{"k": 10}') v;
SELECT (anon.refresh('explore_release'))->'levels' AS refreshed_levels;
SELECT anon.drop_release('explore_release');

-- A node that does not satisfy the model is refused with the reason.
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": {"age": 0, "sex": 0, "race": 0}}');
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity',
                      '{"k": 10, "levels": {"age": 0, "sex": 0, "race": 0}, "max_suppression": 0.001}');

-- Errors: bad levels, an algorithm that does not publish a given node, levels given to explore.
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": {"age": 9, "sex": 0, "race": 0}}');
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": {"age": 1, "sex": 0}}');
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": {"age": 1, "sex": 0, "race": 0, "zip": 1}}');
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": [1, 0]}');
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": [1, -1, 0]}');
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": "top"}');
SELECT anon.anonymize('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": [1, 0, 0]}', 'mondrian');
SELECT * FROM anon.explore('explore_people', NULL, NULL, 'k-anonymity', '{"k": 10, "levels": [1, 0, 0]}');
SELECT * FROM anon.explore('explore_people', NULL, NULL, 'k-anonymity', '{"k": 40000}');
SELECT * FROM anon.explore('explore_people', NULL, NULL, 'no-such-model', '{}');

DROP TABLE explore_people;
