#!/usr/bin/env bash
# tests/scripts/layering_test.sh: the layers of both halves (docs/architecture.md), checked from the source by
# tests/scripts/layering_check.py. Every #include of src/ is resolved to a file; src/core and src/pg each have one
# folder per subsystem in layers, no file includes a higher layer, another folder is reached only through its
# interface header (<folder>/<folder>.hpp), and src/core includes nothing but its own headers, the C++ standard library
# and Boost. No model or algorithm name is compared outside the registry entries, in the C++ of src/ and tools/ or in
# the current install script; the names come from the registries themselves: `make registry-names` links the core's
# objects into build/registry_names, which prints them (a fresh clone compiles the core first). LAYERING_NAMES=<file>
# gives the names instead (tests/scripts/layering_selftest.sh). Prints ok:/FAILED: lines (tests/scripts/checks.sh).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

names=${LAYERING_NAMES:-}
if [ -z "$names" ]; then
    names=$(mktemp /tmp/anon-layering-names.XXXXXX)
    log=$(mktemp /tmp/anon-layering-make.XXXXXX)
    trap 'rm -f "$names" "$log"' EXIT
    if ! make -s --no-print-directory registry-names >"$log" 2>&1 || ! build/registry_names >"$names"; then
        tail -n 30 "$log"
        echo "  make registry-names or build/registry_names failed: the name checks have no names"
        : >"$names"
    fi
fi
# The python3 of the Debian package scripts/deps.sh installs, when there: a version manager's shim first on the PATH
# (pyenv) takes a second to start, and the self-test runs this check some twenty times.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
"$python" tests/scripts/layering_check.py --names "$names" .
