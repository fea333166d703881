#!/usr/bin/env bash
# A private PostgreSQL cluster for development and tests, kept in an ignored
# folder of the project (.pg/), on its own port and unix-socket folder, with
# trust authentication for this cluster only. Reused across runs.
#
#   scripts/pg.sh start   start (initialising on first use); prints the URL
#   scripts/pg.sh stop    stop it
#   scripts/pg.sh url     print the URL of the `mindpad` database
#   scripts/pg.sh status  exit 0 when running
#
# MINDPAD_PG_DIR (default <project>/.pg) and MINDPAD_PG_PORT (default 54329)
# move it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${MINDPAD_PG_DIR:-$root/.pg}
port=${MINDPAD_PG_PORT:-54329}
db=mindpad

bindir=$(pg_config --bindir 2>/dev/null || true)
if [ ! -x "$bindir/initdb" ]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
if [ ! -x "$bindir/initdb" ]; then
    echo "error: PostgreSQL server binaries not found; run scripts/deps.sh" >&2
    exit 1
fi

# initdb refuses to run as root: as root, the cluster belongs to `postgres`.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    as_owner=(runuser -u postgres --)
    # `postgres` must be able to reach the folder; a project under /root is
    # not reachable, so the cluster moves next to the system's temp files.
    mkdir -p "$dir"
    if ! runuser -u postgres -- test -w "$dir" 2>/dev/null; then
        chown postgres:postgres "$dir" 2>/dev/null || true
    fi
    if ! runuser -u postgres -- test -w "$dir" 2>/dev/null; then
        dir=/var/tmp/mindpad-pg-$(echo "$root" | sha256sum | cut -c1-12)
        mkdir -p "$dir"
        chown postgres:postgres "$dir"
    fi
fi
mkdir -p "$dir"
data=$dir/data
sock=$dir/run
# unix socket paths are limited to 107 bytes.
if [ ${#sock} -gt 80 ]; then
    sock=/tmp/mindpad-pg-$(echo "$dir" | sha256sum | cut -c1-12)
fi

url="postgresql://postgres@127.0.0.1:$port/$db"

running() { "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; }

case "${1:-}" in
start)
    if [ ! -f "$data/PG_VERSION" ]; then
        echo "initialising a private PostgreSQL cluster in $data" >&2
        mkdir -p "$data"
        [ ${#as_owner[@]} -gt 0 ] && chown postgres:postgres "$data"
        "${as_owner[@]}" "$bindir/initdb" -D "$data" -U postgres --auth=trust \
            --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    mkdir -p "$sock"
    [ ${#as_owner[@]} -gt 0 ] && chown postgres:postgres "$sock"
    if ! running; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 \
            -o "-p $port -k $sock -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null \
            || { tail -n 20 "$dir/server.log" >&2; exit 1; }
    fi
    if ! psql "postgresql://postgres@127.0.0.1:$port/postgres" -Atqc \
        "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
        psql "postgresql://postgres@127.0.0.1:$port/postgres" -qc "CREATE DATABASE $db" >/dev/null
    fi
    echo "$url"
    ;;
stop)
    if running; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    ;;
url) echo "$url" ;;
status) running ;;
*)
    echo "usage: $0 start|stop|url|status" >&2
    exit 2
    ;;
esac
