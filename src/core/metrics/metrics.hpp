// The metrics subsystem's interface: utility metrics of a release: discernibility, IL/NCP, KL, um, e(P), count-query
// error. Other subsystems include this header, never the files behind it.
#pragma once

#include "metrics/information.hpp"
#include "metrics/metrics_kl.hpp"
#include "metrics/metrics_published.hpp"
#include "metrics/release_metrics.hpp"
#include "metrics/utility_tau.hpp"
