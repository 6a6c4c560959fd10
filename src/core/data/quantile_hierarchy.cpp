#include "quantile_hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace anon {

namespace {

// What the memory-limit error suggests besides a larger anon.memory_limit.
constexpr const char* quantile_remedy = "ask for fewer bins, or build the taxonomy from fewer distinct values";

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

// The position in `candidates` (cut indexes, increasing) of the one whose rows before it are nearest to `target`,
// the first of two equally near.
std::size_t nearest_candidate(const std::vector<std::size_t>& candidates, const std::vector<double>& before,
                              double target) {
    const auto it = std::lower_bound(candidates.begin(), candidates.end(), target,
                                     [&](std::size_t c, double t) { return before[c] < t; });
    const auto p = static_cast<std::size_t>(it - candidates.begin());
    if (p == candidates.size()) return p - 1;
    if (p == 0) return 0;
    return std::fabs(before[candidates[p]] - target) < std::fabs(before[candidates[p - 1]] - target) ? p : p - 1;
}

// From candidate cut indexes (increasing), the ones nearest to `bins` equal-count targets, without repeats. The
// nearest candidate only moves forward as the target grows, so each cut is found by a galloping search over the
// targets from the previous one: the work grows with the cuts found, not with `bins`.
std::vector<std::size_t> nearest_cuts(const std::vector<std::size_t>& candidates, const std::vector<double>& before,
                                      double total, int bins) {
    std::vector<std::size_t> out;
    if (candidates.empty()) return out;
    const auto nearest_at = [&](long j) {
        return nearest_candidate(candidates, before, total * static_cast<double>(j) / bins);
    };
    InterruptPoller poll(256);
    for (long j = 1; j < bins;) {
        const std::size_t p = nearest_at(j);
        out.push_back(candidates[p]);
        if (p + 1 == candidates.size()) break;
        // The first target after j whose nearest candidate lies beyond p.
        long below = j, above = j + 1, stride = 1;
        while (above < bins && nearest_at(above) <= p) {
            below = above;
            stride *= 2;
            above = below + stride;
            poll.tick();
        }
        above = std::min<long>(above, bins);
        while (above - below > 1) {
            const long middle = below + (above - below) / 2;
            (nearest_at(middle) > p ? above : below) = middle;
            poll.tick();
        }
        j = above;
    }
    return out;
}

// Drops cuts until every interval between consecutive coarse cuts (and the ends) holds a fine cut, so that each
// coarse interval contains at least two finer ones and no label repeats across levels. The coarse cuts are fine
// ones: an interval without a fine cut inside loses its right end (the next interval then holds it), the last one
// its left end, in one pass.
std::vector<std::size_t> merge_single_intervals(const std::vector<std::size_t>& coarse,
                                                const std::vector<std::size_t>& fine, std::size_t end) {
    auto fine_between = [&](std::size_t a, std::size_t b) {
        const auto it = std::upper_bound(fine.begin(), fine.end(), a);
        return it != fine.end() && *it < b;
    };
    std::vector<std::size_t> out;
    InterruptPoller poll(256);
    std::size_t left = 0;
    for (std::size_t c : coarse) {
        if (fine_between(left, c)) {
            out.push_back(c);
            left = c;
        }
        poll.tick();
    }
    if (!out.empty() && !fine_between(left, end)) out.pop_back();
    return out;
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

// Parses a number that is the whole of `text`.
bool parse_whole_number(const std::string& text, double& x) {
    char* end = nullptr;
    x = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && std::isfinite(x);
}

// Parses a band label: "[a,b)", or the open "<b" (a = -infinity) and ">=a" (b = +infinity) of bottom and top
// coding; false when the label is none of them.
bool parse_band(const std::string& label, double& a, double& b) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (label.rfind(">=", 0) == 0) {
        b = inf;
        return parse_whole_number(label.substr(2), a);
    }
    if (label.rfind("<", 0) == 0 && label.rfind("<=", 0) != 0) {
        a = -inf;
        return parse_whole_number(label.substr(1), b);
    }
    return parse_interval(label, a, b);
}

std::string band_label(double a, double b) {
    if (std::isinf(a)) return "<" + format_number(b);
    if (std::isinf(b)) return ">=" + format_number(a);
    return "[" + format_number(a) + "," + format_number(b) + ")";
}

// 10^e as the double nearest to it (exact up to 10^22).
double power_of_ten(int e) { return std::pow(10.0, e); }

// m * 10^e as the double nearest to the decimal (a division for negative e, so that 3 * 10^-1 is 0.3).
double decimal(double m, int e) { return e >= 0 ? m * power_of_ten(e) : m / power_of_ten(-e); }

}  // namespace

