-- ARX's hierarchy files as they are (issue 38): a label a row repeats at consecutive levels is one node filling them
-- (a single-child chain: FARS's ages "[80,99]" at levels 3 and 4, the unknown month "[13,13]" and day "[99,99]";
-- ICD's code "A12" that is its own category). Built with anon.taxonomy_from_levels, inspected (summaries, stored
-- spans, anon.covers), used by anon.anonymize with full-domain and local recoding; the releases verify, stay
-- unchanged on a refresh, and their published values cover the source's. Then what is still refused, each error
-- naming the labels, and anon.taxonomy_from_pairs' rows whose parent is their own value.
\set VERBOSITY default

-- The level tables ---------------------------------------------------------------------------------------------

-- Ages 20-99: bands of 5, 10, 20 and 40 years; from 80 on the 20- and 40-year levels are both "[80,99]".
CREATE TABLE fars_age_levels (age text, l1 text, l2 text, l3 text, l4 text, l5 text);
INSERT INTO fars_age_levels
SELECT a, format('[%s,%s]', a / 5 * 5, a / 5 * 5 + 4), format('[%s,%s]', a / 10 * 10, a / 10 * 10 + 9),
       CASE WHEN a >= 80 THEN '[80,99]' ELSE format('[%s,%s]', a / 20 * 20, a / 20 * 20 + 19) END,
       CASE WHEN a >= 80 THEN '[80,99]' ELSE format('[%s,%s]', a / 40 * 40, a / 40 * 40 + 39) END, '*'
FROM generate_series(20, 99) a;
-- Months 1-12 by quarter and half year; 13 (unknown) is "[13,13]" at both levels.
CREATE TABLE fars_month_levels (month text, l1 text, l2 text, l3 text);
INSERT INTO fars_month_levels
SELECT m, CASE WHEN m = 13 THEN '[13,13]' ELSE format('[%s,%s]', (m - 1) / 3 * 3 + 1, (m - 1) / 3 * 3 + 3) END,
       CASE WHEN m = 13 THEN '[13,13]' ELSE format('[%s,%s]', (m - 1) / 6 * 6 + 1, (m - 1) / 6 * 6 + 6) END, '*'
FROM generate_series(1, 13) m;
-- Days 1-31 by week and by two weeks and the rest; 99 (unknown) is "[99,99]" at both levels.
CREATE TABLE fars_day_levels (day text, l1 text, l2 text, l3 text);
INSERT INTO fars_day_levels
SELECT d, CASE WHEN d = 99 THEN '[99,99]' ELSE format('[%s,%s]', (d - 1) / 7 * 7 + 1, least((d - 1) / 7 * 7 + 7, 31)) END,
       CASE WHEN d = 99 THEN '[99,99]' WHEN d <= 14 THEN '[1,14]' ELSE '[15,31]' END, '*'
FROM (SELECT generate_series(1, 31) UNION ALL SELECT 99) s(d);
-- ICD-like codes: "A12" is its own category at level 1.
CREATE TABLE icd_levels (code text, category text, chapter text, root text);
INSERT INTO icd_levels VALUES
    ('A10', 'A10-A11', 'A1', '*'), ('A11', 'A10-A11', 'A1', '*'), ('A12', 'A12', 'A1', '*'),
    ('A15', 'A15-A19', 'A1', '*'), ('A17', 'A15-A19', 'A1', '*'),
    ('B20', 'B20-B22', 'B2', '*'), ('B21', 'B20-B22', 'B2', '*'), ('B22', 'B20-B22', 'B2', '*');

