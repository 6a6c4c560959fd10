# shellcheck shell=bash
# scripts/cluster.sh: source it, then call cluster_start / cluster_stop.
# Runs a throwaway PostgreSQL 15 cluster, so the tests and the demo never touch a real server: initdb in a
# fresh temporary directory, a unix socket in that directory (no TCP), settings tuned for tests, and the
# client variables (PGHOST, PGPORT, PGUSER=postgres, PGDATABASE=postgres) exported for psql, pg_regress and
# the load scripts. initdb refuses root, so as root the server runs as the `postgres` user. Sourcing this
# file installs an EXIT trap (replacing any earlier one) that stops the cluster and deletes the directory,
# also on failure and on Ctrl-C/SIGTERM/SIGHUP. Only SIGKILL leaves a stray /tmp/anon-pg.* behind.

ANON_PG_BIN=${ANON_PG_BIN:-/usr/lib/postgresql/15/bin}
ANON_PG_DIR=${ANON_PG_DIR:-}    # temporary directory of the running cluster; empty when none
# NAME=VALUE words (no spaces inside a value) added to the server's environment only, not initdb's or the clients'
# (tests/scripts/server_sanitizer_test.sh preloads the sanitizer runtime with it).
ANON_PG_SERVER_ENV=${ANON_PG_SERVER_ENV:-}
# A file cluster_stop appends the server log to before deleting the cluster's directory; empty: the log goes with it
# (the sanitizer step reads the logs of the tests that run clusters of their own from it).
ANON_PG_LOG_KEEP=${ANON_PG_LOG_KEEP:-}

# Runs a command as the server's OS user: postgres when we are root, else ourselves.
_anon_as_pg() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd "$ANON_PG_DIR" && runuser -u postgres -- "$@")
    else
        (cd "$ANON_PG_DIR" && "$@")
    fi
}

# True when something already uses the port: a TCP listener (state 0A in /proc/net/tcp*) or a
# PostgreSQL socket in the usual socket directories or in another throwaway cluster's directory.
_anon_port_busy() {
    local port=$1 hex files=() f
    hex=$(printf '%04X' "$port")
    for f in /proc/net/tcp /proc/net/tcp6; do [ -r "$f" ] && files+=("$f"); done
    if [ ${#files[@]} -gt 0 ] &&
       awk -v h=":$hex" 'FNR > 1 && $4 == "0A" && substr($2, length($2) - 4) == h { found = 1 }
                         END { exit !found }' "${files[@]}"; then
        return 0
    fi
    for f in /var/run/postgresql/.s.PGSQL."$port" /tmp/.s.PGSQL."$port" /tmp/anon-pg.*/.s.PGSQL."$port"; do
        [ -e "$f" ] && return 0
    done
    return 1
}

# Starts the cluster, or reuses the one ANON_PG_DIR names when its server answers (a caller's cluster shared with
# the scripts it runs); an ANON_PG_DIR left over from a stopped cluster is forgotten rather than trusted.
cluster_start() {
    if [ -n "$ANON_PG_DIR" ]; then
        if [ -d "$ANON_PG_DIR/data" ] &&
           _anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$ANON_PG_DIR/data" status >/dev/null 2>&1; then
            echo "cluster: already running in $ANON_PG_DIR" >&2
            return 0
        fi
        echo "cluster: no server runs in $ANON_PG_DIR (inherited from a stopped cluster?); starting a new one" >&2
        ANON_PG_DIR=
    fi
    local port=54320
    while _anon_port_busy "$port"; do
        port=$((port + 1))
        if [ "$port" -gt 54999 ]; then echo "cluster: no free port in 54320..54999" >&2; return 1; fi
    done

    ANON_PG_DIR=$(mktemp -d /tmp/anon-pg.XXXXXX) || { ANON_PG_DIR=; return 1; }
    chmod 755 "$ANON_PG_DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$ANON_PG_DIR"
    local dir=$ANON_PG_DIR

    # C locale and UTF8: the same sort order and English messages on every machine.
    if ! _anon_as_pg "$ANON_PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust \
            --encoding=UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        echo "cluster: initdb failed" >&2
        cluster_stop
        return 1
    fi
    cat >>"$dir/data/postgresql.conf" <<EOF

# ---- throwaway test cluster (scripts/cluster.sh) ----
port = $port
listen_addresses = ''
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 128MB
max_parallel_workers_per_gather = 2
EOF
    # shellcheck disable=SC2086 # ANON_PG_SERVER_ENV is a list of words
    if ! _anon_as_pg env $ANON_PG_SERVER_ENV "$ANON_PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
            start >"$dir/pg_ctl.log" 2>&1; then
        cat "$dir/pg_ctl.log" "$dir/postgres.log" >&2 2>/dev/null
        echo "cluster: server did not start" >&2
        cluster_stop
        return 1
    fi

    unset PGHOSTADDR PGSERVICE
    export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
    echo "cluster: PostgreSQL 15 on port $port, socket and data in $dir, log $dir/postgres.log"
}

# Stops the cluster (fast, then immediate, then SIGKILL of its postmaster) and deletes its directory.
# Silent, and a no-op when no cluster is running, so it is safe to call twice.
cluster_stop() {
    local dir=$ANON_PG_DIR pid
    [ -n "$dir" ] || return 0
    if [ -f "$dir/data/postmaster.pid" ]; then
        if ! _anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 &&
           ! _anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w -t 10 stop >/dev/null 2>&1 &&
           [ -f "$dir/data/postmaster.pid" ]; then
            pid=$(head -n 1 "$dir/data/postmaster.pid")
            [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
            sleep 1
        fi
    fi
    [ -n "$ANON_PG_LOG_KEEP" ] && [ -f "$dir/postgres.log" ] && cat "$dir/postgres.log" >>"$ANON_PG_LOG_KEEP"
    case $dir in /tmp/anon-pg.*) rm -rf "$dir" ;; esac
    ANON_PG_DIR=
    [ "${PGHOST:-}" = "$dir" ] && unset PGHOST PGPORT
    return 0
}

trap cluster_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
