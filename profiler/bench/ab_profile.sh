#!/bin/bash
# Runs on the GPU machine: two tcx bundles (before and after a change) profile the same models one after the
# other in one call, so their times compare (benchmarks.md: only ratios within one run count). For each model and
# bundle it prints the wall time per inference, the kernel span, the cold compile time, the check against the CPU
# reference and the five slowest kernels (profile_summary.py).
# Usage: profiler/bench/ab_profile.sh OLD_BUNDLE NEW_BUNDLE MODEL.onnx...   (a bundle: ../shared/device/bundle's OUTDIR)
set -uo pipefail
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
shift 2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for model in "$@"; do
  for bundle in "$old" "$new"; do
    summary=$(LD_LIBRARY_PATH=$bundle/lib:/usr/local/cuda/lib64 timeout 300 "$bundle/tcx" profile "$model" \
      --strategy greedy --check --reps 20 --json 2>"$err" |
      python3 "$(dirname "$0")/profile_summary.py" "$(basename "$bundle") $model")
    echo "$summary"
    # No JSON: tcx's own message says why (no GPU, a bad model, a failed check's exit).
    [[ $summary == *"no result"* ]] && tail -2 "$err" | sed 's/^/    /'
  done
done
