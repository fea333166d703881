#!/usr/bin/env bash
# Side by side, in one run: the same racers against two builds of mindpad
# (for a change's effect on latency and CPU), alternating A, B, A, B.
#
#   tools/loadgen/compare.sh MINDPAD_A MINDPAD_B [RACERS] [ROUNDS]
#
# Uses the private PostgreSQL (scripts/pg.sh) and a release loadgen; prints
# one line per run. Loopback only, bounded: ~40 s per run. Each build gets
# its own database, migrated with its own migrations (MIGRATIONS_A,
# MIGRATIONS_B; default ./Migrations), so an older build can be compared
# with a newer schema on the other side.
#
# LOOP_A, LOOP_B: the event loop of each side (MINDPAD_EVENT_LOOP), e.g. one
# build on both loops: LOOP_A=poll LOOP_B=libuv compare.sh BIN BIN 2000 2.
# The load generator runs on MINDPAD_LOADGEN_LOOP (default libuv) throughout.
#
# LOADGEN_A, LOADGEN_B: a load generator binary per side (default: this
# checkout's release build), e.g. two builds of the load generator against
# one server: LOADGEN_A=old LOADGEN_B=new compare.sh BIN BIN 5000 3.
#
# PERF_DIR: also profile each server (`perf record -e cpu-clock -F 499 -g -a`,
# system-wide, 10 s from the start of the load generator's window, into
# PERF_DIR/<side>-<round>.perf with the server's pid in .perf.pid: `-p PID`
# busy-polls on this kernel under load and takes a core from the server); then
# tools/loadgen/profile_share.py PERF_DIR/*.perf says which share of the
# samples each part of the hot path took. PERF_SIDES (default "A B"): which
# sides are profiled, e.g. PERF_SIDES=B on one build on both sides measures
# what the profiler itself costs the server.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
a=$1 b=$2 racers=${3:-2000} rounds=${4:-2}
loadgen=$(cd tools/loadgen && swift build -c release -j 1 --product loadgen >/dev/null && swift build -c release --show-bin-path)/loadgen
url=${DATABASE_URL:-$(scripts/pg.sh start)}
for side in A B; do
    name=mindpad_bench_compare_$(echo "$side" | tr AB ab)
    psql "${url%/*}/postgres" -qAt -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null
