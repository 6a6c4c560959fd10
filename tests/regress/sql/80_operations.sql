-- Operations: progress NOTICEs (anon.progress), cancellation by statement_timeout, and anon.refresh_all /
-- anon.refresh_report / anon.refresh_if_changed. Runs as a role of its own, which sees only its own releases
-- (row-level security on anon.release), so refresh_all does not touch the releases of earlier tests.
CREATE ROLE regress_anon_ops;
CREATE SCHEMA ops AUTHORIZATION regress_anon_ops;
GRANT SELECT ON public.adult TO regress_anon_ops;
SET ROLE regress_anon_ops;
SET search_path = ops, public;
CREATE TABLE ops.people AS SELECT id, sex, age, race, occupation FROM public.adult WHERE id <= 3000;

-- Settings --------------------------------------------------------------------------------------------------
-- They exist once the library is loaded (by any anon function).
SELECT anon.weakest_stronger_requirement(0.5, 2, 4) IS NOT NULL AS loaded;
SHOW anon.progress;
SHOW anon.progress_timing;
SET anon.progres = on;   -- a misspelt anon.* setting is refused: the prefix is reserved

-- Progress ----------------------------------------------------------------------------------------------------
-- Every phase prints its first and last line. anon.progress_timing = off drops the elapsed times and the
-- intermediate lines (at most one per second, see the unit tests of ProgressLog) so that the lines are the
-- same on every run.
SET client_min_messages = notice;
SET anon.progress = on;
SET anon.progress_timing = off;
SELECT r->>'classes' AS classes
FROM anon.anonymize('people', '{sex,age,race}', '{occupation}', 'simple-l-diversity', '{"l": 5, "keep_identifying": true, "keep": ["id"]}',
                    'incognito', 'people_l5') r;
SELECT r->>'satisfied' AS satisfied
FROM anon.verify('people_l5', '{sex,age,race}', '{occupation}', 'simple-l-diversity', '{"l": 5}') r;
SELECT count(*) > 0 AS audited FROM anon.audit_minimality('people_l5', '{Prof-specialty}', 5);
SELECT r->>'classes' AS classes
FROM anon.anonymize('people', '{sex,age,race}', '{occupation}', 'k-anonymity', '{"k": 5}', 'mondrian',
                    'people_k5') r;
SELECT r->>'classes' AS classes FROM anon.refresh('people_k5') r;
-- Off: no lines.
SET anon.progress = off;
SELECT r->>'classes' AS classes FROM anon.refresh('people_k5') r;
RESET anon.progress_timing;

-- Cancellation ------------------------------------------------------------------------------------------------
-- BSGI's exact mode on 90,486 rows (three copies of Adult with shifted ages, 43,801 distinct combinations) takes
-- about 3 s on an idle 2-core machine; a 200 ms statement_timeout stops it within a second, and nothing is left
-- behind: no view, no catalog row.
CREATE TABLE ops.big AS
SELECT sex, 17 + (age - 17 + g * 7) % 74 AS age, race, "marital-status", education, "native-country", workclass,
       occupation
FROM public.adult, generate_series(0, 2) g;
SELECT clock_timestamp() AS started \gset
-- Terse: the timeout may fire in the read (a CONTEXT line naming its statement) or in the search.
\set VERBOSITY terse
SET statement_timeout = '200ms';
SELECT anon.anonymize('big', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                      'unique-distinct-l-diversity', '{"l": 3, "exact": true}', 'bsgi', 'big_release');
RESET statement_timeout;
\set VERBOSITY default
SELECT clock_timestamp() - :'started'::timestamptz < interval '1.2 s' AS stopped_within_a_second;
SELECT to_regclass('ops.big_release') IS NULL AS no_view,
       (SELECT count(*) FROM anon.releases WHERE output_name = 'big_release') AS catalog_rows;
DROP TABLE ops.big;

-- refresh_all -------------------------------------------------------------------------------------------------
-- Nothing changed: nothing is refreshed, both releases are re-verified class by class.
CALL anon.refresh_all();
SELECT * FROM anon.refresh_report();
-- 1,500 new rows, all Prof-specialty: it now covers more than 1/5 of the rows, so people_l5 cannot be refreshed
-- and is reported (its view keeps the previous rows); people_k5 is refreshed and still satisfies k = 5.
INSERT INTO ops.people SELECT 100000 + i, 'Male', 40, 'White', 'Prof-specialty' FROM generate_series(1, 1500) i;
CALL anon.refresh_all();
SELECT (SELECT count(*) FROM people_l5) AS l5_rows, (SELECT count(*) FROM people_k5) AS k5_rows;
-- The model a release is verified as comes from the registry: unique distinct l-diversity with residual tuples in
-- its groups is verified as distinct l-diversity; other models, and releases without residuals, as themselves.
SELECT anon._model_verified_as('unique-distinct-l-diversity', true) AS with_residuals,
       anon._model_verified_as('unique-distinct-l-diversity', false) AS without,
       anon._model_verified_as('simple-l-diversity', true) AS simple;
-- refresh_if_changed takes one release, by name on the search_path or schema-qualified.
SELECT release, changed, refreshed, satisfied FROM anon.refresh_if_changed('people_k5');
SELECT release, changed, refreshed, satisfied FROM anon.refresh_if_changed('ops.people_k5');
-- Deleting the rows restores the input people_l5 was computed from: unchanged and satisfied again.
DELETE FROM ops.people WHERE id > 100000;
SELECT * FROM anon.refresh_report();
-- Errors: not a release; refresh_all inside a transaction block is refused before it refreshes anything.
SELECT * FROM anon.refresh_if_changed('people');
BEGIN;
CALL anon.refresh_all();
ROLLBACK;

SELECT anon.drop_release('people_l5');
SELECT anon.drop_release('people_k5');
RESET client_min_messages;
RESET search_path;
RESET ROLE;
DROP SCHEMA ops CASCADE;
REVOKE SELECT ON public.adult FROM regress_anon_ops;
DROP ROLE regress_anon_ops;
