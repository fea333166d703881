#!/usr/bin/env bash
# The live server's HTTP answers checked against docs/openapi.yaml: first
# pytest with openapi-core (test_api.py), then a schemathesis fuzz run of
# every operation with every check, three ways: no credentials, the admin
# token, a real player's token. Needs MINDPAD_BIN and DATABASE_URL (make test
# sets both).
#
#   FUZZ_EXAMPLES  cases per operation and phase (default 100)
#   FUZZ_SEED      the generator's seed (default fixed, so a run is
#                  reproducible; set another to explore)
#   FUZZ=0         skip the fuzz run
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=$root/.venv-e2e-api
if [ ! -x "$venv/bin/pytest" ] || ! cmp -s "$here/requirements.txt" "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt"
    cp "$here/requirements.txt" "$venv/requirements.txt"
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
logs=$(mktemp -d)
servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; rm -rf "$logs"' EXIT

# serve NAME PORT [VAR=value...]: starts mindpad and waits until it listens.
serve() {
    local name=$1 port=$2
    shift 2
    # No test reaches the internet: the weather comes from the clock.
    env MINDPAD_WEATHER_PROVIDER=none "$@" "$MINDPAD_BIN" serve --host 127.0.0.1 --port "$port" --web-root "$root/web" \
        --migrations "$root/Migrations" --data-dir "$(mktemp -d)" >"$logs/$name.log" 2>&1 &
    servers+=($!)
    for _ in $(seq 1 100); do
        grep -qs "listening" "$logs/$name.log" && return 0
        kill -0 "${servers[-1]}" 2>/dev/null || { cat "$logs/$name.log"; exit 1; }
        sleep 0.1
    done
    echo "e2e/api: $name did not start" >&2
    cat "$logs/$name.log"
    exit 1
}

export MINDPAD_ADMIN_TOKEN="e2e-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
port=$(free_port)
serve api "$port"
MINDPAD_URL="http://127.0.0.1:$port" OPENAPI_SPEC="$root/docs/openapi.yaml" \
    "$venv/bin/pytest" -q -p no:cacheprovider "$here"

[ "${FUZZ:-1}" = 0 ] && exit 0

# The fuzz server allows many wrong tokens, so that the reset endpoints'
# logic is fuzzed rather than their 429 (the limit itself is tested in Swift),
# and hashes teachers' passwords with 1,000 rounds rather than 600,000: the
# fuzz signs up hundreds of teachers (the pytest server above keeps the
# real cost).
port=$(free_port)
serve fuzz "$port" MINDPAD_AUTH_FAILURE_LIMIT=1000000 MINDPAD_PASSWORD_ITERATIONS=1000
url="http://127.0.0.1:$port"
player="Fuzzer $(head -c 3 /dev/urandom | od -An -tx1 | tr -d ' \n')"
token=$(python3 - "$url" "$player" <<'EOF'
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1] + "/api/players", data=json.dumps({"name": sys.argv[2]}).encode(),
                                 headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(request))["token"])
EOF
)

total=0
# fuzz LABEL [schemathesis run options…]: fails on any failed check, server
# error, unanswered request or undocumented answer; prints the case count.
fuzz() {
    local label=$1 out=$logs/fuzz-$1.txt
    shift
    if ! (cd "$logs" && "$venv/bin/schemathesis" "$@" --url "$url" --checks all \
        --max-examples "${FUZZ_EXAMPLES:-100}" --seed "${FUZZ_SEED:-20261123}" --generation-database none \
        --request-timeout 5 --no-color >"$out" 2>&1); then
        cat "$out"
        echo "e2e/api: the fuzz run '$label' failed (above)" >&2
        exit 1
    fi
    local cases
    cases=$(grep -oE '[0-9]+ generated' "$out" | grep -oE '[0-9]+' | tail -n1)
    total=$((total + ${cases:-0}))
    echo "e2e/api fuzz ($label): $(grep -E '[0-9]+ generated' "$out" | sed 's/^ *//')" >&2
}
spec=$root/docs/openapi.yaml
fuzz anonymous --config-file "$here/fuzz.toml" run "$spec"
# The classroom's routes take a teacher's token, or none: the anonymous run
# fuzzes them (401 without a token, the sign-up and sign-in themselves, a
# class code); with the admin's or a player's token they are the same
# requests answered 401 (ClassroomRoutesTests checks every route with a
# player's token), so those runs leave them out, all but the player's own
# classes, which the player's run fuzzes with the player's real token.
fuzz admin --config-file "$here/fuzz.toml" run "$spec" -H "Authorization: Bearer $MINDPAD_ADMIN_TOKEN" \
    --exclude-path-regex '^/api/(teachers|classes|class_codes|players/\{name\}/classes)'
export MINDPAD_FUZZ_PLAYER=$player
fuzz player --config-file "$here/fuzz-player.toml" run "$spec" -H "Authorization: Bearer $token" \
    --exclude-path-regex '^/api/(teachers|classes|class_codes)'
echo "e2e/api fuzz: $total cases, every check passed" >&2
