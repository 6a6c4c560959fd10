// The aggregation pass of a read (read_grouped's first phase, the read folder's own): one SQL GROUP BY over the
// source, or with kept columns its rows grouped in C++ with their kept values (row_grouping.hpp), taken as each
// column's distinct values and each grouped row's tuples, in the values' canonical text (canonical_text.hpp).
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/base.hpp"
#include "infra/infra.hpp"
#include "row_grouping.hpp"
#include "source_reader.hpp"

namespace anon::pg {

// Distinct values of one column in order of first appearance, and each result row's value index. Lookups use
// string views into stable storage, so a value already seen costs no allocation.
struct ColumnValues {
    std::deque<std::string> storage;
    std::unordered_map<std::string_view, std::uint32_t> index;
    std::vector<std::string_view> labels;
    std::vector<Count> rows_with;  // tuples per value
    std::vector<std::uint32_t> of_row;

    void add(const char* data, std::size_t len, Count n) {
        std::string_view key(data, len);
        auto it = index.find(key);
        if (it == index.end()) {
            storage.emplace_back(data, len);
            it = index.emplace(storage.back(), static_cast<std::uint32_t>(labels.size())).first;
            labels.push_back(storage.back());
            rows_with.push_back(0);
            distinct_bytes_ += sizeof(std::string) + string_heap_bytes(len) + index_entry_bytes;
        }
        rows_with[it->second] += n;
        of_row.push_back(it->second);
    }
    bool contains(std::string_view v) const { return index.count(v) > 0; }
    // Bytes held: the distinct values (their texts, labels, counts and index entries) and the per-row indexes.
    std::uint64_t bytes() const {
        return distinct_bytes_ + heap_bytes(labels) + heap_bytes(rows_with) + heap_bytes(of_row) +
               index.bucket_count() * sizeof(void*);
    }

private:
    // An index entry: its node (the view, the code, the next pointer, the cached hash).
    static constexpr std::uint64_t index_entry_bytes = sizeof(std::string_view) + 3 * sizeof(void*);
    std::uint64_t distinct_bytes_ = 0;
};

// What one aggregation pass reads.
struct GroupedRead {
    std::string from;                    // the FROM clause
    std::string relation;                // its name in messages
    std::vector<std::string> read_cols;  // the key columns: QIs, sensitive columns, then the individual column
    std::vector<std::string> keep;       // kept columns grouped along (row_grouping.hpp); empty: SQL GROUP BY
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
