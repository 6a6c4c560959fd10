// The sentences of the verdicts across versions and releases (republication.hpp), for statuses and reports.
#include "republication.hpp"

namespace anon {

namespace {

// "1 class" / "3 classes".
std::string counted(std::uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Part (a) of the next version's sentence.
std::string changes_part(const RepublicationVerdict& v) {
    if (v.changed_classes == 0) return "no class changed";
    if (v.violating_changes == 0)
        return counted(v.changed_classes, "class changed", "classes changed") + ", every group of rows added or " +
               "removed holding at least k=" + std::to_string(v.k) + " tuples that satisfy the model on their own";
    return counted(v.violating_changes, "group", "groups") + " of rows added to or removed from " +
           counted(v.changed_classes, "changed class", "changed classes") + " break the model on their own (" +
           counted(static_cast<std::uint64_t>(v.violating_change_tuples), "tuple", "tuples") + "; the smallest holds " +
           counted(static_cast<std::uint64_t>(v.smallest_violating_change), "tuple", "tuples") +
           ", k=" + std::to_string(v.k) + ")";
}

// Part (b) of the next version's sentence.
std::string persons_part(const RepublicationVerdict& v) {
    if (v.required_candidates == 0) return "k-anonymity bounds no candidate values";
    const std::string rechecked =
        counted(static_cast<std::uint64_t>(v.persons_rechecked), "person", "people") + " present in earlier versions";
    if (v.persons_rechecked == 0) return "no person of earlier versions is in this one";
    const std::string fewest = " (fewest " + std::to_string(v.fewest_candidates) + ")";
    if (v.persons_violating == 0)
        return rechecked + " keep at least " + std::to_string(v.required_candidates) + " candidate values" + fewest;
    return std::to_string(v.persons_violating) + " of " + rechecked + " would be left with fewer than " +
           std::to_string(v.required_candidates) + " candidate values" + fewest;
}

}  // namespace

std::string RepublicationVerdict::detail() const {
    if (versions == 0) return "the first version: no earlier version to compare with";
    const std::string against = " against the " + counted(versions, "version", "versions") + " already published: ";
    if (publishable()) return "publishable" + against + changes_part(*this) + "; " + persons_part(*this);
    return "withheld" + against + changes_part(*this) + "; " + persons_part(*this) +
           "; an m-invariant release publishes such changes";
}

std::string MInvarianceVerdict::detail() const {
    const std::string classes_part =
        not_m_unique == 0 ? "all " + counted(classes, "class is", "classes are") + " " + std::to_string(m) + "-unique"
                          : std::to_string(not_m_unique) + " of " + counted(classes, "class is", "classes are") +
                                " not " + std::to_string(m) + "-unique";
    const std::string counterfeit_part =
        " (" + counted(static_cast<std::uint64_t>(counterfeits), "counterfeit tuple", "counterfeit tuples") + ")";
    const std::string persons_part =
        signature_changed == 0 ? counted(static_cast<std::uint64_t>(persons_rechecked), "person", "people") +
                                     " of earlier versions keep their signature"
                               : std::to_string(signature_changed) + " of " +
                                     counted(static_cast<std::uint64_t>(persons_rechecked), "person", "people") +
                                     " of earlier versions changed signature";
    return std::string(holds() ? "m-invariant: " : "not m-invariant: ") + classes_part + counterfeit_part + ", " +
           persons_part;
}

std::string CompositionFigures::detail() const {
    if (persons == 0) return "no person is published in these releases";
    std::string by;
    for (const auto& [candidates, n] : persons_by_candidates)
        by += (by.empty() ? "" : ", ") + std::to_string(n) + " with " + std::to_string(candidates);
    return counted(static_cast<std::uint64_t>(persons), "person", "people") + " published: " + by +
           " candidate values; " + std::to_string(below_required) + " with fewer than " + std::to_string(required) +
           " (fewest " + std::to_string(fewest) + ")";
}

}  // namespace anon
