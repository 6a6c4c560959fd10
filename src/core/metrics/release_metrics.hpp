// Utility metrics of a release, computed against the frequency set it was made from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "data/data.hpp"

namespace anon {

struct Metrics {
    std::size_t classes = 0;
    Count min_class_size = 0;
    double avg_class_size = 0;  // published tuples / classes
    double discernibility = 0;  // sum of squared class sizes, plus |T| for each suppressed tuple (Bayardo-Agrawal)
    // Generalization height (l-diversity paper, Section 6): full-domain releases, the sum of the QI levels;
    // otherwise the tuple-weighted mean of the summed depth lifts (leaf depth - published node depth).
    double height = 0;
    // Normalized certainty penalty (Xu et al., used as IL by BSGI): per tuple, the mean over QIs of
    // (leaves under the published node - 1) / (leaves of the taxonomy - 1) for categorical columns, or
    // (max - min) / (domain max - domain min) for numeric ones; `il` is the sum over tuples, `ncp` its mean in [0,1].
    double il = 0;
    double ncp = 0;
    // The NCP of each QI alone (unweighted), its mean over the published tuples in [0,1]: which column lost what.
    // With the metric weights w, sum_j w_j * ncp_per_qi[j] is `ncp`.
    std::vector<double> ncp_per_qi;
    double dist = 0;  // Dist(T, T*), Def. 7 of the m-confidentiality paper, in [0, 1]
    double kl = 0;    // KL-divergence between the empirical and the published distribution (l-diversity paper, §6)
    double um = 0;    // information um(G), Def. 14 of the (tau, l)-diversity paper, counting QI and sensitive values
};

// Computes every metric of `release` over `fs`. `weights` gives a weight per QI for IL/NCP/Dist (default equal).
// Counterfeit tuples (m-invariance) are published tuples of their class: they count in the class sizes,
// discernibility, IL/NCP/Dist and the published distribution of KL; the height and um measure the source's tuples.
Metrics compute_metrics(const Schema& schema, const FrequencySet& fs, const Release& release,
                        const std::vector<double>& weights = {});

// Per-QI weights normalized to sum 1; equal weights when none are given. Refuses a wrong count, negative or
// non-finite weights, and all zeros. BSGI minimizes, and the metrics report, the loss under the same weights.
std::vector<double> normalized_weights(const std::vector<double>& weights, std::size_t n_qi);

// Xu et al.'s normalized certainty penalty of one published QI value in [0, 1]: on a numeric taxonomy the width
// of the tight range (nullptr: of the node's interval) over the domain's width, otherwise the share of the other
// leaves the node covers.
double certainty_penalty(const Taxonomy& tax, Code node, const std::pair<double, double>* range);

// The names accepted by params->'metric' for choosing among candidate releases: "dm", "il", "height", "kl".
const std::vector<std::string>& selection_metric_names();

// The value of a selection metric (lower is better).
double selection_value(const Metrics& m, const std::string& metric);

}  // namespace anon
