#!/usr/bin/env bash
# Shared by run.sh and test.sh: install the Debian packages tcx needs (only
# those missing) and configure the default preset. Each caller then builds
# what it needs: run.sh the programs it runs, test.sh everything.
# Idempotent: a second run installs and configures nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Qt6Charts' CMake package needs Qt6OpenGL's, which qt6-charts-dev does not
# pull in (Debian 12): libqt6opengl6-dev is listed for it.
packages=(
  build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libgraphviz-dev libz3-dev libsqlite3-dev sqlite3
  catch2 libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  nlohmann-json3-dev libfmt-dev libcli11-dev
  qt6-httpserver-dev qt6-websockets-dev libjs-d3 libjs-chart.js libjs-highlight.js
  chromium
)
# The browser tests run on Node.js: Debian's, unless one is installed already
# (a machine with NodeSource's nodejs has npm inside it, and Debian's npm
# package would conflict with it).
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# playwright-core for the browser tests, at the version tests/web's lockfile
# pins; it drives Debian's chromium and downloads no browser.
if [ ! -f tests/web/node_modules/.package-lock.json ] ||
   [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then
  echo "setup: installing tests/web's npm packages (npm ci)"
  npm ci --prefix tests/web --no-audit --no-fund
fi

[ -f build/build.ninja ] || cmake --preset default
