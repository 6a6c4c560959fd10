-- Timestamps read at their day (issue 43, src/pg/read/day_read.hpp). A class that publishes a value as itself holds
-- at least the model's least class size (k, or l for the l-diversity models with an eligible range) of tuples
-- sharing it, so a timestamp column whose every value fewer tuples share never appears below its days: the job
-- reads it at its day and folds its date taxonomy (each day counts its distinct times). Shown here: the same node,
-- classes and figures as the read of every time (the same times as text, which the job reads as they are); when it
-- does not apply; a published release that records it, verified, covering the times, refreshed alike; and the
-- version and composition checks, which read the source by day for it. Everything made here is dropped at the end.
\set VERBOSITY default

-- 8,000 visits of Adult's people, each at its own minute (53 minutes apart, 2021-01-01 to 2021-10-22).
CREATE TABLE rd_visits AS
SELECT id, age, sex, race, occupation, "marital-status" AS marital,
       timestamptz '2021-01-01 00:00+00' + id * interval '53 minutes' AS admitted
FROM adult WHERE id <= 8000;
CREATE VIEW rd_visits_text AS
SELECT id, age, sex, race, occupation, marital, anon._canonical_text(admitted) AS admitted FROM rd_visits;
SELECT anon.date_taxonomy('rd_admitted', '2021-01-01', '2021-12-31', '{month,quarter}');

-- A report's figures beside the columns read at their day.
CREATE FUNCTION rd_figures(rel text, model text, params jsonb, algorithm text DEFAULT 'incognito') RETURNS jsonb
LANGUAGE sql AS $$
    SELECT jsonb_build_object('levels', r->'levels', 'classes', r->'classes', 'suppressed', r->'suppressed',
                              'il', r->'il', 'ncp', r->'ncp', 'discernibility', r->'discernibility',
                              'height', r->'height', 'minimal_nodes', r->'minimal_nodes',
                              'lattice_size', r->'lattice_size', 'warnings', r->'warnings')
    FROM anon.anonymize(rel, '{age,sex,admitted}', '{occupation}', model,
                        params || '{"taxonomies": {"admitted": "rd_admitted"}}', algorithm) r $$;
CREATE FUNCTION rd_read_at_day(rel text, model text, params jsonb, algorithm text DEFAULT 'incognito')
RETURNS jsonb LANGUAGE sql AS $$
    SELECT COALESCE(r->'read_at_day', '[]')
    FROM anon.anonymize(rel, '{age,sex,admitted}', '{occupation}', model,
                        params || '{"taxonomies": {"admitted": "rd_admitted"}}', algorithm) r $$;

-- The same node, classes, loss and lattice from the days as from every time, for each selection metric.
SELECT m AS model, p AS params, rd_read_at_day('rd_visits', m, p) AS read_at_day,
       rd_read_at_day('rd_visits_text', m, p) AS text_read_at_day,
       rd_figures('rd_visits', m, p) = rd_figures('rd_visits_text', m, p) AS same_release,
       rd_figures('rd_visits', m, p)->'levels' AS levels, rd_figures('rd_visits', m, p)->'classes' AS classes
FROM (VALUES ('k-anonymity', '{"k": 5}'::jsonb), ('k-anonymity', '{"k": 5, "metric": "dm"}'),
             ('k-anonymity', '{"k": 5, "metric": "height"}'), ('distinct-l-diversity', '{"l": 3}'),
             ('entropy-l-diversity', '{"l": 2, "k": 4}'), ('t-closeness', '{"t": 0.5, "k": 3}')) v(m, p);

-- Where every time is read as itself: a time five visits share at k = 5 (one such time is enough), a model whose
-- classes may hold one tuple ((tau, l)-diversity without k, recursive (c, l)), a node given in params, a suppression
-- budget, the choice by kl, local recoding with kept columns, a QIT (it publishes the times).
CREATE TABLE rd_shared AS SELECT * FROM rd_visits;
INSERT INTO rd_shared SELECT id + 10000, age, sex, race, occupation, marital, timestamptz '2021-02-01 12:00+00'
FROM rd_visits WHERE id <= 5;
-- Four times of one day, each twice: the day's repeats (four) do not show that no time is shared by k = 5 rows, the
-- count of each time does (read at the day).
CREATE TABLE rd_pairs AS SELECT * FROM rd_visits;
INSERT INTO rd_pairs SELECT id + 10000 + p, age, sex, race, occupation, marital,
    timestamptz '2021-03-01 08:00+00' + (id || ' hours')::interval
FROM rd_visits, generate_series(0, 1) p WHERE id <= 4;
SELECT rd_read_at_day('rd_pairs', 'k-anonymity', '{"k": 5}') AS pairs_below_k;
SELECT rd_read_at_day('rd_shared', 'k-anonymity', '{"k": 5}') AS shared_by_k,
       rd_read_at_day('rd_shared', 'k-anonymity', '{"k": 6}') AS shared_below_k,
       rd_read_at_day('rd_visits', 'tau-l-diversity', '{"tau": 0.5, "l": 2}', 'sweep') AS tau_l,
       rd_read_at_day('rd_visits', 'recursive-cl-diversity', '{"c": 3, "l": 2}') AS recursive,
       rd_read_at_day('rd_visits', 'k-anonymity', '{"k": 5, "levels": {"age": 2, "sex": 0, "admitted": 4}}')
           AS given_node,
       rd_read_at_day('rd_visits', 'k-anonymity', '{"k": 5, "max_suppression": 0.01}') AS budget,
       rd_read_at_day('rd_visits', 'k-anonymity', '{"k": 5, "metric": "kl"}') AS kl,
       rd_read_at_day('rd_visits', 'k-anonymity', '{"k": 5, "keep": ["marital"]}', 'mondrian') AS local_kept,
       rd_read_at_day('rd_visits', 'k-anonymity', '{"k": 5, "keep": ["marital"]}') AS global_kept;
