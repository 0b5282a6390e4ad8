#!/bin/bash
# Packs what the GPU benchmark needs into OUTDIR (default .gpu/bench, which
# .git/info/exclude should ignore): tcx and its libraries, the samples, and
# the PyTorch baseline script. Run here, then on the GPU machine (the device
# tool, carrying OUTDIR):  OUTDIR/device_benchmark.sh OUTDIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/.gpu/bench}
rm -rf "$out"
"$root/../shared/device/bundle" "$root/build/app/tcx/tcx" "$out"
strip "$out/tcx"
mkdir -p "$out/samples"
cp "$root"/samples/{llama3_8b_decode_attention,llama3_8b_decode,yolov11_c3k2,shufflenet_v2_unit}.onnx "$out/samples/"
cp "$root/profiler/bench/torch_baselines.py" "$root/profiler/bench/device_benchmark.sh" \
   "$root/profiler/bench/benchmark_table.py" "$out/"
du -sh "$out"
