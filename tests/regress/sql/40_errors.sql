-- Bad input to anon.anonymize and the other functions: every call fails with an error that names the argument
-- (or column, taxonomy, value) at fault, and leaves nothing behind: no relation, no catalog row.
-- Results of the anon functions are read in FROM clauses.
\set VERBOSITY default

CREATE TABLE visits (id int PRIMARY KEY, city text, age int, ward text, diagnosis text, note text);
INSERT INTO visits VALUES
    (1, 'Lyon', 34, 'A', 'asthma', 'x'),    (2, 'Lyon', 38, 'B', 'bronchitis', 'y'),
    (3, 'Nice', 31, 'A', 'bronchitis', 'x'), (4, 'Nice', 36, 'B', 'asthma', 'y'),
    (5, 'Metz', 52, 'A', 'asthma', 'x'),    (6, 'Metz', 57, 'B', 'bronchitis', 'y'),
    (7, 'Nancy', 55, 'A', 'bronchitis', 'x'), (8, 'Nancy', 51, 'B', 'asthma', 'y');
CREATE TABLE city_levels (city text, region text, root text);
INSERT INTO city_levels VALUES ('Lyon', 'South', '*'), ('Nice', 'South', '*'), ('Metz', 'North', '*'),
                               ('Nancy', 'North', '*');
CREATE TABLE ward_levels (ward text, root text);
INSERT INTO ward_levels VALUES ('A', '*'), ('B', '*');
CREATE TABLE diagnosis_levels (diagnosis text, family text, root text);
INSERT INTO diagnosis_levels VALUES ('asthma', 'respiratory', '*'), ('bronchitis', 'respiratory', '*'),
                                    ('fracture', 'injury', '*');
SELECT * FROM anon.taxonomy_from_levels('city', 'city_levels');
SELECT * FROM anon.taxonomy_from_levels('ward', 'ward_levels');
SELECT * FROM anon.taxonomy_from_levels('diagnosis', 'diagnosis_levels');
SELECT * FROM anon.interval_taxonomy('visit_age', 0, 100, '{10,50}');

-- What failed calls might leave behind: every failing call below writes to an output named err*, so this counts
-- relations and catalog rows of that name (the plain table err_table, created on purpose, is left out).
CREATE FUNCTION leftovers(OUT relations bigint, OUT releases bigint) LANGUAGE sql
AS $$
    SELECT (SELECT count(*) FROM pg_class WHERE relname LIKE 'err%' AND relname <> 'err_table'),
           (SELECT count(*) FROM anon.release WHERE output_name LIKE 'err%')
$$;

-- The call that works, for reference (report only).
SELECT r->'levels' AS levels, r->'classes' AS classes
FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                    '{"l": 2, "taxonomies": {"age": "visit_age"}}') r;

-- Model, algorithm, params ------------------------------------------------------------------------------------

-- Unknown model: the valid names are listed.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'l-diversity',
                             '{"l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- Unknown algorithm: the valid ones are listed.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 2, "taxonomies": {"age": "visit_age"}}', 'genetic', 'err_out');
-- Unknown params key (a typo is not ignored).
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 2, "dont-care": ["asthma"], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- params must be an object.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity', '[2]', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity', '"k=2"', 'auto', 'err_out');
-- l missing, of the wrong JSON type, out of range.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": "abc", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": [1], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": true, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 1, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 1.5, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'entropy-l-diversity',
                             '{"l": 1, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'simple-l-diversity',
                             '{"l": "abc", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 2, "l": 2.5, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- A number written as a string is accepted.
