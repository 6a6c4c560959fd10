-- Kept columns are quasi-identifiers (issue 40): a kept column is published beside the release's classes, so every
-- class split by the kept values (a sub-class: the rows of one gid with the same kept values) must satisfy the
-- release's model. The household attack on Adult: with household = (id + 1) / 2 kept beside occupation in a distinct
-- 3-diverse release, no household is one row's (the single-row check passes), but pairs share a household, and
-- whoever knows a person's household and quasi-identifiers reads the occupations of the few rows left. Each accepted
-- release is checked independently here from its published rows (GROUP BY gid and the kept columns).
\set VERBOSITY terse

CREATE TABLE kc_adult AS
SELECT a.*, (a.id + 1) / 2 AS household, 'all'::text AS region, a.id % 2 AS parity
FROM adult a;

-- The attacker's view of a release with a kept household: sub-classes, the rows whose sub-class holds fewer than
-- 3 occupations, and the rows whose sub-class holds one occupation (learned with certainty).
CREATE FUNCTION kc_attack(rel text, kept text)
RETURNS TABLE (sub_classes bigint, rows_below_3 bigint, rows_certain bigint) LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT count(*), coalesce(sum(n) FILTER (WHERE d < 3), 0)::bigint, coalesce(sum(n) FILTER (WHERE d = 1), 0)::bigint '
        'FROM (SELECT count(*) AS n, count(DISTINCT occupation) AS d FROM %I GROUP BY gid, %I) s', rel, kept);
END $$;

-- The attack on today's release: the distinct 3-diverse release of the README, with the household kept.
SELECT r->'warnings' AS warnings
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 3, "keep": ["household"]}', 'incognito', 'kc_l3') r;
-- Acknowledged: published, with the same figures in the report.
SELECT jsonb_array_length(r->'warnings') AS warnings, r->'warnings'->-1 AS kept_warning
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 3, "keep": ["household"], "keep_identifying": true}', 'incognito',
                    'kc_l3') r;
-- What the attacker reads from the published rows: the same figures.
SELECT * FROM kc_attack('kc_l3', 'household');
-- Releases of one source are composed with each other (docs/republication.md): each release below is dropped once
-- checked, so that the next one is published alone.
SELECT anon.drop_release('kc_l3');

-- k-anonymity (k = 5): the household leaves pairs, refused; the parity of the id, coarse, is accepted and every
-- (gid, parity) sub-class holds at least 5 rows.
SELECT r->'warnings' AS warnings
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'k-anonymity',
                    '{"k": 5, "keep": ["household"]}', 'incognito', 'kc_k5') r;
SELECT r->'warnings' AS warnings, (r->>'classes')::int AS classes
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'k-anonymity',
                    '{"k": 5, "keep": ["parity"]}', 'incognito', 'kc_k5') r;
SELECT count(*) AS sub_classes, count(*) FILTER (WHERE n < 5) AS violating, min(n) AS smallest
FROM (SELECT count(*) AS n FROM kc_k5 GROUP BY gid, parity) s;
SELECT anon.drop_release('kc_k5');

-- Local recoding (mondrian) with distinct 2-diversity: each parity is recoded apart (src/core/job/kept_split_run.hpp),
-- so no class is split by it: every (gid, parity) sub-class is a whole class of at least 2 occupations. Acknowledged
-- as identifying, the parity is not recoded apart: it splits some classes below 2 occupations, which the warning
-- counts and the published rows show. A kept column whose values leave a group no recoding can satisfy (a household
-- of one occupation) is refused, naming its values.
SELECT r->'warnings' AS warnings
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 2, "keep": ["parity"]}', 'mondrian', 'kc_m2') r;
SELECT count(*) AS sub_classes, count(*) FILTER (WHERE d < 2) AS violating, count(DISTINCT gid) AS classes
FROM (SELECT gid, count(*) AS n, count(DISTINCT occupation) AS d FROM kc_m2 GROUP BY gid, parity) s;
SELECT anon.drop_release('kc_m2');
SELECT anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'distinct-l-diversity',
                      '{"l": 2, "keep": ["household"]}', 'mondrian', 'kc_m2');
