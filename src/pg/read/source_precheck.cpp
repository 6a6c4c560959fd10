#include "source_precheck.hpp"

#include <algorithm>
#include <optional>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "grouped_values.hpp"
#include "source_reader.hpp"

namespace anon::pg {

namespace {

// Grouping sets per scan (two target entries each), flags beside them, and flags in a scan of their own (PostgreSQL's
// target lists hold at most 1664 entries).
constexpr std::size_t max_sets = 400;
constexpr std::size_t max_flags_with_sets = 800;
constexpr std::size_t max_flags_alone = 1500;

// The columns among `columns` that are not declared NOT NULL (only they can hold NULL), in their order: one query.
std::vector<std::string> columns_without_not_null(Spi& spi, Oid relid, const std::vector<std::string>& columns) {
    std::vector<std::string> not_null;
    for (const auto& row : spi.query("SELECT attname::pg_catalog.text FROM pg_catalog.pg_attribute WHERE attrelid "
                                     "OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 "
                                     "AND NOT attisdropped AND attnotnull",
                                     {std::to_string(relid)}))
        not_null.push_back(*row[0]);
    std::vector<std::string> nullable;
    for (const auto& c : columns)
        if (std::find(not_null.begin(), not_null.end(), c) == not_null.end()) nullable.push_back(c);
    return nullable;
}

// A column whose values are checked against its tree taxonomy row by row, without grouping it: its canonical text
// looked up in the taxonomy's leaves. The leaves are a constant of the query (a parameter cast to text[] would be
// parsed again for every row), which PostgreSQL looks up in a hash table. Grouping every such column (a grouping
// set each) cost twice as much: every set is a hash table probed by every row.
struct LeafLookup {
    std::string column;
    std::string leaves;  // SQL: the leaves' labels and null_label (a value the read refuses itself) as a text[]
    Taxonomy tree;       // the taxonomy, for the message of values outside its leaves
    bool text = false;   // the column is text or varchar: compared as it is, without anon._canonical_text
};

// The labels a value of a column under `tree` may have in the check: its leaves', and null_label (a value the read
// refuses itself).
std::vector<std::optional<std::string>> admitted_labels(const Taxonomy& tree) {
    std::vector<std::optional<std::string>> labels{std::string(null_label)};
    for (const Code leaf : tree.leaves()) labels.emplace_back(tree.label(leaf));
    return labels;
}

// The SQL condition "the value of `lookup` is not among its leaves".
std::string outside_leaves_sql(const LeafLookup& lookup) {
    const std::string quoted = quote_ident(lookup.column);
    return "NOT (" + (lookup.text ? quoted + "::pg_catalog.text" : canonical_text_sql(quoted)) +
           " COLLATE pg_catalog.\"C\" OPERATOR(pg_catalog.=) ANY (" + lookup.leaves + "))";
}

// The flags of the detailed checks: per column of `nullable` "a row holds NULL there", per lookup of
// lookups[first, last) "a row holds a value outside the leaves".
std::vector<std::string> detailed_flags(const std::vector<std::string>& nullable,
                                        const std::vector<LeafLookup>& lookups, std::size_t first, std::size_t last) {
    std::vector<std::string> flags;
    for (const auto& column : nullable) flags.push_back(quote_ident(column) + " IS NULL");
    for (std::size_t i = first; i < last; ++i) flags.push_back(outside_leaves_sql(lookups[i]));
    return flags;
}

// One scan of the checks: a grouping set per column in `grouped` (its canonical text and count per value; grouped
// by the value itself when its type's text is one-to-one with equality, `raw`), or one row when there is none; in
// every row, per condition of `flags`, whether a row of its group meets it. Row layout: per grouped column
// GROUPING(..) and its text, then the count, then the flags.
// With `only` (an index into `grouped`), the rows of that set alone in the same layout, by a plain GROUP BY: the other
// sets' columns read as not grouped (1 and NULL).
std::string checks_sql(const std::string& relation, const std::vector<std::string>& grouped,
                       const std::vector<std::string>& raw, const std::vector<std::string>& flags,
                       std::optional<std::size_t> only = std::nullopt) {
    std::string select, sets;
    for (std::size_t g = 0; g < grouped.size(); ++g) {
        const std::string quoted = quote_ident(grouped[g]);
        const bool by_value = std::find(raw.begin(), raw.end(), grouped[g]) != raw.end();
        const std::string key = by_value ? quoted : canonical_text_sql(quoted);
        const std::string text = by_value ? canonical_text_sql(quoted) : key;
        if (only)
            select += *only == g ? "0, " + text + ", " : "1, NULL::pg_catalog.text, ";
        else
            select += "GROUPING(" + key + "), " + text + ", ";
        if (!only || *only == g) sets += (sets.empty() ? "(" : ", (") + key + ")";
    }
    select += "pg_catalog.count(*)";
    for (const auto& flag : flags) select += ", pg_catalog.bool_or(" + flag + ")";
    // Without sets, a plain aggregate: PostgreSQL runs no grouping sets with parallel workers.
    if (sets.empty()) return "SELECT " + select + " FROM " + relation;
    return "SELECT " + select + " FROM " + relation +
           (only ? " GROUP BY " + sets : " GROUP BY GROUPING SETS (" + sets + ")");
}

// The rows of checks_sql: one query, or over a Citus distributed table, whose planner refuses grouping sets ("could
// not run distributed query with GROUPING"), one query per set, each pushed down to the shards, their rows together.
std::vector<SqlRow> checks_rows(Spi& spi, const std::string& relation, const std::vector<std::string>& grouped,
                                const std::vector<std::string>& raw, const std::vector<std::string>& flags,
                                bool set_by_set) {
    if (!set_by_set || grouped.empty()) return spi.query(checks_sql(relation, grouped, raw, flags));
    std::vector<SqlRow> rows;
    for (std::size_t g = 0; g < grouped.size(); ++g)
        for (SqlRow& row : spi.query(checks_sql(relation, grouped, raw, flags, g))) rows.push_back(std::move(row));
    return rows;
}

// Whether anon._row_misfit exists (a library newer than the extension's SQL checks by expressions instead).
bool row_misfit_installed(Spi& spi) {
    const std::vector<SqlRow> rows = spi.query(
        "SELECT pg_catalog.to_regprocedure('anon._row_misfit(text[], integer[], boolean[], \"any\")') IS NOT NULL");
    return !rows.empty() && rows[0][0] && *rows[0][0] == "t";
}

// Whether the source's rows are scanned by this backend (and its parallel workers): a table or materialized view
// that Citus does not manage, or a partitioned table without foreign partitions. anon._row_misfit serves those only:
// over postgres_fdw or Citus the detailed flags (plain operators and aggregates) are pushed down to where the rows
// are, a call of anon's own function would bring every row here.
bool scanned_here(Spi& spi, Oid relid) {
    const std::vector<SqlRow> rows = spi.query(
        "SELECT c.relkind OPERATOR(pg_catalog.=) ANY ('{r,m}'::pg_catalog.\"char\"[]) OR (c.relkind "
        "OPERATOR(pg_catalog.=) 'p' AND NOT EXISTS (SELECT FROM "
        "pg_catalog.pg_partition_tree(c.oid) t JOIN pg_catalog.pg_class p ON p.oid OPERATOR(pg_catalog.=) t.relid "
        "WHERE p.relkind OPERATOR(pg_catalog.=) 'f')) FROM pg_catalog.pg_class c WHERE c.oid "
        "OPERATOR(pg_catalog.=) $1::pg_catalog.oid",
        {std::to_string(relid)});
    if (rows.empty() || !rows[0][0] || *rows[0][0] != "t") return false;
    return !citus_loaded(spi) ||
           spi.query(
                  "SELECT FROM pg_catalog.pg_dist_partition WHERE logicalrelid OPERATOR(pg_catalog.=) "
                  "$1::pg_catalog.oid",
                  {std::to_string(relid)})
               .empty();
}

// The condition "the row holds a NULL in a column of `flagged` or a value outside a lookup's leaves", by
// anon._row_misfit: one call per row (per 90 columns; a call takes at most 100 arguments).
std::string misfit_sql(const std::vector<std::string>& flagged, const std::vector<LeafLookup>& lookups) {
    constexpr std::size_t columns_per_call = 90;
    std::vector<std::string> columns(flagged);
    for (const auto& lookup : lookups)
        if (std::find(columns.begin(), columns.end(), lookup.column) == columns.end()) columns.push_back(lookup.column);
    std::string condition;
    for (std::size_t first = 0; first < columns.size(); first += columns_per_call) {
        const std::size_t last = std::min(columns.size(), first + columns_per_call);
        std::vector<std::optional<std::string>> leaves;
        std::string starts, refuse, values;
        for (std::size_t c = first; c < last; ++c) {
            starts += std::to_string(leaves.size()) + ",";
            const bool is_flagged = std::find(flagged.begin(), flagged.end(), columns[c]) != flagged.end();
            refuse += std::string(c == first ? "" : ",") + (is_flagged ? "t" : "f");
            values += ", " + quote_ident(columns[c]);
            const auto lookup = std::find_if(lookups.begin(), lookups.end(),
                                             [&](const LeafLookup& l) { return l.column == columns[c]; });
            if (lookup == lookups.end()) continue;
            const std::vector<std::optional<std::string>> labels = admitted_labels(lookup->tree);
            leaves.insert(leaves.end(), labels.begin(), labels.end());
        }
        starts += std::to_string(leaves.size());
        condition += std::string(first == 0 ? "" : " OR ") + "anon._row_misfit(" +
                     quote_literal(array_literal(leaves)) + "::pg_catalog.text[], '{" + starts +
                     "}'::pg_catalog.int4[], '{" + refuse + "}'::pg_catalog.bool[]" + values + ")";
    }
    return condition;
}

// Refuses the columns of `nullable` that hold NULL, with the read's message: a grouped column (in `sets`) when its
// set has a NULL group, another by its flag (in `flagged`, the flags from `first_flag` on) true in some row.
void refuse_nulls(const std::vector<SqlRow>& rows, const std::vector<std::string>& nullable,
                  const std::vector<std::string>& sets, const std::vector<std::string>& flagged, std::size_t first_flag,
                  const std::string& relation) {
    std::vector<std::string> holding;
    for (const auto& column : nullable) {
        const auto set = std::find(sets.begin(), sets.end(), column);
        const auto flag = std::find(flagged.begin(), flagged.end(), column);
        bool found = false;
        if (set != sets.end()) {
            const std::size_t g = static_cast<std::size_t>(set - sets.begin());
            found = std::any_of(rows.begin(), rows.end(),
                                [&](const SqlRow& r) { return r[2 * g] && *r[2 * g] == "0" && !r[2 * g + 1]; });
        } else if (flag != flagged.end()) {
            const std::size_t i = first_flag + static_cast<std::size_t>(flag - flagged.begin());
            found = std::any_of(rows.begin(), rows.end(), [&](const SqlRow& r) { return r[i] && *r[i] == "t"; });
        }
        if (found) holding.push_back(column);
    }
    if (!holding.empty()) refuse_null_columns(holding, relation);
}

// The values of grouped column `g` (NULL as null_label) with their rows, in byte order.
ColumnValues column_values(const std::vector<SqlRow>& rows, std::size_t g, std::size_t count_at) {
    std::vector<std::pair<std::string, Count>> values;
    for (const auto& r : rows)
        if (r[2 * g] && *r[2 * g] == "0")
            values.emplace_back(r[2 * g + 1] ? *r[2 * g + 1] : std::string(null_label), std::stoll(*r[count_at]));
    std::sort(values.begin(), values.end());
    ColumnValues out;
    for (const auto& [label, n] : values) out.add(label.data(), label.size(), n);
    return out;
}

// A tree taxonomy of the catalog (the others take the column's values as leaves when the job reads them).
std::optional<Taxonomy> stored_tree(Spi& spi, const std::string& column, const PublicationOptions& publication) {
    const std::optional<StoredTaxonomy> stored = load_stored_taxonomy(spi, taxonomy_name_for(publication, column));
    if (!stored || stored->kind != "tree") return std::nullopt;
    return Taxonomy::build(stored->name, stored->nodes);
}

// Refuses values of a column that its tree taxonomy lacks or uses for a group (the read's messages). NULL, a value
// of its own, is refused above or given a leaf by the read.
void check_covered(const Taxonomy& tax, const std::string& column, const ColumnValues& values) {
    ColumnValues non_null;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (values.label(i) != null_label)
            non_null.add(values.label(i).data(), values.label(i).size(), values.rows_with[i]);
    codes_of_values(tax, column, non_null, false);
}

// Checks l against the whole table's histogram of a sensitive column, labelled by its tree taxonomy or, without
// one, flat in byte order (as the read labels it).
void check_eligible_values(const std::string& column, const ColumnValues& values, const std::optional<Taxonomy>& tree,
                           const JobSpec& spec) {
    if (values.size() == 0) return;  // no rows: the job says so
    const Taxonomy tax = tree ? *tree : Taxonomy::flat(column, values.label_strings());
    Histogram histogram;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const Code code = tax.find(values.label(i));
        if (code == no_code) return;  // NULL as a value under a tree: the read adds its leaf, the job checks
        histogram.push(code, values.rows_with[i]);
    }
    histogram.sort();
    check_eligible_column(spec.model, column, histogram, tax);
}

// Refuses the values of lookups[first, last) whose flag (in `rows`, the flags from `first_flag` on) is true in some
// row, by the read's message (check_covered), the column's values outside its leaves read by one more query.
void refuse_outside_leaves(Spi& spi, const std::string& relation, const std::vector<SqlRow>& rows,
                           const std::vector<LeafLookup>& lookups, std::size_t first, std::size_t last,
                           std::size_t first_flag) {
    for (std::size_t i = first; i < last; ++i) {
        const std::size_t at = first_flag + (i - first);
        if (std::none_of(rows.begin(), rows.end(), [&](const SqlRow& r) { return r[at] && *r[at] == "t"; })) continue;
        const std::string text = canonical_text_sql(quote_ident(lookups[i].column));
        const std::vector<SqlRow> outside = spi.query("SELECT 0, " + text + ", pg_catalog.count(*) FROM " + relation +
                                                      " WHERE " + outside_leaves_sql(lookups[i]) + " GROUP BY 2");
        check_covered(lookups[i].tree, lookups[i].column, column_values(outside, 0, 2));
    }
}

// The columns the scan checks beside NULLs: grouped, the sensitive columns when l is checked (their histograms,
// their coverage from their values); looked up, the other columns under a tree taxonomy (their coverage, row by row).
struct CheckedColumns {
    std::vector<std::string> grouped;
    std::vector<std::optional<Taxonomy>> grouped_trees;
    std::vector<LeafLookup> lookups;
};

CheckedColumns checked_columns(Spi& spi, Oid relid, const std::vector<std::string>& qi,
                               const std::vector<std::string>& sa, const JobSpec& spec) {
    const bool eligibility =
        spec.model.traits().eligible_range != EligibleRangeKind::none && spec.model.params->eligible_l().has_value();
    CheckedColumns out;
    std::vector<std::string> columns(qi);
    columns.insert(columns.end(), sa.begin(), sa.end());
    const std::vector<std::string> text = columns_of_text(spi, relid, columns);
    for (std::size_t c = 0; c < columns.size(); ++c) {
        std::optional<Taxonomy> tree = stored_tree(spi, columns[c], spec.publication);
        if (eligibility && c >= qi.size()) {
            out.grouped.push_back(columns[c]);
            out.grouped_trees.push_back(std::move(tree));
        } else if (tree) {
            out.lookups.push_back({columns[c],
                                   quote_literal(array_literal(admitted_labels(*tree))) + "::pg_catalog.text[]",
                                   std::move(*tree), std::count(text.begin(), text.end(), columns[c]) > 0});
        }
    }
    return out;
}

// The columns and conditions of one job's checks.
struct Checks {
    std::string relation;
    std::vector<std::string> nullable;  // may hold NULL and must not
    std::vector<std::string> flagged;   // those of `nullable` that no grouping set shows (a flag each)
    CheckedColumns checked;
    bool set_by_set = false;  // grouping sets one query each (a database with Citus: checks_rows)
};

// The flags in scans of their own, when too many to go beside the first scan's grouping sets.
void refuse_by_own_scans(Spi& spi, const Checks& checks) {
    const auto& flagged = checks.flagged;
    const auto& lookups = checks.checked.lookups;
    for (std::size_t first = 0; first < flagged.size(); first += max_flags_alone) {
        const std::vector<std::string> part(flagged.begin() + first,
                                            flagged.begin() + std::min(flagged.size(), first + max_flags_alone));
        refuse_nulls(spi.query(checks_sql(checks.relation, {}, {}, detailed_flags(part, lookups, 0, 0))), part, {},
                     part, 1, checks.relation);
    }
    for (std::size_t first = 0; first < lookups.size(); first += max_flags_alone) {
        const std::size_t last = std::min(lookups.size(), first + max_flags_alone);
        const std::vector<SqlRow> rows =
            spi.query(checks_sql(checks.relation, {}, {}, detailed_flags({}, lookups, first, last)));
        refuse_outside_leaves(spi, checks.relation, rows, lookups, first, last, 1);
    }
}

// Runs the checks: with `misfit`, the first scan carries one anon._row_misfit condition for every flag and the
// call returns true as soon as a row meets it, before any other check (the caller then runs them without it, for
// the messages); without it, a flag per NULL column and per lookup, beside the first scan's grouping sets when
// few, else in scans of their own. Refuses what fails; false when all pass.
bool run_checks(Spi& spi, Oid relid, const Checks& checks, bool misfit, const JobSpec& spec) {
    const auto& grouped = checks.checked.grouped;
    const auto& lookups = checks.checked.lookups;
    const bool flags_apart = !misfit && checks.flagged.size() + lookups.size() > max_flags_with_sets;
    if (flags_apart) refuse_by_own_scans(spi, checks);
    const std::vector<std::string> raw = columns_grouped_raw(spi, relid, grouped);
    const std::vector<std::string> none;
    const std::size_t scans = grouped.empty() ? (flags_apart ? 0 : 1) : (grouped.size() + max_sets - 1) / max_sets;
    for (std::size_t scan = 0, first = 0; scan < scans; ++scan, first += max_sets) {
        const std::size_t last = std::min(grouped.size(), first + max_sets);
        const std::vector<std::string> sets(grouped.begin() + first, grouped.begin() + last);
        // The first scan carries the flags (aggregates, which every grouping set evaluates: one set per sensitive
        // column); every scan shows its grouped columns' NULLs.
        const bool with_flags = first == 0 && !flags_apart;
        const std::vector<std::string>& scan_flagged = with_flags && !misfit ? checks.flagged : none;
        const std::size_t scan_lookups = with_flags && !misfit ? lookups.size() : 0;
        const std::vector<std::string> flags = !with_flags ? none
                                               : misfit ? std::vector<std::string>{misfit_sql(checks.flagged, lookups)}
                                                        : detailed_flags(checks.flagged, lookups, 0, lookups.size());
        const std::vector<SqlRow> rows = checks_rows(spi, checks.relation, sets, raw, flags, checks.set_by_set);
        const std::size_t count_at = 2 * sets.size();
        if (with_flags && misfit && std::any_of(rows.begin(), rows.end(), [&](const SqlRow& r) {
                return r[count_at + 1] && *r[count_at + 1] == "t";
            }))
            return true;
        refuse_nulls(rows, checks.nullable, sets, scan_flagged, count_at + 1, checks.relation);
        refuse_outside_leaves(spi, checks.relation, rows, lookups, 0, scan_lookups, count_at + 1 + scan_flagged.size());
        for (std::size_t g = 0; g < sets.size(); ++g) {
            const ColumnValues values = column_values(rows, g, count_at);
            const std::optional<Taxonomy>& tree = checks.checked.grouped_trees[first + g];
            if (tree) check_covered(*tree, sets[g], values);
            check_eligible_values(sets[g], values, tree, spec);
        }
    }
    return false;
}

}  // namespace

