// Reads what the release report page shows (report_html.hpp) through SQL, with the rights of the connected role: a
// part that role may not read is marked unreadable, with the server's reason, rather than failing the report.
#pragma once

#include <optional>
#include <string>

#include <libpq-fe.h>

#include "report_html.hpp"

namespace anon_tools {

// The report data of the release named `release` (optionally schema-qualified, quoted as in SQL; unqualified, the
// first schema of the search path holding a release of that name). nullopt, with the reason in *error, when no such
// release exists (or the name is not one) or the connection fails.
std::optional<ReleaseReportData> read_release_report(PGconn* conn, const std::string& release, std::string* error);

}  // namespace anon_tools
