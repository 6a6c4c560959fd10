// The audit subsystem's interface: independent checks of releases, class verification and statistics, minimality
// audits, warnings, the checks across versions and releases. Other subsystems include this header, never the files
// behind it.
#pragma once

#include "audit/class_audit.hpp"
#include "audit/minimality.hpp"
#include "audit/minimality_verdict.hpp"
#include "audit/release_check.hpp"
#include "audit/release_warnings.hpp"
#include "audit/republication.hpp"
#include "audit/risk.hpp"
#include "audit/risk_snb.hpp"
