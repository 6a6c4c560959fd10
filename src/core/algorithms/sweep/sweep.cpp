// SWEEP's steps (Fig. 6 of the paper, reconstructed from Section 4.2): 1 generalize sensitive values of the whole
// table if it violates (tau, l); 2-4 create items V and insert every tuple into its first class; 5-10 take the
// items in order and each item's classes, sweeping tuples of a violating class into their next classes until it
// satisfies (then it closes) or empties; 11 generalize sensitive values of the last class; 12 publish. Tuples move
// as bundles of counts (see sweep_generalize.hpp). A class's outcome depends only on the tuples it holds, not on
// their arrival order or on the other classes of its item, so classes are processed in order of first arrival.
#include "sweep.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "base/base.hpp"
#include "models/models.hpp"
#include "sweep_generalize.hpp"
#include "sweep_groups.hpp"
#include "sweep_order.hpp"
#include "sweep_state.hpp"

namespace anon {

namespace {

// Refuses what SWEEP cannot honor: other than one sensitive column, an importance that is not a permutation of the
// QI columns, individuals (tuples of one person must not share a class, which sweeping ignores).
void check_inputs(const Schema& schema, const FrequencySet& fs, const std::vector<std::size_t>& importance) {
    if (fs.n_sa != 1 || schema.sa_tax.size() != 1)
        bad_argument("sensitive columns for SWEEP", "exactly one", std::to_string(fs.n_sa));
    std::vector<std::size_t> sorted(importance);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::size_t> columns(fs.n_qi);
    std::iota(columns.begin(), columns.end(), std::size_t{0});
    if (sorted != columns)
        bad_argument("importance", "a permutation of the " + std::to_string(fs.n_qi) + " QI column indexes",
                     std::to_string(importance.size()) + " indexes that are not one");
    if (!fs.individual.empty())
        throw Error(ErrorKind::invalid_parameter, "SWEEP does not support params->'individual'");
}

class Sweeper {
public:
    Sweeper(const Schema& schema, const FrequencySet& fs, double tau, int l, const std::vector<std::size_t>& importance,
            const SensitiveDomain& domain)
        : schema_(schema),
          fs_(fs),
          tau_(tau),
          l_(l),
          items_(qi_level_information(schema, fs), importance),
          values_(schema, fs),
          inbox_(items_.size()),
          domain_(domain),
          state_(domain),
          run_end_(static_cast<std::size_t>(schema.sa_tax[0].size())) {
        std::map<std::vector<int>, std::uint32_t> profiles;
        std::vector<int> depths(fs.n_qi);
        for (std::size_t r = 0; r < fs.rows(); ++r) {
            for (std::size_t j = 0; j < fs.n_qi; ++j) depths[j] = schema.qi_tax[j].depth(fs.qi_row(r)[j]);
            auto [it, added] = profiles.emplace(depths, static_cast<std::uint32_t>(successors_.size()));
            if (added) successors_.push_back(items_.successors(depths));
            profile_.push_back(it->second);
        }
        release_.n_qi = fs.n_qi;
        release_.n_sa = 1;
        stats_.items = items_.size();
    }

    // Steps 1 to 12.
    Release run() {
        std::vector<Bundle> table;
        for (std::size_t r = 0; r < fs_.rows(); ++r)
            if (fs_.count[r] > 0) table.push_back({static_cast<std::uint32_t>(r), fs_.sa_row(r)[0], fs_.count[r]});
        load(table);
        stats_.sensitive_generalizations += generalize_sensitive(table, state_, schema_.sa_tax[0], tau_, l_);
        for (const Bundle& b : table) inbox_[successors_[profile_[b.row]][0]].push_back(b);
        const std::size_t last = items_.size() - 1;
        InterruptPoller poller(16);
        std::vector<Bundle> arrivals, members;
        for (std::size_t pos = 0; pos <= last; ++pos) {
            arrivals.clear();
            arrivals.swap(inbox_[pos]);
            if (pos < last && inbox_[pos + 1].empty()) inbox_[pos + 1].swap(inbox_[pos]);  // reuse the buffer
            classes_.build(arrivals, values_, items_.levels(pos));
            for (std::size_t c = 0; c < classes_.size(); ++c) {
                if (pos < last && hopeless(arrivals, c)) {
                    for (const std::uint32_t* i = classes_.begin(c); i != classes_.end(c); ++i)
                        sweep_out(arrivals[*i], pos);
                    continue;
                }
                members.clear();
                for (const std::uint32_t* i = classes_.begin(c); i != classes_.end(c); ++i)
                    members.push_back(arrivals[*i]);
                if (pos < last)
                    process(members, pos);
                else
                    finish(members, pos);
            }
            poller.tick();
            progress(pos + 1, last + 1);
        }
        stats_.classes = release_.classes();
        return std::move(release_);
    }

    const SweepStats& stats() const { return stats_; }

private:
    // Makes `state_` hold exactly these bundles (merged so that each value's tuples form one run).
    void load(std::vector<Bundle>& bundles) {
        merge_bundles(bundles);
        state_.clear();
        for (const Bundle& b : bundles) state_.add(b.sa, b.count);
    }

