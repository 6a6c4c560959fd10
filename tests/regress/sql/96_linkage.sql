-- Releases that cannot be linked back (issue 16), checked as an attacker would on Adult (30,162 rows, loaded by
-- 00_setup in file order, so its physical order is its id order). Row order: no release of any algorithm or form
-- lines up with the source, or with another release of it, by position; a release of a shuffled copy is the same
-- release row for row (its order and gids follow the data, not the physical order). Kept columns: a kept key
-- that singles rows out is refused unless acknowledged, and with publish "both" it is in the QIT only, so the
-- view and the QIT cannot be joined on it. Degenerate releases: the report warns, with figures.
\set VERBOSITY default
\set QIA '{sex,age,race,marital-status}'
\set QIB '{education,native-country,workclass}'

-- Helpers -------------------------------------------------------------------------------------------------------

-- The share of positions n (each side in its physical order, ORDER BY ctid) where row n of x holds in column xc
-- the value row n of y holds in column yc: an attacker's alignment by position.
CREATE FUNCTION lk_aligned(x regclass, xc text, y regclass, yc text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
    share numeric;
BEGIN
    EXECUTE format('SELECT avg((a.v IS NOT DISTINCT FROM b.v)::int) '
                   'FROM (SELECT row_number() OVER (ORDER BY ctid) AS n, %2$I::text AS v FROM %1$s) a '
                   'JOIN (SELECT row_number() OVER (ORDER BY ctid) AS n, %4$I::text AS v FROM %3$s) b USING (n)',
                   x, xc, y, yc) INTO share;
    RETURN share;
END
$$;

-- The share lk_aligned would find if positions were unrelated: the sum over values v of p_x(v) * p_y(v).
CREATE FUNCTION lk_chance(x regclass, xc text, y regclass, yc text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
    share numeric;
BEGIN
    EXECUTE format('SELECT coalesce(sum(a.p * b.p), 0) '
                   'FROM (SELECT %2$I::text AS v, count(*)::numeric / sum(count(*)) OVER () AS p FROM %1$s GROUP BY 1) a '
                   'JOIN (SELECT %4$I::text AS v, count(*)::numeric / sum(count(*)) OVER () AS p FROM %3$s GROUP BY 1) b '
                   'USING (v)', x, xc, y, yc) INTO share;
    RETURN share;
END
$$;

-- One line per check: the release object, the column compared, whether the alignment is within 0.02 of chance,
-- and the chance itself (rounded: it depends on the data only).
CREATE FUNCTION lk_position(x regclass, xc text, y regclass, yc text)
RETURNS TABLE (near_chance boolean, chance numeric) LANGUAGE sql AS $$
    SELECT abs(lk_aligned(x, xc, y, yc) - lk_chance(x, xc, y, yc)) < 0.02, round(lk_chance(x, xc, y, yc), 2)
$$;

-- The positions where row n of x and row n of y differ (whole rows as text; a missing row differs too).
CREATE FUNCTION lk_differing_positions(x regclass, y regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM (SELECT row_number() OVER (ORDER BY ctid) AS n, t::text AS v FROM %s t) a '
                   'FULL JOIN (SELECT row_number() OVER (ORDER BY ctid) AS n, t::text AS v FROM %s t) b USING (n) '
                   'WHERE a.v IS DISTINCT FROM b.v', x, y) INTO n;
    RETURN n;
END
$$;

-- A copy of Adult in another physical order (by a hash of the id): the same rows, the same data.
CREATE TABLE lk_shuffled AS SELECT * FROM adult ORDER BY md5(id::text);
SELECT lk_aligned('lk_shuffled', 'id', 'adult', 'id') < 0.001 AS shuffled;

-- Releases by every algorithm, of Adult and of the shuffled copy -------------------------------------------------

-- Publishes `params` on adult as <name> and on lk_shuffled as <name>_s; returns the report's classes. The releases
-- of a source coexist on purpose (they are compared with each other): their composition is acknowledged.
CREATE FUNCTION lk_publish(name text, qi text[], sa text[], model text, params jsonb, algorithm text)
RETURNS TABLE (release text, ran text, form text, classes bigint) LANGUAGE plpgsql AS $$
DECLARE
    r jsonb;
    acknowledged jsonb := params || '{"acknowledge_composition": true}';
BEGIN
    r := anon.anonymize('adult', qi, sa, model, acknowledged, lk_publish.algorithm, name);
    PERFORM anon.anonymize('lk_shuffled', qi, sa, model, acknowledged, lk_publish.algorithm, name || '_s');
    RETURN QUERY SELECT name, r->>'algorithm', coalesce(params->>'publish', 'generalized'), (r->>'classes')::bigint;
END
$$;

SELECT * FROM lk_publish('lk_inc_a', :'QIA', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["id"], "keep_identifying": true}', 'incognito');
SELECT * FROM lk_publish('lk_inc_b', :'QIB', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["id"], "keep_identifying": true}', 'incognito');
SELECT * FROM lk_publish('lk_inc_both', :'QIB', '{occupation}', 'distinct-l-diversity', '{"l": 3, "keep": ["id"], "publish": "both"}', 'incognito');
SELECT * FROM lk_publish('lk_mondrian', :'QIA', '{occupation}', 'distinct-l-diversity', '{"l": 3, "keep": ["id"], "keep_identifying": true}', 'mondrian');
SELECT * FROM lk_publish('lk_bsgi', :'QIA', '{occupation}', 'unique-distinct-l-diversity', '{"l": 4, "keep": ["id"], "publish": "both"}', 'bsgi');
SELECT * FROM lk_publish('lk_anatomy', :'QIB', '{occupation}', 'distinct-l-diversity', '{"l": 4, "keep": ["id"], "publish": "bucketized"}', 'anatomy');
SELECT * FROM lk_publish('lk_onedim', :'QIA', '{occupation}', 'distinct-l-diversity', '{"l": 3, "keep": ["id"], "keep_identifying": true}', 'onedim');
SELECT * FROM lk_publish('lk_sweep', :'QIA', '{salary-class}', 'tau-l-diversity', '{"tau": 0.5, "l": 2, "keep": ["id"], "keep_identifying": true}', 'sweep');
SELECT * FROM lk_publish('lk_mask', :'QIA', '{education}', 'm-confidentiality', '{"k": 5, "m": 3, "sensitive_values": ["Preschool", "1st-4th", "5th-6th", "7th-8th"], "keep": ["id"], "keep_identifying": true}', 'mask');

-- The release objects and their sensitive (or QI, for a QIT) and kept columns.
CREATE TEMP TABLE lk_objects (rel regclass, sensitive text, kept boolean);
INSERT INTO lk_objects VALUES
    ('lk_inc_a', 'occupation', true), ('lk_inc_b', 'occupation', true), ('lk_inc_both', 'occupation', false),
    ('lk_inc_both_qit', 'education', true), ('lk_mondrian', 'occupation', true), ('lk_bsgi', 'occupation', false),
    ('lk_bsgi_qit', 'age', true), ('lk_anatomy_qit', 'native-country', true), ('lk_onedim', 'occupation', true),
    ('lk_sweep', 'salary-class', true), ('lk_mask', 'education', true);

-- (1) No object lines up with the source by position: the share of positions whose value equals the source's at
-- that position is chance (it was 1 for a full-domain release stored in the source's order), and no kept id sits at
-- its source position (a share below 0.001, i.e. no more than 30 of 30,162 positions).
SELECT o.rel, o.sensitive AS "column", p.near_chance, p.chance,
       CASE WHEN o.kept THEN lk_aligned(o.rel, 'id', 'adult', 'id') < 0.001 END AS ids_not_aligned
FROM lk_objects o, lk_position(o.rel, o.sensitive, 'adult', o.sensitive) p ORDER BY o.rel::text;
-- (2) Two releases of the source with different quasi-identifiers do not line up with each other: no position
-- holds the same person (kept ids) in both, in either pair.
SELECT lk_aligned('lk_inc_a', 'id', 'lk_inc_b', 'id') < 0.001 AS inc_a_inc_b,
       lk_aligned('lk_mondrian', 'id', 'lk_inc_b', 'id') < 0.001 AS mondrian_inc_b,
       lk_aligned('lk_bsgi_qit', 'id', 'lk_anatomy_qit', 'id') < 0.001 AS bsgi_anatomy;
-- (3) The ST tables are stored by gid and value: the order of their rows is that of their own columns.
SELECT (SELECT bool_and(ok) FROM (SELECT (gid, occupation) >= lag((gid, occupation), 1, (gid, occupation))
                                         OVER (ORDER BY ctid) AS ok FROM lk_bsgi_st) s) AS bsgi_st_sorted,
       (SELECT bool_and(ok) FROM (SELECT (gid, occupation COLLATE "C") >= lag((gid, occupation COLLATE "C"), 1,
                                         (gid, occupation COLLATE "C")) OVER (ORDER BY ctid) AS ok FROM lk_anatomy_st) s)
           AS anatomy_st_sorted;
-- (4) A release of the shuffled copy is the same release, position by position, gids and kept ids included: the
-- class numbering and the row order depend on the data only (also the ranks of local recoding, by the kept id).
SELECT o.rel, lk_differing_positions(o.rel, regexp_replace(o.rel::text, '(_qit|_st)?$', '_s\1')::regclass)
           AS differing_positions
FROM (SELECT rel FROM lk_objects UNION SELECT 'lk_bsgi_st' UNION SELECT 'lk_anatomy_st' UNION SELECT 'lk_inc_both_st') o
ORDER BY o.rel::text;
-- The same with an interval taxonomy (whose leaves are the source's values) and individuals (params->'individual',
-- persons with two rows each, whose tuples BSGI keeps in different groups): their codes follow the values, not the
-- order in which the source's scan met them.
SELECT anon.interval_taxonomy('lk_age', 0, 100, '{10,50}') ->> 'nodes' AS nodes;
CREATE TABLE lk_people AS SELECT *, 'p' || (id % 5000) AS person FROM adult WHERE id <= 10000 ORDER BY id;
CREATE TABLE lk_people_s AS SELECT * FROM lk_people ORDER BY md5(id::text);
SELECT r->'classes' AS classes
FROM anon.anonymize('lk_people', :'QIA', '{occupation}', 'unique-distinct-l-diversity', '{"l": 3, "individual": "person",
                    "keep": ["id"], "keep_identifying": true, "taxonomies": {"age": "lk_age"}}', 'bsgi', 'lk_ind') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('lk_people_s', :'QIA', '{occupation}', 'unique-distinct-l-diversity', '{"l": 3, "individual": "person",
                    "keep": ["id"], "keep_identifying": true, "taxonomies": {"age": "lk_age"}}', 'bsgi', 'lk_ind_s') r;
SELECT lk_differing_positions('lk_ind', 'lk_ind_s') AS differing_positions,
       lk_aligned('lk_ind', 'id', 'lk_people', 'id') < 0.001 AS ids_not_aligned;
SELECT anon.drop_release('lk_ind'), anon.drop_release('lk_ind_s');
DROP TABLE lk_people, lk_people_s;
SELECT anon.drop_taxonomy('lk_age');
-- (5) REFRESH keeps the order (the view's query sorts): after a refresh of an unchanged source, the same rows at
-- the same positions, and still no alignment with the source.
CREATE TEMP TABLE lk_before AS SELECT row_number() OVER (ORDER BY ctid) AS n, t::text AS v FROM lk_inc_a t;
SELECT anon.refresh('lk_inc_a') ->> 'published_rows' AS refreshed;
REFRESH MATERIALIZED VIEW lk_mondrian;
SELECT (SELECT count(*) FROM lk_before b FULL JOIN (SELECT row_number() OVER (ORDER BY ctid) AS n, t::text AS v
                                                    FROM lk_inc_a t) a USING (n) WHERE a.v IS DISTINCT FROM b.v)
           AS inc_a_moved,
       lk_aligned('lk_mondrian', 'id', 'adult', 'id') < 0.001 AS mondrian_ids_not_aligned;

-- Kept keys -----------------------------------------------------------------------------------------------------

-- (6) With publish "both", the view holds no kept column: the key join of the view and the QIT is impossible, and
-- the report says where the kept columns went (and has no warning for the QIT's kept id; nor for BSGI or Anatomy,
-- whose only warning is their acknowledged composition with the releases published before them).
SELECT c.relname, string_agg(a.attname, ', ' ORDER BY a.attnum) AS columns
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relname IN ('lk_bsgi', 'lk_bsgi_qit', 'lk_bsgi_st') AND a.attnum > 0 GROUP BY c.relname ORDER BY c.relname;
SELECT count(*) FROM lk_bsgi v JOIN lk_bsgi_qit q USING (id);
SELECT output_name, report->>'kept_in' AS kept_in, report->'warnings' AS warnings
FROM anon.release WHERE output_name IN ('lk_bsgi', 'lk_anatomy', 'lk_inc_both', 'lk_inc_a') ORDER BY output_name;
-- (7) A unique kept key beside the sensitive values (the generalized view) is refused, with the figures ...
SELECT anon.anonymize('adult', :'QIA', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["id"]}', 'incognito', 'lk_refused');
-- ... and so is an almost-unique one (27,838 of the values are held by one row, 1,162 by two) and a combination of
-- ordinary columns that singles out a few rows. A kept column no row holds alone (salary-class) is also checked class
-- by class (issue 40, 55_kept_classes.sql): at the node the plain search picks it leaves a few rows in classes of
-- fewer than k rows once they are split by its values; Incognito now searches the classes split by it (issue 43,
-- docs/release-linkage.md) and publishes a higher node, where every class and kept value holds at least k rows.
CREATE TABLE lk_visits AS SELECT *, id % 29000 AS visit FROM adult;
SELECT anon.anonymize('lk_visits', :'QIA', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["visit"]}', 'incognito', 'lk_refused');
SELECT anon.anonymize('adult', '{sex,race}', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["education", "native-country", "workclass"]}', 'incognito', 'lk_refused');
SELECT r->'levels' AS levels, r->'classes' AS classes, r->>'kept_in' AS kept_in, r->'warnings' AS warnings
FROM anon.anonymize('adult', :'QIA', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["salary-class"]}', 'incognito', 'lk_salary') r;
SELECT min(n) AS smallest_split_class, count(*) AS split_classes
FROM (SELECT count(*) AS n FROM lk_salary GROUP BY sex, age, race, "marital-status", "salary-class") s;
SELECT anon.drop_release('lk_salary');
-- keep_identifying must be a boolean.
SELECT anon.anonymize('adult', :'QIA', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["id"], "keep_identifying": "yes"}', 'incognito', 'lk_refused');
-- (8) The acknowledged release publishes, and its report carries the warning with the figures.
SELECT r->>'kept_in' AS kept_in, r->'warnings' AS warnings
FROM anon.anonymize('lk_visits', :'QIA', '{occupation}', 'k-anonymity', '{"k": 5, "keep": ["visit"], "keep_identifying": true}', 'incognito', 'lk_visits_release') r;
-- (9) A release stored without the acknowledgement (as releases published before 0.3 are) still refreshes, so
-- that scheduled refreshes and pg_restore keep working, and its report says the linkage is not acknowledged.
UPDATE anon.release SET params = params - 'keep_identifying' WHERE output_name = 'lk_visits_release';
SELECT r->'warnings' AS warnings FROM anon.refresh('lk_visits_release') r;
REFRESH MATERIALIZED VIEW lk_visits_release;
SELECT report->'warnings' AS warnings FROM anon.release WHERE output_name = 'lk_visits_release';
SELECT anon.drop_release('lk_visits_release');
DROP TABLE lk_visits;

-- The releases of (1) to (6) are no longer needed: dropped, so that the releases below are published alone (their
-- composition with them is not what they test).
SELECT count(*) AS dropped
FROM (SELECT anon.drop_release(output_name) FROM anon.release WHERE output_name LIKE 'lk\_%') d;

-- (9b) A "both" release published before 0.3 holds its kept columns in the view too (simulated: its view made
-- again as 0.2 made it, joined with the source on the text of its values, with the kept id): its refresh reads where
-- they are and reports the unacknowledged linkage.
SELECT r->>'kept_in' AS kept_in
FROM anon.anonymize('adult', :'QIB', '{occupation}', 'distinct-l-diversity', '{"l": 3, "keep": ["id"], "publish": "both"}',
                    'incognito', 'lk_old') r;
DROP MATERIALIZED VIEW lk_old;
CREATE MATERIALIZED VIEW lk_old AS
SELECT m.gid, m.label[1] AS education, m.label[2] AS "native-country", m.label[3] AS workclass, m.label[4] AS occupation,
       s.id
FROM adult s JOIN anon._release_map('public', 'lk_old') m
  ON m.key = ARRAY[s.education, s."native-country", s.workclass, s.occupation]
ORDER BY m.gid, s.id;  -- a fixed physical order whatever the join's plan (settings_test compares it)
SELECT r->>'kept_in' AS kept_in,
       (SELECT w FROM jsonb_array_elements_text(r->'warnings') w WHERE w LIKE 'params->''keep''%singles out%') AS keep_warning
FROM anon.refresh('lk_old') r;
SELECT anon.drop_release('lk_old');

-- Degenerate releases --------------------------------------------------------------------------------------------

-- (10) t-closeness t = 0.15 on sex and age (the README tour) publishes one class with both at the root.
SELECT r->'classes' AS classes, r->'levels' AS levels, r->'warnings' AS warnings
FROM anon.anonymize('adult', '{sex,age}', '{occupation}', 't-closeness', '{"t": 0.15}') r;
-- On the seven quasi-identifiers it publishes two classes that differ in marital-status only.
SELECT r->'classes' AS classes, r->'warnings' AS warnings
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    't-closeness', '{"t": 0.15}', 'incognito', 'lk_tc') r;
SELECT gid, sex, age, race, "marital-status", education, "native-country", workclass, count(*)
FROM lk_tc GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1;
SELECT anon.drop_release('lk_tc');
-- (11) (tau, l)-diversity (tau = 0.5, l = 2 on salary-class, the README tour) publishes thousands of one-row classes
-- with exact quasi-identifiers: the report counts them, and the release shows it.
SELECT r->'classes' AS classes, r->'warnings' AS warnings
FROM anon.anonymize('adult', '{sex,age,race,marital-status,education,native-country,workclass}', '{salary-class}',
                    'tau-l-diversity', '{"tau": 0.5, "l": 2}', 'auto', 'lk_tl') r;
SELECT count(*) AS one_row_classes
FROM (SELECT gid FROM lk_tl GROUP BY gid HAVING count(*) = 1) g;
SELECT anon.drop_release('lk_tl');
-- Cleanup --------------------------------------------------------------------------------------------------------
DROP TABLE lk_shuffled;
DROP FUNCTION lk_publish, lk_differing_positions, lk_position, lk_chance, lk_aligned;
