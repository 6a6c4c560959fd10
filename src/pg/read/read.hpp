// src/pg/read: the interface of its folder. Reading a source: one aggregating pass (SQL GROUP BY) to the frequency
// set, typed columns, value orders, look-alike values, and the taxonomy builders that read a column's values. Other
// folders include this header, never one of its files.
#pragma once

#include "day_read.hpp"
#include "lookalike_values.hpp"
#include "person_rows.hpp"
#include "relation_columns.hpp"
#include "row_grouping.hpp"
#include "source_precheck.hpp"
#include "source_reader.hpp"
#include "taxonomy_autobuild.hpp"
#include "taxonomy_builders.hpp"
#include "typed_columns.hpp"
#include "value_orders.hpp"
