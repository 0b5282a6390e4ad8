#!/bin/bash
# Runs on a GPU machine with several GPUs: the real-model suite (suite_parts.sh) on every GPU at once, the models
# dealt out round-robin. Each model's whole row (tcx and every PyTorch variant) is timed on one GPU in one run, so its
# ratio is still taken within one run on one GPU; the GPUs only shorten the wall time of the suite, which with the
# max-autotune column does not fit one device call on one GPU. Inductor's compile workers are capped per GPU so that
# one GPU's compiles leave CPU to another's eager timing (eager at batch 1 is bound by the CPU's launches).
# Every row so far comes back as $OUT/rows.md, for suite_table.py (and as $OUT/state/gpu*/*.md if the call is cut off
# before the end).
# Usage: profiler/bench/suite_gpus.sh BUNDLE DEADLINE_S [SIZE...] [--done DIR] [-- SUITE_BENCHMARK_ARGS...]
#   as suite_parts.sh; SUITE_BENCHMARK_ARGS may not hold --only (the models are dealt out here)
#   GPUS="1 2 3"   the GPUs to deal to (default every GPU), leaving the others to other work in the same call
#   MODELS="a b"   the models to deal out (default every suite model)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
parts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do parts+=("$1"); shift; done
[ $# -gt 0 ] && shift
gpu_ids=(${GPUS:-$(seq 0 $(( $(nvidia-smi -L | wc -l) - 1 )))})
gpus=${#gpu_ids[@]}
# Each GPU's rows are written as they are timed; under $OUT they come back even when the call is cut off.
out=${OUT:-/tmp/tcx-suite}
state=${STATE:-$out/state}
models=(${MODELS:-$(cd "$root" && python3 -c "import sys; sys.path.insert(0, 'models/real'); import export; print(*export.models())")})
export TORCHINDUCTOR_COMPILE_THREADS=$(( $(nproc) / gpus / 2 > 0 ? $(nproc) / gpus / 2 : 1 ))
echo "${#models[@]} models on $gpus GPUs, $TORCHINDUCTOR_COMPILE_THREADS compile threads each"
for (( k = 0; k < gpus; ++k )); do
  g=${gpu_ids[k]}
  mine=()
  for (( i = k; i < ${#models[@]}; i += gpus )); do mine+=("${models[i]}"); done
  CUDA_VISIBLE_DEVICES=$g STATE=$state/gpu$g OUT=$out/gpu$g TCX_CACHE_DIR=${TCX_CACHE_DIR:-/tmp/tcx-cache}/gpu$g \
    "$root/profiler/bench/suite_parts.sh" "${parts[@]}" -- "$@" --only "${mine[@]}" 2>&1 | sed -u "s/^/[gpu$g] /" &
done
wait
cat "$out"/gpu*/rows.md > "$out/rows.md"
