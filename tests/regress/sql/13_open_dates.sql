-- Open-ended dates (issue 38): a patients table whose discharged timestamptz is 'infinity' for patients still in
-- hospital and whose admitted is '-infinity' for unknown starts. Both are published under open-ended nodes of the
-- date taxonomies ("after 2029-12", "before 2020", ...): with the taxonomy anon.anonymize builds from the data, with
-- an anon.date_taxonomy of finite bounds, and as typed dateranges; each release verified, and every published value
-- checked against the original with anon.covers. What is still refused names the column, the value and the fix.
-- Every taxonomy and release made here is dropped at the end.
\set VERBOSITY default
SET DateStyle = 'ISO, YMD';

-- Hours, not days, are added to timestamps: a day's length depends on the session's TimeZone (DST), and the settings
-- test replays this file under another one, expecting the same data.
CREATE TABLE od_patients (id int PRIMARY KEY, admitted timestamptz NOT NULL, discharged timestamptz NOT NULL,
                          ward text NOT NULL);
INSERT INTO od_patients
SELECT i, timestamptz '2021-03-01 08:00+00' + (i % 8) * interval '216 hours' + i * interval '1 hour',
       CASE WHEN i % 5 = 0 THEN 'infinity'
            ELSE timestamptz '2021-03-01 08:00+00' + (i % 8) * interval '216 hours' + interval '72 hours' END,
       (ARRAY['cardiology', 'oncology', 'surgery'])[1 + i % 3]
FROM generate_series(1, 40) i;
UPDATE od_patients SET admitted = '-infinity' WHERE id IN (3, 7, 11, 13);
SELECT count(*) FILTER (WHERE discharged = 'infinity') AS in_hospital,
       count(*) FILTER (WHERE admitted = '-infinity') AS unknown_start
FROM od_patients;

-- The taxonomies anon.anonymize builds: bounds from the finite values only (the decade 2020s); infinity and
-- -infinity join the open-ended nodes when the job reads the column.
SELECT r->'built_taxonomies' AS built, r->'levels' AS levels, r->>'rows' AS rows
FROM anon.anonymize('od_patients', '{admitted,discharged}', '{ward}', 'k-anonymity',
                    '{"k": 4, "keep": ["id"], "keep_identifying": true}', 'incognito', 'od_release') r;
-- The chains are not stored: the taxonomies stay as built.
SELECT count(*) AS stored_open_nodes FROM anon.taxonomy_nodes
WHERE taxonomy IN ('admitted', 'discharged') AND (value LIKE '%infinity' OR value ~ '^(after|before) ');
-- The published rows of the patients still in hospital and of those with an unknown start.
SELECT r.id, r.admitted, r.discharged
FROM od_release r JOIN od_patients p USING (id)
WHERE p.discharged = 'infinity' OR p.admitted = '-infinity' ORDER BY r.id;
SELECT v->>'satisfied' AS satisfied, v->>'violating_classes' AS violating_classes
FROM anon.verify('od_release', '{admitted,discharged}', '{ward}', 'k-anonymity', '{"k": 4}') v;
-- Every published value covers the patient's original value, infinity included.
SELECT count(*) AS rows,
       count(*) FILTER (WHERE anon.covers('admitted', r.admitted, anon._canonical_text(p.admitted))) AS admitted,
       count(*) FILTER (WHERE anon.covers('discharged', r.discharged, anon._canonical_text(p.discharged)))
           AS discharged
FROM od_release r JOIN od_patients p USING (id);
-- anon.covers on the open-ended chains: each open-ended node covers its own end only, the root both; a finite
-- node covers neither.
SELECT g AS general, anon.covers('discharged', g, 'infinity') AS infinity,
       anon.covers('discharged', g, '-infinity') AS minus_infinity
FROM unnest(ARRAY['infinity', 'after 2029-12', 'after 2029', 'after 2020s', 'before 2020-01', 'before 2020s', '*',
                  '2029-12', '2029', '2020s', 'after 2029-12-31', 'after *']) g;

-- Each level's node for the patients still in hospital: infinity itself below the months, an open-ended node at
-- each coarser level, the root hiding it. Published through params->'levels' (that node of the search), k = 1.
CREATE FUNCTION od_published_at(lvl int, extra jsonb DEFAULT '{}') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    published text;
BEGIN
    PERFORM anon.anonymize('od_patients', '{discharged}', '{}', 'k-anonymity',
                           jsonb_build_object('k', 1, 'keep', '["id"]'::jsonb, 'keep_identifying', true,
                                              'levels', jsonb_build_array(lvl), 'replace', true,
                                              'acknowledge_composition', true) || extra,
                           'incognito', 'od_levels');
    SELECT string_agg(DISTINCT o.discharged::text, ', ') INTO published
    FROM od_levels o JOIN od_patients p USING (id) WHERE p.discharged = 'infinity';
    RETURN published;
