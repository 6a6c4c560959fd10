#include "populate.hpp"

#include <vector>

#include "boundary.hpp"
#include "citus_node.hpp"
#include "local_settings.hpp"

extern "C" {
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/guc.h"
}

namespace anon::pg {

bool anon_function_installed(const char* name, std::initializer_list<Oid> argument_types) {
    bool installed = false;
    pg_call([&] {
        std::vector<Oid> arguments(argument_types);
        installed = OidIsValid(LookupFuncName(list_make2(makeString(pstrdup("anon")), makeString(pstrdup(name))),
                                              static_cast<int>(arguments.size()), arguments.data(), true));
    });
    return installed;
}

std::uint64_t populate_release(Spi& spi, const std::string& sql, int expected, bool on_workers) {
    Settings settings{{"enable_mergejoin", "off"}, {"jit", "off"}};
    if (maintenance_work_mem > work_mem) settings.emplace_back("work_mem", std::to_string(maintenance_work_mem) + "kB");
    if (!on_workers) {
        const int nest_level = begin_local_settings(settings);
        const std::uint64_t processed = spi.execute(sql, {}, expected);
        end_local_settings(nest_level);
        return processed;
    }
    // The workers plan and run the shard statements: the settings go there too, and back to the workers' own
    // values (DEFAULT) for the rest of the transaction once the statement is done (citus_node.hpp). They are saved in
    // the nest level as well, so that the SET LOCALs' changes on the coordinator end with it.
    Settings saved = settings;
    saved.emplace_back("citus.propagate_set_commands", "local");
    const int nest_level = begin_local_settings(saved);
    set_local_on_workers(spi, settings);
    const std::uint64_t processed = spi.execute(sql, {}, expected);
    for (auto& setting : settings) setting.second = "DEFAULT";
    set_local_on_workers(spi, settings);
    end_local_settings(nest_level);
    return processed;
}

}  // namespace anon::pg
