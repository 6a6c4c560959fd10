-- The minimality attack on a small crafted table (the issue's check): an l-diverse full-domain release by
-- Incognito lets the adversary who knows the minimality principle link area a1 to HIV with certainty; releases of
-- the same table by MASK (m-confidentiality) give no class above 1/m, both when MASK distorts and when its
-- k-anonymous step already suffices; near-to-minimality (the publisher used l' = 3 for m = 2) is audited too.

CREATE TABLE clinic (id int PRIMARY KEY, area text, illness text);
INSERT INTO clinic VALUES
    (1, 'a1', 'HIV'),  (2, 'a1', 'HIV'),
    (3, 'a2', 'flu'),  (4, 'a2', 'flu'),  (5, 'a2', 'flu'),  (6, 'a2', 'cold'),
    (7, 'a3', 'HIV'),  (8, 'a3', 'flu'),
    (9, 'a4', 'cold'), (10, 'a4', 'flu'),
    (11, 'a5', 'HIV'), (12, 'a5', 'cold'),
    (13, 'a6', 'flu'), (14, 'a6', 'cold');
CREATE TABLE area_levels (area text, region text, root text);
INSERT INTO area_levels VALUES ('a1', 'A', '*'), ('a2', 'A', '*'), ('a3', 'B', '*'), ('a4', 'B', '*'),
                               ('a5', 'C', '*'), ('a6', 'C', '*');
CREATE TABLE illness_levels (illness text, root text);
INSERT INTO illness_levels VALUES ('HIV', '*'), ('flu', '*'), ('cold', '*');
SELECT * FROM anon.taxonomy_from_levels('area', 'area_levels');
SELECT * FROM anon.taxonomy_from_levels('illness', 'illness_levels');

-- Incognito, distinct 2-diversity: a1 (two HIV) forces the regions. The adversary knows a1 has 2 tuples and a2 4,
-- and that region A holds 2 HIV: a placement with at most one HIV in a1 and two in a2 would have made the areas
-- 2-diverse for HIV, so minimality excludes it and a1 is HIV with credibility 1.
SELECT r->'levels' AS levels
FROM anon.anonymize('clinic', '{area}', '{illness}', 'distinct-l-diversity', '{"l": 2}', 'incognito', 'clinic_l2') r;
SELECT qi, class_size, round(credibility::numeric, 4) AS credibility, violates
FROM anon.audit_minimality('clinic_l2', '{HIV}', 2) ORDER BY qi;

-- MASK with k = 3, m = 2: the 3-anonymous step publishes the regions, every region already holds at most 1/2
-- HIV, nothing is distorted; the generalization came from the areas' sizes alone, so nothing is excluded and
-- every area gets its region's share.
SELECT r->'levels' AS levels, r->>'violating_classes' AS v, r->>'distorted' AS distorted
FROM anon.anonymize('clinic', '{area}', '{illness}', 'm-confidentiality',
                    '{"k": 3, "m": 2, "sensitive_values": ["HIV"]}', 'mask', 'clinic_mask3') r;
SELECT qi, class_size, round(credibility::numeric, 4) AS credibility, violates
FROM anon.audit_minimality('clinic_mask3', '{HIV}', 2) ORDER BY qi;
SELECT anon.drop_release('clinic_mask3');

-- MASK with k = 2, m = 2: the areas stay, a1 violates 2-diversity for HIV (V = {a1}), the 2-diverse area with the
-- highest HIV share (1/2) is L, and one of a1's HIV tuples is distorted to reach 1/2. Its areas intersected with
-- clinic_l2's regions narrow some people below 2 illnesses: the composition is acknowledged (docs/republication.md).
SELECT r->'levels' AS levels, r->>'violating_classes' AS v, r->>'donor_classes' AS l_classes,
       r->>'distorted' AS distorted
FROM anon.anonymize('clinic', '{area}', '{illness}', 'm-confidentiality',
                    '{"k": 2, "m": 2, "sensitive_values": ["HIV"], "keep_identifying": true, "keep": ["id"],
                      "acknowledge_composition": true}', 'mask', 'clinic_mask2') r;
SELECT area, count(*) FILTER (WHERE illness = 'HIV') AS hiv, count(*) AS tuples
FROM clinic_mask2 GROUP BY area ORDER BY area;
SELECT qi, class_size, round(credibility::numeric, 4) AS credibility, violates
FROM anon.audit_minimality('clinic_mask2', '{HIV}', 2) ORDER BY qi;
SELECT r->'satisfied' AS satisfied
FROM anon.verify('clinic_mask2', '{area}', '{illness}', 'm-confidentiality', '{"m": 2, "sensitive_values": ["HIV"]}') r;
SELECT anon.drop_release('clinic_mask2');

-- Near-to-minimality: a publisher who used distinct 3-diversity, audited for m = 2. With l = 3 no placement of
-- region A's two HIV tuples keeps both areas 3-diverse for HIV (a1 would need none, a2 at most one), so none is
-- excluded: a1's credibility is the plain average, 1/3.
SELECT r->'levels' AS levels
FROM anon.anonymize('clinic', '{area}', '{illness}', 'distinct-l-diversity', '{"l": 3}', 'incognito', 'clinic_l3') r;
SELECT qi, class_size, round(credibility::numeric, 4) AS credibility, violates
FROM anon.audit_minimality('clinic_l3', '{HIV}', 3, 2) ORDER BY qi;

-- The same release as published by "another tool" (a table linked to the source by id): the audit finds the same
-- credibilities; a published value that does not cover its source value, an unknown key column and an unknown
-- sensitive value are refused.
CREATE TABLE their_release AS
SELECT c.id, CASE WHEN c.area IN ('a1', 'a2') THEN 'A' WHEN c.area IN ('a3', 'a4') THEN 'B' ELSE 'C' END AS area,
       c.illness
FROM clinic c;
SELECT qi, class_size, round(credibility::numeric, 4) AS credibility, violates
FROM anon.audit_minimality_table('clinic', 'their_release', 'id', '{area}', 'illness', '{HIV}', 2) ORDER BY qi;
\set VERBOSITY terse
SELECT * FROM anon.audit_minimality_table('clinic', 'their_release', 'no_such_key', '{area}', 'illness', '{HIV}', 2);
SELECT * FROM anon.audit_minimality_table('clinic', 'their_release', 'id', '{area,zone}', 'illness', '{HIV}', 2);
SELECT * FROM anon.audit_minimality_table('clinic', 'their_release', 'id', '{area}', 'illness', '{measles}', 2);
UPDATE their_release SET area = 'B' WHERE id = 1;
SELECT * FROM anon.audit_minimality_table('clinic', 'their_release', 'id', '{area}', 'illness', '{HIV}', 2);
\set VERBOSITY default
DROP TABLE their_release;

-- Errors: an unknown sensitive value, m below 2, too few l-diverse classes for MASK; nothing is left behind.
\set VERBOSITY terse
SELECT * FROM anon.audit_minimality('clinic_l2', '{measles}', 2);
SELECT * FROM anon.audit_minimality('clinic_l2', '{HIV}', 2, 1);
SELECT anon.anonymize('clinic', '{area}', '{illness}', 'm-confidentiality',
                      '{"k": 2, "m": 3, "sensitive_values": ["HIV"]}', 'mask', 'clinic_bad');
SELECT anon.anonymize('clinic', '{area}', '{illness}', 'm-confidentiality',
                      '{"k": 2, "m": 1, "sensitive_values": ["HIV"]}', 'mask', 'clinic_bad');
\set VERBOSITY default
SELECT count(*) AS leftovers FROM pg_class WHERE relname LIKE 'clinic_bad%';

SELECT anon.drop_release(r) FROM unnest('{clinic_l2,clinic_l3}'::text[]) r;
SELECT anon.drop_taxonomy('area'), anon.drop_taxonomy('illness');
DROP TABLE clinic, area_levels, illness_levels;
