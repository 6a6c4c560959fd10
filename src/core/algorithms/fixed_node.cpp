#include "fixed_node.hpp"

#include <algorithm>
#include <numeric>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "incognito.hpp"

namespace anon {

std::vector<int> node_levels(const Schema& schema, const std::vector<std::pair<std::string, long>>& given) {
    const std::size_t n = schema.qi_names.size();
    const bool named = !given.empty() && !given[0].first.empty();
    std::vector<int> levels(n, -1);
    if (!named) {
        if (given.size() != n)
            bad_argument("params->'levels'", "an array of " + std::to_string(n) + " levels (one per quasi-identifier)",
                         "an array of " + std::to_string(given.size()));
        for (std::size_t j = 0; j < n; ++j) levels[j] = static_cast<int>(given[j].second);
    } else {
        for (const auto& [column, level] : given) {
            const auto it = std::find(schema.qi_names.begin(), schema.qi_names.end(), column);
            if (it == schema.qi_names.end())
                bad_argument("params->'levels'", "quasi-identifiers as keys", "\"" + column + "\"");
            levels[static_cast<std::size_t>(it - schema.qi_names.begin())] = static_cast<int>(level);
        }
        for (std::size_t j = 0; j < n; ++j)
            if (levels[j] < 0)
                bad_argument("params->'levels'", "a level for every quasi-identifier",
                             "none for \"" + schema.qi_names[j] + "\"");
    }
    for (std::size_t j = 0; j < n; ++j)
        if (levels[j] > schema.qi_tax[j].height())
            bad_argument("params->'levels'->'" + schema.qi_names[j] + "'",
                         "a level in [0, " + std::to_string(schema.qi_tax[j].height()) + "]",
                         std::to_string(levels[j]));
    return levels;
}

Release fixed_node_release(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                           const std::vector<int>& levels, Count max_suppressed) {
    for (std::size_t j = 0; j < levels.size() && j < schema.qi_tax.size(); ++j)
        if (levels[j] < schema.qi_tax[j].lowest_usable_level())
            throw Error(ErrorKind::not_satisfiable,
                        "the node " + levels_json(schema, levels) + " does not satisfy " + req.model() +
                            ": no class can share a value of \"" + schema.qi_names[j] + "\" at level " +
                            std::to_string(levels[j]),
                        {}, "Choose a node from anon.explore.");
    Release rel = full_domain_release(schema, fs, req, levels);
    if (rel.suppressed > max_suppressed)
        throw Error(ErrorKind::not_satisfiable,
                    "the node " + levels_json(schema, levels) + " does not satisfy " + req.model() + ": " +
                        std::to_string(rel.suppressed) + " of " + std::to_string(fs.total()) +
                        " tuples are in classes that violate it, more than the suppression budget of " +
                        std::to_string(max_suppressed),
                    {}, "Choose a node from anon.explore, or raise params->'max_suppression'.");
    if (rel.pieces.empty())
        throw Error(ErrorKind::not_satisfiable,
                    "the node " + levels_json(schema, levels) + " leaves no tuple that satisfies " + req.model());
    return rel;
}

std::vector<ExploredNode> explore_nodes(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                                        const std::vector<std::vector<int>>& nodes) {
    std::vector<ExploredNode> out;
    for (const auto& levels : nodes) {
        const Release rel = full_domain_release(schema, fs, req, levels);
        ExploredNode node;
        node.levels = levels;
        node.suppressed = rel.suppressed;
        node.metrics = compute_metrics(schema, fs, rel);
        node.prosecutor_risk = prosecutor_risk(node.metrics.min_class_size);
        out.push_back(std::move(node));
        check_interrupts();
    }
    auto height = [](const std::vector<int>& l) { return std::accumulate(l.begin(), l.end(), 0); };
    std::stable_sort(out.begin(), out.end(), [&](const ExploredNode& a, const ExploredNode& b) {
        if (a.metrics.ncp != b.metrics.ncp) return a.metrics.ncp < b.metrics.ncp;
        if (height(a.levels) != height(b.levels)) return height(a.levels) < height(b.levels);
        return a.levels < b.levels;
    });
    return out;
}

std::string levels_json(const Schema& schema, const std::vector<int>& levels) {
    JsonWriter w;
    w.begin_object();
    for (std::size_t j = 0; j < levels.size(); ++j) w.field(schema.qi_names[j], levels[j]);
    w.end_object();
    return w.str();
}

}  // namespace anon
