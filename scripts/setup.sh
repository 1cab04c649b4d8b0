#!/usr/bin/env bash
# Set up tablemate on a fresh Linux machine with Python 3.11: a virtual
# environment in .venv with the package (editable) and its test tools.
# Safe to run again; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
