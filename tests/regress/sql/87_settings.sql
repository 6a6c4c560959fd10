-- Session-independent values (issue 16): values are matched to taxonomies and to the release views' join key by
-- their canonical text (ISO dates and timestamps, timestamptz in UTC, 'postgres' intervals, shortest-exact floats,
-- hex bytea), so releases published, refreshed (anon.refresh or REFRESH MATERIALIZED VIEW) and audited under any
-- DateStyle, TimeZone, IntervalStyle, extra_float_digits, bytea_output and search_path are the same rows.
\set VERBOSITY terse
CREATE SCHEMA settings;
-- Quasi-identifiers of every type whose text depends on the settings.
CREATE TABLE settings.visits (id int, day date, seen timestamp, seen_tz timestamptz, stay interval, score float8,
                              amount numeric, tag bytea, ill text);
INSERT INTO settings.visits
SELECT i, date '2007-01-30' + i % 6, timestamp '2007-02-20 10:00' + (i % 4) * interval '6 hours',
       timestamptz '2007-02-20 10:00:00+00' + (i % 4) * interval '7 hours', (i % 3) * interval '1 day 2 hours',
       (i % 5) / 3.0::float8, (i % 4) * 2.5, decode(lpad(to_hex(i % 3), 2, '0'), 'hex'),
       (ARRAY['flu', 'cold', 'asthma'])[i % 3 + 1]
FROM generate_series(1, 60) i;
-- Levels tables whose leaves have the columns' types: the taxonomies hold the leaves' canonical text.
CREATE TABLE settings.day_levels (leaf date, month text, root text);
INSERT INTO settings.day_levels SELECT d, to_char(d, 'YYYY-MM'), '*' FROM generate_series(date '2007-01-30', date '2007-02-04', '1 day') d;
CREATE TABLE settings.seen_levels (leaf timestamp, part text, root text);
INSERT INTO settings.seen_levels
SELECT t, CASE WHEN t::time < '12:00' THEN 'morning' ELSE 'later' END, '*'
FROM generate_series(timestamp '2007-02-20 10:00', timestamp '2007-02-21 04:00', '6 hours') t;
CREATE TABLE settings.seen_tz_levels (leaf timestamptz, utc_day text, root text);
INSERT INTO settings.seen_tz_levels
SELECT t, to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '*'
FROM generate_series(timestamptz '2007-02-20 10:00:00+00', timestamptz '2007-02-21 07:00:00+00', '7 hours') t;
CREATE TABLE settings.stay_levels (leaf interval, length text, root text);
INSERT INTO settings.stay_levels VALUES ('0', 'short', '*'), ('1 day 2 hours', 'short', '*'), ('2 days 4 hours', 'long', '*');
CREATE TABLE settings.tag_levels (leaf bytea, root text);
INSERT INTO settings.tag_levels VALUES ('\x00', '*'), ('\x01', '*'), ('\x02', '*');

-- Hostile settings, and a search_path whose first schema shadows anon's helper.
CREATE SCHEMA settings_hostile;
CREATE FUNCTION settings_hostile._canonical_text(anyelement) RETURNS text LANGUAGE sql AS 'SELECT ''shadowed''';
SET DateStyle = 'SQL, DMY';
SET TimeZone = 'Pacific/Chatham';
SET IntervalStyle = 'sql_standard';
SET extra_float_digits = -3;
SET bytea_output = 'escape';
SET search_path = settings_hostile, settings, public;
SELECT leaf, leaf::text AS session_text, anon._canonical_text(leaf) AS canonical FROM day_levels ORDER BY leaf LIMIT 2;
SELECT anon._canonical_text(timestamptz '2007-02-20 10:00:00+00') AS timestamptz_utc,
       anon._canonical_text(interval '1 day 2 hours') AS interval_postgres,
       anon._canonical_text(1 / 3.0::float8) AS float_shortest, anon._canonical_text('\x0102'::bytea) AS bytea_hex,
       anon._canonical_text('ab  '::char(4)) AS char_trimmed,
       anon._canonical_text(ARRAY[date '2007-02-20']) AS date_array,
       anon._canonical_text(ROW(date '2007-02-20', interval '1 hour')) AS composite;