SELECT r->'levels' AS levels
FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                    '{"l": "2", "taxonomies": {"age": "visit_age"}}') r;
-- k: required for k-anonymity, an integer >= 1.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 0, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": -3, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2.5, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 2, "k": 0, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- c: required for recursive-cl-diversity, > 0; c2 and negative_disclosure go together, c2 in (0, 100).
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 0, "l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": -1, "l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 2, "l": 2, "c2": 10, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 2, "l": 2, "negative_disclosure": ["asthma"], "taxonomies": {"age": "visit_age"}}',
                             'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 2, "l": 2, "negative_disclosure": ["asthma"], "c2": 100,
                               "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- Other params of the wrong type or value.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "metric": "loss", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "max_suppression": 1, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "max_suppression": -0.1, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "nulls": "skip", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "replace": "yes", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'entropy-l-diversity',
                             '{"l": 2, "dont_care": "asthma", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'entropy-l-diversity',
                             '{"l": 2, "dont_care": ["asthma", 7], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM leftovers();

-- Columns -----------------------------------------------------------------------------------------------------

-- Unknown columns in quasi_identifiers, sensitive, keep.
SELECT * FROM anon.anonymize('visits', '{city,height,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{disease}', 'distinct-l-diversity',
                             '{"l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "keep": ["visit_id"], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- Column names are case-sensitive (not folded).
SELECT * FROM anon.anonymize('visits', '{City,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- The same column twice: in quasi_identifiers, or in both lists.
SELECT * FROM anon.anonymize('visits', '{city,age,city}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{ward}', 'distinct-l-diversity',
                             '{"l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- keep naming a QI or a sensitive column (it would publish the original values), or gid; keep not an array.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "keep": ["id", "city"], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "keep": ["diagnosis"], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "keep": ["gid"], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "keep": "id", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- Empty quasi_identifiers, NULL elements, an l-diversity model without a sensitive column.
SELECT * FROM anon.anonymize('visits', '{}', '{diagnosis}', 'k-anonymity', '{"k": 2}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,NULL}', '{diagnosis}', 'k-anonymity', '{"k": 2}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city}', '{NULL}', 'k-anonymity', '{"k": 2}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{}', 'distinct-l-diversity',
                             '{"l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- k-anonymity needs no sensitive column.
SELECT r->'levels' AS levels, r->'classes' AS classes
FROM anon.anonymize('visits', '{city,age,ward}', '{}', 'k-anonymity', '{"k": 2, "taxonomies": {"age": "visit_age"}}') r;
SELECT * FROM leftovers();

-- Columns named like a column the release's objects add (issue 41): gid (every object), count (the ST of a release
-- published bucketized or both). Each is refused before any work, naming the argument, the object and the column;
-- nothing is left (no relation, no catalog row).
CREATE TABLE err_reserved AS SELECT id AS gid, city, age, ward, diagnosis, note AS count FROM visits;
SELECT * FROM anon.anonymize('err_reserved', '{city,age,ward}', '{count}', 'distinct-l-diversity',
                             '{"l": 2, "publish": "both", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('err_reserved', '{city,age,ward}', '{count}', 'distinct-l-diversity',
                             '{"l": 2, "publish": "bucketized", "taxonomies": {"age": "visit_age"}}', 'anatomy',
                             'err_out');
SELECT * FROM anon.anonymize('err_reserved', '{gid,city}', '{diagnosis}', 'k-anonymity', '{"k": 2}', 'auto',
                             'err_out');
SELECT * FROM anon.anonymize('err_reserved', '{city,age}', '{gid}', 'k-anonymity',
                             '{"k": 2, "publish": "both", "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('err_reserved', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "keep": ["gid"], "publish": "both", "taxonomies": {"age": "visit_age"}}',
                             'auto', 'err_out');
-- A replacement refused for its columns keeps the release it would replace.
SELECT anon.anonymize('err_reserved', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                      '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_kept') IS NOT NULL AS published;
SELECT * FROM anon.anonymize('err_reserved', '{city,age,ward}', '{count}', 'distinct-l-diversity',
                             '{"l": 2, "publish": "both", "replace": true, "taxonomies": {"age": "visit_age"}}', 'auto',
                             'err_kept');
SELECT relname, relkind FROM pg_class WHERE relname LIKE 'err_kept%' ORDER BY relname;
SELECT output_name, sensitive FROM anon.release WHERE output_name LIKE 'err_kept%';
SELECT anon.drop_release('err_kept');
-- Where no object adds the column, it is published: count as a sensitive column of a generalized release (the view
-- has no count), count kept in the QIT of a release published both (the QIT has no count either).
SELECT (r->>'classes')::int > 0 AS computed
FROM anon.anonymize('err_reserved', '{city,age,ward}', '{count}', 'distinct-l-diversity',
                    '{"l": 2, "taxonomies": {"age": "visit_age"}}') r;
SELECT anon.anonymize('err_reserved', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                      '{"k": 2, "keep": ["count"], "publish": "both", "taxonomies": {"age": "visit_age"}}', 'auto',
                      'err_kept') IS NOT NULL AS published;
SELECT attname FROM pg_attribute WHERE attrelid = 'err_kept_qit'::regclass AND attnum > 0 ORDER BY attnum;
SELECT anon.drop_release('err_kept');
DROP TABLE err_reserved;
SELECT * FROM leftovers();

-- NULL arguments ------------------------------------------------------------------------------------------------

SELECT * FROM anon.anonymize(NULL, '{city}', '{diagnosis}', 'k-anonymity', '{"k": 2}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', NULL, '{diagnosis}', 'k-anonymity', '{"k": 2}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city}', NULL, 'k-anonymity', '{"k": 2}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city}', '{diagnosis}', NULL, '{"k": 2}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city}', '{diagnosis}', 'k-anonymity', '{"k": 2}', NULL, 'err_out');
-- NULL params are no params (so k is missing); a NULL output asks for a report only.
SELECT * FROM anon.anonymize('visits', '{city}', '{diagnosis}', 'k-anonymity', NULL, 'auto', 'err_out');
SELECT r->'levels' AS levels, r->'release' AS release
FROM anon.anonymize('visits', '{city}', '{diagnosis}', 'k-anonymity', '{"k": 2}', 'auto', NULL) r;
SELECT * FROM leftovers();

-- Taxonomies --------------------------------------------------------------------------------------------------

-- A QI without a taxonomy: the message names the column and the taxonomy looked for, the hint says what to do.
SELECT * FROM anon.anonymize('visits', '{city,note}', '{diagnosis}', 'k-anonymity', '{"k": 2}', 'auto', 'err_out');
-- A mapping to a taxonomy that does not exist (the error names the taxonomy looked for).
SELECT * FROM anon.anonymize('visits', '{city,age}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "no_such_taxonomy"}}', 'auto', 'err_out');
-- A sensitive column needs no taxonomy, but one it is mapped to must exist.
SELECT r->'levels' AS levels FROM anon.anonymize('visits', '{city}', '{note}', 'distinct-l-diversity', '{"l": 2}') r;
SELECT * FROM anon.anonymize('visits', '{city}', '{note}', 'distinct-l-diversity',
                             '{"l": 2, "taxonomies": {"note": "no_such_taxonomy"}}', 'auto', 'err_out');
-- params->'taxonomies' of the wrong shape, or naming a column that is neither QI nor sensitive.
SELECT * FROM anon.anonymize('visits', '{city,age}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": ["visit_age"]}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": 10}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age", "ward": "ward"}}', 'auto', 'err_out');
-- A source value missing from its taxonomy: column, rows, values and an example are named; nothing is suppressed.
INSERT INTO visits VALUES (9, 'Paris', 40, 'A', 'asthma', 'x'), (10, 'Paris', 41, 'B', 'bronchitis', 'y');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- Several missing values: the count and up to three examples (in no particular order, so checked here).
INSERT INTO visits VALUES (11, 'Brest', 40, 'A', 'asthma', 'x'), (12, 'Dijon', 41, 'B', 'bronchitis', 'y');
DO $$
DECLARE
    msg text;
BEGIN
    PERFORM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                           '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
    RAISE NOTICE '%', regexp_replace(msg, 'e\.g\. .*$', 'e.g. ...');
    RAISE NOTICE 'examples: %', (SELECT string_agg(m[1], ', ' ORDER BY m[1])
                                 FROM regexp_matches(substring(msg FROM 'e\.g\. (.*)$'), '"([^"]+)"', 'g') m);
END
$$;
DELETE FROM visits WHERE id > 8;
-- A value outside the interval taxonomy's range, a non-numeric value in an interval column.
UPDATE visits SET age = 130 WHERE id = 1;
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
UPDATE visits SET age = 34 WHERE id = 1;
SELECT * FROM anon.anonymize('visits', '{city,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"ward": "visit_age"}}', 'auto', 'err_out');
-- dont_care and negative_disclosure values must be values of the sensitive column's taxonomy.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'entropy-l-diversity',
                             '{"l": 2, "dont_care": ["flu"], "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 2, "l": 2, "dont_care": ["Asthma"], "taxonomies": {"age": "visit_age"}}',
                             'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 2, "l": 2, "negative_disclosure": ["flu"], "c2": 10,
                               "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- A taxonomy value that does not occur in the data is fine as a don't-care value.
SELECT r->'levels' AS levels
FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'entropy-l-diversity',
                    '{"l": 2, "dont_care": ["fracture"], "taxonomies": {"age": "visit_age"}}') r;
SELECT * FROM leftovers();

-- Requirements no release can meet ------------------------------------------------------------------------------

SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 9, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 3, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- An ineligible l is refused before any search; an eligible l with a k above the row count fails the search.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 3, "k": 20, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity',
                             '{"l": 2, "k": 20, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'entropy-l-diversity',
                             '{"l": 2.5, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'simple-l-diversity',
                             '{"l": 2.5, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 1, "l": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'recursive-cl-diversity',
                             '{"c": 2, "l": 2, "negative_disclosure": ["fracture"], "c2": 5,
                               "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
-- An empty source.
CREATE TABLE visits_empty (LIKE visits);
SELECT * FROM anon.anonymize('visits_empty', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_out');
SELECT * FROM leftovers();

-- Outputs -----------------------------------------------------------------------------------------------------

-- An output that exists as a plain table is refused, also with replace: a plain table is never replaced.
CREATE TABLE err_table (x int);
INSERT INTO err_table VALUES (1), (2);
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_table');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "replace": true, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_table');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "replace": true, "taxonomies": {"age": "visit_age"}}', 'auto', 'public.err_table');
SELECT c.relkind, (SELECT count(*) FROM err_table) AS rows
FROM pg_class c WHERE c.oid = 'err_table'::regclass;
-- An existing release: refused without replace, replaced with it.
SELECT r->'min_class_size' AS min_class_size
FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                    '{"k": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "visit_age"}}', 'auto', 'visits_release') r;
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 4, "taxonomies": {"age": "visit_age"}}', 'auto', 'visits_release');
SELECT r->'min_class_size' AS min_class_size
FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                    '{"k": 4, "replace": true, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "visit_age"}}', 'auto',
                    'visits_release') r;
