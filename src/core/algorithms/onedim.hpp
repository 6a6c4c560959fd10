// The one-dimensional l-diversity algorithm of Ghinita et al. ("Fast data anonymization with low information loss",
// VLDB 2007), the "1DLD" baseline of the (tau, l)-diversity paper (Section 5.1.2): quasi-identifiers are mapped to
// one dimension by a Hilbert space-filling curve, tuples are bucketized by sensitive value and kept sorted by that
// key, and groups of l tuples from l different buckets are formed greedily from the smallest keys; each group is
// published with its minimally generalized QI values.
#pragma once

#include <cstdint>
#include <vector>

#include "data/data.hpp"
#include "local_recoding.hpp"

namespace anon {

// The Hilbert index of a point with coordinates in [0, 2^bits) per dimension (1 <= bits <= 32), by Skilling's
// algorithm ("Programming the Hilbert curve", AIP 2004): the axes are transformed in place into the curve's
// "transpose", whose bits, interleaved from the most significant level down (dimension 0 first), are the index.
// The d * bits-bit index is returned as a big-endian multiword number, left-aligned: word 0 holds its 64 most
// significant bits and the last word is padded with zero bits, so indexes of one (d, bits) compare
// lexicographically by words; for d * bits <= 64 the index is word 0 >> (64 - d * bits). No dimensions: no words.
std::vector<std::uint64_t> hilbert_index(std::vector<std::uint32_t> coords, int bits);

// 1DLD on a frequency set with exactly one sensitive column.
//
// Key: each QI value becomes a rank, densely numbered over the values occurring in the column: numeric columns
// (numeric_column) by value, categorical ones by the pre-order rank of the leaf (Taxonomy::preorder), which orders
// leaves exactly as the paper's in-order traversal does (every depth-first traversal visits the leaves in the same
// order). Ranks are stretched over [0, 2^bits - 1], bits = ceil(log2) of the largest number of distinct values of a
// column (at most 32), so that every QI spans the whole grid as it spans [0, 1] in the certainty penalty (on Adult
// this lowers the NCP at l = 5 from 0.45 to 0.42); the key of a row is the Hilbert index of its stretched ranks, a
// multiword key of n_qi * bits bits, so many QIs lose no resolution.
//
// Grouping: buckets hold the tuples of each sensitive value sorted by key (ties by row). Each round takes the first
// tuple of l different buckets: those whose head keys are smallest, except that the largest buckets are forced in
// when leaving them out would leave tuples that cannot form one group fewer. With n tuples left and q = floor(n/l),
// they can form q groups of l distinct values iff sum over buckets of min(count, q) >= l q; a round keeps that true
// iff it leaves out at most (that sum - l q) buckets of count >= q. Hence a table whose values each cover at most
// 1/l of it (eligible for simple l-diversity) yields floor(n/l) groups and n mod l residual tuples; for other tables
// the largest buckets are taken (up to l) whenever the condition already fails, and the rounds stop when fewer than
// l buckets have tuples. Each residual tuple joins the group nearest to its key (groups placed by their smallest
// key, distances on the top 64 key bits) among those that lack its value and have received no other residual of
// that value, else the nearest group. Every group has at least l distinct values (distinct l-diversity); for an
// eligible table no group repeats a value (simple l-diversity), since a value of count c <= floor(n/l) is missing
// from enough groups to take its residuals. Releases via release_from_groups with options.tight_ranges; options.l is
// not read (l is the argument); fs.individual is ignored.
//
// Cost: O(n log m) for the rounds over n tuples and m sensitive values, on counts (a row's tuples are taken one at a
// time without expanding rows), plus O(g log g + l n + r log g) to place r residuals among g groups. Throws
// Error(invalid_parameter) for l < 1 or not exactly one sensitive column, Error(not_satisfiable) when not a single
// group can be formed (fewer than l distinct sensitive values).
Release onedim(const Schema& schema, const FrequencySet& fs, int l, const LocalOptions& options);

}  // namespace anon
