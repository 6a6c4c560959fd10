#include "release_access.hpp"

#include "base/base.hpp"
#include "catalog_rights.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

namespace {

// Whether the catalog has anon._release_owner (0.3): the library may be updated before ALTER EXTENSION runs.
bool has_release_owner(Spi& spi) {
    return spi
        .scalar(
            "SELECT 1 WHERE pg_catalog.to_regprocedure('anon._release_owner(pg_catalog.text, pg_catalog.text)') "
            "IS NOT NULL")
        .has_value();
}

// The schema and creator of the release that row-level security hides from the caller under this name, found like
// load_release finds a visible one; nullopt when there is none, or when the catalog is older than 0.3 (no
// anon._release_owner yet: the library was updated, ALTER EXTENSION not yet run).
std::optional<std::pair<std::string, std::string>> hidden_release(Spi& spi, const std::vector<std::string>& parts) {
    if (parts.size() == 2) {
        auto creator = hidden_release_creator(spi, {parts[0], parts[1]});
        if (!creator) return std::nullopt;
        return std::make_pair(parts[0], *creator);
    }
    if (parts.size() != 1 || !has_release_owner(spi)) return std::nullopt;
    auto rows = spi.query(
        "SELECT p.nsp, anon._release_owner(p.nsp, $1) FROM pg_catalog.unnest("
        "pg_catalog.current_schemas(true)) WITH ORDINALITY AS p(nsp, o) WHERE "
        "anon._release_owner(p.nsp, $1) IS NOT NULL ORDER BY p.o LIMIT 1",
        {parts[0]});
    if (rows.empty()) return std::nullopt;
    return std::make_pair(*rows[0][0], *rows[0][1]);
}

}  // namespace

void release_not_found(Spi& spi, const std::vector<std::string>& parts, const std::string& output,
                       const char* argument) {
    if (auto hidden = hidden_release(spi, parts)) {
        const std::string& creator = hidden->second;
        throw Error(ErrorKind::insufficient_privilege,
                    std::string("invalid ") + argument + ": expected a release you can see, found \"" + output +
                        "\", a release of role " + quote_ident(creator) + " in schema " + quote_ident(hidden->first) +
                        " that is hidden from you: only that role, the roles granted it and the database owner see "
                        "it, and only that role and the roles granted it maintain it",
                    {},
                    "Ask " + quote_ident(creator) + " or the database owner, or have " + quote_ident(creator) +
                        " granted to you: GRANT " + quote_ident(creator) + " TO " + quote_ident(current_role_name()) +
                        ";");
    }
    const std::string message = std::string("invalid ") + argument +
                                ": expected the name of a release made by anon.anonymize, found \"" + output + "\"";
    refuse_on_citus_worker(message);  // a worker has no releases: its catalog lives on the coordinator
    throw Error(ErrorKind::undefined_object, message);
}

std::optional<std::string> hidden_release_creator(Spi& spi, const OutputName& out) {
    if (!has_release_owner(spi)) return std::nullopt;
    return spi.scalar("SELECT anon._release_owner($1, $2)::pg_catalog.text", {out.schema, out.name});
}

void check_can_maintain(Spi& spi, const OutputName& out, const PublishForm& form) {
    for (const OutputName& rel : release_relations(out, form)) {
        auto rows = spi.query(
            "SELECT pg_catalog.pg_get_userbyid(c.relowner)::pg_catalog.text FROM pg_catalog.pg_class c JOIN "
            "pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE n.nspname "
            "OPERATOR(pg_catalog.=) $1 AND c.relname OPERATOR(pg_catalog.=) $2 AND NOT "
            "pg_catalog.pg_has_role(current_user, c.relowner, 'USAGE')",
            {rel.schema, rel.name});
        if (rows.empty()) continue;
        const std::string owner = quote_ident(*rows[0][0]), me = quote_ident(current_role_name());
        throw Error(ErrorKind::insufficient_privilege, "cannot maintain the release " + out.qualified() +
                                                           ": its materialized view " + rel.qualified() +
                                                           " is owned by role " + owner +
                                                           ", and PostgreSQL refreshes or drops a materialized view "
                                                           "only for roles with its owner's privileges; GRANT " +
                                                           owner + " TO " + me + "; lets " + me + " maintain it");
    }
}

}  // namespace anon::pg
