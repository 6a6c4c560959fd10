// The generator of Adult-shaped tables; see bench_generate.hpp.
#include "bench_generate.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "bench_common.hpp"

namespace bench {

namespace {

// The generator of issue 43's table, shared with tests/scripts/memory_bound_test.sh (relative to the repository's
// root, where scripts/bench.sh runs the benchmark).
const char* const kPatientsSql = "tests/bench/make_patients.sql";

// Replaces every occurrence of `from` in `text` by `to`.
void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

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
    std::ifstream file(kPatientsSql);
    if (!file) {
        std::fprintf(stderr, "bench: cannot read %s (run the benchmark from the repository's root)\n", kPatientsSql);
        std::exit(1);
    }
    // The file's psql variables replaced, comment lines left out, each statement sent on its own (VACUUM cannot
    // run in a multi-statement string).
    std::string statement;
    for (std::string line; std::getline(file, line);) {
        if (line.rfind("--", 0) == 0) continue;
        replace_all(line, ":'name'", "'" + name + "'");
        replace_all(line, ":name", name);
        replace_all(line, ":rows", std::to_string(rows));
        statement += line + "\n";
        if (!line.empty() && line.back() == ';') {
            run(conn, statement);
            statement.clear();
        }
    }
}

long distinct_combinations(PGconn* conn, const std::string& table) {
    return std::atol(run(conn, "SELECT count(*) FROM (SELECT 1 FROM " + table +
                                   " GROUP BY sex, age, race, "
                                   "\"marital-status\", education, \"native-country\", workclass, occupation) g")[0]
                         .c_str());
}

}  // namespace bench
