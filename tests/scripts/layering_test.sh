#!/usr/bin/env bash
# tests/scripts/layering_test.sh: the core's subsystems and their layers (docs/architecture.md). Checks, from the
# source alone, that src/core has one folder per subsystem, that no file includes a higher layer, that other
# subsystems and src/pg reach a subsystem only through its interface header (<subsystem>/<subsystem>.hpp), that
# src/core includes no PostgreSQL header, and that no model or algorithm name is compared as a string outside the
# registries. Prints ok:/FAILED: lines (tests/scripts/checks.sh).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh

LAYERS=(base data models metrics audit algorithms job)
layer_of() {
    local i
    for i in "${!LAYERS[@]}"; do [ "${LAYERS[$i]}" = "$1" ] && { echo "$i"; return; }; done
    echo -1
}

for sub in "${LAYERS[@]}"; do
    check_that "src/core/$sub has its interface header $sub/$sub.hpp" test -f "src/core/$sub/$sub.hpp"
done
strays=$(find src/core -maxdepth 1 -type f -name '*.[ch]pp' | wc -l)
check_that "no source file outside the subsystem folders of src/core" test "$strays" -eq 0

upward=()
private=()
while IFS= read -r file; do
    own=${file#src/core/}
    own=${own%%/*}
    own_layer=$(layer_of "$own")
    while IFS= read -r included; do
        target=${included%%/*}
        [ "$target" = "$included" ] && continue  # same folder
        target_layer=$(layer_of "$target")
        [ "$target_layer" -lt 0 ] && continue
        [ "$target_layer" -gt "$own_layer" ] && upward+=("$file includes $included")
        if [ "$target" != "$own" ] && [ "$included" != "$target/$target.hpp" ]; then
            private+=("$file includes $included")
        fi
    done < <(grep -o '^#include "[^"]*"' "$file" | sed 's/#include "\(.*\)"/\1/')
done < <(find src/core -name '*.[ch]pp' | sort)
[ "${#upward[@]}" -gt 0 ] && printf '  %s\n' "${upward[@]}"
check_that "no file of src/core includes a higher layer (${LAYERS[*]})" test "${#upward[@]}" -eq 0
[ "${#private[@]}" -gt 0 ] && printf '  %s\n' "${private[@]}"
check_that "src/core reaches another subsystem only through its interface header" test "${#private[@]}" -eq 0

subsystems=$(IFS='|'; echo "${LAYERS[*]}")
pg_private=$(grep -hoE "^#include \"($subsystems)/[^\"]*\"" src/pg/*/*.cpp src/pg/*/*.hpp | sed 's/#include "\(.*\)"/\1/' |
             awk -F/ '$0 != $1 "/" $1 ".hpp"' | sort -u)
[ -n "$pg_private" ] && echo "$pg_private"
check_that "src/pg reaches the core only through interface headers" test -z "$pg_private"

pg_headers=$(grep -rln 'include.*\(postgres\.h\|fmgr\.h\|postgres_headers\)' src/core || true)
check_that "src/core includes no PostgreSQL header" test -z "$pg_headers"

names='k-anonymity|distinct-l-diversity|entropy-l-diversity|recursive-cl-diversity|simple-l-diversity'
names+='|unique-distinct-l-diversity|m-confidentiality|t-closeness|tau-l-diversity'
names+='|incognito|mondrian|bsgi|anatomy|onedim|sweep|mask|auto'
compared=$(grep -rnE "(==|!=) *\"($names)\"|\"($names)\" *(==|!=)" src tools |
           grep -vE '^src/core/(models/models_[a-z_]+|algorithms/(.*/)?algo_[a-z_]+|models/model_registry|algorithms/algorithm_registry)\.cpp:' || true)
[ -n "$compared" ] && echo "$compared"
check_that "no model or algorithm name compared as a string outside the registries" test -z "$compared"

report_checks "layering"
