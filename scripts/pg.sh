#!/usr/bin/env bash
# A private PostgreSQL cluster for development and tests, kept in an ignored
# folder of the project (.pg/), on its own port and unix-socket folder, with
# trust authentication for this cluster only. Reused across runs.
#
#   scripts/pg.sh start   start (initialising on first use); prints the URL
#   scripts/pg.sh stop    stop it
#   scripts/pg.sh url     print the URL of the `mindpad` database
#   scripts/pg.sh status  exit 0 when running
#   scripts/pg.sh port    print the cluster's port
#
# Each checkout's cluster gets a free port of its own (below the kernel's
# ephemeral range, held by no socket), chosen on first use
# and remembered in <cluster folder>/port, so two checkouts' clusters run
# side by side. MINDPAD_PG_PORT overrides it (not remembered), and
# MINDPAD_PG_DIR (default <project>/.pg) moves the cluster.
#
# Every failure is one line on stderr saying what is in the way and what to do.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${MINDPAD_PG_DIR:-$root/.pg}
db=mindpad

fail() { echo "pg.sh: error: $*" >&2; exit 1; }

bindir=$(pg_config --bindir 2>/dev/null || true)
if [ ! -x "$bindir/initdb" ]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
[ -x "$bindir/initdb" ] || fail "the PostgreSQL server programs (initdb, pg_ctl) are not installed; run scripts/deps.sh as root, or: sudo apt-get install -y postgresql"
command -v psql >/dev/null || fail "psql is not installed; run scripts/deps.sh as root, or: sudo apt-get install -y postgresql-client"

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
mkdir -p "$dir" 2>/dev/null || fail "cannot create $dir; set MINDPAD_PG_DIR to a folder you can write"
data=$dir/data
sock=$dir/run
# unix socket paths are limited to 107 bytes.
if [ ${#sock} -gt 80 ]; then
    sock=/tmp/mindpad-pg-$(echo "$dir" | sha256sum | cut -c1-12)
fi
port_file=$dir/port

running() { "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; }

# Something accepts TCP connections on 127.0.0.1:$1.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Some socket on this machine has local port $1: listening, connected or
# closing. A connect test alone misses a client's outgoing connection that
# took the port as its ephemeral one, and PostgreSQL's bind then fails. Only
# used to choose a port: skipping one held by a closing socket costs nothing.
# One awk over the tables, no pipe: `grep -q` closing a pipe early fails the
# writer, and under pipefail a match then read as "free".
port_taken() {
    listening "$1" && return 0
    local tables=() t
    for t in /proc/net/tcp /proc/net/tcp6; do [ -r "$t" ] && tables+=("$t"); done
    [ ${#tables[@]} -gt 0 ] || return 1
    awk -v port=":$(printf %04X "$1")" 'substr($2, length($2) - 4) == port { found = 1 } END { exit !found }' "${tables[@]}"
}

# A free port, searched from a place that depends on the checkout's path so
# that checkouts rarely try the same ports, below the kernel's ephemeral
# range (outgoing connections take ports from that range at any moment);
# ports given as arguments are skipped (ones just lost to a race).
free_port() {
    local low=32768 first span start p
    read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
    if [ "$low" -gt 12000 ]; then
        first=10000; span=$((low - 10000 - 500))
        [ "$span" -gt 10000 ] && span=10000
    else
        first=55000; span=2000  # an unusual ephemeral range: the old search
    fi
    start=$((first + 16#$(echo "$dir" | sha256sum | cut -c1-4) % span))
    for ((p = start; p < start + 500; p++)); do
        [[ " $* " == *" $p "* ]] && continue
        if ! port_taken "$p"; then echo "$p"; return 0; fi
    done
    return 1
}

# The port: MINDPAD_PG_PORT, else the remembered one, else the one a running
# cluster of this folder uses (clusters made before ports were remembered),
# else a free one, remembered from now on.
resolve_port() {
    if [ -n "${MINDPAD_PG_PORT:-}" ]; then
        [[ $MINDPAD_PG_PORT =~ ^[0-9]+$ ]] || fail "MINDPAD_PG_PORT must be a port number, got '$MINDPAD_PG_PORT'"
        port=$MINDPAD_PG_PORT
        return
    fi
    if [ -s "$port_file" ]; then
        port=$(cat "$port_file")
        [[ $port =~ ^[0-9]+$ ]] || fail "$port_file does not hold a port number; delete it to choose a new one"
        return
    fi
    if running && [ -f "$data/postmaster.pid" ]; then
        port=$(sed -n 4p "$data/postmaster.pid")
    else
        port=$(free_port) || fail "no free port found for PostgreSQL; set MINDPAD_PG_PORT to a free port"
    fi
    echo "$port" >"$port_file"
}

# The first line this start added to the log that says why it failed.
start_failure() {
    tail -c +$(($1 + 1)) "$dir/server.log" 2>/dev/null | grep -m1 -E 'invalid|syntax error|FATAL|could not|already in use|No space left' \
        | sed 's/^.*\(FATAL\|LOG\|ERROR\): *//' || true
}

case "${1:-}" in
start)
    resolve_port
    if [ ! -f "$data/PG_VERSION" ]; then
        echo "initialising a private PostgreSQL cluster in $data" >&2
        mkdir -p "$data"
        [ ${#as_owner[@]} -gt 0 ] && chown postgres:postgres "$data"
        "${as_owner[@]}" "$bindir/initdb" -D "$data" -U postgres --auth=trust \
            --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
            || fail "initdb failed: $(grep -m1 -iE 'error|fatal|cannot|could not' "$dir/initdb.log" || tail -n1 "$dir/initdb.log") (log: $dir/initdb.log)"
    fi
    mkdir -p "$sock"
    [ ${#as_owner[@]} -gt 0 ] && chown postgres:postgres "$sock"
    if running; then
        actual=$(sed -n 4p "$data/postmaster.pid" 2>/dev/null || echo "$port")
        if [ "$actual" != "$port" ]; then
            [ -n "${MINDPAD_PG_PORT:-}" ] \
                && fail "this cluster already runs on port $actual, not $port; stop it first (scripts/pg.sh stop) or unset MINDPAD_PG_PORT"
            port=$actual
            echo "$port" >"$port_file"
        fi
    else
        if listening "$port"; then
            if [ -n "${MINDPAD_PG_PORT:-}" ]; then
                fail "port $port (MINDPAD_PG_PORT) is in use by another program; choose a free one with MINDPAD_PG_PORT=<port>"
            fi
            old=$port
            port=$(free_port) || fail "port $old is in use and no free port was found; set MINDPAD_PG_PORT to a free port"
            echo "$port" >"$port_file"
            echo "pg.sh: port $old is in use by another program; this cluster now uses port $port (remembered in $port_file)" >&2
        fi
        # A free port can be taken between the check and the start (another
        # cluster starting beside this one): then, unless the port was given,
        # the next free one is tried, a few times.
        for attempt in 1 2 3 4 5; do
            logged=$(stat -c %s "$dir/server.log" 2>/dev/null || echo 0)
            if "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 \
                -o "-p $port -k $sock -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null 2>&1; then
                break
            fi
            why=$(start_failure "$logged")
            if [ -n "${MINDPAD_PG_PORT:-}" ] || [ "$attempt" -eq 5 ] || [[ $why != *"already in use"* ]]; then
                fail "PostgreSQL did not start on port $port: $why (log: $dir/server.log)"
            fi
            old=$port
            tried="${tried:-} $port"
            port=$(free_port $tried) || fail "port $old was taken and no free port was found; set MINDPAD_PG_PORT to a free port"
            echo "$port" >"$port_file"
            echo "pg.sh: port $old was taken while the cluster started; trying port $port" >&2
        done
    fi
    url="postgresql://postgres@127.0.0.1:$port/$db"
    if ! psql "postgresql://postgres@127.0.0.1:$port/postgres" -Atqc \
        "SELECT 1 FROM pg_database WHERE datname = '$db'" 2>/dev/null | grep -q 1; then
        psql "postgresql://postgres@127.0.0.1:$port/postgres" -qc "CREATE DATABASE $db" >/dev/null \
            || fail "the cluster on port $port does not answer or is not this checkout's; stop whatever holds port $port or set MINDPAD_PG_PORT"
    fi
    echo "$url"
    ;;
stop)
    if running; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    ;;
url)
    resolve_port
    echo "postgresql://postgres@127.0.0.1:$port/$db"
    ;;
port)
    resolve_port
    echo "$port"
    ;;
status) running ;;
*)
    echo "usage: $0 start|stop|url|status|port" >&2
    exit 2
    ;;
esac
