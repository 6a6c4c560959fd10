-- The order of t-closeness's ordered distance (issue 41, point 2): the values are ranked in the order of the
-- sensitive column's SQL type (numbers by value, dates in time, false < true, an enum as declared, any other type by
-- its bytes), with NULL under "nulls": "value" last; one NULL no longer switches a numeric column to text order. The
-- report and anon.verify state the order. Every class distance is recomputed here by a checker written from Li, Li
-- and Venkatasubramanian's formula (ICDE 2007, §4.3) over PostgreSQL's own ORDER BY ... NULLS LAST.
\set VERBOSITY default

-- The ordered distance of each class of `classes` (its column `class_col`) from the whole `source` table, over the
-- m distinct values of `col` in `source` (NULL one of them) sorted as ORDER BY `col`::`typ` NULLS LAST sorts them,
-- p the class's and q the table's distribution: D[P, Q] = 1/(m-1) * sum_{i=1..m} |sum_{j<=i} (p_j - q_j)|. A
-- release publishes the column as text: its values are read back as `typ`.
CREATE FUNCTION tco_emd(classes regclass, class_col text, source regclass, col text, typ regtype)
RETURNS TABLE (class text, size bigint, emd double precision)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format($q$
        WITH dom AS (SELECT %4$I::text::%5$s AS v, row_number() OVER (ORDER BY %4$I::text::%5$s NULLS LAST) AS i,
                            count(*) OVER () AS m, count(*)::float8 / sum(count(*)) OVER () AS q
                     FROM %3$s GROUP BY %4$I),
             cls AS (SELECT r.%2$I::text AS g, r.%4$I::text::%5$s AS v, count(*)::float8 AS n,
                            sum(count(*)) OVER (PARTITION BY r.%2$I)::float8 AS size
                     FROM %1$s r GROUP BY r.%2$I, r.%4$I),
             grid AS (SELECT c.g, d.i, d.m, d.q, coalesce(x.n / x.size, 0) AS p
                      FROM (SELECT DISTINCT g FROM cls) c CROSS JOIN dom d
                      LEFT JOIN cls x ON x.g = c.g AND x.v IS NOT DISTINCT FROM d.v),
             cum AS (SELECT g, m, sum(p - q) OVER (PARTITION BY g ORDER BY i) AS carried FROM grid)
        SELECT g, (SELECT max(size)::bigint FROM cls WHERE cls.g = cum.g), sum(abs(carried)) / (max(m) - 1)
        FROM cum GROUP BY g$q$, classes, class_col, source, col, typ);
END
$$;

-- The issue's table: 900 rows with 900 distinct salaries in 1..999 in zips z1-z3, 100 rows with 5000..5099 in z0.
CREATE TABLE tco_pay (id serial PRIMARY KEY, zip text, pay int);
INSERT INTO tco_pay (zip, pay) SELECT 'z' || (1 + i % 3), 1 + (i * 7) % 999 FROM generate_series(1, 900) i;
INSERT INTO tco_pay (zip, pay) SELECT 'z0', 5000 + i FROM generate_series(0, 99) i;
CREATE TABLE tco_zip_levels (c0 text, c1 text);
INSERT INTO tco_zip_levels VALUES ('z0', '*'), ('z1', '*'), ('z2', '*'), ('z3', '*');
SELECT anon.taxonomy_from_levels('tco_zip', 'tco_zip_levels') - 'name' AS tco_zip;
\set P '{"t": 0.3, "distance": "ordered", "taxonomies": {"zip": "tco_zip"}}'

-- Without NULL: z0 is far from the table, so zip is generalized; the report states the order.
SELECT class, size, round(emd::numeric, 4) AS emd FROM tco_emd('tco_pay', 'zip', 'tco_pay', 'pay', 'int') ORDER BY class;
SELECT r->'levels' AS levels, r->'distance' AS distance
FROM anon.anonymize('tco_pay', '{zip}', '{pay}', 't-closeness', :'P', 'incognito', NULL) r;

-- One NULL salary, a value of its own: before, it switched the order to the labels' text order ("10" < "5000" <
-- "6"), where z0 looks close, and zip was published at level 0 although z0 is 0.45 away in numeric order. Now
-- NULL comes last, the order stays numeric, and zip is generalized as before.
INSERT INTO tco_pay (zip, pay) VALUES ('z1', NULL);
\set PN '{"t": 0.3, "distance": "ordered", "taxonomies": {"zip": "tco_zip"}, "nulls": "value"}'
SELECT class, size, round(emd::numeric, 4) AS emd FROM tco_emd('tco_pay', 'zip', 'tco_pay', 'pay', 'int') ORDER BY class;
SELECT r->'levels' AS levels, r->'classes' AS classes, r->'distance' AS distance, r->'warnings' AS warnings
FROM anon.anonymize('tco_pay', '{zip}', '{pay}', 't-closeness', :'PN', 'incognito', 'tco_release') r;
-- The release satisfies t = 0.3 in numeric order, NULL last, by the checker: every class within t.
SELECT count(*) AS classes, sum(size) AS rows, count(*) FILTER (WHERE emd > 0.3 + 1e-9) AS beyond_t,
       round(max(emd)::numeric, 4) AS max_emd
