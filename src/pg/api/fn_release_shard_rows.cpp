// anon._release_shard_rows: the rows of a Citus distributed release object without kept columns, grouped by the
// shard each of their tuples goes to, so that the coordinator sends one row per distinct row and shard it goes to and
// the workers repeat it into the object's rows (release_citus.hpp).
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

// The generator that places the tuples, seeded from the server's strong random source, so that no one can predict
// or replay a placement (it must tell nothing about the source).
std::mt19937_64 placement_random() {
    std::uint64_t seed = 0;
    bool drawn = false;
    pg_call([&] { drawn = pg_strong_random(&seed, sizeof seed); });
    if (!drawn) throw Error(ErrorKind::internal, "could not draw a random seed for the release's placement");
    return std::mt19937_64(seed);
}

// The tuples of a row that each shard receiving some of them stands for, at least on average: a row of fewer tuples
// goes whole to one shard (RunPlacement), so the coordinator sends about one row per 16 tuples plus one per row.
constexpr std::uint64_t tuples_per_shard = 16;

}  // namespace

// anon._release_shard_rows(output_schema text, output_name text, source regclass, object text, buckets int4[])
// RETURNS SETOF record: for object 'view' or 'qit', each distinct row of anon._release_tuples's object once per shard
// that some of its tuples go to, followed by how many (count int8) and buckets[shard] (anon_bucket int4), a value of
// the object's distribution column that Citus places on that shard (one per shard, in any order). A row's tuples go
// to shards drawn uniformly at random: a row of few tuples to one shard, a larger one spread over several distinct
// shards, each tuple to one of them drawn uniformly and independently (RunPlacement). The draws depend on nothing but
// the row's number of tuples, which the object shows anyway (its equal rows), so where a row's copies are stored
// tells nothing about the source; and since a row stands for every tuple of its class that publishes it, it says
// nothing of the original combinations behind it either. The column definition list is anon._release_tuples's, plus
// the two columns.
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
        RunPlacement placement(static_cast<std::uint32_t>(buckets.size()), tuples_per_shard);
        // At most a row per shard each row is spread over: charged before it is placed.
        std::uint64_t most = 0;
        for (std::size_t i = 0; i < object_rows.runs(); ++i) most += placement.shards_for(object_rows.tuples(i));
        CallBudget budget;  // anon.memory_limit, current while it lives
        const MemoryCharge placed_charge(most * (sizeof(RunPlacement::OnShard) + sizeof(std::size_t)),
                                         "the release's rows per shard (at most " + std::to_string(most) + ")");
        std::mt19937_64 random = placement_random();
        std::vector<RunPlacement::OnShard> placed;
        std::vector<std::size_t> placed_run;  // the object's row of each of `placed`
        placed.reserve(most);
        placed_run.reserve(most);
        for (std::size_t i = 0; i < object_rows.runs(); ++i) {
            placement.place(object_rows.tuples(i), random, placed);
            placed_run.resize(placed.size(), i);
        }
        const int count_column = rows.columns() - 2;
        rows.put_rows(placed.size(), [&](std::size_t i, Datum* values, bool* nulls) {
            object_rows.fill(placed_run[i], values, nulls);
            values[count_column] = Int64GetDatum(static_cast<int64>(placed[i].rows));
            values[count_column + 1] = Int32GetDatum(buckets[placed[i].shard]);
            nulls[count_column] = nulls[count_column + 1] = false;
        });
    }
    pg_call([&] { MemoryContextDelete(values_context); });
    return static_cast<Datum>(0);
}
