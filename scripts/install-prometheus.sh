#!/usr/bin/env bash
# Debian's prometheus package (prometheus and promtool), unpacked under .cache/prometheus-<version> rather than
# installed: the alert tests (npm run test:alerts) and the rule checks of .ci/run use it from there, and nothing is
# started as a service. Debian's current bookworm build is taken (security updates replace older ones).
set -euo pipefail
cd "$(dirname "$0")/.."
for existing in .cache/prometheus-*/usr/bin/prometheus; do
  if [ -x "$existing" ]; then
    echo "prometheus: $existing"
    exit 0
  fi
done
apt-get update -qq
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq prometheus)
deb=$(ls "$tmp"/prometheus_*.deb)
version=$(dpkg-deb -f "$deb" Version)
target=".cache/prometheus-${version%%+*}"
mkdir -p "$target"
dpkg-deb -x "$deb" "$target"
echo "prometheus $version: $target/usr/bin/prometheus"
