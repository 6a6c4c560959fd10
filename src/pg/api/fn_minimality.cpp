// SQL functions that audit releases for the minimality attack (Wong et al., TODS 2009): the adversary's
// credibility that members of each original QI class are linked to a set of sensitive values.
#include <algorithm>
#include <map>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"
#include "models/models.hpp"
#include "publish/publish.hpp"
#include "read/read.hpp"

using namespace anon;
using namespace anon::pg;

namespace {

// l and m of an audit: l >= 2; m defaults to l and must be >= 2.
std::pair<int, int> audit_l_m(FunctionCallInfo fcinfo, int l_arg, int m_arg) {
    if (PG_ARGISNULL(l_arg)) bad_argument("l", "an integer >= 2", "NULL");
    const int l = PG_GETARG_INT32(l_arg);
    if (l < 2) bad_argument("l", "an integer >= 2", std::to_string(l));
    const int m = PG_ARGISNULL(m_arg) ? l : PG_GETARG_INT32(m_arg);
    if (m < 2) bad_argument("m", "an integer >= 2", std::to_string(m));
    return {l, m};
}

// Emits audit rows as (qi text[], class_size int, credibility float8, violates bool).
void emit_rows(FunctionCallInfo fcinfo, const Schema& schema, const std::vector<AuditRow>& rows) {
    MaterializedRows out(fcinfo);
    std::vector<const char*> labels(schema.qi_names.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const AuditRow& row = rows[i];
        for (std::size_t j = 0; j < labels.size(); ++j) labels[j] = schema.qi_tax[j].nullable_label(row.qi[j]);
        Datum values[4] = {text_array_datum(labels), Int32GetDatum(static_cast<int32>(row.class_size)),
                           Float8GetDatum(row.credibility), BoolGetDatum(row.violates)};
        bool nulls[4] = {false, false, false, false};
        out.put(values, nulls);
    }
}

}  // namespace

// anon.audit_minimality(output text, sensitive_values text[], l int, m int DEFAULT NULL): recomputes the release
// from its stored configuration (the deterministic algorithms give the published release) and audits it; the
// recoding kind (global for full-domain releases, local otherwise) and the basis of the generalization (the QI
// values for k-anonymity and MASK, the minimality principle otherwise: job/minimality_report.hpp) are read from the
// release, and so is the class size k the model required besides l (a smaller specialized class excludes nothing).
ANON_SQL_FUNCTION(anon_audit_minimality) {
    const std::string output = text_arg(fcinfo, 0, "output");
    const auto values = text_array_arg(fcinfo, 1, "sensitive_values");
    const auto [l, m] = audit_l_m(fcinfo, 2, 3);
    Spi spi;
    ReleaseConfig config = load_release(spi, output, "output");
    const ModelSpec model = parse_model_spec(config.model, config.params);
    auto computed = compute_release(spi, std::move(config), false);
    // k-anonymity and MASK generalize for the QI values alone, the others (Incognito with an l-diversity model or
    // with m-confidentiality's class check) for the sensitive values (the minimality principle of Assumption 3).
    const GeneralizationBasis basis = generalization_basis(*model.entry, find_algorithm(computed->result.algorithm));
    const Schema& schema = computed->source.schema;
    if (schema.sa_names.size() != 1)
        bad_argument("output", "a release with one sensitive column",
                     std::to_string(schema.sa_names.size()) + " columns");
    const auto set = resolve_nodes(schema.sa_tax[0], values, "sensitive_values", schema.sa_names[0]);
    // The audit's structures are charged to anon.memory_limit beside the recomputed release they work on.
    CallBudget budget;
    charge_computed_release(budget.budget(), *computed);
    const auto rows =
        audit_minimality(schema, computed->source.fs, computed->result.release, set, l, m,
                         computed->result.global_recoding ? Recoding::global : Recoding::local, basis, model.k);
    emit_rows(fcinfo, schema, rows);
    return static_cast<Datum>(0);
}

