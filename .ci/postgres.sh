#!/usr/bin/env bash
# Start (or reuse) a throwaway PostgreSQL cluster for groupkit's test suite.
#
#   .ci/postgres.sh          ensure the cluster runs, has role and database; print its URL
#   .ci/postgres.sh status   exit 0 if the cluster runs, 3 if not
#   .ci/postgres.sh stop     stop the cluster (its data stays for next time)
#   .ci/postgres.sh destroy  stop the cluster and delete its directory
#
# Unless told otherwise, each start makes a new cluster in a new directory on a free port, so
# two runs on one machine never share (or stop) each other's server; the directory is
# printed on stderr, and status, stop and destroy need it in GROUPKIT_PG_DIR. Give
# GROUPKIT_PG_DIR (and GROUPKIT_PG_PORT) to reuse one cluster across runs.
#
# The cluster is our own (initdb + pg_ctl from /usr/lib/postgresql/<version>/bin), not the
# distribution's, so it never touches an existing database server. It listens on 127.0.0.1
# only, runs with fsync off (test data only!), and is safe to start any number of times.
# Only the URL goes to stdout; progress goes to stderr, so `URL=$(.ci/postgres.sh)` works.
#
# Settings (environment):
#   GROUPKIT_PG_PORT  TCP port             (default: the one the cluster was made with, else free)
#   GROUPKIT_PG_DIR   cluster directory    (default: a new ${TMPDIR:-/tmp}/groupkit-pg.XXXXXX)
#   GROUPKIT_PG_BIN   PostgreSQL bin directory       (default: newest /usr/lib/postgresql/*/bin)
#
# Needs the `postgresql` package (Debian: apt-get install postgresql). PostgreSQL refuses to
# run as root, so under root the server runs as the `postgres` system user.
set -euo pipefail

say() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

if [[ -n "${GROUPKIT_PG_DIR:-}" ]]; then
    BASE="$GROUPKIT_PG_DIR"
elif [[ "${1:-start}" == start ]]; then
    BASE="$(mktemp -d "${TMPDIR:-/tmp}/groupkit-pg.XXXXXX")"
    chmod 755 "$BASE"
    say "new cluster directory $BASE (stop it with: GROUPKIT_PG_DIR=$BASE $0 destroy)"
else
    die "which cluster? set GROUPKIT_PG_DIR to the directory start printed"
fi
if [[ -n "${GROUPKIT_PG_PORT:-}" ]]; then
    PORT="$GROUPKIT_PG_PORT"
elif [[ -f "$BASE/port" ]]; then
    PORT="$(cat "$BASE/port")"
elif [[ -f "$BASE/data/postgresql.conf" ]] \
        && grep -qE '^port = [0-9]+' "$BASE/data/postgresql.conf" 2>/dev/null; then
    PORT="$(grep -E '^port = [0-9]+' "$BASE/data/postgresql.conf" | tail -n 1 | grep -oE '[0-9]+')"
else
    PORT="$(free_port)"
fi
DATA="$BASE/data"
LOG="$BASE/server.log"
ROLE=groupkit
PASSWORD=groupkit
DB=groupkit_test
URL="postgresql://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"

