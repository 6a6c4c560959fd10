-- Kept columns written with the release's rows (issue 19): the view and the QIT of a release that keeps columns get
-- them from one grouped read of the source (kept_groups.hpp) instead of a join of every source row with the release
-- map. Each release here is compared, row for row, with that join written out in SQL over anon._release_rows (the
-- form objects had before, an independent path): same rows, stored in the order of their published values (gid, the
-- sensitive labels or original QI values, then the kept values' canonical text, byte order, NULL last). The kept
-- columns hold NULLs, texts whose byte order differs from the collation's, and numerics equal but printed
-- differently (1.0 and 1.00, published as they are).
\set VERBOSITY terse

CREATE TABLE kr_src AS
SELECT id, sex, age, race, education, occupation,
       CASE WHEN id % 97 = 0 THEN NULL ELSE (id * 37) % 60 + 20 END AS hours,
       (ARRAY['b', 'B', 'é', 'a b', NULL])[id % 5 + 1] AS note,
       (ARRAY[1.0, 1.00, 2.5])[id % 3 + 1]::numeric AS amount
FROM adult WHERE id <= 6000;

-- The rows `rel` (object `object`: 'view' or 'qit') publishes against the join of the source with the release map
-- (tuples of a combination ranked by their kept values when `ranked`): rows of the object, rows of the join missing
-- from it, rows of it not in the join, and rows stored out of the object's order.
CREATE FUNCTION kr_compare(rel text, object text, qi text[], sa text, keep text[], ranked boolean)
RETURNS TABLE (published bigint, missing bigint, extra bigint, out_of_order bigint) LANGUAGE plpgsql AS $$
DECLARE
    cols text[] := qi || sa;
    key text := (SELECT string_agg(format('anon._canonical_text(s.%I)', c), ', ') FROM unnest(cols) c);
    kept text := (SELECT string_agg(format('s.%I', c), ', ') FROM unnest(keep) c);
    kept_order text := (SELECT string_agg(format('anon._canonical_text(%I) COLLATE "C"', c), ', ') FROM unnest(keep) c);
    kept_rank text := (SELECT string_agg(format('anon._canonical_text(s.%I) COLLATE "C"', c), ', ') FROM unnest(keep) c);
    published_cols text;
    order_cols text;
    target text := CASE object WHEN 'view' THEN quote_ident(rel) ELSE quote_ident(rel || '_qit') END;
    src text;
    joined text;
BEGIN
    IF object = 'view' THEN
        published_cols := (SELECT string_agg(format('m.label[%s] AS v%s', i, i), ', ') FROM generate_subscripts(cols, 1) i);
        order_cols := format('%I COLLATE "C"', sa);
    ELSE
        published_cols := (SELECT string_agg(format('s.%I', c), ', ') FROM unnest(qi) c);
        order_cols := (SELECT string_agg(format('anon._canonical_text(%I) COLLATE "C"', c), ', ') FROM unnest(qi) c);
    END IF;
    src := format('(SELECT s.*, ARRAY[%s] AS anon_key FROM kr_src s) s', key);
    IF ranked THEN
        src := format('(SELECT s.*, row_number() OVER (PARTITION BY s.anon_key COLLATE "C" ORDER BY %s) AS anon_rank '
                      'FROM %s) s', kept_rank, src);
        joined := format('%s JOIN (SELECT m.gid, m.key, m.label, r.rank FROM anon._release_rows(''public'', %L, '
                         '''kr_src''::regclass) m CROSS JOIN LATERAL generate_series(m.lo, m.hi) r(rank)) m '
                         'ON m.key = s.anon_key AND m.rank = s.anon_rank', src, rel);
    ELSE
        joined := format('%s JOIN anon._release_rows(''public'', %L, ''kr_src''::regclass) m ON m.key = s.anon_key',
                         src, rel);
    END IF;
    EXECUTE format('CREATE TEMP TABLE kr_expected AS SELECT m.gid, %s, %s FROM %s', published_cols, kept, joined);
    EXECUTE format('CREATE TEMP TABLE kr_published AS SELECT row_number() OVER () AS position, t.* FROM %s t', target);
    EXECUTE format('SELECT (SELECT count(*) FROM kr_published), '
                   '(SELECT count(*) FROM (SELECT * FROM kr_expected EXCEPT ALL '
                   ' SELECT %1$s FROM kr_published) x), '
                   '(SELECT count(*) FROM (SELECT %1$s FROM kr_published EXCEPT ALL '
                   ' SELECT * FROM kr_expected) x), '
                   '(SELECT count(*) FROM (SELECT rank, lag(rank) OVER (ORDER BY position) AS previous FROM '
                   ' (SELECT position, dense_rank() OVER (ORDER BY gid, %2$s, %3$s) AS rank FROM kr_published) y) x '
                   ' WHERE previous > rank)',
                   (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) FROM pg_attribute a
                    WHERE a.attrelid = target::regclass AND a.attnum > 0),
                   order_cols, kept_order)
    INTO published, missing, extra, out_of_order;
    DROP TABLE kr_expected, kr_published;
    RETURN NEXT;
END $$;

-- Global recoding (one piece per combination), three kept columns, some combinations suppressed. It acknowledges
-- the composition with the releases published beside it below, which its refresh checks (issue 42).
SELECT r->>'rows' AS rows, r->>'suppressed' AS suppressed
FROM anon.anonymize('kr_src', '{sex,age,race,education}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "max_suppression": 0.05, "keep": ["hours", "note", "amount"], "keep_identifying": true,
                      "acknowledge_composition": true}',
                    'incognito', 'kr_global') r;
SELECT * FROM kr_compare('kr_global', 'view', '{sex,age,race,education}', 'occupation', '{hours,note,amount}', false);
-- The kept values as stored: both spellings of the same number, NULLs, every text.
SELECT amount::text, count(*) FROM kr_global GROUP BY 1 ORDER BY 1;
SELECT note, count(*) FROM kr_global GROUP BY 1 ORDER BY note COLLATE "C";
SELECT count(*) FILTER (WHERE hours IS NULL) AS null_hours FROM kr_global;

-- Local recoding: a combination's tuples spread over several classes by the rank of their kept values.
SELECT r->>'algorithm' AS algorithm, r->>'rows' AS rows
FROM anon.anonymize('kr_src', '{sex,age,race,education}', '{occupation}', 'k-anonymity',
                    '{"k": 4, "recoding": "local", "keep": ["hours", "note"], "keep_identifying": true}',
                    'auto', 'kr_local') r;
SELECT * FROM kr_compare('kr_local', 'view', '{sex,age,race,education}', 'occupation', '{hours,note}', true);

-- BSGI puts each tuple of a combination into a class of its own: the ranks decide which tuple goes where. Its
-- releases, beside the ones above, acknowledge the composition (issue 42).
SELECT r->>'rows' AS rows
FROM anon.anonymize('kr_src', '{sex,age,race,education}', '{occupation}', 'unique-distinct-l-diversity',
                    '{"l": 4, "keep": ["note", "hours"], "keep_identifying": true, "acknowledge_composition": true}', 'bsgi',
                    'kr_bsgi_view') r;
SELECT * FROM kr_compare('kr_bsgi_view', 'view', '{sex,age,race,education}', 'occupation', '{note,hours}', true);

-- Both forms: the kept columns in the QIT only.
SELECT r->>'rows' AS rows
FROM anon.anonymize('kr_src', '{sex,age,race,education}', '{occupation}', 'unique-distinct-l-diversity',
                    '{"l": 4, "publish": "both", "keep": ["hours", "amount"], "acknowledge_composition": true}', 'bsgi',
                    'kr_bsgi') r;
SELECT * FROM kr_compare('kr_bsgi', 'qit', '{sex,age,race,education}', 'occupation', '{hours,amount}', true);
SELECT count(*) AS view_columns FROM pg_attribute WHERE attrelid = 'kr_bsgi'::regclass AND attnum > 0;

-- Refreshed from changed data, by anon.refresh and by REFRESH MATERIALIZED VIEW: the same comparison holds. The
-- kept values change (in their order: the ranks stay), the published ones do not: a new version whose classes are
-- the last one's passes the checks against it (added or deleted rows would be withheld, issue 42).
UPDATE kr_src SET hours = hours + 1, note = 'x' || note, amount = amount * 2;
SELECT r->>'rows' AS rows FROM anon.refresh('kr_local') r;
SELECT * FROM kr_compare('kr_local', 'view', '{sex,age,race,education}', 'occupation', '{hours,note}', true);
REFRESH MATERIALIZED VIEW kr_global;
SELECT * FROM kr_compare('kr_global', 'view', '{sex,age,race,education}', 'occupation', '{hours,note,amount}', false);
REFRESH MATERIALIZED VIEW kr_bsgi_qit;
SELECT * FROM kr_compare('kr_bsgi', 'qit', '{sex,age,race,education}', 'occupation', '{hours,amount}', true);

-- The view's query reads the release with its kept columns; it no longer joins the source.
SELECT pg_get_viewdef('kr_local'::regclass) LIKE '%anon._release_tuples(%' AS from_release_rows,
       pg_get_viewdef('kr_local'::regclass) LIKE '%JOIN%' AS joins;

-- One read of the source serves the job and the kept columns (and the linkage check): anon.refresh and REFRESH
-- MATERIALIZED VIEW each scan it once (this transaction's scans of the table, counted by PostgreSQL). A publication
-- makes one more, cheap scan before its read: the checks that need no search (NULLs, values missing from a tree
-- taxonomy, the eligibility of l) come first (issue 43, source_precheck.hpp). The source's other releases are
-- dropped in the transaction first: composing with live releases that publish the same sensitive column reads the
-- source's QI combinations once more (issue 42).
BEGIN;
SELECT count(anon.drop_release(r)) AS dropped_for_now FROM unnest('{kr_global,kr_local,kr_bsgi_view,kr_bsgi}'::text[]) r;
CREATE TEMP TABLE kr_scans (call text, scans bigint);
INSERT INTO kr_scans SELECT 'before', pg_stat_get_xact_numscans('kr_src'::regclass);
SELECT r->>'rows' AS rows
FROM anon.anonymize('kr_src', '{sex,age,race,education}', '{occupation}', 'k-anonymity',
                    '{"k": 4, "recoding": "local", "keep": ["hours", "note"], "keep_identifying": true}',
                    'auto', 'kr_scanned') r;
INSERT INTO kr_scans SELECT 'anonymize', pg_stat_get_xact_numscans('kr_src'::regclass);
SELECT r->>'rows' AS rows FROM anon.refresh('kr_scanned') r;
INSERT INTO kr_scans SELECT 'anon.refresh', pg_stat_get_xact_numscans('kr_src'::regclass);
REFRESH MATERIALIZED VIEW kr_scanned;
INSERT INTO kr_scans SELECT 'REFRESH MATERIALIZED VIEW', pg_stat_get_xact_numscans('kr_src'::regclass);
SELECT call, scans_of_the_source
FROM (SELECT ctid, call, scans - lag(scans) OVER (ORDER BY ctid) AS scans_of_the_source FROM kr_scans) s
WHERE call <> 'before' ORDER BY ctid;
ROLLBACK;

-- The groups and their distinct kept texts are charged to anon.memory_limit: a budget that holds the job but not
-- them stops the publication with an error naming them, and leaves nothing behind.
CREATE TABLE kr_memo AS SELECT id, sex, age, race, education, occupation, repeat('x', 2000) || id AS memo
FROM adult WHERE id <= 6000;
SET anon.memory_limit = '4MB';
SELECT (r->>'peak_bytes')::bigint < 4 * 1024 * 1024 AS job_fits
FROM anon.anonymize('kr_memo', '{sex,age,race,education}', '{occupation}', 'distinct-l-diversity', '{"l": 3}',
                    'incognito') r;
DO $$
DECLARE
    detail text;
BEGIN
    PERFORM anon.anonymize('kr_memo', '{sex,age,race,education}', '{occupation}', 'distinct-l-diversity',
                           '{"l": 3, "keep": ["memo"], "keep_identifying": true}', 'incognito', 'kr_memo_release');
EXCEPTION WHEN program_limit_exceeded THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RAISE NOTICE 'refused: %; %', regexp_replace(SQLERRM, '[0-9.]+ (kB|MB)', 'N \1', 'g'),
                 regexp_replace(detail, '[0-9.]+ (kB|MB|groups)', 'N \1', 'g');
END $$;
SELECT to_regclass('kr_memo_release') AS view, count(*) AS catalog_rows
FROM anon.release WHERE output_name = 'kr_memo_release';
RESET anon.memory_limit;
DROP TABLE kr_memo;

-- A kept column of fixed length last in the view: the rows of a piece, which differ in it alone, are made from the
-- previous row's bytes and the value stored at its aligned place (row_former.hpp). One byte, two, eight (aligned
-- to 8 after the texts) and sixteen by reference (uuid), each with NULLs.
ALTER TABLE kr_src ADD COLUMN flag boolean, ADD COLUMN small int2, ADD COLUMN big int8, ADD COLUMN u uuid;
UPDATE kr_src SET flag = CASE WHEN id % 13 = 0 THEN NULL ELSE id % 2 = 0 END,
                  small = CASE WHEN id % 17 = 0 THEN NULL ELSE (id % 300 - 150)::int2 END,
                  big = CASE WHEN id % 19 = 0 THEN NULL ELSE id::int8 * 1000003 - 5000000000 END,
                  u = CASE WHEN id % 23 = 0 THEN NULL ELSE md5(id::text)::uuid END;
SELECT c AS kept_last, r->>'rows' AS rows, x.*
FROM unnest(ARRAY['flag', 'small', 'big', 'u']) c,
     LATERAL anon.anonymize('kr_src', '{sex,age,race,education}', '{occupation}', 'k-anonymity',
                            jsonb_build_object('k', 4, 'recoding', 'local', 'keep', ARRAY['note', c],
                                               'keep_identifying', true), 'auto', 'kr_fixed_' || c) r,
     LATERAL kr_compare('kr_fixed_' || c, 'view', '{sex,age,race,education}', 'occupation', ARRAY['note', c], true) x;
SELECT anon.drop_release('kr_fixed_' || c) FROM unnest(ARRAY['flag', 'small', 'big', 'u']) c;

SELECT anon.drop_release('kr_global'), anon.drop_release('kr_local'), anon.drop_release('kr_bsgi'),
       anon.drop_release('kr_bsgi_view');
DROP FUNCTION kr_compare;
DROP TABLE kr_src;
