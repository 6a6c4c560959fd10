#include "incognito_kept.hpp"

#include <string>
#include <unordered_set>

#include "base/base.hpp"

namespace anon {

namespace {

// A flat taxonomy of kept column `column`'s values (its dictionary's texts, and a label for NULL no text has),
// and each kept code's leaf.
Taxonomy kept_taxonomy(const KeptGroups& kept, std::size_t column, std::vector<Code>& leaf_of, Code& null_leaf) {
    const TextDictionary& dictionary = kept.dictionary[column];
    std::vector<std::string> labels;
    labels.reserve(dictionary.size() + 1);
    for (std::uint32_t i = 0; i < dictionary.size(); ++i) labels.emplace_back(dictionary.text(i));
    const std::unordered_set<std::string> texts(labels.begin(), labels.end());
    std::string null_text = null_label;
    while (texts.count(null_text)) null_text += "'";
    labels.push_back(null_text);
    Taxonomy tax = Taxonomy::flat("kept " + std::to_string(column + 1), labels);
    leaf_of.resize(dictionary.size());
    for (std::uint32_t i = 0; i < dictionary.size(); ++i) leaf_of[i] = tax.find(labels[i]);
    null_leaf = tax.find(null_text);
    return tax;
}

}  // namespace

SplitTable split_by_kept(const Schema& schema, const FrequencySet& fs, const KeptGroups& kept) {
    SplitTable out;
    out.schema = schema;
    std::vector<std::vector<Code>> leaf_of(kept.width);
    std::vector<Code> null_leaf(kept.width);
    for (std::size_t c = 0; c < kept.width; ++c) {
        out.schema.qi_names.push_back("kept column " + std::to_string(c + 1));
        out.schema.qi_tax.push_back(kept_taxonomy(kept, c, leaf_of[c], null_leaf[c]));
    }
    out.fs.n_qi = fs.n_qi + kept.width;
    out.fs.n_sa = fs.n_sa;
    const std::size_t groups = kept.groups();
    out.fs.qi.reserve(groups * out.fs.n_qi);
    out.fs.sa.reserve(groups * fs.n_sa);
    out.fs.count.reserve(groups);
    for (std::size_t g = 0; g < groups; ++g) {
        const std::uint32_t row = kept.row[g];
        out.fs.qi.insert(out.fs.qi.end(), fs.qi_row(row), fs.qi_row(row) + fs.n_qi);
        const std::uint32_t* codes = kept.kept_of(g);
        for (std::size_t c = 0; c < kept.width; ++c)
            out.fs.qi.push_back(codes[c] == KeptGroups::null_code ? null_leaf[c] : leaf_of[c][codes[c]]);
        out.fs.sa.insert(out.fs.sa.end(), fs.sa_row(row), fs.sa_row(row) + fs.n_sa);
        out.fs.count.push_back(kept.tuples[g]);
    }
    return out;
}

std::vector<int> split_heights(const Schema& schema, std::size_t kept_columns) {
    std::vector<int> heights;
    for (const Taxonomy& tax : schema.qi_tax) heights.push_back(tax.height());
    heights.resize(heights.size() + kept_columns, 0);
    return heights;
}

std::vector<double> split_weights(std::size_t n_qi, std::size_t kept_columns) {
    std::vector<double> weights(n_qi, 1.0);
    weights.resize(n_qi + kept_columns, 0.0);
    return weights;
}

}  // namespace anon
