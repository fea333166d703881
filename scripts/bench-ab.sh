#!/usr/bin/env bash
# Before and after, side by side in one run: the realtime race scenario of
# `make bench` (stage 3) against the server built at BASE and the server of
# the working tree, alternating at each size so that the machine's drift
# falls on both alike. For a redesign that must change nothing a racer
# feels (issue 44: "no worse in p99 and CPU per message").
#
#   scripts/bench-ab.sh BASE [SIZES...]     default sizes 2000 5000
#   BENCH_AB_REPEATS=2 BENCH_AB_SECONDS=15  runs per side and size, window length
#
# BASE is built (release) in a git worktree under .build-ab/; results go to
# .build-ab/results/<side>-<n>-<i>.json and a table is printed: medians of
# the runs of each side, and after/before ratios.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
base=${1:?usage: scripts/bench-ab.sh BASE [SIZES...]}
shift
sizes=("${@:-2000 5000}")
read -r -a sizes <<< "${sizes[*]}"
repeats=${BENCH_AB_REPEATS:-2}
seconds=${BENCH_AB_SECONDS:-15}
work=$root/.build-ab
results=$work/results
mkdir -p "$results"
rm -f "$results"/*.json

ulimit -Hn 200000 2>/dev/null || true
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# --- builds: the base in a worktree, the working tree, the load generator.
rev=$(git rev-parse --verify "$base^{commit}")
if [ ! -d "$work/base" ]; then git worktree add --detach "$work/base" "$rev" >/dev/null; fi
git -C "$work/base" checkout -q --detach "$rev"
(cd "$work/base" && swift build -c release -j "$(nproc)" --product mindpad)
swift build -c release -j "$(nproc)" --product mindpad
(cd tools/loadgen && swift build -c release -j "$(nproc)")
declare -A bin=([before]="$(cd "$work/base" && swift build -c release --show-bin-path)/mindpad"
                [after]="$(swift build -c release --show-bin-path)/mindpad")
declare -A tree=([before]="$work/base" [after]="$root")
loadgen="$(cd tools/loadgen && swift build -c release --show-bin-path)/loadgen"

url=${DATABASE_URL:-$(scripts/pg.sh start)}
admin_url=${url%/*}/postgres
port=18090
stop_pid() { kill -TERM "$1" 2>/dev/null || true; for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; kill -KILL "$1" 2>/dev/null || true; }
wait_port() { for _ in $(seq 150); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

# run SIDE N I: a fresh database migrated by that side's own migrations, its
# server as bench.sh starts it, one race window.
run() {
    local side=$1 n=$2 i=$3 db=mindpad_ab
    psql "$admin_url" -qAt -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
    "${bin[$side]}" migrate --database-url "${url%/*}/$db" --migrations "${tree[$side]}/Migrations" >/dev/null 2>&1
    rm -rf "$work/data"; mkdir -p "$work/data"
    MINDPAD_MAX_CONNECTIONS=60000 MINDPAD_TIME_ATTACK_SECONDS=900 MINDPAD_COUNTDOWN_SECONDS=0.5 LOG_LEVEL=warning \
    MINDPAD_WEATHER_PROVIDER=none "${bin[$side]}" serve --port "$port" --host 127.0.0.1 --database-url "${url%/*}/$db" \
        --data-dir "$work/data" --migrations "${tree[$side]}/Migrations" --web-root "${tree[$side]}/web" --no-migrate \
        >> "$work/server-$side.log" 2>&1 &
    local pid=$!
    wait_port "$port"
    timeout 300 "$loadgen" --mode race --port "$port" --racers "$n" --duration "$seconds" \
        --ramp "$(( n > 1000 ? 500 : 400 ))" --server-pid "$pid" --label "$side-$n" \
        --out "$results/$side-$n-$i.json" > /dev/null || true
    stop_pid "$pid"
}

for n in "${sizes[@]}"; do
    for i in $(seq "$repeats"); do
        # before, after, then after, before: neither side always goes first.
        if [ $(( i % 2 )) = 1 ]; then order=(before after); else order=(after before); fi
        for side in "${order[@]}"; do
            echo "bench-ab: $side at $n racers, run $i" >&2
            run "$side" "$n" "$i"
        done
    done
done

python3 - "$results" "$rev" "${sizes[@]}" <<'PY'
import json, statistics, sys, pathlib
results, rev, sizes = pathlib.Path(sys.argv[1]), sys.argv[2], [int(s) for s in sys.argv[3:]]
def cpu_per_msg(d):  # as tools/loadgen/render.py: server CPU µs per message sent
    return d["server_cpu_percent"] / 100 * d["window_s"] / max(1, d["window_sent"]) * 1e6
def lost(d):
    return d["lost_guesses"] + d["lost_grades"] + d["connect_errors"] + d["unexpected_closes"]
def med(side, n, f):
    vals = [f(json.load(open(p))) for p in sorted(results.glob(f"{side}-{n}-*.json"))]
    return statistics.median(vals) if vals else float("nan")
cols = [("submit→grade p50 ms", lambda d: d["submit_to_grade"]["p50_ms"]),
        ("submit→grade p99 ms", lambda d: d["submit_to_grade"]["p99_ms"]),
        ("stroke→guess p99 ms", lambda d: d["stroke_to_guess_unthrottled"]["p99_ms"]),
        ("server CPU µs/msg", cpu_per_msg), ("lost", lost)]
print(f"before = {rev[:10]}, after = working tree; medians of each side's runs")
print("| racers | " + " | ".join(f"{c} before / after (ratio)" for c, _ in cols) + " |")
print("|---:|" + "---:|" * len(cols))
for n in sizes:
    cells = []
    for _, f in cols:
        a, b = med("before", n, f), med("after", n, f)
        ratio = f" ({b / a:.2f}×)" if a else ""
        cells.append(f"{a:.1f} / {b:.1f}{ratio}")
    print(f"| {n:,} | " + " | ".join(cells) + " |")
PY