CREATE DOMAIN settings.visit_day AS date;
SELECT anon._canonical_text('2007-02-20'::visit_day) AS domain_over_date,
       anon._canonical_text(daterange('2007-02-20', '2007-03-01')) AS date_range,
       anon._canonical_text(timestamp '2007-02-20 10:00:00.5') AS timestamp_iso,
       anon._canonical_text(0.1::float4) AS float4_shortest, anon._canonical_text(-0.0::float8) AS minus_zero,
       anon._canonical_text('infinity'::timestamptz) AS infinity, anon._canonical_text(NULL::date) IS NULL AS strict;
-- Taxonomies built under the hostile settings have canonical leaves.
SELECT anon.taxonomy_from_levels('settings_day', 'day_levels') ->> 'leaves' AS day_leaves,
       anon.taxonomy_from_levels('settings_seen', 'seen_levels') ->> 'leaves' AS seen_leaves,
       anon.taxonomy_from_levels('settings_seen_tz', 'seen_tz_levels') ->> 'leaves' AS seen_tz_leaves,
       anon.taxonomy_from_levels('settings_stay', 'stay_levels') ->> 'leaves' AS stay_leaves,
       anon.taxonomy_from_levels('settings_tag', 'tag_levels') ->> 'leaves' AS tag_leaves,
       anon.interval_taxonomy('settings_score', 0, 2, '{1,2}') ->> 'leaves' AS score_leaves,
       anon.interval_taxonomy('settings_amount', 0, 10, '{5,10}') ->> 'leaves' AS amount_leaves;
SELECT value FROM anon.taxonomy_nodes WHERE taxonomy IN ('settings_day', 'settings_seen_tz', 'settings_stay', 'settings_tag')
ORDER BY taxonomy, ord;

-- Releases published under the hostile settings: full-domain (incognito) and local recoding (bsgi, with QIT/ST;
-- tuples of one combination are ranked into classes by their kept columns' canonical text, here a date's). The four
-- releases of visits coexist on purpose: the local ones acknowledge their composition with the others.
\set tax_full '{"taxonomies": {"day": "settings_day", "seen_tz": "settings_seen_tz", "stay": "settings_stay", "score": "settings_score"}}'
\set tax_local '{"taxonomies": {"seen": "settings_seen", "tag": "settings_tag", "amount": "settings_amount"}}'
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{day,seen_tz,stay,score}', '{ill}', 'k-anonymity', '{"k": 3, "keep": ["id"], "keep_identifying": true}'::jsonb || :'tax_full',
                    'incognito', 'settings.hostile_full') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{seen,amount,tag}', '{ill}', 'unique-distinct-l-diversity',
                    '{"l": 2, "keep": ["day", "id"], "publish": "both", "acknowledge_composition": true}'::jsonb
                    || :'tax_local', 'bsgi', 'settings.hostile_local') r;

-- The same releases under canonical settings.
RESET ALL;
SET search_path = settings, public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET IntervalStyle = 'postgres';
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{day,seen_tz,stay,score}', '{ill}', 'k-anonymity', '{"k": 3, "keep": ["id"], "keep_identifying": true}'::jsonb || :'tax_full',
                    'incognito', 'settings.plain_full') r;
SELECT r->'classes' AS classes
FROM anon.anonymize('visits', '{seen,amount,tag}', '{ill}', 'unique-distinct-l-diversity',
                    '{"l": 2, "keep": ["day", "id"], "publish": "both", "acknowledge_composition": true}'::jsonb
                    || :'tax_local', 'bsgi', 'settings.plain_local') r;
