#!/usr/bin/env bash
# Browser tests of the web client: Debian's chromium + chromedriver driven by
# Selenium (pytest) against the real server and database.
#
#   MINDPAD_BIN   the built server (default: .build/debug/mindpad)
#   DATABASE_URL  a migrated throwaway database (make test provides one)
#
# Installs what is missing (apt: chromium, chromium-driver, a CJK font; pip:
# e2e/browser/requirements.txt into .venv-e2e), starts `mindpad serve` on a
# free port with a short Time Attack and the weather from the server's clock
# (no network), runs pytest, stops the server.
# Screenshots of every scene go to e2e/artifacts/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

source "$here/env.sh"

# --- the server --------------------------------------------------------------
port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$root/e2e/artifacts"
log=$root/e2e/artifacts/server.log
export MINDPAD_TIME_ATTACK_SECONDS=${MINDPAD_TIME_ATTACK_SECONDS:-12}   # the tests read it too
MINDPAD_COUNTDOWN_SECONDS=${MINDPAD_COUNTDOWN_SECONDS:-0.3} \
MINDPAD_WEATHER_PROVIDER=${MINDPAD_WEATHER_PROVIDER:-none} \
    "$bin" serve --port "$port" --host 127.0.0.1 --web-root "$root/web" >"$log" 2>&1 &
server=$!
stop_server() {
    if kill -0 "$server" 2>/dev/null; then
        kill -TERM "$server" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$server" 2>/dev/null || true
    fi
    wait "$server" 2>/dev/null || true
}
trap stop_server EXIT

"$venv/bin/python" - "$port" "$server" <<'PY'
import os, sys, time, urllib.request
port, pid = sys.argv[1], int(sys.argv[2])
deadline = time.time() + 30
while time.time() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("e2e/browser: the server exited on start (see e2e/artifacts/server.log)")
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
        sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit("e2e/browser: the server did not answer /healthz within 30 s")
PY

# --- the tests ---------------------------------------------------------------
export MINDPAD_URL="http://127.0.0.1:$port"
export MINDPAD_ARTIFACTS="$root/e2e/artifacts"
set +e
"$venv/bin/python" -m pytest -p no:cacheprovider -q -rfE "$here" "$@"
status=$?
set -e
echo "e2e/browser: screenshots in e2e/artifacts/" >&2
exit $status
