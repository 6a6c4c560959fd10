// Phase 1 of m-invariance: the persons present who were published before go to the bucket of their recorded
// signature; the others are new tuples (minvariance_internal.hpp).
#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

#include "base/base.hpp"
#include "minvariance_internal.hpp"

namespace anon::minvariance {

namespace {

// The recorded person with this id, or null (the history's persons are sorted by id).
const VersionHistory::Person* recorded(const VersionHistory& history, ValueHash id) {
    const auto it = std::lower_bound(history.persons.begin(), history.persons.end(), id,
                                     [](const VersionHistory::Person& p, ValueHash x) { return p.id < x; });
    return it != history.persons.end() && it->id == id ? &*it : nullptr;
}

// The sensitive column's leaves by the hash of their label: how a recorded value is found in today's taxonomy.
std::unordered_map<ValueHash, Code> leaves_by_hash(const Taxonomy& tax) {
    std::unordered_map<ValueHash, Code> out;
    for (Code leaf : tax.leaves()) out.emplace(text_hash(tax.label(leaf)), leaf);
    return out;
}

// The leaf codes of a recorded signature, sorted; a value the taxonomy no longer holds is refused (a counterfeit of
// it could not be published).
std::vector<Code> signature_codes(const std::vector<ValueHash>& signature,
                                  const std::unordered_map<ValueHash, Code>& leaves, const MInvarianceInput& in) {
    std::vector<Code> codes;
    for (ValueHash h : signature) {
        const auto it = leaves.find(h);
        if (it == leaves.end())
            throw Error(ErrorKind::data_exception,
                        "a signature published in an earlier version of the release holds a value of \"" +
                            in.schema.sa_names[0] + "\" that its taxonomy \"" + in.schema.sa_tax[0].name() +
                            "\" no longer lists, so m-invariance cannot publish a counterfeit tuple of it",
                        "The value's text is not kept by the release's history (only its hash).",
                        "Give the sensitive column a catalog taxonomy that lists every value it has ever held "
                        "(params->'taxonomies'), so that values deleted from the table stay known.");
        codes.push_back(it->second);
    }
    std::sort(codes.begin(), codes.end());
    if (codes.size() < in.m)
        bad_argument("l",
                     "m = ceil(l) <= " + std::to_string(codes.size()) +
                         " (a person's recorded signature has that many values; m-invariance keeps it)",
                     "m = " + std::to_string(in.m));
    return codes;
}

// Refuses a history m-invariance cannot continue: persons not identified by a person key, or another number of
// sensitive columns.
void check_history(const VersionHistory& history) {
    if (history.versions > 0 && !history.keyed)
        bad_argument("params->'individual'",
                     "a release whose earlier versions identified persons by a person key (m-invariance follows "
                     "persons across versions from its first version)",
                     "a history that identifies persons by their quasi-identifiers");
    if (history.versions > 0 && history.n_sa != 1)
        bad_argument("sensitive", "the one sensitive column the release's earlier versions published",
                     std::to_string(history.n_sa) + " sensitive columns recorded");
}

}  // namespace

Division divide(const MInvarianceInput& in) {
    Division d;
    const FrequencySet& fs = in.fs;
    if (!in.history) {
        for (std::size_t r = 0; r < fs.rows(); ++r) d.fresh.push_back(static_cast<std::uint32_t>(r));
        return d;
    }
    const VersionHistory& history = *in.history;
    check_history(history);
    const Taxonomy& tax = in.schema.sa_tax[0];
    const std::unordered_map<ValueHash, Code> leaves = leaves_by_hash(tax);
    std::map<std::uint32_t, std::size_t> bucket_of_set;  // pooled set of the signature -> bucket
    Count value_changes = 0;
    InterruptPoller poller;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        poller.tick();
        const VersionHistory::Person* p = recorded(history, in.person_of_row[r]);
        if (!p) {
            d.fresh.push_back(static_cast<std::uint32_t>(r));
            continue;
        }
        const std::uint32_t set = history.person_sets[p->sets];
        auto [it, added] = bucket_of_set.emplace(set, d.buckets.size());
        if (added) {
            Bucket b;
            b.values = signature_codes(history.pool[set], leaves, in);
            b.rows.resize(b.values.size());
            b.recorded = true;
            d.buckets.push_back(std::move(b));
        }
        Bucket& b = d.buckets[it->second];
        const auto v = std::lower_bound(b.values.begin(), b.values.end(), fs.sa_row(r)[0]);
        if (v == b.values.end() || *v != fs.sa_row(r)[0]) {
            ++value_changes;
            continue;
        }
        b.rows[static_cast<std::size_t>(v - b.values.begin())].push_back(static_cast<std::uint32_t>(r));
        ++d.carried_over;
    }
    if (value_changes > 0)
        throw Error(ErrorKind::data_exception,
                    std::to_string(value_changes) + " person(s) published before now hold a value of \"" +
                        in.schema.sa_names[0] +
                        "\" outside their signature (the values of their class in earlier "
                        "versions): no m-invariant version can publish them",
                    "m-invariance keeps every person's signature for as long as the person is published.",
                    "Publish a new release (anon.anonymize with params->'replace') to start a new history.");
    std::sort(d.buckets.begin(), d.buckets.end(), [](const Bucket& a, const Bucket& b) { return a.values < b.values; });
    return d;
}

}  // namespace anon::minvariance
