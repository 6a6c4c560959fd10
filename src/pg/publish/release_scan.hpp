// The release scan: a custom scan that takes the place of the function scan of anon._release_tuples(...) when the
// call's arguments are constants, as in the queries of release objects. A function in FROM hands its rows over in a
// tuplestore, which spills to disk beyond work_mem and is read back before the object's insert; the release scan
// hands each row to the node above as it is made, from the values ReleaseObjectRows converted once, so publishing
// writes each row once (issue 19). Same rows, same order, same errors, same privilege check and settings as the
// function (its EXECUTE privilege, its SET row_security = on).
#pragma once

namespace anon::pg {

// Registers the scan's methods and installs its planner hook; called once, when the library is loaded.
void install_release_scan();

}  // namespace anon::pg
