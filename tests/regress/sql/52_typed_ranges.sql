-- Typed ranges (issue 15): params->>'ranges' = 'typed' publishes numeric quasi-identifiers as numrange and date ones
-- as daterange columns, each taxonomy node as the range its label names. On Adult (age under its level table's
-- "0-4" spans) and on a generated table with a date, a timestamptz, a bottom/top-coded number, a code and a category:
-- the published types, range operators, every source row covered (joined on a kept key, and without a key by
-- counting the rows each range holds), refresh both ways, anon.verify, equivalence classes, metrics, the catalog,
-- drop_release, and the errors.
\set VERBOSITY default
SET DateStyle = 'ISO, YMD';

-- The published types of a relation's columns.
CREATE FUNCTION tr_types(relation regclass) RETURNS TABLE (name name, type text)
LANGUAGE sql AS $$
    SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
    WHERE attrelid = relation AND attnum > 0 AND NOT attisdropped ORDER BY attnum
$$;

-- Adult's own age hierarchy (data/adult, from ARX) puts 1 to 5 under "0-4", 6 to 10 under "5-9", ...: its labels
-- are not the ranges of their values, and a typed release refuses to publish 5 as [0,4].
SELECT * FROM anon.anonymize('adult', '{sex,age,race}', '{occupation}', 'distinct-l-diversity',
                             '{"l": 3, "ranges": "typed"}', 'incognito', 'adult_typed');
-- Ages under nested intervals instead: [15,20) under [10,20) under [0,20), then *.
SELECT anon.interval_taxonomy('tr_age', 0, 100, '{5,10,20}');

-- Adult, full-domain search, no key: each published age range holds exactly the source rows whose age lies in it
-- (global recoding publishes disjoint ranges).
SELECT r->'typed_columns' AS typed, r->'warnings' AS warnings, r->>'classes' AS classes, r->'levels' AS levels
FROM anon.anonymize('adult', '{sex,age}', '{occupation}', 'k-anonymity',
                    '{"k": 20, "ranges": "typed", "taxonomies": {"age": "tr_age"}}', 'incognito', 'adult_typed') r;
SELECT * FROM tr_types('adult_typed');
SELECT age, count(*) AS rows FROM adult_typed GROUP BY age ORDER BY age;
SELECT count(*) FILTER (WHERE p.rows <> (SELECT count(*) FROM adult s WHERE p.age @> s.age::numeric)) AS ranges_off,
       sum(p.rows) AS rows
FROM (SELECT age, count(*) AS rows FROM adult_typed GROUP BY age) p;
-- Range operators.
SELECT count(*) AS holding_37 FROM adult_typed WHERE age @> 37::numeric;
SELECT count(*) AS overlapping_20s FROM adult_typed WHERE age && numrange(20, 30);
SELECT v->>'satisfied' AS satisfied, v->>'classes' AS classes
FROM anon.verify('adult_typed', '{sex,age}', '{occupation}', 'k-anonymity', '{"k": 20}') v;
SELECT count(*) AS classes, sum(size) AS rows
FROM anon.equivalence_classes('adult_typed', '{sex,age}', '{occupation}');

-- Adult, local recoding (refine) with a kept key: every row joins back and its range holds its age. Published
-- beside adult_typed, it acknowledges the composition of the two (issue 42).
SELECT r->'typed_columns'->>'age' AS age, r->>'algorithm' AS algorithm
FROM anon.anonymize('adult', '{sex,age,race}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "recoding": "local", "ranges": "typed", "keep": ["id"], "keep_identifying": true,
                      "taxonomies": {"age": "tr_age"}, "acknowledge_composition": true}', 'auto', 'adult_typed_local') r;
SELECT * FROM tr_types('adult_typed_local');
SELECT count(*) AS rows, count(*) FILTER (WHERE NOT r.age @> s.age::numeric) AS not_covered,
       count(*) FILTER (WHERE NOT anon.covers('tr_age', r.age, s.age::text)) AS not_covered_by_covers,
       count(DISTINCT r.age) AS distinct_ranges
FROM adult_typed_local r JOIN adult s USING (id);
SELECT v->>'satisfied' AS satisfied
FROM anon.verify('adult_typed_local', '{gid}', '{occupation}', 'distinct-l-diversity', '{"l": 3}') v;
SELECT age, count(*) FROM adult_typed_local WHERE age @> 37::numeric GROUP BY age ORDER BY age;