void precheck_source(Spi& spi, Oid relid, const std::vector<std::string>& qi, const std::vector<std::string>& sa,
                     const JobSpec& spec) {
    check_source_columns(spi, relid, qi, sa, spec.publication);
    Checks checks{qualified_name(relid), {}, {}, checked_columns(spi, relid, qi, sa, spec), citus_loaded(spi)};
    if (spec.publication.nulls != PublicationOptions::Nulls::value) {
        std::vector<std::string> columns(qi);
        columns.insert(columns.end(), sa.begin(), sa.end());
        if (spec.publication.individual) columns.push_back(*spec.publication.individual);
        checks.nullable = columns_without_not_null(spi, relid, columns);
    }
    const auto& grouped = checks.checked.grouped;
    if (grouped.empty() && checks.nullable.empty() && checks.checked.lookups.empty()) return;  // nothing to check
    ProgressPhase checking("check source", 0);
    // The nullable columns that the scan does not group get a flag (a grouped column's NULLs are its NULL group).
    for (const auto& column : checks.nullable)
        if (std::find(grouped.begin(), grouped.end(), column) == grouped.end()) checks.flagged.push_back(column);
    const bool misfit = !(checks.flagged.empty() && checks.checked.lookups.empty()) && row_misfit_installed(spi) &&
                        scanned_here(spi, relid);
    if (run_checks(spi, relid, checks, misfit, spec)) run_checks(spi, relid, checks, false, spec);
    checking.finish();
}

}  // namespace anon::pg
