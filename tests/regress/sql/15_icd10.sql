-- Taxonomies of diagnosis codes (issue 38): anon.icd10_taxonomy (code -> category -> owner's block -> chapter of
-- ICD-10 -> *) over codes with and without the dot, codes that are exactly a category, several chapters; its
-- refusals and replace; a k-anonymous release over (age, diagnosis) whose published values cover the originals;
-- anon.prefix_taxonomy over codes of different lengths and with a separator.

CREATE TABLE i15_stays (id int PRIMARY KEY, age int, diagnosis text);
INSERT INTO i15_stays
SELECT i, 40 + (i * 7) % 20,
       (ARRAY['E11.9', 'E119', 'E10.65', 'E11', 'I10', 'I21.0', 'I21.4', 'J45.0', 'J45.9', 'F32.1', 'F32.9',
              'C50.9', 'U07.1', 'I10'])[1 + i % 14]
FROM generate_series(1, 84) i;
-- Rare codes: two stays each, so that a release must generalize them.
INSERT INTO i15_stays VALUES (85, 41, 'C50.1'), (86, 52, 'C50.1'), (87, 43, 'D05.1'), (88, 54, 'D05.1'),
                             (89, 45, 'U07.2'), (90, 56, 'U07.2');
INSERT INTO i15_stays VALUES (91, 40, NULL);  -- NULLs are no values of the taxonomy, as for prefix_taxonomy

-- The taxonomy and its nodes: chapters, categories, codes. I10 is a category and a code: a leaf at the category's
-- depth. E11 is a code beside E11.9 and E119, which subdivide it: their category is E11.- (ICD-10's notation).
SELECT * FROM anon.icd10_taxonomy('i15_dx', 'i15_stays', 'diagnosis');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'i15_dx' ORDER BY ord;
SELECT anon.covers('i15_dx', 'E11.-', 'E119') AS category, anon.covers('i15_dx', 'Chapter IV (E00-E90)', 'E10.65') AS chapter,
       anon.covers('i15_dx', 'Chapter IV (E00-E90)', 'I10') AS other_chapter, anon.covers('i15_dx', '*', 'U07.1') AS root;

-- The owner's blocks: a table whose first two columns are a block's first and last categories.
CREATE TABLE i15_blocks (first_category text, last_category text, title text);
INSERT INTO i15_blocks VALUES ('E10', 'E14', 'Diabetes mellitus'), ('I10', 'I15', 'Hypertensive diseases'),
    ('I20', 'I25', 'Ischaemic heart diseases'), ('J40', 'J47', 'Chronic lower respiratory diseases'),
    ('F30', 'F39', 'Mood [affective] disorders'), ('C50', 'C50', 'Malignant neoplasm of breast'), ('D00', 'D09', 'In situ neoplasms'),
    ('U00', 'U49', 'Provisional assignment of new diseases of uncertain etiology or emergency use');
SELECT * FROM anon.icd10_taxonomy('i15_dx_blocks', 'i15_stays', 'diagnosis', 'i15_blocks');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'i15_dx_blocks' AND value ~ '^[A-Z][0-9][0-9]-'
ORDER BY ord;
SELECT anon.covers('i15_dx_blocks', 'I20-I25', 'I21.4') AS block, anon.covers('i15_dx_blocks', 'I20-I25', 'I10') AS other;

-- Refusals: the least three codes refused and how many others; codes in no chapter; codes in no block; bad blocks.
CREATE TABLE i15_bad (code text);
INSERT INTO i15_bad VALUES ('E11.9'), ('X1'), ('abc'), ('E11.'), ('e11.9'), ('I10 '), ('I10');
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_bad', 'code');
DELETE FROM i15_bad WHERE code !~ '^[A-Z][0-9]{2}(\.?[A-Za-z0-9]+)?$';
INSERT INTO i15_bad VALUES ('U99'), ('D49.0');
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_bad', 'code');
DELETE FROM i15_blocks WHERE first_category = 'C50';
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_stays', 'diagnosis', 'i15_blocks');
CREATE TABLE i15_bad_blocks (first_category text, last_category text);
INSERT INTO i15_bad_blocks VALUES ('E80', 'F10');
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_stays', 'diagnosis', 'i15_bad_blocks');
UPDATE i15_bad_blocks SET first_category = 'E14', last_category = 'E10';
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_stays', 'diagnosis', 'i15_bad_blocks');
INSERT INTO i15_bad_blocks VALUES ('E10', 'E14'), ('E13', 'E16');
DELETE FROM i15_bad_blocks WHERE first_category = 'E14';
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_stays', 'diagnosis', 'i15_bad_blocks');
CREATE TABLE i15_no_values (code text);
INSERT INTO i15_no_values VALUES (NULL);
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_no_values', 'code');
SELECT * FROM anon.icd10_taxonomy('i15_bad', 'i15_stays', 'no_such_column');
SELECT count(*) AS left_behind FROM anon.taxonomies WHERE name = 'i15_bad';

-- replace: an existing name is refused, then rewritten in place with the column's new codes.
SELECT * FROM anon.icd10_taxonomy('i15_dx', 'i15_stays', 'diagnosis');
INSERT INTO i15_bad VALUES ('K35.8');
DELETE FROM i15_bad WHERE code IN ('U99', 'D49.0');
SELECT * FROM anon.icd10_taxonomy('i15_dx_blocks', 'i15_bad', 'code', replace => true);
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'i15_dx_blocks' ORDER BY ord;
SELECT anon.drop_taxonomy('i15_dx_blocks');

-- A release: k-anonymity over (age, diagnosis) with incognito; every published value covers the original one.
-- (A release refuses NULLs in its columns unless params->>'nulls' says how to read them: the row goes.)
DELETE FROM i15_stays WHERE diagnosis IS NULL;
SELECT * FROM anon.interval_taxonomy('i15_age', 0, 100, '{10,20}');
SELECT r->>'rows' AS rows, r->'levels' AS levels, r->>'suppressed' AS suppressed
FROM anon.anonymize('i15_stays', '{age,diagnosis}', '{}', 'k-anonymity',
                    '{"k": 4, "keep": ["id"], "keep_identifying": true,
                      "taxonomies": {"age": "i15_age", "diagnosis": "i15_dx"}}', 'incognito', 'i15_release') r;
SELECT diagnosis, count(*) FROM i15_release GROUP BY diagnosis ORDER BY diagnosis;
SELECT v->>'satisfied' AS satisfied
FROM anon.verify('i15_release', '{age,diagnosis}', '{}', 'k-anonymity', '{"k": 4}') v;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE anon.covers('i15_age', r.age, s.age::text)) AS age,
       count(*) FILTER (WHERE anon.covers('i15_dx', r.diagnosis, s.diagnosis)) AS diagnosis
