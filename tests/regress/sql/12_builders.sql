-- Hierarchy builders (issue 15): anon.date_taxonomy, anon.prefix_taxonomy, anon.quantile_taxonomy,
-- anon.taxonomy_from_pairs, fractional widths, bottom and top coding and `replace` for the older builders, the error
-- listing every quasi-identifier without a taxonomy, taxonomies built by anon.anonymize for numeric, date and
-- timestamp columns,
-- and a patients table published with builders only, verified by anon.verify and by anon.covers on a kept key.
-- Every taxonomy and release made here is dropped at the end. Results are read in FROM clauses.
\set VERBOSITY default

-- date_taxonomy: ISO labels whatever the DateStyle -------------------------------------------------------------

SET DateStyle = 'SQL, DMY';
SELECT * FROM anon.date_taxonomy('b12_days', '2019-12-30', '2020-01-02');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_days' ORDER BY ord;
-- Weeks (ISO 8601; the years above them are ISO week-numbering years, so weeks nest), quarters, centuries.
SELECT * FROM anon.date_taxonomy('b12_weeks', '2020-12-28', '2021-01-04', '{week,year,century}');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_weeks' AND value LIKE '%W%' ORDER BY ord;
SELECT * FROM anon.date_taxonomy('b12_quarters', '2023-05-17', '2023-05-17', '{quarter,year,decade,century}');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_quarters' ORDER BY ord;
-- No levels: the days directly under '*'. replace => true rewrites the taxonomy in place.
SELECT * FROM anon.date_taxonomy('b12_quarters', '2023-05-17', '2023-05-18', '{}', replace => true);
RESET DateStyle;
-- Errors name the argument, what was expected and what was found; nothing is left in the catalog.
SELECT * FROM anon.date_taxonomy('b12_bad', '2020-02-01', '2020-01-01');
SELECT * FROM anon.date_taxonomy('b12_bad', '2020-01-01', 'infinity');
SELECT * FROM anon.date_taxonomy('b12_bad', NULL, '2020-01-01');
SELECT * FROM anon.date_taxonomy('b12_bad', '2020-01-01', '2020-02-01', '{month,fortnight}');
SELECT * FROM anon.date_taxonomy('b12_bad', '2020-01-01', '2020-02-01', '{year,month}');
SELECT * FROM anon.date_taxonomy('b12_bad', '2020-01-01', '2020-02-01', '{week,month}');
SELECT * FROM anon.date_taxonomy('b12_bad', '0001-01-01', '9999-12-31');
SELECT * FROM anon.date_taxonomy('b12_days', '2020-01-01', '2020-01-02');
SELECT * FROM anon.date_taxonomy('', '2020-01-01', '2020-01-02');
SELECT count(*) AS left_behind FROM anon.taxonomies WHERE name = 'b12_bad';

-- prefix_taxonomy: masking from the right -----------------------------------------------------------------------

CREATE TABLE b12_codes (code text, n int);
INSERT INTO b12_codes VALUES ('12345', 1), ('12399', 2), ('54321', 3), ('123', 4), ('12345', 5), (NULL, 6);
SELECT * FROM anon.prefix_taxonomy('b12_code', 'b12_codes', 'code');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_code' ORDER BY ord;
-- Two characters per level; a shorter value masks its own characters (123 -> 1** -> *), never padded.
SELECT * FROM anon.prefix_taxonomy('b12_code2', 'b12_codes', 'code', 2);
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_code2' ORDER BY ord;
-- Any column type: values are read in canonical text.
SELECT * FROM anon.prefix_taxonomy('b12_n', 'b12_codes', 'n');
SELECT * FROM anon.prefix_taxonomy('b12_bad', 'b12_codes', 'code', 0);
SELECT * FROM anon.prefix_taxonomy('b12_bad', 'b12_codes', 'no_such_column');
CREATE TABLE b12_empty (code text);
INSERT INTO b12_empty VALUES (NULL);
SELECT * FROM anon.prefix_taxonomy('b12_bad', 'b12_empty', 'code');
INSERT INTO b12_empty VALUES ('12*');
SELECT * FROM anon.prefix_taxonomy('b12_bad', 'b12_empty', 'code');
SELECT count(*) AS left_behind FROM anon.taxonomies WHERE name = 'b12_bad';

-- quantile_taxonomy: bounds from the data -------------------------------------------------------------------------