-- Rows of the releases, compared as sets of typed rows: none differs.
CREATE FUNCTION settings.differing(a regclass, b regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    EXECUTE format('SELECT (SELECT count(*) FROM (TABLE %s EXCEPT ALL TABLE %s) x) + '
                   '(SELECT count(*) FROM (TABLE %s EXCEPT ALL TABLE %s) y)', a, b, b, a) INTO n;
    RETURN n;
END $$;
SELECT (SELECT count(*) FROM hostile_full) AS full_rows, differing('hostile_full', 'plain_full') AS full_diff,
       (SELECT count(*) FROM hostile_local) AS local_rows, differing('hostile_local', 'plain_local') AS local_diff,
       differing('hostile_local_qit', 'plain_local_qit') AS qit_diff, differing('hostile_local_st', 'plain_local_st') AS st_diff;
SELECT * FROM hostile_full ORDER BY id LIMIT 4;
SELECT * FROM hostile_local ORDER BY 1, 2, 3, 4, 5 LIMIT 6;
-- Kept columns of a "both" release are in the QIT only.
SELECT * FROM hostile_local_qit ORDER BY gid, id LIMIT 6;

-- Refreshes under settings that differ from the publication's give the same rows.
CREATE TABLE settings.snap_full AS TABLE hostile_full;
CREATE TABLE settings.snap_local AS TABLE hostile_local;
CREATE TABLE settings.snap_qit AS TABLE hostile_local_qit;
SET DateStyle = 'German';
SET TimeZone = 'Asia/Kathmandu';
SET IntervalStyle = 'iso_8601';
SET extra_float_digits = 0;
SET bytea_output = 'escape';
REFRESH MATERIALIZED VIEW hostile_full;
REFRESH MATERIALIZED VIEW hostile_local;
REFRESH MATERIALIZED VIEW hostile_local_qit;
SELECT differing('hostile_full', 'snap_full') AS full_diff, differing('hostile_local', 'snap_local') AS local_diff,
       differing('hostile_local_qit', 'snap_qit') AS qit_diff;
SET DateStyle = 'Postgres, DMY';
SET TimeZone = 'America/St_Johns';
SELECT anon.refresh('hostile_full') ->> 'published_rows' AS full_rows,
       anon.refresh('hostile_local') ->> 'published_rows' AS local_rows;
SELECT differing('hostile_full', 'snap_full') AS full_diff, differing('hostile_local', 'snap_local') AS local_diff,
       differing('hostile_local_qit', 'snap_qit') AS qit_diff;
-- Audits read the canonical text too: the published release verifies under these settings.
SELECT anon.verify('hostile_full', '{day,seen_tz,stay,score}', '{ill}', 'k-anonymity', '{"k": 3}') ->> 'satisfied' AS verified;
SELECT count(*) AS classes FROM anon.equivalence_classes('hostile_full', '{day,seen_tz,stay,score}', '{ill}');
RESET ALL;

-- money has no session-independent text (it follows lc_monetary): refused clearly.
CREATE TABLE settings.payments (id int, paid money, ill text);
INSERT INTO settings.payments SELECT i, i % 3, 'flu' FROM generate_series(1, 6) i;
SELECT anon.anonymize('settings.payments', '{paid}', '{ill}', 'k-anonymity', '{"k": 2}', 'incognito');

-- NULL as a value of an interval-taxonomy column: its own leaf under the root, published as NULL; messages that
-- print values print NULL as NULL.
CREATE TABLE settings.ages (id int, age int, ill text);
INSERT INTO settings.ages SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE 20 + i % 30 END, (ARRAY['flu', 'cold'])[i % 2 + 1]
FROM generate_series(1, 40) i;
SELECT anon.interval_taxonomy('settings_age', 0, 100, '{10,50}') ->> 'leaves' AS leaves;
SELECT anon.anonymize('settings.ages', '{age}', '{ill}', 'k-anonymity', '{"k": 3, "taxonomies": {"age": "settings_age"}}', 'incognito');
SELECT r->'classes' AS classes
FROM anon.anonymize('settings.ages', '{age}', '{ill}', 'k-anonymity',
                    '{"k": 3, "nulls": "value", "keep": ["id"], "keep_identifying": true, "taxonomies": {"age": "settings_age"}}', 'incognito',
                    'settings.ages_k3') r;
SELECT age, count(*) FROM settings.ages_k3 GROUP BY age ORDER BY age NULLS FIRST;
SELECT count(*) AS null_rows_published_as_null FROM settings.ages_k3 k JOIN settings.ages a USING (id)
WHERE a.age IS NULL AND k.age IS NULL;
-- A value missing from a taxonomy is named (NULL, a value of its own here, is not missing: it becomes a leaf).
CREATE TABLE settings.towns (id int, town text, ill text);
INSERT INTO settings.towns VALUES (1, 'a', 'flu'), (2, NULL, 'cold'), (3, 'zz', 'flu');
CREATE TABLE settings.town_levels (leaf text, root text);
INSERT INTO settings.town_levels VALUES ('a', '*');
SELECT anon.taxonomy_from_levels('settings_town', 'settings.town_levels') ->> 'leaves' AS leaves;
SELECT anon.anonymize('settings.towns', '{town}', '{ill}', 'k-anonymity',
                      '{"k": 2, "nulls": "value", "taxonomies": {"town": "settings_town"}}', 'incognito');

-- A release published before 0.3 (its view joins on ::text): REFRESH MATERIALIZED VIEW under non-canonical
-- settings is refused (it would lose rows); anon.refresh refreshes it under the canonical settings.
CREATE DATABASE regress_anon_settings_upgrade;
\c regress_anon_settings_upgrade
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, MDY';
SET IntervalStyle = 'postgres';
CREATE EXTENSION anon VERSION '0.1';
CREATE TABLE visits (id int, day date, ill text);
INSERT INTO visits SELECT i, date '2007-01-30' + i % 6, (ARRAY['flu', 'cold', 'asthma'])[i % 3 + 1] FROM generate_series(1, 60) i;
CREATE TABLE day_levels (leaf date, month text, root text);
INSERT INTO day_levels SELECT d, to_char(d, 'YYYY-MM'), '*' FROM generate_series(date '2007-01-30', date '2007-02-04', '1 day') d;
SELECT anon.taxonomy_from_levels('day', 'day_levels') ->> 'leaves' AS leaves;
SELECT r->'classes' AS classes FROM anon.anonymize('visits', '{day}', '{ill}', 'k-anonymity', '{"k": 5, "keep": ["id"], "keep_identifying": true}', 'incognito', 'old') r;
ALTER EXTENSION anon UPDATE;
CREATE TABLE snap AS TABLE old;
SET DateStyle = 'SQL, DMY';
REFRESH MATERIALIZED VIEW old;
SELECT anon.refresh('old') ->> 'published_rows' AS published_rows;
SELECT (SELECT count(*) FROM (TABLE old EXCEPT ALL TABLE snap) x) + (SELECT count(*) FROM (TABLE snap EXCEPT ALL TABLE old) y) AS diff;
SHOW DateStyle;
-- Under canonical settings a plain REFRESH works; republishing gives the view the session-independent key.
SET DateStyle = 'ISO, MDY';
SET IntervalStyle = 'postgres';
REFRESH MATERIALIZED VIEW old;
SELECT r->'classes' AS classes FROM anon.anonymize('visits', '{day}', '{ill}', 'k-anonymity', '{"k": 5, "keep": ["id"], "keep_identifying": true, "replace": true}', 'incognito', 'old') r;
SET DateStyle = 'SQL, DMY';
REFRESH MATERIALIZED VIEW old;
SELECT (SELECT count(*) FROM (TABLE old EXCEPT ALL TABLE snap) x) + (SELECT count(*) FROM (TABLE snap EXCEPT ALL TABLE old) y) AS diff;
\c contrib_regression
DROP DATABASE regress_anon_settings_upgrade;

-- Kept columns that single out rows are counted by their canonical text: under extra_float_digits = -3 ten
-- distinct readings all print as 1, but each still singles out its row, and the refusal says so.
CREATE TABLE settings.readings (zone text, ill text, reading float8);
INSERT INTO settings.readings SELECT (ARRAY['z1','z2'])[i % 2 + 1], (ARRAY['flu','cold'])[i / 2 % 2 + 1], 1 + i * 1e-13
FROM generate_series(1, 10) i;
CREATE TABLE settings.zone_levels (leaf text, root text);
INSERT INTO settings.zone_levels VALUES ('z1', '*'), ('z2', '*');
SELECT anon.taxonomy_from_levels('settings_zone', 'settings.zone_levels') ->> 'leaves' AS leaves;
SET extra_float_digits = -3;
SELECT count(DISTINCT reading::text) AS texts_under_this_session FROM settings.readings;
SELECT anon.anonymize('settings.readings', '{zone}', '{ill}', 'k-anonymity',
                      '{"k": 2, "keep": ["reading"], "taxonomies": {"zone": "settings_zone"}}', 'incognito',
                      'settings.readings_k2');
RESET extra_float_digits;

-- Clean up: later files count the releases and taxonomies they find.
SELECT anon.drop_release('settings.' || output_name) FROM anon.releases WHERE output_schema = 'settings' ORDER BY output_name;
SELECT anon.drop_taxonomy(name) FROM anon.taxonomies WHERE name LIKE 'settings\_%' ORDER BY name;
DROP SCHEMA settings, settings_hostile CASCADE;
