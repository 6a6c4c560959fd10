#!/usr/bin/env bash
# tests/scripts/release_fingerprints.sh [--from FILE] [--update]: every release the regression files publish is the
# one of the baseline, tests/regress/release_fingerprints.txt, to the byte and in the same physical order (issue 37:
# a refactoring changes no release). From the repository root, against the running server in PGHOST/PGPORT/PGUSER
# (the extension installed):
#   - replays every tests/regress/sql/*.sql file into a fresh contrib_regression (tests/scripts/release_capture.sh)
#     and fingerprints each release relation (generalized view, QIT, ST) when a CREATE or REFRESH MATERIALIZED VIEW
#     of it ends and after each file: row count, md5 of its rows in physical order and sorted, md5 of its columns'
#     names and types, md5 of its release's row of anon.release without timestamps and timings; with --from FILE it
#     reads those fingerprints from FILE instead, as settings_test.sh writes them for ANON_RELEASE_FINGERPRINTS=FILE
#     (scripts/test.sh: the files are replayed once for both tests);
#   - compares them with the baseline, keyed by file, event (create, refresh, end of file, with its occurrence) and
#     relation: one "ok: ..." line per file whose fingerprints are all the baseline's, one "FAILED: ..." line per
#     fingerprint that changed (saying what: rows, order, columns, catalog row), appeared or disappeared;
#   - prints which models and algorithms the fingerprints cover, over any source and over Adult.
# --update then writes the fingerprints as the new baseline: only when a release changes on purpose (docs/testing.md).
# Ends with "release fingerprints: N passed, N failed".
set -uo pipefail

# shellcheck source=tests/scripts/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
# shellcheck source=tests/scripts/release_capture.sh
source "$(dirname "${BASH_SOURCE[0]}")/release_capture.sh"

BASELINE=tests/regress/release_fingerprints.txt
from=
update=0
while [ $# -gt 0 ]; do
    case $1 in
        --from) from=${2:-}; shift 2 ;;
        --update) update=1; shift ;;
        *) echo "usage: $0 [--from FILE] [--update] (unknown argument: $1)" >&2; exit 2 ;;
    esac
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; [ -n "$from" ] || dropdb --if-exists "$REGRESS_DB" 2>/dev/null' EXIT

if [ -z "$from" ]; then
    echo "---- replaying the regression files"
    replay_regression_files current ""
    check_that "the regression files replayed and fingerprinted" test $? -eq 0
    from=$WORK/current.tsv
fi
if [ ! -s "$from" ]; then
    check_that "fingerprints found in $from" false
    report_checks "release fingerprints"
    exit 1
fi

# The captured fingerprints as baseline lines: file, event (with its occurrence for that file and relation),
# relation, source, model, algorithm, rows, md5s of the rows in physical order, sorted, of the columns and of the
# catalog row.
awk -F '\t' -v OFS='\t' '{
    file = $1; event = $1; sub(/ .*/, "", file); sub(/^[^ ]* /, "", event)
    n = ++seen[file SUBSEP event SUBSEP $2]
    print file, event " #" n, $2, $8, $9, $10, $3, $4, $5, $6, $7
}' "$from" >"$WORK/current.txt"
relations=$(cut -f3,4 "$WORK/current.txt" | sort -u | wc -l)
echo "fingerprints: $(wc -l <"$WORK/current.txt") of $relations release relations"

# Each file's comparison with the baseline as "STATUS<TAB>NAME<TAB>DETAIL" lines for check, in the files' order.
compare() {
    awk -F '\t' '
    # what(b, c): what differs between the baseline fingerprint b and the current one c (their fields).
    function what(b, c,    out) {
        out = ""
        if (b[7] != c[7]) out = out sprintf(", rows %s -> %s", b[7], c[7])
        if (b[9] != c[9]) out = out ", other rows"
        else if (b[8] != c[8]) out = out ", same rows in another physical order"
        if (b[10] != c[10]) out = out ", other columns"
        if (b[11] != c[11]) out = out ", other catalog row"
        if (b[4] != c[4] || b[5] != c[5] || b[6] != c[6])
            out = out sprintf(", source model algorithm %s %s %s -> %s %s %s", b[4], b[5], b[6], c[4], c[5], c[6])
        return substr(out, 3)
    }
    # fail(r, how, detail): a failed check of fingerprint r (its fields) for the file of r.
    function fail(r, how, detail) { bad[r[1]] = bad[r[1]] "\n1\t" r[1] ": " r[3] " (" r[2] ") " how "\t" detail }
    /^#/ { next }
    {
        key = $1 SUBSEP $2 SUBSEP $3
        if (!($1 in known)) { known[$1] = 1; files[++nfiles] = $1 }
        if (FILENAME == ARGV[1]) { base[key] = $0; keys[++nkeys] = key } else { cur[key] = $0; ckeys[++nckeys] = key }
        count[$1] += (FILENAME == ARGV[2])
    }
    END {
        for (i = 1; i <= nkeys; i++) {
            k = keys[i]; split(base[k], b, "\t")
            if (!(k in cur)) { fail(b, "disappeared", b[4] " " b[5] " " b[6]); continue }
            split(cur[k], c, "\t")
            if (base[k] != cur[k]) fail(b, "changed", what(b, c))
        }
        for (i = 1; i <= nckeys; i++) {
            k = ckeys[i]; split(cur[k], c, "\t")
            if (!(k in base)) fail(c, "appeared", c[4] " " c[5] " " c[6])
        }
        for (i = 1; i <= nfiles; i++) {
            f = files[i]
            if (f in bad) print substr(bad[f], 2)
            else print "0\t" f ": its " count[f] " release fingerprints are the baseline'\''s\t"
        }
    }' "$1" "$2"
}

[ -f "$BASELINE" ] || check_that "baseline $BASELINE exists (--update writes it)" false
while IFS=$'\t' read -r status name detail; do
    check "release fingerprints of $name" "$status" "$detail"
done < <(compare "$([ -f "$BASELINE" ] && echo "$BASELINE" || echo /dev/null)" "$WORK/current.txt")

# Coverage: the models and algorithms of the releases fingerprinted (distinct catalog rows), over any source and
# over Adult (the benchmark data the regression suite loads in 00_setup).
echo "covered (model / algorithm: releases fingerprinted, of them over Adult):"
awk -F '\t' '!seen[$5 "\t" $6 "\t" $11]++ { n[$5 " / " $6]++; if ($4 ~ /(^|\.)adult[a-z_0-9]*$/) a[$5 " / " $6]++ }
    END { for (k in n) printf "    %s: %d, %d\n", k, n[k], a[k] }' "$WORK/current.txt" | sort

if [ "$update" -eq 1 ]; then
    {
        echo "# Release fingerprints of the regression files: written by tests/scripts/release_fingerprints.sh"
        echo "# --update, compared by it (a step of scripts/test.sh). Rewrite it only when a release changes on purpose,"
        echo "# reviewed and said in the commit (docs/testing.md#release-fingerprints)."
        echo "# file, event #occurrence, relation, source, model, algorithm, rows, md5 of the rows in physical order,"
        echo "# sorted, of the columns (names and types), of the release's catalog row (no timestamps, no timings)"
        cat "$WORK/current.txt"
    } >"$BASELINE"
    echo "baseline written: $BASELINE ($(wc -l <"$WORK/current.txt") fingerprints); review git diff $BASELINE"
    exit 0
fi
report_checks "release fingerprints"
