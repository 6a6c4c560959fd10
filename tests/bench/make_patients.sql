-- tests/bench/make_patients.sql: issue 43's table of hospital stays, for the benchmark section `patients`
-- (tests/bench/bench_patients.cpp) and the memory-bound test (tests/scripts/memory_bound_test.sh).
-- psql variables: name (the table; its taxonomies are name_zip and name_sex) and rows. One statement a line group,
-- each ending with ';' at the end of a line (the benchmark sends them one by one).
-- Quasi-identifiers with thousands to a million leaves: zip (5-digit text, 3,000 zips, 5 prefixes hold half the
-- rows), birth_date, sex (F/M/X, 0.5% NULL), admitted (timestamps unique to the microsecond over 4 years),
-- weight_kg; diagnosis_code: 300 ICD-10-like codes, Zipf-skewed; insurer: 8 values.
SELECT setseed(0.43);
DROP TABLE IF EXISTS :name;
CREATE UNLOGGED TABLE :name AS
SELECT i AS patient_id, 'patient ' || i AS name,
       CASE WHEN random() < 0.5 THEN lpad((100 + floor(random() * 5) * 20)::int::text, 3, '0')
            ELSE lpad((100 + floor(random() * 100))::int::text, 3, '0') END
           || lpad(floor(random() * 30)::int::text, 2, '0') AS zip,
       date '1930-01-01' + floor(random() * 32872)::int AS birth_date,
       (CASE WHEN r_sex < 0.005 THEN NULL WHEN r_sex < 0.01 THEN 'X' WHEN r_sex < 0.505 THEN 'F' ELSE 'M' END) AS sex,
       timestamptz '2021-01-01 00:00:00+00'
           + (i * 126.0 + floor(random() * 125000000) / 1000000.0) * interval '1 s' AS admitted,
       1 + floor(-ln(1 - random()) * 4)::int AS length_of_stay,
       round((40 + random() * 55 + random() * 55)::numeric, 1)::numeric(5, 1) AS weight_kg,
       chr(65 + (rank % 26)) || lpad((rank / 26)::text, 2, '0') || '.' || (rank % 7) AS diagnosis_code,
       (ARRAY['Aetna', 'Allianz', 'AXA', 'Cigna', 'Humana', 'Kaiser', 'Medicare', 'Medicaid'])[1 + i % 8] AS insurer,
       round((500 + random() * 50000)::numeric, 2) AS total_charge
FROM (SELECT i, random() AS r_sex, floor(exp(random() * ln(300.999)))::int - 1 AS rank
      FROM generate_series(1, :rows) i) g;
ALTER TABLE :name ADD PRIMARY KEY (patient_id);
VACUUM ANALYZE :name;
SELECT anon.prefix_taxonomy(:'name' || '_zip', :'name', 'zip', replace => true);
CREATE TEMP TABLE patients_sex_levels (leaf text, root text);
INSERT INTO patients_sex_levels VALUES ('F', '*'), ('M', '*'), ('X', '*');
SELECT anon.taxonomy_from_levels(:'name' || '_sex', 'patients_sex_levels', replace => true);
DROP TABLE patients_sex_levels;
