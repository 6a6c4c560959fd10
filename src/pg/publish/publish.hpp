// src/pg/publish: the interface of its folder. Publishing a release: the computed release and its report, the
// release map's pieces and rows, the objects' creation, locks, kept columns and upgrades of old releases. Other
// folders include this header, never one of its files.
#pragma once

#include "computed_release.hpp"
#include "kept_groups.hpp"
#include "release_composition.hpp"
#include "release_keep.hpp"
#include "release_locks.hpp"
#include "release_object_rows.hpp"
#include "release_objects.hpp"
#include "release_pieces.hpp"
#include "release_report.hpp"
#include "release_scan.hpp"
#include "release_upgrade.hpp"
#include "release_versions.hpp"
#include "republishing.hpp"
