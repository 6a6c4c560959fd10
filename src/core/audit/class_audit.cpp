#include "class_audit.hpp"

#include <algorithm>

#include <boost/container/small_vector.hpp>

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
    // The rows in the order of their sensitive combinations (lexicographic, as a map keyed by them would hold them),
    // each run of equal combinations one combination: no allocation for the few rows of most classes (the kept-class
    // check asks for every sub-class that fails, up to one per published row).
    boost::container::small_vector<std::uint32_t, 16> order(rows, rows + n_rows);
    const auto sa_less = [&](std::uint32_t a, std::uint32_t b) {
        return std::lexicographical_compare(fs.sa_row(a), fs.sa_row(a) + fs.n_sa, fs.sa_row(b), fs.sa_row(b) + fs.n_sa);
    };
    std::sort(order.begin(), order.end(), sa_less);
    ClassStatistics s;
    EntropySums sums;
    Count top = 0;
    for (std::size_t i = 0; i < order.size();) {
        Count n = 0;
        std::size_t j = i;
        for (; j < order.size() && !sa_less(order[i], order[j]); ++j) n += fs.count[order[j]];
        sums.add(static_cast<double>(n));
        top = std::max(top, n);
        s.size += n;
        ++s.distinct_sensitive;
        i = j;
    }
    s.entropy = sums.normalized_entropy();
    s.max_share = s.size > 0 ? static_cast<double>(top) / static_cast<double>(s.size) : 0;
    return s;
}

}  // namespace anon
