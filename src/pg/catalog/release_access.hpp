// Who sees and maintains a release, and the errors that tell a caller why it may not: row-level security shows a
// role its own releases and those of roles it was granted (the database owner, who owns the catalog, sees every
// one), and PostgreSQL refreshes or drops a materialized view only for its owner's role.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "infra/infra.hpp"
#include "release_names.hpp"

namespace anon::pg {

// The error for a release name (`parts`: schema and name, or a name to find on the search_path) that matches no
// release the caller sees: names the role whose release it is when row-level security hides one of that name, and
// who can see and maintain it; else says the name is not a release.
[[noreturn]] void release_not_found(Spi& spi, const std::vector<std::string>& parts, const std::string& output,
                                    const char* argument);

// The role that made the release `out`, looked up past row-level security (anon._release_owner), for a caller to
// whom the release proved invisible; nullopt when there is no such release or no relation of its name, and on a
// catalog older than 0.3.
std::optional<std::string> hidden_release_creator(Spi& spi, const OutputName& out);

// Refuses to refresh or drop a release whose existing objects belong to a role whose privileges the caller lacks,
// saying which role owns them and what to GRANT (PostgreSQL's own error would only say "must be owner").
void check_can_maintain(Spi& spi, const OutputName& out, const PublishForm& form);

}  // namespace anon::pg