-- Built as they are: every leaf at the table's depth (height = columns - 1), a chain stored once with its span.
SELECT anon.taxonomy_from_levels('fars_age', 'fars_age_levels');
SELECT anon.taxonomy_from_levels('fars_month', 'fars_month_levels');
SELECT anon.taxonomy_from_levels('fars_day', 'fars_day_levels');
SELECT anon.taxonomy_from_levels('icd', 'icd_levels');
SELECT taxonomy, value, parent, span FROM anon.taxonomy_nodes
WHERE taxonomy IN ('fars_age', 'fars_month', 'fars_day', 'icd') AND span > 1 ORDER BY taxonomy, value;
-- The chain covers what each of its levels covers; the leaf "A12" is its own category and lies under "A1".
SELECT anon.covers('fars_age', '[80,99]', '81') AS chain_81, anon.covers('fars_age', '[80,89]', '81') AS band_81,
       anon.covers('fars_age', '[80,99]', '95') AS chain_95, anon.covers('fars_age', '[0,39]', '81') AS other_81,
       anon.covers('fars_month', '[13,13]', '13') AS month_13, anon.covers('fars_day', '[1,14]', '99') AS day_99,
       anon.covers('icd', 'A12', 'A12') AS a12_itself, anon.covers('icd', 'A1', 'A12') AS a12_chapter,
       anon.covers('icd', 'A10-A11', 'A12') AS a12_other;

-- Used by anon.anonymize -----------------------------------------------------------------------------------------

CREATE TABLE fars (id int PRIMARY KEY, age int, month int, day int, icd text, injury text);
INSERT INTO fars
SELECT i, 20 + (i * 37) % 80, CASE WHEN i % 11 = 0 THEN 13 ELSE 1 + (i * 5) % 12 END,
       CASE WHEN i % 13 = 0 THEN 99 ELSE 1 + (i * 7) % 31 END,
       (ARRAY['A10', 'A11', 'A12', 'A15', 'A17', 'B20', 'B21', 'B22'])[1 + i % 8],
       (ARRAY['none', 'minor', 'serious', 'fatal'])[1 + (i * 3) % 4]
FROM generate_series(1, 120) i;
-- Checks a release of fars: its rows, anon.verify, the rows whose published value does not cover the original
-- (anon.covers over the release joined to the source), and what a refresh finds (status).
CREATE FUNCTION fars_check(release regclass, qi text[], params jsonb)
RETURNS TABLE (release_rows bigint, satisfied boolean, not_covered bigint, refresh text)
LANGUAGE plpgsql AS $$
DECLARE
    col text;
    n bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s', release) INTO release_rows;
    SELECT (v->>'satisfied')::boolean INTO satisfied
    FROM anon.verify(release, qi, '{injury}', 'k-anonymity', params) v;
    not_covered := 0;
    FOREACH col IN ARRAY qi LOOP
        EXECUTE format('SELECT count(*) FROM %s r JOIN fars s USING (id) WHERE NOT anon.covers(%L, r.%I, s.%I::text)',
                       release, CASE col WHEN 'age' THEN 'fars_age' WHEN 'month' THEN 'fars_month'
                                         WHEN 'day' THEN 'fars_day' ELSE 'icd' END, col, col) INTO n;
        not_covered := not_covered + n;
    END LOOP;
    SELECT f.status INTO refresh FROM anon.refresh_if_changed(release::text) f;
    RETURN NEXT;
