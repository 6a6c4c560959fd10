// libFuzzer target for the algorithms: each input decodes (random_inputs.hpp, reading the bytes as choices) to a
// tiny table with random taxonomies, a model with parameters (sometimes one set to a hostile number), and one of
// the algorithms job.cpp accepts for it. The job must either refuse with an invalid-parameter or not-satisfiable
// error that has a message, or return a release that release_oracle.hpp verifies. Anything else (another error, a
// crash, a leak or undefined behaviour under the sanitizers) aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "job/job.hpp"
#include "random_inputs.hpp"
#include "release_oracle.hpp"

namespace {

[[noreturn]] void fail(const std::string& job, const std::string& what) {
    std::fprintf(stderr, "fuzz_algorithms: %s: %s\n", job.c_str(), what.c_str());
    std::abort();
}

// Sets one numeric parameter to a value outside the usual ones (negative, zero, fractional, huge).
void hostile_number(anon::random_inputs::Choices& c, anon::Params& p) {
    const std::vector<std::string> keys{"k", "l", "c", "c2", "m", "t", "tau", "max_suppression", "seed"};
    const std::vector<double> values{-1, 0, 0.5, 1, 1.5, 2, 4, 7, 100, 1e6, 1e300};
    p.set(c.one_of(keys), anon::Param::of_number(c.one_of(values)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace anon;
    random_inputs::ByteChoices c(data, size);
    const random_inputs::Table t = random_inputs::random_table(c, c.below(4) == 0 ? 2 : 1);
    const auto& [family, model] = c.one_of(random_inputs::families());
    std::vector<random_inputs::Job> jobs = random_inputs::jobs_for(c, family, model, t.schema);
    random_inputs::Job job = c.one_of(jobs);
    if (c.below(4) == 0) hostile_number(c, job.params);
    const std::string name = job.algorithm + " " + job.model;
    JobResult r;
    try {
        r = run_job(t.schema, t.fs, job.model, job.params, job.algorithm);
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::invalid_parameter && e.kind() != ErrorKind::not_satisfiable)
            fail(name, std::string("unexpected error kind: ") + e.what());
        if (std::string(e.what()).empty()) fail(name, "a refusal without a message");
        return 0;
    }
    const std::string why = oracle::violation(t.schema, t.fs, job.params, r);
    if (!why.empty()) fail(name, why);
    return 0;
}
