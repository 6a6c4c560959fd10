// 1DLD (see onedim.hpp): Hilbert keys of the QI values, buckets per sensitive value sorted by key, greedy rounds
// that keep the remaining tuples groupable, residuals into the nearest group lacking their value.
#include "onedim.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>
#include <string>
#include <utility>

#include "base/base.hpp"

namespace anon {

std::vector<std::uint64_t> hilbert_index(std::vector<std::uint32_t> x, int bits) {
    const std::size_t d = x.size();
    std::vector<std::uint64_t> words((d * static_cast<std::size_t>(bits) + 63) / 64, 0);
    if (d == 0) return words;
    const std::uint32_t top = std::uint32_t{1} << (bits - 1);
    // Inverse undo of the excess work, then Gray encoding (Skilling's AxestoTranspose).
    for (std::uint32_t q = top; q > 1; q >>= 1) {
        const std::uint32_t p = q - 1;
        for (std::size_t i = 0; i < d; ++i) {
            if (x[i] & q) {
                x[0] ^= p;
            } else {
                const std::uint32_t t = (x[0] ^ x[i]) & p;
                x[0] ^= t;
                x[i] ^= t;
            }
        }
    }
    for (std::size_t i = 1; i < d; ++i) x[i] ^= x[i - 1];
    std::uint32_t t = 0;
    for (std::uint32_t q = top; q > 1; q >>= 1)
        if (x[d - 1] & q) t ^= q - 1;
    for (auto& v : x) v ^= t;
    // Interleave: level by level from the most significant bit, dimension 0 first.
    std::size_t pos = 0;
    for (int b = bits - 1; b >= 0; --b)
        for (std::size_t i = 0; i < d; ++i, ++pos)
            if ((x[i] >> b) & 1u) words[pos / 64] |= std::uint64_t{1} << (63 - pos % 64);
    return words;
}

namespace {

// Per QI column, the dense rank of each leaf code occurring in fs (indexed by code) and the number of ranks.
struct ColumnRanks {
    std::vector<std::uint32_t> rank;
    std::uint32_t distinct = 0;
};

// Ranks the codes of column j: by numeric value when the column is numeric (equal values share a rank), else by
// the pre-order rank of the leaf.
ColumnRanks column_ranks(const Schema& schema, const FrequencySet& fs, std::size_t j) {
    const Taxonomy& tax = schema.qi_tax[j];
    std::vector<char> seen(tax.size(), 0);
    std::vector<Code> codes;
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (!seen[fs.qi_row(r)[j]]) {
            seen[fs.qi_row(r)[j]] = 1;
            codes.push_back(fs.qi_row(r)[j]);
        }
    std::vector<double> order(tax.size(), 0.0);
    const bool numeric = numeric_column(schema, fs, j);
    for (Code c : codes) order[c] = numeric ? numeric_value(tax, c) : static_cast<double>(tax.preorder(c));
    std::sort(codes.begin(), codes.end(), [&](Code a, Code b) { return order[a] < order[b]; });
    ColumnRanks out;
    out.rank.assign(tax.size(), 0);
    for (std::size_t i = 0; i < codes.size(); ++i) {
        if (i > 0 && order[codes[i]] != order[codes[i - 1]]) ++out.distinct;
        out.rank[codes[i]] = out.distinct;
    }
    if (!codes.empty()) ++out.distinct;
    return out;
}

// The Hilbert keys of all rows, `words` per row, from the stretched ranks of their QI values.
std::vector<std::uint64_t> row_keys(const Schema& schema, const FrequencySet& fs, std::size_t& words) {
    std::vector<ColumnRanks> ranks;
    std::uint32_t most = 1;
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        ranks.push_back(column_ranks(schema, fs, j));
        most = std::max(most, ranks.back().distinct);
    }
    int bits = 1;
    while (bits < 32 && (std::uint64_t{1} << bits) < most) ++bits;
    const std::uint64_t span = (std::uint64_t{1} << bits) - 1;
    words = (fs.n_qi * static_cast<std::size_t>(bits) + 63) / 64;
    std::vector<std::uint64_t> keys;
    keys.reserve(fs.rows() * words);
    std::vector<std::uint32_t> coords(fs.n_qi);
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            const std::uint64_t n = ranks[j].distinct;
            coords[j] = n > 1 ? static_cast<std::uint32_t>(ranks[j].rank[fs.qi_row(r)[j]] * span / (n - 1)) : 0;
        }
        const auto key = hilbert_index(coords, bits);
        keys.insert(keys.end(), key.begin(), key.end());
    }
    return keys;
}

// The tuples of one sensitive value: rows sorted by key, a cursor at the first row with tuples left.
struct Bucket {
    Code value = no_code;
    std::vector<std::uint32_t> rows;
    std::size_t next = 0;
    Count left = 0;
};

