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
#include "grouped_values.hpp"
#include "infra/infra.hpp"
#include "relation_columns.hpp"
#include "value_orders.hpp"

namespace anon::pg {

namespace {

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
        // Leaves in byte order, not in the order the read met the values (see the sort below), viewed in the read's
        // dictionary.
        std::vector<std::string_view> labels(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) labels[i] = values.label(i);
        sort_in_byte_order(labels);
        return date_taxonomy_with_values(stored.name, stored.nodes, labels);
    }
    if (stored.kind != "interval" && stored.kind != "ranges") return Taxonomy::build(stored.name, stored.nodes);
    std::vector<std::pair<std::string, double>> leaves;
    std::vector<std::string> bad;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string_view view = values.label(i);
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
        if (i < 3) examples += (i ? ", " : "") + quoted_value(values.label(which[i]));
    }
    return std::to_string(rows) + " row(s) of column \"" + column + "\" have " + std::to_string(which.size()) +
           " value(s) " + what + ", e.g. " + examples;
}

}  // namespace

std::vector<Code> codes_of_values(const Taxonomy& tax, const std::string& column, const ColumnValues& values,
                                  bool inner_allowed) {
    std::vector<Code> code(values.size());
    std::vector<std::size_t> missing, inner;
    for (std::size_t i = 0; i < values.size(); ++i) {
        code[i] = tax.find(values.label(i));
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

namespace {

// The columns among `cols` whose type is one of `types` (an SQL regtype[] literal's text), in the table's order.
std::vector<std::string> columns_of_types(Spi& spi, Oid relid, const std::vector<std::string>& cols,
                                          const std::string& types) {
    auto typed = spi.query(
        "SELECT attname::pg_catalog.text FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped AND atttypid "
        "OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.regtype[]::pg_catalog.oid[])",
        {std::to_string(relid), types});
    std::vector<std::string> out;
    for (const auto& row : typed)
        if (row[0] && std::find(cols.begin(), cols.end(), *row[0]) != cols.end()) out.push_back(*row[0]);
    return out;
}

}  // namespace

std::vector<std::string> columns_grouped_raw(Spi& spi, Oid relid, const std::vector<std::string>& cols) {
    return columns_of_types(spi, relid, cols, "{int2,int4,int8,text,varchar,bpchar,bool,date,timestamp,timestamptz}");
}

std::vector<std::string> columns_of_text(Spi& spi, Oid relid, const std::vector<std::string>& cols) {
    return columns_of_types(spi, relid, cols, "{text,varchar}");
}

void check_taxonomies_found(const std::vector<std::string>& cols, std::size_t n_qi,
                            const PublicationOptions& publication, const std::vector<bool>& found) {
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

std::string taxonomy_name_for(const PublicationOptions& publication, const std::string& column) {
    for (const auto& [name, taxonomy] : publication.taxonomies)
        if (name == column) return taxonomy;
    return column;
}

CanonicalColumns canonical_columns(const std::vector<std::string>& columns, const std::vector<std::string>& group_raw,
                                   const std::string& qualifier, const std::vector<DayColumn>& at_day) {
    CanonicalColumns lists;
    lists.raw.resize(columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string column = qualifier + quote_ident(columns[i]);
        const DayColumn* day = day_column(at_day, columns[i]);
        lists.raw[i] = day || std::find(group_raw.begin(), group_raw.end(), columns[i]) != group_raw.end();
        lists.expression.push_back(day            ? day_of_sql(column, day->with_time_zone)
                                   : lists.raw[i] ? column
                                                  : canonical_text_sql(column));
        lists.select += lists.expression.back() + ", ";
        lists.group_items.push_back(!day && lists.raw[i] ? column : std::to_string(i + 1));
    }
    return lists;
}

std::string CanonicalColumns::group_list(std::size_t first) const {
    std::string list;
    for (std::size_t i = 0; i < group_items.size(); ++i) {
        const std::size_t column = (first + i) % group_items.size();
        list += (i ? ", " : "") + group_items[column];
    }
    return list;
}

void check_source_columns(Spi& spi, Oid relid, const std::vector<std::string>& qi, const std::vector<std::string>& sa,
                          const PublicationOptions& publication) {
    const std::string relation = qualified_name(relid);
    check_columns(spi, relid, relation, qi, sa);
    const std::string individual = publication.individual.value_or("");
    if (individual.empty()) return;
    if (std::find(qi.begin(), qi.end(), individual) != qi.end() ||
        std::find(sa.begin(), sa.end(), individual) != sa.end())
        bad_argument("params->'individual'", "a column that is neither quasi-identifier nor sensitive",
                     "\"" + individual + "\"");
    check_columns(spi, relid, relation, {}, {individual});
}

Source read_source(Spi& spi, Oid relid, const std::vector<std::string>& qi, const std::vector<std::string>& sa,
                   const PublicationOptions& publication, TaxonomySource taxonomies,
                   const std::vector<std::string>& extra_sensitive_values, const std::vector<std::string>& keep,
                   std::vector<DayColumn> at_day) {
    const std::string relation = qualified_name(relid);
    check_source_columns(spi, relid, qi, sa, publication);
    const std::string individual = publication.individual.value_or("");
    std::vector<std::string> cols(qi);
    cols.insert(cols.end(), sa.begin(), sa.end());
    if (!individual.empty()) cols.push_back(individual);
    cols.insert(cols.end(), keep.begin(), keep.end());
    // A Citus distributed source's rows are grouped by its shards with their kept values (the groups hold the
    // distribution column when it is kept, so each shard's groups are final); a local one's row by row here, and a
    // distributed one's too when a unique index says that each of its groups would be a row: grouping then only
    // costs (10M rows, an id kept: the shards' GROUP BY took 47 s to reach the coordinator, the rows alone 30 s).
    const std::optional<std::string> distribution = citus_distribution_column(spi, relid);
    const bool keep_grouped_in_sql = !keep.empty() && distribution && !unique_by_columns(spi, relid, keep);
    // A release object distributed by anon_bucket is grouped by it too: a bucket names the row's shard (and, for rows
    // the workers repeat, their count: release_citus.hpp), so Citus runs the whole GROUP BY on the shards, with about
    // the groups its partial aggregation would send, and the groups one key makes on several shards are added up
    // here instead of in a HashAggregate on the coordinator (BSGI on 1M rows: a million groups, 1 s and 237 MB).
    const bool by_bucket = distribution == release_bucket_column;  // read_grouped: only without kept columns
    Source src = read_grouped(spi, relation, relation, qi, sa, publication, taxonomies, extra_sensitive_values,
                              columns_grouped_raw(spi, relid, cols), keep, std::move(at_day), keep_grouped_in_sql,
                              by_bucket ? *distribution : "");
    src.relid = relid;
    src.schema.sa_order = column_value_orders(spi, relid, sa);
    return src;
}

namespace {

// Refuses params->'taxonomies' keys that are neither quasi-identifier nor sensitive columns.
void check_taxonomy_keys(const PublicationOptions& publication, const std::vector<std::string>& qi,
                         const std::vector<std::string>& sa) {
    for (const auto& [col, _] : publication.taxonomies)
        if (std::find(qi.begin(), qi.end(), col) == qi.end() && std::find(sa.begin(), sa.end(), col) == sa.end())
            bad_argument("params->'taxonomies'", "keys that are quasi-identifier or sensitive columns",
                         "\"" + col + "\"");
}

// The catalog's taxonomy of each of `cols` (from the catalog, or for the columns that have one), recorded in `src`
// for the report; every QI (and every mapped sensitive column) must have one.
std::vector<std::optional<StoredTaxonomy>> catalog_taxonomies(Spi& spi, const std::vector<std::string>& cols,
                                                              std::size_t n_qi, const PublicationOptions& publication,
                                                              Source& src) {
    std::vector<std::optional<StoredTaxonomy>> found(cols.size());
    for (std::size_t c = 0; c < cols.size(); ++c) {
        found[c] = load_stored_taxonomy(spi, taxonomy_name_for(publication, cols[c]));
        if (found[c])
            src.taxonomies.push_back({cols[c], found[c]->name, found[c]->owner, taxonomy_fingerprint(*found[c])});
    }
    std::vector<bool> any(cols.size());
    for (std::size_t c = 0; c < cols.size(); ++c) any[c] = found[c].has_value();
    check_taxonomies_found(cols, n_qi, publication, any);
    return found;
}

// The stored taxonomy of an audited table's sensitive column when it is a tree holding every value, so that
// don't-care and negative-disclosure sets may name inner nodes; else none (the column's values, flat).
std::optional<StoredTaxonomy> audited_sensitive_taxonomy(Spi& spi, const std::string& name,
                                                         const ColumnValues& values) {
    std::optional<StoredTaxonomy> stored = load_stored_taxonomy(spi, name);
    if (!stored || stored->kind != "tree") return std::nullopt;
    Taxonomy t = Taxonomy::build(stored->name, stored->nodes);
    for (std::size_t i = 0; i < values.size(); ++i)
        if (t.find(values.label(i)) == no_code) return std::nullopt;
    return stored;
}

// Folds the days of `column`'s date taxonomy when the column was read at its day (day_read.hpp): each day the values
// fell on stands for its distinct values, a day the counts missed (a row written between the counts and the read)
// for one.
void fold_read_days(Taxonomy& tax, const std::string& column, const std::vector<DayColumn>& at_day) {
    const DayColumn* day = day_column(at_day, column);
    if (!day) return;
    std::vector<std::pair<Code, Count>> values_under;
    for (const auto& [label, values] : day->values_per_day) {
        const Code code = tax.find(label);
        if (code != no_code && tax.is_leaf(code)) values_under.emplace_back(code, values);
    }
    tax.fold_level_below(values_under);
}

// `tax` with NULL (a value of its own) as a leaf directly under the root, when the column holds NULL and the taxonomy
// has no such leaf.
Taxonomy with_null_leaf(Taxonomy tax, const ColumnValues& values) {
    if (!values.contains(null_label) || tax.find(null_label) != no_code) return tax;
    std::vector<TaxonomyNodeSpec> nodes;
    for (Code k = 0; k < tax.size(); ++k)
        nodes.push_back({std::string(tax.label(k)),
                         tax.parent(k) == no_code ? std::nullopt : std::optional<std::string>(tax.label(tax.parent(k))),
                         tax.weight(k), tax.range(k), tax.span(k)});
    nodes.push_back({null_label, std::string(tax.label(tax.root())), 1.0, std::nullopt});
    return Taxonomy::build(tax.name(), nodes);
}

// A flat taxonomy of a column without one: its values (a sensitive column's also `extra_values`) as leaves in byte
// order. A published generalized value of a sensitive column without a taxonomy is its root, "*" (`star_is_root`,
// tau-l-diversity), so "*" is then no leaf.
Taxonomy flat_taxonomy(const std::string& column, const ColumnValues& values,
                       const std::vector<std::string>& extra_values, bool star_is_root) {
    std::vector<std::string> leaves = values.label_strings();
    for (const auto& v : extra_values)
        if (!values.contains(v)) leaves.push_back(v);
    std::sort(leaves.begin(), leaves.end());
    if (star_is_root) leaves.erase(std::remove(leaves.begin(), leaves.end(), any_value_label), leaves.end());
    return Taxonomy::flat(column, leaves);
}

// The individual column as a dictionary: its code is the value's rank in byte order (not its order of appearance,
// which may follow the source's physical order and would then steer the grouping). Returns the codes of its values
// and fills src.individual_labels.
std::vector<Code> individual_codes(const ColumnValues& ind, Source& src) {
    std::vector<std::uint32_t> by_value(ind.size());
    std::iota(by_value.begin(), by_value.end(), 0);
    std::sort(by_value.begin(), by_value.end(),
              [&](std::uint32_t a, std::uint32_t b) { return ind.label(a) < ind.label(b); });
    std::vector<Code> codes(ind.size());
    src.individual_labels.clear();
    for (std::uint32_t rank = 0; rank < by_value.size(); ++rank) {
        codes[by_value[rank]] = static_cast<Code>(rank);
        src.individual_labels.emplace_back(ind.label(by_value[rank]));
    }
    return codes;
}

// The frequency set of `src` from the grouped rows' codes, in canonical order (by codes) so that class numbering
// does not depend on the aggregation's output order; the kept groups' rows become frequency-set rows, their codes
// ranks in byte order. With `split` (the groups were split by a column grouped along, without kept columns), rows
// of equal codes are one row with their counts added.
void fill_frequency_set(GroupedValues& g, const std::vector<std::vector<Code>>& codes, std::size_t n_qi,
                        std::size_t n_sa, bool split, Source& src) {
    const std::size_t n = g.counts.size(), width = codes.size(), known = n_qi + n_sa;
    g.charge.resize(n * width * 2 * sizeof(std::uint32_t) + n * (16 + sizeof(std::uint32_t) + sizeof(Count)),
                    "the codes of the grouped rows of " + src.relation);
    std::vector<std::uint32_t> matrix(n * width);  // codes are non-negative
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < width; ++c)
            matrix[r * width + c] = static_cast<std::uint32_t>(codes[c][g.values[c].of_row[r]]);
    const std::vector<std::uint32_t> order = lexicographic_order(matrix, n, width);
    src.fs.n_qi = n_qi;
    src.fs.n_sa = n_sa;
    src.fs.qi.reserve(n * n_qi);
    src.fs.sa.reserve(n * n_sa);
    src.fs.count.reserve(n);
    const std::uint32_t* previous = nullptr;
    for (std::uint32_t r : order) {
        const std::uint32_t* row = &matrix[r * width];
        if (split && previous && std::equal(row, row + width, previous)) {
            src.fs.count.back() += g.counts[r];
            continue;
        }
        previous = row;
        src.fs.qi.insert(src.fs.qi.end(), row, row + n_qi);
        src.fs.sa.insert(src.fs.sa.end(), row + n_qi, row + known);
        if (width > known) src.fs.individual.push_back(row[known]);
        src.fs.count.push_back(g.counts[r]);
    }
    if (!g.grouped) return;
    std::vector<std::uint32_t> fs_row(n);
    for (std::uint32_t i = 0; i < n; ++i) fs_row[order[i]] = i;
    auto kept = std::make_shared<KeptGroups>(std::move(g.grouped->kept));
    for (std::uint32_t& row : kept->row) row = fs_row[row];
    rank_kept_codes(*kept);
    src.kept_groups = std::move(kept);
}

}  // namespace

Source read_grouped(Spi& spi, const std::string& from, const std::string& relation, const std::vector<std::string>& qi,
                    const std::vector<std::string>& sa, const PublicationOptions& publication,
                    TaxonomySource taxonomies, const std::vector<std::string>& extra_sensitive_values,
                    const std::vector<std::string>& group_raw, const std::vector<std::string>& keep,
                    std::vector<DayColumn> at_day, bool keep_grouped_in_sql, const std::string& grouped_along) {
    Source src;
    src.relation = relation;
    check_taxonomy_keys(publication, qi, sa);

    // One aggregation pass in SQL (the individual column, if any, is read last). Values are read in their canonical
    // text (canonical_text.hpp). Columns grouped by their own values are selected as themselves, so the
    // aggregation's target list is the grouped columns (which partitionwise aggregation can push down to foreign
    // servers), and converted once per group. With kept columns the rows are read one by one and grouped in C++
    // with their kept values (row_grouping.hpp).
    std::vector<std::string> cols(qi);
    cols.insert(cols.end(), sa.begin(), sa.end());
    src.individual_column = publication.individual.value_or("");
    GroupedRead read{from, relation, cols, keep, keep_grouped_in_sql, keep.empty() ? grouped_along : ""};
    if (!src.individual_column.empty()) read.read_cols.push_back(src.individual_column);
    std::vector<std::string> listed(read.read_cols);
    listed.insert(listed.end(), keep.begin(), keep.end());
    read.lists = canonical_columns(listed, group_raw, "", at_day);
    read.nulls_are_values = publication.nulls == PublicationOptions::Nulls::value;
    ProgressPhase reading("read", 0);
    GroupedValues g;
    read_grouped_values(spi, read, g);
    reading.finish();
    // Each column's values mapped to its taxonomy's codes, then the frequency set sorted: a step per column.
    ProgressPhase encoding("encode", cols.size() + 1);

    // Taxonomies: from the catalog or from the values themselves.
    const bool from_catalog = taxonomies == TaxonomySource::catalog || taxonomies == TaxonomySource::catalog_published;
    const bool audit = taxonomies == TaxonomySource::audit || taxonomies == TaxonomySource::audit_generalized;
    std::vector<std::optional<StoredTaxonomy>> found(cols.size());
    if (from_catalog) found = catalog_taxonomies(spi, cols, qi.size(), publication, src);
    std::vector<std::vector<Code>> codes(cols.size());
    for (std::size_t c = 0; c < cols.size(); ++c) {
        const bool is_qi = c < qi.size();
        std::optional<StoredTaxonomy> stored = std::move(found[c]);
        if (audit && !is_qi)
            stored = audited_sensitive_taxonomy(spi, taxonomy_name_for(publication, cols[c]), g.values[c]);
        Taxonomy tax;
        if (stored) {
            tax = catalog_taxonomy(*stored, cols[c], g.values[c]);
            if (read.nulls_are_values) tax = with_null_leaf(std::move(tax), g.values[c]);
            if (is_qi) fold_read_days(tax, cols[c], at_day);
        } else {
            tax = flat_taxonomy(cols[c], g.values[c], is_qi ? std::vector<std::string>{} : extra_sensitive_values,
                                taxonomies == TaxonomySource::audit_generalized && !is_qi);
        }
        // Audited sensitive columns and published tables may hold generalized values; anything else holds values,
        // leaves.
        codes[c] = codes_of_values(tax, cols[c], g.values[c],
                                   (audit && !is_qi) || taxonomies == TaxonomySource::catalog_published);
        (is_qi ? src.schema.qi_names : src.schema.sa_names).push_back(cols[c]);
        (is_qi ? src.schema.qi_tax : src.schema.sa_tax).push_back(std::move(tax));
        encoding.step(c + 1);
    }
    if (!src.individual_column.empty()) codes.push_back(individual_codes(g.values.back(), src));
    fill_frequency_set(g, codes, qi.size(), sa.size(), !read.grouped_along.empty(), src);
    encoding.finish();
    src.read_at_day = std::move(at_day);
    return src;
}

}  // namespace anon::pg