FROM tco_emd('tco_release', 'gid', 'tco_pay', 'pay', 'int');
SELECT count(*) FILTER (WHERE pay IS NULL) AS null_rows, count(*) AS rows FROM tco_release;
-- anon.verify agrees and states the same order: the release's view publishes pay as text, and its verification
-- ranks it as the source's integer column, as the release was checked.
SELECT r->'satisfied' AS satisfied, r->'violating_classes' AS violating, r->'distance' AS distance
FROM anon.verify('tco_release', '{zip}', '{pay}', 't-closeness', '{"t": 0.3, "distance": "ordered", "nulls": "value"}') r;
-- The source itself, each zip a class: z0 violates in numeric order, as the checker says.
SELECT r->'satisfied' AS satisfied, r->'violating_classes' AS violating, r->'distance' AS distance
FROM anon.verify('tco_pay', '{zip}', '{pay}', 't-closeness', '{"t": 0.3, "distance": "ordered", "nulls": "value"}') r;
-- The default distance of a numeric column is the ordered one, NULL or not.
SELECT r->'levels' AS levels, r->'distance' AS distance
FROM anon.anonymize('tco_pay', '{zip}', '{pay}', 't-closeness',
                    '{"t": 0.3, "taxonomies": {"zip": "tco_zip"}, "nulls": "value"}', 'incognito', NULL) r;
-- A text column of the same values is ranked by its bytes, and says so (its default distance is equal).
CREATE VIEW tco_pay_text AS SELECT id, zip, pay::text AS pay FROM tco_pay;
SELECT r->'satisfied' AS satisfied, r->'distance' AS distance
FROM anon.verify('tco_pay_text', '{zip}', '{pay}', 't-closeness', '{"t": 0.3, "distance": "ordered", "nulls": "value"}') r;
SELECT r->'distance' AS distance
FROM anon.verify('tco_pay_text', '{zip}', '{pay}', 't-closeness', '{"t": 0.3, "nulls": "value"}') r;

-- Other types, each with a NULL: numbers with -Infinity, Infinity and NaN (PostgreSQL sorts NaN above every
-- number), dates before Christ and beyond 9999, booleans, an enum in its declared order (not its labels' order).
-- For each class, anon.verify at t just below and just above the checker's distance counts the violating classes
-- the checker counts at those t.
CREATE TYPE tco_level AS ENUM ('none', 'low', 'mid', 'high');
CREATE TABLE tco_kinds (g text, f float8, d date, b boolean, e tco_level);
INSERT INTO tco_kinds VALUES
    ('a', '-Infinity', '0044-03-15 BC', false, 'high'), ('a', 1, '2023-05-17', false, 'high'),
    ('a', 2.5, '10000-01-01', true, 'low'), ('b', 'Infinity', '2023-05-18', true, 'mid'),
    ('b', 'NaN', 'infinity', NULL, NULL), ('b', NULL, NULL, true, 'none'), ('b', 1e300, '1999-12-31', false, 'low');
CREATE TABLE tco_kind_levels (c0 text, c1 text);
INSERT INTO tco_kind_levels VALUES ('a', '*'), ('b', '*');
SELECT anon.taxonomy_from_levels('tco_g', 'tco_kind_levels') - 'name' AS tco_g;
WITH e AS (SELECT k.col, e.class, e.emd
           FROM (VALUES ('f', 'float8'), ('d', 'date'), ('b', 'boolean'), ('e', 'tco_level')) AS k(col, typ),
                LATERAL tco_emd('tco_kinds', 'g', 'tco_kinds', k.col, k.typ::regtype) e),
     v AS (SELECT e.col, e.class, e.emd, x.side, x.t,
                  (SELECT count(*) FROM e o WHERE o.col = e.col AND o.emd > x.t) AS expected,
                  anon.verify('tco_kinds', '{g}', ARRAY[e.col], 't-closeness',
                              jsonb_build_object('t', x.t, 'distance', 'ordered', 'nulls', 'value',
                                                 'taxonomies', jsonb_build_object('g', 'tco_g'))) AS r
           FROM e, LATERAL (VALUES ('below', round(e.emd::numeric, 6) - 0.000002),
                                   ('above', round(e.emd::numeric, 6) + 0.000002)) AS x(side, t))
SELECT col, class, round(emd::numeric, 4) AS emd,
       string_agg(side || ' ' || (r->>'violating_classes'), ', ' ORDER BY side DESC) AS verify_violating,
       bool_and((r->>'violating_classes')::bigint = expected) AS agrees, min(r->'distance'->col->>'order') AS "order"
FROM v
GROUP BY col, class, emd
ORDER BY col, class;

SELECT anon.drop_release('tco_release');
DROP FUNCTION tco_emd(regclass, text, regclass, text, regtype);
DROP VIEW tco_pay_text;
DROP TABLE tco_pay, tco_zip_levels, tco_kinds, tco_kind_levels;
DROP TYPE tco_level;
SELECT anon.drop_taxonomy('tco_zip'), anon.drop_taxonomy('tco_g');
