#include "republishing.hpp"

#include "base/base.hpp"

namespace anon::pg {

JobSpec republishing_spec(const JobSpec& spec, const std::vector<std::string>& qi,
                          const std::vector<std::string>& sensitive) {
    if (!spec.algorithm || !spec.algorithm->republishes) return spec;
    JobSpec out = spec;
    const std::string& name = spec.algorithm->name;
    for (const auto* columns : {&qi, &sensitive})
        for (const std::string& column : *columns)
            if (column == counterfeits_column)
                bad_argument(columns == &qi ? "quasi_identifiers" : "sensitive",
                             std::string("columns other than \"") + counterfeits_column +
                                 "\", which the view of algorithm " + name +
                                 " adds (the counterfeit tuples of each class)",
                             "\"" + column + "\"");
    if (spec.publication.publish != PublicationOptions::Publish::generalized)
        bad_argument("params->'publish'",
                     "'generalized' for algorithm " + name +
                         " (its counterfeit tuples have no "
                         "original values to publish in a QIT)",
                     "a QIT/ST pair");
    if (!spec.publication.keep.empty())
        bad_argument("params->'keep'", "no kept column for algorithm " + name + " (a counterfeit tuple has none)",
                     std::to_string(spec.publication.keep.size()) + " column(s)");
    if (!out.publication.individual && out.publication.person_key)
        out.publication.individual = out.publication.person_key;
    return out;
}

std::vector<ValueHash> person_hashes(const Source& source) {
    std::vector<ValueHash> out;
    out.reserve(source.fs.individual.size());
    for (Code c : source.fs.individual) out.push_back(text_hash(source.individual_labels[static_cast<std::size_t>(c)]));
    return out;
}

void publish_counterfeits(ComputedRelease& computed) {
    Release& rel = computed.result.release;
    if (computed.republishes) {
        computed.class_counterfeits.assign(rel.classes(), 0);
        for (const auto& fake : rel.counterfeits) computed.class_counterfeits[fake.cls] += fake.count;
    }
    if (rel.counterfeits.empty()) return;
    const std::size_t n_sa = rel.n_sa;
    std::vector<std::vector<std::size_t>> fakes(rel.classes());
    for (std::size_t i = 0; i < rel.counterfeits.size(); ++i) fakes[rel.counterfeits[i].cls].push_back(i);
    std::vector<Release::Piece> pieces;
    std::vector<Code> piece_sa;
    pieces.reserve(rel.pieces.size() + rel.counterfeits.size());
    piece_sa.reserve(pieces.capacity() * n_sa);
    for (std::size_t p = 0; p < rel.pieces.size(); ++p) {
        pieces.push_back(rel.pieces[p]);
        piece_sa.insert(piece_sa.end(), rel.piece_sa.begin() + p * n_sa, rel.piece_sa.begin() + (p + 1) * n_sa);
        const bool class_ends = p + 1 == rel.pieces.size() || rel.pieces[p + 1].cls != rel.pieces[p].cls;
        if (!class_ends) continue;
        for (std::size_t i : fakes[rel.pieces[p].cls]) {
            pieces.push_back({rel.pieces[p].row, rel.counterfeits[i].cls, rel.counterfeits[i].count});
            piece_sa.insert(piece_sa.end(), rel.counterfeit_sa.begin() + i * n_sa,
                            rel.counterfeit_sa.begin() + (i + 1) * n_sa);
        }
        fakes[rel.pieces[p].cls].clear();
    }
    for (const auto& left : fakes)
        if (!left.empty())
            throw Error(ErrorKind::internal, "a class of counterfeit tuples only: it has no row to publish them with");
    rel.pieces = std::move(pieces);
    rel.piece_sa = std::move(piece_sa);
    rel.counterfeits.clear();
    rel.counterfeit_sa.clear();
}

}  // namespace anon::pg
