#!/usr/bin/env python3
"""Prints one line per plan of a `tcx profile --json` answer read from stdin (wall time per inference, kernel span,
cold compile time, the check against the CPU reference) and its five slowest kernels (with what choosing
between generated code and a library call timed for each form), labelled with argv[1]."""

import json
import sys


def main():
    label = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        plans = json.load(sys.stdin)["plans"]
    except (ValueError, KeyError) as e:
        print(f"{label}: no result ({e})")
        return
    for p in plans:
        check = p.get("check") or {}
        print(f"{label}: wall {p['wall_us']:.1f} us (±{p['wall_spread_us']:.1f}), span {p['latency_us']:.1f}, "
              f"compile {p['compile_ms'] / 1000:.1f} s, check {check.get('passed')} {check.get('error', 0):.2g}, "
              f"vendor calls {p.get('vendor_calls', 0)} of {p.get('vendor_alternatives', 0)} "
              f"(chosen in {p.get('vendor_choice_ms', 0) / 1000:.1f} s), "
              f"extra memory {p.get('extra_memory_bytes', 0) / 2**20:.1f} MiB")
        for k in sorted(p["kernels"], key=lambda k: -k["us"])[:5]:
            forms = "; ".join(k["forms"])[:110]
            choice = k.get("choice")
            chosen = (f" [{choice['form']}: generated {choice['generated_us']:.1f} us, "
                      f"{choice.get('library', 'library')} {choice['vendor_us']:.1f}]"
                      if choice else "")
            print(f"    {k['us']:8.1f} us x{k['launches']:<3} {k['name'][:60]}: {forms}{chosen}")


if __name__ == "__main__":
    main()
