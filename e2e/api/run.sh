#!/usr/bin/env bash
# The live server's HTTP answers checked against docs/openapi.yaml, with
# openapi-core. Needs MINDPAD_BIN and DATABASE_URL (make test sets both).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=$root/.venv-e2e-api
if [ ! -x "$venv/bin/pytest" ] || ! cmp -s "$here/requirements.txt" "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt"
    cp "$here/requirements.txt" "$venv/requirements.txt"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export MINDPAD_ADMIN_TOKEN="e2e-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
log=$(mktemp)
"$MINDPAD_BIN" serve --host 127.0.0.1 --port "$port" --web-root "$root/web" --migrations "$root/Migrations" \
    --data-dir "$(mktemp -d)" >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
    grep -q "listening" "$log" && break
    kill -0 $server 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.1
done
MINDPAD_URL="http://127.0.0.1:$port" OPENAPI_SPEC="$root/docs/openapi.yaml" \
    "$venv/bin/pytest" -q -p no:cacheprovider "$here"
