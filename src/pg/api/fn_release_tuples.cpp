// anon._release_tuples: the rows of the release objects that publish the computed release alone (no kept column),
// written once each, in the object's order, without reading the source again. The objects' queries run it through
// the release scan (release_scan.hpp), which streams the rows; this function serves the other calls.
#include "infra/infra.hpp"
#include "publish/publish.hpp"

using namespace anon;
using namespace anon::pg;

// anon._release_tuples(output_schema text, output_name text, source regclass, object text) RETURNS SETOF record:
// the rows of a release object without kept columns, as it stores them. Object 'view' gives (gid, the published QI
// and sensitive labels), 'qit' (gid, the original QI values), each piece of the computed release as one row repeated
// once per tuple; 'st' (gid, the sensitive labels, count) one row per class and labels. Rows come in the object's
// order (object_order), so the object's query neither joins, groups nor sorts. The column definition list of the
// call gives each column's type; each distinct value is converted to it once, not per row. The source argument, a
// constant of the objects' queries, makes them depend on the source, which the job read.
ANON_SQL_FUNCTION(anon_release_tuples) {
    require_column_definition_list(fcinfo, "a call in FROM with one, AS m(gid int4, <a column per value>)");
    const OutputName out{text_arg(fcinfo, 0, "output_schema"), text_arg(fcinfo, 1, "output_name")};
    const std::string object = text_arg(fcinfo, 3, "object");
    MaterializedRows rows(fcinfo);
    MemoryContext values_context = nullptr;
    pg_call([&] {
        values_context = AllocSetContextCreate(CurrentMemoryContext, "anon release values", ALLOCSET_DEFAULT_SIZES);
    });
    {
        const ReleaseObjectRows object_rows(out, object, rows.descriptor(), values_context);
        rows.put_runs(object_rows.runs(), [&](std::size_t i, Datum* values, bool* nulls) -> std::uint64_t {
            return object_rows.fill(i, values, nulls);
        });
    }
    pg_call([&] { MemoryContextDelete(values_context); });
    return static_cast<Datum>(0);
}

// The planner support function of anon._release_tuples. The planner calls it while it sizes the call's relation,
// before it chooses the relation's paths: that loads this library in a session that has not called anon yet (a
// REFRESH MATERIALIZED VIEW of a release object in a new session), so the release scan is offered there too. It
// answers no request (PostgreSQL keeps its defaults).
ANON_SQL_FUNCTION(anon_release_tuples_support) {
    (void)fcinfo;
    return PointerGetDatum(nullptr);
}
