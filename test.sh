#!/usr/bin/env bash
# Set up, build everything, and run every test through ctest. Extra arguments
# go to ctest (e.g. ./test.sh -L gui, ./test.sh -R onnx_conformance).
set -euo pipefail
cd "$(dirname "$0")"
.ci/setup.sh
cmake --build --preset default
ctest --preset default -j "$(nproc)" "$@"
