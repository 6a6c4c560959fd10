#include "typed_ranges.hpp"

#include <unordered_map>

#include "base/base.hpp"
#include "data/date_hierarchy.hpp"
#include "data/open_dates.hpp"

namespace anon {

namespace {

// `text` without leading and trailing blanks.
std::string trimmed(const std::string& text) {
    const std::size_t first = text.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// The bounds of a bracketed literal "[a,b)" ("(" or "[", then ")" or "]"; either bound may be empty): a, b and
// whether each is inclusive; nullopt for other text.
struct Bracketed {
    std::string lower, upper;
    bool lower_inclusive, upper_inclusive;
};
std::optional<Bracketed> bracketed(const std::string& text) {
    if (text.size() < 3 || (text.front() != '[' && text.front() != '(') || (text.back() != ']' && text.back() != ')'))
        return std::nullopt;
    const std::size_t comma = text.find(',');
    if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos) return std::nullopt;
    return Bracketed{trimmed(text.substr(1, comma - 1)), trimmed(text.substr(comma + 1, text.size() - comma - 2)),
                     text.front() == '[', text.back() == ']'};
}

// The day a bound of a daterange literal names: an ISO day (ten characters), infinity or -infinity.
std::optional<long> bound_day(const std::string& bound) {
    return bound.size() == 10 || bound == "infinity" || bound == "-infinity" ? day_of_value(bound) : std::nullopt;
}

// A bound of a daterange literal: the ISO day, or infinity and -infinity.
std::string day_text(long day) {
    if (day == infinity_day) return "infinity";
    if (day == minus_infinity_day) return "-infinity";
    return iso_day(day);
}

// A range with both bounds present holds some number: lower < upper, or lower = upper with both inclusive.
bool non_empty(const NumberRange& r) {
    if (!r.lower || !r.upper) return true;
    const int c = compare_decimal(*r.lower, *r.upper);
    return c < 0 || (c == 0 && r.lower_inclusive && r.upper_inclusive);
}

// The range of "a-b" (a and b numbers, a <= b): [a, b]. Each '-' after the first character that is not an exponent's
// sign is tried as the separator.
std::optional<NumberRange> span(const std::string& text) {
    for (std::size_t i = 1; i + 1 < text.size(); ++i) {
        if (text[i] != '-' || text[i - 1] == 'e' || text[i - 1] == 'E') continue;
        const std::string a = text.substr(0, i), b = text.substr(i + 1);
        if (is_decimal(a) && is_decimal(b)) return NumberRange{a, b, true, true};
    }
    return std::nullopt;
}

// Compares two lower bounds (or two upper bounds, with `upper`): -1 when `a` admits more numbers at that end.
int compare_bound(const std::optional<std::string>& a, bool a_inclusive, const std::optional<std::string>& b,
                  bool b_inclusive, bool upper) {
    if (!a || !b) return !a && !b ? 0 : (!a ? -1 : 1);
    const int c = compare_decimal(*a, *b) * (upper ? -1 : 1);
    if (c != 0) return c;
    return a_inclusive == b_inclusive ? 0 : (a_inclusive ? -1 : 1);
}

// The range a label of a column names, for validation: a number range or a day range.
struct AnyRange {
    std::optional<NumberRange> number;
    std::optional<DayRange> day;
    bool found() const { return number || day; }
};
AnyRange range_of(std::string_view label, ValueKind kind, bool iso_week_year) {
    AnyRange r;
    if (kind == ValueKind::number) r.number = number_range_of_label(std::string(label));
    if (kind == ValueKind::day) r.day = day_range_of_label(std::string(label), iso_week_year);
    return r;
}

// True when `inner` lies within `outer` (both of the same kind).
bool within(const AnyRange& inner, const AnyRange& outer) {
    if (inner.number) return number_range_within(*inner.number, *outer.number);
    const DayRange &a = *inner.day, &b = *outer.day;
    const bool first_ok = !b.first || (a.first && *a.first >= *b.first);
    const bool end_ok = !b.end || (a.end && *a.end <= *b.end);
    return first_ok && end_ok;
}

// The error for a taxonomy whose labels cannot be published as ranges of the column.
[[noreturn]] void not_ranges(const Taxonomy& tax, const std::string& column, const char* type,
                             const std::string& found) {
    bad_argument("params->'ranges'",
                 "\"typed\" with taxonomy labels that are " + std::string(type) +
                     " ranges, each within its parent's, for column \"" + column + "\" (taxonomy \"" + tax.name() +
                     "\")",
                 found);
}

}  // namespace

const char* published_type_name(PublishedType type) {
    switch (type) {
        case PublishedType::numrange: return "numrange";
        case PublishedType::daterange: return "daterange";
        case PublishedType::text: break;
    }
    return "text";
}

std::optional<NumberRange> number_range_of_label(const std::string& raw) {
    const std::string label = trimmed(raw);
    if (label == "*") return NumberRange{};
    if (is_decimal(label)) return NumberRange{label, label, true, true};
    std::optional<NumberRange> r;
    if (const auto b = bracketed(label)) {
        if ((!b->lower.empty() && !is_decimal(b->lower)) || (!b->upper.empty() && !is_decimal(b->upper)))
            return std::nullopt;
        r = NumberRange{};
        if (!b->lower.empty()) r->lower = b->lower;
        if (!b->upper.empty()) r->upper = b->upper;
        r->lower_inclusive = r->lower && b->lower_inclusive;
        r->upper_inclusive = r->upper && b->upper_inclusive;
    } else if (label.rfind("<=", 0) == 0 || label.rfind(">=", 0) == 0 || label[0] == '<' || label[0] == '>') {
        const bool inclusive = label.size() > 1 && label[1] == '=';
        const std::string bound = trimmed(label.substr(inclusive ? 2 : 1));
        if (!is_decimal(bound)) return std::nullopt;
        r = NumberRange{};
        if (label[0] == '<') {
            r->upper = bound;
            r->upper_inclusive = inclusive;
        } else {
            r->lower = bound;
            r->lower_inclusive = inclusive;
        }
    } else {
        r = span(label);
    }
    if (r && !non_empty(*r)) return std::nullopt;
    return r;
}

std::string number_range_text(const NumberRange& r) {
    return std::string(r.lower_inclusive ? "[" : "(") + r.lower.value_or("") + "," + r.upper.value_or("") +
           (r.upper_inclusive ? "]" : ")");
}

bool number_range_within(const NumberRange& inner, const NumberRange& outer) {
    return compare_bound(outer.lower, outer.lower_inclusive, inner.lower, inner.lower_inclusive, false) <= 0 &&
           compare_bound(outer.upper, outer.upper_inclusive, inner.upper, inner.upper_inclusive, true) <= 0;
}

bool number_range_contains(const NumberRange& range, const std::string& value) {
    return is_decimal(value) && number_range_within(NumberRange{value, value, true, true}, range);
}

std::optional<DayRange> day_range_of_label(const std::string& raw, bool iso_week_year) {
    const std::string label = trimmed(raw);
    if (label == "*") return DayRange{};
    if (const auto b = bracketed(label)) {  // a daterange literal, as typed releases publish them
        const auto first = b->lower.empty() ? std::nullopt : bound_day(b->lower);
        const auto last = b->upper.empty() ? std::nullopt : bound_day(b->upper);
        if ((!b->lower.empty() && !first) || (!b->upper.empty() && !last)) return std::nullopt;
        // As [first, end): an exclusive lower bound and an inclusive upper one move a day on.
        DayRange r;
        if (first) r.first = *first + (b->lower_inclusive ? 0 : 1);
        if (last) r.end = *last + (b->upper_inclusive ? 1 : 0);
        if (r.first && r.end && *r.first >= *r.end) return std::nullopt;
        return r;
    }
    if (label == "infinity" || label == "-infinity") {  // the value itself: that one day
        const long day = *day_of_value(label);
        return DayRange{day, day + 1};
    }
    if (const auto open = parse_open_date_label(label)) {
        const auto days = date_label_days(open->second, iso_week_year);
        if (!days) return std::nullopt;
        if (open->first == OpenEnd::before) return DayRange{std::nullopt, days->first};
        // After the last supported day, only infinity is left (a later finite day is refused).
        return DayRange{days->second > last_supported_day ? infinity_day : days->second, std::nullopt};
    }
    const auto days = date_label_days(label, iso_week_year);
    if (!days) return std::nullopt;
    return DayRange{days->first, days->second};
}

std::string day_range_text(const DayRange& r) {
    // An end one day after infinity or -infinity is written as that value, included.
    const bool end_included = r.end && (*r.end - 1 == infinity_day || *r.end - 1 == minus_infinity_day);
    return std::string(r.first ? "[" + day_text(*r.first) : "(") + "," +
           (r.end ? day_text(end_included ? *r.end - 1 : *r.end) : "") + (end_included ? "]" : ")");
}

TypedColumn typed_column(const Taxonomy& tax, ValueKind kind, const std::string& column) {
    TypedColumn out;
    if (kind == ValueKind::other) return out;
    const char* type = kind == ValueKind::number ? "number" : "date";
    // Inner nodes: ranges all (typed), none (codes or categories: text), or some (refused).
    std::optional<Code> range_node, other_node;
    for (Code c = 0; c < tax.size(); ++c) {
        if (c == tax.root() || tax.is_leaf(c)) continue;
        const bool week = kind == ValueKind::day && tax.label(c).size() == 8 && tax.label(c).compare(4, 2, "-W") == 0;
        out.iso_week_year = out.iso_week_year || (week && range_of(tax.label(c), kind, false).found());
    }
    for (Code c = 0; c < tax.size() && !(range_node && other_node); ++c) {
        if (c == tax.root() || tax.is_leaf(c)) continue;
        (range_of(tax.label(c), kind, out.iso_week_year).found() ? range_node : other_node) = c;
    }
    if (other_node && !range_node) {
        out.note = "column \"" + column + "\" is published as text: its taxonomy \"" + tax.name() +
                   "\" has labels that are not " + type + " ranges, e.g. " + quoted_value(tax.label(*other_node));
        return out;
    }
    if (other_node)
        not_ranges(
            tax, column, type,
            quoted_value(tax.label(*other_node)) + " beside ranges such as " + quoted_value(tax.label(*range_node)));
    // Every node's range within its parent's (inner nodes' ranges parsed once).
    std::unordered_map<Code, AnyRange> inner;
    auto range_of_node = [&](Code c) -> const AnyRange& {
        auto it = inner.find(c);
        if (it == inner.end()) it = inner.emplace(c, range_of(tax.label(c), kind, out.iso_week_year)).first;
        return it->second;
    };
    if (!range_of_node(tax.root()).found())
        not_ranges(tax, column, type, "the root " + quoted_value(tax.label(tax.root())) + " (expected \"*\")");
    InterruptPoller poller;
    for (Code c = 0; c < tax.size(); ++c) {
        poller.tick();
        if (c == tax.root() || tax.label(c) == null_label) continue;
        const AnyRange own = tax.is_leaf(c) ? range_of(tax.label(c), kind, out.iso_week_year) : range_of_node(c);
        if (!own.found()) not_ranges(tax, column, type, quoted_value(tax.label(c)) + ", which is none");
        if (!within(own, range_of_node(tax.parent(c))))
            not_ranges(tax, column, type,
                       quoted_value(tax.label(c)) + " under " + quoted_value(tax.label(tax.parent(c))) +
                           ", which does not hold it");
    }
    out.type = kind == ValueKind::number ? PublishedType::numrange : PublishedType::daterange;
    return out;
}

std::string typed_label(const TypedColumn& column, const std::string& label) {
    if (column.type == PublishedType::text || label == null_label) return label;
    if (column.type == PublishedType::numrange) {
        const auto r = number_range_of_label(label);
        if (!r) throw Error(ErrorKind::internal, "label " + quoted_value(label) + " is no number range");
        return number_range_text(*r);
    }
    const auto r = day_range_of_label(label, column.iso_week_year);
    if (!r) throw Error(ErrorKind::internal, "label " + quoted_value(label) + " is no date range");
    return day_range_text(*r);
}

bool typed_label_covers(const TypedColumn& column, const std::string& published, const std::string& value) {
    if (published == null_label || value == null_label) return published == value;
    if (column.type == PublishedType::numrange) {
        const auto r = number_range_of_label(published);
        return r && number_range_contains(*r, value);
    }
    const auto r = day_range_of_label(published, false);
    const auto day = day_of_value(value);
    return r && day && (!r->first || *day >= *r->first) && (!r->end || *day < *r->end);
}

std::string published_qi_label(const Schema& schema, const Release& release, const std::vector<TypedColumn>& typed,
                               std::size_t cls, std::size_t j) {
    std::string label = release.qi_label(schema, cls, j);
    return typed.empty() ? label : typed_label(typed[j], label);
}

std::vector<std::string> published_qi_labels(const Schema& schema, const Release& release,
                                             const std::vector<TypedColumn>& typed) {
    std::vector<std::string> labels(release.classes() * release.n_qi);
    for (std::size_t c = 0; c < release.classes(); ++c)
        for (std::size_t j = 0; j < release.n_qi; ++j)
            labels[c * release.n_qi + j] = published_qi_label(schema, release, typed, c, j);
    return labels;
}

}  // namespace anon
