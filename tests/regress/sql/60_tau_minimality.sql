-- Functional (tau, l)-diversity (SWEEP), the 1-D baseline, t-closeness, m-confidentiality (MASK) and the
-- minimality-attack audits, end to end on Adult (loaded by 00_setup). Deterministic outputs only (no timings).
\set QIS '{sex,age,race,marital-status,education,native-country,workclass}'
\set QIS6 '{sex,age,race,marital-status,native-country,workclass}'
\set LOW '{Preschool,1st-4th,5th-6th,7th-8th}'

-- Strength conversions (Theorems 20 and 23).
SELECT anon.weakest_stronger_requirement(0.5, 3, 14);
\set VERBOSITY terse
SELECT anon.weakest_stronger_requirement(0.2, 3, 14);
SELECT anon.weakest_stronger_requirement(0.5, 20, 14);
\set VERBOSITY default

-- SWEEP publishes generalized sensitive values where simple l-diversity has no eligible l (salary-class).
SELECT r->>'algorithm' AS algorithm, (r->>'classes')::int > 0 AS has_classes, r->>'rows' AS rows
FROM anon.anonymize('adult', :'QIS', '{salary-class}', 'tau-l-diversity', '{"tau": 0.5, "l": 2}', 'auto', 'sw_salary') r;
SELECT count(*) FROM sw_salary;
SELECT r->'satisfied' AS satisfied, r->'violating_classes' AS violating
FROM anon.verify('sw_salary', :'QIS', '{salary-class}', 'tau-l-diversity', '{"tau": 0.5, "l": 2}') r;
SELECT "salary-class", count(*) FROM sw_salary GROUP BY 1 ORDER BY 1;
-- Every published sensitive value covers the original one (joined on the row order of a kept key is not
-- available here: compare the multisets of leaves under each published value instead).
SELECT bool_and(anon.covers('salary-class', s."salary-class", '>50K') OR anon.covers('salary-class', s."salary-class", '<=50K'))
FROM (SELECT DISTINCT "salary-class" FROM sw_salary) s;

-- SWEEP on occupation (0.3, 5): verified; its report has excessive protection; the count-query workload is seeded.
SELECT r->>'algorithm' AS algorithm, (r->>'excessive_protection')::float8 >= 0 AS ep_reported
FROM anon.anonymize('adult', :'QIS', '{occupation}', 'tau-l-diversity', '{"tau": 0.3, "l": 5}', 'sweep', 'sw_occ') r;
SELECT r->'satisfied' FROM anon.verify('sw_occ', :'QIS', '{occupation}', 'tau-l-diversity', '{"tau": 0.3, "l": 5}') r;
SELECT (a->>'queries')::int AS queries, (a->>'dimensions')::int AS dims, a = b AS reproducible
FROM anon.count_query_error('sw_occ', 50, 3, 7) a, anon.count_query_error('sw_occ', 50, 3, 7) b;
-- equivalence_classes reports induced frequencies (Def. 7): a published general occupation spreads over the
-- leaves under it, so each class's frequencies sum to 1, the dominant one stays within tau, and classes where a
-- general value is the most frequent published value have a lower dominant induced frequency than max_share.
SELECT count(*) AS classes,
       bool_and(abs((SELECT sum((e->>'frequency')::float8) FROM jsonb_array_elements(induced_frequencies) e) - 1)
                < 1e-9) AS sums_to_one,
       bool_and((induced_frequencies->0->>'frequency')::float8 <= 0.3 + 1e-9) AS dominant_within_tau,
       count(*) FILTER (WHERE max_share > (induced_frequencies->0->>'frequency')::float8 + 1e-9) > 0 AS spread
