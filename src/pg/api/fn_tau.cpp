// SQL functions of functional (tau, l)-diversity (Tian & Zhang): strength conversions, and the excessive protection
// and count-query workload of a release.
#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"
#include "publish/publish.hpp"

using namespace anon;
using namespace anon::pg;

// anon.weakest_stronger_requirement(tau float8, l int, m int) RETURNS jsonb: the weakest simple l-diversity and
// (c,l)-diversity requirements that guarantee (tau, l)-diversity over m sensitive values (Theorems 20 and 23,
// Corollaries 21 and 24), so an owner can run another algorithm and still meet (tau, l).
ANON_SQL_FUNCTION(anon_weakest_stronger_requirement) {
    if (PG_ARGISNULL(0)) bad_argument("tau", "a number", "NULL");
    if (PG_ARGISNULL(1)) bad_argument("l", "an integer", "NULL");
    if (PG_ARGISNULL(2)) bad_argument("m", "an integer", "NULL");
    const double tau = PG_GETARG_FLOAT8(0);
    const int l = PG_GETARG_INT32(1), m = PG_GETARG_INT32(2);
    return jsonb_from_json(weakest_stronger_json(weakest_stronger_requirement(tau, l, m)));
}

// anon.count_query_error(output text, queries int, dimensions int, seed int) RETURNS jsonb: the average relative
// error of random count queries (overlap semantics, fractional counts; §5.3.3) answered from the release, against
// the source's true counts. The release is recomputed from its stored configuration.
ANON_SQL_FUNCTION(anon_count_query_error) {
    const std::string output = text_arg(fcinfo, 0, "output");
    if (PG_ARGISNULL(1) || PG_GETARG_INT32(1) < 1 || PG_GETARG_INT32(1) > 1000000)
        bad_argument("queries", "an integer in [1, 1000000]",
                     PG_ARGISNULL(1) ? "NULL" : std::to_string(PG_GETARG_INT32(1)));
    if (PG_ARGISNULL(2) || PG_GETARG_INT32(2) < 1)
        bad_argument("dimensions", "an integer >= 1", PG_ARGISNULL(2) ? "NULL" : std::to_string(PG_GETARG_INT32(2)));
    if (PG_ARGISNULL(3)) bad_argument("seed", "an integer", "NULL");
    const int queries = PG_GETARG_INT32(1), dimensions = PG_GETARG_INT32(2);
    const auto seed = static_cast<std::uint64_t>(static_cast<std::int64_t>(PG_GETARG_INT32(3)));
    Spi spi;
    auto computed = compute_release(spi, load_release(spi, output, "output"), false);
    const std::size_t attributes = computed->source.schema.qi_names.size() + computed->source.schema.sa_names.size();
    if (static_cast<std::size_t>(dimensions) > attributes)
        bad_argument("dimensions", "at most the " + std::to_string(attributes) + " QI and sensitive columns",
                     std::to_string(dimensions));
    CallBudget budget;  // the workload is charged to anon.memory_limit (count_query_workload)
    budget.budget().charge(computed->source.fs.bytes() + computed->result.release.bytes(),
                           "the frequency set and the release");
    const CountQueryError e = count_query_error(computed->source.schema, computed->source.fs, computed->result.release,
                                                queries, dimensions, seed);
    JsonWriter w;
    w.begin_object()
        .field("average_relative_error", e.average_relative_error)
        .field("queries", e.queries)
        .field("dimensions", e.dimensions)
        .end_object();
    return jsonb_from_json(w.str());
}

// anon.excessive_protection(output text, tau float8, l int) RETURNS float8: e(P) of Def. 35 of the release against
// a (tau, l)-diversity requirement, whatever model made it, so releases of other models run in place of (tau, l)
// (the paper's CLD and 1DLD) can be compared with SWEEP's. The release is recomputed from its stored configuration.
ANON_SQL_FUNCTION(anon_excessive_protection) {
    const std::string output = text_arg(fcinfo, 0, "output");
    if (PG_ARGISNULL(1)) bad_argument("tau", "a number", "NULL");
    if (PG_ARGISNULL(2)) bad_argument("l", "an integer", "NULL");
    const double tau = PG_GETARG_FLOAT8(1);
    const int l = PG_GETARG_INT32(2);
    Spi spi;
    auto computed = compute_release(spi, load_release(spi, output, "output"), false);
    PG_RETURN_FLOAT8(
        excessive_protection(computed->source.schema, computed->source.fs, computed->result.release, tau, l));
}
