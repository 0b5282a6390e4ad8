#!/bin/bash
# Runs on the GPU machine: the real-model suite (suite_benchmark.py) in parts, across as many device calls as it
# takes, each call ending with whole rows before the device's limit. Rows already in STATE (kept on the machine
# while it stays warm) or in DONE (*.md fetched from an earlier machine and carried back) are not timed again.
# Every row so far comes back as $OUT/rows.md, for suite_table.py.
# Usage: profiler/bench/suite_parts.sh BUNDLE DEADLINE_S [PART...] [--done DIR]
#   BUNDLE      ../shared/device/bundle's OUTDIR with tcx in it
#   DEADLINE_S  seconds this call may take; no model starts within MARGIN_S (default 110) of it
#   PART        any of the parts below (default: all but ma)
# The parts: the batch-1 transformers and CNNs, the serving transformers and CNNs, and ma, batch-1 models
# timed with torch.compile(mode="max-autotune") too (minutes a model).
set -uo pipefail
start=$(date +%s)
bundle=$(cd "$1" && pwd)
deadline=$2
shift 2
done_dir=
parts=()
while [ $# -gt 0 ]; do
  if [ "$1" = --done ]; then done_dir=$2; shift 2; else parts+=("$1"); shift; fi
done
state=${STATE:-/tmp/tcx-suite}
out=${OUT:-$state}
mkdir -p "$state" "$out"
export LD_LIBRARY_PATH=$bundle/lib:/usr/local/cuda/lib64
root=$(cd "$(dirname "$0")/../.." && pwd)
declare -A models=(
  [b1t]="full llama3 gpt2 bert distilbert convnext_tiny vit swin"
  [b1c]="full resnet18 resnext50 regnet_y_400mf mobilenet_v3_small efficientnet_b0 shufflenet_v2 densenet121 squeezenet"
  [st]="serve llama3 gpt2 bert distilbert vit swin"
  [s1]="serve resnet18 resnext50 regnet_y_400mf mobilenet_v3_small efficientnet_b0"
  [s2]="serve shufflenet_v2 densenet121 squeezenet convnext_tiny"
  [ma]="full resnet18 mobilenet_v3_small gpt2 bert squeezenet shufflenet_v2 efficientnet_b0 distilbert"
)
[ ${#parts[@]} -eq 0 ] && parts=(b1t b1c st s1 s2)
for part in "${parts[@]}"; do
  [ -n "${models[$part]:-}" ] || { echo "unknown part $part (b1t b1c st s1 s2 ma)" >&2; exit 2; }
  read -r size names <<< "${models[$part]}"
  left=()
  for m in $names; do
    grep -qsh "^| $m.dynamo ($size) " "$state/$part".*.md ${done_dir:+"$done_dir/$part".*.md} || left+=("$m")
  done
  [ ${#left[@]} -eq 0 ] && continue
  now=$(( $(date +%s) - start ))
  budget=$(( deadline - now - ${MARGIN_S:-110} ))
  [ $budget -lt 0 ] && break
  echo "== $part $size ${left[*]} (no model starts after $budget s)"
  timeout $(( deadline - now )) python3 "$root/profiler/bench/suite_benchmark.py" "$bundle/tcx" --size "$size" \
    --reps 20 --only "${left[@]}" $([ "$part" = ma ] && echo --max-autotune) --budget "$budget" \
    --markdown "$state/$part.$(date +%s).md" 2>&1 | grep -v -i warn
done
for f in "$state"/*.md; do [ -e "$f" ] && { echo "<!-- $(basename "$f") -->"; cat "$f"; }; done > "$out/rows.md"
echo "elapsed $(( $(date +%s) - start )) s"
