#include "catalog_rights.hpp"

#include <exception>

#include "base/base.hpp"
#include "infra/infra.hpp"

extern "C" {
#include "utils/acl.h"
}

namespace anon::pg {

namespace {

// The owner of the extension's catalog (the table release of the extension's own schema), provided that schema is
// the one named anon: the statements the scope runs name the catalog "anon.".
Oid catalog_owner(Spi& spi) {
    const auto owner = spi.scalar(
        "SELECT c.relowner::pg_catalog.text FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid "
        "OPERATOR(pg_catalog.=) e.extnamespace JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) "
        "n.oid AND c.relname OPERATOR(pg_catalog.=) 'release' WHERE e.extname OPERATOR(pg_catalog.=) 'anon' AND "
        "n.nspname OPERATOR(pg_catalog.=) 'anon'");
    if (!owner)
        throw Error(ErrorKind::insufficient_privilege,
                    "anon's catalog is not where its functions look for it: the schema named \"anon\" is not the "
                    "extension's own schema");
    return static_cast<Oid>(std::stoul(*owner));
}

}  // namespace

bool catalog_has_views() {
    bool found = false;
    pg_call([&] {
        const Oid schema = get_namespace_oid("anon", true);
        found = OidIsValid(schema) && OidIsValid(get_relname_relid("releases", schema));
    });
    return found;
}

std::string releases_relation() { return catalog_has_views() ? "anon.releases" : "anon.release"; }

std::string taxonomies_relation() { return catalog_has_views() ? "anon.taxonomies" : "anon.taxonomy"; }

CatalogOwnerScope::CatalogOwnerScope(Spi& spi) : uncaught_(std::uncaught_exceptions()) {
    if (!catalog_has_views()) return;
    active_ = true;
    const Oid owner = catalog_owner(spi);
    GetUserIdAndSecContext(&saved_user_, &saved_context_);
    SetUserIdAndSecContext(owner, saved_context_ | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
    try {
        nest_level_ = begin_local_settings({{"search_path", "pg_catalog, pg_temp"}});
    } catch (...) {
        SetUserIdAndSecContext(saved_user_, saved_context_);
        throw;
    }
}

CatalogOwnerScope::~CatalogOwnerScope() {
    if (!active_) return;
    // On the normal path the settings are restored here; an exception on its way out leaves them to the abort (a
    // destructor must not throw), which also restores the role, but the role is restored now for any handler.
    if (std::uncaught_exceptions() == uncaught_) {
        try {
            end_local_settings(nest_level_);
        } catch (...) {}
    }
    SetUserIdAndSecContext(saved_user_, saved_context_);
}

bool role_holds(Oid member, const std::string& role) {
    bool holds = false;
    pg_call([&] {
        const Oid id = get_role_oid(role.c_str(), true);
        holds = OidIsValid(id) && has_privs_of_role(member, id);
    });
    return holds;
}

bool holds_role(const std::string& role) { return role_holds(GetUserId(), role); }

std::string current_role_name() {
    std::string name;
    pg_call([&] { name = GetUserNameFromId(GetUserId(), false); });
    return name;
}

}  // namespace anon::pg
