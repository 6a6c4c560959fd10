// Refine's local search over the finished classes (before the attach pass): single rows move to the class where
// they cost least, and whole classes dissolve into others, whenever the total loss falls and every class keeps
// satisfying the model. The top-down search decides each split alone; these moves repair the classes its early
// splits left badly shaped (on Adult k=10, 4-5% less NCP).
#include <algorithm>
#include <numeric>

#include "refiner.hpp"

namespace anon::refine_search {

// Per column j, the common ancestor of rows [0, i) into before[i * m + j] and of rows [i, size) into
// after[i * m + j] (no_code for none): what a class publishes without its row i comes from before[i] and after[i + 1].
// The first row on each side is its own common ancestor; each next one is looked up with it.
void Refiner::prefix_suffix(const Rows& rows, std::vector<Code>& before, std::vector<Code>& after) const {
    const std::size_t m = loss_.columns(), n = rows.size();
    before.assign((n + 1) * m, no_code);
    after.assign((n + 1) * m, no_code);
    if (n == 0) return;
    std::copy(loss_.row(rows[0]), loss_.row(rows[0]) + m, before.begin() + static_cast<std::ptrdiff_t>(m));
    std::copy(loss_.row(rows[n - 1]), loss_.row(rows[n - 1]) + m,
              after.begin() + static_cast<std::ptrdiff_t>((n - 1) * m));
    for (std::size_t x = 1; x < n; ++x) {
        const Code *q = loss_.row(rows[x]), *prior = before.data() + x * m;
        const Code *p = loss_.row(rows[n - x - 1]), *later = after.data() + (n - x) * m;
        Code *b = before.data() + (x + 1) * m, *a = after.data() + (n - x - 1) * m;
        for (std::size_t j = 0; j < m; ++j) {
            b[j] = loss_.lca(j, prior[j], q[j]);
            a[j] = loss_.lca(j, later[j], p[j]);
        }
    }
}

// Rows of a class that can spare them move, one at a time, to the nearby class (refine_nearby.cpp) whose loss
// grows less than theirs falls; the receiving class must still satisfy the model, the giving one too. What a row's
// leaving saves comes from the common ancestors of the rows before it and after it (prefix and suffix).
void Refiner::move_rows(std::vector<Rows>& classes, std::vector<Cluster>& state) {
    const std::size_t m = loss_.columns();
    Rows rest, grown;
    std::vector<Code> before, after;
    for (std::size_t c = 0; c < classes.size(); ++c) {
        bool measured = false;  // before and after hold the class's prefixes and suffixes
        for (std::size_t i = 0; i < classes[c].size();) {
            const std::uint32_t r = classes[c][i];
            const double own = state[c].loss();
            ++i;
            if (own <= 0 || state[c].tuples - loss_.tuples(r) < req_.k()) continue;
            if (!measured) prefix_suffix(classes[c], before, after);
            measured = true;
            double per_tuple = 0;
            for (std::size_t j = 0; j < m; ++j) {
                const Code b = before[(i - 1) * m + j], e = after[i * m + j];
                if (b != no_code && e != no_code)
                    per_tuple += loss_.joint_penalty(j, b, e);
                else if (b != no_code || e != no_code)  // the first or last row: one side only
                    per_tuple += loss_.penalty(j, b == no_code ? e : b);
            }
            const double gain = own - static_cast<double>(state[c].tuples - loss_.tuples(r)) * per_tuple;
            poller_.tick();
            if (gain <= 1e-9 * own) continue;
            double best = gain * (1 - 1e-9);
            std::size_t to = classes.size();
            // Classes unchanged since the row's last look (its own class unchanged too) were no cheaper home then,
            // with the same saving to beat, and are none now: only the classes changed since are priced.
            const std::uint64_t since = settled_at_[r] != 0 && changed_at_[c] <= settled_at_[r] ? settled_at_[r] : 0;
            // Read once here: the compiler would load them again after each call below.
            const double tuples = static_cast<double>(loss_.tuples(r));
            const Cluster* states = state.data();
            const std::uint64_t* changed_at = changed_at_.data();
            for (std::uint32_t b : covering_buckets(r))
                for (std::uint32_t d : nearby_.buckets.list(b)) {
                    if (d == c || changed_at[d] <= since || tuples * states[d].per_tuple >= best) continue;
                    const double added = added_nearby(states[d], d, r, best);
                    if (added < best) {
                        best = added;
                        to = d;
                    }
                }
            if (to == classes.size()) {
                settled_at_[r] = stamp_;
                continue;
            }
            rest.clear();
            for (std::uint32_t x : classes[c])
                if (x != r) rest.push_back(x);
            grown = classes[to];
            grown.push_back(r);
            // A refused move leaves the row's last settling as it was: the refused home was cheaper, so it changed
            // since.
            if (!satisfied(rest) || !satisfied(grown)) continue;
            classes[to].swap(grown);
            loss_.add(state[to], r);
            reindex(to, state[to]);
            classes[c].swap(rest);
            state[c] = Cluster{};
            for (std::uint32_t x : classes[c]) loss_.add(state[c], x);
            reindex(c, state[c]);
            i = 0;  // the class's loss changed: its rows are looked at again
            measured = false;
        }
    }
}

// The classes' indexes by decreasing penalty per tuple, ties in index order: the order the local search visits them.
std::vector<std::size_t> Refiner::most_generalized_first(const std::vector<Cluster>& state) {
    std::vector<std::size_t> order(state.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return state[a].per_tuple > state[b].per_tuple; });
    return order;
}

