-- anon.anonymize on a small hand-made table: every model, the report, the published release, and three checks
-- of every release: (a) its rows are the source's (minus suppressed ones), (b) anon.verify on the release agrees,
-- (c) every published QI value covers the original one (checked with anon.covers, written in SQL, independently
-- of the C++ code) and sensitive values are published unchanged.
-- Results of the anon functions are read in FROM clauses (SELECT ... FROM anon.anonymize(...) r).

-- Data and taxonomies -----------------------------------------------------------------------------------------

CREATE TABLE patients (id int PRIMARY KEY, zip text, age int, gender text, disease text);
INSERT INTO patients VALUES
    (1, '13053', 28, 'F', 'Heart Disease'),   (2, '13068', 29, 'M', 'Heart Disease'),
    (3, '13068', 21, 'M', 'Flu'),             (4, '13053', 23, 'F', 'Viral Infection'),
    (5, '14853', 50, 'M', 'Lung Cancer'),     (6, '14853', 55, 'F', 'Heart Disease'),
    (7, '14850', 47, 'M', 'Viral Infection'), (8, '14850', 49, 'F', 'Flu'),
    (9, '13053', 31, 'M', 'Lung Cancer'),     (10, '13053', 37, 'F', 'Skin Cancer'),
    (11, '13068', 36, 'M', 'Gastritis'),      (12, '13068', 35, 'F', 'Lung Cancer'),
    (13, '14853', 41, 'F', 'Gastritis'),      (14, '14850', 44, 'M', 'Skin Cancer'),
    (15, '13055', 26, 'M', 'Flu'),            (16, '14855', 52, 'M', 'Viral Infection');

CREATE TABLE zip_levels (zip text, zip4 text, zip3 text, root text);
INSERT INTO zip_levels VALUES
    ('13053', '1305*', '130**', '*'), ('13055', '1305*', '130**', '*'),
    ('13067', '1306*', '130**', '*'), ('13068', '1306*', '130**', '*'),
    ('14850', '1485*', '148**', '*'), ('14853', '1485*', '148**', '*'), ('14855', '1485*', '148**', '*');
CREATE TABLE gender_levels (gender text, root text);
INSERT INTO gender_levels VALUES ('F', '*'), ('M', '*');
-- Sensitive values have a taxonomy too (used by dont_care and negative_disclosure); Hypertension and Ulcer do
-- not occur in the data.
CREATE TABLE disease_levels (disease text, family text, root text);
INSERT INTO disease_levels VALUES
    ('Heart Disease', 'Circulatory', '*'), ('Hypertension', 'Circulatory', '*'),
    ('Flu', 'Infection', '*'), ('Viral Infection', 'Infection', '*'),
    ('Lung Cancer', 'Cancer', '*'), ('Skin Cancer', 'Cancer', '*'),
    ('Gastritis', 'Digestive', '*'), ('Ulcer', 'Digestive', '*');
SELECT * FROM anon.taxonomy_from_levels('zip', 'zip_levels');
SELECT * FROM anon.taxonomy_from_levels('gender', 'gender_levels');
SELECT * FROM anon.taxonomy_from_levels('disease', 'disease_levels');
-- age is numeric: nested intervals of 10 and 20 years. The taxonomy 'age' (00_setup, Adult) is not meant for
-- this table, so every call maps the column to 'patient_age' with params->'taxonomies'.
SELECT * FROM anon.interval_taxonomy('patient_age', 0, 100, '{10,20}');

-- Checks one release of patients (or of another table with an id column): row counts, anon.verify with the
-- release's own model and params, QI values not covered by the published value (must be 0), sensitive values
-- changed (must be 0), ids that do not join back to the source (must be 0), and whether the number of gid values
-- is the report's class count with one QI combination per gid.
CREATE FUNCTION check_release(release regclass, qi text[], sa text[], model text, params jsonb,
                              source regclass DEFAULT 'patients')
RETURNS TABLE (source_rows bigint, release_rows bigint, suppressed bigint, satisfied boolean, not_covered bigint,
               sensitive_changed bigint, unmatched bigint, classes_ok boolean)