find_bin() {
    if [[ -n "${GROUPKIT_PG_BIN:-}" ]]; then
        printf '%s\n' "$GROUPKIT_PG_BIN"
        return
    fi
    local dir best="" best_ver=0 ver
    for dir in /usr/lib/postgresql/*/bin; do
        [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]] || continue
        ver="$(basename "$(dirname "$dir")")"
        ver="${ver%%.*}"
        [[ "$ver" =~ ^[0-9]+$ ]] || continue
        if (( ver > best_ver )); then best_ver=$ver; best=$dir; fi
    done
    if [[ -z "$best" ]] && command -v pg_config >/dev/null 2>&1; then
        best="$(pg_config --bindir)"
    fi
    [[ -n "$best" && -x "$best/initdb" ]] \
        || die "no PostgreSQL server binaries found; install them (apt-get install postgresql)"
    printf '%s\n' "$best"
}

BIN="$(find_bin)"

# Run a command as the cluster's owner: `postgres` under root, else the calling user.
if [[ "$(id -u)" -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || die "running as root but there is no 'postgres' user"
    OWNER=postgres
    as_owner() { (cd / && runuser -u postgres -- "$@"); }
else
    OWNER="$(id -un)"
    as_owner() { "$@"; }
fi

is_running() {
    [[ -f "$DATA/PG_VERSION" ]] || return 1
    as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

stop_cluster() {
    if is_running; then
        as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2
    else
        say "not running"
    fi
}

case "${1:-start}" in
    start) ;;
    status)
        if is_running; then say "running on port $PORT ($DATA)"; exit 0; fi
        say "not running"; exit 3 ;;
    stop) stop_cluster; exit 0 ;;
    destroy) stop_cluster; rm -rf -- "$BASE"; say "removed $BASE"; exit 0 ;;
    *) die "unknown command '$1' (use start, status, stop or destroy)" ;;
esac

# --- create the cluster (again, if a previous attempt left it half-made) ------------------
bin_version="$("$BIN/postgres" --version)"
[[ "$bin_version" =~ ([0-9]+) ]] || die "cannot read the version from '$bin_version'"
bin_major="${BASH_REMATCH[1]}"
if [[ -f "$DATA/PG_VERSION" && "$(cat "$DATA/PG_VERSION")" != "$bin_major" ]]; then
    say "cluster in $DATA is from PostgreSQL $(cat "$DATA/PG_VERSION"), not $bin_major: recreating"
    as_owner "$BIN/pg_ctl" -D "$DATA" -m immediate stop >/dev/null 2>&1 || true
    rm -rf -- "$DATA"
fi
if [[ ! -f "$DATA/PG_VERSION" ]]; then
    say "creating cluster in $DATA with $BIN"
    rm -rf -- "$DATA"
    mkdir -p -- "$BASE"
    printf '%s\n' "$PORT" >"$BASE/port"
    chmod 700 "$BASE"
    [[ "$OWNER" == "$(id -un)" ]] || chown "$OWNER:" "$BASE"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 >"$BASE/initdb.log" 2>&1 \
        || { cat "$BASE/initdb.log" >&2; die "initdb failed"; }
    cat >>"$DATA/postgresql.conf" <<EOF

# --- groupkit test cluster (written by .ci/postgres.sh) ---
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$BASE'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
fi

# --- start it ------------------------------------------------------------------------------
if is_running; then
    say "already running ($DATA)"
else
    # pg_ctl says no server runs, so a leftover postmaster.pid is stale (e.g. after a reboot).
    rm -f -- "$DATA/postmaster.pid"
    say "starting on 127.0.0.1:$PORT (log: $LOG)"
    if ! as_owner "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 start >/dev/null; then
        tail -n 30 "$LOG" >&2 || true
        die "PostgreSQL did not start (is port $PORT taken?)"
    fi
fi

# --- role and database ---------------------------------------------------------------------
psql_admin() {
    "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$BASE" -p "$PORT" -U postgres -d postgres "$@"
}
for _ in $(seq 1 30); do
    psql_admin -tAc 'SELECT 1' >/dev/null 2>&1 && break
    sleep 1
done
psql_admin <<SQL
DO \$\$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
        CREATE ROLE $ROLE LOGIN SUPERUSER PASSWORD '$PASSWORD';
    ELSE
        ALTER ROLE $ROLE LOGIN SUPERUSER PASSWORD '$PASSWORD';
    END IF;
END
\$\$;
SQL
if [[ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]]; then
    psql_admin -c "CREATE DATABASE $DB OWNER $ROLE"
fi

# Prove the URL works over TCP with the password before handing it out.
PGPASSWORD="$PASSWORD" "$BIN/psql" -X -q -tAc 'SELECT 1' "$URL" >/dev/null \
    || die "cannot connect to $URL"
say "ready"
printf '%s\n' "$URL"
