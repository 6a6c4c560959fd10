-- Loads the Adult data set (data/adult) and its generalization hierarchies, and builds one taxonomy per
-- hierarchy, named after its column. pg_regress runs psql in the repository root, so the \copy paths are
-- relative to it. Later tests (30_adult) use these tables and taxonomies.
\set VERBOSITY terse

CREATE TABLE public.adult (
    id               serial PRIMARY KEY,
    sex              text,
    age              int,
    race             text,
    "marital-status" text,
    education        text,
    "native-country" text,
    workclass        text,
    occupation       text,
    "salary-class"   text
);
\copy public.adult (sex, age, race, "marital-status", education, "native-country", workclass, occupation, "salary-class") FROM 'data/adult/adult.csv' WITH (FORMAT csv, DELIMITER ';', HEADER true)

SELECT count(*) AS rows, count(DISTINCT id) AS ids, min(id), max(id), min(age), max(age),
       count(*) FILTER (WHERE sex IS NULL OR age IS NULL OR race IS NULL OR "marital-status" IS NULL OR
                              education IS NULL OR "native-country" IS NULL OR workclass IS NULL OR
                              occupation IS NULL OR "salary-class" IS NULL) AS rows_with_null
FROM public.adult;

-- The CRLF line ends of adult.csv must not leak into the last column.
SELECT "salary-class", count(*) FROM public.adult GROUP BY 1 ORDER BY 1;
SELECT count(DISTINCT sex) AS sex, count(DISTINCT race) AS race, count(DISTINCT "marital-status") AS marital,
       count(DISTINCT education) AS education, count(DISTINCT "native-country") AS country,
       count(DISTINCT workclass) AS workclass, count(DISTINCT occupation) AS occupation
FROM public.adult;
SELECT * FROM public.adult ORDER BY id LIMIT 3;

-- Hierarchy tables: column 0 is the leaf, the last column the root.
CREATE TABLE public.adult_hierarchy_age (c0 text, c1 text, c2 text, c3 text, c4 text);
CREATE TABLE public.adult_hierarchy_education (c0 text, c1 text, c2 text, c3 text);
CREATE TABLE public.adult_hierarchy_marital_status (c0 text, c1 text, c2 text);
CREATE TABLE public.adult_hierarchy_native_country (c0 text, c1 text, c2 text);
CREATE TABLE public.adult_hierarchy_occupation (c0 text, c1 text, c2 text);
CREATE TABLE public.adult_hierarchy_race (c0 text, c1 text);
CREATE TABLE public.adult_hierarchy_salary_class (c0 text, c1 text);
CREATE TABLE public.adult_hierarchy_sex (c0 text, c1 text);
CREATE TABLE public.adult_hierarchy_workclass (c0 text, c1 text, c2 text);
\copy public.adult_hierarchy_age FROM 'data/adult/adult_hierarchy_age.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_education FROM 'data/adult/adult_hierarchy_education.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_marital_status FROM 'data/adult/adult_hierarchy_marital-status.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_native_country FROM 'data/adult/adult_hierarchy_native-country.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_occupation FROM 'data/adult/adult_hierarchy_occupation.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_race FROM 'data/adult/adult_hierarchy_race.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_salary_class FROM 'data/adult/adult_hierarchy_salary-class.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_sex FROM 'data/adult/adult_hierarchy_sex.csv' WITH (FORMAT csv, DELIMITER ';')
\copy public.adult_hierarchy_workclass FROM 'data/adult/adult_hierarchy_workclass.csv' WITH (FORMAT csv, DELIMITER ';')

SELECT 'age' AS hierarchy, count(*) AS rows FROM public.adult_hierarchy_age
UNION ALL SELECT 'education', count(*) FROM public.adult_hierarchy_education
UNION ALL SELECT 'marital-status', count(*) FROM public.adult_hierarchy_marital_status
UNION ALL SELECT 'native-country', count(*) FROM public.adult_hierarchy_native_country
UNION ALL SELECT 'occupation', count(*) FROM public.adult_hierarchy_occupation
UNION ALL SELECT 'race', count(*) FROM public.adult_hierarchy_race
UNION ALL SELECT 'salary-class', count(*) FROM public.adult_hierarchy_salary_class
UNION ALL SELECT 'sex', count(*) FROM public.adult_hierarchy_sex
UNION ALL SELECT 'workclass', count(*) FROM public.adult_hierarchy_workclass
ORDER BY hierarchy;

-- One taxonomy per hierarchy; the summary is deterministic (name, kind, nodes, leaves, height).
SELECT anon.taxonomy_from_levels('age', 'public.adult_hierarchy_age');
SELECT anon.taxonomy_from_levels('education', 'public.adult_hierarchy_education');
SELECT anon.taxonomy_from_levels('marital-status', 'public.adult_hierarchy_marital_status');
SELECT anon.taxonomy_from_levels('native-country', 'public.adult_hierarchy_native_country');
SELECT anon.taxonomy_from_levels('occupation', 'public.adult_hierarchy_occupation');
SELECT anon.taxonomy_from_levels('race', 'public.adult_hierarchy_race');
SELECT anon.taxonomy_from_levels('salary-class', 'public.adult_hierarchy_salary_class');
SELECT anon.taxonomy_from_levels('sex', 'public.adult_hierarchy_sex');
SELECT anon.taxonomy_from_levels('workclass', 'public.adult_hierarchy_workclass');

-- The catalog: one tree per column, each with one root '*'.
SELECT t.name, t.kind, count(n.*) AS nodes, count(*) FILTER (WHERE n.parent IS NULL) AS roots,
       string_agg(n.value, ',') FILTER (WHERE n.parent IS NULL) AS root
FROM anon.taxonomy t JOIN anon.taxonomy_node n ON n.taxonomy = t.name
GROUP BY t.name, t.kind ORDER BY t.name;

-- Every value of every column of the data is a node of its taxonomy.
SELECT c.col, count(*) AS missing
FROM (SELECT 'age' AS col, age::text AS v FROM public.adult
      UNION ALL SELECT 'education', education FROM public.adult
      UNION ALL SELECT 'marital-status', "marital-status" FROM public.adult
      UNION ALL SELECT 'native-country', "native-country" FROM public.adult
      UNION ALL SELECT 'occupation', occupation FROM public.adult
      UNION ALL SELECT 'race', race FROM public.adult
      UNION ALL SELECT 'salary-class', "salary-class" FROM public.adult
      UNION ALL SELECT 'sex', sex FROM public.adult
      UNION ALL SELECT 'workclass', workclass FROM public.adult) c
WHERE NOT EXISTS (SELECT 1 FROM anon.taxonomy_node n WHERE n.taxonomy = c.col AND n.value = c.v)
GROUP BY c.col ORDER BY c.col;

-- A few paths to the root.
SELECT n.taxonomy, n.value, n.parent FROM anon.taxonomy_node n
WHERE (n.taxonomy, n.value) IN (('age', '39'), ('age', '35-39'), ('age', '30-39'), ('age', '20-39'),
                                ('education', 'Bachelors'), ('education', 'Undergraduate'),
                                ('education', 'Higher education'), ('marital-status', 'Never-married'))
ORDER BY n.taxonomy, n.value;
