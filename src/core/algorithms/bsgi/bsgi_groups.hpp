// The groups BSGI forms, with what its choices need to know about each: members (frequency-set rows and tuple
// counts), size, information-loss box, and whether a row would bring a second tuple of an individual or repeat a
// sensitive value. Also the incorporation of residual tuples into existing groups (Fig. 3 of the paper).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "algorithms/local_recoding.hpp"
#include "bsgi_loss.hpp"
#include "data/data.hpp"

namespace anon {

class GroupTable {
public:
    // Refuses a frequency set BSGI cannot index (2^32 rows or more, individuals not given per row).
    GroupTable(const Schema& schema, const FrequencySet& fs, const std::vector<double>& weights);

    std::uint32_t size() const { return boxes_.size(); }
    const LossModel& model() const { return model_; }
    const GroupBoxes& boxes() const { return boxes_; }
    Count tuples(std::uint32_t g) const { return tuples_[g]; }
    const TupleGroup& group(std::uint32_t g) const { return groups_[g]; }

    // Opens a group with n tuples of `row`; returns its index.
    std::uint32_t open(std::uint32_t row, Count n);
    // Adds n tuples of `row` to group g.
    void add(std::uint32_t g, std::uint32_t row, Count n);
    // Appends `copies` groups with the members of the last group (interchangeable tuples grouped alike at once).
    void repeat_last(Count copies);
    // Removes the last group and returns its members (a round that could not be completed).
    std::vector<std::pair<std::uint32_t, Count>> abandon_last();

    // True when a tuple of `row` may join group g without a second tuple of one individual in it.
    bool individual_free(std::uint32_t g, std::uint32_t row) const;
    // True when `row` has a value in common with group g on some sensitive column.
    bool shares_sensitive(std::uint32_t g, std::uint32_t row) const;

    // The groups, for release_from_groups().
    const std::vector<TupleGroup>& groups() const { return groups_; }

private:
    const FrequencySet& fs_;
    LossModel model_;
    GroupBoxes boxes_;
    std::vector<TupleGroup> groups_;
    std::vector<Count> tuples_;
};

// Incorporates every residual tuple ((row, tuples) pairs) into the group whose information loss (size x NCP) grows
// least: among the groups that do not hold its sensitive values if `diverse` and one exists, else among all; a
// group never receives a second tuple of an individual. Groups are searched in the key order of their first
// member around the tuple's key rank, a window of groups on each side (all groups when `exact`). A tuple no group
// can take stays out of every group (suppressed).
void incorporate(GroupTable& table, const std::vector<std::pair<std::uint32_t, Count>>& residuals,
                 const std::vector<std::uint32_t>& rank, bool diverse, bool exact);

}  // namespace anon
