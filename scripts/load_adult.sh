#!/usr/bin/env bash
# scripts/load_adult.sh [table]: loads the Adult data set (data/adult) into the database named by the PG*
# environment (for example one from scripts/cluster.sh), so the demo and manual experiments have real data.
#   public.<table>                    (default adult): id serial primary key + the 9 columns of adult.csv
#   public.<table>_hierarchy_<col>    one per data/adult/adult_hierarchy_<col>.csv ('-' in <col> becomes
#                                     '_'), text columns c0 (leaf) .. cN (root)
# If the anon extension is installed in that database (anon.taxonomy_from_levels exists), it also creates
# one taxonomy per hierarchy, named after the column ('marital-status', ...). Existing tables of these
# names are replaced; everything happens in one transaction. Needs psql and awk only.
set -euo pipefail

table=${1:-adult}
data=$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/adult" && pwd)
psql=(psql -X -q -v ON_ERROR_STOP=1)

ident() { local s=${1//\"/\"\"}; printf '"%s"' "$s"; }    # SQL identifier
literal() { local s=${1//\'/\'\'}; printf "'%s'" "$s"; }  # SQL string literal (also psql's \copy file name)

# Column list of the \copy, from the file's header line (adult.csv has CRLF line ends).
IFS=';' read -r -a header < <(head -n 1 "$data/adult.csv" | tr -d '\r')
cols=
for c in "${header[@]}"; do cols+="${cols:+, }$(ident "$c")"; done

has_taxonomy=$("${psql[@]}" -At -c "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                                     WHERE n.nspname = 'anon' AND p.proname = 'taxonomy_from_levels'")

t=public.$(ident "$table")
counts="SELECT 'public.' || $(literal "$table") AS \"table\", count(*) AS rows FROM $t"
{
    echo "SET client_min_messages = warning;"
    echo "BEGIN;"
    echo "DROP TABLE IF EXISTS $t;"
    echo "CREATE TABLE $t (id serial PRIMARY KEY, sex text, age int, race text, \"marital-status\" text,
          education text, \"native-country\" text, workclass text, occupation text, \"salary-class\" text);"
    echo "\\copy $t ($cols) FROM $(literal "$data/adult.csv") WITH (FORMAT csv, DELIMITER ';', HEADER true)"

    taxonomies=()
    for f in "$data"/adult_hierarchy_*.csv; do
        col=${f##*/adult_hierarchy_}
        col=${col%.csv}
        name="${table}_hierarchy_${col//-/_}"
        h=public.$(ident "$name")
        n=$(awk -F';' 'NR == 1 { print NF; exit }' "$f")
        defs=
        for ((i = 0; i < n; i++)); do defs+="${defs:+, }c$i text"; done
        echo "DROP TABLE IF EXISTS $h;"
        echo "CREATE TABLE $h ($defs);"
        echo "\\copy $h FROM $(literal "$f") WITH (FORMAT csv, DELIMITER ';')"
        counts+=" UNION ALL SELECT $(literal "public.$name"), count(*) FROM $h"
        taxonomies+=("SELECT anon.taxonomy_from_levels($(literal "$col"), $(literal "$h")::regclass);")
    done

    if [ "$has_taxonomy" != 0 ]; then
        echo "\\o /dev/null"
        printf '%s\n' "${taxonomies[@]}"
        echo "\\o"
    fi
    echo "COMMIT;"
    echo "$counts;"
} | "${psql[@]}"

if [ "$has_taxonomy" != 0 ]; then
    echo "load_adult: created one taxonomy per hierarchy with anon.taxonomy_from_levels"
else
    echo "load_adult: anon.taxonomy_from_levels not found (extension not installed here): no taxonomies created"
fi
