// snapshot_of: a computed release as the version checks read it (version_history.hpp): per class, its pieces'
// QI-combination hashes, true sensitive values and counts, then its counterfeit tuples.
#include <string_view>

#include "version_history.hpp"

namespace anon {

namespace {

// Hashes of the labels of one taxonomy's nodes, each computed the first time it is asked for.
class LabelHashes {
public:
    explicit LabelHashes(const Taxonomy& tax) : tax_(tax), hash_(static_cast<std::size_t>(tax.size()), 0) {}
    ValueHash operator()(Code node) {
        if (node < 0 || node >= tax_.size())
            throw Error(ErrorKind::internal, "snapshot of a release: node " + std::to_string(node) +
                                                 " is not a node of taxonomy " + tax_.name());
        ValueHash& h = hash_[static_cast<std::size_t>(node)];
        if (h == 0) h = text_hash(tax_.label(node));
        return h;
    }

private:
    const Taxonomy& tax_;
    std::vector<ValueHash> hash_;
};

// The q of each frequency-set row: the tuple hash of its QI leaf labels in QI order.
std::vector<ValueHash> row_q_hashes(const Schema& schema, const FrequencySet& fs) {
    std::vector<ValueHash> q(fs.rows());
    std::vector<std::string_view> labels(fs.n_qi);
    InterruptPoller poller;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        for (std::size_t j = 0; j < fs.n_qi; ++j) labels[j] = schema.qi_tax[j].label(fs.qi_row(r)[j]);
        q[r] = tuple_hash(labels);
        poller.tick();
    }
    return q;
}

// Refuses a release that does not fit its frequency set and schema (a bug of its maker, not of the data).
void check_shapes(const Schema& schema, const FrequencySet& fs, const Release& release) {
    const std::size_t classes = release.classes();
    bool fits = schema.qi_tax.size() == fs.n_qi && release.n_qi == fs.n_qi && schema.sa_tax.size() == fs.n_sa &&
                release.n_sa == fs.n_sa && release.piece_sa.size() == release.pieces.size() * fs.n_sa &&
                release.counterfeit_sa.size() == release.counterfeits.size() * fs.n_sa;
    for (const auto& p : release.pieces) fits = fits && p.row < fs.rows() && p.cls < classes;
    for (const auto& c : release.counterfeits) fits = fits && c.cls < classes;
    if (!fits) throw Error(ErrorKind::internal, "snapshot of a release: the release does not fit its frequency set");
}

}  // namespace

VersionSnapshot snapshot_of(const Schema& schema, const FrequencySet& fs, const Release& release,
                            const std::vector<ValueHash>* q_of_row) {
    check_shapes(schema, fs, release);
    const std::size_t n_sa = fs.n_sa, classes = release.classes();
    VersionSnapshot s;
    s.n_sa = n_sa;
    // Members per class, then each class's first member (a counting sort keeps the pieces' order within a class).
    s.class_begin.assign(classes + 1, 0);
    for (const auto& p : release.pieces) ++s.class_begin[p.cls + 1];
    for (const auto& c : release.counterfeits) ++s.class_begin[c.cls + 1];
    for (std::size_t c = 0; c < classes; ++c) s.class_begin[c + 1] += s.class_begin[c];
    const std::size_t members = s.class_begin[classes];
    s.member_q.assign(members, 0);
    s.member_sa.assign(members * n_sa, 0);
    s.member_count.assign(members, 0);
    std::vector<std::uint32_t> next(s.class_begin.begin(), s.class_begin.end() - 1);
    std::vector<LabelHashes> sa_hash;
    for (const auto& tax : schema.sa_tax) sa_hash.emplace_back(tax);
    if (q_of_row && q_of_row->size() != fs.rows())
        throw Error(ErrorKind::internal, "snapshot of a release: the rows' identities do not fit its frequency set");
    const std::vector<ValueHash> q = q_of_row ? *q_of_row : row_q_hashes(schema, fs);
    for (const auto& p : release.pieces) {
        const std::uint32_t m = next[p.cls]++;
        s.member_q[m] = q[p.row];
        for (std::size_t j = 0; j < n_sa; ++j) s.member_sa[m * n_sa + j] = sa_hash[j](fs.sa_row(p.row)[j]);
        s.member_count[m] = p.count;
    }
    for (std::size_t i = 0; i < release.counterfeits.size(); ++i) {
        const std::uint32_t m = next[release.counterfeits[i].cls]++;
        for (std::size_t j = 0; j < n_sa; ++j)
            s.member_sa[m * n_sa + j] = sa_hash[j](release.counterfeit_sa[i * n_sa + j]);
        s.member_count[m] = release.counterfeits[i].count;
    }
    return s;
}

bool same_version(const VersionSnapshot& a, const VersionSnapshot& b) {
    return a.n_sa == b.n_sa && a.class_begin == b.class_begin && a.member_q == b.member_q &&
           a.member_sa == b.member_sa && a.member_count == b.member_count;
}

}  // namespace anon
