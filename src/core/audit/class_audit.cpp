#include "class_audit.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "base/base.hpp"
#include "models/models.hpp"

namespace anon {

ClassVerification verify_classes(const FrequencySet& fs, const Grouping& g, const Requirement& req) {
    ClassVerification v;
    v.classes = g.classes();
    Requirement::Scratch scratch;
    ProgressPhase verifying("verify", g.classes());
    for (std::size_t c = 0; c < g.classes(); ++c) {
        Count size = 0;
        for (std::size_t i = 0; i < g.size_of(c); ++i) size += fs.count[g.rows_of(c)[i]];
        v.rows += size;
        v.min_class_size = c == 0 ? size : std::min(v.min_class_size, size);
        if (!req.satisfied(fs, g.rows_of(c), g.size_of(c), scratch)) {
            ++v.violating_classes;
            v.violating_rows += size;
        }
        if ((c & 1023) == 1023) {
            check_interrupts();
            progress(c, 0);
        }
    }
    verifying.finish();
    return v;
}

ClassStatistics class_statistics(const FrequencySet& fs, const std::uint32_t* rows, std::size_t n_rows) {
    std::map<std::vector<Code>, Count> combinations;
    ClassStatistics s;
    for (std::size_t i = 0; i < n_rows; ++i) {
        const std::uint32_t r = rows[i];
        combinations[std::vector<Code>(fs.sa_row(r), fs.sa_row(r) + fs.n_sa)] += fs.count[r];
        s.size += fs.count[r];
    }
    EntropySums sums;
    Count top = 0;
    for (const auto& [_, n] : combinations) {
        sums.add(static_cast<double>(n));
        top = std::max(top, n);
    }
    s.distinct_sensitive = combinations.size();
    s.entropy = sums.normalized_entropy();
    s.max_share = s.size > 0 ? static_cast<double>(top) / static_cast<double>(s.size) : 0;
    return s;
}

}  // namespace anon
