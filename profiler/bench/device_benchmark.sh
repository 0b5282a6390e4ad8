#!/bin/bash
# Runs on the GPU machine: tcx (baseline and optimised plans, CUPTI) and the
# PyTorch baselines in the same call on the same GPU, then prints one table.
# Usage: BUNDLE/device_benchmark.sh BUNDLE [RESULTS_DIR]
set -euo pipefail
bundle=$(cd "$1" && pwd)
results=${2:-${OUT:-/tmp/tcx-bench}}
mkdir -p "$results"
export LD_LIBRARY_PATH=$bundle/lib:/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$results/gpu.txt"
for model in llama3_8b_decode_attention llama3_8b_decode yolov11_c3k2 shufflenet_v2_unit; do
  # A plan that fails its check exits 7 (the table says "check FAILED"); the run goes on.
  "$bundle/tcx" profile "$bundle/samples/$model.onnx" --check --reps 60 --json > "$results/tcx_$model.json" || [ $? -eq 7 ]
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); [print(sys.argv[2], p['strategy'], round(p['latency_us'],1), 'us', p['check']) for p in j['plans']]" \
    "$results/tcx_$model.json" "$model"
done
PYTHONUNBUFFERED=1 python3 "$bundle/torch_baselines.py" 2>&1 | tee "$results/torch.txt"
python3 "$bundle/benchmark_table.py" "$results" | tee "$results/table.md"
