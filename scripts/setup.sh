#!/usr/bin/env bash
# Installs what the build and the tests need, and only what is missing:
#   Debian: emscripten catch2 nlohmann-json3-dev chromium ninja-build cmake g++
#   npm:    `npm ci` when node_modules is missing or older than package-lock.json
# A no-op within a second or two when everything is there. Non-interactive; runs as root
# (or through sudo when not root); needs no stdin.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive

debs=(emscripten catch2 nlohmann-json3-dev chromium ninja-build cmake g++)
missing=()
for p in "${debs[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=(sudo -n); else
      echo "setup: not root and no sudo: install ${missing[*]} by hand" >&2; exit 1
    fi
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    "${missing[@]}" </dev/null
fi

# npm ci when node_modules is missing, or package-lock.json changed since the last install
# (npm writes node_modules/.package-lock.json on every install).
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund </dev/null
fi