LANGUAGE plpgsql AS $$
DECLARE
    col text;
    n bigint;
    report jsonb;
    qi_list text;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s', source) INTO source_rows;
    EXECUTE format('SELECT count(*) FROM %s', release) INTO release_rows;
    SELECT r.report INTO report FROM anon.release r
    WHERE to_regclass(format('%I.%I', r.output_schema, r.output_name)) = release;
    suppressed := (report->>'suppressed')::bigint;
    SELECT (v->>'satisfied')::boolean INTO satisfied FROM anon.verify(release, qi, sa, model, params) v;
    not_covered := 0;
    FOREACH col IN ARRAY qi LOOP
        EXECUTE format('SELECT count(*) FROM %s r JOIN %s s USING (id) '
                       'WHERE NOT coalesce(anon.covers(%L, r.%I, s.%I::text), false)',
                       release, source, coalesce(params->'taxonomies'->>col, col), col, col) INTO n;
        not_covered := not_covered + n;
    END LOOP;
    sensitive_changed := 0;
    FOREACH col IN ARRAY sa LOOP
        EXECUTE format('SELECT count(*) FROM %s r JOIN %s s USING (id) WHERE r.%I IS DISTINCT FROM s.%I::text',
                       release, source, col, col) INTO n;
        sensitive_changed := sensitive_changed + n;
    END LOOP;
    EXECUTE format('SELECT count(*) FROM %s r WHERE NOT EXISTS (SELECT 1 FROM %s s WHERE s.id = r.id)',
                   release, source) INTO unmatched;
    SELECT string_agg(format('%I', q), ', ') INTO qi_list FROM unnest(qi) q;
    EXECUTE format('SELECT count(DISTINCT gid) = %s AND count(DISTINCT gid) = count(DISTINCT (gid, %s)) FROM %s',
                   (report->>'classes')::bigint, qi_list, release) INTO classes_ok;
    RETURN NEXT;
END
$$;

-- A report without what varies from run to run or with the search strategy (the timings ms, read_ms, ...,
-- nodes_evaluated and the accounted peak_bytes), and the short form most tests show: the fields that describe the
-- release.
CREATE FUNCTION stable_report(report jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(jsonb_object_agg(key, value), '{}') FROM jsonb_each(report)
    WHERE key !~ '(^|_)ms$' AND key NOT IN ('nodes_evaluated', 'peak_bytes')
$$;
CREATE FUNCTION brief(report jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(jsonb_object_agg(key, value), '{}') FROM jsonb_each(report)
    WHERE key IN ('model', 'rows', 'published_rows', 'suppressed', 'classes', 'min_class_size', 'levels',
                  'minimal_nodes', 'release')
$$;

\set VERBOSITY default

-- k-anonymity -------------------------------------------------------------------------------------------------

-- No output: a report only (shown whole but for timings), and nothing is created.
SELECT jsonb_pretty(stable_report(r)) AS report
FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                    '{"k": 3, "taxonomies": {"age": "patient_age"}}') r;
SELECT count(*) AS releases FROM anon.release;

-- With an output: the release is a materialized view: gid, the QIs and sensitive columns as text, kept columns.
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                                    '{"k": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_k3') r;
SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS type, c.relkind
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE a.attrelid = 'rel_k3'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT * FROM rel_k3 ORDER BY gid, zip, age, gender, disease, id;
-- (a), (b), (c) written out once; check_release does the same for the other releases.
SELECT (SELECT count(*) FROM rel_k3) AS release_rows, (SELECT count(*) FROM patients) AS source_rows;
SELECT v - 'relation' AS verify
FROM anon.verify('rel_k3', '{zip,age,gender}', '{disease}', 'k-anonymity', '{"k": 3}') v;
SELECT count(*) FILTER (WHERE NOT anon.covers('zip', r.zip, s.zip)) AS zip,
       count(*) FILTER (WHERE NOT anon.covers('patient_age', r.age, s.age::text)) AS age,
       count(*) FILTER (WHERE NOT anon.covers('gender', r.gender, s.gender)) AS gender,
       count(*) FILTER (WHERE r.disease IS DISTINCT FROM s.disease) AS disease_changed