namespace {

// A published table joined with its source, split: the source's frequency set (original QI codes and sensitive
// value), the published classes as a release of it, and whether the recoding is global.
struct PublishedTable {
    FrequencySet original;
    Release release;
    bool global = true;  // every original QI class is published in exactly one class
};

// Splits the joined frequency set (the QIs, then each QI's published value, then the sensitive value) by the
// source's `schema`: each published value is re-read in its QI's taxonomy and must cover its source value.
PublishedTable split_published(const Source& joined, const Schema& schema) {
    const std::size_t q = schema.qi_names.size();
    const std::vector<std::string>& qi = schema.qi_names;
    PublishedTable t;
    FrequencySet& original = t.original;
    Release& release = t.release;
    original.n_qi = q;
    original.n_sa = 1;
    release.n_qi = q;
    release.n_sa = 1;
    std::map<std::vector<Code>, std::uint32_t> class_of;
    std::map<std::vector<Code>, std::uint32_t> row_of;
    std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, Count>>> members;
    for (std::size_t r = 0; r < joined.fs.rows(); ++r) {
        const Code* codes = joined.fs.qi_row(r);
        std::vector<Code> orig(codes, codes + q), pub(codes + q, codes + 2 * q);
        for (std::size_t j = 0; j < q; ++j) {
            // Codes of the published column's taxonomy are re-read in the source column's taxonomy.
            const Taxonomy& tax = schema.qi_tax[j];
            const std::string label(joined.schema.qi_tax[q + j].label(pub[j]));
            const Code node = tax.find(label);
            if (node == no_code || !tax.covers(node, orig[j]))
                throw Error(ErrorKind::data_exception, "published value " + quoted_value(label) + " of " + qi[j] +
                                                           " does not cover its source value " +
                                                           quoted_value(tax.label(orig[j])));
            pub[j] = node;
        }
        std::vector<Code> row_key(orig);
        row_key.push_back(joined.fs.sa_row(r)[0]);
        auto [rit, new_row] = row_of.emplace(row_key, static_cast<std::uint32_t>(original.rows()));
        if (new_row) original.add(orig.data(), joined.fs.sa_row(r), 0);
        original.count[rit->second] += joined.fs.count[r];
        auto [cit, new_class] = class_of.emplace(pub, static_cast<std::uint32_t>(class_of.size()));
        if (new_class) release.class_qi.insert(release.class_qi.end(), pub.begin(), pub.end());
        members[cit->second].emplace_back(rit->second, joined.fs.count[r]);
    }
    for (const auto& [cls, rows] : members)
        for (const auto& [row, n] : rows) {
            release.pieces.push_back({row, cls, n});
            release.piece_sa.push_back(original.sa_row(row)[0]);
        }
    std::map<std::vector<Code>, std::uint32_t> first_class;
    for (const auto& piece : release.pieces) {
        std::vector<Code> orig(original.qi_row(piece.row), original.qi_row(piece.row) + q);
        auto [it, inserted] = first_class.emplace(orig, piece.cls);
        t.global = t.global && (inserted || it->second == piece.cls);
    }
    return t;
}

}  // namespace

// anon.audit_minimality_table(source regclass, published regclass, key text, quasi_identifiers text[],
// sensitive text, sensitive_values text[], l int, m int DEFAULT NULL): audits a table published by another tool:
// `key` links each published row to its source row; the published QI values must be values or nodes of the QI
// taxonomies; a published class is a distinct combination of published QI values. Recoding is judged from the
// data: global when every original QI class maps to one published class.
ANON_SQL_FUNCTION(anon_audit_minimality_table) {
    const Oid source = oid_arg(fcinfo, 0, "source");
    const Oid published = oid_arg(fcinfo, 1, "published");
    const std::string key = text_arg(fcinfo, 2, "key");
    Spi spi;
    // NULL quasi_identifiers or sensitive: the source's declaration (its taxonomies do not apply here).
    Params unused = anon::Param::of_object();
    const CallColumns call = call_columns(spi, fcinfo, source, {3, 4, false, true}, unused);
    const auto& qi = call.quasi_identifiers;
    const std::string sensitive = call.sensitive.at(0);
    const auto values = text_array_arg(fcinfo, 5, "sensitive_values");
    const auto [l, m] = audit_l_m(fcinfo, 6, 7);
    for (const Oid rel : {source, published}) {
        check_column_exists(spi, rel, key, "key");
        for (const auto& q : qi) check_column_exists(spi, rel, q, "quasi_identifiers");
    }
    check_column_exists(spi, source, sensitive, "sensitive");
    // Join on the key; published QI columns come in as "published:<name>", mapped to the QI's taxonomy.
    std::string select, join_cols;
    PublicationOptions publication;
    std::vector<std::string> columns;
    for (const auto& q : qi) {
        select += "s." + quote_ident(q) + " AS " + quote_ident(q) + ", ";
        columns.push_back(q);
    }
    for (const auto& q : qi) {
        select += "p." + quote_ident(q) + " AS " + quote_ident("published:" + q) + ", ";
        columns.push_back("published:" + q);
        publication.taxonomies.emplace_back("published:" + q, q);
    }
    select += "s." + quote_ident(sensitive) + " AS " + quote_ident(sensitive);
    const std::string from = "(SELECT " + select + " FROM " + qualified_name(source) + " s JOIN " +
                             qualified_name(published) + " p ON s." + quote_ident(key) + " OPERATOR(pg_catalog.=) p." +
                             quote_ident(key) + ") j";
    CallBudget budget;  // anon.memory_limit, as for a job
    Source joined = read_grouped(spi, from, qualified_name(published), columns, {sensitive}, publication,
                                 TaxonomySource::catalog_published);
    // Split the frequency set: original QI codes, and published classes as a release.
    const std::size_t q = qi.size();
    Schema schema{qi, {sensitive}, {}, joined.schema.sa_tax, column_value_orders(spi, source, {sensitive})};
    for (std::size_t j = 0; j < q; ++j) schema.qi_tax.push_back(joined.schema.qi_tax[j]);
    const PublishedTable table = split_published(joined, schema);
    const auto set = resolve_nodes(schema.sa_tax[0], values, "sensitive_values", sensitive);
    const auto rows = audit_minimality(schema, table.original, table.release, set, l, m,
                                       table.global ? Recoding::global : Recoding::local);
    emit_rows(fcinfo, schema, rows);
    return static_cast<Datum>(0);
}
