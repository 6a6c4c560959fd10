#include "quantile_hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace anon {

namespace {

// The rows before each value (cumulative counts).
std::vector<double> rows_before(const std::vector<std::pair<double, Count>>& values) {
    std::vector<double> before(values.size());
    double sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        before[i] = sum;
        sum += static_cast<double>(values[i].second);
    }
    return before;
}

// From candidate cut indexes (increasing), the ones nearest to `bins` equal-count targets, without repeats.
std::vector<std::size_t> nearest_cuts(const std::vector<std::size_t>& candidates, const std::vector<double>& before,
                                      double total, int bins) {
    std::vector<std::size_t> out;
    for (int j = 1; j < bins && !candidates.empty(); ++j) {
        const double target = total * j / bins;
        std::size_t best = candidates.front();
        for (std::size_t c : candidates)
            if (std::fabs(before[c] - target) < std::fabs(before[best] - target)) best = c;
        if (out.empty() || out.back() < best) out.push_back(best);
    }
    return out;
}

// Drops cuts until every interval between consecutive coarse cuts (and the ends) holds a fine cut, so that each
// coarse interval contains at least two finer ones and no label repeats across levels.
std::vector<std::size_t> merge_single_intervals(std::vector<std::size_t> coarse, const std::vector<std::size_t>& fine,
                                                std::size_t end) {
    auto fine_between = [&](std::size_t a, std::size_t b) {
        return std::any_of(fine.begin(), fine.end(), [&](std::size_t f) { return f > a && f < b; });
    };
    bool changed = true;
    while (changed && !coarse.empty()) {
        changed = false;
        for (std::size_t i = 0; i <= coarse.size(); ++i) {
            const std::size_t a = i == 0 ? 0 : coarse[i - 1];
            const std::size_t b = i == coarse.size() ? end : coarse[i];
            if (fine_between(a, b)) continue;
            coarse.erase(coarse.begin() + static_cast<long>(i == coarse.size() ? i - 1 : i));
            changed = true;
            break;
        }
    }
    return coarse;
}

// Parses an interval label "[a,b)"; false when the label is not one.
bool parse_interval(const std::string& label, double& a, double& b) {
    if (label.size() < 5 || label.front() != '[' || label.back() != ')') return false;
    const std::size_t comma = label.find(',');
    if (comma == std::string::npos) return false;
    char* end = nullptr;
    const std::string first = label.substr(1, comma - 1), second = label.substr(comma + 1, label.size() - comma - 2);
    a = std::strtod(first.c_str(), &end);
    if (first.empty() || *end != '\0') return false;
    b = std::strtod(second.c_str(), &end);
    return !second.empty() && *end == '\0' && a < b;
}

}  // namespace

std::vector<std::vector<double>> quantile_cuts(const std::vector<std::pair<double, Count>>& values,
                                               const std::vector<int>& bins, const std::string& argument) {
    if (bins.empty()) bad_argument("bins", "a non-empty array of interval counts, finest level first", "{}");
    for (std::size_t i = 0; i < bins.size(); ++i) {
        if (bins[i] < 2)
            bad_argument("bins", "interval counts of at least 2",
                         std::to_string(bins[i]) + " at position " + std::to_string(i + 1));
        if (i > 0 && bins[i] >= bins[i - 1])
            bad_argument("bins", "decreasing interval counts, finest level first",
                         std::to_string(bins[i]) + " after " + std::to_string(bins[i - 1]));
    }
    if (values.empty()) bad_argument(argument, "a column with at least one non-NULL value", "no values");
    const std::vector<double> before = rows_before(values);
    const double total = before.back() + static_cast<double>(values.back().second);
    std::vector<std::size_t> candidates;  // a cut before the first value would make an empty interval
    for (std::size_t i = 1; i < values.size(); ++i) candidates.push_back(i);
    std::vector<std::vector<double>> out;
    std::vector<std::size_t> finer = candidates;
    bool finest = true;
    for (int b : bins) {
        std::vector<std::size_t> cuts = nearest_cuts(finer, before, total, b);
        if (!finest) cuts = merge_single_intervals(cuts, finer, values.size());
        if (cuts.empty() || (!finest && cuts.size() == finer.size())) continue;
        std::vector<double> level;
        for (std::size_t c : cuts) level.push_back(values[c].first);
        out.push_back(std::move(level));
        finer = std::move(cuts);
        finest = false;
    }
    return out;
}

