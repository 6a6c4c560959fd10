// The algorithms subsystem's interface: the algorithm registry and every algorithm: Incognito, Mondrian, BSGI, Anatomy,
// 1-D, SWEEP, MASK, refine, m-invariance. Other subsystems include this header, never the files behind it.
#pragma once

#include "algorithms/algorithm_registry.hpp"
#include "algorithms/anatomy.hpp"
#include "algorithms/bsgi/bsgi.hpp"
#include "algorithms/fixed_node.hpp"
#include "algorithms/incognito.hpp"
#include "algorithms/incognito_column_bound.hpp"
#include "algorithms/incognito_kept.hpp"
#include "algorithms/incognito_price.hpp"
#include "algorithms/local_recoding.hpp"
#include "algorithms/mask/mask.hpp"
#include "algorithms/minvariance/minvariance.hpp"
#include "algorithms/mondrian.hpp"
#include "algorithms/onedim.hpp"
#include "algorithms/sweep/sweep.hpp"
