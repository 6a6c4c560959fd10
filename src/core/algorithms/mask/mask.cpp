#include "mask.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <utility>

#include "base/base.hpp"

namespace anon {

std::vector<SensitiveRole> sensitive_roles(const Taxonomy& sensitive, const std::vector<Code>& sensitive_set) {
    if (sensitive_set.empty()) bad_argument("sensitive value set", "at least one value", "none");
    std::vector<SensitiveRole> role(sensitive.size(), SensitiveRole::outside);
    for (Code named : sensitive_set) {
        if (named < 0 || named >= sensitive.size())
            bad_argument("sensitive value set", "nodes of taxonomy \"" + sensitive.name() + "\"",
                         "code " + std::to_string(named));
        for (Code node = 0; node < sensitive.size(); ++node)
            if (sensitive.covers(named, node)) role[node] = SensitiveRole::in_set;
    }
    for (Code named : sensitive_set)
        for (Code node = sensitive.parent(named); node != no_code; node = sensitive.parent(node))
            if (role[node] != SensitiveRole::in_set) role[node] = SensitiveRole::above;
    return role;
}

namespace {

using Wide = __int128;  // products of two tuple counts

// One class of the k-anonymous release: its pieces [begin, end), its tuples and those in the set.
struct ClassSpan {
    std::size_t begin = 0, end = 0;
    Count size = 0, in_set = 0;
};

// The classes as runs of pieces (pieces are grouped by class).
std::vector<ClassSpan> class_spans(const Release& release, const std::vector<SensitiveRole>& role) {
    std::vector<ClassSpan> spans;
    std::vector<char> seen(release.classes(), 0);
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        const std::uint32_t cls = release.pieces[p].cls;
        if (p == 0 || release.pieces[p - 1].cls != cls) {
            if (seen[cls])
                throw Error(ErrorKind::internal,
                            "MASK: the pieces of class " + std::to_string(cls) + " are not contiguous");
            seen[cls] = 1;
            spans.push_back({p, p, 0, 0});
        }
        ClassSpan& span = spans.back();
        span.end = p + 1;
        span.size += release.pieces[p].count;
        if (role[release.piece_sa[p]] == SensitiveRole::in_set) span.in_set += release.pieces[p].count;
    }
    return spans;
}

// The class's share of the set exceeds 1/m: it violates l-diversity with l = m (step 2).
bool violates(const ClassSpan& c, int m) { return Wide(c.in_set) * m > c.size; }

// a's share of the set is higher than b's.
bool higher_share(const ClassSpan& a, const ClassSpan& b) { return Wide(a.in_set) * b.size > Wide(b.in_set) * a.size; }

// Non-sensitive values with tuple counts, drawn from in proportion to their counts.
class ValuePool {
public:
    void add(Code value, Count n) {
        total_ += n;
        values_.push_back(value);
        ends_.push_back(total_);
    }
    bool empty() const { return total_ == 0; }
    Code draw(std::mt19937_64& rng) const {
        const Count at = static_cast<Count>(rng() % static_cast<std::uint64_t>(total_));
        return values_[std::upper_bound(ends_.begin(), ends_.end(), at) - ends_.begin()];
    }

private:
    std::vector<Code> values_;
    std::vector<Count> ends_;  // running totals
    Count total_ = 0;
};

// The published non-sensitive values of pieces [begin, end).
ValuePool non_sensitive_pool(const Release& release, const std::vector<SensitiveRole>& role, std::size_t begin,
                             std::size_t end) {
    ValuePool pool;
    for (std::size_t p = begin; p < end; ++p)
        if (role[release.piece_sa[p]] == SensitiveRole::outside) pool.add(release.piece_sa[p], release.pieces[p].count);
    return pool;
}

// Step 2(a): the (m-1)|V| diverse classes with the highest shares, ties by class order. Throws when too few.
std::vector<std::size_t> donor_classes(const std::vector<ClassSpan>& spans, std::size_t n_violating, int m) {
    std::vector<std::size_t> diverse;
    for (std::size_t c = 0; c < spans.size(); ++c)
        if (!violates(spans[c], m)) diverse.push_back(c);
    const std::size_t wanted = static_cast<std::size_t>(m - 1) * n_violating;
    if (diverse.size() < wanted) {
        const std::string ms = std::to_string(m), nv = std::to_string(n_violating);
        throw Error(ErrorKind::not_satisfiable,
                    "the table cannot be published with m-confidentiality for m=" + ms + ": in " + nv +
                        " classes of the k-anonymous release more than 1/" + ms +
                        " of the tuples have sensitive values; disguising them takes (m-1)*" + nv + " = " +
                        std::to_string(wanted) + " classes where at most 1/" + ms + " do, but the release has only " +
                        std::to_string(diverse.size()),
                    "MASK, Algorithm 1, step 2(a) of Wong et al., TODS 2009",
                    "Use a larger k or a smaller m, so that more classes are diverse.");
    }
    std::partial_sort(diverse.begin(), diverse.begin() + static_cast<std::ptrdiff_t>(wanted), diverse.end(),
                      [&spans](std::size_t a, std::size_t b) {
                          if (higher_share(spans[a], spans[b])) return true;
                          return !higher_share(spans[b], spans[a]) && a < b;
                      });
    diverse.resize(wanted);
    return diverse;
}

// Step 4 for one class of V: keeps floor(share * size) of its tuples in the set, choosing the others uniformly at
// random (selection sampling over the class's sensitive tuples), and gives each a value drawn from `pool`. Appends
// the class's pieces to `out`, splitting a piece whose tuples change only in part. Returns the tuples changed.
Count distort_class(const Release& in, const ClassSpan& span, const ClassSpan& donor,
                    const std::vector<SensitiveRole>& role, const ValuePool& pool, std::mt19937_64& rng, Release& out) {
    const Count keep = static_cast<Count>(Wide(donor.in_set) * span.size / donor.size);
    const Count change = span.in_set - keep;
    Count needed = change, remaining = span.in_set;
    std::vector<std::pair<Code, Count>> drawn;  // replacement values of one piece with their counts
    for (std::size_t p = span.begin; p < span.end; ++p) {
        Release::Piece piece = in.pieces[p];
        drawn.clear();
        if (role[in.piece_sa[p]] == SensitiveRole::in_set)
            for (Count t = 0; t < in.pieces[p].count; ++t, --remaining) {
                if (static_cast<Count>(rng() % static_cast<std::uint64_t>(remaining)) >= needed) continue;
                --needed;
                --piece.count;
                const Code value = pool.draw(rng);
                auto it = std::find_if(drawn.begin(), drawn.end(), [value](const auto& d) { return d.first == value; });
                if (it == drawn.end())
                    drawn.emplace_back(value, 1);
                else
                    ++it->second;
            }
        if (piece.count > 0) {
            out.pieces.push_back(piece);
            out.piece_sa.push_back(in.piece_sa[p]);
        }
        for (const auto& [value, n] : drawn) {
            out.pieces.push_back({piece.row, piece.cls, n});
            out.piece_sa.push_back(value);
        }
    }
    return change;
}

// Def. 7 on the sensitive column: the mean over published tuples of (coverage[v*] - 1) / (base - 1), v* the lowest
// common ancestor of the original and the published value.
double sensitive_distortion(const Taxonomy& tax, const FrequencySet& fs, const Release& release) {
    const Count base = tax.total_leaves();
    double loss = 0;
    Count tuples = 0;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        const Release::Piece& piece = release.pieces[p];
        const Code common = tax.lca(fs.sa_row(piece.row)[0], release.piece_sa[p]);
        loss += static_cast<double>(piece.count) * static_cast<double>(tax.leaf_count(common) - 1);
        tuples += piece.count;
    }
    return base > 1 && tuples > 0 ? loss / static_cast<double>(base - 1) / static_cast<double>(tuples) : 0.0;
}

}  // namespace

