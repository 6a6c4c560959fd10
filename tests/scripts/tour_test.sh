#!/usr/bin/env bash
# tests/scripts/tour_test.sh: the tour in docs/tour.md is the psql transcript of tests/regress/sql/98_tour.sql, which
# pg_regress runs and compares with tests/regress/expected/98_tour.out; this check makes sure the doc shows exactly
# that expected output, so the tour cannot drift from the code. With --write it copies the expected output into the
# doc instead (after the regression test's expected file was updated).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh

doc=docs/tour.md
expected=tests/regress/expected/98_tour.out
begin='<!-- transcript: tests/regress/expected/98_tour.out (tests/scripts/tour_test.sh checks it) -->'

# The lines of the fenced block that follows the marker line in the doc.
transcript() {
    awk -v begin="$begin" '
        $0 == begin { state = 1; next }
        state == 1 && /^```/ { state = 2; next }
        state == 2 && /^```$/ { exit }
        state == 2 { print }' "$doc"
}

if [ "${1:-}" = "--write" ]; then
    awk -v begin="$begin" -v file="$expected" '
        $0 == begin { print; print "```"; while ((getline line < file) > 0) print line; print "```"; skip = 1; next }
        skip == 1 && /^```/ { skip = 2; next }
        skip == 2 && /^```$/ { skip = 0; next }
        skip == 2 { next }
        { print }' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
    echo "wrote the transcript of $expected into $doc"
    exit 0
fi

check_that "docs/tour.md has the transcript marker" grep -qxF "$begin" "$doc"
check_that "docs/tour.md shows tests/regress/expected/98_tour.out exactly" diff <(transcript) "$expected"
check_that "98_tour.sql is a regression test with an expected output" test -s tests/regress/sql/98_tour.sql -a -s "$expected"
report_checks "tour_test"
