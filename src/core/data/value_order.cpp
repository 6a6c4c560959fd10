#include "value_order.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "base/base.hpp"
#include "date_hierarchy.hpp"
#include "taxonomy.hpp"

namespace anon {

namespace {

// Where a value sorts before its kind's own comparison: below every value (-Infinity, -infinity), among the values,
// above them (Infinity, infinity), NaN above those (PostgreSQL sorts NaN above every number), NULL last.
enum class Band { below, among, above, not_a_number, null_value };

// A finite decimal number exactly, as sign * 0.digits * 10^exponent with no leading or trailing zero digit (zero:
// sign 0), so that numbers beyond a double's precision (a bigint near 2^63, a numeric of 40 digits) keep their order.
struct Decimal {
    int sign = 0;
    long long exponent = 0;
    std::string digits;
};

// The sort key of one label: its band, then what its order compares, in a few bytes sorted by value (the exact
// numbers and the labels themselves are looked up by `index` only for the keys these leave equal).
struct SortKey {
    Band band = Band::among;
    double rounded = 0;      // numeric: the nearest double, which rounding keeps in order
    long long whole = 0;     // chronological: the day (days since 1970-01-01); boolean, declared: the rank
    std::uint64_t part = 0;  // chronological: the microsecond of that day in UTC; text: its first 8 bytes
    std::size_t index = 0;   // the label's position in the caller's list
};

// Reads the digits at text[i...] as a number (at most `max_digits` of them); nullopt without a digit.
std::optional<long long> read_digits(const std::string& text, std::size_t& i, std::size_t max_digits) {
    const std::size_t start = i;
    long long n = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && i - start < max_digits)
        n = n * 10 + (text[i++] - '0');
    if (i == start) return std::nullopt;
    return n;
}

// True when text[i] is `c` (then steps over it).
bool take(const std::string& text, std::size_t& i, char c) {
    if (i >= text.size() || text[i] != c) return false;
    ++i;
    return true;
}

// A number's canonical text (integers, numeric's "-12.340", a float's "1.5e-07"), exactly; nullopt for any other
// text. Its digits are copied once (short ones without an allocation).
std::optional<Decimal> parse_decimal(const std::string& text) {
    const auto digits_from = [&text](std::size_t& i) {
        const std::size_t start = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        return i - start;
    };
    std::size_t i = 0;
    const bool negative = take(text, i, '-');
    if (!negative) take(text, i, '+');
    const std::size_t whole_start = i, whole = digits_from(i);
    std::size_t fraction_start = i, fraction = 0;
    if (take(text, i, '.')) {
        fraction_start = i;
        fraction = digits_from(i);
    }
    if (whole == 0 && fraction == 0) return std::nullopt;
    long long exponent = 0;
    if (take(text, i, 'e') || take(text, i, 'E')) {
        const bool below = take(text, i, '-');
        if (!below) take(text, i, '+');
        const auto e = read_digits(text, i, 9);
        if (!e) return std::nullopt;
        exponent = below ? -*e : *e;
    }
    if (i != text.size()) return std::nullopt;
    Decimal d;
    d.digits.reserve(whole + fraction);
    d.digits.append(text, whole_start, whole).append(text, fraction_start, fraction);
    const std::size_t first = d.digits.find_first_not_of('0');
    if (first == std::string::npos) return Decimal{};  // zero, whatever its sign
    d.digits.erase(d.digits.find_last_not_of('0') + 1);
    d.digits.erase(0, first);
    d.sign = negative ? -1 : 1;
    d.exponent = static_cast<long long>(whole) - static_cast<long long>(first) + exponent;
    return d;
}

// -1, 0 or 1 as a is below, equal to or above b.
int compare_decimals(const Decimal& a, const Decimal& b) {
    if (a.sign != b.sign) return a.sign < b.sign ? -1 : 1;
    if (a.sign == 0) return 0;
    int c = 0;
    if (a.exponent != b.exponent)
        c = a.exponent < b.exponent ? -1 : 1;
    else
        c = a.digits < b.digits ? -1 : (a.digits == b.digits ? 0 : 1);  // 0.12 < 0.123: a prefix is smaller
    return a.sign > 0 ? c : -c;
}

// The key of a number's canonical text, and the number exactly: -Infinity, Infinity and NaN in their bands.
std::optional<SortKey> numeric_key(const std::string& label, Decimal& exact) {
    SortKey key;
    if (label == "-Infinity") key.band = Band::below;
    if (label == "Infinity") key.band = Band::above;
    if (label == "NaN") key.band = Band::not_a_number;
    if (key.band != Band::among) return key;
    auto d = parse_decimal(label);
    if (!d) return std::nullopt;
    exact = std::move(*d);
    key.rounded = std::strtod(label.c_str(), nullptr);
    return key;
}

// The key of a date's or timestamp's canonical text (DateStyle ISO: "2023-05-17", "2023-05-17 08:30:00.25",
// timestamptz with its UTC offset "+00", a year before 1 with " BC" last): the day and the microsecond of that
// day in UTC; -infinity and infinity in their bands.
std::optional<SortKey> chronological_key(const std::string& label) {
    SortKey key;
    if (label == "-infinity") key.band = Band::below;
    if (label == "infinity") key.band = Band::above;
    if (key.band != Band::among) return key;
    std::size_t i = 0;
    const auto year = read_digits(label, i, 7);
    if (!year || !take(label, i, '-')) return std::nullopt;
    const auto month = read_digits(label, i, 2);
    if (!month || !take(label, i, '-')) return std::nullopt;
    const auto day = read_digits(label, i, 2);
    if (!day || *month < 1 || *month > 12 || *day < 1 || *day > 31) return std::nullopt;
    long long micros = 0;
    if (i + 1 < label.size() && label[i] == ' ' && std::isdigit(static_cast<unsigned char>(label[i + 1]))) {
        ++i;
        const auto hour = read_digits(label, i, 2);
        if (!hour || !take(label, i, ':')) return std::nullopt;
        const auto minute = read_digits(label, i, 2);
        if (!minute || !take(label, i, ':')) return std::nullopt;
        const auto second = read_digits(label, i, 2);
        if (!second) return std::nullopt;
        long long fraction = 0;
        if (take(label, i, '.')) {
            const std::size_t start = i;
            const auto f = read_digits(label, i, 6);
            if (!f) return std::nullopt;
            fraction = *f;
            for (std::size_t n = i - start; n < 6; ++n) fraction *= 10;
        }
        micros = ((*hour * 60 + *minute) * 60 + *second) * 1000000 + fraction;
        if (i < label.size() && (label[i] == '+' || label[i] == '-')) {
            const long long sign = label[i++] == '-' ? -1 : 1;
            long long offset = 0;
            const auto h = read_digits(label, i, 2);
            if (!h) return std::nullopt;
            offset = *h * 3600;
            if (take(label, i, ':')) {
                const auto m = read_digits(label, i, 2);
                if (!m) return std::nullopt;
                offset += *m * 60;
                if (take(label, i, ':')) {
                    const auto s = read_digits(label, i, 2);
                    if (!s) return std::nullopt;
                    offset += *s;
                }
            }
            micros -= sign * offset * 1000000;  // local time minus its offset east of UTC is UTC
        }
    }
    const bool before_christ = label.compare(i, std::string::npos, " BC") == 0;
    if (before_christ) i += 3;
    if (i != label.size()) return std::nullopt;
    // The day of that instant in UTC and its microsecond (the offset may move it to the day before or after).
    const long long day_micros = 86400LL * 1000000;
    const long long days_moved = micros / day_micros - (micros % day_micros < 0 ? 1 : 0);
    key.whole = days_from_civil(before_christ ? 1 - *year : *year, static_cast<int>(*month), static_cast<int>(*day)) +
                days_moved;
    key.part = static_cast<std::uint64_t>(micros - days_moved * day_micros);
    return key;
}

// The key of a label in `order` (and a number's exact value in `exact`), or nullopt when the label is no value of
// the order.
std::optional<SortKey> key_of(const std::string& label, const ValueOrder& order,
                              const std::unordered_map<std::string, long long>& declared_rank, Decimal& exact) {
    SortKey key;
    if (label == null_label) {
        key.band = Band::null_value;
        return key;
    }
    switch (order.kind) {
        case OrderKind::numeric: return numeric_key(label, exact);
        case OrderKind::chronological: return chronological_key(label);
        case OrderKind::boolean:
            if (label != "false" && label != "true") return std::nullopt;
            key.whole = label == "true" ? 1 : 0;
            return key;
        case OrderKind::declared: {
            const auto it = declared_rank.find(label);
            if (it == declared_rank.end()) return std::nullopt;
            key.whole = it->second;
            return key;
        }
        case OrderKind::text:
            for (std::size_t i = 0; i < 8; ++i)
                key.part = key.part << 8 | (i < label.size() ? static_cast<unsigned char>(label[i]) : 0u);
            return key;
    }
    return std::nullopt;
}

// What a value of the order is, for the error on a label that is none.
const char* expected_value(OrderKind kind) {
    switch (kind) {
        case OrderKind::numeric: return "a number";
        case OrderKind::chronological: return "a date or timestamp";
        case OrderKind::boolean: return "true or false";
        case OrderKind::declared: return "a label of the enum type";
        case OrderKind::text: break;
    }
    return "a text";
}

}  // namespace

