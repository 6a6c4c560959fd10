// A release in core terms: equivalence classes with their generalized quasi-identifier values, and the pieces
// that say how many tuples of each frequency-set combination were published in which class. Every algorithm
// produces one; metrics, verification and materialization read it.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "frequency_set.hpp"

namespace anon {

struct Release {
    // Tuples of frequency-set row `row` published in class `cls`. Tuples of one combination may be spread
    // over several classes (local recoding).
    struct Piece {
        std::uint32_t row;
        std::uint32_t cls;
        Count count;
    };

    std::size_t n_qi = 0;
    std::size_t n_sa = 0;
    std::vector<Code> class_qi;  // [cls * n_qi + j]: the taxonomy node published for QI j in class cls
    // Optional tight numeric ranges [min, max] published instead of the node ([cls * n_qi + j]); NaN when unused.
    std::vector<std::pair<double, double>> class_range;
    std::vector<Piece> pieces;   // grouped by class (all pieces of a class are contiguous)
    std::vector<Code> piece_sa;  // [piece * n_sa + j]: the published sensitive node (the leaf unless generalized)
    Count suppressed = 0;        // tuples left out of the release (only with max_suppression)
    std::vector<std::pair<std::uint32_t, Count>> suppressed_rows;  // (frequency-set row, tuples) left out
    std::optional<std::vector<int>> levels;                        // full-domain recoding: the level of each QI
    // Made-up tuples published in a class (m-invariance's counterfeits, issue 42): `count` tuples of class `cls`
    // with the sensitive leaves counterfeit_sa[i * n_sa ...]; none for other algorithms. They count as published
    // tuples of their class wherever a class's tuples are counted or checked.
    struct Counterfeit {
        std::uint32_t cls;
        Count count;
    };
    std::vector<Counterfeit> counterfeits;
    std::vector<Code> counterfeit_sa;  // [i * n_sa + j]

    std::size_t classes() const { return n_qi == 0 ? (pieces.empty() ? 0 : 1) : class_qi.size() / n_qi; }
    // Bytes its arrays hold (for the job's memory accounting).
    std::uint64_t bytes() const;
    // Tuples in each class, counterfeits included.
    std::vector<Count> class_sizes() const;
    // Counterfeit tuples in all classes.
    Count counterfeit_tuples() const;
    // True when QI j of class cls publishes a tight range rather than its taxonomy node's label.
    bool has_range(std::size_t cls, std::size_t j) const {
        return !class_range.empty() && !std::isnan(class_range[cls * n_qi + j].first);
    }
    // Published label of QI j in class c ("[20,30)" style for tight ranges, else the node's label).
    std::string qi_label(const Schema& schema, std::size_t cls, std::size_t j) const;
};

}  // namespace anon
