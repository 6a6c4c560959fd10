#include "refine.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "refiner.hpp"

namespace anon {

namespace refine_search {

std::size_t span_memo_budget(std::size_t rows) {
    const std::uint64_t wanted = static_cast<std::uint64_t>(span_memo_bytes_per_row) * rows;
    const MemoryBudget* budget = current_memory_budget();
    if (budget == nullptr || budget->limit() == 0) return static_cast<std::size_t>(wanted);
    const std::uint64_t half = budget->limit() / 2;
    return budget->current() >= half ? 0 : static_cast<std::size_t>(std::min(wanted, half - budget->current()));
}

Refiner::Refiner(const LossModel& loss, const FrequencySet& fs, const Requirement& req, Rows rows,
                 std::shared_ptr<SpanMemo> memo)
    : loss_(loss), fs_(fs), req_(req), rows_(std::move(rows)), memo_(std::move(memo)), child_slot_(loss.columns()) {}

std::vector<Rows> Refiner::run() {
    std::vector<Rows> classes = top_down();
    resplit(classes);
    // The local search lowers the loss of the diversity models too, but only k-anonymity's checks are cheap enough
    // to keep the report call on Adult within 200 ms. Its row moves already offer each row the classes covering it,
    // so the attach pass runs without it only (after it, on Adult k=10, it saved 0.1% of the loss for 8% of the
    // search).
    if (req_.checkers().empty())
        local_search(classes);
    else
        attach(classes);
    return classes;
}

std::vector<Rows> Refiner::refined_apart(Rows rows) {
    std::sort(rows.begin(), rows.end());
    if (!inner_) {
        inner_ = std::make_unique<Refiner>(loss_, fs_, req_, Rows{}, memo_);
        inner_->reports_progress_ = false;
    }
    inner_->rows_ = std::move(rows);
    return inner_->top_down();
}

double Refiner::loss_of_parts(const std::vector<Rows>& parts) const {
    double total = 0;
    for (const Rows& p : parts) total += loss_.loss(p);
    return total;
}

// The greedy search decides each split alone; refining two neighbouring classes (emitted one after the other, so
// near in the search tree) together again often finds a better cut of their union. Classes that lose nothing are
// left alone.
//
// How much that finds depends on the data: on Adult and the 1M Adult-shaped table each window of pairs saves 0.7-2.3%
// of their loss; on issue 43's hospital stays, whose classes sit at k with fine taxonomies, 0.02-0.05%, for a sixth
// of the search. The pairs are judged in windows of `resplit_window`: once a window saves less than
// `resplit_worthwhile` of its pairs' loss, the later pairs are left as the greedy search made them. The rule depends
// on the data only, so the release stays deterministic; a table of fewer classes than a window is resplit whole.
void Refiner::resplit(std::vector<Rows>& classes) {
    double window_before = 0, window_saved = 0;
    std::size_t window_pairs = 0;
    for (std::size_t i = 0; i + 1 < classes.size(); ++i) {
        const double before = loss_.loss(classes[i]) + loss_.loss(classes[i + 1]);
        if (before <= 0) continue;
        if (window_pairs == resplit_window) {
            if (window_saved < resplit_worthwhile * window_before) return;
            window_before = window_saved = 0;
            window_pairs = 0;
        }
        ++window_pairs;
        window_before += before;
        Rows both = classes[i];
        both.insert(both.end(), classes[i + 1].begin(), classes[i + 1].end());
        std::vector<Rows> parts = refined_apart(std::move(both));
        const double after = loss_of_parts(parts);
        if (after >= before - 1e-9 * before) continue;
        window_saved += before - after;
        classes.erase(classes.begin() + static_cast<std::ptrdiff_t>(i),
                      classes.begin() + static_cast<std::ptrdiff_t>(i + 2));
        classes.insert(classes.begin() + static_cast<std::ptrdiff_t>(i), parts.begin(), parts.end());
    }
}

// The local search's dissolving grows classes, and a class of at least 2k tuples may then split into parts that
// each keep k and lose less; each such class is refined again on its own (on Adult k=10, 1% less NCP, for about 1%
// of the search time). The first part takes the class's place, the others come after the last class.
void Refiner::split_large(std::vector<Rows>& classes, std::vector<Cluster>& state) {
    const std::size_t n = classes.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (!splittable(classes[i].data(), classes[i].size()) || state[i].loss() <= 0) continue;
        std::vector<Rows> parts = refined_apart(classes[i]);
        if (parts.size() < 2) continue;
        replace_class(classes, state, i, std::move(parts[0]));
        for (std::size_t p = 1; p < parts.size(); ++p)
            replace_class(classes, state, classes.size(), std::move(parts[p]));
    }
}

std::vector<Rows> Refiner::top_down() {
    std::vector<Rows> classes;
    std::vector<Span> stack{{0, rows_.size()}};
    std::size_t done = 0;
    while (!stack.empty()) {
        const Span s = stack.back();
        stack.pop_back();
        const std::uint32_t* span = rows_.data() + s.begin;
        const std::size_t n = s.end - s.begin;
        const Rows* order = &best_rows_;
        const std::vector<std::size_t>* parts = &best_parts_;
        if (!splittable(span, n)) {
            best_parts_.clear();
        } else if (const SpanMemo::Decision* known = memo_->find(span, n)) {
            order = &known->order;
            parts = &known->parts;
        } else {
            choose_split(s);
            memo_->store(span, n, best_rows_, best_parts_);
        }
        if (parts->empty()) {
            classes.emplace_back(span, span + n);
            done += n;
            if (reports_progress_) progress(done, rows_.size());
            continue;
        }
        std::copy(order->begin(), order->end(), rows_.begin() + static_cast<std::ptrdiff_t>(s.begin));
        std::size_t at = s.begin;
        for (std::size_t size : *parts) {
            stack.push_back({at, at + size});
            at += size;
        }
    }
    return classes;
}

// Every part of a split satisfies the model, so holds at least k tuples: a span of fewer than 2k tuples has no
// split (on Adult k=10 most of the classes the search ends with, and most spans it meets again in the pools).
bool Refiner::splittable(const std::uint32_t* rows, std::size_t n) const {
    const Count needed = 2 * req_.k();
    Count tuples = 0;
    for (std::size_t i = 0; i < n && tuples < needed; ++i) tuples += loss_.tuples(rows[i]);
    return tuples >= needed;
}

void Refiner::choose_split(Span s) {
    const double current = loss_.loss(rows_.data() + s.begin, s.end - s.begin, &lca_);
    best_score_ = 0;
    best_rows_.clear();
    best_parts_.clear();
    for (std::size_t j = 0; j < loss_.columns(); ++j)
        if (!loss_.taxonomy(j).is_leaf(lca_[j])) try_column_split(s, j, lca_[j], current);
    try_cluster_split(s, current);
}

void Refiner::clear_parts() {
    for (Rows& p : parts_) spare_.push_back(std::move(p));
    parts_.clear();
}

Rows& Refiner::add_part() {
    if (spare_.empty()) return parts_.emplace_back();
    parts_.push_back(std::move(spare_.back()));
    spare_.pop_back();
    parts_.back().clear();
    return parts_.back();
}

// A split's score is the loss it saves over the square root of its parts: splitting a class into many parts
// spreads its tuples thin for the splits below, so among splits saving alike the one with fewer parts wins (on
// Adult this keeps 5-8% more information than the saving alone).
//
// No part loses less than nothing, so the parts priced so far (and the columns priced of the next) bound the loss
// after the split from below: once that bound already rejects it, the other parts are not priced (most splits lose
// to the best one found before them). The decision is the one the full sum gives.
void Refiner::consider(double current, const std::vector<Rows>& parts, const Rows& rest) {
    const std::size_t count = parts.size() + (rest.empty() ? 0 : 1);
    if (count < 2) return;
    const double root = std::sqrt(static_cast<double>(count));
    auto rejected = [&](double after) {
        const double saved = current - after;
        return saved <= 1e-9 * std::max(1.0, current) || saved / root <= best_score_;
    };
    double after = 0;
    auto price = [&](const Rows& part) {
        if (part.empty()) return true;
        const double limit = current - after - best_score_ * root;
        double part_loss = loss_.loss_up_to(part.data(), part.size(), limit);
        if (part_loss > limit) {
            if (rejected(after + part_loss)) return false;
            part_loss = loss_.loss(part);  // rounding left it open: the whole part
        }
        after += part_loss;
        return true;
    };
    if (!price(rest)) return;
    for (const Rows& p : parts)
        if (!price(p)) return;
    if (rejected(after)) return;
    const double score = (current - after) / root;
    best_score_ = score;
    best_rows_.clear();
    best_parts_.clear();
    for (const Rows& p : parts) {
        best_rows_.insert(best_rows_.end(), p.begin(), p.end());
        best_parts_.push_back(p.size());
    }
    if (!rest.empty()) {
        best_rows_.insert(best_rows_.end(), rest.begin(), rest.end());
        best_parts_.push_back(rest.size());
    }
}

}  // namespace refine_search

