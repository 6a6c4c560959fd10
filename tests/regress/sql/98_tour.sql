-- The tour of docs/tour.md: this file's pg_regress output is the transcript the doc shows, and
-- tests/scripts/tour_test.sh checks that the doc's transcript equals tests/regress/expected/98_tour.out.
\set VERBOSITY terse
-- 1. A table of one's own: people with an age, a sex, a race, an education and an occupation (from Adult).
CREATE TABLE tour_people AS
SELECT id, age, sex, race, education, occupation FROM adult;
-- 2. Declare once which columns identify people and which are sensitive.
SELECT anon.declare('tour_people', '{age,sex,race,education}', '{occupation}');
-- 3. How identifiable are the rows today?
SELECT r->>'rows' AS rows, r->>'classes' AS classes, r->>'highest_prosecutor_risk' AS highest_risk,
       round((r->>'records_at_risk')::numeric, 3) AS records_at_risk, r->>'sample_uniques' AS sample_uniques
FROM anon.risk('tour_people') r;
-- 4. The solution space for distinct 3-diversity: every minimal full-domain generalization.
SELECT levels, classes, suppressed, round(ncp::numeric, 4) AS ncp, round(prosecutor_risk::numeric, 4) AS risk
FROM anon.explore('tour_people', NULL, NULL, 'distinct-l-diversity', '{"l": 3}');
-- 5. Publish the node with the least information loss as a materialized view.
SELECT r->'levels' AS levels, r->>'classes' AS classes, round((r->>'ncp')::numeric, 4) AS ncp,
       round((r->>'prosecutor_risk')::numeric, 4) AS prosecutor_risk
FROM anon.anonymize('tour_people', NULL, NULL, 'distinct-l-diversity',
                    jsonb_build_object('l', 3, 'levels',
                        (SELECT levels FROM anon.explore('tour_people', NULL, NULL, 'distinct-l-diversity',
                                                         '{"l": 3}') LIMIT 1)),
                    'auto', 'tour_release') r;
SELECT * FROM tour_release ORDER BY gid, occupation LIMIT 5;
-- 6. Check it independently, and measure its risk.
SELECT v->>'satisfied' AS satisfied, v->>'classes' AS classes, v->>'min_class_size' AS min_class_size
FROM anon.verify('tour_release', '{gid}', '{occupation}', 'distinct-l-diversity', '{"l": 3}') v;
SELECT r->>'highest_prosecutor_risk' AS highest_risk, round((r->>'marketer_risk')::numeric, 4) AS marketer_risk
FROM anon.risk('tour_release') r;
-- 7. A node that does not satisfy the model is refused with the reason.
SELECT anon.anonymize('tour_people', NULL, NULL, 'distinct-l-diversity', '{"l": 3, "levels": [0, 0, 0, 0]}');
-- 8. Clean up.
SELECT anon.drop_release('tour_release');
DROP TABLE tour_people;