SELECT params, (SELECT min(n) FROM (SELECT count(*) AS n FROM visits_release GROUP BY gid) c) AS min_size
FROM anon.release WHERE output_name = 'visits_release';
-- A replace that fails keeps the existing release as it was.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 99, "replace": true, "taxonomies": {"age": "visit_age"}}', 'auto', 'visits_release');
SELECT params, (SELECT count(*) FROM visits_release) AS rows FROM anon.release WHERE output_name = 'visits_release';
-- Bad output names.
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', '');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'no_such_schema.err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'a.b.c.err_out');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                             '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'err_' || repeat('x', 60));
SELECT * FROM leftovers();

-- Quoted and schema-qualified output names work; the other functions take the same names.
SELECT r->'release' AS release
FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                    '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', '"My Release"') r;
SELECT output_schema, output_name FROM anon.release WHERE output_name = 'My Release';
SELECT count(*) AS rows FROM "My Release";
SELECT r->'published_rows' AS published_rows FROM anon.refresh('"My Release"') r;
SELECT m->'classes' AS classes FROM anon.metrics('"My Release"') m;
SELECT anon.drop_release('"My Release"');
CREATE SCHEMA publish;
SELECT r->'release' AS release
FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity',
                    '{"k": 2, "taxonomies": {"age": "visit_age"}}', 'auto', 'publish.visits_release') r;
