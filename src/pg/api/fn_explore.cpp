// anon.explore(): the solution space of a full-domain release, one row per minimal node (docs/explore.md).
#include "algorithms/algorithms.hpp"
#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"
#include "models/models.hpp"
#include "read/read.hpp"

using namespace anon;
using namespace anon::pg;

// anon.explore(source regclass, quasi_identifiers text[], sensitive text[], model text, params jsonb) RETURNS
// TABLE(levels jsonb, classes bigint, suppressed bigint, ncp float8, discernibility float8, kl float8,
// prosecutor_risk float8): Incognito's search for the model, then the release figures of every minimal satisfying
// node, best NCP first. NULL column arguments come from the source's declaration.
ANON_SQL_FUNCTION(anon_explore) {
    const Oid source = oid_arg(fcinfo, 0, "source");
    const std::string model = text_arg(fcinfo, 3, "model");
    Params params = params_arg(fcinfo, 4);
    if (params.get("levels")) bad_argument("params->'levels'", "no node (anon.explore lists them all)", "one");
    Spi spi;
    const CallColumns columns = call_columns(spi, fcinfo, source, {1, 2, false}, params);
    JobSpec spec = parse_job_spec(model, params, "incognito");
    spec.every_minimal_node = true;  // the bounded search would prove only the best node minimal
    CallBudget call_budget;          // anon.memory_limit, current while it lives
    MemoryBudget& budget = call_budget.budget();
    // Mistakes first: what needs no search is checked by one scan before the read (source_precheck.hpp).
    precheck_source(spi, source, columns.quasi_identifiers, columns.sensitive, spec);
    const Source src = read_source(spi, source, columns.quasi_identifiers, columns.sensitive, spec.publication,
                                   TaxonomySource::catalog);
    budget.charge(src.fs.bytes(), "the frequency set");
    const JobResult result = run_job(src.schema, src.fs, spec);
    const Requirement req = Requirement::make(spec.model, src.schema, &src.fs);
    MaterializedRows out(fcinfo);
    for (const ExploredNode& node : explore_nodes(src.schema, src.fs, req, result.minimal_nodes)) {
        Datum values[7] = {jsonb_from_json(levels_json(src.schema, node.levels)),
                           Int64GetDatum(static_cast<int64>(node.metrics.classes)),
                           Int64GetDatum(node.suppressed),
                           Float8GetDatum(node.metrics.ncp),
                           Float8GetDatum(node.metrics.discernibility),
                           Float8GetDatum(node.metrics.kl),
                           Float8GetDatum(node.prosecutor_risk)};
        bool nulls[7] = {false, false, false, false, false, false, false};
        out.put(values, nulls);
    }
    return static_cast<Datum>(0);
}
