-- anon.memory_limit: the memory budget of one job (kB; -1, the default, is maintenance_work_mem but at least 256 MB;
-- 0 is no limit).
-- A job whose accounted memory would exceed it ends with an error naming what needed how much, the limit and the
-- setting to raise, and leaves nothing behind; within the budget the report states the accounted peak_bytes.
\set VERBOSITY default
LOAD 'anon';
SHOW anon.memory_limit;

-- Runs an anonymize call that must fail with program_limit_exceeded and shows the message, detail and hint with
-- the byte figures, and the groups counted when the budget ran out, replaced by N (they depend on the platform's
-- allocation sizes).
CREATE FUNCTION over_budget(call text) RETURNS TABLE (state text, message text, detail text, hint text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE call;
    state := 'no error';
    RETURN NEXT;
EXCEPTION WHEN program_limit_exceeded THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL,
                            hint = PG_EXCEPTION_HINT;
    message := regexp_replace(message, '[0-9.]+ (kB|MB|GB)', 'N \1', 'g');
    detail := regexp_replace(regexp_replace(detail, '[0-9.]+ (kB|MB|GB)', 'N \1', 'g'), '\([0-9]+ groups\)', '(N groups)');
    -- The distinct values counted so far when the groups are read row by row depend on when the budget ran out.
    hint := regexp_replace(hint, '\([0-9]+; next: ("[^"]*"), [0-9]+\)', '(N; next: \1, N)');
    RETURN NEXT;
END
$$;

SET anon.memory_limit = '64kB';
SHOW anon.memory_limit;
SELECT * FROM over_budget($$SELECT anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}',
    '{occupation}', 'distinct-l-diversity', '{"l": 3, "keep_identifying": true, "keep": ["id"]}', 'incognito', 'over_budget_release')$$);
-- Nothing left behind: no view, no catalog entry.
SELECT to_regclass('over_budget_release') AS view, count(*) AS catalog_rows
FROM anon.release WHERE output_name = 'over_budget_release';

-- Incognito's roll-up cache only saves time: a budget that holds the read but not the cache gives the same
-- release, with the accounted peak within the budget. Metric dm: the search classifies every node from the roll-ups
-- it caches (with il, the default, its bounded search groups few nodes).
SET anon.memory_limit = 0;
CREATE TEMP TABLE budget_runs AS
SELECT 'unlimited' AS run, r AS report
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 3, "metric": "dm"}', 'incognito') r;
SET anon.memory_limit = '3MB';
INSERT INTO budget_runs
SELECT '3MB', r FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}',
                                    '{occupation}', 'distinct-l-diversity', '{"l": 3, "metric": "dm"}', 'incognito') r;
SELECT (u.report->>'peak_bytes')::bigint > 4 * 1024 * 1024 AS unlimited_peak_over_4mb,
       (b.report->>'peak_bytes')::bigint <= 3 * 1024 * 1024 AS bounded_peak_within_3mb,
       u.report->'levels' = b.report->'levels' AS same_levels, u.report->'classes' = b.report->'classes' AS same_classes,
       u.report->'il' = b.report->'il' AS same_il, u.report->'minimal_nodes' = b.report->'minimal_nodes' AS same_minimal
FROM budget_runs u, budget_runs b WHERE u.run = 'unlimited' AND b.run = '3MB';
DROP TABLE budget_runs;

-- Within budget: calls succeed and report their accounted peak, below the limit.
SET anon.memory_limit = '256MB';
SELECT (r->>'classes')::int > 1 AS published, (r->>'peak_bytes')::bigint > 1000000 AS peak_over_1mb,
       (r->>'peak_bytes')::bigint < 256 * 1024 * 1024 AS peak_within_limit
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 3}', 'incognito') r;
SET anon.memory_limit = 0;  -- no limit
SELECT (r->>'peak_bytes')::bigint > 1000000 AS peak_reported
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'unique-distinct-l-diversity', '{"l": 5}', 'bsgi') r;

