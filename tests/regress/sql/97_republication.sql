-- Releases over time and across releases (issue 42, docs/republication.md), on copies of Adult: the three attacks of
-- the issue through the SQL API, each refused or made harmless, with the attacker's computation written here in SQL
-- from the published rows (an independent path: nothing of anon's C++ computes it).
\set VERBOSITY default
SET client_min_messages = warning;
CREATE SCHEMA rep;
CREATE TABLE rep.people AS SELECT * FROM public.adult;
ALTER TABLE rep.people ADD PRIMARY KEY (id);
CREATE SEQUENCE rep.people_id START 100000;
RESET client_min_messages;

-- The attacker's view of a full-domain release of rep.people, from its published rows alone: the label each of the
-- seven QI values takes (anon.covers on the distinct (label, value) pairs: a full-domain release gives a value one
-- label), hence each person's class (its labels, joined by '|'), and the class's set of occupations.
CREATE FUNCTION rep.class_of(release regclass)
RETURNS TABLE (id int, class text)
LANGUAGE plpgsql AS $$
DECLARE
    qi constant text[] := '{sex,age,race,marital-status,education,native-country,workclass}';
    joins text := '';
    labels text := '';
    i int := 0;
    col text;
BEGIN
    FOREACH col IN ARRAY qi LOOP
        i := i + 1;
        joins := joins || format(' JOIN (SELECT v, g FROM (SELECT DISTINCT p.%1$I::text AS v FROM rep.people p) a, '
                                 '(SELECT DISTINCT r.%1$I::text AS g FROM %2$s r) b WHERE anon.covers(%3$L, g, v)) '
                                 'l%4$s ON l%4$s.v = p.%1$I::text', col, release, col, i);
        labels := labels || CASE WHEN i > 1 THEN ' || ''|'' || ' ELSE '' END || format('l%s.g', i);
    END LOOP;
    RETURN QUERY EXECUTE format('SELECT p.id, %s FROM rep.people p%s', labels, joins);
END
$$;
CREATE FUNCTION rep.candidates(release regclass)
RETURNS TABLE (id int, candidates text[])
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'WITH c AS (SELECT concat_ws(''|'', sex, age, race, "marital-status", education, "native-country", workclass) '
        'AS class, array_agg(DISTINCT occupation ORDER BY occupation) AS occ FROM %s GROUP BY 1) '
        'SELECT k.id, c.occ FROM rep.class_of(%L) k JOIN c USING (class)', release, release);
END
$$;

-- ==== 1. Differencing a refresh ====================================================================================
SELECT r->>'version' AS version, r->'republication'->>'keyed' AS keyed, r->>'classes' AS classes
FROM anon.anonymize('rep.people', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 3}', 'incognito', 'rep.div3') r;
CREATE TABLE rep.div3_v1 AS SELECT * FROM rep.div3;

-- One person inserted: the refresh would publish one more row, whose occupation is that person's.
INSERT INTO rep.people (id, sex, age, race, "marital-status", education, "native-country", workclass, occupation,
                        "salary-class")
VALUES (nextval('rep.people_id'), 'Female', 41, 'White', 'Married-civ-spouse', 'Bachelors', 'United-States', 'Private',
        'Tech-support', '<=50K');
SELECT anon.refresh('rep.div3');
-- The maintenance functions' rows carry the error's hint (anon-maintain prints it): how to publish such changes.
SELECT status, detail, hint FROM anon.refresh_if_changed('rep.div3');
-- Nothing was published: the release is version 1, row for row.
SELECT count(*) AS rows_changed FROM (SELECT * FROM rep.div3 EXCEPT ALL SELECT * FROM rep.div3_v1) d;
SELECT report->>'version' AS version FROM anon.releases WHERE output_name = 'div3';
-- What the refresh would have published, computed as a new release of its own (no history): the attacker's diff
-- with version 1 is one row, of that person's occupation.
SELECT r->>'version' AS version FROM anon.anonymize('rep.people',
    '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}', 'distinct-l-diversity',
    '{"l": 3}', 'incognito', 'rep.div3_probe') r;
