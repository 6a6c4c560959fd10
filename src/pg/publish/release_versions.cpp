#include "release_versions.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "models/models.hpp"
#include "read/read.hpp"
#include "release_composition.hpp"
#include "republishing.hpp"

namespace anon::pg {

namespace {

constexpr const char* m_invariance_hint =
    "To publish such changes, publish the release's versions m-invariant (algorithm 'm-invariance' with "
    "params->'person_key'), or publish it anew (params->'replace'), which starts a new history.";

// Refuses a person key that is missing or published (a QI, sensitive or kept column would print it beside the
// release).
void check_person_key(Spi& spi, Oid relid, const std::string& key, const ComputedRelease& computed) {
    const auto& schema = computed.source.schema;
    const bool published = std::count(schema.qi_names.begin(), schema.qi_names.end(), key) > 0 ||
                           std::count(schema.sa_names.begin(), schema.sa_names.end(), key) > 0 ||
                           std::count(computed.keep.begin(), computed.keep.end(), key) > 0;
    if (published)
        bad_argument("params->'person_key'", "a column the release does not publish (it is never published)",
                     "\"" + key + "\", a quasi-identifier, sensitive or kept column");
    if (!has_column(spi, relid, key))
        bad_argument("params->'person_key'", "a column of " + qualified_name(relid), "\"" + key + "\"");
}

// The persons of a version: by the owner's key, else each published QI combination is one (the combinations of
// the version's candidate index).
std::vector<PersonAt> persons_of(Spi& spi, Oid relid, const ComputedRelease& computed, const JobSpec& spec,
                                 const CandidateIndex& candidates) {
    if (const auto& key = spec.publication.person_key) {
        check_person_key(spi, relid, *key, computed);
        return persons_by_key(spi, relid, *key, computed.source.schema.qi_names,
                              day_column_names(computed.source.read_at_day));
    }
    return combination_persons(candidates);
}

// (a) and (b) of docs/republication.md against the recorded versions: refuses the version with the figures.
void check_against_versions(const ComputedRelease& computed, const Requirement& requirement,
                            const VersionHistory& history, const VersionSnapshot& snapshot,
                            const CandidateIndex& candidates, const std::vector<PersonAt>& persons,
                            JsonWriter& report) {
    const RepublicationVerdict verdict =
        check_next_version(requirement, computed.source.schema, history, snapshot, candidates, persons);
    report.key("changes").begin_object();
    report.field("changed_classes", static_cast<long long>(verdict.changed_classes))
        .field("violating_changes", static_cast<long long>(verdict.violating_changes))
        .field("persons_rechecked", static_cast<long long>(verdict.persons_rechecked))
        .field("persons_violating", static_cast<long long>(verdict.persons_violating))
        .field("fewest_candidates", static_cast<long long>(verdict.fewest_candidates));
    report.end_object();
    if (!verdict.publishable())
        throw Error(ErrorKind::disclosure,
                    "the new version of " + computed.output.qualified() + " is " + verdict.detail(), {},
                    m_invariance_hint);
}

// The history after an m-invariant version, checked again independently of the algorithm's own check
// (audit/republication.hpp): every class m-unique counting counterfeits, every person already published keeping its
// signature. Its persons are the rows' persons, each located by its own class (`snapshot`, by QI combination, stays
// the version the composition with other releases reads).
VersionHistory advance_m_invariant(const ComputedRelease& computed, const JobSpec& spec, const VersionHistory& history,
                                   VersionSnapshot snapshot, JsonWriter& report) {
    const std::vector<ValueHash> ids = person_hashes(computed.source);
    VersionSnapshot by_person = snapshot_of(computed.source.schema, computed.source.fs, computed.result.release, &ids);
    std::vector<PersonAt> persons;
    for (ValueHash id : ids) persons.push_back({id, id});
    const auto m = static_cast<std::size_t>(std::ceil(spec.model.params->l_parameter().value_or(0) - 1e-9));
    const MInvarianceVerdict verdict = check_m_invariance(history, by_person, persons, m);
    report.key("m_invariance").begin_object();
    report.field("m", static_cast<long long>(m))
        .field("counterfeits", static_cast<long long>(verdict.counterfeits))
        .field("persons_rechecked", static_cast<long long>(verdict.persons_rechecked));
    report.end_object();
    if (!verdict.holds())
        throw Error(ErrorKind::internal, "the m-invariant version of " + computed.output.qualified() +
                                             " fails its independent check: " + verdict.detail());
    VersionHistory next = advance(history, std::move(by_person), persons);
    next.last = std::move(snapshot);
    return next;
}

// The composition with the source's other live releases (`releases`, not empty): the figures for the report, or a
// refusal when people keep fewer candidates than the model requires and the owner did not acknowledge it (then the
// report warns).
void check_composition(Spi& spi, Oid relid, ComputedRelease& computed, const JobSpec& spec,
                       const Requirement& requirement, const VersionSnapshot& snapshot,
                       std::vector<ComposedRelease> releases, JsonWriter& report) {
    ComposedRelease self;
    self.name = computed.output.qualified();
    self.quasi_identifiers = computed.source.schema.qi_names;
    self.sensitive = computed.source.schema.sa_names;
    self.read_at_day = day_column_names(computed.source.read_at_day);
    self.candidates = candidates_of(snapshot);
    releases.insert(releases.begin(), std::move(self));
    auto required = [&](const std::string& column) -> std::size_t {
        const auto& names = computed.source.schema.sa_names;
        const auto j = static_cast<std::size_t>(std::find(names.begin(), names.end(), column) - names.begin());
        return j < requirement.checkers().size() ? requirement.checkers()[j]->required_candidates() : 0;
    };
    report.key("composition").begin_array();
    for (const ColumnComposition& c : compose_releases(spi, relid, releases, 0, required)) {
        report.begin_object().field("column", c.column).field("releases", static_cast<long long>(c.releases));
        report.field("required", static_cast<long long>(required(c.column)))
            .field("persons_below", static_cast<long long>(c.figures.below_required))
            .field("fewest_candidates", static_cast<long long>(c.figures.fewest))
            .end_object();
        if (c.figures.below_required == 0) continue;
        const std::string figures = std::to_string(c.figures.below_required) + " of " +
                                    std::to_string(c.figures.persons) + " people with fewer than " +
                                    std::to_string(required(c.column)) + " candidate values of \"" + c.column +
                                    "\" (fewest: " + std::to_string(c.figures.fewest) + ") combined with the " +
                                    std::to_string(c.releases - 1) + " other live release(s) of the source";
        if (!spec.publication.acknowledge_composition)
            throw Error(ErrorKind::disclosure, "publishing " + computed.output.qualified() + " would leave " + figures,
                        {},
                        "Publish with params->'acknowledge_composition' = true to accept it (the report warns), "
                        "drop a release of the source, or generalize further.");
        computed.result.warnings.push_back("acknowledged composition: " + figures);
    }
    report.end_array();
}

}  // namespace

VersionHistory recorded_history(Spi& spi, const OutputName& out) {
    if (!is_release(spi, out.schema, out.name)) return {};
    const std::optional<std::string> bytes = load_history(spi, out);
    if (!bytes) return {};
    try {
        return VersionHistory::parse(*bytes);
    } catch (const Error& e) {
        throw Error(ErrorKind::data_exception,
                    "the version history of " + out.qualified() + " in anon.release_history is not valid: " + e.what(),
                    {}, "Publish the release anew (params->'replace'), which starts a new history.");
    }
}

ReleaseVersion judge_version(Spi& spi, ComputedRelease& computed, Oid relid, const JobSpec& spec) {
    const auto start = std::chrono::steady_clock::now();
    ReleaseVersion version;
    if (computed.output.name.empty() || !catalog_has_history(spi)) return version;
    ProgressPhase judging("version history", 0);
    // The judging's working set within anon.memory_limit, beside what the job left: the recorded history, the
    // version's snapshot (24 + 8 n_sa bytes a member, a member per piece; twice for an m-invariant release, whose
    // persons are its rows), the sorted copy of its hashes that serializing makes and the bytes (about 4 + 2 n_sa).
    CallBudget call_budget;
    MemoryBudget& budget = call_budget.budget();
    charge_computed_release(budget, computed);
    VersionHistory history = recorded_history(spi, computed.output);
    budget.charge(history.bytes(), "the recorded version history");
    const std::uint64_t members = computed.result.release.pieces.size(), n_sa = computed.source.fs.n_sa;
    const MemoryCharge snapshot_charge(
        members * ((spec.algorithm->republishes ? 2 : 1) * (24 + 8 * n_sa) + 12 + 2 * n_sa),
        "the version's snapshot and history (" + std::to_string(members) + " members)");
    if (history.versions == 0) history.keyed = spec.publication.person_key.has_value();
    // Moved into the next history once judged (a member per piece: a release of a tuple a piece holds one per row).
    VersionSnapshot snapshot = snapshot_of(computed.source.schema, computed.source.fs, computed.result.release);
    const bool republishes = spec.algorithm->republishes;
    // A release whose persons are its QI combinations and which computed exactly its last version (a refresh of an
    // unchanged source) has nothing to judge against its versions, (a) no change and (b) every person's candidates
    // those of the last version, already in their intersections, and nothing new to record.
    version.same_as_last = history.versions > 0 && !republishes && !history.keyed && !spec.publication.person_key &&
                           same_version(history.last, snapshot);
    // What the version tells of each QI combination, made once for the persons, the checks and the history; an
    // m-invariant release's persons are its rows (advance_m_invariant), the others' are read here.
    const bool judged = !republishes && !version.same_as_last;
    const CandidateIndex candidates = judged ? candidates_of(snapshot) : CandidateIndex{};
    const std::vector<PersonAt> persons =
        judged ? persons_of(spi, relid, computed, spec, candidates) : std::vector<PersonAt>{};
    std::vector<ComposedRelease> others = live_composed_releases(spi, relid, computed.output);
    const bool against_versions = history.versions > 0 && judged;
    // The release's requirement, built once for both checks when one of them runs.
    std::optional<Requirement> requirement;
    if (against_versions || !others.empty())
        requirement.emplace(Requirement::make(spec.model, computed.source.schema, &computed.source.fs));
    JsonWriter report;
    report.begin_object();
    if (against_versions)
        check_against_versions(computed, *requirement, history, snapshot, candidates, persons, report);
    if (!others.empty())
        check_composition(spi, relid, computed, spec, *requirement, snapshot, std::move(others), report);
    if (version.same_as_last) {
        version.number = history.versions;
        report.field("same_as_last_version", true);
    } else {
        VersionHistory next = republishes ? advance_m_invariant(computed, spec, history, std::move(snapshot), report)
                                          : advance(history, std::move(snapshot), candidates, persons);
        version.number = next.versions;
        version.history = next.serialize();
        report.field("history_bytes", static_cast<long long>(version.history.size()));
        report.field("persons", static_cast<long long>(republishes ? computed.source.fs.rows() : persons.size()));
    }
    report.field("keyed", spec.publication.person_key.has_value());
    report.end_object();
    judging.finish();
    version.republication_json = report.str();
    version.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return version;
}

void record_version(Spi& spi, ComputedRelease& computed) {
    if (computed.version.number == 0 || computed.version.same_as_last) return;
    store_history(spi, computed.output, computed.version.number, computed.version.history);
    // Stored: its bytes are not held through the population.
    std::string().swap(computed.version.history);
}

}  // namespace anon::pg
