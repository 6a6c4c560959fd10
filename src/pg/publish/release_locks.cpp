#include "release_locks.hpp"

#include <algorithm>
#include <vector>

#include "infra/infra.hpp"

extern "C" {
#include "commands/tablecmds.h"
#include "nodes/makefuncs.h"
#include "storage/lmgr.h"
}

namespace anon::pg {

void lock_release(const OutputName& out, const PublishForm& form) {
    for (const auto& rel : release_relations(out, form))
        pg_call([&] {
            RangeVar* rv = makeRangeVar(pstrdup(rel.schema.c_str()), pstrdup(rel.name.c_str()), -1);
            (void)RangeVarGetRelidExtended(rv, ExclusiveLock, 0, RangeVarCallbackOwnsRelation, nullptr);
        });
}

void lock_release_objects(const OutputName& out, const PublishForm& form) {
    const std::vector<OutputName> relations = release_relations(out, form);
    std::vector<Oid> oids(relations.size(), InvalidOid);
    std::vector<char> held(relations.size(), 0);
    pg_call([&] {
        for (std::size_t i = 0; i < relations.size(); ++i)
            oids[i] = RangeVarGetRelid(
                makeRangeVar(pstrdup(relations[i].schema.c_str()), pstrdup(relations[i].name.c_str()), -1), NoLock,
                true);
        for (;;) {
            std::size_t busy = oids.size();
            for (std::size_t i = 0; i < oids.size() && busy == oids.size(); ++i) {
                if (held[i] || !OidIsValid(oids[i])) continue;
                if (ConditionalLockRelationOid(oids[i], AccessExclusiveLock))
                    held[i] = 1;
                else
                    busy = i;
            }
            if (busy == oids.size()) return;
            for (std::size_t i = 0; i < oids.size(); ++i)
                if (held[i]) UnlockRelationOid(oids[i], AccessExclusiveLock);
            std::fill(held.begin(), held.end(), 0);
            LockRelationOid(oids[busy], AccessExclusiveLock);
            held[busy] = 1;
        }
    });
}

}  // namespace anon::pg