SELECT r->'warnings'->-1 AS kept_warning
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 2, "keep": ["parity"], "keep_identifying": true}', 'mondrian', 'kc_m2') r;
SELECT count(*) AS sub_classes, count(*) FILTER (WHERE d < 2) AS violating, coalesce(sum(n) FILTER (WHERE d < 2), 0) AS violating_rows
FROM (SELECT count(*) AS n, count(DISTINCT occupation) AS d FROM kc_m2 GROUP BY gid, parity) s;
SELECT anon.drop_release('kc_m2');

-- Both forms: the kept columns are in the QIT (gid, original QIs, kept), which links a row to its class's
-- sensitive values (the ST), never to one of them. k-anonymity: rows sharing (gid, kept values) must number at least
-- k. BSGI's classes of about k rows: the household is refused, and so is the parity (it splits them below k).
-- Incognito's classes are large: the parity is accepted, checked on the QIT.
SELECT r->>'kept_in' AS kept_in
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'k-anonymity',
                    '{"k": 5, "keep": ["household"], "publish": "both"}', 'bsgi', 'kc_b5') r;
SELECT r->>'kept_in' AS kept_in
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'k-anonymity',
                    '{"k": 5, "keep": ["parity"], "publish": "both"}', 'bsgi', 'kc_b5') r;
SELECT r->>'kept_in' AS kept_in, r->'warnings' AS warnings
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'k-anonymity',
                    '{"k": 5, "keep": ["parity"], "publish": "both"}', 'incognito', 'kc_b5') r;
SELECT count(*) AS sub_classes, count(*) FILTER (WHERE n < 5) AS violating
FROM (SELECT count(*) AS n FROM kc_b5_qit GROUP BY gid, parity) s;
SELECT anon.drop_release('kc_b5');
-- The diversity models: the kept household in the QIT leaves each bucket's sensitive values (the ST) as they are,
-- accepted (their k is 1 unless given). With "k": 3 the household is refused: BSGI's buckets of 3 rows hold no two
-- rows of one household, so every (gid, household) is one row.
SELECT r->>'kept_in' AS kept_in, r->'warnings' AS warnings
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "keep": ["household"], "publish": "both"}', 'bsgi', 'kc_bl3') r;
SELECT r->>'kept_in' AS kept_in
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "k": 3, "keep": ["household"], "publish": "both", "replace": true}', 'bsgi', 'kc_bl3') r;
SELECT r->'warnings'->-1 AS kept_warning
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "k": 3, "keep": ["household"], "publish": "both", "replace": true, "keep_identifying": true}',
                    'bsgi', 'kc_bl3') r;
SELECT count(*) AS sub_classes, count(*) FILTER (WHERE n < 3) AS below_k, coalesce(sum(n) FILTER (WHERE n < 3), 0) AS rows_below_k
FROM (SELECT count(*) AS n FROM kc_bl3_qit GROUP BY gid, household) s;
SELECT anon.drop_release('kc_bl3');

-- A constant kept column is harmless: accepted without a warning, and every (gid, region) sub-class is 3-diverse.
SELECT r->'warnings' AS warnings, r->>'kept_in' AS kept_in
FROM anon.anonymize('kc_adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 3, "keep": ["region"]}', 'incognito', 'kc_region') r;
SELECT count(*) AS sub_classes, count(*) FILTER (WHERE d < 3) AS violating
FROM (SELECT count(DISTINCT occupation) AS d FROM kc_region GROUP BY gid, region) s;

-- Refreshes warn, they do not refuse: the region becomes the household, and the refresh reports the figures.
UPDATE kc_adult SET region = household::text;
SELECT r->'warnings'->-1 AS kept_warning FROM anon.refresh('kc_region') r;
SELECT * FROM kc_attack('kc_region', 'region');

SELECT anon.drop_release('kc_region');
DROP FUNCTION kc_attack(text, text);
DROP TABLE kc_adult;
