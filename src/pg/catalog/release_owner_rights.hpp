// Recomputing a stored release with the rights of the role that owns it (issue 40): as PostgreSQL's own REFRESH
// MATERIALIZED VIEW switches to the view's owner, every path that reads a release's source again (anon.refresh,
// anon._source_fingerprint under refresh_if_changed, refresh_report, refresh_all and anon-maintain, the audits that
// recompute a release, the views' population) reads it as the release's owner, so that a function inside the source
// runs with the rights of the role that published it, never the caller's.
#pragma once

#include <string>

#include "infra/infra.hpp"
#include "release_names.hpp"

namespace anon::pg {

// The role that owns a release: the owner of its first existing object, else the role that made it.
Oid release_owner(Spi& spi, const OutputName& out, const PublishForm& form, const std::string& created_by);

// While alive, the running code has the rights of `owner` under SECURITY_RESTRICTED_OPERATION. Refuses (naming the
// role to GRANT) when the caller does not hold the owner's privileges.
class ReleaseOwnerScope {
public:
    ReleaseOwnerScope(const OutputName& out, Oid owner);
    ~ReleaseOwnerScope();
    ReleaseOwnerScope(const ReleaseOwnerScope&) = delete;
    ReleaseOwnerScope& operator=(const ReleaseOwnerScope&) = delete;

    Oid owner() const { return owner_; }
    const std::string& owner_name() const { return owner_name_; }

private:
    Oid owner_;
    std::string owner_name_;
    Oid saved_user_ = InvalidOid;
    int saved_context_ = 0;
};

// Runs `read` as the release's owner; a privilege error there (the owner may no longer read a column the job reads)
// is reported as the owner's, with the release named, and stays insufficient_privilege (status not_permitted).
template <typename F>
auto as_release_owner(const OutputName& out, Oid owner, F&& read);

[[noreturn]] void owner_may_not_read(const OutputName& out, const std::string& owner, const std::string& reason);

template <typename F>
auto as_release_owner(const OutputName& out, Oid owner, F&& read) {
    ReleaseOwnerScope scope(out, owner);
    try {
        return read();
    } catch (const PgError& e) {
        if (e.data() && e.data()->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE)
            owner_may_not_read(out, scope.owner_name(), e.what());
        throw;
    }
}

}  // namespace anon::pg