FROM rel_k3 r JOIN patients s USING (id);
SELECT * FROM check_release('rel_k3', '{zip,age,gender}', '{disease}', 'k-anonymity',
                            '{"k": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
-- The catalog row (the params are stored as given, the algorithm as asked).
SELECT output_schema, output_name, source, quasi_identifiers, sensitive, model, params, algorithm,
       created_by = current_user AS by_me, refreshed_at IS NOT NULL AS populated, brief(report) AS report
FROM anon.release WHERE output_name = 'rel_k3';
-- The equivalence classes of the release.
SELECT qi, size, distinct_sensitive, round(entropy::numeric, 6) AS entropy, round(max_share::numeric, 6) AS max_share
FROM anon.equivalence_classes('rel_k3', '{zip,age,gender}', '{disease}') ORDER BY qi;

-- distinct-l-diversity ----------------------------------------------------------------------------------------

SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'distinct-l-diversity',
                                    '{"l": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_distinct') r;
SELECT * FROM rel_distinct ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_distinct', '{zip,age,gender}', '{disease}', 'distinct-l-diversity',
                            '{"l": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT min(distinct_sensitive) AS min_distinct FROM anon.equivalence_classes('rel_distinct', '{zip,age,gender}', '{disease}');

-- entropy-l-diversity -----------------------------------------------------------------------------------------

-- Every class's entropy (natural log) is at least ln(3). The releases of patients stay side by side to the end:
-- those that, intersected with the ones before, leave someone fewer candidate diseases than their model requires
-- acknowledge the composition (issue 42).
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'entropy-l-diversity',
                                    '{"l": 3, "keep_identifying": true, "acknowledge_composition": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_entropy') r;
SELECT * FROM rel_entropy ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_entropy', '{zip,age,gender}', '{disease}', 'entropy-l-diversity',
                            '{"l": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT min(entropy) >= ln(3) - 1e-12 AS entropy_ok
FROM anon.equivalence_classes('rel_entropy', '{zip,age,gender}', '{disease}');
-- With "Viral Infection" as a don't-care value, a class may hold it often: the finer node of k=3 qualifies
-- (its class 148**/[40,60)/M has Viral Infection twice in 4 rows, plain entropy 1.04 < ln 3).
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'entropy-l-diversity',
                                    '{"l": 3, "dont_care": ["Viral Infection"], "keep_identifying": true, "keep": ["id"],
                                      "taxonomies": {"age": "patient_age"}, "acknowledge_composition": true}',
                                    output => 'rel_entropy_dc') r;
SELECT * FROM rel_entropy_dc ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_entropy_dc', '{zip,age,gender}', '{disease}', 'entropy-l-diversity',
                            '{"l": 3, "dont_care": ["Viral Infection"], "keep_identifying": true, "keep": ["id"],
                              "taxonomies": {"age": "patient_age"}}');
-- Without the don't-care set that release fails the model.
SELECT v - 'relation' AS verify
FROM anon.verify('rel_entropy_dc', '{zip,age,gender}', '{disease}', 'entropy-l-diversity', '{"l": 3}') v;

-- recursive-cl-diversity --------------------------------------------------------------------------------------

-- Plain (c, l) = (1, 2): r_1 < 1 * (r_2 + ... + r_m) in every class.
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity',
                                    '{"c": 1, "l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_recursive') r;
SELECT * FROM rel_recursive ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_recursive', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity',
                            '{"c": 1, "l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
-- Positive disclosure (dont_care = "Viral Infection"): the most frequent value that matters is compared instead,
-- so the finer node qualifies.
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity',
                                    '{"c": 1, "l": 2, "dont_care": ["Viral Infection"], "keep_identifying": true, "keep": ["id"],
                                      "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_recursive_pd') r;