// Classes, most generalized first, dissolve when their rows, each sent to the nearby class it costs least in (the
// ones sent before counted), add less loss there than the class loses; every receiving class must still satisfy
// the model.
void Refiner::dissolve(std::vector<Rows>& classes, std::vector<Cluster>& state) {
    const std::vector<std::size_t> order = most_generalized_first(state);
    std::vector<std::pair<std::uint32_t, Cluster>> touched;  // receiving classes as they would become
    std::vector<std::uint32_t> dest;
    Rows grown;
    for (std::size_t c : order) {
        const double own = state[c].loss();
        if (classes[c].empty() || own <= 0) continue;
        touched.clear();
        dest.clear();
        double added = 0;
        for (std::uint32_t r : classes[c]) {
            double best = own - added;
            std::uint32_t to = static_cast<std::uint32_t>(classes.size());
            const double tuples = static_cast<double>(loss_.tuples(r));  // read once, as in move_rows
            for (std::uint32_t b : covering_buckets(r))
                for (std::uint32_t d : nearby_.buckets.list(b)) {
                    if (d == c) continue;
                    const Cluster* s = &state[d];
                    for (const auto& t : touched)
                        if (t.first == d) s = &t.second;
                    if (tuples * s->per_tuple >= best) continue;
                    // A class as the rows sent before would make it still covers r in the key columns.
                    const double covered = s == &state[d] ? nearby_.key_penalty[d] : key_penalty(*s);
                    const double a = loss_.added_loss_covered(*s, r, best, covered, nearby_.others);
                    if (a < best) {
                        best = a;
                        to = d;
                    }
                }
            poller_.tick();
            if (to == classes.size()) break;
            added += best;
            auto it = std::find_if(touched.begin(), touched.end(), [&](const auto& t) { return t.first == to; });
            if (it == touched.end()) it = touched.insert(touched.end(), {to, state[to]});
            loss_.add(it->second, r);
            dest.push_back(to);
        }
        if (dest.size() != classes[c].size() || added >= own * (1 - 1e-9)) continue;
        bool ok = true;
        for (const auto& t : touched) {
            grown = classes[t.first];
            for (std::size_t i = 0; i < dest.size(); ++i)
                if (dest[i] == t.first) grown.push_back(classes[c][i]);
            ok = ok && satisfied(grown);
        }
        if (!ok) continue;
        for (std::size_t i = 0; i < dest.size(); ++i) classes[dest[i]].push_back(classes[c][i]);
        for (const auto& t : touched) {
            state[t.first] = t.second;
            reindex(t.first, state[t.first]);
        }
        classes[c].clear();
        state[c] = Cluster{};
        reindex(c, state[c]);
    }
}

// The quarter of the classes losing most per tuple regrouped with the two partners they merge with most cheaply
// (refine_regroup.cpp), row moves, swaps (refine_swap.cpp), dissolving, row moves (refine_nearby.cpp picks the
// classes offered to a row), then twice the most generalized half regrouped with the three classes their rows
// would join, rows moved, and the classes the dissolving grew to 2k tuples or more split again. Then a shorter
// second round: swaps and dissolving, the index keyed again by the columns the classes now generalize least (each
// row is offered other classes: on Adult k=10 native-country takes workclass's place), rows moved, the most
// generalized eighth regrouped with their rows' homes, rows moved, large classes split again. The shares and
// partners are where it paid on Adult for its time (docs/algorithms.md, step 4).
void Refiner::local_search(std::vector<Rows>& classes) {
    std::vector<Cluster> state(classes.size());
    for (std::size_t c = 0; c < classes.size(); ++c)
        for (std::uint32_t r : classes[c]) loss_.add(state[c], r);
    index_classes(state);
    regroup(classes, state, Partners::cheapest_merge, 2, 0.25);
    move_rows(classes, state);
    swap_rows(classes, state);
    dissolve(classes, state);
    move_rows(classes, state);
    regroup(classes, state, Partners::row_destinations, 3, 0.5);
    regroup(classes, state, Partners::row_destinations, 3, 0.5);
    move_rows(classes, state);
    split_large(classes, state);
    swap_rows(classes, state);
    dissolve(classes, state);
    index_classes(state);
    move_rows(classes, state);
    regroup(classes, state, Partners::row_destinations, 3, 0.125);
    move_rows(classes, state);
    split_large(classes, state);
    classes.erase(std::remove_if(classes.begin(), classes.end(), [](const Rows& c) { return c.empty(); }),
                  classes.end());
}

}  // namespace anon::refine_search