END
$$;
CREATE FUNCTION fars_brief(report jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(jsonb_object_agg(key, value), '{}') FROM jsonb_each(report)
    WHERE key IN ('model', 'rows', 'published_rows', 'suppressed', 'classes', 'min_class_size', 'levels')
$$;

-- A fixed node at the chain's levels: level 3 and level 4 of age both publish "[80,99]" for ages from 80 on, and
-- level 1 of icd publishes "A12" for A12.
SELECT fars_brief(r) FROM anon.anonymize('fars', '{age,icd}', '{injury}', 'k-anonymity',
    '{"k": 1, "keep": ["id"], "keep_identifying": true, "levels": {"age": 3, "icd": 1},
      "taxonomies": {"age": "fars_age", "icd": "icd"}}', 'incognito', 'fars_l3') r;
SELECT r.age, count(*) AS n, min(s.age) AS lowest, max(s.age) AS highest
FROM fars_l3 r JOIN fars s USING (id) GROUP BY r.age ORDER BY r.age COLLATE "C";
SELECT DISTINCT r.icd, s.icd AS original FROM fars_l3 r JOIN fars s USING (id) WHERE s.icd IN ('A10', 'A12')
ORDER BY 1, 2;
SELECT fars_brief(r) FROM anon.anonymize('fars', '{age}', '{injury}', 'k-anonymity',
    '{"k": 1, "keep": ["id"], "keep_identifying": true, "levels": {"age": 4}, "taxonomies": {"age": "fars_age"}}', 'incognito', 'fars_l4') r;
SELECT age, count(*) AS n FROM fars_l4 GROUP BY age ORDER BY age COLLATE "C";
SELECT * FROM fars_check('fars_l3', '{age,icd}', '{"k": 1, "taxonomies": {"age": "fars_age", "icd": "icd"}}');
SELECT * FROM fars_check('fars_l4', '{age}', '{"k": 1, "taxonomies": {"age": "fars_age"}}');

-- k-anonymity over the four columns: Incognito (full-domain), refine (local recoding) and Mondrian.
SELECT fars_brief(r) FROM anon.anonymize('fars', '{age,month,day,icd}', '{injury}', 'k-anonymity',
    '{"k": 4, "keep": ["id"], "keep_identifying": true,
      "taxonomies": {"age": "fars_age", "month": "fars_month", "day": "fars_day", "icd": "icd"}}',
    'incognito', 'fars_incognito') r;
SELECT * FROM fars_check('fars_incognito', '{age,month,day,icd}',
    '{"k": 4, "taxonomies": {"age": "fars_age", "month": "fars_month", "day": "fars_day", "icd": "icd"}}');
SELECT fars_brief(r) - 'levels' FROM anon.anonymize('fars', '{age,month,day,icd}', '{injury}', 'k-anonymity',
    '{"k": 4, "keep": ["id"], "keep_identifying": true,
      "taxonomies": {"age": "fars_age", "month": "fars_month", "day": "fars_day", "icd": "icd"}}',
    'refine', 'fars_refine') r;
SELECT * FROM fars_check('fars_refine', '{age,month,day,icd}',
    '{"k": 4, "taxonomies": {"age": "fars_age", "month": "fars_month", "day": "fars_day", "icd": "icd"}}');
SELECT fars_brief(r) - 'levels' FROM anon.anonymize('fars', '{age,month,day,icd}', '{injury}', 'k-anonymity',
    '{"k": 4, "keep": ["id"], "keep_identifying": true,
      "taxonomies": {"age": "fars_age", "month": "fars_month", "day": "fars_day", "icd": "icd"}}',
    'mondrian', 'fars_mondrian') r;
SELECT * FROM fars_check('fars_mondrian', '{age,month,day,icd}',
    '{"k": 4, "taxonomies": {"age": "fars_age", "month": "fars_month", "day": "fars_day", "icd": "icd"}}');
-- Local recoding publishes the chains where a class needs them: rows published under each chain's label.
SELECT count(*) FILTER (WHERE age = '[80,99]') AS age_80_99, count(*) FILTER (WHERE month = '[13,13]') AS month_13,
       count(*) FILTER (WHERE day = '[99,99]') AS day_99
FROM fars_refine;

-- Still refused, naming the labels ------------------------------------------------------------------------------

-- A label repeated in a row at levels that are not consecutive (levels 1 and 3, not 2).
CREATE TABLE gap_levels (leaf text, l1 text, l2 text, l3 text, root text);
INSERT INTO gap_levels VALUES ('a', 'x', 'y', 'x', '*'), ('b', 'b1', 'y', 'z', '*');
SELECT anon.taxonomy_from_levels('bad_gap', 'gap_levels');
-- An inconsistent chain: "[80,99]" at levels 3 and 4 in one row, at level 3 under another level-4 parent in another.
CREATE TABLE chain_levels (age text, l1 text, l2 text, l3 text, l4 text, root text);
INSERT INTO chain_levels VALUES
    ('81', '[80,84]', '[80,89]', '[80,99]', '[80,99]', '*'),
    ('95', '[95,99]', '[90,99]', '[80,99]', '[60,99]', '*');
