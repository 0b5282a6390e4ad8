#!/usr/bin/env python3
"""Runs `tcx profile MODEL --check --json` on every export of the real-model
suite (one size) on the GPU machine and prints one line per export: whether
both plans ran, the check's verdict, and the end-to-end times. Exits 1 if any
export failed to run or to match the CPU reference. With --markdown it also
writes the table of docs/gpu-real-models.md: kernels before and after,
data-movement kernels eliminated, the check's error, compile and GPU times.

Usage: python3 models/real/profile_suite.py TCX [--size full|small] [--reps N]
                                             [--timeout S] [--only NAME...]
                                             [--markdown FILE]
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent


TABLE_HEADER = (
    "| export | kernels before → after | data-movement kernels eliminated | --check | max error | "
    "compile s (baseline + optimised) | baseline µs wall (kernel span) | optimised µs wall (kernel span) | "
    "speed-up (wall) |\n"
    "|---|---|---|---|---|---|---|---|---|")


def table_row(name, verdict, worst, base, opt):
    def movement(plan):
        return sum(k["category"] == "data_movement" for k in plan["kernels"])

    compile_s = (base["compile_ms"] + opt["compile_ms"]) / 1000
    return (f"| {name} | {len(base['kernels'])} → {len(opt['kernels'])} | "
            f"{movement(base) - movement(opt)} of {movement(base)} | {verdict} | {worst['error']:.1e} | "
            f"{compile_s:.1f} | {base['wall_us']:.1f} ({base['latency_us']:.1f}) | "
            f"{opt['wall_us']:.1f} ({opt['latency_us']:.1f}) | {base['wall_us'] / opt['wall_us']:.2f}x |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tcx")
    parser.add_argument("--size", choices=["full", "small"], default="full")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--markdown", help="also write the table rows to this file")
    opts = parser.parse_args()
    rows = []
    manifest = json.loads((ROOT / f"manifest.{opts.size}.json").read_text())
    ok = failed = 0
    print(f"{'export':42} {'verdict':8} {'baseline us':>12} {'optimised us':>13} {'speed-up':>8}  detail (wall times)")
    for e in manifest["exports"]:
        if e["status"] != "ok" or (opts.only and e["model"] not in opts.only):
            continue
        name = f"{e['model']}.{e['exporter']}"
        cmd = [opts.tcx, "profile", str(ROOT / e["file"]), "--check", "--json", "--reps", str(opts.reps)]
        start = time.time()
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=opts.timeout)
        except subprocess.TimeoutExpired:
            print(f"{name:42} {'timeout':8} {'':>12} {'':>13} {'':>8}  over {opts.timeout} s")
            failed += 1
            continue
        seconds = time.time() - start
        try:
            result = json.loads(run.stdout)
        except json.JSONDecodeError:
            error = (run.stderr.strip().splitlines() or ["no output"])[-1]
            print(f"{name:42} {'error':8} {'':>12} {'':>13} {'':>8}  rc {run.returncode}: {error[:200]}")
            failed += 1
            continue
        plans = {p["strategy"]: p for p in result["plans"]}
        checks = [p["check"] for p in result["plans"]]
        passed = all(c and c["passed"] for c in checks)
        # JSON has no infinity: tcx writes an error it cannot bound (NaN, a
        # shape mismatch) as null.
        for c in checks:
            c["error"] = float("inf") if c["error"] is None else c["error"]
        worst = max(checks, key=lambda c: c["error"])
        base, opt = plans["baseline"]["wall_us"], plans["greedy"]["wall_us"]
        verdict = "passed" if passed else "FAILED"
        detail = f"max error {worst['error']:.2g} (tol {worst['tolerance']:.0e}) {worst['output']}; {seconds:.0f} s"
        print(f"{name:42} {verdict:8} {base:12.1f} {opt:13.1f} {base / opt:7.2f}x  {detail}")
        rows.append(table_row(name, verdict, worst, plans["baseline"], plans["greedy"]))
        ok += passed
        failed += not passed
    print(f"{ok} passed, {failed} failed")
    if opts.markdown:
        Path(opts.markdown).write_text("\n".join([TABLE_HEADER, *rows, ""]))
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
