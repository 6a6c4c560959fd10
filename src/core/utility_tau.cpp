// Excessive protection (Def. 35) and count-query error (Section 5.3.3) of the (tau, l)-diversity paper; see
// utility_tau.hpp for the definitions.
#include "utility_tau.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "error.hpp"
#include "interrupt.hpp"
#include "local_recoding.hpp"
#include "strength.hpp"
#include "tau_l.hpp"

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

// The weights behind induced frequencies for one sensitive column: w(a) per node code (the taxonomy weight of a leaf
// occurring in fs, 0 elsewhere), W(v) = sum of w over the leaves under v, and the leaves with w > 0.
struct InducedWeights {
    std::vector<double> leaf;
    std::vector<double> subtree;
    std::vector<Code> support;
};

// Collects w, W and the support for sensitive column `col` of fs.
InducedWeights induced_weights(const Taxonomy& tax, const FrequencySet& fs, std::size_t col) {
    InducedWeights w;
    w.leaf.assign(tax.size(), 0.0);
    w.subtree.assign(tax.size(), 0.0);
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (fs.count[r] > 0) w.leaf[fs.sa_row(r)[col]] = tax.weight(fs.sa_row(r)[col]);
    for (Code a = 0; a < tax.size(); ++a) {
        if (!(w.leaf[a] > 0)) continue;
        w.support.push_back(a);
        for (Code v = a; v != no_code; v = tax.parent(v)) w.subtree[v] += w.leaf[a];
    }
    return w;
}

// e(E) of Def. 35 for one class of sensitive column `col`: the induced frequencies sorted in descending order,
// accumulated into F(k) and compared with psi(k) for k = 1..m. `induced` is a zeroed per-leaf scratch array.
double class_excess(const Release& release, const Taxonomy& tax, const InducedWeights& w, std::size_t col,
                    const std::size_t* first, const std::size_t* last, double tau, int l,
                    std::vector<double>& induced) {
    Count size = 0;
    for (const std::size_t* i = first; i != last; ++i) {
        const Release::Piece& p = release.pieces[*i];
        const Code v = release.piece_sa[*i * release.n_sa + col];
        size += p.count;
        if (!(w.subtree[v] > 0)) continue;  // covers no weighted leaf: induces nothing
        for (Code a : w.support)
            if (tax.covers(v, a)) induced[a] += static_cast<double>(p.count) * w.leaf[a] / w.subtree[v];
    }
    std::vector<double> f;
    f.reserve(w.support.size());
    for (Code a : w.support) {
        f.push_back(induced[a] / static_cast<double>(size));
        induced[a] = 0;
    }
    std::sort(f.begin(), f.end(), std::greater<double>());
    double cumulative = 0, excess = 0;
    for (std::size_t k = 1; k <= f.size(); ++k) {
        cumulative += f[k - 1];
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
        const InducedWeights w = induced_weights(tax, fs, col);
        check_tau_l(tau, l, static_cast<int>(w.support.size()));
        std::vector<double> induced(tax.size(), 0.0);
        for (std::size_t c = 0; c < release.classes(); ++c) {
            if (cp.offset[c] == cp.offset[c + 1]) continue;
            const std::size_t* pieces = cp.piece.data();
            best = std::min(best, class_excess(release, tax, w, col, pieces + cp.offset[c], pieces + cp.offset[c + 1],
                                               tau, l, induced));
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
    double total = 0;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        double share = class_share[release.pieces[p].cls];
        for (std::size_t i = 0; i < query.attributes.size() && share > 0; ++i) {
            const std::size_t a = query.attributes[i];
            if (a >= n_qi)
                share *= overlap_share(schema.sa_tax[a - n_qi], release.piece_sa[p * release.n_sa + a - n_qi],
                                       query.values[i]);
        }
        total += share * static_cast<double>(release.pieces[p].count);
    }
    return total;
}

namespace {

// A random query of the workload: the first sensitive column, then dimensions - 1 attributes drawn without
// replacement from `others` (a partial Fisher-Yates shuffle), each with a value drawn from `values[attribute]`.
CountQuery draw_query(std::mt19937_64& rng, std::size_t first, std::vector<std::size_t>& others, int dimensions,
                      const std::vector<std::vector<Code>>& values) {
    CountQuery q;
    q.attributes.push_back(first);
    for (std::size_t i = 0; i + 1 < static_cast<std::size_t>(dimensions); ++i) {
        std::swap(others[i], others[i + rng() % (others.size() - i)]);
        q.attributes.push_back(others[i]);
    }
    for (std::size_t a : q.attributes) q.values.push_back(values[a][rng() % values[a].size()]);
    return q;
}

// The values a query may ask for on each attribute: the non-root nodes of its taxonomy, or the root alone.
std::vector<std::vector<Code>> query_values(const Schema& schema, std::size_t n_qi, std::size_t n_attributes) {
    std::vector<std::vector<Code>> out(n_attributes);
    for (std::size_t a = 0; a < n_attributes; ++a) {
        const Taxonomy& tax = attribute_taxonomy(schema, n_qi, a);
        for (Code v = 0; v < tax.size(); ++v)
            if (v != tax.root()) out[a].push_back(v);
        if (out[a].empty()) out[a].push_back(tax.root());
    }
    return out;
}

}  // namespace

CountQueryError count_query_error(const Schema& schema, const FrequencySet& fs, const Release& release, int queries,
                                  int dimensions, std::uint64_t seed) {
    const std::size_t n_attributes = fs.n_qi + fs.n_sa;
    if (fs.n_sa == 0) throw Error(ErrorKind::invalid_parameter, "count queries need a sensitive column");
    if (queries < 1) bad_argument("queries", "at least 1", std::to_string(queries));
    if (dimensions < 1 || static_cast<std::size_t>(dimensions) > n_attributes)
        bad_argument("dimensions",
                     "an integer in [1, " + std::to_string(n_attributes) + "] (QIs and sensitive columns)",
                     std::to_string(dimensions));
    const auto values = query_values(schema, fs.n_qi, n_attributes);
    std::vector<std::size_t> others;
    for (std::size_t a = 0; a < n_attributes; ++a)
        if (a != fs.n_qi) others.push_back(a);
    std::mt19937_64 rng(seed);
    CountQueryError out;
    out.queries = queries;
    out.dimensions = dimensions;
    double sum = 0;
    for (int i = 0; i < queries; ++i) {
        check_interrupts();
        const CountQuery q = draw_query(rng, fs.n_qi, others, dimensions, values);
        const Count act = actual_count(schema, fs, q);
        if (act == 0) {
            ++out.skipped_zero;
            continue;
        }
        sum += std::fabs(static_cast<double>(act) - estimated_count(schema, release, q)) / static_cast<double>(act);
    }
    const int answered = queries - out.skipped_zero;
    out.average_relative_error = answered > 0 ? sum / answered : std::numeric_limits<double>::quiet_NaN();
    return out;
}

}  // namespace anon
