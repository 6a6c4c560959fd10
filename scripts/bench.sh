#!/usr/bin/env bash
# scripts/bench.sh: builds and installs the extension, starts a throwaway cluster, loads Adult and runs the
# benchmark program (tests/bench/anon_bench.cpp), which prints the figures recorded in docs/benchmarks.md and docs/scale.md.
# Usage: scripts/bench.sh [repeats] [section ...]  (no sections: every Adult-sized section; `anon_bench --help`
# lists the sections, the large-table ones run only when named). `scripts/bench.sh 1 citus [rows]` runs the Citus
# section instead (tests/bench/citus_bench.sh: its own coordinator and two workers; skipped without Citus).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
bash scripts/deps.sh
make -s -j2 && make -s install
if [ "${2:-}" = citus ]; then exec bash tests/bench/citus_bench.sh "${3:-1000000}"; fi
make -s bench
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
cluster_start
psql -q -c "CREATE EXTENSION anon"
bash scripts/load_adult.sh >/dev/null
psql -q -c "VACUUM ANALYZE adult"
build/bench/anon_bench "${1:-11}" "${@:2}"
