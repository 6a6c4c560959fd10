# shellcheck shell=bash
# tests/scripts/checks.sh: sourced by the shell tests that count checks as "ok: NAME" / "FAILED: NAME (DETAIL)"
# lines, which scripts/test.sh adds to its summary.
passed=0
failed=0

# check NAME STATUS DETAIL: one check, passed when STATUS is 0.
check() {
    if [ "$2" -eq 0 ]; then
        echo "ok: $1"
        passed=$((passed + 1))
    else
        echo "FAILED: $1 ($3)"
        failed=$((failed + 1))
    fi
}
