// src/pg/catalog: the interface of its folder. The extension's catalog: taxonomies and releases as stored
// (catalog_tables), the rights to write them (catalog_rights), who may see and maintain a release (release_access,
// release_owner_rights), a table's declaration, and the names of a release's relations. Only this folder runs SQL on
// anon's catalog tables. Other folders include this header, never one of its files.
#pragma once

#include "catalog_rights.hpp"
#include "catalog_tables.hpp"
#include "declaration.hpp"
#include "release_access.hpp"
#include "release_history.hpp"
#include "release_names.hpp"
#include "release_owner_rights.hpp"
