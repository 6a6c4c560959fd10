-- Risk figures (anon.risk, docs/risk.md): prosecutor risk, records above the threshold, marketer risk, sample
-- uniques and the estimated population uniqueness with the model Dankar et al.'s rule chose; for any table, a
-- declared table, and a release; and the two risk fields of anonymize's report.
\set VERBOSITY terse

-- A small table checked by hand: classes of sizes 1, 1, 2 and 5 over (q).
CREATE TABLE risk_toy (q text, s text);
INSERT INTO risk_toy VALUES ('a', 'x'), ('b', 'x'), ('c', 'x'), ('c', 'y'),
                            ('d', 'x'), ('d', 'y'), ('d', 'x'), ('d', 'y'), ('d', 'z');
SELECT jsonb_pretty(anon.risk('risk_toy', '{q}')) AS risk;
-- As a sample of 1000 people (fraction 0.009 <= 0.1): the rule tries Pitman's model first.
SELECT r->>'population_model' AS model, round((r->>'population_uniques')::numeric, 3) AS uniques,
       round((r->>'sampling_fraction')::numeric, 4) AS fraction
FROM anon.risk('risk_toy', '{q}', 0.2, 1000) r;

-- Adult: risk before and after anonymization.
SELECT r->>'rows' AS rows, r->>'classes' AS classes, r->>'highest_prosecutor_risk' AS highest,
       round((r->>'average_prosecutor_risk')::numeric, 4) AS average,
       round((r->>'records_at_risk')::numeric, 4) AS at_risk, r->>'sample_uniques' AS uniques,
       r->>'population_model' AS model
FROM anon.risk('adult', '{age,sex,race,education}') r;
SELECT r->>'population_model' AS model, round((r->>'population_uniqueness')::numeric, 6) AS uniqueness
FROM anon.risk('adult', '{age,sex,race,education}', 0.2, 3e8) r;

-- A declared table: the quasi-identifiers come from the declaration.
CREATE TABLE risk_people AS SELECT id, age, sex, race, occupation FROM adult;
SELECT anon.declare('risk_people', '{age,sex,race}', '{occupation}');
SELECT r->'quasi_identifiers' AS qi, r->>'quasi_identifiers_from' AS taken_from, r->>'classes' AS classes
FROM anon.risk('risk_people') r;

-- A release: its view's quasi-identifiers; the report of anonymize carries prosecutor and marketer risk, equal to
-- anon.risk's figures on the published view.
SELECT r->>'prosecutor_risk' AS prosecutor, round((r->>'marketer_risk')::numeric, 6) AS marketer
FROM anon.anonymize('risk_people', NULL, NULL, 'k-anonymity', '{"k": 10}', 'incognito', 'risk_release') r;
SELECT r->>'quasi_identifiers_from' AS taken_from, r->>'highest_prosecutor_risk' AS highest,
       round((r->>'marketer_risk')::numeric, 6) AS marketer, r->>'records_at_risk' AS at_risk
FROM anon.risk('risk_release') r;
SELECT r->>'highest_prosecutor_risk' AS highest FROM anon.risk('risk_release', threshold => 0.05) r;
SELECT anon.drop_release('risk_release');

-- An empty table.
CREATE TABLE risk_empty (q text);
SELECT anon.risk('risk_empty', '{q}') - 'relation' AS risk;

-- Errors: the threshold, the population, unknown columns, no declaration.
SELECT anon.risk('risk_toy', '{q}', 1.5);
SELECT anon.risk('risk_toy', '{q}', NULL);
SELECT anon.risk('risk_toy', '{q}', 0.2, 5);
SELECT anon.risk('risk_toy', '{nope}');
SELECT anon.risk('risk_toy', '{}');
SELECT anon.risk('risk_toy');
SELECT anon.risk(NULL, '{q}');

DROP TABLE risk_toy, risk_people, risk_empty;
