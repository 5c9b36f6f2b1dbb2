#!/usr/bin/env bash
# Installs what the build and the tests need, and only what is missing. Supported systems:
#   Debian/Ubuntu (apt-get): emscripten catch2 nlohmann-json3-dev chromium ninja-build cmake g++
#                            clang libclang-rt-14-dev (clang, libFuzzer and the sanitizer
#                            runtimes: the asan and fuzz suites, skipped without them)
#                            redis-server (the server suite starts one of its own)
#   macOS (Homebrew):        emscripten catch2 nlohmann-json ninja cmake redis (a C++ compiler from the
#                            Xcode command line tools; Chromium or Chrome only for the e2e suite)
#   with the official Emscripten SDK activated (`emcc` on PATH and EMSDK set, e.g. after
#   `source emsdk_env.sh`), on either: emscripten is taken from the SDK, not installed.
#   Anything else: nothing is installed; the script stops and lists what to install.
#   npm: `npm ci` when node_modules is missing or older than package-lock.json
# A no-op within a second or two when everything is there. Non-interactive; needs no stdin.
# apt-get runs as root (or through sudo when not root); brew runs as the user.
# SETUP_DRY_RUN=1: print what is found and what would be installed, install nothing.
set -euo pipefail
case "$0" in */*) cd "${0%/*}/.." ;; *) cd .. ;; esac

dry=${SETUP_DRY_RUN:-}
say() { echo "setup: $*"; }
have() { command -v "$1" >/dev/null 2>&1; }
# Runs a command, or only prints it in a dry run.
act() {
  if [ -n "$dry" ]; then say "dry run: would run: $*"; else "$@"; fi
}

# The Emscripten SDK, when activated, provides emscripten on every system.
emsdk=
if [ -n "${EMSDK:-}" ] && have emcc; then
  emsdk=1
  say "emscripten: the Emscripten SDK in $EMSDK ($(command -v emcc))"
fi

if have apt-get && have dpkg-query; then
  pm=apt-get
elif have brew; then
  pm=brew
else
  pm=none
fi
say "package manager: $pm"

missing=()
case "$pm" in
apt-get)
  export DEBIAN_FRONTEND=noninteractive
  debs=(emscripten catch2 nlohmann-json3-dev chromium ninja-build cmake g++ clang libclang-rt-14-dev redis-server)
  # only for the asan and fuzz suites: a release without them (after apt-get update) skips them
  optional=(libclang-rt-14-dev)
  for p in "${debs[@]}"; do
    [ "$p" = emscripten ] && [ -n "$emsdk" ] && continue
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    sudo=()
    if [ "${EUID:-$(id -u)}" -ne 0 ]; then
      if have sudo; then sudo=(sudo -n); else
        echo "setup: not root and no sudo: install ${missing[*]} by hand" >&2; exit 1
      fi
    fi
    act "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
    if [ -z "$dry" ] && have apt-cache; then
      keep=()
      for p in "${missing[@]}"; do
        if [[ " ${optional[*]} " == *" $p "* ]] && ! apt-cache show "$p" >/dev/null 2>&1; then
          say "$p is not in this release: the asan and fuzz suites will be skipped"
        else
          keep+=("$p")
        fi
      done
      missing=("${keep[@]}")
    fi
    [ ${#missing[@]} -eq 0 ] || act "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
      "${missing[@]}" </dev/null
  fi
  ;;
brew)
  # a formula counts as present when its command is on PATH (however installed) or brew has it
  brewHas() { brew list --versions "$1" >/dev/null 2>&1; }
  [ -n "$emsdk" ] || have emcc || brewHas emscripten || missing+=(emscripten)
  have cmake || brewHas cmake || missing+=(cmake)
  have ninja || brewHas ninja || missing+=(ninja)
  brewHas catch2 || missing+=(catch2)
  brewHas nlohmann-json || missing+=(nlohmann-json)
  have redis-server || brewHas redis || missing+=(redis)
  if ! have c++ && ! have clang++ && ! have g++; then
    echo "setup: no C++ compiler: install the Xcode command line tools (xcode-select --install), then run again" >&2
    exit 1
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing with Homebrew: ${missing[*]}"
    act env NONINTERACTIVE=1 brew install "${missing[@]}" </dev/null
  fi
  ;;
none)
  # No supported package manager: find what is there, and list what is not.
  incdirs=(${SETUP_INCLUDE_DIRS:-/usr/local/include /usr/include /opt/homebrew/include})
  header() { local d; for d in "${incdirs[@]}"; do [ -f "$d/$1" ] && return 0; done; return 1; }
  [ -n "$emsdk" ] || have emcc || missing+=("emscripten (the Emscripten SDK, https://emscripten.org/docs/getting_started/downloads.html: emcc on PATH, EMSDK set)")
  have cmake || missing+=("cmake (3.21 or later)")
  have ninja || missing+=("ninja")
  have c++ || have g++ || have clang++ || missing+=("a C++17 compiler (g++ or clang++)")
  header catch2/catch.hpp || missing+=("Catch2 2.13 (catch2/catch.hpp and its CMake config)")
  header nlohmann/json.hpp || missing+=("nlohmann/json 3.11 (nlohmann/json.hpp and its CMake config)")
  have redis-server || missing+=("redis-server (Redis 6 or later: the server suite's Redis tests)")
  if [ ${#missing[@]} -gt 0 ]; then
    {
      echo "setup: no supported package manager (apt-get or Homebrew) to install what is missing."
      echo "setup: install these, then run again:"
      for m in "${missing[@]}"; do echo "setup:   - $m"; done
    } >&2
    exit 1
  fi
  ;;
esac
[ ${#missing[@]} -gt 0 ] || say "system packages: nothing to install"

# The e2e suite needs a Chromium or Chrome (never a downloaded one); the other suites do not.
if [ "$pm" != apt-get ]; then
  # as scripts/test.mjs looks for it
  browser=
  if [ -n "${RULESTACK_CHROMIUM:-}" ]; then
    browsers=("$RULESTACK_CHROMIUM")
  else
    browsers=(/usr/bin/chromium "/Applications/Chromium.app/Contents/MacOS/Chromium"
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
  fi
  for b in "${browsers[@]}"; do
    if [ -x "$b" ]; then browser=$b; break; fi
  done
  if [ -n "$browser" ]; then
    say "e2e browser: $browser"
  else
    say "no Chromium or Chrome found: the e2e suite will be skipped. To run it, install one" \
      "(brew install --cask chromium, or Google Chrome) or point RULESTACK_CHROMIUM at a local" \
      "Chrome: RULESTACK_CHROMIUM=/path/to/chrome npm test -- e2e"
  fi
fi

# npm ci when node_modules is missing, or package-lock.json changed since the last install
# (npm writes node_modules/.package-lock.json on every install).
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  say "npm ci"
  act npm ci --no-audit --no-fund </dev/null
fi