SELECT anon.taxonomy_from_levels('bad_chain', 'chain_levels');
-- A leaf that is its own category in one row and the category of another leaf in another.
CREATE TABLE leaf_category_levels (code text, category text, chapter text, root text);
INSERT INTO leaf_category_levels VALUES ('A12', 'A12', 'A1', '*'), ('A12.1', 'A12', 'A1', '*');
SELECT anon.taxonomy_from_levels('bad_leaf_category', 'leaf_category_levels');
-- A label under two different parents, with or without a chain.
CREATE TABLE two_parent_chain_levels (age text, l1 text, l2 text, l3 text, root text);
INSERT INTO two_parent_chain_levels VALUES ('81', '[80,99]', '[80,99]', '[0,99]', '*'),
    ('82', '[80,99]', '[80,99]', '[50,99]', '*');
SELECT anon.taxonomy_from_levels('bad_two_parents_chain', 'two_parent_chain_levels');
-- A row that reaches the root early ("99;*;*;*": ARX's way to blank out a value from level 1 on) beside rows whose
-- "*" is only the root: "*" is one node at one depth, so it is refused. Written as its own chain ("99;99;99;*") it
-- builds, 99 alone below the root at every level, as ARX's "*" at levels 1 and 2 held it alone (docs/taxonomies.md).
CREATE TABLE early_root_levels (age text, l1 text, l2 text, root text);
INSERT INTO early_root_levels VALUES ('21', '[20,24]', '[20,39]', '*'), ('37', '[35,39]', '[20,39]', '*'),
    ('99', '*', '*', '*');
SELECT anon.taxonomy_from_levels('bad_early_root', 'early_root_levels');
UPDATE early_root_levels SET l1 = '99', l2 = '99' WHERE age = '99';
SELECT anon.taxonomy_from_levels('early_root', 'early_root_levels');
SELECT value, parent, span FROM anon.taxonomy_nodes WHERE taxonomy = 'early_root' AND value IN ('99', '*')
ORDER BY value;
SELECT count(*) AS stored FROM anon.taxonomies WHERE name LIKE 'bad\_%';

-- anon.taxonomy_from_pairs: a row (v, v) says v is a node, the same node (pairs carry no levels: it fills one) ---

-- The pairs of the ICD table, as an unpivot of its columns gives them: ("A12", "A12") beside ("A12", "A1"), and
-- ("*", "*") for the root.
CREATE TABLE icd_pairs (value text, parent text);
INSERT INTO icd_pairs SELECT DISTINCT code, category FROM icd_levels UNION SELECT DISTINCT category, chapter FROM icd_levels
    UNION SELECT DISTINCT chapter, root FROM icd_levels UNION SELECT '*', '*';
SELECT count(*) FILTER (WHERE value = parent) AS own_parent_rows FROM icd_pairs;
SELECT anon.taxonomy_from_pairs('icd_from_pairs', 'icd_pairs');
SELECT value, parent, span FROM anon.taxonomy_nodes WHERE taxonomy = 'icd_from_pairs' AND value IN ('A12', '*', 'A1')
ORDER BY value;
SELECT anon.covers('icd_from_pairs', 'A1', 'A12') AS a12_chapter;
-- A value listed only as its own parent is a value without a parent: a root, refused when there is another.
CREATE TABLE self_only_pairs (value text, parent text);
INSERT INTO self_only_pairs VALUES ('a', '*'), ('b', '*'), ('c', 'c');
SELECT anon.taxonomy_from_pairs('bad_self_only', 'self_only_pairs');

-- Clean up ------------------------------------------------------------------------------------------------------
SELECT anon.drop_release(r) FROM unnest('{fars_l3,fars_l4,fars_incognito,fars_refine,fars_mondrian}'::text[]) r;
SELECT anon.drop_taxonomy(t) FROM unnest('{fars_age,fars_month,fars_day,icd,icd_from_pairs,early_root}'::text[]) t;
DROP TABLE fars, fars_age_levels, fars_month_levels, fars_day_levels, icd_levels, gap_levels, chain_levels,
    leaf_category_levels, two_parent_chain_levels, early_root_levels, icd_pairs, self_only_pairs;
DROP FUNCTION fars_check, fars_brief;
