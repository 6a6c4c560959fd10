// The C++ standard headers most of anon's files include, precompiled once per build flavour (Makefile: the
// extension's core and PostgreSQL layer, the instrumented core and layer, the unit tests) and put before each file of
// that flavour, instead of parsed again for every file: about a third of a file's compile time was spent in them.
// Only standard headers: each file still includes what it uses (a file compiles the same without this one). No
// include guard: it is put once before a file, and compiled alone as its own main file.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>