    // findNextEC (Section 4.5): the bundle goes to the first later item that fits its row; its class there is
    // formed when that item's turn comes. Tuples swept one by one from one bundle join again.
    void sweep_out(const Bundle& b, std::size_t pos) {
        std::vector<Bundle>& box = inbox_[successors_[profile_[b.row]][pos + 1]];
        if (!box.empty() && box.back().row == b.row && box.back().sa == b.sa)
            box.back().count += b.count;
        else
            box.push_back(b);
        stats_.swept_tuples += b.count;
    }

    // True when class c of the item's arrivals covers fewer than l base values: it cannot satisfy whatever tuples it
    // loses, so it is swept whole. Otherwise leaves `state_` holding the class's counts. The base values under each
    // bundle's value, summed, bound the covered ones and settle most classes without counting.
    bool hopeless(const std::vector<Bundle>& arrivals, std::size_t c) {
        const auto l = static_cast<std::size_t>(l_);
        std::size_t bound = 0;
        for (const std::uint32_t* i = classes_.begin(c); i != classes_.end(c) && bound < l; ++i) {
            const auto [first, last] = domain_.under(arrivals[*i].sa);
            bound += last - first;
        }
        if (bound < l) return true;
        state_.clear();
        for (const std::uint32_t* i = classes_.begin(c); i != classes_.end(c); ++i)
            state_.add(arrivals[*i].sa, arrivals[*i].count);
        return state_.covered() < l;
    }

    // Steps 6-10 for one class of a non-last item, whose counts `state_` holds: sweep one tuple at a time (Section
    // 4.4) until the class satisfies and closes, or sweep all that is left once no removal can help or too few
    // base values remain covered.
    void process(std::vector<Bundle>& members, std::size_t pos) {
        merge_bundles(members);
        for (std::size_t i = 0; i < members.size(); ++i) run_end_[members[i].sa] = i + 1;
        while (state_.covered() >= static_cast<std::size_t>(l_)) {
            if (state_.satisfied(tau_, l_)) {
                close(members, pos);
                return;
            }
            if (!state_.removal_helps()) break;
            const Code v = state_.dominant_cover();
            Bundle& b = members[run_end_[v] - 1];  // the value's last bundle with tuples
            --b.count;
            if (b.count == 0) --run_end_[v];
            state_.add(v, -1);
            sweep_out({b.row, v, 1}, pos);
        }
        for (const Bundle& b : members)
            if (b.count > 0) sweep_out(b, pos);
    }

    // Step 11: the last class generalizes sensitive values until it satisfies, then closes.
    void finish(std::vector<Bundle>& members, std::size_t pos) {
        load(members);
        stats_.sensitive_generalizations += generalize_sensitive(members, state_, schema_.sa_tax[0], tau_, l_);
        close(members, pos);
    }

    // Step 10: the class is published with its QI value at the item's levels and its tuples, by row.
    void close(std::vector<Bundle>& members, std::size_t pos) {
        const auto cls = static_cast<std::uint32_t>(closed_++);
        for (std::size_t j = 0; j < fs_.n_qi; ++j)
            release_.class_qi.push_back(values_.at(members[0].row, j, items_.level(pos, j)));
        std::sort(members.begin(), members.end(),
                  [](const Bundle& a, const Bundle& b) { return a.row != b.row ? a.row < b.row : a.sa < b.sa; });
        for (const Bundle& b : members) {
            if (b.count == 0) continue;
            release_.pieces.push_back({b.row, cls, b.count});
            release_.piece_sa.push_back(b.sa);
            if (b.sa != fs_.sa_row(b.row)[0]) stats_.generalized_sensitive_tuples += b.count;
        }
    }

    const Schema& schema_;
    const FrequencySet& fs_;
    double tau_;
    int l_;
    SweepItems items_;
    RowValues values_;
    ItemClasses classes_;
    std::vector<std::vector<Bundle>> inbox_;  // per item: the bundles swept into it
    const SensitiveDomain& domain_;
    SensitiveCounts state_;
    std::vector<std::uint32_t> profile_;                  // per row: its leaf-depth profile
    std::vector<std::vector<std::uint32_t>> successors_;  // per profile: SweepItems::successors
    std::vector<std::size_t> run_end_;                    // per sensitive node: one past its run's last bundle
    std::size_t closed_ = 0;
    Release release_;
    SweepStats stats_;
};

}  // namespace

Release sweep(const Schema& schema, const FrequencySet& fs, double tau, int l,
              const std::vector<std::size_t>& importance, SweepStats* stats) {
    check_inputs(schema, fs, importance);
    const Histogram table = whole_table_histogram(fs, 0);  // fixes the weights w(a) as the model checker sees them
    const SensitiveDomain domain = tau_l_domain(schema.sa_tax[0], &table);
    check_tau_l_range(tau, l, static_cast<long long>(domain.size()), tau_l_params(schema.sa_names[0]));
    Sweeper sweeper(schema, fs, tau, l, importance, domain);
    Release release = sweeper.run();
    if (stats) *stats = sweeper.stats();
    return release;
}

}  // namespace anon
