#include "release_check.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

namespace {

[[noreturn]] void broken(const std::string& what) { throw Error(ErrorKind::internal, "release check failed: " + what); }

// Counterfeit tuples (m-invariance) must lie in a class that publishes tuples of the source (its extent is theirs)
// and carry a leaf of each sensitive column's taxonomy.
void check_counterfeits(const Schema& schema, const Release& release) {
    if (release.counterfeit_sa.size() != release.counterfeits.size() * release.n_sa)
        broken("the counterfeits do not have one sensitive value per column each");
    std::vector<char> has_tuples(release.classes(), 0);
    for (const auto& piece : release.pieces) has_tuples[piece.cls] = 1;
    for (std::size_t i = 0; i < release.counterfeits.size(); ++i) {
        const auto& c = release.counterfeits[i];
        if (c.cls >= release.classes() || c.count <= 0) broken("counterfeit " + std::to_string(i) + " is out of range");
        if (!has_tuples[c.cls]) broken("class " + std::to_string(c.cls) + " holds counterfeits only");
        for (std::size_t j = 0; j < release.n_sa; ++j) {
            const Code v = release.counterfeit_sa[i * release.n_sa + j];
            if (v < 0 || v >= schema.sa_tax[j].size() || !schema.sa_tax[j].is_leaf(v))
                broken("counterfeit " + std::to_string(i) + " does not carry a value of " + schema.sa_names[j]);
        }
    }
}

// The counterfeits of each class: their indexes, class c's being [begin[c], begin[c + 1]) of `index`.
struct ClassCounterfeits {
    std::vector<std::size_t> begin, index;
};

ClassCounterfeits counterfeits_by_class(const Release& release) {
    ClassCounterfeits out;
    out.begin.assign(release.classes() + 1, 0);
    for (const auto& c : release.counterfeits) {
        if (c.cls >= release.classes()) broken("a counterfeit's class is out of range");
        ++out.begin[c.cls + 1];
    }
    for (std::size_t c = 0; c < release.classes(); ++c) out.begin[c + 1] += out.begin[c];
    out.index.resize(release.counterfeits.size());
    std::vector<std::size_t> next(out.begin.begin(), out.begin.end() - 1);
    for (std::size_t i = 0; i < release.counterfeits.size(); ++i) out.index[next[release.counterfeits[i].cls]++] = i;
    return out;
}

}  // namespace

void check_release_covers(const Schema& schema, const FrequencySet& fs, const Release& release) {
    std::vector<Count> published(fs.rows(), 0);
    InterruptPoller poller;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        poller.tick();
        const auto& piece = release.pieces[p];
        if (piece.row >= fs.rows() || piece.cls >= release.classes() || piece.count <= 0)
            broken("piece " + std::to_string(p) + " is out of range");
        published[piece.row] += piece.count;
        const Code* qi = fs.qi_row(piece.row);
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            const Taxonomy& tax = schema.qi_tax[j];
            Code node = release.class_qi[piece.cls * release.n_qi + j];
            if (!tax.covers(node, qi[j]))
                broken("class " + std::to_string(piece.cls) + " publishes " + quoted_value(tax.label(node)) + " for " +
                       schema.qi_names[j] + " value " + quoted_value(tax.label(qi[j])));
            if (!release.class_range.empty()) {
                const auto& [lo, hi] = release.class_range[piece.cls * release.n_qi + j];
                const double v = numeric_value(tax, qi[j]);
                if (!std::isnan(lo) && !(v >= lo && v <= hi))
                    broken("a tight range of " + schema.qi_names[j] + " does not cover " +
                           quoted_value(tax.label(qi[j])));
            }
        }
        const Code* sa = fs.sa_row(piece.row);
        for (std::size_t j = 0; j < fs.n_sa; ++j) {
            Code node = release.piece_sa[p * release.n_sa + j];
            if (!schema.sa_tax[j].covers(node, sa[j]))
                broken("published sensitive value " + quoted_value(schema.sa_tax[j].label(node)) + " does not cover " +
                       quoted_value(schema.sa_tax[j].label(sa[j])));
        }
    }
    Count suppressed = 0;
    for (const auto& [row, n] : release.suppressed_rows) {
        if (row >= fs.rows()) broken("suppressed row " + std::to_string(row) + " is out of range");
        published[row] += n;
        suppressed += n;
    }
    if (suppressed != release.suppressed) broken("the suppressed count does not match the suppressed rows");
    check_counterfeits(schema, release);
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (published[r] != fs.count[r])
            broken("combination " + std::to_string(r) + " has " + std::to_string(fs.count[r]) + " tuples but " +
                   std::to_string(published[r]) + " were published or suppressed");
}

void check_typed_ranges_cover(const Schema& schema, const FrequencySet& fs, const Release& release,
                              const std::vector<TypedColumn>& typed) {
    if (typed.empty()) return;
    const std::vector<std::string> published = published_qi_labels(schema, release, typed);
    InterruptPoller poller;
    for (const auto& piece : release.pieces) {
        poller.tick();
        const Code* qi = fs.qi_row(piece.row);
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            if (typed[j].type == PublishedType::text) continue;
            const std::string& range = published[piece.cls * release.n_qi + j];
            const std::string value(schema.qi_tax[j].label(qi[j]));
            if (!typed_label_covers(typed[j], range, value))
                broken("class " + std::to_string(piece.cls) + " publishes the " + published_type_name(typed[j].type) +
                       " " + quoted_value(range) + " for " + schema.qi_names[j] + " value " + quoted_value(value));
        }
    }
}

void check_release_satisfies(const FrequencySet& fs, const Release& release, const Requirement& req) {
    // Each class's rows; a row split over classes appears in each with its own tuples, so check on a
    // per-class frequency set built from the pieces.
    FrequencySet part;
    part.n_qi = 0;
    part.n_sa = fs.n_sa;
    Requirement::Scratch scratch;
    std::vector<std::uint32_t> rows;
    // Counterfeits count as tuples of their class (check_release_covers checks where they lie).
    const ClassCounterfeits counterfeits = counterfeits_by_class(release);
    std::size_t p = 0;
    InterruptPoller poller(256);
    for (std::size_t checked = 0; p < release.pieces.size(); ++checked) {
        poller.tick();
        if ((checked & 1023) == 0) progress(p, release.pieces.size());
        const std::uint32_t cls = release.pieces[p].cls;
        part.qi.clear();
        part.sa.clear();
        part.count.clear();
        rows.clear();
        for (; p < release.pieces.size() && release.pieces[p].cls == cls; ++p) {
            // data() + offset, not &piece_sa[...]: without sensitive columns the array is empty.
            part.add(nullptr, release.piece_sa.data() + p * release.n_sa, release.pieces[p].count);
            rows.push_back(static_cast<std::uint32_t>(rows.size()));
        }
        if (cls >= release.classes()) broken("piece " + std::to_string(p - 1) + " is out of range");
        for (std::size_t i = counterfeits.begin[cls]; i < counterfeits.begin[cls + 1]; ++i) {
            const std::size_t c = counterfeits.index[i];
            part.add(nullptr, release.counterfeit_sa.data() + c * release.n_sa, release.counterfeits[c].count);
            rows.push_back(static_cast<std::uint32_t>(rows.size()));
        }
        if (!req.satisfied(part, rows.data(), rows.size(), scratch))
            broken("class " + std::to_string(cls) + " violates " + req.model());
    }
}

}  // namespace anon
