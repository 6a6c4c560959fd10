# shellcheck shell=bash
# tests/scripts/checks.sh: sourced by the shell tests. Each check prints "ok: NAME" or "FAILED: NAME (...)", and a
# test ends with report_checks, whose "LABEL: N passed, N failed" line scripts/test.sh shows; test.sh counts the
# ok/FAILED lines, so a test that dies early still counts what it checked.
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

# check_that NAME COMMAND...: one check, passed when the command succeeds.
check_that() {
    local name=$1
    shift
    if "$@"; then
        echo "ok: $name"
        passed=$((passed + 1))
    else
        echo "FAILED: $name"
        failed=$((failed + 1))
    fi
}

# report_checks LABEL: prints the summary line; its status is non-zero when a check failed.
report_checks() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