std::vector<std::vector<double>> quantile_cuts(const std::vector<std::pair<double, Count>>& values,
                                               const std::vector<int>& bins, const std::string& argument, Count k) {
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
    // A cut before the first value would make an empty interval; one with fewer than k rows on a side would print
    // a bound beyond which fewer than k rows lie.
    const double least = static_cast<double>(std::max<Count>(k, 1));
    std::vector<std::size_t> candidates;
    InterruptPoller poll;
    for (std::size_t i = 1; i < values.size(); ++i) {
        if (before[i] >= least && total - before[i] >= least) candidates.push_back(i);
        poll.tick();
    }
    std::vector<std::vector<double>> out;
    std::vector<std::size_t> finer = candidates;
    bool finest = true;
    for (int b : bins) {
        check_interrupts();
        std::vector<std::size_t> cuts = nearest_cuts(finer, before, total, b);
        if (!finest) cuts = merge_single_intervals(cuts, finer, values.size());
        if (cuts.empty() || (!finest && cuts.size() == finer.size())) continue;
        std::vector<double> level;
        level.reserve(cuts.size());
        for (std::size_t c : cuts) level.push_back(values[c].first);
        out.push_back(std::move(level));
        finer = std::move(cuts);
        finest = false;
    }
    return out;
}

double round_cut(double below, double at) {
    if (!(below < at)) return at;
    const double mid = below + (at - below) / 2;
    // From the coarsest step that can hold a number strictly between them down to the finest that prints.
    const int top = static_cast<int>(std::floor(std::log10(std::max(std::fabs(below), std::fabs(at))))) + 1;
    for (int e = top; e >= top - 17; --e) {
        const double step = power_of_ten(e);
        // Beyond 2^53 consecutive multiples are no longer distinct doubles: finer steps print no more.
        if (std::max(std::fabs(below), std::fabs(at)) / step > 1e15) break;
        // The divisions round: step back, then forward to the multiples strictly between.
        double lo = std::floor(below / step), hi = std::ceil(at / step);
        while (decimal(lo, e) > below) --lo;
        while (!(decimal(lo, e) > below)) ++lo;
        while (decimal(hi, e) < at) ++hi;
        while (!(decimal(hi, e) < at)) --hi;
        if (lo > hi) continue;
        const double m = std::min(hi, std::max(lo, std::round(mid / step)));
        const double x = decimal(m, e);
        double printed = 0;
        if (x > below && x < at && parse_whole_number(format_number(x), printed) && printed == x) return x;
    }
    return at;
}

std::vector<TaxonomyNodeSpec> open_cut_hierarchy_nodes(double low, double high,
                                                       const std::vector<std::vector<double>>& cuts) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    // A node's range: its bounds, the open ends brought to the smallest and largest value.
    auto range = [&](double a, double b) { return std::make_pair(std::isinf(a) ? low : a, std::isinf(b) ? high : b); };
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::make_pair(low, high)}};
    std::size_t count = 1;
    for (const auto& level : cuts) count += level.size() + 1;
    nodes.reserve(count);
    InterruptPoller poll;
    for (std::size_t i = cuts.size(); i-- > 0;) {
        std::vector<double> bounds{-inf};
        bounds.insert(bounds.end(), cuts[i].begin(), cuts[i].end());
        bounds.push_back(inf);
        for (std::size_t j = 0; j + 1 < bounds.size(); ++j) {
            std::string parent = "*";
            if (i + 1 < cuts.size()) {
                // The coarser band holding this one: its cuts are a subset of this level's.
                const auto& up = cuts[i + 1];
                const auto it = std::upper_bound(up.begin(), up.end(), bounds[j]);
                parent = band_label(it == up.begin() ? -inf : *(it - 1), it == up.end() ? inf : *it);
            }
            nodes.push_back({band_label(bounds[j], bounds[j + 1]), parent, 1.0, range(bounds[j], bounds[j + 1])});
            poll.tick();
        }
    }
    return nodes;
}

