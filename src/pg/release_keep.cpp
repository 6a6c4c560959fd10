#include "release_keep.hpp"

#include <algorithm>

#include "base/base.hpp"
#include "boundary.hpp"
#include "canonical_text.hpp"
#include "release_store.hpp"
#include "source_reader.hpp"

namespace anon::pg {

std::vector<std::string> keep_columns(Spi& spi, Oid source, const ParamValues& publication,
                                      const std::vector<std::string>& qi, const std::vector<std::string>& sensitive) {
    auto keep = publication.strings("keep").value_or(std::vector<std::string>{});
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
                                              const std::string& placement, const ParamValues& publication, bool refuse,
                                              const KeptGroups* read) {
    const bool acknowledged = publication.boolean("keep_identifying").value_or(false);
    if (keep.empty() || placement.rfind("view", 0) != 0) return std::nullopt;
    // Kept values are published as text: rows whose kept values print alike are indistinguishable in the view. They
    // are counted by their canonical text, so the refusal does not depend on the session's settings.
    std::string names;
    for (std::size_t i = 0; i < keep.size(); ++i) names += (i ? ", " : "") + std::string("\"") + keep[i] + "\"";
    std::string single, total;
    if (read) {
        const KeptLinkage linkage = kept_linkage(*read);
        single = std::to_string(linkage.single_rows);
        total = std::to_string(linkage.rows);
    } else {
        std::string columns;
        for (std::size_t i = 0; i < keep.size(); ++i)
            columns += (i ? ", " : "") + canonical_text_sql("s." + quote_ident(keep[i])) + " COLLATE pg_catalog.\"C\"";
        const std::string figures =
            spi.scalar(
                   "SELECT pg_catalog.count(*) FILTER (WHERE g.n OPERATOR(pg_catalog.=) 1) OPERATOR(pg_catalog.||) ' ' "
                   "OPERATOR(pg_catalog.||) COALESCE(pg_catalog.sum(g.n), 0) FROM (SELECT pg_catalog.count(*) "
                   "AS n FROM " +
                   qualified_name(source) + " s GROUP BY " + columns + ") g")
                .value_or("0 0");
        single = figures.substr(0, figures.find(' '));
        total = figures.substr(figures.find(' ') + 1);
    }
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

}  // namespace anon::pg
