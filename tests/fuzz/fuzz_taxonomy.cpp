// libFuzzer target for the taxonomy builders. Each input decodes to either a list of (value, parent) nodes over a
// small alphabet (so that duplicates, two parents, missing parents, cycles and several roots all occur), checked
// against taxonomy_oracle.hpp: Taxonomy::build must refuse exactly the lists that are not one tree, with an
// invalid-parameter error and a message, and answer every structural question of the others as the list says; or
// an interval taxonomy (bounds, nested widths, leaf values), which must refuse a bad specification with a message
// and otherwise put each leaf under intervals whose ranges hold its value. Any other outcome aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "random_inputs.hpp"
#include "taxonomy_oracle.hpp"

namespace {

using anon::Code;
using anon::Error;
using anon::ErrorKind;
using anon::Taxonomy;
using anon::TaxonomyNodeSpec;

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz_taxonomy: %s\n", what.c_str());
    std::abort();
}

// A refusal must be of the expected kind and say why.
void expect_refusal(const Error& e, ErrorKind kind) {
    if (e.kind() != kind) fail(std::string("unexpected error kind: ") + e.what());
    if (std::string(e.what()).empty()) fail("a refusal without a message");
}

void node_list(anon::random_inputs::Choices& c) {
    std::vector<TaxonomyNodeSpec> nodes;
    const unsigned n = c.below(14);
    for (unsigned i = 0; i < n; ++i) {
        const unsigned parent = c.below(12);  // 10: no parent; 11: a value that never occurs
        nodes.push_back({"v" + std::to_string(c.below(10)),
                         parent == 10 ? std::nullopt
                                      : std::optional<std::string>(parent == 11 ? "w" : "v" + std::to_string(parent)),
                         1.0, std::nullopt});
    }
    std::map<std::string, std::optional<std::string>> parent;
    const std::string why_not = anon::oracle::not_a_tree(nodes, parent);
    try {
        const Taxonomy t = Taxonomy::build("t", nodes);
        if (!why_not.empty()) fail("built a taxonomy from a list that is not a tree: " + why_not);
        const std::string wrong = anon::oracle::taxonomy_violation(parent, t);
        if (!wrong.empty()) fail(wrong);
    } catch (const Error& e) {
        if (why_not.empty()) fail(std::string("refused a tree: ") + e.what());
        expect_refusal(e, ErrorKind::invalid_parameter);
    }
}

void intervals(anon::random_inputs::Choices& c) {
    const double lower = static_cast<double>(c.below(40)) - 10;
    const double upper = lower + static_cast<double>(c.below(80));
    const std::vector<double> choices{1, 2, 2.5, 3, 5, 10, 20, 0, -1};
    std::vector<double> widths;
    for (unsigned i = c.below(4); i > 0; --i) widths.push_back(c.one_of(choices));
    std::vector<std::pair<std::string, double>> leaves;
    for (unsigned i = c.below(9); i > 0; --i)
        leaves.emplace_back("x" + std::to_string(i), static_cast<double>(c.below(100)) - 20);
    bool valid_spec = lower < upper && !widths.empty();
    for (std::size_t i = 0; i < widths.size(); ++i) {
        valid_spec = valid_spec && widths[i] > 0;
        if (i > 0 && widths[i] > 0 && widths[i - 1] > 0) {
            const double ratio = widths[i] / widths[i - 1];
            valid_spec = valid_spec && ratio >= 2 && ratio == static_cast<double>(static_cast<long>(ratio));
        }
    }
    bool inside = true;
    for (const auto& [label, v] : leaves) inside = inside && v >= lower && v < upper;
    try {
        const Taxonomy t = anon::interval_taxonomy("t", lower, upper, widths, leaves);
        if (!valid_spec || !inside) fail("built an interval taxonomy from a bad specification");
        std::map<std::string, std::optional<std::string>> parent;
        for (Code v = 0; v < t.size(); ++v)
            parent[std::string(t.label(v))] =
                t.parent(v) == anon::no_code ? std::nullopt : std::optional<std::string>(t.label(t.parent(v)));
        const std::string wrong = anon::oracle::taxonomy_violation(parent, t);
        if (!wrong.empty()) fail(wrong);
        for (const auto& [label, v] : leaves) {
            const Code leaf = t.find(label);
            if (leaf == anon::no_code || !t.is_leaf(leaf)) fail("leaf " + label + " missing");
            if (t.depth(leaf) != static_cast<int>(widths.size()) + 1) fail("leaf " + label + " at the wrong depth");
            for (Code a = t.parent(leaf); a != anon::no_code; a = t.parent(a)) {
                const auto& range = t.range(a);
                if (!range || !(range->first <= v && v < range->second))
                    fail("an interval above " + label + " misses it");
            }
        }
    } catch (const Error& e) {
        if (valid_spec && inside) fail(std::string("refused a valid interval taxonomy: ") + e.what());
        expect_refusal(e, valid_spec ? ErrorKind::data_exception : ErrorKind::invalid_parameter);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    anon::random_inputs::ByteChoices c(data, size);
    if (c.coin())
        intervals(c);
    else
        node_list(c);
    return 0;
}
