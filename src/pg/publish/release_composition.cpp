#include "release_composition.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"
#include "read/read.hpp"

namespace anon::pg {

namespace {

// The position of `column` among a release's sensitive columns, or npos.
std::size_t column_index(const ComposedRelease& release, const std::string& column) {
    const auto it = std::find(release.sensitive.begin(), release.sensitive.end(), column);
    return it == release.sensitive.end() ? std::string::npos : static_cast<std::size_t>(it - release.sensitive.begin());
}

// The sensitive columns to compose on: those of releases[first] another release publishes too, or, with `first` out
// of range, every column two releases publish; in first appearance order.
std::vector<std::string> shared_columns(const std::vector<ComposedRelease>& releases, std::size_t first) {
    std::vector<std::string> out;
    for (std::size_t r = 0; r < releases.size(); ++r) {
        if (first < releases.size() && r != first) continue;
        for (const std::string& column : releases[r].sensitive) {
            if (std::find(out.begin(), out.end(), column) != out.end()) continue;
            std::size_t publishing = 0;
            for (const ComposedRelease& other : releases)
                publishing += column_index(other, column) != std::string::npos;
            if (publishing >= 2) out.push_back(column);
        }
    }
    return out;
}

}  // namespace

std::vector<ColumnComposition> compose_releases(Spi& spi, Oid relid, const std::vector<ComposedRelease>& releases,
                                                std::size_t first,
                                                const std::function<std::size_t(const std::string&)>& required) {
    std::vector<ColumnComposition> out;
    const std::vector<std::string> columns = shared_columns(releases, first);
    if (columns.empty()) return out;
    std::vector<std::vector<std::string>> qi_lists, at_day_lists;
    for (const ComposedRelease& release : releases) {
        qi_lists.push_back(release.quasi_identifiers);
        at_day_lists.push_back(release.read_at_day);
    }
    const std::vector<ComposedRow> rows = composed_rows(spi, relid, qi_lists, at_day_lists);
    for (const std::string& column : columns) {
        // Each release's candidates in its own position of the column (the rows' q are per release).
        std::vector<ComposedColumn> taking_part(releases.size());
        ColumnComposition composed;
        composed.column = column;
        for (std::size_t r = 0; r < releases.size(); ++r) {
            const std::size_t j = column_index(releases[r], column);
            if (j == std::string::npos) continue;
            taking_part[r] = {&releases[r].candidates, j};
            ++composed.releases;
        }
        composed.figures = compose(taking_part, rows, required(column));
        out.push_back(std::move(composed));
    }
    return out;
}

std::vector<ComposedRelease> live_composed_releases(Spi& spi, Oid relid, const OutputName& except) {
    std::vector<ComposedRelease> out;
    for (LiveRelease& live : live_releases_of(spi, relid, except)) {
        ComposedRelease release;
        release.name = live.output.qualified();
        release.quasi_identifiers = std::move(live.quasi_identifiers);
        release.sensitive = std::move(live.sensitive);
        release.read_at_day = std::move(live.read_at_day);
        release.candidates = candidates_of(VersionHistory::parse(live.history).last);
        out.push_back(std::move(release));
    }
    return out;
}

}  // namespace anon::pg