FROM anon.equivalence_classes('sw_occ', :'QIS', '{occupation}');
-- Example 8's arithmetic on a hand-made class: Technical covers 4 leaves, so Tech-support gets (1 + 1/4) / 4.
CREATE TEMP TABLE published_jobs (g text, occupation text);
INSERT INTO published_jobs VALUES ('a', 'Technical'), ('a', 'Tech-support'), ('a', 'Sales'), ('a', 'Sales');
SELECT qi, size, max_share, jsonb_pretty(induced_frequencies)
FROM anon.equivalence_classes('published_jobs', '{g}', '{occupation}');
SELECT r->'satisfied' AS satisfied
FROM anon.verify('published_jobs', '{g}', '{occupation}', 'tau-l-diversity', '{"tau": 0.5, "l": 2}') r;
DROP TABLE published_jobs;
-- The workload is anchored on source tuples (every query counts some), and the QI generalization keeps
-- one-dimensional queries (on occupation) nearly exact but not many-dimensional ones.
SELECT (a->>'average_relative_error')::float8 < (b->>'average_relative_error')::float8 AS more_dims_more_error
FROM anon.count_query_error('sw_occ', 200, 1, 7) a, anon.count_query_error('sw_occ', 200, 5, 7) b;
-- Excessive protection of any release against a (tau, l) requirement: SWEEP's equals its report's.
SELECT abs(anon.excessive_protection('sw_occ', 0.3, 5) - (report->>'excessive_protection')::float8) < 1e-9 AS same_ep
FROM anon.release WHERE output_name = 'sw_occ';
\set VERBOSITY terse
SELECT anon.anonymize('adult', :'QIS', '{occupation}', 'tau-l-diversity', '{"tau": 0.1, "l": 5}', 'sweep');
SELECT anon.count_query_error('sw_occ', 0, 3, 7);
SELECT anon.count_query_error('sw_occ', 10, 99, 7);
\set VERBOSITY default

-- Releases of one source are composed with each other (docs/republication.md): sw_occ is dropped before the next
-- releases of the occupation are published.
SELECT anon.drop_release('sw_occ');

-- The 1-D baseline (Ghinita et al.) for distinct l-diversity.
SELECT r->>'algorithm' AS algorithm, r->>'classes' AS classes, r->>'min_class_size' AS min_size
FROM anon.anonymize('adult', :'QIS', '{occupation}', 'distinct-l-diversity', '{"l": 4, "keep_identifying": true, "keep": ["id"]}', 'onedim', 'od4') r;
SELECT r->'satisfied' FROM anon.verify('od4', :'QIS', '{occupation}', 'distinct-l-diversity', '{"l": 4}') r;
-- e(P) of a release of another model against (0.3, 4) equals Def. 35 computed in SQL from the view: per class the
-- cumulative frequencies F(k) of its occupations in descending order (1 beyond its distinct values), the sum over
-- k = 1..14 of |psi(k) - F(k)|, the minimum over classes. tau outside [1/l, 1) and l > m are refused.
WITH f AS (SELECT gid, count(*)::float8 / sum(count(*)) OVER (PARTITION BY gid) AS f FROM od4 GROUP BY gid, occupation),
ranked AS (SELECT gid, row_number() OVER w AS k, sum(f) OVER w AS cf FROM f
           WINDOW w AS (PARTITION BY gid ORDER BY f DESC ROWS UNBOUNDED PRECEDING)),
grid AS (SELECT g.gid, s.k, max(r.cf) OVER (PARTITION BY g.gid ORDER BY s.k) AS cf
         FROM (SELECT DISTINCT gid FROM od4) g CROSS JOIN generate_series(1, 14) s(k)
         LEFT JOIN ranked r ON r.gid = g.gid AND r.k = s.k)
SELECT abs(anon.excessive_protection('od4', 0.3, 4) - min(e)) < 1e-9 AS ep_as_in_sql, min(e) > 0 AS positive
FROM (SELECT gid, sum(abs(least(1.0, 0.3 + 0.7 * (k - 1) / 3.0) - cf)) AS e FROM grid GROUP BY gid) x;
\set VERBOSITY terse
SELECT anon.excessive_protection('od4', 0.2, 4);
SELECT anon.excessive_protection('od4', 0.5, 15);
\set VERBOSITY default
WITH p AS MATERIALIZED (
    SELECT o.education AS g_edu, a.education AS v_edu, o.workclass AS g_wc, a.workclass AS v_wc, count(*) AS n
    FROM od4 o JOIN adult a USING (id) GROUP BY 1, 2, 3, 4)
