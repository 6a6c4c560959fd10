// The report of a computed release, as anon.anonymize returns it and anon.release stores it.
#pragma once

#include <string>

#include "computed_release.hpp"

namespace anon::pg {

// The report of a computed release: the core's report plus source, release name and timings (ms: end to end).
std::string build_report(const ComputedRelease& computed, double ms);

}  // namespace anon::pg
