// The counts of Appendix A, regrouped. Appendix A keeps, for ranges of classes [a, b], m (every placement),
// u (no class violates) and n (at least one violates); here the same three counts describe a set of parts (a
// Tally: m is the binomial row of its tuple count by Vandermonde's identity, so only u = safe and n = violated are
// stored), and two disjoint sets combine as
//     safe = safe1 * safe2,    violated = violated1 * all2 + safe1 * violated2
// (Appendix A's recurrence for n([a, b], x), with {C_a} generalized to any set). All terms are non-negative, so
// the log-space sums never cancel, however rare violations are. Phase 2 of Algorithm 2 (A and B) becomes:
//     B   = violated_total(n_s)
//     A_k = sum_y y * (violated_k(y) * all_rest(n_s - y) + safe_k(y) * violated_rest(n_s - y))
// where k is the group of equal parts and "rest" every other part (prefix and suffix tallies). Thresholds come from
// the caller: floor(n_i/l) for global recoding, as F_i of Appendix A (Algorithm 2's line 20 reads ceil(n_a/l),
// which contradicts the text's recurrence for u).
#include "minimality_dp.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "base/base.hpp"
#include "minimality_poly.hpp"

namespace anon::minimality {

namespace {

// Placements of sensitive tuples within a set of parts, by number x of sensitive tuples (truncated at the limit).
struct Tally {
    Count tuples = 0;
    LogPoly safe{0.0};           // every part holds at most its threshold
    LogPoly violated{log_zero};  // at least one part holds more
};

// Parts with equal tuples and (clamped) threshold, with how many there are and which input parts they are.
struct Group {
    Count tuples = 0;
    Count threshold = 0;
    std::vector<std::size_t> members;
};

// The union of two disjoint sets of parts.
Tally join(const Tally& a, const Tally& b, std::size_t limit, const LogChoose& choose) {
    Tally out;
    out.tuples = a.tuples + b.tuples;
    out.safe = log_product_sum(a.safe, b.safe, {}, {}, limit);
    out.violated = log_product_sum(a.violated, binomial_row(b.tuples, limit, choose), a.safe, b.violated, limit);
    return out;
}

// One part: x sensitive tuples among its n in C(n, x) ways, safe up to the threshold.
Tally single(Count tuples, Count threshold, std::size_t limit, const LogChoose& choose) {
    Tally out;
    out.tuples = tuples;
    out.safe = binomial_row(tuples, limit, choose);
    out.violated.assign(out.safe.size(), log_zero);
    for (std::size_t x = 0; x < out.safe.size(); ++x)
        if (static_cast<Count>(x) > threshold) std::swap(out.safe[x], out.violated[x]);
    return out;
}

// All parts of a group, added one at a time (each step costs O(limit * tuples), cheaper than squaring for the
// many small parts of real classes).
Tally group_tally(const Group& g, std::size_t limit, const LogChoose& choose) {
    const Tally one = single(g.tuples, g.threshold, limit, choose);
    Tally all = one;
    for (std::size_t i = 1; i < g.members.size(); ++i) all = join(all, one, limit, choose);
    return all;
}

// Parts grouped by (tuples, threshold), the threshold clamped to [-1, min(tuples, limit)] so that parts that
// always violate, or never can, fall together.
std::vector<Group> group_parts(const std::vector<SpecializedPart>& parts, Count limit) {
    std::map<std::pair<Count, Count>, Group> by_key;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const Count t = std::clamp<Count>(parts[i].threshold, -1, std::min(parts[i].tuples, limit));
        Group& g = by_key[{parts[i].tuples, t}];
        g.tuples = parts[i].tuples;
        g.threshold = t;
        g.members.push_back(i);
    }
    std::vector<Group> groups;
    for (auto& [key, g] : by_key) groups.push_back(std::move(g));
    return groups;
}

// log(A_k / parts in group k): the kept placements weighted by how many sensitive tuples one part of group k
// holds, i.e. log(B * E[sensitive tuples of the part | kept]).
double log_kept_sensitive_per_part(const Group& g, const Tally& group, const Tally& prefix, const Tally& suffix,
                                   Count total_tuples, std::size_t limit, const LogChoose& choose) {
    const Count rest_tuples = total_tuples - group.tuples;
    const LogPoly suffix_all = binomial_row(suffix.tuples, limit, choose);
    double sum = log_zero;
    for (std::size_t y = 1; y < group.safe.size(); ++y) {
        const std::size_t z = limit - y;
        const double rest_violated = log_coefficient(prefix.violated, suffix_all, prefix.safe, suffix.violated, z);
        const double ways =
            log_add(group.violated[y] + choose(rest_tuples, static_cast<Count>(z)), group.safe[y] + rest_violated);
        sum = log_add(sum, std::log(static_cast<double>(y)) + ways);
    }
    return sum - std::log(static_cast<double>(g.members.size()));
}

// The cost of the program on `groups` groups of parts with `total` tuples, truncated at `limit` (dp_cost).
DpCost cost_of(std::size_t groups, Count total, Count limit) {
    const auto width = static_cast<std::uint64_t>(limit) + 1;
    DpCost cost;
    // Each part joined into its group's tally: ~3 products of width by the part's tuples; per group, the prefix and
    // suffix joins and the weighted sum: ~3 products of width by width.
    cost.steps = width * (4 * static_cast<std::uint64_t>(total) + 3 * groups * width);
    // Safe and violated polynomials of each group's tally and prefix, the suffix and the temporaries; log n!.
    cost.bytes = (4 * groups + 8) * width * sizeof(double) + (static_cast<std::uint64_t>(total) + 1) * sizeof(double);
    return cost;
}

}  // namespace

