// m-invariance's run: the input's checks, the four phases, and the release with its counterfeits (minvariance.hpp).
#include "minvariance.hpp"

#include <algorithm>

#include "base/base.hpp"
#include "minvariance_internal.hpp"

namespace anon {

namespace {

// Refuses what m-invariance cannot publish: several sensitive columns, an m below 2, rows without a person, and a
// person with several tuples (its signature would be the values of one class, which two tuples cannot share).
void check_input(const MInvarianceInput& in) {
    const FrequencySet& fs = in.fs;
    if (fs.n_sa != 1)
        bad_argument("sensitive", "one sensitive column for m-invariance (a signature is a set of one column's values)",
                     std::to_string(fs.n_sa) + " sensitive columns");
    if (in.m < 2) bad_argument("l", "m = ceil(l) >= 2 for m-invariance", "m = " + std::to_string(in.m));
    if (in.person_of_row.size() != fs.rows())
        throw Error(ErrorKind::internal, "m-invariance: " + std::to_string(in.person_of_row.size()) +
                                             " person hashes for " + std::to_string(fs.rows()) + " rows");
    std::vector<ValueHash> ids(in.person_of_row);
    std::sort(ids.begin(), ids.end());
    const bool repeated = std::adjacent_find(ids.begin(), ids.end()) != ids.end();
    const bool several = std::any_of(fs.count.begin(), fs.count.end(), [](Count n) { return n != 1; });
    if (repeated || several)
        throw Error(ErrorKind::data_exception,
                    "a person (params->'individual') has several rows in the source: m-invariance publishes one tuple "
                    "per person",
                    "A person's signature is the set of values of the one class holding it.",
                    "Name a person key that is unique in the source (e.g. its primary key).");
}

// The release of the groups: each a class generalized to its persons' extent, with its counterfeits.
Release release_of(const MInvarianceInput& in, const std::vector<minvariance::Group>& groups) {
    std::vector<TupleGroup> members;
    members.reserve(groups.size());
    for (const auto& g : groups) {
        TupleGroup t;
        for (std::uint32_t r : g.rows) t.members.emplace_back(r, 1);
        members.push_back(std::move(t));
    }
    Release rel = release_from_groups(in.schema, in.fs, members, in.tight_ranges);
    for (std::size_t c = 0; c < groups.size(); ++c)
        for (Code value : groups[c].counterfeits) {
            rel.counterfeits.push_back({static_cast<std::uint32_t>(c), 1});
            rel.counterfeit_sa.push_back(value);
        }
    return rel;
}

// Tuples beyond m in their class: left-over new tuples, and signatures of more than m values.
Count beyond_m(const Release& rel, std::size_t m) {
    Count n = 0;
    for (Count size : rel.class_sizes()) n += std::max<Count>(0, size - static_cast<Count>(m));
    return n;
}

}  // namespace

Release m_invariant_release(const MInvarianceInput& in, MInvarianceStats* stats) {
    using namespace minvariance;
    check_input(in);
    const QiPlaces places(in.schema, in.fs);
    Division division = divide(in);
    const auto new_tuples = static_cast<Count>(division.fresh.size());
    balance(division.buckets, division.fresh, in.fs, places);
    std::vector<std::uint32_t> left_over;
    const std::vector<Bucket> fresh = assign(division.fresh, in.fs, places, in.m, left_over);
    std::vector<Group> groups;
    std::size_t buckets = 0;
    const std::vector<Bucket>* bucket_lists[] = {&division.buckets, &fresh};
    for (const std::vector<Bucket>* list : bucket_lists)
        for (const Bucket& b : *list) {
            split(b, places, groups);
            buckets += b.rounds > 0 ? 1 : 0;
        }
    place_left_over(left_over, in.schema.sa_tax[0], in.fs, places, in.m, groups);
    Release rel = release_of(in, groups);
    if (stats) {
        stats->counterfeits = rel.counterfeit_tuples();
        stats->buckets = buckets;
        stats->new_tuples = new_tuples;
        stats->carried_over = division.carried_over;
        stats->residuals = beyond_m(rel, in.m);
    }
    return rel;
}

}  // namespace anon