Release mask(const Schema& schema, const FrequencySet& fs, const Release& k_anonymous,
             const std::vector<Code>& sensitive_set, int m, std::uint64_t seed, MaskStats* stats) {
    if (schema.sa_tax.size() != 1 || fs.n_sa != 1 || k_anonymous.n_sa != 1)
        bad_argument("sensitive columns for MASK", "exactly one (m-confidentiality protects one sensitive attribute)",
                     std::to_string(schema.sa_tax.size()));
    if (m < 2) bad_argument("m", "an integer >= 2", std::to_string(m));
    const Taxonomy& tax = schema.sa_tax[0];
    const std::vector<SensitiveRole> role = sensitive_roles(tax, sensitive_set);

    // Step 2: V and L.
    const std::vector<ClassSpan> spans = class_spans(k_anonymous, role);
    std::vector<std::size_t> violating;
    for (std::size_t c = 0; c < spans.size(); ++c)
        if (violates(spans[c], m)) violating.push_back(c);
    const std::vector<std::size_t> donors = donor_classes(spans, violating.size(), m);
    MaskStats local;
    local.violating = violating.size();
    local.donors = donors.size();
    if (violating.empty()) {  // step 2(b): T^k is published as it is
        if (stats) *stats = local;
        return k_anonymous;
    }

    // Steps 3 and 4: each class of V draws one of L's shares (the distribution D) and is distorted to it.
    const ValuePool table_pool = non_sensitive_pool(k_anonymous, role, 0, k_anonymous.pieces.size());
    if (table_pool.empty())
        throw Error(ErrorKind::not_satisfiable,
                    "the table cannot be published with m-confidentiality: no published "
                    "value of " +
                        schema.sa_names[0] + " lies outside the sensitive set");
    Release out = k_anonymous;
    out.pieces.clear();
    out.piece_sa.clear();
    std::mt19937_64 rng(seed);
    InterruptPoller poller;
    std::size_t next_violating = 0;
    for (std::size_t c = 0; c < spans.size(); ++c) {
        poller.tick();
        const ClassSpan& span = spans[c];
        if (next_violating < violating.size() && violating[next_violating] == c) {
            ++next_violating;
            const ClassSpan& donor = spans[donors[rng() % donors.size()]];
            const ValuePool class_pool = non_sensitive_pool(k_anonymous, role, span.begin, span.end);
            local.distorted +=
                distort_class(k_anonymous, span, donor, role, class_pool.empty() ? table_pool : class_pool, rng, out);
            continue;
        }
        const auto first = static_cast<std::ptrdiff_t>(span.begin), last = static_cast<std::ptrdiff_t>(span.end);
        out.pieces.insert(out.pieces.end(), k_anonymous.pieces.begin() + first, k_anonymous.pieces.begin() + last);
        out.piece_sa.insert(out.piece_sa.end(), k_anonymous.piece_sa.begin() + first,
                            k_anonymous.piece_sa.begin() + last);
    }
    local.sensitive_distortion = sensitive_distortion(tax, fs, out);
    if (stats) *stats = local;
    return out;
}

}  // namespace anon
