// The data subsystem's interface: taxonomies, frequency sets, releases, grouping, the lattice and its roll-up cache,
// fingerprints, the rows of kept columns. Other subsystems include this header, never the files behind it.
#pragma once

#include "data/coded_intervals.hpp"
#include "data/date_hierarchy.hpp"
#include "data/fingerprint.hpp"
#include "data/frequency_set.hpp"
#include "data/grouping.hpp"
#include "data/histogram.hpp"
#include "data/icd10_hierarchy.hpp"
#include "data/kept_rows.hpp"
#include "data/lattice.hpp"
#include "data/level_table.hpp"
#include "data/numeric_values.hpp"
#include "data/open_dates.hpp"
#include "data/prefix_hierarchy.hpp"
#include "data/quantile_hierarchy.hpp"
#include "data/release.hpp"
#include "data/rollup_cache.hpp"
#include "data/taxonomy.hpp"
#include "data/typed_ranges.hpp"
#include "data/value_order.hpp"
#include "data/version_history.hpp"
