#!/usr/bin/env bash
# Installs the Debian packages MindPad needs, when they are missing.
# Usage: scripts/deps.sh [run|test]   (test adds what the test suite uses)
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail
purpose=${1:-run}

# Every failure is one line: what is in the way, and what to do.
fail() { echo "deps.sh: error: $*" >&2; exit 1; }

if ! command -v swift >/dev/null 2>&1; then
    fail "the Swift 6 toolchain is not on PATH; install it from https://www.swift.org/install/ (the one prerequisite) and run this again"
fi

# libwebsockets' libuv plugin and libuv's header: the epoll loop, the default
# (issue 20, MINDPAD_EVENT_LOOP; the server links libuv to run it as lws' foreign loop).
wanted=(pkg-config libwebsockets-dev libwebsockets-evlib-uv libuv1-dev libpq-dev libssl-dev)
# A private PostgreSQL is started only when no DATABASE_URL is given.
if [ -z "${DATABASE_URL:-}" ] || [ "$purpose" = test ]; then
    wanted+=(postgresql)
fi
if [ "$purpose" = test ]; then
    # compose validation, the cluster test's balancer, the e2e suites' Python,
    # and the browser tests.
    wanted+=(docker-compose haproxy python3 python3-venv chromium chromium-driver fonts-wqy-microhei)
    # tools/train/writers_fonts.py: handwriting-like fonts whose digits are traced into
    # pen strokes (the "fonts" source of writers; its tests check this list).
    wanted+=(hershey-fonts-data fonts-averia-gwf fonts-breip fonts-bwht fonts-comic-neue
             fonts-dancingscript fonts-dkg-handwriting fonts-ecolier-court fonts-humor-sans
             fonts-isabella fonts-kiloji fonts-kristi fonts-quicksand fonts-rufscript
             fonts-sil-andika fonts-sjfonts fonts-staypuft fonts-tomsontalks fonts-urw-base35
             fonts-yozvox-yozfont)
fi

missing=()
for pkg in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    fail "missing Debian packages: ${missing[*]}; installing needs root: run this as root, or: sudo apt-get update && sudo apt-get install -y ${missing[*]}"
fi
command -v apt-get >/dev/null || fail "missing packages ${missing[*]} and no apt-get here (this set-up expects Debian 12); install them with your package manager"
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
apt-get update -qq >"$log" 2>&1 \
    || fail "apt-get update failed ($(grep -m1 -E '^(E|W):' "$log" || tail -n1 "$log")); check the network and /etc/apt/sources.list, then run this again"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1 \
    || fail "apt-get install ${missing[*]} failed ($(grep -m1 '^E:' "$log" || tail -n1 "$log")); see apt-get's message and run this again"
rm -f "$log"
