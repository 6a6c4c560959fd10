// Who writes anon's catalog and with which rights (issue 40, docs/security.md "Rights and the catalog"). The catalog
// tables belong to the superuser that ran the extension script and no other role may write them: the API writes them
// here, as their owner, after checking the caller's right itself.
#pragma once

#include <string>

#include "infra/infra.hpp"

namespace anon::pg {

// While alive, the running code has the rights of the catalog tables' owner, as a SECURITY DEFINER function of the
// extension would, under SECURITY_RESTRICTED_OPERATION and with search_path = pg_catalog, pg_temp (nothing the
// statements name can resolve to another role's object). Refuses to start when the schema named anon is not the
// extension's own. Restores the caller's role when it ends; an error in between is cleaned up by the abort.
class CatalogOwnerScope {
public:
    explicit CatalogOwnerScope(Spi& spi);
    ~CatalogOwnerScope();
    CatalogOwnerScope(const CatalogOwnerScope&) = delete;
    CatalogOwnerScope& operator=(const CatalogOwnerScope&) = delete;

private:
    Oid saved_user_ = InvalidOid;
    int saved_context_ = 0;
    int nest_level_ = 0;
    int uncaught_ = 0;
    bool active_ = false;  // false on a catalog older than 0.5, whose writes run with the caller's rights
};

// Whether the catalog has the 0.5 views and rights (anon.releases, ...): the library may be updated before ALTER
// EXTENSION anon UPDATE runs, and then works with the older catalog's own rights (row-level security and triggers).
// A catalog lookup, no statement.
bool catalog_has_views();

// The relations to read the catalog through: the views that show the caller what it may see (0.5), else the tables
// themselves (older catalogs filter them with row-level security).
std::string releases_relation();
std::string taxonomies_relation();

// Whether `member` holds `role`'s privileges (false for a role that does not exist).
bool role_holds(Oid member, const std::string& role);

// Whether the current role holds `role`'s privileges.
bool holds_role(const std::string& role);

// The current role's name.
std::string current_role_name();

}  // namespace anon::pg
