#include "release_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "base/base.hpp"
#include "information.hpp"
#include "metrics_kl.hpp"
#include "metrics_published.hpp"

namespace anon {

namespace {

// (coverage[v*] - 1) / (base - 1) of Def. 7 (m-confidentiality paper), 0 for a one-leaf taxonomy. The published
// node generalizes the tuple's leaf, so their nearest common ancestor v* is the published node itself.
double coverage_penalty(const Taxonomy& tax, Code node) {
    const Count base = tax.total_leaves();
    return base > 1 ? static_cast<double>(tax.leaf_count(node) - 1) / static_cast<double>(base - 1) : 0.0;
}

// What one tuple of a class contributes through its QI values; the same for every tuple of the class, so it is
// computed once per class and the per-tuple loop stays O(pieces).
struct ClassTerms {
    double ncp = 0;          // weighted normalized certainty penalty
    double dist = 0;         // weighted IL(t*) of Def. 7
    double information = 0;  // sum of I(v) = 1 / |leaves(v)| over the published QI values (Def. 14)
    double volume = 1;       // leaf combinations the published QI values cover (the area of KL-divergence)
    int depth = 0;           // summed depths of the published QI nodes
};

// The terms of every class of the release; adds to `qi_loss[j]` each class's published tuples (`sizes`) times its
// certainty penalty in QI j, so the per-column loss costs no second pass over the classes.
std::vector<ClassTerms> class_terms(const Schema& schema, const Release& release, const std::vector<double>& weights,
                                    const std::vector<Count>& sizes, std::vector<double>& qi_loss) {
    const PublishedLeaves leaves(schema, release);
    std::vector<ClassTerms> terms(release.classes());
    InterruptPoller poller;
    for (std::size_t c = 0; c < terms.size(); ++c) {
        poller.tick();
        ClassTerms& t = terms[c];
        for (std::size_t j = 0; j < release.n_qi; ++j) {
            const Taxonomy& tax = schema.qi_tax[j];
            const Code node = release.class_qi[c * release.n_qi + j];
            const Count covered = leaves.of(c, j);
            const double penalty = certainty_penalty(tax, node, tight_range(release, c, j));
            t.ncp += weights[j] * penalty;
            qi_loss[j] += static_cast<double>(sizes[c]) * penalty;
            t.dist += weights[j] * coverage_penalty(tax, node);
            t.information += 1.0 / static_cast<double>(covered);
            t.volume *= static_cast<double>(covered);
            t.depth += tax.depth(node);
        }
    }
    return terms;
}

// Summed depths of a frequency-set row's QI leaves: the depth lift of a tuple is this minus the published depths.
int leaf_depth(const Schema& schema, const FrequencySet& fs, std::size_t row) {
    int depth = 0;
    for (std::size_t j = 0; j < fs.n_qi; ++j) depth += schema.qi_tax[j].depth(fs.qi_row(row)[j]);
    return depth;
}

// Information of the sensitive values published for one piece (Def. 14).
double sensitive_information(const Schema& schema, const Release& release, std::size_t piece) {
    double information = 0;
    for (std::size_t s = 0; s < release.n_sa; ++s)
        information += node_information(schema.sa_tax[s], release.piece_sa[piece * release.n_sa + s]);
    return information;
}

}  // namespace

// Per-QI weights for IL/NCP/Dist normalized to sum 1; equal weights 1/|QI| when none are given (the default of the
// m-confidentiality paper's experiments).
std::vector<double> normalized_weights(const std::vector<double>& weights, std::size_t n_qi) {
    if (weights.empty()) return std::vector<double>(n_qi, 1.0 / static_cast<double>(std::max<std::size_t>(n_qi, 1)));
    if (weights.size() != n_qi)
        bad_argument("metric weights", std::to_string(n_qi) + " weights (one per quasi-identifier)",
                     std::to_string(weights.size()));
    double sum = 0;
    for (double w : weights) {
        if (!std::isfinite(w) || w < 0) bad_argument("metric weights", "finite non-negative weights", format_number(w));
        sum += w;
    }
    if (!(sum > 0)) bad_argument("metric weights", "at least one positive weight", "all zero");
    std::vector<double> normalized(weights);
    for (double& w : normalized) w /= sum;
    return normalized;
}

// Xu et al.'s normalized certainty penalty of one published QI value: on a numeric taxonomy the width of the tight
// range (or of the node's interval) over the domain's width, otherwise the coverage penalty.
double certainty_penalty(const Taxonomy& tax, Code node, const std::pair<double, double>* range) {
    if (!tax.numeric()) return coverage_penalty(tax, node);
    const auto& domain = *tax.range(tax.root());
    const double width = domain.second - domain.first;
    if (!(width > 0)) return 0.0;
    const auto& span = range ? *range : *tax.range(node);
    return (span.second - span.first) / width;
}

Metrics compute_metrics(const Schema& schema, const FrequencySet& fs, const Release& release,
                        const std::vector<double>& weights) {
    const std::vector<double> qi_weights = normalized_weights(weights, release.n_qi);
    Metrics m;

    // Class sizes and the per-tuple losses count counterfeit tuples (m-invariance) as the published tuples of their
    // class they are; the height and um measure what became of the source's own tuples, which they are not.
    const std::vector<Count> sizes = release.class_sizes();
    Count published = 0;
    double squares = 0;
    for (Count size : sizes) {
        published += size;
        squares += static_cast<double>(size) * static_cast<double>(size);
    }
    const Count counterfeits = release.counterfeit_tuples();
    const Count all = published - counterfeits + release.suppressed;
    m.classes = sizes.size();
    m.min_class_size = sizes.empty() ? 0 : *std::min_element(sizes.begin(), sizes.end());
    m.avg_class_size = sizes.empty() ? 0.0 : static_cast<double>(published) / static_cast<double>(sizes.size());
    m.discernibility = squares + static_cast<double>(release.suppressed) * static_cast<double>(all);

    std::vector<double> qi_loss(release.n_qi, 0.0);
    const std::vector<ClassTerms> terms = class_terms(schema, release, qi_weights, sizes, qi_loss);
    double il = 0, dist = 0, lift = 0, information = 0;
    InterruptPoller poller;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        poller.tick();
        const Release::Piece& piece = release.pieces[p];
        const ClassTerms& t = terms[piece.cls];
        const double n = static_cast<double>(piece.count);
        il += n * t.ncp;
        dist += n * t.dist;
        lift += n * (leaf_depth(schema, fs, piece.row) - t.depth);
        information += n * (t.information + sensitive_information(schema, release, p));
    }
    for (const Release::Counterfeit& c : release.counterfeits) {
        il += static_cast<double>(c.count) * terms[c.cls].ncp;
        dist += static_cast<double>(c.count) * terms[c.cls].dist;
    }
    const double tuples = static_cast<double>(published);
    const Count from_source = published - counterfeits;
    m.il = il;
    m.ncp = published > 0 ? il / tuples : 0.0;
    m.dist = published > 0 ? dist / tuples : 0.0;
    m.ncp_per_qi = qi_loss;
    if (published > 0)
        for (double& loss : m.ncp_per_qi) loss /= tuples;
    if (release.levels)
        m.height = std::accumulate(release.levels->begin(), release.levels->end(), 0);
    else
        m.height = from_source > 0 ? lift / static_cast<double>(from_source) : 0.0;
    // I(O): every original tuple, suppressed ones included, holds a leaf (information 1) in each column.
    const double original = static_cast<double>(all) * static_cast<double>(release.n_qi + release.n_sa);
    m.um = original > 0 ? information / original : 0.0;

    std::vector<double> class_qi_volume(terms.size());
    for (std::size_t c = 0; c < terms.size(); ++c) class_qi_volume[c] = terms[c].volume;
    m.kl = kl_divergence(schema, fs, release, class_qi_volume);
    return m;
}

const std::vector<std::string>& selection_metric_names() {
    static const std::vector<std::string> names{"dm", "il", "height", "kl"};
    return names;
}

double selection_value(const Metrics& m, const std::string& metric) {
    if (metric == "dm") return m.discernibility;
    if (metric == "il") return m.il;
    if (metric == "height") return m.height;
    if (metric == "kl") return m.kl;
    bad_argument("params->'metric'", "one of \"dm\", \"il\", \"height\", \"kl\"", "\"" + metric + "\"");
}

}  // namespace anon
