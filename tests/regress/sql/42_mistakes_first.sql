-- Mistakes first (issue 43): the checks that need no search (NULLs, values missing from a tree taxonomy or naming
-- one of its groups, the eligibility of l, kept columns that single out rows) are made by one scan of the source
-- before any taxonomy is built from it and before its grouped read. Each mistake below is shown with the number of
-- scans of the source its call made (1: the checks' scan, no read; a NULL or a value outside a tree taxonomy found
-- by that scan's one per-row test, anon._row_misfit, adds the scan that finds which column; the values outside a
-- tree taxonomy one more that finds them for the message; kept columns add the scan of their own check) and whether
-- a taxonomy was built (none).
-- The time each takes beside a successful call on a 1,000,000-row table: the benchmark's section `patients`.
\set VERBOSITY terse

-- A copy of Adult with a numeric quasi-identifier whose taxonomy would be built from the data (hours).
CREATE TABLE mf_people AS
SELECT id, age, sex, race, education, occupation, ((id * 37) % 60 + 20)::numeric AS hours FROM adult;

-- Runs a call and shows how it ended (its message, or 'published'), the scans of mf_people it made and the
-- taxonomies built meanwhile.
CREATE FUNCTION mf_try(call text, OUT outcome text, OUT scans bigint, OUT built bigint)
LANGUAGE plpgsql AS $$
DECLARE
    scans_before bigint := pg_stat_get_xact_numscans('mf_people'::regclass);
    taxonomies_before bigint := (SELECT count(*) FROM anon.taxonomy);
BEGIN
    BEGIN
        EXECUTE call;
        outcome := 'published';
    EXCEPTION WHEN OTHERS THEN
        outcome := SQLERRM;
        scans := pg_stat_get_xact_numscans('mf_people'::regclass) - scans_before;
        built := (SELECT count(*) FROM anon.taxonomy) - taxonomies_before;
        RETURN;
    END;
    scans := pg_stat_get_xact_numscans('mf_people'::regclass) - scans_before;
    built := (SELECT count(*) FROM anon.taxonomy) - taxonomies_before;
END
$$;

BEGIN;
-- A NULL quasi-identifier without params->>'nulls'.
UPDATE mf_people SET race = NULL WHERE id = 5;
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,race,hours}', '{occupation}',
                                             'distinct-l-diversity', '{"l": 3}', 'incognito', 'mf_out')$$);
-- The same NULL as a value of its own is published.
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,race,hours}', '{occupation}',
                                             'distinct-l-diversity', '{"l": 3, "nulls": "value"}', 'incognito',
                                             'mf_out')$$);
ROLLBACK;

BEGIN;
-- A value its tree taxonomy lacks, and a value that names one of the taxonomy's groups (the checks' scan finds that
-- a row holds one, a second scan in which column, a third which values).
UPDATE mf_people SET education = 'Kindergarten' WHERE id = 7;
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,education,hours}', '{occupation}', 'k-anonymity',
                                             '{"k": 5}', 'incognito', 'mf_out')$$);
ROLLBACK;
BEGIN;
-- The same in a varchar column (compared with the leaves as it is, without anon._canonical_text): found alike.
ALTER TABLE mf_people ALTER education TYPE varchar(40);
UPDATE mf_people SET education = 'Kindergarten' WHERE id = 7;
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,education,hours}', '{occupation}', 'k-anonymity',
                                             '{"k": 5}', 'incognito', 'mf_out')$$);
ROLLBACK;
BEGIN;
UPDATE mf_people SET sex = '*' WHERE id IN (7, 8);
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,education,hours}', '{occupation}', 'k-anonymity',
                                             '{"k": 5}', 'incognito', 'mf_out')$$);
ROLLBACK;

BEGIN;
-- An l the sensitive column cannot give (14 occupations), for each model with an eligible range.
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,hours}', '{occupation}', 'distinct-l-diversity',
                                             '{"l": 15}', 'incognito', 'mf_out')$$);
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,hours}', '{occupation}', 'entropy-l-diversity',
                                             '{"l": 14}', 'mondrian', 'mf_out')$$);
-- A kept column that singles out rows (the key), refused before the read by a scan of its own, the first check.
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,hours}', '{occupation}', 'k-anonymity',
                                             '{"k": 5, "keep": ["id"]}', 'incognito', 'mf_out')$$);
-- Nothing wrong: the check's scan, then the read (and the taxonomy of hours built from the data).
SELECT * FROM mf_try($$SELECT anon.anonymize('mf_people', '{age,sex,hours}', '{occupation}', 'distinct-l-diversity',
                                             '{"l": 3}', 'incognito', 'mf_out')$$);
ROLLBACK;

-- Nothing is left behind.
SELECT count(*) AS releases FROM anon.release WHERE source = 'mf_people'::regclass;
SELECT count(*) AS taxonomies FROM anon.taxonomy WHERE name = 'hours';
DROP FUNCTION mf_try(text);
DROP TABLE mf_people;

-- The check's per-row test, anon._row_misfit(leaves, starts, refuse_null, values...): column c's leaves are
-- leaves[starts[c]+1 .. starts[c+1]] (none: no lookup). Text by its bytes, integers by their digits, other types by
-- their canonical text whatever the session's settings (a numeric keeps its scale, a date is ISO under German).
SELECT anon._row_misfit('{a,b}', '{0,2}', '{f}', 'a'::text) AS a_is_a_leaf,
       anon._row_misfit('{a,b}', '{0,2}', '{f}', 'c'::text) AS c_is_not,
       anon._row_misfit('{a,b}', '{0,2}', '{f}', NULL::text) AS null_allowed,
       anon._row_misfit('{a,b}', '{0,2}', '{t}', NULL::text) AS null_refused,
       anon._row_misfit('{}', '{0,0}', '{f}', 'anything'::text) AS no_lookup;
SELECT anon._row_misfit('{1,2,10}', '{0,3}', '{f}', 10) AS ten,
       anon._row_misfit('{1,2,10}', '{0,3}', '{f}', 3::int8) AS three,
       anon._row_misfit('{1,2,-7}', '{0,3}', '{f}', (-7)::int2) AS minus_seven,
       anon._row_misfit('{1.50}', '{0,1}', '{f}', 1.50::numeric) AS scale_kept,
       anon._row_misfit('{1.50}', '{0,1}', '{f}', 1.5::numeric) AS other_scale;
SET DateStyle = 'German';
SELECT anon._row_misfit('{2020-01-02}', '{0,1}', '{f}', date '2020-01-02') AS iso_date;
RESET DateStyle;
-- Two columns, the second's leaves after the first's; a row fails on either.
SELECT anon._row_misfit('{a,b,1,2}', '{0,2,4}', '{f,t}', 'b'::text, 2) AS both_fit,
       anon._row_misfit('{a,b,1,2}', '{0,2,4}', '{f,t}', 'b'::text, NULL::int) AS second_null,
       anon._row_misfit('{a,b,1,2}', '{0,2,4}', '{f,t}', 'z'::text, 1) AS first_outside;
-- Its arrays must fit the values and be constants.
SELECT anon._row_misfit('{a}', '{0,1,1}', '{f}', 'a'::text);
SELECT anon._row_misfit('{a}', '{0,5}', '{f}', 'a'::text);
SELECT anon._row_misfit(ARRAY[v], '{0,1}', '{f}', v) FROM (VALUES ('a'::text), ('b')) t(v);
