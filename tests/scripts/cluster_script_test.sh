#!/usr/bin/env bash
# tests/scripts/cluster_script_test.sh: scripts/cluster.sh, which every test and the demo start their throwaway
# cluster with. A shell that still exports the ANON_PG_DIR and PGHOST of a stopped cluster (a script killed with
# SIGKILL, a terminal kept open) must get a new cluster rather than clients pointed at a dead socket; a running
# cluster named by ANON_PG_DIR is reused, as the tests that share the regression cluster expect; cluster_stop removes
# the directory and is safe to call twice; scripts/workspace.sh's cluster outlives its command, keeps its data across
# stop and start, and drop deletes it. Prints one line per check and ends with "cluster script: N passed, N
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

# scripts/workspace.sh: a cluster that outlives the command that started it, keeps its data across stop and start,
# and is deleted by drop.
ws=$(mktemp -d /tmp/anon-ws-test.XXXXXX)
rmdir "$ws"
wsrun() { ANON_WORK_DIR=$ws bash scripts/workspace.sh "$@"; }
trap 'cluster_stop; wsrun drop 2>/dev/null; rm -f "$out"' EXIT
line=$(wsrun start 2>"$out")
check "workspace start prints the clients' exports" "$(grep -qx "export PGHOST=$ws PGPORT=[0-9]* PGUSER=postgres" <<<"$line"; echo $?)" "$line $(cat "$out")"
wspsql() { (eval "$line" && psql -X -At -d postgres "$@"); }
check "the workspace runs after the command that started it ended" "$([ "$(wspsql -c 'SELECT 1' 2>&1)" = 1 ]; echo $?)" "$line"
wspsql -q -c 'CREATE TABLE mine (id int); INSERT INTO mine VALUES (7)' >/dev/null 2>&1
wsrun stop 2>/dev/null
wsrun status >/dev/null
check "workspace status after stop: not running (exit 3)" "$([ $? -eq 3 ]; echo $?)" ""
line2=$(wsrun start 2>/dev/null)
check "a restarted workspace has the same port and keeps its tables" \
    "$([ "$line2" = "$line" ] && [ "$(wspsql -c 'SELECT id FROM mine' 2>&1)" = 7 ]; echo $?)" "$line2"
check "workspace env repeats the exports" "$([ "$(wsrun env 2>/dev/null)" = "$line" ]; echo $?)" ""
wsrun nonsense 2>/dev/null
check "workspace with an unknown command: usage, exit 2" "$([ $? -eq 2 ]; echo $?)" ""
wsrun drop 2>/dev/null
check "workspace drop stops it and deletes its directory" "$([ ! -e "$ws" ] && ! wspsql -c 'SELECT 1' >/dev/null 2>&1; echo $?)" "$ws"

report_checks "cluster script"
