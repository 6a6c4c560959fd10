#include "date_hierarchy.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string_view>
#include <unordered_set>

#include "base/base.hpp"
#include "data/open_dates.hpp"

namespace anon {

namespace {

struct Civil {
    long year;
    int month, day;
};

// The proleptic Gregorian date of a day since 1970-01-01 (the inverse of days_from_civil).
Civil civil_from_days(long z) {
    z += 719468;
    const long era = (z >= 0 ? z : z - 146096) / 146097;
    const long doe = z - era * 146097;
    const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const long mp = (5 * doy + 2) / 153;
    const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    return {yoe + era * 400 + (m <= 2), m, d};
}

// The ISO week-numbering year and week of a day: the week's Thursday decides the year.
std::pair<long, int> iso_week(long day) {
    const long weekday = ((day % 7) + 7 + 3) % 7;  // 1970-01-01 was a Thursday; Monday = 0
    const long thursday = day - weekday + 3;
    const long year = civil_from_days(thursday).year;
    return {year, static_cast<int>((thursday - days_from_civil(year, 1, 1)) / 7 + 1)};
}

std::string format(const char* pattern, long a, long b = 0) {
    char buf[48];
    std::snprintf(buf, sizeof buf, pattern, a, b);
    return buf;
}

const char* const level_names[] = {"week", "month", "quarter", "year", "decade", "century"};

// The fewest days a label of `level` spans.
long shortest_days(DateLevel level) {
    switch (level) {
        case DateLevel::week: return 7;
        case DateLevel::month: return 28;
        case DateLevel::quarter: return 90;
        case DateLevel::year: return 365;
        case DateLevel::decade: return 3652;
        case DateLevel::century: return 36524;
    }
    return 1;
}

}  // namespace

// H. Hinnant's days_from_civil.
long days_from_civil(long y, int m, int d) {
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

const long first_supported_day = days_from_civil(1, 1, 1);
const long last_supported_day = days_from_civil(9999, 12, 31);

std::string iso_day(long day) {
    const Civil c = civil_from_days(day);
    return format("%04ld-%02ld-", c.year, c.month) + format("%02ld", c.day);
}

std::optional<long> parse_iso_day(const std::string& text) {
    int y = 0, m = 0, d = 0, used = 0;
    if (text.size() < 10 || std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 || used != 10)
        return std::nullopt;
    if (y < 1 || m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
    const long day = days_from_civil(y, m, d);
    if (iso_day(day) != text.substr(0, 10)) return std::nullopt;  // 2023-02-30 and the like
    return day;
}

long decade_first_day(long day) {
    return std::max(first_supported_day, days_from_civil(civil_from_days(day).year / 10 * 10, 1, 1));
}

long decade_last_day(long day) {
    return std::min(last_supported_day, days_from_civil(civil_from_days(day).year / 10 * 10 + 9, 12, 31));
}

std::vector<DateLevel> parse_date_levels(const std::vector<std::string>& names, const std::string& argument) {
    std::vector<DateLevel> out;
    for (const auto& name : names) {
        const auto* end = std::end(level_names);
        const auto* it = std::find(std::begin(level_names), end, name);
        if (it == end)
            bad_argument(argument, "level names among week, month, quarter, year, decade, century", "\"" + name + "\"");
        const auto level = static_cast<DateLevel>(it - std::begin(level_names));
        if (!out.empty() && level <= out.back())
            bad_argument(argument, "levels from finer to coarser, each once",
                         "\"" + name + "\" after \"" + level_names[static_cast<int>(out.back())] + "\"");
        if (!out.empty() && out.front() == DateLevel::week && level <= DateLevel::quarter)
            bad_argument(argument, "no month or quarter after week (ISO weeks straddle months)",
                         "\"" + name + "\" after \"week\"");
        out.push_back(level);
    }
    return out;
}

std::string date_level_label(long day, DateLevel level, bool iso_week_year) {
    const Civil c = civil_from_days(day);
    const long year = iso_week_year ? iso_week(day).first : c.year;
    switch (level) {
        case DateLevel::week: {
            const auto [y, w] = iso_week(day);
            return format("%04ld-W%02ld", y, w);
        }
        case DateLevel::month: return format("%04ld-%02ld", c.year, c.month);
        case DateLevel::quarter: return format("%04ld-Q%ld", c.year, (c.month - 1) / 3 + 1);
        case DateLevel::year: return format("%04ld", year);
        case DateLevel::decade: return format("%04lds", year / 10 * 10);
        case DateLevel::century: return format("%04ld-%04ld", year / 100 * 100, year / 100 * 100 + 99);
    }
    return "*";
}

std::vector<TaxonomyNodeSpec> date_hierarchy_nodes(long first, long last, const std::vector<DateLevel>& levels) {
    if (first < first_supported_day || first > last_supported_day)
        bad_argument("lower", "a date from 0001-01-01 to 9999-12-31", "a date outside that range");
    if (last < first_supported_day || last > last_supported_day)
        bad_argument("upper", "a date from 0001-01-01 to 9999-12-31", "a date outside that range");
    if (first > last) bad_argument("lower/upper", "lower <= upper", iso_day(first) + " and " + iso_day(last));
    if (last - first >= 1000000)
        bad_argument("lower/upper", "at most 1000000 days",
                     std::to_string(last - first + 1) + " days from " + iso_day(first) + " to " + iso_day(last));
    const bool iso_year = !levels.empty() && levels.front() == DateLevel::week;
    // The nodes, counted before they are made: the days, and per level at most one label per its shortest span
    // (and one more at each end); every label is short enough to need no heap.
    const long days = last - first + 1;
    std::uint64_t most = 1 + static_cast<std::uint64_t>(days);
    for (DateLevel level : levels) most += static_cast<std::uint64_t>(days / shortest_days(level) + 2);
    const MemoryCharge charge(most * node_spec_bytes(10, 10),
                              "the date taxonomy (up to " + std::to_string(most) + " nodes)",
                              "build it over fewer days");
    std::vector<TaxonomyNodeSpec> nodes;
    nodes.reserve(most);
    nodes.push_back({"*", std::nullopt, 1.0, std::nullopt});
    InterruptPoller poll;
    // Coarsest level first, so that every parent precedes its children. A level's label changes only from one day
    // to the next (labels run in calendar order, and each level's labels have a form of their own).
    for (std::size_t i = levels.size() + 1; i-- > 0;) {
        std::string previous;
        for (long day = first; day <= last; ++day) {
            poll.tick();
            std::string label = i == 0 ? iso_day(day) : date_level_label(day, levels[i - 1], iso_year);
            if (label == previous) continue;
            previous = label;
            std::string parent = i == levels.size() ? "*" : date_level_label(day, levels[i], iso_year);
            nodes.push_back({std::move(label), std::move(parent), 1.0, std::nullopt});
        }
    }
    return nodes;
}

namespace {

// The first day of year `year` (calendar), or of its ISO week-numbering year: the Monday of the week holding 4 January.
long year_start(long year, bool iso_week_year) {
    const long jan1 = days_from_civil(year, 1, 1);
    if (!iso_week_year) return jan1;
    const long jan4 = jan1 + 3;
    return jan4 - ((jan4 % 7) + 7 + 3) % 7;
}

// The number `text` holds when it is exactly `width` digits.
std::optional<long> digits(const std::string& text, std::size_t from, std::size_t width) {
    if (text.size() < from + width) return std::nullopt;
    long v = 0;
    for (std::size_t i = from; i < from + width; ++i) {
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
        v = v * 10 + (text[i] - '0');
    }
    return v;
}

}  // namespace

std::optional<std::pair<long, long>> date_label_days(const std::string& label, bool iso_week_year) {
    const std::size_t n = label.size();
    const std::optional<long> year = digits(label, 0, 4);
    if (!year) return std::nullopt;
    // Years, decades and centuries: from the first day of the first year to that of the year after the last.
    auto years = [&](long count) -> std::optional<std::pair<long, long>> {
        const long first = std::max(year_start(*year, iso_week_year), first_supported_day);
        return std::make_pair(first, year_start(*year + count, iso_week_year));
    };
    if (n == 4 && *year >= 1) return years(1);
    if (n == 5 && label[4] == 's' && *year % 10 == 0) return years(10);
    if (n == 9 && label[4] == '-' && *year % 100 == 0 && digits(label, 5, 4) == *year + 99) return years(100);
    if (*year < 1) return std::nullopt;
    if (n >= 10) {  // a day, or a timestamp's leaf under its day (not a BC one)
        const bool day_text = n == 10 || ((label[10] == ' ' || label[10] == 'T') && label.rfind(" BC") != n - 3);
        const auto day = day_text ? parse_iso_day(label) : std::nullopt;
        if (!day) return std::nullopt;
        return std::make_pair(*day, *day + 1);
    }
    if (n == 7 && label.compare(4, 2, "-Q") == 0) {
        const auto quarter = digits(label, 6, 1);
        if (!quarter || *quarter < 1 || *quarter > 4) return std::nullopt;
        const int month = static_cast<int>(*quarter * 3 - 2);
        return std::make_pair(days_from_civil(*year, month, 1),
                              *quarter == 4 ? days_from_civil(*year + 1, 1, 1) : days_from_civil(*year, month + 3, 1));
    }
    if (n == 7 && label[4] == '-') {
        const auto month = digits(label, 5, 2);
        if (!month || *month < 1 || *month > 12) return std::nullopt;
        return std::make_pair(
            days_from_civil(*year, static_cast<int>(*month), 1),
            *month == 12 ? days_from_civil(*year + 1, 1, 1) : days_from_civil(*year, static_cast<int>(*month) + 1, 1));
    }
    if (n == 8 && label.compare(4, 2, "-W") == 0) {
        const auto week = digits(label, 6, 2);
        if (!week || *week < 1 || *week > 53) return std::nullopt;
        const long first = year_start(*year, true) + 7 * (*week - 1);
        if (iso_week(first).first != *year) return std::nullopt;  // no week 53 in this year
        return std::make_pair(first, first + 7);
    }
    return std::nullopt;
}

Taxonomy date_taxonomy_with_values(std::string name, std::vector<TaxonomyNodeSpec> nodes,
                                   const std::vector<std::string_view>& values) {
    // The nodes' labels and parents (a node-based set: the views of `labels` stay valid while it lives).
    std::unordered_set<std::string> owned, parents;
    for (const auto& n : nodes) {
        owned.insert(n.value);
        if (n.parent) parents.insert(*n.parent);
    }
    const std::unordered_set<std::string_view> labels(owned.begin(), owned.end());
    // A timestamp under its day, viewed in `values` (no node specification of its own).
    std::vector<LeafUnder> leaves;
    leaves.reserve(values.size());
    // Sorted values follow each other by day: the verdict on the last day met is kept.
    std::string_view last_day;
    bool last_day_takes_leaves = false;
    for (const std::string_view v : values) {
        if (v.size() <= 10 || v.substr(v.size() - 3) == " BC" || labels.count(v)) continue;
        const std::string_view day = v.substr(0, 10);
        if (day != last_day) {
            last_day = day;
            last_day_takes_leaves = labels.count(day) && !parents.count(std::string(day));
        }
        if (last_day_takes_leaves) leaves.push_back({v, day});
    }
    // infinity and -infinity (or, in a published table, an open-ended node) beyond the days: their chains (one
    // pass that allocates nothing for a day or a timestamp).
    bool held[2] = {false, false};
    for (const std::string_view v : values) {
        if (!v.empty() && v[0] >= '0' && v[0] <= '9') continue;  // a day or a timestamp
        const auto open = parse_open_date_label(v);
        for (OpenEnd end : {OpenEnd::before, OpenEnd::after})
            held[static_cast<int>(end)] |= v == open_end_value(end) || (open && open->first == end);
    }
    // The chain before the days goes right after the root, the one after them after the leaves (the codes of a
    // hierarchy whose every leaf were a node specification).
    std::vector<TaxonomyNodeSpec> after;
    for (OpenEnd end : {OpenEnd::before, OpenEnd::after}) {
        if (!held[static_cast<int>(end)] || labels.count(open_end_value(end))) continue;
        const std::size_t given = nodes.size();
        add_open_date_nodes(nodes, end);
        if (end == OpenEnd::after) {
            after.assign(std::make_move_iterator(nodes.begin() + static_cast<std::ptrdiff_t>(given)),
                         std::make_move_iterator(nodes.end()));
            nodes.resize(given);
        }
    }
    return Taxonomy::build(std::move(name), nodes, leaves, after);
}

}  // namespace anon
