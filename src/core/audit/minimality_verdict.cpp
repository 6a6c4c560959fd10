#include "minimality_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "minimality.hpp"
#include "minimality_dp.hpp"
#include "minimality_parts.hpp"
#include "minimality_poly.hpp"

namespace anon {

namespace {

using minimality::Decomposition;
using minimality::LogChoose;
using minimality::SpecializedPart;

// Credibilities within this relative margin of a bound do not exceed it (audit_minimality's margin).
constexpr double margin = 1e-9;

// Tuples per generalized class, keyed by class index.
using ClassTuples = std::map<std::uint32_t, Count>;

// Whether every leaf under published sensitive node u lies under a member of `set` (sorted, without duplicates).
bool carries(const Taxonomy& tax, Code u, const std::vector<Code>& set) {
    Count covered = 0;
    for (Code s : set) {
        if (tax.covers(s, u)) return true;
        if (!tax.covers(u, s)) continue;
        const bool nested = std::any_of(set.begin(), set.end(), [&](Code t) { return t != s && tax.covers(t, s); });
        if (!nested) covered += tax.leaf_count(s);
    }
    return covered > 0 && covered == tax.leaf_count(u);
}

// The generalized classes' tuples per published sensitive node (first sensitive column).
std::map<Code, ClassTuples> tuples_by_node(const Release& release, const Decomposition& d) {
    std::map<Code, ClassTuples> by_node;
    InterruptPoller poller;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        poller.tick();
        const std::uint32_t g = d.generalized_of[release.pieces[p].cls];
        if (g != minimality::not_generalized) by_node[release.piece_sa[p * release.n_sa]][g] += release.pieces[p].count;
    }
    return by_node;
}

// The sensitive tuples of each generalized class holding some of the set.
ClassTuples sensitive_tuples(const Taxonomy& tax, const std::map<Code, ClassTuples>& by_node, std::vector<Code> set) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    ClassTuples out;
    for (const auto& [node, classes] : by_node)
        if (carries(tax, node, set))
            for (const auto& [g, tuples] : classes) out[g] += tuples;
    return out;
}

// The audit's parameters: the simplified l-diversity's l and the model's k.
struct Bounds {
    double l;
    Count k;
};

// Whether a credibility exceeds both 1/l and the share of its published class: what the report counts.
bool attacked_with(double credibility, double share, double l) {
    return credibility * l > 1 + margin && credibility > share * (1 + margin);
}

// A generalized class as the dynamic program sees it: its parts (the original classes' tuples, with the threshold
// of the simplified l-diversity, -1 for a part of fewer than k tuples: global recoding publishes no tuple of a
// generalized class's original classes unchanged), and the parts grouped by (tuples, threshold), fewest tuples
// first, with how many there are.
struct ClassShape {
    Count total = 0;
    std::vector<SpecializedPart> parts;
    std::vector<std::pair<SpecializedPart, Count>> groups;
};

ClassShape shape_of(const minimality::GeneralizedClass& g, const Bounds& b) {
    ClassShape shape;
    std::map<std::pair<Count, Count>, Count> groups;
    for (const auto& [original, tuples] : g.parts) {
        const SpecializedPart part{tuples, tuples < b.k ? -1 : minimality::within_share(tuples, b.l)};
        shape.parts.push_back(part);
        shape.total += tuples;
        ++groups[{part.tuples, part.threshold}];
    }
    for (const auto& [part, count] : groups) shape.groups.push_back({{part.first, part.second}, count});
    return shape;
}

// Terms of a part's upper tail summed at most (the partial sum is a lower bound on the tail, which keeps the bound
// below valid), and the relative size below which the next terms are neglected likewise.
constexpr Count tail_terms = 64;
constexpr double negligible = -30;  // log of the relative size

// log of a lower bound on the probability that a part of `tuples` tuples holds more than `threshold` of the
// `sensitive` among `total` placed at random (hypergeometric), summed in log space: it may lie far below the
// rounding of 1, and a part that rarely exceeds its threshold is what makes an exclusion telling.
double log_tail(Count tuples, Count threshold, Count total, Count sensitive, const LogChoose& choose) {
    double log_sum = minimality::log_zero;
    const Count lowest = std::max({threshold + 1, Count{0}, tuples - (total - sensitive)});
    const Count highest = std::min({tuples, sensitive, lowest + tail_terms - 1});
    for (Count x = lowest; x <= highest; ++x) {
        const double term = choose(sensitive, x) + choose(total - sensitive, tuples - x);
        log_sum = minimality::log_add(log_sum, term);
        if (term < log_sum + negligible) break;  // past the mode: the rest is smaller still
    }
    return std::min(0.0, log_sum - choose(total, tuples));
}

