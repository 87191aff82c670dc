#!/usr/bin/env bash
# Installs Debian's Chromium (/usr/bin/chromium) for the Web UI browser test (test/e2e/web-ui.temporal.test.ts), when
# it is missing and this user can install packages (root, or passwordless sudo). Otherwise it prints why and exits 0:
# the browser test then skips with the same reason. Idempotent.
set -u
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  echo "[chromium] $CHROMIUM is installed: $("$CHROMIUM" --version 2>/dev/null || echo 'version unknown')"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "[chromium] not installed and apt-get is not available on this machine: the browser test will be skipped"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "[chromium] not installed, and this user is neither root nor has passwordless sudo: the browser test will be skipped"
  echo "[chromium] fix: run 'apt-get update && apt-get install -y chromium' as root"
  exit 0
fi
echo "[chromium] installing Debian's chromium with apt-get (a few minutes)"
export DEBIAN_FRONTEND=noninteractive
if $SUDO apt-get update -q && $SUDO apt-get install -y -q --no-install-recommends chromium; then
  echo "[chromium] installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
else
  echo "[chromium] apt-get could not install chromium (see above): the browser test will be skipped"
fi
exit 0
