#include "computed_release.hpp"

#include <chrono>
#include <optional>

#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "infra/infra.hpp"
#include "kept_groups.hpp"
#include "object_queries.hpp"
#include "release_keep.hpp"
#include "release_report.hpp"
#include "release_versions.hpp"
#include "republishing.hpp"

extern "C" {
#include "storage/proc.h"
}

namespace anon::pg {

namespace {

std::shared_ptr<ComputedRelease> g_handed_over;
LocalTransactionId g_handed_over_xact = InvalidLocalTransactionId;
int g_handed_over_uses = 0;

}  // namespace

void charge_computed_release(MemoryBudget& budget, const ComputedRelease& computed) {
    budget.charge(computed.source.fs.bytes(), "the frequency set");
    budget.charge(computed.result.release.bytes(), "the release");
}

void hand_over(std::shared_ptr<ComputedRelease> computed, int uses) {
    g_handed_over = std::move(computed);
    g_handed_over_xact = MyProc->lxid;
    g_handed_over_uses = uses;
}

std::shared_ptr<ComputedRelease> take_handed_over(const OutputName& output) {
    std::shared_ptr<ComputedRelease> taken = g_handed_over;
    const bool valid = taken && g_handed_over_xact == MyProc->lxid && g_handed_over_uses > 0 &&
                       taken->output.schema == output.schema && taken->output.name == output.name;
    if (!valid || --g_handed_over_uses == 0) {
        g_handed_over.reset();
        g_handed_over_xact = InvalidLocalTransactionId;
    }
    return valid ? taken : nullptr;
}

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<DayColumn> days_to_read(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                    const PublicationOptions& publication, Count least, bool local,
                                    const std::optional<std::vector<std::string>>& recorded_at_day) {
    if (publish_form(publication).bucketized || (local && !publication.keep.empty() && publication.keep_identifying) ||
        !release_tuples_installed() || is_citus_distributed(spi, source))
        return {};
    return columns_read_at_day(spi, source, qi, publication, least, recorded_at_day);
}

std::unique_ptr<ComputedRelease> compute(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                         const std::vector<std::string>& sensitive, const JobSpec& given,
                                         const std::vector<std::string>& read_kept, const VersionHistory* history,
                                         const std::optional<std::vector<std::string>>& recorded_at_day,
                                         const InputTest* input_test) {
    const JobSpec spec = republishing_spec(given, qi, sensitive);
    auto computed = std::make_unique<ComputedRelease>();
    // The read's large blocks go back to the system when freed, and so do the rest's for a large job
    // (memory_limit.hpp).
    std::optional<LargeBlocksReturned> returned(std::in_place);
    CallBudget call_budget;  // anon.memory_limit, current while it lives
    MemoryBudget& budget = call_budget.budget();
    auto start = std::chrono::steady_clock::now();
    const bool local = !spec.algorithm->global_recoding || spec.lean_algorithm;
    computed->source =
        read_source(spi, source, qi, sensitive, spec.publication, TaxonomySource::catalog, {}, read_kept,
                    days_to_read(spi, source, qi, spec.publication, foldable_class_size(spec), local, recorded_at_day));
    if (input_test) {
        const bool changed = input_fingerprint(computed->source.schema, computed->source.fs,
                                               computed->source.individual_labels) != input_test->fingerprint;
        input_test->compared(changed);
        if (!changed) return nullptr;
    }
    // The most a local-recoding algorithm's working sets count per frequency-set row (every row a group).
    if (!returns_large_blocks(computed->source.fs.rows() * local_working_set_per_row())) returned.reset();
    budget.charge(computed->source.fs.bytes(), "the frequency set");
    if (const auto& kept = computed->source.kept_groups)
        budget.charge(kept->bytes(), kept->described(), KeptGroups::memory_remedy);
    computed->typed = typed_columns(spi, source, computed->source.schema, spec.publication);
    computed->read_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    const bool republishes = spec.algorithm && spec.algorithm->republishes;
    computed->republishes = republishes;
    const std::vector<ValueHash> persons = republishes ? person_hashes(computed->source) : std::vector<ValueHash>{};
    // Kept columns published in the view, not acknowledged as identifying: a full-domain search makes the classes
    // split by their values satisfy the model (JobInput::kept_split); the check after the job stays.
    const PublicationOptions& publication = spec.publication;
    const KeptGroups* kept_split =
        !publication.keep.empty() && !publication.keep_identifying && kept_in(publish_form(publication)) == "view"
            ? computed->source.kept_groups.get()
            : nullptr;
    computed->result = run_job(computed->source.schema, computed->source.fs, spec,
                               republishes ? VersionInput{history, &persons} : VersionInput{}, kept_split);
    check_typed_ranges_cover(computed->source.schema, computed->source.fs, computed->result.release, computed->typed);
    for (const TypedColumn& column : computed->typed)
        if (!column.note.empty()) computed->result.warnings.push_back(column.note);
    if (auto lookalikes = lookalike_values_warning(spi, computed->source))
        computed->result.warnings.push_back(std::move(*lookalikes));
    computed->search_ms = ms_since(start);
    computed->peak_bytes = budget.peak();
    return computed;
}

void note_kept_columns(ComputedRelease& computed, const std::vector<std::string>& keep, const std::string& placement,
                       const std::optional<std::string>& warning) {
    computed.keep = keep;
    if (!keep.empty()) computed.kept_in = placement;
    if (warning) computed.result.warnings.push_back(*warning);
}

namespace {

// Refuses a recomputation whose taxonomies differ from those the release's last report records (another content or
// another owner), unless the release's owner holds the role that owns the taxonomy now: a taxonomy changed by anyone
// else would change the release behind its owner's back. Releases computed before 0.5 record none.
void check_taxonomies_unchanged(Spi& spi, const OutputName& out, Oid owner, const std::vector<UsedTaxonomy>& now) {
    const std::vector<UsedTaxonomy> recorded = recorded_taxonomies(spi, out.schema, out.name);
    for (const UsedTaxonomy& before : recorded)
        for (const UsedTaxonomy& after : now) {
            if (after.column != before.column) continue;
            if (after.taxonomy == before.taxonomy && after.owner == before.owner &&
                after.fingerprint == before.fingerprint)
                continue;
            if (role_holds(owner, after.owner)) continue;
            throw Error(
                ErrorKind::changed_underneath,
                "taxonomy \"" + after.taxonomy + "\" of column \"" + after.column + "\" changed since the release " +
                    out.qualified() + " was computed (it was \"" + before.taxonomy + "\" of role " +
                    quote_ident(before.owner) + ", fingerprint " + before.fingerprint + "; it is now of role " +
                    quote_ident(after.owner) + ", fingerprint " + after.fingerprint +
                    "), and not by the release's owner: the release is left as it was",
                {}, "Publish the release again (anon.anonymize with \"replace\": true) to accept the new taxonomy.");
        }
}

}  // namespace

std::unique_ptr<ComputedRelease> compute_release(Spi& spi, const ReleaseConfig& config, bool next_version,
                                                 const InputTest* input_test) {
    const auto start = std::chrono::steady_clock::now();
    JobSpec spec = parse_job_spec(config.model, config.params, config.algorithm);
    // A full-domain release keeps its node while it still satisfies the model (docs/republication.md).
    spec.keep_levels = recorded_levels(spi, config.schema, config.name, config.quasi_identifiers);
    const auto keep = keep_columns(spi, config.source, spec.publication, config.quasi_identifiers, config.sensitive);
    const std::string kept = kept_in_existing(spi, {config.schema, config.name}, publish_form(spec.publication), keep);
    const std::vector<std::string> read_kept = kept_to_read_along(spi, config.source, keep);
    // The source is read again with the rights of the release's owner, never the caller's (release_owner_rights.hpp).
    const OutputName out{config.schema, config.name};
    const Oid owner = release_owner(spi, out, publish_form(spec.publication), config.created_by);
    auto computed = as_release_owner(out, owner, [&] {
        const VersionHistory history = spec.algorithm->republishes ? recorded_history(spi, out) : VersionHistory{};
        auto job = compute(spi, config.source, config.quasi_identifiers, config.sensitive, spec, read_kept,
                           spec.algorithm->republishes ? &history : nullptr,
                           recorded_read_at_day(spi, config.schema, config.name), input_test);
        if (job) check_taxonomies_unchanged(spi, out, owner, job->source.taxonomies);
        return job;
    });
    if (!computed) return nullptr;
    const auto keep_warning = check_computed_kept_linkage(spi, *computed, keep, kept, spec.publication, false);
    note_kept_columns(*computed, keep, kept, keep_warning);
    if (const auto warning = check_kept_classes(*computed, spec, keep, kept, false))
        computed->result.warnings.push_back(*warning);
    computed->output = {config.schema, config.name};
    computed->form = publish_form(spec.publication);
    // Judged as the release's next version with the owner's rights, as the source was read (not for an audit).
    if (next_version)
        computed->version =
            as_release_owner(out, owner, [&] { return judge_version(spi, *computed, config.source, spec); });
    if (computed->form.generalized && !computed->typed.empty() && relation_exists(spi, computed->output))
        check_view_types(spi, config.schema, config.name, computed->source.schema, computed->typed);
    computed->report_json = build_report(*computed, ms_since(start));
    publish_counterfeits(*computed);
    return computed;
}

}  // namespace anon::pg
