#include "report_reader.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "pq_query.hpp"

namespace anon_tools {

namespace {

using Rows = std::vector<std::vector<std::string>>;

// The rows of a query as text (NULL as ""), or nullopt with the server's message in *why.
std::optional<Rows> fetch(PGconn* conn, const std::string& sql, const std::vector<std::string>& params,
                          std::string* why) {
    std::vector<const char*> values;
    for (const std::string& p : params) values.push_back(p.c_str());
    SqlError error;
    Result res = run(conn, sql.c_str(), values, &error);
    if (!res) {
        *why = error.message;
        return std::nullopt;
    }
    Rows rows(PQntuples(res.get()));
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (int c = 0; c < PQnfields(res.get()); ++c) rows[r].push_back(PQgetvalue(res.get(), static_cast<int>(r), c));
    return rows;
}

// The release as the page names it and the queries find it.
struct ReleaseName {
    std::string schema, name, qualified;
    bool visible = false;  // the caller sees its catalog row (anon.releases)
    std::string owner;     // the role that made it
};

// The release `text` names: schema-qualified, or the first schema of the search path holding a release (a catalog row
// the caller sees, or another role's release whose relation exists: anon._release_owner) of that name.
std::optional<ReleaseName> resolve(PGconn* conn, const std::string& text, std::string* error) {
    std::string why;
    const auto rows = fetch(
        conn,
        "SELECT s.nsp, c.name, pg_catalog.format('%I.%I', s.nsp, c.name), EXISTS (SELECT FROM anon.releases r WHERE "
        "r.output_schema = s.nsp AND r.output_name = c.name), coalesce((SELECT r.created_by FROM anon.releases r "
        "WHERE r.output_schema = s.nsp AND r.output_name = c.name), anon._release_owner(s.nsp, c.name)) "
        "FROM (SELECT CASE WHEN pg_catalog.cardinality(p) = 2 THEN ARRAY[p[1]] "
        "ELSE pg_catalog.current_schemas(true)::pg_catalog.text[] END AS schemas, p[pg_catalog.cardinality(p)] AS "
        "name FROM pg_catalog.parse_ident($1) p WHERE pg_catalog.cardinality(p) <= 2) c, "
        "pg_catalog.unnest(c.schemas) WITH ORDINALITY s(nsp, o) "
        "WHERE EXISTS (SELECT FROM anon.releases r WHERE r.output_schema = s.nsp AND r.output_name = c.name) "
        "OR anon._release_owner(s.nsp, c.name) IS NOT NULL ORDER BY s.o LIMIT 1",
        {text}, &why);
    if (!rows) {
        *error = "invalid release name \"" + text + "\": " + why;
        return std::nullopt;
    }
    if (rows->empty()) {
        *error = "unknown release \"" + text + "\": no release of that name (see anon.releases)";
        return std::nullopt;
    }
    const auto& r = rows->front();
    return ReleaseName{r[0], r[1], r[2], r[3] == "t", r[4]};
}

// What was published and how: the catalog row's configuration and the report's main figures.
void read_facts(PGconn* conn, const ReleaseName& rel, ReleaseReportData& d) {
    const auto rows = fetch(
        conn,
        "SELECT f.label, f.value FROM anon.releases r, LATERAL (VALUES "
        "(1, 'source', coalesce(r.report->>'source', r.source::pg_catalog.text)), "
        "(2, 'quasi-identifiers', pg_catalog.array_to_string(r.quasi_identifiers, ', ')), "
        "(3, 'sensitive columns', pg_catalog.array_to_string(r.sensitive, ', ')), "
        "(4, 'privacy model', r.model), (5, 'parameters', r.params::pg_catalog.text), "
        "(6, 'algorithm', coalesce(r.report->>'algorithm', r.algorithm)), "
        "(7, 'published as', coalesce(r.params->>'publish', 'generalized')), "
        "(8, 'made by', r.created_by::pg_catalog.text), "
        "(9, 'created at', r.created_at::pg_catalog.timestamptz(0)::pg_catalog.text), "
        "(10, 'last computed at', r.refreshed_at::pg_catalog.timestamptz(0)::pg_catalog.text), "
        "(11, 'version', r.report->>'version'), (12, 'source rows', r.report->>'rows'), "
        "(13, 'published rows', r.report->>'published_rows'), (14, 'suppressed rows', r.report->>'suppressed'), "
        "(15, 'classes', r.report->>'classes'), (16, 'smallest class', r.report->>'min_class_size'), "
        "(17, 'loss (NCP, all quasi-identifiers)', r.report->>'ncp'), "
        "(18, 'report', CASE WHEN r.report IS NULL THEN 'none: the release was never computed' END)) "
        "f(o, label, value) WHERE r.output_schema = $1 AND r.output_name = $2 AND f.value IS NOT NULL ORDER BY f.o",
        {rel.schema, rel.name}, &d.catalog.unreadable);
    if (!rows) return;
    d.catalog.shown = true;
    for (const auto& r : *rows) d.facts.emplace_back(r[0], r[1]);
}

// The release's objects and whether the caller reads them; returns the object the charts read (the generalized view,
// else the QIT), empty when none is readable.
std::string read_objects(PGconn* conn, const ReleaseName& rel, ReleaseReportData& d) {
    std::string why;
    const auto rows = fetch(
        conn,
        "SELECT pg_catalog.format('%I.%I', x.schema_name, x.relation_name), CASE WHEN c.oid IS NULL THEN 'missing "
        "(dropped)' WHEN pg_catalog.has_table_privilege(c.oid, 'SELECT') THEN 'readable' ELSE 'exists; not "
        "readable by this role' END, x.relation_name = $2 || '_st' FROM anon._release_relations($1, $2, "
        "coalesce((SELECT r.params FROM anon.releases r WHERE r.output_schema = $1 AND r.output_name = $2), "
        "'{\"publish\": \"both\"}')) x LEFT JOIN (pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = "
        "c.relnamespace) ON n.nspname = x.schema_name AND c.relname = x.relation_name AND c.relkind IN ('m', 'r') "
        "WHERE $3 OR c.oid IS NOT NULL",
        {rel.schema, rel.name, rel.visible ? "true" : "false"}, &why);
    if (!rows) {
        d.objects.emplace_back("(objects)", "not listed: " + why);
        return "";
    }
    std::string main;
    for (const auto& r : *rows) {
        d.objects.emplace_back(r[0], r[1]);
        if (main.empty() && r[1] == "readable" && r[2] == "f") main = r[0];
    }
    return main;
}

// Whether the release still satisfies its model: anon.verify on its published classes (gid), as
// anon.refresh_if_changed checks it, but without refreshing anything.
void read_verification(PGconn* conn, const ReleaseName& rel, const std::string& main, ReleaseReportData& d) {
    if (!rel.visible) {
        d.verification.unreadable = "the model it is checked against is in the catalog row, hidden from this role";
        return;
    }
    const auto rows = fetch(
        conn,
        "SELECT CASE WHEN coalesce(r.params->>'publish', 'generalized') = 'bucketized' THEN r.report IS NOT NULL "
        "ELSE (v.j->>'satisfied')::boolean END, CASE WHEN coalesce(r.params->>'publish', 'generalized') = "
        "'bucketized' THEN 'bucketized release: checked by its last computation' ELSE pg_catalog.format('%s of %s "
        "classes (%s rows) violate %s', v.j->>'violating_classes', v.j->>'classes', v.j->>'violating_rows', m.m) "
        "END FROM anon.releases r, LATERAL (SELECT anon._model_verified_as(r.model, "
        "coalesce((r.report->>'residuals')::pg_catalog.int8, 0) > 0)) m(m), LATERAL (SELECT CASE WHEN "
        "coalesce(r.params->>'publish', 'generalized') <> 'bucketized' THEN anon.verify($3::pg_catalog.regclass, "
        "'{gid}', r.sensitive, m.m, (r.params - 'taxonomies') || pg_catalog.jsonb_build_object('taxonomies', "
        "(SELECT coalesce(pg_catalog.jsonb_object_agg(t.key, t.value), '{}') FROM "
        "pg_catalog.jsonb_each(coalesce(r.params->'taxonomies', '{}')) t WHERE t.key = ANY (r.sensitive)))) END) "
        "v(j) WHERE r.output_schema = $1 AND r.output_name = $2",
        {rel.schema, rel.name, main.empty() ? rel.qualified : main}, &d.verification.unreadable);
    if (!rows || rows->empty()) return;
    d.verification.shown = true;
    d.satisfied = rows->front()[0] == "t";
    d.verification_detail = rows->front()[1];
}

// Bars of `sizes` (class size -> classes of that size): one per size when there are at most 30, else ranges of sizes
// each half again as wide as the one before, from the smallest size to the largest.
std::vector<Bar> size_bars(const std::map<long long, long long>& sizes) {
    std::vector<Bar> bars;
    const bool one_per_size = sizes.size() <= 30;
    long long lo = sizes.empty() ? 0 : sizes.begin()->first;
    while (!sizes.empty() && lo <= sizes.rbegin()->first) {
        const long long hi =
            one_per_size ? sizes.lower_bound(lo)->first : std::max(lo, static_cast<long long>(std::ceil(lo * 1.5)) - 1);
        const long long first = one_per_size ? hi : lo;
        long long classes = 0;
        for (auto it = sizes.lower_bound(first); it != sizes.end() && it->first <= hi; ++it) classes += it->second;
        const std::string label = first == hi ? "size " + std::to_string(hi)
                                              : "sizes " + std::to_string(first) + "\u2013" + std::to_string(hi);
        bars.push_back({label, static_cast<double>(classes), std::to_string(classes) + " classes"});
        lo = hi + 1;
    }
    return bars;
}

// The histogram of class sizes: rows per gid in the object the charts read.
void read_class_sizes(PGconn* conn, const std::string& main, ReleaseReportData& d) {
    if (main.empty()) {
        d.class_sizes.unreadable = "no release object is readable by this role";
        return;
    }
    const auto rows = fetch(conn,
                            "SELECT s.size, pg_catalog.count(*) FROM (SELECT pg_catalog.count(*) AS size FROM " + main +
                                " GROUP BY gid) s GROUP BY s.size ORDER BY s.size",
                            {}, &d.class_sizes.unreadable);
    if (!rows) return;
    d.class_sizes.shown = true;
    std::map<long long, long long> sizes;
    long long classes = 0, records = 0;
    for (const auto& r : *rows) {
        sizes[std::stoll(r[0])] = std::stoll(r[1]);
        classes += std::stoll(r[1]);
        records += std::stoll(r[0]) * std::stoll(r[1]);
    }
    d.class_size_bars = size_bars(sizes);
    d.class_size_summary = std::to_string(classes) + " classes holding " + std::to_string(records) + " rows" +
                           (sizes.empty() ? std::string(".")
                                          : ", sizes " + std::to_string(sizes.begin()->first) + " to " +
                                                std::to_string(sizes.rbegin()->first) + ".");
}

// Each quasi-identifier's level and loss (the report's) and its published values (the object's).
void read_quasi_identifiers(PGconn* conn, const ReleaseName& rel, const std::string& main, ReleaseReportData& d) {
    if (!rel.visible) {
        d.qi.unreadable = "the quasi-identifiers, their levels and loss are in the catalog row, hidden from this role";
        return;
    }
    const auto rows = fetch(conn,
                            "SELECT q.name, coalesce(r.report->'levels'->>q.name, ''), "
                            "coalesce(r.report->'loss_per_qi'->>q.name, '') FROM anon.releases r, "
                            "pg_catalog.unnest(r.quasi_identifiers) WITH ORDINALITY q(name, o) "
                            "WHERE r.output_schema = $1 AND r.output_name = $2 ORDER BY q.o",
                            {rel.schema, rel.name}, &d.qi.unreadable);
    if (!rows) return;
    d.qi.shown = true;
    for (const auto& r : *rows) {
        QiSummary q{r[0], r[1], std::nullopt, "", {}};
        if (!r[2].empty()) q.loss = std::stod(r[2]);
        d.qis.push_back(q);
    }
    if (main.empty()) {
        d.qi.shown = false;
        d.qi.unreadable = "the published values: no release object is readable by this role";
        return;
    }
    for (QiSummary& q : d.qis) {
        char* quoted = PQescapeIdentifier(conn, q.name.c_str(), q.name.size());
        const std::string column = quoted ? quoted : "";
        PQfreemem(quoted);
        std::string why;
        const auto values = fetch(conn,
                                  "SELECT coalesce(g.v, '(no value)'), g.n, pg_catalog.count(*) OVER () FROM (SELECT " +
                                      column + "::pg_catalog.text AS v, pg_catalog.count(*) AS n FROM " + main +
                                      " GROUP BY 1) g ORDER BY g.n DESC, g.v LIMIT 3",
                                  {}, &why);
        if (!values) {
            q.distinct_values = "not readable: " + why;
            continue;
        }
        q.distinct_values = values->empty() ? "0" : values->front()[2];
        for (const auto& v : *values) q.top_labels.push_back(v[0] + " (" + v[1] + " rows)");
    }
}

// The ranges of prosecutor risk the histogram shows, as the class sizes (records sharing the QI values) they cover.
struct RiskRange {
    long long smallest, largest;  // class sizes
    const char* label;
};
constexpr RiskRange risk_ranges[] = {
    {1, 1, "1 (unique)"},         {2, 2, "1/2"},
    {3, 4, "1/4 \u2013 1/3"},     {5, 9, "1/9 \u2013 1/5"},
    {10, 19, "1/19 \u2013 1/10"}, {20, 49, "1/49 \u2013 1/20"},
    {50, 99, "1/99 \u2013 1/50"}, {100, -1, "1/100 or less"},
};

// The share of records at each prosecutor risk (over the classes of equal QI values) and anon.risk's figures.
void read_risk(PGconn* conn, const ReleaseName& rel, const std::string& main, ReleaseReportData& d) {
    if (main.empty()) {
        d.risk.unreadable = "no release object is readable by this role";
        return;
    }
    if (!rel.visible || d.qis.empty()) {
        d.risk.unreadable = "the quasi-identifiers are in the catalog row, hidden from this role";
        return;
    }
    std::string columns;
    for (const QiSummary& q : d.qis) {
        char* quoted = PQescapeIdentifier(conn, q.name.c_str(), q.name.size());
        columns += (columns.empty() ? "" : ", ") + std::string(quoted ? quoted : "");
        PQfreemem(quoted);
    }
    const auto rows = fetch(conn,
                            "SELECT s.size, pg_catalog.count(*) FROM (SELECT pg_catalog.count(*) AS size FROM " + main +
                                " GROUP BY " + columns + ") s GROUP BY s.size ORDER BY s.size",
                            {}, &d.risk.unreadable);
    if (!rows) return;
    const auto figures = fetch(
        conn,
        "SELECT f.label, f.value FROM (SELECT anon.risk($1::pg_catalog.regclass, (SELECT r.quasi_identifiers FROM "
        "anon.releases r WHERE r.output_schema = $2 AND r.output_name = $3)) AS j) r, LATERAL (VALUES "
        "(1, 'highest prosecutor risk', r.j->>'highest_prosecutor_risk'), "
        "(2, 'average prosecutor risk', r.j->>'average_prosecutor_risk'), "
        "(3, 'share of records above the risk threshold ' || (r.j->>'threshold'), r.j->>'records_at_risk'), "
        "(4, 'marketer risk', r.j->>'marketer_risk'), (5, 'sample uniques', r.j->>'sample_uniques'), "
        "(6, 'population uniqueness (' || (r.j->>'population_model') || ')', r.j->>'population_uniqueness'), "
        "(7, 'classes of equal quasi-identifier values', r.j->>'classes')) f(o, label, value) "
        "WHERE f.value IS NOT NULL ORDER BY f.o",
        {main, rel.schema, rel.name}, &d.risk.unreadable);
    if (!figures) return;
    d.risk.shown = true;
    for (const auto& f : *figures) d.risk_figures.emplace_back(f[0], f[1]);
    long long records = 0;
    for (const auto& r : *rows) records += std::stoll(r[0]) * std::stoll(r[1]);
    for (const RiskRange& range : risk_ranges) {
        long long in_range = 0;
        for (const auto& r : *rows) {
            const long long size = std::stoll(r[0]);
            if (size >= range.smallest && (range.largest < 0 || size <= range.largest))
                in_range += size * std::stoll(r[1]);
        }
        const double share = records > 0 ? static_cast<double>(in_range) / static_cast<double>(records) : 0.0;
        char text[64];
        std::snprintf(text, sizeof text, "%.1f%% (%lld records)", share * 100, in_range);
        d.risk_bars.push_back({range.label, share, text});
    }
}

// The warnings of the release's report.
void read_warnings(PGconn* conn, const ReleaseName& rel, ReleaseReportData& d) {
    if (!rel.visible) {
        d.warnings.unreadable = "the warnings are in the release's report, in the catalog row hidden from this role";
        return;
    }
    const auto rows = fetch(conn,
                            "SELECT w FROM anon.releases r, pg_catalog.jsonb_array_elements_text(coalesce("
                            "r.report->'warnings', '[]')) WITH ORDINALITY x(w, o) WHERE r.output_schema = $1 AND "
                            "r.output_name = $2 ORDER BY x.o",
                            {rel.schema, rel.name}, &d.warnings.unreadable);
    if (!rows) return;
    d.warnings.shown = true;
    for (const auto& r : *rows) d.warning_texts.push_back(r[0]);
}

}  // namespace

std::optional<ReleaseReportData> read_release_report(PGconn* conn, const std::string& release, std::string* error) {
    const auto who =
        fetch(conn, "SELECT current_user, pg_catalog.now()::pg_catalog.timestamptz(0)::pg_catalog.text", {}, error);
    if (!who) return std::nullopt;
    const std::optional<ReleaseName> rel = resolve(conn, release, error);
    if (!rel) return std::nullopt;
    ReleaseReportData d;
    d.release = rel->qualified;
    d.reader = who->front()[0];
    d.generated_at = who->front()[1];
    if (rel->visible)
        read_facts(conn, *rel, d);
    else
        d.catalog.unreadable =
            "the release's catalog row (its source, model, parameters and report) is readable only "
            "by its owner role \"" +
            rel->owner + "\", the roles granted it and the database owner";
    const std::string main = read_objects(conn, *rel, d);
    read_verification(conn, *rel, main, d);
    read_class_sizes(conn, main, d);
    read_quasi_identifiers(conn, *rel, main, d);
    read_risk(conn, *rel, main, d);
    read_warnings(conn, *rel, d);
    return d;
}

}  // namespace anon_tools
