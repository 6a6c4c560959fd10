// Excessive protection (Def. 35) and count-query error (Section 5.3.3) of the (tau, l)-diversity paper; see
// utility_tau.hpp for the definitions.
#include "utility_tau.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>

#include "base/base.hpp"
#include "data/data.hpp"
#include "models/models.hpp"

namespace anon {

namespace {

// The pieces of each class: piece indexes in class order, class c's being [offset[c], offset[c + 1]).
struct ClassPieces {
    std::vector<std::size_t> offset;
    std::vector<std::size_t> piece;
};

// Groups the release's piece indexes by class (a counting sort, so no order of pieces is assumed).
ClassPieces class_pieces(const Release& release) {
    ClassPieces out;
    out.offset.assign(release.classes() + 1, 0);
    for (const auto& p : release.pieces) ++out.offset[p.cls + 1];
    for (std::size_t c = 0; c < release.classes(); ++c) out.offset[c + 1] += out.offset[c];
    out.piece.resize(release.pieces.size());
    std::vector<std::size_t> next(out.offset.begin(), out.offset.end() - 1);
    for (std::size_t i = 0; i < release.pieces.size(); ++i) out.piece[next[release.pieces[i].cls]++] = i;
    return out;
}

// The (tau, l) domain of sensitive column `col` of fs: weights w(a) of the leaves that occur in the table, as the
// model checker and SWEEP see them.
SensitiveDomain column_domain(const Taxonomy& tax, const FrequencySet& fs, std::size_t col) {
    const Histogram table = whole_table_histogram(fs, col);
    return tau_l_domain(tax, &table);
}

// e(E) of Def. 35 for one class of sensitive column `col`: the induced frequencies sorted in descending order,
// accumulated into F(k) and compared with psi(k) for k = 1..m. `node_counts` is a zeroed per-node scratch array
// (left zeroed), `mass` scratch for the induced masses.
double class_excess(const Release& release, const SensitiveDomain& domain, std::size_t col, const std::size_t* first,
                    const std::size_t* last, double tau, int l, std::vector<Count>& node_counts,
                    std::vector<double>& mass) {
    Count size = 0;
    for (const std::size_t* i = first; i != last; ++i) {
        node_counts[release.piece_sa[*i * release.n_sa + col]] += release.pieces[*i].count;
        size += release.pieces[*i].count;
    }
    domain.masses(node_counts, mass);
    for (const std::size_t* i = first; i != last; ++i) node_counts[release.piece_sa[*i * release.n_sa + col]] = 0;
    for (double& f : mass) f /= static_cast<double>(size);
    std::sort(mass.begin(), mass.end(), std::greater<double>());
    double cumulative = 0, excess = 0;
    for (std::size_t k = 1; k <= mass.size(); ++k) {
        cumulative += mass[k - 1];
        excess += std::fabs(psi(static_cast<int>(k), tau, l) - cumulative);
    }
    return excess;
}

}  // namespace

double excessive_protection(const Schema& schema, const FrequencySet& fs, const Release& release, double tau, int l) {
    if (release.classes() == 0)
        throw Error(ErrorKind::invalid_parameter, "excessive protection needs a release with at least one class");
    const ClassPieces cp = class_pieces(release);
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t col = 0; col < fs.n_sa; ++col) {
        const Taxonomy& tax = schema.sa_tax[col];
        const SensitiveDomain domain = column_domain(tax, fs, col);
        check_tau_l_range(tau, l, static_cast<long long>(domain.size()),
                          {"tau", "l", "m", "base values of " + schema.sa_names[col] + " that occur in the table"});
        std::vector<Count> node_counts(domain.nodes(), 0);
        std::vector<double> mass;
        for (std::size_t c = 0; c < release.classes(); ++c) {
            if (cp.offset[c] == cp.offset[c + 1]) continue;
            const std::size_t* pieces = cp.piece.data();
            best = std::min(best, class_excess(release, domain, col, pieces + cp.offset[c], pieces + cp.offset[c + 1],
                                               tau, l, node_counts, mass));
        }
    }
    return best;
}

