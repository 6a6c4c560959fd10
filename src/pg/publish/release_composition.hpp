// The composition of a source's releases (issue 42, docs/republication.md): an attacker who knows a person's
// quasi-identifiers intersects, column by column, the candidate sensitive values of the person's classes in every
// release of the source. One pass over the source groups its rows by every release's QIs; the candidates come from
// each release's recorded last version (or, for a release being published, its computed one).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "audit/audit.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// A release taking part: its columns and what its published version tells of each QI combination.
struct ComposedRelease {
    std::string name;  // quoted and qualified, for messages
    std::vector<std::string> quasi_identifiers;
    std::vector<std::string> sensitive;
    std::vector<std::string> read_at_day;  // QIs its leaves label by their day (day_read.hpp)
    CandidateIndex candidates;
};

// The composition on one sensitive column: how many releases publish it and what their intersection leaves.
struct ColumnComposition {
    std::string column;
    std::size_t releases = 0;
    CompositionFigures figures;
};

// Composes `releases` of source `relid` on each sensitive column that `first` (an index into releases) publishes
// and another release publishes too, or, with `first` out of range, on every column two releases publish.
// `required(column)` is the fewest candidates a person may keep there (0: report only).
std::vector<ColumnComposition> compose_releases(Spi& spi, Oid relid, const std::vector<ComposedRelease>& releases,
                                                std::size_t first,
                                                const std::function<std::size_t(const std::string&)>& required);

// The composed releases of the source's live releases but `except` (recorded histories, whoever published them).
std::vector<ComposedRelease> live_composed_releases(Spi& spi, Oid relid, const OutputName& except);

}  // namespace anon::pg
