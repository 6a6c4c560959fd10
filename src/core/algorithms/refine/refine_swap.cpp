// Refine's swaps of rows between two classes (part of the local search, refine_moves.cpp). Single row moves stop
// at classes of exactly k tuples, which cannot give a row away; exchanging a row with a nearby class keeps both
// sizes and still lets each row go where it costs less (on Adult, k=10 0.0425 -> 0.0422 NCP, k=5 0.0266 -> 0.0263,
// for about 10% more search time).
#include "refiner.hpp"

namespace anon::refine_search {

// A row whose leaving would save its class more than it adds to a nearby class, but which the class cannot spare
// (it would fall below k), swaps with the row of that class that lowers the two classes' loss most; both classes
// must still satisfy the model. Only nearby classes the row alone would cost at most twice the saving are tried.
void Refiner::swap_rows(std::vector<Rows>& classes, std::vector<Cluster>& state) {
    const std::size_t m = loss_.columns();
    std::vector<Code> before, after, dbefore, dafter;
    auto common = [&](std::size_t j, Code a, Code b) {
        return a == no_code ? b : b == no_code ? a : loss_.lca(j, a, b);
    };
    // The penalty of the common ancestor of `a` (no_code for none) and the value b.
    auto joint = [&](std::size_t j, Code a, Code b) {
        return a == no_code ? loss_.penalty(j, b) : loss_.joint_penalty(j, a, b);
    };
    std::vector<Code> rest_c(m);
    for (std::size_t c = 0; c < classes.size(); ++c) {
        bool measured = false;  // before and after hold the class's prefixes and suffixes
        for (std::size_t i = 0; i < classes[c].size();) {
            const std::uint32_t r = classes[c][i];
            const double own = state[c].loss();
            ++i;
            if (own <= 0 || state[c].tuples - loss_.tuples(r) >= req_.k()) continue;
            if (!measured) prefix_suffix(classes[c], before, after);
            measured = true;
            double per_tuple = 0;
            for (std::size_t j = 0; j < m; ++j) {
                rest_c[j] = common(j, before[(i - 1) * m + j], after[i * m + j]);
                per_tuple += rest_c[j] == no_code ? 0 : loss_.penalty(j, rest_c[j]);
            }
            const double gain = own - static_cast<double>(state[c].tuples - loss_.tuples(r)) * per_tuple;
            poller_.tick();
            if (gain <= 1e-9 * own) continue;
            double best = 0;
            std::uint32_t bd = 0, bs = 0;
            for (std::uint32_t b : covering_buckets(r))
                for (std::uint32_t d : nearby_.buckets.list(b)) {
                    if (d == c) continue;
                    if (added_nearby(state[d], d, r, 2 * gain) >= 2 * gain) continue;
                    const Rows& dr = classes[d];
                    prefix_suffix(dr, dbefore, dafter);
                    const double own_d = state[d].loss();
                    for (std::size_t x = 0; x < dr.size(); ++x) {
                        const std::uint32_t s = dr[x];
                        const Count tc = state[c].tuples - loss_.tuples(r) + loss_.tuples(s);
                        const Count td = state[d].tuples - loss_.tuples(s) + loss_.tuples(r);
                        if (tc < req_.k() || td < req_.k()) continue;
                        double pc = 0, pd = 0;
                        for (std::size_t j = 0; j < m; ++j) {
                            pc += joint(j, rest_c[j], loss_.code(s, j));
                            pd += joint(j, common(j, dbefore[x * m + j], dafter[(x + 1) * m + j]), loss_.code(r, j));
                        }
                        const double delta = static_cast<double>(tc) * pc + static_cast<double>(td) * pd - own - own_d;
                        if (delta < best - 1e-9 * own) {
                            best = delta;
                            bd = d;
                            bs = s;
                        }
                    }
                }
            if (best >= 0) continue;
            Rows nc, nd;
            for (std::uint32_t x : classes[c])
                if (x != r) nc.push_back(x);
            nc.push_back(bs);
            for (std::uint32_t x : classes[bd])
                if (x != bs) nd.push_back(x);
            nd.push_back(r);
            if (!satisfied(nc) || !satisfied(nd)) continue;
            classes[c].swap(nc);
            classes[bd].swap(nd);
            for (std::size_t e : {c, static_cast<std::size_t>(bd)}) {
                state[e] = Cluster{};
                for (std::uint32_t x : classes[e]) loss_.add(state[e], x);
                reindex(e, state[e]);
            }
            i = 0;
            measured = false;
        }
    }
}

}  // namespace anon::refine_search