-- A generated table: a date of birth, an admission timestamptz, a length of stay with outliers, a zip code stored
-- as an integer (a code: stays text), a ward (a category: stays text) and the reason of the visit.
CREATE TABLE tr_visits (id int PRIMARY KEY, born date, admitted timestamptz, stay numeric(5,1), zip int, ward text,
                        visit_reason text);
INSERT INTO tr_visits
SELECT i, date '1950-01-01' + (i * 97) % 18000, timestamptz '2023-01-01 00:00:00+00' + (i * 7919 % 525600) * interval '1 minute',
       CASE WHEN i % 50 = 0 THEN 45 + i % 7 WHEN i % 61 = 0 THEN -1 ELSE (i * 37 % 290) / 10.0 END,
       10000 + (i % 4) * 10 + i % 3, (ARRAY['north', 'south', 'east'])[1 + i % 3],
       (ARRAY['flu', 'cold', 'asthma', 'fracture'])[1 + i % 4]
FROM generate_series(1, 400) i;
SELECT anon.date_taxonomy('tr_born', '1950-01-01', '1999-12-31', '{month,year,decade}');
SELECT anon.date_taxonomy('tr_admitted', '2022-12-26', '2024-01-07', '{week,year}');
SELECT anon.interval_taxonomy('tr_stay', 0, 30, '{5,10}', coding => true);
SELECT anon.prefix_taxonomy('tr_zip', 'tr_visits', 'zip');
CREATE TABLE tr_ward_levels (leaf text, area text, root text);
INSERT INTO tr_ward_levels VALUES ('north', 'upper', '*'), ('south', 'lower', '*'), ('east', 'lower', '*');
SELECT anon.taxonomy_from_levels('tr_ward', 'tr_ward_levels');

SELECT r->'typed_columns' AS typed, r->'warnings' AS warnings
FROM anon.anonymize('tr_visits', '{born,admitted,stay,zip,ward}', '{visit_reason}', 'k-anonymity',
                    '{"k": 5, "ranges": "typed", "keep": ["id"], "keep_identifying": true, "taxonomies":
                      {"born": "tr_born", "admitted": "tr_admitted", "stay": "tr_stay", "zip": "tr_zip",
                       "ward": "tr_ward"}}', 'incognito', 'tr_release') r;
SELECT * FROM tr_types('tr_release');
-- Every row is published, and each range holds the original value (a timestamptz by its UTC day).
CREATE VIEW tr_coverage AS
SELECT count(*) AS rows,
       count(*) FILTER (WHERE NOT r.born @> s.born) AS born_off,
       count(*) FILTER (WHERE NOT r.admitted @> (s.admitted AT TIME ZONE 'UTC')::date) AS admitted_off,
       count(*) FILTER (WHERE NOT r.stay @> s.stay) AS stay_off,
       (SELECT count(*) FROM tr_visits) AS source_rows
FROM tr_release r JOIN tr_visits s USING (id);
SELECT * FROM tr_coverage;
-- The same with anon.covers, which reads typed values too.
SELECT count(*) FILTER (WHERE NOT anon.covers('tr_born', r.born, anon._canonical_text(s.born))) AS born_off,
       count(*) FILTER (WHERE NOT anon.covers('tr_admitted', r.admitted, anon._canonical_text(s.admitted))) AS admitted_off,
       count(*) FILTER (WHERE NOT anon.covers('tr_stay', r.stay, anon._canonical_text(s.stay))) AS stay_off,
       count(*) FILTER (WHERE NOT anon.covers('tr_zip', r.zip, anon._canonical_text(s.zip))) AS zip_off
FROM tr_release r JOIN tr_visits s USING (id);
SELECT anon.covers('tr_stay', numrange(0, 5), '4.9') AS inside, anon.covers('tr_stay', numrange(0, 5), '5') AS outside,
       anon.covers('tr_stay', numrange(NULL, NULL), '-1e300') AS unbounded,
       anon.covers('tr_born', daterange('2023-05-01', '2023-06-01'), '2023-05-31 23:59:59+00') AS day_of_timestamp,
       anon.covers('tr_born', daterange('2023-05-01', '2023-06-01'), '2023-06-01') AS next_month,
       anon.covers('tr_stay', numrange(0, 5), 'abc') AS not_a_number, anon.covers('tr_stay', NULL::numrange, NULL) AS nulls;