END
$$;
SELECT lvl, od_published_at(lvl) AS published FROM generate_series(0, 5) lvl;

-- A taxonomy of one's own with finite bounds: the open-ended leaves exist for it too, and a typed release publishes
-- them as dateranges PostgreSQL reads (an open-ended node without upper bound, infinity as [infinity,infinity]).
SELECT * FROM anon.date_taxonomy('od_discharged', '2021-01-01', '2021-12-31', '{month,quarter,year}');
SELECT r->'typed_columns' AS typed, r->'levels' AS levels
FROM anon.anonymize('od_patients', '{admitted,discharged}', '{ward}', 'k-anonymity',
                    '{"k": 4, "keep": ["id"], "keep_identifying": true, "ranges": "typed",
                      "taxonomies": {"discharged": "od_discharged"}, "acknowledge_composition": true}',
                    'incognito', 'od_typed') r;
SELECT format_type(atttypid, atttypmod) AS discharged_type FROM pg_attribute
WHERE attrelid = 'od_typed'::regclass AND attname = 'discharged';
SELECT r.id, r.admitted, r.discharged
FROM od_typed r JOIN od_patients p USING (id)
WHERE p.discharged = 'infinity' OR p.admitted = '-infinity' ORDER BY r.id;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE r.discharged @> (p.discharged AT TIME ZONE 'UTC')::date) AS discharged_holds,
       count(*) FILTER (WHERE r.admitted @> (p.admitted AT TIME ZONE 'UTC')::date) AS admitted_holds,
       count(*) FILTER (WHERE anon.covers('od_discharged', r.discharged, anon._canonical_text(p.discharged)))
           AS discharged_covers,
       count(*) FILTER (WHERE anon.covers('admitted', r.admitted, anon._canonical_text(p.admitted)))
           AS admitted_covers
FROM od_typed r JOIN od_patients p USING (id);
SELECT count(*) AS still_in_hospital FROM od_typed WHERE discharged @> 'infinity'::date;
SELECT v->>'satisfied' AS satisfied
FROM anon.verify('od_typed', '{admitted,discharged}', '{ward}', 'k-anonymity', '{"k": 4}') v;
-- Each level of the stored taxonomy as a typed range.
SELECT lvl, od_published_at(lvl, '{"ranges": "typed", "taxonomies": {"discharged": "od_discharged"}}') AS published
FROM generate_series(0, 5) lvl;

-- A date column: -infinity and infinity, published and covered as for timestamps.
CREATE TABLE od_births AS
SELECT i AS id, CASE WHEN i <= 3 THEN '-infinity' WHEN i >= 18 THEN 'infinity' ELSE date '1980-06-01' + i END AS born
FROM generate_series(1, 20) i;
SELECT r->'built_taxonomies'->0->>'lower' AS lower, r->'built_taxonomies'->0->>'upper' AS upper
FROM anon.anonymize('od_births', '{born}', '{}', 'k-anonymity', '{"k": 3, "keep": ["id"], "keep_identifying": true}',
                    'incognito', 'od_born') r;
SELECT b.born AS original, r.born AS published, anon.covers('born', r.born, anon._canonical_text(b.born)) AS covers
FROM od_born r JOIN od_births b USING (id) WHERE NOT isfinite(b.born) ORDER BY b.id;

-- Still refused, naming the column, the value and the fix: a column whose only values are infinite (no day to
-- build from), a BC date, infinity as a bound of anon.date_taxonomy. Nothing is built.
CREATE TABLE od_unknown AS SELECT i AS id, 'infinity'::date AS unknown_day FROM generate_series(1, 5) i;
SELECT anon.anonymize('od_unknown', '{unknown_day}', '{}', 'k-anonymity', '{"k": 2}');
INSERT INTO od_unknown VALUES (6, '2021-05-01'), (7, '0044-03-15 BC');
SELECT anon.anonymize('od_unknown', '{unknown_day}', '{}', 'k-anonymity', '{"k": 2}');
SELECT * FROM anon.date_taxonomy('od_bad', '-infinity', '2021-12-31');
SELECT count(*) AS built FROM anon.taxonomies WHERE name IN ('unknown_day', 'od_bad');

-- Clean up -----------------------------------------------------------------------------------------------------

SELECT anon.drop_release(r) FROM unnest(ARRAY['od_release', 'od_typed', 'od_levels', 'od_born']) r;
SELECT count(*) AS dropped FROM anon.taxonomies t, LATERAL anon.drop_taxonomy(t.name)
WHERE t.name IN ('admitted', 'discharged', 'od_discharged', 'born');
DROP FUNCTION od_published_at;
DROP TABLE od_patients, od_births, od_unknown;
RESET DateStyle;
