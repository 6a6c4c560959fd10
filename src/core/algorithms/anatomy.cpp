// Anatomy's grouping (see anatomy.hpp): bucketize tuples by sensitive value, select groups with Max-l, and
// incorporate the residual tuples. Works on frequency-set rows with counts: a "tuple" is one unit of a count.
#include "anatomy.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"

namespace anon {

namespace {

constexpr std::size_t none = static_cast<std::size_t>(-1);

// The tuples of one combination of sensitive values: their rows in row order and a cursor at the first row with
// tuples left, so that taking the next tuple is O(1).
struct Kind {
    std::vector<std::uint32_t> rows;
    std::size_t next = 0;
    Count left = 0;
};

// A bucket: the tuples with one value of the first sensitive column, split into kinds by all sensitive columns
// (a single kind when there is one sensitive column).
struct ValueBucket {
    Code value = no_code;
    std::vector<Kind> kinds;
    Count left = 0;
};

using Picks = std::vector<std::pair<std::uint32_t, std::size_t>>;  // (bucket, kind) chosen for a group

// One run of Anatomy over a frequency set: the buckets with the tuples each row still has, and the groups formed.
class Anatomizer {
public:
    Anatomizer(const FrequencySet& fs, std::size_t l) : fs_(fs), l_(l), left_(fs.count) { bucketize(); }

    void select();
    Count incorporate_residuals();
    std::size_t buckets() const { return buckets_.size(); }
    const std::vector<TupleGroup>& groups() const { return groups_; }

private:
    void bucketize();
    std::size_t compatible_kind(std::uint32_t b, const Picks& picks) const;
    void form_group(const Picks& picks);
    std::uint32_t take(ValueBucket& bucket, Kind& kind);
    void index_holders();
    void spread_to_lacking(ValueBucket& bucket, Kind& kind);
    void spread_to_least_loaded(ValueBucket& bucket, Kind& kind);
    void add(std::uint32_t g, std::uint32_t row);

