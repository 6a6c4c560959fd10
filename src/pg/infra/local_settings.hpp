// Settings changed for a stretch of the running SQL function, as a SET clause on a function changes them: begin
// opens a GUC nest level and applies the settings, end restores what the session had. An error in between is
// cleaned up by the transaction's abort, as for any GUC nest level.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace anon::pg {

using Settings = std::vector<std::pair<std::string, std::string>>;

// Applies the settings (name, value) in a new GUC nest level and returns the level for end_local_settings.
int begin_local_settings(const Settings& settings);

// Restores the settings the session had before begin_local_settings returned `nest_level`.
void end_local_settings(int nest_level);

}  // namespace anon::pg
