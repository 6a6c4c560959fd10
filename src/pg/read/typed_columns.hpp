// Typed ranges in the PostgreSQL layer (params->>'ranges' = 'typed', data/typed_ranges.hpp): the kind of values of
// a source's quasi-identifiers, from their SQL types, the columns a release publishes as numrange or daterange, and
// the check that a refresh publishes each one as its view's column is typed.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// How each QI of `schema` (columns of `source`) is published: empty unless params->>'ranges' = 'typed'; then one
// entry per QI (typed_column: numbers as numrange and days as daterange when their taxonomy's labels are ranges).
std::vector<TypedColumn> typed_columns(Spi& spi, Oid source, const Schema& schema, const ParamValues& publication);

// The SQL expression publishing label expression `label` of a column published as `type`: the label itself for text,
// else its cast to pg_catalog.numrange or pg_catalog.daterange.
std::string published_value_sql(const std::string& label, PublishedType type);

// Refuses a recomputation of the release `schema_name`.`name` whose generalized view has a QI column of another type
// than the one the computation publishes (its taxonomy was replaced by one with other labels), naming the column,
// both types and what to do, instead of a failing cast or a silently retyped column.
void check_view_types(Spi& spi, const std::string& schema_name, const std::string& name, const Schema& schema,
                      const std::vector<TypedColumn>& typed);

}  // namespace anon::pg
