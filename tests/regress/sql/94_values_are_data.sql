-- Values are data, never markers (issue 41): a literal "*", the empty string, runs of "*", a label a taxonomy uses for
-- a group of values, very long text, look-alike Unicode strings and collations that call different values equal.
-- Each value either counts as the value it is (in the job's verdict, in anon.verify and in an independent SQL check
-- of the published rows) or is refused with an error naming the column and the value.
\set VERBOSITY terse

-- 1. "*" in a sensitive column without a taxonomy is a value, not the flat taxonomy's root ("any value").
CREATE TABLE star (zip text, dis text);
INSERT INTO star SELECT 'z' || (g % 2), CASE WHEN g % 2 = 0 THEN '*' ELSE 'flu' END FROM generate_series(1, 20) g;
SELECT anon.prefix_taxonomy('star_zip', 'star', 'zip');
-- Two homogeneous classes at distance 0.5 from the table's distribution: t = 0.1 needs them merged into one.
SELECT r->'classes' AS classes
FROM anon.anonymize('star', '{zip}', '{dis}', 't-closeness', '{"t": 0.1, "taxonomies": {"zip": "star_zip"}}',
                    'incognito', 'star_t') r;
SELECT zip, dis, count(*) FROM star_t GROUP BY 1, 2 ORDER BY 1, 2;
SELECT r->'satisfied' AS release_verified FROM anon.verify('star_t', '{zip}', '{dis}', 't-closeness', '{"t": 0.1}') r;
-- The source itself (each zip a class) is not 0.1-close, and verify says so.
SELECT r->'satisfied' AS source_verified, r->'violating_classes' AS violating
FROM anon.verify('star', '{zip}', '{dis}', 't-closeness', '{"t": 0.1}') r;
-- distinct 2-diversity merges the classes too: "*" is one value, not every value.
SELECT r->'classes' AS classes
FROM anon.anonymize('star', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 2, "taxonomies": {"zip": "star_zip"}}',
                    'incognito', 'star_l') r;
SELECT zip, count(DISTINCT dis) AS distinct_values FROM star_l GROUP BY 1 ORDER BY 1;
SELECT r->'satisfied' AS source_verified
FROM anon.verify('star', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 2}') r;
-- tau-l-diversity publishes "*" for a generalized value of a column without a taxonomy: a value "*" there is refused.
SELECT anon.anonymize('star', '{zip}', '{dis}', 'tau-l-diversity', '{"tau": 0.5, "l": 2, "taxonomies": {"zip": "star_zip"}}',
                      'sweep', 'star_tau');
-- With a taxonomy whose groups have labels no value has, "*" is a leaf like any other and the release verifies.
CREATE TABLE star_illness (child text, parent text);
INSERT INTO star_illness VALUES ('Any illness', NULL), ('*', 'Any illness'), ('flu', 'Any illness');
SELECT anon.taxonomy_from_pairs('star_dis', 'star_illness');
SELECT r->>'algorithm' AS algorithm
FROM anon.anonymize('star', '{zip}', '{dis}', 'tau-l-diversity',
                    '{"tau": 0.5, "l": 2, "taxonomies": {"zip": "star_zip", "dis": "star_dis"}}', 'sweep', 'star_tau') r;
SELECT r->'satisfied' AS verified
FROM anon.verify('star_tau', '{zip}', '{dis}', 'tau-l-diversity', '{"tau": 0.5, "l": 2, "taxonomies": {"dis": "star_dis"}}') r;

-- 2. A value that a taxonomy uses for a group of values (an inner node) is refused, for a sensitive column and for a
-- quasi-identifier: read as the group, it would count as every value under it.
CREATE TABLE ill (zip text, dis text);
INSERT INTO ill SELECT 'z' || (g % 2), (ARRAY['flu', 'cold', 'Respiratory'])[1 + g % 3] FROM generate_series(1, 30) g;
SELECT anon.prefix_taxonomy('ill_zip', 'ill', 'zip');
CREATE TABLE illness (child text, parent text);
INSERT INTO illness VALUES ('Any', NULL), ('Respiratory', 'Any'), ('flu', 'Respiratory'), ('cold', 'Respiratory');
SELECT anon.taxonomy_from_pairs('ill_dis', 'illness');
SELECT anon.anonymize('ill', '{zip}', '{dis}', 'distinct-l-diversity',
                      '{"l": 2, "taxonomies": {"zip": "ill_zip", "dis": "ill_dis"}}', 'incognito');
