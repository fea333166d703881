#!/usr/bin/env bash
# Installs the Debian packages MindPad needs, when they are missing.
# Usage: scripts/deps.sh [run|test]   (test adds what the test suite uses)
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail
purpose=${1:-run}

if ! command -v swift >/dev/null 2>&1; then
    echo "error: the Swift 6 toolchain is not on PATH. Install it from swift.org (it is the one prerequisite), then run this again." >&2
    exit 1
fi

wanted=(pkg-config libwebsockets-dev libpq-dev libssl-dev)
# A private PostgreSQL is started only when no DATABASE_URL is given.
if [ -z "${DATABASE_URL:-}" ] || [ "$purpose" = test ]; then
    wanted+=(postgresql)
fi
if [ "$purpose" = test ]; then
    # compose validation, the e2e suites' Python, and the browser tests.
    wanted+=(docker-compose python3 python3-venv chromium chromium-driver fonts-wqy-microhei)
fi

missing=()
for pkg in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    echo "installing: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "error: missing Debian packages: ${missing[*]}" >&2
    echo "install them with:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
