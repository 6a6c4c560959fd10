// What the phases of m-invariance (minvariance.hpp) share: where each row's QI values lie, the buckets of tuples
// sharing a signature, and the classes (groups) they are split into. Internal to algorithms/minvariance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "minvariance.hpp"

namespace anon::minvariance {

// Where each row's QI values lie, to keep classes small: per QI and leaf code a place in [0, 1] (its numeric value
// scaled over the table's values, else its pre-order position in the taxonomy), and per row its rank in the
// lexicographic order of those places (the one-dimensional nearness by which new tuples are chosen and placed).
class QiPlaces {
public:
    QiPlaces(const Schema& schema, const FrequencySet& fs);
    float at(std::uint32_t row, std::size_t j) const { return place_[j][fs_.qi_row(row)[j]]; }
    std::uint32_t rank(std::uint32_t row) const { return rank_[row]; }
    std::size_t columns() const { return place_.size(); }

private:
    const FrequencySet& fs_;
    std::vector<std::vector<float>> place_;  // [j][code]
    std::vector<std::uint32_t> rank_;        // [row]
};

// Tuples sharing one signature. Once balanced, each value has `rounds` tuples: its rows (persons holding it) and
// rounds - rows counterfeits.
struct Bucket {
    std::vector<Code> values;                      // the signature's sensitive leaf codes, sorted
    std::vector<std::vector<std::uint32_t>> rows;  // per value, the frequency-set rows (persons) holding it
    Count rounds = 0;
    bool recorded = false;  // its signature was published before (persons carried over), else made now

    Count counterfeits() const;
};

// One class of the version: its persons and the values of its counterfeits.
struct Group {
    std::vector<std::uint32_t> rows;
    std::vector<Code> counterfeits;
    bool fresh = false;  // made from new tuples only: it may take a left-over new tuple lacking from it
};

// Phase 1: the persons present with a recorded signature, in one bucket per signature (sorted by signature), and the
// rows of the others (new tuples).
struct Division {
    std::vector<Bucket> buckets;
    std::vector<std::uint32_t> fresh;
    Count carried_over = 0;
};
Division divide(const MInvarianceInput& in);

// Phase 2: each recorded bucket filled up to the most frequent value's count (its rounds), first with new tuples of
// a missing value nearest its members (taken out of `fresh`), then with counterfeits.
void balance(std::vector<Bucket>& buckets, std::vector<std::uint32_t>& fresh, const FrequencySet& fs,
             const QiPlaces& places);

// Phase 3: the remaining new tuples in buckets of m values: rounds of the m most frequent values left, as many at
// once as keep the rest m-eligible (no value over 1/m of it). Rows of values left over when fewer than m values
// remain go to `left_over`.
std::vector<Bucket> assign(const std::vector<std::uint32_t>& fresh, const FrequencySet& fs, const QiPlaces& places,
                           std::size_t m, std::vector<std::uint32_t>& left_over);

// Phase 4: a balanced bucket split into `rounds` groups of one tuple per value, halving along the QI where its
// members lie widest apart; counterfeits go where their value lacks a member.
void split(const Bucket& bucket, const QiPlaces& places, std::vector<Group>& out);

// Left-over new tuples: each joins the nearest fresh group lacking its value; the rest form groups of one tuple per
// left-over value completed to m values with counterfeits (of the table's most frequent values, then of the other
// leaves of the sensitive taxonomy).
void place_left_over(const std::vector<std::uint32_t>& left_over, const Taxonomy& sensitive, const FrequencySet& fs,
                     const QiPlaces& places, std::size_t m, std::vector<Group>& groups);

}  // namespace anon::minvariance