-- A skewed column: 1 to 100 once each, and 1000 rows of 7. Equal-count intervals follow the rows.
CREATE TABLE b12_income (income numeric, label text);
INSERT INTO b12_income SELECT i, 'x' FROM generate_series(1, 100) i;
INSERT INTO b12_income SELECT 7, 'y' FROM generate_series(1, 1000);
SELECT * FROM anon.quantile_taxonomy('b12_q', 'b12_income', 'income', '{8,4,2}');
SELECT name, kind, lower, upper, widths FROM anon.taxonomies WHERE name = 'b12_q';
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_q' ORDER BY ord;
-- The outer bands are open (issue 40): 100 lies in '>=7.5', and the root of the coded taxonomy covers 101 too.
SELECT anon.covers('b12_q', '[6.5,7.5)', '7') AS seven, anon.covers('b12_q', '>=7.5', '100') AS top,
       anon.covers('b12_q', '*', '101') AS above, anon.covers('b12_q', '<6.5', '7') AS next;
SELECT * FROM anon.quantile_taxonomy('b12_bad', 'b12_income', 'income', '{4,4}');
SELECT * FROM anon.quantile_taxonomy('b12_bad', 'b12_income', 'income', '{4,1}');
SELECT * FROM anon.quantile_taxonomy('b12_bad', 'b12_income', 'income', '{}');
SELECT * FROM anon.quantile_taxonomy('b12_bad', 'b12_income', 'label');
SELECT * FROM anon.quantile_taxonomy('b12_bad', 'b12_codes', 'n', '{4}') WHERE false;
SELECT count(*) AS left_behind FROM anon.taxonomies WHERE name = 'b12_bad';

-- interval_taxonomy: fractional widths, replace, bottom and top coding --------------------------------------------

SELECT * FROM anon.interval_taxonomy('b12_iv', 0, 2, '{0.5,1}');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_iv' ORDER BY ord;
SELECT anon.covers('b12_iv', '[0.5,1)', '0.7') AS inside, anon.covers('b12_iv', '[0.5,1)', '1') AS outside;
SELECT * FROM anon.interval_taxonomy('b12_iv', 0, 2, '{0.5,1.2}');
-- An existing integer-array call still works, and replace => true rewrites the taxonomy.
SELECT * FROM anon.interval_taxonomy('b12_iv', 0, 100, ARRAY[10, 50], true);
SELECT name, kind, lower, upper, widths FROM anon.taxonomies WHERE name = 'b12_iv';
-- Bottom and top coding: values below lower fall into '<0', values from upper on into '>=100'; at the coarser level
-- the first and last intervals are open ('<50', '>=50').
SELECT * FROM anon.interval_taxonomy('b12_coded', 0, 100, '{10,50}', coding => true);
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_coded' ORDER BY ord;
SELECT name, kind, lower, upper, widths, coded FROM anon.taxonomies WHERE name = 'b12_coded';
SELECT anon.covers('b12_coded', '<0', '-5') AS below, anon.covers('b12_coded', '>=50', '250') AS above,
       anon.covers('b12_coded', '*', '-5') AS root, anon.covers('b12_coded', '<50', '55') AS not_below;
SELECT * FROM anon.interval_taxonomy('b12_bad', 0, 85, '{5,10}', coding => true);
SELECT * FROM anon.interval_taxonomy('b12_bad', 0, 100, '{50,100}', coding => true);
-- A release over a coded taxonomy: outliers added later do not stop its refresh, and every row stays covered.
CREATE TABLE b12_ages (id int PRIMARY KEY, age int, ill text);
INSERT INTO b12_ages SELECT i, i % 100, (ARRAY['a', 'b', 'c'])[i % 3 + 1] FROM generate_series(1, 300) i;
SELECT r->'levels' AS levels
FROM anon.anonymize('b12_ages', '{age}', '{ill}', 'k-anonymity',
                    '{"k": 5, "keep": ["id"], "keep_identifying": true, "taxonomies": {"age": "b12_coded"}}',
                    'incognito', 'b12_aged') r;
INSERT INTO b12_ages SELECT 300 + i, -i, 'a' FROM generate_series(1, 5) i;
INSERT INTO b12_ages SELECT 400 + i, 100 + 10 * i, 'b' FROM generate_series(1, 5) i;
SELECT r->>'rows' AS rows, r->'levels' AS levels FROM anon.refresh('b12_aged') r;
SELECT age, count(*) FROM b12_aged WHERE age !~ '^\[' GROUP BY 1 ORDER BY 1;
SELECT count(*) AS rows, count(*) FILTER (WHERE anon.covers('b12_coded', r.age, a.age::text)) AS covered
FROM b12_aged r JOIN b12_ages a USING (id);
SELECT anon.drop_release('b12_aged');

-- taxonomy_from_pairs -------------------------------------------------------------------------------------------

