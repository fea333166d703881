#!/usr/bin/env bash
# `make run`: install what is missing, use DATABASE_URL or start the private
# PostgreSQL, build in release, migrate and serve on http://localhost:$PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh run
if [ -z "${DATABASE_URL:-}" ]; then
    DATABASE_URL=$(scripts/pg.sh start)
    export DATABASE_URL
    echo "using the private PostgreSQL at $DATABASE_URL (scripts/pg.sh stop stops it)" >&2
fi
swift build -c release --product mindpad
bin=$(swift build -c release --show-bin-path)/mindpad
"$bin" migrate
echo "MindPad on http://localhost:${PORT:-8080}" >&2
exec "$bin" serve --no-migrate "$@"
