-- Extremes (issue 40): data-built numeric bands (anon.quantile_taxonomy, and the taxonomies anon.anonymize builds)
-- never print a value that fewer than k rows lie beyond: the outer bands are open ('<x', '>=x', top and bottom
-- coding) with at least k rows each, and inner cuts are rounded numbers that are no row's value. Checked on the
-- catalog and on the release, with anon.covers and anon.verify.
\set VERBOSITY terse

-- 400 staff: salaries from about 30,000 to 80,000 (cents included) and weights from 50 to 99.9 kg, with one
-- outlier each: a salary of 987,654.32 and a weight of 180.2 kg (two different people).
CREATE TABLE e13_staff (id int PRIMARY KEY, e13_salary numeric(9,2), e13_weight numeric(4,1), dept text);
INSERT INTO e13_staff
SELECT i, 30000.17 + ((i * 7919) % 400) * 125.37, 50 + ((i * 13) % 500) / 10.0,
       (ARRAY['sales', 'it', 'hr', 'ops'])[i % 4 + 1]
FROM generate_series(1, 400) i;
UPDATE e13_staff SET e13_salary = 987654.32 WHERE id = 1;
UPDATE e13_staff SET e13_weight = 180.2 WHERE id = 2;

-- The numbers a taxonomy's bands print (every node but the root and the leaves).
CREATE FUNCTION e13_bounds(taxonomy text) RETURNS TABLE (label text, bound numeric) LANGUAGE sql AS $$
    SELECT n.value, m[1]::numeric
    FROM anon.taxonomy_node n, regexp_matches(n.value, '(-?[0-9.]+(?:e[-+]?[0-9]+)?)', 'g') m
    WHERE n.taxonomy = $1 AND n.parent IS NOT NULL AND n.value ~ '^(<|>=|\[)'
$$;

-- quantile_taxonomy alone: at least 5 rows beyond every printed bound ------------------------------------------

SELECT * FROM anon.quantile_taxonomy('e13_q', 'e13_staff', 'e13_salary', '{8,4,2}');
-- Coded (every number lies in a band); lower and upper are the lowest and highest cut, not min and floor(max)+1.
SELECT kind, lower, upper, coded, lower > (SELECT min(e13_salary) FROM e13_staff) AS lower_above_min,
       upper < (SELECT max(e13_salary) FROM e13_staff WHERE id <> 1) AS upper_below_second_largest
FROM anon.taxonomy WHERE name = 'e13_q';
SELECT value, parent FROM anon.taxonomy_node WHERE taxonomy = 'e13_q' ORDER BY ord;
-- No bound is a salary, none is the outlier or floor(max) + 1, and each has at least 5 rows on either side.
SELECT count(*) AS bounds,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM e13_staff s WHERE s.e13_salary = b.bound)) AS salaries,
       count(*) FILTER (WHERE b.bound IN (987654.32, 987655)) AS outlier,
       min((SELECT count(*) FROM e13_staff s WHERE s.e13_salary < b.bound)) AS least_below,
       min((SELECT count(*) FROM e13_staff s WHERE s.e13_salary >= b.bound)) AS least_at_or_above
FROM e13_bounds('e13_q') b;
-- The outer bands of every level are open: one '<x' and one '>=x' per level.
SELECT count(*) FILTER (WHERE value ~ '^<') AS bottom, count(*) FILTER (WHERE value ~ '^>=') AS top,
       count(*) FILTER (WHERE value ~ '^\[') AS inner_bands
FROM anon.taxonomy_node WHERE taxonomy = 'e13_q';
-- anon.covers reads the open bands, and the root of a coded taxonomy covers every number.
SELECT anon.covers('e13_q', (SELECT value FROM anon.taxonomy_node WHERE taxonomy = 'e13_q' AND value ~ '^>='
                                ORDER BY ord DESC LIMIT 1), '987654.32') AS top_covers_outlier,
       anon.covers('e13_q', '*', '5000000') AS root_covers_more,
       anon.covers('e13_q', (SELECT value FROM anon.taxonomy_node WHERE taxonomy = 'e13_q' AND value ~ '^<'
                                ORDER BY ord DESC LIMIT 1), '987654.32') AS bottom_does_not;

-- Few rows and many bins: k, not the bins, sets the outer bands. 30 weights (one of 180.2 kg) in up to 16 bands:
-- at least 5 rows below the lowest cut and 5 at or above the highest.
CREATE TABLE e13_small AS SELECT CASE WHEN i = 30 THEN 180.2 ELSE 60.3 + i * 0.7 END AS w FROM generate_series(1, 30) i;
SELECT * FROM anon.quantile_taxonomy('e13_small', 'e13_small', 'w', '{16}');
SELECT value FROM anon.taxonomy_node WHERE taxonomy = 'e13_small' ORDER BY ord;
SELECT min((SELECT count(*) FROM e13_small s WHERE s.w < b.bound)) AS least_below,
       min((SELECT count(*) FROM e13_small s WHERE s.w >= b.bound)) AS least_at_or_above,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM e13_small s WHERE s.w = b.bound)) AS weights
FROM e13_bounds('e13_small') b;