CREATE TABLE zips (zip text, dis text);
INSERT INTO zips VALUES ('z1', 'a'), ('z2', 'b'), ('z-low', 'c'), ('z1', 'b'), ('z2', 'a'), ('z-low', 'a');
CREATE TABLE vd_zip_levels (l0 text, l1 text, l2 text);
INSERT INTO vd_zip_levels VALUES ('z1', 'z-low', 'any zip'), ('z2', 'z-low', 'any zip'), ('z3', 'z-high', 'any zip');
SELECT anon.taxonomy_from_levels('vd_zip_levels', 'vd_zip_levels');
SELECT anon.anonymize('zips', '{zip}', '{dis}', 'k-anonymity', '{"k": 2, "taxonomies": {"zip": "vd_zip_levels"}}',
                      'incognito');

-- 3. Empty strings, runs of "*", blanks and very long text: values like any other, counted and verified as such.
CREATE TABLE odd (zip text, dis text);
INSERT INTO odd SELECT 'z' || (g % 4),
    (ARRAY['', '*', '**', ' ', repeat('x', 5000), 'NULL'])[1 + (g * 7) % 6] FROM generate_series(1, 48) g;
SELECT anon.prefix_taxonomy('odd_zip', 'odd', 'zip');
SELECT r->'satisfied' IS NULL AS report, r->'classes' AS classes
FROM anon.anonymize('odd', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 3, "taxonomies": {"zip": "odd_zip"}}',
                    'incognito', 'odd_l') r;
SELECT count(*) AS rows, min(n) AS fewest_distinct
FROM (SELECT zip, count(DISTINCT dis) AS n FROM odd_l GROUP BY zip) c, (SELECT count(*) FROM odd_l) t(rows)
GROUP BY t.rows;
SELECT r->'satisfied' AS verified FROM anon.verify('odd_l', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 3}') r;
-- Every published value is one of the source's (nothing read as a marker and replaced).
SELECT count(*) AS foreign_values FROM (SELECT DISTINCT dis FROM odd_l EXCEPT SELECT DISTINCT dis FROM odd) x;

-- 4. Canonically equivalent Unicode strings count as different values: the report warns, naming them.
CREATE TABLE hep (zip text, dis text);
INSERT INTO hep SELECT 'z' || (g % 2), CASE WHEN g % 2 = 0 THEN U&'Hepatitis C\00e9' ELSE U&'Hepatitis Ce\0301' END
FROM generate_series(1, 20) g;
INSERT INTO hep SELECT 'z' || (g % 2), 'flu' FROM generate_series(1, 4) g;
SELECT anon.prefix_taxonomy('hep_zip', 'hep', 'zip');
SELECT jsonb_array_elements_text(r->'warnings') AS warning
FROM anon.anonymize('hep', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 2, "taxonomies": {"zip": "hep_zip"}}',
                    'incognito') r;
-- Normalized in a view, they are one value, and the release no longer warns.
CREATE VIEW hep_nfc AS SELECT zip, normalize(dis, NFC) AS dis FROM hep;
SELECT r->'warnings' AS warnings
FROM anon.anonymize('hep_nfc', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 2, "taxonomies": {"zip": "hep_zip"}}',
                    'incognito') r;

-- 5. A nondeterministic collation calls different values equal: such columns are refused, naming the collation.
CREATE COLLATION values_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE ci (zip text, dis text COLLATE values_ci);
INSERT INTO ci SELECT 'z' || (g % 2), (ARRAY['HIV', 'hiv', 'flu'])[1 + g % 3] FROM generate_series(1, 12) g;
SELECT anon.prefix_taxonomy('ci_zip', 'ci', 'zip');
SELECT anon.anonymize('ci', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 2, "taxonomies": {"zip": "ci_zip"}}',
                      'incognito');
SELECT anon.verify('ci', '{zip}', '{dis}', 'distinct-l-diversity', '{"l": 2}');

-- 6. Property: random tables whose values collide with every label the code uses ("*", runs of "*", "", blanks, the
-- text "NULL", long text, a group label of the QI taxonomy). For each model and algorithm, either the call is
-- refused with a data error, or the release is published and anon.verify and an independent SQL check of the
-- published rows (class sizes, distinct values, entropy, the total variation distance of t-closeness) all agree it
-- satisfies the model. Any disagreement raises.
CREATE TABLE prop_levels (l0 text, l1 text, l2 text);
INSERT INTO prop_levels VALUES ('a', 'ab', '**'), ('b', 'ab', '**'), ('c', 'cd', '**'), ('d', 'cd', '**'),
    ('*', 'star', '**'), ('', 'star', '**');
SELECT anon.taxonomy_from_levels('prop_levels', 'prop_levels');
CREATE TABLE prop_outcomes (model text, algorithm text, outcome text);
DO $$
DECLARE
    pool text[] := ARRAY['*', '**', '', ' ', 'NULL', repeat('y', 3000), 'flu', 'cold', 'ab'];
    qi_pool text[] := ARRAY['a', 'b', 'c', 'd', '*', '', 'ab'];
    models text[] := ARRAY['k-anonymity', 'distinct-l-diversity', 'entropy-l-diversity', 't-closeness'];
    params text[] := ARRAY['{"k": 3}', '{"l": 2}', '{"l": 2}', '{"t": 0.4}'];
    algorithms text[] := ARRAY['incognito', 'mondrian'];
    m int; a int; seed int; verified boolean; independent boolean; tp text; report jsonb;
