#include "job.hpp"

#include "kept_split_run.hpp"
#include "minimality_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"

namespace anon {

namespace {

// Refuses an l outside the eligible range of each sensitive column (check_eligible_column), on the frequency set's
// whole-table histograms.
void check_eligible(const Schema& schema, const FrequencySet& fs, const ModelSpec& model) {
    for (std::size_t j = 0; j < fs.n_sa; ++j)
        check_eligible_column(model, schema.sa_names[j], whole_table_histogram(fs, j), schema.sa_tax[j]);
}

}  // namespace

// Only models with an eligible range have one; don't-care sets raise what entropy allows.
void check_eligible_column(const ModelSpec& model, const std::string& column, const Histogram& whole_table,
                           const Taxonomy& sensitive) {
    if (model.traits().eligible_range == EligibleRangeKind::none) return;
    const auto l = model.params->eligible_l();
    if (!l) return;
    const std::string why =
        ineligible_parameter_message(eligible_range(whole_table, sensitive), model.name(), *l, column);
    if (!why.empty()) throw Error(ErrorKind::invalid_parameter, why);
}

namespace {

// Refuses an individual column with an algorithm that does not read it (BSGI keeps an individual's tuples apart,
// m-invariance follows each person across versions).
void check_individuals(const FrequencySet& fs, const AlgorithmEntry& algorithm) {
    if (fs.individual.empty() || algorithm.individuals) return;
    std::vector<std::string> able;
    for (const AlgorithmEntry* e : algorithm_registry())
        if (e->individuals) able.push_back(e->name);
    std::string names;
    for (std::size_t i = 0; i < able.size(); ++i)
        names += (i == 0 ? "" : i + 1 == able.size() ? " or " : ", ") + able[i];
    bad_argument("params->'individual'", "algorithm " + names + " (the algorithms that read an individual's column)",
                 "algorithm " + algorithm.name);
}

// Refuses an algorithm that follows persons across versions (m-invariance) without a person key, and person hashes
// that do not match the rows.
void check_versions(const FrequencySet& fs, const AlgorithmEntry& algorithm, const VersionInput& versions) {
    if (!algorithm.republishes) return;
    if (fs.individual.empty())
        bad_argument("params->'individual'",
                     "the column identifying each person across versions (params->>'individual', the release's "
                     "person key) for algorithm " +
                         algorithm.name + ", which keeps every person's signature from version to version",
                     "none");
    if (!versions.person_of_row)
        throw Error(ErrorKind::internal, "algorithm " + algorithm.name + " ran without the persons' key hashes");
    if (versions.person_of_row->size() != fs.rows())
        throw Error(ErrorKind::internal, std::to_string(versions.person_of_row->size()) + " person hashes for " +
                                             std::to_string(fs.rows()) + " frequency-set rows");
}

// The model a release is checked with. Groups that took residual tuples may hold more than the model allows of them
// (unique distinct: more than l values): they are checked as the model says, and the report counts the residuals.
ModelSpec checked_model(const ModelSpec& model, const JobResult& result) {
    ModelSpec checked = model;
    if (result.residuals > 0) checked.entry = &model_checked_with_residuals(*model.entry);
    return checked;
}

// The frequency set of one sensitive column of `fs` (the same rows and counts).
FrequencySet sensitive_column(const FrequencySet& fs, std::size_t j) {
    FrequencySet fs_j;
    fs_j.n_qi = fs.n_qi;
    fs_j.n_sa = 1;
    fs_j.qi = fs.qi;
    fs_j.count = fs.count;
    for (std::size_t r = 0; r < fs.rows(); ++r) fs_j.sa.push_back(fs.sa_row(r)[j]);
    return fs_j;
}

// Refuses a model that publishes generalized sensitive values (tau-l-diversity) over a column without a taxonomy
// that holds the value any_value_label: the published label of a generalized value could not be told from that
// value, and a verification of the release would read the value as "any value" (values are data, never markers).
void check_generalized_labels(const Schema& schema, const ModelSpec& model) {
    if (!model.traits().generalizes_sensitive) return;
    for (std::size_t j = 0; j < schema.sa_tax.size(); ++j) {
        const Taxonomy& tax = schema.sa_tax[j];
        if (!tax.is_flat() || tax.label(tax.root()) == any_value_label) continue;
        throw Error(ErrorKind::data_exception,
                    "sensitive column \"" + schema.sa_names[j] + "\" holds the value " + quoted_value(any_value_label) +
                        ", which " + model.name() + " publishes for a generalized value of a column without a taxonomy",
                    "A verification of the release would read the value as any value of the column.",
                    "Give the column a taxonomy whose inner labels are not values (anon.taxonomy_from_pairs), or "
                    "replace the value in a view over the table.");
    }
}

// The schema of sensitive column j alone, with its order when the schema has the orders.
Schema column_schema(const Schema& schema, std::size_t j) {
    Schema one{schema.qi_names, {schema.sa_names[j]}, schema.qi_tax, {schema.sa_tax[j]}, {}};
    if (j < schema.sa_order.size()) one.sa_order.push_back(schema.sa_order[j]);
    return one;
}

// The model's check of a release. Algorithms that guarantee several sensitive columns one by one (BSGI, Anatomy)
// cannot meet Def. 4.6 of the l-diversity paper, which splits each group by the other columns' values: their
// releases are checked column by column.
void check_model(const Schema& schema, const FrequencySet& fs, const Release& release, const ModelSpec& model,
                 const AlgorithmEntry& algorithm) {
    if (fs.n_sa <= 1 || !algorithm.per_column_guarantee) {
        check_release_satisfies(fs, release, Requirement::make(model, schema, &fs));
        return;
    }
    for (std::size_t j = 0; j < fs.n_sa; ++j) {
        const Schema one = column_schema(schema, j);
        const FrequencySet fs_j = sensitive_column(fs, j);
        Release rel_j = release;
        rel_j.n_sa = 1;
        rel_j.piece_sa.clear();
        for (std::size_t p = 0; p < release.pieces.size(); ++p)
            rel_j.piece_sa.push_back(release.piece_sa[p * fs.n_sa + j]);
        check_release_satisfies(fs_j, rel_j, Requirement::make(model, one, &fs_j));
    }
}

// The independent checks of a job's result: nothing lost, every value covered, every class satisfies the model
// (an algorithm with its own check, MASK, runs that instead).
void check_result(const JobInput& in, const AlgorithmEntry& algorithm, JobResult& result) {
    if (algorithm.check) {
        algorithm.check(in, result);
        return;
    }
    check_release_covers(in.schema, in.fs, result.release);
    if (in.model.traits().reports_excessive_protection) {
        const std::optional<TauL> tau_l = in.model.params->tau_l();
        if (!tau_l) throw Error(ErrorKind::internal, "model " + in.model.name() + " reports e(P) without a (tau, l)");
        result.extra.emplace_back("excessive_protection",
                                  excessive_protection(in.schema, in.fs, result.release, tau_l->tau, tau_l->l));
    }
    const ModelSpec checked = checked_model(in.model, result);
    if (result.global_recoding || !checked.traits().share_based) {
        check_model(in.schema, in.fs, result.release, checked, algorithm);
        return;
    }
    // Residual tuples can break a share-based model (simple l-diversity) where no group lacked their value.
    try {
        check_model(in.schema, in.fs, result.release, checked, algorithm);
    } catch (const Error& e) {
        throw Error(ErrorKind::not_satisfiable,
                    algorithm.name + " could not place its " + std::to_string(result.residuals) +
                        " residual tuple(s) without violating " + in.model.name(),
                    e.what(), "Use a smaller l, or distinct-l-diversity, whose classes residual tuples cannot break.");
    }
}

// The bytes of the working set of `algorithm` on `in` (0 when it declares none), and whether they fit in what the
// running job's memory budget leaves (always, without a budget).
struct WorkingSet {
    std::uint64_t bytes = 0;
    bool fits = true;
};
WorkingSet working_set_of(const AlgorithmEntry& algorithm, const JobInput& in) {
    WorkingSet w;
    if (!algorithm.working_set) return w;
    w.bytes = algorithm.working_set(in);
    const MemoryBudget* budget = current_memory_budget();
    w.fits = !budget || budget->fits(w.bytes);
    return w;
}

// The job's input for `options`, with what a refresh and a republication carry.
JobInput job_input(const Schema& schema, const FrequencySet& fs, const JobSpec& spec, const Requirement& req,
                   const AlgorithmParams& options, const VersionInput& versions, const KeptGroups* kept_split) {
    JobInput in{schema, fs, spec.model, req, options, spec.every_minimal_node};
    in.keep_levels = &spec.keep_levels;
    in.history = versions.history;
    in.person_of_row = versions.person_of_row;
    in.kept_split = kept_split;
    return in;
}

}  // namespace

JobResult run_job(const Schema& schema, const FrequencySet& fs, const JobSpec& spec, const VersionInput& versions,
                  const KeptGroups* kept_split) {
    const Requirement req = Requirement::make(spec.model, schema, &fs);
    // 'auto' for local recoding: the lean algorithm when the chosen one's working set would exceed the budget and
    // the lean one's fits; otherwise the chosen one, which then fails with the memory error as before. Each working
    // set is computed once: for this choice, the charge and the warning.
    const JobInput chosen_in = job_input(schema, fs, spec, req, *spec.options, versions, kept_split);
    const WorkingSet chosen_set = working_set_of(*spec.algorithm, chosen_in);
    std::optional<JobInput> lean_in;
    WorkingSet lean_set;
    if (spec.lean_algorithm && !chosen_set.fits) {
        lean_in.emplace(job_input(schema, fs, spec, req, *spec.lean_options, versions, kept_split));
        lean_set = working_set_of(*spec.lean_algorithm, *lean_in);
        if (!lean_set.fits) lean_in.reset();
    }
    const bool lean = lean_in.has_value();
    const AlgorithmEntry& algorithm = lean ? *spec.lean_algorithm : *spec.algorithm;
    const JobInput& in = lean ? *lean_in : chosen_in;
    JobResult result;
    result.model = spec.model.name();
    result.algorithm = algorithm.name;
    result.statements = req.statements(schema);
    if (fs.rows() == 0) throw Error(ErrorKind::not_satisfiable, "the source has no rows to publish");
    check_eligible(schema, fs, spec.model);
    check_generalized_labels(schema, spec.model);
    check_individuals(fs, algorithm);
    check_versions(fs, algorithm, versions);

    ProgressPhase search("search", 0);
    check_serves(algorithm, *spec.model.entry);
    {
        MemoryCharge working;
        if (algorithm.working_set)
            working.resize((lean ? lean_set : chosen_set).bytes, "the working set of " + algorithm.name);
        if (runs_split_by_kept(algorithm, in))
            run_split_by_kept(algorithm, in, result);
        else
            algorithm.run(in, result);
    }
    result.global_recoding = algorithm.global_recoding;
    if (!algorithm.global_recoding) result.metrics = compute_metrics(schema, fs, result.release);
    search.finish();

    const MemoryCharge release_charge(result.release.bytes(), "the release");
    ProgressPhase checking("check", 0);
    check_result(in, algorithm, result);
    checking.finish();
    result.warnings = degenerate_warnings(schema, result.release);
    if (lean)
        result.warnings.push_back("algorithm 'auto' published with " + algorithm.name + " instead of " +
                                  spec.algorithm->name + ", whose working set (" + describe_bytes(chosen_set.bytes) +
                                  ") does not fit in anon.memory_limit; raise it to publish with " +
                                  spec.algorithm->name + ", which usually keeps more information");
    result.minimality = minimality_statement(schema, fs, spec.model, algorithm, result.release);
    const std::string minimality = minimality_warning(result.minimality, algorithm.name);
    if (!minimality.empty()) result.warnings.push_back(minimality);
    return result;
}

KeptClassCheck check_kept_classes(const Schema& schema, const FrequencySet& fs, const JobSpec& spec,
                                  const JobResult& result, const KeptClasses& classes, bool size_only) {
    const ModelSpec model = checked_model(spec.model, result);
    const bool per_column = fs.n_sa > 1 && spec.algorithm->per_column_guarantee;
    // The requirements, as check_model builds them (a column's schema outlives its requirement, which refers to it).
    std::vector<Schema> columns;
    std::vector<Requirement> requirements;
    if (!size_only && !per_column) requirements.push_back(Requirement::make(model, schema, &fs));
    if (!size_only && per_column) {
        columns.reserve(fs.n_sa);
        for (std::size_t j = 0; j < fs.n_sa; ++j) {
            columns.push_back(column_schema(schema, j));
            const FrequencySet fs_j = sensitive_column(fs, j);
            requirements.push_back(Requirement::make(model, columns.back(), &fs_j));
        }
    }
    const Release& rel = result.release;
    // Each sub-class as a frequency set of its published sensitive values (as check_release_satisfies does a class).
    FrequencySet part;
    part.n_qi = 0;
    part.n_sa = fs.n_sa;
    FrequencySet part_j;
    part_j.n_qi = 0;
    part_j.n_sa = 1;
    Requirement::Scratch scratch;
    std::vector<std::uint32_t> rows;
    KeptClassCheck check;
    check.sub_classes = classes.size();
    InterruptPoller poller(256);
    for (std::size_t c = 0; c < classes.size(); ++c) {
        poller.tick();
        part.sa.clear();
        part.count.clear();
        rows.clear();
        Count size = 0;
        for (std::size_t e = classes.start[c]; e < classes.start[c + 1]; ++e) {
            // data() + offset, not &piece_sa[...]: without sensitive columns the array is empty.
            part.add(nullptr, rel.piece_sa.data() + std::size_t{classes.piece[e]} * rel.n_sa, classes.tuples[e]);
            rows.push_back(static_cast<std::uint32_t>(rows.size()));
            size += classes.tuples[e];
        }
        check.rows += size;
        bool satisfied = size >= model.k;
        for (std::size_t j = 0; satisfied && j < requirements.size(); ++j) {
            const FrequencySet* checked = &part;
            if (per_column) {
                part_j.sa.clear();
                part_j.count = part.count;
                for (std::size_t r = 0; r < part.rows(); ++r) part_j.sa.push_back(part.sa_row(r)[j]);
                checked = &part_j;
            }
            satisfied = requirements[j].satisfied(*checked, rows.data(), rows.size(), scratch);
        }
        if (satisfied) continue;
        ++check.violating;
        check.violating_rows += size;
        const std::size_t distinct =
            fs.n_sa == 0 ? 0 : class_statistics(part, rows.data(), rows.size()).distinct_sensitive;
        if (distinct == 1) check.single_value_rows += size;
        if (check.worst_rows == 0 || size < check.worst_rows ||
            (size == check.worst_rows && distinct < check.worst_distinct)) {
            check.worst_rows = size;
            check.worst_distinct = distinct;
        }
    }
    return check;
}

JobResult run_job(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
                  const std::string& algorithm) {
    return run_job(schema, fs, parse_job_spec(model, params, algorithm));
}

void write_metrics(JsonWriter& w, const Metrics& m) {
    w.field("discernibility", m.discernibility)
        .field("avg_class_size", m.avg_class_size)
        .field("height", m.height)
        .field("il", m.il)
        .field("ncp", m.ncp)
        .field("dist", m.dist)
        .field("kl", m.kl)
        .field("um", m.um);
}

void write_loss_per_qi(JsonWriter& w, const Schema& schema, const Metrics& m) {
    if (m.ncp_per_qi.size() != schema.qi_names.size()) return;
    w.key("loss_per_qi").begin_object();
    for (std::size_t j = 0; j < schema.qi_names.size(); ++j) w.field(schema.qi_names[j], m.ncp_per_qi[j]);
    w.end_object();
}

void write_report(JsonWriter& w, const Schema& schema, const JobResult& r) {
    // The source's tuples published; the release's rows add its counterfeits (m-invariance), which are no source row.
    const Count from_source = [&] {
        Count n = 0;
        for (const auto& p : r.release.pieces) n += p.count;
        return n;
    }();
    const Count published = from_source + r.release.counterfeit_tuples();
    w.field("model", r.model)
        .field("algorithm", r.algorithm)
        .field("rows", static_cast<long long>(from_source + r.release.suppressed))
        .field("published_rows", static_cast<long long>(published))
        .field("suppressed", static_cast<long long>(r.release.suppressed))
        .field("classes", static_cast<long long>(r.metrics.classes))
        .field("min_class_size", static_cast<long long>(r.metrics.min_class_size))
        .field("prosecutor_risk", prosecutor_risk(r.metrics.min_class_size))
        .field("marketer_risk", marketer_risk(static_cast<Count>(r.metrics.classes), published));
    if (find_algorithm(r.algorithm).reports_residuals) w.field("residuals", static_cast<long long>(r.residuals));
    for (const auto& [key, value] : r.extra) w.field(key, value);
    for (const auto& [key, json] : r.statements) w.key(key).raw(json);
    write_metrics(w, r.metrics);
    write_loss_per_qi(w, schema, r.metrics);
    if (r.release.levels) {
        w.key("levels").begin_object();
        for (std::size_t j = 0; j < schema.qi_names.size(); ++j) w.field(schema.qi_names[j], (*r.release.levels)[j]);
        w.end_object();
        w.field("minimal_nodes", static_cast<long long>(r.minimal_nodes.size()))
            .field("lattice_size", static_cast<long long>(r.lattice_size))
            .field("nodes_evaluated", static_cast<long long>(r.nodes_evaluated));
    }
    write_minimality(w, r.minimality);
    w.key("warnings").begin_array();
    for (const auto& warning : r.warnings) w.value(warning);
    w.end_array();
}

}  // namespace anon
