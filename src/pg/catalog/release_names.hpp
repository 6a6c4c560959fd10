// The names of a release: its output relation resolved against the search_path, what it publishes
// (params->>'publish') and the relations that follows from both. Every folder above the catalog names releases so.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// An output relation name resolved against the caller's search_path.
struct OutputName {
    std::string schema;
    std::string name;
    std::string qualified() const;  // quoted
};

// Resolves `output` (possibly schema-qualified, possibly quoted) to the schema it would be created in.
OutputName resolve_output(const std::string& output);

// Whether a relation with that name exists, and whether it is a release.
bool relation_exists(Spi& spi, const OutputName& out);
bool is_release(Spi& spi, const OutputName& out);

// What a release publishes (params->>'publish'): the generalized view, the bucketized QIT/ST pair, or both.
struct PublishForm {
    bool generalized = true;
    bool bucketized = false;
    int objects() const { return (generalized ? 1 : 0) + (bucketized ? 2 : 0); }
};
PublishForm publish_form(const ParamValues& publication);

// The relations of a release: <output> (generalized), <output>_qit and <output>_st (bucketized).
std::vector<OutputName> release_relations(const OutputName& out, const PublishForm& form);

}  // namespace anon::pg