CREATE TABLE b12_pairs (value text, parent text);
INSERT INTO b12_pairs VALUES ('flu', 'respiratory'), ('asthma', 'respiratory'), ('fracture', 'injury'),
    ('respiratory', NULL), ('injury', NULL);
-- Two NULL parents: two roots, not one tree.
SELECT * FROM anon.taxonomy_from_pairs('b12_pairs', 'b12_pairs');
UPDATE b12_pairs SET parent = 'any' WHERE parent IS NULL;
-- A parent never listed as a value ('any') is the root.
SELECT * FROM anon.taxonomy_from_pairs('b12_pairs', 'b12_pairs');
SELECT value, parent FROM anon.taxonomy_nodes WHERE taxonomy = 'b12_pairs' ORDER BY ord;
SELECT anon.covers('b12_pairs', 'respiratory', 'asthma') AS covers;
INSERT INTO b12_pairs VALUES (NULL, 'any');
SELECT * FROM anon.taxonomy_from_pairs('b12_bad', 'b12_pairs');
SELECT * FROM anon.taxonomy_from_pairs('b12_bad', 'b12_empty');
CREATE TABLE b12_one_column (value text);
SELECT * FROM anon.taxonomy_from_pairs('b12_bad', 'b12_one_column');
-- taxonomy_from_levels takes replace too.
CREATE TABLE b12_levels (leaf text, root text);
INSERT INTO b12_levels VALUES ('a', '*'), ('b', '*');
SELECT * FROM anon.taxonomy_from_levels('b12_pairs', 'b12_levels');
SELECT * FROM anon.taxonomy_from_levels('b12_pairs', 'b12_levels', replace => true);
SELECT count(*) AS left_behind FROM anon.taxonomies WHERE name = 'b12_bad';

-- A generated patients table, published with builders only ----------------------------------------------------

CREATE TABLE b12_patients (
    id        int PRIMARY KEY,
    zip       text,
    birth     date,
    admitted  timestamptz,
    weight    numeric(5,1),
    diagnosis text
);
INSERT INTO b12_patients
SELECT i,
       (10100 + (i % 40) * 7 + (i % 3) * 1000)::text,
       date '1940-01-01' + (i * 37) % 25000,
       timestamptz '2023-01-01 00:00+00' + ((i * 7919) % 500000) * interval '1 minute',
       45 + ((i * 13) % 700) / 10.0,
       (ARRAY['flu', 'asthma', 'diabetes', 'fracture', 'migraine'])[i % 5 + 1]
FROM generate_series(1, 2000) i;

-- A text quasi-identifier without a taxonomy still stops the call; the error names every one.
SELECT * FROM anon.anonymize('b12_patients', '{zip,weight,diagnosis}', '{}', 'k-anonymity', '{"k": 5}');
SELECT count(*) AS nothing_built FROM anon.taxonomies WHERE name IN ('weight', 'admitted');
-- A mapping to a taxonomy that does not exist is an error too (a mapping names a taxonomy on purpose).
SELECT * FROM anon.anonymize('b12_patients', '{weight}', '{diagnosis}', 'k-anonymity',
                             '{"k": 5, "taxonomies": {"weight": "b12_no_such"}}');

-- zip and birth get builders; admitted and weight get taxonomies built by anon.anonymize, under other session
-- settings (the labels do not change).
SELECT * FROM anon.prefix_taxonomy('zip', 'b12_patients', 'zip');
SELECT * FROM anon.date_taxonomy('birth', '1940-01-01', '2009-12-31', '{year,decade}');
SET DateStyle = 'SQL, DMY';
SET TimeZone = 'Pacific/Chatham';
SELECT r->'built_taxonomies' AS built, r->'levels' AS levels, r->'classes' AS classes, r->>'rows' AS rows
FROM anon.anonymize('b12_patients', '{zip,birth,admitted,weight}', '{diagnosis}', 'distinct-l-diversity',
                    '{"l": 2, "keep": ["id"], "keep_identifying": true}', 'incognito', 'b12_release') r;
RESET DateStyle;
RESET TimeZone;
SELECT name, kind, lower, upper FROM anon.taxonomies WHERE name IN ('admitted', 'weight') ORDER BY name;
SELECT count(*) AS rows FROM b12_release;
SELECT v->>'satisfied' AS satisfied, v->>'violating_classes' AS violating_classes
FROM anon.verify('b12_release', '{zip,birth,admitted,weight}', '{diagnosis}', 'distinct-l-diversity', '{"l": 2}') v;
-- The coverage check: every published value covers the patient's original value (timestamptz by its UTC day).
SELECT count(*) AS rows,
       count(*) FILTER (WHERE anon.covers('zip', r.zip, p.zip)) AS zip,
       count(*) FILTER (WHERE anon.covers('birth', r.birth, anon._canonical_text(p.birth))) AS birth,
       count(*) FILTER (WHERE anon.covers('admitted', r.admitted, anon._canonical_text(p.admitted))) AS admitted,
       count(*) FILTER (WHERE anon.covers('weight', r.weight, p.weight::text)) AS weight,
       count(*) FILTER (WHERE r.diagnosis = p.diagnosis) AS diagnosis
