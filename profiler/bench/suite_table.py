#!/usr/bin/env python3
"""Joins the --markdown tables of several suite_benchmark.py calls into issue 20's summary: one row per model with its
batch-1 and serving ratios (best PyTorch / tcx), the geometric mean over each size's models, and the models slower
than the best PyTorch variant. The suite does not fit one device call, so its rows come from several; a ratio is
only ever taken within one call (suite_benchmark.py computes it), never across.

Usage: python3 profiler/bench/suite_table.py TABLE.md...   (the files suite_benchmark.py --markdown wrote)
"""

import math
import re
import sys
from pathlib import Path

# "| llama3.dynamo (full) | 1411.0 (±4.3, compiled in 1.3 s) | ... | reduce-overhead | 1.15x |"
ROW = re.compile(r"^\| (?P<model>[\w.]+?)\.\w+ \((?P<size>full|serve)\) \| (?P<tcx>[\d.]+) .*"
                 r"\| (?P<best>[\w-]+) \| (?P<ratio>[\d.]+)x")


def exact_ratio(line, tcx, printed):
    """Best PyTorch / tcx from the row's own microseconds (the printed ratio has two decimals, so a model 0.3 %
    slower prints as 1.00x): the cells after tcx's, eager to max-autotune, "-" where a variant has no time."""
    variants = [float(c) for c in (c.strip() for c in line.split("|")[3:7]) if re.fullmatch(r"[\d.]+", c)]
    return min(variants) / tcx if variants else printed


def read_rows(paths):
    """{(model, size): (tcx µs, best variant, ratio)}; a model timed twice keeps its last row."""
    rows = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if m := ROW.match(line):
                tcx = float(m["tcx"])
                rows[(m["model"], m["size"])] = (tcx, m["best"], exact_ratio(line, tcx, float(m["ratio"])))
    return rows


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = read_rows(sys.argv[1:])
    if not rows:
        sys.exit("no suite_benchmark.py rows in " + ", ".join(sys.argv[1:]))
    models = list(dict.fromkeys(model for model, _ in rows))  # in the order the calls timed them

    def cell(model, size):
        if (model, size) not in rows:
            return "not measured | | "
        tcx, best, ratio = rows[(model, size)]
        return f"{tcx:.1f} | {best} | " + (f"**{ratio:.3f}x**" if ratio < 1 else f"{ratio:.2f}x")

    print("| model | batch 1: tcx µs | best PyTorch | ratio | serving: tcx µs | best PyTorch | ratio |")
    print("|---|---|---|---|---|---|---|")
    for model in models:
        print(f"| {model} | {cell(model, 'full')} | {cell(model, 'serve')} |")
    print()
    for size, label in (("full", "batch 1"), ("serve", "serving")):
        ratios = {model: r[2] for (model, s), r in rows.items() if s == size}
        if not ratios:
            print(f"{label}: not measured")
            continue
        slower = ", ".join(f"{m} {r:.3f}x" for m, r in ratios.items() if r < 1) or "none"
        print(f"{label}: geometric mean {geometric_mean(ratios.values()):.2f}x over {len(ratios)} models; "
              f"slower: {slower}")


if __name__ == "__main__":
    main()
