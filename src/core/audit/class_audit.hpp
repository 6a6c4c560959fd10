// Audits of a published table's classes, computed from its frequency set (each distinct combination of the
// published QI values, or class ids, is a class): whether every class satisfies a requirement (anon.verify) and
// per-class statistics of the sensitive values (anon.equivalence_classes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "data/data.hpp"
#include "models/models.hpp"

namespace anon {

struct ClassVerification {
    Count rows = 0;
    std::size_t classes = 0;
    Count min_class_size = 0;
    std::size_t violating_classes = 0;
    Count violating_rows = 0;
    bool satisfied() const { return violating_classes == 0; }
};

// Checks every class of `g` against the requirement; polls for interrupts and reports progress as it goes.
ClassVerification verify_classes(const FrequencySet& fs, const Grouping& g, const Requirement& req);

struct ClassStatistics {
    Count size = 0;
    std::size_t distinct_sensitive = 0;  // distinct combinations of the sensitive columns
    double entropy = 0;                  // of those combinations, natural log
    double max_share = 0;                // the most frequent combination's share of the class
};

// The statistics of the class made of the given frequency-set rows.
ClassStatistics class_statistics(const FrequencySet& fs, const std::uint32_t* rows, std::size_t n_rows);

}  // namespace anon
