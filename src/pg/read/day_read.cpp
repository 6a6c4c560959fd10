#include "day_read.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"
#include "source_reader.hpp"
#include "taxonomy_builders.hpp"

namespace anon::pg {

namespace {

// The quasi-identifiers of type timestamp or timestamptz among `qi`, each with whether it has a time zone.
std::vector<std::pair<std::string, bool>> timestamp_columns(Spi& spi, Oid relid, const std::vector<std::string>& qi) {
    std::vector<std::pair<std::string, bool>> out;
    for (const auto& row :
         spi.query("SELECT attname::pg_catalog.text, atttypid OPERATOR(pg_catalog.=) "
                   "'pg_catalog.timestamptz'::pg_catalog.regtype FROM pg_catalog.pg_attribute WHERE attrelid "
                   "OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped "
                   "AND atttypid OPERATOR(pg_catalog.=) ANY ('{timestamp,timestamptz}'::pg_catalog.regtype[])",
                   {std::to_string(relid)}))
        if (row[0] && std::find(qi.begin(), qi.end(), *row[0]) != qi.end())
            out.emplace_back(*row[0], row[1].value_or("f") == "t");
    return out;
}

// The days of `column`'s finite values with their distinct values, and whether a value fewer than `least` rows
// share is the rule for all of them and no value is before year 1 (least <= 1: the days alone are asked for).
struct DayCounts {
    std::vector<std::pair<std::string, Count>> values_per_day;
    bool every_value_below_least = true;
};
DayCounts day_counts(Spi& spi, Oid relid, const std::string& column, bool with_time_zone, Count least) {
    const std::string quoted = quote_ident(column);
    const std::string source = qualified_name(relid);
    DayCounts counts;
    // The read's work_mem: a column of a million distinct times is a hash table (or a sort) of a million values,
    // which the default work_mem would spill to disk.
    const int nest_level = begin_local_settings({read_work_mem_setting()});
    // First each day's rows and distinct values, sorted day by day (0.5 s on a million stays): a value shares its
    // rows with at most (rows - distinct values) others of its day, so when that is below least - 1 in every day
    // the rule holds without counting each value's rows, as a column of times unique to the microsecond has it.
    bool bounded = true, before_year_1 = false;
    const std::string day = day_of_sql(quoted, with_time_zone);
    for_each_text_row(spi,
                      "SELECT pg_catalog.to_char(g.d, 'YYYY-MM-DD'), pg_catalog.count(DISTINCT g.v)::pg_catalog.text, "
                      "(pg_catalog.count(*) OPERATOR(pg_catalog.-) pg_catalog.count(DISTINCT g.v) "
                      "OPERATOR(pg_catalog.<) " +
                          std::to_string(std::max<Count>(least - 1, 0)) +
                          ")::pg_catalog.text, pg_catalog.bool_or(g.d OPERATOR(pg_catalog.<) "
                          "'0001-01-01'::pg_catalog.date)::pg_catalog.text FROM (SELECT " +
                          quoted + " AS v, " + day + " AS d FROM " + source + " WHERE pg_catalog.isfinite(" + quoted +
                          ")) g GROUP BY g.d",
                      [&](const TextRow& row) {
                          counts.values_per_day.emplace_back(std::string(*row[0]), std::stoll(std::string(*row[1])));
                          if (*row[2] != "true") bounded = false;
                          if (*row[3] == "true") before_year_1 = true;
                      });
    // When some day holds repeated values, the largest share of a value decides, counted value by value.
    auto largest_share_below_least = [&] {
        return spi.query("SELECT (pg_catalog.max(g.n) OPERATOR(pg_catalog.<) " + std::to_string(least) +
                         ")::pg_catalog.text FROM (SELECT " + quoted + " AS v, pg_catalog.count(*) AS n FROM " +
                         source + " WHERE pg_catalog.isfinite(" + quoted + ") GROUP BY 1) g")
                   .at(0)[0]
                   .value_or("false") == "true";
    };
    counts.every_value_below_least = least > 1 && !before_year_1 && (bounded || largest_share_below_least());
    end_local_settings(nest_level);
    return counts;
}

}  // namespace

std::string day_of_sql(const std::string& expression, bool with_time_zone) {
    return with_time_zone ? "pg_catalog.date(pg_catalog.timezone('UTC', " + expression + "))"
                          : "pg_catalog.date(" + expression + ")";
}

std::string value_text_sql(const std::string& expression, const std::string& column,
                           const std::vector<std::string>& at_day) {
    const std::string text = canonical_text_sql(expression);
    if (std::find(at_day.begin(), at_day.end(), column) == at_day.end()) return text;
    return "(SELECT CASE WHEN t.v LIKE '% BC' THEN t.v ELSE pg_catalog.left(t.v, 10) END FROM (SELECT " + text +
           " AS v) t)";
}

std::vector<DayColumn> columns_read_at_day(Spi& spi, Oid relid, const std::vector<std::string>& qi,
                                           const PublicationOptions& publication, Count least,
                                           const std::optional<std::vector<std::string>>& recorded) {
    std::vector<DayColumn> out;
    if (recorded ? recorded->empty() : least <= 1) return out;
    std::vector<std::pair<std::string, bool>> candidates;
    for (const auto& [column, with_time_zone] : timestamp_columns(spi, relid, qi)) {
        if (recorded && std::find(recorded->begin(), recorded->end(), column) == recorded->end()) continue;
        if (taxonomy_kind(spi, taxonomy_name_for(publication, column)) == std::optional<std::string>("date"))
            candidates.emplace_back(column, with_time_zone);
    }
    if (candidates.empty()) return out;
    // A pass over each such column before the read (a phase of its own, not a silent one).
    ProgressPhase counting("count the days of timestamps", candidates.size());
    std::uint64_t done = 0;
    for (const auto& [column, with_time_zone] : candidates) {
        DayCounts counts = day_counts(spi, relid, column, with_time_zone, recorded ? 1 : least);
        counting.step(++done);
        // A first computation reads at their day the columns whose values no class can share, and that have some
        // (a column of infinity alone keeps its level 0, where infinity is published as itself).
        if (!recorded && (!counts.every_value_below_least || counts.values_per_day.empty())) continue;
        out.push_back({column, with_time_zone, std::move(counts.values_per_day)});
    }
    counting.finish();
    return out;
}

const DayColumn* day_column(const std::vector<DayColumn>& at_day, const std::string& column) {
    const auto day = std::find_if(at_day.begin(), at_day.end(), [&](const DayColumn& d) { return d.column == column; });
    return day == at_day.end() ? nullptr : &*day;
}

std::vector<std::string> day_column_names(const std::vector<DayColumn>& at_day) {
    std::vector<std::string> names;
    for (const DayColumn& d : at_day) names.push_back(d.column);
    return names;
}

}  // namespace anon::pg
