// The order of sensitive columns' values (data/value_order.hpp), decided once per read from each column's SQL type:
// numbers, dates and timestamps, booleans and enums in their type's order, other types by the bytes of their text.
// What the ordered distance of t-closeness ranks values by, in a release and in its verification alike.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// The order of each of `columns` of relation `relid`, from its type (a domain's by its base type); an enum's with
// its labels in declared order. The columns exist (the reader checked them).
std::vector<ValueOrder> column_value_orders(Spi& spi, Oid relid, const std::vector<std::string>& columns);

// The orders a verification of relation `relid` ranks `sensitive` in. A release's view and ST publish its sensitive
// columns as text labels: those columns take the order of the release source's columns of the same names, the
// order the release was checked with, while the source exists; any other column its own type's.
std::vector<ValueOrder> verified_value_orders(Spi& spi, Oid relid, const std::vector<std::string>& sensitive);

}  // namespace anon::pg
