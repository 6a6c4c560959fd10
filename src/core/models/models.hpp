// The models subsystem's interface: the privacy models (registry, checkers, requirement), eligibility, EMD, entropy,
// (tau, l) definitions. Other subsystems include this header, never the files behind it.
#pragma once

#include "models/eligibility.hpp"
#include "models/emd.hpp"
#include "models/entropy.hpp"
#include "models/model_registry.hpp"
#include "models/privacy_model.hpp"
#include "models/requirement.hpp"
#include "models/strength.hpp"
#include "models/tau_l.hpp"
