#!/usr/bin/env bash
# scripts/workspace.sh start|env|status|stop|drop: a PostgreSQL 15 cluster to work in with one's own tables, which
# keeps running until stopped (unlike scripts/cluster.sh's throwaway clusters, which end with the shell that started
# them). Its data stays in ANON_WORK_DIR (default /var/tmp/anon-work) across stop and start; `drop` deletes it.
#
#   eval "$(bash scripts/workspace.sh start)"   # starts (or restarts) it and exports PGHOST, PGPORT, PGUSER for psql
#   psql -c 'CREATE EXTENSION IF NOT EXISTS anon'
#   bash scripts/workspace.sh stop              # stops the server, keeps the data
#   bash scripts/workspace.sh drop              # stops the server and deletes the data
#
# `start` prints only the export line on stdout (messages go to stderr); the extension must be installed
# (bash scripts/demo.sh, or make install). Unix socket in the directory, no TCP; as root the server runs as postgres.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DIR=${ANON_WORK_DIR:-/var/tmp/anon-work}
# Only the helpers of cluster.sh are wanted: its EXIT trap (which stops its own throwaway cluster) is removed.
ANON_PG_DIR=$DIR
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
trap - EXIT INT TERM HUP

# The line that points psql and the other clients at the workspace.
exports() { echo "export PGHOST=$DIR PGPORT=$(cat "$DIR/port") PGUSER=postgres"; }

running() { [ -f "$DIR/data/postmaster.pid" ] && _anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; }

# Creates the cluster on its first start: C locale, UTF8, a free port, a socket in the directory.
create() {
    local port=54320
    while _anon_port_busy "$port"; do
        port=$((port + 1))
        [ "$port" -le 54999 ] || { echo "workspace: no free port in 54320..54999" >&2; exit 1; }
    done
    mkdir -p "$DIR"
    chmod 755 "$DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR"
    if ! _anon_as_pg "$ANON_PG_BIN/initdb" -D "$DIR/data" -U postgres --auth=trust --encoding=UTF8 --locale=C \
            >"$DIR/initdb.log" 2>&1; then
        cat "$DIR/initdb.log" >&2
        echo "workspace: initdb failed in $DIR" >&2
        exit 1
    fi
    printf '\n# ---- workspace (scripts/workspace.sh) ----\nport = %s\nlisten_addresses = %s\nunix_socket_directories = %s\n' \
        "$port" "''" "'$DIR'" >>"$DIR/data/postgresql.conf"
    echo "$port" >"$DIR/port"
    echo "workspace: created a cluster in $DIR (port $port)" >&2
}

start() {
    if [ ! -f "$("$ANON_PG_BIN/pg_config" --sharedir)/extension/anon.control" ]; then
        echo "workspace: the extension is not installed: run bash scripts/demo.sh (or make install) first" >&2
        exit 1
    fi
    [ -d "$DIR/data" ] || create
    if running; then
        echo "workspace: already running in $DIR" >&2
    elif ! _anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$DIR/data" -l "$DIR/postgres.log" -w -t 60 start >/dev/null; then
        tail -n 20 "$DIR/postgres.log" >&2
        echo "workspace: the server did not start (log: $DIR/postgres.log)" >&2
        exit 1
    else
        echo "workspace: PostgreSQL 15 running in $DIR, log $DIR/postgres.log; stop it with: bash scripts/workspace.sh stop" >&2
    fi
    exports
}

stop() {
    if running; then
        _anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$DIR/data" -m fast -w -t 60 stop >/dev/null
        echo "workspace: stopped; the data stays in $DIR (bash scripts/workspace.sh drop deletes it)" >&2
    else
        echo "workspace: not running" >&2
    fi
}

case ${1:-} in
    start) start ;;
    env) [ -f "$DIR/port" ] || { echo "workspace: none in $DIR; run: bash scripts/workspace.sh start" >&2; exit 1; }
         exports ;;
    status) if running; then echo "running in $DIR, port $(cat "$DIR/port")"; else echo "not running ($DIR)"; exit 3; fi ;;
    stop) stop ;;
    drop) stop
          rm -rf "$DIR"
          echo "workspace: deleted $DIR" >&2 ;;
    *) echo "usage: bash scripts/workspace.sh start|env|status|stop|drop (ANON_WORK_DIR: $DIR)" >&2
       exit 2 ;;
esac