DpCost dp_cost(const std::vector<SpecializedPart>& parts, Count sensitive) {
    Count total = 0;
    for (const auto& p : parts) total += p.tuples;
    return cost_of(group_parts(parts, sensitive).size(), total, sensitive);
}

Count within_share(Count tuples, double l) {
    const double room = static_cast<double>(tuples) * (1 + 1e-12);
    auto x = static_cast<Count>(std::floor(static_cast<double>(tuples) / l));
    while (static_cast<double>(x + 1) * l <= room) ++x;
    while (x > 0 && static_cast<double>(x) * l > room) --x;
    return x;
}

std::vector<double> sensitive_probabilities(const std::vector<SpecializedPart>& parts, Count sensitive) {
    Count total = 0;
    for (const auto& p : parts) {
        if (p.tuples <= 0) throw Error(ErrorKind::internal, "minimality audit: a part without tuples");
        total += p.tuples;
    }
    if (sensitive < 0 || sensitive > total)
        throw Error(ErrorKind::internal, "minimality audit: more sensitive tuples than tuples in a class");
    std::vector<double> out(parts.size(), total == 0 ? 0.0 : static_cast<double>(sensitive) / total);
    const auto limit = static_cast<std::size_t>(sensitive);
    const std::vector<Group> groups = group_parts(parts, sensitive);
    const MemoryCharge charge(cost_of(groups.size(), total, sensitive).bytes,
                              "the counting polynomials of the minimality audit");
    const LogChoose choose(total);

    std::vector<Tally> tally;            // per group
    std::vector<Tally> prefix{Tally{}};  // prefix[k]: groups before k
    for (const Group& g : groups) {
        check_interrupts();
        tally.push_back(group_tally(g, limit, choose));
        prefix.push_back(join(prefix.back(), tally.back(), limit, choose));
    }
    const LogPoly& violated = prefix.back().violated;
    const double log_kept = limit < violated.size() ? violated[limit] : log_zero;  // B
    if (log_kept == log_zero) return out;  // no placement explains the generalization: nothing is excluded

    Tally suffix;  // groups after k
    for (std::size_t k = groups.size(); k-- > 0;) {
        check_interrupts();
        const double log_a = log_kept_sensitive_per_part(groups[k], tally[k], prefix[k], suffix, total, limit, choose);
        const double p = std::exp(log_a - log_kept) / static_cast<double>(groups[k].tuples);
        for (std::size_t i : groups[k].members) out[i] = p;
        if (k > 0) suffix = join(tally[k], suffix, limit, choose);
    }
    return out;
}

}  // namespace anon::minimality
