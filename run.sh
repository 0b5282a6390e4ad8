#!/usr/bin/env bash
# Set up, build what it runs, and run tcx on the bundled default sample: the
# explorer when a display exists, otherwise the headless batch report.
# (./test.sh builds the rest: the tests, the samples generator, the tools.)
set -euo pipefail
cd "$(dirname "$0")"
.ci/setup.sh
sample=samples/llama3_8b_decode.onnx
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  cmake --build --preset default --target tcx-gui
  exec build/app/gui/tcx-gui "$sample"
fi
cmake --build --preset default --target tcx
echo "== tcx info $sample"
build/app/tcx/tcx info "$sample"
echo
echo "== tcx run $sample"
build/app/tcx/tcx run "$sample"
echo
echo "== tcx optimize $sample"
build/app/tcx/tcx optimize "$sample"
