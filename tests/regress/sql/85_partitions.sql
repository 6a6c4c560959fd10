-- The same release whatever the physical layout of the source and the plan of its one aggregation: Adult (loaded
-- by 00_setup) against a range-partitioned copy (partition key age, a quasi-identifier) and a hash-partitioned copy
-- (partition key id, not read), and with parallel workers forced on against off. Releases are compared row by row
-- with EXCEPT ALL both ways (class ids included) and by their reports' classes, sizes and information loss.
\set VERBOSITY default
\set QIS '{sex,age,race,marital-status,education,native-country,workclass}'

CREATE TABLE adult_by_age (LIKE public.adult) PARTITION BY RANGE (age);
CREATE TABLE adult_by_age_young PARTITION OF adult_by_age FOR VALUES FROM (MINVALUE) TO (30);
CREATE TABLE adult_by_age_middle PARTITION OF adult_by_age FOR VALUES FROM (30) TO (50);
CREATE TABLE adult_by_age_old PARTITION OF adult_by_age FOR VALUES FROM (50) TO (MAXVALUE);
INSERT INTO adult_by_age SELECT * FROM public.adult;
CREATE TABLE adult_by_id (LIKE public.adult) PARTITION BY HASH (id);
CREATE TABLE adult_by_id_0 PARTITION OF adult_by_id FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE adult_by_id_1 PARTITION OF adult_by_id FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE adult_by_id_2 PARTITION OF adult_by_id FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO adult_by_id SELECT * FROM public.adult;
ANALYZE adult_by_age, adult_by_id;
SELECT (SELECT count(*) FROM adult_by_age_young) AS young, (SELECT count(*) FROM adult_by_age_middle) AS middle,
       (SELECT count(*) FROM adult_by_age_old) AS old, (SELECT count(*) FROM adult_by_id) AS by_id;

-- Publishes `model` by `algorithm` from two sources (keeping id) and compares the releases: rows, rows of one
-- missing from the other (EXCEPT ALL, class ids included), and whether the reports agree on classes, sizes, IL
-- and KL. Both releases are dropped again. The composition with the source's other live releases is acknowledged:
-- the layout, not the composition, is tested here (docs/republication.md).
CREATE FUNCTION same_release(a regclass, b regclass, model text, params jsonb, algorithm text)
RETURNS TABLE (release_rows bigint, only_in_a bigint, only_in_b bigint, same_report boolean)
LANGUAGE plpgsql AS $$
DECLARE
    ra jsonb;
    rb jsonb;
    p constant jsonb := params || '{"keep": ["id"], "keep_identifying": true, "acknowledge_composition": true}';
