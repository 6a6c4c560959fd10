// Refine's last pass: rows move to cheaper classes that already cover them. A class publishes the common ancestors
// of its values, so a row whose values lie under another class's published values can join that class without
// changing what it publishes; the row then loses that class's (lower) penalty instead of its own class's.
#include <algorithm>
#include <numeric>
#include <tuple>

#include "refiner.hpp"

namespace anon::refine_search {

namespace {

// The two columns whose taxonomies have the most nodes (the same one twice for a single column).
std::pair<std::size_t, std::size_t> two_largest_columns(const LossModel& loss) {
    const std::size_t m = loss.columns();
    std::size_t first = 0, second = m > 1 ? 1 : 0;
    for (std::size_t j = 0; j < m; ++j) {
        if (loss.taxonomy(j).size() > loss.taxonomy(first).size()) {
            second = first;
            first = j;
        } else if (j != first && (second == first || loss.taxonomy(j).size() > loss.taxonomy(second).size())) {
            second = j;
        }
    }
    return {first, second};
}

// What each class publishes: the common ancestors of its values, their pre-order spans (a row lies under them when
// its values' pre-order numbers fall in them: one contiguous read per candidate class, where the taxonomies' arrays
// were read twice a column) and its per-tuple penalty.
struct Published {
    const LossModel& loss;
    const std::size_t m;
    std::vector<Code> lca, one;
    std::vector<std::pair<Code, Code>> span;
    std::vector<double> penalty;

    Published(const LossModel& model, const std::vector<Rows>& classes)
        : loss(model), m(model.columns()), lca(classes.size() * m), span(classes.size() * m), penalty(classes.size()) {
        for (std::size_t c = 0; c < classes.size(); ++c) measure(classes, c);
    }

    // Class c's values, spans and penalty from its rows.
    void measure(const std::vector<Rows>& classes, std::size_t c) {
        penalty[c] =
            loss.loss(classes[c].data(), classes[c].size(), &one) / static_cast<double>(loss.tuples(classes[c]));
        for (std::size_t j = 0; j < m; ++j) {
            lca[c * m + j] = one[j];
            span[c * m + j] = loss.taxonomy(j).preorder_span(one[j]);
        }
    }

    // Whether class d publishes values covering a row's, given their pre-order numbers.
    bool covers(std::size_t d, const std::vector<Code>& row_pre) const {
        const std::pair<Code, Code>* spans = span.data() + d * m;
        for (std::size_t j = 0; j < m; ++j)
            if (row_pre[j] < spans[j].first || row_pre[j] >= spans[j].second) return false;
        return true;
    }
};

// The classes under each key, in a given order: one list after the other in one array, found through an index of
// the keys (one slot read per lookup, where a map of vectors read a bucket, a node and the vector).
class ClassesByKey {
public:
    template <class KeyOf>
    ClassesByKey(const std::vector<std::size_t>& order, KeyOf key_of) {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;  // (key, place in order)
        keyed.reserve(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) keyed.emplace_back(key_of(order[i]), i);
        std::sort(keyed.begin(), keyed.end());
        classes_.reserve(order.size());
        for (std::size_t i = 0; i < keyed.size(); ++i) {
            if (i == 0 || keyed[i].first != keyed[i - 1].first) {
                index_.add(keyed[i].first, static_cast<std::uint32_t>(begin_.size()));
                begin_.push_back(static_cast<std::uint32_t>(classes_.size()));
            }
            classes_.push_back(static_cast<std::uint32_t>(order[keyed[i].second]));
        }
        begin_.push_back(static_cast<std::uint32_t>(classes_.size()));
    }

    // The classes under `key`, in the order given (none: an empty range).
    struct Range {
        const std::uint32_t *first, *last;
        const std::uint32_t* begin() const { return first; }
        const std::uint32_t* end() const { return last; }
    };
    Range classes(std::uint64_t key) const {
        const std::uint32_t list = index_.find(key);
        if (list == U64Index::npos) return {nullptr, nullptr};
        return {classes_.data() + begin_[list], classes_.data() + begin_[list + 1]};
    }

private:
    U64Index index_;                    // key -> its list
    std::vector<std::uint32_t> begin_;  // where each list starts in classes_, then the end
    std::vector<std::uint32_t> classes_;
};

}  // namespace

// Visits classes from the most generalized down; each of their rows joins the covering class with the lowest
// per-tuple penalty below its own, when its class keeps satisfying the model without it (or gives all its rows) and
// the receiving class still satisfies it.
void Refiner::attach(std::vector<Rows>& classes) {
    const std::size_t n = classes.size(), m = loss_.columns();
    Published published(loss_, classes);
    const std::vector<Code>& lca = published.lca;
    const std::vector<double>& penalty = published.penalty;
    // Classes indexed by their published values of the two columns with the most taxonomy nodes (a covering class
    // publishes an ancestor of the row's value in each), each list by increasing penalty (penalties only fall).
    std::size_t first = 0, second = 0;  // not a structured binding: lambdas below may capture them
    std::tie(first, second) = two_largest_columns(loss_);
    const Taxonomy& t1 = loss_.taxonomy(first);
    const Taxonomy& t2 = loss_.taxonomy(second);
    auto key = [&](Code a, Code b) {
        return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(t2.size()) + static_cast<std::uint64_t>(b);
    };
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return penalty[a] < penalty[b]; });
    const ClassesByKey by_value(order, [&](std::size_t c) { return key(lca[c * m + first], lca[c * m + second]); });
    // Which values some class publishes in each of the two columns: a row's ancestor pair is looked up only when
    // both are (most pairs name no class, and each lookup is a cache miss).
    std::vector<char> published1(static_cast<std::size_t>(t1.size()), 0),
        published2(static_cast<std::size_t>(t2.size()), 0);
    for (std::size_t c : order) {
        published1[lca[c * m + first]] = 1;
        published2[lca[c * m + second]] = 1;
    }
    std::vector<Code> row_pre(m);  // the pre-order numbers of the row's values
    Rows rest, grown;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const std::size_t c = *it;
        const Rows members = classes[c];
        for (std::uint32_t r : members) {
            for (std::size_t j = 0; j < m; ++j) row_pre[j] = loss_.taxonomy(j).preorder(loss_.code(r, j));
            std::size_t best = n;
            for (Code a = loss_.code(r, first);; a = t1.parent(a)) {
                for (Code b = loss_.code(r, second); published1[a]; b = t2.parent(b)) {
                    if (published2[b])
                        for (std::uint32_t d : by_value.classes(key(a, b))) {
                            const double limit = best == n ? penalty[c] : penalty[best];
                            if (penalty[d] >= limit - 1e-12) break;
                            if (d != c && !classes[d].empty() && published.covers(d, row_pre)) {
                                best = d;
                                break;
                            }
                        }
                    if (b == t2.root()) break;
                }
                if (a == t1.root()) break;
            }
            poller_.tick();
            if (best == n) continue;
            rest.clear();
            for (std::uint32_t x : classes[c])
                if (x != r) rest.push_back(x);
            if (!rest.empty() && !satisfied(rest)) continue;
            grown = classes[best];
            grown.push_back(r);
            if (!satisfied(grown)) continue;
            classes[best].swap(grown);
            classes[c].swap(rest);
            if (classes[c].empty()) break;
            published.measure(classes, c);
        }
    }
}

}  // namespace anon::refine_search