-- -1 follows maintenance_work_mem, but never below 256 MB: a small maintenance_work_mem does not stop the job,
-- while the same figure set as anon.memory_limit does.
SET anon.memory_limit = -1;
SET maintenance_work_mem = '1MB';
SELECT (r->>'classes')::int > 1 AS published_under_the_floor
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'k-anonymity', '{"k": 5}', 'mondrian') r;
SET anon.memory_limit = '1MB';
SELECT * FROM over_budget($$SELECT anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}',
    '{occupation}', 'k-anonymity', '{"k": 5}', 'mondrian')$$);
SET anon.memory_limit = -1;
RESET maintenance_work_mem;
SELECT (r->>'classes')::int > 1 AS published
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'k-anonymity', '{"k": 5}', 'mondrian') r;

-- The groups are the distinct combinations of the columns read: beyond the budget, the hint names the column with
-- the most distinct values (here the text of a timestamp unique per row), without and with kept columns (issue 43).
CREATE TABLE mh_visits AS
SELECT id, sex, race, occupation, "salary-class" AS salary,
       anon._canonical_text(timestamptz '2020-01-01 00:00:00+00' + id * interval '1 minute') AS seen,
       timestamptz '2020-01-01 00:00:00+00' + id * interval '1 minute' AS seen_at
FROM adult;
SELECT anon.date_taxonomy('seen', '2020-01-01', '2020-02-29');
SET anon.memory_limit = '2MB';
SELECT * FROM over_budget($$SELECT anon.anonymize('mh_visits', '{sex,race,seen}', '{occupation}', 'k-anonymity',
                                                 '{"k": 5}', 'incognito')$$);
SELECT * FROM over_budget($$SELECT anon.anonymize('mh_visits', '{sex,race,seen}', '{occupation}', 'k-anonymity',
                                                 '{"k": 5, "keep": ["salary"]}', 'incognito', 'mh_out')$$);
-- The same times as a timestamptz column: no class can publish a time that one row alone has, so the job reads the
-- column at its day (32,561 values become 23 days) and publishes within the same budget (src/pg/read/day_read.hpp).
SELECT r->'read_at_day' AS read_at_day, r->'levels' AS levels, r->>'classes' AS classes
FROM anon.anonymize('mh_visits', '{sex,race,seen_at}', '{occupation}', 'k-anonymity',
                    '{"k": 5, "taxonomies": {"seen_at": "seen"}}', 'incognito') r;
RESET anon.memory_limit;
SELECT anon.drop_taxonomy('seen');
DROP TABLE mh_visits;

-- Local recoding with algorithm 'auto' (issue 43): when Refine's working set (5.9 MB here) does not fit in the
-- limit and Mondrian's (5.2 MB) does, Mondrian publishes, and the report says so; Refine named is refused as before,
-- and a limit neither fits gives Refine's error. The release is verified like any other.
\set qi '{sex,age,race,marital-status,education,native-country,workclass}'
SET anon.memory_limit = '6MB';
SELECT r->>'algorithm' AS algorithm, (r->>'min_class_size')::int >= 3 AS l3_sized,
       regexp_replace(r->>'warnings', '[0-9.]+ MB', 'N MB') AS warnings
FROM anon.anonymize('adult', :'qi', '{occupation}', 'distinct-l-diversity', '{"l": 3, "recoding": "local"}', 'auto',
                    'lean_local') r;
SELECT status FROM anon.refresh_if_changed('lean_local');
SELECT (anon.verify('lean_local', '{gid}', '{occupation}', 'distinct-l-diversity', '{"l": 3}'))->>'satisfied' AS satisfied;
SELECT anon.drop_release('lean_local');
SELECT * FROM over_budget($$SELECT anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}',
                                                 '{occupation}', 'distinct-l-diversity', '{"l": 3}', 'refine')$$);
SET anon.memory_limit = '3MB';
SELECT * FROM over_budget($$SELECT anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}',
                                                 '{occupation}', 'distinct-l-diversity', '{"l": 3, "recoding": "local"}')$$);
RESET anon.memory_limit;

-- Out of range.
\set VERBOSITY terse
SET anon.memory_limit = -2;
\set VERBOSITY default
RESET anon.memory_limit;
DROP FUNCTION over_budget;