SELECT * FROM rel_recursive_pd ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_recursive_pd', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity',
                            '{"c": 1, "l": 2, "dont_care": ["Viral Infection"], "keep_identifying": true, "keep": ["id"],
                              "taxonomies": {"age": "patient_age"}}');
SELECT v->'satisfied' AS plain_model_satisfied
FROM anon.verify('rel_recursive_pd', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity', '{"c": 1, "l": 2}') v;
-- (c, l) = (2, 2) alone gives the finer node; negative disclosure (every class at least c2 = 10% Flu and 10% Heart
-- Disease) needs the coarser one.
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity',
                                    '{"c": 2, "l": 2, "taxonomies": {"age": "patient_age"}}') r;
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity',
                                    '{"c": 2, "l": 2, "negative_disclosure": ["Flu", "Heart Disease"], "c2": 10,
                                      "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_recursive_npd') r;
SELECT * FROM rel_recursive_npd ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_recursive_npd', '{zip,age,gender}', '{disease}', 'recursive-cl-diversity',
                            '{"c": 2, "l": 2, "negative_disclosure": ["Flu", "Heart Disease"], "c2": 10,
                              "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT gid, count(*) AS size, count(*) FILTER (WHERE disease = 'Flu') AS flu,
       count(*) FILTER (WHERE disease = 'Heart Disease') AS heart
FROM rel_recursive_npd GROUP BY gid ORDER BY gid;

-- simple-l-diversity ------------------------------------------------------------------------------------------

-- No value covers more than 1/l of a class; l may be fractional.
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'simple-l-diversity',
                                    '{"l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_simple') r;
SELECT * FROM check_release('rel_simple', '{zip,age,gender}', '{disease}', 'simple-l-diversity',
                            '{"l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT max(max_share) <= 1 / 2.0 AS share_ok
FROM anon.equivalence_classes('rel_simple', '{zip,age,gender}', '{disease}');
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'simple-l-diversity',
                                    '{"l": 2.5, "keep_identifying": true, "acknowledge_composition": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_simple_25') r;
SELECT * FROM rel_simple_25 ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_simple_25', '{zip,age,gender}', '{disease}', 'simple-l-diversity',
                            '{"l": 2.5, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT max(max_share) <= 1 / 2.5 AS share_ok
FROM anon.equivalence_classes('rel_simple_25', '{zip,age,gender}', '{disease}');

-- unique-distinct-l-diversity ---------------------------------------------------------------------------------

-- Exactly l distinct values per class. Not monotone: with full-domain search (incognito) and l = 3 no node
-- qualifies, although the whole table has 6 distinct values (the error's hint is left out: terse).
\set VERBOSITY terse
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'unique-distinct-l-diversity',
                                    '{"l": 3, "taxonomies": {"age": "patient_age"}}', 'incognito') r;
\set VERBOSITY default
-- With algorithm 'auto' the model is served by BSGI (local recoding): groups of 3 tuples with 3 different diseases,
-- each published with its members' lowest common ancestors. 16 = 5 * 3 + 1: the one residual tuple joins a group
-- that lacks its disease, so that class holds 4 distinct values; the report counts the residual, and the release
-- is distinct 3-diverse (the job checks classes with residuals as distinct l-diversity).
SELECT brief(r), r->>'algorithm' AS algorithm, r->'residuals' AS residuals
FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'unique-distinct-l-diversity',
                    '{"l": 3, "keep_identifying": true, "acknowledge_composition": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}', output => 'rel_unique3') r;
SELECT * FROM rel_unique3 ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_unique3', '{zip,age,gender}', '{disease}', 'distinct-l-diversity',
                            '{"l": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
-- Every class but the residual's has exactly 3 distinct diseases.
SELECT distinct_sensitive, count(*) AS classes, sum(size) AS rows
FROM anon.equivalence_classes('rel_unique3', '{zip,age,gender}', '{disease}') GROUP BY 1 ORDER BY 1;
SELECT v - 'relation' AS verify
FROM anon.verify('rel_unique3', '{zip,age,gender}', '{disease}', 'unique-distinct-l-diversity', '{"l": 3}') v;
-- l = 6 (every disease in each class): full-domain search finds the node that splits the table in two halves.
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'unique-distinct-l-diversity',
                                    '{"l": 6, "keep_identifying": true, "acknowledge_composition": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    'incognito', 'rel_unique') r;
