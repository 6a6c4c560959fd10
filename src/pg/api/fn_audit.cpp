// SQL functions that audit any table or view: verify() against a privacy model, and equivalence_classes().
#include <algorithm>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"
#include "models/models.hpp"
#include "read/read.hpp"

using namespace anon;
using namespace anon::pg;

// anon.verify(relation regclass, quasi_identifiers text[], sensitive text[], model text, params jsonb) RETURNS
// jsonb: each distinct combination of the QI columns, as published, is a class; every class is checked. NULL
// column arguments come from the relation's declaration (named in the report's "declared").
ANON_SQL_FUNCTION(anon_verify) {
    const Oid relation = oid_arg(fcinfo, 0, "relation");
    const std::string model = text_arg(fcinfo, 3, "model");
    Params params = params_arg(fcinfo, 4);
    Spi spi;
    const CallColumns columns = call_columns(spi, fcinfo, relation, {1, 2, false}, params);
    const auto& qi = columns.quasi_identifiers;
    const auto& sa = columns.sensitive;
    check_known_keys(params, known_param_keys());
    const ModelSpec spec = parse_model_spec(model, params);
    const PublicationOptions publication = parse_publication(params);

    CallBudget budget;  // anon.memory_limit, as for a job
    // A release of a model that generalizes sensitive values publishes "*" for a generalized value of a column
    // without a taxonomy; other models publish values only, "*" included.
    const TaxonomySource taxonomies =
        spec.traits().generalizes_sensitive ? TaxonomySource::audit_generalized : TaxonomySource::audit;
    Source src = read_source(spi, relation, qi, sa, publication, taxonomies, spec.params->named_sensitive_values());
    src.schema.sa_order = verified_value_orders(spi, relation, sa);
    budget.budget().charge(src.fs.bytes(), "the frequency set");
    Requirement req = Requirement::make(spec, src.schema, &src.fs);
    Grouping g;
    group_by_codes(src.fs, g);
    const ClassVerification v = verify_classes(src.fs, g, req);
    JsonWriter w;
    w.begin_object()
        .field("satisfied", v.satisfied())
        .field("model", model)
        .field("relation", src.relation)
        .field("rows", static_cast<long long>(v.rows))
        .field("classes", static_cast<long long>(v.classes))
        .field("min_class_size", static_cast<long long>(v.min_class_size))
        .field("violating_classes", static_cast<long long>(v.violating_classes))
        .field("violating_rows", static_cast<long long>(v.violating_rows));
    for (const auto& [key, json] : req.statements(src.schema)) w.key(key).raw(json);
    write_declared(w, columns);
    w.end_object();
    return jsonb_from_json(w.str());
}

namespace {

// The induced frequencies (Def. 7 of the (tau, l) paper) of one class's sensitive values as a JSON array of
// {"value", "frequency"} objects, dominant values first (ties in taxonomy order), base values of frequency 0 left
// out. Published general values spread over the leaves under them by weight; plain leaves give their shares.
std::string induced_frequencies_json(const Histogram& h, const Taxonomy& sensitive,
                                     const std::vector<double>& weights) {
    std::vector<LeafFrequency> f = induced_frequencies(h, sensitive, weights);
    std::stable_sort(f.begin(), f.end(),
                     [](const LeafFrequency& a, const LeafFrequency& b) { return a.frequency > b.frequency; });
    JsonWriter w;
    w.begin_array();
    for (const auto& lf : f)
        if (lf.frequency > 0)
            w.begin_object()
                .field("value", std::string(sensitive.label(lf.leaf)))
                .field("frequency", lf.frequency)
                .end_object();
    w.end_array();
    return w.str();
}

}  // namespace

