#include "person_rows.hpp"

#include <algorithm>

#include "base/base.hpp"
#include "day_read.hpp"
#include "taxonomy_builders.hpp"

namespace anon::pg {

namespace {

// A column's text as the job's read labels it: NULL as the null label (a release reads NULL as a value of its own,
// or refuses it, so no published leaf is NULL otherwise).
std::string_view text_of(const std::optional<std::string_view>& value) { return value ? *value : null_label; }

// The select list of `columns`, each as the text the job's read labels its values with: its canonical text, or that
// of its day for a column of `at_day` (day_read.hpp).
std::string select_list(const std::vector<std::string>& columns, const std::vector<std::string>& at_day) {
    std::string select;
    for (std::size_t i = 0; i < columns.size(); ++i)
        select += (i ? ", " : "") + value_text_sql(quote_ident(columns[i]), columns[i], at_day);
    return select;
}

// Refuses two rows of one person key: the first duplicate's hash is reported by its count of rows.
void check_keys_distinct(const std::vector<PersonAt>& persons, const std::string& key, const std::string& relation) {
    std::size_t duplicates = 0;
    for (std::size_t i = 1; i < persons.size(); ++i) duplicates += persons[i].id == persons[i - 1].id ? 1 : 0;
    if (duplicates > 0)
        bad_argument(
            "params->'person_key'", "a column whose values name one row each (a person's key)",
            "\"" + key + "\", whose values repeat in " + std::to_string(duplicates) + " row(s) of " + relation);
}

}  // namespace

std::vector<PersonAt> persons_by_key(Spi& spi, Oid relid, const std::string& key, const std::vector<std::string>& qi,
                                     const std::vector<std::string>& at_day) {
    const std::string relation = qualified_name(relid);
    const std::string sql =
        "SELECT " + canonical_text_sql(quote_ident(key)) + ", " + select_list(qi, at_day) + " FROM " + relation;
    std::vector<PersonAt> persons;
    MemoryCharge held;
    std::vector<std::string_view> texts(qi.size());
    Count null_keys = 0;
    for_each_text_row(spi, sql, [&](const TextRow& row) {
        if (!row[0]) {
            ++null_keys;
            return;
        }
        for (std::size_t j = 0; j < qi.size(); ++j) texts[j] = text_of(row[j + 1]);
        persons.push_back({text_hash(*row[0]), tuple_hash(texts)});
        if (persons.size() == persons.capacity())
            held.resize(heap_bytes(persons), "the persons of " + relation + " by their key \"" + key + "\"");
    });
    if (null_keys > 0)
        bad_argument("params->'person_key'", "a column without NULL (a person's key)",
                     "\"" + key + "\", NULL in " + std::to_string(null_keys) + " row(s) of " + relation);
    std::sort(persons.begin(), persons.end(), [](const PersonAt& a, const PersonAt& b) { return a.id < b.id; });
    check_keys_distinct(persons, key, relation);
    return persons;
}

std::vector<ComposedRow> composed_rows(Spi& spi, Oid relid, const std::vector<std::vector<std::string>>& qi_lists,
                                       const std::vector<std::vector<std::string>>& at_day_lists) {
    const std::string relation = qualified_name(relid);
    // Each column's text (value or day) once, in first appearance; each release's QIs as positions in that list.
    std::vector<std::string> selected;
    std::vector<std::vector<std::size_t>> positions(qi_lists.size());
    for (std::size_t r = 0; r < qi_lists.size(); ++r)
        for (const std::string& c : qi_lists[r]) {
            const std::string text = value_text_sql(
                quote_ident(c), c, r < at_day_lists.size() ? at_day_lists[r] : std::vector<std::string>{});
            auto it = std::find(selected.begin(), selected.end(), text);
            if (it == selected.end()) it = selected.insert(selected.end(), text);
            positions[r].push_back(static_cast<std::size_t>(it - selected.begin()));
        }
    std::string select, group;
    for (std::size_t i = 0; i < selected.size(); ++i) {
        select += selected[i] + ", ";
        group += (i ? ", " : "") + std::to_string(i + 1);
    }
    const std::string sql =
        "SELECT " + select + "pg_catalog.count(*)::pg_catalog.text FROM " + relation + " GROUP BY " + group;
    std::vector<ComposedRow> rows;
    MemoryCharge held;
    std::vector<std::string_view> texts;
    for_each_text_row(spi, sql, [&](const TextRow& row) {
        ComposedRow composed;
        for (const auto& release : positions) {
            texts.clear();
            for (std::size_t p : release) texts.push_back(text_of(row[p]));
            composed.q.push_back(tuple_hash(texts));
        }
        composed.count = std::stoll(std::string(*row[selected.size()]));
        rows.push_back(std::move(composed));
        if (rows.size() == rows.capacity())
            held.resize(rows.size() * (sizeof(ComposedRow) + qi_lists.size() * sizeof(ValueHash)),
                        "the rows of " + relation + " grouped by the quasi-identifiers of its releases");
    });
    return rows;
}

}  // namespace anon::pg