std::vector<std::vector<double>> published_quantile_cuts(const std::vector<std::pair<double, Count>>& values,
                                                         const std::vector<int>& bins, const std::string& argument,
                                                         Count k) {
    auto cuts = quantile_cuts(values, bins, argument, k);
    // Each cut is a value of `values`; every level rounds it the same way, so the levels still nest.
    InterruptPoller poll(1024);
    for (auto& level : cuts)
        for (double& c : level) {
            const auto it = std::lower_bound(values.begin(), values.end(), std::make_pair(c, Count{0}));
            c = round_cut((it - 1)->first, c);
            poll.tick();
        }
    return cuts;
}

std::vector<TaxonomyNodeSpec> quantile_hierarchy_nodes(const std::vector<std::pair<double, Count>>& values,
                                                       const std::vector<int>& bins, const std::string& argument,
                                                       Count k) {
    // The working arrays (the merged values, the rows before each, the candidate and chosen cuts), then the nodes:
    // at most bins[i] - 1 cuts per level and one fewer than the values, and a band label of at most 47 bytes ("[a,b)"
    // of two 15-digit numbers with exponents).
    const std::uint64_t per_value = sizeof(std::pair<double, Count>) + sizeof(double) + 3 * sizeof(std::size_t);
    const MemoryCharge working(values.size() * per_value,
                               "the quantiles of " + std::to_string(values.size()) + " distinct values",
                               quantile_remedy);
    std::uint64_t most_nodes = 1;
    std::uint64_t most_cuts = values.empty() ? 0 : values.size() - 1;
    for (int b : bins) {
        most_cuts = std::min<std::uint64_t>(most_cuts, b < 2 ? 0 : static_cast<std::uint64_t>(b) - 1);
        if (most_cuts == 0) break;
        most_nodes += most_cuts + 1;
    }
    const MemoryCharge nodes_charge(most_nodes * node_spec_bytes(47, 47),
                                    "the quantile taxonomy (up to " + std::to_string(most_nodes) + " nodes)",
                                    quantile_remedy);
    std::vector<std::pair<double, Count>> merged;
    merged.reserve(values.size());
    for (const auto& v : values) {
        if (!merged.empty() && merged.back().first == v.first)
            merged.back().second += v.second;
        else
            merged.push_back(v);
    }
    const auto cuts = published_quantile_cuts(merged, bins, argument, k);
    return open_cut_hierarchy_nodes(merged.front().first, merged.back().first, cuts);
}

Taxonomy range_taxonomy_with_values(std::string name, std::vector<TaxonomyNodeSpec> nodes,
                                    const std::vector<std::pair<std::string, double>>& leaf_values) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    double lower = inf, upper = -inf;                    // the finite bounds of the bands
    std::vector<std::pair<double, std::string>> finest;  // bands that are nobody's parent, by lower bound
    std::vector<std::string> parents;
    for (const auto& n : nodes)
        if (n.parent) parents.push_back(*n.parent);
    std::sort(parents.begin(), parents.end());
    for (auto& n : nodes) {
        double a = 0, b = 0;
        if (!n.parent || !parse_band(n.value, a, b)) continue;
        n.range = std::make_pair(a, b);
        for (double x : {a, b})
            if (!std::isinf(x)) {
                lower = std::min(lower, x);
                upper = std::max(upper, x);
            }
        if (!std::binary_search(parents.begin(), parents.end(), n.value)) finest.emplace_back(a, n.value);
    }
    // The open bands and the root reach the smallest and largest value.
    double low = lower, high = upper;
    for (const auto& lv : leaf_values) {
        low = std::min(low, lv.second);
        high = std::max(high, lv.second);
    }
    for (auto& n : nodes) {
        if (!n.parent) n.range = std::make_pair(low, high);
        if (n.range && std::isinf(n.range->first)) n.range->first = low;
        if (n.range && std::isinf(n.range->second)) n.range->second = high;
    }
    std::sort(finest.begin(), finest.end());
    std::vector<std::string> outside;
    for (const auto& [label, v] : leaf_values) {
        if (finest.empty()) {  // fewer than 2k rows when it was built: no band to print
            nodes.push_back({label, std::string("*"), 1.0, std::make_pair(v, v)});
            continue;
        }
        auto it = std::upper_bound(finest.begin(), finest.end(), std::make_pair(v, std::string("\xff")));
        double a = 0, b = 0;
        if (it == finest.begin() || !parse_band((it - 1)->second, a, b) || !(v >= a && v < b)) {
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
