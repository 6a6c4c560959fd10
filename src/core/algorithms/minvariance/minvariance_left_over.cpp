// New tuples the assignment left over (their value outnumbers the others): placed in fresh groups lacking their
// value, else in groups completed with counterfeits (minvariance_internal.hpp).
#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <set>

#include "base/base.hpp"
#include "minvariance_internal.hpp"

namespace anon::minvariance {

namespace {

using RankedGroups = std::set<std::pair<std::uint32_t, std::size_t>>;  // (rank of its middle member, group)

// The values a group publishes.
std::vector<Code> group_values(const Group& g, const FrequencySet& fs) {
    std::vector<Code> values(g.counterfeits);
    for (std::uint32_t r : g.rows) values.push_back(fs.sa_row(r)[0]);
    return values;
}

// The rank of a group's middle member.
std::uint32_t group_rank(const Group& g, const QiPlaces& places) {
    std::vector<std::uint32_t> ranks;
    for (std::uint32_t r : g.rows) ranks.push_back(places.rank(r));
    std::nth_element(ranks.begin(), ranks.begin() + ranks.size() / 2, ranks.end());
    return ranks[ranks.size() / 2];
}

// Counterfeit values in order of preference: the table's values, most frequent first, then the taxonomy's other
// leaves.
std::vector<Code> counterfeit_preference(const Taxonomy& sensitive, const FrequencySet& fs) {
    std::map<Code, Count> count;
    for (std::size_t r = 0; r < fs.rows(); ++r) count[fs.sa_row(r)[0]] += fs.count[r];
    std::vector<std::pair<Count, Code>> by_count;
    for (const auto& [value, n] : count) by_count.emplace_back(-n, value);
    std::sort(by_count.begin(), by_count.end());
    std::vector<Code> out;
    for (const auto& [n, value] : by_count) out.push_back(value);
    for (Code leaf : sensitive.leaves())
        if (!count.count(leaf)) out.push_back(leaf);
    return out;
}

// Places each row of `rows` (one value, sorted by rank) in the fresh group lacking the value whose middle rank is
// nearest; returns those no group could take.
std::deque<std::uint32_t> join_groups(const std::vector<std::uint32_t>& rows, RankedGroups candidates,
                                      const QiPlaces& places, std::vector<Group>& groups) {
    std::deque<std::uint32_t> unplaced;
    for (std::uint32_t row : rows) {
        if (candidates.empty()) {
            unplaced.push_back(row);
            continue;
        }
        const std::uint32_t rank = places.rank(row);
        auto above = candidates.lower_bound({rank, 0});
        auto pick = above;
        if (above == candidates.end() ||
            (above != candidates.begin() && rank - std::prev(above)->first <= above->first - rank))
            pick = std::prev(above);
        groups[pick->second].rows.push_back(row);
        candidates.erase(pick);
    }
    return unplaced;
}

}  // namespace

void place_left_over(const std::vector<std::uint32_t>& left_over, const Taxonomy& sensitive, const FrequencySet& fs,
                     const QiPlaces& places, std::size_t m, std::vector<Group>& groups) {
    if (left_over.empty()) return;
    std::map<Code, std::vector<std::uint32_t>> rows_of;
    for (std::uint32_t r : left_over) rows_of[fs.sa_row(r)[0]].push_back(r);
    // The fresh groups lacking each left-over value, as they were before any took a left-over tuple (a group takes
    // at most one of each value, and tuples of different values do not compete).
    std::map<Code, RankedGroups> lacking;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (!groups[g].fresh) continue;
        const std::vector<Code> values = group_values(groups[g], fs);
        const std::uint32_t rank = group_rank(groups[g], places);
        for (const auto& [value, rows] : rows_of)
            if (std::find(values.begin(), values.end(), value) == values.end()) lacking[value].insert({rank, g});
    }
    std::map<Code, std::deque<std::uint32_t>> unplaced;
    for (auto& [value, rows] : rows_of) {
        std::sort(rows.begin(), rows.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return places.rank(a) < places.rank(b); });
        std::deque<std::uint32_t> rest = join_groups(rows, lacking[value], places, groups);
        if (!rest.empty()) unplaced[value] = std::move(rest);
    }
    const std::vector<Code> preference = counterfeit_preference(sensitive, fs);
    InterruptPoller poller(256);
    while (!unplaced.empty()) {
        poller.tick();
        Group g;
        g.fresh = true;
        for (auto it = unplaced.begin(); it != unplaced.end();) {
            g.rows.push_back(it->second.front());
            it->second.pop_front();
            it = it->second.empty() ? unplaced.erase(it) : std::next(it);
        }
        const std::vector<Code> values = group_values(g, fs);
        for (std::size_t i = 0; i < preference.size() && values.size() + g.counterfeits.size() < m; ++i)
            if (std::find(values.begin(), values.end(), preference[i]) == values.end())
                g.counterfeits.push_back(preference[i]);
        if (values.size() + g.counterfeits.size() < m)
            throw Error(ErrorKind::not_satisfiable, "m-invariance needs m = " + std::to_string(m) +
                                                        " distinct values of the sensitive column, "
                                                        "whose taxonomy has only " +
                                                        std::to_string(sensitive.total_leaves()));
        groups.push_back(std::move(g));
    }
}

}  // namespace anon::minvariance
