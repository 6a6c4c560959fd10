#!/usr/bin/env bash
# tests/scripts/report_html_test.sh [BINARY]: tests `anon-maintain report RELEASE --html FILE` (default binary
# build/anon-maintain) against the running server in PGHOST/PGPORT/PGUSER, in a database of its own dropped at the
# end: the page of a release on a small table with a hostile column name and label, and of one on Adult, holds its
# sections and drawn SVG charts, shows every database value as text (no markup of its own), loads nothing; a reader
# granted only the release's view gets the parts it may read and a note for the others; errors (unknown release,
# unwritable FILE, missing arguments) exit non-zero and leave no file. Then headless Chromium renders both pages:
# the screenshots are not blank and the console has no error. Without Chromium those checks print
# "skipped: chromium not installed" (scripts/test.sh lists them as skipped) and the others still run. Prints
# "ok: ..." / "FAILED: ..." per check and ends with "report_html tests: N passed, N failed".
set -uo pipefail

BIN=${1:-build/anon-maintain}
DB=report_html_test
HERE=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=tests/scripts/checks.sh
source "$HERE/checks.sh"
sql() { psql -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

OWNER=report_html_owner
READER=report_html_reader
MEMBER=report_html_member
WORK=$(mktemp -d /tmp/report_html_test.XXXXXX)
# Drops the test database and its roles, and the pages.
cleanup() {
    dropdb --if-exists "$DB"
    psql -X -q -d postgres -c "DROP ROLE IF EXISTS $MEMBER" -c "DROP ROLE IF EXISTS $READER" \
        -c "DROP ROLE IF EXISTS $OWNER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
dropdb --if-exists "$DB" 2>/dev/null
createdb "$DB" || { check_that createdb false; report_checks "report_html tests"; exit 1; }

# A ward column whose name is markup, a zip prefix whose label is a script; the owner publishes, the reader is granted
# only the view, the member is granted the owner's role.
sql <<SQL >/dev/null
SET client_min_messages = warning;
CREATE EXTENSION anon;
DROP ROLE IF EXISTS $MEMBER; DROP ROLE IF EXISTS $READER; DROP ROLE IF EXISTS $OWNER;
CREATE ROLE $OWNER LOGIN; CREATE ROLE $READER LOGIN; CREATE ROLE $MEMBER LOGIN IN ROLE $OWNER;
GRANT CREATE ON SCHEMA public TO $OWNER;
SET ROLE $OWNER;
CREATE TABLE zips (zip text, prefix text, root text);
INSERT INTO zips VALUES ('13053', '<script>alert(1)</script>', '*'), ('13068', '<script>alert(1)</script>', '*'),
                        ('14850', '148', '*'), ('14853', '148', '*');
SELECT anon.taxonomy_from_levels('zip', 'zips');
CREATE TABLE wards (ward text, root text);
INSERT INTO wards VALUES ('north', '*'), ('south', '*'), ('east', '*');
SELECT anon.taxonomy_from_levels('ward', 'wards');
SELECT anon.interval_taxonomy('patient_age', 0, 100, '{10,50}');
CREATE TABLE patients (id serial, zip text, age int, "<i>ward</i>" text, disease text);
INSERT INTO patients (zip, age, "<i>ward</i>", disease)
SELECT (ARRAY['13053','13068','14850','14853'])[1 + i % 4], 20 + (i * 7) % 50, (ARRAY['north','south','east'])[1 + i % 3],
       (ARRAY['flu','cancer','gastritis','heart'])[1 + (i / 4) % 4]
FROM generate_series(0, 199) i;
SELECT anon.anonymize('patients', ARRAY['zip', 'age', '<i>ward</i>'], '{disease}', 'k-anonymity',
                      '{"k": 5, "taxonomies": {"<i>ward</i>": "ward", "age": "patient_age"},
                        "levels": {"zip": 1, "age": 2, "<i>ward</i>": 0}}', 'incognito', 'patients_k5');
GRANT SELECT ON patients_k5 TO $READER;
SQL
check_that "set-up: one release" test "$(sql -tAc 'SELECT count(*) FROM anon.release')" = 1

# report ARGS...: runs the report command, leaving its output in $out and its exit status in $rc.
report() { out=$("$BIN" report "$@" 2>&1); rc=$?; echo "$out"; }

page=$WORK/patients.html
report patients_k5 --html "$page" "dbname=$DB"
check_that "small table: exit status 0 and the file written" test "$rc" -eq 0 -a -s "$page"
for section in publication class-sizes generalization risk warnings; do
    check_that "small table: section $section" grep -q "<section id=\"$section\">" "$page"
done
# The number of ELEMENT elements inside section SECTION of the page.
count_in() { awk -v s="<section id=\"$1\">" 'index($0, s) { on = 1 } on { print } on && /<\/section>/ { exit }' "$3" |
             grep -o "<$2[ >]" | wc -l; }
check_that "small table: the class-size histogram draws bars" test "$(count_in class-sizes rect "$page")" -gt 0
check_that "small table: the loss chart draws one bar per quasi-identifier" test "$(count_in generalization rect "$page")" -eq 3
check_that "small table: the risk histogram draws its eight ranges" test "$(count_in risk rect "$page")" -eq 8
check_that "small table: the charts have axes" test "$(grep -c '<path class="axis"' "$page")" -eq 3
check_that "small table: the report's loss per quasi-identifier is shown" \
    grep -q "<td class=\"num\">$(sql -tAc "SELECT round((report->'loss_per_qi'->>'zip')::numeric, 3) FROM anon.release")</td>" "$page"
check_that "small table: the verification ran" grep -q 'class="ok">satisfies its model' "$page"
check_that "hostile label: shown as text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$page"
check_that "hostile column name: shown as text" grep -q '&lt;i&gt;ward&lt;/i&gt;' "$page"
check_that "hostile values: no markup of theirs in the page" \
    test "$(grep -ciE '<script|<i>|alert\(1\)</' "$page")" -eq 0
check_that "self-contained: no src, href or url() anywhere" test "$(grep -ciE ' (src|href)=|url\(' "$page")" -eq 0
check_that "self-contained: no address but the SVG namespace" \
    test "$(grep -oE 'https?://[^" ]*' "$page" | grep -vcx 'http://www.w3.org/2000/svg')" -eq 0

# A reader granted only the view: what it reads is shown, the catalog's parts are named as hidden.
reader_page=$WORK/reader.html
report public.patients_k5 --html "$reader_page" "dbname=$DB user=$READER"
check_that "view reader: exit status 0" test "$rc" -eq 0
check_that "view reader: the catalog row is named as hidden" \
    grep -q "Not shown: the release&#39;s catalog row .* owner role &quot;$OWNER&quot;" "$reader_page"
check_that "view reader: the class sizes it may read are drawn" test "$(count_in class-sizes rect "$reader_page")" -gt 0
check_that "view reader: no risk chart (its quasi-identifiers are hidden)" test "$(count_in risk rect "$reader_page")" -eq 0
member_page=$WORK/member.html
report patients_k5 --html "$member_page" "dbname=$DB user=$MEMBER"
check_that "owner's member: the whole page" \
    test "$(grep -c 'Not shown' "$member_page")|$(count_in risk rect "$member_page")" = "0|8"

# Errors: a clear message, exit status 2, nothing written, an existing file kept.
echo "previous" >"$WORK/kept.html"
report no_such_release --html "$WORK/kept.html" "dbname=$DB"
check_that "unknown release: exit 2 with a message" test "$rc" -eq 2 -a -n "$(grep 'unknown release "no_such_release"' <<<"$out")"
check_that "unknown release: the existing file is kept" test "$(cat "$WORK/kept.html")" = previous
report patients_k5 --html "$WORK/no/such/dir/page.html" "dbname=$DB"
check_that "unwritable FILE: exit 2 with a message" test "$rc" -eq 2 -a -n "$(grep 'cannot write' <<<"$out")"
report patients_k5 "dbname=$DB"
check_that "missing --html: exit 2" test "$rc" -eq 2 -a -n "$(grep 'missing --html FILE' <<<"$out")"
report --html "$WORK/x.html"
check_that "missing RELEASE: exit 2" test "$rc" -eq 2 -a -n "$(grep 'missing RELEASE' <<<"$out")"
report patients_k5 --html
check_that "--html without FILE: exit 2" test "$rc" -eq 2
check_that "errors: no file and no temporary file left behind" \
    test "$(find "$WORK" -name 'x.html*' -o -name 'kept.html.*' | wc -l)" -eq 0

# Adult, full-domain: levels per quasi-identifier, many class sizes.
adult_page=$WORK/adult.html
if PGDATABASE=$DB bash scripts/load_adult.sh >/dev/null; then
    sql -c "SELECT anon.anonymize('adult', '{age,sex,race,marital-status,education}', '{occupation}', 'k-anonymity',
            '{\"k\": 10}', 'incognito', 'adult_k10')" >/dev/null
    report adult_k10 --html "$adult_page" "dbname=$DB"
    check_that "Adult: exit status 0" test "$rc" -eq 0
    check_that "Adult: a level per quasi-identifier" \
        test "$(grep -cE '<tr><th>[a-z-]+</th><td class="num">[0-9]+</td>' "$adult_page")" -eq 5
    check_that "Adult: the class-size histogram draws bars" test "$(count_in class-sizes rect "$adult_page")" -gt 3