FROM b12_release r JOIN b12_patients p USING (id);
-- The same through the classes: each published combination lies above its originals.
SELECT count(*) AS classes FROM anon.equivalence_classes('b12_release', '{zip,birth,admitted,weight}', '{diagnosis}');
-- The built taxonomies are in the catalog: a refresh with new rows uses them, and they cannot be dropped while
-- the release uses them. Newcomers come two at a time with different diagnoses: what a refresh adds must satisfy
-- the model on its own (issue 42).
INSERT INTO b12_patients VALUES (2001, '10100', '1950-06-01', '2023-06-01 12:00+00', 70.0, 'flu'),
                                (2003, '10100', '1950-06-01', '2023-06-01 12:00+00', 70.0, 'asthma');
SELECT r->>'rows' AS rows, r ? 'built_taxonomies' AS built_again FROM anon.refresh('b12_release') r;
SELECT anon.drop_taxonomy('weight');
-- A value beyond the built bounds needs no rebuild: the outer bands are open (top coding, issue 40), so the
-- refresh publishes it under the top band (or coarser) without printing it.
INSERT INTO b12_patients VALUES (2002, '10100', '1950-06-01', '2023-06-01 12:00+00', 900.0, 'flu'),
                                (2004, '10100', '1950-06-01', '2023-06-01 12:00+00', 900.0, 'asthma');
SELECT r->>'rows' AS rows FROM anon.refresh('b12_release') r;
SELECT weight ~ '^(>=|\*)' AS top_coded, weight !~ '900' AS not_printed FROM b12_release WHERE id = 2002;
DELETE FROM b12_patients WHERE id IN (2002, 2004);
-- Without an output, the report names the built taxonomies too: a date column (its values are the days) and a
-- timestamp column (each value under its day), and an integer one.
CREATE TABLE b12_visits AS
SELECT i AS n, date '2021-03-01' + i % 30 AS day, timestamp '2021-03-01 08:00' + i * interval '7 hours' AS at
FROM generate_series(1, 200) i;
SELECT jsonb_pretty(r->'built_taxonomies') AS built, r->'levels' AS levels
FROM anon.anonymize('b12_visits', '{n,day,at}', '{}', 'k-anonymity', '{"k": 5}') r;
SELECT anon.covers('at', '2021-03', '2021-03-02 15:00:00') AS at_covered, anon.covers('day', '2021', '2021-03-02') AS day_covered;

-- A date column's bounds come from its least and greatest finite value; when one of them names no supported day,
-- the error names the column and the least such value in byte order (here the BC date); 'infinity' is published
-- under the taxonomy's open-ended nodes (13_open_dates); a column without values is refused.
CREATE TABLE b12_dates AS SELECT i AS id, date '2020-01-01' + i AS d, NULL::date AS e FROM generate_series(1, 20) i;
INSERT INTO b12_dates VALUES (21, 'infinity', NULL), (22, '0044-03-15 BC', NULL);
\set VERBOSITY terse
SELECT anon.anonymize('b12_dates', '{d}', '{}', 'k-anonymity', '{"k": 2}');
DELETE FROM b12_dates WHERE id = 22;
SELECT r->'levels' AS levels, r->'built_taxonomies'->0->>'upper' AS upper
FROM anon.anonymize('b12_dates', '{d}', '{}', 'k-anonymity', '{"k": 2}') r;
SELECT anon.anonymize('b12_dates', '{e}', '{}', 'k-anonymity', '{"k": 2, "nulls": "value"}');
\set VERBOSITY default
SELECT count(*) AS built FROM anon.taxonomies WHERE name IN ('d', 'e');

-- Clean up -----------------------------------------------------------------------------------------------------

SELECT anon.drop_release('b12_release');
SELECT count(*) AS dropped FROM anon.taxonomies t, LATERAL anon.drop_taxonomy(t.name)
WHERE t.name LIKE 'b12\_%' OR t.name IN ('zip', 'birth', 'admitted', 'weight', 'n', 'day', 'at', 'd');
DROP TABLE b12_codes, b12_empty, b12_income, b12_pairs, b12_one_column, b12_levels, b12_patients, b12_visits,
           b12_ages, b12_dates;
