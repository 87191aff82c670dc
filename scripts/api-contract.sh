#!/usr/bin/env bash
# The HTTP API against its own OpenAPI document, by a property-based tester nobody here wrote: Schemathesis (PyPI,
# pinned) reads GET /openapi.json from the API that `npm start` serves and runs every check, the stateful phase
# included. Everything stays on loopback: npm start binds 127.0.0.1 on free ports with its own data folder, and the
# run is bounded in cases per operation and in time. Exits with Schemathesis's status.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
# Cases per operation and phase: enough to reach every rule of the document, small enough for CI's budget.
MAX_EXAMPLES=${API_CONTRACT_MAX_EXAMPLES:-60}
# Wall-clock bounds: npm start up to its first "Serving.", then the whole Schemathesis run.
START_TIMEOUT_S=300
RUN_TIMEOUT_S=900

venv=.cache/schemathesis-$SCHEMATHESIS_VERSION
# A virtual environment cannot be moved once made: it is built in place and marked complete at the end.
if [ ! -f "$venv/.complete" ]; then
  echo "[api-contract] installing schemathesis $SCHEMATHESIS_VERSION from PyPI into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  touch "$venv/.complete"
fi

work=$(mktemp -d)
log="$work/npm-start.log"
: >"$log"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# npm start as a newcomer runs it, on free ports (the dev server's gRPC port cannot be 0) and a data folder of its own.
TEMPORAL_DEV_PORT=$(free_port) TEMPORAL_UI_PORT=0 SANDBOX_PORT=0 RECEIVER_PORT=0 API_PORT=0 CODEC_SERVER_PORT=0 \
  TEMPORAL_DATA_DIR="$work/data" setsid npm start >"$log" 2>&1 &
# setsid: npm start leads a process group of its own, so Ctrl-C can be sent to exactly the processes it started.
start_pid=$!
stop_start() {
  if kill -0 "$start_pid" 2>/dev/null; then
    # What Ctrl-C does: SIGINT to the group; npm start then stops everything it started, in order.
    kill -INT -- "-$start_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$start_pid" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$start_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop_start EXIT

for _ in $(seq 1 "$START_TIMEOUT_S"); do
  if grep -q '^Serving\.' "$log"; then break; fi
  if ! kill -0 "$start_pid" 2>/dev/null; then
    echo "[api-contract] npm start exited before serving:"
    cat "$log"
    exit 1
  fi
  sleep 1
done
if ! grep -q '^Serving\.' "$log"; then
  echo "[api-contract] npm start did not serve within $START_TIMEOUT_S s:"
  cat "$log"
  exit 1
fi
api=$(sed -n 's/^\[api\] HTTP API on \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$log" | head -n 1)
key=$(sed -n 's/^\[api\] .*Authorization: Bearer \([^ ]*\) (dev key.*/\1/p' "$log" | head -n 1)
echo "[api-contract] npm start serves the API on $api; Schemathesis $SCHEMATHESIS_VERSION, $MAX_EXAMPLES cases per operation"

status=0
# Run from the temporary folder: Schemathesis and Hypothesis keep their caches in the working directory.
scripts="$PWD/scripts"
st="$PWD/$venv/bin/st"
(cd "$work" && SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH="$scripts" timeout "$RUN_TIMEOUT_S" "$st" run "$api/openapi.json" \
  --checks all \
  --phases examples,coverage,fuzzing,stateful \
  --header "Authorization: Bearer $key" \
  --max-examples "$MAX_EXAMPLES" \
  --workers 1 \
  --request-timeout 20 \
  --warnings off \
  --no-color) || status=$?
if [ "$status" -ne 0 ]; then
  echo "[api-contract] Schemathesis failed (status $status); the last lines of npm start:"
  tail -n 40 "$log"
fi
exit "$status"
