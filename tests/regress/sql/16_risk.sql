-- Risk figures (anon.risk, docs/risk.md): prosecutor risk, records above the threshold, marketer risk, sample
-- uniques and the estimated population uniqueness with the model Dankar et al.'s rule chose (Pitman's, Zayatz's or
-- the SNB model, each one's estimate reported); for any table, a declared table, and a release; and the two risk
-- fields of anonymize's report.
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

-- Population uniqueness with known truth: samples of Adult (every 2nd and every 20th id) as samples of its 30,162
-- people, whose uniques the whole table gives. Dankar et al.'s rule: above a sampling fraction of 0.1 the smaller
-- of Zayatz's and the SNB model's estimates (snb in the first row, zayatz in the second), at most 0.1 Pitman's;
-- every model's estimate is reported.
CREATE VIEW risk_half AS SELECT * FROM adult WHERE id % 2 = 0;
CREATE VIEW risk_twentieth AS SELECT * FROM adult WHERE id % 20 = 0;
SELECT v AS sample, q AS quasi_identifiers, anon.risk('adult', q)->>'sample_uniques' AS true_uniques,
       round((r->>'sampling_fraction')::numeric, 3) AS fraction, r->>'sample_uniques' AS sample_uniques,
       r->>'population_model' AS model, round((r->>'population_uniques')::numeric, 1) AS uniques,
       round((r->'population_estimates'->>'pitman')::numeric, 1) AS pitman,
       round((r->'population_estimates'->>'zayatz')::numeric, 1) AS zayatz,
       round((r->'population_estimates'->>'snb')::numeric, 1) AS snb
FROM (VALUES ('risk_half', '{age,sex,race,education}'::text[]), ('risk_half', '{sex,race,education,workclass}'),
             ('risk_twentieth', '{age,sex,race,education}')) s(v, q),
     anon.risk(v::regclass, q, 0.2, 30162) r;
SELECT r->>'population_rule' AS rule FROM anon.risk('risk_half', '{age,sex,race,education}', 0.2, 30162) r;
-- Pitman's model without an estimate (its fit does not converge for age and sex): Zayatz's, and the rule says so.
SELECT r->>'population_model' AS model, r->>'population_rule' AS rule,
       r->'population_estimates'->'pitman' AS pitman, round((r->>'population_uniques')::numeric, 4) AS uniques
FROM anon.risk('adult', '{age,sex}', 0.2, 1e6) r;
-- SNB without classes of size 2 (the toy without its pair): no estimate (JSON null), so Zayatz's above 0.1.
CREATE VIEW risk_toy_no_pair AS SELECT * FROM risk_toy WHERE q <> 'c';
SELECT r->>'population_model' AS model, r->>'population_rule' AS rule, r->'population_estimates' AS estimates
FROM anon.risk('risk_toy_no_pair', '{q}', 0.2, 20) r;

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
-- A reader granted the release (not its owner, no declaration): the release's own quasi-identifiers, from the
-- catalog row it cannot see otherwise (issue 38); the same figures as the owner's.
CREATE ROLE regress_risk_reader;
GRANT SELECT ON risk_release TO regress_risk_reader;
SET ROLE regress_risk_reader;
SELECT count(*) AS catalog_rows_seen FROM anon.releases;
SELECT r->>'quasi_identifiers_from' AS taken_from, r->'quasi_identifiers' AS qi, r->>'highest_prosecutor_risk' AS highest,
       round((r->>'marketer_risk')::numeric, 6) AS marketer
FROM anon.risk('risk_release') r;
-- A table it may not read: no release's columns, the usual refusal.
SELECT anon.risk('risk_people');
RESET ROLE;
DROP OWNED BY regress_risk_reader;
DROP ROLE regress_risk_reader;
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

DROP VIEW risk_half, risk_twentieth, risk_toy_no_pair;
DROP TABLE risk_toy, risk_people, risk_empty;
