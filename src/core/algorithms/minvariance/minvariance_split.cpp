// Phase 4 of m-invariance: a balanced bucket split into classes of one tuple per value, by recursive halving along
// the QI where its members lie widest apart (minvariance_internal.hpp).
#include <algorithm>
#include <utility>

#include "base/base.hpp"
#include "minvariance_internal.hpp"

namespace anon::minvariance {

namespace {

// A part of a bucket being split: `rounds` tuples per value, the rows of value v being rows[v][begin[v], end[v]).
struct Part {
    Count rounds;
    std::vector<std::size_t> begin, end;
};

class Splitter {
public:
    Splitter(const Bucket& bucket, const QiPlaces& places, std::vector<Group>& out)
        : bucket_(bucket), places_(places), out_(out), rows_(bucket.rows) {}

    void run() {
        Part all{bucket_.rounds, std::vector<std::size_t>(rows_.size(), 0), {}};
        for (const auto& r : rows_) all.end.push_back(r.size());
        split(all);
    }

private:
    // Splits a part into its rounds' groups: halved along the QI where its members lie widest apart or, for the
    // small parts near the groups (where it matters most and costs little), along the QI whose halves lie least wide.
    void split(const Part& part) {
        poller_.tick();
        if (part.rounds == 1) {
            emit(part);
            return;
        }
        const std::vector<std::uint32_t> all = members(part);
        if (all.empty()) throw Error(ErrorKind::internal, "m-invariance: a part of a bucket without persons");
        std::size_t j = widest_column(all);
        if (part.rounds <= small_part) {
            double best = -1;
            for (std::size_t c = 0; c < places_.columns(); ++c) {
                const auto [left, right] = halve(part, c);
                const double width = total_width(members(left)) + total_width(members(right));
                if (best < 0 || width < best) {
                    best = width;
                    j = c;
                }
            }
        }
        const auto [left, right] = halve(part, j);
        split(left);
        split(right);
    }

    // The part's members.
    std::vector<std::uint32_t> members(const Part& part) const {
        std::vector<std::uint32_t> out;
        for (std::size_t v = 0; v < rows_.size(); ++v)
            out.insert(out.end(), rows_[v].begin() + part.begin[v], rows_[v].begin() + part.end[v]);
        return out;
    }

    // The part's two halves along QI j (its rows reordered so that each value's left members come first): half its
    // rounds each, the pivot leaving as many members on each side.
    std::pair<Part, Part> halve(const Part& part, std::size_t j) {
        auto before = [&](std::uint32_t a, std::uint32_t b) {
            const float pa = places_.at(a, j), pb = places_.at(b, j);
            return pa != pb ? pa < pb : places_.rank(a) < places_.rank(b);
        };
        const Count rounds_left = part.rounds / 2, rounds_right = part.rounds - rounds_left;
        std::vector<std::uint32_t> all = members(part);
        const auto at = static_cast<std::ptrdiff_t>((all.size() * rounds_left) / part.rounds);
        std::nth_element(all.begin(), all.begin() + at, all.end(), before);
        const std::uint32_t pivot = all[at];
        Part left{rounds_left, part.begin, part.begin}, right{rounds_right, part.begin, part.end};
        for (std::size_t v = 0; v < rows_.size(); ++v) {
            auto first = rows_[v].begin() + part.begin[v], last = rows_[v].begin() + part.end[v];
            const auto real = static_cast<Count>(last - first);
            const auto below =
                static_cast<Count>(std::count_if(first, last, [&](std::uint32_t r) { return before(r, pivot); }));
            // As many members left as lie below the pivot, within what each side's rounds can hold; counterfeits
            // fill the rest of each side.
            const Count to_left = std::max(std::min(below, rounds_left), real - rounds_right);
            std::nth_element(first, first + to_left, last, before);
            left.end[v] = part.begin[v] + static_cast<std::size_t>(to_left);
            right.begin[v] = left.end[v];
        }
        return {left, right};
    }

    // The sum over the QIs of how wide apart these rows lie.
    double total_width(const std::vector<std::uint32_t>& rows) const {
        double total = 0;
        for (std::size_t j = 0; j < places_.columns(); ++j) total += width(rows, j);
        return total;
    }

    // How wide apart the rows lie on QI j (the range of their places).
    float width(const std::vector<std::uint32_t>& rows, std::size_t j) const {
        float lo = 2, hi = -1;
        for (std::uint32_t r : rows) {
            lo = std::min(lo, places_.at(r, j));
            hi = std::max(hi, places_.at(r, j));
        }
        return rows.empty() ? 0 : hi - lo;
    }

    // The QI along which the members lie widest apart.
    std::size_t widest_column(const std::vector<std::uint32_t>& rows) const {
        std::size_t best = 0;
        for (std::size_t j = 1; j < places_.columns(); ++j)
            if (width(rows, j) > width(rows, best)) best = j;
        return best;
    }

    // A part of one round: one group, a counterfeit for each value without a member.
    void emit(const Part& part) {
        Group g;
        for (std::size_t v = 0; v < rows_.size(); ++v) {
            if (part.end[v] > part.begin[v])
                g.rows.push_back(rows_[v][part.begin[v]]);
            else
                g.counterfeits.push_back(bucket_.values[v]);
        }
        g.fresh = !bucket_.recorded;
        out_.push_back(std::move(g));
    }

    const Bucket& bucket_;
    const QiPlaces& places_;
    std::vector<Group>& out_;
    std::vector<std::vector<std::uint32_t>> rows_;  // the bucket's rows, reordered as parts are split
    InterruptPoller poller_{256};
    // Parts of at most this many rounds try every QI to halve along.
    static constexpr Count small_part = 16;
};

}  // namespace

void split(const Bucket& bucket, const QiPlaces& places, std::vector<Group>& out) {
    if (bucket.rounds == 0) return;
    Splitter(bucket, places, out).run();
}

}  // namespace anon::minvariance
