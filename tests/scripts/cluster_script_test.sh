#!/usr/bin/env bash
# tests/scripts/cluster_script_test.sh: scripts/cluster.sh, which every test and the demo start their throwaway
# cluster with. A shell that still exports the ANON_PG_DIR and PGHOST of a stopped cluster (a script killed with
# SIGKILL, a terminal kept open) must get a new cluster rather than clients pointed at a dead socket; a running
# cluster named by ANON_PG_DIR is reused, as the tests that share the regression cluster expect; cluster_stop removes
# the directory and is safe to call twice. Prints one line per check and ends with "cluster script: N passed, N
# failed"; the exit status is non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh

stale=$(mktemp -d /tmp/anon-pg.XXXXXX)  # a directory no server runs in, as a stopped cluster leaves none behind
rmdir "$stale"
export ANON_PG_DIR=$stale PGHOST=$stale PGPORT=1
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh

out=$(mktemp)
trap 'cluster_stop; rm -f "$out"' EXIT
# cluster_start runs in this shell (not in a command substitution), so its exports reach the checks.
cluster_start >"$out" 2>&1
started=$(cat "$out")
check "an inherited ANON_PG_DIR without a server is forgotten" "$([ -n "$ANON_PG_DIR" ] && [ "$ANON_PG_DIR" != "$stale" ]; echo $?)" "ANON_PG_DIR=$ANON_PG_DIR: $started"
check "the start says it did not reuse the stale directory" "$(grep -q "no server runs in $stale" <<<"$started"; echo $?)" "$started"
check "clients reach the new cluster, not the stale socket" "$([ "$(psql -X -At -c 'SELECT 1' 2>&1)" = 1 ]; echo $?)" "PGHOST=$PGHOST PGPORT=$PGPORT"

running=$ANON_PG_DIR
cluster_start >"$out" 2>&1
again=$(cat "$out")
check "a running cluster named by ANON_PG_DIR is reused" "$([ "$ANON_PG_DIR" = "$running" ]; echo $?)" "$again"

cluster_stop
check "cluster_stop removes the cluster's directory" "$([ ! -e "$running" ] && [ -z "$ANON_PG_DIR" ]; echo $?)" "$running"
cluster_stop
check "cluster_stop is safe to call twice" "$?" "second cluster_stop failed"

report_checks "cluster script"
