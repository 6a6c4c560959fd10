#include "taxonomy_builders.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <functional>
#include <limits>

#include "infra/infra.hpp"
#include "source_reader.hpp"

namespace anon::pg {

namespace {

// Hands each row of a query's text columns to a callback as the executor makes it (stream_rows' consumer); the
// values' bytes live in a memory context reset for every row.
struct TextRowReader {
    const std::function<void(const TextRow&)>* on_row = nullptr;
    MemoryContext row_context = nullptr;
    TextRow row;

    void start(TupleDesc desc) { row.resize(static_cast<std::size_t>(desc->natts)); }

    void add(TupleTableSlot* slot) {
        pg_call([&] {
            MemoryContextReset(row_context);
            const MemoryContext saved = MemoryContextSwitchTo(row_context);
            slot_getallattrs(slot);
            for (std::size_t c = 0; c < row.size(); ++c)
                row[c] = slot->tts_isnull[c]
                             ? std::nullopt
                             : std::optional<std::string_view>(value_text(nullptr, slot->tts_values[c]));
            MemoryContextSwitchTo(saved);
        });
        (*on_row)(row);
    }
};

// What the memory-limit error of a column's values suggests besides a larger anon.memory_limit.
constexpr const char* values_remedy = "build the taxonomy from a column with fewer distinct values";

}  // namespace

void for_each_text_row(Spi& spi, const std::string& sql, const std::function<void(const TextRow&)>& on_row) {
    // An exception of on_row stops the read as a PostgreSQL error; the exception itself is what the caller gets, so
    // that it reads as raised by the builder, not by the statement that was reading.
    std::exception_ptr failure;
    const std::function<void(const TextRow&)> guarded = [&](const TextRow& row) {
        try {
            on_row(row);
        } catch (...) {
            failure = std::current_exception();
            throw;
        }
    };
    TextRowReader reader;
    reader.on_row = &guarded;
    pg_call([&] {
        reader.row_context = AllocSetContextCreate(CurrentMemoryContext, "anon builder rows", ALLOCSET_DEFAULT_SIZES);
    });
    try {
        stream_rows(spi, sql, reader);
    } catch (const PgError&) {
        if (failure) std::rethrow_exception(failure);
        throw;
    }
    pg_call([&] { MemoryContextDelete(reader.row_context); });
}

void set_tree_nodes(StoredTaxonomy& stored, const Taxonomy& t, const std::vector<Code>& order, MemoryCharge& held) {
    std::uint64_t bytes = order.size() * sizeof(TaxonomyNodeSpec);
    for (Code k : order)
        bytes += string_heap_bytes(t.label(k).size()) +
                 (t.parent(k) == no_code ? 0 : string_heap_bytes(t.label(t.parent(k)).size()));
    held.resize(bytes, "the taxonomy's " + std::to_string(order.size()) + " nodes");
    stored.nodes.reserve(order.size());
    InterruptPoller poll;
    for (Code k : order) {
        stored.nodes.push_back(
            {std::string(t.label(k)),
             t.parent(k) == no_code ? std::nullopt : std::optional<std::string>(t.label(t.parent(k))), 1.0,
             std::nullopt, t.span(k)});
        poll.tick();
    }
}

void check_taxonomy_name(const std::string& name) {
    if (name.empty() || name.size() > 200)
        bad_argument("name", "a taxonomy name of 1 to 200 bytes", std::to_string(name.size()) + " bytes");
}

bool replace_arg(FunctionCallInfo fcinfo, int n) { return PG_NARGS() > n && !PG_ARGISNULL(n) && PG_GETARG_BOOL(n); }

Datum store_and_summarize(Spi& spi, const StoredTaxonomy& stored, bool replace) {
    store_taxonomy(spi, stored, replace);
    std::optional<TreeShape> shape = tree_shape(stored.nodes);
    if (!shape) {  // not given parents first: the taxonomy itself tells what is wrong, or its shape
        const MemoryCharge charge(taxonomy_bytes(stored.nodes), "the taxonomy's tree");
        const Taxonomy t = Taxonomy::build(stored.name, stored.nodes);
        shape = TreeShape{t.size(), t.total_leaves(), t.height()};
    }
    return taxonomy_summary(stored, *shape);
}

Datum taxonomy_summary(const StoredTaxonomy& stored, const TreeShape& shape) {
    JsonWriter w;
    w.begin_object()
        .field("name", stored.name)
        .field("kind", stored.kind)
        .field("nodes", static_cast<long long>(shape.nodes))
        .field("leaves", static_cast<long long>(shape.leaves))
        .field("height", shape.height)
        .end_object();
    return jsonb_from_json(w.str());
}

std::vector<std::pair<std::string, Count>> column_values(Spi& spi, Oid relid, const std::string& column,
                                                         const std::string& argument, MemoryCharge& held) {
    check_column_exists(spi, relid, column, argument);
    const std::string rel = qualified_name(relid);
    std::vector<std::pair<std::string, Count>> out;
    std::uint64_t text_bytes = 0;
    const std::string what = "the distinct values of column \"" + column + "\" of " + rel;
    for_each_text_row(spi,
                      "SELECT " + canonical_text_sql(quote_ident(column)) +
                          ", pg_catalog.count(*)::pg_catalog.text FROM " + rel + " WHERE " + quote_ident(column) +
                          " IS NOT NULL GROUP BY 1",
                      [&](const TextRow& row) {
                          // Charged before it is kept: the text, and the list as it grows by doubling.
                          text_bytes += string_heap_bytes(row[0]->size());
                          const std::size_t slots = std::max(out.capacity(), 2 * (out.size() + 1));
                          held.resize(text_bytes + slots * sizeof(out[0]), what, values_remedy);
                          out.emplace_back(std::string(*row[0]), std::stoll(std::string(*row[1])));
                      });
    if (out.empty())
        bad_argument(argument, "a column with at least one non-NULL value",
                     "column \"" + column + "\" of " + rel + " without any");
    InterruptPoller poll;
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {  // byte order, whatever the collation
        poll.tick();
        return a < b;
    });
    return out;
}