BEGIN
    FOR seed IN 1..12 LOOP
        PERFORM setseed(seed / 100.0);
        DROP TABLE IF EXISTS prop;
        CREATE TABLE prop AS
        SELECT qi_pool[1 + floor(random() * (CASE WHEN seed % 3 = 0 THEN 7 ELSE 6 END))::int] AS q,
               pool[1 + floor(random() * (3 + seed % 7))::int] AS s
        FROM generate_series(1, 60);
        FOR m IN 1..array_length(models, 1) LOOP
            FOR a IN 1..array_length(algorithms, 1) LOOP
                tp := jsonb_set(params[m]::jsonb, '{taxonomies}', '{"q": "prop_levels"}')::text;
                BEGIN
                    report := anon.anonymize('prop', '{q}', '{s}', models[m], tp::jsonb, algorithms[a], 'prop_out');
                EXCEPTION WHEN data_exception OR invalid_parameter_value OR object_not_in_prerequisite_state
                                   OR check_violation OR program_limit_exceeded OR insufficient_resources THEN
                    INSERT INTO prop_outcomes
                    VALUES (models[m], algorithms[a], 'refused: ' || left(regexp_replace(SQLERRM, '[0-9]+', 'N', 'g'), 100));
                    CONTINUE;
                END;
                verified := (anon.verify('prop_out', '{q}', '{s}', models[m], params[m]::jsonb)->>'satisfied')::boolean;
                independent := CASE models[m]
                    WHEN 'k-anonymity' THEN (SELECT bool_and(n >= 3) FROM (SELECT count(*) AS n FROM prop_out GROUP BY q) c)
                    WHEN 'distinct-l-diversity' THEN
                        (SELECT bool_and(n >= 2) FROM (SELECT count(DISTINCT s) AS n FROM prop_out GROUP BY q) c)
                    WHEN 'entropy-l-diversity' THEN
                        (SELECT bool_and(e >= ln(2) - 1e-9)
                         FROM (SELECT q, -sum(p * ln(p)) AS e
                               FROM (SELECT q, count(*)::float8 / sum(count(*)) OVER (PARTITION BY q) AS p
                                     FROM prop_out GROUP BY q, s) x GROUP BY q) c)
                    ELSE
                        -- t-closeness with the equal ground distance: the total variation distance between each
                        -- class's distribution and the source's.
                        (SELECT bool_and(d <= 0.4 + 1e-9)
                         FROM (SELECT k.q, 0.5 * sum(abs(coalesce(c.p, 0) - t.p)) AS d
                               FROM (SELECT DISTINCT q FROM prop_out) k
                               CROSS JOIN (SELECT s, count(*)::float8 / sum(count(*)) OVER () AS p FROM prop GROUP BY s) t
                               LEFT JOIN (SELECT q, s, count(*)::float8 / sum(count(*)) OVER (PARTITION BY q) AS p
                                          FROM prop_out GROUP BY q, s) c ON c.q = k.q AND c.s = t.s
                               GROUP BY k.q) x)
                END;
                IF NOT verified OR NOT independent THEN
                    RAISE EXCEPTION 'seed %, % by %: published, verify says %, the independent check says %',
                        seed, models[m], algorithms[a], verified, independent;
                END IF;
                -- Every published sensitive value is one of the source's.
                IF EXISTS (SELECT s FROM prop_out EXCEPT SELECT s FROM prop) THEN
                    RAISE EXCEPTION 'seed %, % by %: a published value is no value of the source', seed, models[m], algorithms[a];
                END IF;
                INSERT INTO prop_outcomes VALUES (models[m], algorithms[a], 'published and verified');
                PERFORM anon.drop_release('prop_out');
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
SELECT outcome, count(*) FROM prop_outcomes GROUP BY 1 ORDER BY 1;

SELECT anon.drop_release(o) FROM unnest(ARRAY['star_t', 'star_l', 'star_tau', 'odd_l']) o;
DROP VIEW hep_nfc;
DROP TABLE star, star_illness, ill, illness, zips, vd_zip_levels, odd, hep, ci, prop, prop_levels, prop_outcomes;
DROP COLLATION values_ci;
SELECT anon.drop_taxonomy(t) FROM unnest(ARRAY['star_zip', 'star_dis', 'ill_zip', 'ill_dis', 'vd_zip_levels', 'odd_zip',
                                              'hep_zip', 'ci_zip', 'prop_levels']) t;
