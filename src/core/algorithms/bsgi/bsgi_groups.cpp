#include "bsgi_groups.hpp"

#include <algorithm>
#include <limits>

#include "base/base.hpp"

namespace anon {

namespace {

// Row indexes are 32-bit (as in Release::Piece) and individuals are given per row.
const FrequencySet& checked(const FrequencySet& fs) {
    if (fs.rows() >= std::numeric_limits<std::uint32_t>::max())
        throw Error(ErrorKind::resource_limit, "BSGI handles fewer than 2^32 distinct combinations");
    if (!fs.individual.empty() && fs.individual.size() != fs.rows())
        throw Error(ErrorKind::internal, "individuals are not given for every frequency-set row");
    return fs;
}

}  // namespace

GroupTable::GroupTable(const Schema& schema, const FrequencySet& fs, const std::vector<double>& weights)
    : fs_(checked(fs)), model_(schema, fs, weights), boxes_(model_) {}

std::uint32_t GroupTable::open(std::uint32_t row, Count n) {
    const std::uint32_t g = boxes_.open(row);
    groups_.emplace_back();
    groups_.back().members.emplace_back(row, n);
    tuples_.push_back(n);
    return g;
}

// Tuples of a row already in the group join its member entry, so a release piece is never split within a class.
void GroupTable::add(std::uint32_t g, std::uint32_t row, Count n) {
    auto& members = groups_[g].members;
    auto it = std::find_if(members.begin(), members.end(), [row](const auto& m) { return m.first == row; });
    if (it != members.end()) {
        it->second += n;
    } else {
        members.emplace_back(row, n);
        boxes_.add(g, row);
    }
    tuples_[g] += n;
}

void GroupTable::repeat_last(Count copies) {
    const std::uint32_t last = size() - 1;
    for (Count c = 0; c < copies; ++c) {
        boxes_.duplicate(last);
        groups_.push_back(groups_[last]);
        tuples_.push_back(tuples_[last]);
    }
}

std::vector<std::pair<std::uint32_t, Count>> GroupTable::abandon_last() {
    std::vector<std::pair<std::uint32_t, Count>> members = std::move(groups_.back().members);
    groups_.pop_back();
    tuples_.pop_back();
    boxes_.drop_last();
    return members;
}

bool GroupTable::individual_free(std::uint32_t g, std::uint32_t row) const {
    if (fs_.individual.empty()) return true;
    const Code who = fs_.individual[row];
    for (const auto& [member, n] : groups_[g].members)
        if (fs_.individual[member] == who) return false;
    return true;
}

bool GroupTable::shares_sensitive(std::uint32_t g, std::uint32_t row) const {
    const Code* sa = fs_.sa_row(row);
    for (const auto& [member, n] : groups_[g].members) {
        const Code* other = fs_.sa_row(member);
        for (std::size_t c = 0; c < fs_.n_sa; ++c)
            if (other[c] == sa[c]) return true;
    }
    return false;
}

namespace {

// For each sensitive column, how many groups hold each value: when every group holds one of a tuple's values, no
// group without its values exists and the search need not look for one.
class ValueHolders {
public:
    ValueHolders(const GroupTable& table, const FrequencySet& fs) : fs_(fs), holders_(fs.n_sa) {
        for (std::size_t c = 0; c < fs.n_sa; ++c) {
            Code top = 0;
            for (std::size_t r = 0; r < fs.rows(); ++r) top = std::max(top, fs.sa_row(r)[c]);
            holders_[c].assign(static_cast<std::size_t>(top) + 1, 0);
        }
        for (std::uint32_t g = 0; g < table.size(); ++g)
            for (std::size_t c = 0; c < fs.n_sa; ++c) {
                const auto& members = table.group(g).members;
                for (std::size_t i = 0; i < members.size(); ++i) {
                    const Code v = fs.sa_row(members[i].first)[c];
                    bool first = true;
                    for (std::size_t k = 0; k < i && first; ++k) first = fs.sa_row(members[k].first)[c] != v;
                    if (first) ++holders_[c][v];
                }
            }
    }

    // True when some column's value of `row` is held by all `groups` groups.
    bool everywhere(std::uint32_t row, std::uint32_t groups) const {
        for (std::size_t c = 0; c < fs_.n_sa; ++c)
            if (holders_[c][fs_.sa_row(row)[c]] >= groups) return true;
        return false;
    }