std::string column_category(Spi& spi, Oid relid, const std::string& column, std::string& type) {
    auto row = spi.query(
        "SELECT pg_catalog.format_type(a.atttypid, a.atttypmod), (CASE WHEN t.typtype OPERATOR(pg_catalog.=) 'd' "
        "THEN t.typbasetype ELSE t.oid END)::pg_catalog.regtype::pg_catalog.text FROM pg_catalog.pg_attribute a "
        "JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid "
        "OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum "
        "OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped",
        {std::to_string(relid), column});
    if (row.empty()) return "missing";
    type = row[0][0].value_or("");
    const std::string base = row[0][1].value_or("");
    for (const char* t : {"smallint", "integer", "bigint", "numeric", "real", "double precision"})
        if (base == t) return "number";
    for (const char* t : {"date", "timestamp without time zone", "timestamp with time zone"})
        if (base == t) return "date";
    return base == "money" ? "unreadable" : "other";
}

std::optional<long> supported_day(const std::string& text) {
    const bool bc = text.size() > 3 && text.compare(text.size() - 3, 3, " BC") == 0;
    return bc ? std::nullopt : parse_iso_day(text);
}

StoredTaxonomy date_taxonomy_of(const std::string& name, long first, long last, const std::vector<DateLevel>& levels) {
    return StoredTaxonomy{name, "date", 0, 0, {}, date_hierarchy_nodes(first, last, levels)};
}

StoredTaxonomy quantile_taxonomy_of(const std::string& name, const std::vector<std::pair<std::string, Count>>& values,
                                    const std::vector<int>& bins, const std::string& argument, Count k) {
    std::vector<std::pair<double, Count>> numbers;
    const MemoryCharge numbers_charge(values.size() * sizeof(numbers[0]),
                                      "the numbers of " + std::to_string(values.size()) + " distinct values");
    numbers.reserve(values.size());
    InterruptPoller poll;
    for (const auto& [text, count] : values) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v))
            bad_argument(argument, "a column of finite numbers", "the value \"" + text + "\"");
        numbers.emplace_back(v, count);
        poll.tick();
    }
    std::sort(numbers.begin(), numbers.end(), [&](const auto& a, const auto& b) {
        poll.tick();
        return a < b;
    });
    StoredTaxonomy stored{name, "ranges", 0, 0, {}, quantile_hierarchy_nodes(numbers, bins, argument, k)};
    // Every number lies in some band (the outer ones are open): coded, as interval_taxonomy's bottom and top coding,
    // so that anon.covers takes "*" for every number. lower and upper: the lowest and highest cut, which the catalog
    // may show as they have k rows beyond them (NaN, stored as NULL, without cuts).
    stored.coded = true;
    stored.lower = stored.upper = std::numeric_limits<double>::quiet_NaN();
    for (const auto& n : stored.nodes) {
        if (!n.parent || !n.range) continue;
        if (n.value.rfind("<", 0) == 0 && !(n.range->second >= stored.lower)) stored.lower = n.range->second;
        if (n.value.rfind(">=", 0) == 0 && !(n.range->first <= stored.upper)) stored.upper = n.range->first;
    }
    return stored;
}

}  // namespace anon::pg