FROM i15_release r JOIN i15_stays s USING (id);

-- prefix_taxonomy over codes of different lengths: each masks its own characters, none is padded to another's
-- length; with a separator, the part after it is masked first.
CREATE TABLE i15_codes (code text);
INSERT INTO i15_codes VALUES ('E11.9'), ('E11.65'), ('E11'), ('I10'), ('E119');
SELECT * FROM anon.prefix_taxonomy('i15_prefix', 'i15_codes', 'code');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'i15_prefix' ORDER BY ord;
SELECT * FROM anon.prefix_taxonomy('i15_separated', 'i15_codes', 'code', separator => '.');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'i15_separated' ORDER BY ord;
SELECT anon.covers('i15_separated', 'E11.*', 'E11.65') AS tail, anon.covers('i15_separated', 'E1*', 'E11') AS category,
       anon.covers('i15_separated', 'E1*', 'E11.9') AS subdivided, anon.covers('i15_separated', 'E1*', 'E119') AS undotted;
SELECT * FROM anon.prefix_taxonomy('i15_bad', 'i15_codes', 'code', separator => '');
SELECT * FROM anon.prefix_taxonomy('i15_bad', 'i15_codes', 'code', separator => '*');
SELECT count(*) AS left_behind FROM anon.taxonomies WHERE name = 'i15_bad';

-- Nothing left for the files after this one (they count releases).
SELECT anon.drop_release('i15_release');
SELECT anon.drop_taxonomy(t) FROM unnest('{i15_dx,i15_age,i15_prefix,i15_separated}'::text[]) t;