// One run of 1DLD over a frequency set.
class OneDim {
public:
    OneDim(const FrequencySet& fs, std::size_t l, std::vector<std::uint64_t> keys, std::size_t words)
        : fs_(fs),
          l_(l),
          keys_(std::move(keys)),
          words_(words),
          left_(fs.count),
          by_count_(CountOrder{this}),
          by_key_(KeyOrder{this}) {
        bucketize();
    }

    void select();
    void incorporate_residuals();
    std::size_t buckets() const { return buckets_.size(); }
    const std::vector<TupleGroup>& groups() const { return groups_; }

private:
    // Buckets by tuples left (descending), then head key, then value.
    struct CountOrder {
        const OneDim* self;
        bool operator()(std::uint32_t a, std::uint32_t b) const {
            const Bucket& x = self->buckets_[a];
            const Bucket& y = self->buckets_[b];
            if (x.left != y.left) return x.left > y.left;
            return self->head_before(a, b);
        }
    };
    // Buckets by head key, then value.
    struct KeyOrder {
        const OneDim* self;
        bool operator()(std::uint32_t a, std::uint32_t b) const { return self->head_before(a, b); }
    };

    const std::uint64_t* key(std::uint32_t row) const { return keys_.data() + row * words_; }
    bool key_less(std::uint32_t a, std::uint32_t b) const {
        return std::lexicographical_compare(key(a), key(a) + words_, key(b), key(b) + words_);
    }
    // The most significant 64 bits of a row's key, for distances.
    std::uint64_t key_top(std::uint32_t row) const { return words_ ? key(row)[0] : 0; }
    bool head_before(std::uint32_t a, std::uint32_t b) const {
        const std::uint32_t ra = buckets_[a].rows[buckets_[a].next], rb = buckets_[b].rows[buckets_[b].next];
        if (key_less(ra, rb)) return true;
        if (key_less(rb, ra)) return false;
        return a < b;
    }

    void bucketize();
    std::vector<std::uint32_t> choose();
    std::uint32_t take(Bucket& bucket);
    std::vector<std::uint32_t> groups_by_key() const;
    void place_residuals(Bucket& bucket, const std::vector<std::uint32_t>& order);

    const FrequencySet& fs_;
    std::size_t l_;
    std::vector<std::uint64_t> keys_;
    std::size_t words_;
    std::vector<Count> left_;  // per row: tuples not yet in a group
    std::vector<Bucket> buckets_;
    Count remaining_ = 0;                           // tuples in no group yet
    std::set<std::uint32_t, CountOrder> by_count_;  // non-empty buckets
    std::set<std::uint32_t, KeyOrder> by_key_;      // the same buckets
    std::vector<TupleGroup> groups_;
    std::vector<std::uint32_t> first_row_;  // per group: its member with the smallest key
    InterruptPoller poller_;
};

// Sorts the rows with tuples by (value, key, row) and cuts them into buckets, in value-code order.
void OneDim::bucketize() {
    std::vector<std::uint32_t> order;
    for (std::size_t r = 0; r < fs_.rows(); ++r)
        if (fs_.count[r] > 0) order.push_back(static_cast<std::uint32_t>(r));
    std::sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) {
        const Code va = fs_.sa_row(a)[0], vb = fs_.sa_row(b)[0];
        if (va != vb) return va < vb;
        if (key_less(a, b)) return true;
        if (key_less(b, a)) return false;
        return a < b;
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::uint32_t r = order[i];
        if (i == 0 || fs_.sa_row(order[i - 1])[0] != fs_.sa_row(r)[0]) buckets_.push_back({fs_.sa_row(r)[0], {}, 0, 0});
        buckets_.back().rows.push_back(r);
        buckets_.back().left += fs_.count[r];
        remaining_ += fs_.count[r];
    }
    for (std::uint32_t b = 0; b < buckets_.size(); ++b) {
        by_count_.insert(b);
        by_key_.insert(b);
    }
}

// The l buckets of one round. With n tuples left and q = floor(n/l), the "full" buckets hold at least q tuples;
// slack s = sum of min(count, q) - l q. A round keeps the rest groupable into q - 1 groups iff at most s full buckets
// are left out, so the largest |full| - s full buckets are forced in (all of them, up to l, when s < 0: the rest is
// not groupable anyway and the largest buckets go first); the other places go to the smallest head keys.
std::vector<std::uint32_t> OneDim::choose() {
    const Count q = remaining_ / static_cast<Count>(l_);
    std::vector<std::uint32_t> full;
    Count in_full = 0;
    for (auto it = by_count_.begin(); it != by_count_.end() && buckets_[*it].left >= q; ++it) {
        full.push_back(*it);
        in_full += buckets_[*it].left;
    }
    const auto n_full = static_cast<Count>(full.size());
    const Count slack = remaining_ - in_full + q * n_full - q * static_cast<Count>(l_);
    const Count forced =
        std::min<Count>(slack < 0 ? n_full : std::max<Count>(n_full - slack, 0), static_cast<Count>(l_));
    std::vector<std::uint32_t> chosen(full.begin(), full.begin() + forced);
    for (auto it = by_key_.begin(); chosen.size() < l_; ++it)
        if (std::find(chosen.begin(), chosen.begin() + forced, *it) == chosen.begin() + forced) chosen.push_back(*it);
    return chosen;
}

