#include "source_reader.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <memory>
#include <numeric>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "row_grouping.hpp"
#include "value_orders.hpp"

namespace anon::pg {

namespace {

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
        }
        rows_with[it->second] += n;
        of_row.push_back(it->second);
    }
    bool contains(std::string_view v) const { return index.count(v) > 0; }
};

// Checks that the columns exist in the relation and that no column is named twice.
void check_columns(Spi& spi, Oid relid, const std::string& relation, const std::vector<std::string>& qi,
                   const std::vector<std::string>& sa) {
    // Each column with the name of its collation when that is not deterministic (NULL otherwise).
    auto existing = spi.query(
        "SELECT a.attname::pg_catalog.text, CASE WHEN NOT c.collisdeterministic THEN c.collname::pg_catalog.text END "
        "FROM pg_catalog.pg_attribute a LEFT JOIN pg_catalog.pg_collation c ON c.oid OPERATOR(pg_catalog.=) "
        "a.attcollation WHERE a.attrelid OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND a.attnum "
        "OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped",
        {std::to_string(relid)});
    auto find = [&](const std::string& c) {
        return std::find_if(existing.begin(), existing.end(), [&](const SqlRow& r) { return r[0] && *r[0] == c; });
    };
    std::vector<std::string> seen;
    auto check = [&](const std::vector<std::string>& cols, const char* argument) {
        for (const auto& c : cols) {
            const auto column = find(c);
            if (column == existing.end())
                throw Error(ErrorKind::undefined_object, std::string("invalid ") + argument + ": column \"" + c +
                                                             "\" does not exist in " + relation);
            // Values such a collation calls equal (e.g. of another case) would count as different values here.
            if ((*column)[1])
                bad_argument(argument, "columns whose collation is deterministic (values equal only when identical)",
                             "\"" + c + "\" with the nondeterministic collation \"" + *(*column)[1] +
                                 "\" (use a view that normalizes the values and gives them a deterministic collation, "
                                 "e.g. lower(" +
                                 c + ") COLLATE \"C\")");
            if (std::find(seen.begin(), seen.end(), c) != seen.end())
                bad_argument(argument, "each column named once across quasi_identifiers and sensitive",
                             "\"" + c + "\" twice");
            seen.push_back(c);
        }
    };
    check(qi, "quasi_identifiers");
    check(sa, "sensitive");
}

