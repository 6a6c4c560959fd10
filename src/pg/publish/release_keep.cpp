#include "release_keep.hpp"

#include <algorithm>

#include "base/base.hpp"
#include "computed_release.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"
#include "read/read.hpp"
#include "release_objects.hpp"
#include "release_pieces.hpp"

namespace anon::pg {

namespace {

// "\"a\", \"b\"": the kept columns as messages name them.
std::string quoted_names(const std::vector<std::string>& keep) {
    std::string names;
    for (std::size_t i = 0; i < keep.size(); ++i) names += (i ? ", " : "") + std::string("\"") + keep[i] + "\"";
    return names;
}

// "N row(s)".
std::string rows_text(Count n) { return std::to_string(n) + (n == 1 ? " row" : " rows"); }

// Whether kept columns published at `placement` (kept_in or kept_in_existing: "view", "qit" or "view and qit") are
// in the generalized view, where they sit beside each row's sensitive values.
bool kept_in_view(const std::string& placement) { return placement.rfind("view", 0) == 0; }

}  // namespace

std::vector<std::string> keep_columns(Spi& spi, Oid source, const PublicationOptions& publication,
                                      const std::vector<std::string>& qi, const std::vector<std::string>& sensitive) {
    const std::vector<std::string>& keep = publication.keep;
    for (const auto& k : keep) {
        if (std::find(qi.begin(), qi.end(), k) != qi.end() ||
            std::find(sensitive.begin(), sensitive.end(), k) != sensitive.end())
            bad_argument("params->'keep'", "columns that are neither quasi-identifiers nor sensitive",
                         "\"" + k + "\", which would publish its original values");
        check_column_exists(spi, source, k, "params->'keep'");
    }
    check_published_columns(spi, source, publish_form(publication), {}, {}, keep);
    return keep;
}

std::string kept_in(const PublishForm& form) { return form.bucketized ? "qit" : "view"; }

std::string kept_in_existing(Spi& spi, const OutputName& out, const PublishForm& form,
                             const std::vector<std::string>& keep) {
    if (!form.bucketized) return "view";
    const bool in_view =
        form.generalized && !keep.empty() &&
        spi.scalar(
               "SELECT 1 FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) "
               "a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE "
               "n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname OPERATOR(pg_catalog.=) $2 AND a.attname "
               "OPERATOR(pg_catalog.=) $3 AND NOT a.attisdropped",
               {out.schema, out.name, keep[0]})
            .has_value();
    return in_view ? "view and qit" : "qit";
}

std::optional<std::string> check_kept_linkage(Spi& spi, Oid source, const std::vector<std::string>& keep,
                                              const std::string& placement, const PublicationOptions& publication,
                                              bool refuse, const KeptGroups* read) {
    const bool acknowledged = publication.keep_identifying;
    if (keep.empty() || !kept_in_view(placement)) return std::nullopt;
    ProgressPhase checking("check kept columns", 0);
    // Kept values are published as text: rows whose kept values print alike are indistinguishable in the view. They
    // are counted by their canonical text, so the refusal does not depend on the session's settings.
    const std::string names = quoted_names(keep);
    std::string single, total;
    if (read) {
        const KeptLinkage linkage = kept_linkage(*read);
        single = std::to_string(linkage.single_rows);
        total = std::to_string(linkage.rows);
    } else {
        std::string columns;
        for (std::size_t i = 0; i < keep.size(); ++i)
            columns += (i ? ", " : "") + canonical_text_sql("s." + quote_ident(keep[i])) + " COLLATE pg_catalog.\"C\"";
        // With the read's work_mem (memory_limit.hpp): a kept column unique per row is a hash table of a million
        // values, which the default work_mem would spill to disk (a fifth of the check on the million stays).
        const int nest_level = begin_local_settings({read_work_mem_setting()});
        const std::string figures =
            spi.scalar(
                   "SELECT pg_catalog.count(*) FILTER (WHERE g.n OPERATOR(pg_catalog.=) 1) OPERATOR(pg_catalog.||) ' ' "
                   "OPERATOR(pg_catalog.||) COALESCE(pg_catalog.sum(g.n), 0) FROM (SELECT pg_catalog.count(*) "
                   "AS n FROM " +
                   qualified_name(source) + " s GROUP BY " + columns + ") g")
                .value_or("0 0");
        end_local_settings(nest_level);
        single = figures.substr(0, figures.find(' '));
        total = figures.substr(figures.find(' ') + 1);
    }
    checking.finish();
    if (single == "0") return std::nullopt;
    const std::string singled_out = single + " of " + total + " source rows";
    if (!acknowledged && refuse)
        throw Error(ErrorKind::invalid_parameter,
                    "invalid params->'keep': expected kept columns whose values no single row holds alone, found " +
                        names + ", whose values single out " + singled_out,
                    "The generalized view publishes kept values beside each row's sensitive values: whoever can map "
                    "the kept values to people (or joins another release on them) reads those rows' sensitive values "
                    "directly, whatever the model guarantees for the quasi-identifiers.",
                    "Keep columns whose values several rows share, publish them in the QIT only (\"publish\": "
                    "\"both\" or \"bucketized\"), or pass \"keep_identifying\": true in params to acknowledge the "
                    "linkage.");
    return "params->'keep' (" + names + ") singles out " + singled_out +
           ": their kept values link them to their published sensitive values (" +
           (acknowledged ? "acknowledged by keep_identifying"
                         : "not acknowledged: republish with keep_identifying or "
                           "without these kept columns") +
           ")";
}

std::optional<std::string> check_computed_kept_linkage(Spi& spi, ComputedRelease& computed,
                                                       const std::vector<std::string>& keep,
                                                       const std::string& placement,
                                                       const PublicationOptions& publication, bool refuse) {
    if (keep.empty() || !kept_in_view(placement)) return std::nullopt;
    CallBudget call_budget;  // anon.memory_limit, while the kept groups are read and counted
    MemoryBudget& budget = call_budget.budget();
    charge_computed_release(budget, computed);
    const KeptGroups* groups = computed.source.kept_groups.get();
    if (groups == nullptr) groups = release_kept(computed, keep).groups.get();
    budget.charge(groups->bytes(), groups->described(), KeptGroups::memory_remedy);
    return check_kept_linkage(spi, computed.source.relid, keep, placement, publication, refuse, groups);
}

std::optional<std::string> check_kept_classes(ComputedRelease& computed, const JobSpec& spec,
                                              const std::vector<std::string>& keep, const std::string& placement,
                                              bool refuse) {
    if (keep.empty() || placement.empty()) return std::nullopt;
    ProgressPhase checking("check classes by kept values", 0);
    const bool in_view = kept_in_view(placement);
    const FrequencySet& fs = computed.source.fs;
    const Release& rel = computed.result.release;
    CallBudget call_budget;  // anon.memory_limit, current while it lives
    MemoryBudget& budget = call_budget.budget();
    charge_computed_release(budget, computed);
    // The tuples given their pieces, kept for the objects, which publish them as the check judges them.
    const ReleaseKept& kept = release_kept(computed, keep);
    budget.charge(kept.bytes(), kept.groups->described(), KeptGroups::memory_remedy);
    KeptClassCheck check;
    {
        const MemoryCharge working(kept_classes_bytes(rel.pieces.size(), kept.groups->groups()),
                                   "the classes split by the kept values", KeptGroups::memory_remedy);
        const KeptClasses classes = kept_classes(rel, kept.assignment);
        check = check_kept_classes(computed.source.schema, fs, spec, computed.result, classes, !in_view);
    }
    checking.finish();
    if (check.satisfied()) return std::nullopt;

    const std::string& model = spec.model.name();
    const std::string k = std::to_string(spec.model.k);
    // " the N classes into ...": after "split" in the error, "splits" in the warning.
    std::string figures = " the " + std::to_string(rel.classes()) + " classes into " +
                          std::to_string(check.sub_classes) + " sub-classes of the same class and kept values, " +
                          std::to_string(check.violating) + " of which (" + std::to_string(check.violating_rows) +
                          " of " + std::to_string(check.rows) + " published rows) ";
    if (in_view)
        figures += "violate " + model + " (the smallest: " + rows_text(check.worst_rows) + " with " +
                   std::to_string(check.worst_distinct) + " distinct sensitive value" +
                   (check.worst_distinct == 1 ? "" : "s") + "; " + std::to_string(check.single_value_rows) +
                   " rows in sub-classes of a single sensitive value)";
    else
        figures += "hold fewer than k=" + k + " rows (the smallest: " + rows_text(check.worst_rows) + ")";
    const std::string names = quoted_names(keep);
    const bool acknowledged = spec.publication.keep_identifying;
    if (!acknowledged && refuse) {
        if (in_view)
            throw Error(ErrorKind::invalid_parameter,
                        "invalid params->'keep': expected kept columns whose values leave every class satisfying " +
                            model + " when it is split by them, found " + names + ", whose values split" + figures,
                        "The generalized view publishes kept values beside each row's class and sensitive values: "
                        "whoever knows a person's kept values and quasi-identifiers is left with the rows of the "
                        "class that share those kept values, and reads their sensitive values as if they were a "
                        "class of their own.",
                        "Keep coarser columns (values that many rows of each class share), publish them in the QIT "
                        "only (\"publish\": \"both\" or \"bucketized\"), or pass \"keep_identifying\": true in "
                        "params to acknowledge the linkage.");
        throw Error(ErrorKind::invalid_parameter,
                    "invalid params->'keep': expected kept columns whose values leave at least k=" + k +
                        " rows of a class together in the QIT, found " + names + ", whose values split" + figures,
                    "The QIT publishes kept values beside each row's class id: whoever knows a person's kept values "
                    "finds their class among fewer than k rows.",
                    "Keep coarser columns (values that many rows of each class share), or pass "
                    "\"keep_identifying\": true in params to acknowledge the linkage.");
    }
    return "params->'keep' (" + names + ") splits" + figures + ": their kept values narrow their class (" +
           (acknowledged ? "acknowledged by keep_identifying"
                         : "not acknowledged: republish with keep_identifying or without these kept columns") +
           ")";
}

}  // namespace anon::pg
