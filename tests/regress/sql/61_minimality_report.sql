-- The report's statement on the minimality attack (docs/security.md, "The minimality attack"): every release says
-- whether an adversary who knows the algorithm and its minimality learns more of the sensitive values than the
-- published classes show. The issue's example (z0 holds HIV twice; z1 flu, cold, acne and gout), published by
-- incognito for simple and distinct 2-diversity as one class: the attack applies through HIV (z0 with credibility
-- 1), as anon.audit_minimality finds, and anon.refresh states it again; releases it does not apply to; releases it
-- does not audit, with the reason.

CREATE TABLE mr_visits (id int PRIMARY KEY, zip text, disease text);
INSERT INTO mr_visits VALUES
    (1, 'z0', 'HIV'), (2, 'z0', 'HIV'),
    (3, 'z1', 'flu'), (4, 'z1', 'cold'), (5, 'z1', 'acne'), (6, 'z1', 'gout');
CREATE TABLE mr_zip_levels (zip text, root text);
INSERT INTO mr_zip_levels VALUES ('z0', '*'), ('z1', '*');
CREATE TABLE mr_disease_levels (disease text, root text);
INSERT INTO mr_disease_levels VALUES ('HIV', '*'), ('flu', '*'), ('cold', '*'), ('acne', '*'), ('gout', '*');
SELECT * FROM anon.taxonomy_from_levels('mr_zip', 'mr_zip_levels');
SELECT * FROM anon.taxonomy_from_levels('mr_disease', 'mr_disease_levels');

-- z0 alone is not 2-diverse: incognito publishes one class of six rows (HIV a third of it), which satisfies simple
-- and distinct 2-diversity. An adversary who knows z0 has two rows and z1 four excludes every placement of the two
-- HIV rows under which both zips would have been 2-diverse: only both in z0 remains. The report says so, and warns.
SELECT r->>'model' AS model, r->>'classes' AS classes, jsonb_pretty(r->'minimality') AS minimality,
       jsonb_pretty(r->'warnings') AS warnings
FROM anon.anonymize('mr_visits', '{zip}', '{disease}', 'simple-l-diversity',
                    '{"l": 2, "taxonomies": {"zip": "mr_zip", "disease": "mr_disease"}}', 'incognito', 'mr_simple') r;
SELECT r->>'model' AS model, r->>'classes' AS classes, r->'minimality' AS minimality
FROM anon.anonymize('mr_visits', '{zip}', '{disease}', 'distinct-l-diversity',
                    '{"l": 2, "taxonomies": {"zip": "mr_zip", "disease": "mr_disease"}}', 'incognito', 'mr_distinct') r;

-- anon.audit_minimality agrees: z0 is linked to HIV with credibility 1, no other value links any zip above 1/2, and
-- the report's classes, rows and highest credibility are the audit's.
SELECT qi, class_size, credibility, violates FROM anon.audit_minimality('mr_simple', '{HIV}', 2) ORDER BY qi;
SELECT v AS value, count(*) FILTER (WHERE violates) AS violating
FROM unnest('{flu,cold,acne,gout}'::text[]) v, anon.audit_minimality('mr_distinct', ARRAY[v], 2) GROUP BY v ORDER BY v;
SELECT r.output_name,
       (r.report->'minimality'->>'classes')::int = count(*) FILTER (WHERE a.violates) AS same_classes,
       (r.report->'minimality'->>'rows')::int = sum(a.class_size) FILTER (WHERE a.violates) AS same_rows,
       (r.report->'minimality'->>'max_credibility')::float8 = max(a.credibility) AS same_credibility
FROM anon.release r, anon.audit_minimality(r.output_name, '{HIV}', 2) a
WHERE r.output_name IN ('mr_simple', 'mr_distinct') GROUP BY r.output_name, r.report ORDER BY 1;

-- The stored report of anon.refresh states it again; once z0 holds four rows of three diseases it is 2-diverse on
-- its own and the attack no longer applies. The refresh keeps the published node, which still satisfies the model
-- (docs/republication.md, "The shape holds"): one class, every zip generalized.
SELECT r->'minimality'->'applies' AS applies, r->'minimality'->'values' AS "values" FROM anon.refresh('mr_simple') r;
INSERT INTO mr_visits VALUES (7, 'z0', 'flu'), (8, 'z0', 'cold');
SELECT r->>'classes' AS classes, r->'minimality' AS minimality, r->'warnings' AS warnings
FROM anon.refresh('mr_simple') r;
SELECT report->'minimality' AS stored FROM anon.release WHERE output_name = 'mr_simple';
DELETE FROM mr_visits WHERE id > 6;

-- With k = 3 as well, z0 could never have been published alone: its two rows exclude no placement, so the
-- generalized release does not invite the attack (audit_minimality reads the release's k too: z0 gets HIV's share).
SELECT r->>'classes' AS classes, r->'minimality' AS minimality, r->'warnings' AS warnings
FROM anon.anonymize('mr_visits', '{zip}', '{disease}', 'simple-l-diversity',
                    '{"l": 2, "k": 3, "taxonomies": {"zip": "mr_zip", "disease": "mr_disease"}}', 'incognito',
                    'mr_k3') r;
SELECT qi, class_size, round(credibility::numeric, 4) AS credibility, violates
FROM anon.audit_minimality('mr_k3', '{HIV}', 2) ORDER BY qi;

-- m-confidentiality's class check searched by incognito is audited for its set with l = m; MASK's release, whose
-- generalization comes from the QI values alone, is not, nor k-anonymity's, a release that is not full-domain
-- (Mondrian), or a model that bounds no value's share (t-closeness).
SELECT r->'minimality' AS minimality
FROM anon.anonymize('mr_visits', '{zip}', '{disease}', 'm-confidentiality',
                    '{"m": 2, "sensitive_values": ["HIV"], "taxonomies": {"zip": "mr_zip", "disease": "mr_disease"}}',
                    'incognito') r;
SELECT r->>'algorithm' AS algorithm, r->'minimality' AS minimality
FROM anon.anonymize('mr_visits', '{zip}', '{disease}', 'm-confidentiality',
                    '{"k": 2, "m": 2, "sensitive_values": ["HIV"], "taxonomies": {"zip": "mr_zip", "disease": "mr_disease"}}',
                    'mask') r;
SELECT r->>'model' AS model, r->>'algorithm' AS algorithm, r->'minimality'->>'audited' AS audited,
       r->'minimality'->>'reason' AS reason
FROM (VALUES ('k-anonymity', '{"k": 3}', 'incognito'), ('distinct-l-diversity', '{"l": 2}', 'mondrian'),
             ('t-closeness', '{"t": 0.5}', 'incognito')) c(model, p, algorithm),
     anon.anonymize('mr_visits', '{zip}', '{disease}', c.model,
                    c.p::jsonb || '{"taxonomies": {"zip": "mr_zip", "disease": "mr_disease"}}', c.algorithm) r;

SELECT anon.drop_release(r) FROM unnest('{mr_simple,mr_distinct,mr_k3}'::text[]) r;
SELECT anon.drop_taxonomy('mr_zip'), anon.drop_taxonomy('mr_disease');
DROP TABLE mr_visits, mr_zip_levels, mr_disease_levels;
