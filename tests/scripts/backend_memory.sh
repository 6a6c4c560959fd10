# shellcheck shell=bash
# tests/scripts/backend_memory.sh: sourced by the shell tests that measure what one call costs its backend
# (limits_test.sh, memory_bound_test.sh). call_start runs one call in a backend of its own while a watcher samples
# the backend's /proc/<pid>/status every 20 ms; call_finish waits for both and sets the figures. The caller sets
# WORK (a scratch directory) and DB (the database), and runs on the server's machine; it reads the figures.
# shellcheck disable=SC2034

# start_measured_database LABEL: (re)creates the database $DB and a scratch directory $WORK, both removed (and the
# cluster of scripts/cluster.sh stopped, when the test started one) when the test exits; when the database cannot be
# created, prints "LABEL: 0 passed, 1 failed" and exits.
start_measured_database() {
    WORK=$(mktemp -d /tmp/anon-measure.XXXXXX)
    trap 'psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1; rm -rf "$WORK"
          type cluster_stop >/dev/null 2>&1 && cluster_stop' EXIT
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
    psql -X -q -d postgres -c "CREATE DATABASE $DB" >/dev/null || { echo "$1: 0 passed, 1 failed"; exit 1; }
}

# The value of a field (kB) of /proc/PID/status, empty when the process is gone.
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null; }

# Samples the backend whose pid the session writes to $WORK/pid until $WORK/done exists or the backend is gone;
# writes "baseline_rss_anon peak_rss_anon vm_hwm" (kB) to $WORK/memory.
watch_backend() {
    local pid base peak hwm rss h
    while [ ! -s "$WORK/pid" ]; do sleep 0.01; done
    pid=$(cat "$WORK/pid")
    while [ ! -e "$WORK/start" ]; do sleep 0.01; done
    base=$(cat "$WORK/start")
    peak=$base
    hwm=0
    while [ ! -e "$WORK/done" ]; do
        rss=$(status_kb "$pid" RssAnon)
        [ -n "$rss" ] || break
        h=$(status_kb "$pid" VmHWM)
        [ "$rss" -gt "$peak" ] && peak=$rss
        [ -n "$h" ] && hwm=$h
        sleep 0.02
    done
    echo "$base $peak $hwm" >"$WORK/memory"
}

# call_start SETTINGS CALL: starts, in the background, a session that runs SETTINGS (SQL, e.g. SETs), gives the
# watcher its backend's pid and its private memory (RssAnon) as the baseline, runs CALL (one statement) timed, then
# pauses while the watcher reads the backend's last figures. Sets CALL_SESSION (the client's pid) and CALL_PID (the
# backend's; empty when the session failed before the call).
call_start() {
    rm -f "$WORK/pid" "$WORK/start" "$WORK/done" "$WORK/memory" "$WORK/session.log"
    watch_backend &
    CALL_WATCHER=$!
    psql -X -q -At -d "$DB" >"$WORK/session.log" 2>&1 <<SQL &
\set VERBOSITY terse
SET client_min_messages = warning;
$1
SELECT pg_backend_pid() AS pid \gset
\setenv ANON_CALL_PID :pid
\! echo \$ANON_CALL_PID > $WORK/pid.tmp && mv $WORK/pid.tmp $WORK/pid
\! sleep 0.2; awk '\$1 == "RssAnon:" { print \$2 }' /proc/\$ANON_CALL_PID/status > $WORK/start.tmp && mv $WORK/start.tmp $WORK/start
SELECT extract(epoch FROM clock_timestamp()) AS t0 \gset
$2;
SET statement_timeout = 0;
SELECT 'elapsed ' || round((extract(epoch FROM clock_timestamp()) - :t0) * 1000);
SELECT pg_sleep(0.3);
\! touch $WORK/done
SQL
    CALL_SESSION=$!
    while [ ! -e "$WORK/start" ] && kill -0 "$CALL_SESSION" 2>/dev/null; do sleep 0.01; done
    CALL_PID=$(cat "$WORK/pid" 2>/dev/null)
}

# call_finish MOST_SECONDS: waits for the session, terminating its backend after MOST_SECONDS (the call then
# fails), and the watcher. Sets CALL_ELAPSED_MS, CALL_OUTCOME (the first error line, or "no error"), and in kB
# MEM_BASE (RssAnon before the call), MEM_PEAK (its highest value sampled) and MEM_HWM (VmHWM at the end).
call_finish() {
    local waited=0
    while kill -0 "$CALL_SESSION" 2>/dev/null; do
        sleep 0.1
        waited=$((waited + 1))
        if [ "$waited" -eq $(($1 * 10)) ] && [ -n "$CALL_PID" ]; then
            psql -X -q -At -d "$DB" -c "SELECT pg_terminate_backend($CALL_PID)" >/dev/null
        fi
    done
    touch "$WORK/done"
    wait "$CALL_WATCHER"
    CALL_ELAPSED_MS=$(awk '/^elapsed / { print $2 }' "$WORK/session.log")
    [ -n "$CALL_ELAPSED_MS" ] || CALL_ELAPSED_MS=$((waited * 100))
    CALL_OUTCOME=$(grep -m1 -E '^(ERROR|FATAL|server closed)' "$WORK/session.log" || echo "no error")
    read -r MEM_BASE MEM_PEAK MEM_HWM <"$WORK/memory" 2>/dev/null || { MEM_BASE=0 MEM_PEAK=0 MEM_HWM=0; }
}
