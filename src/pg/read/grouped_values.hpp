// The aggregation pass of a read (read_grouped's first phase, the read folder's own): one SQL GROUP BY over the
// source, or with kept columns its rows grouped in C++ with their kept values (row_grouping.hpp), taken as each
// column's distinct values and each grouped row's tuples, in the values' canonical text (canonical_text.hpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/base.hpp"
#include "infra/infra.hpp"
#include "row_grouping.hpp"
#include "source_reader.hpp"

namespace anon::pg {

// Distinct values of one column in order of first appearance, and each result row's value index. The values are held
// once each, end to end, and found by content (TextDictionary: about the text's length plus 17 bytes a value, where a
// node-based hash map of strings took about 130 for a timestamp's text).
struct ColumnValues {
    TextDictionary texts;
    std::vector<Count> rows_with;  // tuples per value
    std::vector<std::uint32_t> of_row;

    // Adds a row's value by its text; returns the value's index.
    std::uint32_t add(const char* data, std::size_t len, Count n) {
        const std::size_t before = texts.size();
        const std::uint32_t i = texts.intern(std::string_view(data, len));
        if (i == before) rows_with.push_back(0);
        add_known(i, n);
        return i;
    }
    // Adds a row's value by the index an earlier add returned for it.
    void add_known(std::uint32_t i, Count n) {
        rows_with[i] += n;
        of_row.push_back(i);
    }
    std::size_t size() const { return texts.size(); }
    // The value of index i (a view valid until the next add).
    std::string_view label(std::size_t i) const { return texts.text(static_cast<std::uint32_t>(i)); }
    // The values as strings, in order of first appearance.
    std::vector<std::string> label_strings() const {
        std::vector<std::string> out;
        out.reserve(size());
        for (std::size_t i = 0; i < size(); ++i) out.emplace_back(label(i));
        return out;
    }
    bool contains(std::string_view v) const { return texts.find(v) != TextDictionary::npos; }
    // Bytes held: the distinct values (their texts and lookup table, their counts) and the per-row indexes.
    std::uint64_t bytes() const { return texts.bytes() + heap_bytes(rows_with) + heap_bytes(of_row); }
};

// What one aggregation pass reads.
struct GroupedRead {
    std::string from;                    // the FROM clause
    std::string relation;                // its name in messages
    std::vector<std::string> read_cols;  // the key columns: QIs, sensitive columns, then the individual column
    std::vector<std::string> keep;       // kept columns grouped along (row_grouping.hpp); empty: SQL GROUP BY
    bool keep_grouped_in_sql = false;    // kept columns grouped along by the SQL GROUP BY too (a Citus source)
    std::string grouped_along;           // without kept columns: a column the GROUP BY groups by too, unread
    CanonicalColumns lists;              // the select and group lists of read_cols then keep (canonical_columns)
    bool nulls_are_values = false;       // params->>'nulls' = 'value'
};

// The result of the pass: each key column's values, each grouped row's tuples and, with kept columns, the groups.
struct GroupedValues {
    std::vector<ColumnValues> values;  // per read column
    std::vector<Count> counts;         // per grouped row
    std::unique_ptr<RowsGrouped> grouped;
    MemoryCharge charge;  // the grouped rows as read and their value indexes, while they live
};

// Refuses the columns that hold NULL (their names, in order, in one message) when NULL is no value of its own: the
// read's check, and the one made before it (source_precheck.hpp).
[[noreturn]] void refuse_null_columns(const std::vector<std::string>& columns, const std::string& relation);

// Runs the pass into `out` (empty; its memory charge stays with it) under its own settings (work_mem from the call's
// budget, partitionwise aggregation), charging the memory it holds. Refuses a key column holding NULL (unless NULL is a
// value) or the label anon reserves for it, naming the columns.
void read_grouped_values(Spi& spi, const GroupedRead& read, GroupedValues& out);

}  // namespace anon::pg
