#!/usr/bin/env bash
# Provisions what `npm run test:cluster` runs, from the project's own files, into .cache/ (kept between runs):
# - PostgreSQL from Debian's packages (installed with apt-get when its binaries are missing; needs root);
# - the Temporal server release docker-compose.yml pins, and its temporal-sql-tool, built from the Go module proxy
#   (`go install`; GOMODCACHE/GOCACHE stay Go's own, so a second build on the same machine is quick);
# - the Temporal CLI (npm run temporal:install) for the namespace job.
# Prints the paths it found as NAME=value lines for the test.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^ *image: temporalio\/server:\([0-9][0-9.]*\) *$/\1/p' docker-compose.yml)
if [ -z "$version" ]; then
  echo "docker-compose.yml pins no temporalio/server:<version> image" >&2
  exit 1
fi
bin_dir=".cache/temporal-server/v$version/bin"

initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$initdb" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "PostgreSQL is not installed and this is not a root Debian shell: install the postgresql package" >&2
    exit 1
  fi
  echo "== PostgreSQL: apt-get install postgresql" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
  initdb=$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)
fi

if [ ! -x "$bin_dir/temporal-server" ] || [ ! -x "$bin_dir/temporal-sql-tool" ]; then
  command -v go >/dev/null || { echo "Go is needed to build the Temporal server $version" >&2; exit 1; }
  echo "== Temporal server v$version and temporal-sql-tool: go install (a first build takes about 15 minutes on 2 cores)" >&2
  build_dir=$(mktemp -d)
  trap 'rm -rf "$build_dir"' EXIT
  # GOTOOLCHAIN=local: build with the installed Go, never fetch another toolchain.
  GOBIN="$build_dir" GOTOOLCHAIN=local CGO_ENABLED=0 \
    go install "go.temporal.io/server/cmd/server@v$version" "go.temporal.io/server/cmd/tools/sql@v$version" >&2
  mkdir -p "$bin_dir"
  mv "$build_dir/server" "$bin_dir/temporal-server"
  mv "$build_dir/sql" "$bin_dir/temporal-sql-tool"
fi

cli=$(npm run --silent temporal:install -- --cli-only | sed -n 's/^TEMPORAL_CLI_PATH=//p')

echo "TEMPORAL_SERVER_VERSION=$version"
echo "TEMPORAL_SERVER_BIN=$PWD/$bin_dir/temporal-server"
echo "TEMPORAL_SQL_TOOL=$PWD/$bin_dir/temporal-sql-tool"
echo "POSTGRES_BIN_DIR=$(dirname "$initdb")"
echo "TEMPORAL_CLI_PATH=$cli"
