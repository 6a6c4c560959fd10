#include "grouping.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "base/base.hpp"

namespace anon {

namespace {

// Mixes a 64-bit key into a well-spread hash (splitmix64 finalizer).
inline std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

}  // namespace

FullDomainGrouper::FullDomainGrouper(const Schema& schema, const FrequencySet& fs) : schema_(schema), fs_(fs) {
    const std::size_t q = fs.n_qi;
    columns_.resize(q);
    row_slot_.resize(fs.rows() * q);
    for (std::size_t j = 0; j < q; ++j) {
        const Taxonomy& tax = schema.qi_tax[j];
        Column& col = columns_[j];
        // The codes occurring in column j, ascending, and each row's slot among them.
        std::vector<std::uint32_t> slot_of(tax.size(), UINT32_MAX);
        std::vector<Code> present;
        for (std::size_t r = 0; r < fs.rows(); ++r) slot_of[fs.qi_row(r)[j]] = 0;
        for (Code c = 0; c < tax.size(); ++c)
            if (slot_of[c] == 0) {
                slot_of[c] = static_cast<std::uint32_t>(present.size());
                present.push_back(c);
            }
        for (std::size_t r = 0; r < fs.rows(); ++r) row_slot_[r * q + j] = slot_of[fs.qi_row(r)[j]];
        // Level by level, each occurring code's ancestor moves up to the level's depth; generalized values are
        // numbered in order of the first occurring code (ascending) that reaches them.
        col.dense.resize(static_cast<std::size_t>(tax.height()) + 1);
        col.domain.resize(col.dense.size());
        std::vector<Code> ancestor(present);
        std::vector<std::uint32_t> index_of_node(tax.size(), UINT32_MAX);
        std::vector<Code> numbered;
        for (int level = 0; level <= tax.height(); ++level) {
            const int depth = std::max(0, tax.height() - level);
            auto& dense = col.dense[level];
            dense.resize(present.size());
            std::uint32_t next = 0;
            for (std::size_t s = 0; s < present.size(); ++s) {
                Code& g = ancestor[s];
                g = tax.ancestor_at_depth(g, depth);  // a node filling several levels stays up to its top one
                if (index_of_node[g] == UINT32_MAX) {
                    index_of_node[g] = next++;
                    numbered.push_back(g);
                }
                dense[s] = index_of_node[g];
            }
            for (Code g : numbered) index_of_node[g] = UINT32_MAX;
            numbered.clear();
            col.domain[level] = std::max<std::uint32_t>(next, 1);
        }
    }
}

std::uint64_t Grouping::bytes() const { return heap_bytes(class_of_row) + heap_bytes(begin) + heap_bytes(members); }

std::uint64_t FullDomainGrouper::bytes() const {
    std::uint64_t b = heap_bytes(keys_) + heap_bytes(table_keys_) + heap_bytes(table_ids_) + heap_bytes(table_stamp_) +
                      heap_bytes(row_slot_) + heap_bytes(class_tuples_);
    for (const Column& c : columns_) {
        b += heap_bytes(c.domain);
        for (const auto& d : c.dense) b += heap_bytes(d);
    }
    return b;
}

Code FullDomainGrouper::generalized(std::size_t col, int level, Code code) const {
    return schema_.qi_tax[col].generalize(code, level);
}

void FullDomainGrouper::group(const std::vector<int>& levels, Grouping& out) {
    finish_grouping(assign_ids(levels, out), out);
}

bool FullDomainGrouper::group_unless_small(const std::vector<int>& levels, Count k, Count budget, Grouping& out) {
    const std::size_t n_classes = assign_ids(levels, out);
    if (k > 1) {
        class_tuples_.assign(n_classes, 0);
        for (std::size_t r = 0; r < fs_.rows(); ++r) class_tuples_[out.class_of_row[r]] += fs_.count[r];
        Count small = 0;
        for (Count tuples : class_tuples_)
            if (tuples < k) small += tuples;
        if (small > budget) return false;
    }
    finish_grouping(n_classes, out);
    return true;
}

std::size_t FullDomainGrouper::assign_ids(const std::vector<int>& levels, Grouping& out) {
    const std::size_t n = fs_.rows(), q = fs_.n_qi;
    // Mixed-radix key of the generalized values; when the key space overflows 64 bits, fold column by column
    // through a class-id map instead.
    long double space = 1;
    for (std::size_t j = 0; j < q; ++j) space *= columns_[j].domain[levels[j]];
    keys_.resize(n);
    InterruptPoller poll;
    if (space < 1.8e19L) {
        std::vector<std::uint64_t> stride(q);
        std::uint64_t s = 1;
        for (std::size_t j = 0; j < q; ++j) {
            stride[j] = s;
            s *= columns_[j].domain[levels[j]];
        }
        std::vector<const std::uint32_t*> dense(q);
        for (std::size_t j = 0; j < q; ++j) dense[j] = columns_[j].dense[levels[j]].data();
        for (std::size_t r = 0; r < n; ++r) {
            const std::uint32_t* slot = &row_slot_[r * q];
            std::uint64_t key = 0;
            for (std::size_t j = 0; j < q; ++j) key += dense[j][slot[j]] * stride[j];
            keys_[r] = key;
            poll.tick();
        }
        return assign_classes(keys_, static_cast<std::uint64_t>(space), out);
    }
    // Fold: class id after column j = id of (class id after column j-1, value of column j).
    std::vector<std::uint32_t> ids(n, 0);
    std::uint64_t classes = 1;
    for (std::size_t j = 0; j < q; ++j) {
        const std::uint32_t* dense = columns_[j].dense[levels[j]].data();
        const std::uint64_t width = columns_[j].domain[levels[j]];
        for (std::size_t r = 0; r < n; ++r) keys_[r] = ids[r] * width + dense[row_slot_[r * q + j]];
        classes = assign_classes(keys_, classes * width, out);
        for (std::size_t r = 0; r < n; ++r) ids[r] = out.class_of_row[r];
    }
    return classes;
}

std::size_t FullDomainGrouper::assign_classes(const std::vector<std::uint64_t>& keys, std::uint64_t key_space,
                                              Grouping& out) {
    const std::size_t n = keys.size();
    out.class_of_row.resize(n);
    std::uint32_t next = 0;
    if (++stamp_ == 0) {  // stamp wrapped: clear the table once
        std::fill(table_stamp_.begin(), table_stamp_.end(), 0);
        stamp_ = 1;
    }
    if (key_space <= std::max<std::uint64_t>(1u << 16, 2 * n)) {
        // Small key space: index directly by key.
        if (table_stamp_.size() < key_space) {
            table_stamp_.assign(key_space, 0);
            table_ids_.assign(key_space, 0);
        }
        for (std::size_t r = 0; r < n; ++r) {
            std::uint64_t k = keys[r];
            if (table_stamp_[k] != stamp_) {
                table_stamp_[k] = stamp_;
                table_ids_[k] = next++;
            }
            out.class_of_row[r] = table_ids_[k];
        }
    } else {
        // Open addressing with linear probing, capacity a power of two at least twice the rows.
        std::size_t cap = 1;
        while (cap < 2 * n) cap <<= 1;
        if (table_stamp_.size() < cap) {
            table_stamp_.assign(cap, 0);
            table_ids_.assign(cap, 0);
            table_keys_.assign(cap, 0);
        } else if (table_keys_.size() < table_stamp_.size()) {
            table_keys_.resize(table_stamp_.size());
        }
        cap = table_stamp_.size();
        // cap is a power of two: every resize above uses one or the direct-index size, so round down.
        std::size_t mask = 1;
        while (mask * 2 <= cap) mask *= 2;
        mask -= 1;
        for (std::size_t r = 0; r < n; ++r) {
            std::uint64_t k = keys[r];
            std::size_t slot = mix(k) & mask;
            while (table_stamp_[slot] == stamp_ && table_keys_[slot] != k) slot = (slot + 1) & mask;
            if (table_stamp_[slot] != stamp_) {
                table_stamp_[slot] = stamp_;
                table_keys_[slot] = k;
                table_ids_[slot] = next++;
            }
            out.class_of_row[r] = table_ids_[slot];
        }
    }
    return next;
}

void finish_grouping(std::size_t n_classes, Grouping& out) {
    const std::size_t n = out.class_of_row.size();
    out.begin.assign(n_classes + 1, 0);
    for (std::size_t r = 0; r < n; ++r) ++out.begin[out.class_of_row[r] + 1];
    for (std::size_t c = 0; c < n_classes; ++c) out.begin[c + 1] += out.begin[c];
    out.members.resize(n);
    std::vector<std::uint32_t> fill(out.begin.begin(), out.begin.end() - 1);
    for (std::size_t r = 0; r < n; ++r) out.members[fill[out.class_of_row[r]]++] = static_cast<std::uint32_t>(r);
}

void group_by_codes(const FrequencySet& fs, Grouping& out) {
    std::map<std::vector<Code>, std::uint32_t> ids;
    out.class_of_row.resize(fs.rows());
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        std::vector<Code> key(fs.qi_row(r), fs.qi_row(r) + fs.n_qi);
        auto it = ids.emplace(std::move(key), static_cast<std::uint32_t>(ids.size())).first;
        out.class_of_row[r] = it->second;
    }
    finish_grouping(ids.size(), out);
}

}  // namespace anon
