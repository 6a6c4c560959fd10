// Reads a source relation into a frequency set: one SQL GROUP BY over the QI and sensitive columns (so PostgreSQL,
// with parallel workers where it can, does the pass over the rows), then each distinct value is mapped to its
// taxonomy code once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "day_read.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"

namespace anon::pg {

struct ColumnValues;  // grouped_values.hpp

// How columns get their taxonomies.
enum class TaxonomySource {
    catalog,     // QIs need a taxonomy (params->'taxonomies' or the same name); sensitive columns use one if it exists
    dictionary,  // every column is flat: its distinct values under "*"
    audit,       // auditing a published table: QIs flat; a sensitive column uses its catalog taxonomy when that
                 // holds every value (so named value sets and published generalized values may be inner nodes), else
                 // flat
    audit_generalized,  // as audit, for a model whose releases generalize sensitive values (tau-l-diversity): a
                        // sensitive column without a taxonomy reads any_value_label ("*") as its root, any value
    catalog_published,  // as catalog, for a source joined with a table another tool published: values may be inner
                        // nodes (the published generalized values, anon.audit_minimality_table)
};
// Outside the audits a value is data, never a marker: every value must be a leaf of its column's taxonomy (a value
// that names a group of values, an inner node such as "*", is refused), and a flat taxonomy's root takes a label no
// value has (Taxonomy::flat).

struct Source {
    Schema schema;
    FrequencySet fs;
    std::string relation;    // quoted, qualified name
    Oid relid = InvalidOid;  // the relation read_source read (InvalidOid for read_grouped's other FROM clauses)
    // params->>'individual': the column identifying a person, and the text of each individual code.
    std::string individual_column;
    std::vector<std::string> individual_labels;
    // Read along when the caller named kept columns: the tuples grouped by frequency-set row and kept values.
    std::shared_ptr<const KeptGroups> kept_groups;
    // The catalog taxonomies the columns were mapped with (TaxonomySource::catalog), in column order.
    std::vector<UsedTaxonomy> taxonomies;
    // The quasi-identifiers read at their day, their taxonomies folded (day_read.hpp).
    std::vector<DayColumn> read_at_day;
};

// Checks that the columns (and params->>'individual', which must be neither quasi-identifier nor sensitive) exist in
// `relid`, have a deterministic collation and are named once; read_source starts with it.
void check_source_columns(Spi& spi, Oid relid, const std::vector<std::string>& quasi_identifiers,
                          const std::vector<std::string>& sensitive, const PublicationOptions& publication);

// Reads `relid` grouped by the given columns. Checks that every column exists and is named once; NULLs are an
// error unless params->>'nulls' = 'value'; a value missing from its taxonomy is an error naming the column, the
// number of rows and values, and a few examples. `extra_sensitive_values` are added to dictionary taxonomies of
// sensitive columns (values named in params that need not occur in the data). With params->>'individual', the
// named column is read too and fs.individual holds a code per row. With `keep`, the rows are read one by one and
// grouped in C++ with their kept columns' values too (kept_groups), in the same pass (row_grouping.hpp). The
// schema has the order of each sensitive column's values from its type (value_orders.hpp).
// `at_day` (columns_read_at_day): quasi-identifiers read at their day, their date taxonomies folded.
Source read_source(Spi& spi, Oid relid, const std::vector<std::string>& quasi_identifiers,
                   const std::vector<std::string>& sensitive, const PublicationOptions& publication,
                   TaxonomySource taxonomies, const std::vector<std::string>& extra_sensitive_values = {},
                   const std::vector<std::string>& keep = {}, std::vector<DayColumn> at_day = {});

// The same over any FROM clause (a quoted relation name or a parenthesized subquery with an alias) whose columns
// have the given names; `relation` names it in messages. The schema has no value orders (the caller knows the
// columns' types). Column existence is the caller's concern. Columns named
// in `group_raw` are grouped by their own values (their type's text form is one-to-one with its equality, so the
// groups are the same), which keeps the per-row text conversion out of the aggregation and lets a partition key
// of that type take part in partitionwise aggregation; the others are grouped by their text. `keep`: as
// read_source's (group_raw may name kept columns too); `keep_grouped_in_sql`: the kept columns are grouped along by the
// SQL GROUP BY rather than row by row (row_grouping.hpp). `grouped_along`, without kept columns: a column of `from`
// that the SQL GROUP BY groups by too without reading it (a Citus distribution column, so that Citus aggregates on
// the shards alone); the groups it splits are added up here.
Source read_grouped(Spi& spi, const std::string& from, const std::string& relation, const std::vector<std::string>& qi,
                    const std::vector<std::string>& sa, const PublicationOptions& publication,
                    TaxonomySource taxonomies, const std::vector<std::string>& extra_sensitive_values = {},
                    const std::vector<std::string>& group_raw = {}, const std::vector<std::string>& keep = {},
                    std::vector<DayColumn> at_day = {}, bool keep_grouped_in_sql = false,
                    const std::string& grouped_along = "");

// Maps each distinct value to its taxonomy code; errors with the count and a few examples when values are missing,
// or, unless `inner_allowed` (a published table's generalized values), when values name inner nodes: a value such as
// "*" or a group's label is data, and read as the group it would change the model's verdict.
std::vector<Code> codes_of_values(const Taxonomy& tax, const std::string& column, const ColumnValues& values,
                                  bool inner_allowed);

// The columns among `cols` whose type's text form is one-to-one with its equality (integers, text, varchar, char,
// boolean, date, timestamp, timestamptz: one instant has one UTC text), so grouping by the value or by its text
// gives the same groups.
std::vector<std::string> columns_grouped_raw(Spi& spi, Oid relid, const std::vector<std::string>& cols);

// The columns among `cols` of type text or varchar: their canonical text is the value itself (a relabelling cast),
// so a query compares the column with texts without calling anon._canonical_text once per row.
std::vector<std::string> columns_of_text(Spi& spi, Oid relid, const std::vector<std::string>& cols);

// The target and GROUP BY lists of a read of `columns` in their canonical text (`select` with ", " after each
// column, for what follows): columns in `group_raw` as themselves (the reader converts them to text, once per group
// when grouped, by the cast of their type), columns of `at_day` as the date of their day (day_read.hpp; converted
// so too), the others as their canonical text, grouped by position. `raw[i]` says which, `expression[i]` is what
// column i is selected as; `qualifier` ("s." or empty) prefixes each column.
struct CanonicalColumns {
    std::string select;
    std::vector<char> raw;
    std::vector<std::string> expression;
    std::vector<std::string> group_items;  // the GROUP BY item of each column

