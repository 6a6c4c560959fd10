#include "release_owner_rights.hpp"

#include "base/base.hpp"
#include "infra/infra.hpp"

extern "C" {
#include "utils/acl.h"
}

namespace anon::pg {

Oid release_owner(Spi& spi, const OutputName& out, const PublishForm& form, const std::string& created_by) {
    for (const OutputName& rel : release_relations(out, form)) {
        auto owner = spi.scalar(
            "SELECT c.relowner::pg_catalog.text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid "
            "OPERATOR(pg_catalog.=) c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname "
            "OPERATOR(pg_catalog.=) $2",
            {rel.schema, rel.name});
        if (owner) return static_cast<Oid>(std::stoul(*owner));
    }
    Oid id = InvalidOid;
    pg_call([&] { id = get_role_oid(created_by.c_str(), true); });
    if (!OidIsValid(id))
        throw Error(ErrorKind::insufficient_privilege,
                    "cannot recompute the release " + out.qualified() + ": it has no object left and the role " +
                        quote_ident(created_by) + " that made it no longer exists",
                    {}, "Remove it with anon.drop_release('" + out.qualified() + "').");
    return id;
}

ReleaseOwnerScope::ReleaseOwnerScope(const OutputName& out, Oid owner) : owner_(owner) {
    bool holds = false;
    std::string me;
    pg_call([&] {
        owner_name_ = GetUserNameFromId(owner, false);
        me = GetUserNameFromId(GetUserId(), false);
        holds = has_privs_of_role(GetUserId(), owner);
    });
    if (!holds)
        throw Error(
            ErrorKind::insufficient_privilege,
            "cannot maintain the release " + out.qualified() + ": it is owned by role " + quote_ident(owner_name_) +
                ", and its source is read again only with its owner's rights, by "
                "roles that hold them; GRANT " +
                quote_ident(owner_name_) + " TO " + quote_ident(me) + "; lets " + quote_ident(me) + " maintain it");
    GetUserIdAndSecContext(&saved_user_, &saved_context_);
    SetUserIdAndSecContext(owner, saved_context_ | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
}

ReleaseOwnerScope::~ReleaseOwnerScope() { SetUserIdAndSecContext(saved_user_, saved_context_); }

void owner_may_not_read(const OutputName& out, const std::string& owner, const std::string& reason) {
    throw Error(ErrorKind::insufficient_privilege,
                "the release " + out.qualified() + " is recomputed with the rights of its owner " + quote_ident(owner) +
                    ", who may no longer read what it reads (" + reason + "); the release is left as it was",
                {}, "GRANT the owner SELECT on the source's columns again, or drop the release.");
}

}  // namespace anon::pg
