// src/pg/citus: the interface of its folder. Citus: release objects of a distributed source created, distributed and
// dropped on the cluster. Other folders include this header, never one of its files.
#pragma once

#include "release_citus.hpp"