-- Fewer than 2k rows: no bound can be printed, so the values sit under the root alone.
CREATE TABLE e13_few AS SELECT i * 1.5 AS x FROM generate_series(1, 9) i;
SELECT * FROM anon.quantile_taxonomy('e13_few', 'e13_few', 'x', '{4,2}');
SELECT kind, lower, upper, coded FROM anon.taxonomy WHERE name = 'e13_few';
SELECT anon.covers('e13_few', '*', '13.5') AS root_covers;

-- Built by anon.anonymize: at least the release's k rows beyond every bound -----------------------------------

SELECT r->'built_taxonomies' AS built, r->'classes' AS classes, r->>'rows' AS rows
FROM anon.anonymize('e13_staff', '{e13_salary,e13_weight}', '{dept}', 'k-anonymity',
                    '{"k": 10, "keep": ["id"], "keep_identifying": true}', 'incognito', 'e13_release') r;
SELECT name, kind, lower, upper, coded FROM anon.taxonomy WHERE name IN ('e13_salary', 'e13_weight') ORDER BY name;
SELECT t.name, count(*) AS bounds,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM e13_staff s WHERE s.e13_salary = b.bound)) AS salaries,
       count(*) FILTER (WHERE b.bound IN (987654.32, 987655, 180.2, 181)) AS outliers,
       min((SELECT count(*) FROM e13_staff s
            WHERE (CASE t.name WHEN 'e13_salary' THEN s.e13_salary ELSE s.e13_weight END) < b.bound)) AS least_below,
       min((SELECT count(*) FROM e13_staff s
            WHERE (CASE t.name WHEN 'e13_salary' THEN s.e13_salary ELSE s.e13_weight END) >= b.bound))
           AS least_at_or_above
FROM (VALUES ('e13_salary'), ('e13_weight')) t(name), LATERAL e13_bounds(t.name) b
GROUP BY t.name ORDER BY t.name;
-- The weight bands: no weight of the data, open at both ends.
SELECT value, parent FROM anon.taxonomy_node WHERE taxonomy = 'e13_weight' AND value !~ '^[0-9]' ORDER BY ord;
-- The release prints neither outlier nor floor(max) + 1; what it publishes for them is an open band or '*'.
SELECT count(*) FILTER (WHERE e13_salary ~ '98765' OR e13_weight ~ '180|181') AS printed_outliers,
       (SELECT e13_salary ~ '^(>=|\*)' FROM e13_release WHERE id = 1) AS salary_outlier_open,
       (SELECT e13_weight ~ '^(>=|\*)' FROM e13_release WHERE id = 2) AS weight_outlier_open
FROM e13_release;
-- anon.verify and anon.covers agree with the job.
SELECT v->>'satisfied' AS satisfied, v->>'violating_classes' AS violating_classes
FROM anon.verify('e13_release', '{e13_salary,e13_weight}', '{dept}', 'k-anonymity', '{"k": 10}') v;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE anon.covers('e13_salary', r.e13_salary, s.e13_salary::text)) AS salary,
       count(*) FILTER (WHERE anon.covers('e13_weight', r.e13_weight, s.e13_weight::text)) AS weight
FROM e13_release r JOIN e13_staff s USING (id);
-- Every published band has at least k rows: none is an outer band of a few rows.
SELECT min(n) AS smallest_class FROM (SELECT count(*) AS n FROM e13_release GROUP BY e13_salary, e13_weight) c;

-- Typed ranges: the open bands are published as ranges open at one end.
SELECT r->'typed_columns' AS typed
FROM anon.anonymize('e13_staff', '{e13_salary,e13_weight}', '{dept}', 'k-anonymity',
                    '{"k": 10, "keep": ["id"], "keep_identifying": true, "ranges": "typed"}', 'incognito',
                    'e13_typed') r;
SELECT count(*) AS rows, count(*) FILTER (WHERE r.e13_salary @> s.e13_salary AND r.e13_weight @> s.e13_weight)
           AS covered,
       count(*) FILTER (WHERE upper_inf(r.e13_weight) OR lower_inf(r.e13_weight)) AS open_weight_ranges
FROM e13_typed r JOIN e13_staff s USING (id);

-- Heavier newcomers need no rebuild: the top band is open, so the refresh publishes them under it. They come k
-- at a time: a refresh adding fewer than k rows to a class would be withheld (issue 42).
INSERT INTO e13_staff SELECT i, 55000.55, 250.0, 'it' FROM generate_series(401, 410) i;
SELECT r->>'rows' AS rows FROM anon.refresh('e13_release') r;
SELECT e13_weight ~ '^(>=|\*)' AS newcomer_open, e13_weight !~ '250' AS not_printed FROM e13_release WHERE id = 401;

-- Clean up -----------------------------------------------------------------------------------------------------

SELECT anon.drop_release('e13_release');
SELECT anon.drop_release('e13_typed');
SELECT count(*) AS dropped FROM anon.taxonomy t, LATERAL anon.drop_taxonomy(t.name)
WHERE t.name IN ('e13_q', 'e13_small', 'e13_few', 'e13_salary', 'e13_weight');
DROP FUNCTION e13_bounds(text);
DROP TABLE e13_staff, e13_small, e13_few;
