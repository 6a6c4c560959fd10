-- Taxonomies: anon.taxonomy_from_levels, anon.interval_taxonomy, anon.drop_taxonomy and anon.covers.
-- Every failing call must name what is wrong and leave nothing in the catalog.
-- Results of the anon functions are read in FROM clauses (SELECT * FROM f(...)).

-- taxonomy_from_levels on small hand tables -------------------------------------------------------------------

-- Columns in order: leaf, level 1, ..., root.
CREATE TABLE colour_levels (leaf text, family text, root text);
INSERT INTO colour_levels VALUES
    ('red', 'warm', '*'), ('orange', 'warm', '*'), ('yellow', 'warm', '*'),
    ('blue', 'cool', '*'), ('green', 'cool', '*');
SELECT * FROM anon.taxonomy_from_levels('colour', 'colour_levels');
SELECT name, kind, lower, upper, widths FROM anon.taxonomy WHERE name = 'colour';
-- Stored top-down: the root first, then each level in row order; every weight defaults to 1.
SELECT value, parent, weight FROM anon.taxonomy_node WHERE taxonomy = 'colour' ORDER BY ord;

-- Two columns: a flat taxonomy (height 1). A leaf listed twice with the same parent is harmless.
CREATE TABLE answer_levels (answer text, root text);
INSERT INTO answer_levels VALUES ('yes', 'any'), ('no', 'any'), ('maybe', 'any'), ('yes', 'any');
SELECT * FROM anon.taxonomy_from_levels('answer', 'answer_levels');
SELECT value, parent FROM anon.taxonomy_node WHERE taxonomy = 'answer' ORDER BY ord;

-- Non-text columns are read as text; quoted table and column names work; dropped columns are ignored.
CREATE TABLE "Odd Levels" ("Leaf Value" int, junk text, "Decade" text, "All" text);
INSERT INTO "Odd Levels" VALUES (21, 'x', '20-29', '*'), (25, 'y', '20-29', '*'), (34, 'z', '30-39', '*');
ALTER TABLE "Odd Levels" DROP COLUMN junk;
SELECT * FROM anon.taxonomy_from_levels('odd decade', '"Odd Levels"');
SELECT value, parent FROM anon.taxonomy_node WHERE taxonomy = 'odd decade' ORDER BY ord;

-- interval_taxonomy -------------------------------------------------------------------------------------------

-- Widths {5,10,20} over [0,100): 20 + 10 + 5 intervals and the root. The stored nodes are the intervals; a
-- column's values become the leaves when a job reads it, so the summary counts the 5-wide intervals as leaves.
SELECT * FROM anon.interval_taxonomy('age5', 0, 100, '{5,10,20}');
SELECT name, kind, lower, upper, widths FROM anon.taxonomy WHERE name = 'age5';
SELECT value, parent FROM anon.taxonomy_node WHERE taxonomy = 'age5' ORDER BY ord;
-- Each interval lies inside its parent and the intervals of one width partition [0,100).
SELECT count(*) FILTER (WHERE parent <> '*' AND NOT anon.covers('age5', parent, split_part(substr(value, 2), ',', 1)))
           AS not_nested,
       sum(rtrim(split_part(value, ',', 2), ')')::numeric - split_part(substr(value, 2), ',', 1)::numeric)
           FILTER (WHERE value <> '*') AS total_width
FROM anon.taxonomy_node WHERE taxonomy = 'age5';

-- An upper bound that is not a multiple of the widths truncates the last intervals; bounds may be negative.
SELECT * FROM anon.interval_taxonomy('temperature', -20, 95, '{10,20}');
SELECT value, parent FROM anon.taxonomy_node WHERE taxonomy = 'temperature' ORDER BY ord;

-- When upper falls inside the last finest interval, that one ends at upper and the coarser ones keep their full
-- width, so that no two levels share a label.
SELECT * FROM anon.interval_taxonomy('temperature45', -20, 45, '{10,20}');
SELECT value, parent FROM anon.taxonomy_node WHERE taxonomy = 'temperature45' ORDER BY ord;
SELECT anon.covers('temperature45', '[40,60)', '44') AS coarse, anon.covers('temperature45', '[40,45)', '44') AS fine;

-- Errors: each one names the problem and stores nothing -------------------------------------------------------

