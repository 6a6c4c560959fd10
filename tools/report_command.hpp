// `anon-maintain report RELEASE --html FILE [CONNINFO]`: writes the release report page (report_html.hpp) of one
// release to FILE, whole or not at all.
#pragma once

namespace anon_tools {

// Runs the report command on its arguments (those after "report"). Exit status: 0 when the page was written, 2 on a
// usage, connection or SQL error, an unknown release or a file that could not be written (nothing is left at FILE
// then).
int report_command(int argc, char** argv);

}  // namespace anon_tools
