// The pairing of a next version's classes with the last version's (part (a) of check_next_version): each next
// class with the old class sharing most tuples, counted per QI combination.
#include <algorithm>

#include "republication_parts.hpp"

namespace anon {

namespace {

// A (q, class, tuples) entry of a version: the tuples of combination q in a class.
struct QClass {
    ValueHash q;
    std::uint32_t cls;
    Count count;
};

// The snapshot's real members (q != 0) as (q, class, tuples), aggregated and sorted by q then class.
std::vector<QClass> q_class_counts(const VersionSnapshot& s) {
    std::vector<QClass> out;
    out.reserve(s.members());
    for (std::size_t c = 0; c < s.classes(); ++c)
        for (std::uint32_t m = s.class_begin[c]; m < s.class_begin[c + 1]; ++m)
            if (s.member_q[m] != 0) out.push_back({s.member_q[m], static_cast<std::uint32_t>(c), s.member_count[m]});
    std::sort(out.begin(), out.end(),
              [](const QClass& a, const QClass& b) { return a.q != b.q ? a.q < b.q : a.cls < b.cls; });
    std::size_t w = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (w > 0 && out[w - 1].q == out[i].q && out[w - 1].cls == out[i].cls)
            out[w - 1].count += out[i].count;
        else
            out[w++] = out[i];
    }
    out.resize(w);
    return out;
}

// Calls visit(a, a_end, b, b_end) for each q both lists hold (sorted by q), with the ranges of its entries.
template <class Visit>
void for_each_common_q(const std::vector<QClass>& old, const std::vector<QClass>& now, Visit visit) {
    InterruptPoller poller;
    for (std::size_t a = 0, b = 0; a < old.size() && b < now.size();) {
        if (old[a].q < now[b].q) {
            ++a;
        } else if (now[b].q < old[a].q) {
            ++b;
        } else {
            std::size_t a_end = a, b_end = b;
            while (a_end < old.size() && old[a_end].q == old[a].q) ++a_end;
            while (b_end < now.size() && now[b_end].q == now[b].q) ++b_end;
            visit(a, a_end, b, b_end);
            a = a_end;
            b = b_end;
            poller.tick();
        }
    }
}

// The tuples each (next class, old class) pair shares through each q, one entry per q and pair.
struct Shared {
    std::uint32_t now, old;
    Count tuples;
};

// All of them, charged to the memory budget first: a q spread over many classes in both versions makes many pairs.
std::vector<Shared> shared_tuples(const std::vector<QClass>& old, const std::vector<QClass>& now,
                                  MemoryCharge& charge) {
    std::uint64_t pairs = 0;
    for_each_common_q(old, now, [&](std::size_t a, std::size_t a_end, std::size_t b, std::size_t b_end) {
        pairs += std::uint64_t{a_end - a} * (b_end - b);
    });
    charge.resize(pairs * sizeof(Shared), "the class pairs of a next version's check");
    std::vector<Shared> shared;
    shared.reserve(static_cast<std::size_t>(pairs));
    for_each_common_q(old, now, [&](std::size_t a, std::size_t a_end, std::size_t b, std::size_t b_end) {
        for (std::size_t i = b; i < b_end; ++i)
            for (std::size_t k = a; k < a_end; ++k)
                shared.push_back({now[i].cls, old[k].cls, std::min(now[i].count, old[k].count)});
    });
    return shared;
}

}  // namespace

std::vector<std::int64_t> pair_classes(const VersionSnapshot& last, const VersionSnapshot& next) {
    MemoryCharge charge;
    std::vector<Shared> shared = shared_tuples(q_class_counts(last), q_class_counts(next), charge);
    std::sort(shared.begin(), shared.end(),
              [](const Shared& x, const Shared& y) { return x.now != y.now ? x.now < y.now : x.old < y.old; });
    std::vector<std::int64_t> partner(next.classes(), -1);
    std::vector<Count> best(next.classes(), 0);
    for (std::size_t i = 0; i < shared.size();) {
        Count tuples = 0;
        std::size_t end = i;
        for (; end < shared.size() && shared[end].now == shared[i].now && shared[end].old == shared[i].old; ++end)
            tuples += shared[end].tuples;
        if (tuples > best[shared[i].now]) {  // ascending old index: a tie keeps the lower one
            best[shared[i].now] = tuples;
            partner[shared[i].now] = shared[i].old;
        }
        i = end;
    }
    return partner;
}

}  // namespace anon