// Whether some part of a generalized class may have a credibility above both 1/l and its class's share of the
// set: a part's credibility is at most share / P(kept), where P(kept), the probability that some part exceeds its
// threshold, is at least one minus the product of each part's probability not to (which bounds the joint one from
// above, the parts' sensitive counts being negatively associated). Parts are taken fewest tuples first (the
// likeliest to exceed) until the bound settles it.
bool may_exceed(const ClassShape& shape, Count sensitive, double l, const LogChoose& choose) {
    const double share = static_cast<double>(sensitive) / static_cast<double>(shape.total);
    double log_within = 0;                    // log of the product of (1 - tail)
    double log_tails = minimality::log_zero;  // log of the sum of the tails
    auto highest = [&] {
        // Tails too small for 1 - product: with S their sum, 1 - product >= 1 - e^-S >= S (1 - S).
        const double log_kept =
            log_within < -1e-3 ? std::log(-std::expm1(log_within)) : log_tails + std::log1p(-std::exp(log_tails));
        return std::exp(std::min(0.0, std::log(share) - log_kept));
    };
    for (const auto& [part, count] : shape.groups) {
        if (part.threshold >= std::min(part.tuples, sensitive)) continue;  // never exceeds
        const double tail = log_tail(part.tuples, part.threshold, shape.total, sensitive, choose);
        if (tail == 0) return false;  // the part always exceeds: nothing excluded, every credibility is the share
        log_within += static_cast<double>(count) * std::log1p(-std::exp(tail));
        log_tails = minimality::log_add(log_tails, std::log(static_cast<double>(count)) + tail);
        if (!attacked_with(highest(), share, l)) return false;
    }
    // No part can exceed (nothing excluded), or the bound allows a credibility above both.
    return log_tails != minimality::log_zero;
}

// One generalized class to run the dynamic program on, for one set.
struct Pending {
    std::size_t set;
    std::uint32_t generalized;
    Count sensitive;
};

// Runs the dynamic program on the pending classes and records the attacked original classes and the sets
// (their members' labels) through which they are.
void run_pending(const Taxonomy& tax, const std::vector<std::vector<Code>>& sets, const Decomposition& d,
                 const std::vector<ClassShape>& shapes, const std::vector<Pending>& pending, double l,
                 MinimalityVerdict& v) {
    std::vector<char> attacked(d.originals.size(), 0);
    std::size_t last_set = sets.size();
    for (const Pending& job : pending) {
        check_interrupts();
        const ClassShape& shape = shapes[job.generalized];
        const double share = static_cast<double>(job.sensitive) / static_cast<double>(shape.total);
        const std::vector<double> p = minimality::sensitive_probabilities(shape.parts, job.sensitive);
        const auto& originals = d.generalized[job.generalized].parts;
        for (std::size_t k = 0; k < shape.parts.size(); ++k) {
            const double credibility = std::clamp(p[k], 0.0, 1.0);
            if (!attacked_with(credibility, share, l)) continue;
            if (job.set != last_set)
                for (Code member : sets[job.set]) v.values.emplace_back(tax.label(member));
            last_set = job.set;
            v.max_credibility = std::max(v.max_credibility, credibility);
            if (attacked[originals[k].first]) continue;
            attacked[originals[k].first] = 1;
            ++v.classes;
            v.rows += shape.parts[k].tuples;
        }
    }
}

}  // namespace

MinimalityVerdict minimality_verdict(const Schema& schema, const FrequencySet& fs, const Release& release,
                                     const std::vector<std::vector<Code>>& sets, double l, Count k,
                                     std::uint64_t max_steps) {
    if (!(l > 1)) bad_argument("l", "a number above 1", format_number(l));
    const Decomposition d = minimality::decompose(schema, fs, release, {}, Recoding::global);
    const Taxonomy& tax = schema.sa_tax[0];
    const std::map<Code, ClassTuples> by_node = tuples_by_node(release, d);
    MinimalityVerdict verdict;
    verdict.l = l;
    std::uint64_t steps = 0;
    for (const auto& set : sets) steps += static_cast<std::uint64_t>(set.size()) * by_node.size();
    std::vector<ClassShape> shapes;
    Count largest = 0;
    for (const auto& g : d.generalized) {
        shapes.push_back(shape_of(g, {l, k}));
        largest = std::max(largest, shapes.back().total);
    }
    const LogChoose choose(largest);
    std::vector<Pending> pending;
    std::uint64_t bytes = 0;
    for (std::size_t s = 0; s < sets.size() && steps <= max_steps; ++s) {
        for (const auto& [g, sensitive] : sensitive_tuples(tax, by_node, sets[s])) {
            check_interrupts();
            if (!may_exceed(shapes[g], sensitive, l, choose)) continue;
            const minimality::DpCost cost = minimality::dp_cost(shapes[g].parts, sensitive);
            steps += cost.steps;
            bytes = std::max(bytes, cost.bytes);
            pending.push_back({s, g, sensitive});
        }
    }
    if (steps > max_steps) {
        verdict.not_audited = "the exact audit would take more than " + format_number(static_cast<double>(max_steps)) +
                              " counting steps (the bound of a report)";
        return verdict;
    }
    if (const MemoryBudget* budget = current_memory_budget(); budget && !budget->fits(bytes)) {
        verdict.not_audited =
            "the exact audit would need " + describe_bytes(bytes) + " more memory than the job's budget leaves";
        return verdict;
    }
    run_pending(tax, sets, d, shapes, pending, l, verdict);
    verdict.audited = true;
    return verdict;
}

}  // namespace anon
