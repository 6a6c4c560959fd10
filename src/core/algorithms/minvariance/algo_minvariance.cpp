// m-invariance (minvariance.hpp): the next version of a release whose persons keep their signatures, for the models
// whose classes can be made of distinct sensitive values (distinct, unique distinct and simple l-diversity).
#include <cmath>

#include "algorithms/algorithms_internal.hpp"
#include "minvariance.hpp"

namespace anon::algorithms {

namespace {

// m = ceil(l), refused below 2 or under the model's k (a class holds m tuples).
std::size_t m_of(const JobInput& in) {
    const std::optional<double> l = in.model.params->l_parameter();
    if (!l) throw Error(ErrorKind::internal, "model " + in.model.name() + " serves m-invariance without an l");
    const auto m = static_cast<std::size_t>(std::ceil(*l));
    if (m < 2) bad_argument("l", "l > 1 for m-invariance (m = ceil(l) >= 2)", format_number(*l));
    if (in.model.k > static_cast<Count>(m))
        bad_argument("params->'k'", "k <= m for m-invariance (its classes hold m tuples)",
                     std::to_string(in.model.k) + " with m=" + std::to_string(m));
    return m;
}

// What the phases read, from the job's input.
MInvarianceInput input_of(const JobInput& in) {
    if (!in.person_of_row)
        throw Error(ErrorKind::internal, "m-invariance ran without the persons of the rows (params->'individual')");
    const auto& options = options_as<LocalRecodingParams>(in.options);
    return MInvarianceInput{in.schema, in.fs, *in.person_of_row, in.history, m_of(in), options.ranges == Ranges::tight};
}

// Its working set: per row its rank, its place in a bucket and in a group, and the groups as local recoding's.
std::uint64_t working_set(const JobInput& in) {
    const auto m = static_cast<Count>(std::ceil(in.model.params->l_parameter().value_or(2.0)));
    return local_working_set(in.fs, in.fs.total() / std::max<Count>(m, 1)) +
           48 * static_cast<std::uint64_t>(in.fs.rows());
}

void run(const JobInput& in, JobResult& result) {
    MInvarianceStats stats;
    result.release = m_invariant_release(input_of(in), &stats);
    result.residuals = stats.residuals;
    result.extra.emplace_back("counterfeits", static_cast<double>(stats.counterfeits));
    result.extra.emplace_back("buckets", static_cast<double>(stats.buckets));
    result.extra.emplace_back("new_tuples", static_cast<double>(stats.new_tuples));
    result.extra.emplace_back("persons_carried_over", static_cast<double>(stats.carried_over));
}

// Its own check: every value covered, m-invariance recomputed, and the model on every class counting counterfeits
// (as distinct l-diversity when classes hold more than m tuples: unique distinct l-diversity asks exactly l).
void check(const JobInput& in, const JobResult& result) {
    check_release_covers(in.schema, in.fs, result.release);
    check_m_invariant(input_of(in), result.release);
    ModelSpec model = in.model;
    if (result.residuals > 0) model.entry = &model_checked_with_residuals(*in.model.entry);
    check_release_satisfies(in.fs, result.release, Requirement::make(model, in.schema, &in.fs));
}

}  // namespace

const AlgorithmEntry& minvariance_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "m-invariance";
        // Classes of m distinct sensitive values, as Anatomy's buckets.
        e.serves = [](const ModelTraits& m) { return m.bucketizable; };
        set_options<LocalRecodingParams>(e, {{ranges_field(&LocalRecodingParams::ranges)}});
        e.individuals = true;
        e.republishes = true;
        e.reports_residuals = true;
        e.working_set = working_set;
        e.run = run;
        e.check = check;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