std::vector<TaxonomyNodeSpec> cut_hierarchy_nodes(double lower, double upper,
                                                  const std::vector<std::vector<double>>& cuts) {
    auto label = [](double a, double b) { return "[" + format_number(a) + "," + format_number(b) + ")"; };
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::make_pair(lower, upper)}};
    if (cuts.empty()) nodes.push_back({label(lower, upper), "*", 1.0, std::make_pair(lower, upper)});
    for (std::size_t i = cuts.size(); i-- > 0;) {
        std::vector<double> bounds{lower};
        bounds.insert(bounds.end(), cuts[i].begin(), cuts[i].end());
        bounds.push_back(upper);
        for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
            std::string parent = "*";
            if (i + 1 < cuts.size()) {
                // The coarser interval holding this one: its cuts are a subset of this level's.
                const auto& up = cuts[i + 1];
                const auto it = std::upper_bound(up.begin(), up.end(), bounds[k]);
                const double pa = it == up.begin() ? lower : *(it - 1);
                const double pb = it == up.end() ? upper : *it;
                parent = label(pa, pb);
            }
            nodes.push_back({label(bounds[k], bounds[k + 1]), parent, 1.0, std::make_pair(bounds[k], bounds[k + 1])});
        }
    }
    return nodes;
}

std::vector<TaxonomyNodeSpec> quantile_hierarchy_nodes(const std::vector<std::pair<double, Count>>& values,
                                                       const std::vector<int>& bins, const std::string& argument) {
    const auto cuts = quantile_cuts(values, bins, argument);
    return cut_hierarchy_nodes(std::floor(values.front().first), std::floor(values.back().first) + 1, cuts);
}

Taxonomy range_taxonomy_with_values(std::string name, std::vector<TaxonomyNodeSpec> nodes,
                                    const std::vector<std::pair<std::string, double>>& leaf_values) {
    double lower = std::numeric_limits<double>::infinity(), upper = -lower;
    std::vector<std::pair<double, std::string>> finest;  // intervals that are nobody's parent, by lower bound
    std::vector<std::string> parents;
    for (const auto& n : nodes)
        if (n.parent) parents.push_back(*n.parent);
    std::sort(parents.begin(), parents.end());
    for (auto& n : nodes) {
        double a = 0, b = 0;
        if (!n.parent || !parse_interval(n.value, a, b)) continue;
        n.range = std::make_pair(a, b);
        lower = std::min(lower, a);
        upper = std::max(upper, b);
        if (!std::binary_search(parents.begin(), parents.end(), n.value)) finest.emplace_back(a, n.value);
    }
    for (auto& n : nodes)
        if (!n.parent) n.range = std::make_pair(lower, upper);
    std::sort(finest.begin(), finest.end());
    std::vector<std::string> outside;
    for (const auto& [label, v] : leaf_values) {
        auto it = std::upper_bound(finest.begin(), finest.end(), std::make_pair(v, std::string("\xff")));
        double a = 0, b = 0;
        if (it == finest.begin() || !parse_interval((it - 1)->second, a, b) || !(v >= a && v < b)) {
            outside.push_back("\"" + label + "\"");
            continue;
        }
        nodes.push_back({label, (it - 1)->second, 1.0, std::make_pair(v, v)});
    }
    if (!outside.empty()) {
        std::string list;
        for (std::size_t i = 0; i < outside.size() && i < 5; ++i) list += (i ? ", " : "") + outside[i];
        if (outside.size() > 5) list += " and " + std::to_string(outside.size() - 5) + " more";
        throw Error(ErrorKind::data_exception,
                    std::to_string(outside.size()) + " value(s) lie outside [" + format_number(lower) + "," +
                        format_number(upper) + ") of taxonomy \"" + name + "\": " + list,
                    {}, "Build the taxonomy again from the current data (replace => true).");
    }
    return Taxonomy::build(std::move(name), nodes);
}

}  // namespace anon
