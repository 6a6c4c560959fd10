// Incognito: optimal full-domain generalization (incognito.hpp); serves every model.
#include <cmath>
#include <optional>

#include "algorithms_internal.hpp"
#include "fixed_node.hpp"
#include "incognito.hpp"
#include "incognito_kept.hpp"
#include "metrics/metrics.hpp"

namespace anon::algorithms {

namespace {

// What params say to Incognito: the metric choosing among minimal nodes, the suppression budget, a node to publish.
struct IncognitoParams : AlgorithmParams {
    std::string metric = "il";
    std::optional<double> max_suppression;  // a fraction of the rows in [0, 1)
    std::optional<LevelMap> levels;
    bool needs_values_as_read() const override {
        return levels || (max_suppression && *max_suppression > 0) || metric == "kl";
    }
};

// The suppression budget in tuples from params->'max_suppression'.
Count suppression_budget(const IncognitoParams& options, Count total) {
    const auto fraction = options.max_suppression;
    return fraction ? static_cast<Count>(std::floor(*fraction * static_cast<double>(total))) : 0;
}

// A refresh's published node (JobInput::keep_levels) and its release, when it still satisfies the model within the
// budget: the columns keep their meaning across versions. None when there is none, when the taxonomies no longer
// have those levels (or the read folded them: a timestamp read at its day), or when it no longer satisfies: then
// the search runs.
std::optional<Release> published_node_release(const JobInput& in, Count budget) {
    if (!in.keep_levels || in.keep_levels->size() != in.schema.qi_names.size()) return std::nullopt;
    for (std::size_t j = 0; j < in.keep_levels->size(); ++j) {
        const Taxonomy& tax = in.schema.qi_tax[j];
        const int level = (*in.keep_levels)[j];
        if (level < tax.lowest_usable_level() || level > tax.height()) return std::nullopt;
    }
    Release rel = full_domain_release(in.schema, in.fs, in.requirement, *in.keep_levels);
    if (rel.suppressed > budget || rel.pieces.empty()) return std::nullopt;
    return rel;
}

// Whether the classes of the published node split by the kept values satisfy the model too.
bool split_classes_satisfy(const JobInput& in, const SplitTable& split) {
    std::vector<int> split_levels = *in.keep_levels;
    split_levels.resize(split.schema.qi_names.size(), 0);
    return full_domain_release(split.schema, split.fs, in.requirement, split_levels).suppressed == 0;
}

// Publishes the refresh's node again (its release from published_node_release).
void publish_node(const JobInput& in, Release rel, JobResult& result) {
    result.release = std::move(rel);
    result.metrics = compute_metrics(in.schema, in.fs, result.release);
    result.lattice_size = 1;
    result.nodes_evaluated = 1;
}

// With kept columns published beside the classes (incognito_kept.hpp): the search of the frequency set split by the
// kept values, and the release of its node built from the frequency set as read. False, for the plain search and
// the kept columns' check after it (with its figures), when no node's split classes satisfy the model.
bool search_split(const JobInput& in, const SplitTable& split, IncognitoOptions options, JobResult& result) {
    const KeptGroups& kept = *in.kept_split;
    options.heights = split_heights(in.schema, kept.width);
    options.weights = split_weights(in.schema.qi_names.size(), kept.width);
    options.build_release = false;
    IncognitoResult r;
    try {
        r = incognito(split.schema, split.fs, in.requirement, options);
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::not_satisfiable) throw;
        return false;
    }
    const std::size_t n_qi = in.schema.qi_names.size();
    r.levels.resize(n_qi);
    result.release = full_domain_release(in.schema, in.fs, in.requirement, r.levels);
    result.metrics = compute_metrics(in.schema, in.fs, result.release);
    for (auto& node : r.minimal_nodes) node.resize(n_qi);
    result.minimal_nodes = std::move(r.minimal_nodes);
    result.lattice_size = r.lattice_size;
    result.nodes_evaluated = r.nodes_evaluated;
    return true;
}

void run(const JobInput& in, JobResult& result) {
    const auto& params = options_as<IncognitoParams>(in.options);
    if (const auto& given = params.levels) {
        // A node the caller chose (anon.explore lists them): published as it is, or refused with the reason.
        result.release = fixed_node_release(in.schema, in.fs, in.requirement, node_levels(in.schema, *given),
                                            suppression_budget(params, in.fs.total()));
        result.metrics = compute_metrics(in.schema, in.fs, result.release);
        result.lattice_size = 1;
        result.nodes_evaluated = 1;
        return;
    }
    IncognitoOptions options;
    options.metric = params.metric;
    options.max_suppressed = suppression_budget(params, in.fs.total());
    options.every_minimal = in.every_minimal_node;
    // Kept columns beside the classes: the split table, when the search can use it (incognito_kept.hpp).
    std::optional<SplitTable> split;
    MemoryCharge split_charge;
    if (in.kept_split && options.max_suppressed == 0 && in.requirement.monotone() &&
        (options.metric == "il" || options.metric == "height")) {
        split.emplace(split_by_kept(in.schema, in.fs, *in.kept_split));
        split_charge.resize(split->fs.bytes(), "the frequency set split by the kept values", KeptGroups::memory_remedy);
    }
    // A refresh keeps its node while its classes, split by the kept values too, satisfy; when no node's split
    // classes satisfy, it keeps its node as before, and the check after the job warns.
    std::optional<Release> published = published_node_release(in, options.max_suppressed);
    if (published && (!split || split_classes_satisfy(in, *split)))
        return publish_node(in, std::move(*published), result);
    if (split && search_split(in, *split, options, result)) return;
    if (published) return publish_node(in, std::move(*published), result);
    IncognitoResult r = incognito(in.schema, in.fs, in.requirement, options);
    result.release = std::move(r.release);
    result.metrics = r.metrics;
    result.minimal_nodes = std::move(r.minimal_nodes);
    result.lattice_size = r.lattice_size;
    result.nodes_evaluated = r.nodes_evaluated;
}

}  // namespace

const AlgorithmEntry& incognito_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "incognito";
        e.fallback = true;
        set_options<IncognitoParams>(
            e, {{field(&IncognitoParams::metric,
                       choice_param("metric", selection_metric_names(), "which minimal node to publish")),
                 field(&IncognitoParams::max_suppression,
                       number_param("max_suppression", 0.0, 0.999999, "share of rows that may be left out")),
                 field(&IncognitoParams::levels,
                       level_map_param("levels", "publish this node (docs/explore.md) instead of searching"))}});
        e.global_recoding = true;
        e.run = run;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