SELECT d.occupation, count(*) FROM (SELECT sex, age, race, "marital-status", education, "native-country", workclass,
                                           occupation FROM rep.div3_probe
                                    EXCEPT ALL
                                    SELECT sex, age, race, "marital-status", education, "native-country", workclass,
                                           occupation FROM rep.div3_v1) d GROUP BY 1;
SELECT anon.drop_release('rep.div3_probe');

-- One person deleted instead: withheld likewise.
DELETE FROM rep.people WHERE id >= 100000;
SELECT status FROM anon.refresh_if_changed('rep.div3');
DELETE FROM rep.people WHERE id = 777;
SELECT status, detail FROM anon.refresh_if_changed('rep.div3');
INSERT INTO rep.people SELECT * FROM public.adult WHERE id = 777;

-- A change the model covers on its own: every row once more, under new ids (each class's added rows are a copy of
-- the 3-diverse class). Refreshed, as version 2 at the same node; the attacker's diff, grouped by published class, is
-- 3-diverse everywhere, and every person of version 1 keeps at least 3 candidate occupations over both versions.
INSERT INTO rep.people
SELECT nextval('rep.people_id'), sex, age, race, "marital-status", education, "native-country", workclass, occupation,
       "salary-class"
FROM rep.people;
SELECT status FROM anon.refresh_if_changed('rep.div3');
SELECT report->>'version' AS version, report->'levels' = v1.levels AS same_node,
       report->'republication'->'changes' AS changes
