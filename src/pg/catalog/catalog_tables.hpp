// The extension's catalog tables, read and written through SPI: taxonomies (anon.taxonomy, anon.taxonomy_node)
// and releases (anon.release). Reads go through the views that show the caller what it may see (anon.taxonomies,
// anon.taxonomy_nodes, anon.releases); writes run as the catalog's owner (catalog_rights.hpp) after this file has
// checked the caller's right to make them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"

namespace anon::pg {

// A taxonomy as stored: a tree of nodes, or an interval specification whose leaves are the column's values.
struct StoredTaxonomy {
    std::string name;
    std::string kind;  // "tree", "interval", "ranges" (explicit "[a,b)" nodes) or "date" (days and coarser levels)
    double lower = 0, upper = 0;
    std::vector<double> widths;
    std::vector<TaxonomyNodeSpec> nodes;  // in insertion order
    bool coded = false;                   // an interval taxonomy with bottom and top coding (coded_intervals.hpp)
    std::string owner;                    // the role that made it (read from the catalog; stored as the caller)
    Oid built_from = InvalidOid;          // the table a builder read its values from (InvalidOid: made by hand)
    std::string built_column;             // and the column (empty: the whole table)
};

// A content fingerprint of a taxonomy (kind, bounds, nodes in order): what a release records of each taxonomy it
// was computed with, so that a refresh notices a taxonomy changed under it.
std::string taxonomy_fingerprint(const StoredTaxonomy& t);

// Reads a taxonomy by name; nullopt when there is none.
std::optional<StoredTaxonomy> load_stored_taxonomy(Spi& spi, const std::string& name);

// Refuses a taxonomy value longer than the catalog holds (2,000 bytes: it indexes the values, and btree entries are
// limited to about a third of a page) with its size and start, not by the index with a bare byte count.
void check_taxonomy_value_size(const std::string& taxonomy, const std::string& value);

// Whether a taxonomy of that name exists (every role sees every taxonomy's name).
bool taxonomy_exists(Spi& spi, const std::string& name);

// Stores a new taxonomy as the caller's; refuses an existing name unless `replace`, which rewrites that taxonomy in
// place (its owner, and the releases that use it, stay; a taxonomy of a role the caller does not hold is refused).
// The nodes are inserted in batches, between which a cancel or statement_timeout is honoured.
void store_taxonomy(Spi& spi, const StoredTaxonomy& t, bool replace = false);

// A SQL array literal ({"a","b",NULL}) for passing a list as one text parameter.
std::string array_literal(const std::vector<std::optional<std::string>>& items);

// One of a release's column lists ("quasi_identifiers" or "sensitive"), in order, read through `relation` (the
// caller's view of the releases, or the table itself for the catalog's owner).
std::vector<std::string> release_column_list(Spi& spi, const std::string& relation, const std::string& schema,
                                             const std::string& name, const char* list);

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
    PublicationOptions publication;  // the publication options of params, parsed (job_spec.hpp)
    std::string algorithm;
    std::string created_by;  // the role that published it
};

// A taxonomy a release was computed with, as its report records it.
struct UsedTaxonomy {
    std::string column;
    std::string taxonomy;
    std::string owner;
    std::string fingerprint;
};

// The level of each of `qi` at which a release's last report says it was published (a full-domain release), or empty
// when it records none (local recoding, no report).
std::vector<int> recorded_levels(Spi& spi, const std::string& schema, const std::string& name,
                                 const std::vector<std::string>& qi);

// The quasi-identifiers a release's last report says were read at their day ("read_at_day"), or nullopt when the
// release has no report (none is recorded before a release's first computation).
std::optional<std::vector<std::string>> recorded_read_at_day(Spi& spi, const std::string& schema,
                                                             const std::string& name);

// The kind of taxonomy `name` ("tree", "interval", "ranges", "date"), or nullopt when there is none.
std::optional<std::string> taxonomy_kind(Spi& spi, const std::string& name);

// The taxonomies a release's last report records (empty for releases computed before 0.5).
std::vector<UsedTaxonomy> recorded_taxonomies(Spi& spi, const std::string& schema, const std::string& name);

// Removes a taxonomy of a role the caller holds, refusing one that a release uses (naming the releases the caller
// sees and counting the others).
void drop_stored_taxonomy(Spi& spi, const std::string& name);

// ---- anon.release: every statement on the release catalog is here ----

// Records the configuration of a new release (params as JSON text) as the caller's; refuses a name that a release
// of any role holds.
void insert_release(Spi& spi, const std::string& schema, const std::string& name, Oid source,
                    const std::vector<std::string>& qi, const std::vector<std::string>& sensitive,
                    const std::string& model, const std::string& params_json, const std::string& algorithm);

// Whether the caller sees a release of that name (its own, one of a role it holds, or any for the database owner).
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

// A release whose view or ST a relation is: its source and its sensitive columns.
struct PublishedRelease {
    Oid source = InvalidOid;
    std::vector<std::string> sensitive;
};

// The release (of those the caller sees) whose generalized view or ST is relation `relid`, while its source exists;
// nullopt for any other relation.
std::optional<PublishedRelease> release_publishing(Spi& spi, Oid relid);

// Deletes a release's catalog row.
void delete_release(Spi& spi, const std::string& schema, const std::string& name);

// Reads a release's configuration by output name (schema-qualified or resolved on the search_path); an error
// naming the argument when no release the caller sees has that name (and the role whose release it is, when
// row-level security hides one).
ReleaseConfig load_release(Spi& spi, const std::string& output, const char* argument);

// The quasi-identifiers of the release whose generalized view is `relation`, for a caller that sees the release or may
// read the view (a reader granted it); empty when it is none.
std::vector<std::string> release_quasi_identifiers(Spi& spi, Oid relation);

// The release (qualified name, of those the caller sees) one of whose relations is schema.name; nullopt when none.
std::optional<std::string> release_of_relation(Spi& spi, const std::string& schema, const std::string& name);

}  // namespace anon::pg
