// Kept columns (params->'keep'): source columns published unchanged beside a release, and the check that they
// do not single out rows where they sit next to sensitive values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"

namespace anon {
struct JobSpec;
}

namespace anon::pg {

struct PublishForm;
struct OutputName;
struct ComputedRelease;

// The kept columns of params->'keep' (checked: they exist and are neither QI nor sensitive).
std::vector<std::string> keep_columns(Spi& spi, Oid source, const PublicationOptions& publication,
                                      const std::vector<std::string>& qi, const std::vector<std::string>& sensitive);

// Where the kept columns of a new release are published: "view" (the generalized view, when it is the only form)
// or "qit" (whenever a QIT is published: Anatomy's place for non-sensitive attributes, so that the view and the
// QIT cannot be joined on them).
std::string kept_in(const PublishForm& form);

// Where the kept columns of an existing release are: in its generalized view if that has a column named like the
// first kept column (releases published before 0.3 with "both" hold them in the view and the QIT), in its QIT if
// it has one: "view", "qit" or "view and qit".
std::string kept_in_existing(Spi& spi, const OutputName& out, const PublishForm& form,
                             const std::vector<std::string>& keep);

// Checks that kept columns published in the generalized view single out no source row (a combination of kept
// values held by one row links that row to its published sensitive values). When they do, refuses with the
// figures if `refuse` and params->'keep_identifying' is not true, else returns the warning for the report.
// Publication refuses; refreshes only warn, since a refresh that fails would break scheduled refreshes and
// pg_restore of releases published before the check existed. The rows are counted from `read`, the kept groups the
// job's read took along (kept_to_read_along), else by one GROUP BY pass over the kept columns; nothing to do without
// kept columns or when they are not in the view (`placement`, as kept_in or kept_in_existing say).
std::optional<std::string> check_kept_linkage(Spi& spi, Oid source, const std::vector<std::string>& keep,
                                              const std::string& placement, const PublicationOptions& publication,
                                              bool refuse, const KeptGroups* read = nullptr);

// check_kept_linkage for a computed release, its rows counted from kept groups: those the job's read took along,
// else the release's own (release_kept, which check_kept_classes reads anyway), so that a source whose kept columns
// the read does not take along (Citus distributed, foreign) is not aggregated once more by the kept values alone
// (on Citus that aggregation is not pushed down whole: a unique id's million groups came to the coordinator). Read
// within anon.memory_limit. Call at a C++ boundary, within an SPI connection.
std::optional<std::string> check_computed_kept_linkage(Spi& spi, ComputedRelease& computed,
                                                       const std::vector<std::string>& keep,
                                                       const std::string& placement,
                                                       const PublicationOptions& publication, bool refuse);

// Checks that the kept columns leave the release's model satisfied when each class is split by their values (kept
// values are published beside the class: whoever knows a person's kept values is left with the rows of the class
// that share them). Kept columns in the generalized view (`placement` "view", or "view and qit"): every sub-class
// must satisfy the model as the job checked the classes; in the QIT only ("qit"): every sub-class must hold at least
// the model's k rows (the QIT links rows to their class's sensitive values, never to one of them:
// docs/release-linkage.md). When a sub-class fails, refuses with the figures if `refuse` and
// params->'keep_identifying' is not true, else returns the warning for the report (publication refuses, refreshes
// warn, as check_kept_linkage). Works on the kept groups and their tuples' pieces (release_kept: made here and kept
// in `computed` for the objects, which publish what was checked), within anon.memory_limit. Call at a C++ boundary,
// within an SPI connection.
std::optional<std::string> check_kept_classes(ComputedRelease& computed, const JobSpec& spec,
                                              const std::vector<std::string>& keep, const std::string& placement,
                                              bool refuse);

}  // namespace anon::pg