SELECT r->'read_at_day' AS qit_read_at_day
FROM anon.anonymize('rd_visits', '{age,sex,admitted}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "publish": "both", "taxonomies": {"admitted": "rd_admitted"}}', 'anatomy',
                    'rd_anatomy') r;
SELECT count(*) AS qit_rows, count(*) FILTER (WHERE q.admitted = v.admitted) AS qit_times_as_they_are
FROM rd_anatomy_qit q JOIN rd_visits v ON v.admitted = q.admitted;
SELECT anon.drop_release('rd_anatomy');

-- Local recoding (no kept column) reads the days too: its release satisfies the model and publishes no time, days
-- where a class's visits share one.
SELECT r->'read_at_day' AS read_at_day, r->>'algorithm' AS algorithm
FROM anon.anonymize('rd_visits', '{age,sex,admitted}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "recoding": "local", "taxonomies": {"admitted": "rd_admitted"}}', 'auto',
                    'rd_local') r;
SELECT v->>'satisfied' AS satisfied FROM anon.verify('rd_local', '{age,sex,admitted}', '{occupation}',
                                                    'distinct-l-diversity', '{"l": 3}') v;
SELECT count(*) AS published, count(*) FILTER (WHERE admitted ~ '^\d{4}-\d{2}-\d{2} ') AS times,
       count(*) FILTER (WHERE admitted ~ '^\d{4}-\d{2}-\d{2}$') > 0 AS some_days
FROM rd_local;
SELECT anon.drop_release('rd_local');

-- Published with a kept column (global recoding): the report records the column, the view covers each visit's time,
-- and a refresh reads it the same way and publishes the same version.
SELECT r->'read_at_day' AS read_at_day, r->'levels' AS levels, r->>'classes' AS classes
FROM anon.anonymize('rd_visits', '{age,sex,admitted}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "keep": ["id"], "keep_identifying": true, "taxonomies": {"admitted": "rd_admitted"}}',
                    'incognito', 'rd_release') r;
SELECT count(*) AS rows, count(*) FILTER (WHERE anon.covers('rd_admitted', r.admitted, anon._canonical_text(v.admitted)))
           AS covered
FROM rd_release r JOIN rd_visits v USING (id);
SELECT v->>'satisfied' AS satisfied FROM anon.verify('rd_release', '{age,sex,admitted}', '{occupation}',
                                                    'distinct-l-diversity', '{"l": 3}') v;
SELECT r->'read_at_day' AS read_at_day, r->>'version' AS version FROM anon.refresh('rd_release') r;
SELECT release, changed, refreshed FROM anon.refresh_if_changed('rd_release');
-- A visit moved within its day changes no day: the source's fingerprint, read by day, is unchanged; moved to
-- another day, it changes.
UPDATE rd_visits SET admitted = admitted + interval '1 minute' WHERE id = 100;
SELECT release, changed FROM anon.refresh_if_changed('rd_release');
UPDATE rd_visits SET admitted = admitted + interval '3 days' WHERE id = 100;
SELECT release, changed FROM anon.refresh_if_changed('rd_release');

-- Composition: a second release of the source (marital status besides the same QIs) is judged against the first,
-- whose persons the check finds by the day of their time. The same two releases of the times as text compose alike.
CREATE FUNCTION rd_second(rel text, output text) RETURNS jsonb LANGUAGE sql AS $$
    SELECT r->'republication'->'composition'
    FROM anon.anonymize(rel, '{age,sex,admitted,marital}', '{occupation}', 'distinct-l-diversity',
                        '{"l": 3, "acknowledge_composition": true,
                          "taxonomies": {"admitted": "rd_admitted", "marital": "marital-status"}}',
                        'incognito', output) r $$;
SELECT rd_second('rd_visits', 'rd_second') AS composition;
SELECT anon.anonymize('rd_visits_text', '{age,sex,admitted}', '{occupation}', 'distinct-l-diversity',
                      '{"l": 3, "keep": ["id"], "keep_identifying": true, "taxonomies": {"admitted": "rd_admitted"}}',
                      'incognito', 'rd_text_release') IS NOT NULL AS published;
SELECT rd_second('rd_visits_text', 'rd_text_second') AS text_composition;
SELECT sensitive, candidates, persons, releases FROM anon.audit_composition('rd_visits') ORDER BY candidates;
SELECT (SELECT array_agg(a ORDER BY a) FROM anon.audit_composition('rd_visits') a)
       = (SELECT array_agg(a ORDER BY a) FROM anon.audit_composition('rd_visits_text') a) AS same_composition;

SELECT anon.drop_release('rd_text_second');
SELECT anon.drop_release('rd_text_release');
DROP FUNCTION rd_second(text, text);
SELECT anon.drop_release('rd_second');
SELECT anon.drop_release('rd_release');
DROP FUNCTION rd_figures(text, text, jsonb, text);
DROP FUNCTION rd_read_at_day(text, text, jsonb, text);
DROP TABLE rd_pairs;
DROP TABLE rd_shared;
DROP VIEW rd_visits_text;
DROP TABLE rd_visits;
SELECT anon.drop_taxonomy('rd_admitted');
