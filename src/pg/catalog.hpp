// The extension's catalog tables, read and written through SPI: taxonomies (anon.taxonomy, anon.taxonomy_node)
// and releases (anon.release).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "param_schema.hpp"
#include "params.hpp"
#include "spi.hpp"
#include "taxonomy.hpp"

namespace anon::pg {

// A taxonomy as stored: a tree of nodes, or an interval specification whose leaves are the column's values.
struct StoredTaxonomy {
    std::string name;
    std::string kind;  // "tree" or "interval"
    double lower = 0, upper = 0;
    std::vector<double> widths;
    std::vector<TaxonomyNodeSpec> nodes;  // in insertion order
};

// Reads a taxonomy by name; nullopt when there is none.
std::optional<StoredTaxonomy> load_stored_taxonomy(Spi& spi, const std::string& name);

// Stores a new taxonomy; refuses an existing name.
void store_taxonomy(Spi& spi, const StoredTaxonomy& t);

// A SQL array literal ({"a","b",NULL}) for passing a list as one text parameter.
std::string array_literal(const std::vector<std::optional<std::string>>& items);

// The stored configuration of a release.
struct ReleaseConfig {
    std::string schema;  // output schema
    std::string name;    // output relation name
    Oid source = InvalidOid;
    std::vector<std::string> quasi_identifiers;
    std::vector<std::string> sensitive;
    std::string model;
    Params params;
    std::string params_json;
    ParamValues publication;  // the publication options of params, parsed (job_spec.hpp)
    std::string algorithm;
};

// Reads a release's configuration by output name (schema-qualified or resolved on the search_path); an error
// naming the argument when no release the caller sees has that name (and the role whose release it is, when
// row-level security hides one).
ReleaseConfig load_release(Spi& spi, const std::string& output, const char* argument);

}  // namespace anon::pg