Release refine(const Schema& schema, const FrequencySet& fs, const Requirement& req, const LocalOptions& options) {
    if (!req.monotone())
        throw Error(ErrorKind::invalid_parameter,
                    "algorithm refine needs a monotone model; " + req.model() + " is not monotone");
    refine_search::Rows rows;
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (fs.count[r] > 0) rows.push_back(static_cast<std::uint32_t>(r));
    Requirement::Scratch scratch;
    if (rows.empty() || !req.satisfied(fs, rows.data(), rows.size(), scratch)) {
        std::string why = req.ineligibility(fs, schema);
        if (why.empty()) why = "even the whole table as one class violates it";
        throw Error(ErrorKind::not_satisfiable, "no refinement satisfies " + req.model() + ": " + why);
    }
    const refine_search::LossModel loss(schema, fs, options.weights);
    // The memo of the top-down search's decisions: a cache, so only what the budget leaves to optional structures.
    const std::size_t memo_bytes = refine_search::span_memo_budget(fs.rows());
    const MemoryCharge memo_charge(memo_bytes, "Refine's memo of its search's decisions");
    refine_search::Refiner refiner(loss, fs, req, std::move(rows),
                                   std::make_shared<refine_search::SpanMemo>(memo_bytes));
    std::vector<TupleGroup> groups;
    for (const refine_search::Rows& c : refiner.run()) {
        if (c.empty()) continue;
        TupleGroup g;
        for (std::uint32_t r : c) g.members.emplace_back(r, fs.count[r]);
        groups.push_back(std::move(g));
    }
    return release_from_groups(schema, fs, groups, options.tight_ranges);
}

}  // namespace anon
