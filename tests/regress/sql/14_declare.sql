-- Declared columns (anon.declare, docs/declarations.md): calls that pass NULL for quasi_identifiers or sensitive
-- take them, with the declared taxonomies and kept columns, from the source's declaration; renames are followed,
-- dropped columns are clear errors, the declaration goes with its table.
\set VERBOSITY terse

CREATE TABLE decl_people AS
SELECT id, sex AS gender, age, race, education, workclass AS job, occupation, "salary-class" AS salary
FROM adult WHERE id <= 3000;

-- A column named unlike its taxonomy maps to it in `taxonomies`.
SELECT anon.declare('decl_people', '{gender,age,race}', '{occupation}', '{salary}',
                    '{"gender": "sex", "occupation": "occupation"}');
SELECT source, quasi_identifiers, sensitive, keep, taxonomies, attnums, created_by = current_user AS mine
FROM anon.declarations;

-- Calls with NULL columns name what they took from the declaration.
SELECT v - 'relation' AS verify FROM anon.verify('decl_people', NULL, NULL, 'k-anonymity', '{"k": 2}') v;
SELECT v->'declared' AS declared FROM anon.verify('decl_people', '{gender}', NULL, 'k-anonymity', '{"k": 2}') v;
SELECT count(*) AS classes, sum(size) AS rows
FROM anon.equivalence_classes('decl_people', NULL, NULL);
SELECT r->'n' AS n FROM anon.eligible_range('decl_people', NULL) r;
SELECT r->'declared' AS declared, r->'levels' AS levels, r->>'classes' AS classes
FROM anon.anonymize('decl_people', NULL, NULL, 'distinct-l-diversity', '{"l": 2}', 'incognito') r;

-- A release stores what the call used (columns, taxonomies, kept columns), so its refreshes do not depend on the
-- declaration. (The declared salary leaves two rows alone in their class: acknowledged, issue 40.)
SELECT r->'declared' AS declared
FROM anon.anonymize('decl_people', NULL, NULL, 'k-anonymity', '{"k": 5, "keep_identifying": true}', 'incognito',
                    'decl_release') r;
SELECT quasi_identifiers, sensitive, params FROM anon.releases WHERE output_name = 'decl_release';
SELECT count(*) AS rows, count(DISTINCT salary) AS salaries FROM decl_release;
SELECT (anon.refresh('decl_release'))->>'classes' AS classes;
SELECT anon.drop_release('decl_release');

-- Declaring again replaces the declaration.
SELECT anon.declare('decl_people', '{gender,age}', '{occupation,salary}', taxonomies => '{"gender": "sex"}');
SELECT quasi_identifiers, sensitive, keep, taxonomies FROM anon.declarations;

-- Errors of anon.declare: unknown columns, a column in two roles, taxonomies that name no declared column or no
-- taxonomy, NULLs.
SELECT anon.declare('decl_people', '{gender,nope}', '{occupation}');
SELECT anon.declare('decl_people', '{gender}', '{gender}');
SELECT anon.declare('decl_people', '{gender}', '{occupation}', '{gender}');
SELECT anon.declare('decl_people', '{gender}', '{occupation}', '{}', '{"job": "workclass"}');
SELECT anon.declare('decl_people', '{gender}', '{occupation}', '{}', '{"gender": "no_such_taxonomy"}');
SELECT anon.declare('decl_people', '{gender}', '{occupation}', '{}', '{"gender": 3}');
SELECT anon.declare('decl_people', '{gender}', '{occupation}', '{}', '[]');
SELECT anon.declare('decl_people', NULL, '{occupation}');
SELECT anon.declare('decl_people', '{}', '{occupation}');
SELECT anon.declare('decl_people', '{gender,NULL}', '{occupation}');
SELECT anon.declare(NULL, '{gender}', '{occupation}');

-- A table without a declaration: NULL columns are refused, naming the argument.
CREATE TABLE decl_other AS SELECT * FROM decl_people;
SELECT anon.verify('decl_other', NULL, '{occupation}', 'k-anonymity', '{"k": 2}');
SELECT anon.verify('decl_other', '{gender}', NULL, 'k-anonymity', '{"k": 2}');
SELECT anon.anonymize('decl_other', NULL, NULL, 'k-anonymity', '{"k": 2}');

-- Renames are followed (column lists and taxonomies keys).
ALTER TABLE decl_people RENAME COLUMN gender TO sex_at_birth;
ALTER TABLE decl_people RENAME COLUMN salary TO income_class;
SELECT quasi_identifiers, sensitive, taxonomies, attnums FROM anon.declarations;
SELECT v->'declared' AS declared, v->>'classes' AS classes
FROM anon.verify('decl_people', NULL, NULL, 'k-anonymity', '{"k": 2}') v;

-- A dropped declared column is a clear error naming it.
ALTER TABLE decl_people DROP COLUMN age;
SELECT anon.verify('decl_people', NULL, NULL, 'k-anonymity', '{"k": 2}');
SELECT anon.verify('decl_people', '{sex_at_birth}', NULL, 'k-anonymity', '{"k": 2}') - 'relation' - 'declared';

-- Other roles do not see the declaration (row-level security per owner).
CREATE ROLE decl_stranger;
GRANT SELECT ON decl_people TO decl_stranger;
SET ROLE decl_stranger;
SELECT count(*) AS visible FROM anon.declarations;
SELECT anon.verify('decl_people', NULL, NULL, 'k-anonymity', '{"k": 2}');
RESET ROLE;

-- The declaration goes with its table.
DROP TABLE decl_people;
SELECT count(*) AS declarations FROM anon.declarations;
DROP TABLE decl_other;
DROP ROLE decl_stranger;