    // Records that a tuple of `row` joins group g (call before adding it).
    void join(const GroupTable& table, std::uint32_t g, std::uint32_t row) {
        for (std::size_t c = 0; c < fs_.n_sa; ++c) {
            const Code v = fs_.sa_row(row)[c];
            bool held = false;
            for (const auto& [member, n] : table.group(g).members) held = held || fs_.sa_row(member)[c] == v;
            if (!held) ++holders_[c][v];
        }
    }

private:
    const FrequencySet& fs_;
    std::vector<std::vector<Count>> holders_;
};

// Groups examined on each side of a residual tuple's key position (residuals are few: fewer than l per bucket
// when the l-Property's first condition holds).
constexpr std::size_t window = 64;

constexpr double infinity = std::numeric_limits<double>::infinity();

// The best group found so far for one tuple: least growth of size x NCP.
struct Choice {
    std::uint32_t group = 0;
    double growth = infinity;
    bool found() const { return growth < infinity; }
};

// Fig. 3 for one tuple at a time, over the groups in key order of their first member.
class Incorporation {
public:
    Incorporation(GroupTable& table, const std::vector<std::uint32_t>& rank, bool diverse, bool exact)
        : table_(table),
          rank_(rank),
          diverse_(diverse),
          width_(exact ? std::numeric_limits<std::size_t>::max() : window),
          holders_(table, table.model().fs()) {
        for (std::uint32_t g = 0; g < table.size(); ++g)
            order_.emplace_back(rank[table.group(g).members.front().first], g);
        std::sort(order_.begin(), order_.end());
    }

    // Adds one tuple of `row` to its group, or leaves it out when no group may take it.
    void place(std::uint32_t row) {
        // Groups without the tuple's values are preferred when diverse; the window then counts those.
        const bool want_preferred = !diverse_ || !holders_.everywhere(row, table_.size());
        Choice preferred, acceptable;
        // Examines one group; returns true when it counts toward its side's window.
        auto visit = [&](std::uint32_t g) {
            poller_.tick();
            if (!table_.individual_free(g, row)) return false;
            const bool prefer = !diverse_ || !table_.shares_sensitive(g, row);
            Choice& best = prefer ? preferred : acceptable;
            if (prefer || !preferred.found()) {
                const double d = growth(g, row, best);
                if (d < best.growth) best = {g, d};
            }
            return prefer || !want_preferred;
        };
        const auto first_after = std::lower_bound(order_.begin(), order_.end(), std::make_pair(rank_[row], 0u));
        const auto center = static_cast<std::size_t>(first_after - order_.begin());
        std::size_t right = center, left = center, seen_right = 0, seen_left = 0;
        while ((right < order_.size() && seen_right < width_) || (left > 0 && seen_left < width_)) {
            if (right < order_.size() && seen_right < width_) seen_right += visit(order_[right++].second);
            if (left > 0 && seen_left < width_) seen_left += visit(order_[--left].second);
        }
        const Choice& choice = preferred.found() ? preferred : acceptable;
        if (!choice.found()) return;
        holders_.join(table_, choice.group, row);
        table_.add(choice.group, row, 1);
    }

private:
    // Growth of group g's loss (size x NCP) with one tuple of `row`, or infinity when it cannot beat `best`.
    double growth(std::uint32_t g, std::uint32_t row, const Choice& best) const {
        const double size = static_cast<double>(table_.tuples(g));
        const double base = size * table_.boxes().cost(g);
        const double bound = best.found() ? (best.growth + base) / (size + 1) : infinity;
        const double cost = table_.boxes().cost_with(g, row, bound);
        return cost < bound ? (size + 1) * cost - base : infinity;
    }

    GroupTable& table_;
    const std::vector<std::uint32_t>& rank_;
    const bool diverse_;
    const std::size_t width_;
    ValueHolders holders_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> order_;  // (key rank of the first member, group)
    InterruptPoller poller_;
};

}  // namespace

void incorporate(GroupTable& table, const std::vector<std::pair<std::uint32_t, Count>>& residuals,
                 const std::vector<std::uint32_t>& rank, bool diverse, bool exact) {
    if (table.size() == 0) return;
    Incorporation incorporation(table, rank, diverse, exact);
    for (const auto& [row, n] : residuals)
        for (Count t = 0; t < n; ++t) incorporation.place(row);
}

}  // namespace anon