// Forms groups while at least l buckets have tuples: one tuple from each chosen bucket.
void OneDim::select() {
    while (by_key_.size() >= l_) {
        poller_.tick();
        const std::vector<std::uint32_t> chosen = choose();
        TupleGroup group;
        std::uint32_t first = 0;
        for (std::uint32_t b : chosen) {
            by_count_.erase(b);
            by_key_.erase(b);
            const std::uint32_t row = take(buckets_[b]);
            if (group.members.empty() || key_less(row, first)) first = row;
            group.members.emplace_back(row, 1);
            if (buckets_[b].left > 0) {
                by_count_.insert(b);
                by_key_.insert(b);
            }
        }
        groups_.push_back(std::move(group));
        first_row_.push_back(first);
    }
}

// Removes the bucket's head tuple and returns its row.
std::uint32_t OneDim::take(Bucket& bucket) {
    const std::uint32_t row = bucket.rows[bucket.next];
    --bucket.left;
    --remaining_;
    if (--left_[row] == 0) ++bucket.next;
    return row;
}

// Group indexes sorted by the key of their smallest member (ties by index).
std::vector<std::uint32_t> OneDim::groups_by_key() const {
    std::vector<std::uint32_t> order(groups_.size());
    for (std::uint32_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) {
        if (key_less(first_row_[a], first_row_[b])) return true;
        if (key_less(first_row_[b], first_row_[a])) return false;
        return a < b;
    });
    return order;
}

// Places every tuple the selection left (fewer than l values have some) with place_residuals.
void OneDim::incorporate_residuals() {
    const std::vector<std::uint32_t> order = groups_by_key();
    for (Bucket& bucket : buckets_)
        if (bucket.left > 0) place_residuals(bucket, order);
}

// Gives each remaining tuple of the bucket, in key order, to the group nearest to its key (by the top 64 key bits
// of the groups' smallest members; ties to the smaller key) among those lacking the bucket's value, which then
// holds it; when no group lacks it, to the nearest group.
void OneDim::place_residuals(Bucket& bucket, const std::vector<std::uint32_t>& order) {
    std::vector<std::uint64_t> top(order.size());
    std::set<std::uint32_t> lacking;  // positions in `order`
    for (std::uint32_t p = 0; p < order.size(); ++p) {
        top[p] = key_top(first_row_[order[p]]);
        const auto& members = groups_[order[p]].members;
        if (std::none_of(members.begin(), members.end(),
                         [&](const auto& m) { return fs_.sa_row(m.first)[0] == bucket.value; }))
            lacking.insert(lacking.end(), p);
    }
    auto distance = [&](std::uint32_t p, std::uint64_t k) { return top[p] > k ? top[p] - k : k - top[p]; };
    while (bucket.left > 0) {
        poller_.tick();
        const std::uint32_t row = take(bucket);
        const std::uint64_t k = key_top(row);
        const auto at = static_cast<std::uint32_t>(std::lower_bound(top.begin(), top.end(), k) - top.begin());
        std::uint32_t p;
        if (!lacking.empty()) {
            auto right = lacking.lower_bound(at);
            const bool left_nearer = right != lacking.begin() &&
                                     (right == lacking.end() || distance(*std::prev(right), k) <= distance(*right, k));
            if (left_nearer) --right;
            p = *right;
            lacking.erase(right);
        } else {
            p = at == top.size() || (at > 0 && distance(at - 1, k) <= distance(at, k)) ? at - 1 : at;
        }
        auto& members = groups_[order[p]].members;
        auto same = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == row; });
        if (same != members.end())
            ++same->second;
        else
            members.emplace_back(row, 1);
    }
}

// Why no group can be formed.
std::string no_group_message(const Schema& schema, int l, std::size_t distinct) {
    return "onedim cannot form a single group of l=" + std::to_string(l) + " tuples with different values of " +
           schema.sa_names[0] + ": it has only " + std::to_string(distinct) +
           (distinct == 1 ? " distinct value" : " distinct values");
}

}  // namespace

Release onedim(const Schema& schema, const FrequencySet& fs, int l, const LocalOptions& options) {
    if (l < 1) bad_argument("l", "a group size of at least 1", std::to_string(l));
    if (fs.n_sa != 1) bad_argument("sensitive columns", "exactly one for onedim", std::to_string(fs.n_sa));
    std::size_t words = 0;
    std::vector<std::uint64_t> keys = row_keys(schema, fs, words);
    OneDim run(fs, static_cast<std::size_t>(l), std::move(keys), words);
    run.select();
    if (run.groups().empty()) throw Error(ErrorKind::not_satisfiable, no_group_message(schema, l, run.buckets()));
    run.incorporate_residuals();
    return release_from_groups(schema, fs, run.groups(), options.tight_ranges);
}

}  // namespace anon