// anon.equivalence_classes(relation regclass, quasi_identifiers text[], sensitive text[], params jsonb) RETURNS
// TABLE(qi text[], size bigint, distinct_sensitive int, entropy float8, max_share float8, induced_frequencies jsonb):
// one row per class for audits. With several sensitive columns the statistics are over their value combinations
// and induced_frequencies is NULL; with one, a sensitive column whose catalog taxonomy (params->'taxonomies' or
// its name) holds every value may publish general values, which induce frequencies on the leaves under them.
// Version 0.1 declared the function without params and without the last column: that shape is still served.
ANON_SQL_FUNCTION(anon_equivalence_classes) {
    const Oid relation = oid_arg(fcinfo, 0, "relation");
    Params params = PG_NARGS() > 3 ? params_arg(fcinfo, 3) : anon::Param::of_object();
    Spi spi;
    const CallColumns columns = call_columns(spi, fcinfo, relation, {1, 2, false}, params);
    const auto& qi = columns.quasi_identifiers;
    const auto& sa = columns.sensitive;
    check_known_keys(params, {"taxonomies"});
    PublicationOptions publication = parse_publication(params);
    publication.nulls = PublicationOptions::Nulls::value;
    CallBudget budget;  // anon.memory_limit, as for a job
    Source src = read_source(spi, relation, qi, sa, publication, TaxonomySource::audit);
    budget.budget().charge(src.fs.bytes(), "the frequency set");
    Grouping g;
    group_by_codes(src.fs, g);
    MaterializedRows out(fcinfo);
    const bool with_induced = out.columns() > 5;
    std::vector<double> weights;
    Requirement::Scratch scratch;
    Histogram class_hist;
    if (with_induced && sa.size() == 1) {
        const Histogram table = whole_table_histogram(src.fs, 0);
        weights = tau_l_weights(src.schema.sa_tax[0], &table);
    }
    std::vector<const char*> labels(qi.size());
    for (std::size_t c = 0; c < g.classes(); ++c) {
        const ClassStatistics stats = class_statistics(src.fs, g.rows_of(c), g.size_of(c));
        const Code* row = src.fs.qi_row(g.rows_of(c)[0]);
        for (std::size_t j = 0; j < qi.size(); ++j) labels[j] = src.schema.qi_tax[j].nullable_label(row[j]);
        Datum values[6] = {text_array_datum(labels),
                           Int64GetDatum(stats.size),
                           Int32GetDatum(static_cast<int32>(stats.distinct_sensitive)),
                           Float8GetDatum(stats.entropy),
                           Float8GetDatum(stats.max_share),
                           static_cast<Datum>(0)};
        bool nulls[6] = {false, false, false, false, false, true};
        if (!weights.empty()) {
            build_histogram(src.fs, 0, g.rows_of(c), g.size_of(c), scratch, class_hist);
            values[5] = jsonb_from_json(induced_frequencies_json(class_hist, src.schema.sa_tax[0], weights));
            nulls[5] = false;
        }
        out.put(values, nulls);
    }
    return static_cast<Datum>(0);
}

// anon.eligible_range(source regclass, sensitive text[]) RETURNS jsonb: for each sensitive column, n, the most
// frequent value with its count and share, the number of distinct values, the largest eligible l of simple,
// distinct and entropy l-diversity, BSGI's optimal l and the smallest eligible c of recursive (c,l) for l = 2..5.
// One column gives its object; several give an object keyed by column.
ANON_SQL_FUNCTION(anon_eligible_range) {
    const Oid source = oid_arg(fcinfo, 0, "source");
    Spi spi;
    Params declared_params = anon::Param::of_object();
    const auto sa = call_columns(spi, fcinfo, source, {-1, 1, false}, declared_params).sensitive;
    if (sa.empty()) bad_argument("sensitive", "a non-empty array", "an empty array");
    CallBudget budget;  // anon.memory_limit, as for a job
    Source src = read_source(spi, source, {}, sa, PublicationOptions{}, TaxonomySource::dictionary);
    budget.budget().charge(src.fs.bytes(), "the frequency set");
    std::string json = sa.size() == 1 ? "" : "{";
    for (std::size_t j = 0; j < sa.size(); ++j) {
        const std::string one =
            eligible_range_json(eligible_range(whole_table_histogram(src.fs, j), src.schema.sa_tax[j]));
        json += sa.size() == 1 ? one : (j ? ", " : "") + json_quote(sa[j]) + ": " + one;
    }
    if (sa.size() > 1) json += "}";
    return jsonb_from_json(json);
}

// anon._model_verified_as(model text, took_residuals boolean) RETURNS text: the model a release of `model` is verified
// as, which the registry's trait says (with_residuals_checked_as), so that anon.maintain's PL/pgSQL repeats no model
// knowledge.
ANON_SQL_FUNCTION(anon_model_verified_as) {
    const ModelEntry& model = find_model(text_arg(fcinfo, 0, "model"));
    const bool took_residuals = PG_GETARG_BOOL(1);
    const std::string& verified = (took_residuals ? model_checked_with_residuals(model) : model).name;
    text* result = nullptr;
    pg_call([&] {
        MemoryContext old = MemoryContextSwitchTo(entry_context());
        result = cstring_to_text(verified.c_str());
        MemoryContextSwitchTo(old);
    });
    PG_RETURN_TEXT_P(result);
}
