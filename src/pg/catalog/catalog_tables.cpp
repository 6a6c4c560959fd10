#include "catalog_tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "base/base.hpp"
#include "catalog_rights.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"
#include "release_access.hpp"

extern "C" {
#include "utils/acl.h"
}

namespace anon::pg {

namespace {

double to_double(const std::optional<std::string>& s) { return s ? std::stod(*s) : 0.0; }

// Parses a float8[] text output ({5,10,20}).
std::vector<double> parse_number_array(const std::string& text) {
    std::vector<double> out;
    std::string cur;
    for (char c : text) {
        if (c == '{' || c == '}' || c == ',') {
            if (!cur.empty()) out.push_back(std::stod(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    return out;
}

// Refuses to write the row of a release the caller does not see (its own, a role's it holds, or the database
// owner's view of all): the writes below run as the catalog's owner, so the caller's right is checked here.
void require_visible_release(Spi& spi, const std::string& schema, const std::string& name) {
    if (!is_release(spi, schema, name))
        throw Error(ErrorKind::insufficient_privilege, "cannot write the catalog row of the release " +
                                                           quote_ident(schema) + "." + quote_ident(name) +
                                                           ": it is not a release you can see");
}

}  // namespace

std::string array_literal(const std::vector<std::optional<std::string>>& items) {
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        if (!items[i]) {
            out += "NULL";
            continue;
        }
        out += '"';
        for (char c : *items[i]) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

std::optional<StoredTaxonomy> load_stored_taxonomy(Spi& spi, const std::string& name) {
    // Columns of later versions read through to_jsonb, so that an older catalog reads NULL.
    auto head = spi.query(
        "SELECT kind, lower::pg_catalog.float8, upper::pg_catalog.float8, widths::pg_catalog.float8[], "
        "pg_catalog.to_jsonb(t) OPERATOR(pg_catalog.->>) 'coded', created_by::pg_catalog.text, "
        "(pg_catalog.to_jsonb(t) OPERATOR(pg_catalog.->>) 'built_from')::pg_catalog.regclass::pg_catalog.oid::"
        "pg_catalog.text, pg_catalog.to_jsonb(t) OPERATOR(pg_catalog.->>) 'built_column', COALESCE("
        "pg_catalog.to_jsonb(t) OPERATOR(pg_catalog.->>) 'readable', 'true') FROM " +
            taxonomies_relation() + " t WHERE name OPERATOR(pg_catalog.=) $1",
        {name});
    if (head.empty()) return std::nullopt;
    StoredTaxonomy t;
    t.name = name;
    t.kind = head[0][0].value_or("tree");
    t.owner = head[0][5].value_or("");
    t.built_from = static_cast<Oid>(std::stoul(head[0][6].value_or("0")));
    t.built_column = head[0][7].value_or("");
    if (head[0][8].value_or("false") != "true")
        throw Error(ErrorKind::insufficient_privilege,
                    "taxonomy \"" + name + "\" was built by role " + quote_ident(t.owner) +
                        " from the values of a column you may not read, so its nodes are hidden from you",
                    {}, "Build a taxonomy of your own (or ask for SELECT on the column it was built from).");
    if (t.kind == "interval") {
        t.lower = to_double(head[0][1]);
        t.upper = to_double(head[0][2]);
        t.widths = parse_number_array(head[0][3].value_or("{}"));
        t.coded = head[0][4].value_or("false") == "true";
    }
    // The taxonomy is readable (above): its nodes are read from the catalog's table as its owner. The view of
    // readable nodes, joined row by row, checked the taxonomy once per node when the planner had no statistics of a
    // taxonomy built in the same transaction (birth dates over 90 years: 34,000 checks, half a second).
    const bool current = catalog_has_views();
    CatalogOwnerScope as_owner(spi);
    // What reading the nodes holds (the SPI rows, their copies and the nodes, about three times their texts and a
    // fixed part per node), charged to the current budget before they are read.
    const std::string size =
        spi.query(
               "SELECT pg_catalog.count(*) OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||) COALESCE("
               "pg_catalog.sum(pg_catalog.octet_length(value) OPERATOR(pg_catalog.+) COALESCE("
               "pg_catalog.octet_length(parent), 0)), 0) FROM anon.taxonomy_node WHERE taxonomy "
               "OPERATOR(pg_catalog.=) $1",
               {name})
            .at(0)[0]
            .value_or("0 0");
    const std::uint64_t nodes = std::stoull(size.substr(0, size.find(' ')));
    const std::uint64_t text = std::stoull(size.substr(size.find(' ') + 1));
    const MemoryCharge reading(nodes * 160 + 3 * text,
                               "the nodes of taxonomy \"" + name + "\" (" + std::to_string(nodes) + " nodes)");
    // A catalog older than 0.5 has no spans: each node fills one level.
    auto rows = spi.query("SELECT value, parent, weight, " + std::string(current ? "span" : "1") +
                              " FROM anon.taxonomy_node WHERE taxonomy OPERATOR(pg_catalog.=) $1 ORDER BY ord",
                          {name});
    InterruptPoller poll;
    for (auto& r : rows) {
        poll.tick();
        t.nodes.push_back({*r[0], r[1], to_double(r[2]), std::nullopt, std::stoi(r[3].value_or("1"))});
    }
    return t;
}

namespace {

// Inserts a taxonomy's nodes in batches of about a megabyte of text (or 10,000 nodes), numbered in order, so that
// one statement's arrays stay small and a cancel or statement_timeout is honoured between batches. A catalog older
// than 0.5 has no spans: a node filling several levels is refused there.
void insert_nodes(Spi& spi, const StoredTaxonomy& t) {
    constexpr std::size_t batch_nodes = 10000, batch_bytes = 1 << 20;
    const bool spans = catalog_has_views();
    if (!spans)
        for (const auto& n : t.nodes)
            if (n.span != 1)
                throw Error(ErrorKind::invalid_parameter,
                            "taxonomy \"" + t.name + "\" has a node filling several levels (" + quoted_value(n.value) +
                                "), which anon's catalog of a version before 0.5 cannot store",
                            {}, "Update the extension: ALTER EXTENSION anon UPDATE.");
    // A batch's texts about four times over (its lists, their array literals, the statement's parameters and the
    // arrays PostgreSQL parses from them), charged to the current budget while the batches are written.
    std::size_t text = 0;
    for (std::size_t i = 0; i < t.nodes.size() && i < batch_nodes && text < batch_bytes; ++i)
        text += t.nodes[i].value.size() + (t.nodes[i].parent ? t.nodes[i].parent->size() : 0);
    const MemoryCharge batch_charge(4 * (text + std::min(t.nodes.size(), batch_nodes) * 4 * sizeof(SqlArg)),
                                    "the batches of nodes written to the catalog");
    const std::string insert =
        spans
            ? "INSERT INTO anon.taxonomy_node(taxonomy, value, parent, weight, ord, span) "
              "SELECT $1, v, p, w::pg_catalog.float8, o OPERATOR(pg_catalog.+) $5::pg_catalog.int8, s::pg_catalog.int4 "
              "FROM ROWS FROM (pg_catalog.unnest($2::pg_catalog.text[]), pg_catalog.unnest($3::pg_catalog.text[]), "
              "pg_catalog.unnest($4::pg_catalog.text[]), pg_catalog.unnest($6::pg_catalog.text[])) "
              "WITH ORDINALITY AS u(v, p, w, s, o)"
            : "INSERT INTO anon.taxonomy_node(taxonomy, value, parent, weight, ord) "
              "SELECT $1, v, p, w::pg_catalog.float8, o OPERATOR(pg_catalog.+) $5::pg_catalog.int8 FROM ROWS FROM "
              "(pg_catalog.unnest($2::pg_catalog.text[]), pg_catalog.unnest($3::pg_catalog.text[]), "
              "pg_catalog.unnest($4::pg_catalog.text[])) WITH ORDINALITY AS u(v, p, w, o)";
    std::vector<std::optional<std::string>> values, parents, weights, levels;
    std::size_t first = 0, bytes = 0;
    const auto flush = [&] {
        if (values.empty()) return;
        check_pg_interrupts();
        std::vector<SqlArg> args{t.name, array_literal(values), array_literal(parents), array_literal(weights),
                                 std::to_string(first)};
        if (spans) args.push_back(array_literal(levels));
        spi.execute(insert, args, SPI_OK_INSERT);
        first += values.size();
        values.clear();
        parents.clear();
        weights.clear();
        levels.clear();
        bytes = 0;
    };
    for (const auto& n : t.nodes) {
        values.push_back(n.value);
        parents.push_back(n.parent);
        weights.push_back(format_number(n.weight));
        levels.push_back(std::to_string(n.span));
        bytes += n.value.size() + (n.parent ? n.parent->size() : 0);
        if (values.size() == batch_nodes || bytes >= batch_bytes) flush();
    }
    flush();
}

}  // namespace

void check_taxonomy_value_size(const std::string& taxonomy, const std::string& value) {
    constexpr std::size_t max_bytes = 2000;
    if (value.size() <= max_bytes) return;
    std::size_t cut = 40;
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;  // a UTF-8 boundary
    throw Error(ErrorKind::invalid_parameter,
                "taxonomy \"" + taxonomy + "\" has a value of " + std::to_string(value.size()) + " bytes (\"" +
                    value.substr(0, cut) + "...\"): taxonomy values are limited to " + std::to_string(max_bytes) +
                    " bytes, as the catalog indexes them",
                {}, "Map long values to shorter codes before anonymizing, or publish the column as sensitive.");
}

bool taxonomy_exists(Spi& spi, const std::string& name) {
    return spi.scalar("SELECT 1 FROM " + taxonomies_relation() + " WHERE name OPERATOR(pg_catalog.=) $1", {name})
        .has_value();
}

std::string taxonomy_fingerprint(const StoredTaxonomy& t) {
    // Two FNV-1a hashes with different offsets over length-prefixed fields: 32 hex digits.
    std::uint64_t a = 14695981039346656037ull, b = 1099511628211ull * 31ull;
    auto add = [&](const std::string& field) {
        const std::string framed = std::to_string(field.size()) + ":" + field;
        for (unsigned char c : framed) {
            a = (a ^ c) * 1099511628211ull;
            b = (b ^ c) * 1099511628211ull + 0x9e3779b97f4a7c15ull;
        }
    };
    add(t.kind);
    add(format_number(t.lower));
    add(format_number(t.upper));
    add(t.coded ? "coded" : "open");
    for (double w : t.widths) add(format_number(w));
    for (const auto& n : t.nodes) {
        add(n.value);
        add(n.parent ? "p" + *n.parent : std::string("root"));
        add(format_number(n.weight));
        if (n.span != 1) add("span" + std::to_string(n.span));  // absent for one level: earlier fingerprints hold
    }
    char out[33];
    snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return out;
}

std::vector<UsedTaxonomy> recorded_taxonomies(Spi& spi, const std::string& schema, const std::string& name) {
    std::vector<UsedTaxonomy> out;
    for (auto& r : spi.query(
             "SELECT u OPERATOR(pg_catalog.->>) 'column', u OPERATOR(pg_catalog.->>) 'taxonomy', u "
             "OPERATOR(pg_catalog.->>) 'owner', u OPERATOR(pg_catalog.->>) 'fingerprint' FROM " +
                 releases_relation() +
                 " r, "
                 "pg_catalog.jsonb_array_elements(CASE WHEN pg_catalog.jsonb_typeof(r.report OPERATOR(pg_catalog.->) "
                 "'taxonomies') OPERATOR(pg_catalog.=) 'array' THEN r.report OPERATOR(pg_catalog.->) 'taxonomies' ELSE "
                 "'[]' END) u WHERE r.output_schema OPERATOR(pg_catalog.=) $1 AND r.output_name OPERATOR(pg_catalog.=) "
                 "$2",
             {schema, name}))
        out.push_back({r[0].value_or(""), r[1].value_or(""), r[2].value_or(""), r[3].value_or("")});
    return out;
}

void drop_stored_taxonomy(Spi& spi, const std::string& name) {
    if (!catalog_has_views()) {
        // An older catalog: row-level security and its trigger decide, as they did.
        if (spi.execute("DELETE FROM anon.taxonomy WHERE name OPERATOR(pg_catalog.=) $1", {name}, SPI_OK_DELETE) == 0)
            throw Error(ErrorKind::undefined_object,
                        "invalid name: expected an existing taxonomy, found \"" + name + "\"");
        return;
    }
    auto owner = spi.scalar(
        "SELECT created_by::pg_catalog.text FROM anon.taxonomies WHERE name OPERATOR(pg_catalog.=) $1", {name});
    if (!owner)
        throw Error(ErrorKind::undefined_object, "invalid name: expected an existing taxonomy, found \"" + name + "\"");
    if (!holds_role(*owner))
        bad_argument("name", "a taxonomy of your own (or of a role you are a member of)",
                     "\"" + name + "\", created by " + *owner);
    const auto total =
        std::stoll(spi.scalar("SELECT anon._taxonomy_use_count($1)::pg_catalog.text", {name}).value_or("0"));
    if (total > 0) {
        std::vector<std::string> visible;
        for (auto& r :
             spi.query("SELECT pg_catalog.format('%I.%I', r.output_schema, r.output_name) FROM anon.releases r "
                       "WHERE anon._uses_taxonomy(r.quasi_identifiers, r.sensitive, r.params, $1) ORDER BY "
                       "r.output_schema, r.output_name",
                       {name}))
            visible.push_back(*r[0]);
        const long long hidden = total - static_cast<long long>(visible.size());
        std::string used;
        if (visible.size() == 1) used = "release " + visible[0];
        if (visible.size() > 1) {
            used = "releases ";
            for (std::size_t i = 0; i < visible.size(); ++i) used += (i ? ", " : "") + visible[i];
        }
        if (hidden > 0)
            used += (used.empty() ? "" : " and ") + (hidden == 1 ? std::string("1 release of another role")
                                                                 : std::to_string(hidden) + " releases of other roles");
        throw Error(ErrorKind::dependent_objects, "cannot drop taxonomy \"" + name + "\": it is used by " + used, {},
                    "Drop those releases first (anon.drop_release), or publish them again with another taxonomy.");
    }
    CatalogOwnerScope as_owner(spi);
    spi.execute("DELETE FROM anon.taxonomy WHERE name OPERATOR(pg_catalog.=) $1", {name}, SPI_OK_DELETE);
}

void store_taxonomy(Spi& spi, const StoredTaxonomy& t, bool replace) {
    for (const auto& n : t.nodes) check_taxonomy_value_size(t.name, n.value);
    const bool current = catalog_has_views();
    const auto existing_owner = spi.scalar(
        "SELECT created_by::pg_catalog.text FROM " + taxonomies_relation() + " WHERE name OPERATOR(pg_catalog.=) $1",
        {t.name});
    const bool exists = existing_owner.has_value();
    if (exists && !replace)
        throw Error(ErrorKind::invalid_parameter, "taxonomy \"" + t.name + "\" already exists", {},
                    "Drop it first with anon.drop_taxonomy('" + t.name + "'), or pass replace => true.");
    if (exists && !holds_role(*existing_owner))
        bad_argument("name", "a taxonomy of your own (or of a role you are a member of) to replace",
                     "\"" + t.name + "\", created by another role");
    const std::string creator = current_role_name();
    std::vector<SqlArg> head{t.name, t.kind};
    if (t.kind == "interval") {
        std::vector<std::optional<std::string>> w;
        for (double x : t.widths) w.push_back(format_number(x));
        head.push_back(format_number(t.lower));
        head.push_back(format_number(t.upper));
        head.push_back(array_literal(w));
    } else if (t.kind == "ranges") {  // the outer bounds, which anon.covers reads for the root
        // NULL when there is none (a quantile taxonomy of fewer than 2k rows: no cut it may print).
        auto bound = [](double x) { return std::isfinite(x) ? SqlArg(format_number(x)) : SqlArg(std::nullopt); };
        head.insert(head.end(), {bound(t.lower), bound(t.upper), std::nullopt});
    } else {
        head.insert(head.end(), {std::nullopt, std::nullopt, std::nullopt});
    }
    head.push_back(std::string(t.coded ? "true" : "false"));
    head.push_back(t.built_from == InvalidOid ? std::nullopt
                                              : std::optional<std::string>(std::to_string(t.built_from)));
    head.push_back(t.built_from == InvalidOid || t.built_column.empty() ? std::nullopt
                                                                        : std::optional<std::string>(t.built_column));
    head.push_back(creator);
    CatalogOwnerScope as_owner(spi);
    if (exists) {
        spi.execute(
            "UPDATE anon.taxonomy SET kind = $2, lower = $3::pg_catalog.numeric, upper = $4::pg_catalog.numeric, "
            "widths = $5::pg_catalog.numeric[], coded = $6::pg_catalog.bool, built_from = "
            "$7::pg_catalog.oid::pg_catalog.regclass, built_column = $8 WHERE name OPERATOR(pg_catalog.=) $1",
            head, SPI_OK_UPDATE);
        spi.execute("DELETE FROM anon.taxonomy_node WHERE taxonomy OPERATOR(pg_catalog.=) $1", {t.name}, SPI_OK_DELETE);
    } else if (current) {
        spi.execute(
            "INSERT INTO anon.taxonomy(name, kind, lower, upper, widths, coded, built_from, built_column, created_by) "
            "VALUES ($1, $2, $3::pg_catalog.numeric, $4::pg_catalog.numeric, $5::pg_catalog.numeric[], "
            "$6::pg_catalog.bool, $7::pg_catalog.oid::pg_catalog.regclass, $8, $9)",
            head, SPI_OK_INSERT);
    } else {
        // A catalog older than 0.5 (ALTER EXTENSION not yet run), whose builders offered neither replace nor coding.
        head.resize(5);
        spi.execute(
            "INSERT INTO anon.taxonomy(name, kind, lower, upper, widths) "
            "VALUES ($1, $2, $3::pg_catalog.numeric, $4::pg_catalog.numeric, $5::pg_catalog.numeric[])",
            head, SPI_OK_INSERT);
    }
    insert_nodes(spi, t);
}

ReleaseConfig load_release(Spi& spi, const std::string& output, const char* argument) {
    // Resolve like a relation name: a qualified name directly, else the first schema of the search_path that holds
    // a release of that name (its objects need not exist: a bucketized release has no relation of its own name).
    List* names = qualified_name_list(output, argument, "a release name");
    std::vector<std::string> parts;
    ListCell* cell = nullptr;
    foreach (cell, names) parts.emplace_back(strVal(lfirst(cell)));
    const std::string select =
        "SELECT r.output_schema, r.output_name, r.source::pg_catalog.oid::pg_catalog.text, r.model, "
        "r.params::pg_catalog.text, r.algorithm, r.created_by::pg_catalog.text FROM " +
        releases_relation() + " r ";
    std::vector<SqlRow> rows;
    if (parts.size() == 2) {
        rows = spi.query(select +
                             "WHERE r.output_schema OPERATOR(pg_catalog.=) $1 AND r.output_name "
                             "OPERATOR(pg_catalog.=) $2",
                         {parts[0], parts[1]});
    } else if (parts.size() == 1) {
        rows = spi.query(select +
                             "JOIN pg_catalog.unnest(pg_catalog.current_schemas(true)) WITH ORDINALITY AS p(nsp, o) "
                             "ON p.nsp OPERATOR(pg_catalog.=) r.output_schema WHERE r.output_name "
                             "OPERATOR(pg_catalog.=) $1 ORDER BY p.o LIMIT 1",
                         {parts[0]});
    }
    if (rows.empty()) release_not_found(spi, parts, output, argument);
    ReleaseConfig c;
    c.schema = *rows[0][0];
    c.name = *rows[0][1];
    c.source = static_cast<Oid>(std::stoul(rows[0][2].value_or("0")));
    c.model = *rows[0][3];
    c.params_json = *rows[0][4];
    c.params = params_from_json(c.params_json);
    c.publication = parse_publication(c.params);
    c.algorithm = *rows[0][5];
    c.created_by = *rows[0][6];
    c.quasi_identifiers = release_column_list(spi, releases_relation(), c.schema, c.name, "quasi_identifiers");
    c.sensitive = release_column_list(spi, releases_relation(), c.schema, c.name, "sensitive");
    return c;
}

std::vector<std::string> release_column_list(Spi& spi, const std::string& relation, const std::string& schema,
                                             const std::string& name, const char* list) {
    std::vector<std::string> columns;
    for (const auto& row : spi.query("SELECT u.x FROM " + relation + " r, pg_catalog.unnest(r." + list +
                                         ") WITH ORDINALITY AS u(x, o) WHERE r.output_schema OPERATOR(pg_catalog.=) "
                                         "$1 AND r.output_name OPERATOR(pg_catalog.=) $2 ORDER BY u.o",
                                     {schema, name}))
        columns.push_back(row[0].value_or(""));
    return columns;
}

// A release's view is named as the release, its ST with "_st" after that name, in the release's schema. When a
// relation could be both (a release "r_st" beside the ST of a release "r"), the release of its own name wins.
std::optional<PublishedRelease> release_publishing(Spi& spi, Oid relid) {
    const auto rows = spi.query(
        "SELECT r.output_name::pg_catalog.text, r.source::pg_catalog.oid::pg_catalog.text, u.x FROM " +
            releases_relation() +
            " r JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) $1::pg_catalog.oid JOIN "
            "pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace CROSS JOIN LATERAL "
            "pg_catalog.unnest(r.sensitive) WITH ORDINALITY AS u(x, o) WHERE r.output_schema OPERATOR(pg_catalog.=) "
            "n.nspname AND (c.relname OPERATOR(pg_catalog.=) r.output_name OR c.relname::pg_catalog.text "
            "OPERATOR(pg_catalog.=) (r.output_name::pg_catalog.text OPERATOR(pg_catalog.||) '_st')) AND EXISTS "
            "(SELECT FROM pg_catalog.pg_class s WHERE s.oid OPERATOR(pg_catalog.=) r.source::pg_catalog.oid) ORDER BY "
            "c.relname OPERATOR(pg_catalog.=) r.output_name DESC, r.output_name, u.o",
        {std::to_string(relid)});
    if (rows.empty()) return std::nullopt;
    PublishedRelease release;
    release.source = static_cast<Oid>(std::stoul(rows[0][1].value_or("0")));
    for (const auto& row : rows)
        if (row[0] == rows[0][0]) release.sensitive.push_back(row[2].value_or(""));
    return release;
}

std::vector<int> recorded_levels(Spi& spi, const std::string& schema, const std::string& name,
                                 const std::vector<std::string>& qi) {
    std::vector<std::optional<std::string>> columns(qi.begin(), qi.end());
    std::vector<int> levels;
    for (const auto& row :
         spi.query("SELECT r.report OPERATOR(pg_catalog.->) 'levels' OPERATOR(pg_catalog.->>) q.c FROM " +
                       releases_relation() +
                       " r, pg_catalog.unnest($3::pg_catalog.text[]) WITH ORDINALITY AS q(c, o) WHERE r.output_schema "
                       "OPERATOR(pg_catalog.=) $1 AND r.output_name OPERATOR(pg_catalog.=) $2 ORDER BY q.o",
                   {schema, name, array_literal(columns)})) {
        if (!row[0]) return {};
        levels.push_back(std::stoi(*row[0]));
    }
    return levels.size() == qi.size() ? levels : std::vector<int>{};
}

std::optional<std::vector<std::string>> recorded_read_at_day(Spi& spi, const std::string& schema,
                                                             const std::string& name) {
    const auto rows = spi.query(
        "SELECT r.report IS NOT NULL, pg_catalog.jsonb_array_elements_text(COALESCE(r.report "
        "OPERATOR(pg_catalog.->) 'read_at_day', '[null]')) FROM " +
            releases_relation() +
            " r WHERE r.output_schema OPERATOR(pg_catalog.=) $1 AND r.output_name "
            "OPERATOR(pg_catalog.=) $2",
        {schema, name});
    if (rows.empty() || rows[0][0].value_or("f") != "t") return std::nullopt;
    std::vector<std::string> columns;
    for (const auto& row : rows)
        if (row[1]) columns.push_back(*row[1]);
    return columns;
}

std::optional<std::string> taxonomy_kind(Spi& spi, const std::string& name) {
    const auto kind = spi.query(
        "SELECT COALESCE(kind, 'tree') FROM " + taxonomies_relation() + " WHERE name OPERATOR(pg_catalog.=) $1",
        {name});
    if (kind.empty()) return std::nullopt;
    return kind[0][0];
}

void insert_release(Spi& spi, const std::string& schema, const std::string& name, Oid source,
                    const std::vector<std::string>& qi, const std::vector<std::string>& sensitive,
                    const std::string& model, const std::string& params_json, const std::string& algorithm) {
    std::vector<std::optional<std::string>> q(qi.begin(), qi.end()), s(sensitive.begin(), sensitive.end());
    const std::string creator = current_role_name();
    CatalogOwnerScope as_owner(spi);
    if (auto holder = spi.scalar("SELECT created_by::pg_catalog.text FROM anon.release WHERE output_schema "
                                 "OPERATOR(pg_catalog.=) $1 AND output_name OPERATOR(pg_catalog.=) $2",
                                 {schema, name}))
        bad_argument(
            "output", "a name no release holds",
            quote_ident(schema) + "." + quote_ident(name) + ", the name of a release of role " + quote_ident(*holder));
    spi.execute(
        "INSERT INTO anon.release(output_schema, output_name, source, quasi_identifiers, sensitive, model, params, "
        "algorithm, created_by) VALUES ($1, $2, $3::pg_catalog.oid::pg_catalog.regclass, $4::pg_catalog.text[], "
        "$5::pg_catalog.text[], $6, $7::pg_catalog.jsonb, $8, $9)",
        {schema, name, std::to_string(source), array_literal(q), array_literal(s), model, params_json, algorithm,
         creator},
        SPI_OK_INSERT);
}

bool is_release(Spi& spi, const std::string& schema, const std::string& name) {
    return spi
        .scalar("SELECT 1 FROM " + releases_relation() +
                    " WHERE output_schema OPERATOR(pg_catalog.=) $1 AND output_name OPERATOR(pg_catalog.=) $2",
                {schema, name})
        .has_value();
}

std::string stored_report(Spi& spi, const std::string& schema, const std::string& name) {
    return spi
        .scalar("SELECT report::pg_catalog.text FROM " + releases_relation() +
                    " WHERE output_schema OPERATOR(pg_catalog.=) $1 AND "
                    "output_name OPERATOR(pg_catalog.=) $2",
                {schema, name})
        .value_or("null");
}

void store_computation(Spi& spi, const std::string& schema, const std::string& name, const std::string& report_json,
                       const std::string& fingerprint) {
    require_visible_release(spi, schema, name);
    CatalogOwnerScope as_owner(spi);
    // A catalog still at SQL version 0.1 (library updated, ALTER EXTENSION not yet run) has no fingerprint column:
    // the report and time are stored, and the first refresh_if_changed after the update refreshes the release.
    if (!spi.scalar(
            "SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) "
            "'anon.release'::pg_catalog.regclass AND attname OPERATOR(pg_catalog.=) 'source_fingerprint' AND NOT "
            "attisdropped")) {
        spi.execute(
            "UPDATE anon.release SET report = $3::pg_catalog.jsonb, refreshed_at = pg_catalog.now() WHERE "
            "output_schema OPERATOR(pg_catalog.=) $1 AND output_name OPERATOR(pg_catalog.=) $2",
            {schema, name, report_json}, SPI_OK_UPDATE);
        return;
    }
    spi.execute(
        "UPDATE anon.release SET report = $3::pg_catalog.jsonb, refreshed_at = pg_catalog.now(), "
        "source_fingerprint = $4 WHERE output_schema OPERATOR(pg_catalog.=) $1 AND output_name "
        "OPERATOR(pg_catalog.=) $2",
        {schema, name, report_json, fingerprint}, SPI_OK_UPDATE);
}

void store_report_ms(Spi& spi, const std::string& schema, const std::string& name, double ms) {
    require_visible_release(spi, schema, name);
    CatalogOwnerScope as_owner(spi);
    spi.execute(
        "UPDATE anon.release SET report = report OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('ms', "
        "$3::pg_catalog.float8) WHERE output_schema OPERATOR(pg_catalog.=) $1 AND output_name "
        "OPERATOR(pg_catalog.=) $2",
        {schema, name, std::to_string(ms)}, SPI_OK_UPDATE);
}

std::string stored_metrics(Spi& spi, const std::string& schema, const std::string& name) {
    return spi
        .scalar(
            "SELECT (pg_catalog.jsonb_build_object('release', pg_catalog.quote_ident(output_schema) "
            "OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(output_name), "
            "'computed_at', refreshed_at) OPERATOR(pg_catalog.||) (SELECT pg_catalog.jsonb_object_agg(e.key, "
            "e.value) FROM pg_catalog.jsonb_each(report) e WHERE e.key OPERATOR(pg_catalog.=) ANY ('{classes,"
            "min_class_size,avg_class_size,suppressed,discernibility,height,il,ncp,loss_per_qi,dist,kl,um}'::pg_"
            "catalog.text[])))"
            "::pg_catalog.text FROM " +
                releases_relation() +
                " WHERE output_schema OPERATOR(pg_catalog.=) $1 AND output_name "
                "OPERATOR(pg_catalog.=) $2",
            {schema, name})
        .value_or("null");
}

std::optional<std::string> reported_source(Spi& spi, const std::string& schema, const std::string& name) {
    return spi.scalar("SELECT report OPERATOR(pg_catalog.->>) 'source' FROM " + releases_relation() +
                          " WHERE "
                          "output_schema OPERATOR(pg_catalog.=) $1 AND output_name OPERATOR(pg_catalog.=) $2",
                      {schema, name});
}

void delete_release(Spi& spi, const std::string& schema, const std::string& name) {
    // Dropping the release's last object already removed the row (anon._forget_dropped_releases); a row the caller
    // does not see is not its to delete.
    if (!is_release(spi, schema, name)) return;
    CatalogOwnerScope as_owner(spi);
    spi.execute(
        "DELETE FROM anon.release WHERE output_schema OPERATOR(pg_catalog.=) $1 AND output_name "
        "OPERATOR(pg_catalog.=) $2",
        {schema, name}, SPI_OK_DELETE);
}

// The quasi-identifiers of a release whose generalized view is `relation`; empty when it is none.
std::vector<std::string> release_quasi_identifiers(Spi& spi, Oid relation) {
    std::vector<std::string> out;
    bool readable = false;
    pg_call([&] {
        readable = pg_class_aclcheck(relation, GetUserId(), ACL_SELECT) == ACLCHECK_OK ||
                   pg_attribute_aclcheck_all(relation, GetUserId(), ACL_SELECT, ACLMASK_ANY) == ACLCHECK_OK;
    });
    // A role that may read the view learns only names of the view's own columns: the catalog row is read as its owner.
    std::optional<CatalogOwnerScope> as_owner;
    if (readable && catalog_has_views()) as_owner.emplace(spi);
    for (const auto& row :
         spi.query("SELECT q FROM " + std::string(as_owner ? "anon.release" : releases_relation()) +
                       " r, LATERAL pg_catalog.unnest(r.quasi_identifiers) WITH ORDINALITY u(q, o) "
                       "WHERE pg_catalog.to_regclass(pg_catalog.format('%I.%I', r.output_schema, r.output_name)) "
                       "OPERATOR(pg_catalog.=) $1::pg_catalog.oid::pg_catalog.regclass "
                       "AND COALESCE(r.params OPERATOR(pg_catalog.->>) 'publish', 'generalized') "
                       "OPERATOR(pg_catalog.<>) 'bucketized' ORDER BY u.o",
                   {std::to_string(relation)}))
        out.push_back(row[0].value_or(""));
    return out;
}

std::optional<std::string> release_of_relation(Spi& spi, const std::string& schema, const std::string& name) {
    return spi.scalar(
        "SELECT pg_catalog.format('%I.%I', r.output_schema, r.output_name) FROM anon.releases r, LATERAL "
        "anon._release_relations(r.output_schema, r.output_name, r.params) x WHERE x.schema_name "
        "OPERATOR(pg_catalog.=) $1 AND x.relation_name OPERATOR(pg_catalog.=) $2",
        {schema, name});
}

}  // namespace anon::pg
