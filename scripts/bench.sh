#!/usr/bin/env bash
# `make bench`: every benchmark of issues 6 and 8, side by side in one run,
# then docs/benchmarks.md. Loopback only; every stage is bounded in time.
#
#   scripts/bench.sh              the full run (~15–20 min on 2 cores)
#   BENCH_QUICK=1 scripts/bench.sh  a scaled-down run (minutes) for development
#
# Stages (results in .build/bench/, or $BENCH_OUT):
#   1. builds: mindpad (release), tools/loadgen (release), the lws echo (gcc)
#   2. recognition: tools/train/evaluate.py (Swift vs ONNX Runtime, one core);
#      tools/train/number_reading.py --bench (a 6-digit number segmented and read)
#   3. realtime: for 500, 1,000 and 2,000 racers, the same load first against
#      the lws echo (transport ceiling), then against mindpad; then 10,000 idle
#      connections; a perf profile of the server under the largest load;
#      decode time per client message, three decoders side by side (wirebench)
#   4. storage: 1,000,000 players × 3 modes (tools/loadgen storagebench); result
#      writes one per statement, batched, and journal first, side by side
#   5. tools/loadgen/render.py writes docs/benchmarks.md
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=${BENCH_QUICK:-0}
out=${BENCH_OUT:-$root/.build/bench}
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.txt "$out"/*.log

if [ "$quick" = 1 ]; then
    scenarios=(64 128); idle=1000; duration=8; players=50000; queries=300; rounds=3
else
    scenarios=(500 1000 2000); idle=10000; duration=20; players=1000000; queries=400; rounds=10
fi
echo "bench: quick=$quick scenarios=${scenarios[*]} idle=$idle duration=${duration}s players=$players" >&2

scripts/deps.sh test
# What the benchmarks add: a C compiler for the echo, perf for the profile.
for tool in gcc:gcc perf:linux-perf; do
    if ! command -v "${tool%%:*}" >/dev/null && [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${tool#*:}" >/dev/null 2>&1 \
            || echo "bench: could not install ${tool#*:}" >&2
    fi
done
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# --- 1. builds --------------------------------------------------------------
# MINDPAD_BIN: use an already built server instead of building one here.
if [ -z "${MINDPAD_BIN:-}" ]; then
    swift build -c release -j 1 --product mindpad
fi
mindpad=${MINDPAD_BIN:-$(swift build -c release --show-bin-path)/mindpad}
(cd tools/loadgen && swift build -c release -j 1)
loadgen_bin=$(cd tools/loadgen && swift build -c release --show-bin-path)
loadgen=$loadgen_bin/loadgen
storagebench=$loadgen_bin/storagebench
gcc -O2 -o "$out/lws-echo" -I Sources/CMindPadShims/include tools/loadgen/echo/lws-echo.c Sources/CMindPadShims/event_loop.c \
    $(pkg-config --cflags --libs libwebsockets) -luv

url=${DATABASE_URL:-$(scripts/pg.sh start)}
admin_url=${url%/*}/postgres
fresh_db() {  # fresh_db NAME → prints its URL, migrated
    psql "$admin_url" -qAt -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null
    "$mindpad" migrate --database-url "${url%/*}/$1" --migrations Migrations >/dev/null 2>&1
    echo "${url%/*}/$1"
}

# Machine facts for the report.
{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "cores=$(nproc)"
    echo "memory=$(free -g | awk '/Mem:/ {print $2}') GiB"
    echo "kernel=$(uname -r)"
    echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "swift=$(swift --version 2>&1 | head -n1)"
    echo "lws=$(pkg-config --modversion libwebsockets)"
    echo "postgres=$(psql "$admin_url" -qAt -c 'show server_version')"
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "quick=$quick"
} > "$out/machine.txt"

# --- 2. recognition -----------------------------------------------------------
recognition() {
    local venv=tools/train/.venv
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q -r tools/train/requirements.txt
    fi
    if [ ! -f tools/train/out/mindpad-digits.onnx ]; then
        # The benchmark's ONNX model, exported from the shipped weights.
        (cd tools/train && ../../"$venv"/bin/python -c '
import export
from safetensors.numpy import load_file
export.write_onnx(load_file(export.SAFETENSORS))')
    fi
    (cd tools/train && timeout 900 .venv/bin/python evaluate.py --repeats "$([ "$quick" = 1 ] && echo 1 || echo 5)")
}
recognition > "$out/recognition.log" 2>&1 || echo "bench: recognition stage failed (see $out/recognition.log)" >&2
# Reading a handwritten 6-digit number (segment + read each digit), one core.
(cd tools/train && timeout 600 .venv/bin/python number_reading.py --bench --repeats "$([ "$quick" = 1 ] && echo 3 || echo 20)") \
    > "$out/numbers.log" 2>&1 || echo "bench: number reading stage failed (see $out/numbers.log)" >&2

# --- 3. realtime --------------------------------------------------------------
port=18080
echo_port=18081
stop_pid() { kill -TERM "$1" 2>/dev/null || true; for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; kill -KILL "$1" 2>/dev/null || true; }
wait_port() { for _ in $(seq 150); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

serve() {  # serve DBURL → starts mindpad on $port, sets server_pid
    rm -rf "$out/data"; mkdir -p "$out/data"
    MINDPAD_TIME_ATTACK_SECONDS=900 MINDPAD_COUNTDOWN_SECONDS=0.5 LOG_LEVEL=warning MINDPAD_WEATHER_PROVIDER=none \
        "$mindpad" serve --port "$port" --host 127.0.0.1 --database-url "$1" --data-dir "$out/data" \
        --migrations Migrations --web-root web --no-migrate >> "$out/server.log" 2>&1 &
    server_pid=$!
    wait_port "$port"
}

rt_url=$(fresh_db mindpad_bench_rt)
for n in "${scenarios[@]}"; do
    ramp=$(( n > 1000 ? 500 : 400 ))
    # Transport ceiling: the same racers' messages, echoed by lws.
    "$out/lws-echo" "$echo_port" > "$out/echo.log" 2>&1 &
    echo_pid=$!
    wait_port "$echo_port"
    timeout 300 "$loadgen" --mode echo --port "$echo_port" --racers "$n" --duration "$duration" --ramp "$ramp" \
        --server-pid "$echo_pid" --label "echo-$n" --out "$out/echo-$n.json" > /dev/null || true
    stop_pid "$echo_pid"
    # The game.
    serve "$rt_url"
    if [ "$n" = "${scenarios[-1]}" ] && command -v perf >/dev/null; then
        # Profile the server in the middle of the measured window.
        ( sleep $(( n / ramp + 4 + duration / 4 )); \
          timeout 60 perf record -e cpu-clock -F 499 -g -p "$server_pid" -o "$out/perf.data" -- sleep "$(( duration / 2 ))" \
          > "$out/perf.log" 2>&1 ) &
        perf_job=$!
    fi
    timeout 300 "$loadgen" --mode race --port "$port" --racers "$n" --duration "$duration" --ramp "$ramp" \
        --server-pid "$server_pid" --label "race-$n" --out "$out/race-$n.json" > /dev/null || true
    [ -n "${perf_job:-}" ] && { wait "$perf_job" || true; perf_job=; }
    python3 -c "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$port/metrics', timeout=5).read().decode())" \
        > "$out/metrics-$n.txt" 2>/dev/null || true
    stop_pid "$server_pid"
done
if [ -f "$out/perf.data" ]; then
    demangle() { if command -v swift-demangle >/dev/null; then swift-demangle --simplified; else swift demangle --simplified; fi; }
    perf report -i "$out/perf.data" --no-children -g none --sort dso,symbol --stdio 2>/dev/null | grep -v '^#' | grep '%' \
        | head -n 30 | demangle | cut -c1-150 | sed 's/ *-* *-* *$//' > "$out/perf-top.txt" || true
    perf report -i "$out/perf.data" --no-children -g none --sort comm --stdio 2>/dev/null | grep -v '^#' | grep '%' \
        | head -n 12 > "$out/perf-threads.txt" || true
    # Inclusive (with callees) on the service thread: where its time goes.
    perf report -i "$out/perf.data" --children -g none --comm mindpad-lws --sort symbol --stdio 2>/dev/null \
        | grep -v '^#' | grep '%' | grep -v '\[k\]' | grep -v ' 0x0000' | head -n 30 | demangle | cut -c1-150 \
        > "$out/perf-inclusive.txt" || true
fi

# Idle connections: welcome, then nothing, held open; RSS per connection.
serve "$rt_url"
timeout 300 "$loadgen" --mode idle --port "$port" --connections "$idle" --duration 10 --warmup 2 --ramp 2000 \
    --server-pid "$server_pid" --label "idle-$idle" --out "$out/idle.json" > /dev/null || true
stop_pid "$server_pid"

# Decoding client messages: three decoders side by side (issue 13).
swift build -c release -j 1 --product wirebench >/dev/null
timeout 600 "$(swift build -c release --show-bin-path)/wirebench" "$([ "$quick" = 1 ] && echo 5 || echo 15)" \
    > "$out/wire.json" 2> "$out/wire.log" || echo "bench: wire stage failed (see $out/wire.log)" >&2

# --- 4. storage ---------------------------------------------------------------
st_url=$(fresh_db mindpad_bench_storage)
# Result writes three ways: one per statement, batched, and journal first
# (the journal on this disk, as the server's data directory would be).
mkdir -p "$out/journal"
echo "journal_fs=$(stat -f -c %T "$out/journal")" >> "$out/machine.txt"
timeout 900 "$storagebench" --url "$st_url" --players "$players" --queries "$queries" --concurrent 200 \
    --rounds "$rounds" --pools 2,8 --ways single,batched,journaled --journal-dir "$out/journal" \
    --out "$out/storage.json" > /dev/null 2> "$out/storage.log" || echo "bench: storage stage failed" >&2

# --- 5. the report --------------------------------------------------------------
echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
python3 tools/loadgen/render.py "$out" docs/benchmarks.md
echo "bench: wrote docs/benchmarks.md" >&2
