// check_mask_release (mask.hpp): the independent check of a MASK release, recomputed from the frequency set.
#include <string>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "mask.hpp"

namespace anon {

namespace {

[[noreturn]] void broken(const std::string& what) {
    throw Error(ErrorKind::internal, "MASK release check failed: " + what);
}

// Every class's pieces form one run, and each run has at least k tuples and at most 1/m of them in the set.
void check_classes(const Release& release, const std::vector<SensitiveRole>& role, int m, Count k) {
    std::vector<char> seen(release.classes(), 0);
    std::size_t p = 0;
    while (p < release.pieces.size()) {
        const std::uint32_t cls = release.pieces[p].cls;
        if (seen[cls]) broken("the pieces of class " + std::to_string(cls) + " are not contiguous");
        seen[cls] = 1;
        Count size = 0, in_set = 0;
        for (; p < release.pieces.size() && release.pieces[p].cls == cls; ++p) {
            size += release.pieces[p].count;
            if (role[release.piece_sa[p]] == SensitiveRole::in_set) in_set += release.pieces[p].count;
        }
        if (size < k)
            broken("class " + std::to_string(cls) + " has " + std::to_string(size) +
                   " tuples, fewer than k=" + std::to_string(k));
        if (in_set * m > size)
            broken("in class " + std::to_string(cls) + ", " + std::to_string(in_set) + " of " + std::to_string(size) +
                   " tuples have sensitive values, more than 1/" + std::to_string(m));
    }
}

}  // namespace

// Sensitive values that do not cover the original must be changes out of the set; they are counted and put back,
// so that check_release_covers can check everything else as for any release.
void check_mask_release(const Schema& schema, const FrequencySet& fs, const Release& release,
                        const std::vector<Code>& sensitive_set, int m, Count k, Count distorted) {
    if (schema.sa_tax.size() != 1 || fs.n_sa != 1 || release.n_sa != 1) broken("MASK releases one sensitive column");
    const Taxonomy& tax = schema.sa_tax[0];
    const std::vector<SensitiveRole> role = sensitive_roles(tax, sensitive_set);
    Release restored = release;
    Count changed = 0;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        const Release::Piece& piece = release.pieces[p];
        if (piece.row >= fs.rows() || piece.cls >= release.classes())
            broken("piece " + std::to_string(p) + " is out of range");
        const Code original = fs.sa_row(piece.row)[0];
        const Code published = release.piece_sa[p];
        if (published < 0 || published >= tax.size()) broken("piece " + std::to_string(p) + " publishes no value");
        if (tax.covers(published, original)) continue;
        if (role[original] != SensitiveRole::in_set || role[published] != SensitiveRole::outside)
            broken("published sensitive value \"" + std::string(tax.label(published)) + "\" replaces \"" +
                   std::string(tax.label(original)) +
                   "\", which is not a change from the sensitive set to a value outside it");
        changed += piece.count;
        restored.piece_sa[p] = original;
    }
    if (changed != distorted)
        broken(std::to_string(changed) + " sensitive values were changed, but MASK reported " +
               std::to_string(distorted));
    check_release_covers(schema, fs, restored);
    check_classes(release, role, m, k);
}

}  // namespace anon
