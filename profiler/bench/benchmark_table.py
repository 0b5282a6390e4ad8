"""Builds docs/benchmarks.md's table from one device_benchmark.sh run: tcx's
JSON (tcx profile --json) and torch_baselines.py's lines, all measured in the
same call on the same GPU, with the ratios the GPU issue sets as targets.
Every row is wall time per call: tcx's `wall_us` (events around the CUDA
graph launch), as the PyTorch rows are (events around the call); until
2026-11-29 the tcx rows took `latency_us`, the traced kernel span, which
leaves out the graph launch and reads 1-3 us lower on the decode attention."""
import json, re, sys
from pathlib import Path

results = Path(sys.argv[1])
torch = {}
copy_bw = floor_us = None
for line in (results / "torch.txt").read_text().splitlines():
    m = re.match(r"(\S.*?)\s+median_us=\s*([\d.]+).*peak_extra_MiB=\s*([\d.]+)", line)
    if m:
        torch[m.group(1).strip()] = (float(m.group(2)), float(m.group(3)))
    if "copy_bandwidth_GBps=" in line:
        copy_bw = float(line.split("copy_bandwidth_GBps=")[1])
    if "roofline_us=" in line:
        floor_us = float(re.search(r"roofline_us=([\d.]+)", line).group(1))

def tcx(model):
    path = results / f"tcx_{model}.json"
    if not path.exists():
        return {}
    return {p["strategy"]: p for p in json.loads(path.read_text())["plans"]}

def mib(b):
    return b / 2**20

def find(prefix):
    return {k: v for k, v in torch.items() if k.startswith(prefix)}

gpu = (results / "gpu.txt").read_text().strip()
print(f"GPU: {gpu}; copy bandwidth {copy_bw:.0f} GB/s\n")
print("| workload | variant | median µs (wall per call) | extra MiB | vs tcx optimised |")
print("|---|---|---|---|---|")
for model, prefix in [("llama3_8b_decode_attention", "llama3_decode"), ("yolov11_c3k2", "c3k2"), ("shufflenet_v2_unit", "shufflenet_unit")]:
    plans = tcx(model)
    opt = plans.get("greedy", {}).get("wall_us")
    rows = []
    for strategy, label in [("baseline", "tcx baseline (one kernel per op)"), ("greedy", "tcx optimised")]:
        if strategy in plans:
            p = plans[strategy]
            verdict = "check passed" if p["check"] and p["check"]["passed"] else "check FAILED"
            rows.append((f"{label}, {verdict}", p["wall_us"], mib(p["extra_memory_bytes"])))
    for name, (us, extra) in find(prefix).items():
        rows.append((f"PyTorch {name}", us, extra))
    if model.startswith("llama") and floor_us:
        rows.append(("bandwidth floor", floor_us, 0.0))
    for label, us, extra in rows:
        ratio = f"{us / opt:.2f}x" if opt else "-"
        print(f"| {model} | {label} | {us:.1f} | {extra:.1f} | {ratio} |")
