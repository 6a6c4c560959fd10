// The unit tests' precompiled header (Makefile): the standard headers of precompiled_std.hpp and GoogleTest's, whose
// macros and templates were most of a test file's compile time at -O0.

#include "precompiled_std.hpp"

#include <gtest/gtest.h>