    const FrequencySet& fs_;
    std::size_t l_;
    std::vector<Count> left_;  // per row: tuples not yet in a group
    std::vector<ValueBucket> buckets_;
    std::vector<TupleGroup> groups_;
    std::vector<Count> load_;  // per group: tuples
    // holders_[j][code]: the groups holding value `code` of sensitive column j (for residual incorporation).
    std::vector<std::vector<std::vector<std::uint32_t>>> holders_;
    std::vector<std::uint32_t> mark_;  // per group: the stamp of the last kind that found it holding a value
    std::uint32_t stamp_ = 0;
    InterruptPoller poller_;
};

// Sorts the rows with tuples by their sensitive values (stably, so that each kind keeps row order) and cuts the
// sorted sequence into buckets (first column) and kinds (all columns). Buckets end up in value-code order.
void Anatomizer::bucketize() {
    std::vector<std::uint32_t> order;
    for (std::size_t r = 0; r < fs_.rows(); ++r)
        if (fs_.count[r] > 0) order.push_back(static_cast<std::uint32_t>(r));
    auto less = [this](std::uint32_t a, std::uint32_t b) {
        return std::lexicographical_compare(fs_.sa_row(a), fs_.sa_row(a) + fs_.n_sa, fs_.sa_row(b),
                                            fs_.sa_row(b) + fs_.n_sa);
    };
    std::stable_sort(order.begin(), order.end(), less);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::uint32_t r = order[i];
        if (i == 0 || fs_.sa_row(order[i - 1])[0] != fs_.sa_row(r)[0]) buckets_.push_back({fs_.sa_row(r)[0], {}, 0});
        ValueBucket& bucket = buckets_.back();
        if (bucket.kinds.empty() || less(order[i - 1], r)) bucket.kinds.emplace_back();
        bucket.kinds.back().rows.push_back(r);
        bucket.kinds.back().left += fs_.count[r];
        bucket.left += fs_.count[r];
    }
}

// Max-l (BSGI paper, Section 3): each round visits the buckets largest first (ties: smaller value code) and takes
// one tuple from each of the first l that can join the group. A heap keeps the order, so a round costs
// O(l log m). With one sensitive column every bucket can join and selection stops when fewer than l non-empty
// buckets remain. With several, a round may find fewer than l compatible buckets: the largest bucket then leaves
// the selection (its tuples become residuals) and the others go back, so every round makes progress.
void Anatomizer::select() {
    auto below = [this](std::uint32_t a, std::uint32_t b) {
        const ValueBucket& x = buckets_[a];
        const ValueBucket& y = buckets_[b];
        return x.left != y.left ? x.left < y.left : x.value > y.value;
    };
    std::vector<std::uint32_t> ids(buckets_.size());
    std::iota(ids.begin(), ids.end(), 0u);
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, decltype(below)> heap(below, std::move(ids));
    std::vector<std::uint32_t> popped;
    Picks picks;
    while (heap.size() >= l_) {
        poller_.tick();
        popped.clear();
        picks.clear();
        while (picks.size() < l_ && !heap.empty()) {
            const std::uint32_t b = heap.top();
            heap.pop();
            popped.push_back(b);
            const std::size_t k = compatible_kind(b, picks);
            if (k != none) picks.emplace_back(b, k);
        }
        if (picks.size() == l_)
            form_group(picks);
        else
            popped.erase(popped.begin());
        for (std::uint32_t b : popped)
            if (buckets_[b].left > 0) heap.push(b);
    }
}

// The kind of bucket b with the most tuples left whose values on the other sensitive columns differ from those of
// every picked tuple (ties: the first such kind), or `none`. Spreading the largest kinds first keeps the most
// combinations available for later rounds.
std::size_t Anatomizer::compatible_kind(std::uint32_t b, const Picks& picks) const {
    const ValueBucket& bucket = buckets_[b];
    std::size_t best = none;
    for (std::size_t k = 0; k < bucket.kinds.size(); ++k) {
        const Kind& kind = bucket.kinds[k];
        if (kind.left == 0 || (best != none && kind.left <= bucket.kinds[best].left)) continue;
        const Code* mine = fs_.sa_row(kind.rows[0]);
        bool differs = true;
        for (const auto& [pb, pk] : picks) {
            const Code* theirs = fs_.sa_row(buckets_[pb].kinds[pk].rows[0]);
            for (std::size_t j = 1; j < fs_.n_sa && differs; ++j) differs = mine[j] != theirs[j];
        }
        if (differs) best = k;
    }
    return best;
}

// Makes a group of one tuple from each picked kind.
void Anatomizer::form_group(const Picks& picks) {
    TupleGroup group;
    group.members.reserve(picks.size());
    for (const auto& [b, k] : picks) group.members.emplace_back(take(buckets_[b], buckets_[b].kinds[k]), 1);
    groups_.push_back(std::move(group));
}

// Removes the next tuple of a kind (the first row in row order with tuples left) and returns its row.
std::uint32_t Anatomizer::take(ValueBucket& bucket, Kind& kind) {
    const std::uint32_t row = kind.rows[kind.next];
    --kind.left;
    --bucket.left;
    if (--left_[row] == 0) ++kind.next;
    return row;
}

// Incorporates every tuple the selection left, kind by kind in bucket order: first one tuple into each of the
// least-loaded groups that hold none of the kind's sensitive values (those groups gain a value), then the rest
// into the least-loaded groups overall. Returns the number of tuples incorporated. Needs at least one group.
Count Anatomizer::incorporate_residuals() {
    Count residuals = 0;
    for (const ValueBucket& bucket : buckets_) residuals += bucket.left;
    if (residuals == 0) return 0;
    load_.assign(groups_.size(), static_cast<Count>(l_));
    mark_.assign(groups_.size(), 0);
    index_holders();
    for (ValueBucket& bucket : buckets_)
        for (Kind& kind : bucket.kinds) {
            if (kind.left > 0) spread_to_lacking(bucket, kind);
            if (kind.left > 0) spread_to_least_loaded(bucket, kind);
        }
    return residuals;
}

// Fills holders_ from the groups formed by the selection.
void Anatomizer::index_holders() {
    holders_.assign(fs_.n_sa, {});
    for (std::size_t j = 0; j < fs_.n_sa; ++j) {
        Code largest = 0;
        for (std::size_t r = 0; r < fs_.rows(); ++r) largest = std::max(largest, fs_.sa_row(r)[j]);
        holders_[j].resize(static_cast<std::size_t>(largest) + 1);
    }
    for (std::size_t g = 0; g < groups_.size(); ++g)
        for (const auto& [row, n] : groups_[g].members)
            for (std::size_t j = 0; j < fs_.n_sa; ++j)
                holders_[j][fs_.sa_row(row)[j]].push_back(static_cast<std::uint32_t>(g));
}

// Gives one tuple of the kind to each of the least-loaded groups (ties: the first group) that hold none of its
// sensitive values, while the kind has tuples left.
void Anatomizer::spread_to_lacking(ValueBucket& bucket, Kind& kind) {
    const Code* values = fs_.sa_row(kind.rows[0]);
    ++stamp_;
    for (std::size_t j = 0; j < fs_.n_sa; ++j)
        for (std::uint32_t g : holders_[j][values[j]]) mark_[g] = stamp_;
    std::vector<std::uint32_t> lacking;
    for (std::size_t g = 0; g < groups_.size(); ++g)
        if (mark_[g] != stamp_) lacking.push_back(static_cast<std::uint32_t>(g));
    const auto n = static_cast<std::size_t>(std::min<Count>(static_cast<Count>(lacking.size()), kind.left));
    std::partial_sort(lacking.begin(), lacking.begin() + n, lacking.end(), [this](std::uint32_t a, std::uint32_t b) {
        return load_[a] != load_[b] ? load_[a] < load_[b] : a < b;
    });
    for (std::size_t i = 0; i < n; ++i) add(lacking[i], take(bucket, kind));
}

// Gives the kind's remaining tuples one at a time to the least-loaded group (ties: the first group), so that they
// spread evenly over groups that all hold one of its values already.
void Anatomizer::spread_to_least_loaded(ValueBucket& bucket, Kind& kind) {
    auto heavier = [this](std::uint32_t a, std::uint32_t b) {
        return load_[a] != load_[b] ? load_[a] > load_[b] : a > b;
    };
    std::vector<std::uint32_t> ids(groups_.size());
    std::iota(ids.begin(), ids.end(), 0u);
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, decltype(heavier)> heap(heavier, std::move(ids));
    while (kind.left > 0) {
        poller_.tick();
        const std::uint32_t g = heap.top();
        heap.pop();
        add(g, take(bucket, kind));
        heap.push(g);
    }
}

// Adds one tuple of `row` to group g (merging with the group's last member when it is the same row) and records
// the group as a holder of the row's values.
void Anatomizer::add(std::uint32_t g, std::uint32_t row) {
    auto& members = groups_[g].members;
    if (!members.empty() && members.back().first == row)
        ++members.back().second;
    else
        members.emplace_back(row, 1);
    ++load_[g];
    for (std::size_t j = 0; j < fs_.n_sa; ++j) {
        auto& holders = holders_[j][fs_.sa_row(row)[j]];
        if (holders.empty() || holders.back() != g) holders.push_back(g);
    }
}

// Why no group can be formed, naming l and the sensitive columns.
std::string no_group_message(const Schema& schema, std::size_t l, std::size_t distinct) {
    const std::string start = "anatomy cannot form a single group of l=" + std::to_string(l) + " tuples ";
    if (schema.sa_names.size() == 1)
        return start + "with different values of " + schema.sa_names[0] + ": it has only " + std::to_string(distinct) +
               (distinct == 1 ? " distinct value" : " distinct values");
    std::string columns;
    for (const auto& name : schema.sa_names) columns += (columns.empty() ? "" : ", ") + name;
    return start + "that differ on every sensitive column (" + columns + ")";
}

}  // namespace

Release anatomy(const Schema& schema, const FrequencySet& fs, const LocalOptions& options, AnatomyStats* stats) {
    if (options.l < 1) bad_argument("l", "a group size of at least 1", std::to_string(options.l));
    if (fs.n_sa == 0) throw Error(ErrorKind::invalid_parameter, "anatomy needs at least one sensitive column");
    Anatomizer anatomizer(fs, static_cast<std::size_t>(options.l));
    anatomizer.select();
    if (anatomizer.groups().empty())
        throw Error(ErrorKind::not_satisfiable,
                    no_group_message(schema, static_cast<std::size_t>(options.l), anatomizer.buckets()));
    const Count residuals = anatomizer.incorporate_residuals();
    if (stats) {
        stats->groups = anatomizer.groups().size();
        stats->residuals = residuals;
    }
    return release_from_groups(schema, fs, anatomizer.groups(), options.tight_ranges);
}

}  // namespace anon