SELECT DISTINCT stay FROM tr_release ORDER BY stay;
SELECT born, admitted, count(*) FROM tr_release GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 5;
-- Range operators on dates; the typed value of every QI as the report's levels chose it.
SELECT count(*) AS born_in_the_80s FROM tr_release WHERE born <@ daterange('1980-01-01', '1990-01-01');
SELECT count(*) AS admitted_on_may_17 FROM tr_release WHERE admitted @> date '2023-05-17';
SELECT v->>'satisfied' AS satisfied, v->>'classes' AS classes
FROM anon.verify('tr_release', '{born,admitted,stay,zip,ward}', '{visit_reason}', 'k-anonymity', '{"k": 5}') v;
SELECT count(*) AS classes, min(size) AS smallest
FROM anon.equivalence_classes('tr_release', '{born,admitted,stay,zip,ward}', '{visit_reason}');
SELECT (anon.metrics('tr_release')->>'classes') IS NOT NULL AS has_metrics;
SELECT params->>'ranges' AS ranges, report->'typed_columns' AS typed FROM anon.release WHERE output_name = 'tr_release';

-- Refresh both ways, under another DateStyle and TimeZone: the types stay, new rows are covered. Each refresh adds
-- a copy of every visit, so each class gains a copy of itself (a few new rows would be withheld, issue 42).
SET DateStyle = 'SQL, DMY';
SET TimeZone = 'Pacific/Chatham';
INSERT INTO tr_visits SELECT id + 1000, born, admitted, stay, zip, ward, visit_reason FROM tr_visits;
SELECT r->>'published_rows' AS published_rows FROM anon.refresh('tr_release') r;
RESET DateStyle;
SET DateStyle = 'ISO, YMD';
SELECT * FROM tr_types('tr_release');
SELECT * FROM tr_coverage;
INSERT INTO tr_visits SELECT id + 2000, born, admitted, stay, zip, ward, visit_reason FROM tr_visits WHERE id <= 400;
REFRESH MATERIALIZED VIEW tr_release;
RESET TimeZone;
SELECT * FROM tr_types('tr_release');
SELECT * FROM tr_coverage;
SELECT status FROM anon.refresh_if_changed('tr_release');
-- The copies go: the generated table is the 400 visits again for the releases below.
DELETE FROM tr_visits WHERE id > 400;

-- Admissions alone: ISO weeks under ISO week-numbering years (2023-01-01, a Sunday, is in week 2022-W52, so in
-- 2022, whose range starts on Monday 2022-01-03).
SELECT r->>'algorithm' AS algorithm
FROM anon.anonymize('tr_visits', '{admitted}', '{visit_reason}', 'k-anonymity',
                    '{"k": 5, "recoding": "local", "ranges": "typed", "keep": ["id"], "keep_identifying": true,
                      "taxonomies": {"admitted": "tr_admitted"}}', 'auto', 'tr_admissions') r;
SELECT count(*) AS rows, count(*) FILTER (WHERE NOT r.admitted @> (s.admitted AT TIME ZONE 'UTC')::date) AS not_covered,
       count(DISTINCT r.admitted) AS ranges
FROM tr_admissions r JOIN tr_visits s USING (id);
SELECT r.admitted, min(s.admitted AT TIME ZONE 'UTC') AS first, max(s.admitted AT TIME ZONE 'UTC') AS last
FROM tr_admissions r JOIN tr_visits s USING (id) GROUP BY 1 ORDER BY 1 LIMIT 3;

-- Lengths of stay alone: bottom and top coding publish unbounded ranges.
SELECT r->'typed_columns' AS typed, r->'levels' AS levels
FROM anon.anonymize('tr_visits', '{stay}', '{visit_reason}', 'k-anonymity',
                    '{"k": 3, "ranges": "typed", "keep": ["id"], "keep_identifying": true,
                      "taxonomies": {"stay": "tr_stay"}}', 'incognito', 'tr_stays') r;
SELECT r.stay, count(*), min(s.stay), max(s.stay), bool_and(r.stay @> s.stay) AS covered
FROM tr_stays r JOIN tr_visits s USING (id) GROUP BY 1 ORDER BY 1;

-- The bucketized form keeps the original values in the QIT; the generalized view is typed.
SELECT r->'typed_columns'->>'stay' AS stay
FROM anon.anonymize('tr_visits', '{born,stay}', '{visit_reason}', 'distinct-l-diversity',
                    '{"l": 2, "ranges": "typed", "publish": "both", "taxonomies": {"born": "tr_born", "stay": "tr_stay"},
                      "acknowledge_composition": true}',
                    'bsgi', 'tr_both') r;