SELECT * FROM rel_unique ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_unique', '{zip,age,gender}', '{disease}', 'unique-distinct-l-diversity',
                            '{"l": 6, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT array_agg(DISTINCT distinct_sensitive) AS distinct_per_class
FROM anon.equivalence_classes('rel_unique', '{zip,age,gender}', '{disease}');
-- BSGI with l = 6 ('auto'): two groups of 6; the 4 residual tuples can only repeat a disease of their group (each
-- group already holds all six), so the release stays unique distinct 6-diverse.
SELECT brief(r), r->>'algorithm' AS algorithm, r->'residuals' AS residuals
FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'unique-distinct-l-diversity',
                    '{"l": 6, "keep_identifying": true, "acknowledge_composition": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}', output => 'rel_unique6') r;
SELECT * FROM rel_unique6 ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_unique6', '{zip,age,gender}', '{disease}', 'unique-distinct-l-diversity',
                            '{"l": 6, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT array_agg(DISTINCT distinct_sensitive) AS distinct_per_class
FROM anon.equivalence_classes('rel_unique6', '{zip,age,gender}', '{disease}');

-- k together with an l-diversity model: both must hold ----------------------------------------------------------

SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'distinct-l-diversity',
                                    '{"l": 2, "taxonomies": {"age": "patient_age"}}') r;
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'distinct-l-diversity',
                                    '{"l": 2, "k": 5, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"},
                                      "acknowledge_composition": true}',
                                    output => 'rel_l2_k5') r;
SELECT * FROM check_release('rel_l2_k5', '{zip,age,gender}', '{disease}', 'distinct-l-diversity',
                            '{"l": 2, "k": 5, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT min(size) AS min_size, min(distinct_sensitive) AS min_distinct
FROM anon.equivalence_classes('rel_l2_k5', '{zip,age,gender}', '{disease}');
-- The release satisfies l = 2 but not k = 8.
SELECT v - 'relation' AS verify
FROM anon.verify('rel_l2_k5', '{zip,age,gender}', '{disease}', 'distinct-l-diversity', '{"l": 2, "k": 8}') v;

-- Several sensitive columns (multi-attribute l-diversity) ------------------------------------------------------

-- With QIs zip and age, disease alone and gender alone each allow a fine node; together, each class split by
-- the other sensitive column must still be 2-diverse: every disease of a class must occur with both genders,
-- which only the fully generalized table achieves.
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age}', '{disease}', 'distinct-l-diversity',
                                    '{"l": 2, "taxonomies": {"age": "patient_age"}}') r;
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age}', '{gender}', 'distinct-l-diversity',
                                    '{"l": 2, "taxonomies": {"age": "patient_age"}}') r;
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age}', '{gender,disease}', 'distinct-l-diversity',
                                    '{"l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"},
                                      "acknowledge_composition": true}',
                                    output => 'rel_multi') r;
SELECT * FROM rel_multi ORDER BY gid, zip, age, gender, disease, id;
SELECT * FROM check_release('rel_multi', '{zip,age}', '{gender,disease}', 'distinct-l-diversity',
                            '{"l": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
-- The release made for disease alone (gender kept as is) is not multi-attribute 2-diverse.
SELECT anon.anonymize('patients', '{zip,age}', '{disease}', 'distinct-l-diversity',
                      '{"l": 2, "keep_identifying": true, "acknowledge_composition": true, "keep": ["id", "gender"], "taxonomies": {"age": "patient_age"}}',
                      output => 'rel_disease_only') IS NOT NULL AS created;
SELECT v - 'relation' AS verify
FROM anon.verify('rel_disease_only', '{zip,age}', '{gender,disease}', 'distinct-l-diversity', '{"l": 2}') v;

-- The selection metric: among the minimal nodes, the release minimizes params->'metric' (default il) -------------

SELECT m AS metric, r->'levels' AS levels, r->'classes' AS classes, r->'min_class_size' AS min_size,
       r->'discernibility' AS dm, r->'il' AS il, r->'height' AS height, r->'kl' AS kl
FROM unnest('{dm,il,height,kl}'::text[]) m,
     anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                    jsonb_build_object('k', 2, 'metric', m, 'taxonomies', '{"age": "patient_age"}'::jsonb)) r
