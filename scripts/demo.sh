#!/usr/bin/env bash
# scripts/demo.sh: the project's demo command. Shows anon end to end on the Adult census data:
# installs missing packages, builds and installs the extension, starts a throwaway PostgreSQL 15 cluster,
# creates the extension, loads Adult with its generalization hierarchies (scripts/load_adult.sh), publishes
# a distinct 3-diverse release of it with Incognito (anon.anonymize), shows its first rows, checks it
# independently (anon.verify), declares Adult's columns (anon.declare) and shows the global release beside the
# best local-recoding one (NCP and risk), then the first rows of the solution space (anon.explore), and stops the
# cluster. Stops at the first error.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}

heading() { printf '\n======== %s ========\n' "$*"; }

heading "1. dependencies"
bash scripts/deps.sh
echo "all packages present"

heading "2. build and install the extension"
mkdir -p build
if ! { make -j2 && make install; } >build/demo-build.log 2>&1; then
    tail -n 40 build/demo-build.log
    echo "build failed: see build/demo-build.log"
    exit 1
fi
echo "built and installed (log: build/demo-build.log)"

heading "3. throwaway PostgreSQL cluster"
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
cluster_start
psql -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION anon'
echo "CREATE EXTENSION anon: done"

heading "4. load the Adult data (30,162 records) and its hierarchies"
bash scripts/load_adult.sh

# Unaligned, tuples-only output prints the JSON reports as plain JSON.
psql -X -q -v ON_ERROR_STOP=1 <<'SQL'
\echo
\echo '======== 5. anonymize: distinct 3-diversity of occupation, 7 quasi-identifiers, Incognito ========'
\pset format unaligned
\pset tuples_only on
\timing on
SELECT jsonb_pretty(anon.anonymize('adult',
    ARRAY['sex','age','race','marital-status','education','native-country','workclass'],
    ARRAY['occupation'], 'distinct-l-diversity', '{"l":3}', 'incognito', 'adult_release'));
\timing off
\pset format aligned
\pset tuples_only off

\echo
\echo '======== 6. the release: first 10 rows of adult_release ========'
SELECT * FROM adult_release ORDER BY gid LIMIT 10;

\echo
\echo '======== 7. verify the release independently ========'
\pset format unaligned
\pset tuples_only on
SELECT jsonb_pretty(anon.verify('adult_release',
    ARRAY['sex','age','race','marital-status','education','native-country','workclass'],
    ARRAY['occupation'], 'distinct-l-diversity', '{"l":3}'));
\pset format aligned
\pset tuples_only off

\echo
\echo '======== 8. declare the columns once; the global release beside the best local-recoding release ========'
SELECT anon.declare('adult',
    ARRAY['sex','age','race','marital-status','education','native-country','workclass'], ARRAY['occupation']);
WITH runs(release, r) AS (
    SELECT 'global (incognito)', anon.anonymize('adult', NULL, NULL, 'distinct-l-diversity', '{"l":3}', 'incognito')
    UNION ALL
    SELECT 'local (auto, recoding local)',
           anon.anonymize('adult', NULL, NULL, 'distinct-l-diversity', '{"l":3,"recoding":"local"}'))
SELECT release, r->>'algorithm' AS algorithm, (r->>'classes')::int AS classes,
       (r->>'suppressed')::int AS suppressed, round((r->>'ncp')::numeric, 4) AS ncp,
       round((r->>'prosecutor_risk')::numeric, 4) AS prosecutor_risk,
       round((r->>'marketer_risk')::numeric, 4) AS marketer_risk
FROM runs;

\echo
\echo '======== 9. the solution space: the first rows of anon.explore (minimal full-domain nodes, best NCP first) ========'
SELECT levels, classes, suppressed, round(ncp::numeric, 4) AS ncp, round(prosecutor_risk::numeric, 4) AS prosecutor_risk
FROM anon.explore('adult', NULL, NULL, 'distinct-l-diversity', '{"l":3}') LIMIT 5;
SQL

heading "10. stop the cluster"
cluster_stop
echo "stopped and removed"