SELECT output_schema, output_name FROM anon.release ORDER BY output_schema, output_name;
SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relname = 'visits_release' ORDER BY n.nspname;
SELECT m->'classes' AS classes FROM anon.metrics('publish.visits_release') m;
SELECT anon.drop_release('publish.visits_release');
SELECT to_regclass('publish.visits_release') AS dropped, to_regclass('public.visits_release') AS kept;
DROP SCHEMA publish;

-- verify ------------------------------------------------------------------------------------------------------

-- Any table can be audited; classes that violate the model are counted.
CREATE TABLE audit_sample (q text, s text);
INSERT INTO audit_sample VALUES ('a', 'x'), ('a', 'y'), ('a', 'z'), ('b', 'x'), ('b', 'x'), ('c', 'x'), ('c', 'y');
SELECT v - 'relation' AS verify FROM anon.verify('audit_sample', '{q}', '{s}', 'distinct-l-diversity', '{"l": 2}') v;
SELECT v - 'relation' AS verify FROM anon.verify('audit_sample', '{q}', '{s}', 'k-anonymity', '{"k": 3}') v;
SELECT v - 'relation' AS verify FROM anon.verify('audit_sample', '{q}', '{s}', 'k-anonymity', '{"k": 2}') v;
SELECT qi, size, distinct_sensitive, round(entropy::numeric, 4) AS entropy, round(max_share::numeric, 4) AS max_share
FROM anon.equivalence_classes('audit_sample', '{q}', '{s}') ORDER BY qi;
-- verify checks its arguments like anonymize.
SELECT * FROM anon.verify('audit_sample', '{q}', '{s}', 'l-diversity', '{"l": 2}');
SELECT * FROM anon.verify('audit_sample', '{q}', '{s}', 'distinct-l-diversity', '{"l": 2, "x": 1}');
SELECT * FROM anon.verify('audit_sample', '{q}', '{s}', 'distinct-l-diversity', '{}');
SELECT * FROM anon.verify('audit_sample', '{q,r}', '{s}', 'k-anonymity', '{"k": 2}');
SELECT * FROM anon.verify('audit_sample', '{q}', '{q}', 'k-anonymity', '{"k": 2}');
SELECT * FROM anon.verify(NULL, '{q}', '{s}', 'k-anonymity', '{"k": 2}');
INSERT INTO audit_sample VALUES (NULL, 'x');
SELECT * FROM anon.verify('audit_sample', '{q}', '{s}', 'k-anonymity', '{"k": 2}');
SELECT v - 'relation' AS verify
FROM anon.verify('audit_sample', '{q}', '{s}', 'k-anonymity', '{"k": 2, "nulls": "value"}') v;
DROP TABLE audit_sample;