// Builds the taxonomy of a column from the catalog, attaching the column's values as leaves of an interval one
// (NULL, a value of its own with params->>'nulls' = 'value', is no number: read_grouped adds it under the root).
// A date taxonomy takes timestamps under their days; one of explicit intervals takes the numbers under theirs.
Taxonomy catalog_taxonomy(const StoredTaxonomy& stored, const std::string& column, const ColumnValues& values) {
    if (stored.kind == "date") {
        // Leaves in byte order, not in the order the read met the values (see the sort below).
        std::vector<std::string> labels(values.labels.begin(), values.labels.end());
        std::sort(labels.begin(), labels.end());
        return date_taxonomy_with_values(stored.name, stored.nodes, labels);
    }
    if (stored.kind != "interval" && stored.kind != "ranges") return Taxonomy::build(stored.name, stored.nodes);
    std::vector<std::pair<std::string, double>> leaves;
    std::vector<std::string> bad;
    for (std::string_view view : values.labels) {
        if (view == null_label) continue;
        const std::string label(view);
        char* end = nullptr;
        double v = std::strtod(label.c_str(), &end);
        if (label.empty() || *end != '\0')
            bad.push_back(quoted_value(label));
        else
            leaves.emplace_back(label, v);
    }
    if (!bad.empty())
        throw Error(ErrorKind::data_exception, "column \"" + column + "\" has non-numeric value " + bad[0] +
                                                   " but its taxonomy \"" + stored.name + "\" is an interval taxonomy");
    // Leaf codes in value order, not in the order the aggregation returned the values (which may follow the
    // source's physical order): the frequency set is sorted by codes, and class numbering follows it.
    std::sort(leaves.begin(), leaves.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    if (stored.kind == "ranges") return range_taxonomy_with_values(stored.name, stored.nodes, leaves);
    if (stored.coded) return coded_interval_taxonomy(stored.name, stored.lower, stored.upper, stored.widths, leaves);
    return interval_taxonomy(stored.name, stored.lower, stored.upper, stored.widths, leaves);
}

// "N row(s) of column "c" have M value(s) <what>, e.g. "a", "b", "c"": the values of `values` at `which`.
std::string values_message(const std::string& column, const ColumnValues& values, const std::vector<std::size_t>& which,
                           const std::string& what) {
    Count rows = 0;
    std::string examples;
    for (std::size_t i = 0; i < which.size(); ++i) {
        rows += values.rows_with[which[i]];
        if (i < 3) examples += (i ? ", " : "") + quoted_value(values.labels[which[i]]);
    }
    return std::to_string(rows) + " row(s) of column \"" + column + "\" have " + std::to_string(which.size()) +
           " value(s) " + what + ", e.g. " + examples;
}

// Maps each distinct value to its taxonomy code; errors with the count and a few examples when values are missing,
// or, unless `inner_allowed` (a published table's generalized values), when values name inner nodes: a value such as
// "*" or a group's label is data, and read as the group it would change the model's verdict.
std::vector<Code> codes_of_values(const Taxonomy& tax, const std::string& column, const ColumnValues& values,
                                  bool inner_allowed) {
    std::vector<Code> code(values.labels.size());
    std::vector<std::size_t> missing, inner;
    for (std::size_t i = 0; i < values.labels.size(); ++i) {
        code[i] = tax.find(values.labels[i]);
        if (code[i] == no_code)
            missing.push_back(i);
        else if (!inner_allowed && !tax.is_leaf(code[i]))
            inner.push_back(i);
    }
    if (!missing.empty())
        throw Error(ErrorKind::data_exception,
                    values_message(column, values, missing, "missing from taxonomy \"" + tax.name() + "\""), {},
                    "Add the values to the taxonomy; nothing is suppressed silently.");
    if (!inner.empty())
        throw Error(ErrorKind::data_exception,
                    values_message(column, values, inner,
                                   "that taxonomy \"" + tax.name() + "\" uses for a group of values (inner nodes)"),
                    "A value is data: read as the group it names, it would change what the model decides.",
                    "Make each such value a leaf of its own in the taxonomy (e.g. \"X, unspecified\" under \"X\"), "
                    "or replace it in a view over the table.");
    return code;
}

}  // namespace

std::vector<std::string> columns_grouped_raw(Spi& spi, Oid relid, const std::vector<std::string>& cols) {
    auto typed = spi.query(
        "SELECT attname::pg_catalog.text FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped AND atttypid "
        "OPERATOR(pg_catalog.=) "
        "ANY "
        "('{int2,int4,int8,text,varchar,bpchar,bool,date,timestamp,timestamptz}'::pg_catalog.regtype[]::pg_catalog.oid["
        "])",
        {std::to_string(relid)});
    std::vector<std::string> out;
    for (const auto& row : typed)
        if (row[0] && std::find(cols.begin(), cols.end(), *row[0]) != cols.end()) out.push_back(*row[0]);
    return out;
}

void check_taxonomies_found(const std::vector<std::string>& cols, std::size_t n_qi, const ParamValues& publication,
                            const std::vector<bool>& found) {
    std::vector<std::pair<std::string, std::string>> missing;  // the column as named in messages, the taxonomy
    for (std::size_t c = 0; c < cols.size(); ++c) {
        const std::string tname = taxonomy_name_for(publication, cols[c]);
        if (!found[c] && (c < n_qi || tname != cols[c]))
            missing.emplace_back(
                std::string(c < n_qi ? "quasi-identifier" : "sensitive column") + " \"" + cols[c] + "\"",
                "expected a taxonomy named \"" + tname + "\"");
    }
    if (missing.empty()) return;
    std::string message = missing[0].first + " has no taxonomy: " + missing[0].second;
    if (missing.size() > 1) {
        message = std::to_string(missing.size()) + " columns have no taxonomy: ";
        for (std::size_t i = 0; i < missing.size(); ++i)
            message += (i ? "; " : "") + missing[i].first + " (" + missing[i].second + ")";
    }
    refuse_on_citus_worker(message);  // a worker has no taxonomies: its catalog lives on the coordinator
    throw Error(ErrorKind::undefined_object, message, {},
                "Create one with anon.prefix_taxonomy (codes such as zip codes), anon.taxonomy_from_levels or "
                "anon.taxonomy_from_pairs (numbers: anon.quantile_taxonomy, anon.interval_taxonomy; dates: "
                "anon.date_taxonomy), or map the column to one in params->'taxonomies'.");
}

