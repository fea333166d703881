#!/usr/bin/env bash
# The offline tooling's own unit tests (`make test` runs them): today the
# legibility rules of the synthetic writers (test_legibility.py). They need
# numpy only, so they get a small pinned venv of their own (`.venv-tools`),
# not the training environment (jax, onnxruntime, …) of requirements.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=$root/.venv-tools
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$here/requirements-test.txt" "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements-test.txt"
    cp "$here/requirements-test.txt" "$venv/requirements.txt"
fi
cd "$here"
for t in test_*.py; do
    "$venv/bin/python" "$t"
done