SELECT * FROM tr_types('tr_both');
SELECT * FROM tr_types('tr_both_qit');
SELECT count(*) AS not_covered FROM tr_both v JOIN tr_both_qit q USING (gid)
WHERE NOT EXISTS (SELECT 1 FROM tr_both w WHERE w.gid = q.gid AND w.stay @> q.stay AND w.born @> q.born);

-- Errors ----------------------------------------------------------------------------------------------------------

-- An unknown value, with every algorithm (Incognito included, which has no ranges option of its own).
SELECT * FROM anon.anonymize('tr_visits', '{born}', '{visit_reason}', 'k-anonymity',
                             '{"k": 5, "ranges": "loose", "taxonomies": {"born": "tr_born"}}', 'incognito', 'tr_err');
SELECT * FROM anon.anonymize('tr_visits', '{born}', '{visit_reason}', 'k-anonymity',
                             '{"k": 5, "ranges": 1, "taxonomies": {"born": "tr_born"}}', 'mondrian', 'tr_err');
-- A level table mixing ranges and other labels, and one whose range does not hold a value under it.
CREATE TABLE tr_bad_levels (leaf text, band text, root text);
INSERT INTO tr_bad_levels SELECT v::text, CASE WHEN v < 15 THEN '-1-14' ELSE 'long' END, '*'
FROM generate_series(-1, 60) v;
SELECT anon.taxonomy_from_levels('tr_stay_bad', 'tr_bad_levels');
CREATE TABLE tr_ints AS SELECT id, (stay::int) AS stay, visit_reason FROM tr_visits;
SELECT * FROM anon.anonymize('tr_ints', '{stay}', '{visit_reason}', 'k-anonymity',
                             '{"k": 5, "ranges": "typed", "taxonomies": {"stay": "tr_stay_bad"}}', 'incognito', 'tr_err');
UPDATE tr_bad_levels SET band = CASE WHEN band = 'long' THEN '15-60' ELSE '0-14' END;
SELECT anon.taxonomy_from_levels('tr_stay_bad', 'tr_bad_levels', replace => true);
SELECT * FROM anon.anonymize('tr_ints', '{stay}', '{visit_reason}', 'k-anonymity',
                             '{"k": 5, "ranges": "typed", "taxonomies": {"stay": "tr_stay_bad"}}', 'incognito', 'tr_err');
SELECT count(*) AS relations FROM pg_class WHERE relname LIKE 'tr\_err%';

-- A level table of spans is typed; replaced by one whose labels are no ranges, the refresh says which column would
-- change type (both ways) and keeps the release.
UPDATE tr_bad_levels SET band = CASE WHEN leaf::int < 15 THEN '-1-14' ELSE '15-60' END;
SELECT anon.taxonomy_from_levels('tr_stay_bad', 'tr_bad_levels', replace => true);
SELECT r->'typed_columns' AS typed FROM anon.anonymize('tr_ints', '{stay}', '{visit_reason}', 'k-anonymity',
       '{"k": 5, "ranges": "typed", "taxonomies": {"stay": "tr_stay_bad"}}', 'incognito', 'tr_ints_release') r;
SELECT * FROM tr_types('tr_ints_release');
SELECT stay, count(*) FROM tr_ints_release GROUP BY 1 ORDER BY 1;
UPDATE tr_bad_levels SET band = CASE WHEN leaf::int < 15 THEN 'short' ELSE 'long' END;
SELECT anon.taxonomy_from_levels('tr_stay_bad', 'tr_bad_levels', replace => true);
SELECT * FROM anon.refresh('tr_ints_release');
REFRESH MATERIALIZED VIEW tr_ints_release;
SELECT * FROM tr_types('tr_ints_release');
SELECT count(*) AS still_published FROM tr_ints_release;

-- Dropping ------------------------------------------------------------------------------------------------------
DROP VIEW tr_coverage;
SELECT anon.drop_release('tr_ints_release');
SELECT anon.drop_release('tr_both');
SELECT anon.drop_release('tr_stays');
SELECT anon.drop_release('tr_admissions');
SELECT anon.drop_release('tr_release');
SELECT anon.drop_release('adult_typed');
SELECT anon.drop_release('adult_typed_local');
SELECT count(*) AS left_behind FROM anon.release WHERE output_name LIKE 'tr\_%' OR output_name LIKE 'adult\_typed%';
