-- The taxonomy builders under hostile inputs (issue 41): each one charges what it will hold to anon.memory_limit
-- before it makes it, so that a hostile input is refused before the work (the error names what needed how much), and
-- honours statement_timeout and a cancel while it works (tests/scripts/limits_test.sh times them and watches the
-- backend's memory). Every outcome here is reached before any work or long before the work could end, whatever the
-- machine's speed; figures of bytes are shown as N. Nothing is left behind.
\set VERBOSITY terse

-- Runs a call and shows how it ended: its SQLSTATE, message and detail (bytes as N), or 'no error'.
CREATE FUNCTION limited(call text) RETURNS TABLE (state text, message text, detail text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE call;
    state := 'no error';
    RETURN NEXT;
EXCEPTION WHEN program_limit_exceeded OR query_canceled OR invalid_parameter_value THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    message := regexp_replace(message, '[0-9.]+ (kB|MB|GB)', 'N \1', 'g');
    detail := regexp_replace(detail, '[0-9.]+ (kB|MB|GB)', 'N \1', 'g');
    RETURN NEXT;
END
$$;

CREATE TABLE l89_long AS SELECT repeat('0123456789', 4500) AS v;
CREATE TABLE l89_wide AS
SELECT left(string_agg(md5(i || ':' || j), '' ORDER BY j), 1999) AS v
FROM generate_series(1, 60) i, generate_series(1, 63) j GROUP BY i;
CREATE TABLE l89_numbers AS SELECT i AS x FROM generate_series(1, 200000) i;
CREATE TABLE l89_levels AS SELECT 'v' || i AS leaf, 'g' || (i / 10) AS l1, '*'::text AS root
FROM generate_series(1, 200000) i;
CREATE TABLE l89_pairs AS
SELECT 'v' || i AS value, 'g' || (i / 10) AS parent FROM generate_series(1, 200000) i
UNION ALL SELECT 'g' || i, '*' FROM generate_series(0, 20000) i;
CREATE TABLE l89_auto AS SELECT i AS id, i * 1.5 AS x, (i % 7)::text AS s FROM generate_series(1, 200000) i;

SET statement_timeout = '1s';
SET anon.memory_limit = '64MB';

-- prefix_taxonomy ------------------------------------------------------------------------------------------------
-- The issue's value of 45,000 characters: its labels would take 45,000 x 45 kB. Refused before any label is made,
-- as longer than the catalog holds.
SELECT * FROM limited($$SELECT anon.prefix_taxonomy('l89_long', 'l89_long', 'v')$$);
-- 60 values of 1,999 characters (each within the catalog's 2,000 bytes): 1,998 levels of labels of 2 kB each.
-- Counted from the values' widths and refused before any label is made.
SELECT * FROM limited($$SELECT anon.prefix_taxonomy('l89_wide', 'l89_wide', 'v')$$);

-- quantile_taxonomy -----------------------------------------------------------------------------------------------
-- The issue's 200,000 values and bins {100000,50000,25000} under a budget that cannot hold the values read. The
-- values are read (sorted by the server) before the budget runs out, which took more than a second under the
-- sanitizers on a busy machine: a longer timeout, the refusal comes long before any bin is made.
SET anon.memory_limit = '4MB';
SET statement_timeout = '60s';
SELECT * FROM limited($$SELECT anon.quantile_taxonomy('l89_q', 'l89_numbers', 'x', '{100000,50000,25000}')$$);
-- Bins beyond the values cost no more than one cut per value (their work grows with the cuts, not with the bins):
-- 2^31 - 1 bins over 20,000 values (no timeout: this one works).
CREATE VIEW l89_some AS SELECT x FROM l89_numbers WHERE x <= 20000;
SET anon.memory_limit = '64MB';
SET statement_timeout = 0;
SELECT (anon.quantile_taxonomy('l89_q', 'l89_some', 'x', '{2147483647,10000}'))->>'nodes' AS nodes;
SET statement_timeout = '1s';

-- date_taxonomy and interval_taxonomy: their nodes counted from the arguments --------------------------------------
SELECT * FROM limited($$SELECT anon.date_taxonomy('l89_date', '0001-01-01', date '0001-01-01' + 999999,
                                                  '{week,year,decade,century}')$$);
SELECT * FROM limited($$SELECT anon.interval_taxonomy('l89_interval', 0, 1000000, '{1,2,4,8,16}')$$);

-- taxonomy_from_levels and taxonomy_from_pairs: charged row by row as the table is read ---------------------------
SET anon.memory_limit = '4MB';
SELECT * FROM limited($$SELECT anon.taxonomy_from_levels('l89_levels', 'l89_levels')$$);
SELECT * FROM limited($$SELECT anon.taxonomy_from_pairs('l89_pairs', 'l89_pairs')$$);

-- anon.anonymize building a quantile taxonomy for a numeric quasi-identifier --------------------------------------
-- It reads the source before it builds, which takes more than a second under the sanitizers on a busy machine: a
-- longer timeout, the refusal is still reached long before any work on the values.
SET statement_timeout = '60s';
SELECT * FROM limited($$SELECT anon.anonymize('l89_auto', '{x}', '{s}', 'k-anonymity', '{"k": 2}')$$);

-- statement_timeout and cancel while a builder works (no memory limit): a statement of 100 ms against work of
-- seconds (a million days to make and store; 600,000 nodes read, checked and stored) ends with the timeout.
SET anon.memory_limit = 0;
SET statement_timeout = '100ms';
SELECT * FROM limited($$SELECT anon.date_taxonomy('l89_date', '0001-01-01', date '0001-01-01' + 999999,
                                                  '{week,year,decade,century}')$$);
SELECT * FROM limited($$SELECT anon.taxonomy_from_levels('l89_levels', 'l89_levels')$$);
SET statement_timeout = 0;
-- A cancel the backend sends itself before the builder starts: honoured inside it, the call ends at once.
SELECT * FROM limited($$SELECT pg_catalog.pg_cancel_backend(pg_catalog.pg_backend_pid()),
                               anon.taxonomy_from_pairs('l89_pairs', 'l89_pairs')$$);

-- Other functions whose work the arguments set: bounded up front, or polled and charged.
SET anon.memory_limit = '64MB';
SELECT * FROM limited($$SELECT anon.weakest_stronger_requirement(0.5, 2, 2000000)$$);

RESET statement_timeout;
RESET anon.memory_limit;
-- Nothing left behind.
SELECT anon.drop_taxonomy('l89_q');
SELECT count(*) AS left_behind FROM anon.taxonomies WHERE name LIKE 'l89%';
SELECT count(*) AS releases FROM anon.release WHERE source = 'l89_auto'::regclass;
DROP VIEW l89_some;
DROP TABLE l89_long, l89_wide, l89_numbers, l89_levels, l89_pairs, l89_auto;
DROP FUNCTION limited(text);