const char* order_name(OrderKind kind) {
    switch (kind) {
        case OrderKind::numeric: return "numeric";
        case OrderKind::chronological: return "chronological";
        case OrderKind::boolean: return "boolean";
        case OrderKind::declared: return "enum";
        case OrderKind::text: return "text";
    }
    return "text";
}

std::vector<std::size_t> ordered_positions(const std::vector<std::string>& labels, const ValueOrder& order) {
    std::unordered_map<std::string, long long> declared_rank;
    for (std::size_t i = 0; i < order.declared.size(); ++i)
        declared_rank.emplace(order.declared[i], static_cast<long long>(i));
    std::vector<SortKey> keys;
    std::vector<Decimal> exact(order.kind == OrderKind::numeric ? labels.size() : 0);
    keys.reserve(labels.size());
    Decimal unused;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        auto key = key_of(labels[i], order, declared_rank, exact.empty() ? unused : exact[i]);
        if (!key)
            throw Error(ErrorKind::data_exception,
                        "value " + quoted_value(labels[i]) + " is not " + expected_value(order.kind));
        key->index = i;
        keys.push_back(*key);
    }
    // Text keys (a label without NUL) are equal in their first 8 bytes and a shorter label is zero-padded, so the
    // bytes decide the rest; NULL's key is alone in its band.
    std::sort(keys.begin(), keys.end(), [&](const SortKey& x, const SortKey& y) {
        if (x.band != y.band) return x.band < y.band;
        if (x.rounded != y.rounded) return x.rounded < y.rounded;
        if (x.whole != y.whole) return x.whole < y.whole;
        if (x.part != y.part) return x.part < y.part;
        if (!exact.empty() && x.band == Band::among)
            if (const int c = compare_decimals(exact[x.index], exact[y.index])) return c < 0;
        return labels[x.index] < labels[y.index];  // std::string compares as unsigned bytes: COLLATE "C"
    });
    std::vector<std::size_t> positions;
    positions.reserve(keys.size());
    for (const SortKey& key : keys) positions.push_back(key.index);
    return positions;
}

}  // namespace anon
