#!/usr/bin/env bash
# A Python virtual environment with what the Python example of docs/integration.md imports (pinned in
# python-examples.txt, from PyPI), for test/src/http-client/python-example.temporal.test.ts. Prints its python.
# Idempotent: a complete environment for the same pins is reused.
set -euo pipefail
cd "$(dirname "$0")/.."
pins=scripts/python-examples.txt
venv=.cache/python-examples-$(sha256sum "$pins" | cut -c1-12)
# A virtual environment cannot be moved once made: it is built in place and marked complete at the end.
if [ ! -f "$venv/.complete" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$pins" >&2
  touch "$venv/.complete"
fi
echo "$PWD/$venv/bin/python"