ORDER BY m;
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                                    '{"k": 2, "metric": "height", "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_k2_height') r;
SELECT * FROM check_release('rel_k2_height', '{zip,age,gender}', '{disease}', 'k-anonymity',
                            '{"k": 2, "metric": "height", "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');

-- max_suppression: a fraction of the rows may be left out --------------------------------------------------------

SELECT s AS max_suppression, r->'levels' AS levels, r->'suppressed' AS suppressed,
       r->'published_rows' AS published_rows, r->'rows' AS rows, r->'classes' AS classes
FROM unnest('{0,0.1,0.2,0.5}'::numeric[]) s,
     anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                    jsonb_build_object('k', 3, 'max_suppression', s, 'taxonomies', '{"age": "patient_age"}'::jsonb)) r
ORDER BY s;
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                                    '{"k": 3, "max_suppression": 0.2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_suppressed') r;
SELECT * FROM rel_suppressed ORDER BY gid, zip, age, gender, disease, id;
-- The suppressed rows: those of the source that the release leaves out.
SELECT * FROM patients WHERE id NOT IN (SELECT id FROM rel_suppressed) ORDER BY id;
SELECT * FROM check_release('rel_suppressed', '{zip,age,gender}', '{disease}', 'k-anonymity',
                            '{"k": 3, "max_suppression": 0.2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
SELECT (SELECT count(*) FROM patients) - (SELECT count(*) FROM rel_suppressed)
       = (SELECT (report->>'suppressed')::int FROM anon.release WHERE output_name = 'rel_suppressed') AS consistent;

-- NULLs ---------------------------------------------------------------------------------------------------------

CREATE TABLE patients_null AS SELECT * FROM patients;
UPDATE patients_null SET zip = NULL WHERE id IN (6, 8, 13);
-- By default a NULL in a column is an error naming the column.
SELECT brief(r) FROM anon.anonymize('patients_null', '{zip,age,gender}', '{disease}', 'k-anonymity',
                                    '{"k": 3, "taxonomies": {"age": "patient_age"}}') r;
UPDATE patients_null SET disease = NULL WHERE id = 5;
SELECT brief(r) FROM anon.anonymize('patients_null', '{age,gender}', '{disease}', 'k-anonymity',
                                    '{"k": 3, "taxonomies": {"age": "patient_age"}}') r;
-- With nulls = value, NULL is a value of its own (a leaf under the root) and is published as NULL.
SELECT brief(r) FROM anon.anonymize('patients_null', '{zip,age,gender}', '{disease}', 'k-anonymity',
                                    '{"k": 3, "nulls": "value", "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_null') r;
SELECT * FROM rel_null ORDER BY gid, zip, age, gender, disease, id;
SELECT count(*) FILTER (WHERE zip IS NULL) AS null_zip, count(*) FILTER (WHERE disease IS NULL) AS null_disease
FROM rel_null;
SELECT * FROM check_release('rel_null', '{zip,age,gender}', '{disease}', 'k-anonymity',
                            '{"k": 3, "nulls": "value", "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                            'patients_null');

-- params->'taxonomies' ------------------------------------------------------------------------------------------

-- zip mapped to a coarser taxonomy: the published zip values are its labels.
CREATE TABLE zip_region_levels (zip text, region text, root text);
INSERT INTO zip_region_levels VALUES
    ('13053', 'Ithaca area', 'NY'), ('13055', 'Ithaca area', 'NY'), ('13067', 'Ithaca area', 'NY'),
    ('13068', 'Ithaca area', 'NY'), ('14850', 'Ithaca area', 'NY'), ('14853', 'Ithaca area', 'NY'),
    ('14855', 'Ithaca area', 'NY');
SELECT * FROM anon.taxonomy_from_levels('zip_region', 'zip_region_levels');
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                                    '{"k": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"zip": "zip_region", "age": "patient_age"}}',
                                    output => 'rel_region') r;
SELECT zip, age, gender, count(*) FROM rel_region GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT * FROM check_release('rel_region', '{zip,age,gender}', '{disease}', 'k-anonymity',
                            '{"k": 3, "keep_identifying": true, "keep": ["id"], "taxonomies": {"zip": "zip_region", "age": "patient_age"}}');
-- A sensitive column may be mapped too (its taxonomy resolves dont_care values).
SELECT brief(r) FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'entropy-l-diversity',
                                    '{"l": 3, "dont_care": ["Infection"],
                                      "taxonomies": {"age": "patient_age", "disease": "disease"}}') r;

