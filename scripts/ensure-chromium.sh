#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (a Playwright browser download does not work offline).
# Installs it when missing and we are allowed to (root); otherwise says what to run.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "[ensure-chromium] installing Debian's chromium ..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core >/dev/null
else
  echo "[ensure-chromium] /usr/bin/chromium is missing: run 'sudo apt-get install -y chromium'" >&2
  exit 1
fi