-- drop_release, refresh, metrics on names that are not releases ------------------------------------------------

SELECT anon.drop_release('err_table');
SELECT * FROM anon.refresh('err_table');
SELECT * FROM anon.metrics('err_table');
SELECT anon.drop_release('err_nothing');
SELECT * FROM anon.refresh('err_nothing');
SELECT * FROM anon.metrics('visits');
SELECT anon.drop_release('publish.visits_release');
SELECT anon.drop_release(NULL) IS NULL AS strict_null, anon.refresh(NULL) IS NULL AS refresh_null,
       anon.metrics(NULL) IS NULL AS metrics_null;
-- The plain table is untouched.
SELECT count(*) AS err_table_rows FROM err_table;

-- A release whose refresh fails is left as it was --------------------------------------------------------------

-- A new source value missing from the taxonomy.
INSERT INTO visits VALUES (9, 'Paris', 40, 'A', 'asthma', 'x');
SELECT * FROM anon.refresh('visits_release');
\set VERBOSITY terse
REFRESH MATERIALIZED VIEW visits_release;
\set VERBOSITY default
SELECT count(*) AS rows, count(*) FILTER (WHERE id = 9) AS new_rows FROM visits_release;
DELETE FROM visits WHERE id = 9;
-- A taxonomy the release uses cannot be dropped (82_catalog_integrity has the details), so it still refreshes.
\set VERBOSITY terse
SELECT anon.drop_taxonomy('ward');
\set VERBOSITY default
SELECT r->'published_rows' AS published_rows FROM anon.refresh('visits_release') r;