\set VERBOSITY default
-- A value with two parents.
CREATE TABLE two_parents_levels (leaf text, mid text, root text);
INSERT INTO two_parents_levels VALUES ('a', 'ab', '*'), ('b', 'ab', '*'), ('a', 'ac', '*'), ('c', 'ac', '*');
SELECT * FROM anon.taxonomy_from_levels('bad_two_parents', 'two_parents_levels');
-- Two roots.
CREATE TABLE two_roots_levels (leaf text, mid text, root text);
INSERT INTO two_roots_levels VALUES ('a', 'ab', '*'), ('b', 'ab', '*'), ('c', 'cd', 'ALL');
SELECT * FROM anon.taxonomy_from_levels('bad_two_roots', 'two_roots_levels');
-- A cycle cannot be written as levels: every row ends in a root, so a value on a cycle would be repeated in its row
-- with another label between (a label repeated at consecutive levels is one node filling them: 11_arx_levels).
CREATE TABLE repeated_levels (leaf text, mid text, root text);
INSERT INTO repeated_levels VALUES ('a', 'b', 'a'), ('c', 'b', 'a');
SELECT * FROM anon.taxonomy_from_levels('bad_repeated', 'repeated_levels');
-- An empty levels table.
CREATE TABLE empty_levels (leaf text, root text);
SELECT * FROM anon.taxonomy_from_levels('bad_empty', 'empty_levels');
-- NULL in a levels table.
CREATE TABLE null_levels (leaf text, mid text, root text);
INSERT INTO null_levels VALUES ('a', 'ab', '*'), ('b', NULL, '*');
SELECT * FROM anon.taxonomy_from_levels('bad_null', 'null_levels');
-- A single column: no root.
CREATE TABLE one_column_levels (leaf text);
INSERT INTO one_column_levels VALUES ('a');
SELECT * FROM anon.taxonomy_from_levels('bad_one_column', 'one_column_levels');
-- A levels table that does not exist (regclass input).
SELECT * FROM anon.taxonomy_from_levels('bad_missing_table', 'no_such_levels');
-- Bad names.
SELECT * FROM anon.taxonomy_from_levels('', 'colour_levels');
SELECT * FROM anon.taxonomy_from_levels(repeat('x', 201), 'colour_levels');
SELECT * FROM anon.taxonomy_from_levels(NULL, 'colour_levels');
SELECT * FROM anon.taxonomy_from_levels('bad_null_levels', NULL);
-- A duplicate taxonomy name (the existing taxonomy is left as it was).
SELECT * FROM anon.taxonomy_from_levels('colour', 'answer_levels');
SELECT * FROM anon.interval_taxonomy('colour', 0, 10, '{5}');
SELECT count(*) AS colour_nodes FROM anon.taxonomy_node WHERE taxonomy = 'colour';
-- Interval widths that do not nest, non-positive widths, no widths, too many intervals.
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 100, '{5,7}');
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 100, '{10,10}');
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 100, '{10,5}');
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 100, '{0}');
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 100, '{5,-10}');
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 100, '{}');
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 100, '{5,NULL}');
SELECT * FROM anon.interval_taxonomy('bad_widths', 0, 10000000, '{1}');
-- lower >= upper, NULL bounds.
SELECT * FROM anon.interval_taxonomy('bad_bounds', 100, 100, '{5}');
SELECT * FROM anon.interval_taxonomy('bad_bounds', 100, 0, '{5}');
SELECT * FROM anon.interval_taxonomy('bad_bounds', NULL, 100, '{5}');
SELECT * FROM anon.interval_taxonomy('bad_bounds', 0, NULL, '{5}');
SELECT * FROM anon.interval_taxonomy('bad_bounds', 0, 100, NULL);
SELECT * FROM anon.interval_taxonomy(NULL, 0, 100, '{5}');
-- Nothing of the failed calls is stored.
SELECT count(*) AS taxonomies FROM anon.taxonomy WHERE name LIKE 'bad%' OR name = '' OR name LIKE 'xxx%';
SELECT count(*) AS nodes FROM anon.taxonomy_node WHERE taxonomy LIKE 'bad%' OR taxonomy = '' OR taxonomy LIKE 'xxx%';

-- Trees written into the catalog directly are checked when a job reads them ----------------------------------

CREATE TABLE shade (id int, shade text, mood text);
INSERT INTO shade VALUES (1, 'light', 'calm'), (2, 'dark', 'calm'), (3, 'light', 'tense'), (4, 'dark', 'tense');
INSERT INTO anon.taxonomy (name) VALUES ('shade_cycle');
-- light -> pale -> faint -> pale: a cycle that never reaches the root.
INSERT INTO anon.taxonomy_node (taxonomy, value, parent) VALUES
    ('shade_cycle', '*', NULL), ('shade_cycle', 'dark', '*'), ('shade_cycle', 'light', 'pale'),
    ('shade_cycle', 'pale', 'faint'), ('shade_cycle', 'faint', 'pale');
