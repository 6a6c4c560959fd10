// The generator of Adult-shaped tables; see bench_generate.hpp.
#include "bench_generate.hpp"

#include <cstdlib>

#include "bench_common.hpp"

namespace bench {

namespace {

// The columns perturbed to a sibling leaf of their taxonomy (the taxonomy is named like the column).
const char* const kSiblingColumns[] = {"marital-status", "education", "native-country", "workclass"};

// SQL for the leaves of taxonomy `taxonomy` under the same parent as `value_expr`, as an array.
std::string siblings_sql(const std::string& taxonomy, const std::string& value_expr) {
    return "ARRAY(SELECT s.value FROM anon.taxonomy_node me JOIN anon.taxonomy_node s ON s.taxonomy = me.taxonomy "
           "AND s.parent = me.parent WHERE me.taxonomy = '" +
           taxonomy + "' AND me.value = " + value_expr +
           " AND NOT EXISTS (SELECT 1 FROM anon.taxonomy_node c WHERE c.taxonomy = s.taxonomy AND c.parent = s.value)"
           " ORDER BY s.value)";
}

}  // namespace

void make_adult_like(PGconn* conn, const std::string& name, long rows, int seed) {
    // Adult's rows numbered 1..n, each with its alternatives: the ages within two years that the age taxonomy
    // holds, and each perturbed column's sibling leaves.
    std::string base =
        "CREATE TEMP TABLE gen_base AS SELECT row_number() OVER (ORDER BY a.id)::int AS n, a.sex, "
        "a.race, a.occupation, ARRAY(SELECT v FROM generate_series(a.age - 2, a.age + 2) v WHERE "
        "EXISTS (SELECT 1 FROM anon.taxonomy_node t WHERE t.taxonomy = 'age' AND t.value = v::text) "
        "ORDER BY v) AS ages";
    for (const char* c : kSiblingColumns)
        base += std::string(", a.\"") + c + "\", " + siblings_sql(c, std::string("a.\"") + c + "\"") + " AS \"" + c +
                "_alt\"";
    base += " FROM adult a";
    std::string pick = "SELECT b.sex, b.ages[1 + floor(random() * cardinality(b.ages))::int] AS age, b.race";
    for (const char* c : kSiblingColumns) {
        const std::string col = std::string("b.\"") + c + "\"", alt = std::string("b.\"") + c + "_alt\"";
        pick += ", CASE WHEN random() < 0.05 THEN " + alt + "[1 + floor(random() * cardinality(" + alt +
                "))::int] ELSE " + col + " END AS \"" + c + "\"";
    }
    pick +=
        ", b.occupation FROM (SELECT 1 + floor(random() * (SELECT count(*) FROM gen_base))::int AS pick FROM "
        "generate_series(1, " +
        std::to_string(rows) + ")) p JOIN gen_base b ON b.n = p.pick";

    run(conn, "DROP TABLE IF EXISTS gen_base");
    run(conn, "DROP TABLE IF EXISTS " + name);
    run(conn, base);
    run(conn, "SELECT setseed(" + std::to_string(static_cast<double>(seed % 1000) / 1000.0) + ")");
    run(conn, "CREATE UNLOGGED TABLE " + name + " AS " + pick);
    run(conn, "DROP TABLE gen_base");
    run(conn, "VACUUM ANALYZE " + name);
}

void make_patients(PGconn* conn, const std::string& name, long rows) {
    run(conn, "SELECT setseed(0.43)");
    run(conn, "DROP TABLE IF EXISTS " + name);
    run(conn,
        "CREATE UNLOGGED TABLE " + name +
            " AS SELECT i AS patient_id, 'patient ' || i AS name, "
            "CASE WHEN random() < 0.5 THEN lpad((100 + floor(random() * 5) * 20)::int::text, 3, '0') "
            "ELSE lpad((100 + floor(random() * 100))::int::text, 3, '0') END "
            "|| lpad(floor(random() * 30)::int::text, 2, '0') AS zip, "
            "date '1930-01-01' + floor(random() * 32872)::int AS birth_date, "
            "(CASE WHEN r_sex < 0.005 THEN NULL WHEN r_sex < 0.01 THEN 'X' WHEN r_sex < 0.505 THEN 'F' ELSE 'M' END) "
            "AS sex, "
            "timestamptz '2021-01-01 00:00:00+00' + (i * 126.0 + floor(random() * 125000000) / 1000000.0) * "
            "interval '1 s' AS admitted, "
            "1 + floor(-ln(1 - random()) * 4)::int AS length_of_stay, "
            "round((40 + random() * 55 + random() * 55)::numeric, 1)::numeric(5, 1) AS weight_kg, "
            "chr(65 + (rank % 26)) || lpad((rank / 26)::text, 2, '0') || '.' || (rank % 7) AS diagnosis_code, "
            "(ARRAY['Aetna', 'Allianz', 'AXA', 'Cigna', 'Humana', 'Kaiser', 'Medicare', 'Medicaid'])[1 + i % 8] "
            "AS insurer, round((500 + random() * 50000)::numeric, 2) AS total_charge "
            "FROM (SELECT i, random() AS r_sex, floor(exp(random() * ln(300.999)))::int - 1 AS rank "
            "FROM generate_series(1, " +
            std::to_string(rows) + ") i) g");
    run(conn, "ALTER TABLE " + name + " ADD PRIMARY KEY (patient_id)");
    run(conn, "VACUUM ANALYZE " + name);
    run(conn, "SELECT anon.prefix_taxonomy('" + name + "_zip', '" + name + "', 'zip', replace => true)");
    run(conn, "DROP TABLE IF EXISTS " + name + "_sex_levels");
    run(conn, "CREATE TABLE " + name + "_sex_levels (leaf text, root text)");
    run(conn, "INSERT INTO " + name + "_sex_levels VALUES ('F', '*'), ('M', '*'), ('X', '*')");
    run(conn, "SELECT anon.taxonomy_from_levels('" + name + "_sex', '" + name + "_sex_levels', replace => true)");
    run(conn, "DROP TABLE " + name + "_sex_levels");
}

long distinct_combinations(PGconn* conn, const std::string& table) {
    return std::atol(run(conn, "SELECT count(*) FROM (SELECT 1 FROM " + table +
                                   " GROUP BY sex, age, race, "
                                   "\"marital-status\", education, \"native-country\", workclass, occupation) g")[0]
                         .c_str());
}

}  // namespace bench