-- Found by the random calls (tests/scripts/random_calls_test.sh) ------------------------------------------------

-- A JSON number beyond double precision is refused naming its parameter (it raised "... is out of range for type
-- double precision", naming none).
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-anonymity', '{"k": 1e400}');
SELECT * FROM anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'distinct-l-diversity', '{"l": -1e400}');
-- The internal helper that lists what a release lost answers NULL for a NULL row (it raised "null values cannot be
-- formatted as an SQL identifier").
SELECT anon._release_missing(NULL) IS NULL AS missing_null;
-- An m of two billion sensitive values is refused (its answer, one entry per l' and c, exhausted the backend's
-- memory and the server killed it).
SELECT anon.weakest_stronger_requirement(0.2, 1000000, 2147483647);

-- A huge argument comes back abbreviated in the error, with its length, not whole (a 100 kB model name); a short
-- one whole.
SELECT anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-' || repeat('é', 50000), '{"k": 2}');
SELECT anon.anonymize('visits', '{city,age,ward}', '{diagnosis}', 'k-' || repeat('é', 20), '{"k": 2}');

-- The function that makes the rows of release objects (issue 19) names a bad object and a column definition list
-- that does not fit the release (its objects' queries always give the right one).
SELECT anon._release_tuples(current_schema(), 'visits_release', 'visits'::regclass, 'view');
SELECT * FROM anon._release_tuples(current_schema(), 'visits_release', 'visits'::regclass, 'table') AS m(gid int);
SELECT * FROM anon._release_tuples(current_schema(), 'visits_release', 'visits'::regclass, 'view') AS m(gid int);
BEGIN;  -- a direct call recomputes the release and stores its report, as a REFRESH does
SELECT count(*) = (SELECT count(*) FROM visits_release) AS rows_as_the_view_has
FROM anon._release_tuples(current_schema(), 'visits_release', 'visits'::regclass, 'view')
     AS m(gid int, city text, age text, ward text, diagnosis text);
ROLLBACK;

-- The rows per shard of a Citus release (anon._release_shard_rows, docs/scale.md) name a bad object, shard bounds and
-- column definition list; called on a local release with three shards' hash ranges they give each row of the object
-- once per shard it goes to, with an anon_bucket whose high bits (>> 12) count its copies there and whose low bits are
-- the least that put its hash (hashint4, as Citus places an int4) in that shard's range: every row's counts sum to
-- its tuples, and one shard covering every hash takes each row once.
SELECT anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view', '{1}', '{2}');
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'st', '{1}', '{2}')
              AS m(gid int);
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view', '{}', '{}')
              AS m(gid int);
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view', '{1,NULL}',
                                       '{2,3}') AS m(gid int);
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view', '{1,5}',
                                       '{4}') AS m(gid int);
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view', '{1,5}',
                                       '{4,3}') AS m(gid int);
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view', '{1}', '{2}')
              AS m(gid int, city text, age text, ward text, diagnosis text);
-- 0.4's declaration (a bucket per shard) over the 0.5 library, as before ALTER EXTENSION anon UPDATE: refused.
BEGIN;
CREATE FUNCTION pg_temp.shard_rows_of_0_4(text, text, regclass, text, int4[]) RETURNS SETOF record
AS '$libdir/anon', 'anon_release_shard_rows' LANGUAGE C STRICT;
SELECT * FROM pg_temp.shard_rows_of_0_4(current_schema(), 'visits_release', 'visits'::regclass, 'view', '{1}')
              AS m(gid int);