BEGIN
    ra := anon.anonymize(a, '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                         model, p, algorithm, 'cmp_a');
    rb := anon.anonymize(b, '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                         model, p, algorithm, 'cmp_b');
    SELECT count(*) INTO release_rows FROM cmp_a;
    SELECT count(*) INTO only_in_a FROM (SELECT * FROM cmp_a EXCEPT ALL SELECT * FROM cmp_b) d;
    SELECT count(*) INTO only_in_b FROM (SELECT * FROM cmp_b EXCEPT ALL SELECT * FROM cmp_a) d;
    same_report := (SELECT bool_and(ra->k IS NOT DISTINCT FROM rb->k)
                    FROM unnest('{classes,min_class_size,avg_class_size,discernibility,il,kl,levels,residuals}'::text[]) k)
                   AND ra ? 'classes' AND (ra->>'classes')::int > 1;
    PERFORM anon.drop_release('cmp_a');
    PERFORM anon.drop_release('cmp_b');
    RETURN NEXT;
END
$$;

-- Whether the plan of anon's read of `source` (source_reader.cpp: the QIs and occupation as text, grouped by the
-- columns themselves) uses parallel workers.
CREATE FUNCTION read_is_parallel(source regclass) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    line text;
    parallel boolean := false;
BEGIN
    FOR line IN EXECUTE format('EXPLAIN SELECT sex::text, age::text, race::text, "marital-status"::text, '
                               'education::text, "native-country"::text, workclass::text, occupation::text, count(*) '
                               'FROM %s GROUP BY sex, age, race, "marital-status", education, "native-country", '
                               'workclass, occupation', source) LOOP
        parallel := parallel OR line LIKE '%Workers Planned%';
    END LOOP;
    RETURN parallel;
END
$$;

-- Plain table against the partitioned copies: full-domain, local recoding (seeded) and partitioning algorithms.
SET max_parallel_workers_per_gather = 0;
SELECT 'by age' AS copy, * FROM same_release('adult', 'adult_by_age', 'distinct-l-diversity', '{"l": 3}', 'incognito');
SELECT 'by age' AS copy, * FROM same_release('adult', 'adult_by_age', 'unique-distinct-l-diversity', '{"l": 5}', 'bsgi');
SELECT 'by id' AS copy, * FROM same_release('adult', 'adult_by_id', 'distinct-l-diversity', '{"l": 5}', 'mondrian');

-- Parallel workers forced on for every read, against the serial plans above.
SELECT read_is_parallel('adult') AS serial_plan_is_parallel;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT read_is_parallel('adult') AS plain_is_parallel, read_is_parallel('adult_by_age') AS by_age_is_parallel,
       read_is_parallel('adult_by_id') AS by_id_is_parallel;
-- Serial publication of the plain table (cmp_a) against a parallel one (cmp_b) of each source.
CREATE FUNCTION serial_vs_parallel(source regclass, model text, params jsonb, algorithm text)
RETURNS TABLE (release_rows bigint, only_serial bigint, only_parallel bigint, same_report boolean)
LANGUAGE plpgsql AS $$
DECLARE
    rs jsonb;
    rp jsonb;
    p constant jsonb := params || '{"keep": ["id"], "keep_identifying": true, "acknowledge_composition": true}';
BEGIN
    SET LOCAL max_parallel_workers_per_gather = 0;
    rs := anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                         model, p, algorithm, 'cmp_serial');
    SET LOCAL max_parallel_workers_per_gather = 2;
    rp := anon.anonymize(source, '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                         model, p, algorithm, 'cmp_parallel');
    SELECT count(*) INTO release_rows FROM cmp_parallel;
    SELECT count(*) INTO only_serial FROM (SELECT * FROM cmp_serial EXCEPT ALL SELECT * FROM cmp_parallel) d;
    SELECT count(*) INTO only_parallel FROM (SELECT * FROM cmp_parallel EXCEPT ALL SELECT * FROM cmp_serial) d;
    same_report := (SELECT bool_and(rs->k IS NOT DISTINCT FROM rp->k)
                    FROM unnest('{classes,min_class_size,avg_class_size,discernibility,il,kl,levels,residuals}'::text[]) k)
                   AND (rs->>'classes')::int > 1;
    PERFORM anon.drop_release('cmp_serial');
    PERFORM anon.drop_release('cmp_parallel');
    RETURN NEXT;
END
$$;
SELECT 'by age' AS source, * FROM serial_vs_parallel('adult_by_age', 'distinct-l-diversity', '{"l": 3}', 'incognito');
SELECT 'plain' AS source, * FROM serial_vs_parallel('adult', 'unique-distinct-l-diversity', '{"l": 5}', 'bsgi');
SELECT 'by id' AS source, * FROM serial_vs_parallel('adult_by_id', 'distinct-l-diversity', '{"l": 5}', 'mondrian');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

DROP FUNCTION same_release, read_is_parallel, serial_vs_parallel;
DROP TABLE adult_by_age, adult_by_id;

-- params->'distribution' chooses how a release of a Citus distributed table is distributed (docs/scale.md): on a
-- source that is not one, "source" is refused before anything is created, and "random" (the default) publishes the
-- usual materialized view.
SELECT anon.anonymize('adult', :'QIS', '{occupation}', 'k-anonymity',
                      '{"k": 5, "keep": ["id"], "keep_identifying": true, "distribution": "source"}', 'incognito',
                      'dist_source');
SELECT to_regclass('dist_source') IS NULL AS no_relation,
       (SELECT count(*) FROM anon.release WHERE output_name = 'dist_source') AS catalog_rows;
SELECT anon.anonymize('adult', :'QIS', '{occupation}', 'k-anonymity', '{"k": 5, "distribution": "shards"}',
                      'incognito', 'dist_source');
SELECT anon.anonymize('adult', :'QIS', '{occupation}', 'k-anonymity', '{"k": 5, "distribution": "random"}',
                      'incognito', 'dist_random')->>'classes' AS classes;
SELECT relkind FROM pg_class WHERE relname = 'dist_random';
SELECT anon.refresh('dist_random')->>'classes' AS refreshed_classes;
SELECT anon.drop_release('dist_random');