done
migrations_a=${MIGRATIONS_A:-Migrations} migrations_b=${MIGRATIONS_B:-Migrations}
"$a" migrate --database-url "${url%/*}/mindpad_bench_compare_a" --migrations "$migrations_a" >/dev/null 2>&1
"$b" migrate --database-url "${url%/*}/mindpad_bench_compare_b" --migrations "$migrations_b" >/dev/null 2>&1
out=$(mktemp -d)
port=18090
for round in $(seq "$rounds"); do
    for side in A B; do
        bin=$a; db=${url%/*}/mindpad_bench_compare_a
        loop=${LOOP_A:-}; lg=${LOADGEN_A:-$loadgen}
        [ "$side" = B ] && { bin=$b; db=${url%/*}/mindpad_bench_compare_b; loop=${LOOP_B:-}; lg=${LOADGEN_B:-$loadgen}; }
        # The window's mark of the run before must be gone before this
        # run's profiler starts waiting for it (else it profiles the ramp).
        rm -f "$out/window"
        MINDPAD_EVENT_LOOP=$loop MINDPAD_TIME_ATTACK_SECONDS=900 MINDPAD_COUNTDOWN_SECONDS=0.5 LOG_LEVEL=error \
            "$bin" serve --port "$port" --host 127.0.0.1 --database-url "$db" --data-dir "$out/data-$side" \
            --migrations Migrations --web-root web --no-migrate > "$out/server.log" 2>&1 &
        pid=$!
        for _ in $(seq 150); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
        perfjob=
        if [ -n "${PERF_DIR:-}" ] && [[ " ${PERF_SIDES:-A B} " == *" $side "* ]]; then
            mkdir -p "$PERF_DIR"
            echo "$pid" > "$PERF_DIR/$side-$round.perf.pid"
            ( for _ in $(seq 1200); do [ -f "$out/window" ] && break; sleep 0.1; done
              perf record -e cpu-clock -F 499 -g -a -o "$PERF_DIR/$side-$round.perf" -- sleep 10 \
                > /dev/null 2>&1 ) &
            perfjob=$!
        fi
        timeout 300 "$lg" --mode race --loop "${MINDPAD_LOADGEN_LOOP:-libuv}" --port "$port" --racers "$racers" --duration 20 --ramp 500 \
            --server-pid "$pid" --mark "$out/window" --out "$out/$side-$round.json" > /dev/null || true
        [ -z "$perfjob" ] || wait "$perfjob" || true
        python3 tools/loadgen/metrics.py "$port" > "$out/$side-$round.metrics" 2>/dev/null || true
        kill -TERM "$pid"; wait "$pid" || true
        python3 - "$out/$side-$round.json" "$side" "$round" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g, s, u = d["submit_to_grade"], d["stroke_to_guess"], d["stroke_to_guess_unthrottled"]
print(f"{sys.argv[2]} ({d.get('event_loop', '?')} client) round {sys.argv[3]}: racers {d['racers']} | submit→grade p50 {g['p50_ms']:.1f} p99 {g['p99_ms']:.1f} ms"
      f" | stroke→guess p50 {s['p50_ms']:.1f} p99 {s['p99_ms']:.1f} (unthrottled p99 {u.get('p99_ms', 0):.1f}) ms"
      f" | CPU {d['server_cpu_percent']:.0f}%, {d['server_cpu_percent'] / 100 * d['window_s'] / max(1, d['window_sent']) * 1e6:.0f} µs/msg | RSS {d['server_rss_max_kb'] / 1024:.0f} MB"
      f" | lost {d['lost_guesses'] + d['lost_grades']} | errors {sum(d['errors_by_code'].values())}"
      f" | service thread {d.get('server_threads_cpu_percent', {}).get('mindpad-lws', 0):.0f}%"
      f" | load generator CPU {d.get('loadgen_cpu_percent', 0):.0f}%, machine {d.get('machine_cpu_percent', 0):.0f}%"
      f" | waiting for a core: service thread {d.get('server_threads_wait_percent', {}).get('mindpad-lws', 0):.1f}%,"
      f" load generator {d.get('loadgen_wait_percent', 0):.1f}%")
# The server's own lag heartbeat over its whole life (ramp included): how late
# the service thread ran a timer due every 50 ms.
# And a drawing's wait for a recognition worker (guesses and grades wait there).
try:
    text = open(sys.argv[1][:-len(".json")] + ".metrics").read()
    for name, what in [("mindpad_service_lag_seconds", "service thread lag, a timer due every 50 ms"),
                       ("mindpad_recognition_wait_seconds", "a drawing's wait for a recognition worker")]:
        b = {line.split('le="')[1].split('"')[0]: float(line.split()[-1])
             for line in text.splitlines() if line.startswith(name + "_bucket")}
        total = b.get("+Inf", 0)
        if total:
            over = lambda le: int(total - b.get(le, total))
            print(f"    {what} ({int(total)}, ramp included): over 10 ms {over('0.01')}, over 25 ms {over('0.025')},"
                  f" over 50 ms {over('0.05')}, over 100 ms {over('0.1')}")
except OSError:
    pass
# The seconds of the window that held the tail (a grade or unthrottled guess over 50 ms).
for t in d.get("timeline", []):
    if t["grades_over_50ms"] or t["guesses_over_50ms"]:
        print(f"    second {t['second']:2d}: over 50 ms {t['grades_over_50ms']}/{t['grades']} grades (max {t['grade_max_ms']:.0f}),"
              f" {t['guesses_over_50ms']}/{t['guesses_unthrottled']} guesses (max {t['guess_max_ms']:.0f});"
              f" waited for a core: service thread {t['service_thread_wait_ms']:.0f} ms, load generator {t['loadgen_wait_ms']:.0f} ms;"
              f" CPU server {t.get('server_cpu_percent', 0)}%, load generator {t.get('loadgen_cpu_percent', 0)}%, others {t.get('others_cpu_percent', 0)}%;"
              f" load generator's 10 ms tick up to {t.get('loadgen_lag_max_ms', 0):.0f} ms late")
PY
    done
done
# KEEP_DIR: the runs' JSON (each with its second-by-second timeline) and the server's
# /metrics at the end of each run are copied there.
[ -n "${KEEP_DIR:-}" ] && mkdir -p "$KEEP_DIR" && cp "$out"/*.json "$out"/*.metrics "$KEEP_DIR"/ 2>/dev/null
rm -rf "$out"
