#include "local_settings.hpp"

#include "boundary.hpp"

extern "C" {
#include "utils/guc.h"
}

namespace anon::pg {

int begin_local_settings(const Settings& settings) {
    int nest_level = 0;
    pg_call([&] {
        nest_level = NewGUCNestLevel();
        for (const auto& [name, value] : settings)
            (void)set_config_option(name.c_str(), value.c_str(), PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
                                    false);
    });
    return nest_level;
}

void end_local_settings(int nest_level) {
    pg_call([&] { AtEOXact_GUC(true, nest_level); });
}

}  // namespace anon::pg
