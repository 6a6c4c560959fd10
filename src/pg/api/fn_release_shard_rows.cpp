// anon._release_shard_rows: the rows of a Citus distributed release object without kept columns, grouped by the
// shard each of their tuples goes to, so that the coordinator sends one row per row and shard and the workers repeat
// it into the object's rows (release_citus.hpp).
#include <algorithm>
#include <random>

#include "base/base.hpp"
#include "infra/infra.hpp"
#include "publish/publish.hpp"

extern "C" {
#include "port.h"
}

using namespace anon;
using namespace anon::pg;

namespace {

// A row of the object, the shard some of its tuples go to, and how many.
struct ShardRun {
    std::size_t run;
    std::uint32_t shard;
    std::uint64_t tuples;
};

// The generator that places the tuples, seeded from the server's strong random source, so that no one can predict
// or replay a placement (it must tell nothing about the source).
std::mt19937_64 placement_random() {
    std::uint64_t seed = 0;
    bool drawn = false;
    pg_call([&] { drawn = pg_strong_random(&seed, sizeof seed); });
    if (!drawn) throw Error(ErrorKind::internal, "could not draw a random seed for the release's placement");
    return std::mt19937_64(seed);
}

}  // namespace

// anon._release_shard_rows(output_schema text, output_name text, source regclass, object text, buckets int4[])
// RETURNS SETOF record: for object 'view' or 'qit', each row of anon._release_tuples's object once per shard that some
// of its tuples go to, followed by how many (count int8) and buckets[shard] (anon_bucket int4), a value of the
// object's distribution column that Citus places on that shard (one per shard, in any order). Each tuple goes to a
// shard drawn uniformly and independently, as a random bucket per row would send it: the count per shard follows
// that law whatever the row (uniform_spread), so where a row's copies are stored tells nothing about the source.
// The column definition list is anon._release_tuples's, plus the two columns.
ANON_SQL_FUNCTION(anon_release_shard_rows) {
    require_column_definition_list(
        fcinfo, "a call in FROM with one, AS m(gid int4, <a column per value>, count int8, anon_bucket int4)");
    const OutputName out{text_arg(fcinfo, 0, "output_schema"), text_arg(fcinfo, 1, "output_name")};
    const std::string object = text_arg(fcinfo, 3, "object");
    if (object != "view" && object != "qit") bad_argument("object", "'view' or 'qit'", "'" + object + "'");
    std::vector<std::int32_t> buckets;
    for (const double b : number_array_arg(fcinfo, 4, "buckets")) buckets.push_back(static_cast<std::int32_t>(b));
    if (buckets.empty()) bad_argument("buckets", "a value per shard of the object", "an empty array");
    MaterializedRows rows(fcinfo);
    MemoryContext values_context = nullptr;
    pg_call([&] {
        values_context = AllocSetContextCreate(CurrentMemoryContext, "anon release values", ALLOCSET_DEFAULT_SIZES);
    });
    {
        const ReleaseObjectRows object_rows(out, object, rows.descriptor(), values_context, 2);
        // At most a row per tuple and per shard of each run: charged before it is placed.
        std::uint64_t most = 0;
        for (std::size_t i = 0; i < object_rows.runs(); ++i)
            most += std::min<std::uint64_t>(object_rows.tuples(i), buckets.size());
        CallBudget budget;  // anon.memory_limit, current while it lives
        const MemoryCharge placed_charge(most * sizeof(ShardRun),
                                         "the release's rows per shard (at most " + std::to_string(most) + ")");
        std::mt19937_64 random = placement_random();
        std::vector<ShardRun> placed;
        placed.reserve(most);
        for (std::size_t i = 0; i < object_rows.runs(); ++i) {
            const auto counts = uniform_spread(object_rows.tuples(i), buckets.size(), random);
            for (std::uint32_t shard = 0; shard < counts.size(); ++shard)
                if (counts[shard] > 0) placed.push_back({i, shard, counts[shard]});
        }
        const int count_column = rows.columns() - 2;
        rows.put_rows(placed.size(), [&](std::size_t i, Datum* values, bool* nulls) {
            object_rows.fill(placed[i].run, values, nulls);
            values[count_column] = Int64GetDatum(static_cast<int64>(placed[i].tuples));
            values[count_column + 1] = Int32GetDatum(buckets[placed[i].shard]);
            nulls[count_column] = nulls[count_column + 1] = false;
        });
    }
    pg_call([&] { MemoryContextDelete(values_context); });
    return static_cast<Datum>(0);
}