ROLLBACK;
BEGIN;
CREATE TEMP TABLE shard_ranges (shard int, low int, high int);
INSERT INTO shard_ranges VALUES (1, -2147483648, -715827884), (2, -715827883, 715827881), (3, 715827882, 2147483647);
CREATE TEMP TABLE spread AS
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view',
                                       '{-2147483648,-715827883,715827882}', '{-715827884,715827881,2147483647}')
              AS m(gid int, city text, age text, ward text, diagnosis text, anon_bucket int);
CREATE TEMP TABLE single AS
SELECT * FROM anon._release_shard_rows(current_schema(), 'visits_release', 'visits'::regclass, 'view',
                                       '{-2147483648}', '{2147483647}')
              AS m(gid int, city text, age text, ward text, diagnosis text, anon_bucket int);
SELECT (SELECT count(*) FROM (SELECT gid, city, age, ward, diagnosis, sum(anon_bucket >> 12) FROM spread
                              GROUP BY 1, 2, 3, 4, 5
                              EXCEPT ALL
                              SELECT gid, city, age, ward, diagnosis, count(*) FROM visits_release
                              GROUP BY 1, 2, 3, 4, 5) d) AS rows_whose_counts_differ,
       (SELECT sum(anon_bucket >> 12) FROM spread) = (SELECT count(*) FROM visits_release) AS every_tuple_once,
       (SELECT bool_and(anon_bucket >> 12 > 0 AND NOT EXISTS (
                            SELECT FROM shard_ranges r, generate_series(0, (anon_bucket & 4095) - 1) AS l
                            WHERE hashint4(anon_bucket) BETWEEN r.low AND r.high
                              AND hashint4((anon_bucket >> 12 << 12) | l) BETWEEN r.low AND r.high))
        FROM spread) AS least_low_part_of_its_range,
       (SELECT count(*) = count(DISTINCT (gid, city, age, ward, diagnosis))
               AND sum(anon_bucket >> 12) = (SELECT count(*) FROM visits_release) FROM single)
       AS one_shard_takes_each_row_once,
       (SELECT count(*) FROM single) <= (SELECT count(*) FROM spread) AS spread_rows_at_least_as_many;
ROLLBACK;

-- A call with constant arguments, as in the objects' queries, runs as anon's release scan, which streams the rows
-- instead of a function scan's tuplestore (the calls above, whose schema is computed, keep the function scan). The
-- same errors, the same rows in the same order, a filter applied; EXECUTE on the function is checked the same way.
SELECT * FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'table') AS m(gid int);
SELECT * FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view') AS m(gid int);
EXPLAIN (COSTS OFF)
SELECT * FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view')
              AS m(gid int, city text, age text, ward text, diagnosis text) WHERE gid = 1;
BEGIN;  -- a whole-row reference (m::text) keeps the function scan, so the release scan's rows are spelled out
SELECT (SELECT array_agg(ROW(gid, city, age, ward, diagnosis)::text)
        FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view')
             AS m(gid int, city text, age text, ward text, diagnosis text))
     = (SELECT array_agg(m::text) FROM anon._release_tuples(current_schema(), 'visits_release', 'visits'::regclass,
                                                             'view') AS m(gid int, city text, age text, ward text,
                                                                           diagnosis text)) AS same_rows_same_order,
       (SELECT array_agg(ROW(diagnosis, gid)::text)
        FROM (SELECT diagnosis, gid FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view')
                                         AS m(gid int, city text, age text, ward text, diagnosis text)) p)
     = (SELECT array_agg(ROW(diagnosis, gid)::text)
        FROM anon._release_tuples(current_schema(), 'visits_release', 'visits'::regclass, 'view')
             AS m(gid int, city text, age text, ward text, diagnosis text)) AS same_rows_projected,
       (SELECT count(*) FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view')
                              AS m(gid int, city text, age text, ward text, diagnosis text) WHERE gid = 1)
     = (SELECT count(*) FROM visits_release WHERE gid = 1) AS filtered;
