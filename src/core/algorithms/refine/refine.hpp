// Refine: a local-recoding algorithm designed for information loss (NCP). Top-down specialization along the
// taxonomies, one class at a time: a class published at value g of column j is split into the children of g that
// satisfy the model on their own, and a remainder pooling the children that do not (kept at g). Unlike Mondrian,
// one failing child does not block the split; unlike full-domain recoding, every class chooses its own column and
// depth. The split that lowers the class's total loss most is taken, then its parts are refined in turn.
#pragma once

#include "algorithms/local_recoding.hpp"
#include "data/data.hpp"
#include "models/models.hpp"

namespace anon {

// Refines the whole table down to classes that satisfy `req` and publishes each with the lowest common ancestor of
// its values per QI (tight [min,max] ranges for numeric QIs when options.tight_ranges). Nothing is suppressed.
// Throws Error(invalid_parameter) for a model that is not monotone (the classes an outsider sees merge the parts
// that publish equal values, which only a monotone model keeps satisfied) and Error(not_satisfiable) with the
// reason when even the whole table violates it.
Release refine(const Schema& schema, const FrequencySet& fs, const Requirement& req, const LocalOptions& options);

}  // namespace anon