void check_column_exists(Spi& spi, Oid relid, const std::string& column, const std::string& argument) {
    if (!spi.scalar("SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) $1::pg_catalog.oid "
                    "AND attname OPERATOR(pg_catalog.=) $2 AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped",
                    {std::to_string(relid), column}))
        throw Error(ErrorKind::undefined_object,
                    "invalid " + argument + ": column \"" + column + "\" does not exist in " + qualified_name(relid));
}

std::string taxonomy_name_for(const ParamValues& publication, const std::string& column) {
    if (const auto map = publication.string_map("taxonomies"))
        for (const auto& [name, taxonomy] : *map)
            if (name == column) return taxonomy;
    return column;
}

CanonicalColumns canonical_columns(const std::vector<std::string>& columns, const std::vector<std::string>& group_raw,
                                   const std::string& qualifier) {
    CanonicalColumns lists;
    lists.raw.resize(columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string column = qualifier + quote_ident(columns[i]);
        lists.raw[i] = std::find(group_raw.begin(), group_raw.end(), columns[i]) != group_raw.end();
        lists.select += (lists.raw[i] ? column : canonical_text_sql(column)) + ", ";
        lists.group += (i ? ", " : "") + (lists.raw[i] ? column : std::to_string(i + 1));
    }
    return lists;
}

Source read_source(Spi& spi, Oid relid, const std::vector<std::string>& qi, const std::vector<std::string>& sa,
                   const ParamValues& publication, TaxonomySource taxonomies,
                   const std::vector<std::string>& extra_sensitive_values, const std::vector<std::string>& keep) {
    const std::string relation = qualified_name(relid);
    check_columns(spi, relid, relation, qi, sa);
    const std::string individual = publication.string("individual").value_or("");
    if (!individual.empty()) {
        if (std::find(qi.begin(), qi.end(), individual) != qi.end() ||
            std::find(sa.begin(), sa.end(), individual) != sa.end())
            bad_argument("params->'individual'", "a column that is neither quasi-identifier nor sensitive",
                         "\"" + individual + "\"");
        check_columns(spi, relid, relation, {}, {individual});
    }
    std::vector<std::string> cols(qi);
    cols.insert(cols.end(), sa.begin(), sa.end());
    if (!individual.empty()) cols.push_back(individual);
    cols.insert(cols.end(), keep.begin(), keep.end());
    Source src = read_grouped(spi, relation, relation, qi, sa, publication, taxonomies, extra_sensitive_values,
                              columns_grouped_raw(spi, relid, cols), keep);
    src.relid = relid;
    src.schema.sa_order = column_value_orders(spi, relid, sa);
    return src;
}