SELECT * FROM anon.anonymize('shade', '{shade}', '{mood}', 'k-anonymity', '{"k": 2, "taxonomies": {"shade": "shade_cycle"}}');
-- anon.covers terminates on the cycle.
SELECT anon.covers('shade_cycle', 'faint', 'light') AS faint_light, anon.covers('shade_cycle', '*', 'light') AS root_light;
-- Two roots.
UPDATE anon.taxonomy_node SET parent = NULL WHERE taxonomy = 'shade_cycle' AND value = 'faint';
UPDATE anon.taxonomy_node SET parent = '*' WHERE taxonomy = 'shade_cycle' AND value = 'pale';
UPDATE anon.taxonomy_node SET parent = 'faint' WHERE taxonomy = 'shade_cycle' AND value = 'light';
SELECT * FROM anon.anonymize('shade', '{shade}', '{mood}', 'k-anonymity', '{"k": 2, "taxonomies": {"shade": "shade_cycle"}}');
-- A parent that is not a node.
UPDATE anon.taxonomy_node SET parent = 'murky' WHERE taxonomy = 'shade_cycle' AND value = 'faint';
SELECT * FROM anon.anonymize('shade', '{shade}', '{mood}', 'k-anonymity', '{"k": 2, "taxonomies": {"shade": "shade_cycle"}}');
-- No nodes at all.
DELETE FROM anon.taxonomy_node WHERE taxonomy = 'shade_cycle';
SELECT * FROM anon.anonymize('shade', '{shade}', '{mood}', 'k-anonymity', '{"k": 2, "taxonomies": {"shade": "shade_cycle"}}');
-- Fixed into a tree, the same taxonomy works.
INSERT INTO anon.taxonomy_node (taxonomy, value, parent) VALUES
    ('shade_cycle', '*', NULL), ('shade_cycle', 'dark', '*'), ('shade_cycle', 'light', '*');
SELECT r->'levels' AS levels, r->'classes' AS classes
FROM anon.anonymize('shade', '{shade}', '{mood}', 'k-anonymity', '{"k": 2, "taxonomies": {"shade": "shade_cycle"}}') r;

-- drop_taxonomy -----------------------------------------------------------------------------------------------

SELECT anon.drop_taxonomy('no_such_taxonomy');
SELECT anon.drop_taxonomy(NULL) IS NULL AS strict_null;
SELECT anon.drop_taxonomy('shade_cycle');
SELECT anon.drop_taxonomy('odd decade');
SELECT name FROM anon.taxonomy WHERE name IN ('shade_cycle', 'odd decade');
SELECT count(*) AS nodes_left FROM anon.taxonomy_node WHERE taxonomy IN ('shade_cycle', 'odd decade');
-- Dropped twice: the second call fails.
SELECT anon.drop_taxonomy('shade_cycle');
-- A dropped name can be used again.
SELECT * FROM anon.taxonomy_from_levels('odd decade', '"Odd Levels"');

-- covers ------------------------------------------------------------------------------------------------------

-- Trees: a value covers itself and is covered by its ancestors only.
SELECT g, v, anon.covers('colour', g, v) AS covers
FROM (VALUES ('red', 'red'), ('warm', 'red'), ('*', 'red'), ('cool', 'red'), ('red', 'warm'), ('orange', 'red'),
             ('*', 'purple'), ('warm', NULL), (NULL, NULL)) AS c(g, v)
ORDER BY g NULLS LAST, v NULLS LAST;
-- Intervals: [a,b) covers numbers a <= v < b; '*' covers the taxonomy's range [0,100).
SELECT g, v, anon.covers('age5', g, v) AS covers
FROM (VALUES ('[20,25)', '20'), ('[20,25)', '24'), ('[20,25)', '25'), ('[20,40)', '39'), ('[0,20)', '-1'),
             ('[20,25)', '22.5'), ('[20,25)', 'abc'), ('*', '42'), ('42', '42'), ('41', '42'), ('*', '100'),
             ('*', '-1'), ('*', 'abc')) AS c(g, v)
ORDER BY g, v;
SELECT anon.covers('temperature', '[-20,-10)', '-15') AS negative, anon.covers('temperature', '[-20,-10)', '-10') AS upper,
       anon.covers('temperature', '[80,95)', '94.5') AS last, anon.covers('temperature', '[90,95)', '95') AS beyond;
-- An unknown taxonomy covers nothing but equal values.
SELECT anon.covers('no_such_taxonomy', '*', 'a') AS root, anon.covers('no_such_taxonomy', 'a', 'a') AS same;

-- Clean up (the Adult taxonomies of 00_setup stay).
SELECT anon.drop_taxonomy(name) FROM anon.taxonomy
WHERE name IN ('colour', 'answer', 'odd decade', 'age5', 'temperature', 'temperature45') ORDER BY name;
SELECT name FROM anon.taxonomy ORDER BY name;
DROP TABLE colour_levels, answer_levels, "Odd Levels", two_parents_levels, two_roots_levels, repeated_levels,
    empty_levels, null_levels, one_column_levels, shade;