    // The GROUP BY list, with the columns from `first` on (the kept ones) before the others. A kept column is often
    // unique per row: first, it ends each comparison of a sorted grouping at one key, where low-cardinality keys
    // compared first under the collation made a Citus source's shards group 5 times slower (10M rows, 49 s against
    // 9.5 s). The order of a GROUP BY changes neither its groups nor the select list.
    std::string group_list(std::size_t first = 0) const;
};
CanonicalColumns canonical_columns(const std::vector<std::string>& columns, const std::vector<std::string>& group_raw,
                                   const std::string& qualifier = "", const std::vector<DayColumn>& at_day = {});

// The taxonomy name a column uses: params->'taxonomies'->column, else the column name.
std::string taxonomy_name_for(const PublicationOptions& publication, const std::string& column);

// Refuses columns without a taxonomy in the catalog (found[c] false), naming every one of them (a QI, or a sensitive
// column that params->'taxonomies' maps to a taxonomy) and the taxonomy looked for, with a hint naming the builders.
void check_taxonomies_found(const std::vector<std::string>& cols, std::size_t n_qi,
                            const PublicationOptions& publication, const std::vector<bool>& found);

// Refuses (naming `argument`) a column that `relid` does not have.
void check_column_exists(Spi& spi, Oid relid, const std::string& column, const std::string& argument);

}  // namespace anon::pg
