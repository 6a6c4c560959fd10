#include "lookalike_values.hpp"

#include "catalog/catalog.hpp"
#include "data/data.hpp"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace anon::pg {

namespace {

// The leaf labels of a taxonomy that hold a byte outside ASCII (NULL's label excepted): the only values that can be
// canonically equivalent to another value.
std::vector<std::optional<std::string>> non_ascii_values(const Taxonomy& tax) {
    std::vector<std::optional<std::string>> out;
    for (const Code leaf : tax.leaves()) {
        const std::string_view label = tax.label(leaf);
        if (label == null_label) continue;
        for (const unsigned char c : label)
            if (c >= 0x80) {
                out.emplace_back(label);
                break;
            }
    }
    return out;
}

// A value as the warning shows it: in double quotes, code points outside printable ASCII as \uXXXX (or \U00XXXXXX),
// so that the reader sees how the look-alikes differ.
std::string escaped(const std::string& text) {
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const int length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        std::uint32_t point = length == 1 ? c : length == 2 ? c & 0x1F : length == 3 ? c & 0x0F : c & 0x07;
        for (int k = 1; k < length && i + k < text.size(); ++k)
            point = (point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        i += length;
        if (point >= 0x20 && point < 0x7F && point != '\\' && point != '"') {
            out += static_cast<char>(point);
            continue;
        }
        char buffer[16];
        snprintf(buffer, sizeof buffer, point > 0xFFFF ? "\\U%08X" : "\\u%04X", static_cast<unsigned>(point));
        out += buffer;
    }
    return out + "\"";
}

}  // namespace

std::optional<std::string> lookalike_values_warning(Spi& spi, const Source& src) {
    if (GetDatabaseEncoding() != PG_UTF8) return std::nullopt;
    std::string found;
    for (std::size_t j = 0; j < src.schema.sa_tax.size(); ++j) {
        const std::vector<std::optional<std::string>> candidates = non_ascii_values(src.schema.sa_tax[j]);
        if (candidates.empty()) continue;
        // Per group of equivalent values (in NFC order), its values in byte order.
        const auto rows = spi.query(
            "SELECT x.v, x.k FROM (SELECT v, pg_catalog.normalize(v, 'NFC') AS k, pg_catalog.count(*) OVER (PARTITION "
            "BY pg_catalog.normalize(v, 'NFC')) AS n FROM pg_catalog.unnest($1::pg_catalog.text[]) AS v) x WHERE x.n "
            "OPERATOR(pg_catalog.>) 1 ORDER BY x.k COLLATE \"C\", x.v COLLATE \"C\"",
            {array_literal(candidates)});
        if (rows.empty()) continue;
        std::size_t groups = 0;
        std::string example;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const bool first_of_group = r == 0 || *rows[r][1] != *rows[r - 1][1];
            if (first_of_group) ++groups;
            if (groups == 1) example += (first_of_group ? "" : " and ") + escaped(*rows[r][0]);
        }
        found += std::string(found.empty() ? "" : "; ") + "sensitive column \"" + src.schema.sa_names[j] + "\" holds " +
                 std::to_string(groups) +
                 " group(s) of canonically equivalent Unicode values that count as different "
                 "values, e.g. " +
                 example;
    }
    if (found.empty()) return std::nullopt;
    return found +
           ": a class holding both shows one value twice and looks more diverse than it is (normalize the "
           "column, e.g. normalize(column, NFC) in a view over the table, before publishing)";
}

}  // namespace anon::pg