-- Interval taxonomy on a numeric column: published labels are intervals [a,b) ---------------------------------

SELECT brief(r) FROM anon.anonymize('patients', '{age}', '{disease}', 'k-anonymity',
                                    '{"k": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}',
                                    output => 'rel_age') r;
SELECT r.age, count(*), min(s.age) AS youngest, max(s.age) AS oldest
FROM rel_age r JOIN patients s USING (id) GROUP BY r.age ORDER BY r.age;
SELECT * FROM check_release('rel_age', '{age}', '{disease}', 'k-anonymity',
                            '{"k": 2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');

-- Explicit algorithm: incognito is what auto runs ---------------------------------------------------------------

SELECT r->>'algorithm' AS algorithm, r->'levels' AS levels
FROM anon.anonymize('patients', '{zip,age,gender}', '{disease}', 'k-anonymity',
                    '{"k": 3, "taxonomies": {"age": "patient_age"}}', 'incognito') r;

-- Refresh after the source changed -----------------------------------------------------------------------------

-- Moving patient 9 (suppressed) to 13068 would publish that one row in 1306*/[20,40)/M: fewer than k rows added
-- to a class, so the refresh is withheld (issue 42) and the release stays as it was.
UPDATE patients SET zip = '13068' WHERE id = 9;
SELECT brief(r) FROM anon.refresh('rel_suppressed') r;
SELECT count(*) AS published_rows FROM rel_suppressed;
UPDATE patients SET zip = '13053' WHERE id = 9;
-- Two newcomers join patient 12 (suppressed) in 1306*/[20,40)/F: the three make a class of k rows, and
-- rel_suppressed, recomputed from current data, publishes it.
INSERT INTO patients VALUES (17, '13068', 33, 'F', 'Flu'), (18, '13068', 38, 'F', 'Gastritis');
SELECT brief(r) FROM anon.refresh('rel_suppressed') r;
SELECT * FROM patients WHERE id NOT IN (SELECT id FROM rel_suppressed) ORDER BY id;
SELECT * FROM check_release('rel_suppressed', '{zip,age,gender}', '{disease}', 'k-anonymity',
                            '{"k": 3, "max_suppression": 0.2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');
-- The newcomers leave (the class goes whole) and plain REFRESH MATERIALIZED VIEW suppresses patient 12 again.
DELETE FROM patients WHERE id IN (17, 18);
REFRESH MATERIALIZED VIEW rel_suppressed;
SELECT brief(report) FROM anon.release WHERE output_name = 'rel_suppressed';
SELECT * FROM check_release('rel_suppressed', '{zip,age,gender}', '{disease}', 'k-anonymity',
                            '{"k": 3, "max_suppression": 0.2, "keep_identifying": true, "keep": ["id"], "taxonomies": {"age": "patient_age"}}');

-- Clean up: drop every release made here -------------------------------------------------------------------------

SELECT output_name, model FROM anon.release ORDER BY output_name;
SELECT anon.drop_release(output_name) FROM anon.release ORDER BY output_name;
SELECT count(*) AS releases FROM anon.release;
SELECT count(*) AS views FROM pg_class WHERE relkind = 'm';
