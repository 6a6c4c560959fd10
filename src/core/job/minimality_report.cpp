#include "minimality_report.hpp"

#include <algorithm>
#include <cmath>

namespace anon {

namespace {

// The verdict of a release that is not audited.
MinimalityVerdict not_audited(std::string reason) {
    MinimalityVerdict v;
    v.not_audited = std::move(reason);
    return v;
}

// The sets audited: the model's named set, or each leaf of the sensitive column with tuples in the table (in code
// order) but those under a value that may be disclosed.
std::vector<std::vector<Code>> audited_sets(const Schema& schema, const FrequencySet& fs,
                                            const MinimalityReading& reading) {
    const Taxonomy& tax = schema.sa_tax[0];
    const std::string& column = schema.sa_names[0];
    if (!reading.set.empty()) {
        std::vector<Code> set = resolve_nodes(tax, reading.set, "params->'sensitive_values'", column);
        std::sort(set.begin(), set.end());
        set.erase(std::unique(set.begin(), set.end()), set.end());
        return {set};
    }
    const std::vector<Code> except = resolve_nodes(tax, reading.except, "params->'dont_care'", column);
    std::vector<char> present(static_cast<std::size_t>(tax.size()), 0);
    for (std::size_t r = 0; r < fs.rows(); ++r) present[fs.sa_row(r)[0]] = 1;
    std::vector<std::vector<Code>> sets;
    for (Code v = 0; v < tax.size(); ++v) {
        if (!present[v]) continue;
        if (std::none_of(except.begin(), except.end(), [&](Code e) { return tax.covers(e, v); })) sets.push_back({v});
    }
    return sets;
}

// Up to five values as a quoted list, then how many more.
std::string value_list(const std::vector<std::string>& values) {
    std::string out;
    const std::size_t shown = std::min<std::size_t>(values.size(), 5);
    for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + quoted_value(values[i]);
    if (values.size() > shown) out += " and " + std::to_string(values.size() - shown) + " more";
    return out;
}

}  // namespace

GeneralizationBasis generalization_basis(const ModelEntry& model, const AlgorithmEntry& algorithm) {
    return model.traits.generalizes_for_qi_values || algorithm.generalizes_for_qi_values
               ? GeneralizationBasis::qi_values
               : GeneralizationBasis::l_diversity;
}

MinimalityVerdict minimality_statement(const Schema& schema, const FrequencySet& fs, const ModelSpec& model,
                                       const AlgorithmEntry& algorithm, const Release& release) {
    if (generalization_basis(*model.entry, algorithm) == GeneralizationBasis::qi_values)
        return not_audited(
            "generalized for the quasi-identifiers alone: minimality reveals nothing of the sensitive "
            "values");
    if (!algorithm.global_recoding)
        return not_audited("not a full-domain release: anon.audit_minimality audits it for a set of sensitive values");
    if (!model.entry->minimality_reading)
        return not_audited(model.name() + " bounds no sensitive value's share of a class");
    if (schema.sa_names.size() != 1 || fs.n_sa != 1)
        return not_audited("a release of " + std::to_string(fs.n_sa) + " sensitive columns (the audit reads one)");
    const MinimalityReading reading = model.entry->minimality_reading(*model.params);
    MinimalityVerdict verdict = minimality_verdict(schema, fs, release, audited_sets(schema, fs, reading), reading.l,
                                                   model.k, report_audit_steps);
    verdict.each_value = reading.set.empty();
    return verdict;
}

std::string minimality_warning(const MinimalityVerdict& v, const std::string& algorithm) {
    if (!v.applies()) return {};
    return "minimality attack: an adversary who knows that " + algorithm +
           " publishes a minimal full-domain generalization links " + std::to_string(v.classes) +
           " original quasi-identifier class(es) (" + std::to_string(v.rows) + " rows) to " + value_list(v.values) +
           " with credibility up to " + format_number(std::round(v.max_credibility * 1000) / 1000) + ", above 1/" +
           format_number(v.l) +
           " and above their published share; m-confidentiality (algorithm mask), which generalizes for the "
           "quasi-identifiers alone, does not invite it (docs/security.md)";
}

void write_minimality(JsonWriter& w, const MinimalityVerdict& v) {
    w.key("minimality").begin_object().field("audited", v.audited);
    if (!v.audited) {
        w.field("reason", v.not_audited).end_object();
        return;
    }
    w.field("l", v.l).field("sets", v.each_value ? "each value" : "sensitive_values").field("applies", v.applies());
    w.key("values").begin_array();
    for (const std::string& value : v.values) {
        if (value == null_label)
            w.null();
        else
            w.value(value);
    }
    w.end_array();
    w.field("classes", static_cast<long long>(v.classes)).field("rows", static_cast<long long>(v.rows));
    w.key("max_credibility");
    if (v.applies())
        w.value(v.max_credibility);
    else
        w.null();
    w.end_object();
}

}  // namespace anon
