# shellcheck shell=bash
# tests/scripts/citus_cluster.sh: source it, then call citus_installed, citus_start and citus_stop (the EXIT trap
# calls citus_stop). A Citus cluster on one machine for tests/scripts/citus_test.sh and the benchmark's `citus`
# section: a coordinator and two workers, each a throwaway cluster of scripts/cluster.sh (temporary directory,
# free port, run as the postgres user) that also listens on 127.0.0.1, where the nodes reach each other, with
# shared_preload_libraries = citus. After citus_start the PG* variables name the coordinator, and CITUS_WORKERS
# holds "directory:port" of each worker. Citus itself is not part of anon: it must be built and installed into the
# PostgreSQL that $PG_CONFIG names (see docs/scale.md).

# shellcheck source=scripts/cluster.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/cluster.sh"

CITUS_DIRS=()     # every started node's directory, coordinator first
CITUS_WORKERS=()  # "directory:port" of each worker
CITUS_COORD_DIR= CITUS_COORD_PORT= CITUS_NODE=

# True when the citus extension is installed in the PostgreSQL of $PG_CONFIG (library and control file).
citus_installed() {
    local pg_config=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
    [ -f "$("$pg_config" --pkglibdir)/citus.so" ] && [ -f "$("$pg_config" --sharedir)/extension/citus.control" ]
}

# Starts one node (a new cluster.sh cluster) with Citus preloaded and TCP on 127.0.0.1; sets CITUS_NODE to
# "dir:port".
_citus_node_start() {
    ANON_PG_DIR=
    cluster_start >/dev/null || return 1
    local dir=$ANON_PG_DIR port=$PGPORT
    CITUS_DIRS+=("$dir")
    ANON_PG_DIR=
    cat >>"$dir/data/postgresql.conf" <<EOF
# ---- Citus node (tests/scripts/citus_cluster.sh) ----
listen_addresses = '127.0.0.1'
shared_preload_libraries = 'citus'
max_prepared_transactions = 100
max_connections = 200
max_parallel_workers_per_gather = 0
citus.shard_count = ${CITUS_SHARDS:-32}
EOF
    _anon_as_pg "$ANON_PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 restart >/dev/null 2>&1 || {
        tail -n 20 "$dir/postgres.log" >&2
        return 1
    }
    PGHOST=$dir PGPORT=$port psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION citus" >/dev/null || return 1
    CITUS_NODE=$dir:$port
}

# Starts the coordinator and two workers and registers the workers; the PG* variables then name the coordinator.
citus_start() {
    local node w
    _citus_node_start || { citus_stop; return 1; }
    CITUS_COORD_DIR=${CITUS_NODE%:*} CITUS_COORD_PORT=${CITUS_NODE##*:}
    for w in 1 2; do
        _citus_node_start || { citus_stop; return 1; }
        CITUS_WORKERS+=("$CITUS_NODE")
    done
    export PGHOST=$CITUS_COORD_DIR PGPORT=$CITUS_COORD_PORT PGUSER=postgres PGDATABASE=postgres
    ANON_PG_DIR=
    psql -X -q -v ON_ERROR_STOP=1 -c "SELECT citus_set_coordinator_host('127.0.0.1', $CITUS_COORD_PORT)" \
        >/dev/null || { citus_stop; return 1; }
    for node in "${CITUS_WORKERS[@]}"; do
        psql -X -q -v ON_ERROR_STOP=1 -c "SELECT citus_add_node('127.0.0.1', ${node##*:})" >/dev/null ||
            { citus_stop; return 1; }
    done
    echo "citus: coordinator port $CITUS_COORD_PORT, workers ${CITUS_WORKERS[*]##*:} (${CITUS_SHARDS:-32} shards)"
}

# Runs psql on worker N (1 or 2) with the remaining arguments.
citus_worker_psql() {
    local node=${CITUS_WORKERS[$(($1 - 1))]}
    shift
    PGHOST=${node%:*} PGPORT=${node##*:} psql -X "$@"
}

# Stops every node that was started and deletes its directory; safe to call twice.
citus_stop() {
    local dir
    for dir in "${CITUS_DIRS[@]}"; do ANON_PG_DIR=$dir cluster_stop; done
    CITUS_DIRS=()
    CITUS_WORKERS=()
    ANON_PG_DIR=
}

trap citus_stop EXIT
