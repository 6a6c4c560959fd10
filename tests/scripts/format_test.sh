#!/usr/bin/env bash
# tests/scripts/format_test.sh: the C++ sources (src/, tests/, tools/) follow .clang-format. One check per
# directory tree, listing the files clang-format would change; `clang-format -i <file>` fixes one.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh

if ! command -v clang-format >/dev/null; then
    echo "FAILED: clang-format is not installed (scripts/deps.sh installs it)"
    exit 1
fi
for tree in src tests tools; do
    unformatted=()
    mapfile -t files < <(find "$tree" -name '*.cpp' -o -name '*.hpp' | sort)
    # One clang-format for the whole tree (its start-up is most of the time a file takes: 0.8 CPU s for src/ against
    # about 40 file by file); file by file only when it fails, to name the files.
    if [ "${#files[@]}" -gt 0 ] && ! clang-format --dry-run --Werror "${files[@]}" >/dev/null 2>&1; then
        for file in "${files[@]}"; do
            clang-format --dry-run --Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
        done
    fi
    [ "${#unformatted[@]}" -gt 0 ] && printf '  %s\n' "${unformatted[@]}"
    check_that "$tree/ follows .clang-format" test "${#unformatted[@]}" -eq 0
done
report_checks "format"
