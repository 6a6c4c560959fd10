// How Refine makes a violating part of a split satisfy the model with rows of the parts that satisfy it.
#include <algorithm>
#include <tuple>

#include "refiner.hpp"

namespace anon::refine_search {

namespace {
constexpr std::size_t max_offers = 256;
// Offers are put in order this many at a time: a needy part mostly satisfies the model after a few rows.
constexpr std::size_t offers_sorted_at_once = 16;
}  // namespace

// Moves donors' rows to `needy`, cheapest first for needy's loss, skipping a row whose removal would make its donor
// violate the model (a donor may give all its rows; emptied donors are dropped), until needy satisfies it. Tries
// the max_offers cheapest offers at most; false, with nothing changed, when they are not enough (each step is
// logged and undone in reverse, which restores every row's place).
bool Refiner::borrow(Rows& needy, std::vector<Rows>& donors) {
    Cluster& c = borrower_;
    c.tuples = 0;
    for (std::uint32_t r : needy) loss_.add(c, r);
    std::vector<std::tuple<double, std::size_t, std::uint32_t>>& offers = offers_;
    offers.clear();
    for (std::size_t p = 0; p < donors.size(); ++p)
        for (std::uint32_t r : donors[p]) offers.emplace_back(loss_.added_loss(c, r), p, r);
    // Only the max_offers cheapest offers are tried, in increasing order (offers are distinct, so the order is the
    // same however it is reached): each next few are selected from the rest and sorted when the search gets to them.
    const std::size_t tried = std::min(offers.size(), max_offers);
    taken_.clear();
    for (std::size_t i = 0; i < tried; ++i) {
        if (i % offers_sorted_at_once == 0) {
            const auto from = offers.begin() + static_cast<std::ptrdiff_t>(i);
            const auto to = offers.begin() + static_cast<std::ptrdiff_t>(std::min(tried, i + offers_sorted_at_once));
            std::nth_element(from, to, offers.end());
            std::sort(from, to);
        }
        const auto [cost, p, r] = offers[i];
        Rows& donor = donors[p];
        const auto at = std::find(donor.begin(), donor.end(), r);
        taken_.push_back({p, static_cast<std::size_t>(at - donor.begin()), false});
        donor.erase(at);
        if (!donor.empty() && !satisfied(donor)) {
            donor.push_back(r);
            taken_.back().kept = true;
            continue;
        }
        needy.push_back(r);
        if (satisfied(needy)) {
            donors.erase(std::remove_if(donors.begin(), donors.end(), [](const Rows& d) { return d.empty(); }),
                         donors.end());
            return true;
        }
    }
    for (auto t = taken_.rbegin(); t != taken_.rend(); ++t) {
        Rows& donor = donors[t->donor];
        Rows& from = t->kept ? donor : needy;
        const std::uint32_t r = from.back();
        from.pop_back();
        donor.insert(donor.begin() + static_cast<std::ptrdiff_t>(t->at), r);
    }
    return false;
}

// Merges whole donors into `needy`, smallest first, until it satisfies the model; false when all of them are not
// enough (the caller then drops the split).
bool Refiner::absorb(Rows& needy, std::vector<Rows>& donors) {
    std::stable_sort(donors.begin(), donors.end(), [](const Rows& a, const Rows& b) { return a.size() < b.size(); });
    std::size_t merged = 0;
    do {
        if (merged == donors.size()) return false;
        const Rows& d = donors[merged++];
        needy.insert(needy.end(), d.begin(), d.end());
    } while (!satisfied(needy));
    donors.erase(donors.begin(), donors.begin() + static_cast<std::ptrdiff_t>(merged));
    return true;
}

}  // namespace anon::refine_search
