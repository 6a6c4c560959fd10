// Re-identification risk of a table whose equivalence classes (rows with equal quasi-identifiers) have the given
// sizes: prosecutor risk (an attacker who knows the target is in the table: 1 / class size), marketer risk (the
// expected share of records re-identified when every record is attacked), sample uniques, and an estimate of the
// share of the population that is unique, by Dankar et al.'s decision rule between Pitman's, Zayatz's and the SNB
// model (audit/risk_snb.hpp). docs/risk.md gives the formulas and references.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "base/base.hpp"

namespace anon {

// How many classes have each size: size -> number of classes.
using ClassSizeHistogram = std::map<Count, Count>;

struct RiskFigures {
    Count rows = 0;
    Count classes = 0;
    double highest_prosecutor = 0;     // 1 / smallest class size
    double average_prosecutor = 0;     // mean over records of 1 / class size = classes / rows
    double records_at_risk = 0;        // share of records whose 1 / class size exceeds the threshold
    double marketer = 0;               // expected share of records re-identified: classes / rows
    Count sample_uniques = 0;          // records alone in their class
    double population = 0;             // population size the table is a sample of (rows: the table is the population)
    double sampling_fraction = 1;      // rows / population
    std::string population_model;      // "pitman", "zayatz", "snb", or "none" (no sample uniques, or no estimate)
    std::string population_rule;       // why the rule chose that model
    double population_uniques = 0;     // estimated number of population uniques
    double population_uniqueness = 0;  // population_uniques / population
    // Each model's estimate of the population uniques; empty when it has no valid estimate (did not converge).
    std::optional<double> pitman_uniques, zayatz_uniques, snb_uniques;
};

// Prosecutor risk of a release whose smallest class has `smallest` records (1 / smallest; 0 without records).
double prosecutor_risk(Count smallest);

// Marketer risk of `rows` records in `classes` classes: the expected share re-identified (classes / rows).
double marketer_risk(Count classes, Count rows);

// The risk figures of a table with these class sizes; `threshold` bounds prosecutor risk (records above it are
// at risk), `population` the size of the population the table samples (0: the table is the population).
// Throws Error(invalid_parameter) for a threshold outside [0, 1] or a population smaller than the table.
RiskFigures risk_figures(const ClassSizeHistogram& sizes, double threshold, double population);

// Pitman's model (Hoshino 2001): the population uniques estimated from the maximum-likelihood fit of the Pitman
// sampling formula to the class sizes; NaN when the fit does not converge to a valid estimate.
double pitman_population_uniques(const ClassSizeHistogram& sizes, double population);

// Zayatz's model (1991): the sample uniques that are population uniques, assuming the population's class sizes
// are distributed as the sample's and the sample is drawn without replacement, scaled by population / rows to the
// population (Dankar et al. 2012).
double zayatz_population_uniques(const ClassSizeHistogram& sizes, double population);

}  // namespace anon