else
    check_that "Adult: loaded" false
fi

# Headless Chromium renders each page: a screenshot with colours and drawn pixels, and no console message at all (the
# page has no script: any message is an error or a refused load; Chromium logs them as INFO:CONSOLE or ERROR:CONSOLE).
if ! command -v chromium >/dev/null; then
    echo "skipped: chromium not installed (the rendering checks)"
else
    for name in patients adult; do
        shot=$WORK/$name.png
        timeout 180 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$WORK/profile-$name" \
            --enable-logging=stderr --v=0 --screenshot="$shot" --window-size=1200,2000 "file://$WORK/$name.html" \
            >"$WORK/$name.out" 2>"$WORK/$name.err"
        check_that "Chromium: $name rendered" test -s "$shot"
        read -r width height colours non_white < <(python3 "$HERE/png_colours.py" "$shot")
        check_that "Chromium: $name screenshot is 1200x2000 and not blank ($colours colours, $non_white non-white)" \
            python3 -c "import sys; sys.exit(not ($width == 1200 and $height == 2000 and $colours > 20 and $non_white > 0.02))"
        check_that "Chromium: $name without console errors" \
            test "$(grep -cE 'Uncaught|:CONSOLE|Refused to' "$WORK/$name.err")" -eq 0
    done
    timeout 180 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$WORK/profile-dom" --dump-dom \
        "file://$page" >"$WORK/dom.html" 2>/dev/null
    check_that "Chromium: the DOM holds the charts and the hostile label as text" \
        test "$(grep -c '<svg' "$WORK/dom.html")|$(grep -c '&lt;script&gt;alert(1)' "$WORK/dom.html")|$(grep -ci '<script' "$WORK/dom.html")" = "3|1|0"
fi

report_checks "report_html tests"
