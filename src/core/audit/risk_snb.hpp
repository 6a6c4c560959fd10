// The SNB model of population uniqueness (Chen & Keller-McNulty 1998), one of the three models Dankar et al.'s rule
// chooses from (audit/risk.hpp): the population's class sizes follow a negative binomial distribution shifted by one,
// each record is in the sample with the sampling fraction, and the model's two parameters are fitted so that the
// expected numbers of sample classes of sizes 1 and 2 equal the observed ones. docs/risk.md gives the formulas.
#pragma once

#include <string>

#include "audit/risk.hpp"

namespace anon {

// The fitted SNB model: alpha > 0 and beta in (0, 1) are the negative binomial's parameters, `uniques` the
// estimated number of population uniques (classes * beta^alpha). When `converged` is false the equations have no
// single solution with alpha > 0 and beta in (0, 1), `failure` says why, and the numbers are NaN.
struct SnbFit {
    bool converged = false;
    double alpha;
    double beta;
    double uniques;
    std::string failure;
};

// The number of non-empty classes in the population estimated from the sample's class sizes by Shlosser's estimator
// in the form of Haas et al. (1995, D_Sh3), assuming each record was sampled with probability
// `sampling_fraction` in (0, 1]; at 1 the sample's classes are the population's.
double shlosser_population_classes(const ClassSizeHistogram& sizes, double sampling_fraction);

// Fits the SNB model to `classes` non-empty population classes sampled with `sampling_fraction` in (0, 1], of which
// `uniques_in_sample` sample classes have one record and `pairs_in_sample` two.
SnbFit snb_fit(double classes, double sampling_fraction, double uniques_in_sample, double pairs_in_sample);

// The SNB model's estimate of the population uniques of a sample with these class sizes drawn from `population`
// people (at least the rows): snb_fit with Shlosser's number of classes. NaN when the model has no valid estimate
// (no fit, or an estimate outside (0, population]); `failure`, when given, receives the reason.
double snb_population_uniques(const ClassSizeHistogram& sizes, double population, std::string* failure = nullptr);

}  // namespace anon
