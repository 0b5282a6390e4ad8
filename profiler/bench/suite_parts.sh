#!/bin/bash
# Runs on the GPU machine: the real-model suite (suite_benchmark.py) across as many device calls as it takes, each
# call ending with whole rows before the device's limit. Models with a row in STATE (kept on the machine while it
# stays warm) or in DONE (tables fetched from an earlier machine and carried back) are not timed again. Every row
# so far comes back as $OUT/rows.md, for suite_table.py.
# Usage: profiler/bench/suite_parts.sh BUNDLE DEADLINE_S [SIZE...] [--done DIR] [-- SUITE_BENCHMARK_ARGS...]
#   BUNDLE      ../shared/device/bundle's OUTDIR with tcx in it
#   DEADLINE_S  seconds this call may take; no model starts within MARGIN_S (default 110) of it
#   SIZE        full or serve (default both): every model models/real holds at that size
#   after --    passed on, e.g. -- --max-autotune --only resnet18 gpt2 (with a STATE of its own)
set -uo pipefail
shopt -s nullglob
start=$(date +%s)
bundle=$(cd "$1" && pwd)
deadline=$2
shift 2
done_dir=
sizes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --done) done_dir=$2; shift 2 ;;
    --) shift; break ;;
    full | serve) sizes+=("$1"); shift ;;
    *) echo "unknown size $1 (full, serve)" >&2; exit 2 ;;
  esac
done
[ ${#sizes[@]} -eq 0 ] && sizes=(full serve)
state=${STATE:-/tmp/tcx-suite}
out=${OUT:-$state}
mkdir -p "$state" "$out"
export LD_LIBRARY_PATH=$bundle/lib:/usr/local/cuda/lib64
root=$(cd "$(dirname "$0")/../.." && pwd)
for size in "${sizes[@]}"; do
  now=$(( $(date +%s) - start ))
  budget=$(( deadline - now - ${MARGIN_S:-110} ))
  [ $budget -lt 0 ] && break
  echo "== $size (no model starts after $budget s)"
  timeout $(( deadline - now )) python3 "$root/profiler/bench/suite_benchmark.py" "$bundle/tcx" --size "$size" \
    --reps 20 --budget "$budget" --markdown "$state/$size.$(date +%s).md" "$@" \
    --skip-rows "$state"/*.md ${done_dir:+"$done_dir"/*.md} 2>&1 | grep -v -i warn
done
for f in "$state"/*.md; do [ -e "$f" ] && { echo "<!-- $(basename "$f") -->"; cat "$f"; }; done > "$out/rows.md"
echo "elapsed $(( $(date +%s) - start )) s"