FROM anon.releases, (SELECT report->'levels' AS levels FROM anon.releases WHERE output_name = 'div3') v1
WHERE output_name = 'div3';
SELECT count(*) AS diff_groups, count(*) FILTER (WHERE distinct_occupations < 3) AS groups_below_3
FROM (SELECT sex, age, race, "marital-status", education, "native-country", workclass,
             count(DISTINCT occupation) AS distinct_occupations
      FROM (SELECT sex, age, race, "marital-status", education, "native-country", workclass, occupation
            FROM rep.div3 EXCEPT ALL
            SELECT sex, age, race, "marital-status", education, "native-country", workclass, occupation
            FROM rep.div3_v1) d
      GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
SELECT count(*) AS persons_in_both, count(*) FILTER (WHERE cardinality(ARRAY(SELECT unnest(a.candidates)
                                                               INTERSECT SELECT unnest(b.candidates))) < 3) AS below_3
FROM rep.candidates('rep.div3_v1') a JOIN rep.candidates('rep.div3') b USING (id)
WHERE id < 100000;
-- Refreshed again without a change, by anon.refresh and by REFRESH MATERIALIZED VIEW: the same rows, so the same
-- version 2 (nothing to diff, nothing to judge), and its history is not written again (the row's xmin is kept).
CREATE TABLE rep.div3_v2 AS SELECT * FROM rep.div3;
SELECT xmin::text AS history_xmin FROM anon.release_history WHERE output_name = 'div3' \gset
SELECT r->>'version' AS version, r->'republication' AS republication FROM anon.refresh('rep.div3') r;
REFRESH MATERIALIZED VIEW rep.div3;
SELECT r.report->>'version' AS version, h.versions, h.xmin::text = :'history_xmin' AS history_kept
FROM anon.releases r JOIN anon.release_history h USING (output_schema, output_name) WHERE r.output_name = 'div3';
SELECT count(*) AS rows_changed FROM (SELECT * FROM rep.div3 EXCEPT ALL SELECT * FROM rep.div3_v2) d;
SELECT anon.drop_release('rep.div3');
DELETE FROM rep.people WHERE id >= 100000;

-- ==== 2. Intersecting two releases =================================================================================
-- Anatomy's distinct 4-diverse release, bucketized, then BSGI's unique-distinct 5-diverse release, both ways: each
-- alone leaves everyone at least its l occupations; intersected, hundreds of people are left with one. Refused,
-- then published with the owner's acknowledgement (the report warns).
SELECT r->>'version' AS version, r->>'classes' AS classes
FROM anon.anonymize('rep.people', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'distinct-l-diversity', '{"l": 4, "publish": "bucketized"}', 'anatomy', 'rep.anat4') r;
SELECT anon.anonymize('rep.people', '{sex,age,race,marital-status,education,native-country,workclass}',
                      '{occupation}', 'unique-distinct-l-diversity', '{"l": 5, "publish": "both"}', 'bsgi',
                      'rep.bsgi5');
SELECT r->'republication'->'composition' AS composition,
       (SELECT w FROM jsonb_array_elements_text(r->'warnings') w WHERE w LIKE 'acknowledged%') AS warning
FROM anon.anonymize('rep.people', '{sex,age,race,marital-status,education,native-country,workclass}', '{occupation}',
                    'unique-distinct-l-diversity', '{"l": 5, "publish": "both", "acknowledge_composition": true}',
                    'bsgi', 'rep.bsgi5') r;
SELECT * FROM anon.audit_composition('rep.people') ORDER BY sensitive, candidates;
-- Its errors: a role that may not read the source learns nothing of its releases; an unknown relation; a source
-- without two releases of one sensitive column has no rows.
CREATE ROLE regress_rep_outsider;
GRANT USAGE ON SCHEMA rep TO regress_rep_outsider;
SET ROLE regress_rep_outsider;
SELECT * FROM anon.audit_composition('rep.people');
RESET ROLE;
DROP OWNED BY regress_rep_outsider;
DROP ROLE regress_rep_outsider;
SELECT * FROM anon.audit_composition('rep.no_such_table');
SELECT count(*) AS rows FROM anon.audit_composition('public.adult');
-- The attacker's intersection, from the published QITs (each person's exact QI values, joined by '|', give their
-- groups) and STs (each group's set of occupations).
WITH q AS (SELECT concat_ws('|', sex, age, race, "marital-status", education, "native-country", workclass) AS qi,
                  count(*) AS persons
           FROM rep.people GROUP BY 1),
     a AS (SELECT qi, array_agg(DISTINCT occupation) AS occ
           FROM (SELECT DISTINCT concat_ws('|', sex, age, race, "marital-status", education, "native-country",
                                           workclass) AS qi, gid FROM rep.anat4_qit) t
                JOIN (SELECT DISTINCT gid, occupation FROM rep.anat4_st) s USING (gid) GROUP BY qi),
     b AS (SELECT qi, array_agg(DISTINCT occupation) AS occ
           FROM (SELECT DISTINCT concat_ws('|', sex, age, race, "marital-status", education, "native-country",
                                           workclass) AS qi, gid FROM rep.bsgi5_qit) t
                JOIN (SELECT DISTINCT gid, occupation FROM rep.bsgi5_st) s USING (gid) GROUP BY qi)
SELECT cardinality(ARRAY(SELECT unnest(a.occ) INTERSECT SELECT unnest(b.occ))) AS candidates,
       sum(q.persons) AS persons
FROM q JOIN a USING (qi) JOIN b USING (qi)
GROUP BY 1 ORDER BY 1;
SELECT anon.drop_release('rep.bsgi5');
SELECT anon.drop_release('rep.anat4');

-- ==== 3. The shape holds ===========================================================================================
-- A 10-anonymous full-domain release. Deleting ten people of a class of fewer than twenty (a change of ten rows,
-- which 10-anonymity covers) leaves its node unsatisfied: the refresh says reshaped, with the old and the new levels.
-- Then every row four times: a lower node would now do (a report-only call finds one), but the refresh keeps the
-- node.
SELECT r->'levels' AS levels
FROM anon.anonymize('rep.people', '{sex,age,race,marital-status,education,native-country,workclass}', '{}',
                    'k-anonymity', '{"k": 10}', 'incognito', 'rep.k10') r;
DELETE FROM rep.people WHERE id IN (
    SELECT id FROM rep.class_of('rep.k10') WHERE class = (
        SELECT concat_ws('|', sex, age, race, "marital-status", education, "native-country", workclass) FROM rep.k10
        GROUP BY 1 HAVING count(*) BETWEEN 11 AND 19 ORDER BY count(*), 1 LIMIT 1)
    ORDER BY id LIMIT 10);
SELECT status, detail FROM anon.refresh_if_changed('rep.k10');
SELECT report->'levels' AS levels, report->>'version' AS version FROM anon.releases WHERE output_name = 'k10';
INSERT INTO rep.people
SELECT nextval('rep.people_id'), p.sex, p.age, p.race, p."marital-status", p.education, p."native-country",
       p.workclass, p.occupation, p."salary-class"
FROM rep.people p, generate_series(1, 3);
SELECT r->'levels' AS levels FROM anon.anonymize('rep.people',
    '{sex,age,race,marital-status,education,native-country,workclass}', '{}', 'k-anonymity', '{"k": 10}', 'incognito')
    r;
SELECT status FROM anon.refresh_if_changed('rep.k10');
SELECT report->'levels' AS levels, report->>'version' AS version FROM anon.releases WHERE output_name = 'k10';
SELECT anon.drop_release('rep.k10');

-- ==== 4. m-invariant versions ======================================================================================
-- 3,000 people of Adult, published 3-invariant by their key (never published), then 11 refreshes, each deleting 40
-- people and inserting 40 (some of them earlier ones coming back). After each version the attacker's view is taken
-- here from the published rows alone: each person's candidates are the occupations of every class whose labels cover
-- the person's QI values (anon.covers), intersected over the versions the person was in. Every version is 3-unique
-- and nobody is ever left with fewer than 3 candidates.
CREATE TABLE rep.mi AS SELECT * FROM public.adult WHERE id <= 3000;
ALTER TABLE rep.mi ADD PRIMARY KEY (id);
CREATE TABLE rep.mi_seen (id int, version int, candidates text[]);
CREATE FUNCTION rep.mi_observe(version int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    -- Each QI value's covering labels (distinct value and label pairs), then each person's covering classes.
    CREATE TEMP TABLE mi_sex AS SELECT v, g FROM (SELECT DISTINCT sex AS v FROM rep.mi) a,
        (SELECT DISTINCT sex AS g FROM rep.mi_r) b WHERE anon.covers('sex', g, v);
    CREATE TEMP TABLE mi_age AS SELECT v, g FROM (SELECT DISTINCT age::text AS v FROM rep.mi) a,
        (SELECT DISTINCT age AS g FROM rep.mi_r) b WHERE anon.covers('age', g, v);
    CREATE TEMP TABLE mi_race AS SELECT v, g FROM (SELECT DISTINCT race AS v FROM rep.mi) a,
        (SELECT DISTINCT race AS g FROM rep.mi_r) b WHERE anon.covers('race', g, v);
    ANALYZE mi_sex;
    ANALYZE mi_age;
    ANALYZE mi_race;
    INSERT INTO rep.mi_seen
    SELECT p.id, version, array_agg(DISTINCT o)
    FROM rep.mi p
    JOIN mi_sex s ON s.v = p.sex JOIN mi_age a ON a.v = p.age::text JOIN mi_race c ON c.v = p.race
    JOIN (SELECT sex, age, race, array_agg(DISTINCT occupation) AS occ FROM rep.mi_r GROUP BY 1, 2, 3) r
      ON (r.sex, r.age, r.race) = (s.g, a.g, c.g), unnest(r.occ) o
    GROUP BY p.id;
    DROP TABLE mi_sex, mi_age, mi_race;
END
$$;
SELECT r->>'version' AS version, r->'republication'->'m_invariance' AS m_invariance
FROM anon.anonymize('rep.mi', '{sex,age,race}', '{occupation}', 'distinct-l-diversity',
                    '{"l": 3, "person_key": "id"}', 'm-invariance', 'rep.mi_r') r;
SELECT rep.mi_observe(1);
DO $$
BEGIN
    FOR v IN 2..12 LOOP
        DELETE FROM rep.mi WHERE id IN (SELECT id FROM rep.mi ORDER BY md5(id::text || v) LIMIT 40);
        INSERT INTO rep.mi SELECT a.* FROM public.adult a
        WHERE a.id <= 3000 + 40 * v AND NOT EXISTS (SELECT 1 FROM rep.mi m WHERE m.id = a.id)
        ORDER BY md5(a.id::text || 'in' || v) LIMIT 40;
        PERFORM 1 FROM anon.refresh_if_changed('rep.mi_r') f WHERE f.status = 'refreshed';
        IF NOT FOUND THEN
            RAISE EXCEPTION 'version % was not refreshed', v;
        END IF;
        PERFORM rep.mi_observe(v);
    END LOOP;
END
$$;
SELECT report->>'version' AS version, report->'republication'->'m_invariance'->>'persons_rechecked' AS rechecked
FROM anon.releases WHERE output_name = 'mi_r';
-- The counterfeits of each class are published beside its rows (one count per class, on each of its rows): the last
-- version's rows less them are its people, one row each, and they add up to the report's total.
SELECT count(*) FILTER (WHERE counts > 1) AS classes_with_two_counts,
       count(*) FILTER (WHERE fakes >= n) AS classes_of_counterfeits_only,
       sum(n - fakes) = (SELECT count(*) FROM rep.mi) AS rows_less_counterfeits_are_the_people,
       sum(fakes) = (SELECT (report->'republication'->'m_invariance'->>'counterfeits')::bigint FROM anon.releases
                     WHERE output_name = 'mi_r') AS total_as_reported,
       sum(fakes) > 0 AS some_counterfeits
FROM (SELECT gid, count(*) AS n, count(DISTINCT counterfeits) AS counts, max(counterfeits) AS fakes
      FROM rep.mi_r GROUP BY gid) c;
-- Every version 3-unique (checked on the last: the view is its rows), and the attacker's intersections.
SELECT count(*) AS classes, count(*) FILTER (WHERE n < 3 OR distinct_occupations < n) AS not_3_unique
FROM (SELECT gid, count(*) AS n, count(DISTINCT occupation) AS distinct_occupations FROM rep.mi_r GROUP BY gid) c;
-- A person's candidates left over are the occupations seen in every version the person was in.
SELECT (SELECT count(DISTINCT version) FROM rep.mi_seen) AS versions, count(*) AS people,
       count(*) FILTER (WHERE versions > 1) AS people_in_several_versions,
       count(*) FILTER (WHERE left_over < 3) AS left_with_fewer_than_3
FROM (SELECT id, v.versions, count(*) FILTER (WHERE o.seen = v.versions) AS left_over
      FROM (SELECT id, count(*) AS versions FROM rep.mi_seen GROUP BY id) v
      JOIN (SELECT id, c, count(*) AS seen FROM rep.mi_seen, unnest(candidates) c GROUP BY id, c) o USING (id)
      GROUP BY id, v.versions) x;
SELECT anon.drop_release('rep.mi_r');
-- A quasi-identifier named like the view's counterfeits column is refused, naming the argument.
CREATE TABLE rep.cf AS SELECT id, sex AS counterfeits, occupation FROM public.adult WHERE id <= 100;
SELECT anon.anonymize('rep.cf', '{counterfeits}', '{occupation}', 'distinct-l-diversity',
                      '{"l": 2, "person_key": "id", "taxonomies": {"counterfeits": "sex"}}', 'm-invariance', 'rep.cf_r');

DROP SCHEMA rep CASCADE;
