// anon._release_shard_rows: the rows of a Citus distributed release object without kept columns, each distinct row
// once per shard that some of its tuples go to, with a bucket value that places it on that shard and says how many
// copies of it the shard holds, so that the coordinator sends one row per distinct row and shard and the workers
// repeat it into the object's rows (release_citus.hpp).
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

// An int4[] argument of one value per shard: `name` must hold `shards` values (the first one read sets it).
std::vector<std::int32_t> shard_bound_arg(FunctionCallInfo fcinfo, int n, const char* name, std::size_t shards) {
    std::vector<std::int32_t> bounds;
    for (const double b : number_array_arg(fcinfo, n, name)) bounds.push_back(static_cast<std::int32_t>(b));
    if (bounds.empty()) bad_argument(name, "a hash bound per shard of the object", "an empty array");
    if (shards != 0 && bounds.size() != shards)
        bad_argument(name, "as many bounds as shard_low (" + std::to_string(shards) + ")",
                     std::to_string(bounds.size()));
    return bounds;
}

}  // namespace

// anon._release_shard_rows(output_schema text, output_name text, source regclass, object text, shard_low int4[],
// shard_high int4[]) RETURNS SETOF record: for object 'view' or 'qit', each distinct row of anon._release_tuples's
// object once per shard that some of its tuples go to, followed by anon_bucket (int4), a value that Citus places on
// that shard (its hash within shard_low[i]..shard_high[i], the shard's hash range) and whose high bits are the number
// of the row's tuples the shard holds (anon_bucket >> shard_bucket_shift(shards); a larger number takes several rows).
// A row's tuples go to shards drawn uniformly at random: a row of few tuples to one shard, a larger one spread over
// several distinct shards, each tuple to one of them drawn uniformly and independently (RunPlacement). The draws
// depend on nothing but the row's number of tuples, which the object shows anyway (its equal rows), and a bucket
// value on nothing but its shard and count, which the stored rows show too (where they are, how many are equal), so
// neither tells anything about the source; and since a row stands for every tuple of its class that publishes it, it
// says nothing of the original combinations behind it either. The column definition list is anon._release_tuples's,
// plus anon_bucket.
ANON_SQL_FUNCTION(anon_release_shard_rows) {
    if (PG_NARGS() != 6)
        throw Error(ErrorKind::changed_underneath,
                    "anon._release_shard_rows takes 6 arguments since 0.5; this one is declared by anon's SQL of an "
                    "earlier version, with " +
                        std::to_string(PG_NARGS()),
                    {}, "Update the extension: ALTER EXTENSION anon UPDATE.");
    require_column_definition_list(fcinfo,
                                   "a call in FROM with one, AS m(gid int4, <a column per value>, anon_bucket int4)");
    const OutputName out{text_arg(fcinfo, 0, "output_schema"), text_arg(fcinfo, 1, "output_name")};
    const std::string object = text_arg(fcinfo, 3, "object");
    if (object != "view" && object != "qit") bad_argument("object", "'view' or 'qit'", "'" + object + "'");
    std::vector<std::int32_t> low = shard_bound_arg(fcinfo, 4, "shard_low", 0);
    std::vector<std::int32_t> high = shard_bound_arg(fcinfo, 5, "shard_high", low.size());
    for (std::size_t i = 0; i < low.size(); ++i)
        if (low[i] > high[i])
            bad_argument(
                "shard_high", "each bound at least shard_low's",
                std::to_string(high[i]) + " below " + std::to_string(low[i]) + " at position " + std::to_string(i + 1));
    const auto shards = static_cast<std::uint32_t>(low.size());
    ShardBucketCode code(std::move(low), std::move(high), citus_int4_hash);
    MaterializedRows rows(fcinfo);
    MemoryContext values_context = nullptr;
    pg_call([&] {
        values_context = AllocSetContextCreate(CurrentMemoryContext, "anon release values", ALLOCSET_DEFAULT_SIZES);
    });
    {
        const ReleaseObjectRows object_rows(out, object, rows.descriptor(), values_context, 1);
        std::uint64_t tuples = 0;
        for (std::size_t i = 0; i < object_rows.runs(); ++i) tuples += object_rows.tuples(i);
        RunPlacement placement(shards, placement_rows_per_shard(tuples, shards));
        // At most a row per shard each row is spread over (plus one per further value a large count takes), each
        // with its bucket, its run and at most one value found by the code (a hash node and its bucket, about 48
        // bytes): charged before they are placed.
        std::uint64_t most = 0;
        for (std::size_t i = 0; i < object_rows.runs(); ++i)
            most += placement.shards_for(object_rows.tuples(i)) + object_rows.tuples(i) / code.max_count();
        constexpr std::uint64_t found_value_bytes = 48;
        CallBudget budget;  // anon.memory_limit, current while it lives
        const MemoryCharge placed_charge(most * (sizeof(std::int32_t) + sizeof(std::size_t) + found_value_bytes),
                                         "the release's rows per shard (at most " + std::to_string(most) + ")");
        std::mt19937_64 random = placement_random();
        std::vector<std::int32_t> bucket;     // each row's anon_bucket
        std::vector<std::size_t> placed_run;  // the object's row of each
        bucket.reserve(most);
        placed_run.reserve(most);
        std::vector<RunPlacement::OnShard> placed;
        for (std::size_t i = 0; i < object_rows.runs(); ++i) {
            placed.clear();
            placement.place(object_rows.tuples(i), random, placed);
            for (const auto& p : placed)
                for (const std::uint64_t count : code.split(p.rows)) {
                    bucket.push_back(code.encode(p.shard, count));
                    placed_run.push_back(i);
                }
        }
        const int bucket_column = rows.columns() - 1;
        rows.put_rows(bucket.size(), [&](std::size_t i, Datum* values, bool* nulls) {
            object_rows.fill(placed_run[i], values, nulls);
            values[bucket_column] = Int32GetDatum(bucket[i]);
            nulls[bucket_column] = false;
        });
    }
    pg_call([&] { MemoryContextDelete(values_context); });
    return static_cast<Datum>(0);
}