ROLLBACK;
CREATE ROLE regress_anon_noexec;
GRANT SELECT ON visits TO regress_anon_noexec;
REVOKE EXECUTE ON FUNCTION anon._release_tuples(text, text, regclass, text) FROM PUBLIC;
SET ROLE regress_anon_noexec;
SELECT count(*) FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view')
                     AS m(gid int, city text, age text, ward text, diagnosis text);
RESET ROLE;
GRANT EXECUTE ON FUNCTION anon._release_tuples(text, text, regclass, text) TO PUBLIC;
REVOKE SELECT ON visits FROM regress_anon_noexec;
DROP ROLE regress_anon_noexec;
-- In a new session the planner's call of the function's support function loads anon, so a REFRESH MATERIALIZED
-- VIEW there gets the release scan too.
\c
EXPLAIN (COSTS OFF)
SELECT * FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view')
              AS m(gid int, city text, age text, ward text, diagnosis text);
EXPLAIN (COSTS OFF)
SELECT m FROM anon._release_tuples('public', 'visits_release', 'visits'::regclass, 'view')
              AS m(gid int, city text, age text, ward text, diagnosis text);

-- Relation arguments named as text: a name that needs quotes, or does not exist, is refused naming the argument
-- and explaining quoting (issue 38), for every function that takes a relation; a quoted name works.
CREATE TABLE "Err Patients" (id int, age int, diagnosis text);
INSERT INTO "Err Patients" SELECT i, 20 + i % 10, 'd' || i % 3 FROM generate_series(1, 60) i;
SELECT anon.anonymize('Err Patients', '{age}', '{}', 'k-anonymity', '{"k": 5}');
SELECT anon.anonymize('err patients', '{age}', '{}', 'k-anonymity', '{"k": 5}');
SELECT anon.anonymize('"Err Patients', '{age}', '{}', 'k-anonymity', '{"k": 5}');
SELECT anon.anonymize('', '{age}', '{}', 'k-anonymity', '{"k": 5}');
SELECT anon.anonymize('public."Err Patients"', '{age}', '{}', 'k-anonymity', '{"k": 5}', 'incognito')->>'classes' AS classes;
SELECT anon.anonymize('"Err Patients"'::regclass, '{age}', '{}', 'k-anonymity', '{"k": 5}', 'incognito')->>'classes' AS classes;
SELECT anon.declare('Err Patients', '{age}', '{diagnosis}');
SELECT anon.declare(NULL, '{age}', '{diagnosis}');
SELECT anon.verify('Err Patients', '{age}', '{}', 'k-anonymity', '{"k": 5}');
SELECT anon.explore('Err Patients', '{age}', '{}', 'k-anonymity', '{"k": 5}');
SELECT anon.equivalence_classes('Err Patients', '{age}', '{}');
SELECT anon.eligible_range('Err Patients', '{diagnosis}');
SELECT anon.risk('Err Patients', '{age}');
SELECT anon.prefix_taxonomy('err_prefix', 'Err Patients', 'diagnosis');
SELECT anon.quantile_taxonomy('err_quantile', 'Err Patients', 'age');
SELECT anon.taxonomy_from_levels('err_levels', 'Err Levels');
SELECT anon.taxonomy_from_pairs('err_pairs', 'no_such_pairs');
SELECT * FROM anon.audit_minimality_table('"Err Patients"', 'Err Release', 'id', '{age}', 'diagnosis', '{d1}', 2);
SELECT * FROM anon.audit_composition('Err Patients');
-- A release or output named as text that is not valid SQL: refused the same way, naming the argument.
SELECT anon.refresh('"Err Release');
SELECT anon.anonymize('"Err Patients"', '{age}', '{}', 'k-anonymity', '{"k": 5}', 'incognito', 'Err "Release');
DROP TABLE "Err Patients";

-- Clean up ----------------------------------------------------------------------------------------------------

SELECT anon.drop_release('visits_release');
DROP TABLE err_table, visits_empty;
SELECT * FROM leftovers();
SELECT count(*) AS releases FROM anon.release;
