// The extension's catalog tables, read and written through SPI: taxonomies (anon.taxonomy, anon.taxonomy_node)
// and releases (anon.release).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "spi.hpp"

namespace anon::pg {

// A taxonomy as stored: a tree of nodes, or an interval specification whose leaves are the column's values.
struct StoredTaxonomy {
    std::string name;
    std::string kind;  // "tree", "interval", "ranges" (explicit "[a,b)" nodes) or "date" (days and coarser levels)
    double lower = 0, upper = 0;
    std::vector<double> widths;
    std::vector<TaxonomyNodeSpec> nodes;  // in insertion order
    bool coded = false;                   // an interval taxonomy with bottom and top coding (coded_intervals.hpp)
};

// Reads a taxonomy by name; nullopt when there is none.
std::optional<StoredTaxonomy> load_stored_taxonomy(Spi& spi, const std::string& name);

// Whether a taxonomy of that name exists (row-level security lets every role read every taxonomy).
bool taxonomy_exists(Spi& spi, const std::string& name);

// Stores a new taxonomy; refuses an existing name unless `replace`, which rewrites that taxonomy in place (its
// owner, and the releases that use it, stay; another role's taxonomy is refused).
void store_taxonomy(Spi& spi, const StoredTaxonomy& t, bool replace = false);

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

// ---- anon.release: every statement on the release catalog is here ----

// Records the configuration of a new release (params as JSON text).
void insert_release(Spi& spi, const std::string& schema, const std::string& name, Oid source,
                    const std::vector<std::string>& qi, const std::vector<std::string>& sensitive,
                    const std::string& model, const std::string& params_json, const std::string& algorithm);

// Whether the caller sees a release of that name.
bool is_release(Spi& spi, const std::string& schema, const std::string& name);

// The stored report of a release as JSON text ("null" when there is none).
std::string stored_report(Spi& spi, const std::string& schema, const std::string& name);

// Stores a computation's report and time, and its input fingerprint (what anon.refresh_if_changed compares). A
// database still at SQL version 0.1 (library updated, ALTER EXTENSION not yet run) has no fingerprint column: the
// report and time are stored, and the first refresh_if_changed after the update refreshes the release.
void store_computation(Spi& spi, const std::string& schema, const std::string& name, const std::string& report_json,
                       const std::string& fingerprint);

// Adds the end-to-end time of the call that published a release to its stored report.
void store_report_ms(Spi& spi, const std::string& schema, const std::string& name, double ms);

// The metrics of a release's stored report, with its name and computation time, as JSON text (anon.metrics).
std::string stored_metrics(Spi& spi, const std::string& schema, const std::string& name);

// The source a release's last report named (for a source whose OID no longer resolves).
std::optional<std::string> reported_source(Spi& spi, const std::string& schema, const std::string& name);

// Deletes a release's catalog row.
void delete_release(Spi& spi, const std::string& schema, const std::string& name);

// Reads a release's configuration by output name (schema-qualified or resolved on the search_path); an error
// naming the argument when no release the caller sees has that name (and the role whose release it is, when
// row-level security hides one).
ReleaseConfig load_release(Spi& spi, const std::string& output, const char* argument);

}  // namespace anon::pg