Source read_grouped(Spi& spi, const std::string& from, const std::string& relation, const std::vector<std::string>& qi,
                    const std::vector<std::string>& sa, const ParamValues& publication, TaxonomySource taxonomies,
                    const std::vector<std::string>& extra_sensitive_values, const std::vector<std::string>& group_raw,
                    const std::vector<std::string>& keep) {
    Source src;
    src.relation = relation;
    const bool nulls_are_values = publication.string("nulls").value_or("error") == "value";
    if (const auto map = publication.string_map("taxonomies"))
        for (const auto& [col, _] : *map)
            if (std::find(qi.begin(), qi.end(), col) == qi.end() && std::find(sa.begin(), sa.end(), col) == sa.end())
                bad_argument("params->'taxonomies'", "keys that are quasi-identifier or sensitive columns",
                             "\"" + col + "\"");

    // One aggregation pass in SQL (the individual column, if any, is read last).
    std::vector<std::string> cols(qi);
    cols.insert(cols.end(), sa.begin(), sa.end());
    src.individual_column = publication.string("individual").value_or("");
    std::vector<std::string> read_cols(cols);
    if (!src.individual_column.empty()) read_cols.push_back(src.individual_column);
    // Values are read in their canonical text (canonical_text.hpp). Columns grouped by their own values are selected
    // as themselves, so the aggregation's target list is the grouped columns (which partitionwise aggregation can
    // push down to foreign servers), and converted below, once per group. With kept columns the rows are read one
    // by one and grouped in C++ with their kept values (row_grouping.hpp).
    std::vector<std::string> listed(read_cols);
    listed.insert(listed.end(), keep.begin(), keep.end());
    const CanonicalColumns lists = canonical_columns(listed, group_raw);
    const std::vector<char>& raw = lists.raw;
    const bool canonical = canonical_text_installed();  // else the session's text, as before SQL version 0.3

    ProgressPhase reading("read", 0);
    std::vector<ColumnValues> values(read_cols.size());
    std::vector<Count> counts;
    std::vector<std::string> null_columns;
    std::vector<std::string> reserved_columns;  // holding a value equal to null_label, which would pass for NULL
    // The grouped rows as PostgreSQL returned them and the value indexes of each row, while they live.
    MemoryCharge read_charge;
    const int ncols = static_cast<int>(read_cols.size());
    // Takes n grouped rows (counts[first..first + n) their tuples): each value's text (len -1 for NULL), row-major.
    const auto take_rows = [&](std::size_t first, std::size_t n, const std::vector<const char*>& data,
                               const std::vector<int>& len) {
        InterruptPoller poll(1024);
        for (std::size_t r = 0; r < n; ++r) {
            const Count count = counts[first + r];
            for (int c = 0; c < ncols; ++c) {
                if (len[r * ncols + c] < 0) {
                    if (!nulls_are_values &&
                        std::find(null_columns.begin(), null_columns.end(), read_cols[c]) == null_columns.end())
                        null_columns.push_back(read_cols[c]);
                    values[c].add(null_label, std::char_traits<char>::length(null_label), count);
                } else {
                    const std::string_view value(data[r * ncols + c], static_cast<std::size_t>(len[r * ncols + c]));
                    if (value == null_label) reserved_columns.push_back(read_cols[c]);
                    values[c].add(value.data(), value.size(), count);
                }
            }
            poll.tick();
            if ((r & 4095) == 0) progress(r, n);
        }
    };
    // Settings for this read: work_mem from the job's budget (memory_limit.hpp), and partitionwise aggregation:
    // when the partition key is among the grouped columns, each partition (local, or foreign through postgres_fdw,
    // whose GROUP BY then runs on its server) is aggregated on its own.
    const int nest_level = begin_local_settings(
        {{"work_mem", std::to_string(read_work_mem_kb()) + "kB"}, {"enable_partitionwise_aggregate", "on"}});
    std::unique_ptr<RowsGrouped> grouped;
    if (!keep.empty()) {
        {
            std::optional<CanonicalOutputScope> canonical_output;
            if (canonical) canonical_output.emplace();
            grouped = std::make_unique<RowsGrouped>(read_rows_grouped(spi, lists.select, from, raw, read_cols.size()));
        }
        const KeptGroups& combinations = grouped->combinations;
        const std::size_t n = combinations.groups();
        read_charge.resize(
            grouped->kept.bytes() + combinations.bytes() + n * ncols * (sizeof(const char*) + sizeof(int)),
            grouped->kept.described(), KeptGroups::memory_remedy);
        counts = combinations.tuples;
        std::vector<const char*> data(n * ncols);
        std::vector<int> len(n * ncols, -1);
        for (std::size_t r = 0; r < n; ++r)
            for (int c = 0; c < ncols; ++c) {
                const std::uint32_t code = combinations.kept_of(r)[c];
                if (code == KeptGroups::null_code) continue;
                data[r * ncols + c] = grouped->key_texts[c].c_str(code);
                len[r * ncols + c] = static_cast<int>(grouped->key_texts[c].text(code).size());
            }
        take_rows(0, n, data, len);
    } else {
        const std::string sql =
            "SELECT " + lists.select + "pg_catalog.count(*) FROM " + from + " GROUP BY " + lists.group;
        spi.scan(sql, {}, [&](SPITupleTable* tt) {
            const uint64 n = tt->numvals;
            std::uint64_t tuple_bytes = 0;
            for (uint64 r = 0; r < n; ++r)
                tuple_bytes += sizeof(HeapTupleData) + tt->vals[r]->t_len + sizeof(HeapTuple);
            read_charge.resize(tuple_bytes + n * ncols * (sizeof(const char*) + sizeof(int) + sizeof(std::uint32_t)) +
                                   n * sizeof(Count),
                               "the grouped rows read from " + src.relation + " (" + std::to_string(n) + " rows)");
            // Pointers into the tuples (or into the text of raw-grouped values), collected under a PostgreSQL guard
            // (detoasting and text conversion may raise errors).
            std::vector<const char*> data(n * ncols);
            std::vector<int> len(n * ncols, -1);
            const std::size_t first = counts.size();
            counts.resize(first + n);
            std::vector<Datum> datums(ncols + 1);
            std::unique_ptr<bool[]> isnull(new bool[ncols + 1]);
            std::vector<TextCast> casts(ncols);
            pg_call([&] {
                for (int c = 0; c < ncols; ++c)
                    if (raw[c]) init_text_cast(casts[c], TupleDescAttr(tt->tupdesc, c)->atttypid, CurrentMemoryContext);
            });
            std::optional<CanonicalOutputScope> canonical_output;
            if (canonical) canonical_output.emplace();
            pg_call([&] {
                for (uint64 r = 0; r < n; ++r) {
                    heap_deform_tuple(tt->vals[r], tt->tupdesc, datums.data(), isnull.get());
                    for (int c = 0; c < ncols; ++c) {
                        if (isnull[c]) continue;
                        const std::string_view text = value_text(raw[c] ? &casts[c] : nullptr, datums[c]);
                        data[r * ncols + c] = text.data();
                        len[r * ncols + c] = static_cast<int>(text.size());
                    }
                    counts[first + r] = DatumGetInt64(datums[ncols]);
                }
            });
            canonical_output.reset();
            take_rows(first, n, data, len);
        });
    }
    end_local_settings(nest_level);
    if (!reserved_columns.empty())
        throw Error(ErrorKind::data_exception,
                    "column \"" + reserved_columns[0] + "\" of " + src.relation +
                        " holds the value \"\u2400\" (U+2400 SYMBOL FOR NULL), which anon reserves for NULL",
                    {}, "Replace the value, e.g. in a view over the table, before anonymizing it.");
    if (!null_columns.empty()) {
        std::string list;
        for (std::size_t i = 0; i < null_columns.size(); ++i) list += (i ? ", " : "") + ("\"" + null_columns[i] + "\"");
        throw Error(ErrorKind::data_exception, "column(s) " + list + " of " + src.relation + " contain NULL", {},
                    "Set params->>'nulls' to 'value' to treat NULL as a value of its own.");
    }

    // Taxonomies: from the catalog or from the values themselves.
    std::vector<std::optional<StoredTaxonomy>> found(cols.size());
    const bool from_catalog = taxonomies == TaxonomySource::catalog || taxonomies == TaxonomySource::catalog_published;
    if (from_catalog) {
        for (std::size_t c = 0; c < cols.size(); ++c) {
            found[c] = load_stored_taxonomy(spi, taxonomy_name_for(publication, cols[c]));
            if (found[c])
                src.taxonomies.push_back({cols[c], found[c]->name, found[c]->owner, taxonomy_fingerprint(*found[c])});
        }
        std::vector<bool> any(cols.size());
        for (std::size_t c = 0; c < cols.size(); ++c) any[c] = found[c].has_value();
        check_taxonomies_found(cols, qi.size(), publication, any);
    }
    std::vector<std::vector<Code>> codes(cols.size());
    for (std::size_t c = 0; c < cols.size(); ++c) {
        const bool is_qi = c < qi.size();
        std::optional<StoredTaxonomy> stored;
        const bool audit = taxonomies == TaxonomySource::audit || taxonomies == TaxonomySource::audit_generalized;
        if (audit && !is_qi) {
            // A sensitive column of an audited table uses its taxonomy when it has one holding every value, so
            // that don't-care and negative-disclosure sets may name inner nodes.
            stored = load_stored_taxonomy(spi, taxonomy_name_for(publication, cols[c]));
            if (stored && stored->kind == "tree") {
                Taxonomy t = Taxonomy::build(stored->name, stored->nodes);
                const bool holds_all = std::all_of(values[c].labels.begin(), values[c].labels.end(),
                                                   [&](std::string_view v) { return t.find(v) != no_code; });
                if (!holds_all) stored.reset();
            } else {
                stored.reset();
            }
        }
        if (from_catalog) stored = std::move(found[c]);
        Taxonomy tax;
        if (stored) {
            tax = catalog_taxonomy(*stored, cols[c], values[c]);
            if (nulls_are_values && values[c].contains(null_label) && tax.find(null_label) == no_code) {
                // NULL becomes a leaf of its own directly under the root.
                std::vector<TaxonomyNodeSpec> nodes;
                for (Code k = 0; k < tax.size(); ++k)
                    nodes.push_back(
                        {tax.label(k),
                         tax.parent(k) == no_code ? std::nullopt : std::optional<std::string>(tax.label(tax.parent(k))),
                         tax.weight(k), tax.range(k)});
                nodes.push_back({null_label, tax.label(tax.root()), 1.0, std::nullopt});
                tax = Taxonomy::build(tax.name(), nodes);
            }
        } else {
            std::vector<std::string> leaves(values[c].labels.begin(), values[c].labels.end());
            if (!is_qi)
                for (const auto& v : extra_sensitive_values)
                    if (!values[c].contains(v)) leaves.push_back(v);
            std::sort(leaves.begin(), leaves.end());
            // A published generalized value of a column without a taxonomy is its root, "*" (tau-l-diversity).
            const bool star_is_root = taxonomies == TaxonomySource::audit_generalized && !is_qi;
            if (star_is_root) leaves.erase(std::remove(leaves.begin(), leaves.end(), any_value_label), leaves.end());
            tax = Taxonomy::flat(cols[c], leaves);
        }
        // Audited sensitive columns and published tables may hold generalized values; anything else holds values,
        // leaves.
        codes[c] = codes_of_values(tax, cols[c], values[c],
                                   (audit && !is_qi) || taxonomies == TaxonomySource::catalog_published);
        if (is_qi) {
            src.schema.qi_names.push_back(cols[c]);
            src.schema.qi_tax.push_back(std::move(tax));
        } else {
            src.schema.sa_names.push_back(cols[c]);
            src.schema.sa_tax.push_back(std::move(tax));
        }
    }

    // The individual column is a dictionary: its code is the value's rank in byte order (not its order of
    // appearance, which may follow the source's physical order and would then steer the grouping).
    if (!src.individual_column.empty()) {
        const ColumnValues& ind = values.back();
        std::vector<std::uint32_t> by_value(ind.labels.size());
        std::iota(by_value.begin(), by_value.end(), 0);
        std::sort(by_value.begin(), by_value.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return ind.labels[a] < ind.labels[b]; });
        codes.emplace_back(ind.labels.size());
        src.individual_labels.clear();
        for (std::uint32_t rank = 0; rank < by_value.size(); ++rank) {
            codes.back()[by_value[rank]] = static_cast<Code>(rank);
            src.individual_labels.emplace_back(ind.labels[by_value[rank]]);
        }
    }

    // Canonical order (by codes) so that class numbering does not depend on the aggregation's output order.
    const std::size_t n = counts.size(), width = read_cols.size(), known = cols.size();
    read_charge.resize(n * width * 2 * sizeof(std::uint32_t) + n * (16 + sizeof(std::uint32_t) + sizeof(Count)),
                       "the codes of the grouped rows of " + src.relation);
    std::vector<std::uint32_t> matrix(n * width);  // codes are non-negative
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < width; ++c)
            matrix[r * width + c] = static_cast<std::uint32_t>(codes[c][values[c].of_row[r]]);
    const std::vector<std::uint32_t> order = lexicographic_order(matrix, n, width);
    src.fs.n_qi = qi.size();
    src.fs.n_sa = sa.size();
    src.fs.qi.reserve(n * qi.size());
    src.fs.sa.reserve(n * sa.size());
    src.fs.count.reserve(n);
    for (std::uint32_t r : order) {
        const std::uint32_t* row = &matrix[r * width];
        src.fs.qi.insert(src.fs.qi.end(), row, row + qi.size());
        src.fs.sa.insert(src.fs.sa.end(), row + qi.size(), row + known);
        if (width > known) src.fs.individual.push_back(row[known]);
        src.fs.count.push_back(counts[r]);
    }
    if (grouped) {
        // The kept groups' rows become frequency-set rows, their codes ranks in byte order.
        std::vector<std::uint32_t> fs_row(n);
        for (std::uint32_t i = 0; i < n; ++i) fs_row[order[i]] = i;
        auto kept = std::make_shared<KeptGroups>(std::move(grouped->kept));
        for (std::uint32_t& row : kept->row) row = fs_row[row];
        rank_kept_codes(*kept);
        src.kept_groups = std::move(kept);
    }
    reading.finish();
    return src;
}

}  // namespace anon::pg