namespace {

// The taxonomy of query attribute a: QI a, or sensitive column a - n_qi.
const Taxonomy& attribute_taxonomy(const Schema& schema, std::size_t n_qi, std::size_t a) {
    return a < n_qi ? schema.qi_tax[a] : schema.sa_tax[a - n_qi];
}

// c_i of Section 5.3.3 for a published node t and a query value b of one taxonomy.
double overlap_share(const Taxonomy& tax, Code t, Code b) {
    if (tax.covers(t, b)) return static_cast<double>(tax.leaf_count(b)) / static_cast<double>(tax.leaf_count(t));
    return tax.covers(b, t) ? 1.0 : 0.0;
}

// The same share for tight numeric ranges: the taxonomy's numeric leaves sorted by value with prefix counts of
// those under b, so that a range [lo, hi] is answered with two binary searches.
class RangeShare {
public:
    RangeShare() = default;  // no leaves: for releases without tight ranges
    RangeShare(const Taxonomy& tax, Code b) {
        std::vector<std::pair<double, bool>> leaves;
        for (Code a : tax.leaves())
            if (const double v = numeric_value(tax, a); !std::isnan(v)) leaves.emplace_back(v, tax.covers(b, a));
        std::sort(leaves.begin(), leaves.end());
        under_.push_back(0);
        for (const auto& [v, inside] : leaves) {
            values_.push_back(v);
            under_.push_back(under_.back() + (inside ? 1 : 0));
        }
    }

    double operator()(double lo, double hi) const {
        const auto first = std::lower_bound(values_.begin(), values_.end(), lo) - values_.begin();
        const auto last = std::upper_bound(values_.begin(), values_.end(), hi) - values_.begin();
        if (last <= first) return 0.0;
        return static_cast<double>(under_[last] - under_[first]) / static_cast<double>(last - first);
    }

private:
    std::vector<double> values_;
    std::vector<std::size_t> under_;
};

}  // namespace

Count actual_count(const Schema& schema, const FrequencySet& fs, const CountQuery& query) {
    Count total = 0;
    InterruptPoller poller;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        poller.tick();
        bool inside = true;
        for (std::size_t i = 0; i < query.attributes.size() && inside; ++i) {
            const std::size_t a = query.attributes[i];
            const Code leaf = a < fs.n_qi ? fs.qi_row(r)[a] : fs.sa_row(r)[a - fs.n_qi];
            inside = attribute_taxonomy(schema, fs.n_qi, a).covers(query.values[i], leaf);
        }
        if (inside) total += fs.count[r];
    }
    return total;
}

double estimated_count(const Schema& schema, const Release& release, const CountQuery& query) {
    const std::size_t n_qi = release.n_qi;
    std::vector<double> class_share(release.classes(), 1.0);
    for (std::size_t i = 0; i < query.attributes.size(); ++i) {
        const std::size_t a = query.attributes[i];
        if (a >= n_qi) continue;
        const Taxonomy& tax = schema.qi_tax[a];
        const Code b = query.values[i];
        const bool ranges = !release.class_range.empty();
        const RangeShare range_share = ranges ? RangeShare(tax, b) : RangeShare();
        for (std::size_t c = 0; c < release.classes(); ++c) {
            const auto* range = ranges ? &release.class_range[c * n_qi + a] : nullptr;
            class_share[c] *= range && !std::isnan(range->first)
                                  ? range_share(range->first, range->second)
                                  : overlap_share(tax, release.class_qi[c * n_qi + a], b);
        }
    }
    // A published tuple's share: its class's on the QIs times its sensitive values' (`sa`, n_sa codes).
    auto share_of = [&](std::uint32_t cls, const Code* sa) {
        double share = class_share[cls];
        for (std::size_t i = 0; i < query.attributes.size() && share > 0; ++i) {
            const std::size_t a = query.attributes[i];
            if (a >= n_qi) share *= overlap_share(schema.sa_tax[a - n_qi], sa[a - n_qi], query.values[i]);
        }
        return share;
    };
    double total = 0;
    for (std::size_t p = 0; p < release.pieces.size(); ++p)
        total += share_of(release.pieces[p].cls, release.piece_sa.data() + p * release.n_sa) *
                 static_cast<double>(release.pieces[p].count);
    // Counterfeit tuples (m-invariance) answer as the published tuples of their class they are.
    for (std::size_t i = 0; i < release.counterfeits.size(); ++i)
        total += share_of(release.counterfeits[i].cls, release.counterfeit_sa.data() + i * release.n_sa) *
                 static_cast<double>(release.counterfeits[i].count);
    return total;
}

