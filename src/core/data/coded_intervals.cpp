#include "coded_intervals.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/base.hpp"

namespace anon {

namespace {

bool near(double a, double b, double scale) { return std::fabs(a - b) <= 1e-9 * scale; }

std::string below(double x) { return "<" + format_number(x); }
std::string from(double x) { return ">=" + format_number(x); }

// Checks what coding needs beyond interval_nodes' own checks.
void check_coding(double lower, double upper, const std::vector<double>& widths) {
    for (double w : widths) {
        const double count = (upper - lower) / w;
        if (std::fabs(count - std::round(count)) > 1e-9 * count)
            bad_argument("widths", "with coding, widths that divide upper - lower",
                         format_number(w) + " for " + format_number(lower) + " to " + format_number(upper));
        if (std::round(count) < 2)
            bad_argument("widths", "with coding, at least two intervals at every level",
                         "one interval of width " + format_number(w));
    }
}

}  // namespace

std::vector<TaxonomyNodeSpec> coded_interval_nodes(double lower, double upper, const std::vector<double>& widths) {
    std::vector<TaxonomyNodeSpec> nodes = interval_nodes(lower, upper, widths);  // checks the specification
    check_coding(lower, upper, widths);
    // At every level above the finest, the first and the last interval open outwards.
    std::map<std::string, std::string> renamed;
    InterruptPoller poll;
    for (auto& n : nodes) {
        poll.tick();
        if (!n.range || !n.parent) continue;
        const auto [a, b] = *n.range;
        for (std::size_t i = 1; i < widths.size(); ++i) {
            if (!near(b - a, widths[i], widths[i])) continue;
            if (near(a, lower, widths[i])) renamed[n.value] = below(b);
            if (near(b, upper, widths[i])) renamed[n.value] = from(a);
        }
    }
    for (auto& n : nodes) {
        poll.tick();
        if (auto it = renamed.find(n.value); it != renamed.end()) n.value = it->second;
        if (n.parent)
            if (auto it = renamed.find(*n.parent); it != renamed.end()) n.parent = it->second;
    }
    const bool one_level = widths.size() == 1;
    nodes.push_back({below(lower), one_level ? "*" : below(lower + widths[1]), 1.0, std::make_pair(lower, lower)});
    nodes.push_back({from(upper), one_level ? "*" : from(upper - widths[1]), 1.0, std::make_pair(upper, upper)});
    return nodes;
}

Taxonomy coded_interval_taxonomy(std::string name, double lower, double upper, const std::vector<double>& widths,
                                 const std::vector<std::pair<std::string, double>>& leaf_values) {
    std::vector<TaxonomyNodeSpec> nodes = coded_interval_nodes(lower, upper, widths);
    double low = lower, high = upper;
    for (const auto& [label, v] : leaf_values) {
        low = std::min(low, v);
        high = std::max(high, v);
        std::string parent;
        if (v < lower) {
            parent = below(lower);
        } else if (v >= upper) {
            parent = from(upper);
        } else {
            const double a = lower + std::floor((v - lower) / widths[0]) * widths[0];
            parent = "[" + format_number(a) + "," + format_number(std::min(a + widths[0], upper)) + ")";
        }
        nodes.push_back({label, parent, 1.0, std::make_pair(v, v)});
    }
    // The open nodes and the root reach the values outside [lower, upper).
    for (auto& n : nodes) {
        if (!n.range) continue;
        if (!n.parent) n.range = std::make_pair(low, high);
        if (n.value.rfind("<", 0) == 0) n.range->first = low;
        if (n.value.rfind(">=", 0) == 0) n.range->second = high;
    }
    return Taxonomy::build(std::move(name), nodes);
}

}  // namespace anon
