#!/usr/bin/env python3
"""The real-model suite against PyTorch, in one call on one GPU (issue 20's
benchmark; not a test). For every suite model at batch 1 (--size full) or
at the serving batch (--size serve: 32 images, 8 sequences of 128 tokens,
8 decode steps; models/real/export.py) it times, as wall time per call with the L2 cache flushed before each call (cudaEvents around
the call, median and p10-p90 of --reps):

  tcx            `tcx profile` of the export at that size, optimised plan,
                 launched as one CUDA graph (its `wall_us`)
  eager          the PyTorch model as export.py builds it, under no_grad
  compile        torch.compile(model)
  reduce-overhead torch.compile(model, mode="reduce-overhead") (CUDA graphs)
  max-autotune   torch.compile(model, mode="max-autotune"), with --max-autotune

PyTorch keeps its defaults: fp32 matmuls in fp32 (no tf32), convolutions on
cuDNN with tf32 allowed, as tcx does. The weights are random in both; tcx
feeds random values to the same shapes.

Usage (on the GPU machine, from the repository root):
  python3 profiler/bench/suite_benchmark.py TCX [--size full|serve] [--exporter dynamo|torchscript]
                                            [--only NAME...] [--reps N] [--max-autotune]
                                            [--markdown FILE] [--budget S] [--skip-rows FILE...]
Prints one line per model and, with --markdown, writes the table rows (see
docs/benchmarks.md) with the ratio of the best PyTorch variant to tcx, each
row as soon as it is timed. With --budget it starts no model after S seconds,
so that a call under a device time limit ends with whole rows. --skip-rows
skips the models that already have a row at this size in those files (the
--markdown tables of earlier calls; suite_table.py reads them).
"""

import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "models" / "real"))
import export  # noqa: E402  (the suite's model builders)

sys.path.insert(0, str(ROOT / "profiler" / "bench"))
from suite_table import read_rows  # noqa: E402  (the rows' one reader)

FLUSH = None


def wall_us(fn, reps, warmup=5):
    """Median and p10/p90 of cudaEvent wall time around fn(), L2 flushed first by reading a buffer
    twice its size (as tcx profile does: kernels/include/tcx/l2_flush.cuh says why not a memset)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        FLUSH.sum()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000)
    times.sort()
    return statistics.median(times), times[len(times) // 10], times[len(times) * 9 // 10]


def torch_variants(name, size, reps, max_autotune):
    model, args = export.models()[name][2](size)
    model = model.cuda().eval()
    args = tuple(a.cuda() for a in args)
    modes = [("eager", None), ("compile", "default"), ("reduce-overhead", "reduce-overhead")]
    if max_autotune:
        modes.append(("max-autotune", "max-autotune"))
    results = {}
    # Factory calls inside forward (torch.arange in the decode step) make
    # their tensors on the GPU too.
    with torch.no_grad(), torch.device("cuda"):
        for label, mode in modes:
            torch._dynamo.reset()
            fn = model if mode is None else torch.compile(model, mode=mode)
            started = time.time()
            try:
                fn(*args)  # compiles
                torch.cuda.synchronize()
                results[label] = wall_us(lambda: fn(*args), reps)
            except Exception as e:  # a variant that does not compile is reported, not fatal
                print(f"  {name} {label}: {type(e).__name__}: {str(e).splitlines()[0][:160]}", flush=True)
            print(f"  {name} {label}: {results.get(label, ('-',))[0]} us, {time.time() - started:.0f} s", flush=True)
    return results


def export_path(name, size, exporter):
    return ROOT / "models" / "real" / size / f"{name}.{exporter}.onnx"


def tcx_wall(tcx, name, size, exporter, reps):
    path = export_path(name, size, exporter)
    run = subprocess.run([tcx, "profile", str(path), "--strategy", "greedy", "--json", "--reps", str(reps)],
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        print(f"  {name} tcx: rc {run.returncode}: {run.stderr.strip()[-300:]}", flush=True)
        return None
    plan = json.loads(run.stdout)["plans"][0]
    return plan["wall_us"], plan["wall_spread_us"], plan["compile_ms"]


def main():
    global FLUSH
    parser = argparse.ArgumentParser()
    parser.add_argument("tcx")
    parser.add_argument("--size", default="full", choices=["full", "serve"])
    parser.add_argument("--exporter", default="dynamo", choices=["dynamo", "torchscript"])
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--max-autotune", action="store_true")
    parser.add_argument("--markdown")
    parser.add_argument("--budget", type=float, help="seconds after which no model is started")
    parser.add_argument("--skip-rows", nargs="*", default=[], help="tables whose models are not timed again")
    opts = parser.parse_args()
    FLUSH = torch.zeros(2 * torch.cuda.get_device_properties(0).L2_cache_size // 4 + 1, dtype=torch.int32,
                        device="cuda")
    print(f"GPU: {torch.cuda.get_device_name(0)}; torch {torch.__version__}", flush=True)
    ratios = []
    timed = read_rows(opts.skip_rows)
    names = [n for n in export.models() if (not opts.only or n in opts.only) and (n, opts.size) not in timed]
    # The suite at a size is what models/real holds at that size (its manifest); timing PyTorch for a model tcx
    # cannot run would only cost the call's time.
    missing = [n for n in names if not export_path(n, opts.size, opts.exporter).exists()]
    if missing:
        print(f"not exported at --size {opts.size} ({opts.exporter}), skipped: {', '.join(missing)}", flush=True)
    header = ("| model | tcx optimised µs wall | eager µs | torch.compile µs | reduce-overhead µs | max-autotune µs | "
              "best PyTorch | best PyTorch / tcx |\n|---|---|---|---|---|---|---|---|\n")
    if opts.markdown:
        Path(opts.markdown).write_text(header)
    started = time.time()
    for name in (n for n in names if n not in missing):
        if opts.budget is not None and time.time() - started > opts.budget:
            print(f"budget of {opts.budget} s spent: not timed: {name}", flush=True)
            continue
        tcx = tcx_wall(opts.tcx, name, opts.size, opts.exporter, opts.reps)
        variants = torch_variants(name, opts.size, opts.reps, opts.max_autotune)
        best = min(variants.items(), key=lambda kv: kv[1][0]) if variants else None
        ratio = best[1][0] / tcx[0] if tcx and best else None
        if ratio:
            ratios.append(ratio)
        cells = " | ".join(f"{variants[v][0]:.1f}" if v in variants else "-"
                           for v in ["eager", "compile", "reduce-overhead", "max-autotune"])
        tcx_cell = f"{tcx[0]:.1f} (±{tcx[1] / 2:.1f}, compiled in {tcx[2] / 1000:.1f} s)" if tcx else "failed"
        verdict = "-" if ratio is None else f"{ratio:.2f}x" + (" (slower)" if ratio < 1 else "")
        # suite_table.py reads these rows back (its ROW pattern): keep the two in step.
        row = f"| {name}.{opts.exporter} ({opts.size}) | {tcx_cell} | {cells} | {best[0] if best else '-'} | {verdict} |"
        print(row, flush=True)
        if opts.markdown:
            with open(opts.markdown, "a") as table:
                table.write(row + "\n")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
    summary = f"geometric mean of best PyTorch / tcx over {len(ratios)} models: {geo:.2f}x"
    print(summary)
    if opts.markdown:
        with open(opts.markdown, "a") as table:
            table.write(f"\n{summary}\n")


if __name__ == "__main__":
    main()