namespace {

// The attribute value of frequency-set row r: QI a, or sensitive column a - n_qi (a leaf code).
Code row_value(const FrequencySet& fs, std::size_t r, std::size_t a) {
    return a < fs.n_qi ? fs.qi_row(r)[a] : fs.sa_row(r)[a - fs.n_qi];
}

// A random query of the workload: the first sensitive column, then dimensions - 1 attributes drawn without
// replacement from `others` (a partial Fisher-Yates shuffle). The values come from one source tuple drawn with
// probability proportional to its count (`cumulative` holds the running row counts): on each queried attribute,
// b_i is drawn uniformly from the tuple's value and its ancestors below the root (the root when the value is it).
CountQuery draw_query(const Schema& schema, const FrequencySet& fs, std::mt19937_64& rng, std::size_t first,
                      std::vector<std::size_t>& others, int dimensions, const std::vector<Count>& cumulative) {
    CountQuery q;
    q.attributes.push_back(first);
    for (std::size_t i = 0; i + 1 < static_cast<std::size_t>(dimensions); ++i) {
        std::swap(others[i], others[i + rng() % (others.size() - i)]);
        q.attributes.push_back(others[i]);
    }
    const Count pick = rng() % cumulative.back();
    const auto r =
        static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), pick) - cumulative.begin());
    for (std::size_t a : q.attributes) {
        const Taxonomy& tax = attribute_taxonomy(schema, fs.n_qi, a);
        std::vector<Code> path;
        for (Code v = row_value(fs, r, a); v != tax.root(); v = tax.parent(v)) path.push_back(v);
        q.values.push_back(path.empty() ? tax.root() : path[rng() % path.size()]);
    }
    return q;
}

}  // namespace

std::vector<CountQuery> count_query_workload(const Schema& schema, const FrequencySet& fs, int queries, int dimensions,
                                             std::uint64_t seed) {
    const std::size_t n_attributes = fs.n_qi + fs.n_sa;
    if (fs.n_sa == 0) throw Error(ErrorKind::invalid_parameter, "count queries need a sensitive column");
    if (queries < 1) bad_argument("queries", "at least 1", std::to_string(queries));
    if (dimensions < 1 || static_cast<std::size_t>(dimensions) > n_attributes)
        bad_argument("dimensions",
                     "an integer in [1, " + std::to_string(n_attributes) + "] (QIs and sensitive columns)",
                     std::to_string(dimensions));
    std::vector<Count> cumulative(fs.rows());
    std::partial_sum(fs.count.begin(), fs.count.end(), cumulative.begin());
    std::vector<CountQuery> out;
    if (cumulative.empty() || cumulative.back() == 0) return out;
    std::vector<std::size_t> others;
    for (std::size_t a = 0; a < n_attributes; ++a)
        if (a != fs.n_qi) others.push_back(a);
    std::mt19937_64 rng(seed);
    InterruptPoller poll(256);
    out.reserve(static_cast<std::size_t>(queries));
    for (int i = 0; i < queries; ++i) {
        out.push_back(draw_query(schema, fs, rng, fs.n_qi, others, dimensions, cumulative));
        poll.tick();
    }
    return out;
}

CountQueryError count_query_error(const Schema& schema, const FrequencySet& fs, const Release& release, int queries,
                                  int dimensions, std::uint64_t seed) {
    CountQueryError out;
    out.queries = queries;
    out.dimensions = dimensions;
    double sum = 0;
    // The workload: per query its attributes and values, and the two lists' heap blocks; then at most as many
    // distinct queries remembered with their errors (the key, a hash node).
    const std::uint64_t query_bytes = static_cast<std::uint64_t>(dimensions) * (sizeof(std::size_t) + sizeof(Code));
    const MemoryCharge workload_charge(
        static_cast<std::uint64_t>(queries) * (sizeof(CountQuery) + query_bytes + 32 + query_bytes + 80),
        "the workload of " + std::to_string(queries) + " count queries", "draw fewer queries");
    const std::vector<CountQuery> workload = count_query_workload(schema, fs, queries, dimensions, seed);
    // Each distinct query's relative error is computed once (a workload drawn from a small table repeats its
    // queries: a million queries of two attributes over 200 rows hold a few hundred distinct ones), and the errors
    // are summed in the workload's order, as if each were computed anew.
    std::unordered_map<std::string, double> error_of;
    std::string key;
    for (const CountQuery& q : workload) {
        check_interrupts();
        key.assign(reinterpret_cast<const char*>(q.attributes.data()), q.attributes.size() * sizeof(std::size_t));
        key.append(reinterpret_cast<const char*>(q.values.data()), q.values.size() * sizeof(Code));
        const auto [known, added] = error_of.try_emplace(key, 0.0);
        if (added) {
            const auto act = static_cast<double>(actual_count(schema, fs, q));
            known->second = std::fabs(act - estimated_count(schema, release, q)) / act;
        }
        sum += known->second;
    }
    out.average_relative_error =
        workload.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / static_cast<double>(workload.size());
    return out;
}

}  // namespace anon
