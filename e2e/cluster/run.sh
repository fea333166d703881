#!/usr/bin/env bash
# The cluster test (issue 21): real HAProxy on loopback in front of three
# real `mindpad serve` instances (i1..i3, their own ports and data dirs)
# sharing the test database; protocol clients in Python and one real
# Chromium. The instances and the balancer are started, drained, killed and
# restarted by the tests themselves (conftest.py).
#
#   MINDPAD_BIN   the built server (default: .build/debug/mindpad)
#   DATABASE_URL  a migrated throwaway database (make test provides one)
#
# Logs (one per instance and HAProxy's) and screenshots go to e2e/artifacts/cluster/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

command -v haproxy >/dev/null || { echo "e2e/cluster: haproxy is missing (scripts/deps.sh test installs it)" >&2; exit 1; }
command -v psql >/dev/null || { echo "e2e/cluster: psql is missing (scripts/deps.sh test installs postgresql)" >&2; exit 1; }

source "$root/e2e/browser/env.sh"

export MINDPAD_BIN=$bin
export MINDPAD_ROOT=$root
export MINDPAD_ARTIFACTS=$root/e2e/artifacts/cluster
mkdir -p "$MINDPAD_ARTIFACTS"
"$venv/bin/python" -m pytest -p no:cacheprovider -q -rfE "$here" "$@"
