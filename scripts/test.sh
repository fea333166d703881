#!/usr/bin/env bash
# `make test`: install what is missing, start the private PostgreSQL (unless
# DATABASE_URL names a server to use), create a throwaway database, and run
# every test: the Swift suites, the checks of the deployment files, the
# offline tooling's unit tests, then every e2e suite.
# `make check` (scripts/test.sh --check): the fast lane, the same set-up
# with the run's packages only, then the Swift suites and nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = --check ] && check=1

# stage NAME: says which stage runs; the time each took is printed at the end,
# whether the run passes or not.
stages=()
stage_name="set-up (packages, PostgreSQL)"
stage_start=$SECONDS
stage() {
    stages+=("$(printf '%5d s  %s' $((SECONDS - stage_start)) "$stage_name")")
    stage_name=$1
    stage_start=$SECONDS
    [ "$1" = done ] || echo "== $1" >&2
}
print_stages() {
    [ "$stage_name" = done ] || stage done
    echo "== time per stage (make $([ "$check" = 1 ] && echo check || echo test): $SECONDS s in all)" >&2
    printf '%s\n' "${stages[@]}" >&2
}

if [ "$check" = 1 ]; then
    # PostgreSQL for the Swift suites' database, whatever DATABASE_URL says.
    DATABASE_URL= scripts/deps.sh run
else
    scripts/deps.sh test
fi

started_cluster=0
if [ -z "${DATABASE_URL:-}" ]; then
    if ! scripts/pg.sh status; then started_cluster=1; fi
    admin_url=$(scripts/pg.sh start)
else
    admin_url=$DATABASE_URL
fi
test_db=mindpad_test_$$_$RANDOM
psql "$admin_url" -qc "CREATE DATABASE $test_db" >/dev/null
cleanup() {
    print_stages
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $test_db WITH (FORCE)" >/dev/null 2>&1 || true
    # Scratch databases of tests that were killed mid-way.
    for db in $(psql "$admin_url" -Atc "SELECT datname FROM pg_database WHERE datname LIKE 'mindpad\_t\_%'" 2>/dev/null); do
        psql "$admin_url" -qc "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
    done
    if [ "$started_cluster" = 1 ]; then scripts/pg.sh stop || true; fi
}
trap cleanup EXIT
DATABASE_URL=$(python3 -c 'import sys,urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/"+sys.argv[2])))' "$admin_url" "$test_db")
export DATABASE_URL

stage "swift build --build-tests"
swift build --build-tests -j "$(nproc)"
stage "swift test (database $test_db)"
swift test --skip-build --disable-xctest   # every test uses swift-testing
[ "$check" = 1 ] && exit 0

stage "deployment files"
scripts/check-deploy.sh
stage "tools/train (the offline tooling's unit tests)"
tools/train/test.sh

# End-to-end suites outside Swift: each folder of e2e/ with a run.sh gets the
# built binary and the test database.
MINDPAD_BIN=$(swift build --show-bin-path)/mindpad
export MINDPAD_BIN
# The API fuzz at 20 cases per operation and phase (e2e/api/run.sh's own
# default is 100): its fuzzing phase is most of its time (58 s of a run's
# 83 at 100), and the suite has 20 minutes. FUZZ_EXAMPLES=500 make test
# fuzzes deeper.
export FUZZ_EXAMPLES=${FUZZ_EXAMPLES:-20}
for suite in e2e/*/run.sh; do
    [ -x "$suite" ] || continue
    stage "$suite"
    "$suite"
done