SELECT coalesce(sum(n), 0) AS uncovered FROM p
WHERE NOT anon.covers('education', g_edu, v_edu) OR NOT anon.covers('workclass', g_wc, v_wc);

-- t-closeness with Incognito, equal and hierarchical distances.
SELECT r->>'classes' AS classes, r->'levels' AS levels
FROM anon.anonymize('adult', :'QIS', '{occupation}', 't-closeness', '{"t": 0.15}', 'incognito', 'tc') r;
SELECT r->'satisfied' FROM anon.verify('tc', :'QIS', '{occupation}', 't-closeness', '{"t": 0.15}') r;
SELECT r->>'classes' AS classes
FROM anon.anonymize('adult', :'QIS', '{occupation}', 't-closeness', '{"t": 0.15, "distance": "hierarchical"}', 'incognito') r;

-- m-confidentiality with MASK (k-anonymous step by Mondrian): the report says what was distorted, the release is
-- k-anonymous and m-confidential for the sensitive set, and the minimality audit, which knows MASK generalized for
-- k-anonymity, finds no class above 1/m.
SELECT r->>'algorithm' AS algorithm, r->>'violating_classes' AS v, r->>'donor_classes' AS l_classes,
       r->>'distorted' AS distorted
FROM anon.anonymize('adult', :'QIS6', '{education}', 'm-confidentiality',
                    json_build_object('k', 5, 'm', 3, 'sensitive_values', :'LOW'::text[], 'k_algorithm', 'mondrian',
                                      'keep', ARRAY['id'], 'keep_identifying', true)::jsonb, 'auto', 'mk3') r;
SELECT r->'satisfied' FROM anon.verify('mk3', :'QIS6', '{education}', 'k-anonymity', '{"k": 5}') r;
SELECT r->'satisfied' FROM anon.verify('mk3', :'QIS6', '{education}', 'm-confidentiality',
                                       json_build_object('m', 3, 'sensitive_values', :'LOW'::text[])::jsonb) r;
SELECT count(*) > 0 AS audited, bool_and(credibility BETWEEN 0 AND 1) AS credible,
       bool_and(violates = (credibility * 3 > 1 + 1e-9)) AS violates_means_above_1_over_m,
       count(*) FILTER (WHERE violates) AS violating
FROM anon.audit_minimality('mk3', :'LOW', 3);

SELECT anon.drop_release('mk3');

-- The audit of a full-domain release and of the same table as published by "another tool".
SELECT r->'levels' FROM anon.anonymize('adult', :'QIS6', '{education}', 'distinct-l-diversity',
                                       '{"l": 3, "keep_identifying": true, "keep": ["id"]}', 'incognito', 'inc_edu') r;
SELECT count(*) AS classes, sum(class_size) AS tuples, count(*) FILTER (WHERE violates) AS violating
FROM anon.audit_minimality('inc_edu', :'LOW', 3);
SELECT count(*) AS classes, sum(class_size) AS tuples, count(*) FILTER (WHERE violates) AS violating
FROM anon.audit_minimality_table('adult', 'inc_edu', 'id', :'QIS6', 'education', :'LOW', 3);
\set VERBOSITY terse
SELECT * FROM anon.audit_minimality('inc_edu', '{Kindergarten}', 3);
SELECT * FROM anon.audit_minimality('inc_edu', :'LOW', 1);
SELECT * FROM anon.audit_minimality('inc_edu', :'LOW', 3, 1);
SELECT anon.anonymize('adult', :'QIS6', '{education}', 'm-confidentiality', '{"k": 5, "m": 3}', 'mask');
\set VERBOSITY default

SELECT anon.drop_release(r) FROM unnest('{sw_salary,od4,tc,inc_edu}'::text[]) r;
